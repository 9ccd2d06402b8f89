/* gnuplot_vars.c - gnuplot's syntax for variables, arrays and data blocks, shared by the
 * data files of plot, compare and history (gnuplot_vars.h). */
#include "report/gnuplot_vars.h"

#include <math.h>

#include "report/plot.h"

void gnuplot_var_string(FILE *f, const char *name, const char *value)
{
    char quoted[1024];
    plot_gnuplot_quote(value, quoted, sizeof quoted);
    fprintf(f, "%s = %s\n", name, quoted);
}

void gnuplot_var_number(FILE *f, const char *name, int digits, double value)
{
    if (isfinite(value))
        fprintf(f, "%s = %.*g\n", name, digits, value);
    else
        fprintf(f, "%s = NaN\n", name);
}

void gnuplot_array_head(FILE *f, const char *count_name, const char *name, size_t n)
{
    fprintf(f, "%s = %zu\narray %s[%zu]\n", count_name, n, name, n ? n : 1);
}

void gnuplot_array(FILE *f, const char *name, size_t n)
{
    fprintf(f, "\nn_%s = %zu\narray %s[%zu]\n", name, n, name, n ? n : 1);
    if (n == 0)
        fprintf(f, "%s[1] = ''\n", name);
}

void gnuplot_array_string(FILE *f, const char *name, size_t i, const char *value)
{
    char quoted[1024];
    plot_gnuplot_quote(value, quoted, sizeof quoted);
    fprintf(f, "%s[%zu] = %s\n", name, i + 1, quoted);
}

void gnuplot_array_number(FILE *f, const char *name, size_t i, double value)
{
    if (isfinite(value))
        fprintf(f, "%s[%zu] = %.10g\n", name, i + 1, value);
    else
        fprintf(f, "%s[%zu] = NaN\n", name, i + 1);
}

void gnuplot_block_start(FILE *f, size_t index, const char *title)
{
    if (index > 0)
        fputs("\n\n", f);
    /* A comment: a line end in the title would start a line of data. */
    fprintf(f, "# index %zu: ", index);
    for (const char *p = title; *p; p++)
        fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, f);
    fputc('\n', f);
}

void gnuplot_value(FILE *f, int digits, double value)
{
    if (isfinite(value))
        fprintf(f, " %.*g", digits, value);
    else
        fputs(" NaN", f);
}
