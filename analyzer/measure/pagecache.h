/* pagecache.h - keep the page cache out of a read measurement. */
#ifndef CP_PAGECACHE_H
#define CP_PAGECACHE_H

#include <stdbool.h>

#include "common/err.h"

/* Writes back and evicts the cached pages of the file at path (fdatasync, then
 * posix_fadvise DONTNEED). Returns CP_OK with *dropped true when, afterwards, at most 1%
 * of the file is still resident (checked with mincore), false when the kernel kept it
 * (tmpfs and ramfs always do). CP_EIO naming the path when it cannot be opened or synced. */
int pagecache_drop(const char *path, bool *dropped, cp_err_t *err);

/* The fraction (0..1) of the file at path that is in the page cache, or -1 when it cannot
 * be determined (empty file, mmap refused). */
double pagecache_resident_fraction(const char *path);

#endif
