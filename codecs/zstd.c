/* zstd.c - the zstd codec: one frame per block (blocks engine), ZSTD_c_nbWorkers for the
 * native engine, and a decoder that accepts concatenated frames. Frames carry a content
 * checksum, as the zstd CLI writes them. */
#include <stdlib.h>

/* ZSTD_getCParams (the window size of a level) is in the experimental section; the shared
 * libzstd exports it. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include "codecs/codec.h"

static int zstd_error(cp_err_t *err, const char *what, size_t code)
{
    return cp_err_set(err, CP_ECODEC, "zstd %s: %s", what, ZSTD_getErrorName(code));
}

static int zstd_configure(ZSTD_CCtx *cctx, int level, int workers, cp_err_t *err)
{
    ZSTD_bounds bounds = ZSTD_cParam_getBounds(ZSTD_c_nbWorkers);
    if (workers > 0 && !ZSTD_isError(bounds.error) && workers > bounds.upperBound)
        return cp_err_set(err, CP_EUSAGE,
                          "zstd's own workers (--engine native) go up to %d threads, not %d; "
                          "use --engine blocks for more",
                          bounds.upperBound, workers);
    size_t rc = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(rc))
        rc = ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    if (!ZSTD_isError(rc) && workers > 0)
        rc = ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, workers);
    if (ZSTD_isError(rc))
        return zstd_error(err, workers > 0 ? "setting worker threads (is libzstd built with "
                                             "multithreading?)"
                                           : "setting parameters",
                          rc);
    return CP_OK;
}

static size_t zstd_default_block_size(const codec_spec_t *spec)
{
    ZSTD_compressionParameters cp = ZSTD_getCParams(spec->level, ZSTD_CONTENTSIZE_UNKNOWN, 0);
    size_t block = (size_t)4 << cp.windowLog;
    return block < ((size_t)1 << 20) ? (size_t)1 << 20 : block;
}

static size_t zstd_block_bound(const codec_spec_t *spec, size_t in_size)
{
    (void)spec;
    return ZSTD_compressBound(in_size);
}

static size_t zstd_block_ctx_memory(const codec_spec_t *spec, size_t block_size)
{
    ZSTD_compressionParameters cp = ZSTD_getCParams(spec->level, block_size, 0);
    return ZSTD_estimateCCtxSize_usingCParams(cp);
}

/* ZSTD_estimateCCtxSize refuses workers, so after zstdmt's own layout: per worker a
 * context and its job's output (the bound of a job of 4 x the window, at least 1 MiB),
 * and the round buffer that keeps one more job's input than there are workers. */
static size_t zstd_encoder_memory(const codec_spec_t *spec, int threads)
{
    ZSTD_compressionParameters cp = ZSTD_getCParams(spec->level, ZSTD_CONTENTSIZE_UNKNOWN, 0);
    size_t window = (size_t)1 << cp.windowLog;
    size_t job = 4 * window < ((size_t)1 << 20) ? (size_t)1 << 20 : 4 * window;
    size_t cctx = ZSTD_estimateCCtxSize_usingCParams(cp);
    if (threads <= 1)
        return cctx + window;
    size_t per_worker = cctx + ZSTD_compressBound(job);
    return (size_t)threads * per_worker + ((size_t)threads + 1) * job;
}

static void *zstd_block_ctx_create(const codec_spec_t *spec, cp_err_t *err)
{
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (cctx == NULL) {
        cp_err_set(err, CP_ENOMEM, "zstd: out of memory for a compression context");
        return NULL;
    }
    if (zstd_configure(cctx, spec->level, 0, err) != CP_OK) {
        ZSTD_freeCCtx(cctx);
        return NULL;
    }
    return cctx;
}

static void zstd_block_ctx_free(void *ctx) { ZSTD_freeCCtx(ctx); }

static int zstd_compress_block(void *ctx, const void *in, size_t in_size, void *out,
                               size_t out_cap, size_t *out_size, cp_err_t *err)
{
    size_t rc = ZSTD_compress2(ctx, out, out_cap, in, in_size);
    if (ZSTD_isError(rc))
        return zstd_error(err, "compressing a block", rc);
    *out_size = rc;
    return CP_OK;
}

static void *zstd_block_dctx_create(cp_err_t *err)
{
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (dctx == NULL)
        cp_err_set(err, CP_ENOMEM, "zstd: out of memory for a decompression context");
    return dctx;
}

static void zstd_block_dctx_free(void *ctx) { ZSTD_freeDCtx(ctx); }

static int zstd_decompress_block(void *ctx, const void *in, size_t in_size, void *out,
                                 size_t out_cap, size_t *out_size, cp_err_t *err)
{
    /* One frame exactly: ZSTD_decompressDCtx would decode concatenated frames too. */
    size_t frame = ZSTD_findFrameCompressedSize(in, in_size);
    if (ZSTD_isError(frame))
        return zstd_error(err, "finding a frame", frame);
    if (frame != in_size)
        return cp_err_set(err, CP_ECODEC, "zstd: a block holds %zu bytes after its frame",
                          in_size - frame);
    size_t rc = ZSTD_decompressDCtx(ctx, out, out_cap, in, in_size);
    if (ZSTD_isError(rc))
        return zstd_error(err, "decompressing a block", rc);
    *out_size = rc;
    return CP_OK;
}

/* ---- streams ---- */

typedef struct zstd_stream {
    codec_stream_t base;
    ZSTD_CCtx *cctx; /* encoder, or NULL */
    ZSTD_DCtx *dctx; /* decoder, or NULL */
    size_t last_hint; /* decoder: 0 once a frame is complete */
    size_t out_cap;
    unsigned char *out;
} zstd_stream_t;

