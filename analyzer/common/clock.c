/* clock.c - monotonic wall time and process CPU time (clock.h). */
#include "common/clock.h"

#include <errno.h>
#include <sys/resource.h>
#include <time.h>

double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void clock_sleep(double seconds)
{
    if (!(seconds > 0))
        return;
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

cpu_usage_t clock_cpu_usage(void)
{
    struct rusage ru;
    cpu_usage_t u = {0};
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        u.user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
        u.sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        u.max_rss_bytes = (uint64_t)ru.ru_maxrss * 1024u;
    }
    return u;
}
