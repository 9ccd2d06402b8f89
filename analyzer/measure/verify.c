/* verify.c - round-trip verification after a run (verify.h): hashing the input and the
 * restored bytes of an output. */
#include "measure/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "common/cleanup.h"

#define VERIFY_CHUNK ((size_t)1 << 20)

typedef struct hashing {
    XXH3_state_t *state;
    uint64_t bytes;
} hashing_t;

static int hash_bytes(void *ctx, const void *buf, size_t len, cp_err_t *err)
{
    (void)err;
    hashing_t *h = ctx;
    XXH3_64bits_update(h->state, buf, len);
    h->bytes += len;
    return CP_OK;
}

/* Feeds the file at path into the hash h, through decoder first when one is given. */
static int stream_file(const char *path, codec_stream_t *decoder, hashing_t *h,
                       unsigned char *buf, cp_err_t *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cp_err_errno(err, CP_EIO, errno, "verify: cannot open %s", path);
    int rc = CP_OK;
    for (;;) {
        if (cp_interrupted()) {
            rc = cp_err_set(err, CP_EINTR, "interrupted");
            break;
        }
        ssize_t n = read(fd, buf, VERIFY_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = cp_err_errno(err, CP_EIO, errno, "verify: reading %s", path);
            break;
        }
        if (decoder != NULL)
            rc = codec_stream_process(decoder, buf, (size_t)n, n == 0, hash_bytes, h, err);
        else if (n > 0)
            rc = hash_bytes(h, buf, (size_t)n, err);
        if (rc != CP_OK || n == 0)
            break;
    }
    close(fd);
    return rc;
}

int verify_roundtrip(const char *input_path, const char *compressed_path,
                     const codec_spec_t *codec, verify_result_t *out, cp_err_t *err)
{
    memset(out, 0, sizeof *out);
    unsigned char *buf = malloc(VERIFY_CHUNK);
    hashing_t in = {XXH3_createState(), 0};
    hashing_t restored = {XXH3_createState(), 0};
    codec_stream_t *decoder = codec->ops->decoder_create(1, err);
    int rc = CP_OK;
    if (buf == NULL || in.state == NULL || restored.state == NULL)
        rc = cp_err_set(err, CP_ENOMEM, "verify: out of memory");
    else if (decoder == NULL)
        rc = err ? err->code : CP_ENOMEM;
    if (rc == CP_OK) {
        XXH3_64bits_reset(in.state);
        XXH3_64bits_reset(restored.state);
        rc = stream_file(input_path, NULL, &in, buf, err);
    }
    if (rc == CP_OK)
        rc = stream_file(compressed_path, decoder, &restored, buf, err);
    if (rc == CP_OK) {
        out->input_hash = XXH3_64bits_digest(in.state);
        out->restored_hash = XXH3_64bits_digest(restored.state);
        out->input_bytes = in.bytes;
        out->restored_bytes = restored.bytes;
        out->match = out->input_hash == out->restored_hash && in.bytes == restored.bytes;
    }
    codec_stream_free(decoder);
    XXH3_freeState(in.state);
    XXH3_freeState(restored.state);
    free(buf);
    return rc;
}

int verify_hash_file(const char *path, uint64_t *hash, uint64_t *bytes, cp_err_t *err)
{
    unsigned char *buf = malloc(VERIFY_CHUNK);
    hashing_t h = {XXH3_createState(), 0};
    int rc = buf != NULL && h.state != NULL ? CP_OK
                                            : cp_err_set(err, CP_ENOMEM, "out of memory hashing %s", path);
    if (rc == CP_OK) {
        XXH3_64bits_reset(h.state);
        rc = stream_file(path, NULL, &h, buf, err);
    }
    if (rc == CP_OK) {
        *hash = XXH3_64bits_digest(h.state);
        *bytes = h.bytes;
    }
    XXH3_freeState(h.state);
    free(buf);
    return rc;
}
