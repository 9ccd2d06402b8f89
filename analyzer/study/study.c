/* study.c - the study engine behind `chokepoint run`. */
#include "study/study.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/dirlock.h"
#include "common/tempfile.h"
#include "common/log.h"
#include "common/prng.h"
#include "common/sys.h"
#include "common/units.h"
#include "fixtures/fixture.h"
#include "measure/hostinfo.h"
#include "measure/probe.h"
#include "report/analysis_json.h"
#include "report/analysis_load.h"
#include "report/analysis_text.h"
#include "report/meta_json.h"
#include "report/outfile.h"
#include "report/probe_writer.h"
#include "report/report_md.h"
#include "measure/memest.h"
#include "report/rows_file.h"
#include "report/runs_writer.h"
#include "study/study_resume.h"

/* The path of a file in the study's results directory; buf holds STUDY_PATH_MAX. */
static void study_file(const study_t *s, const char *name, char *buf)
{
    snprintf(buf, STUDY_PATH_MAX, "%s/%s", s->dir, name);
}

/* True when dir holds nothing but a target lock file: an empty --out also given as a
 * TARGET, which the study locked before making its results directory. */
static bool holds_only_target_lock(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return false;
    bool only = true;
    for (struct dirent *e; only && (e = readdir(d)) != NULL;)
        only = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
               strcmp(e->d_name, DIRLOCK_TARGET_NAME) == 0;
    closedir(d);
    return only;
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
            if (rmdir(s->dir) != 0) { /* only an empty directory goes; recreate it */
                if (holds_only_target_lock(s->dir))
                    return CP_OK; /* also one of its TARGETs, locked: used as it is */
                return cp_err_set(err, CP_EUSAGE,
                                  "--out '%s' is not empty; give a new or empty directory",
                                  s->dir);
            }
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

/* With no TARGET: the results directory ('local'), a directory of the study's own in
 * /dev/shm when that is a writable tmpfs ('shm'), and mem. Both directories are the
 * study's, so studies run with the defaults at the same time never refuse each other's
 * target locks, while a directory a user names is locked as given. */
static void default_targets(study_t *s)
{
    target_init_mem(&s->targets[s->n_targets++]);
    if (target_init_dir(&s->targets[s->n_targets], "local", s->dir, NULL) == CP_OK)
        s->n_targets++;
    volume_info_t v;
    target_spec_t shm;
    cp_err_t err = {0};
    const char *ram_dir = sys_ram_dir();
    if (ram_dir == NULL || target_init_dir(&shm, "shm", ram_dir, NULL) != CP_OK ||
        target_check(&shm, NULL) != CP_OK || volume_inspect(ram_dir, &v, NULL) != CP_OK || !v.is_ram)
        return;
    if (tempfile_mkdir(ram_dir, "chokepoint-study", s->shm_dir, &err) != CP_OK)
        cp_log_warn("no 'shm' target: %s", err.msg);
    else if (target_init_dir(&s->targets[s->n_targets], "shm", s->shm_dir, NULL) == CP_OK)
        s->n_targets++;
}

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
    if (!generated) {
        snprintf(s->input, sizeof s->input, "%s", s->input_arg);
        rc = compress_check_input(s->input, &s->input_size, err);
    } else {
        study_file(s, "input.bin", s->input);
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

static int write_probe_row(const probe_row_t *row, void *ctx, cp_err_t *err)
{
    rows_file_t *f = ctx;
    int rc = probe_csv_row(rows_file_stream(f), row, err);
    return rc == CP_OK ? rows_file_commit_row(f, err) : rc;
}

static bool name_in(const json_t *names, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(names, i, v)
        if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
            return true;
    return false;
}

/* Resume: probe.csv keeps the rows of the targets whose probe finished. */
static bool keep_probed_row(void *ctx, const char *const *cells, const char *const *names,
                            size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], "target") == 0)
            return name_in(ctx, cells[i]);
    return false;
}

