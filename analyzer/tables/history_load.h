/* history_load.h - the studies of `chokepoint history ROOT` from disk: every results
 * directory under ROOT (a directory holding meta.json and runs.csv, as `run` writes it),
 * with its host and start time from meta.json, loaded and analysed as compare loads a
 * side (tables/compare_load.h). A directory that cannot be read is skipped with a reason,
 * not an error. */
#ifndef CP_TABLES_HISTORY_LOAD_H
#define CP_TABLES_HISTORY_LOAD_H

#include <stddef.h>

#include "common/err.h"
#include "model/analysis.h"
#include "model/history.h"
#include "tables/compare_load.h"

/* How deep below ROOT results directories are looked for (ROOT/a/b/c/study). */
#define HISTORY_MAX_DEPTH 4
#define HISTORY_MAX_STUDIES 4096

typedef struct history_entry {
    char *host;                 /* meta.json host.hostname (or host.name, or a string
                                   host), else the NAME of a STAMP-NAME directory */
    char *started_text;         /* meta.json "started" */
    double started;             /* the same, seconds since the epoch */
    char *status;               /* meta.json "status" ("" when absent) */
    compare_input_t *input;     /* runs, probe and analysis; input->path is the label */
} history_entry_t;

typedef struct history_skip {
    char *path;
    char *reason;               /* one line: why the directory was left out */
} history_skip_t;

typedef struct history_set {
    char *root;
    history_entry_t *entries;   /* in the order found (directory names sorted) */
    size_t n;
    history_skip_t *skipped;
    size_t nskipped;
} history_set_t;

/* Finds and loads the results directories under root, analysing each with options. On
 * success *out is the caller's (history_set_free), possibly with no entries (every one
 * skipped: see skipped) or none found at all. CP_EUSAGE when root is not a readable
 * directory, CP_ENOMEM, CP_EINTR when SIGINT/SIGTERM arrives while loading; *out is
 * NULL then. */
int history_load(const char *root, const analysis_options_t *options, history_set_t **out,
                 cp_err_t *err);

/* The studies history_build takes, one per entry, pointing into set (keep it alive) into
 * out (set->n slots). */
void history_set_studies(const history_set_t *set, history_study_t *out);

/* Frees a set; NULL is fine. */
void history_set_free(history_set_t *set);

/* An ISO 8601 time "YYYY-MM-DDTHH:MM:SS[.frac][Z|+HHMM|+HH:MM]" (a space may stand for
 * the T; no zone is UTC) as seconds since the epoch into *out. CP_OK, or CP_EDATA when
 * text is not such a time. */
int history_parse_time(const char *text, double *out);

/* The host part of a results directory's name made by `run` ("20261130-145333-vm" ->
 * "vm") into buf; false (buf "") when name does not look like one. */
bool history_host_from_dirname(const char *name, char *buf, size_t cap);

#endif
