/* fuzz_probe_csv.c - probe.csv loading under arbitrary bytes. The loader must succeed
 * with rows of a known op and a positive speed, or fail with FILE:LINE:; the speed
 * summary over whatever loaded must not crash. */
#include <math.h>
#include <stdint.h>

#include "fuzz_csv_check.h"
#include "tables/probe_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char name[] = "probe.csv";
    cp_err_t err = {0};
    probe_table_t *table = NULL;
    int rc = probe_table_load_buffer(name, data, size, &table, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(table == NULL, "a failed load returns no table", &err);
        fuzz_csv_check_failure(rc, &err, name);
        return 0;
    }
    fuzz_csv_require(table != NULL, "a successful load returns a table", &err);
    for (size_t i = 0; i < table->nrows; i++) {
        const probe_speed_row_t *r = &table->rows[i];
        fuzz_csv_require(r->op == PROBE_OP_WRITE || r->op == PROBE_OP_READ ||
                             r->op == PROBE_OP_SUSTAINED,
                         "op is write, read or sustained", &err);
        fuzz_csv_require(r->bytes_per_s > 0 && isfinite(r->bytes_per_s), "bytes_per_s > 0",
                         &err);
        fuzz_csv_require(memchr(r->target, '\0', sizeof r->target) != NULL,
                         "target is a terminated string", &err);
        if (i < 16) { /* the summary is O(rows) per call: sample a few targets */
            double w = probe_table_speed(table, r->target, PROBE_OP_WRITE);
            fuzz_csv_require(isnan(w) || w > 0, "a known speed is positive", &err);
        }
    }
    probe_table_speed(table, "no-such-target", PROBE_OP_READ);
    probe_table_free(table);
    return 0;
}
