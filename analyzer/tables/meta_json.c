/* meta_json.c - meta.json of a results directory: its one writer (meta_create,
 * meta_add_target, meta_set_status, meta_write) and its one reader (meta_read, and
 * meta_read_env on it). The same file as a Markdown section is report/meta_md.c. */
#include "tables/meta_json.h"
#include "tables/runs_writer.h"

#include <math.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "common/bounds.h"
#include "common/regular_file.h"
#include "common/text_check.h"
#include "tables/outfile.h"

/* The bounds of meta_check: a command-line word (the kernel's MAX_ARG_STRLEN) and the
 * nesting; numbers are below CP_QUANTITY_MAX. */
#define META_ARG_MAX 131072
#define META_DEPTH_MAX 16

const char *meta_time_text(time_t t, char *buf, size_t cap)
{
    struct tm tm;
    if (cap > 0)
        buf[0] = '\0';
    if (localtime_r(&t, &tm) != NULL)
        strftime(buf, cap, "%Y-%m-%dT%H:%M:%S%z", &tm);
    return buf;
}

static json_t *now_iso8601(void)
{
    char buf[64];
    return json_string(meta_time_text(time(NULL), buf, sizeof buf));
}

/* The command line as a JSON array of its words. */
static json_t *command_line_json(int argc, char **argv)
{
    json_t *cmd = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(cmd, json_string(argv[i]));
    return cmd;
}

json_t *meta_create(int argc, char **argv, const host_info_t *h,
                    const writeback_settings_t *wb)
{
    json_t *cmd = command_line_json(argc, argv);
    json_t *host = json_pack("{s:s, s:i, s:i, s:I, s:s, s:s, s:s}", "cpu_model", h->cpu_model,
                             "online_cpus", h->online_cpus, "usable_cpus", h->usable_cpus,
                             "mem_total_bytes", (json_int_t)h->mem_total_bytes, "kernel",
                             h->kernel_release, "machine", h->machine, "os", h->os_name);
    /* The machine's name: `history` groups studies by it. */
    if (host != NULL && h->hostname[0])
        json_object_set_new(host, "hostname", json_string(h->hostname));
    if (host != NULL && wb->known)
        json_object_set_new(
            host, "writeback",
            json_pack("{s:I, s:I, s:f, s:f, s:I, s:I}", "dirty_background_bytes",
                      (json_int_t)wb->dirty_background_bytes, "dirty_bytes",
                      (json_int_t)wb->dirty_bytes, "dirty_expire_centisecs",
                      wb->dirty_expire_s * 100.0, "dirty_writeback_centisecs",
                      wb->dirty_writeback_s * 100.0, "mem_available_bytes",
                      (json_int_t)wb->mem_available_bytes, "dirtyable_bytes",
                      (json_int_t)wb->dirtyable_bytes));
    return json_pack("{s:s, s:o, s:o, s:o, s:s, s:o}", "chokepoint_version", CHOKEPOINT_VERSION,
                     "command_line", cmd, "started", now_iso8601(), "host", host, "status",
                     "running", "targets", json_array());
}

void meta_add_target(json_t *meta, const target_spec_t *t, const volume_info_t *v)
{
    const target_ops_t *ops = target_ops_for(t);
    json_t *o = json_pack("{s:s, s:b}", "name", t->name, "memory", ops->cpu_ceiling);
    if (ops->has_volume) {
        char dev[32];
        snprintf(dev, sizeof dev, "%u:%u", v->dev_major, v->dev_minor);
        json_object_set_new(o, "dir", json_string(t->dir));
        json_object_set_new(o, "fs_type", json_string(v->fs_type));
        json_object_set_new(o, "ram", json_boolean(v->is_ram));
        json_object_set_new(o, "device", json_string(dev));
        json_object_set_new(o, "mount_source", json_string(v->source));
        json_object_set_new(o, "mount_point", json_string(v->mount_point));
        json_object_set_new(o, "mount_options", json_string(v->mount_options));
        json_object_set_new(o, "rotational", v->rotational < 0 ? json_null()
                                                               : json_boolean(v->rotational));
        json_object_set_new(o, "free_bytes", json_integer((json_int_t)v->free_bytes));
    }
    json_object_set_new(o, "emulated_cap_bytes_per_s",
                        t->rate_cap_bps > 0 ? json_real(t->rate_cap_bps) : json_null());
    json_object_set_new(o, "emulated_read_cap_bytes_per_s",
                        t->read_cap_bps > 0 ? json_real(t->read_cap_bps) : json_null());
    const char *emulation = emulation_name(t->rate_cap_bps > 0, target_emulates_disk(t));
    json_object_set_new(o, "emulation", emulation ? json_string(emulation) : json_null());
    json_array_append_new(json_object_get(meta, "targets"), o);
}

