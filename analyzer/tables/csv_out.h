/* csv_out.h - writing CSV fields (RFC 4180): text quoted by libcsv only when needed,
 * numbers in plain decimal, unknown values as empty fields. */
#ifndef CP_TABLES_CSV_OUT_H
#define CP_TABLES_CSV_OUT_H

#include <stdio.h>

/* A text field; quoted when it holds a comma, quote or line break. NULL is empty. */
void csv_out_text(FILE *out, const char *text);

/* A number with the given decimals, or an empty field when value is NaN. */
void csv_out_num(FILE *out, int decimals, double value);

#endif
