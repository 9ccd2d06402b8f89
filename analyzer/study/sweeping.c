/* sweeping.c - the sweep orchestrated once (sweeping.h): the plan line in the caller's
 * words, sweep_run into runs.csv, runs that failed failing or passed over, and runs.csv
 * closed with its rows kept. */
#include "study/sweeping.h"

#include "common/log.h"

/* The plan line, before the first run, with how each run's end is timed (--sync). Each
 * command's wording is its own. */
static void log_plan(const sweeping_request_t *rq)
{
    const sweep_params_t *p = rq->params;
    const char *from = p->decompress ? "archive" : "input";
    bool to_memory = p->decompress && p->layout != SWEEP_SAME;
    const char *end = p->sync == SYNC_NONE     ? "close (no fsync)"
                      : p->sync == SYNC_DIRECT ? "O_DIRECT writes, fsync and close"
                                               : "fsync and close";
    if (rq->plan == SWEEPING_PLAN_STUDY) {
        cp_log_info("sweeping %zu target(s) x %zu thread count(s) x %d rep(s) after a warm-up "
                    "each; runs timed from opening the %s to the %s%s",
                    p->n_targets, p->n_threads, p->reps, from,
                    to_memory ? "last byte restored to memory" : "output's ",
                    to_memory ? "" : end);
        return;
    }
    cp_log_info("sweep: %zu target(s) x %zu codec(s) x %zu thread count(s) x %d rep(s), "
                "seed %llu; each run timed from opening the %s to the %s%s",
                p->n_targets, p->n_series, p->n_threads, p->reps, (unsigned long long)p->seed,
                from, to_memory ? "last byte restored to memory" : "output's ",
                to_memory ? "" : end);
}

int sweeping_run(const sweeping_request_t *rq, bool *some_failed, cp_err_t *err)
{
    bool passed_over = false;
    log_plan(rq);
    int rc = sweep_run(rq->params, runs_csv_write, rq->runs, err);
    if (rc == CP_EIO && rq->on_failed_runs == SWEEPING_WARN && rq->runs->rows > 0) {
        /* Some runs failed: their rows say why; the rest is still worth analysing. */
        cp_log_warn("%s", err->msg);
        passed_over = true;
        cp_err_clear(err);
        rc = CP_OK;
    }
    /* Rows already measured are kept, whatever stopped the sweep; only the first error
     * is returned. */
    cp_err_t close_err = {0};
    int crc = runs_csv_close(rq->runs, &close_err);
    if (crc != CP_OK) {
        if (rc == CP_OK) {
            *err = close_err;
            rc = crc;
        } else {
            cp_log_error("%s", close_err.msg);
        }
    }
    if (some_failed != NULL)
        *some_failed = passed_over;
    return rc;
}
