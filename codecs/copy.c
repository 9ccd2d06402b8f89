/* copy.c - the identity codec: output equals input, the pure I/O path. */
#include <stdlib.h>
#include <string.h>

#include "codecs/codec.h"

#define COPY_BLOCK_SIZE ((size_t)4 << 20)

static size_t copy_default_block_size(const codec_spec_t *spec)
{
    (void)spec;
    return COPY_BLOCK_SIZE;
}

static size_t copy_block_bound(const codec_spec_t *spec, size_t in_size)
{
    (void)spec;
    return in_size;
}

/* Blocks need a non-NULL context; copy has no state, so any static address serves. */
static char copy_ctx_token;

static void *copy_block_ctx_create(const codec_spec_t *spec, cp_err_t *err)
{
    (void)spec;
    (void)err;
    return &copy_ctx_token;
}

static void copy_block_ctx_free(void *ctx) { (void)ctx; }

static int copy_compress_block(void *ctx, const void *in, size_t in_size, void *out,
                               size_t out_cap, size_t *out_size, cp_err_t *err)
{
    (void)ctx;
    if (in_size > out_cap)
        return cp_err_set(err, CP_ECODEC, "copy: output buffer too small");
    if (in_size > 0)
        memcpy(out, in, in_size);
    *out_size = in_size;
    return CP_OK;
}

static void *copy_block_dctx_create(cp_err_t *err)
{
    (void)err;
    return &copy_ctx_token;
}

/* Restoring a copy is copying it back. */
static int copy_decompress_block(void *ctx, const void *in, size_t in_size, void *out,
                                 size_t out_cap, size_t *out_size, cp_err_t *err)
{
    return copy_compress_block(ctx, in, in_size, out, out_cap, out_size, err);
}

static int copy_process(codec_stream_t *s, const void *in, size_t in_size, bool finish,
                        codec_out_fn emit, void *ctx, cp_err_t *err)
{
    (void)s;
    (void)finish;
    return in_size > 0 ? emit(ctx, in, in_size, err) : CP_OK;
}

static void copy_stream_free(codec_stream_t *s) { free(s); }

static const codec_stream_ops_t copy_stream_ops = {copy_process, copy_stream_free};

static codec_stream_t *copy_stream_create(cp_err_t *err)
{
    codec_stream_t *s = malloc(sizeof *s);
    if (s == NULL) {
        cp_err_set(err, CP_ENOMEM, "copy: out of memory for a stream");
        return NULL;
    }
    s->ops = &copy_stream_ops;
    return s;
}

static codec_stream_t *copy_encoder_create(const codec_spec_t *spec, int threads,
                                           cp_err_t *err)
{
    (void)spec;
    (void)threads;
    return copy_stream_create(err);
}

static codec_stream_t *copy_decoder_create(int threads, cp_err_t *err)
{
    (void)threads;
    return copy_stream_create(err);
}

static size_t copy_block_ctx_memory(const codec_spec_t *spec, size_t block_size)
{
    (void)spec;
    (void)block_size;
    return 0;
}

static size_t copy_encoder_memory(const codec_spec_t *spec, int threads)
{
    (void)spec;
    (void)threads;
    return 0;
}

const codec_ops_t codec_copy = {
    .name = "copy",
    .min_level = 0,
    .max_level = 0,
    .default_level = 0,
    .has_extreme = false,
    .file_suffix = "",
    .default_block_size = copy_default_block_size,
    .block_bound = copy_block_bound,
    .block_ctx_memory = copy_block_ctx_memory,
    .encoder_memory = copy_encoder_memory,
    .block_ctx_create = copy_block_ctx_create,
    .block_ctx_free = copy_block_ctx_free,
    .compress_block = copy_compress_block,
    .block_dctx_create = copy_block_dctx_create,
    .block_dctx_free = copy_block_ctx_free,
    .decompress_block = copy_decompress_block,
    .encoder_create = copy_encoder_create,
    .decoder_create = copy_decoder_create,
};
