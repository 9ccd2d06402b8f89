/* md_figures.h - a set of plots as a Markdown figure list, as report.md, compare.md and
 * history.md embed them: per plot an optional "### TITLE" heading, the image
 * "![TITLE](LINK)" linked relative to the Markdown file, and its caption. */
#ifndef CP_REPORT_MD_FIGURES_H
#define CP_REPORT_MD_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "report/plot.h"

typedef struct md_figures_style {
    /* The plot's title for the heading and the image's alt text; NULL: its name. */
    const char *(*title)(const char *name);
    const char *dir;      /* links are DIR/FILE; NULL: FILE (beside the Markdown file) */
    bool blank_before;    /* an empty line before each figure */
    bool heading;         /* "### TITLE" above each figure */
    bool svg_note;        /* "(Also as [SVG](FILE).)" when both formats were drawn */
    bool blank_after;     /* an empty line after each figure */
    /* An undrawn plot (every plot when gnuplot was missing) as the list item
     * "- TITLE: caption" instead of a figure. */
    bool list_undrawn;
} md_figures_style_t;

/* The image a plot's link points at: its PNG when made, else its SVG, without the
 * directory ("" when neither was drawn). */
const char *md_figure_image(const plot_file_t *pf);

/* Writes each plot of set in order as the style says; a plot without an image gets its
 * heading and caption only. Errors are left on out (ferror). */
void md_figures_write(FILE *out, const plot_set_t *set, const md_figures_style_t *style);

#endif
