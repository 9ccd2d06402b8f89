#include "model/probe_speeds.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/stats.h"

void probe_table_free(probe_table_t *t)
{
    if (t == NULL)
        return;
    free(t->rows);
    free(t->path);
    free(t);
}

/* The value a row gives for op, or NAN when it gives none. */
static double row_speed(const probe_speed_row_t *r, probe_speed_op_t op)
{
    if (op == PROBE_OP_DRAIN)
        return r->op == PROBE_OP_WRITE ? r->drain_bps : NAN;
    if (op == PROBE_OP_IO_COST || op == PROBE_OP_IO_COST_DIRECT)
        return r->op == PROBE_OP_WRITE && r->size_bytes > 0.0 &&
                       r->direct == (op == PROBE_OP_IO_COST_DIRECT)
                   ? r->io_cpu_s / r->size_bytes
                   : NAN;
    return r->op == op ? r->bytes_per_s : NAN;
}

double probe_table_speed(const probe_table_t *t, const char *target, probe_speed_op_t op)
{
    if (t == NULL || op == PROBE_OP_SUSTAINED)
        return NAN;
    double largest = -INFINITY;
    bool any = false, sized = true;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (!(row_speed(r, op) > 0.0) || strcmp(r->target, target) != 0)
            continue;
        any = true;
        if (isnan(r->size_bytes))
            sized = false;
        else
            largest = fmax(largest, r->size_bytes);
    }
    if (!any)
        return NAN;
    double *speeds = malloc(t->nrows * sizeof *speeds);
    if (speeds == NULL)
        return NAN;
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (row_speed(r, op) > 0.0 && strcmp(r->target, target) == 0 &&
            (!sized || r->size_bytes == largest))
            speeds[n++] = row_speed(r, op);
    }
    double m = stats_median(speeds, n);
    free(speeds);
    return m;
}

bool probe_table_emulated(const probe_table_t *t, const char *target, probe_speed_op_t op,
                          double *cap_bps)
{
    if (t == NULL || op > PROBE_OP_SUSTAINED)
        return false;
    bool emulated = false;
    size_t ncaps = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (r->op != op || strcmp(r->target, target) != 0)
            continue;
        emulated = emulated || r->emulated == 1 || r->rate_cap_bps > 0.0;
        ncaps += r->rate_cap_bps > 0.0;
    }
    if (!emulated || cap_bps == NULL)
        return emulated;
    double *caps = malloc((ncaps ? ncaps : 1) * sizeof *caps);
    if (caps == NULL) {
        *cap_bps = NAN;
        return true;
    }
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (r->op == op && r->rate_cap_bps > 0.0 && strcmp(r->target, target) == 0)
            caps[n++] = r->rate_cap_bps;
    }
    *cap_bps = n > 0 ? stats_median(caps, n) : NAN;
    free(caps);
    return true;
}

const char *probe_table_match(const probe_table_t *t, const char *name, const char *dir)
{
    if (t == NULL)
        return NULL;
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].target, name) == 0)
            return t->rows[i].target;
    if (dir == NULL || dir[0] == '\0')
        return NULL;
    const char *found = NULL;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (strcmp(r->dir, dir) != 0)
            continue;
        if (found != NULL && strcmp(found, r->target) != 0)
            return NULL;
        found = r->target;
    }
    return found;
}

bool probe_table_spread(const probe_table_t *t, const char *target, probe_speed_op_t op,
                        double *min, double *max, size_t *n)
{
    if (t == NULL)
        return false;
    double largest = -INFINITY;
    bool sized = true;
    size_t any = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (!(row_speed(r, op) > 0.0) || strcmp(r->target, target) != 0)
            continue;
        any++;
        if (isnan(r->size_bytes))
            sized = false;
        else
            largest = fmax(largest, r->size_bytes);
    }
    if (any == 0)
        return false;
    *min = INFINITY, *max = -INFINITY, *n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        double v = row_speed(r, op);
        if (v > 0.0 && strcmp(r->target, target) == 0 && (!sized || r->size_bytes == largest)) {
            *min = fmin(*min, v);
            *max = fmax(*max, v);
            (*n)++;
        }
    }
    return true;
}
