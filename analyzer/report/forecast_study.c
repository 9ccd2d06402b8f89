#include "report/forecast_study.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/tempfile.h"

/* meta.json's host.writeback into s (its centiseconds as seconds). */
static void read_meta(forecast_study_t *s)
{
    json_t *meta = json_load_file(s->meta_path, 0, NULL);
    const json_t *host = json_object_get(meta, "host");
    const json_t *wb = json_object_get(host, "writeback");
    const char *hostname = json_string_value(json_object_get(host, "hostname"));
    if (meta == NULL)
        s->meta_path[0] = '\0';
    if (hostname != NULL)
        snprintf(s->hostname, sizeof s->hostname, "%s", hostname);
    const json_t *bg = json_object_get(wb, "dirty_background_bytes");
    const json_t *dirty = json_object_get(wb, "dirty_bytes");
    if (json_is_number(bg) && json_is_number(dirty)) {
        s->writeback_known = true;
        s->writeback.dirty_background_bytes = json_number_value(bg);
        s->writeback.dirty_bytes = json_number_value(dirty);
        const json_t *expire = json_object_get(wb, "dirty_expire_centisecs");
        const json_t *flusher = json_object_get(wb, "dirty_writeback_centisecs");
        s->writeback.dirty_expire_s = json_is_number(expire) ? json_number_value(expire) / 100.0
                                                             : NAN;
        s->writeback.dirty_writeback_s =
            json_is_number(flusher) ? json_number_value(flusher) / 100.0 : NAN;
    }
    json_decref(meta);
}

int forecast_study_load(const char *path, forecast_study_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    out->writeback = (forecast_writeback_t){NAN, NAN, NAN, NAN};
    analysis_options_t options = analysis_defaults();
    int rc = compare_input_load(path, &options, &out->input, err);
    if (rc != CP_OK)
        return rc;
    struct stat st;
    char dir[PATH_MAX], base[PATH_MAX];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(dir, sizeof dir, "%s", path);
    else if (tempfile_split_path(path, dir, base, NULL) != CP_OK)
        return CP_OK;
    if ((size_t)snprintf(out->meta_path, sizeof out->meta_path, "%s/meta.json", dir) >=
        sizeof out->meta_path)
        out->meta_path[0] = '\0';
    else
        read_meta(out);
    return CP_OK;
}

void forecast_study_release(forecast_study_t *s)
{
    if (s == NULL)
        return;
    compare_input_free(s->input);
    s->input = NULL;
}
