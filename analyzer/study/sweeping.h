/* sweeping.h - the sweep orchestrated once, for `sweep` and `run`'s sweep stage: the plan
 * line logged, every run measured (measure/sweep.h) with its row appended to runs.csv as
 * it ends, what runs that failed do, and runs.csv closed (its rows kept whatever stopped
 * the sweep). The measuring itself is measure/sweep.h's. What stays each command's own:
 * the targets' claim (study/session.h's session_claim_targets: `sweep` makes it here
 * before opening runs.csv, `run` in session_open before its results directory exists),
 * where runs.csv goes (`sweep`: stdout or -o FILE with --force; `run`: its results
 * directory, with the runs measured before kept on resume, session_open_runs) and what
 * the outcome means for its exit status. */
#ifndef CP_STUDY_SWEEPING_H
#define CP_STUDY_SWEEPING_H

#include <stdbool.h>

#include "common/err.h"
#include "measure/sweep.h"
#include "tables/runs_writer.h"

/* What runs that failed do. Either way every run is measured and a failed run's row
 * carries its error; sweep_run reports them at the end as CP_EIO. */
typedef enum sweeping_failure {
    /* The sweep fails with sweep_run's CP_EIO (`sweep`: exit status 1). */
    SWEEPING_FAIL,
    /* When the sweep wrote rows, its CP_EIO is logged as a warning and passed over: the
     * rows say why runs failed and the rest is still worth analysing (`run`'s sweep
     * stage; meta.json records it). A sweep that wrote no rows fails as with
     * SWEEPING_FAIL. */
    SWEEPING_WARN,
} sweeping_failure_t;

/* Whose words the plan line (logged before the first run) is in: each command keeps its
 * own. */
typedef enum sweeping_plan {
    /* `sweep`: "sweep: T target(s) x C codec(s) x N thread count(s) x R rep(s), seed S;
     * each run timed from opening the input to the output's fsync and close" (the end
     * as --sync says, or the archive and memory with --decompress). */
    SWEEPING_PLAN_SWEEP,
    /* `run`: "sweeping T target(s) x N thread count(s) x R rep(s) after a warm-up each;
     * runs timed from opening the input to the output's fsync and close" (the end as
     * --sync says, as for sweep). */
    SWEEPING_PLAN_STUDY,
} sweeping_plan_t;

/* One orchestrated sweep. */
typedef struct sweeping_request {
    /* Complete: input, targets, series, threads, seed (and, on resume, already_measured).
     * The targets are the caller's, claimed by it (session_claim_targets) while this runs. */
    const sweep_params_t *params;
    /* runs.csv, opened by the caller (runs_csv_open, or session_open_runs); sweeping_run
     * writes every row to it and closes it (runs_csv_close) whatever happens. */
    runs_csv_file_t *runs;
    sweeping_plan_t plan;
    sweeping_failure_t on_failed_runs;
} sweeping_request_t;

/* Logs rq's plan line, measures every run of rq->params with each row appended to
 * rq->runs as soon as it is measured, and closes rq->runs: the rows written stay, also
 * when the sweep stopped (a FILE.partial of -o becomes FILE when it holds rows). CP_OK
 * when every run succeeded, or with SWEEPING_WARN when some failed but rows were written
 * (then *some_failed, when some_failed is not NULL, is true; false otherwise). Otherwise
 * the first error: sweep_run's (CP_EIO for failed runs, CP_EINTR when interrupted, ...)
 * or closing runs.csv's (an -o FILE that appeared meanwhile: CP_EUSAGE); when both
 * failed, the close's message is logged as an error and the sweep's returned. */
int sweeping_run(const sweeping_request_t *rq, bool *some_failed, cp_err_t *err);

#endif
