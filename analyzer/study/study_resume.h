/* study_resume.h - what `run --resume DIR` needs (private to study/): the recorded study
 * read back from meta.json, the rows kept from before, and the runs they cover. */
#ifndef CP_STUDY_RESUME_H
#define CP_STUDY_RESUME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

typedef struct study_done study_done_t;

/* Rewrites the CSV at path (written by this version: its header must be header_text) with
 * only the rows keep() accepts, atomically; an unfinished last line is dropped. A missing
 * file is fine (nothing kept). row_fn, when given, sees each kept row's cells by column
 * name. *kept counts the rows kept. CP_EUSAGE when the header differs, CP_EDATA when the
 * file is malformed, CP_EIO on I/O errors. */
typedef bool (*study_keep_fn)(void *ctx, const char *const *cells, const char *const *names,
                              size_t n_cells);
int study_csv_keep(const char *path, const char *header_text, study_keep_fn keep, void *ctx,
                   size_t *kept, cp_err_t *err);

/* The valid rows of a runs.csv (target, codec, threads, rep, seconds), for
 * sweep_params_t.already_measured. */
study_done_t *study_done_create(void);
void study_done_free(study_done_t *d);
/* A study_keep_fn for runs.csv: keeps valid rows and records them in ctx (a study_done_t). */
bool study_done_keep_row(void *ctx, const char *const *cells, const char *const *names,
                         size_t n_cells);
/* A sweep_params_t.already_measured over a study_done_t. */
bool study_done_lookup(void *ctx, const char *target, const char *codec, int threads, int rep,
                       double *seconds);

/* How many rows of the runs.csv at path are not valid measurements (failed, or not run
 * after an earlier failure): the runs a resume measures again. 0 for a missing file;
 * CP_EDATA when it is malformed, CP_EIO when it cannot be read. */
int study_failed_runs(const char *path, size_t *failed, cp_err_t *err);

/* The XXH3-64 of a file as 16 hex digits (hex holds 17 bytes) and its size. */
int study_input_hash(const char *path, char *hex, unsigned long long *bytes, cp_err_t *err);

#endif
