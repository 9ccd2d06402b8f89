/* doc_writer.h - one document written for a terminal (plain text) or as Markdown: the
 * pieces of running text whose spelling depends on the style (headings, list items,
 * indents, line breaks, bold), so a writer says what it writes once instead
 * of choosing between two spellings at every line. Tables stay with their writers: their
 * columns differ too much between the styles to share. */
#ifndef CP_REPORT_DOC_WRITER_H
#define CP_REPORT_DOC_WRITER_H

#include <stdbool.h>
#include <stdio.h>

typedef struct doc {
    FILE *out; /* the caller's stream; nothing here closes it or checks its errors */
    bool md;   /* Markdown; plain text otherwise */
} doc_t;

/* The spelling for this style: markdown or text. */
const char *doc_pick(const doc_t *d, const char *text, const char *markdown);

/* A list item's lead: "- " in Markdown, text_lead (an indent or a mark) in text. */
const char *doc_item(const doc_t *d, const char *text_lead);

/* A line's indent: text_indent in text, nothing in Markdown (lines start at the margin). */
const char *doc_indent(const doc_t *d, const char *text_indent);

/* The end of a line inside a paragraph: Markdown's hard break "  \n", or "\n". */
const char *doc_break(const doc_t *d);

/* The lead of a note under a table: an empty line (a paragraph of its own) in Markdown,
 * text_indent in text. */
const char *doc_aside(const doc_t *d, const char *text_indent);

/* A heading: "#"s for level, a space and the title, then an empty line in Markdown; the
 * title and a newline in text. printf-style. */
void doc_heading(const doc_t *d, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A bold span: "**text**" in Markdown, the text alone in plain text. */
void doc_bold(const doc_t *d, const char *text);

#endif
