/* decision_text.c - the recommendation per codec and thread count: the fastest target
 * and what each other one costs against it (decision_text.h). */
#include "report/decision_text.h"

#include <math.h>
#include <string.h>

#include "report/figure_text.h"
#include "report/strbuf.h"

/* The targets (not memory) of ceiling c that ran at threads, in the analysis's order. */
static bool candidate(const analysis_t *a, size_t c, size_t i, int threads)
{
    const analysis_series_t *s = &a->series[i];
    return !s->cpu_ceiling && s->ceiling == c && analysis_point_at(s, threads) != NULL;
}

const char *decision_line(const analysis_t *a, size_t c, int threads, char *buf, size_t cap)
{
    buf[0] = '\0';
    double fastest = INFINITY;
    size_t best = a->nseries, n = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        if (!candidate(a, c, i, threads))
            continue;
        n++;
        double t = analysis_point_at(&a->series[i], threads)->seconds;
        if (t < fastest)
            fastest = t, best = i;
    }
    if (n == 0)
        return buf;
    strbuf_appendf(buf, cap, "%s at %d thread%s:", a->ceilings[c].codec, threads,
                   threads == 1 ? "" : "s");
    size_t written = 0;
    for (size_t i = 0; i < a->nseries; i++) {
        if (!candidate(a, c, i, threads))
            continue;
        const analysis_series_t *s = &a->series[i];
        double t = analysis_point_at(s, threads)->seconds, more = t / fastest - 1.0;
        char secs[32], cost[48];
        if (n == 1)
            snprintf(cost, sizeof cost, "the only volume"); /* memory is a target too */
        else if (i == best)
            snprintf(cost, sizeof cost, "fastest");
        else if (more < 0.01)
            snprintf(cost, sizeof cost, "within 1%%");
        else
            snprintf(cost, sizeof cost, "+%.0f%%", 100.0 * more);
        strbuf_appendf(buf, cap, "%s %s %s s (%s)", written++ ? "," : "", s->name,
                       analysis_format_seconds(t, secs, sizeof secs), cost);
    }
    return buf;
}

size_t decision_write(const analysis_t *a, const doc_t *d, const char *prefix)
{
    size_t lines = 0;
    char line[2048];
    for (size_t c = 0; c < a->nceilings; c++)
        for (int T = 1; T <= RUNS_THREADS_MAX; T++)
            if (decision_line(a, c, T, line, sizeof line)[0] != '\0') {
                fputs(prefix, d->out);
                doc_text(d, line);
                fputc('\n', d->out);
                lines++;
            }
    return lines;
}
