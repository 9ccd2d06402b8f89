/* report_md.c - report.md: the analysis in Markdown, its plots with their headings and
 * captions, and how the study was measured (report_md.h). */
#include "report/report_md.h"

#include "report/analysis_text.h"
#include "report/md_figures.h"
#include "report/meta_md.h"
#include "report/plot_kinds.h"
#include "report/report_format.h"

/* A plot's heading from its row in the registry; its name when it has none. */
static const char *plot_heading(const char *name)
{
    const plot_kind_t *k = plot_kind_find(name);
    return k != NULL && k->heading != NULL ? k->heading : name;
}

int report_markdown_write(FILE *out, const analysis_t *a, const plot_set_t *plots)
{
    cp_err_t err = {0};
    int rc = report_write(&analysis_document, REPORT_FORMAT_MARKDOWN, a, out, &err);
    if (rc != 0 || plots == NULL)
        return rc;
    fputs("\n## Plots\n\n", out);
    if (plots->gnuplot_missing)
        fprintf(out, "gnuplot could not be run, so no images were drawn; the data for each "
                     "plot is in `%s/` (run `chokepoint plot` on this directory once gnuplot "
                     "is installed). What the plots would show:\n\n", PLOT_DATA_DIR);
    /* report.md sits beside the images, so the links are relative. */
    const md_figures_style_t style = {
        .title = plot_heading, .heading = true, .svg_note = true, .blank_after = true,
        .list_undrawn = true,
    };
    md_figures_write(out, plots, &style);
    if (plots->nskipped > 0) {
        fputs(plots->gnuplot_missing ? "\n" : "", out);
        fputs("Not drawn:\n\n", out);
        for (size_t i = 0; i < plots->nskipped; i++) {
            fputs("- ", out);
            doc_text(&(doc_t){.out = out, .style = &doc_style_markdown}, plots->skipped[i]);
            fputc('\n', out);
        }
    }
    return ferror(out) ? CP_EIO : 0;
}

int report_markdown_write_study(FILE *out, const analysis_t *a, const plot_set_t *plots,
                                const json_t *meta)
{
    int rc = report_markdown_write(out, a, plots);
    if (rc != 0)
        return rc;
    if (meta != NULL)
        meta_write_markdown(meta, out);
    else
        fputs("\n## How this was measured\n\nThis directory has no meta.json (it was not "
              "made by `chokepoint run`), so the host, input and targets are not recorded "
              "here; see docs/method.md for how each figure is taken.\n", out);
    return ferror(out) ? CP_EIO : 0;
}
