/* predict_volumes.c - the volumes `chokepoint predict` is asked about and their figures
 * (predict_volumes.h): read from the command line, probed briefly when a directory is
 * given. */
#include "cli/predict_volumes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/parse.h"
#include "common/log.h"
#include "measure/probe.h"
#include "tables/probe_csv.h"
#include "tables/probe_writer.h"
#include "study/probing.h"
#include "study/session.h"

void predict_volumes_free(predict_volume_list_t *list)
{
    probe_table_free(list->probe_file);
    list->probe_file = NULL;
    free(list->specs);
    list->specs = NULL;
    list->n = list->cap = 0;
}

/* A new zeroed spec at the end of the list; NULL when out of memory. */
static predict_volume_spec_t *append(predict_volume_list_t *list, cp_err_t *err)
{
    if (list->n == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        predict_volume_spec_t *specs = realloc(list->specs, cap * sizeof *specs);
        if (specs == NULL) {
            cp_err_set(err, CP_ENOMEM, "out of memory");
            return NULL;
        }
        list->specs = specs;
        list->cap = cap;
    }
    predict_volume_spec_t *s = &list->specs[list->n++];
    memset(s, 0, sizeof *s);
    s->write_bps = s->read_bps = NAN;
    return s;
}

int predict_volumes_add_probe(predict_volume_list_t *list, const char *text, cp_err_t *err)
{
    target_spec_t t;
    int rc = parse_target(text, &t, err);
    if (rc != CP_OK)
        return rc;
    if (target_ops_for(&t)->cpu_ceiling)
        return cp_err_set(err, CP_EUSAGE, "--volume mem: the memory target is what the "
                          "prediction starts from; give a directory (NAME=DIR)");
    predict_volume_spec_t *s = append(list, err);
    if (s == NULL)
        return CP_ENOMEM;
    s->source = PREDICT_PROBE;
    s->target = t;
    snprintf(s->name, sizeof s->name, "%s", t.name);
    return CP_OK;
}

int predict_volumes_add_typed(predict_volume_list_t *list, const char *text, cp_err_t *err)
{
    const char *eq = strchr(text, '=');
    const char *rate = eq != NULL ? eq + 1 : text;
    size_t name_len = eq != NULL ? (size_t)(eq - text) : strlen(text);
    if (name_len == 0 || name_len >= CP_NAME_MAX)
        return cp_err_set(err, CP_EUSAGE, "--write '%s': expected [NAME=]RATE with a name of "
                          "1 to %d characters, e.g. usb=150MB/s", text, CP_NAME_MAX - 1);
    double bps;
    int rc = parse_rate(rate, &bps, err);
    if (rc != CP_OK)
        return rc;
    predict_volume_spec_t *s = append(list, err);
    if (s == NULL)
        return CP_ENOMEM;
    s->source = PREDICT_TYPED;
    s->write_bps = bps;
    snprintf(s->name, sizeof s->name, "%.*s", (int)name_len, text);
    return CP_OK;
}

int predict_volumes_set_read(predict_volume_list_t *list, const char *text, cp_err_t *err)
{
    predict_volume_spec_t *last = list->n > 0 ? &list->specs[list->n - 1] : NULL;
    if (last == NULL || last->source != PREDICT_TYPED)
        return cp_err_set(err, CP_EUSAGE, "--read %s: it gives the read speed of the volume "
                          "typed by the --write just before it, and there is none", text);
    if (!isnan(last->read_bps))
        return cp_err_set(err, CP_EUSAGE, "--read %s: volume '%s' already has a read speed",
                          text, last->name);
    return parse_rate(text, &last->read_bps, err);
}

int predict_volumes_add_class(predict_volume_list_t *list, const char *text, cp_err_t *err)
{
    const storage_class_t *c = storage_class_find(text);
    if (c == NULL)
        return cp_err_set(err, CP_EUSAGE, "--class '%s': no such storage class; 'chokepoint "
                          "predict --classes' lists them", text);
    predict_volume_spec_t *s = append(list, err);
    if (s == NULL)
        return CP_ENOMEM;
    s->source = PREDICT_CLASS;
    s->storage_class = c;
    snprintf(s->name, sizeof s->name, "%s", c->name);
    return CP_OK;
}

/* Whether the list already has a volume from the probe file named target. */
static bool has_file_target(const predict_volume_list_t *list, const char *target)
{
    for (size_t i = 0; i < list->n; i++)
        if (list->specs[i].source == PREDICT_PROBE_FILE &&
            strcmp(list->specs[i].name, target) == 0)
            return true;
    return false;
}

/* The table's first write row of target (there is one when asked). */
static const probe_speed_row_t *first_write_row(const probe_table_t *t, const char *target)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].op == PROBE_OP_WRITE && strcmp(t->rows[i].target, target) == 0)
            return &t->rows[i];
    return NULL;
}

