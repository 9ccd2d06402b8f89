/* report_format.h - the output formats a command's --format names (text, json, markdown,
 * summary), with the one parser every command uses and the set each command accepts. */
#ifndef CP_REPORT_REPORT_FORMAT_H
#define CP_REPORT_REPORT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/err.h"

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

/* One document's writer in one format: doc is the command's view of what it writes (a
 * const pointer the writer casts back), written to out; CP_OK or the error in err. */
typedef int (*report_writer_fn)(const void *doc, FILE *out, cp_err_t *err);

/* The one --format dispatch: writes doc through writers[format], or through
 * writers[REPORT_FORMAT_TEXT] when the document has no writer of its own for that format
 * (the text writer must be set). Returns the writer's code. */
int report_write(const report_writer_fn writers[REPORT_FORMAT_COUNT], report_format_t format,
                 const void *doc, FILE *out, cp_err_t *err);

#endif
