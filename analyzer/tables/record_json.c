/* record_json.c - one compress record as the JSON object of `compress --json`
 * (record_json.h). */
#include "tables/record_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables/json_number.h"

static json_t *stage_json(const stage_time_t *s)
{
    return json_pack("{s:f, s:f}", "busy_s", s->busy_s, "wait_s", s->wait_s);
}

/* The run's wall time along its critical path, other_s the rest (path_split.h). */
static json_t *path_json(const pipeline_result_t *run)
{
    const path_split_t *s = &run->path;
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "compute_s", s->compute_s,
                     "core_wait_s", s->core_wait_s, "io_cpu_s", s->io_cpu_s, "read_blocked_s",
                     s->read_blocked_s, "write_blocked_s", s->write_blocked_s, "other_s",
                     fmax(0.0, run->seconds - path_split_total(s)));
}

json_t *record_to_json(const compress_record_t *rec)
{
    char name[32];
    snprintf(name, sizeof name, "%s", rec->codec);
    char *colon = strchr(name, ':');
    json_t *level = json_null();
    if (colon != NULL) {
        *colon = '\0';
        level = json_integer(strtol(colon + 1, NULL, 10));
    }
    /* Any codec's extreme preset ("xz:6e"), as its spec parses. */
    codec_spec_t spec;
    bool extreme = codec_parse(rec->codec, &spec, NULL) == CP_OK && spec.extreme;
    json_t *stages = json_pack("{s:o, s:o, s:o}", "reader", stage_json(&rec->run.reader),
                               "compress", stage_json(&rec->run.compress), "writer",
                               stage_json(&rec->run.writer));
    json_t *verified = rec->verified < 0 ? json_null() : json_boolean(rec->verified == 1);
    json_t *cap = rec->rate_cap_bps > 0 ? json_real(rec->rate_cap_bps) : json_null();
    json_t *record = json_pack(
        "{s:s, s:s, s:o, s:b, s:s, s:i, s:I, s:s, s:b, s:b, s:b, s:I, s:I, s:f, s:f, s:f, s:f, "
        "s:I, s:o, s:f, s:o, s:I, s:o}",
        "codec", name, "codec_spec", rec->codec, "level", level, "extreme", extreme, "engine",
        pipeline_engine_name(rec->engine), "threads", rec->threads, "block_size",
        (json_int_t)rec->run.block_size, "sync", sync_mode_name(rec->sync), "sync_fell_back",
        rec->sync_fell_back, "warm", rec->warm, "discarded", rec->discarded, "input_bytes",
        (json_int_t)rec->run.input_bytes, "output_bytes", (json_int_t)rec->run.output_bytes,
        "seconds", rec->run.seconds, "bytes_per_s", rec->bytes_per_s, "cpu_user_s",
        rec->cpu_user_s, "cpu_sys_s", rec->cpu_sys_s, "max_rss_bytes",
        (json_int_t)rec->max_rss_bytes, "rate_cap_bps", cap, "throttle_s", rec->throttle_s,
        "stages", stages, "blocks", (json_int_t)rec->run.blocks, "verified", verified);
    if (record != NULL) {
        json_object_set_new(record, "pipeline_s", json_real(rec->run.pipeline_s));
        json_object_set_new(record, "flush_s", json_real(rec->run.flush_s));
        json_object_set_new(record, "replaced_s", json_real(rec->replaced_s));
        if (rec->run.path_known)
            json_object_set_new(record, "path", path_json(&rec->run));
        if (rec->run.path_known)
            json_object_set_new(record, "path", path_json(&rec->run));
        json_object_set_new(record, "cpu_wait_s", json_number_or_null(rec->run.cpu_wait_s));
        json_object_set_new(record, "io_wait_s", json_number_or_null(rec->run.io_wait_s));
        json_object_set_new(record, "io_read_wait_s",
                            json_number_or_null(rec->run.io_read_wait_s));
        json_object_set_new(record, "dirty_pause_s",
                            json_number_or_null(rec->run.dirty_pause_s));
        json_object_set_new(record, "mem_estimate_bytes",
                            json_integer((json_int_t)rec->mem_estimate_bytes));
    }
    return record;
}
