/* session.c - the study session (session.h): the results directory opened or resumed, the
 * input checked once, the directory's and the targets' locks, meta.json created and kept,
 * the row writers of probe.csv and runs.csv opened, and the analyze -> plot -> report.md
 * sequence that `run` ends with and `plot` repeats. */
#include "study/session.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/dirlock.h"
#include "common/log.h"
#include "common/owned_dir.h"
#include "common/prng.h"
#include "common/sys.h"
#include "common/tempfile.h"
#include "measure/codec_job.h"
#include "measure/hostinfo.h"
#include "measure/memest.h"
#include "measure/volume.h"
#include "measure/writeback.h"
#include "report/analysis_json.h"
#include "tables/analysis_load.h"
#include "tables/meta_json.h"
#include "tables/outfile.h"
#include "tables/probe_writer.h"
#include "report/report_md.h"
#include "measure/emulated_disk.h"
#include "study/meta.h"
#include "study/replay_record.h"
#include "study/study_resume.h"

void session_path(const study_t *s, const char *name, char *buf)
{
    snprintf(buf, STUDY_PATH_MAX, "%s/%s", s->dir, name);
}

int session_claim_targets(const sweep_params_t *p, const series_spec_t *series,
                          const int *threads, target_spec_t *targets, size_t n_targets,
                          target_locks_t *locks, cp_err_t *err)
{
    int rc = memest_check(series, p->n_series, p->engine, threads, p->n_threads,
                          p->block_size, p->decompress, p->max_memory, err);
    if (rc == CP_OK)
        rc = session_lock_targets(targets, n_targets, p->sync == SYNC_DIRECT, locks, err);
    return rc;
}

int session_lock_targets(target_spec_t *targets, size_t n_targets, bool direct_writes,
                         target_locks_t *locks, cp_err_t *err)
{
    int rc = target_lock_all(targets, n_targets, locks, err);
    if (rc == CP_OK)
        emulated_disks_up(targets, n_targets, direct_writes, NULL, 0);
    return rc;
}

void session_release_targets(target_spec_t *targets, size_t n_targets, target_locks_t *locks)
{
    emulated_disks_down(targets, n_targets);
    target_unlock_all(locks);
}

/* ---- the results directory ---- */

/* True when dir holds nothing but chokepoint's lock files (none at all, or the target lock
 * of an empty --out also given as a TARGET, which the study locked before making its
 * results directory, and this study's own directory lock). */
static bool holds_only_locks(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return false;
    bool only = true;
    for (struct dirent *e; only && (e = readdir(d)) != NULL;)
        only = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
               strcmp(e->d_name, DIRLOCK_TARGET_NAME) == 0 ||
               strcmp(e->d_name, DIRLOCK_NAME) == 0;
    closedir(d);
    return only;
}

/* Creates the results directory: --out DIR (new, or an existing empty directory of the
 * caller's own, used as it is: its owner and mode stay), or results/<stamp>-<host>/ under
 * the current directory. */
