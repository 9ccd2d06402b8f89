/* table_util.c - typed reads of csv_table cells (numbers, counts, flags) with
 * "FILE:LINE: column" messages, for the runs and probe loaders (table_util.h). */
#include "tables/table_util.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "common/text_check.h"

int table_require(const csv_table_t *t, const char *const *names, size_t count, cp_err_t *err)
{
    for (size_t i = 0; i < count; i++)
        if (csv_table_find(t, names[i]) < 0)
            return cp_err_set(err, CP_EDATA, "%s:%ld: required column '%s' is missing",
                              csv_table_name(t), csv_table_header_line(t), names[i]);
    return 0;
}

int table_name(const csv_table_t *t, size_t row, int col, bool required, char out[CP_NAME_MAX],
               cp_err_t *err)
{
    const char *text = csv_table_cell(t, row, col);
    size_t len = strlen(text);
    const char *column = csv_table_header(t, (size_t)(col < 0 ? 0 : col));
    out[0] = '\0';
    if (len == 0) {
        if (!required)
            return 0;
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s' is empty", csv_table_name(t),
                          csv_table_line(t, row), column);
    }
    text_fault_t fault = text_check_bytes(text, len, CP_NAME_MAX, NULL);
    if (fault == TEXT_LONG)
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': name longer than %d bytes",
                          csv_table_name(t), csv_table_line(t, row), column, CP_NAME_MAX - 1);
    if (fault == TEXT_CONTROL)
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': a control character in "
                          "the name", csv_table_name(t), csv_table_line(t, row), column);
    if (fault == TEXT_ENCODING)
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': a byte that is not UTF-8 in "
                          "the name", csv_table_name(t), csv_table_line(t, row), column);
    memcpy(out, text, len + 1);
    return 0;
}

/* A read number (NaN: empty) below CP_QUANTITY_MAX, else CP_EDATA naming the cell. */
static int table_bounded(const csv_table_t *t, size_t row, int col, double value,
                         cp_err_t *err)
{
    if (!isnan(value) && !(value < CP_QUANTITY_MAX))
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': %g is past 2^63 (no size, "
                          "rate, count or time is)", csv_table_name(t), csv_table_line(t, row),
                          csv_table_header(t, (size_t)col), value);
    return CP_OK;
}

int table_positive(const csv_table_t *t, size_t row, int col, bool required, double *out,
                   cp_err_t *err)
{
    int rc = csv_table_number(t, row, col, out, err);
    if (rc != CP_OK)
        return rc;
    const char *column = csv_table_header(t, (size_t)(col < 0 ? 0 : col));
    if (isnan(*out)) { /* empty */
        if (!required || col < 0)
            return 0;
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s' is empty", csv_table_name(t),
                          csv_table_line(t, row), column);
    }
    if (!(*out > 0.0))
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': %g is not positive",
                          csv_table_name(t), csv_table_line(t, row), column, *out);
    return table_bounded(t, row, col, *out, err);
}

int table_seconds(const csv_table_t *t, size_t row, int col, bool required, double *out,
                  cp_err_t *err)
{
    int rc = table_positive(t, row, col, required, out, err);
    if (rc == CP_OK && *out < CP_SECONDS_MIN)
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': %g s is below a microsecond "
                          "(no run takes less)", csv_table_name(t), csv_table_line(t, row),
                          csv_table_header(t, (size_t)col), *out);
    return rc;
}

int table_nonnegative(const csv_table_t *t, size_t row, int col, double *out, cp_err_t *err)
{
    int rc = csv_table_number(t, row, col, out, err);
    if (rc != CP_OK)
        return rc;
    if (*out < 0.0)
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': %g is negative",
                          csv_table_name(t), csv_table_line(t, row),
                          csv_table_header(t, (size_t)col), *out);
    return table_bounded(t, row, col, *out, err);
}

int table_flag(const csv_table_t *t, size_t row, int col)
{
    const char *v = csv_table_cell(t, row, col);
    if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0)
        return 1;
    if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0)
        return 0;
    return -1;
}

void table_label(const csv_table_t *t, size_t row, int col, char *out, size_t cap)
{
    const char *text = csv_table_cell(t, row, col);
    size_t len = strlen(text);
    out[0] = '\0';
    if (text_check_bytes(text, len, cap, NULL) != TEXT_OK)
        return;
    memcpy(out, text, len + 1);
}
