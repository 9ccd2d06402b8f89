/* probe_csv.c - probe.csv in: the rows checked column by column into a probe table of
 * write and read speeds per target (probe_csv.h). */
#include "tables/probe_csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/stats.h"
#include "tables/csv_table.h"
#include "tables/table_util.h"

static int probe_from_table(const csv_table_t *t, probe_table_t **out, cp_err_t *err)
{
    static const char *const required[] = {"target", "op", "bytes_per_s"};
    int rc = table_require(t, required, 3, err);
    if (rc != 0)
        return rc;
    int col_target = csv_table_find(t, "target"), col_op = csv_table_find(t, "op");
    int col_rate = csv_table_find(t, "bytes_per_s"), col_size = csv_table_find(t, "size_bytes");
    int col_error = csv_table_find(t, "error"), col_seconds = csv_table_find(t, "seconds");
    int col_ram = csv_table_find(t, "ram"), col_emulated = csv_table_find(t, "emulated");
    int col_drain = csv_table_find(t, "drain_bps"), col_io = csv_table_find(t, "io_cpu_s");
    int col_dir = csv_table_find(t, "dir"), col_cap = csv_table_find(t, "rate_cap_bps");
    int col_sync = csv_table_find(t, "sync"), col_io_wait = csv_table_find(t, "io_wait_s");
    int col_thread_sys = csv_table_find(t, "thread_sys_s");
    int col_source = csv_table_find(t, "source");

    probe_table_t *probe = calloc(1, sizeof *probe);
    size_t n = csv_table_rows(t);
    if (probe == NULL || (probe->path = strdup(csv_table_name(t))) == NULL ||
        (probe->rows = calloc(n ? n : 1, sizeof *probe->rows)) == NULL) {
        probe_table_free(probe);
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", csv_table_name(t));
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (csv_table_cell(t, i, col_error)[0] != '\0')
            continue;
        probe_speed_row_t *r = &probe->rows[probe->nrows];
        r->line = csv_table_line(t, i);
        rc = table_name(t, i, col_target, true, r->target, err);
        const char *op = csv_table_cell(t, i, col_op);
        if (rc == 0) {
            if (strcasecmp(op, "write") == 0)
                r->op = PROBE_OP_WRITE;
            else if (strcasecmp(op, "read") == 0)
                r->op = PROBE_OP_READ;
            else if (strcasecmp(op, "sustained") == 0)
                r->op = PROBE_OP_SUSTAINED;
            else {
                char shown[48];
                csv_table_printable(op, shown, sizeof shown);
                rc = cp_err_set(err, CP_EDATA, "%s:%ld: column 'op': unknown op '%s' "
                                "(write, read or sustained)", csv_table_name(t), r->line, shown);
            }
        }
        if (rc == 0)
            rc = table_positive(t, i, col_rate, true, &r->bytes_per_s, err);
        if (rc == 0)
            rc = table_positive(t, i, col_size, false, &r->size_bytes, err);
        if (rc == 0)
            rc = table_positive(t, i, col_drain, false, &r->drain_bps, err);
        if (rc == 0)
            rc = table_nonnegative(t, i, col_io, &r->io_cpu_s, err);
        if (rc == 0)
            rc = table_nonnegative(t, i, col_io_wait, &r->io_wait_s, err);
        if (rc == 0)
            rc = table_nonnegative(t, i, col_thread_sys, &r->thread_sys_s, err);
        if (rc == 0) {
            /* Label and plot columns: an odd value reads as unknown, not as an error. */
            if (csv_table_number(t, i, col_seconds, &r->seconds, NULL) != 0 ||
                !(r->seconds >= CP_SECONDS_MIN && r->seconds < CP_QUANTITY_MAX))
                r->seconds = NAN;
            r->ram = table_flag(t, i, col_ram);
            r->emulated = table_flag(t, i, col_emulated);
            r->disk_emulated =
                strcasecmp(csv_table_cell(t, i, csv_table_find(t, "emulation")), "disk") == 0;
            r->direct = strcasecmp(csv_table_cell(t, i, col_sync), "direct") == 0;
            r->page_cache = strcasecmp(csv_table_cell(t, i, col_sync), "none") == 0;
            if (csv_table_number(t, i, col_cap, &r->rate_cap_bps, NULL) != 0 ||
                !(r->rate_cap_bps > 0.0 && r->rate_cap_bps < CP_QUANTITY_MAX))
                r->rate_cap_bps = NAN;
            table_label(t, i, col_dir, r->dir, sizeof r->dir);
            r->source = data_source_parse(csv_table_cell(t, i, col_source));
            probe->nrows++;
        }
    }
    if (rc != 0) {
        probe_table_free(probe);
        return rc;
    }
    *out = probe;
    return 0;
}

int probe_table_load(const char *path, probe_table_t **out, cp_err_t *err)
{
    *out = NULL;
    csv_table_t *t;
    int rc = csv_table_read_file(path, &t, err);
    if (rc != 0)
        return rc;
    rc = probe_from_table(t, out, err);
    csv_table_free(t);
    return rc;
}

int probe_table_load_buffer(const char *name, const void *data, size_t len,
                            probe_table_t **out, cp_err_t *err)
{
    *out = NULL;
    csv_table_t *t;
    int rc = csv_table_read_buffer(name, data, len, &t, err);
    if (rc != 0)
        return rc;
    rc = probe_from_table(t, out, err);
    csv_table_free(t);
    return rc;
}

