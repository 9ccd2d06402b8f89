/* csv_out.c - CSV fields out: text quoted by libcsv only when needed, numbers in plain
 * decimal, unknown values empty (csv_out.h). */
#include "tables/csv_out.h"

#include <csv.h>
#include <math.h>
#include <string.h>

void csv_out_text(FILE *out, const char *text)
{
    if (text == NULL)
        return;
    if (strpbrk(text, ",\"\r\n") != NULL)
        csv_fwrite(out, text, strlen(text));
    else
        fputs(text, out);
}

void csv_out_num(FILE *out, int decimals, double value)
{
    if (!isnan(value))
        fprintf(out, "%.*f", decimals, value);
}
