/* fio_import.c - fio's JSON output into probe.csv rows (fio_import.h). */
#include "tables/fio_import.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/target_name.h"
#include "common/text_check.h"
#include "model/data_source.h"
#include "tables/csv_out.h"
#include "tables/csv_table.h"
#include "tables/import_json.h"
#include "tables/probe_writer.h"

/* A job's option: its own, else the file's global options (fio gives both as strings). */
static const char *job_option(const json_t *root, const json_t *job, const char *key)
{
    const char *v = import_json_text(json_object_get(job, "job options"), key);
    return v != NULL ? v : import_json_text(json_object_get(root, "global options"), key);
}

/* An option holding a count or a flag: its value, 0 when absent or not a number. */
static long option_count(const json_t *root, const json_t *job, const char *key)
{
    const char *v = job_option(root, job, key);
    return v != NULL ? strtol(v, NULL, 10) : 0;
}

/* A size as fio reads one with its default kb_base (1024): "16M", "4k", "1GiB", "512".
 * False for what it cannot read here (a percentage, a range). */
static bool fio_size(const char *text, uint64_t *out)
{
    if (text == NULL)
        return false;
    char *end;
    double v = strtod(text, &end);
    if (end == text || !(v >= 0))
        return false;
    static const char units[] = "kmgtp";
    double scale = 1;
    const char *u = *end != '\0' ? strchr(units, tolower((unsigned char)*end)) : NULL;
    if (u != NULL) {
        for (const char *p = units; p <= u; p++)
            scale *= 1024;
        end++;
        if (tolower((unsigned char)*end) == 'i')
            end++;
    }
    if (tolower((unsigned char)*end) == 'b')
        end++;
    if (*end != '\0' || v * scale >= 9.2e18)
        return false;
    *out = (uint64_t)(v * scale);
    return true;
}

/* The job's block size for op: bs (or blocksize) "R,W" gives reads and writes apart, one
 * value both; fio's default is 4 KiB. 0 when it is a range. */
static uint64_t job_block(const json_t *root, const json_t *job, probe_op_t op)
{
    const char *bs = job_option(root, job, "bs");
    if (bs == NULL)
        bs = job_option(root, job, "blocksize");
    if (bs == NULL)
        return 4096;
    /* "R,W[,T]": reads take the first value, writes the second when it is given. */
    const char *chosen = bs, *comma = strchr(bs, ',');
    if (op == PROBE_WRITE && comma != NULL && comma[1] != '\0' && comma[1] != ',')
        chosen = comma + 1;
    char value[64];
    snprintf(value, sizeof value, "%.*s", (int)strcspn(chosen, ","), chosen);
    uint64_t bytes;
    return fio_size(value, &bytes) ? bytes : 0;
}

/* The sync mode the job's options give its writes and reads. */
static sync_mode_t job_sync(const json_t *root, const json_t *job)
{
    const char *buffered = job_option(root, job, "buffered");
    if (option_count(root, job, "direct") > 0 || (buffered != NULL && strcmp(buffered, "0") == 0))
        return SYNC_DIRECT;
    if (option_count(root, job, "end_fsync") > 0 || option_count(root, job, "fsync_on_close") > 0 ||
        option_count(root, job, "fsync") > 0 || option_count(root, job, "fdatasync") > 0)
        return SYNC_FSYNC;
    return SYNC_NONE;
}

/* The job's I/O pattern: its rw (or readwrite) option without a ":N" offset, "read" when
 * not given (fio's default). */
static void job_pattern(const json_t *root, const json_t *job, char out[32])
{
    const char *rw = job_option(root, job, "rw");
    if (rw == NULL)
        rw = job_option(root, job, "readwrite");
    if (rw == NULL)
        rw = "read";
    snprintf(out, 32, "%.*s", (int)strcspn(rw, ":"), rw);
}

/* The op of a sequential job: rw=write or rw=read. CP_EDATA for random or mixed I/O,
 * which the model does not take. */
static int job_op(const char *name, const char *job_name, const char *pattern, probe_op_t *op,
                  cp_err_t *err)
{
    if (strcmp(pattern, "write") == 0)
        *op = PROBE_WRITE;
    else if (strcmp(pattern, "read") == 0)
        *op = PROBE_READ;
    else {
        char shown[32]; /* the option as the message shows it: printable, one line */
        csv_table_printable(pattern, shown, sizeof shown);
        return cp_err_set(err, CP_EDATA, "%s: job '%s' is not sequential (rw=%s): the model "
                          "takes sequential speeds; import jobs with rw=write or rw=read",
                          name, job_name, shown);
    }
    return CP_OK;
}

/* How many jobs of the file share this job's name and group: clones (numjobs) that fio
 * reported one by one. */
