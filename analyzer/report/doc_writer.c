/* doc_writer.c - the style-dependent pieces of a text or Markdown document: the two back
 * ends' tables of operations and the calls that go through them (doc_writer.h). */
#include "report/doc_writer.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static const char *text_item(const char *text_lead)
{
    return text_lead;
}

static const char *markdown_item(const char *text_lead)
{
    (void)text_lead;
    return "- ";
}

static const char *text_indent(const char *indent)
{
    return indent;
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

static void text_heading_open(FILE *out, int level)
{
    (void)out;
    (void)level;
}

static void markdown_heading_open(FILE *out, int level)
{
    for (int i = 0; i < level; i++)
        fputc('#', out);
    fputc(' ', out);
}

const doc_style_t doc_style_text = {
    .markdown = false,
    .item = text_item,
    .indent = text_indent,
    .line_break = "\n",
    .aside = text_indent,
    .heading_open = text_heading_open,
    .heading_close = "\n",
    .bold_mark = "",
    .sentence_close = "\n",
};

const doc_style_t doc_style_markdown = {
    .markdown = true,
    .item = markdown_item,
    .indent = markdown_indent,
    .line_break = "  \n",
    .aside = markdown_aside,
    .heading_open = markdown_heading_open,
    .heading_close = "\n\n",
    .bold_mark = "**",
    .sentence_close = ".\n\n",
};

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
    fputs(d->style->heading_close, d->out);
}

void doc_bold(const doc_t *d, const char *text)
{
    fprintf(d->out, "%s%s%s", d->style->bold_mark, text, d->style->bold_mark);
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
