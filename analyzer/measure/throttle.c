/* throttle.c - the token bucket that paces an emulated rate cap (throttle.h). */
#include "measure/throttle.h"

#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"

/* A long wait is slept in slices so an interrupt is noticed within one slice. */
#define THROTTLE_SLICE_S 0.1

throttle_t throttle_make(double rate_bps)
{
    throttle_t t = {rate_bps, 0.05, 0.0, 0};
    return t;
}

double throttle_wait(throttle_t *t, size_t bytes)
{
    if (t->rate_bps <= 0)
        return 0.0;
    double now = clock_now();
    if (!t->started || t->next_free < now - t->burst_s) {
        /* Idle or fallen behind: keep at most burst_s of credit. */
        t->next_free = t->started ? now - t->burst_s : now;
        t->started = 1;
    }
    t->next_free += (double)bytes / t->rate_bps;
    /* Like a disk of that speed, a write returns once its bytes have "transferred": N bytes
     * take N / rate seconds in all, whatever the chunk size. */
    double wait = t->next_free - now;
    if (!(wait > 0))
        return 0.0;
    double until = now + wait;
    for (double left = wait; left > 0 && !cp_interrupted(); left = until - clock_now())
        clock_sleep(left < THROTTLE_SLICE_S ? left : THROTTLE_SLICE_S);
    return clock_now() - now;
}

ssize_t throttle_read(throttle_t *t, int fd, void *buf, size_t len, double *waited_s)
{
    ssize_t n = read(fd, buf, len);
    if (n <= 0)
        return n;
    /* Charged after the read, for the bytes that came: a short read or the end of the file
     * costs only what it delivered. */
    double slept = throttle_wait(t, (size_t)n);
    if (waited_s != NULL)
        *waited_s += slept;
    return n;
}
