/* codec.h - the codec interface: a const table of function pointers per codec, chosen by
 * name from a registry ("zstd:3", "xz:6e", "copy"). codecs/ knows nothing of disks or
 * threads' scheduling: it turns bytes into bytes.
 *
 * Two ways to compress:
 * - blocks: compress_block() turns one input block into one independent frame (zstd) or
 *   stream (xz); concatenated, the frames form a file the standard CLIs restore. One
 *   block context per compressor thread.
 * - streaming: a codec_stream_t fed by codec_stream_process(); the encoder may run its own
 *   worker threads (ZSTD_c_nbWorkers, lzma_stream_encoder_mt). The same stream type
 *   decodes, for --verify. */
#ifndef CP_CODEC_H
#define CP_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"

typedef struct codec_ops codec_ops_t;

/* A codec with its level: what "zstd:3" parses to. */
typedef struct codec_spec {
    const codec_ops_t *ops;
    int level;
    bool extreme; /* xz "e" presets */
} codec_spec_t;

/* Receives output bytes from a stream; returns CP_OK or a CP_E* code to stop. An encoder
 * waiting on its own workers may call it with len 0 (buf NULL or not) to ask whether to go
 * on; returning CP_EINTR then stops the stream. */
typedef int (*codec_out_fn)(void *ctx, const void *buf, size_t len, cp_err_t *err);

typedef struct codec_stream codec_stream_t;

struct codec_ops {
    const char *name;        /* "zstd", "xz", "copy" */
    int min_level, max_level, default_level;
    bool has_extreme;
    const char *file_suffix; /* ".zst", ".xz", "" */

    /* Block size the blocks engine uses by default for this spec. */
    size_t (*default_block_size)(const codec_spec_t *spec);
    /* Largest possible compressed size of an in_size block. */
    size_t (*block_bound)(const codec_spec_t *spec, size_t in_size);
    /* Bytes one block context holds to compress blocks of block_size (tables, windows,
     * its own buffers): the memory estimate before a run (measure/memest.h). */
    size_t (*block_ctx_memory)(const codec_spec_t *spec, size_t block_size);
    /* Bytes the native streaming encoder holds with `threads` workers (their contexts,
     * input and output buffers). */
    size_t (*encoder_memory)(const codec_spec_t *spec, int threads);
    /* A per-thread block context; NULL with err set on failure. */
    void *(*block_ctx_create)(const codec_spec_t *spec, cp_err_t *err);
    void (*block_ctx_free)(void *ctx);
    /* Compresses in[0..in_size) into out (capacity out_cap >= block_bound) as one
     * independent frame; sets *out_size. CP_ECODEC with the library's text on failure. */
    int (*compress_block)(void *ctx, const void *in, size_t in_size, void *out, size_t out_cap,
                          size_t *out_size, cp_err_t *err);

    /* A per-thread block decoder context (decompression's blocks engine); NULL with err
     * set on failure. */
    void *(*block_dctx_create)(cp_err_t *err);
    void (*block_dctx_free)(void *ctx);
    /* Restores one frame (or stream) made by compress_block, in[0..in_size), into out
     * (capacity out_cap, at least the block's original size); sets *out_size. CP_ECODEC
     * with the library's text when the data is corrupt, truncated, holds more than one
     * frame or does not fit. */
    int (*decompress_block)(void *ctx, const void *in, size_t in_size, void *out,
                            size_t out_cap, size_t *out_size, cp_err_t *err);

    /* A streaming encoder with `threads` workers of the library's own (native engine). */
    codec_stream_t *(*encoder_create)(const codec_spec_t *spec, int threads, cp_err_t *err);
    /* A streaming decoder accepting concatenated frames/streams, with `threads` workers
     * where the library decodes in parallel (xz: the blocks of a stream whose headers
     * give their sizes, as its multi-threaded encoder writes them; zstd decodes on one). */
    codec_stream_t *(*decoder_create)(int threads, cp_err_t *err);
};

/* Parses "zstd:LEVEL", "xz:PRESET[e]", "copy", or a bare name for its default level.
 * CP_EUSAGE with a message listing the valid codecs and levels otherwise. */
int codec_parse(const char *text, codec_spec_t *out, cp_err_t *err);

/* Parses a comma-separated list of codec specs. *out is malloc'd (caller frees). An empty
 * item ("zstd:1,,xz:1", a leading or trailing comma) is CP_EUSAGE. */
int codec_parse_list(const char *text, codec_spec_t **out, size_t *count, cp_err_t *err);

/* Writes the canonical text of spec ("zstd:3", "xz:6e", "copy") into buf. */
void codec_format(const codec_spec_t *spec, char *buf, size_t size);

/* The registry's codecs as a text for --help and messages, in registry order: each
 * "NAME:MIN..MAX" (a codec of one level: its name). With extreme_lead NULL, a codec with
 * extreme presets gets "[e]" and all are joined by ", " ("zstd:1..19, xz:0..9[e], copy");
 * otherwise it gets " (LEAD" + its default level + "e)" and the last is joined by " or "
 * ("..., xz:0..9 (add 'e' for extreme: xz:6e) or copy"). Truncated to fit size. */
void codec_list_text(char *buf, size_t size, const char *extreme_lead);

/* Feeds in[0..in_size) to the stream; with finish, also ends the stream/frame. Output is
 * handed to out(ctx, ...) as it is produced. Returns CP_OK or the first error. */
int codec_stream_process(codec_stream_t *s, const void *in, size_t in_size, bool finish,
                         codec_out_fn out, void *ctx, cp_err_t *err);

/* Frees a stream (NULL is fine). */
void codec_stream_free(codec_stream_t *s);

/* What each codec's stream implementation provides; codec files fill this in. */
typedef struct codec_stream_ops {
    int (*process)(codec_stream_t *s, const void *in, size_t in_size, bool finish,
                   codec_out_fn out, void *ctx, cp_err_t *err);
    void (*free)(codec_stream_t *s);
} codec_stream_ops_t;

struct codec_stream {
    const codec_stream_ops_t *ops;
};

extern const codec_ops_t codec_zstd;
extern const codec_ops_t codec_xz;
extern const codec_ops_t codec_copy;

#endif
