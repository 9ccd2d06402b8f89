/* datafile.h - a plot data file written beside its final name inside a directory held
 * by descriptor (common/owned_dir.h) and renamed into place when complete, so gnuplot
 * never reads half a file, a failed run leaves none, and a swapped directory name cannot
 * redirect it. */
#ifndef CP_REPORT_DATAFILE_H
#define CP_REPORT_DATAFILE_H

#include <limits.h>
#include <stdio.h>

#include "common/err.h"
#include "common/owned_dir.h"

typedef struct datafile {
    FILE *f;         /* print into this */
    owned_file_t tmp;
    char path[PATH_MAX];
} datafile_t;

/* Opens name's temporary file in dir and writes a first comment line naming the file and
 * the command that writes it (`writer`: "plot", "compare"). CP_OK, or CP_EIO with err set
 * and nothing left behind. dir must stay open until the commit. */
int datafile_open(datafile_t *d, const owned_dir_t *dir, const char *name, const char *writer,
                  cp_err_t *err);

/* Flushes, closes and renames the file into place (replacing an older one: a data file is
 * regenerated on every run); on any failure removes it and returns CP_EIO with err set. */
int datafile_commit(datafile_t *d, cp_err_t *err);

/* Closes and removes an unfinished file. */
void datafile_abort(datafile_t *d);

#endif
