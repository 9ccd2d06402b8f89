/* figure_text.c - rates, durations, models and series names in words (figure_text.h). */
#include "report/figure_text.h"

#include <math.h>
#include <stdio.h>

const char *analysis_format_rate(double bps, char *buf, size_t cap)
{
    if (!isfinite(bps))
        snprintf(buf, cap, "-");
    else if (fabs(bps) >= 1e9)
        snprintf(buf, cap, "%.2f GB/s", bps / 1e9);
    else if (fabs(bps) >= 1e8)
        snprintf(buf, cap, "%.0f MB/s", bps / 1e6);
    else if (fabs(bps) >= 1e6)
        snprintf(buf, cap, "%.1f MB/s", bps / 1e6);
    else
        snprintf(buf, cap, "%.1f kB/s", bps / 1e3);
    return buf;
}

const char *analysis_format_seconds(double s, char *buf, size_t cap)
{
    if (!isfinite(s))
        snprintf(buf, cap, "-");
    else if (s >= 100.0)
        snprintf(buf, cap, "%.0f", s);
    else if (s >= 10.0)
        snprintf(buf, cap, "%.1f", s);
    else if (s >= 1.0)
        snprintf(buf, cap, "%.2f", s);
    else
        snprintf(buf, cap, "%.3f", s);
    return buf;
}

/* The unit a rate equation is written in: GB/s when its values reach 1 GB/s. */
static void rate_unit(double magnitude, double *scale, const char **unit)
{
    if (magnitude >= 1e9)
        *scale = 1e9, *unit = "GB/s";
    else if (magnitude >= 1e6)
        *scale = 1e6, *unit = "MB/s";
    else
        *scale = 1e3, *unit = "kB/s";
}

const char *analysis_format_model(const fit_result_t *m, char *buf, size_t cap)
{
    /* In MB/s, the plots' rate axis, so a fit reads the same in a report and a legend. */
    return analysis_format_model_in(m, 1e6, "MB/s", buf, cap);
}

const char *analysis_format_model_in(const fit_result_t *m, double rate_scale,
                                     const char *rate_unit_name, char *buf, size_t cap)
{
    if (!m->fitted) {
        snprintf(buf, cap, "skipped: %s", m->skip_reason);
        return buf;
    }
    const double *p = m->param;
    double scale;
    const char *unit;
    switch (m->kind) {
    case FIT_POWER_TIME:
        if (p[1] < 0) /* time grows with threads */
            snprintf(buf, cap, "time = %.3g x T^%.3g s", p[0], -p[1]);
        else
            snprintf(buf, cap, "time = %.3g / T^%.3g s", p[0], p[1]);
        break;
    case FIT_AMDAHL:
        snprintf(buf, cap, "time = %.3g x (%.3g + %.3g / T) s", p[0], p[1], 1.0 - p[1]);
        break;
    case FIT_LINEAR_RATE:
        rate_unit(fmax(fabs(p[0]), fabs(p[0] + p[1] * 8.0)), &scale, &unit);
        if (rate_scale > 0.0)
            scale = rate_scale, unit = rate_unit_name;
        snprintf(buf, cap, "rate = %.3g %s %.3g x T %s", p[0] / scale, p[1] < 0 ? "-" : "+",
                 fabs(p[1]) / scale, unit);
        break;
    default:
        rate_unit(p[0], &scale, &unit);
        if (rate_scale > 0.0)
            scale = rate_scale, unit = rate_unit_name;
        snprintf(buf, cap, "rate = %.3g x T / (1 + %.3g x (T-1) + %.3g x T(T-1)) %s",
                 p[0] / scale, p[1], p[2], unit);
        break;
    }
    return buf;
}

const char *figure_series_label(const analysis_series_t *s, bool mark_unpaced, char *buf,
                                size_t cap)
{
    bool unpaced = mark_unpaced && s->unpaced;
    if (s->codec[0])
        snprintf(buf, cap, "%s (%s%s)", s->name, s->codec, unpaced ? ", unpaced" : "");
    else
        snprintf(buf, cap, "%s%s", s->name, unpaced ? " (unpaced)" : "");
    return buf;
}

int figure_from_threads(double crossover_threads)
{
    return crossover_threads <= 1.0 ? 1 : (int)ceil(round(10.0 * crossover_threads) / 10.0);
}