static int make_results_dir(study_t *s, cp_err_t *err)
{
    if (s->out_arg != NULL) {
        if (strlen(s->out_arg) >= sizeof s->dir - 64)
            return cp_err_set(err, CP_EUSAGE, "--out path too long: %.64s...", s->out_arg);
        snprintf(s->dir, sizeof s->dir, "%s", s->out_arg);
        if (mkdir(s->dir, 0755) == 0)
            return CP_OK;
        if (errno != EEXIST)
            return cp_err_errno(err, CP_EUSAGE, errno, "cannot create --out '%s'", s->dir);
        /* An existing directory: never a symlink, the caller's, writable by nobody else. */
        owned_dir_t out = OWNED_DIR_INIT;
        int rc = owned_dir_open(&out, s->dir, false, err);
        owned_dir_close(&out);
        if (rc != CP_OK)
            return rc;
        if (!holds_only_locks(s->dir))
            return cp_err_set(err, CP_EUSAGE,
                              "--out '%s' is not empty; give a new or empty directory", s->dir);
        s->out_reused = true;
        return CP_OK;
    }
    /* The results/ a study's directory is made in: made now, or the caller's own. */
    owned_dir_t results = OWNED_DIR_INIT;
    int rc = owned_dir_open(&results, "results", true, err);
    owned_dir_close(&results);
    if (rc != CP_OK)
        return rc;
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
 * /dev/shm when that is a writable tmpfs with room for the input and the free-space
 * margin ('shm'; a container's 64 MiB /dev/shm has none, and is left out with a note),
 * and mem. Both directories are the study's, so studies run with the defaults at the
 * same time never refuse each other's target locks, while a directory a user names is
 * locked as given. */
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
    /* The output, or with --layout same the input's copy (or the restored data) beside it. */
    uint64_t input_bytes = s->input_arg != NULL ? s->input_size : s->fixture_size;
    uint64_t needed = s->sweep.layout == SWEEP_SAME ? 2 * input_bytes : input_bytes;
    sys_space_t space; /* the space volume_inspect read */
    if (v.total_bytes > 0) {
        sys_space_make(v.free_bytes, v.total_bytes, &space);
        if (!sys_space_fits(&space, needed)) {
            cp_log_info("no 'shm' target: %s has %.1f MB free, less than the %.1f MB %s "
                        "and a %.1f MB margin", ram_dir, (double)v.free_bytes / 1e6,
                        (double)needed / 1e6,
                        needed > input_bytes ? "of the input twice (--layout same)" : "input",
                        (double)space.margin_bytes / 1e6);
            return;
        }
    }
    if (tempfile_mkdir(ram_dir, "chokepoint-study", s->shm_dir, &err) != CP_OK)
        cp_log_warn("no 'shm' target: %s", err.msg);
    else if (target_init_dir(&s->targets[s->n_targets], "shm", s->shm_dir, NULL) == CP_OK)
        s->n_targets++;
}

/* ---- meta.json ---- */

/* A resume: recorded in meta.json's "resumes" (started, the status and stage before). */
static void record_resume(study_t *s, const char *status_before)
{
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
}

/* A new study's meta.json: the command line, where it ran, its settings and targets. */
static int create_meta(study_t *s, int argc, char **argv, cp_err_t *err)
{
    host_warn_oversubscribed(s->threads, s->sweep.n_threads);
    if (!s->seed_given)
        s->sweep.seed = prng_fresh_seed();
    host_info_t host;
    host_info_get(&host);
    writeback_settings_t wb = writeback_read();
    s->meta = meta_create(argc, argv, &host, &wb);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) != NULL) /* run --resume restores it */
        json_object_set_new(s->meta, "cwd", json_string(cwd));
    /* Who recorded it: run --resume replays its command line only for that user. */
    json_object_set_new(s->meta, "uid", json_integer((json_int_t)geteuid()));
    /* The proof of that, kept where only this user writes: run --resume replays --cmd,
     * DIR@RATE targets and the cwd only with it (study/replay_record.h). */
    char abs_dir[PATH_MAX], token[REPLAY_TOKEN_SIZE];
    cp_err_t why = {0};
    if (realpath(s->dir, abs_dir) == NULL)
        cp_err_errno(&why, CP_EIO, errno, "cannot resolve %s", s->dir);
    else
        replay_record_write(abs_dir, json_object_get(s->meta, "command_line"),
                            json_string_value(json_object_get(s->meta, "cwd")), token, &why);
    if (why.msg[0] == '\0')
        json_object_set_new(s->meta, "replay_token", json_string(token));
    else
        cp_log_warn("no replay record of this study: %s; run --resume of it will not replay "
                    "a --cmd, DIR@RATE targets or its working directory", why.msg);
    json_object_set_new(s->meta, "seed", json_integer((json_int_t)s->sweep.seed));
    json_object_set_new(s->meta, "reps", s->sweep.reps_auto ? json_string("auto")
                                                           : json_integer(s->sweep.reps));
    json_object_set_new(s->meta, "sync", json_string(sync_mode_name(s->sweep.sync)));
    json_object_set_new(s->meta, "engine", json_string(pipeline_engine_name(s->sweep.engine)));
    json_object_set_new(s->meta, "operation",
                        json_string(s->sweep.decompress ? "decompress" : "compress"));
    json_object_set_new(s->meta, "layout", json_string(sweep_layout_name(s->sweep.layout)));
    int rc = CP_OK;
    for (size_t i = 0; i < s->n_targets && rc == CP_OK; i++) {
        const target_ops_t *ops = target_ops_for(&s->targets[i]);
        bool on_a_volume = ops->has_volume;
        if (on_a_volume)
            rc = ops->inspect(&s->targets[i], &s->volumes[i], err);
        if (rc == CP_OK)
            meta_add_target(s->meta, &s->targets[i], on_a_volume ? &s->volumes[i] : NULL);
    }
    return rc;
}

