#include "report/probe_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/probe_speeds.h"
#include "model/stats.h"
#include "report/csv_out.h"
#include "report/probe_csv.h"
#include "report/runs_writer.h"

static const char csv_header[] =
    "target,op,size_bytes,rep,seconds,bytes_per_s,sync,fs_type,emulated,rate_cap_bps,ram,"
    "rotational,device,cache_dropped,seed,flush_s,drain_bps,io_cpu_s,dir,cpu_wait_s,io_wait_s,"
    "io_read_wait_s,io_wait_source,dirty_pause_s,psi_io_some_s,psi_io_full_s,psi_cpu_some_s,"
    "thread_sys_s\n";

const char *probe_csv_header_text(void) { return csv_header; }

int probe_csv_header(FILE *out, cp_err_t *err)
{
    if (fputs(csv_header, out) == EOF)
        return cp_err_set(err, CP_EIO, "cannot write the probe CSV header");
    return CP_OK;
}

int probe_csv_row(FILE *out, const probe_row_t *r, cp_err_t *err)
{
    csv_out_text(out, r->target);
    fprintf(out, ",%s,%" PRIu64 ",%d,%.6f,%.0f,%s,", probe_op_name(r->op), r->size_bytes,
            r->rep, r->seconds, r->bytes_per_s, sync_mode_name(r->sync));
    csv_out_text(out, r->fs_type);
    fprintf(out, ",%d,", r->rate_cap_bps > 0 ? 1 : 0);
    if (r->rate_cap_bps > 0)
        fprintf(out, "%.0f", r->rate_cap_bps);
    fprintf(out, ",%d,", r->is_ram ? 1 : 0);
    if (r->rotational >= 0)
        fprintf(out, "%d", r->rotational);
    fprintf(out, ",%u:%u,", r->dev_major, r->dev_minor);
    if (r->cache_dropped >= 0)
        fprintf(out, "%d", r->cache_dropped);
    fprintf(out, ",%" PRIu64 ",", r->seed);
    csv_out_num(out, 6, r->flush_s);
    fputc(',', out);
    csv_out_num(out, 0, r->drain_bps);
    fputc(',', out);
    csv_out_num(out, 4, r->io_cpu_s);
    fputc(',', out);
    csv_out_text(out, r->dir);
    fputc(',', out);
    runs_csv_accounting(out, &r->account, r->psi_io_some_s, r->psi_io_full_s,
                        r->psi_cpu_some_s);
    fputc(',', out);
    csv_out_num(out, 4, r->thread_sys_s);
    fputc('\n', out);
    if (ferror(out))
        return cp_err_set(err, CP_EIO, "cannot write a probe CSV row");
    return CP_OK;
}

/* ---- summary ---- */

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
    fprintf(out, "target %s: %s", r->target, r->fs_type);
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

int probe_rows_table(const char *name, const probe_row_t *rows, size_t n, probe_table_t **out,
                     cp_err_t *err)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *csv = open_memstream(&text, &len);
    if (csv == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory keeping the probe's rows");
    int rc = probe_csv_header(csv, err);
    for (size_t i = 0; rc == CP_OK && i < n; i++)
        rc = probe_csv_row(csv, &rows[i], err);
    if (fclose(csv) != 0 && rc == CP_OK)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory keeping the probe's rows");
    if (rc == CP_OK)
        rc = probe_table_load_buffer(name, text, len, out, err);
    free(text);
    return rc;
}
