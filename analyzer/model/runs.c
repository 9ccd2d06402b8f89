/* runs.c - owns freeing the runs table (runs.h); loading it is the runs.csv loader's. */
#include "model/runs.h"

#include <stdlib.h>

void runs_table_free(runs_table_t *t)
{
    if (t == NULL)
        return;
    free(t->rows);
    free(t->failures);
    free(t->path);
    free(t);
}
