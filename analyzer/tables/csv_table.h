/* csv_table.h - a small, defensive CSV reader: a header line and rows of text fields.
 *
 * RFC 4180 over libcsv: quoted fields may hold commas, quotes and newlines; CRLF or LF
 * line ends; a UTF-8 byte-order mark is skipped; blank lines are ignored; header names
 * are matched case-insensitively. Every row remembers the physical line where its record
 * starts, so errors read "FILE:LINE: what is wrong" even after quoted newlines.
 *
 * Data files must never crash or stall us, so the reader refuses (CP_EDATA, FILE:LINE
 * message) a field over CSV_TABLE_FIELD_MAX bytes, more than CSV_TABLE_COLUMNS_MAX
 * columns, more than CSV_TABLE_ROWS_MAX rows, a NUL byte, a row whose field count differs
 * from the header's, a duplicate header name and an unterminated quote; and, as a
 * "FILE: larger than 1024 MiB" message, a file of more than REGULAR_FILE_TABLE_MAX bytes
 * (common/regular_file.h), by its size or by what was read of it. */
#ifndef CP_TABLES_CSV_TABLE_H
#define CP_TABLES_CSV_TABLE_H

#include <stddef.h>

#include "common/err.h"

#define CSV_TABLE_FIELD_MAX 4096
#define CSV_TABLE_COLUMNS_MAX 1024
#define CSV_TABLE_ROWS_MAX 1000000

typedef struct csv_table csv_table_t;

/* Reads and parses the file at path. On success *out is a table the caller frees with
 * csv_table_free. On failure returns CP_EIO (cannot read) or CP_EDATA (malformed), sets
 * err, and *out is left NULL. */
int csv_table_read_file(const char *path, csv_table_t **out, cp_err_t *err);

/* The same over a buffer in memory; name is used in messages in place of a path. */
int csv_table_read_buffer(const char *name, const void *data, size_t len,
                          csv_table_t **out, cp_err_t *err);

/* Frees a table; NULL is fine. */
void csv_table_free(csv_table_t *table);

/* The path or name given when reading (owned by the table). */
const char *csv_table_name(const csv_table_t *table);

/* Number of columns (header fields) and data rows. */
size_t csv_table_columns(const csv_table_t *table);
size_t csv_table_rows(const csv_table_t *table);

/* Header name of column col (owned by the table). */
const char *csv_table_header(const csv_table_t *table, size_t col);

/* Index of the column named name (case-insensitive), or -1 when there is none. */
int csv_table_find(const csv_table_t *table, const char *name);

/* Physical line (1-based) where data row `row` starts; the header is on line
 * csv_table_header_line(). */
long csv_table_line(const csv_table_t *table, size_t row);
long csv_table_header_line(const csv_table_t *table);

/* Field text of a row (NUL-terminated, owned by the table). A negative col (a column the
 * file lacks) gives "", so optional columns read as empty, i.e. unknown. */
const char *csv_table_cell(const csv_table_t *table, size_t row, int col);

/* Copies text into out (cap bytes, NUL-terminated) with non-printable bytes shown as '?'
 * and "..." when cut short, so data quoted in a message stays on one line. */
void csv_table_printable(const char *text, char *out, size_t cap);

/* Reads the cell as a decimal number (digits, optional sign, fraction and exponent; no
 * hex, inf or nan). Returns CP_OK with *out set, or NAN when the cell is empty (unknown:
 * a number read is never NAN), or CP_EDATA with "FILE:LINE: column 'NAME': 'TEXT' is not
 * a number" in err; also CP_EDATA ("... is out of range") for a magnitude of 2^63 or
 * more, or one below 1e-6 that is not 0. */
int csv_table_number(const csv_table_t *table, size_t row, int col, double *out,
                     cp_err_t *err);

#endif
