/* probe_summary.c - the probe's table for people: per target and op, median MB/s with min
 * and max at each size, the sustained speed and the emulated caps (probe_summary.h). */
#include "report/probe_summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/text_check.h"
#include "measure/sink.h"
#include "model/probe_speeds.h"
#include "model/stats.h"

static double median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct size_stats {
    double median, min, max;
    size_t n;
} size_stats_t;

/* MB/s statistics of the rows of (target, op, size). */
static size_stats_t stats_for(const probe_row_t *rows, size_t n, const char *target,
                              probe_op_t op, uint64_t size, double *scratch)
{
    size_stats_t s = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++)
        if (rows[i].op == op && rows[i].size_bytes == size && strcmp(rows[i].target, target) == 0)
            scratch[s.n++] = rows[i].bytes_per_s / 1e6;
    if (s.n == 0)
        return s;
    stats_sort(scratch, s.n);
    s.median = median_sorted(scratch, s.n);
    s.min = scratch[0];
    s.max = scratch[s.n - 1];
    return s;
}

/* The emulated cap of the target's rows of one kind (read rows, or the writes and the
 * sustained run); 0 when none. */
static double target_cap(const probe_row_t *rows, size_t n, const char *target, bool read)
{
    for (size_t i = 0; i < n; i++)
        if ((rows[i].op == PROBE_READ) == read && rows[i].rate_cap_bps > 0 &&
            strcmp(rows[i].target, target) == 0)
            return rows[i].rate_cap_bps;
    return 0;
}

static void print_target_heading(FILE *out, const probe_row_t *rows, size_t n,
                                 const probe_row_t *r)
{
    /* probe.csv's names reach a terminal: any control character shown, not sent */
    fputs("target ", out);
    text_visible(out, r->target, strlen(r->target), false);
    fputs(": ", out);
    text_visible(out, r->fs_type, strlen(r->fs_type), false);
    if (r->is_ram)
        fputs(" (RAM)", out);
    else if (r->rotational == 1)
        fputs(", rotational disk", out);
    else if (r->rotational == 0)
        fputs(", solid state", out);
    fprintf(out, ", device %u:%u, sync %s", r->dev_major, r->dev_minor, sync_mode_name(r->sync));
    double write_cap = target_cap(rows, n, r->target, false);
    double read_cap = target_cap(rows, n, r->target, true);
    if (write_cap > 0 && read_cap > 0)
        fprintf(out, ", emulated %.4g MB/s write cap and %.4g MB/s read cap", write_cap / 1e6,
                read_cap / 1e6);
    else if (write_cap > 0 || read_cap > 0)
        fprintf(out, ", emulated %.4g MB/s %s cap", fmax(write_cap, read_cap) / 1e6,
                write_cap > 0 ? "write" : "read");
    fputc('\n', out);
}

static void print_sized_op(FILE *out, const probe_row_t *rows, size_t n, const char *target,
                           probe_op_t op, uint64_t *sizes, double *scratch)
{
    size_t n_sizes = 0;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].op != op || strcmp(rows[i].target, target) != 0)
            continue;
        bool seen = false;
        for (size_t k = 0; k < n_sizes && !seen; k++)
            seen = sizes[k] == rows[i].size_bytes;
        if (!seen)
            sizes[n_sizes++] = rows[i].size_bytes;
    }
    if (n_sizes == 0)
        return;
    qsort(sizes, n_sizes, sizeof *sizes, compare_u64);
    for (size_t k = 0; k < n_sizes; k++) {
        size_stats_t s = stats_for(rows, n, target, op, sizes[k], scratch);
        char size_text[32];
        probe_format_size(size_text, sizeof size_text, sizes[k]);
        fprintf(out, "  %-6s %9s %10.1f %10.1f %10.1f %3zu\n", probe_op_name(op), size_text,
                s.median, s.min, s.max, s.n);
    }
    size_stats_t top = stats_for(rows, n, target, op, sizes[n_sizes - 1], scratch);
    char size_text[32];
    probe_format_size(size_text, sizeof size_text, sizes[n_sizes - 1]);
    fprintf(out, "  %s sustained: %.1f MB/s (median at %s; min %.1f, max %.1f)\n",
            probe_op_name(op), top.median, size_text, top.min, top.max);
    probe_modes_t modes; /* stats_for left the largest size's MB/s in scratch[0..top.n) */
    if (probe_two_modes(scratch, top.n, &modes))
        fprintf(out, "  %s: two groups at %s, %zu at about %.1f and %zu at about %.1f MB/s: "
                "two regimes, not noise (docs/method.md, \"Probe\"); --sync direct gives "
                "one\n", probe_op_name(op), size_text, modes.n_low, modes.low, modes.n_high,
                modes.high);
}

static void print_sustained_run(FILE *out, const probe_row_t *rows, size_t n,
                                const char *target)
{
    const probe_row_t *last = NULL;
    double lo = 0, hi = 0;
    size_t samples = 0;
    for (size_t i = 0; i < n; i++) {
        const probe_row_t *r = &rows[i];
        if (r->op != PROBE_SUSTAINED || strcmp(r->target, target) != 0)
            continue;
        double mbps = r->bytes_per_s / 1e6;
        if (samples == 0 || mbps < lo)
            lo = mbps;
        if (samples == 0 || mbps > hi)
            hi = mbps;
        samples++;
        last = r;
    }
    if (last == NULL)
        return;
    char size_text[32];
    probe_format_size(size_text, sizeof size_text, last->size_bytes);
    fprintf(out, "  sustained run, %s in %.1f s: %.1f MB/s overall; intervals %.1f to %.1f "
                 "MB/s (%zu samples)\n",
            size_text, last->seconds, last->seconds > 0 ? (double)last->size_bytes / last->seconds / 1e6 : 0,
            lo, hi, samples);
}

void probe_summary_print(FILE *out, const probe_row_t *rows, size_t n)
{
    if (n == 0)
        return;
    uint64_t *sizes = malloc(n * sizeof *sizes);
    double *scratch = malloc(n * sizeof *scratch);
    if (sizes == NULL || scratch == NULL) {
        free(sizes);
        free(scratch);
        return;
    }
    fprintf(out, "\nprobe summary (MB/s = 10^6 bytes/s; seed %" PRIu64 ")\n", rows[0].seed);
    for (size_t i = 0; i < n; i++) {
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(rows[j].target, rows[i].target) != 0;
        if (!first)
            continue;
        print_target_heading(out, rows, n, &rows[i]);
        fprintf(out, "  %-6s %9s %10s %10s %10s %3s\n", "op", "size", "median", "min", "max",
                "n");
        print_sized_op(out, rows, n, rows[i].target, PROBE_WRITE, sizes, scratch);
        print_sized_op(out, rows, n, rows[i].target, PROBE_READ, sizes, scratch);
        print_sustained_run(out, rows, n, rows[i].target);
    }
    free(sizes);
    free(scratch);
}
