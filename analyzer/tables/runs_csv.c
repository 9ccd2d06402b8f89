/* runs_csv.c - runs.csv in: the rows checked column by column into a runs table for
 * analysis (runs_csv.h). */
#include "tables/runs_csv.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cleanup.h"
#include "tables/csv_table.h"
#include "tables/table_util.h"

static const char *const stage_columns[RUN_STAGE_COUNT] = {
    "reader_busy_s", "reader_wait_s", "compress_busy_s",
    "compress_wait_s", "writer_busy_s", "writer_wait_s",
};

const char *runs_stage_column(int stage)
{
    return (stage >= 0 && stage < RUN_STAGE_COUNT) ? stage_columns[stage] : "";
}

/* A failed run: an `error` text, or valid = 0 (also "false"/"no"). */
static bool row_failed(const csv_table_t *t, size_t row, int col_error, int col_valid)
{
    if (csv_table_cell(t, row, col_error)[0] != '\0')
        return true;
    const char *v = csv_table_cell(t, row, col_valid);
    return strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0;
}

/* Optional evidence columns, after the label columns, in run_row_t's order. */
enum { RUN_EVIDENCE_COUNT = 21 };
static const char *const evidence_columns[RUN_EVIDENCE_COUNT] = {
    "pipeline_s", "flush_s", "cpu_idle_share", "cpu_sys_share", "dev_busy_share",
    "dirty_background_bytes", "dirty_bytes", "dirty_expire_s", "dirty_writeback_s",
    "online_cpus", "block_size", "target_order", "cpu_wait_s", "io_wait_s", "io_read_wait_s",
    "dirty_pause_s", "path_compute_s", "path_core_wait_s", "path_io_cpu_s",
    "path_read_blocked_s", "path_write_blocked_s",
};

static int load_row(const csv_table_t *t, size_t row, const int *col, run_row_t *r,
                    cp_err_t *err)
{
    enum { C_TARGET, C_THREADS, C_SECONDS, C_INPUT, C_CODEC, C_OUTPUT, C_USER, C_SYS,
           C_LAYOUT, C_INPUT_TARGET, C_SYNC = C_INPUT_TARGET + 1 + RUN_STAGE_COUNT, C_RAM,
           C_EMULATED, C_RATE_CAP, C_EVIDENCE };
    memset(r, 0, sizeof *r);
    r->line = csv_table_line(t, row);
    int rc = table_name(t, row, col[C_TARGET], true, r->target, err);
    if (rc == 0)
        rc = table_name(t, row, col[C_CODEC], false, r->codec, err);
    if (rc == 0)
        rc = table_name(t, row, col[C_INPUT_TARGET], false, r->input_target, err);
    double threads = NAN;
    if (rc == 0)
        rc = table_positive(t, row, col[C_THREADS], true, &threads, err);
    if (rc == 0 && (threads != floor(threads) || threads > RUNS_THREADS_MAX))
        rc = cp_err_set(err, CP_EDATA, "%s:%ld: column 'threads': %g is not a whole number "
                        "from 1 to %d", csv_table_name(t), r->line, threads, RUNS_THREADS_MAX);
    if (rc == 0)
        r->threads = (int)threads;
    if (rc == 0)
        rc = table_seconds(t, row, col[C_SECONDS], true, &r->seconds, err);
    if (rc == 0)
        rc = table_positive(t, row, col[C_INPUT], true, &r->input_bytes, err);
    if (rc == 0)
        rc = table_positive(t, row, col[C_OUTPUT], false, &r->output_bytes, err);
    if (rc == 0)
        rc = table_nonnegative(t, row, col[C_USER], &r->cpu_user_s, err);
    if (rc == 0)
        rc = table_nonnegative(t, row, col[C_SYS], &r->cpu_sys_s, err);
    for (int s = 0; s < RUN_STAGE_COUNT && rc == 0; s++)
        rc = table_nonnegative(t, row, col[C_INPUT_TARGET + 1 + s], &r->stage_s[s], err);
    double *evidence[RUN_EVIDENCE_COUNT] = {
        &r->pipeline_s, &r->flush_s, &r->cpu_idle_share, &r->cpu_sys_share,
        &r->dev_busy_share, &r->dirty_background_bytes, &r->dirty_bytes, &r->dirty_expire_s,
        &r->dirty_writeback_s, &r->online_cpus, &r->block_bytes, &r->target_order,
        &r->cpu_wait_s, &r->io_wait_s, &r->io_read_wait_s, &r->dirty_pause_s,
        &r->path_s[RUN_PATH_COMPUTE], &r->path_s[RUN_PATH_CORE_WAIT], &r->path_s[RUN_PATH_IO_CPU],
        &r->path_s[RUN_PATH_READ_BLOCKED], &r->path_s[RUN_PATH_WRITE_BLOCKED],
    };
    for (int e = 0; e < RUN_EVIDENCE_COUNT && rc == 0; e++)
        rc = table_nonnegative(t, row, col[C_EVIDENCE + e], evidence[e], err);
    if (rc != 0)
        return rc;
    /* Label-only columns: an odd value reads as unknown rather than failing the file. */
    if (csv_table_number(t, row, col[C_RATE_CAP], &r->rate_cap_bps, NULL) != 0 ||
        !(r->rate_cap_bps > 0.0 && r->rate_cap_bps < CP_QUANTITY_MAX))
        r->rate_cap_bps = NAN;
    r->ram = table_flag(t, row, col[C_RAM]);
    r->emulated = table_flag(t, row, col[C_EMULATED]);
    r->disk_emulated =
        strcasecmp(csv_table_cell(t, row, csv_table_find(t, "emulation")), "disk") == 0;
    const char *sync = csv_table_cell(t, row, col[C_SYNC]);
    if (strlen(sync) < sizeof r->sync && strspn(sync, "abcdefghijklmnopqrstuvwxyz_") == strlen(sync))
        memcpy(r->sync, sync, strlen(sync) + 1);
    const char *layout = csv_table_cell(t, row, col[C_LAYOUT]);
    if (layout[0] == '\0')
        r->layout = RUN_LAYOUT_UNKNOWN;
    else if (strcasecmp(layout, "split") == 0)
        r->layout = RUN_LAYOUT_SPLIT;
    else if (strcasecmp(layout, "same") == 0)
        r->layout = RUN_LAYOUT_SAME;
    else {
        char shown[48];
        csv_table_printable(layout, shown, sizeof shown);
        return cp_err_set(err, CP_EDATA, "%s:%ld: column 'layout': '%s' is not split or same",
                          csv_table_name(t), r->line, shown);
    }
    return 0;
}

