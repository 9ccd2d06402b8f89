/* fuzz_fio_import.c - `chokepoint import fio` under arbitrary bytes: the JSON loaded
 * (tables/import_json.c), read as fio's output (tables/fio_import.c) and written as
 * probe.csv. A refusal is one line naming the file; an import must give rows with a
 * known op and a positive finite speed, written as a probe.csv that the probe table's
 * own loader reads back with the same rows and the same speeds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_csv_check.h"
#include "fuzz_output_check.h"
#include "tables/fio_import.h"
#include "tables/import_json.h"
#include "tables/probe_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The imported rows, written, load back as the same rows. */
static void check_round_trip(const fio_import_t *imp)
{
    fuzz_stream_t s;
    cp_err_t err = {0};
    int rc = fio_import_write(fuzz_stream_open(&s), imp, &err);
    fuzz_output_t o = fuzz_stream_close(&s, "probe.csv written by import fio");
    if (rc != CP_OK)
        fuzz_output_fail(&o, "the import was not written", err.msg);
    probe_table_t *t = NULL;
    rc = probe_table_load_buffer("probe.csv", o.text, o.len, &t, &err);
    if (rc != CP_OK)
        fuzz_output_fail(&o, "what import fio writes, probe.csv's loader refuses", err.msg);
    if (t->nrows != imp->n)
        fuzz_output_fail(&o, "probe.csv's loader reads another number of rows", NULL);
    for (size_t i = 0; i < imp->n; i++) {
        const fio_row_t *r = &imp->rows[i];
        const probe_speed_row_t *l = &t->rows[i];
        if (strcmp(r->target, l->target) != 0)
            fuzz_output_fail(&o, "a row's target changed on the way", r->target);
        /* bytes_per_s is written in whole bytes: half a byte each way, and the digits a
         * double keeps. */
        if (!(fabs(l->bytes_per_s - r->bytes_per_s) <= 0.5 + r->bytes_per_s * 1e-15))
            fuzz_output_fail(&o, "a row's speed changed on the way", r->target);
    }
    probe_table_free(t);
    free(s.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cp_err_t err = {0};
    json_t *root = NULL;
    int rc = import_json_parse("fio.json", (const char *)data, size, &root, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(root == NULL, "a failed parse returns no JSON", &err);
        fuzz_check_import_refusal(rc, &err, "fio.json");
        return 0;
    }
    fio_import_t imp;
    rc = fio_import_parse("fio.json", root, &imp, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(imp.rows == NULL && imp.n == 0, "a refusal holds no rows", &err);
        fuzz_check_import_refusal(rc, &err, "fio.json");
        json_decref(root);
        return 0;
    }
    fuzz_csv_require(imp.n >= 1, "an import holds a row", &err);
    fuzz_csv_require(memchr(imp.version, '\0', sizeof imp.version) != NULL,
                     "the version is a terminated string", &err);
    for (size_t i = 0; i < imp.n; i++) {
        const fio_row_t *r = &imp.rows[i];
        fuzz_csv_require(r->op == PROBE_WRITE || r->op == PROBE_READ, "op is write or read",
                         &err);
        fuzz_csv_require(isfinite(r->bytes_per_s) && r->bytes_per_s > 0,
                         "bytes_per_s is positive and finite", &err);
        fuzz_csv_require(r->target[0] != '\0' && memchr(r->target, '\0', sizeof r->target),
                         "the target is a terminated name", &err);
        fuzz_csv_require(memchr(r->dir, '\0', sizeof r->dir) != NULL,
                         "dir is a terminated string", &err);
        fuzz_csv_require(r->rep >= 1, "rep counts from 1", &err);
    }
    check_round_trip(&imp);
    fio_import_free(&imp);
    fio_import_free(&imp); /* safe twice */
    json_decref(root);
    return 0;
}
