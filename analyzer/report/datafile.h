/* datafile.h - a plot data file written beside its final name and renamed into place
 * (common/tempfile), so gnuplot never reads half a file and a failed run leaves none. */
#ifndef CP_REPORT_DATAFILE_H
#define CP_REPORT_DATAFILE_H

#include <limits.h>
#include <stdio.h>

#include "common/err.h"
#include "common/tempfile.h"

typedef struct datafile {
    FILE *f;         /* print into this */
    tempfile_t tmp;
    char path[PATH_MAX];
} datafile_t;

/* Opens dir/name's temporary file and writes a first comment line naming the file and the
 * command that writes it (`writer`: "plot", "compare"). CP_OK, or CP_EIO with err set and
 * nothing left behind. */
int datafile_open(datafile_t *d, const char *dir, const char *name, const char *writer,
                  cp_err_t *err);

/* Flushes, closes and renames the file into place (replacing an older one); on any
 * failure removes it and returns CP_EIO with err set. */
int datafile_commit(datafile_t *d, cp_err_t *err);

/* Closes and removes an unfinished file. */
void datafile_abort(datafile_t *d);

#endif
