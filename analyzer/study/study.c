/* study.c - the stages of `chokepoint run` in their order: the fixture (the input made or
 * matched against the recorded one), the probe (study/probing.h), the sweep
 * (study/sweeping.h), and the analysis with its plots and report; meta.json records each
 * stage (study/meta.h). The results directory, the locks, meta.json and the row files are
 * the session's (study/session.h). */
#include "study/study.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/units.h"
#include "fixtures/fixture.h"
#include "measure/probe.h"
#include "report/analysis_text.h"
#include "tables/rows_file.h"
#include "tables/runs_writer.h"
#include "study/meta.h"
#include "study/probing.h"
#include "study/session.h"
#include "study/study_resume.h"
#include "study/sweeping.h"

/* The input, checked: size and XXH3 hash go into meta.json, and a resumed study's input
 * must be the one it measured (a generated fixture is made again when it is not). */
static int stage_fixture(study_t *s, cp_err_t *err)
{
    json_t *recorded = s->resume ? json_object_get(s->meta, "input") : NULL;
    const char *want = json_string_value(json_object_get(recorded, "xxh3"));
    json_int_t want_bytes = json_integer_value(json_object_get(recorded, "bytes"));
    bool generated = s->input_arg == NULL;
    int rc = CP_OK;
    char hex[17] = "";
    unsigned long long bytes = 0;
    if (!generated) { /* checked by session_open */
        snprintf(s->input, sizeof s->input, "%s", s->input_arg);
    } else {
        session_path(s, "input.bin", s->input);
        s->made_input = true; /* removed at the end unless --keep-input */
        s->input_size = s->fixture_size;
    }
    bool fresh = false;
    for (int attempt = 0; rc == CP_OK && attempt < 2; attempt++) {
        if (generated && (attempt > 0 || access(s->input, R_OK) != 0)) {
            unlink(s->input);
            char size_text[32];
            cp_log_info("generating a %s mixed fixture (seed %d) in %s",
                        units_format_bytes_echo(size_text, sizeof size_text, s->fixture_size),
                        RUN_FIXTURE_SEED, s->input);
            rc = fixture_write_file(s->input, s->fixture_size, FIXTURE_MIXED, RUN_FIXTURE_SEED,
                                    false, err);
            fresh = true;
        }
        if (rc == CP_OK)
            rc = study_input_hash(s->input, hex, &bytes, err);
        if (rc != CP_OK || want == NULL ||
            (strcmp(hex, want) == 0 && (json_int_t)bytes == want_bytes))
            break;
        if (!generated || fresh)
            rc = cp_err_set(err, CP_EUSAGE,
                            "input '%s' is not the one this study measured (%llu bytes, XXH3 %s; "
                            "recorded %lld bytes, XXH3 %s); resume needs the same input",
                            s->input, bytes, hex, (long long)want_bytes, want);
    }
    if (rc == CP_OK && s->resume && want != NULL)
        cp_log_info("input %s checked: same size and XXH3 hash as recorded", s->input);
    json_t *in = json_pack("{s:s, s:I, s:b}", "path", s->input, "bytes", (json_int_t)bytes,
                           "generated", generated);
    if (generated) {
        json_object_set_new(in, "kind", json_string("mixed"));
        json_object_set_new(in, "seed", json_integer(RUN_FIXTURE_SEED));
    }
    if (rc == CP_OK)
        json_object_set_new(in, "xxh3", json_string(hex));
    if (rc == CP_OK || recorded == NULL)
        json_object_set_new(s->meta, "input", in);
    else
        json_decref(in);
    return rc;
}

/* What the probe stage knows of its targets: the ones probed before (resume) and the
 * parameters it says it probes with. */
typedef struct stage_probe_state {
    study_t *s;
    json_t *probed; /* meta.json's "probed" list (s->meta's) */
    const probe_params_t *p;
} stage_probe_state_t;

/* A target whose probe ended before (run --resume) is kept, not probed again; the others
 * are announced with what the probe measures. */
static bool probe_wanted(const target_spec_t *t, void *ctx)
{
    const stage_probe_state_t *st = ctx;
    if (study_resume_probed(st->probed, t->name)) {
        cp_log_info("probe of '%s' kept from before", t->name);
        return false;
    }
    const probe_params_t *p = st->p;
    cp_log_info("probing '%s' (%zu sizes up to %.1f MB, %d rep%s, %s)", t->name, p->n_sizes,
                (double)p->sizes[p->n_sizes - 1] / 1e6, p->reps, p->reps == 1 ? "" : "s",
                sync_mode_name(p->sync));
    return true;
}

/* A target done with (measured, or failed and passed over) is recorded in meta.json at
 * once, so a resume after a crash does not probe it again. */
static void probe_done(const target_spec_t *t, void *ctx)
{
    stage_probe_state_t *st = ctx;
    json_array_append_new(st->probed, json_string(t->name));
    study_meta_write(st->s->meta, st->s->dir);
}

/* Probes each directory target alone (probing.h, PROBING_CONTINUE), so one full or
 * failing volume does not cost the others their figures. Sizes: the default list up to
 * the input's size. */
