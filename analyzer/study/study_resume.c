/* study_resume.c - `run --resume` (study_resume.h): the recorded study loaded from its
 * meta.json, the rows of probe.csv and runs.csv kept from before (runs.csv read by
 * tables/runs_csv.h's loader), the runs they cover, and the input's fingerprint. */
#include "study/study_resume.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/dirlock.h"
#include "common/log.h"
#include "common/owned_dir.h"
#include "common/regular_file.h"
#include "common/tempfile.h"
#include "measure/command_job.h"
#include "measure/verify.h"
#include "tables/csv_out.h"
#include "tables/csv_table.h"
#include "tables/meta_json.h"
#include "tables/probe_writer.h"
#include "tables/runs_csv.h"
#include "tables/runs_writer.h"
#include "study/meta.h"
#include "study/replay_record.h"

/* A row of a CSV being rewritten is kept when keep() says so; line is where it starts. */
typedef bool (*keep_row_fn)(void *ctx, long line, const char *const *cells,
                            const char *const *names, size_t n_cells);
/* Reads what is kept from before, once the header is known to be this version's. */
typedef int (*prepare_fn)(void *ctx, const char *path, const char *data, size_t len,
                          cp_err_t *err);

/* ---- rewriting a CSV with the rows worth keeping ---- */

/* The whole of a table of this results directory (a regular file of chokepoint's own
 * name, common/regular_file.h), without an unfinished last line: a row whose write was
 * cut by a crash. A missing file is CP_OK with *data NULL. */
static int read_whole(const char *path, char **data, size_t *len, cp_err_t *err)
{
    cp_err_t own = {0};
    int rc = regular_file_read(path, REGULAR_FILE_OWN, data, len, NULL, &own);
    if (rc != CP_OK)
        return errno == ENOENT ? CP_OK : cp_err_set(err, rc, "%s", own.msg);
    while (*len > 0 && (*data)[*len - 1] != '\n')
        (*len)--;
    return CP_OK;
}

/* True when the table's columns are the header line's, in order. */
static bool same_header(const csv_table_t *t, const char *header_text)
{
    const char *p = header_text;
    for (size_t c = 0; c < csv_table_columns(t); c++) {
        const char *name = csv_table_header(t, c);
        size_t n = strlen(name);
        if (strncasecmp(p, name, n) != 0 || (p[n] != ',' && p[n] != '\n'))
            return false;
        p += n + 1;
    }
    return *p == '\0';
}

/* Rewrites the CSV at path (written by this version: its header must be header_text) with
 * only the rows keep() accepts, atomically; an unfinished last line is dropped. A missing
 * file is fine (nothing kept). prepare, when given, reads the rows first (not called for
 * an empty file). *kept counts the rows kept. CP_EUSAGE when the header differs, CP_EDATA
 * when the file is malformed, CP_EIO on I/O errors. */