static size_t clones(const json_t *jobs, const json_t *job)
{
    const char *job_name = import_json_text(job, "jobname");
    json_int_t group = json_integer_value(json_object_get(job, "groupid"));
    size_t n = 0, i;
    json_t *other;
    json_array_foreach(jobs, i, other) {
        const char *other_name = import_json_text(other, "jobname");
        n += other_name != NULL && strcmp(other_name, job_name) == 0 &&
             json_integer_value(json_object_get(other, "groupid")) == group;
    }
    return n;
}

/* The size of a job's rows: its size option (filesize when size is not given), else the
 * bytes it moved. */
static uint64_t job_size(const json_t *root, const json_t *job, const json_t *side)
{
    uint64_t size;
    if (fio_size(job_option(root, job, "size"), &size) && size > 0)
        return size;
    if (fio_size(job_option(root, job, "filesize"), &size) && size > 0)
        return size;
    json_int_t moved = json_integer_value(json_object_get(side, "io_bytes"));
    return moved > 0 ? (uint64_t)moved : 0; /* 0: not known */
}

/* The repetition number of the row about to be appended: one more than the rows of the
 * same target, op and size before it. */
static int next_rep(const fio_import_t *imp, const fio_row_t *r)
{
    int rep = 1;
    for (size_t i = 0; i < imp->n; i++)
        rep += strcmp(imp->rows[i].target, r->target) == 0 && imp->rows[i].op == r->op &&
               imp->rows[i].size_bytes == r->size_bytes;
    return rep;
}

/* The job's options that reach a message or the table (rw, readwrite, bs, blocksize,
 * size, filesize, directory) keep the rule of names read from files (common/text_check.h),
 * CP_TEXT_MAX bytes at most. CP_EDATA naming the job and the option otherwise. */
static int job_texts(const char *name, const json_t *root, const json_t *job,
                     const char *job_name, cp_err_t *err)
{
    static const char *const keys[] = {"rw", "readwrite", "bs", "blocksize", "size",
                                       "filesize", "directory"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = job_option(root, job, keys[i]);
        text_fault_t fault = v != NULL ? text_check(v, CP_TEXT_MAX) : TEXT_OK;
        char says[64];
        if (fault != TEXT_OK && fault != TEXT_EMPTY)
            return cp_err_set(err, CP_EDATA, "%s: job '%s': option '%s' %s", name, job_name,
                              keys[i], text_fault_says(fault, CP_TEXT_MAX, says, sizeof says));
    }
    return CP_OK;
}

/* One job's row: checked, filled and appended to imp (whose rows have room). */
static int job_row(const char *name, const json_t *root, const json_t *jobs, const json_t *job,
                   fio_import_t *imp, cp_err_t *err)
{
    fio_row_t r = {0};
    const char *job_name = import_json_text(job, "jobname");
    if (!import_json_name(job_name, r.target) || target_name_is_ceiling(r.target))
        return cp_err_set(err, CP_EDATA, "%s: a job without a usable jobname (1 to %d "
                          "printable bytes, not '%s')", name, CP_NAME_MAX - 1,
                          CP_MEM_TARGET_NAME);
    int rc;
    long error = (long)json_integer_value(json_object_get(job, "error"));
    if (error != 0)
        return cp_err_set(err, CP_EDATA, "%s: job '%s' failed (fio error %ld)", name,
                          r.target, error);
    char pattern[32];
    rc = job_texts(name, root, job, r.target, err);
    if (rc != CP_OK)
        return rc;
    job_pattern(root, job, pattern);
    rc = job_op(name, r.target, pattern, &r.op, err);
    if (rc != CP_OK)
        return rc;
    if (clones(jobs, job) > 1 && option_count(root, job, "numjobs") > 1)
        return cp_err_set(err, CP_EDATA, "%s: job '%s' ran as %ld clones reported one by one; "
                          "run fio with --group_reporting", name, r.target,
                          option_count(root, job, "numjobs"));
    const char *side_name = r.op == PROBE_WRITE ? "write" : "read";
    const json_t *side = json_object_get(job, side_name);
    double bw = json_number_value(json_object_get(side, "bw_bytes"));
    if (!(bw > 0))
        return cp_err_set(err, CP_EDATA, "%s: job '%s' has no %s bandwidth (%s.bw_bytes "
                          "missing or 0)", name, r.target, side_name, side_name);
    /* probe.csv keeps whole bytes per second, and no table holds 2^63 or more. */
    if (!(bw >= 1 && bw < CP_QUANTITY_MAX))
        return cp_err_set(err, CP_EDATA, "%s: job '%s': %s.bw_bytes %g is %s", name,
                          r.target, side_name, bw,
                          bw >= 1 ? "past 2^63 bytes/s" : "below 1 byte/s (no speed a "
                                                          "table holds)");
    const json_t *io = json_object_get(side, "io_bytes");
    if (io != NULL && !(json_is_integer(io) && json_integer_value(io) >= 0))
        return cp_err_set(err, CP_EDATA, "%s: job '%s': %s.io_bytes is not a size (a whole "
                          "number from 0 to 2^63)", name, r.target, side_name);
    r.bytes_per_s = bw;
    r.seconds = json_number_value(json_object_get(side, "runtime")) / 1000.0;
    if (!(r.seconds >= 1e-6 && r.seconds < 0x1p63))
        r.seconds = 0; /* not a time a table holds: unknown */
    r.size_bytes = job_size(root, job, side);
    if ((double)r.size_bytes >= 0x1p63)
        return cp_err_set(err, CP_EDATA, "%s: job '%s': its size is past 2^63 bytes", name,
                          r.target);
    r.sync = job_sync(root, job);
    r.block_bytes = job_block(root, job, r.op);
    const char *dir = job_option(root, job, "directory");
    if (dir != NULL && strchr(dir, ':') == NULL && realpath(dir, r.dir) == NULL)
        snprintf(r.dir, sizeof r.dir, "%s", dir);
    r.rep = next_rep(imp, &r);
    imp->rows[imp->n++] = r;
    return CP_OK;
}

