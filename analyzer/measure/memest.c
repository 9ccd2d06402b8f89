/* memest.c - the memory estimate of a run and the check that refuses a sweep the machine
 * cannot hold (memest.h). */
#include "measure/memest.h"

#include <stdio.h>

#include "common/sys.h"
#include "common/units.h"

/* A native slot's output buffer: spilled past 1 MiB, so at most that plus one burst. */
#define MEMEST_NATIVE_OUT_BYTES ((uint64_t)2 << 20)

/* The pipeline's parameters as the estimate needs them. */
static pipeline_params_t params_for(const codec_spec_t *codec, pipeline_engine_t engine,
                                    int threads, size_t block_size, bool decompress)
{
    pipeline_params_t p = {0};
    p.codec = *codec;
    p.engine = engine;
    p.threads = threads;
    p.block_size = block_size;
    p.decompress = decompress;
    return p;
}

memest_t memest_compute(const codec_spec_t *codec, pipeline_engine_t engine, int threads,
                        size_t block_size)
{
    memest_t m = {0};
    pipeline_params_t p = params_for(codec, engine, threads, block_size, false);
    m.block_size = pipeline_block_size(&p);
    m.slots = 2 * (size_t)(threads > 0 ? threads : 1) + 2;
    uint64_t out = engine == PIPELINE_NATIVE ? MEMEST_NATIVE_OUT_BYTES
                                             : codec->ops->block_bound(codec, m.block_size);
    m.ring_bytes = (uint64_t)m.slots * ((uint64_t)m.block_size + out);
    if (engine == PIPELINE_NATIVE)
        m.codec_bytes = codec->ops->encoder_memory(codec, threads);
    else
        m.codec_bytes = (uint64_t)threads * codec->ops->block_ctx_memory(codec, m.block_size);
    m.total_bytes = m.ring_bytes + m.codec_bytes + MEMEST_BASE_BYTES;
    return m;
}

memest_t memest_compute_restore(const codec_spec_t *codec, pipeline_engine_t engine,
                                int threads, size_t block_size)
{
    if (engine != PIPELINE_NATIVE)
        return memest_compute(codec, engine, threads, block_size);
    memest_t m = {0};
    pipeline_params_t p = params_for(codec, engine, threads, block_size, true);
    m.block_size = pipeline_block_size(&p);
    m.slots = pipeline_slot_count(&p);
    m.ring_bytes =
        (uint64_t)m.slots * ((uint64_t)m.block_size + PIPELINE_NATIVE_DECODE_OUT_BYTES);
    m.codec_bytes = codec->ops->encoder_memory(codec, threads);
    m.total_bytes = m.ring_bytes + m.codec_bytes + MEMEST_BASE_BYTES;
    return m;
}

memest_t memest_compute_study(const codec_spec_t *codec, pipeline_engine_t engine, int threads,
                              size_t block_size, bool decompress)
{
    memest_t m = memest_compute(codec, engine, threads, block_size);
    if (!decompress)
        return m;
    memest_t r = memest_compute_restore(codec, engine, threads, block_size);
    return r.total_bytes > m.total_bytes ? r : m;
}

static int max_threads_fitting(const codec_spec_t *codec, pipeline_engine_t engine,
                               size_t block_size, bool decompress, int up_to, uint64_t limit)
{
    int best = 0;
    for (int t = 1; t <= up_to; t++)
        if (memest_compute_study(codec, engine, t, block_size, decompress).total_bytes <= limit)
            best = t;
    return best;
}

int memest_check(const series_spec_t *series, size_t n_series, pipeline_engine_t engine,
                 const int *threads, size_t n_threads, size_t block_size, bool decompress,
                 uint64_t limit_bytes, cp_err_t *err)
{
    uint64_t limit = limit_bytes;
    if (limit == 0 && !sys_mem_available(&limit))
        return CP_OK; /* unknown: nothing to check against */
    int top = 0;
    for (size_t i = 0; i < n_threads; i++)
        if (threads[i] > top)
            top = threads[i];
    for (size_t c = 0; c < n_series; c++) {
        const codec_spec_t *codec = &series[c].codec;
        memest_t m = memest_compute_study(codec, engine, top, block_size, decompress);
        if (m.total_bytes <= limit)
            continue;
        char name[32];
        codec_format(codec, name, sizeof name);
        int fits = max_threads_fitting(codec, engine, block_size, decompress, top, limit);
        char advice[160];
        if (fits > 0)
            snprintf(advice, sizeof advice, "at most %d thread%s fit%s (--threads 1..%d)", fits,
                     fits == 1 ? "" : "s", fits == 1 ? "s" : "", fits);
        else
            snprintf(advice, sizeof advice, "not even 1 thread fits: choose a lower level or a "
                     "smaller --block-size");
        /* The block size and a --max-memory limit as the user gave them (8M: 8 MiB). */
        char block_text[32], limit_text[32];
        units_format_bytes_echo(block_text, sizeof block_text, m.block_size);
        if (limit_bytes > 0)
            units_format_bytes_echo(limit_text, sizeof limit_text, limit);
        else
            snprintf(limit_text, sizeof limit_text, "%.2f GB", (double)limit / 1e9);
        return cp_err_set(err, CP_EUSAGE,
                          "%s at %d thread%s (%s engine) needs an estimated %.2f GB of memory "
                          "(a ring of %zu blocks of %s: %.2f GB; the codec: %.2f GB), "
                          "above the %s %s; %s, or set the limit with --max-memory SIZE",
                          name, top, top == 1 ? "" : "s", pipeline_engine_name(engine),
                          (double)m.total_bytes / 1e9,
                          m.slots, block_text, (double)m.ring_bytes / 1e9,
                          (double)m.codec_bytes / 1e9, limit_text,
                          limit_bytes > 0 ? "given by --max-memory" : "available now", advice);
    }
    return CP_OK;
}
