/* plot_kinds.c - the list of the plots of an analysis, in report order (plot_kinds.h).
 * Each row is defined beside its data writer and caption: plot_data.c for the plots
 * here from the start, or a file of its own (report/plot_NAME.c) for a new one, which
 * adds its extern and its place below. */
#include "report/plot_kinds.h"

#include <string.h>

extern const plot_kind_t plot_kind_time_vs_threads, plot_kind_rate_vs_threads,
    plot_kind_bottleneck, plot_kind_probe, plot_kind_probe_sustained, plot_kind_rate_vs_write,
    plot_kind_time_split;

const plot_kind_t *const plot_kinds[] = {
    &plot_kind_time_vs_threads,
    &plot_kind_rate_vs_threads,
    &plot_kind_bottleneck,
    &plot_kind_probe,
    &plot_kind_probe_sustained,
    &plot_kind_rate_vs_write,
    &plot_kind_time_split,
};

const size_t plot_kinds_count = sizeof plot_kinds / sizeof plot_kinds[0];

const plot_kind_t *plot_kind_find(const char *name)
{
    for (size_t i = 0; i < plot_kinds_count; i++)
        if (strcmp(plot_kinds[i]->name, name) == 0)
            return plot_kinds[i];
    return NULL;
}