/* The last entry of meta.json's "resumes", where this resume records what it kept. */
static void note_resume(study_t *s, const char *key, size_t value)
{
    json_t *resumes = json_object_get(s->meta, "resumes");
    json_t *last = json_array_get(resumes, json_array_size(resumes) - 1);
    if (s->resume && last != NULL)
        json_object_set_new(last, key, json_integer((json_int_t)value));
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
    p.reps_auto = s->sweep.reps_auto;
    p.seed = s->sweep.seed;
    /* The probe takes the runs' write path, so its figures (the I/O path's CPU cost above
     * all) are the ones those runs paid; a run without fsync still needs the disk's own
     * speed, which only an fsync'd probe gives. */
    p.sync = s->sweep.sync == SYNC_DIRECT ? SYNC_DIRECT : SYNC_FSYNC;
    char path[STUDY_PATH_MAX];
    study_file(s, "probe.csv", path);
    json_t *probed = json_object_get(s->meta, "probed");
    if (!json_is_array(probed)) {
        probed = json_array();
        json_object_set_new(s->meta, "probed", probed);
    }
    size_t kept = 0;
    int rc = s->resume ? study_csv_keep(path, probe_csv_header_text(), keep_probed_row, probed,
                                        &kept, err)
                       : CP_OK;
    note_resume(s, "probe_rows_kept", kept);
    rows_file_t *f = rc != CP_OK ? NULL
                                 : rows_file_open(path, s->resume ? ROWS_IN_PLACE_APPEND
                                                                  : ROWS_IN_PLACE,
                                                  false, probe_csv_header_text(), err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    for (size_t i = 0; i < s->n_targets && rc == CP_OK; i++) {
        if (s->targets[i].kind == TARGET_MEM)
            continue;
        if (name_in(probed, s->targets[i].name)) {
            cp_log_info("probe of '%s' kept from before", s->targets[i].name);
            continue;
        }
        cp_log_info("probing '%s' (%zu sizes up to %.1f MB, %d rep%s, %s)", s->targets[i].name,
                    p.n_sizes, (double)p.sizes[p.n_sizes - 1] / 1e6, p.reps, p.reps == 1 ? "" : "s",
                    sync_mode_name(p.sync));
        cp_err_t one = {0};
        int prc = probe_run(&p, &s->targets[i], 1, write_probe_row, f, &one);
        if (prc == CP_EINTR || cp_interrupted())
            rc = cp_err_set(err, CP_EINTR, "interrupted");
        else if (prc != CP_OK)
            cp_log_warn("probe of '%s' failed: %s; its ceilings will be unknown",
                        s->targets[i].name, one.msg);
        if (rc == CP_OK) { /* done with this target, also when it failed: not probed again */
            json_array_append_new(probed, json_string(s->targets[i].name));
            cp_err_t meta_err = {0};
            if (meta_write(s->meta, s->dir, &meta_err) != CP_OK)
                cp_log_warn("%s", meta_err.msg);
        }
    }
    cp_err_t close_err = {0};
    int crc = rows_file_close(f, &close_err);
    if (rc == CP_OK && crc != CP_OK)
        rc = cp_err_set(err, crc, "%s", close_err.msg);
    return rc;
}

static int stage_sweep(study_t *s, cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    study_file(s, "runs.csv", path);
    size_t kept = 0;
    int rc = CP_OK;
    if (s->resume) {
        s->done = study_done_create();
        rc = s->done == NULL ? cp_err_set(err, CP_ENOMEM, "out of memory")
                             : study_csv_keep(path, runs_csv_header_text(), study_done_keep_row,
                                              s->done, &kept, err);
        s->sweep.already_measured = study_done_lookup;
        s->sweep.already_ctx = s->done;
        note_resume(s, "runs_kept", kept);
        if (rc == CP_OK)
            cp_log_info("resuming: %zu run(s) kept from before; measuring the rest", kept);
    }
    runs_csv_file_t out = {NULL, 0};
    if (rc == CP_OK)
        rc = runs_csv_open(&out, path, s->resume ? ROWS_IN_PLACE_APPEND : ROWS_IN_PLACE, false,
                           err);
    if (rc != CP_OK)
        return rc;
    s->sweep.input_path = s->input;
    s->sweep.targets = s->targets;
    s->sweep.n_targets = s->n_targets;
    s->sweep.series = s->series;
    s->sweep.threads = s->threads;
    s->sweep.max_memory = s->max_memory;
    cp_log_info("sweeping %zu target(s) x %zu thread count(s) x %d rep(s) after a warm-up "
                "each; runs timed from opening the %s to the %s",
                s->n_targets, s->sweep.n_threads, s->sweep.reps,
                s->sweep.decompress ? "archive" : "input",
                s->sweep.decompress && s->sweep.layout != SWEEP_SAME
                    ? "last byte restored to memory" : "output's fsync and close");
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
    int rc = plots ? report_markdown_write_study(outfile_stream(f), a, plots, s->meta)
                   : analysis_write_json(a, outfile_stream(f), err);
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
        /* The study is finished and on disk: a reader that went away (run ... | head)
         * must not mark it failed. The answer is in report.md all the same. */
        fputc('\n', stdout);
        cp_err_t print_err = {0};
        if (analysis_write_summary(a, stdout, &print_err) != CP_OK)
            cp_log_warn("the answer could not be printed (%s); it is in report.md",
                        print_err.msg);
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
        rc = memest_check(s->series, s->sweep.n_series, s->sweep.engine, s->threads,
                          s->sweep.n_threads, s->sweep.block_size, s->sweep.decompress,
                          s->max_memory, err);
    /* The targets given are refused before the results directory is made when another
     * command measures one; the default ones are made and locked below. */
    bool defaults = s->n_targets == 0;
    if (rc == CP_OK)
        rc = target_lock_all(s->targets, s->n_targets, &s->target_locks, err);
    /* A resumed study's state is read before this process locks its directory: once
     * locked, a study whose process died ("running", abandoned) would read as live. */
    char status_before[32] = "unknown";
    if (rc == CP_OK && s->resume) {
        snprintf(s->dir, sizeof s->dir, "%s", s->out_arg);
        const char *status = study_dir_status(s->dir, NULL);
        if (status != NULL)
            snprintf(status_before, sizeof status_before, "%s", status);
    } else if (rc == CP_OK)
        rc = make_results_dir(s, err);
    if (rc == CP_OK)
        rc = dirlock_acquire(s->dir, &s->lock, err);
    if (rc == CP_OK)
        tempfile_clean_stale(s->dir);
    if (rc == CP_OK && defaults) {
        default_targets(s);
        rc = target_lock_all(s->targets, s->n_targets, &s->target_locks, err);
    }
    if (rc == CP_OK && s->resume) {
        if (!s->seed_given)
            s->sweep.seed = (uint64_t)json_integer_value(json_object_get(s->meta, "seed"));
        json_t *resumes = json_object_get(s->meta, "resumes");
        if (!json_is_array(resumes)) {
            resumes = json_array();
            json_object_set_new(s->meta, "resumes", resumes);
        }
        char now[64];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%S%z", &tm);
        json_array_append_new(resumes, json_pack("{s:s, s:s, s:s}", "started", now,
                                                 "status_before", status_before,
                                                 "stage_before",
                                                 json_string_value(json_object_get(s->meta, "stage"))
                                                     ?: ""));
        json_object_del(s->meta, "finished");
    } else if (rc == CP_OK) {
        host_warn_oversubscribed(s->threads, s->sweep.n_threads);
        if (!s->seed_given)
            s->sweep.seed = prng_fresh_seed();
        s->meta = meta_create(argc, argv);
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd) != NULL) /* run --resume restores it */
            json_object_set_new(s->meta, "cwd", json_string(cwd));
        json_object_set_new(s->meta, "seed", json_integer((json_int_t)s->sweep.seed));
        json_object_set_new(s->meta, "reps", s->sweep.reps_auto ? json_string("auto")
                                                               : json_integer(s->sweep.reps));
        json_object_set_new(s->meta, "sync", json_string(sync_mode_name(s->sweep.sync)));
        json_object_set_new(s->meta, "engine", json_string(pipeline_engine_name(s->sweep.engine)));
        json_object_set_new(s->meta, "operation",
                            json_string(s->sweep.decompress ? "decompress" : "compress"));
        json_object_set_new(s->meta, "layout", json_string(sweep_layout_name(s->sweep.layout)));
        for (size_t i = 0; i < s->n_targets && rc == CP_OK; i++) {
            if (s->targets[i].kind != TARGET_MEM)
                rc = volume_inspect(s->targets[i].dir, &s->volumes[i], err);
            if (rc == CP_OK)
                meta_add_target(s->meta, &s->targets[i],
                                s->targets[i].kind == TARGET_MEM ? NULL : &s->volumes[i]);
        }
    }
    if (rc == CP_OK) {
        cp_log_info("results go to %s (seed %llu)", s->dir, (unsigned long long)s->sweep.seed);
        rc = run_study(s, err);
    }
    study_done_free(s->done);
    s->done = NULL;
    target_unlock_all(&s->target_locks);
    tempfile_rmdir(s->shm_dir);
    dirlock_release(&s->lock);
    return rc;
}