static int keep_rows(const char *path, const char *header_text, prepare_fn prepare,
                     keep_row_fn keep, void *ctx, size_t *kept, cp_err_t *err)
{
    *kept = 0;
    char *data = NULL;
    size_t len = 0;
    int rc = read_whole(path, &data, &len, err);
    if (rc != CP_OK || data == NULL) {
        free(data);
        return rc;
    }
    csv_table_t *t = NULL;
    if (len > 0)
        rc = csv_table_read_buffer(path, data, len, &t, err);
    if (rc == CP_OK && t != NULL && !same_header(t, header_text))
        rc = cp_err_set(err, CP_EUSAGE, "%s has other columns than this version of chokepoint "
                        "writes; it cannot be resumed", path);
    if (rc == CP_OK && t != NULL && prepare != NULL)
        rc = prepare(ctx, path, data, len, err);
    free(data);
    char dir[PATH_MAX], base[PATH_MAX], prefix[PATH_MAX + 1];
    tempfile_t tmp = TEMPFILE_INIT;
    FILE *out = NULL;
    if (rc == CP_OK)
        rc = tempfile_split_path(path, dir, base, err);
    if (rc == CP_OK) {
        snprintf(prefix, sizeof prefix, ".%s", base);
        rc = tempfile_open(&tmp, dir, prefix, 0, err);
    }
    if (rc == CP_OK && (out = fdopen(tmp.fd, "w")) == NULL)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot write %s", tmp.path);
    if (out != NULL)
        tmp.fd = -1; /* fclose closes it */
    size_t cols = t != NULL ? csv_table_columns(t) : 0;
    const char **cells = calloc(cols + 1, sizeof *cells);
    const char **names = calloc(cols + 1, sizeof *names);
    if (rc == CP_OK && (cells == NULL || names == NULL))
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t c = 0; rc == CP_OK && c < cols; c++)
        names[c] = csv_table_header(t, c);
    if (rc == CP_OK)
        fputs(header_text, out);
    for (size_t r = 0; rc == CP_OK && t != NULL && r < csv_table_rows(t); r++) {
        for (size_t c = 0; c < cols; c++)
            cells[c] = csv_table_cell(t, r, (int)c);
        if (!keep(ctx, csv_table_line(t, r), cells, names, cols))
            continue;
        for (size_t c = 0; c < cols; c++) {
            if (c > 0)
                fputc(',', out);
            csv_out_text(out, cells[c]);
        }
        fputc('\n', out);
        (*kept)++;
    }
    free(cells);
    free(names);
    csv_table_free(t);
    if (out != NULL) {
        if (rc == CP_OK && (fflush(out) != 0 || fsync(fileno(out)) != 0))
            rc = cp_err_errno(err, CP_EIO, errno, "writing %s", tmp.path);
        if (fclose(out) != 0 && rc == CP_OK)
            rc = cp_err_errno(err, CP_EIO, errno, "writing %s", tmp.path);
    }
    if (rc == CP_OK)
        rc = tempfile_commit(&tmp, path, true, err);
    tempfile_discard(&tmp);
    return rc;
}

/* ---- probe.csv: the targets probed before ---- */

bool study_resume_probed(const json_t *probed, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(probed, i, v)
        if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
            return true;
    return false;
}

static bool keep_probed_row(void *ctx, long line, const char *const *cells,
                            const char *const *names, size_t n)
{
    (void)line;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], "target") == 0)
            return study_resume_probed(ctx, cells[i]);
    return false;
}

int study_resume_keep_probe_rows(const char *path, const json_t *probed, size_t *kept,
                                 cp_err_t *err)
{
    return keep_rows(path, probe_csv_header_text(), NULL, keep_probed_row, (void *)probed,
                     kept, err);
}

/* ---- runs.csv: the runs measured before ---- */

typedef struct done_run {
    long line; /* where its row starts in runs.csv */
    char target[RUNS_NAME_MAX], codec[RUNS_NAME_MAX];
    int threads, rep;
    double seconds;
} done_run_t;

struct study_done {
    done_run_t *runs; /* in file order */
    size_t n;
    size_t next;      /* the next one keep_done_row meets */
};

void study_done_free(study_done_t *d)
{
    if (d != NULL)
        free(d->runs);
    free(d);
}

bool study_done_lookup(void *ctx, const char *target, const char *codec, int threads, int rep,
                       double *seconds)
{
    const study_done_t *d = ctx;
    for (size_t i = 0; d != NULL && i < d->n; i++) {
        const done_run_t *r = &d->runs[i];
        if (r->threads == threads && r->rep == rep && strcmp(r->target, target) == 0 &&
            strcmp(r->codec, codec) == 0) {
            *seconds = r->seconds;
            return true;
        }
    }
    return false;
}

/* A prepare_fn: the valid runs as the runs.csv loader reads them, each (target, codec,
 * threads, rep) once, the first. */
