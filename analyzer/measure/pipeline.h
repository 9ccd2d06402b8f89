/* pipeline.h - one reader, compressors, one ordered writer: the measured compression job.
 *
 * The reader fills blocks from the input, compressors turn them into frames, and the
 * writer hands the frames to a sink in input order. At most 2T+2 blocks are in flight, so
 * memory is bounded whatever the input size. Each stage accounts the seconds it was busy
 * and the seconds it waited on its neighbours.
 *
 * Engines:
 * - PIPELINE_BLOCKS: T OpenMP compressor threads, each block an independent frame/stream.
 * - PIPELINE_NATIVE: one encoder thread driving the codec's own T workers
 *   (ZSTD_c_nbWorkers, lzma_stream_encoder_mt); reader and writer as above.
 *
 * Decompression runs the same team backwards: given the frame table of an archive the
 * blocks engine made (pipeline_frames_t), the reader reads one frame per slot, T decoder
 * threads restore frames in parallel and the writer hands the restored blocks to the sink
 * in order. Knowing where frames start is what lets a decoder work in parallel (xz's
 * threaded decoder reads it from block headers, pzstd from skippable frames); the table
 * is recorded while the archive is made. */
#ifndef CP_PIPELINE_H
#define CP_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/err.h"
#include "measure/path_split.h"
#include "measure/sink.h"

typedef enum pipeline_engine { PIPELINE_BLOCKS, PIPELINE_NATIVE } pipeline_engine_t;

/* "blocks" or "native". */
const char *pipeline_engine_name(pipeline_engine_t engine);
/* Parses "blocks|native"; CP_EUSAGE naming the text otherwise. */
int pipeline_engine_parse(const char *text, pipeline_engine_t *out, cp_err_t *err);

/* Where an archive's frames are: frame i holds packed[i] bytes that restore to
 * unpacked[i]. Grown by pipeline_frames_add; freed by pipeline_frames_free. */
typedef struct pipeline_frames {
    uint64_t *packed;
    uint64_t *unpacked;
    size_t n, cap;
    uint64_t max_packed, max_unpacked;
    uint64_t packed_total, unpacked_total;
} pipeline_frames_t;

/* Appends one frame; CP_ENOMEM (the table unchanged) when it cannot grow. */
int pipeline_frames_add(pipeline_frames_t *f, uint64_t packed, uint64_t unpacked);
/* Frees the table's arrays and zeroes it; NULL is fine. */
void pipeline_frames_free(pipeline_frames_t *f);

typedef struct pipeline_params {
    const char *input_path;
    codec_spec_t codec;
    int threads;               /* compressor threads, >= 1 */
    pipeline_engine_t engine;
    size_t block_size;         /* 0: the codec's default (blocks), 1 MiB reads (native) or
                                  512 KiB reads (native decompression) */
    bool warm;                 /* keep the input's page cache (default: drop it first) */
    double read_cap_bps;       /* emulated read cap pacing the reader; 0 = none */
    /* Decompression: input_path is an archive made by the blocks engine of `codec`, whose
     * frames these are; the blocks engine restores them in parallel. NULL: compression,
     * unless `decompress` says otherwise. */
    const pipeline_frames_t *frames;
    /* Decompression by the native engine: input_path is an archive of `codec` (any, as
     * its CLI or its multi-threaded encoder writes it), restored by the library's own
     * streaming decoder with `threads` threads (codec_ops_t.decoder_create). Implied by
     * `frames` for the blocks engine, which needs them. */
    bool decompress;
    /* Compression with the blocks engine: when not NULL, every frame written is added
     * here (the caller frees it), so the output can later be decompressed in parallel. */
    pipeline_frames_t *record_frames;
} pipeline_params_t;

/* zstd:3, 1 thread, blocks engine, default block size, cold cache; input_path NULL. */
pipeline_params_t pipeline_defaults(void);

typedef struct stage_time {
    double busy_s;
    double wait_s;
} stage_time_t;

typedef struct pipeline_result {
    uint64_t input_bytes;  /* bytes read (the archive's, when decompressing) */
    uint64_t output_bytes; /* bytes handed to the sink (restored ones, when decompressing) */
    double seconds;        /* open input .. sink_finish (fsync + close): pipeline_s + flush_s */
    double pipeline_s;     /* open input .. the last output byte handed to the sink */
    double flush_s;        /* sink_finish: the sink's last staged bytes, fsync and close */
    size_t block_size;     /* the block (or read) size used */
    unsigned blocks;       /* blocks read, including a final empty one */
    stage_time_t reader;
    stage_time_t compress; /* summed over compressor threads */
    stage_time_t writer;
    double read_pace_s;    /* the reader's seconds in the emulated read cap (in reader.busy_s) */
    double cpu_wait_s;     /* waiting for a core: the run-queue delay of this process's
                            * threads during the run, summed (schedstat; the library's own
                            * workers included, read before they end); NAN when unknown */
    double io_wait_s;      /* blocked on I/O: the threads' block-I/O delay (delay
                            * accounting, run_account.h), the final fsync included; NAN
                            * when delay accounting is off and cannot be turned on */
    double io_read_wait_s; /* of io_wait_s: the reader's, reading the input; NAN unknown */
    double dirty_pause_s;  /* of io_wait_s: paused by write-back throttling; NAN unknown */
    path_split_t path;     /* the wall time along the critical path (path_split.h) */
    bool path_known;       /* path holds the run's figures (a pipeline run always does) */
    bool cache_dropped;    /* the input's page cache was dropped before the run and,
                            * checked with mincore, at most 1% of it stayed resident */
} pipeline_result_t;

/* The block size the pipeline will use for params (resolving 0 to the default). */
size_t pipeline_block_size(const pipeline_params_t *params);

/* How many slots (blocks in flight) the pipeline will use for params: 2T+2, and at least
 * 8 for the native engine's decompression (one decoder thread, pieces far smaller than
 * what they restore to). */
size_t pipeline_slot_count(const pipeline_params_t *params);

/* A native decompression slot's output buffer: restored bytes past it are written out
 * early (in order) by the decoding thread. */
#define PIPELINE_NATIVE_DECODE_OUT_BYTES ((size_t)2 << 20)

/* Runs the job (a decompression when params->frames or params->decompress is set): reads params->input_path, writes to sink and calls sink_finish, whose
 * fsync and close end the timed region. The sink stays owned by the caller (commit or
 * close it). On failure returns CP_EIO/CP_ENOSPC/CP_ECODEC/CP_ENOMEM/CP_EINTR (interrupted)
 * or CP_EINVALID (the input changed size or mtime during the run), with err set; *out is
 * filled as far as the run got. */
int pipeline_run(const pipeline_params_t *params, sink_t *sink, pipeline_result_t *out,
                 cp_err_t *err);

#endif
