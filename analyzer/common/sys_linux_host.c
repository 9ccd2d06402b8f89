/* sys_linux_host.c - the Linux implementation of sys.h's machine questions: the host's
 * description (/proc/cpuinfo, /proc/meminfo, uname, os-release), the write-back settings
 * (/proc/sys/vm, /proc/meminfo, /proc/vmstat) and a block device's queue
 * (/sys/dev/block), with the text parsers behind them (sys_linux_parse.h). */
#include "common/sys.h"
#include "common/sys_linux_parse.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* ---- the host ------------------------------------------------------------------------- */

#define HOST_TEXT_MAX (64 * 1024)

/* The head of a host description file (enough for the first CPU of /proc/cpuinfo). */
static char *read_file_text(const char *path) { return sys_read_file(path, HOST_TEXT_MAX); }

/* The OS release text (/etc/os-release, else /usr/lib/os-release); NULL when neither. */
static char *os_release_text(void)
{
    char *text = read_file_text("/etc/os-release");
    return text != NULL ? text : read_file_text("/usr/lib/os-release");
}

/* The first line of text whose key (before ':' or '=', blanks trimmed) is key; returns
 * the value with leading blanks skipped and its length up to the line end, or NULL. */
static const char *find_value(const char *text, const char *key, char sep, size_t *len)
{
    size_t key_len = strlen(key);
    for (const char *line = text; line != NULL && *line != '\0';) {
        const char *next = strchr(line, '\n');
        const char *end = next != NULL ? next : line + strlen(line);
        if ((size_t)(end - line) > key_len && strncmp(line, key, key_len) == 0) {
            const char *p = line + key_len;
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            if (p < end && *p == sep) {
                p++;
                while (p < end && (*p == ' ' || *p == '\t'))
                    p++;
                *len = (size_t)(end - p);
                return p;
            }
        }
        line = next != NULL ? next + 1 : NULL;
    }
    return NULL;
}

/* Copies len bytes of value into dst[cap], collapsing runs of blanks, trimming the ends. */
static void copy_collapsed(char *dst, size_t cap, const char *value, size_t len)
{
    size_t o = 0;
    bool blank = false;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        if (isspace((unsigned char)value[i])) {
            blank = o > 0;
            continue;
        }
        if (blank && o + 2 < cap)
            dst[o++] = ' ';
        blank = false;
        dst[o++] = value[i];
    }
    dst[o] = '\0';
}

int sys_parse_cpuinfo(const char *text, char *model, size_t model_cap)
{
    static const char *const keys[] = {"model name", "Processor", "cpu model", "Hardware",
                                       "cpu"};
    model[0] = '\0';
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t len;
        const char *v = find_value(text, keys[k], ':', &len);
        if (v != NULL && len > 0) {
            copy_collapsed(model, model_cap, v, len);
            return 0;
        }
    }
    return CP_EDATA;
}

int sys_parse_meminfo_total(const char *text, uint64_t *bytes)
{
    size_t len;
    const char *v = find_value(text, "MemTotal", ':', &len);
    unsigned long long kib;
    char unit[8] = "";
    if (v == NULL || sscanf(v, "%llu %7s", &kib, unit) < 1)
        return CP_EDATA;
    /* The kernel says "kB" and means KiB. */
    *bytes = (uint64_t)kib * (unit[0] != '\0' ? 1024u : 1u);
    return 0;
}

int sys_parse_os_release(const char *text, char *name, size_t name_cap)
{
    size_t len;
    const char *v = find_value(text, "PRETTY_NAME", '=', &len);
    if (v == NULL)
        return CP_EDATA;
    while (len > 0 && (v[len - 1] == ' ' || v[len - 1] == '\r'))
        len--;
    if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0]) {
        v++;
        len -= 2;
    }
    copy_collapsed(name, name_cap, v, len);
    return 0;
}

void sys_host_info(sys_host_t *out)
{
    memset(out, 0, sizeof *out);
    char *text = read_file_text("/proc/cpuinfo");
    if (text != NULL)
        sys_parse_cpuinfo(text, out->cpu_model, sizeof out->cpu_model);
    free(text);

    text = read_file_text("/proc/meminfo");
    if (text == NULL || sys_parse_meminfo_total(text, &out->mem_total_bytes) != 0)
        out->mem_total_bytes = sys_phys_mem_bytes();
    free(text);

    out->online_cpus = sys_online_cpus();
    out->usable_cpus = sys_usable_cpus();

    struct utsname u;
    if (uname(&u) == 0) {
        copy_collapsed(out->kernel_release, sizeof out->kernel_release, u.release,
                       strlen(u.release));
        copy_collapsed(out->machine, sizeof out->machine, u.machine, strlen(u.machine));
    }

    text = os_release_text();
    if (text != NULL)
        sys_parse_os_release(text, out->os_name, sizeof out->os_name);
    free(text);

    if (gethostname(out->hostname, sizeof out->hostname - 1) != 0)
        out->hostname[0] = '\0';
}


/* ---- write-back settings --------------------------------------------------------------- */

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

bool sys_parse_writeback_meminfo(const char *text, sys_writeback_t *in)
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

bool sys_parse_writeback_vmstat(const char *text, uint64_t page_size, sys_writeback_t *in)
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

bool sys_writeback_read(sys_writeback_t *out)
{
    sys_writeback_t in;
    memset(&in, 0, sizeof in);
    char *meminfo = sys_read_proc("meminfo", 0);
    bool ok = read_vm("sys/vm/dirty_background_ratio", &in.dirty_background_ratio) &&
              read_vm("sys/vm/dirty_ratio", &in.dirty_ratio) &&
              read_vm("sys/vm/dirty_background_bytes", &in.dirty_background_bytes) &&
              read_vm("sys/vm/dirty_bytes", &in.dirty_bytes) &&
              read_vm("sys/vm/dirty_expire_centisecs", &in.dirty_expire_centisecs) &&
              read_vm("sys/vm/dirty_writeback_centisecs", &in.dirty_writeback_centisecs) &&
              meminfo != NULL && sys_parse_writeback_meminfo(meminfo, &in);
    free(meminfo);
    char *vmstat = ok ? sys_read_proc("vmstat", 0) : NULL;
    long page = sys_page_size();
    if (vmstat != NULL && page > 0)
        sys_parse_writeback_vmstat(vmstat, (uint64_t)page, &in);
    free(vmstat);
    *out = in;
    return ok;
}

/* ---- a volume's queue ------------------------------------------------------------------ */

void sys_volume_queue(unsigned major, unsigned minor, int *rotational,
                      uint32_t *logical_block_bytes)
{
    *rotational = -1;
    *logical_block_bytes = 0;
    if (major == 0) /* no block device (tmpfs, overlay, nfs, btrfs...) */
        return;
    unsigned long value;
    if (sys_block_queue_attr(major, minor, "rotational", &value))
        *rotational = value ? 1 : 0;
    if (sys_block_queue_attr(major, minor, "logical_block_size", &value))
        *logical_block_bytes = (uint32_t)value;
}