void meta_set_status(json_t *meta, const char *status, const char *stage)
{
    json_object_set_new(meta, "status", json_string(status));
    json_object_set_new(meta, "stage", json_string(stage));
    json_object_set_new(meta, "complete", json_boolean(strcmp(status, "complete") == 0));
    if (strcmp(status, "running") != 0)
        json_object_set_new(meta, "finished", now_iso8601());
}

json_t *meta_create_import(int argc, char **argv, const meta_import_t *imp)
{
    json_t *import = json_pack("{s:s, s:s, s:b}", "file", imp->file, "table", imp->table,
                               "host_given", imp->host_given);
    json_t *meta = json_pack("{s:s, s:o, s:s, s:s, s:{s:s}, s:s, s:o}", "chokepoint_version",
                             CHOKEPOINT_VERSION, "command_line", command_line_json(argc, argv),
                             "started", imp->started, "started_from", imp->started_from,
                             "host", "hostname", imp->host, "source", imp->source, "import",
                             import);
    if (meta != NULL) {
        json_object_set_new(meta, "targets", json_array());
        meta_set_status(meta, "complete", "done");
    }
    return meta;
}

const char *meta_import_table(const json_t *meta)
{
    return json_string_value(json_object_get(json_object_get(meta, "import"), "table"));
}

outfile_t *meta_open(const json_t *meta, const char *dir, bool replace, cp_err_t *err)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/meta.json", dir) >= sizeof path) {
        cp_err_set(err, CP_EUSAGE, "%s: path too long", dir);
        return NULL;
    }
    outfile_t *f = outfile_open(path, replace, err);
    if (f == NULL)
        return NULL;
    int rc = CP_OK;
    if (json_dumpf(meta, outfile_stream(f), JSON_INDENT(2) | JSON_ENSURE_ASCII) != 0 ||
        fputc('\n', outfile_stream(f)) == EOF)
        rc = cp_err_set(err, CP_EIO, "cannot write %s", path);
    if (rc == CP_OK)
        rc = outfile_flush(f, err);
    if (rc != CP_OK) {
        outfile_close(f);
        return NULL;
    }
    return f;
}