int session_open(study_t *s, int argc, char **argv, cp_err_t *err)
{
    int rc = CP_OK;
    if (s->input_arg != NULL)
        rc = compress_check_input(s->input_arg, &s->input_size, err);
    /* The targets given are refused before the results directory is made when another
     * command measures one; the default ones are made and locked below. */
    bool defaults = s->n_targets == 0;
    if (rc == CP_OK)
        rc = session_claim_targets(&s->sweep, s->series, s->threads, s->targets, s->n_targets,
                                   &s->target_locks, err);
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
    /* An existing empty --out is this study's once locked: another that began with it
     * between the check and the lock has written in it by now. */
    if (rc == CP_OK && s->out_reused && !holds_only_locks(s->dir))
        rc = cp_err_set(err, CP_EUSAGE, "--out '%s' is not empty; give a new or empty "
                        "directory", s->dir);
    if (rc == CP_OK)
        tempfile_clean_stale(s->dir);
    if (rc == CP_OK && defaults) {
        default_targets(s);
        rc = target_lock_all(s->targets, s->n_targets, &s->target_locks, err);
    }
    if (rc == CP_OK && s->resume)
        record_resume(s, status_before);
    else if (rc == CP_OK)
        rc = create_meta(s, argc, argv, err);
    return rc;
}

void session_close(study_t *s)
{
    if (s->made_input && !s->keep_input)
        unlink(s->input);
    study_done_free(s->done);
    s->done = NULL;
    session_release_targets(s->targets, s->n_targets, &s->target_locks);
    tempfile_rmdir(s->shm_dir);
    dirlock_release(&s->lock);
}

/* ---- the row writers ---- */

/* The last entry of meta.json's "resumes", where this resume records what it kept. */
static void note_resume(study_t *s, const char *key, size_t value)
{
    json_t *resumes = json_object_get(s->meta, "resumes");
    json_t *last = json_array_get(resumes, json_array_size(resumes) - 1);
    if (s->resume && last != NULL)
        json_object_set_new(last, key, json_integer((json_int_t)value));
}

int session_open_probe_rows(study_t *s, json_t **probed, rows_file_t **f, cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    session_path(s, "probe.csv", path);
    *f = NULL;
    *probed = json_object_get(s->meta, "probed");
    if (!json_is_array(*probed)) {
        *probed = json_array();
        json_object_set_new(s->meta, "probed", *probed);
    }
    size_t kept = 0;
    int rc = s->resume ? study_resume_keep_probe_rows(path, *probed, &kept, err) : CP_OK;
    note_resume(s, "probe_rows_kept", kept);
    if (rc == CP_OK)
        *f = rows_file_open(path, s->resume ? ROWS_IN_PLACE_APPEND : ROWS_IN_PLACE, false,
                            probe_csv_header_text(), err);
    return *f != NULL ? CP_OK : cp_err_code(err, CP_EIO);
}

int session_open_runs(study_t *s, runs_csv_file_t *out, cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    session_path(s, "runs.csv", path);
    *out = (runs_csv_file_t){NULL, 0};
    int rc = CP_OK;
    if (s->resume) {
        size_t kept = 0;
        rc = study_resume_keep_runs(path, &s->done, &kept, err);
        s->sweep.already_measured = study_done_lookup;
        s->sweep.already_ctx = s->done;
        note_resume(s, "runs_kept", kept);
        if (rc == CP_OK)
            cp_log_info("resuming: %zu run(s) kept from before; measuring the rest", kept);
    }
    if (rc == CP_OK)
        rc = runs_csv_open(out, path, s->resume ? ROWS_IN_PLACE_APPEND : ROWS_IN_PLACE, false,
                           err);
    return rc;
}

