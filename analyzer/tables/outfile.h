/* outfile.h - a result file written safely: into a temporary file beside it, renamed into
 * place only by outfile_commit, so a failed or interrupted command never leaves a
 * half-written file and never clobbers an existing one (unless force). "-" or NULL means
 * stdout, written directly. */
#ifndef CP_TABLES_OUTFILE_H
#define CP_TABLES_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "common/err.h"

typedef struct outfile outfile_t;

/* Checks that path can be written (its directory exists and is writable, and it does not
 * exist unless force) and opens the temporary file. CP_EUSAGE naming the path otherwise;
 * NULL on failure. */
outfile_t *outfile_open(const char *path, bool force, cp_err_t *err);

/* The stream to print into. Owned by the outfile. */
FILE *outfile_stream(outfile_t *f);

/* Moves what was printed so far to the temporary file (or flushes stdout), so a long
 * command keeps its rows on disk as it goes. CP_EIO/CP_ENOSPC on failure. */
int outfile_flush(outfile_t *f, cp_err_t *err);

/* Flushes, fsyncs and renames the file into place. After this, outfile_close keeps it. */
int outfile_commit(outfile_t *f, cp_err_t *err);

/* For files of measured rows: if the process is killed by a second interrupt before
 * outfile_commit, what was flushed so far is linked into place instead of deleted. */
void outfile_keep_partial(outfile_t *f);

/* Frees f, removing the temporary file unless committed. NULL is fine. */
void outfile_close(outfile_t *f);

/* Checks path as outfile_open does, without creating anything. */
int outfile_check(const char *path, bool force, cp_err_t *err);

#endif
