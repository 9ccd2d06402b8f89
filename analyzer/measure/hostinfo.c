/* hostinfo.c - the machine a run happened on (hostinfo.h): parsing the CPU, memory and OS
 * release texts that common/sys reads, and the oversubscription warning. */
#include "measure/hostinfo.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/log.h"
#include "common/sys.h"

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

int host_info_parse_cpuinfo(const char *text, char *model, size_t model_cap)
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

int host_info_parse_meminfo(const char *text, uint64_t *bytes)
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

int host_info_parse_os_release(const char *text, char *name, size_t name_cap)
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

int host_info_get(host_info_t *out)
{
    memset(out, 0, sizeof *out);
    char *text = sys_cpuinfo_text();
    if (text != NULL)
        host_info_parse_cpuinfo(text, out->cpu_model, sizeof out->cpu_model);
    free(text);

    text = sys_meminfo_text();
    if (text == NULL || host_info_parse_meminfo(text, &out->mem_total_bytes) != 0)
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

    text = sys_os_release_text();
    if (text != NULL)
        host_info_parse_os_release(text, out->os_name, sizeof out->os_name);
    free(text);
    return 0;
}

int host_warn_oversubscribed(const int *threads, size_t n)
{
    host_info_t h;
    memset(&h, 0, sizeof h);
    host_info_get(&h);
    int cpus = h.usable_cpus > 0 ? h.usable_cpus : h.online_cpus;
    int top = 0;
    for (size_t i = 0; i < n; i++)
        top = threads[i] > top ? threads[i] : top;
    if (cpus <= 0 || top <= cpus)
        return 0;
    cp_log_warn("threads up to %d on %d usable CPU%s: the points above %d are oversubscribed "
                "(the threads take turns on the cores, so they measure time-slicing, not "
                "scaling); reports mark them", top, cpus, cpus == 1 ? "" : "s", cpus);
    return top;
}
