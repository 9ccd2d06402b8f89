/* report_format.c - the format registry (each --format's name and, for a text-like format,
 * its renderer's back end), the parser every command that writes a report shares, and
 * the one dispatch, report_write (report_format.h). */
#include "report/report_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "report/doc_writer.h"

/* One row per format: its --format name and, when it is text-like, the back end every
 * document's render function writes it through (report/doc_writer.h). */
static const struct {
    const char *name;
    const doc_style_t *style; /* NULL: not text-like, each document's own writer */
} formats[REPORT_FORMAT_COUNT] = {
    [REPORT_FORMAT_TEXT] = {"text", &doc_style_text},
    [REPORT_FORMAT_JSON] = {"json", NULL},
    [REPORT_FORMAT_MARKDOWN] = {"markdown", &doc_style_markdown},
    [REPORT_FORMAT_SUMMARY] = {"summary", NULL},
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
        if (allows(allowed, (report_format_t)f) && strcmp(name, formats[f].name) == 0) {
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
        int w = snprintf(buf + used, size - used, "%s%s%s", sep, formats[f].name,
                         mark_default && f == REPORT_FORMAT_TEXT ? " (default)" : "");
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
}

const doc_style_t *report_format_style(report_format_t format)
{
    return format >= 0 && format < REPORT_FORMAT_COUNT ? formats[format].style : NULL;
}

int report_write(const report_document_t *doc, report_format_t format, const void *view,
                 FILE *out, cp_err_t *err)
{
    const doc_style_t *style = report_format_style(format);
    if (style == NULL) {
        report_writer_fn w = format >= 0 && format < REPORT_FORMAT_COUNT
            ? doc->writers[format] : NULL;
        if (w != NULL)
            return w(view, out, err);
        style = &doc_style_text; /* no writer of its own: the document as text */
    }
    const doc_t d = {.out = out, .style = style};
    return doc->render(view, &d, err);
}
