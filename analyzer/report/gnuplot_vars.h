/* gnuplot_vars.h - what report/ writes for gnuplot to read: variables, arrays and data
 * blocks in the files of plot-data/, compare-data/ and history-data/ (vars.gp and the
 * .dat files). Only the syntax lives here; what is plotted stays with each plot's module.
 * Every function writes to f and leaves error checking to the file's commit (datafile.h). */
#ifndef CP_REPORT_GNUPLOT_VARS_H
#define CP_REPORT_GNUPLOT_VARS_H

#include <stddef.h>
#include <stdio.h>

/* NAME = 'value' (quoted by plot_gnuplot_quote). */
void gnuplot_var_string(FILE *f, const char *name, const char *value);

/* NAME = value with `digits` significant digits, or NAME = NaN when not finite. */
void gnuplot_var_number(FILE *f, const char *name, int digits, double value);

/* A blank line, then the count n_NAME = n and the declaration array NAME[n]. Gnuplot needs
 * at least one element, so an empty array gets one '' that templates never show. */
void gnuplot_array(FILE *f, const char *name, size_t n);

/* count_name = n and array NAME[n] (NAME[1] when n is 0), nothing else: for arrays whose
 * count has a name of its own or that are filled otherwise when empty. */
void gnuplot_array_head(FILE *f, const char *count_name, const char *name, size_t n);

/* Element i (0-based, written as NAME[i + 1]) of an array: a quoted string, or a number
 * with 10 significant digits (NaN when not finite). */
void gnuplot_array_string(FILE *f, const char *name, size_t i, const char *value);
void gnuplot_array_number(FILE *f, const char *name, size_t i, double value);

/* Starts data block `index` (gnuplot's `index`, 0-based): two blank lines after the block
 * before it, then "# index N: title" (a control byte of title as '?': the comment stays one
 * line). */
void gnuplot_block_start(FILE *f, size_t index, const char *title);

/* One column of a data line: a space and the value with `digits` significant digits, or
 * " NaN" when not finite. */
void gnuplot_value(FILE *f, int digits, double value);

#endif
