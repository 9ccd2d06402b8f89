/* doc_writer.c - the renderer of text and Markdown documents: the two back ends' tables of
 * operations and the doc_* calls that go through them (doc_writer.h). */
#include "report/doc_writer.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
    fputs(text_title, out);
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

/* One cell after its column's gap, padded to the column's width. */
static void text_cell(FILE *out, const doc_column_t *c, bool first, const char *cell)
{
    if (!first)
        fputs(gap_of(c), out);
    fprintf(out, c->left ? "%-*s" : "%*s", c->width, cell);
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
        if (t->columns[i].text_in_parens)
            fprintf(out, " (%s)", cells[i]);
        else
            text_cell(out, &t->columns[i], i == 0, cells[i]);
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
    fputs(title, out);
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

/* A cell's text without the spaces around it, its '|' escaped (it would end the cell) and
 * its backslashes too (one before a '|' would escape the escape). */
static void markdown_cell(FILE *out, const char *cell)
{
    while (*cell == ' ')
        cell++;
    size_t n = strlen(cell);
    while (n > 0 && cell[n - 1] == ' ')
        n--;
    for (size_t i = 0; i < n; i++) {
        if (cell[i] == '|' || cell[i] == '\\')
            fputc('\\', out);
        fputc(cell[i], out);
    }
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
    fprintf(d->out, "%s%s%s", d->style->bold_mark, text, d->style->bold_mark);
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
