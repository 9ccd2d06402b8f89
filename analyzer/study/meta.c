/* meta.c - the status rules of a study's meta.json (study/meta.h): what `run` records at
 * each stage and at the end, and what a results directory's recorded status means to a
 * reader (abandoned when no live process holds its lock). */
#include "study/meta.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/dirlock.h"
#include "common/err.h"
#include "common/log.h"
#include "tables/meta_json.h"

void study_meta_write(const json_t *meta, const char *dir)
{
    cp_err_t err = {0};
    if (meta_write(meta, dir, &err) != CP_OK)
        cp_log_warn("%s", err.msg);
}

void study_meta_running(json_t *meta, const char *dir, const char *stage)
{
    meta_set_status(meta, "running", stage);
    study_meta_write(meta, dir);
}

void study_meta_stopped(json_t *meta, int rc, const char *stage)
{
    meta_set_status(meta, rc == CP_EINTR ? "interrupted" : "failed", stage);
}

void study_meta_end(json_t *meta, const char *dir, int rc, bool some_runs_failed)
{
    if (rc == CP_OK)
        meta_set_status(meta, "complete", "done");
    json_object_set_new(meta, "some_runs_failed", json_boolean(some_runs_failed));
    study_meta_write(meta, dir);
}

const char *study_dir_status(const char *dir, const char **stage)
{
    static char status[32], stage_text[32];
    if (stage != NULL)
        *stage = "";
    json_t *meta = NULL;
    meta_read(dir, &meta, NULL);
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
