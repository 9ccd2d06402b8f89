/* probing.h - the probe orchestrated over a command's targets, once for `probe`, `run`'s
 * probe stage and `predict --volume`: which targets are probed, together or one at a time,
 * what a target's failure does, where each row goes and which targets are done. The
 * measuring itself is measure/probe.h's; what a command does with the rows (probe.csv,
 * stdout, a table in memory) is its own, through the row sink. */
#ifndef CP_STUDY_PROBING_H
#define CP_STUDY_PROBING_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "measure/probe.h"
#include "measure/target.h"

/* What a target's failure does. */
typedef enum probing_failure {
    /* The targets are probed together in one shuffled order (probe_run): every one is
     * checked before anything is measured, and the first failure (or interrupt) stops the
     * probe and is returned. `probe` and `predict --volume`. */
    PROBING_STOP,
    /* Each target is probed alone, in the order given, so one full or failing volume does
     * not cost the others their figures: its failure is logged as a warning (its ceilings
     * will be unknown) and the next target is probed; only an interrupt stops the probe
     * (CP_EINTR). `run`'s probe stage. */
    PROBING_CONTINUE,
} probing_failure_t;

/* One orchestrated probe. Targets without a volume (mem) are passed over silently: never
 * asked about, probed or reported. */
typedef struct probing_request {
    const probe_params_t *params;
    const target_spec_t *targets;
    size_t n_targets;
    probe_row_cb on_row;   /* every row, as soon as it is measured (measure/probe.h) */
    void *row_ctx;
    probing_failure_t on_failure;
    /* Optional (NULL: every target). Asked once per target, in order, before any of them
     * is probed with PROBING_STOP and just before each one with PROBING_CONTINUE: false
     * passes the target over (not probed, not reported). The caller may say here what it
     * is about to do. */
    bool (*want)(const target_spec_t *t, void *ctx);
    /* Optional. Reports each target probed: measured, or with PROBING_CONTINUE failed
     * and passed over (not probed again). Not called for a target an interrupt stopped,
     * nor, with PROBING_STOP, for any target when the probe failed. */
    void (*done)(const target_spec_t *t, void *ctx);
    void *target_ctx;      /* for want and done */
} probing_request_t;

/* Probes rq's targets as rq->on_failure says, handing each row to rq->on_row. CP_OK when
 * every target wanted was probed (with PROBING_CONTINUE, also when some failed); with
 * PROBING_STOP probe_run's error (or what on_row returned; rows already handed over stay
 * valid results); CP_EINTR when interrupted; CP_ENOMEM. The targets are the caller's,
 * locked by it (study/session.h) while this runs. */
int probing_run(const probing_request_t *rq, cp_err_t *err);

/* Row sinks for probing_request_t's on_row. probing_keep_row appends the row to the
 * probe_rows_t ctx (the caller's: free(rows)); CP_ENOMEM when memory runs out.
 * probing_file_row writes it as a probe.csv row to the rows_file_t ctx (header written
 * by rows_file_open) and commits it (rows_file_commit_row); CP_EIO on a write error. */
int probing_keep_row(const probe_row_t *row, void *ctx, cp_err_t *err);
int probing_file_row(const probe_row_t *row, void *ctx, cp_err_t *err);

#endif
