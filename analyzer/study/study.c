/* study.c - the study engine behind `chokepoint run`. */
#include "study/study.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/prng.h"
#include "fixtures/fixture.h"
#include "measure/probe.h"
#include "report/analysis_json.h"
#include "report/analysis_load.h"
#include "report/analysis_text.h"
#include "report/meta_json.h"
#include "report/outfile.h"
#include "report/probe_writer.h"
#include "report/report_md.h"
#include "report/runs_writer.h"

/* The path of a file in the study's results directory; buf holds STUDY_PATH_MAX. */
static void study_file(const study_t *s, const char *name, char *buf)
{
    snprintf(buf, STUDY_PATH_MAX, "%s/%s", s->dir, name);
}

/* Creates the results directory: --out DIR (new, or an existing empty directory), or
 * results/<stamp>-<host>/ under the current directory. */
static int make_results_dir(study_t *s, cp_err_t *err)
{
    if (s->out_arg != NULL) {
        if (strlen(s->out_arg) >= sizeof s->dir - 64)
            return cp_err_set(err, CP_EUSAGE, "--out path too long: %.64s...", s->out_arg);
        snprintf(s->dir, sizeof s->dir, "%s", s->out_arg);
        if (mkdir(s->dir, 0755) != 0) {
            if (errno != EEXIST)
                return cp_err_errno(err, CP_EUSAGE, errno, "cannot create --out '%s'", s->dir);
            struct stat st;
            if (lstat(s->dir, &st) != 0 || !S_ISDIR(st.st_mode))
                return cp_err_set(err, CP_EUSAGE, "--out '%s' exists and is not a directory",
                                  s->dir);
            if (rmdir(s->dir) != 0) /* only an empty directory goes; recreate it */
                return cp_err_set(err, CP_EUSAGE,
                                  "--out '%s' is not empty; give a new or empty directory",
                                  s->dir);
            if (mkdir(s->dir, 0755) != 0)
                return cp_err_errno(err, CP_EUSAGE, errno, "cannot create --out '%s'", s->dir);
        }
        return CP_OK;
    }
    if (mkdir("results", 0755) != 0 && errno != EEXIST)
        return cp_err_errno(err, CP_EIO, errno, "cannot create the directory 'results'");
    char host[64] = "host", stamp[32];
    gethostname(host, sizeof host - 1);
    for (char *p = host; *p; p++)
        if (*p == '/' || *p == ' ')
            *p = '_';
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int n = 0; n < 100; n++) {
        if (n == 0)
            snprintf(s->dir, sizeof s->dir, "results/%s-%s", stamp, host);
        else
            snprintf(s->dir, sizeof s->dir, "results/%s-%s-%d", stamp, host, n + 1);
        if (mkdir(s->dir, 0755) == 0)
            return CP_OK;
        if (errno != EEXIST)
            return cp_err_errno(err, CP_EIO, errno, "cannot create '%s'", s->dir);
    }
    return cp_err_set(err, CP_EIO, "cannot find a free results directory name for %s", stamp);
}

/* With no TARGET: the results volume, /dev/shm when it is a writable tmpfs, and mem. */
static void default_targets(study_t *s)
{
    target_init_mem(&s->targets[s->n_targets++]);
    if (target_init_dir(&s->targets[s->n_targets], "local", s->dir, NULL) == CP_OK)
        s->n_targets++;
    volume_info_t v;
    target_spec_t shm;
    if (target_init_dir(&shm, "shm", "/dev/shm", NULL) == CP_OK && target_check(&shm, NULL) == CP_OK &&
        volume_inspect("/dev/shm", &v, NULL) == CP_OK && v.is_ram)
        s->targets[s->n_targets++] = shm;
}

static int stage_fixture(study_t *s, cp_err_t *err)
{
    if (s->input_arg != NULL) {
        snprintf(s->input, sizeof s->input, "%s", s->input_arg);
        return compress_check_input(s->input, &s->input_size, err);
    }
    study_file(s, "input.bin", s->input);
    cp_log_info("generating a %.1f MB mixed fixture (seed %d) in %s",
                (double)s->fixture_size / 1e6, RUN_FIXTURE_SEED, s->input);
    int rc = fixture_write_file(s->input, s->fixture_size, FIXTURE_MIXED, RUN_FIXTURE_SEED, false,
                                err);
    if (rc == CP_OK) {
        s->made_input = true;
        s->input_size = s->fixture_size;
    }
    json_object_set_new(s->meta, "input",
                        json_pack("{s:s, s:I, s:b, s:s, s:I}", "path", s->input, "bytes",
                                  (json_int_t)s->fixture_size, "generated", true, "kind", "mixed",
                                  "seed", (json_int_t)RUN_FIXTURE_SEED));
    return rc;
}

