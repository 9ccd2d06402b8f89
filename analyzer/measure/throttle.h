/* throttle.h - a token bucket that paces writes to an emulated rate (TARGET@RATE).
 *
 * The bucket lets through `rate_bps` bytes per second on average, with at most `burst_s`
 * seconds of saved-up credit, so a momentary stall of the real disk is not repaid with an
 * unthrottled burst. Not thread-safe: one bucket per writer. */
#ifndef CP_THROTTLE_H
#define CP_THROTTLE_H

#include <stddef.h>

typedef struct throttle {
    double rate_bps;   /* bytes per second; <= 0 disables pacing */
    double burst_s;    /* credit cap in seconds of traffic */
    double next_free;  /* monotonic time at which the bucket is empty of debt */
    int started;
} throttle_t;

/* A bucket for rate_bps (<= 0: no pacing) with the default 50 ms of burst credit. */
throttle_t throttle_make(double rate_bps);

/* Blocks until `bytes` more may pass at the bucket's rate, then charges them. Returns the
 * seconds slept. A disabled bucket returns 0 at once. The wait is slept in slices of at
 * most 100 ms and cut short once cp_interrupted() is true (the caller checks it). */
double throttle_wait(throttle_t *t, size_t bytes);

#endif
