/* hostinfo.h - a description of the machine a run happened on, for meta.json: CPU model,
 * CPU counts, memory, kernel and operating system. */
#ifndef CP_HOSTINFO_H
#define CP_HOSTINFO_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

typedef struct host_info {
    char cpu_model[128];      /* "Intel(R) Xeon(R) Processor"; "" when unknown */
    int online_cpus;          /* CPUs online in the machine; 0 when unknown */
    int usable_cpus;          /* CPUs this process may run on (affinity mask); 0 unknown */
    uint64_t mem_total_bytes; /* MemTotal; 0 when unknown */
    char kernel_release[128]; /* uname -r */
    char machine[64];         /* uname -m: "x86_64", "aarch64" */
    char os_name[128];        /* PRETTY_NAME from /etc/os-release; "" when unknown */
} host_info_t;

/* Fills *out from /proc/cpuinfo, /proc/meminfo, sysconf, sched_getaffinity, uname and
 * /etc/os-release. Never fails for a missing source: that field is left "" or 0.
 * Returns 0. */
int host_info_get(host_info_t *out);

/* The CPU model in /proc/cpuinfo text: the first "model name" (x86), else the first
 * "Processor", "cpu model", "Hardware" or "cpu" line, with runs of blanks collapsed.
 * Returns 0, or CP_EDATA when no such line exists (model is then ""). */
int host_info_parse_cpuinfo(const char *text, char *model, size_t model_cap);

/* MemTotal from /proc/meminfo text, in bytes. Returns 0, or CP_EDATA when absent. */
int host_info_parse_meminfo(const char *text, uint64_t *bytes);

/* PRETTY_NAME from os-release text, quotes removed. Returns 0, or CP_EDATA when absent. */
int host_info_parse_os_release(const char *text, char *name, size_t name_cap);

/* The largest of threads[0..n) that exceeds the CPUs this process may use (usable, else
 * online), with a warning on stderr naming both; 0 when none does or the count is unknown.
 * Such points are oversubscribed: the threads take turns on the cores. */
int host_warn_oversubscribed(const int *threads, size_t n);

#endif
