/* csv_out.h - writing CSV fields (RFC 4180): text quoted by libcsv only when needed,
 * numbers in plain decimal, unknown values as empty fields. */
#ifndef CP_TABLES_CSV_OUT_H
#define CP_TABLES_CSV_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "common/err.h"

/* A text field; quoted when it holds a comma, quote or line break, or starts or ends with
 * a space or tab (kept so: a reader trims the blanks of a field not quoted). NULL is
 * empty. */
void csv_out_text(FILE *out, const char *text);

/* A number with the given decimals, or an empty field when value is NaN. */
void csv_out_num(FILE *out, int decimals, double value);

/* A row given by column name, for a table written with another writer's header: the
 * fields it names are filled, every other column of the header stays empty. */
#define CSV_NAMED_MAX 32
typedef struct csv_named_row {
    size_t n;
    struct {
        const char *name;  /* a column of the header (static text) */
        const char *text;  /* the field's text, borrowed; NULL: num below */
        char num[40];
    } fields[CSV_NAMED_MAX];
} csv_named_row_t;

/* Sets column name to text (borrowed until the row is written; NULL is empty), or to a
 * number with the given decimals when they read back as the value exactly (NaN is
 * empty); else, a value too small or too wide for them, in the fewest significant
 * digits (%.Ng, 17 at most) that keep it. A row holds CSV_NAMED_MAX fields; more
 * are dropped (a programming error, caught by the tests). */
void csv_named_text(csv_named_row_t *row, const char *name, const char *text);
void csv_named_num(csv_named_row_t *row, const char *name, int decimals, double value);

/* Writes row in the column order of header (one line with its '\n', as the writers'
 * header texts), its unnamed columns empty. CP_EIO when the stream reports an error. */
int csv_named_write(FILE *out, const char *header, const csv_named_row_t *row, cp_err_t *err);

#endif
