/* clock.h - the one clock module: monotonic wall time and process CPU time. */
#ifndef CP_CLOCK_H
#define CP_CLOCK_H

#include <stdint.h>

/* Seconds on the monotonic clock (CLOCK_MONOTONIC); only differences mean anything. */
double clock_now(void);

/* Sleeps for the given seconds (<= 0 returns at once); resumes after signals. */
void clock_sleep(double seconds);

/* CPU time and peak memory of this process so far (getrusage RUSAGE_SELF). */
typedef struct cpu_usage {
    double user_s;
    double sys_s;
    uint64_t max_rss_bytes;
} cpu_usage_t;

cpu_usage_t clock_cpu_usage(void);

#endif
