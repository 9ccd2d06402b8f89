/* doc_writer.h - one document written for a terminal (plain text) or as Markdown through a
 * renderer: a table of operations (doc_style_t) that spells each piece of a document in
 * one style - headings and sections, sentences, list items, indents, line breaks, asides,
 * legends, bold and alarm words, folded blocks, and tables (a header row, rows with column
 * alignment, the end) with their cells escaped. A writer says what it writes once, through
 * the doc_* calls below, instead of choosing between two spellings at every line. The back
 * ends are doc_style_text and doc_style_markdown; a new text-like format is one more table
 * in doc_writer.c, declared here, and its row in report_format.c's registry, which hands
 * every document's render function a doc_t of it (report_write). No call allocates or
 * keeps a pointer it is given; a write error stays on the stream for the document's
 * writer to find (ferror). */
#ifndef CP_REPORT_DOC_WRITER_H
#define CP_REPORT_DOC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A column of a table. */
typedef struct doc_column {
    const char *title;      /* the header cell */
    const char *text_title; /* text's header cell where a terminal's column is narrower
                             * than the title; NULL: the title */
    int width;              /* text: a cell is padded to this width (0: none) */
    bool left;              /* aligned left (words); else right (numbers) */
    const char *gap;        /* text: what comes before the cell (NULL: one space); not
                             * written before the first column, which the indent leads */
    bool text_in_parens;    /* text: no column of its own: the cell follows the one before
                             * as " (cell)", and the header row leaves it out */
    bool text_hidden;       /* text: left out, header and cells (what a terminal's table
                             * has no room for) */
} doc_column_t;

/* A table: its columns, how a text row starts, and where a row's note goes. */
typedef struct doc_table {
    const doc_column_t *columns; /* ncolumns of them; not owned */
    size_t ncolumns;
    const char *indent;          /* text: what starts each row (NULL: nothing) */
    size_t note_column;          /* Markdown: the cell a row's note ends (text writes the note
                                  * after the row's last cell) */
} doc_table_t;

/* A back end: the spelling of each piece in one style, as a table of operations. A new
 * text-like format is one more table in doc_writer.c, declared below, and its row in
 * report_format.c's registry. */
typedef struct doc_style {
    bool markdown;                                  /* for doc_pick and doc_is_markdown */
    const char *(*item)(const char *text_lead);     /* a list item's lead */
    const char *(*indent)(const char *text_indent); /* a line's indent */
    const char *line_break;                         /* the end of a line in a paragraph */
    const char *(*aside)(const char *text_indent);  /* the lead of a note under a table */
    void (*heading_open)(FILE *out, int level);     /* before a heading's title */
    void (*heading_close)(FILE *out, int level);    /* after it */
    /* a section's title: title as a heading of level, or text_title as it is */
    void (*section)(FILE *out, int level, const char *text_title, const char *title);
    const char *bold_mark;                          /* either side of a bold span */
    const char *(*alarm)(const char *word, char *buf, size_t cap); /* a word that warns */
    const char *sentence_close;                     /* after a sentence of its own */
    const char *paragraph_close;                    /* after a paragraph's last line */
    bool capital_labels;                            /* a line's leading label capitalised */
    bool legends;                                   /* a legend under a table is written */
    void (*fold_open)(FILE *out, const char *text_title, const char *summary);
    const char *fold_close;                         /* after a folded block */
    void (*table_head)(FILE *out, const doc_table_t *t);
    void (*table_row)(FILE *out, const doc_table_t *t, const char *const cells[],
                      const char *note);
    const char *table_close;                        /* after a table's last row */
} doc_style_t;

/* The two back ends: plain text for a terminal, and Markdown. */
extern const doc_style_t doc_style_text;
extern const doc_style_t doc_style_markdown;

typedef struct doc {
    FILE *out;                /* the caller's stream; not closed here, errors unchecked */
    const doc_style_t *style; /* a back end (doc_style_text, ...); not owned */
} doc_t;