int predict_volumes_add_file(predict_volume_list_t *list, const char *path, cp_err_t *err)
{
    if (list->probe_file != NULL)
        return cp_err_set(err, CP_EUSAGE, "--probe %s: one probe table at a time (%s was "
                          "given)", path, list->probe_file->path);
    int rc = probe_table_load(path, &list->probe_file, err);
    if (rc != CP_OK)
        return rc;
    size_t before = list->n;
    for (size_t i = 0; i < list->probe_file->nrows; i++) {
        const probe_speed_row_t *r = &list->probe_file->rows[i];
        if (r->op != PROBE_OP_WRITE || has_file_target(list, r->target))
            continue;
        if (probe_table_page_cache_only(list->probe_file, r->target)) {
            if (r == first_write_row(list->probe_file, r->target))
                cp_log_warn("--probe %s: target '%s' is not predicted: its writes were never "
                            "synced (sync none), the page cache's speed, which gives no drain "
                            "rate", path, r->target);
            continue;
        }
        predict_volume_spec_t *s = append(list, err);
        if (s == NULL)
            return CP_ENOMEM;
        s->source = PREDICT_PROBE_FILE;
        snprintf(s->name, sizeof s->name, "%s", r->target);
    }
    if (list->n == before)
        return cp_err_set(err, CP_EDATA, "%s: no synced write row: a volume is predicted from "
                          "its drain rate (a write with fsync or O_DIRECT)", path);
    return CP_OK;
}

int predict_volumes_check_names(const predict_volume_list_t *list, cp_err_t *err)
{
    for (size_t i = 0; i < list->n; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(list->specs[i].name, list->specs[j].name) == 0)
                return cp_err_set(err, CP_EUSAGE, "two volumes are named '%s'; give each a "
                                  "NAME= of its own", list->specs[i].name);
    return CP_OK;
}

/* The short probe: a quarter, half and all of the output (at least 1 MB each). */
static probe_params_t short_probe(uint64_t output_bytes, uint64_t seed)
{
    probe_params_t p = probe_defaults();
    uint64_t largest = output_bytes > 1000000 ? output_bytes : 1000000;
    p.n_sizes = 0;
    for (uint64_t div = 4; div >= 1; div /= 2) {
        uint64_t size = largest / div;
        if (size >= 1000000 && (p.n_sizes == 0 || p.sizes[p.n_sizes - 1] != size))
            p.sizes[p.n_sizes++] = size;
    }
    p.reps = PREDICT_PROBE_REPS;
    p.op_write = p.op_read = true;
    p.sync = SYNC_FSYNC;
    p.seed = seed;
    return p;
}

/* Probes every --volume of the list at once; *rows is the caller's. */
static int probe_volumes(const predict_volume_list_t *list, uint64_t output_bytes,
                         uint64_t seed, probe_rows_t *rows, cp_err_t *err)
{
    size_t n = 0;
    target_spec_t *targets = calloc(list->n ? list->n : 1, sizeof *targets);
    if (targets == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t i = 0; i < list->n; i++)
        if (list->specs[i].source == PREDICT_PROBE)
            targets[n++] = list->specs[i].target;
    int rc = CP_OK;
    if (n > 0) {
        target_locks_t locks = TARGET_LOCKS_INIT;
        rc = session_lock_targets(targets, n, false, &locks, err);
        probe_params_t p = short_probe(output_bytes, seed);
        char size[32];
        probe_format_size(size, sizeof size, p.sizes[p.n_sizes - 1]);
        if (rc == CP_OK) {
            cp_log_info("probing %zu volume%s: fsync'd writes and cold reads of up to %s "
                        "(the study's output), %d repetitions, seed %llu", n,
                        n == 1 ? "" : "s", size, p.reps, (unsigned long long)seed);
            probing_request_t rq = {.params = &p, .targets = targets, .n_targets = n,
                                    .on_row = probing_keep_row, .row_ctx = rows,
                                    .on_failure = PROBING_STOP};
            rc = probing_run(&rq, err);
        }
        session_release_targets(targets, n, &locks);
    }
    free(targets);
    return rc;
}

int predict_volumes_resolve(const predict_volume_list_t *list, uint64_t output_bytes,
                            uint64_t seed, predict_volume_t **out, cp_err_t *err)
{
    *out = NULL;
    probe_rows_t rows = {NULL, 0, 0};
    probe_table_t *probe = NULL;
    predict_volume_t *volumes = calloc(list->n ? list->n : 1, sizeof *volumes);
    if (volumes == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    int rc = probe_volumes(list, output_bytes, seed, &rows, err);
    if (rc == CP_OK && rows.n > 0)
        rc = probe_rows_table("the probe of --volume", rows.rows, rows.n, &probe, err);
    for (size_t i = 0; rc == CP_OK && i < list->n; i++) {
        const predict_volume_spec_t *s = &list->specs[i];
        if (s->source == PREDICT_TYPED) {
            volumes[i] = predict_volume_typed(s->name, s->write_bps, s->read_bps);
        } else if (s->source == PREDICT_CLASS) {
            volumes[i] = predict_volume_class(s->name, s->storage_class);
        } else if (s->source == PREDICT_PROBE_FILE) {
            rc = predict_volume_from_table(list->probe_file, s->name, &volumes[i], err);
        } else {
            /* The directory as the probe recorded it (resolved), to match a later study's
             * runs by (predict --check). */
            const char *dir = s->target.dir;
            for (size_t r = 0; r < rows.n; r++)
                if (strcmp(rows.rows[r].target, s->name) == 0)
                    dir = rows.rows[r].dir;
            rc = predict_volume_probed(s->name, dir, probe, s->name,
                                       s->target.rate_cap_bps > 0.0 ? s->target.rate_cap_bps
                                                                    : NAN,
                                       &volumes[i], err);
        }
    }
    probe_table_free(probe);
    free(rows.rows);
    if (rc != CP_OK) {
        free(volumes);
        return rc;
    }
    *out = volumes;
    return CP_OK;
}