static int write_probe_row(const probe_row_t *row, void *ctx, cp_err_t *err)
{
    outfile_t *f = ctx;
    int rc = probe_csv_row(outfile_stream(f), row, err);
    return rc == CP_OK ? outfile_flush(f, err) : rc;
}

/* Probes each directory target alone, so one full or failing volume does not cost the
 * others their figures. Sizes: the default list up to the input's size. */
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
    p.seed = s->sweep.seed;
    char path[STUDY_PATH_MAX];
    study_file(s, "probe.csv", path);
    outfile_t *f = outfile_open(path, false, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    outfile_keep_partial(f);
    int rc = probe_csv_header(outfile_stream(f), err);
    for (size_t i = 0; i < s->n_targets && rc == CP_OK; i++) {
        if (s->targets[i].is_mem)
            continue;
        cp_log_info("probing '%s' (%zu sizes up to %.1f MB, %d rep%s, fsync)", s->targets[i].name,
                    p.n_sizes, (double)p.sizes[p.n_sizes - 1] / 1e6, p.reps, p.reps == 1 ? "" : "s");
        cp_err_t one = {0};
        int prc = probe_run(&p, &s->targets[i], 1, write_probe_row, f, &one);
        if (prc == CP_EINTR || cp_interrupted())
            rc = cp_err_set(err, CP_EINTR, "interrupted");
        else if (prc != CP_OK)
            cp_log_warn("probe of '%s' failed: %s; its ceilings will be unknown",
                        s->targets[i].name, one.msg);
    }
    cp_err_t commit_err = {0};
    int crc = outfile_commit(f, &commit_err);
    outfile_close(f);
    if (rc == CP_OK && crc != CP_OK)
        rc = cp_err_set(err, crc, "%s", commit_err.msg);
    return rc;
}

static int stage_sweep(study_t *s, cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    study_file(s, "runs.csv", path);
    runs_csv_file_t out;
    int rc = runs_csv_open(&out, path, false, err);
    if (rc != CP_OK)
        return rc;
    s->sweep.input_path = s->input;
    s->sweep.targets = s->targets;
    s->sweep.n_targets = s->n_targets;
    s->sweep.codecs = s->codecs;
    s->sweep.threads = s->threads;
    cp_log_info("sweeping %zu target(s) x %zu thread count(s) x %d rep(s) after a warm-up "
                "each; runs timed from opening the input to the output's fsync and close",
                s->n_targets, s->sweep.n_threads, s->sweep.reps);
    if (rc == CP_OK)
        rc = sweep_run(&s->sweep, runs_csv_write, &out, err);
    if (rc == CP_EIO && out.rows > 0) {
        /* Some runs failed: their rows say why; the rest is still worth analysing. */
        cp_log_warn("%s", err->msg);
        s->some_failed = true;
        cp_err_clear(err);
        rc = CP_OK;
    }
    cp_err_t commit_err = {0};
    if (runs_csv_close(&out, &commit_err) != CP_OK && rc == CP_OK)
        rc = cp_err_set(err, commit_err.code, "%s", commit_err.msg);
    return rc;
}

