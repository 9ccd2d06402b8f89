/* doc_writer.c - the style-dependent pieces of a text or Markdown document
 * (doc_writer.h). */
#include "report/doc_writer.h"

#include <stdarg.h>

const char *doc_pick(const doc_t *d, const char *text, const char *markdown)
{
    return d->md ? markdown : text;
}

const char *doc_item(const doc_t *d, const char *text_lead)
{
    return d->md ? "- " : text_lead;
}

const char *doc_indent(const doc_t *d, const char *text_indent)
{
    return d->md ? "" : text_indent;
}

const char *doc_break(const doc_t *d)
{
    return d->md ? "  \n" : "\n";
}

const char *doc_aside(const doc_t *d, const char *text_indent)
{
    return d->md ? "\n" : text_indent;
}

void doc_heading(const doc_t *d, int level, const char *fmt, ...)
{
    if (d->md) {
        for (int i = 0; i < level; i++)
            fputc('#', d->out);
        fputc(' ', d->out);
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    fputs(d->md ? "\n\n" : "\n", d->out);
}

void doc_bold(const doc_t *d, const char *text)
{
    fprintf(d->out, d->md ? "**%s**" : "%s", text);
}
