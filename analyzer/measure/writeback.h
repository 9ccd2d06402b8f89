/* writeback.h - the kernel's page-cache write-back settings, as byte thresholds.
 *
 * A buffered write lands in the page cache as a dirty page. The kernel starts writing
 * dirty pages back in the background once they pass the background threshold, throttles
 * writers once they pass the dirty threshold, and writes any page older than the expiry
 * age on its periodic wake-up. Below all three, the output of a job waits in memory until
 * its fsync: the disk works after the compression, not during it. The model layer uses
 * these thresholds to predict which of the two happens (docs/method.md). */
#ifndef CP_MEASURE_WRITEBACK_H
#define CP_MEASURE_WRITEBACK_H

#include <stdbool.h>
#include <stdint.h>

#include "common/sys.h"

/* The raw settings as the system reports them (common/sys.h). */
typedef sys_writeback_t writeback_inputs_t;

/* The effective thresholds. known is false when /proc could not be read. */
typedef struct writeback_settings {
    bool known;
    uint64_t dirty_background_bytes; /* background write-back starts above this */
    uint64_t dirty_bytes;            /* writers are throttled above this */
    double dirty_expire_s;           /* dirty pages older than this are written */
    double dirty_writeback_s;        /* the flusher's wake-up interval */
    uint64_t mem_available_bytes;
    uint64_t dirtyable_bytes;        /* the memory the ratios apply to */
} writeback_settings_t;

/* The thresholds: the kernel's own figures from /proc/vmstat when it publishes them;
 * otherwise computed as it does (mm/page-writeback.c, domain_dirty_limits): a *_bytes
 * setting wins over its ratio; ratios apply to the dirtyable memory (free pages plus file
 * pages); a background threshold at or above the dirty threshold becomes half of it.
 * Pure; never fails. */
writeback_settings_t writeback_compute(const writeback_inputs_t *in);

/* Reads the settings of the running kernel (sys_writeback_read, so a test's proc root
 * applies). On any unreadable file the result has known false; never an error. */
writeback_settings_t writeback_read(void);

#endif
