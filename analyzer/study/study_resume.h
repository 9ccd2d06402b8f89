/* study_resume.h - `run --resume DIR`: the recorded study read back from meta.json (its
 * command line, to be parsed again, and its state), the rows of probe.csv and runs.csv
 * kept from before, the runs they cover, and the input's fingerprint. */
#ifndef CP_STUDY_RESUME_H
#define CP_STUDY_RESUME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

/* run --resume DIR: reads DIR/meta.json and gives back the recorded command line (*argv
 * and its strings malloc'd: study_resume_free_args) to parse as the study's options, and
 * the meta object (the caller's reference), with the working directory the study ran in
 * restored (chdir) so its relative paths mean the same; *abs_dir (PATH_MAX bytes) is DIR
 * made absolute. A complete study is resumed only when its runs.csv holds failed runs
 * (measured again). CP_EUSAGE when DIR is not a results directory of `chokepoint run`, is
 * complete with every run valid, or is in use by a live process. */
int study_resume_load(const char *dir, char *abs_dir, json_t **meta, int *argc, char ***argv,
                      cp_err_t *err);
void study_resume_free_args(int argc, char **argv);

/* True when meta.json's "probed" list names the target: its probe ended before. */
bool study_resume_probed(const json_t *probed, const char *name);

/* Rewrites the probe.csv at path (written by this version: other columns are CP_EUSAGE)
 * with only the rows of the targets in probed, atomically; an unfinished last line is
 * dropped, a missing file is fine (nothing kept). *kept counts the rows kept. CP_EDATA
 * when the file is malformed, CP_EIO on I/O errors. */
int study_resume_keep_probe_rows(const char *path, const json_t *probed, size_t *kept,
                                 cp_err_t *err);

/* The valid runs of a runs.csv, for sweep_params_t.already_measured. */
typedef struct study_done study_done_t;
void study_done_free(study_done_t *d);

/* A sweep_params_t.already_measured over a study_done_t. */
bool study_done_lookup(void *ctx, const char *target, const char *codec, int threads, int rep,
                       double *seconds);

/* Rewrites the runs.csv at path as study_resume_keep_probe_rows does, keeping the valid
 * runs as runs_table_load reads them (tables/runs_csv.h; the first of two rows for one
 * target, codec, thread count and repetition), and gives them in *done (the caller's,
 * study_done_free; also on failure, possibly empty). */
int study_resume_keep_runs(const char *path, study_done_t **done, size_t *kept, cp_err_t *err);

/* How many rows of the runs.csv at path are not valid measurements (failed, or not run
 * after an earlier failure): the runs a resume measures again. 0 for a missing file;
 * CP_EDATA when it is malformed, CP_EIO when it cannot be read. */
int study_failed_runs(const char *path, size_t *failed, cp_err_t *err);

/* The XXH3-64 of a file as 16 hex digits (hex holds 17 bytes) and its size. */
int study_input_hash(const char *path, char *hex, unsigned long long *bytes, cp_err_t *err);

#endif
