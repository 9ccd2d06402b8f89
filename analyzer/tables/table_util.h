/* table_util.h - typed reads of csv_table cells shared by the runs and probe loaders. All
 * return 0 or CP_EDATA with "FILE:LINE: column 'NAME': what is wrong" in err. */
#ifndef CP_TABLES_TABLE_UTIL_H
#define CP_TABLES_TABLE_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/bounds.h"
#include "common/err.h"
#include "tables/csv_table.h"

/* Fails naming the first of names[0..count) that the header lacks. */
int table_require(const csv_table_t *t, const char *const *names, size_t count, cp_err_t *err);

/* Copies a name cell (printable, under out's CP_NAME_MAX bytes) into out; "" when empty
 * and not required, an error when empty and required. */
int table_name(const csv_table_t *t, size_t row, int col, bool required, char out[CP_NAME_MAX],
               cp_err_t *err);

/* A number > 0 and below CP_QUANTITY_MAX (2^63); empty gives NAN unless required (then
 * an error). */
int table_positive(const csv_table_t *t, size_t row, int col, bool required, double *out,
                   cp_err_t *err);

/* A time a run took, in seconds: table_positive and at least CP_SECONDS_MIN (a
 * microsecond). */
int table_seconds(const csv_table_t *t, size_t row, int col, bool required, double *out,
                  cp_err_t *err);

/* An optional number >= 0 and below CP_QUANTITY_MAX; empty gives NAN. */
int table_nonnegative(const csv_table_t *t, size_t row, int col, double *out, cp_err_t *err);

/* A yes/no cell: 1 for 1/true/yes, 0 for 0/false/no, -1 when empty, absent or anything
 * else (these columns are informative, so an odd value is not an error). */
int table_flag(const csv_table_t *t, size_t row, int col);

/* An informative text cell (a directory): copied into out[cap] when it fits and has no
 * control characters, else "" (unknown, not an error; also when the column is absent). */
void table_label(const csv_table_t *t, size_t row, int col, char *out, size_t cap);

#endif
