/* Codec registry parsing and round-trips through each codec's block and stream paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codecs/codec.h"

typedef struct buffer {
    unsigned char *data;
    size_t len, cap;
} buffer_t;

static int collect(void *ctx, const void *buf, size_t len, cp_err_t *err)
{
    (void)err;
    buffer_t *b = ctx;
    if (b->len + len > b->cap) {
        b->cap = (b->len + len) * 2;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, buf, len);
    b->len += len;
    return CP_OK;
}

/* Deterministic, moderately compressible bytes. */
static unsigned char *sample(size_t n)
{
    unsigned char *p = malloc(n ? n : 1);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (i % 7 == 0) ? (unsigned char)(x >> 24) : (unsigned char)"abcdefgh"[(x >> 16) & 7];
    }
    return p;
}

static buffer_t decode_all(const codec_spec_t *spec, const void *in, size_t len, int *rc)
{
    buffer_t out = {0};
    cp_err_t err = {0};
    codec_stream_t *d = spec->ops->decoder_create(1, &err);
    assert_non_null(d);
    *rc = codec_stream_process(d, in, len, false, collect, &out, &err);
    if (*rc == CP_OK)
        *rc = codec_stream_process(d, NULL, 0, true, collect, &out, &err);
    codec_stream_free(d);
    return out;
}

static void test_parse_valid(void **state)
{
    (void)state;
    codec_spec_t s;
    char text[32];
    const char *cases[][2] = {{"zstd:1", "zstd:1"}, {"zstd:19", "zstd:19"}, {"zstd", "zstd:3"},
                              {"xz:0", "xz:0"},     {"xz:9e", "xz:9e"},     {"xz", "xz:6"},
                              {"copy", "copy"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(codec_parse(cases[i][0], &s, NULL), CP_OK);
        codec_format(&s, text, sizeof text);
        assert_string_equal(text, cases[i][1]);
    }
}

static void test_parse_invalid_lists_valid_codecs(void **state)
{
    (void)state;
    const char *bad[] = {"zstd:0", "zstd:20", "xz:10", "xz:6x", "zstd:3e", "lz4", "copy:1",
                         "zstd:", "", "zstd:-1", "ZSTD:3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        codec_spec_t s;
        cp_err_t err = {0};
        assert_int_equal(codec_parse(bad[i], &s, &err), CP_EUSAGE);
        assert_non_null(strstr(err.msg, "zstd:1..19"));
        assert_non_null(strstr(err.msg, "xz:0..9"));
    }
}

static void test_parse_list(void **state)
{
    (void)state;
    codec_spec_t *list = NULL;
    size_t n = 0;
    assert_int_equal(codec_parse_list("zstd:1,xz:3,copy", &list, &n, NULL), CP_OK);
    assert_int_equal(n, 3);
    assert_string_equal(list[1].ops->name, "xz");
    assert_int_equal(list[1].level, 3);
    free(list);
    cp_err_t err = {0};
    assert_int_equal(codec_parse_list("zstd:1,bogus", &list, &n, &err), CP_EUSAGE);
    /* An empty item is a typo, not something to skip. */
    const char *const empty_items[] = {"zstd:1,,xz:1", ",zstd:1", "zstd:1,", ","};
    for (size_t i = 0; i < sizeof empty_items / sizeof *empty_items; i++) {
        err = (cp_err_t){0};
        assert_int_equal(codec_parse_list(empty_items[i], &list, &n, &err), CP_EUSAGE);
        assert_non_null(strstr(err.msg, "empty item"));
    }
}

/* Each block compressed alone decodes back; two blocks concatenated decode as one file. */
static void roundtrip_blocks(const char *codec_text)
{
    codec_spec_t spec;
    assert_int_equal(codec_parse(codec_text, &spec, NULL), CP_OK);
    const size_t sizes[] = {0, 1, 4096, (1u << 20) + 3};
    cp_err_t err = {0};
    void *ctx = spec.ops->block_ctx_create(&spec, &err);
    assert_non_null(ctx);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        unsigned char *in = sample(n);
        size_t cap = spec.ops->block_bound(&spec, n);
        unsigned char *out = malloc(2 * cap + 1);
        size_t len1 = 0, len2 = 0;
        assert_int_equal(spec.ops->compress_block(ctx, in, n, out, cap, &len1, &err), CP_OK);
        assert_int_equal(spec.ops->compress_block(ctx, in, n, out + len1, cap, &len2, &err), CP_OK);
        int rc;
        buffer_t one = decode_all(&spec, out, len1, &rc);
        assert_int_equal(rc, CP_OK);
        assert_int_equal(one.len, n);
        if (n > 0)
            assert_memory_equal(one.data, in, n);
        buffer_t two = decode_all(&spec, out, len1 + len2, &rc);
        assert_int_equal(rc, CP_OK);
        assert_int_equal(two.len, 2 * n);
        if (n > 0)
            assert_memory_equal(two.data + n, in, n);
        free(one.data);
        free(two.data);
        free(in);
        free(out);
    }
    spec.ops->block_ctx_free(ctx);
}

