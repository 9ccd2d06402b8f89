/* doc_writer.c - the renderer of text and Markdown documents: the two back ends' tables of
 * operations and the doc_* calls that go through them (doc_writer.h). */
#include "report/doc_writer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/text_check.h"

/* ---- escaping ------------------------------------------------------------------------- */

/* The characters Markdown gives a meaning inside a line of text or a table cell that a
 * name must not take on: '\\' (an escape), '|' (a cell's end), '<' and '>' (raw HTML, an
 * autolink, a quote at a line's start), '&' (an entity), '[', ']' and '!' (a link, an
 * image), '*', '_' and '~' (emphasis, strikethrough), '`' (a code span) and '#' (a
 * heading, its closing sequence). '(' and ')' need none: without an unescaped ']' before
 * them they open no link. */
static bool markdown_special(char c)
{
    return strchr("\\|<>&[]!*_~`#", c) != NULL && c != '\0';
}

/* Where text[0..len) would open a block at a line's start: the offset of the mark to
 * escape, or -1. A text may land at a line's start (a list item's words, a caption), where
 * "- x", "+ x", "1. x" and "1) x" open a list and a line of only '-' or '=' underlines a
 * heading (or rules a line); other '-', '+', '=' stay as they are ("usb-ssd",
 * "--started"). */
static long markdown_block_mark(const char *text, size_t len)
{
    if (len > 0 && (text[0] == '-' || text[0] == '+' || text[0] == '=')) {
        size_t i = 1;
        while (i < len && (text[i] == text[0] || text[i] == ' '))
            i++;
        if (len == 1 || text[1] == ' ' || (i == len && text[0] != '+'))
            return 0;
        return -1;
    }
    size_t i = 0;
    while (i < len && i < 9 && text[i] >= '0' && text[i] <= '9')
        i++;
    if (i > 0 && i < len && (text[i] == '.' || text[i] == ')') &&
        (i + 1 == len || text[i + 1] == ' '))
        return (long)i;
    return -1;
}

/* text[0..len) as Markdown text: each special character after a backslash (CommonMark's
 * escape: it renders as itself), a block mark at its start too when block_marks (not in a
 * table cell or a heading, where none opens a block), each control character
 * (or byte outside UTF-8) as "\\xNN". */
static void markdown_escaped(FILE *out, const char *text, size_t len, bool block_marks)
{
    long mark = block_marks ? markdown_block_mark(text, len) : -1;
    for (size_t i = 0, n; i < len; i += n) {
        text_fault_t fault;
        n = text_char_at(text + i, len - i, &fault);
        if (fault != TEXT_OK) {
            text_visible(out, text + i, n, false);
            continue;
        }
        if (markdown_special(text[i]) || (long)i == mark)
            fputc('\\', out);
        fwrite(text + i, 1, n, out);
    }
}

/* ---- plain text ----------------------------------------------------------------------- */

static const char *text_item(const char *text_lead)
{
    return text_lead;
}

static const char *text_indent(const char *indent)
{
    return indent;
}

static void text_heading_open(FILE *out, int level)
{
    (void)out;
    (void)level;
}

/* A document's title (level 1) stands apart; a section's heading is a line. */
static void text_heading_close(FILE *out, int level)
{
    fputs(level == 1 ? "\n\n" : "\n", out);
}

static void text_section(FILE *out, int level, const char *text_title, const char *title)
{
    (void)level;
    (void)title;
    text_visible(out, text_title, strlen(text_title), true);
}

static const char *text_alarm(const char *word, char *buf, size_t cap)
{
    size_t i = 0;
    for (; cap > 0 && i + 1 < cap && word[i] != '\0'; i++)
        buf[i] = (char)toupper((unsigned char)word[i]);
    if (cap > 0)
        buf[i] = '\0';
    return buf;
}

static void text_fold_open(FILE *out, const char *text_title, const char *summary)
{
    (void)summary;
    fputs(text_title, out);
}

static const char *gap_of(const doc_column_t *c)
{
    return c->gap != NULL ? c->gap : " ";
}

/* One cell after its column's gap, padded to the column's width; a control character or
 * a byte outside UTF-8 (none should come this far: readers refuse them) is shown as
 * "\\xNN". */
static void text_cell(FILE *out, const doc_column_t *c, bool first, const char *cell)
{
    if (!first)
        fputs(gap_of(c), out);
    size_t len = strlen(cell), shown = len;
    for (size_t i = 0, n; i < len; i += n) {
        text_fault_t fault;
        n = text_char_at(cell + i, len - i, &fault);
        shown += fault != TEXT_OK ? 3 * n : 0; /* each byte as "\xNN" */
    }
    int pad = c->width > (int)shown ? c->width - (int)shown : 0;
    if (!c->left)
        fprintf(out, "%*s", pad, "");
    text_visible(out, cell, len, false);
    if (c->left)
        fprintf(out, "%*s", pad, "");
}