/* The run's direction and read cap: "compress" (or absent: a table from elsewhere) or
 * "decompress"; anything else is CP_EDATA naming file:line. */
static int load_direction(const csv_table_t *t, size_t row, int col_op, int col_read_cap,
                          run_row_t *r, cp_err_t *err)
{
    const char *op = csv_table_cell(t, row, col_op);
    if (op[0] == '\0' || strcmp(op, "compress") == 0) {
        r->decompress = false;
    } else if (strcmp(op, "decompress") == 0) {
        r->decompress = true;
    } else {
        char shown[48];
        csv_table_printable(op, shown, sizeof shown);
        return cp_err_set(err, CP_EDATA,
                          "%s:%ld: column 'op': '%s' is not compress or decompress",
                          csv_table_name(t), r->line, shown);
    }
    if (csv_table_number(t, row, col_read_cap, &r->read_cap_bps, NULL) != 0 ||
        !(r->read_cap_bps > 0.0 && r->read_cap_bps < CP_QUANTITY_MAX))
        r->read_cap_bps = NAN;
    return 0;
}

/* The repetition number, a label only: anything but a whole number from 1 reads as 0
 * (unknown) rather than failing the file. */
static int load_rep(const csv_table_t *t, size_t row, int col_rep)
{
    double rep = NAN;
    if (csv_table_number(t, row, col_rep, &rep, NULL) != 0 || !(rep >= 1.0) ||
        rep != floor(rep) || rep > 1e9)
        return 0;
    return (int)rep;
}

/* Counts failed row i under its (target, codec), keeping the first error's text (shown
 * printable). Its names are checked as a measured row's are (they reach the reports).
 * CP_OK, CP_EDATA naming file:line, or CP_ENOMEM. */
static int note_failure(const csv_table_t *t, size_t i, int col_error, runs_table_t *runs,
                        cp_err_t *err)
{
    char target[CP_NAME_MAX], codec[CP_NAME_MAX];
    int rc = table_name(t, i, csv_table_find(t, "target"), true, target, err);
    if (rc == CP_OK)
        rc = table_name(t, i, csv_table_find(t, "codec"), false, codec, err);
    if (rc != CP_OK)
        return rc;
    for (size_t k = 0; k < runs->nfailures; k++) {
        run_failure_t *f = &runs->failures[k];
        if (strcmp(f->target, target) == 0 && strcmp(f->codec, codec) == 0) {
            f->count++;
            return CP_OK;
        }
    }
    run_failure_t *grown = realloc(runs->failures, (runs->nfailures + 1) * sizeof *grown);
    if (grown == NULL)
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", csv_table_name(t));
    runs->failures = grown;
    run_failure_t *f = &runs->failures[runs->nfailures++];
    memset(f, 0, sizeof *f);
    snprintf(f->target, sizeof f->target, "%s", target);
    snprintf(f->codec, sizeof f->codec, "%s", codec);
    const char *error = csv_table_cell(t, i, col_error);
    csv_table_printable(error[0] ? error : "valid = 0", f->error, sizeof f->error);
    f->count = 1;
    return CP_OK;
}

