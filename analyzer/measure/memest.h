/* memest.h - how much memory a compress run will take, known before it starts, and the
 * check that refuses a run the machine cannot hold (docs/method.md, "Memory").
 *
 * The estimate adds: the pipeline's ring of 2T+2 slots (each an input block and an output
 * buffer: the codec's bound for the blocks engine, a spill buffer for the native one), the
 * codec's own needs from codecs/ (T block contexts, or the native encoder with T workers:
 * zstd's window and job buffers, xz's dictionary and block buffers), and a fixed base for
 * the program itself. runs.csv records it beside the measured peak (max_rss_bytes). */
#ifndef CP_MEMEST_H
#define CP_MEMEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/err.h"
#include "measure/pipeline.h"
#include "measure/series.h"

/* The program itself: code, libraries, stacks, stdio, telemetry. */
#define MEMEST_BASE_BYTES ((uint64_t)8 << 20)

typedef struct memest {
    uint64_t ring_bytes;  /* 2T+2 slots */
    uint64_t codec_bytes; /* block contexts or the native encoder */
    uint64_t total_bytes; /* ring + codec + MEMEST_BASE_BYTES */
    size_t block_size;    /* as the run will use it */
    size_t slots;
} memest_t;

/* The estimate for one run of codec at threads with engine and block_size (0: the
 * codec's default, as pipeline_block_size). Pure apart from the codec's tables. */
memest_t memest_compute(const codec_spec_t *codec, pipeline_engine_t engine, int threads,
                        size_t block_size);

/* The estimate for restoring an archive of codec made by engine, at threads: for the
 * blocks engine the compression's (its ring holds a frame and a block per slot, and T
 * decoders need less than T encoders); for the native engine the decoding ring
 * (pipeline_slot_count slots of a piece and its output buffer) plus the native encoder's
 * needs at threads, which bound the library's decoder's. Pure. */
memest_t memest_compute_restore(const codec_spec_t *codec, pipeline_engine_t engine,
                                int threads, size_t block_size);

/* What must fit for a study's runs of codec at threads: the compression's estimate, or
 * with decompress the larger of the archive's compression and the restore. Pure. */
memest_t memest_compute_study(const codec_spec_t *codec, pipeline_engine_t engine, int threads,
                              size_t block_size, bool decompress);

/* Checks every series' codec (a command's: "copy", or the codec of the archive it
 * restores) at the largest thread count of the list against limit_bytes (0: the
 * memory available now, MemAvailable); with decompress, the larger of the archive's
 * compression and the restore. CP_OK when each fits (or the available memory is
 * unknown); CP_EUSAGE otherwise, the message giving the estimate, what it is made of, the
 * limit, the largest thread count that fits and the options to change it. */
int memest_check(const series_spec_t *series, size_t n_series, pipeline_engine_t engine,
                 const int *threads, size_t n_threads, size_t block_size, bool decompress,
                 uint64_t limit_bytes, cp_err_t *err);

#endif
