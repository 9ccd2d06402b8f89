/* analysis_precision.c - owns the rule that a study is too short or too noisy to judge
 * (analysis_precision.h). */
#include "model/analysis_precision.h"

#include <math.h>

#include "model/stats.h"

/* The expected range (max - min) of n normal samples in standard deviations (d2). */
static double range_in_sigmas(size_t n)
{
    static const double d2[] = {0, 0, 1.128, 1.693, 2.059, 2.326, 2.534, 2.704, 2.847,
                                2.970, 3.078};
    if (n < 2)
        return NAN;
    if (n < sizeof d2 / sizeof d2[0])
        return d2[n];
    return 3.078 + 0.5 * log((double)n / 10.0); /* slow growth past ten */
}

void precision_judge(analysis_t *a, double *scratch)
{
    analysis_precision_t *q = &a->precision;
    *q = (analysis_precision_t){0};
    q->spread = q->run_noise = q->run_s = q->input_bytes = q->input_needed_bytes = NAN;
    size_t n = 0;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++) {
            const analysis_point_t *p = &a->series[i].points[k];
            if (p->input_bytes > 0.0 && !(p->input_bytes <= q->input_bytes))
                q->input_bytes = p->input_bytes;
            if (p->n < 2 || !(p->seconds > 0.0))
                continue;
            scratch[n++] = (p->seconds_max - p->seconds_min) / p->seconds;
        }
    if (n < 2)
        return;
    q->points = n;
    q->spread = stats_median(scratch, n);
    size_t m = 0;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++) {
            const analysis_point_t *p = &a->series[i].points[k];
            if (p->n >= 2 && p->seconds > 0.0)
                scratch[m++] = (double)p->n;
        }
    q->reps = (size_t)stats_median(scratch, m);
    m = 0;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++) {
            const analysis_point_t *p = &a->series[i].points[k];
            if (p->n >= 2 && p->seconds > 0.0)
                scratch[m++] = (p->seconds_max - p->seconds_min) / p->seconds /
                               range_in_sigmas(p->n);
        }
    q->run_noise = stats_median(scratch, m);
    m = 0;
    for (size_t i = 0; i < a->nseries; i++)
        for (size_t k = 0; k < a->series[i].npoints; k++) {
            const analysis_point_t *p = &a->series[i].points[k];
            if (p->n >= 2 && p->seconds > 0.0)
                scratch[m++] = p->seconds;
        }
    q->run_s = stats_median(scratch, m);
    /* A median of n runs has a standard error of about 1.2533 s / sqrt(n). */
    double need = pow(2.0 * 1.2533 * q->run_noise / a->tolerance, 2.0);
    q->too_short = a->tolerance > 0.0 && (double)q->reps < need;
    if (!q->too_short)
        return;
    q->reps_needed = (size_t)ceil(need);
    q->short_runs = q->run_s < ANALYSIS_SHORT_RUN_S;
    q->input_needed_bytes = q->input_bytes * (double)q->reps_needed / (double)q->reps;
}