static int load_done(void *ctx, const char *path, const char *data, size_t len, cp_err_t *err)
{
    study_done_t *d = ctx;
    runs_table_t *runs = NULL;
    int rc = runs_table_load_buffer(path, data, len, &runs, err);
    if (rc == CP_OK && (d->runs = calloc(runs->nrows + 1, sizeof *d->runs)) == NULL)
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t i = 0; rc == CP_OK && i < runs->nrows; i++) {
        const run_row_t *row = &runs->rows[i];
        double seconds;
        if (study_done_lookup(d, row->target, row->codec, row->threads, row->rep, &seconds))
            continue; /* a duplicate: keep the first */
        done_run_t *r = &d->runs[d->n++];
        r->line = row->line;
        snprintf(r->target, sizeof r->target, "%s", row->target);
        snprintf(r->codec, sizeof r->codec, "%s", row->codec);
        r->threads = row->threads;
        r->rep = row->rep;
        r->seconds = row->seconds;
    }
    runs_table_free(runs);
    return rc;
}

/* A keep_row_fn: the rows load_done took (met in file order). */
static bool keep_done_row(void *ctx, long line, const char *const *cells,
                          const char *const *names, size_t n_cells)
{
    (void)cells;
    (void)names;
    (void)n_cells;
    study_done_t *d = ctx;
    if (d->next >= d->n || d->runs[d->next].line != line)
        return false; /* failed, not run, or a duplicate: measured again */
    d->next++;
    return true;
}

