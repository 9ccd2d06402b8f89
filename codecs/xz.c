/* xz.c - the xz codec (liblzma): one .xz stream per block (blocks engine),
 * lzma_stream_encoder_mt for the native engine, and a decoder that accepts concatenated
 * streams, as `xz -d` does. Streams carry CRC64 checks, as the xz CLI writes them. */
#include <lzma.h>
#include <stdlib.h>

#include "codecs/codec.h"

#define XZ_OUT_CHUNK ((size_t)1 << 20)

static const char *lzma_ret_text(lzma_ret ret)
{
    switch (ret) {
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "memory usage limit reached";
    case LZMA_FORMAT_ERROR: return "not in the .xz format";
    case LZMA_OPTIONS_ERROR: return "unsupported options";
    case LZMA_DATA_ERROR: return "compressed data is corrupt";
    case LZMA_BUF_ERROR: return "compressed data is truncated or corrupt";
    case LZMA_UNSUPPORTED_CHECK: return "unsupported integrity check";
    case LZMA_PROG_ERROR: return "programming error";
    default: return "unknown error";
    }
}

static int xz_error(cp_err_t *err, const char *what, lzma_ret ret)
{
    int code = ret == LZMA_MEM_ERROR ? CP_ENOMEM
               : (ret == LZMA_DATA_ERROR || ret == LZMA_BUF_ERROR || ret == LZMA_FORMAT_ERROR)
                   ? CP_EVERIFY
                   : CP_ECODEC;
    return cp_err_set(err, code, "xz %s: %s (lzma_ret %d)", what, lzma_ret_text(ret), (int)ret);
}

static uint32_t xz_preset(const codec_spec_t *spec)
{
    return (uint32_t)spec->level | (spec->extreme ? LZMA_PRESET_EXTREME : 0);
}

static size_t xz_default_block_size(const codec_spec_t *spec)
{
    lzma_options_lzma opt;
    size_t block = (size_t)24 << 20;
    if (!lzma_lzma_preset(&opt, xz_preset(spec)))
        block = (size_t)opt.dict_size * 3;
    return block < ((size_t)1 << 20) ? (size_t)1 << 20 : block;
}

static size_t xz_block_bound(const codec_spec_t *spec, size_t in_size)
{
    (void)spec;
    return lzma_stream_buffer_bound(in_size);
}

/* liblzma's own figures: the encoder of the preset (dictionary, match finder) ... */
static size_t xz_block_ctx_memory(const codec_spec_t *spec, size_t block_size)
{
    (void)block_size;
    uint64_t m = lzma_easy_encoder_memusage(xz_preset(spec));
    return m == UINT64_MAX ? 0 : (size_t)m;
}

/* ... and the multi-threaded encoder's, which counts every worker's encoder and its
 * input and output buffers (blocks of 3 x the dictionary). */
static size_t xz_encoder_memory(const codec_spec_t *spec, int threads)
{
    lzma_mt mt = {0};
    mt.threads = (uint32_t)(threads > 0 ? threads : 1);
    mt.preset = xz_preset(spec);
    mt.check = LZMA_CHECK_CRC64;
    uint64_t m = lzma_stream_encoder_mt_memusage(&mt);
    return m == UINT64_MAX ? 0 : (size_t)m;
}

typedef struct xz_block_ctx {
    lzma_stream strm;
    uint32_t preset;
} xz_block_ctx_t;

static void *xz_block_ctx_create(const codec_spec_t *spec, cp_err_t *err)
{
    xz_block_ctx_t *c = calloc(1, sizeof *c);
    if (c == NULL) {
        cp_err_set(err, CP_ENOMEM, "xz: out of memory for a compression context");
        return NULL;
    }
    lzma_stream init = LZMA_STREAM_INIT;
    c->strm = init;
    c->preset = xz_preset(spec);
    return c;
}

static void xz_block_ctx_free(void *ctx)
{
    xz_block_ctx_t *c = ctx;
    if (c != NULL) {
        lzma_end(&c->strm);
        free(c);
    }
}

static int xz_compress_block(void *ctx, const void *in, size_t in_size, void *out,
                             size_t out_cap, size_t *out_size, cp_err_t *err)
{
    xz_block_ctx_t *c = ctx;
    /* Re-initialising the same lzma_stream reuses its dictionary and match finder. */
    lzma_ret ret = lzma_easy_encoder(&c->strm, c->preset, LZMA_CHECK_CRC64);
    if (ret != LZMA_OK)
        return xz_error(err, "starting a block", ret);
    c->strm.next_in = in;
    c->strm.avail_in = in_size;
    c->strm.next_out = out;
    c->strm.avail_out = out_cap;
    ret = lzma_code(&c->strm, LZMA_FINISH);
    if (ret != LZMA_STREAM_END)
        return xz_error(err, "compressing a block", ret == LZMA_OK ? LZMA_BUF_ERROR : ret);
    *out_size = out_cap - c->strm.avail_out;
    return CP_OK;
}

/* The decoder keeps nothing between blocks worth reusing for a single-call decode. */
static char xz_dctx_token;

static void *xz_block_dctx_create(cp_err_t *err)
{
    (void)err;
    return &xz_dctx_token;
}

static void xz_block_dctx_free(void *ctx) { (void)ctx; }

