/* presets.c - the table of command presets (presets.h) and its lookup. */
#include "codecs/presets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* zstd's CLI decodes on one thread whatever -T says; xz's decodes blocks in parallel. The
 * archive comes on stdin, to both alike: zstd skips a path that is a symbolic link, as
 * the mem target's RAM file (/proc/PID/fd/N) is. */
static const preset_t presets[] = {
    {"zstd-cli", 1, 19, false, "zstd -q -", " -T{threads} -c {input} > {output}", "zstd",
     "zstd -q -d -c < {input} > {output}"},
    {"xz-cli", 0, 9, true, "xz -q -", " -T{threads} -c {input} > {output}", "xz",
     "xz -q -d -T{threads} -c < {input} > {output}"},
    {"pigz", 1, 9, false, "pigz -q -", " -p {threads} -c {input} > {output}", NULL, NULL},
};

const preset_t *preset_find(const char *spec)
{
    size_t len = strcspn(spec, ":");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strlen(presets[i].name) == len && strncmp(spec, presets[i].name, len) == 0)
            return &presets[i];
    return NULL;
}

int preset_level(const preset_t *p, const char *spec, long *level, bool *extreme,
                 cp_err_t *err)
{
    const char *colon = strchr(spec, ':');
    char *end = NULL;
    *level = colon ? strtol(colon + 1, &end, 10) : -1;
    *extreme = end != NULL && p->extreme && *end == 'e';
    if (colon == NULL || end == colon + 1 || (*end != '\0' && !(*extreme && end[1] == '\0')) ||
        *level < p->min_level || *level > p->max_level)
        return cp_err_set(err, CP_EUSAGE, "bad preset '%s': expected %s:%d..%d%s", spec,
                          p->name, p->min_level, p->max_level, p->extreme ? "[e]" : "");
    return CP_OK;
}

void presets_write_help(FILE *out)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s:%d..%d%s", presets[i].name, presets[i].min_level,
                 presets[i].max_level, presets[i].extreme ? "[e]" : "");
        fprintf(out, "%27s%-16s%sL%s\n", "", name, presets[i].program, presets[i].rest);
    }
}
