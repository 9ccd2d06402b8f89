/* stats.h - small descriptive statistics and goodness-of-fit measures used by the fits.
 *
 * Pure functions over caller-owned arrays; nothing allocates except stats_median (which
 * copies into a scratch buffer of its own). A value that cannot be computed is NAN, never
 * a made-up number. */
#ifndef CP_MODEL_STATS_H
#define CP_MODEL_STATS_H

#include <stddef.h>

/* Median of n values (the mean of the two middle ones for even n); NAN when n == 0 or
 * the scratch copy cannot be allocated. The input array is not modified. */
double stats_median(const double *values, size_t n);

/* Sorts values[0..n) ascending in place (qsort; NANs are not expected). */
void stats_sort(double *values, size_t n);

/* Arithmetic mean; NAN when n == 0. */
double stats_mean(const double *values, size_t n);

/* Residual sum of squares between observed and predicted. */
double stats_rss(const double *observed, const double *predicted, size_t n);

/* Coefficient of determination 1 - RSS/TSS of predicted against observed. NAN when the
 * observations do not vary (TSS = 0), where R^2 has no meaning. */
double stats_r2(const double *observed, const double *predicted, size_t n);

/* Root mean square error sqrt(RSS / n); NAN when n == 0. */
double stats_rmse(const double *observed, const double *predicted, size_t n);

/* Small-sample Akaike criterion for a least-squares fit with k parameters:
 * n ln(RSS/n) + 2k + 2k(k+1)/(n-k-1). NAN when n - k - 1 <= 0 or RSS == 0 (an exact fit,
 * where the criterion is unbounded). */
double stats_aicc(double rss, size_t n, int k);

#endif
