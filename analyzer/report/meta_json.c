#include "report/meta_json.h"

#include <limits.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#include "measure/hostinfo.h"
#include "report/outfile.h"

static json_t *now_iso8601(void)
{
    char buf[64];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
    return json_string(buf);
}

json_t *meta_create(int argc, char **argv)
{
    json_t *cmd = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(cmd, json_string(argv[i]));
    host_info_t h;
    host_info_get(&h);
    json_t *host = json_pack("{s:s, s:i, s:i, s:I, s:s, s:s, s:s}", "cpu_model", h.cpu_model,
                             "online_cpus", h.online_cpus, "usable_cpus", h.usable_cpus,
                             "mem_total_bytes", (json_int_t)h.mem_total_bytes, "kernel",
                             h.kernel_release, "machine", h.machine, "os", h.os_name);
    return json_pack("{s:s, s:o, s:o, s:o, s:s, s:o}", "chokepoint_version", CHOKEPOINT_VERSION,
                     "command_line", cmd, "started", now_iso8601(), "host", host, "status",
                     "running", "targets", json_array());
}

void meta_add_target(json_t *meta, const target_spec_t *t, const volume_info_t *v)
{
    json_t *o = json_pack("{s:s, s:b}", "name", t->name, "memory", t->is_mem);
    if (!t->is_mem) {
        char dev[32];
        snprintf(dev, sizeof dev, "%u:%u", v->dev_major, v->dev_minor);
        json_object_set_new(o, "dir", json_string(t->dir));
        json_object_set_new(o, "fs_type", json_string(v->fs_type));
        json_object_set_new(o, "ram", json_boolean(v->is_ram));
        json_object_set_new(o, "device", json_string(dev));
        json_object_set_new(o, "mount_source", json_string(v->source));
        json_object_set_new(o, "mount_point", json_string(v->mount_point));
        json_object_set_new(o, "rotational", v->rotational < 0 ? json_null()
                                                               : json_boolean(v->rotational));
        json_object_set_new(o, "free_bytes", json_integer((json_int_t)v->free_bytes));
    }
    json_object_set_new(o, "emulated_cap_bytes_per_s",
                        t->rate_cap_bps > 0 ? json_real(t->rate_cap_bps) : json_null());
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

int meta_write(const json_t *meta, const char *dir, cp_err_t *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    outfile_t *f = outfile_open(path, true, err);
    if (f == NULL)
        return err->code;
    int rc = CP_OK;
    if (json_dumpf(meta, outfile_stream(f), JSON_INDENT(2) | JSON_ENSURE_ASCII) != 0)
        rc = cp_err_set(err, CP_EIO, "cannot write %s", path);
    fputc('\n', outfile_stream(f));
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}