/* ---- run --resume and the state of a results directory ---- */

const char *study_dir_status(const char *dir, const char **stage)
{
    static char status[32], stage_text[32];
    char path[STUDY_PATH_MAX];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    if (stage != NULL)
        *stage = "";
    json_t *meta = json_load_file(path, 0, NULL);
    const char *st = json_string_value(json_object_get(meta, "status"));
    if (st == NULL) {
        json_decref(meta);
        return NULL;
    }
    snprintf(status, sizeof status, "%s", st);
    snprintf(stage_text, sizeof stage_text, "%s",
             json_string_value(json_object_get(meta, "stage")) ?: "");
    json_decref(meta);
    if (stage != NULL)
        *stage = stage_text;
    if (strcmp(status, "running") == 0 && !dirlock_held(dir, NULL))
        return "abandoned";
    return status;
}

const char *study_dir_note(const char *dir, char *buf, size_t cap)
{
    const char *stage = NULL;
    const char *status = study_dir_status(dir, &stage);
    if (status == NULL || strcmp(status, "complete") == 0)
        return NULL;
    if (strcmp(status, "running") == 0)
        snprintf(buf, cap, "the study in %s is still running (stage '%s'): these figures are "
                 "partial", dir, stage);
    else
        snprintf(buf, cap, "the study in %s is %s%s (stage '%s'): these figures are partial; "
                 "'chokepoint run --resume %s' continues it", dir, status,
                 strcmp(status, "abandoned") == 0 ? ", its process died" : "", stage, dir);
    return buf;
}

