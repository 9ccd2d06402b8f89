/* report_format.c - the --format names and their parser, shared by every command that
 * writes a report (report_format.h). */
#include "report/report_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const format_names[REPORT_FORMAT_COUNT] = {
    [REPORT_FORMAT_TEXT] = "text",
    [REPORT_FORMAT_JSON] = "json",
    [REPORT_FORMAT_MARKDOWN] = "markdown",
    [REPORT_FORMAT_SUMMARY] = "summary",
};

static bool allows(unsigned allowed, report_format_t f)
{
    return (allowed & REPORT_FORMAT_BIT(f)) != 0;
}

int report_format_parse(const char *value, unsigned allowed, report_format_t *out,
                        cp_err_t *err)
{
    const char *name = strcmp(value, "md") == 0 ? "markdown" : value;
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++)
        if (allows(allowed, (report_format_t)f) && strcmp(name, format_names[f]) == 0) {
            *out = (report_format_t)f;
            return CP_OK;
        }
    char expected[128];
    report_format_list(allowed, false, expected, sizeof expected);
    return cp_err_set(err, CP_EUSAGE, "--format '%s': expected %s", value, expected);
}

void report_format_list(unsigned allowed, bool mark_default, char *buf, size_t size)
{
    size_t n = 0, total = 0, used = 0;
    for (int f = 0; f < REPORT_FORMAT_COUNT; f++)
        total += allows(allowed, (report_format_t)f);
    buf[0] = '\0';
    for (int f = 0; f < REPORT_FORMAT_COUNT && used < size; f++) {
        if (!allows(allowed, (report_format_t)f))
            continue;
        const char *sep = n == 0 ? "" : n + 1 == total ? " or " : ", ";
        int w = snprintf(buf + used, size - used, "%s%s%s", sep, format_names[f],
                         mark_default && f == REPORT_FORMAT_TEXT ? " (default)" : "");
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
}

int report_write(const report_writer_fn writers[REPORT_FORMAT_COUNT], report_format_t format,
                 const void *doc, FILE *out, cp_err_t *err)
{
    report_writer_fn w = format >= 0 && format < REPORT_FORMAT_COUNT ? writers[format] : NULL;
    return (w != NULL ? w : writers[REPORT_FORMAT_TEXT])(doc, out, err);
}
