/* archive.c - a decompression study's archives (archive.h): the input compressed once,
 * untimed, into a file the target keeps (its ops' open_kept), checked by restoring it, and
 * closed with its frame table. */
#include "measure/archive.h"

#include <string.h>

#include "common/log.h"
#include "common/sys.h"

/* Restores the archive once, as the timed runs will, and compares it with the input. */
static int check_restore(const archive_t *a, uint64_t input_bytes, uint64_t input_hash,
                         int threads, const char *label, cp_err_t *err)
{
    sink_options_t opts = {SYNC_NONE, 0, label};
    sink_t *sink = sink_open_mem_hashing(&opts, err);
    if (sink == NULL)
        return err->code;
    pipeline_params_t params = pipeline_defaults();
    params.input_path = a->path;
    params.codec = a->codec;
    params.threads = threads;
    params.warm = true;
    params.engine = a->engine;
    params.decompress = true;
    params.frames = a->engine == PIPELINE_BLOCKS ? &a->frames : NULL;
    pipeline_result_t run;
    int rc = pipeline_run(&params, sink, &run, err);
    if (rc == CP_OK && (sink_bytes(sink) != input_bytes || sink_hash(sink) != input_hash))
        rc = cp_err_set(err, CP_EVERIFY,
                        "target '%s': the archive restores to %llu bytes with XXH3 %016llx, "
                        "the input is %llu bytes with XXH3 %016llx",
                        label, (unsigned long long)sink_bytes(sink),
                        (unsigned long long)sink_hash(sink), (unsigned long long)input_bytes,
                        (unsigned long long)input_hash);
    sink_close(sink);
    return rc;
}

int archive_make(const char *input_path, uint64_t input_bytes, uint64_t input_hash,
                 const codec_spec_t *codec, pipeline_engine_t engine, int threads,
                 size_t block_size, const target_spec_t *t, uint64_t ram_limit, archive_t *out,
                 cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    out->codec = *codec;
    out->engine = engine;
    char codec_name[32];
    codec_format(codec, codec_name, sizeof codec_name);
    const target_ops_t *ops = target_ops_for(t);
    sys_space_t space;
    if (ops->space(t, &space, NULL) == CP_OK && space.total_bytes > 0 &&
        !sys_space_fits(&space, input_bytes))
        return cp_err_set(err, CP_ENOSPC,
                          "target '%s' has %.1f MB free, too little for an archive of the "
                          "%.1f MB input and a %.1f MB margin (--decompress)",
                          t->name, (double)space.free_bytes / 1e6, (double)input_bytes / 1e6,
                          (double)space.margin_bytes / 1e6);
    sink_options_t opts = {SYNC_FSYNC, 0, t->name};
    out->file = ops->open_kept(t, "chokepoint-archive", &opts, ram_limit, err);
    if (out->file == NULL)
        return err->code;
    out->path = sink_temp_path(out->file);

    pipeline_params_t params = pipeline_defaults();
    params.input_path = input_path;
    params.codec = *codec;
    params.threads = threads;
    params.block_size = block_size;
    params.warm = true;
    params.engine = engine;
    if (engine == PIPELINE_BLOCKS)
        params.record_frames = &out->frames;
    pipeline_result_t run;
    int rc = pipeline_run(&params, out->file, &run, err);
    if (rc == CP_OK && engine != PIPELINE_BLOCKS) { /* one stream: only its totals */
        out->frames.packed_total = run.output_bytes;
        out->frames.unpacked_total = run.input_bytes;
    }
    uint64_t ram_needed = 0;
    if (rc == CP_ENOMEM && sink_limit_reached(out->file)) {
        ram_needed = sink_bytes(out->file);
        cp_err_clear(err); /* the sink's own message does not name the archive */
        rc = cp_err_set(err, CP_ENOMEM,
                        "the %s archive of this input needs %.1f MB of RAM, past the %.1f MB "
                        "--max-memory leaves for it (--decompress)", codec_name,
                        (double)ram_needed / 1e6, (double)ram_limit / 1e6);
    }
    if (rc == CP_OK && run.input_bytes != input_bytes)
        rc = cp_err_set(err, CP_EINVALID, "input %s changed while it was compressed",
                        input_path);
    if (rc == CP_OK)
        rc = check_restore(out, input_bytes, input_hash, threads, t->name, err);
    if (rc != CP_OK) {
        archive_close(out);
        out->ram_needed = ram_needed;
    }
    return rc;
}

void archive_close(archive_t *a)
{
    if (a == NULL)
        return;
    sink_close(a->file);
    pipeline_frames_free(&a->frames);
    memset(a, 0, sizeof *a);
}
