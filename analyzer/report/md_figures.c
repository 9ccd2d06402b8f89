/* md_figures.c - the Markdown list of plots shared by report.md, compare.md and history.md
 * (md_figures.h). */
#include "report/md_figures.h"

#include <string.h>

#include "report/doc_writer.h"

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

const char *md_figure_image(const plot_file_t *pf)
{
    return base_name(pf->files[0][0] ? pf->files[0] : pf->files[1]);
}

static void write_figure(FILE *out, const plot_file_t *pf, bool missing,
                         const md_figures_style_t *style)
{
    const char *title = style->title ? style->title(pf->name) : pf->name;
    const char *image = md_figure_image(pf);
    if (style->list_undrawn && (missing || image[0] == '\0')) {
        fprintf(out, "- %s: ", title);
        doc_text(&(doc_t){.out = out, .style = &doc_style_markdown}, pf->caption);
        fputc('\n', out);
        return;
    }
    if (style->blank_before)
        fputc('\n', out);
    if (style->heading)
        fprintf(out, "### %s\n\n", title);
    if (image[0] != '\0' && style->dir != NULL)
        fprintf(out, "![%s](%s/%s)\n\n", title, style->dir, image);
    else if (image[0] != '\0')
        fprintf(out, "![%s](%s)\n\n", title, image);
    /* The caption's words hold the series' names: escaped, as all text of a document. */
    doc_text(&(doc_t){.out = out, .style = &doc_style_markdown}, pf->caption);
    fputc('\n', out);
    if (style->svg_note && pf->files[0][0] && pf->files[1][0])
        fprintf(out, "\n(Also as [SVG](%s).)\n", base_name(pf->files[1]));
    if (style->blank_after)
        fputc('\n', out);
}

void md_figures_write(FILE *out, const plot_set_t *set, const md_figures_style_t *style)
{
    for (size_t i = 0; i < set->n; i++)
        write_figure(out, &set->plots[i], set->gnuplot_missing, style);
}