static int stage_probe(study_t *s, cp_err_t *err)
{
    probe_params_t p = probe_defaults();
    size_t n = 0;
    for (size_t i = 0; i < p.n_sizes; i++)
        if (p.sizes[i] <= s->input_size)
            p.sizes[n++] = p.sizes[i];
    if (n == 0)
        p.sizes[n++] = s->input_size > 0 ? s->input_size : 1;
    p.n_sizes = n;
    p.reps = s->sweep.reps;
    p.reps_auto = s->sweep.reps_auto;
    p.seed = s->sweep.seed;
    /* The probe takes the runs' write path, so its figures (the I/O path's CPU cost above
     * all) are the ones those runs paid; a run without fsync still needs the disk's own
     * speed, which only an fsync'd probe gives. */
    p.sync = s->sweep.sync == SYNC_DIRECT ? SYNC_DIRECT : SYNC_FSYNC;
    stage_probe_state_t st = {s, NULL, &p};
    rows_file_t *f = NULL;
    int rc = session_open_probe_rows(s, &st.probed, &f, err);
    if (rc != CP_OK)
        return rc;
    probing_request_t rq = {.params = &p, .targets = s->targets, .n_targets = s->n_targets,
                            .on_row = probing_file_row, .row_ctx = f,
                            .on_failure = PROBING_CONTINUE, .want = probe_wanted,
                            .done = probe_done, .target_ctx = &st};
    rc = probing_run(&rq, err);
    cp_err_t close_err = {0};
    int crc = rows_file_close(f, &close_err);
    if (rc == CP_OK && crc != CP_OK)
        rc = cp_err_set(err, crc, "%s", close_err.msg);
    return rc;
}

/* The runs into runs.csv (study/sweeping.h; on resume the runs kept are not measured
 * again, session_open_runs). Runs that failed are recorded (some_failed) and passed over:
 * the rest is still analysed. */
static int stage_sweep(study_t *s, cp_err_t *err)
{
    runs_csv_file_t out;
    int rc = session_open_runs(s, &out, err);
    if (rc != CP_OK)
        return rc;
    s->sweep.input_path = s->input;
    s->sweep.targets = s->targets;
    s->sweep.n_targets = s->n_targets;
    s->sweep.series = s->series;
    s->sweep.threads = s->threads;
    s->sweep.max_memory = s->max_memory;
    sweeping_request_t rq = {.params = &s->sweep, .runs = &out, .plan = SWEEPING_PLAN_STUDY,
                             .on_failed_runs = SWEEPING_WARN};
    return sweeping_run(&rq, &s->some_failed, err);
}

/* runs.csv analysed, plotted and reported (study_report_write), then the answer printed. */
static int stage_analyze_and_plot(study_t *s, cp_err_t *err)
{
    study_report_request_t rq = {.dir = s->dir, .options = analysis_defaults(),
                                 .format = s->format, .study_meta = s->meta,
                                 .use_probe = s->probe,
                                 .replace = true /* its own directory: a resume redraws */};
    plot_set_t plots;
    analysis_t *a = NULL;
    int rc = study_report_write(&rq, &plots, &a, err);
    if (rc == CP_OK) {
        /* The study is finished and on disk: a reader that went away (run ... | head)
         * must not mark it failed. The answer is in report.md all the same. */
        fputc('\n', stdout);
        cp_err_t print_err = {0};
        if (analysis_write_summary(a, stdout, &print_err) != CP_OK)
            cp_log_warn("the answer could not be printed (%s); it is in report.md",
                        print_err.msg);
    }
    analysis_free(a);
    return rc;
}

/* Runs the stages in order, keeping meta.json up to date (study/meta.h). */
static int run_study(study_t *s, cp_err_t *err)
{
    static const char *const stages[] = {"fixture", "probe", "sweep", "analyze", "done"};
    int rc = CP_OK;
    for (int stage = 0; stage < 4 && rc == CP_OK; stage++) {
        study_meta_running(s->meta, s->dir, stages[stage]);
        switch (stage) {
        case 0: rc = stage_fixture(s, err); break;
        case 1: rc = s->probe ? stage_probe(s, err) : CP_OK; break;
        case 2: rc = stage_sweep(s, err); break;
        default: rc = stage_analyze_and_plot(s, err); break;
        }
        if (rc == CP_OK && cp_interrupted())
            rc = cp_err_set(err, CP_EINTR, "interrupted");
        if (rc != CP_OK)
            study_meta_stopped(s->meta, rc, stages[stage]);
    }
    study_meta_end(s->meta, s->dir, rc, s->some_failed);
    return rc;
}

int study_execute(study_t *s, int argc, char **argv, cp_err_t *err)
{
    int rc = session_open(s, argc, argv, err);
    if (rc == CP_OK) {
        cp_log_info("results go to %s (seed %llu)", s->dir, (unsigned long long)s->sweep.seed);
        rc = run_study(s, err);
    }
    session_close(s);
    return rc;
}
