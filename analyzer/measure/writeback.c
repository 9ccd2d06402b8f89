/* writeback.c - the kernel's write-back thresholds in bytes (writeback.h), computed from
 * the raw settings common/sys reads. */
#include "measure/writeback.h"

#include <string.h>

#include "common/sys.h"

writeback_settings_t writeback_compute(const writeback_inputs_t *in)
{
    writeback_settings_t s;
    memset(&s, 0, sizeof s);
    s.known = true;
    s.dirtyable_bytes = in->mem_free + in->file_pages;
    s.mem_available_bytes = in->mem_available;
    s.dirty_bytes = in->dirty_bytes > 0 ? in->dirty_bytes
                                        : s.dirtyable_bytes / 100 * in->dirty_ratio;
    s.dirty_background_bytes = in->dirty_background_bytes > 0
                                   ? in->dirty_background_bytes
                                   : s.dirtyable_bytes / 100 * in->dirty_background_ratio;
    if (s.dirty_background_bytes >= s.dirty_bytes)
        s.dirty_background_bytes = s.dirty_bytes / 2;
    if (in->vmstat_dirty_bytes > 0 && in->vmstat_dirty_background_bytes > 0) {
        s.dirty_bytes = in->vmstat_dirty_bytes;
        s.dirty_background_bytes = in->vmstat_dirty_background_bytes;
    }
    s.dirty_expire_s = (double)in->dirty_expire_centisecs / 100.0;
    s.dirty_writeback_s = (double)in->dirty_writeback_centisecs / 100.0;
    return s;
}

writeback_settings_t writeback_read(void)
{
    writeback_inputs_t in;
    if (!sys_writeback_read(&in)) {
        writeback_settings_t unknown;
        memset(&unknown, 0, sizeof unknown);
        return unknown;
    }
    return writeback_compute(&in);
}
