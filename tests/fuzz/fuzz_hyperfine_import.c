/* fuzz_hyperfine_import.c - `chokepoint import hyperfine` under arbitrary bytes: the JSON
 * loaded (tables/import_json.c), read as hyperfine's export (tables/hyperfine_import.c)
 * with the sizes and target the command line would give (picked by the input's size),
 * and written as runs.csv. A refusal is one line naming the file; an import must give
 * rows with a thread count of 1..1024 and a positive finite time, written as a runs.csv
 * that the runs table's own loader reads back with the same times. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_csv_check.h"
#include "fuzz_output_check.h"
#include "tables/hyperfine_import.h"
#include "tables/import_json.h"
#include "tables/runs_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The imported rows, written, load back: every valid row (exit code 0) with its time. */
static void check_round_trip(const hyperfine_import_t *imp)
{
    fuzz_stream_t s;
    cp_err_t err = {0};
    int rc = hyperfine_import_write(fuzz_stream_open(&s), imp, &err);
    fuzz_output_t o = fuzz_stream_close(&s, "runs.csv written by import hyperfine");
    if (rc != CP_OK)
        fuzz_output_fail(&o, "the import was not written", err.msg);
    size_t valid = 0;
    for (size_t i = 0; i < imp->n; i++)
        valid += imp->rows[i].exit_code == 0;
    runs_table_t *t = NULL;
    rc = runs_table_load_buffer("runs.csv", o.text, o.len, &t, &err);
    if (rc != CP_OK && valid > 0)
        fuzz_output_fail(&o, "what import hyperfine writes, runs.csv's loader refuses", err.msg);
    if (rc != CP_OK) { /* no valid run: a table of failed runs only may be refused */
        fuzz_csv_check_failure(rc, &err, "runs.csv");
        free(s.text);
        return;
    }
    size_t next = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const run_row_t *l = &t->rows[i];
        while (next < imp->n && imp->rows[next].exit_code != 0)
            next++;
        if (next >= imp->n)
            fuzz_output_fail(&o, "runs.csv's loader reads a row that was not imported", NULL);
        const hyperfine_row_t *r = &imp->rows[next++];
        if (strcmp(r->target, l->target) != 0 || l->threads != r->threads)
            fuzz_output_fail(&o, "a row's target or thread count changed on the way", r->target);
        /* seconds are written with 6 decimals: half a microsecond each way. */
        if (!(fabs(l->seconds - r->seconds) <= 0.5e-6 + r->seconds * 1e-15))
            fuzz_output_fail(&o, "a row's time changed on the way", r->target);
    }
    runs_table_free(t);
    free(s.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const hyperfine_sizes_t choices[] = {
        {4000000, 1500000, NULL}, {4000000, 0, NULL}, {1, 0, "ssd"}, {1ull << 40, 1, "mem"}};
    const hyperfine_sizes_t *sizes = &choices[size % 4];
    cp_err_t err = {0};
    json_t *root = NULL;
    int rc = import_json_parse("hf.json", (const char *)data, size, &root, &err);
    if (rc != CP_OK) {
        fuzz_check_import_refusal(rc, &err, "hf.json");
        return 0;
    }
    hyperfine_import_t imp;
    rc = hyperfine_import_parse("hf.json", root, sizes, &imp, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(imp.rows == NULL && imp.n == 0, "a refusal holds no rows", &err);
        fuzz_check_import_refusal(rc, &err, "hf.json");
        json_decref(root);
        return 0;
    }
    fuzz_csv_require(imp.n >= 1, "an import holds a row", &err);
    for (size_t i = 0; i < imp.n; i++) {
        const hyperfine_row_t *r = &imp.rows[i];
        fuzz_csv_require(r->threads >= 1 && r->threads <= CP_MAX_THREADS,
                         "threads within 1..1024", &err);
        fuzz_csv_require(isfinite(r->seconds) && r->seconds > 0,
                         "seconds is positive and finite", &err);
        fuzz_csv_require(r->target[0] != '\0' && r->codec[0] != '\0',
                         "the target and series are named", &err);
        fuzz_csv_require(r->rep >= 1, "rep counts from 1", &err);
    }
    check_round_trip(&imp);
    hyperfine_import_free(&imp);
    json_decref(root);
    return 0;
}