static void text_table_head(FILE *out, const doc_table_t *t)
{
    fputs(t->indent != NULL ? t->indent : "", out);
    for (size_t i = 0; i < t->ncolumns; i++) {
        const doc_column_t *c = &t->columns[i];
        if (!c->text_in_parens && !c->text_hidden)
            text_cell(out, c, i == 0, c->text_title != NULL ? c->text_title : c->title);
    }
    fputc('\n', out);
}

static void text_table_row(FILE *out, const doc_table_t *t, const char *const cells[],
                           const char *note)
{
    fputs(t->indent != NULL ? t->indent : "", out);
    for (size_t i = 0; i < t->ncolumns; i++) {
        if (t->columns[i].text_hidden)
            continue;
        if (t->columns[i].text_in_parens) {
            fputs(" (", out);
            text_visible(out, cells[i], strlen(cells[i]), false);
            fputc(')', out);
        } else {
            text_cell(out, &t->columns[i], i == 0, cells[i]);
        }
    }
    fprintf(out, "%s\n", note != NULL ? note : "");
}

const doc_style_t doc_style_text = {
    .markdown = false,
    .item = text_item,
    .indent = text_indent,
    .line_break = "\n",
    .aside = text_indent,
    .heading_open = text_heading_open,
    .heading_close = text_heading_close,
    .section = text_section,
    .bold_mark = "",
    .alarm = text_alarm,
    .sentence_close = "\n",
    .paragraph_close = "\n",
    .capital_labels = false,
    .legends = false,
    .fold_open = text_fold_open,
    .fold_close = "",
    .table_head = text_table_head,
    .table_row = text_table_row,
    .table_close = "",
};

/* ---- Markdown ------------------------------------------------------------------------- */

static const char *markdown_item(const char *text_lead)
{
    (void)text_lead;
    return "- ";
}

static const char *markdown_indent(const char *indent)
{
    (void)indent;
    return "";
}

static const char *markdown_aside(const char *indent)
{
    (void)indent;
    return "\n";
}

/* "#"s and a space; nothing for level 0 (a paragraph of its own). */
static void markdown_heading_open(FILE *out, int level)
{
    for (int i = 0; i < level; i++)
        fputc('#', out);
    if (level > 0)
        fputc(' ', out);
}

static void markdown_heading_close(FILE *out, int level)
{
    (void)level;
    fputs("\n\n", out);
}

static void markdown_section(FILE *out, int level, const char *text_title, const char *title)
{
    (void)text_title;
    markdown_heading_open(out, level);
    markdown_escaped(out, title, strlen(title), false);
    markdown_heading_close(out, level);
}

static const char *markdown_alarm(const char *word, char *buf, size_t cap)
{
    snprintf(buf, cap, "**%s**", word);
    return buf;
}

static void markdown_fold_open(FILE *out, const char *text_title, const char *summary)
{
    (void)text_title;
    fprintf(out, "\n<details><summary>%s</summary>\n\n", summary);
}

static void markdown_table_head(FILE *out, const doc_table_t *t)
{
    fputc('|', out);
    for (size_t i = 0; i < t->ncolumns; i++)
        fprintf(out, " %s |", t->columns[i].title);
    fputs("\n|", out);
    for (size_t i = 0; i < t->ncolumns; i++)
        fputs(t->columns[i].left ? "---|" : "---:|", out);
    fputc('\n', out);
}

/* A cell's text without the spaces around it, escaped as doc_escape does: '|' would end
 * the cell, '\\' would take the escape from the '|' after it. */
static void markdown_cell(FILE *out, const char *cell)
{
    while (*cell == ' ')
        cell++;
    size_t n = strlen(cell);
    while (n > 0 && cell[n - 1] == ' ')
        n--;
    markdown_escaped(out, cell, n, false);
}

static void markdown_table_row(FILE *out, const doc_table_t *t, const char *const cells[],
                               const char *note)
{
    fputc('|', out);
    for (size_t i = 0; i < t->ncolumns; i++) {
        fputc(' ', out);
        markdown_cell(out, cells[i]);
        if (note != NULL && i == t->note_column)
            fputs(note, out);
        fputs(" |", out);
    }
    fputc('\n', out);
}

const doc_style_t doc_style_markdown = {
    .markdown = true,
    .item = markdown_item,
    .indent = markdown_indent,
    .line_break = "  \n",
    .aside = markdown_aside,
    .heading_open = markdown_heading_open,
    .heading_close = markdown_heading_close,
    .section = markdown_section,
    .bold_mark = "**",
    .alarm = markdown_alarm,
    .sentence_close = ".\n\n",
    .paragraph_close = "\n\n",
    .capital_labels = true,
    .legends = true,
    .fold_open = markdown_fold_open,
    .fold_close = "\n</details>\n\n",
    .table_head = markdown_table_head,
    .table_row = markdown_table_row,
    .table_close = "\n",
};