/* Whether the document is written as Markdown. Only for the few places where the two
 * styles give a piece another shape (a list in one, a table in the other); each says why. */
bool doc_is_markdown(const doc_t *d);

/* The spelling for this style: markdown or text. Only for the few places whose words (not
 * only their marks) differ between a terminal and a document; each says why. */
const char *doc_pick(const doc_t *d, const char *text, const char *markdown);

/* A list item's lead: "- " in Markdown, text_lead (an indent or a mark) in text. */
const char *doc_item(const doc_t *d, const char *text_lead);

/* A line's indent: text_indent in text, nothing in Markdown (lines start at the margin). */
const char *doc_indent(const doc_t *d, const char *text_indent);

/* The end of a line inside a paragraph: Markdown's hard break "  \n", or "\n". */
const char *doc_break(const doc_t *d);

/* The end of a paragraph's last line: "\n" in text, "\n" and an empty line in Markdown. */
const char *doc_paragraph_end(const doc_t *d);

/* The end of a sentence written on its own: "\n" in text, "." and an empty line in
 * Markdown. */
const char *doc_sentence_end(const doc_t *d);

/* The lead of a note under a table: an empty line (a paragraph of its own) in Markdown,
 * text_indent in text. */
const char *doc_aside(const doc_t *d, const char *text_indent);

/* A heading: "#"s for level, a space and the title, then an empty line in Markdown; the
 * title and a newline in text (level 1, a document's title, then an empty line).
 * printf-style. */
void doc_heading(const doc_t *d, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A section's title, for sections a terminal labels in its own words: in Markdown title
 * as a heading of level (level 0: a paragraph of its own, no "#"); in text text_title
 * exactly as given, its newline included ("" writes nothing, for a title only a document
 * has). */
void doc_section(const doc_t *d, int level, const char *text_title, const char *title);

/* A line's leading label ("crossover"): in text text_indent and the label as given; in
 * Markdown the label with its first letter in upper case, at the margin (it opens a
 * sentence). */
void doc_label(const doc_t *d, const char *text_indent, const char *label);

/* A sentence on its own: a paragraph ending in "." and an empty line in Markdown; in text
 * text_indent, the sentence as it is and a newline. printf-style. */
void doc_sentence(const doc_t *d, const char *text_indent, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A bold span: "**text**" in Markdown, the text alone in plain text. */
void doc_bold(const doc_t *d, const char *text);

/* A word that warns ("regression"), into buf (cap bytes, truncated to fit): "**word**" in
 * Markdown, the word in upper case in text. Returns buf. */
const char *doc_alarm(const doc_t *d, const char *word, char *buf, size_t cap);

/* A legend under a table, written in Markdown as a paragraph of its own (the text, an
 * empty line); text leaves it out, its column titles being the terminal's legend. */
void doc_legend(const doc_t *d, const char *text);

/* A block a reader may open: in Markdown a <details> block whose summary is summary; in
 * text text_title as given (its newline included). doc_fold_end closes it: "</details>"
 * and an empty line in Markdown, nothing in text. */
void doc_fold_begin(const doc_t *d, const char *text_title, const char *summary);
void doc_fold_end(const doc_t *d);

/* A table's header row: in text the indent and each column's title padded to its width
 * (as a cell is); in Markdown "| title | ... |" and the separator row giving each column's
 * alignment. */
void doc_table_head(const doc_t *d, const doc_table_t *t);

/* One row of t: cells[0..t->ncolumns), each NUL-terminated, and note (NULL or "" for none).
 * Text: the indent, each cell after its column's gap padded to its width (a text_hidden
 * column left out), then the note.
 * Markdown: "| cell | ... |", each cell trimmed of the spaces a text layout put around it
 * and its '|' and backslashes escaped, the note ending cell t->note_column. Nothing is kept. */
void doc_table_row(const doc_t *d, const doc_table_t *t, const char *const cells[],
                   const char *note);

/* The end of a table followed by running text: an empty line in Markdown, nothing in text
 * (a note under a table starts with doc_aside instead). */
void doc_table_end(const doc_t *d);

#endif
