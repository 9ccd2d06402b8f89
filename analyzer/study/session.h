/* session.h - the study session: one owner for a results directory while `run` works in
 * it, and for what `plot` regenerates there.
 *
 * session_open opens a new results directory or resumes a recorded one: it checks the
 * input (the one user-facing check of a study), the memory estimate and the targets'
 * locks, holds the directory's lock, and creates meta.json (or records the resume in it).
 * While the study runs, the session opens its row writers (probe.csv, runs.csv: on resume
 * the rows kept from before, study_resume.h) and study_report_write turns runs.csv into
 * analysis, plots and report.md. session_close lets everything go. meta.json's status
 * rules are study/meta.h's; the file is read and written by tables/meta_json.h. */
#ifndef CP_STUDY_SESSION_H
#define CP_STUDY_SESSION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "measure/sweep.h"
#include "measure/target.h"
#include "model/analysis.h"
#include "report/plot.h"
#include "tables/rows_file.h"
#include "tables/runs_writer.h"
#include "study/study.h"

/* The claim of every command that measures targets, before it writes anything: a lock
 * on every directory target (target_lock_all into *locks: refused, CP_EUSAGE, when
 * another command measures one); then an emulated disk for every target with a write
 * cap, unless direct_writes (O_DIRECT) (emulated_disks_up: where one cannot be made, the
 * cap paces each write and a warning says why). Undone by session_release_targets, also
 * after a failure. `probe` and `predict --volume` start with it. */
int session_lock_targets(target_spec_t *targets, size_t n_targets, bool direct_writes,
                         target_locks_t *locks, cp_err_t *err);

/* The checks and claims a sweep makes before anything is written: the memory estimate of
 * its largest thread count (memest_check with p's series, engine, block size and limit),
 * then session_lock_targets (direct when p writes with O_DIRECT). `sweep` and `run` both
 * start with it, before their sweep (study/sweeping.h). */
int session_claim_targets(const sweep_params_t *p, const series_spec_t *series,
                          const int *threads, target_spec_t *targets, size_t n_targets,
                          target_locks_t *locks, cp_err_t *err);

/* Takes down the emulated disks session_lock_targets (or session_claim_targets) brought
 * up (emulated_disks_down) and releases the locks (target_unlock_all). Safe after a
 * failed or partial claim. */
void session_release_targets(target_spec_t *targets, size_t n_targets, target_locks_t *locks);

/* Opens the study's results directory: checks the input (s->input_size), claims the
 * targets given, then makes the results directory (--out or results/<stamp>-<host>/) or,
 * resuming, takes the recorded one (its status before, for meta.json's "resumes", is read
 * before the lock is taken); locks it, adds the default targets when none were given and
 * creates s->meta (a resume appends to the recorded one, which the caller put there).
 * On failure err says why; s->meta stays NULL for a new study whose meta.json was not
 * begun. session_close is due either way. */
int session_open(study_t *s, int argc, char **argv, cp_err_t *err);

/* Releases what session_open and the stages took: the generated fixture (unless
 * keep_input), the resume's runs, the target locks, the 'shm' directory of the study's own
 * and the directory's lock. s->meta stays (the caller's). */
void session_close(study_t *s);

/* The path of a file in the study's results directory; buf holds STUDY_PATH_MAX. */
void session_path(const study_t *s, const char *name, char *buf);

/* Opens probe.csv for the probe stage. *probed is meta.json's "probed" list (the targets
 * whose probe ended; added when missing, owned by s->meta). On resume, probe.csv keeps
 * the rows of those targets only and is appended to. *f is the caller's (rows_file_close);
 * NULL on failure, err saying why. */
int session_open_probe_rows(study_t *s, json_t **probed, rows_file_t **f, cp_err_t *err);

/* Opens runs.csv for the sweep. On resume, runs.csv keeps the valid runs measured before
 * (each once) and is appended to, and s->sweep skips those runs (already_measured over
 * s->done). out is the caller's to close (runs_csv_close; study/sweeping.h's sweeping_run
 * does); nothing to close on failure. */
int session_open_runs(study_t *s, runs_csv_file_t *out, cp_err_t *err);

/* What study_report_write makes, and from what. */
typedef struct study_report_request {
    const char *dir;             /* runs.csv (and probe.csv when present) in, the rest out */
    analysis_options_t options;
    plot_format_t format;
    /* run: the study's own meta (the report's "How this was measured"); the plot stage is
     * recorded in it, "plotting" logged, analysis.json written and a missing gnuplot
     * warned of at once. NULL (plot): DIR/meta.json is read for the report, when there,
     * and a study that did not complete is noted at the report's end and warned of. */
    json_t *study_meta;
    /* Read DIR/probe.csv when it can be read (run: when the study probed; plot: always). */
    bool use_probe;
    /* Replace report.md, analysis.json and the images when they exist (run, in its own
     * results directory; plot --force); else refused before anything is written. */
    bool replace;
} study_report_request_t;

/* Analyses DIR/runs.csv, draws the plots into DIR (*plots, the caller's, zeroed first)
 * and writes DIR/report.md (atomically). DIR must be the caller's own (common/owned_dir.h);
 * without rq->replace, an existing report.md or image is CP_EUSAGE "output '...' exists;
 * use --force to replace it" before anything is written. *analysis is the caller's (analysis_free), NULL
 * unless the analysis succeeded. The first error is returned, err saying why. */
int study_report_write(const study_report_request_t *rq, plot_set_t *plots,
                       analysis_t **analysis, cp_err_t *err);

#endif