/* ---- the calls ------------------------------------------------------------------------ */

void doc_text(const doc_t *d, const char *text)
{
    if (d->style->markdown)
        markdown_escaped(d->out, text, strlen(text), true);
    else
        text_visible(d->out, text, strlen(text), false);
}

void doc_code(const doc_t *d, const char *text)
{
    size_t len = strlen(text);
    if (!d->style->markdown) {
        text_visible(d->out, text, len, false);
        return;
    }
    size_t longest = 0, run = 0;
    for (size_t i = 0; i < len; i++) {
        run = text[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    /* A space inside each fence where the text starts or ends with a backtick (CommonMark
     * strips one from each side). */
    bool pad = len > 0 && (text[0] == '`' || text[len - 1] == '`');
    for (size_t i = 0; i <= longest; i++)
        fputc('`', d->out);
    if (pad)
        fputc(' ', d->out);
    text_visible(d->out, text, len, false);
    if (pad)
        fputc(' ', d->out);
    for (size_t i = 0; i <= longest; i++)
        fputc('`', d->out);
}

const char *doc_escape(const doc_t *d, const char *text, char *buf, size_t cap)
{
    FILE *f = cap > 0 ? fmemopen(buf, cap, "w") : NULL;
    if (f == NULL) {
        if (cap > 0)
            buf[0] = '\0';
        return buf;
    }
    doc_text(&(doc_t){.out = f, .style = d->style}, text);
    fclose(f);
    buf[cap - 1] = '\0';
    /* Cut to fit, the text may end in half an escape: a backslash of its own would take
     * the meaning from whatever the caller writes next. */
    size_t len = strlen(buf), run = 0;
    while (run < len && buf[len - 1 - run] == '\\')
        run++;
    if (run % 2 == 1 && d->style->markdown)
        buf[len - 1] = '\0';
    return buf;
}

bool doc_is_markdown(const doc_t *d)
{
    return d->style->markdown;
}

const char *doc_pick(const doc_t *d, const char *text, const char *markdown)
{
    return d->style->markdown ? markdown : text;
}

const char *doc_item(const doc_t *d, const char *text_lead)
{
    return d->style->item(text_lead);
}

const char *doc_indent(const doc_t *d, const char *text_indent)
{
    return d->style->indent(text_indent);
}

const char *doc_break(const doc_t *d)
{
    return d->style->line_break;
}

const char *doc_paragraph_end(const doc_t *d)
{
    return d->style->paragraph_close;
}

const char *doc_sentence_end(const doc_t *d)
{
    return d->style->sentence_close;
}

const char *doc_aside(const doc_t *d, const char *text_indent)
{
    return d->style->aside(text_indent);
}

void doc_heading(const doc_t *d, int level, const char *fmt, ...)
{
    d->style->heading_open(d->out, level);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    d->style->heading_close(d->out, level);
}

void doc_section(const doc_t *d, int level, const char *text_title, const char *title)
{
    d->style->section(d->out, level, text_title, title);
}

void doc_label(const doc_t *d, const char *text_indent, const char *label)
{
    fputs(doc_indent(d, text_indent), d->out);
    if (d->style->capital_labels && label[0] != '\0') {
        fputc(toupper((unsigned char)label[0]), d->out);
        label++;
    }
    fputs(label, d->out);
}

void doc_bold(const doc_t *d, const char *text)
{
    fputs(d->style->bold_mark, d->out);
    doc_text(d, text);
    fputs(d->style->bold_mark, d->out);
}

const char *doc_alarm(const doc_t *d, const char *word, char *buf, size_t cap)
{
    return d->style->alarm(word, buf, cap);
}

void doc_sentence(const doc_t *d, const char *text_indent, const char *fmt, ...)
{
    fputs(doc_indent(d, text_indent), d->out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    fputs(d->style->sentence_close, d->out);
}

void doc_legend(const doc_t *d, const char *text)
{
    if (d->style->legends)
        fprintf(d->out, "%s%s", text, d->style->paragraph_close);
}

void doc_fold_begin(const doc_t *d, const char *text_title, const char *summary)
{
    d->style->fold_open(d->out, text_title, summary);
}

void doc_fold_end(const doc_t *d)
{
    fputs(d->style->fold_close, d->out);
}

void doc_table_head(const doc_t *d, const doc_table_t *t)
{
    d->style->table_head(d->out, t);
}

void doc_table_row(const doc_t *d, const doc_table_t *t, const char *const cells[],
                   const char *note)
{
    d->style->table_row(d->out, t, cells, note);
}

void doc_table_end(const doc_t *d)
{
    fputs(d->style->table_close, d->out);
}