int study_resume_keep_runs(const char *path, study_done_t **done, size_t *kept, cp_err_t *err)
{
    *kept = 0;
    *done = calloc(1, sizeof **done);
    if (*done == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    return keep_rows(path, runs_csv_header_text(), load_done, keep_done_row, *done, kept, err);
}

int study_failed_runs(const char *path, size_t *failed, cp_err_t *err)
{
    *failed = 0;
    if (access(path, F_OK) != 0)
        return CP_OK;
    runs_table_t *runs = NULL;
    int rc = runs_table_load(path, &runs, err);
    if (rc == CP_OK)
        *failed = runs->skipped_failed;
    runs_table_free(runs);
    return rc;
}

int study_input_hash(const char *path, char *hex, unsigned long long *bytes, cp_err_t *err)
{
    uint64_t hash = 0, size = 0;
    int rc = verify_hash_file(path, &hash, &size, err);
    if (rc == CP_OK) {
        snprintf(hex, 17, "%016llx", (unsigned long long)hash);
        *bytes = size;
    }
    return rc;
}

/* ---- the recorded study ---- */

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
    char path[PATH_MAX + 16];
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

/* ---- whose command line ---- */

/* The recorded command line as one line for the terminal, "chokepoint run ARGS", each
 * argument shell-quoted unless plain, control bytes shown as '?'. */
static void command_line_text(const json_t *cmd, char *out, size_t cap)
{
    size_t used = (size_t)snprintf(out, cap, "chokepoint");
    for (size_t i = 0; i < json_array_size(cmd) && used < cap; i++) {
        const char *a = json_string_value(json_array_get(cmd, i));
        a = a != NULL ? a : "";
        char quoted[1024];
        bool plain = a[0] != '\0' && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                "0123456789_./:=,@%+-") == strlen(a);
        if (plain || command_shell_quote(a, quoted, sizeof quoted) < 0)
            snprintf(quoted, sizeof quoted, "%s", plain ? a : "'...'");
        int n = snprintf(out + used, cap - used, " %s", quoted);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

/* What of the recorded command line runs a program or mounts a disk when replayed: the
 * user's shell command (--cmd) and emulated disks ([NAME=]DIR@RATE). NULL when neither. */
static const char *replays_what(const json_t *cmd)
{
    bool shell = false, emulated = false;
    for (size_t i = 1; i < json_array_size(cmd); i++) {
        const char *a = json_string_value(json_array_get(cmd, i));
        if (a == NULL)
            continue;
        if (strcmp(a, "--cmd") == 0 || strncmp(a, "--cmd=", 6) == 0) {
            shell = true;
            i += strcmp(a, "--cmd") == 0; /* its template */
        } else if (strchr(a, '@') != NULL) {
            emulated = true; /* a target DIR@RATE (or, to be safe, anything holding '@') */
        }
    }
    return shell && emulated ? "a shell command (--cmd) and emulated disks (DIR@RATE)"
           : shell           ? "a shell command (--cmd)"
           : emulated        ? "emulated disks (DIR@RATE, mounted as root)"
                             : NULL;
}

/* NULL when meta, read from a file owned by file_uid, was written by the caller: the file
 * is the caller's and it records the caller's uid. Otherwise why not, into buf. */
static const char *not_the_callers(const json_t *meta, long file_uid, char *buf, size_t cap)
{
    long me = (long)geteuid();
    const json_t *uid = json_object_get(meta, "uid");
    if (file_uid != me)
        snprintf(buf, cap, "its meta.json is owned by uid %ld, not by you (uid %ld)", file_uid,
                 me);
    else if (!json_is_integer(uid))
        snprintf(buf, cap, "its meta.json records no owner (\"uid\"), so who recorded it is "
                 "unknown");
    else if ((long)json_integer_value(uid) != me)
        snprintf(buf, cap, "its meta.json was recorded by uid %lld, not by you (uid %ld)",
                 (long long)json_integer_value(uid), me);
    else
        return NULL;
    return buf;
}

/* Refuses to replay from a meta.json the caller did not write what would run or mount
 * something, or to enter the directory it records; CP_OK otherwise. The caller wrote it
 * when the file is the caller's, records the caller's uid, and the caller's own state
 * directory holds the record of making this study in abs_dir with this command line
 * (study/replay_record.h): the first two a copy by root or a forged "uid" satisfy. */
static int check_replay(const char *dir, const char *abs_dir, const json_t *meta,
                        long file_uid, const char *line, cp_err_t *err)
{
    char why[PATH_MAX + 512];
    if (not_the_callers(meta, file_uid, why, sizeof why) == NULL &&
        replay_record_missing(json_string_value(json_object_get(meta, "replay_token")),
                              abs_dir, json_object_get(meta, "command_line"),
                              json_string_value(json_object_get(meta, "cwd")), why,
                              sizeof why) == NULL)
        return CP_OK;
    const char *what = replays_what(json_object_get(meta, "command_line"));
    if (what != NULL)
        return cp_err_set(err, CP_EUSAGE, "--resume '%s': %s, and its command line runs %s: "
                          "chokepoint replays those only for the user who recorded them; if "
                          "you trust it, run it yourself with --out a new directory: %s", dir,
                          why, what, line);
    const char *cwd = json_string_value(json_object_get(meta, "cwd"));
    char here[PATH_MAX];
    if (cwd != NULL && (getcwd(here, sizeof here) == NULL || strcmp(here, cwd) != 0))
        return cp_err_set(err, CP_EUSAGE, "--resume '%s': %s, so chokepoint does not enter "
                          "the directory it records (%.200s); cd there yourself and resume "
                          "again", dir, why, cwd);
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
    json_t *m = NULL;
    long file_uid = -1;
    cp_err_t why = {0};
    meta_read_result_t read = meta_read_owned(abs_dir, &m, &file_uid, &why);
    if (read == META_READ_BAD || read == META_READ_REFUSED)
        return cp_err_set(err, CP_EUSAGE, "--resume '%s': %s", dir, why.msg);
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
    /* What it is about to continue, said before anything is replayed, then whether it may
     * be, and whether the directory it writes is the caller's own. */
    char line[4096];
    if (rc == CP_OK) {
        command_line_text(cmd, line, sizeof line);
        cp_log_info("recorded command line: %s", line);
        rc = check_replay(dir, abs_dir, m, file_uid, line, err);
    }
    owned_dir_t owned = OWNED_DIR_INIT;
    if (rc == CP_OK)
        rc = owned_dir_open(&owned, abs_dir, false, err);
    owned_dir_close(&owned);
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