/* ---- analyze -> plot -> report.md ---- */

/* DIR/meta.json for the report of `plot`: NULL, with a warning, when it cannot be read. */
static json_t *report_meta(const char *dir)
{
    json_t *meta = NULL;
    cp_err_t err = {0};
    meta_read_result_t read = meta_read(dir, &meta, &err);
    if (read == META_READ_BAD || read == META_READ_REFUSED)
        cp_log_warn("%s; report.md goes without its 'How this was measured' section", err.msg);
    return meta;
}

/* Writes DIR/name atomically: report.md when plots is given, else analysis.json. */
static int write_result_file(const study_report_request_t *rq, const char *name,
                             const analysis_t *a, const plot_set_t *plots, cp_err_t *err)
{
    char path[STUDY_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", rq->dir, name);
    outfile_t *f = outfile_open(path, rq->replace, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc;
    if (plots == NULL) {
        rc = analysis_write_json(a, outfile_stream(f), err);
    } else {
        /* The study's meta.json, when `run` made this directory: the report keeps its "How
         * this was measured" section however often it is regenerated. */
        json_t *meta = rq->study_meta != NULL ? json_incref(rq->study_meta)
                                              : report_meta(rq->dir);
        rc = report_markdown_write_study(outfile_stream(f), a, plots, meta);
        char note[PATH_MAX * 3 + 256];
        if (rc == CP_OK && rq->study_meta == NULL &&
            study_dir_note(rq->dir, note, sizeof note) != NULL) {
            fprintf(outfile_stream(f), "\n**Not complete:** %s.\n", note);
            cp_log_warn("%s", note);
        }
        json_decref(meta);
    }
    if (rc != CP_OK && cp_err_code(err, CP_OK) == CP_OK)
        cp_err_set(err, rc, "%s: cannot write", path);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

int study_report_write(const study_report_request_t *rq, plot_set_t *plots,
                       analysis_t **analysis, cp_err_t *err)
{
    char runs_path[STUDY_PATH_MAX], probe_path[STUDY_PATH_MAX];
    snprintf(runs_path, sizeof runs_path, "%s/runs.csv", rq->dir);
    snprintf(probe_path, sizeof probe_path, "%s/probe.csv", rq->dir);
    memset(plots, 0, sizeof *plots);
    *analysis = NULL;
    probe_table_t *probe = NULL;
    bool in_study = rq->study_meta != NULL;
    char report_path[STUDY_PATH_MAX], image[PATH_MAX];
    snprintf(report_path, sizeof report_path, "%s/report.md", rq->dir);
    int rc = CP_OK;
    if (!rq->replace) {
        struct stat st;
        if (lstat(report_path, &st) == 0)
            return cp_err_set(err, CP_EUSAGE, "output '%s' exists; use --force to replace it",
                              report_path);
        if (plot_outputs_exist(rq->dir, rq->format, image, sizeof image))
            return cp_err_set(err, CP_EUSAGE, "output '%s' exists; use --force to replace it",
                              image);
    }
    rc = analysis_run_files(runs_path, rq->use_probe && access(probe_path, R_OK) == 0 ? probe_path : NULL,
                                &rq->options, analysis, &probe, err);
    if (rc == CP_OK && in_study)
        rc = write_result_file(rq, "analysis.json", *analysis, NULL, err);
    if (rc == CP_OK) {
        if (in_study) {
            meta_set_status(rq->study_meta, "running", "plot");
            cp_log_info("plotting");
        }
        rc = plot_render(rq->dir, *analysis, probe, rq->format, rq->replace, plots, err);
        if (in_study && plots->gnuplot_missing)
            cp_log_warn("%s", plots->notice);
    }
    if (rc == CP_OK)
        rc = write_result_file(rq, "report.md", *analysis, plots, err);
    probe_table_free(probe);
    return rc;
}