static int runs_from_table(const csv_table_t *t, runs_table_t **out, cp_err_t *err)
{
    static const char *const names[] = {
        "target", "threads", "seconds", "input_bytes", "codec", "output_bytes",
        "cpu_user_s", "cpu_sys_s", "layout", "input_target",
    };
    const size_t nnames = sizeof names / sizeof names[0];
    /* Informative columns, after the stage columns (load_row's C_SYNC...). */
    static const char *const labels[] = {"sync", "ram", "emulated", "rate_cap_bps"};
    const size_t nlabels = sizeof labels / sizeof labels[0];
    int col[sizeof names / sizeof names[0] + RUN_STAGE_COUNT + sizeof labels / sizeof labels[0] +
            RUN_EVIDENCE_COUNT];
    for (size_t i = 0; i < nnames; i++)
        col[i] = csv_table_find(t, names[i]);
    for (int s = 0; s < RUN_STAGE_COUNT; s++)
        col[nnames + (size_t)s] = csv_table_find(t, stage_columns[s]);
    for (size_t i = 0; i < nlabels; i++)
        col[nnames + RUN_STAGE_COUNT + i] = csv_table_find(t, labels[i]);
    for (int e = 0; e < RUN_EVIDENCE_COUNT; e++)
        col[nnames + RUN_STAGE_COUNT + nlabels + (size_t)e] = csv_table_find(t, evidence_columns[e]);
    int rc = table_require(t, names, 4, err);
    if (rc != 0)
        return rc;
    int col_error = csv_table_find(t, "error"), col_valid = csv_table_find(t, "valid");
    int col_dir = csv_table_find(t, "dir");
    int col_op = csv_table_find(t, "op"), col_read_cap = csv_table_find(t, "read_cap_bps");
    int col_engine = csv_table_find(t, "engine");
    int col_io_source = csv_table_find(t, "io_wait_source");
    int col_rep = csv_table_find(t, "rep");
    int col_source = csv_table_find(t, "source");

    runs_table_t *runs = calloc(1, sizeof *runs);
    size_t n = csv_table_rows(t);
    if (runs == NULL || (runs->path = strdup(csv_table_name(t))) == NULL ||
        (runs->rows = calloc(n ? n : 1, sizeof *runs->rows)) == NULL) {
        runs_table_free(runs);
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", csv_table_name(t));
    }
    for (size_t i = 0; i < n; i++) {
        if ((i & 4095) == 4095 && cp_interrupted()) { /* SIGINT/SIGTERM: a long table gives way */
            runs_table_free(runs);
            return cp_err_set(err, CP_EINTR, "interrupted");
        }
        if (row_failed(t, i, col_error, col_valid)) {
            runs->skipped_failed++;
            rc = note_failure(t, i, col_error, runs, err);
            if (rc != CP_OK) {
                runs_table_free(runs);
                return rc;
            }
            continue;
        }
        rc = load_row(t, i, col, &runs->rows[runs->nrows], err);
        if (rc == 0)
            rc = load_direction(t, i, col_op, col_read_cap, &runs->rows[runs->nrows], err);
        if (rc != 0) {
            runs_table_free(runs);
            return rc;
        }
        table_label(t, i, col_dir, runs->rows[runs->nrows].dir, sizeof runs->rows[0].dir);
        runs->rows[runs->nrows].rep = load_rep(t, i, col_rep);
        /* block_size is the pipeline's block only for the blocks engine (the native one
         * reads in pieces of it but frames as its library decides; a command, its own). */
        if (strcmp(csv_table_cell(t, i, col_engine), "blocks") != 0 ||
            strncmp(runs->rows[runs->nrows].codec, "cmd:", 4) == 0)
            runs->rows[runs->nrows].block_bytes = NAN;
        /* io_wait_s is the run's own threads' delay (delayacct) unless it says it is the
         * machine's pressure figure. */
        runs->rows[runs->nrows].io_wait_system =
            strcmp(csv_table_cell(t, i, col_io_source), "psi-system") == 0;
        runs->rows[runs->nrows].source = data_source_parse(csv_table_cell(t, i, col_source));
        runs->nrows++;
    }
    *out = runs;
    return 0;
}

int runs_table_load(const char *path, runs_table_t **out, cp_err_t *err)
{
    *out = NULL;
    csv_table_t *t;
    int rc = csv_table_read_file(path, &t, err);
    if (rc != 0)
        return rc;
    rc = runs_from_table(t, out, err);
    csv_table_free(t);
    return rc;
}

int runs_table_load_buffer(const char *name, const void *data, size_t len,
                           runs_table_t **out, cp_err_t *err)
{
    *out = NULL;
    csv_table_t *t;
    int rc = csv_table_read_buffer(name, data, len, &t, err);
    if (rc != 0)
        return rc;
    rc = runs_from_table(t, out, err);
    csv_table_free(t);
    return rc;
}