static int xz_decompress_block(void *ctx, const void *in, size_t in_size, void *out,
                               size_t out_cap, size_t *out_size, cp_err_t *err)
{
    (void)ctx;
    uint64_t memlimit = UINT64_MAX;
    size_t in_pos = 0, out_pos = 0;
    /* One .xz stream exactly: without LZMA_CONCATENATED, bytes after it are an error. */
    lzma_ret ret = lzma_stream_buffer_decode(&memlimit, 0, NULL, in, &in_pos, in_size, out,
                                             &out_pos, out_cap);
    if (ret != LZMA_OK)
        return xz_error(err, "decompressing a block", ret);
    if (in_pos != in_size)
        return cp_err_set(err, CP_ECODEC, "xz: a block holds %zu bytes after its stream",
                          in_size - in_pos);
    *out_size = out_pos;
    return CP_OK;
}

/* ---- streams ---- */

typedef struct xz_stream {
    codec_stream_t base;
    lzma_stream strm;
    bool decoder;
    unsigned char out[XZ_OUT_CHUNK];
} xz_stream_t;

static int xz_process(codec_stream_t *base, const void *in, size_t in_size, bool finish,
                      codec_out_fn emit, void *ctx, cp_err_t *err)
{
    xz_stream_t *s = (xz_stream_t *)base;
    s->strm.next_in = in;
    s->strm.avail_in = in_size;
    lzma_action action = finish ? LZMA_FINISH : LZMA_RUN;
    for (;;) {
        s->strm.next_out = s->out;
        s->strm.avail_out = sizeof s->out;
        lzma_ret ret = lzma_code(&s->strm, action);
        size_t produced = sizeof s->out - s->strm.avail_out;
        /* An encoder that waited out its timeout with nothing to show asks emit (len 0)
         * whether to go on, so an interrupt need not wait for a whole xz block. */
        if (produced > 0 || (!s->decoder && ret == LZMA_OK)) {
            int rc = emit(ctx, s->out, produced, err);
            if (rc != CP_OK)
                return rc;
        }
        if (ret == LZMA_STREAM_END)
            return CP_OK;
        if (ret != LZMA_OK)
            return xz_error(err, s->decoder ? "decompressing" : "compressing", ret);
        if (!finish && s->strm.avail_in == 0 && s->strm.avail_out > 0)
            return CP_OK;
    }
}

static void xz_stream_free(codec_stream_t *base)
{
    xz_stream_t *s = (xz_stream_t *)base;
    lzma_end(&s->strm);
    free(s);
}

static const codec_stream_ops_t xz_stream_ops = {xz_process, xz_stream_free};

static xz_stream_t *xz_stream_new(cp_err_t *err)
{
    xz_stream_t *s = malloc(sizeof *s);
    if (s == NULL) {
        cp_err_set(err, CP_ENOMEM, "xz: out of memory for a stream");
        return NULL;
    }
    lzma_stream init = LZMA_STREAM_INIT;
    s->strm = init;
    s->base.ops = &xz_stream_ops;
    s->decoder = false;
    return s;
}

static codec_stream_t *xz_encoder_create(const codec_spec_t *spec, int threads, cp_err_t *err)
{
    xz_stream_t *s = xz_stream_new(err);
    if (s == NULL)
        return NULL;
    lzma_mt mt = {0};
    mt.threads = (uint32_t)(threads > 0 ? threads : 1);
    mt.block_size = 0; /* liblzma's default: 3 x dictionary size */
    mt.timeout = 100; /* ms: lzma_code returns while waiting, so the caller can stop it */
    mt.preset = xz_preset(spec);
    mt.check = LZMA_CHECK_CRC64;
    lzma_ret ret = lzma_stream_encoder_mt(&s->strm, &mt);
    if (ret != LZMA_OK) {
        xz_error(err, "starting the multi-threaded encoder", ret);
        xz_stream_free(&s->base);
        return NULL;
    }
    return &s->base;
}

static codec_stream_t *xz_decoder_create(int threads, cp_err_t *err)
{
    xz_stream_t *s = xz_stream_new(err);
    if (s == NULL)
        return NULL;
    s->decoder = true;
    lzma_ret ret;
    if (threads > 1) {
        /* No memory limit of liblzma's own: chokepoint checks its estimate first (and
         * decodes only archives it made). No timeout: lzma_code returns once its input is
         * used up or its output buffer full, waiting on the workers otherwise; the
         * pipeline notices an interrupt at each output it hands on. */
        lzma_mt mt = {0};
        mt.flags = LZMA_CONCATENATED;
        mt.threads = (uint32_t)threads;
        mt.memlimit_threading = UINT64_MAX;
        mt.memlimit_stop = UINT64_MAX;
        ret = lzma_stream_decoder_mt(&s->strm, &mt);
    } else {
        ret = lzma_stream_decoder(&s->strm, UINT64_MAX, LZMA_CONCATENATED);
    }
    if (ret != LZMA_OK) {
        xz_error(err, "starting the decoder", ret);
        xz_stream_free(&s->base);
        return NULL;
    }
    return &s->base;
}

const codec_ops_t codec_xz = {
    .name = "xz",
    .min_level = 0,
    .max_level = 9,
    .default_level = 6,
    .has_extreme = true,
    .file_suffix = ".xz",
    .default_block_size = xz_default_block_size,
    .block_bound = xz_block_bound,
    .block_ctx_memory = xz_block_ctx_memory,
    .encoder_memory = xz_encoder_memory,
    .block_ctx_create = xz_block_ctx_create,
    .block_ctx_free = xz_block_ctx_free,
    .compress_block = xz_compress_block,
    .block_dctx_create = xz_block_dctx_create,
    .block_dctx_free = xz_block_dctx_free,
    .decompress_block = xz_decompress_block,
    .encoder_create = xz_encoder_create,
    .decoder_create = xz_decoder_create,
};