/* Writes one analysis output file via outfile (atomic). */
static int write_analysis_file(const study_t *s, const char *name, const analysis_t *a,
                               const plot_set_t *plots, cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    study_file(s, name, path);
    outfile_t *f = outfile_open(path, true, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc = plots ? report_markdown_write(outfile_stream(f), a, plots)
                   : analysis_write_json(a, outfile_stream(f), err);
    if (rc == CP_OK && plots != NULL)
        meta_write_markdown(s->meta, outfile_stream(f));
    if (rc != CP_OK && cp_err_code(err, CP_OK) == CP_OK)
        cp_err_set(err, rc, "cannot write %s", path);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

static int stage_analyze_and_plot(study_t *s, cp_err_t *err)
{
    char runs_path[STUDY_PATH_MAX], probe_path[STUDY_PATH_MAX];
    probe_table_t *probe = NULL;
    analysis_t *a = NULL;
    study_file(s, "runs.csv", runs_path);
    study_file(s, "probe.csv", probe_path);
    bool have_probe = s->probe && access(probe_path, R_OK) == 0;
    analysis_options_t opts = analysis_defaults();
    int rc = analysis_run_files(runs_path, have_probe ? probe_path : NULL, &opts, &a, &probe, err);
    if (rc == CP_OK)
        rc = write_analysis_file(s, "analysis.json", a, NULL, err);
    plot_set_t plots;
    memset(&plots, 0, sizeof plots);
    if (rc == CP_OK) {
        meta_set_status(s->meta, "running", "plot");
        cp_log_info("plotting");
        rc = plot_render(s->dir, a, probe, s->format, &plots, err);
        if (plots.gnuplot_missing)
            cp_log_warn("%s", plots.notice);
    }
    if (rc == CP_OK)
        rc = write_analysis_file(s, "report.md", a, &plots, err);
    if (rc == CP_OK) {
        fputc('\n', stdout);
        rc = analysis_write_summary(a, stdout, err);
    }
    analysis_free(a);
    probe_table_free(probe);
    return rc;
}

/* Runs the stages in order, keeping meta.json up to date. */
static int run_study(study_t *s, cp_err_t *err)
{
    static const char *const stages[] = {"fixture", "probe", "sweep", "analyze", "done"};
    int rc = CP_OK;
    for (int stage = 0; stage < 4 && rc == CP_OK; stage++) {
        meta_set_status(s->meta, "running", stages[stage]);
        cp_err_t meta_err = {0};
        if (meta_write(s->meta, s->dir, &meta_err) != CP_OK)
            cp_log_warn("%s", meta_err.msg);
        switch (stage) {
        case 0: rc = stage_fixture(s, err); break;
        case 1: rc = s->probe ? stage_probe(s, err) : CP_OK; break;
        case 2: rc = stage_sweep(s, err); break;
        default: rc = stage_analyze_and_plot(s, err); break;
        }
        if (rc == CP_OK && cp_interrupted())
            rc = cp_err_set(err, CP_EINTR, "interrupted");
        if (rc != CP_OK)
            meta_set_status(s->meta, rc == CP_EINTR ? "interrupted" : "failed", stages[stage]);
    }
    if (rc == CP_OK)
        meta_set_status(s->meta, "complete", "done");
    json_object_set_new(s->meta, "some_runs_failed", json_boolean(s->some_failed));
    cp_err_t meta_err = {0};
    if (meta_write(s->meta, s->dir, &meta_err) != CP_OK)
        cp_log_warn("%s", meta_err.msg);
    return rc;
}
int study_execute(study_t *s, int argc, char **argv, cp_err_t *err)
{
    int rc = CP_OK;
    if (s->input_arg != NULL)
        rc = compress_check_input(s->input_arg, &s->input_size, err);
    if (rc == CP_OK)
        rc = make_results_dir(s, err);
    if (rc == CP_OK) {
        if (s->n_targets == 0)
            default_targets(s);
        if (!s->seed_given)
            s->sweep.seed = prng_fresh_seed();
        s->meta = meta_create(argc, argv);
        json_object_set_new(s->meta, "seed", json_integer((json_int_t)s->sweep.seed));
        json_object_set_new(s->meta, "reps", s->sweep.reps_auto ? json_string("auto")
                                                               : json_integer(s->sweep.reps));
        json_object_set_new(s->meta, "sync", json_string(sync_mode_name(s->sweep.sync)));
        json_object_set_new(s->meta, "engine", json_string(pipeline_engine_name(s->sweep.engine)));
        for (size_t i = 0; i < s->n_targets && rc == CP_OK; i++) {
            if (!s->targets[i].is_mem)
                rc = volume_inspect(s->targets[i].dir, &s->volumes[i], err);
            if (rc == CP_OK)
                meta_add_target(s->meta, &s->targets[i],
                                s->targets[i].is_mem ? NULL : &s->volumes[i]);
        }
    }
    if (rc == CP_OK) {
        cp_log_info("results go to %s (seed %llu)", s->dir, (unsigned long long)s->sweep.seed);
        rc = run_study(s, err);
    }
    return rc;
}
