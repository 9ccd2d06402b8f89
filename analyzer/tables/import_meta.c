/* import_meta.c - the meta.json beside an imported table (import_meta.h): its host, its
 * start time and their origins, and the rule that a meta.json already there stays. */
#include "tables/import_meta.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/bounds.h"
#include "common/log.h"
#include "common/tempfile.h"
#include "tables/history_load.h"
#include "tables/import_json.h"
#include "tables/meta_json.h"

int import_meta_check_host(const char *host, cp_err_t *err)
{
    char name[CP_NAME_MAX];
    if (!import_json_name(host, name))
        return cp_err_set(err, CP_EUSAGE, "--host: '%s' names no machine (1 to %d "
                          "characters, no control characters)", host ? host : "",
                          CP_NAME_MAX - 1);
    return CP_OK;
}

int import_meta_check_started(const char *text, cp_err_t *err)
{
    double t;
    if (text == NULL || history_parse_time(text, &t) != CP_OK)
        return cp_err_set(err, CP_EUSAGE, "--started: '%s' is not a time "
                          "(YYYY-MM-DDTHH:MM:SS, then Z or +HHMM; no zone is UTC)",
                          text ? text : "");
    return CP_OK;
}

void import_meta_started(const char *given, int64_t fio_timestamp, const char *file,
                         char *buf, size_t cap, const char **from)
{
    struct stat st;
    if (given != NULL) {
        snprintf(buf, cap, "%s", given);
        *from = "--started";
    } else if (fio_timestamp > 0) {
        meta_time_text((time_t)fio_timestamp, buf, cap);
        *from = "fio timestamp";
    } else if (file != NULL && stat(file, &st) == 0) {
        meta_time_text(st.st_mtime, buf, cap);
        *from = "file mtime";
    } else {
        meta_time_text(time(NULL), buf, cap);
        *from = "import time";
    }
}

import_meta_action_t import_meta_action(const char *dir, const char *table, bool force)
{
    json_t *meta = NULL;
    meta_read_result_t read = meta_read(dir, &meta, NULL);
    if (read == META_READ_MISSING)
        return IMPORT_META_WRITE;
    const char *wrote = meta_import_table(meta);
    bool ours = force && wrote != NULL && strcmp(wrote, table) == 0;
    json_decref(meta);
    return ours ? IMPORT_META_REPLACE : IMPORT_META_KEEP;
}

void import_meta_report(const import_meta_t *m)
{
    const import_meta_args_t *a = m->args;
    if (m->action == IMPORT_META_KEEP) {
        if (a->host != NULL || a->started != NULL)
            cp_log_warn("import: %s exists and is left as it is: --host and --started are "
                        "not recorded (its own host and start time stand)", m->path);
        else
            cp_log_info("import: %s exists and is left as it is (its host and start time "
                        "stand)", m->path);
        return;
    }
    cp_log_info("import: %s %s: host %s%s, started %s (%s)", m->path,
                m->action == IMPORT_META_REPLACE ? "replaced" : "written", m->host,
                a->host != NULL ? "" : " (no --host: not this machine's name; history groups "
                                       "such imports under it)",
                m->started, m->started_from);
}

int import_meta_open(const import_meta_args_t *a, int argc, char **argv, import_meta_t *out,
                     cp_err_t *err)
{
    *out = (import_meta_t){.args = a};
    char dir[PATH_MAX], base[PATH_MAX];
    int rc = tempfile_split_path(a->table_path, dir, base, err);
    if (rc != CP_OK)
        return rc;
    if ((size_t)snprintf(out->path, sizeof out->path, "%s/meta.json", dir) >= sizeof out->path)
        return cp_err_set(err, CP_EUSAGE, "%s: path too long", dir);
    out->action = import_meta_action(dir, base, a->force);
    out->host = a->host != NULL ? a->host : IMPORT_META_HOST_UNKNOWN;
    import_meta_started(a->started, a->fio_timestamp, a->file, out->started,
                        sizeof out->started, &out->started_from);
    if (out->action != IMPORT_META_KEEP) {
        const meta_import_t imp = {.source = a->source, .file = a->file, .table = base,
                                   .host = out->host, .host_given = a->host != NULL,
                                   .started = out->started,
                                   .started_from = out->started_from};
        json_t *meta = meta_create_import(argc, argv, &imp);
        if (meta == NULL)
            return cp_err_set(err, CP_ENOMEM, "out of memory");
        out->file = meta_open(meta, dir, out->action == IMPORT_META_REPLACE, err);
        json_decref(meta);
        if (out->file == NULL)
            return cp_err_code(err, CP_EIO);
    }
    return CP_OK;
}

int import_meta_commit(import_meta_t *m, cp_err_t *err)
{
    int rc = m->file != NULL ? outfile_commit(m->file, err) : CP_OK;
    m->committed = rc == CP_OK && m->file != NULL;
    return rc;
}

void import_meta_undo(import_meta_t *m)
{
    if (m->committed && m->action == IMPORT_META_WRITE)
        unlink(m->path);
    m->committed = false;
}

void import_meta_close(import_meta_t *m)
{
    outfile_close(m->file);
    m->file = NULL;
}
