/* throttle.h - a token bucket that paces writes or reads to an emulated rate
 * (TARGET@RATE, TARGET@write=RATE,read=RATE).
 *
 * The bucket lets through `rate_bps` bytes per second on average, with at most `burst_s`
 * seconds of saved-up credit, so a momentary stall of the real disk is not repaid with an
 * unthrottled burst. Not thread-safe: one bucket per writer. */
#ifndef CP_THROTTLE_H
#define CP_THROTTLE_H

#include <stddef.h>
#include <sys/types.h>

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

/* One read(2) of up to len bytes from fd into buf, paced: the bytes it returns are then
 * charged to the bucket (throttle_wait), so a read returns no sooner than a volume of the
 * bucket's speed would have delivered them. Returns what read(2) returned, with its errno
 * on -1 (EINTR included: the caller retries); 0 at end of file, nothing charged. The
 * seconds slept are added to *waited_s when it is not NULL. A disabled bucket is a plain
 * read. The wait is cut short once cp_interrupted() is true: the caller checks it after
 * the call, and the bytes read are still valid. */
ssize_t throttle_read(throttle_t *t, int fd, void *buf, size_t len, double *waited_s);

#endif
