/* writeback.c - the kernel's write-back thresholds in bytes (writeback.h): parsing meminfo
 * and vmstat text and the vm.dirty_* settings read through common/sys. */
#include "measure/writeback.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Reads one number from <proc root>/sys/vm/<name>. */
static bool read_vm(const char *name, uint64_t *out)
{
    char *text = sys_read_proc(name, 64);
    if (text == NULL)
        return false;
    bool ok = sscanf(text, "%" SCNu64, out) == 1;
    free(text);
    return ok;
}

bool writeback_parse_meminfo(const char *text, writeback_inputs_t *in)
{
    int found = 0;
    uint64_t kb;
    for (const char *line = text; line != NULL && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (sscanf(line, "MemFree: %" SCNu64, &kb) == 1) {
            in->mem_free = kb * 1024;
            found++;
        } else if (sscanf(line, "MemAvailable: %" SCNu64, &kb) == 1) {
            in->mem_available = kb * 1024;
            found++;
        } else if (sscanf(line, "Active(file): %" SCNu64, &kb) == 1 ||
                   sscanf(line, "Inactive(file): %" SCNu64, &kb) == 1) {
            in->file_pages += kb * 1024;
            found++;
        }
    }
    return found == 4;
}

bool writeback_parse_vmstat(const char *text, uint64_t page_size, writeback_inputs_t *in)
{
    int found = 0;
    uint64_t pages;
    for (const char *line = text; line != NULL && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (sscanf(line, "nr_dirty_threshold %" SCNu64, &pages) == 1) {
            in->vmstat_dirty_bytes = pages * page_size;
            found++;
        } else if (sscanf(line, "nr_dirty_background_threshold %" SCNu64, &pages) == 1) {
            in->vmstat_dirty_background_bytes = pages * page_size;
            found++;
        }
    }
    return found == 2;
}

writeback_settings_t writeback_read(void)
{
    writeback_inputs_t in;
    memset(&in, 0, sizeof in);
    char *meminfo = sys_read_proc("meminfo", 0);
    bool ok = read_vm("sys/vm/dirty_background_ratio", &in.dirty_background_ratio) &&
              read_vm("sys/vm/dirty_ratio", &in.dirty_ratio) &&
              read_vm("sys/vm/dirty_background_bytes", &in.dirty_background_bytes) &&
              read_vm("sys/vm/dirty_bytes", &in.dirty_bytes) &&
              read_vm("sys/vm/dirty_expire_centisecs", &in.dirty_expire_centisecs) &&
              read_vm("sys/vm/dirty_writeback_centisecs", &in.dirty_writeback_centisecs) &&
              meminfo != NULL && writeback_parse_meminfo(meminfo, &in);
    free(meminfo);
    char *vmstat = ok ? sys_read_proc("vmstat", 0) : NULL;
    long page = sys_page_size();
    if (vmstat != NULL && page > 0)
        writeback_parse_vmstat(vmstat, (uint64_t)page, &in);
    free(vmstat);
    if (!ok) {
        writeback_settings_t unknown;
        memset(&unknown, 0, sizeof unknown);
        return unknown;
    }
    return writeback_compute(&in);
}
