/* csv_out.c - CSV fields out: text quoted by libcsv only when needed, numbers in plain
 * decimal, unknown values empty (csv_out.h). */
#include "tables/csv_out.h"

#include <csv.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether text needs quotes to be read back as it is: a separator, a quote or a line end
 * in it, or a blank at either end (a reader trims those of a field not quoted). */
static bool needs_quotes(const char *text)
{
    size_t n = strlen(text);
    return strpbrk(text, ",\"\r\n") != NULL ||
           (n > 0 && (strchr(" \t", text[0]) != NULL || strchr(" \t", text[n - 1]) != NULL));
}

void csv_out_text(FILE *out, const char *text)
{
    if (text == NULL)
        return;
    if (needs_quotes(text))
        csv_fwrite(out, text, strlen(text));
    else
        fputs(text, out);
}

void csv_out_num(FILE *out, int decimals, double value)
{
    if (!isnan(value))
        fprintf(out, "%.*f", decimals, value);
}

void csv_named_text(csv_named_row_t *row, const char *name, const char *text)
{
    if (row->n >= CSV_NAMED_MAX)
        return;
    row->fields[row->n].name = name;
    row->fields[row->n].text = text != NULL ? text : "";
    row->n++;
}

/* value in num[cap] as plain decimals when they give it back exactly; else (a value too
 * small or too wide for them) in the fewest significant digits that do, 17 at most, which
 * give any double back: a number is never cut. */
static void format_kept(char *num, size_t cap, int decimals, double value)
{
    if ((size_t)snprintf(num, cap, "%.*f", decimals, value) < cap && strtod(num, NULL) == value)
        return;
    for (int digits = 1; digits <= 17; digits++)
        if ((size_t)snprintf(num, cap, "%.*g", digits, value) < cap &&
            strtod(num, NULL) == value)
            return;
}

void csv_named_num(csv_named_row_t *row, const char *name, int decimals, double value)
{
    if (row->n >= CSV_NAMED_MAX)
        return;
    row->fields[row->n].name = name;
    row->fields[row->n].text = NULL;
    row->fields[row->n].num[0] = '\0';
    if (!isnan(value))
        format_kept(row->fields[row->n].num, sizeof row->fields[row->n].num, decimals, value);
    row->n++;
}

/* The field the row gives the column header[start, start + len), NULL when none. */
static const char *named_field(const csv_named_row_t *row, const char *column, size_t len)
{
    for (size_t i = 0; i < row->n; i++)
        if (strlen(row->fields[i].name) == len && strncmp(row->fields[i].name, column, len) == 0)
            return row->fields[i].text != NULL ? row->fields[i].text : row->fields[i].num;
    return NULL;
}

int csv_named_write(FILE *out, const char *header, const csv_named_row_t *row, cp_err_t *err)
{
    const char *column = header;
    while (*column != '\0' && *column != '\n') {
        size_t len = strcspn(column, ",\n");
        csv_out_text(out, named_field(row, column, len));
        column += len;
        if (*column == ',') {
            fputc(',', out);
            column++;
        }
    }
    fputc('\n', out);
    if (ferror(out))
        return cp_err_set(err, CP_EIO, "cannot write a CSV row");
    return CP_OK;
}
