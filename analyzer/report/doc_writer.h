/* doc_writer.h - one document written for a terminal (plain text) or as Markdown: the
 * pieces of running text whose spelling depends on the style (headings, sentences, list
 * items, indents, line breaks, asides, bold), so a writer says what it writes once instead
 * of choosing between two spellings at every line. Each style is a back end, a table of
 * operations (doc_style_t): doc_style_text and doc_style_markdown. Tables stay with their
 * writers: their columns differ too much between the styles to share. */
#ifndef CP_REPORT_DOC_WRITER_H
#define CP_REPORT_DOC_WRITER_H

#include <stdbool.h>
#include <stdio.h>

/* A back end: the spelling of each piece in one style, as a table of operations. A new
 * text-like format is one more table in doc_writer.c, declared below. */
typedef struct doc_style {
    bool markdown;                                  /* for doc_pick and doc_is_markdown */
    const char *(*item)(const char *text_lead);     /* a list item's lead */
    const char *(*indent)(const char *text_indent); /* a line's indent */
    const char *line_break;                         /* the end of a line in a paragraph */
    const char *(*aside)(const char *text_indent);  /* the lead of a note under a table */
    void (*heading_open)(FILE *out, int level);     /* before a heading's title */
    const char *heading_close;                      /* after it */
    const char *bold_mark;                          /* either side of a bold span */
    const char *sentence_close;                     /* after a sentence of its own */
} doc_style_t;

/* The two back ends: plain text for a terminal, and Markdown. */
extern const doc_style_t doc_style_text;
extern const doc_style_t doc_style_markdown;

typedef struct doc {
    FILE *out;                /* the caller's stream; not closed here, errors unchecked */
    const doc_style_t *style; /* doc_style_text or doc_style_markdown; not owned */
} doc_t;

/* Whether the document is written as Markdown (for what still spells the two styles
 * apart in place). */
bool doc_is_markdown(const doc_t *d);

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

/* A sentence on its own: a paragraph ending in "." and an empty line in Markdown; in text
 * text_indent, the sentence as it is and a newline. printf-style. */
void doc_sentence(const doc_t *d, const char *text_indent, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A bold span: "**text**" in Markdown, the text alone in plain text. */
void doc_bold(const doc_t *d, const char *text);

#endif
