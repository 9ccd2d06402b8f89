/* hostinfo.h - a description of the machine a run happened on, for meta.json: CPU model,
 * CPU counts, memory, kernel, operating system and host name, as the OS seam (common/sys.h)
 * reports them. */
#ifndef CP_HOSTINFO_H
#define CP_HOSTINFO_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/sys.h"

/* The machine: CPU model and counts, memory, kernel, OS and host name (common/sys.h). */
typedef sys_host_t host_info_t;

/* Fills *out with sys_host_info. Never fails for a missing source: that field is left ""
 * or 0. Returns 0. */
int host_info_get(host_info_t *out);

/* The largest of threads[0..n) that exceeds the CPUs this process may use (usable, else
 * online), with a warning on stderr naming both; 0 when none does or the count is unknown.
 * Such points are oversubscribed: the threads take turns on the cores. */
int host_warn_oversubscribed(const int *threads, size_t n);

#endif
