/* probing.c - the probe orchestrated over a command's targets (probing.h): together with
 * the first failure stopping it, or one target at a time with a failure passed over. */
#include "study/probing.h"

#include <stdlib.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "tables/probe_writer.h"
#include "tables/rows_file.h"

/* Whether rq probes t: a volume, and wanted by the caller. */
static bool probing_wants(const probing_request_t *rq, const target_spec_t *t)
{
    return target_ops_for(t)->has_volume && (rq->want == NULL || rq->want(t, rq->target_ctx));
}

static void probing_done(const probing_request_t *rq, const target_spec_t *t)
{
    if (rq->done != NULL)
        rq->done(t, rq->target_ctx);
}

/* PROBING_STOP: the targets wanted, in one probe_run. */
static int probe_together(const probing_request_t *rq, cp_err_t *err)
{
    target_spec_t *targets = calloc(rq->n_targets ? rq->n_targets : 1, sizeof *targets);
    if (targets == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < rq->n_targets; i++)
        if (probing_wants(rq, &rq->targets[i]))
            targets[n++] = rq->targets[i];
    int rc = probe_run(rq->params, targets, n, rq->on_row, rq->row_ctx, err);
    for (size_t i = 0; rc == CP_OK && i < n; i++)
        probing_done(rq, &targets[i]);
    free(targets);
    return rc;
}

/* PROBING_CONTINUE: each target wanted alone; a failure is a warning, an interrupt stops. */
static int probe_each(const probing_request_t *rq, cp_err_t *err)
{
    int rc = CP_OK;
    for (size_t i = 0; i < rq->n_targets && rc == CP_OK; i++) {
        const target_spec_t *t = &rq->targets[i];
        if (!probing_wants(rq, t))
            continue;
        cp_err_t one = {0};
        int prc = probe_run(rq->params, t, 1, rq->on_row, rq->row_ctx, &one);
        if (prc == CP_EINTR || cp_interrupted())
            rc = cp_err_set(err, CP_EINTR, "interrupted");
        else if (prc != CP_OK)
            cp_log_warn("probe of '%s' failed: %s; its ceilings will be unknown", t->name,
                        one.msg);
        if (rc == CP_OK) /* done with this target, also when it failed */
            probing_done(rq, t);
    }
    return rc;
}

int probing_run(const probing_request_t *rq, cp_err_t *err)
{
    return rq->on_failure == PROBING_STOP ? probe_together(rq, err) : probe_each(rq, err);
}

int probing_keep_row(const probe_row_t *row, void *ctx, cp_err_t *err)
{
    return probe_rows_push(ctx, row, err);
}

int probing_file_row(const probe_row_t *row, void *ctx, cp_err_t *err)
{
    rows_file_t *f = ctx;
    int rc = probe_csv_row(rows_file_stream(f), row, err);
    return rc == CP_OK ? rows_file_commit_row(f, err) : rc;
}