static void test_zstd_blocks(void **state) { (void)state; roundtrip_blocks("zstd:3"); }
static void test_xz_blocks(void **state) { (void)state; roundtrip_blocks("xz:1"); }
static void test_xz_extreme_blocks(void **state) { (void)state; roundtrip_blocks("xz:0e"); }
static void test_copy_blocks(void **state) { (void)state; roundtrip_blocks("copy"); }

/* The native encoder fed in uneven pieces, with worker threads, decodes back. */
static void roundtrip_stream(const char *codec_text, int threads)
{
    codec_spec_t spec;
    assert_int_equal(codec_parse(codec_text, &spec, NULL), CP_OK);
    size_t n = (3u << 20) + 17;
    unsigned char *in = sample(n);
    cp_err_t err = {0};
    codec_stream_t *enc = spec.ops->encoder_create(&spec, threads, &err);
    assert_non_null(enc);
    buffer_t packed = {0};
    size_t pos = 0, piece = 1;
    while (pos < n) {
        size_t take = n - pos < piece ? n - pos : piece;
        assert_int_equal(codec_stream_process(enc, in + pos, take, false, collect, &packed, &err),
                         CP_OK);
        pos += take;
        piece = piece * 3 + 7;
    }
    assert_int_equal(codec_stream_process(enc, NULL, 0, true, collect, &packed, &err), CP_OK);
    codec_stream_free(enc);
    int rc;
    buffer_t back = decode_all(&spec, packed.data, packed.len, &rc);
    assert_int_equal(rc, CP_OK);
    assert_int_equal(back.len, n);
    assert_memory_equal(back.data, in, n);
    free(back.data);
    free(packed.data);
    free(in);
}

static void test_zstd_native(void **state) { (void)state; roundtrip_stream("zstd:3", 2); }
static void test_xz_native(void **state) { (void)state; roundtrip_stream("xz:1", 2); }
static void test_copy_native(void **state) { (void)state; roundtrip_stream("copy", 2); }

/* Corrupt or truncated data is reported, not restored silently. */
static void test_truncated_is_an_error(void **state)
{
    (void)state;
    const char *codecs[] = {"zstd:3", "xz:1"};
    for (size_t c = 0; c < 2; c++) {
        codec_spec_t spec;
        codec_parse(codecs[c], &spec, NULL);
        size_t n = 100000;
        unsigned char *in = sample(n);
        size_t cap = spec.ops->block_bound(&spec, n), len = 0;
        unsigned char *out = malloc(cap);
        cp_err_t err = {0};
        void *ctx = spec.ops->block_ctx_create(&spec, &err);
        assert_int_equal(spec.ops->compress_block(ctx, in, n, out, cap, &len, &err), CP_OK);
        int rc;
        buffer_t back = decode_all(&spec, out, len / 2, &rc);
        assert_int_not_equal(rc, CP_OK);
        free(back.data);
        back = decode_all(&spec, out, 0, &rc);
        assert_int_not_equal(rc, CP_OK);
        free(back.data);
        spec.ops->block_ctx_free(ctx);
        free(out);
        free(in);
    }
}

static void test_default_block_sizes(void **state)
{
    (void)state;
    codec_spec_t s;
    codec_parse("zstd:3", &s, NULL);
    assert_true(s.ops->default_block_size(&s) >= (size_t)4 << 21); /* 4 x 2 MiB window */
    codec_parse("zstd:19", &s, NULL);
    assert_true(s.ops->default_block_size(&s) >= (size_t)4 << 23);
    codec_parse("xz:6", &s, NULL);
    assert_true(s.ops->default_block_size(&s) >= (size_t)3 * (8u << 20)); /* 3 x 8 MiB dict */
    codec_parse("xz:9", &s, NULL);
    assert_true(s.ops->default_block_size(&s) >= (size_t)3 * (64u << 20));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_parse_invalid_lists_valid_codecs),
        cmocka_unit_test(test_parse_list),
        cmocka_unit_test(test_zstd_blocks),
        cmocka_unit_test(test_xz_blocks),
        cmocka_unit_test(test_xz_extreme_blocks),
        cmocka_unit_test(test_copy_blocks),
        cmocka_unit_test(test_zstd_native),
        cmocka_unit_test(test_xz_native),
        cmocka_unit_test(test_copy_native),
        cmocka_unit_test(test_truncated_is_an_error),
        cmocka_unit_test(test_default_block_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