int fio_import_parse(const char *name, const json_t *root, fio_import_t *out, cp_err_t *err)
{
    *out = (fio_import_t){0};
    const json_t *jobs = json_object_get(root, "jobs");
    const char *version = import_json_text(root, "fio version");
    if (!json_is_array(jobs) || version == NULL)
        return cp_err_set(err, CP_EDATA, "%s: not fio's JSON output (no \"fio version\" and "
                          "\"jobs\"; run fio with --output-format=json)", name);
    if (text_check(version, sizeof out->version) != TEXT_OK)
        return cp_err_set(err, CP_EDATA, "%s: \"fio version\" is no version (1 to %zu "
                          "bytes, no control characters)", name, sizeof out->version - 1);
    if (json_array_size(jobs) == 0)
        return cp_err_set(err, CP_EDATA, "%s: fio's output holds no job", name);
    snprintf(out->version, sizeof out->version, "%s", version);
    const json_t *stamp = json_object_get(root, "timestamp");
    if (json_is_integer(stamp) && json_integer_value(stamp) > 0)
        out->timestamp = (int64_t)json_integer_value(stamp);
    out->rows = calloc(json_array_size(jobs), sizeof *out->rows);
    if (out->rows == NULL)
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", name);
    size_t i;
    const json_t *job;
    json_array_foreach(jobs, i, job) {
        int rc = job_row(name, root, jobs, job, out, err);
        if (rc != CP_OK) {
            fio_import_free(out);
            return rc;
        }
    }
    return CP_OK;
}

int fio_import_write(FILE *out, const fio_import_t *imp, cp_err_t *err)
{
    const char *header = probe_csv_header_text();
    if (fputs(header, out) == EOF)
        return cp_err_set(err, CP_EIO, "cannot write the probe CSV header");
    for (size_t i = 0; i < imp->n; i++) {
        const fio_row_t *r = &imp->rows[i];
        csv_named_row_t row = {0};
        csv_named_text(&row, "target", r->target);
        csv_named_text(&row, "op", probe_op_name(r->op));
        csv_named_num(&row, "size_bytes", 0, r->size_bytes > 0 ? (double)r->size_bytes : NAN);
        csv_named_num(&row, "rep", 0, r->rep);
        csv_named_num(&row, "seconds", 6, r->seconds > 0 ? r->seconds : NAN);
        csv_named_num(&row, "bytes_per_s", 0, r->bytes_per_s);
        csv_named_text(&row, "sync", sync_mode_name(r->sync));
        /* O_DIRECT writes are the device's own speed; buffered ones never say it. */
        csv_named_num(&row, "drain_bps", 0,
                      r->op == PROBE_WRITE && r->sync == SYNC_DIRECT ? r->bytes_per_s : NAN);
        csv_named_text(&row, "dir", r->dir);
        csv_named_num(&row, "block_size", 0, r->block_bytes > 0 ? (double)r->block_bytes : NAN);
        csv_named_text(&row, "source", DATA_SOURCE_FIO_NAME);
        int rc = csv_named_write(out, header, &row, err);
        if (rc != CP_OK)
            return rc;
    }
    return CP_OK;
}

void fio_import_free(fio_import_t *imp)
{
    free(imp->rows);
    imp->rows = NULL;
    imp->n = 0;
}
