/* runs.c - the runs table's failures in words, the program that measured it, and freeing
 * the table (runs.h); loading it is the runs.csv loader's. */
#include "model/runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *run_failure_reason(const run_failure_t *f, char *buf, size_t cap)
{
    const char *error = f->error;
    if (strncmp(error, "not run: ", 9) == 0)
        error += 9;
    const char *second = strstr(error, " | "); /* command_job joins stderr's lines so */
    snprintf(buf, cap, "%.*s", second ? (int)(second - error) : (int)strlen(error), error);
    return buf;
}

data_source_t runs_table_source(const runs_table_t *t)
{
    if (t == NULL || t->nrows == 0)
        return DATA_SOURCE_UNKNOWN;
    for (size_t i = 1; i < t->nrows; i++)
        if (t->rows[i].source != t->rows[0].source)
            return DATA_SOURCE_UNKNOWN;
    return t->rows[0].source;
}

void runs_table_free(runs_table_t *t)
{
    if (t == NULL)
        return;
    free(t->rows);
    free(t->failures);
    free(t->path);
    free(t);
}