static int zstd_encode(codec_stream_t *base, const void *in, size_t in_size, bool finish,
                       codec_out_fn emit, void *ctx, cp_err_t *err)
{
    zstd_stream_t *s = (zstd_stream_t *)base;
    ZSTD_inBuffer input = {in, in_size, 0};
    ZSTD_EndDirective mode = finish ? ZSTD_e_end : ZSTD_e_continue;
    for (;;) {
        ZSTD_outBuffer output = {s->out, s->out_cap, 0};
        size_t remaining = ZSTD_compressStream2(s->cctx, &output, &input, mode);
        if (ZSTD_isError(remaining))
            return zstd_error(err, "compressing", remaining);
        if (output.pos > 0) {
            int rc = emit(ctx, s->out, output.pos, err);
            if (rc != CP_OK)
                return rc;
        }
        /* Drain what the workers have finished (a full output buffer means there may be
         * more), so finished jobs flow out steadily instead of piling up in bursts. */
        bool done = finish ? remaining == 0
                           : input.pos == input.size && output.pos < output.size;
        if (done)
            return CP_OK;
    }
}

static int zstd_decode(codec_stream_t *base, const void *in, size_t in_size, bool finish,
                       codec_out_fn emit, void *ctx, cp_err_t *err)
{
    zstd_stream_t *s = (zstd_stream_t *)base;
    ZSTD_inBuffer input = {in, in_size, 0};
    for (;;) {
        ZSTD_outBuffer output = {s->out, s->out_cap, 0};
        size_t consumed_before = input.pos;
        size_t hint = ZSTD_decompressStream(s->dctx, &output, &input);
        if (ZSTD_isError(hint))
            return zstd_error(err, "decompressing", hint);
        /* A call that made no progress reports the next frame's header size, not whether
         * the current frame ended: only progress updates the end-of-frame state. */
        if (input.pos > consumed_before || output.pos > 0)
            s->last_hint = hint;
        if (output.pos > 0) {
            int rc = emit(ctx, s->out, output.pos, err);
            if (rc != CP_OK)
                return rc;
        }
        /* All input consumed and the output buffer not full: nothing more to flush. */
        if (input.pos == input.size && output.pos < output.size)
            break;
    }
    if (finish && s->last_hint != 0)
        return cp_err_set(err, CP_EVERIFY, "zstd: the compressed data ends inside a frame");
    return CP_OK;
}

static void zstd_stream_free(codec_stream_t *base)
{
    zstd_stream_t *s = (zstd_stream_t *)base;
    ZSTD_freeCCtx(s->cctx);
    ZSTD_freeDCtx(s->dctx);
    free(s->out);
    free(s);
}

static const codec_stream_ops_t zstd_encoder_ops = {zstd_encode, zstd_stream_free};
static const codec_stream_ops_t zstd_decoder_ops = {zstd_decode, zstd_stream_free};

static zstd_stream_t *zstd_stream_new(const codec_stream_ops_t *ops, size_t out_cap,
                                      cp_err_t *err)
{
    zstd_stream_t *s = calloc(1, sizeof *s);
    if (s != NULL)
        s->out = malloc(out_cap);
    if (s == NULL || s->out == NULL) {
        free(s);
        cp_err_set(err, CP_ENOMEM, "zstd: out of memory for a stream");
        return NULL;
    }
    s->base.ops = ops;
    s->out_cap = out_cap;
    return s;
}

static codec_stream_t *zstd_encoder_create(const codec_spec_t *spec, int threads,
                                           cp_err_t *err)
{
    zstd_stream_t *s = zstd_stream_new(&zstd_encoder_ops, ZSTD_CStreamOutSize(), err);
    if (s == NULL)
        return NULL;
    s->cctx = ZSTD_createCCtx();
    if (s->cctx == NULL) {
        cp_err_set(err, CP_ENOMEM, "zstd: out of memory for a compression context");
        zstd_stream_free(&s->base);
        return NULL;
    }
    if (zstd_configure(s->cctx, spec->level, threads, err) != CP_OK) {
        zstd_stream_free(&s->base);
        return NULL;
    }
    return &s->base;
}

static codec_stream_t *zstd_decoder_create(int threads, cp_err_t *err)
{
    (void)threads; /* zstd decodes a frame on one thread */
    zstd_stream_t *s = zstd_stream_new(&zstd_decoder_ops, ZSTD_DStreamOutSize(), err);
    if (s == NULL)
        return NULL;
    s->dctx = ZSTD_createDCtx();
    if (s->dctx == NULL) {
        cp_err_set(err, CP_ENOMEM, "zstd: out of memory for a decompression context");
        zstd_stream_free(&s->base);
        return NULL;
    }
    s->last_hint = 1; /* no frame seen yet: empty data is not a valid .zst */
    return &s->base;
}

const codec_ops_t codec_zstd = {
    .name = "zstd",
    .min_level = 1,
    .max_level = 19,
    .default_level = 3,
    .has_extreme = false,
    .file_suffix = ".zst",
    .default_block_size = zstd_default_block_size,
    .block_bound = zstd_block_bound,
    .block_ctx_memory = zstd_block_ctx_memory,
    .encoder_memory = zstd_encoder_memory,
    .block_ctx_create = zstd_block_ctx_create,
    .block_ctx_free = zstd_block_ctx_free,
    .compress_block = zstd_compress_block,
    .block_dctx_create = zstd_block_dctx_create,
    .block_dctx_free = zstd_block_dctx_free,
    .decompress_block = zstd_decompress_block,
    .encoder_create = zstd_encoder_create,
    .decoder_create = zstd_decoder_create,
};
