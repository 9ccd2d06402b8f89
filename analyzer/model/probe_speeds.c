/* probe_speeds.c - owns reading the probe speeds table: the write, read and sustained speed
 * per target at the size that matters, two-speed sizes and kernel-bound reads (probe_speeds.h). */
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

/* The share of a target's largest size down to which the rows give its I/O CPU cost. The
 * cost per byte (the page-cache copies, the file system, the block layer) does not depend
 * on the file's size, but one write's whole-machine system time is counted in 10 ms ticks
 * and takes in whatever else the kernel did then, so the rows of the three largest sizes
 * of a default probe (50, 100 and 200 MB) together give a steadier median than the
 * largest alone: on five probes of two lab volumes, 0.39-0.50 s/GB against 0.30-1.27. */
#define PROBE_IO_COST_SIZE_SHARE 0.25

/* The rows of target that give op a value and that its sustained figures use: those at its
 * largest size (for the I/O CPU cost, those down to PROBE_IO_COST_SIZE_SHARE of it), or
 * all of them when the file gives no sizes. Returns their indices into t->rows (the caller
 * frees) and *n their count; NULL when there are none or memory ran out. */
static size_t *chosen_rows(const probe_table_t *t, const char *target, probe_speed_op_t op,
                           size_t *n)
{
    *n = 0;
    if (t == NULL)
        return NULL;
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
    double smallest = op == PROBE_OP_IO_COST || op == PROBE_OP_IO_COST_DIRECT
                          ? largest * PROBE_IO_COST_SIZE_SHARE
                          : largest;
    size_t *idx = any ? malloc(t->nrows * sizeof *idx) : NULL;
    for (size_t i = 0; idx != NULL && i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (row_speed(r, op) > 0.0 && strcmp(r->target, target) == 0 &&
            (!sized || r->size_bytes >= smallest))
            idx[(*n)++] = i;
    }
    return idx;
}

/* The values of op of the chosen rows (chosen_rows) into a new array (the caller frees);
 * NULL when none. */
static double *chosen_values(const probe_table_t *t, const char *target, probe_speed_op_t op,
                             size_t *n)
{
    size_t *idx = chosen_rows(t, target, op, n);
    double *v = idx != NULL ? malloc(*n * sizeof *v) : NULL;
    for (size_t i = 0; v != NULL && i < *n; i++)
        v[i] = row_speed(&t->rows[idx[i]], op);
    free(idx);
    return v;
}

bool probe_table_page_cache_only(const probe_table_t *t, const char *target)
{
    bool any = false;
    for (size_t i = 0; t != NULL && i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (r->op != PROBE_OP_WRITE || strcmp(r->target, target) != 0)
            continue;
        if (!r->page_cache)
            return false;
        any = true;
    }
    return any;
}

data_source_t probe_table_source(const probe_table_t *t, const char *target)
{
    data_source_t source = DATA_SOURCE_UNKNOWN;
    bool seen = false;
    for (size_t i = 0; t != NULL && i < t->nrows; i++) {
        if (strcmp(t->rows[i].target, target) != 0)
            continue;
        if (seen && t->rows[i].source != source)
            return DATA_SOURCE_UNKNOWN;
        source = t->rows[i].source;
        seen = true;
    }
    return source;
}

double probe_table_speed(const probe_table_t *t, const char *target, probe_speed_op_t op)
{
    if (op == PROBE_OP_SUSTAINED)
        return NAN;
    size_t n;
    double *v = chosen_values(t, target, op, &n);
    double m = v != NULL ? stats_median(v, n) : NAN;
    free(v);
    return m;
}

bool probe_two_modes(const double *values, size_t n, probe_modes_t *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2 * PROBE_MODE_MIN_RUNS)
        return false;
    double *v = malloc(n * sizeof *v);
    if (v == NULL)
        return false;
    memcpy(v, values, n * sizeof *v);
    stats_sort(v, n);
    size_t cut = 0; /* the widest gap lies between v[cut - 1] and v[cut] */
    double widest = 0.0;
    for (size_t i = PROBE_MODE_MIN_RUNS; i + PROBE_MODE_MIN_RUNS <= n; i++)
        if (v[i - 1] > 0.0 && v[i] / v[i - 1] > widest) {
            widest = v[i] / v[i - 1];
            cut = i;
        }
    bool two = widest > PROBE_MODE_GAP;
    if (two) {
        out->low = stats_median(v, cut);
        out->n_low = cut;
        out->high = stats_median(v + cut, n - cut);
        out->n_high = n - cut;
    }
    free(v);
    return two;
}

bool probe_table_two_modes(const probe_table_t *t, const char *target, probe_speed_op_t op,
                           probe_modes_t *out)
{
    size_t n;
    double *v = chosen_values(t, target, op, &n);
    bool two = v != NULL && probe_two_modes(v, n, out);
    free(v);
    return two;
}

bool probe_row_kernel_bound(const probe_speed_row_t *r)
{
    return r->op == PROBE_OP_READ && r->seconds > 0.0 && r->size_bytes > 0.0 &&
           r->thread_sys_s / (r->size_bytes / 1e9) >= PROBE_KERNEL_SYS_S_PER_GB &&
           r->io_wait_s < 0.25 * r->seconds;
}

size_t probe_table_kernel_bound(const probe_table_t *t, const char *target, size_t *n)
{
    size_t *idx = chosen_rows(t, target, PROBE_OP_READ, n);
    size_t bound = 0;
    for (size_t i = 0; idx != NULL && i < *n; i++)
        bound += probe_row_kernel_bound(&t->rows[idx[i]]);
    free(idx);
    return bound;
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

bool probe_table_self_paced(const probe_table_t *t, const char *target, probe_speed_op_t op)
{
    for (size_t i = 0; t != NULL && i < t->nrows; i++) {
        const probe_speed_row_t *r = &t->rows[i];
        if (r->op == op && strcmp(r->target, target) == 0 && !r->disk_emulated &&
            (r->emulated == 1 || r->rate_cap_bps > 0.0))
            return true;
    }
    return false;
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
    size_t count;
    double *v = chosen_values(t, target, op, &count);
    if (v == NULL)
        return false;
    *min = INFINITY, *max = -INFINITY, *n = count;
    for (size_t i = 0; i < count; i++) {
        *min = fmin(*min, v[i]);
        *max = fmax(*max, v[i]);
    }
    free(v);
    return true;
}
