/* verify.h - round-trip verification: decompress an output in-process and compare its
 * XXH3-64 hash and length with the input's. Runs after timing, never inside it. */
#ifndef CP_VERIFY_H
#define CP_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/err.h"

typedef struct verify_result {
    bool match;
    uint64_t input_hash;
    uint64_t restored_hash;
    uint64_t input_bytes;
    uint64_t restored_bytes;
} verify_result_t;

/* Hashes input_path, decodes compressed_path with codec's decoder and hashes the result.
 * Returns CP_OK when both could be read (look at out->match), CP_EVERIFY when the
 * compressed data is corrupt or truncated, CP_EIO when a file cannot be read, CP_EINTR
 * when interrupted. */
int verify_roundtrip(const char *input_path, const char *compressed_path,
                     const codec_spec_t *codec, verify_result_t *out, cp_err_t *err);

/* The XXH3-64 hash and length of the file at path (a resumed study checks its input is
 * the same). CP_EIO when it cannot be read, CP_EINTR when interrupted. */
int verify_hash_file(const char *path, uint64_t *hash, uint64_t *bytes, cp_err_t *err);

#endif
