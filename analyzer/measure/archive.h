/* archive.h - what a decompression study restores: the input compressed once, untimed,
 * onto a target (a temporary file in its directory) or into memory (the mem target: a
 * RAM file, so restoring it costs the CPU alone), with the table of its frames that lets
 * T decoder threads work in parallel (measure/pipeline.h). Each archive is checked once,
 * restored through the same decoding path the timed runs use, byte for byte against the
 * input (XXH3-64 and length) before anything is timed. */
#ifndef CP_ARCHIVE_H
#define CP_ARCHIVE_H

#include <stdint.h>

#include "codecs/codec.h"
#include "common/err.h"
#include "measure/pipeline.h"
#include "measure/sink.h"
#include "measure/target.h"

typedef struct archive {
    codec_spec_t codec;
    pipeline_engine_t engine; /* which made it, and restores it */
    /* packed_total = the archive's size, unpacked_total the input's; the frames
     * themselves only for the blocks engine (the native one writes one stream) */
    pipeline_frames_t frames;
    sink_t *file;             /* holds the archive (a temporary file, or a RAM file) */
    const char *path;         /* where to read it: valid until archive_close */
    uint64_t ram_needed;      /* the mem target's archive past ram_limit: the bytes it
                                 needed (kept by a failed archive_make); else 0 */
} archive_t;

/* Compresses input_path (input_bytes long, XXH3-64 input_hash) with codec and engine
 * (blocks: independent frames and their table; native: the library's own multi-threaded
 * stream, as its CLI writes it), `threads` compressor threads and block_size (0: the
 * engine's default), into a temporary file on target t (fsynced, no rate cap: not timed)
 * or into memory when t is the mem target; then restores it once through the same
 * engine's decompression into a hashing memory sink. CP_EVERIFY naming the target when
 * the restored bytes differ; CP_ENOSPC when the target's free space (sys_space_fits)
 * cannot hold an archive the input's size; CP_ENOMEM when the mem target's archive passes
 * ram_limit bytes (0: no limit; the caller's share of the memory limit), with the size it
 * needed in out->ram_needed (the input is compressed to the end to learn it); CP_EINTR
 * when interrupted; CP_EIO/CP_ECODEC/CP_ENOMEM otherwise. On failure nothing is left on
 * the target and *out is empty but for ram_needed; on success the caller owns *out
 * (archive_close). */
int archive_make(const char *input_path, uint64_t input_bytes, uint64_t input_hash,
                 const codec_spec_t *codec, pipeline_engine_t engine, int threads,
                 size_t block_size, const target_spec_t *t, uint64_t ram_limit, archive_t *out,
                 cp_err_t *err);

/* Removes the archive's file and frees its table; an empty or NULL archive is fine. */
void archive_close(archive_t *a);

#endif