int meta_write(const json_t *meta, const char *dir, cp_err_t *err)
{
    outfile_t *f = meta_open(meta, dir, true, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

/* ---- reading ---------------------------------------------------------------------------- */

static void text_of(const json_t *o, const char *key, char *out, size_t cap)
{
    const char *v = json_string_value(json_object_get(o, key));
    snprintf(out, cap, "%s", v != NULL ? v : "");
}

static double number_of(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void target_env(const json_t *t, study_env_target_t *out)
{
    text_of(t, "name", out->name, sizeof out->name);
    out->memory = json_is_true(json_object_get(t, "memory"));
    text_of(t, "fs_type", out->fs_type, sizeof out->fs_type);
    text_of(t, "mount_options", out->mount_options, sizeof out->mount_options);
    text_of(t, "device", out->device, sizeof out->device);
    text_of(t, "mount_source", out->mount_source, sizeof out->mount_source);
    const json_t *rot = json_object_get(t, "rotational");
    out->rotational = json_is_boolean(rot) ? (json_is_true(rot) ? 1 : 0) : -1;
    out->write_cap_bps = number_of(t, "emulated_cap_bytes_per_s");
    out->read_cap_bps = number_of(t, "emulated_read_cap_bytes_per_s");
}

/* ---- the rule every field keeps --------------------------------------------------------- */

/* The bound of a string at the field path (names: CP_NAME_MAX; a word of the command line,
 * which a --cmd template may fill, the kernel's own bound of an argument; the rest
 * CP_TEXT_MAX), and whether it may hold line ends and tabs (only a command-line word). */
static size_t field_cap(const char *field, bool *lines_ok)
{
    *lines_ok = false;
    if (strncmp(field, "command_line[", 13) == 0) {
        *lines_ok = true;
        return META_ARG_MAX;
    }
    if (strcmp(field, "host") == 0 || strcmp(field, "host.hostname") == 0 ||
        strcmp(field, "host.name") == 0)
        return CP_NAME_MAX;
    const char *dot = strrchr(field, '.');
    if (strncmp(field, "targets[", 8) == 0 && dot != NULL && strcmp(dot, ".name") == 0)
        return CP_NAME_MAX;
    return CP_TEXT_MAX;
}

/* Whether text[0..len) keeps the rule, tabs and line ends allowed when lines_ok. */
static text_fault_t field_text_fault(const char *text, size_t len, size_t cap, bool lines_ok)
{
    if (len == 0)
        return TEXT_OK; /* an empty string reads as absent */
    if (!lines_ok)
        return text_check_bytes(text, len, cap, NULL);
    for (size_t i = 0, n; i < len; i += n) {
        text_fault_t fault;
        n = text_char_at(text + i, len - i, &fault);
        if (fault != TEXT_OK && text[i] != '\n' && text[i] != '\t')
            return fault;
    }
    return len >= cap ? TEXT_LONG : TEXT_OK;
}

/* Checks value, found at field (a path such as "targets[1].name"), and what it holds;
 * CP_EDATA "PATH: field 'F' ..." at the first that breaks the rule. */
static int check_field(const json_t *value, const char *path, char *field, size_t len,
                       size_t cap, int depth, cp_err_t *err)
{
    if (depth > META_DEPTH_MAX)
        return cp_err_set(err, CP_EDATA, "%s: field '%s' is nested more than %d deep", path,
                          field, META_DEPTH_MAX);
    if (json_is_string(value)) {
        bool lines_ok;
        size_t bound = field_cap(field, &lines_ok);
        text_fault_t fault = field_text_fault(json_string_value(value), json_string_length(value),
                                              bound, lines_ok);
        char says[64];
        if (fault != TEXT_OK)
            return cp_err_set(err, CP_EDATA, "%s: field '%s' %s", path, field,
                              text_fault_says(fault, bound, says, sizeof says));
    } else if (json_is_number(value)) {
        /* Every number meta.json records is a count, a size, a rate or a setting. */
        double x = json_number_value(value);
        if (!(x >= 0.0 && x < CP_QUANTITY_MAX))
            return cp_err_set(err, CP_EDATA, "%s: field '%s': %g is not a count, size or rate "
                              "(0 to 2^63)", path, field, x);
    } else if (json_is_object(value)) {
        const char *key;
        json_t *member;
        json_object_foreach((json_t *)value, key, member) {
            if ((size_t)snprintf(field + len, cap - len, "%s%s", len > 0 ? "." : "", key) >=
                cap - len)
                return cp_err_set(err, CP_EDATA, "%s: a field's name is too long", path);
            int rc = check_field(member, path, field, strlen(field), cap, depth + 1, err);
            field[len] = '\0';
            if (rc != CP_OK)
                return rc;
        }
    } else if (json_is_array(value)) {
        size_t i;
        json_t *item;
        json_array_foreach(value, i, item) {
            if ((size_t)snprintf(field + len, cap - len, "[%zu]", i) >= cap - len)
                return cp_err_set(err, CP_EDATA, "%s: a field's name is too long", path);
            int rc = check_field(item, path, field, strlen(field), cap, depth + 1, err);
            field[len] = '\0';
            if (rc != CP_OK)
                return rc;
        }
    }
    return CP_OK;
}

int meta_check(const json_t *meta, const char *path, cp_err_t *err)
{
    if (!json_is_object(meta))
        return cp_err_set(err, CP_EDATA, "%s: not a JSON object", path);
    char field[512] = "";
    return check_field(meta, path, field, 0, sizeof field, 0, err);
}

/* The reader behind meta_read, meta_read_owned and meta_read_env: path is the meta.json
 * file itself, opened as a regular file of chokepoint's own name (common/regular_file.h:
 * never a FIFO, a device or a symlink, and never blocking), then checked (meta_check).
 * *owner_uid (may be NULL) is the file's owner once it was read. */
static meta_read_result_t read_meta_file(const char *path, json_t **meta, long *owner_uid,
                                         cp_err_t *err)
{
    cp_err_t ignored = {0};
    if (err == NULL)
        err = &ignored;
    *meta = NULL;
    char *data = NULL;
    size_t len = 0;
    if (regular_file_read_at_most(path, REGULAR_FILE_OWN, REGULAR_FILE_META_MAX, &data, &len,
                                  owner_uid, err) != CP_OK)
        return errno == ENOENT ? META_READ_MISSING : META_READ_BAD;
    json_error_t jerr;
    *meta = json_loadb(data, len, 0, &jerr);
    free(data);
    if (*meta == NULL) {
        cp_err_set(err, CP_EDATA, "%s: not JSON (line %d: %s)", path, jerr.line, jerr.text);
        return META_READ_BAD;
    }
    if (meta_check(*meta, path, err) != CP_OK) {
        json_decref(*meta);
        *meta = NULL;
        return META_READ_REFUSED;
    }
    return META_READ_OK;
}

meta_read_result_t meta_read_owned(const char *dir, json_t **meta, long *owner_uid,
                                   cp_err_t *err)
{
    char path[PATH_MAX];
    *meta = NULL;
    if (owner_uid != NULL)
        *owner_uid = -1;
    if ((size_t)snprintf(path, sizeof path, "%s/meta.json", dir) >= sizeof path)
        return META_READ_MISSING;
    return read_meta_file(path, meta, owner_uid, err);
}

meta_read_result_t meta_read(const char *dir, json_t **meta, cp_err_t *err)
{
    return meta_read_owned(dir, meta, NULL, err);
}

int meta_read_env(const char *path, study_env_t *env, cp_err_t *err)
{
    json_t *meta = NULL;
    cp_err_t why = {0}; /* a file that is not JSON is unknown, not an error */
    if (read_meta_file(path, &meta, NULL, &why) == META_READ_REFUSED)
        return cp_err_set(err, CP_EDATA, "%s", why.msg);
    env->known = json_is_object(meta);
    if (!env->known) {
        json_decref(meta);
        return CP_OK;
    }
    /* An import's meta.json names a host and a time, nothing of a machine: its environment
     * is not known, lest an empty one read as "the same" as another. */
    env->imported = meta_import_table(meta) != NULL;
    env->known = !env->imported;
    const json_t *host = json_object_get(meta, "host");
    const json_t *wb = json_object_get(host, "writeback");
    text_of(meta, "chokepoint_version", env->version, sizeof env->version);
    text_of(host, "cpu_model", env->cpu_model, sizeof env->cpu_model);
    env->online_cpus = number_of(host, "online_cpus");
    env->usable_cpus = number_of(host, "usable_cpus");
    env->mem_total_bytes = number_of(host, "mem_total_bytes");
    text_of(host, "kernel", env->kernel, sizeof env->kernel);
    env->dirty_background_bytes = number_of(wb, "dirty_background_bytes");
    env->dirty_bytes = number_of(wb, "dirty_bytes");
    env->dirty_expire_s = number_of(wb, "dirty_expire_centisecs") / 100.0;
    env->dirty_writeback_s = number_of(wb, "dirty_writeback_centisecs") / 100.0;
    text_of(host, "hostname", env->hostname, sizeof env->hostname);
    text_of(meta, "sync", env->sync, sizeof env->sync);
    text_of(meta, "engine", env->engine, sizeof env->engine);
    env->input_bytes = number_of(json_object_get(meta, "input"), "bytes");
    const json_t *targets = json_object_get(meta, "targets");
    size_t i;
    const json_t *t;
    json_array_foreach(targets, i, t)
    {
        if (env->ntargets < STUDY_ENV_TARGETS_MAX)
            target_env(t, &env->targets[env->ntargets++]);
    }
    json_decref(meta);
    return CP_OK;
}
