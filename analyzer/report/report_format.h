/* report_format.h - the output formats a command's --format names (text, json, markdown,
 * summary), with the one parser every command uses, the set each command accepts, the
 * renderer's back end of each text-like format, and the one dispatch (report_write) from a
 * format to a document's render function or its own writer. */
#ifndef CP_REPORT_REPORT_FORMAT_H
#define CP_REPORT_REPORT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/err.h"
#include "report/doc_writer.h"

typedef enum report_format {
    REPORT_FORMAT_TEXT,     /* for a terminal (the default) */
    REPORT_FORMAT_JSON,     /* for programs (docs/formats.md) */
    REPORT_FORMAT_MARKDOWN, /* for a document; "md" is read as "markdown" */
    REPORT_FORMAT_SUMMARY,  /* one line per point (analyze only) */
    REPORT_FORMAT_COUNT,
} report_format_t;

/* Sets of formats, one bit per report_format_t. */
#define REPORT_FORMAT_BIT(f) (1u << (f))
/* What compare, history and predict write. */
#define REPORT_FORMATS_DOCUMENT                                                     \
    (REPORT_FORMAT_BIT(REPORT_FORMAT_TEXT) | REPORT_FORMAT_BIT(REPORT_FORMAT_JSON) | \
     REPORT_FORMAT_BIT(REPORT_FORMAT_MARKDOWN))
/* What analyze writes: the document formats and the summary. */
#define REPORT_FORMATS_ANALYZE (REPORT_FORMATS_DOCUMENT | REPORT_FORMAT_BIT(REPORT_FORMAT_SUMMARY))

/* --format VALUE against the set `allowed` (REPORT_FORMATS_*): CP_OK with *out set, or
 * CP_EUSAGE "--format 'VALUE': expected text, json or markdown" listing the allowed names
 * in enum order (*out unchanged). */
int report_format_parse(const char *value, unsigned allowed, report_format_t *out,
                        cp_err_t *err);

/* The names of the set `allowed` in enum order, the last after "or" ("text, json or
 * markdown"); with mark_default the first (text, the default) is followed by
 * " (default)", as --help lists them. Truncated to fit size. */
void report_format_list(unsigned allowed, bool mark_default, char *buf, size_t size);

/* A document's writer for one format that is not text-like (JSON, analyze's summary):
 * view is the command's view of what it writes (a const pointer the writer casts back),
 * written to out. Returns CP_OK, or the error's code with err set (CP_EIO when out fails,
 * CP_ENOMEM when building the JSON does). Keeps nothing. */
typedef int (*report_writer_fn)(const void *view, FILE *out, cp_err_t *err);

/* A document written through the renderer: view (as for report_writer_fn) in d's style,
 * to d->out, the same call for every text-like format. Returns CP_OK, or the error's code
 * with err set (CP_EIO when d->out has an error at the end). Keeps nothing. */
typedef int (*report_render_fn)(const void *view, const doc_t *d, cp_err_t *err);

/* One document, as report_write takes it: its one render function for the text-like
 * formats and its own writers for the others. Each document's .c defines its own,
 * constant (analysis_document, predict_document, ...). */
typedef struct report_document {
    report_render_fn render;                      /* every text-like format; required */
    report_writer_fn writers[REPORT_FORMAT_COUNT]; /* the formats without a back end (JSON,
                                                    * summary); NULL: none of its own */
} report_document_t;

/* The renderer's back end of a text-like format (&doc_style_text for text, and so on):
 * a static table, not owned by the caller; NULL for a format that is not text-like (json,
 * summary) or out of range. */
const doc_style_t *report_format_style(report_format_t format);

/* The one --format dispatch. A text-like format (report_format_style) is rendered by
 * doc->render through a doc_t of that back end on out; any other by doc->writers[format],
 * or, when the document has no writer of its own for it, rendered as text. view is handed
 * through unowned. Returns the render function's or the writer's code (err set by it). */
int report_write(const report_document_t *doc, report_format_t format, const void *view,
                 FILE *out, cp_err_t *err);

#endif
