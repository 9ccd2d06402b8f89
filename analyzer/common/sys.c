/* sys.c - the portable part of sys.h: the free-space rule and the names of RAM file
 * systems, pure functions every system's implementation (sys_linux.c) shares. */
#include "common/sys.h"

#include <string.h>

bool sys_fs_is_ram(const char *fs_type)
{
    return strcmp(fs_type, "tmpfs") == 0 || strcmp(fs_type, "ramfs") == 0;
}

uint64_t sys_space_margin(uint64_t total_bytes)
{
    uint64_t margin = total_bytes / 100u * SYS_SPACE_MARGIN_PERCENT;
    return margin < SYS_SPACE_MARGIN_MIN_BYTES ? SYS_SPACE_MARGIN_MIN_BYTES : margin;
}

void sys_space_make(uint64_t free_bytes, uint64_t total_bytes, sys_space_t *out)
{
    out->free_bytes = free_bytes;
    out->total_bytes = total_bytes;
    out->margin_bytes = sys_space_margin(total_bytes);
    out->usable_bytes = free_bytes > out->margin_bytes ? free_bytes - out->margin_bytes : 0;
}

bool sys_space_fits(const sys_space_t *space, uint64_t bytes)
{
    return bytes <= space->usable_bytes;
}
