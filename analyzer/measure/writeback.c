#include "measure/writeback.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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
    s.dirty_expire_s = (double)in->dirty_expire_centisecs / 100.0;
    s.dirty_writeback_s = (double)in->dirty_writeback_centisecs / 100.0;
    return s;
}

/* Reads one unsigned number from root/rel. */
static bool read_number(const char *root, const char *rel, uint64_t *out)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return false;
    bool ok = fscanf(f, "%" SCNu64, out) == 1;
    fclose(f);
    return ok;
}

/* Reads the meminfo fields the thresholds need (kB in the file, bytes out). */
static bool read_meminfo(const char *root, writeback_inputs_t *in)
{
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/meminfo", root);
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return false;
    int found = 0;
    uint64_t kb;
    while (fgets(line, sizeof line, f) != NULL) {
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
    fclose(f);
    return found == 4;
}

writeback_settings_t writeback_read(const char *root)
{
    if (root == NULL)
        root = "/proc";
    writeback_inputs_t in;
    memset(&in, 0, sizeof in);
    bool ok = read_number(root, "sys/vm/dirty_background_ratio", &in.dirty_background_ratio) &&
              read_number(root, "sys/vm/dirty_ratio", &in.dirty_ratio) &&
              read_number(root, "sys/vm/dirty_background_bytes", &in.dirty_background_bytes) &&
              read_number(root, "sys/vm/dirty_bytes", &in.dirty_bytes) &&
              read_number(root, "sys/vm/dirty_expire_centisecs", &in.dirty_expire_centisecs) &&
              read_number(root, "sys/vm/dirty_writeback_centisecs",
                          &in.dirty_writeback_centisecs) &&
              read_meminfo(root, &in);
    if (!ok) {
        writeback_settings_t unknown;
        memset(&unknown, 0, sizeof unknown);
        return unknown;
    }
    return writeback_compute(&in);
}
