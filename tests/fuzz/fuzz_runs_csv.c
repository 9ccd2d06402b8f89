/* fuzz_runs_csv.c - runs.csv loading under arbitrary bytes: binary garbage, NUL bytes,
 * CRLF, quoted commas and newlines, huge fields, thousands of columns. The loader must
 * succeed with rows that keep its documented ranges, or fail with FILE:LINE:. */
#include <math.h>
#include <stdint.h>

#include "fuzz_csv_check.h"
#include "tables/runs_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char name[] = "runs.csv";
    cp_err_t err = {0};
    runs_table_t *table = NULL;
    int rc = runs_table_load_buffer(name, data, size, &table, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(table == NULL, "a failed load returns no table", &err);
        fuzz_csv_check_failure(rc, &err, name);
        return 0;
    }
    fuzz_csv_require(table != NULL, "a successful load returns a table", &err);
    for (size_t i = 0; i < table->nrows; i++) {
        const run_row_t *r = &table->rows[i];
        fuzz_csv_require(r->threads >= 1 && r->threads <= RUNS_THREADS_MAX,
                         "threads within 1..1024", &err);
        fuzz_csv_require(r->seconds > 0 && isfinite(r->seconds), "seconds > 0", &err);
        fuzz_csv_require(r->input_bytes > 0 && isfinite(r->input_bytes), "input_bytes > 0",
                         &err);
        fuzz_csv_require(memchr(r->target, '\0', sizeof r->target) != NULL,
                         "target is a terminated string", &err);
        fuzz_csv_require(r->line >= 2, "a data row is on line 2 or later", &err);
    }
    runs_table_free(table);
    return 0;
}
