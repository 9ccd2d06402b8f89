/* stats.c - owns the descriptive statistics and goodness-of-fit measures (stats.h). */
#include "model/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *values, size_t n) { qsort(values, n, sizeof *values, compare_double); }

double stats_median(const double *values, size_t n)
{
    if (n == 0)
        return NAN;
    double *copy = malloc(n * sizeof *copy);
    if (copy == NULL)
        return NAN;
    memcpy(copy, values, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, compare_double);
    double m = (n % 2 == 1) ? copy[n / 2] : 0.5 * (copy[n / 2 - 1] + copy[n / 2]);
    free(copy);
    return m;
}

double stats_mean(const double *values, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += values[i];
    return sum / (double)n;
}

double stats_rss(const double *observed, const double *predicted, size_t n)
{
    double rss = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = observed[i] - predicted[i];
        rss += d * d;
    }
    return rss;
}

double stats_r2(const double *observed, const double *predicted, size_t n)
{
    double mean = stats_mean(observed, n);
    double tss = 0.0;
    for (size_t i = 0; i < n; i++)
        tss += (observed[i] - mean) * (observed[i] - mean);
    /* Identical observations (to rounding) leave nothing for a model to explain. */
    if (!(tss > 1e-24 * mean * mean * (double)n) || tss == 0.0)
        return NAN;
    return 1.0 - stats_rss(observed, predicted, n) / tss;
}

double stats_rmse(const double *observed, const double *predicted, size_t n)
{
    if (n == 0)
        return NAN;
    return sqrt(stats_rss(observed, predicted, n) / (double)n);
}

double stats_aicc(double rss, size_t n, int k)
{
    double dn = (double)n, dk = (double)k;
    if (dn - dk - 1.0 <= 0.0 || !(rss > 0.0) || !isfinite(rss))
        return NAN;
    return dn * log(rss / dn) + 2.0 * dk + 2.0 * dk * (dk + 1.0) / (dn - dk - 1.0);
}