void study_resume_free_args(int argc, char **argv)
{
    for (int i = 0; argv != NULL && i < argc; i++)
        free(argv[i]);
    free(argv);
}

/* A complete study is resumed only to measure its failed runs again: CP_OK with *failed
 * their number (> 0), else CP_EUSAGE saying there is nothing to resume or why runs.csv
 * cannot be read. */
static int complete_study_failed_runs(const char *dir, const char *abs_dir, size_t *failed,
                                      cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    snprintf(path, sizeof path, "%s/runs.csv", abs_dir);
    int rc = study_failed_runs(path, failed, err);
    if (rc != CP_OK) {
        char why[CP_ERR_MSG_MAX];
        snprintf(why, sizeof why, "%s", err->msg);
        return cp_err_set(err, CP_EUSAGE, "--resume '%s': %s", dir, why);
    }
    if (*failed == 0)
        return cp_err_set(err, CP_EUSAGE, "--resume '%s': the study is complete and every run "
                          "succeeded; nothing to resume (see its report.md)", dir);
    return CP_OK;
}

int study_resume_load(const char *dir, char *abs_dir, json_t **meta, int *argc, char ***argv,
                      cp_err_t *err)
{
    *meta = NULL;
    *argv = NULL;
    *argc = 0;
    if (realpath(dir, abs_dir) == NULL)
        return cp_err_errno(err, CP_EUSAGE, errno, "--resume '%s'", dir);
    char path[STUDY_PATH_MAX];
    snprintf(path, sizeof path, "%s/meta.json", abs_dir);
    json_t *m = json_load_file(path, 0, NULL);
    json_t *cmd = json_object_get(m, "command_line");
    const char *first = json_string_value(json_array_get(cmd, 0));
    if (m == NULL || first == NULL || strcmp(first, "run") != 0) {
        json_decref(m);
        return cp_err_set(err, CP_EUSAGE, "--resume '%s': not a results directory of "
                          "'chokepoint run' (no meta.json with its command line)", dir);
    }
    const char *stage = NULL;
    const char *status = study_dir_status(abs_dir, &stage);
    int rc = CP_OK;
    long pid = 0;
    size_t failed = 0;
    if (status != NULL && strcmp(status, "complete") == 0)
        rc = complete_study_failed_runs(dir, abs_dir, &failed, err);
    if (rc == CP_OK && dirlock_held(abs_dir, &pid))
        rc = cp_err_set(err, CP_EUSAGE, "--resume '%s': in use by a running chokepoint "
                        "process (pid %ld)", dir, pid);
    const char *cwd = json_string_value(json_object_get(m, "cwd"));
    if (rc == CP_OK && cwd != NULL && chdir(cwd) != 0)
        rc = cp_err_errno(err, CP_EUSAGE, errno, "--resume '%s': cannot enter the directory "
                          "the study ran in, %s", dir, cwd);
    size_t n = json_array_size(cmd);
    char **args = rc == CP_OK ? calloc(n + 1, sizeof *args) : NULL;
    if (rc == CP_OK && args == NULL)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t i = 0; rc == CP_OK && i < n; i++) {
        const char *a = json_string_value(json_array_get(cmd, i));
        args[i] = strdup(a != NULL ? a : "");
        if (args[i] == NULL)
            rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    if (rc != CP_OK) {
        study_resume_free_args((int)n, args);
        json_decref(m);
        return rc;
    }
    if (failed > 0)
        cp_log_info("resuming %s (complete, but runs.csv holds %zu failed run%s: measuring "
                    "%s again)", abs_dir, failed, failed == 1 ? "" : "s",
                    failed == 1 ? "it" : "them");
    else
        cp_log_info("resuming %s (%s in stage '%s')", abs_dir,
                    status == NULL ? "unknown state" : strcmp(status, "abandoned") == 0
                                                           ? "abandoned: its process died"
                                                           : status,
                    stage);
    *meta = m;
    *argv = args;
    *argc = (int)n;
    return CP_OK;
}
