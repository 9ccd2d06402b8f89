/* test_fixture.c - the fixture generator: determinism, chunking independence, exact
 * sizes, compressibility by kind, and the file writer's refusals and clean-up. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>
#include <zstd.h>

#include "common/cleanup.h"
#include "fixtures/fixture.h"
#include "fixtures/words.h"

static const fixture_kind_t all_kinds[] = {FIXTURE_MIXED, FIXTURE_TEXT, FIXTURE_BINARY,
                                           FIXTURE_RANDOM, FIXTURE_ZEROS};
#define KIND_COUNT (sizeof all_kinds / sizeof all_kinds[0])

static unsigned char *generate(fixture_kind_t kind, uint64_t seed, size_t len)
{
    cp_err_t err = {0};
    fixture_gen_t *g = fixture_gen_create(kind, seed, &err);
    assert_non_null(g);
    unsigned char *buf = malloc(len);
    assert_non_null(buf);
    fixture_gen_fill(g, buf, len);
    assert_int_equal(fixture_gen_position(g), len);
    fixture_gen_free(g);
    return buf;
}

static void test_kind_names_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < KIND_COUNT; i++) {
        fixture_kind_t k = FIXTURE_ZEROS;
        cp_err_t err = {0};
        assert_int_equal(fixture_kind_parse(fixture_kind_name(all_kinds[i]), &k, &err), CP_OK);
        assert_int_equal(k, all_kinds[i]);
    }
    assert_string_equal(fixture_kind_name(FIXTURE_MIXED), "mixed");
    assert_string_equal(fixture_kind_name((fixture_kind_t)99), "unknown");
}

static void test_bad_kind_is_a_usage_error(void **state)
{
    (void)state;
    fixture_kind_t k = FIXTURE_TEXT;
    cp_err_t err = {0};
    assert_int_equal(fixture_kind_parse("jpeg", &k, &err), CP_EUSAGE);
    assert_int_equal(k, FIXTURE_TEXT);
    assert_non_null(strstr(err.msg, "'jpeg'"));
    assert_non_null(strstr(err.msg, "mixed, text, binary, random or zeros"));
    cp_err_clear(&err);
    assert_int_equal(fixture_kind_parse("", &k, &err), CP_EUSAGE);
    cp_err_clear(&err);
    assert_null(fixture_gen_create((fixture_kind_t)7, 1, &err));
    assert_int_equal(err.code, CP_EUSAGE);
}

/* The stream must not depend on how it is read: one big fill, and fills of awkward
 * sizes (odd, smaller than a word, straddling stage and region boundaries) agree. */
static void test_chunking_does_not_change_the_bytes(void **state)
{
    (void)state;
    static const size_t chunks[] = {1, 7, 8, 13, 3, 4096, 65535, 65537, 1, 250000, 9, 1048577};
    const size_t total = 6u << 20; /* several mixed regions, many text/binary stages */
    for (size_t i = 0; i < KIND_COUNT; i++) {
        unsigned char *whole = generate(all_kinds[i], 42, total);
        unsigned char *pieces = malloc(total);
        assert_non_null(pieces);
        cp_err_t err = {0};
        fixture_gen_t *g = fixture_gen_create(all_kinds[i], 42, &err);
        assert_non_null(g);
        size_t done = 0;
        for (size_t c = 0; done < total; c++) {
            size_t n = chunks[c % (sizeof chunks / sizeof chunks[0])];
            if (n > total - done)
                n = total - done;
            fixture_gen_fill(g, pieces + done, n);
            done += n;
        }
        fixture_gen_fill(g, pieces, 0); /* a zero-length fill is harmless */
        assert_int_equal(fixture_gen_position(g), total);
        fixture_gen_free(g);
        if (memcmp(whole, pieces, total) != 0) {
            size_t at = 0;
            while (whole[at] == pieces[at])
                at++;
            fail_msg("kind %s: chunked bytes differ from one fill at offset %zu",
                     fixture_kind_name(all_kinds[i]), at);
        }
        free(whole);
        free(pieces);
    }
}

static void test_same_seed_same_bytes_other_seed_other_bytes(void **state)
{
    (void)state;
    const size_t len = 1u << 20;
    for (size_t i = 0; i < KIND_COUNT; i++) {
        unsigned char *a = generate(all_kinds[i], 7, len);
        unsigned char *b = generate(all_kinds[i], 7, len);
        unsigned char *c = generate(all_kinds[i], 8, len);
        assert_memory_equal(a, b, len);
        if (all_kinds[i] != FIXTURE_ZEROS)
            assert_memory_not_equal(a, c, len);
        free(a);
        free(b);
        free(c);
    }
}

/* Pins the streams themselves: these hashes are the same on every machine (the
 * generator uses only integer arithmetic and little-endian byte order). A change here
 * means every fixture ever written with that kind and seed is now different. */
static void test_streams_are_pinned(void **state)
{
    (void)state;
    static const struct {
        fixture_kind_t kind;
        uint64_t xxh64;
    } pinned[] = {
        {FIXTURE_MIXED, UINT64_C(0x900316fdc88ef377)},
        {FIXTURE_TEXT, UINT64_C(0x129166f8955608d6)},
        {FIXTURE_BINARY, UINT64_C(0xf655893a44fb54dc)},
        {FIXTURE_RANDOM, UINT64_C(0x49dee3cb4f1548c3)},
        {FIXTURE_ZEROS, UINT64_C(0x8f3422c5ab0a718b)},
    };
    const size_t len = 6u << 20;
    size_t wrong = 0;
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        unsigned char *buf = generate(pinned[i].kind, 1, len);
        uint64_t h = XXH64(buf, len, 0);
        if (h != pinned[i].xxh64) {
            print_error("%s: XXH64 of the first 6 MiB is 0x%016llx, pinned 0x%016llx\n",
                        fixture_kind_name(pinned[i].kind), (unsigned long long)h,
                        (unsigned long long)pinned[i].xxh64);
            wrong++;
        }
        free(buf);
    }
    assert_int_equal(wrong, 0);
}

/* The first 8 bytes of the random kind are xoshiro256** output, little-endian: the
 * documented definition of the stream. */
static void test_random_kind_matches_its_definition(void **state)
{
    (void)state;
    unsigned char *buf = generate(FIXTURE_RANDOM, 0, 16);
    /* splitmix64 from x = 0 ^ (1 * 0xD1B54A32D192ED03), then xoshiro256**. */
    uint64_t x = UINT64_C(0xD1B54A32D192ED03), s[4];
    for (int i = 0; i < 4; i++) {
        uint64_t z = (x += UINT64_C(0x9E3779B97F4A7C15));
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        s[i] = z ^ (z >> 31);
    }
    uint64_t m = s[1] * 5;
    uint64_t expect = ((m << 7) | (m >> 57)) * 9;
    uint64_t got = 0;
    for (int i = 7; i >= 0; i--)
        got = got << 8 | buf[i];
    assert_int_equal(got, expect);
    free(buf);
}

static double zstd3_ratio(const unsigned char *buf, size_t len)
{
    size_t cap = ZSTD_compressBound(len);
    void *out = malloc(cap);
    assert_non_null(out);
    size_t n = ZSTD_compress(out, cap, buf, len, 3);
    assert_false(ZSTD_isError(n));
    free(out);
    return (double)len / (double)n;
}

static void test_kinds_compress_as_documented(void **state)
{
    (void)state;
    const size_t len = 4u << 20;
    double ratio[FIXTURE_KIND_COUNT];
    for (size_t i = 0; i < KIND_COUNT; i++) {
        unsigned char *buf = generate(all_kinds[i], 1, len);
        ratio[all_kinds[i]] = zstd3_ratio(buf, len);
        print_message("%-6s zstd-3 ratio %.3f\n", fixture_kind_name(all_kinds[i]),
                      ratio[all_kinds[i]]);
        free(buf);
    }
    assert_true(ratio[FIXTURE_RANDOM] < 1.01);
    assert_true(ratio[FIXTURE_ZEROS] > 100);
    assert_true(ratio[FIXTURE_TEXT] > 1.5 && ratio[FIXTURE_TEXT] < 8);
    assert_true(ratio[FIXTURE_BINARY] > 1.5 && ratio[FIXTURE_BINARY] < 8);
    assert_true(ratio[FIXTURE_MIXED] > ratio[FIXTURE_RANDOM]);
    assert_true(ratio[FIXTURE_MIXED] < ratio[FIXTURE_ZEROS]);
}

static void test_text_looks_like_prose(void **state)
{
    (void)state;
    const size_t len = 1u << 20;
    unsigned char *buf = generate(FIXTURE_TEXT, 3, len);
    size_t spaces = 0, periods = 0, newlines = 0, line = 0, longest_line = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = buf[i];
        assert_true(c == '\n' || (c >= 0x20 && c < 0x7f));
        spaces += c == ' ';
        periods += c == '.';
        newlines += c == '\n';
        line = c == '\n' ? 0 : line + 1;
        if (line > longest_line)
            longest_line = line;
    }
    assert_true(buf[0] >= 'A' && buf[0] <= 'Z');
    assert_true(spaces > len / 10);
    assert_true(periods > len / 200);
    assert_true(newlines > len / 100);
    assert_true(longest_line <= 72 + FIXTURE_WORD_MAX);
    /* The most common word should be frequent, as in English. */
    size_t the = 0;
    for (size_t i = 1; i + 4 < len; i++)
        the += memcmp(buf + i, " the ", 5) == 0;
    assert_true(the > len / 200);
    free(buf);
}

static void test_binary_has_code_strings_and_padding(void **state)
{
    (void)state;
    const size_t len = 2u << 20;
    unsigned char *buf = generate(FIXTURE_BINARY, 1, len);
    size_t calls = 0, zeros = 0, longest_zero_run = 0, run = 0;
    for (size_t i = 0; i < len; i++) {
        calls += buf[i] == 0xe8;
        zeros += buf[i] == 0;
        run = buf[i] == 0 ? run + 1 : 0;
        if (run > longest_zero_run)
            longest_zero_run = run;
    }
    assert_true(calls > len / 200);
    assert_true(zeros > len / 50);
    assert_true(longest_zero_run >= 512);
    assert_non_null(memmem(buf, len, "\x55\x48\x89\xe5", 4)); /* push rbp; mov rbp, rsp */
    free(buf);
}

/* ---- fixture_write_file ---- */

typedef struct dir_fixture {
    char dir[64];
} dir_fixture_t;

static int make_dir(void **state)
{
    dir_fixture_t *d = malloc(sizeof *d);
    strcpy(d->dir, "/tmp/test_fixture.XXXXXX");
    if (mkdtemp(d->dir) == NULL)
        return -1;
    cp_set_interrupted(false);
    *state = d;
    return 0;
}

static int remove_dir(void **state)
{
    dir_fixture_t *d = *state;
    DIR *dh = opendir(d->dir);
    struct dirent *e;
    char path[512];
    while (dh != NULL && (e = readdir(dh)) != NULL) {
        if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || strcmp(e->d_name, "..") == 0))
            continue;
        snprintf(path, sizeof path, "%s/%s", d->dir, e->d_name);
        unlink(path);
    }
    if (dh != NULL)
        closedir(dh);
    rmdir(d->dir);
    free(d);
    cp_set_interrupted(false);
    return 0;
}

static size_t entries_in(const char *dir)
{
    DIR *dh = opendir(dir);
    assert_non_null(dh);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(dh);
    return n;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(*len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

static void test_write_file_has_exact_size_and_the_stream(void **state)
{
    dir_fixture_t *d = *state;
    char path[256];
    snprintf(path, sizeof path, "%s/in.bin", d->dir);
    const size_t size = (9u << 20) + 3; /* more than two write buffers, not aligned */
    cp_err_t err = {0};
    assert_int_equal(fixture_write_file(path, size, FIXTURE_MIXED, 5, false, &err), CP_OK);
    size_t len;
    unsigned char *got = read_whole(path, &len);
    assert_int_equal(len, size);
    unsigned char *want = generate(FIXTURE_MIXED, 5, size);
    assert_memory_equal(got, want, size);
    assert_int_equal(entries_in(d->dir), 1); /* no temporary file left */
    free(got);
    free(want);
}

static void test_write_file_refuses_to_overwrite_without_force(void **state)
{
    dir_fixture_t *d = *state;
    char path[256];
    snprintf(path, sizeof path, "%s/keep.txt", d->dir);
    FILE *f = fopen(path, "w");
    fputs("precious", f);
    fclose(f);
    cp_err_t err = {0};
    assert_int_equal(fixture_write_file(path, 1000, FIXTURE_TEXT, 1, false, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "--force"));
    size_t len;
    unsigned char *kept = read_whole(path, &len);
    assert_int_equal(len, 8);
    assert_memory_equal(kept, "precious", 8);
    free(kept);
    assert_int_equal(entries_in(d->dir), 1);

    cp_err_clear(&err);
    assert_int_equal(fixture_write_file(path, 1000, FIXTURE_TEXT, 1, true, &err), CP_OK);
    unsigned char *replaced = read_whole(path, &len);
    assert_int_equal(len, 1000);
    free(replaced);
    assert_int_equal(entries_in(d->dir), 1);
}

static void test_write_file_size_zero_makes_an_empty_file(void **state)
{
    dir_fixture_t *d = *state;
    char path[256];
    snprintf(path, sizeof path, "%s/empty", d->dir);
    cp_err_t err = {0};
    assert_int_equal(fixture_write_file(path, 0, FIXTURE_RANDOM, 1, false, &err), CP_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 0);
}

static void test_write_file_interrupted_leaves_nothing(void **state)
{
    dir_fixture_t *d = *state;
    char path[256];
    snprintf(path, sizeof path, "%s/cut.bin", d->dir);
    cp_set_interrupted(true);
    cp_err_t err = {0};
    assert_int_equal(fixture_write_file(path, 16u << 20, FIXTURE_RANDOM, 1, false, &err),
                     CP_EINTR);
    cp_set_interrupted(false);
    assert_int_equal(entries_in(d->dir), 0);
}

static void test_write_file_refuses_what_does_not_fit(void **state)
{
    dir_fixture_t *d = *state;
    char path[256];
    snprintf(path, sizeof path, "%s/huge.bin", d->dir);
    cp_err_t err = {0};
    assert_int_equal(fixture_write_file(path, UINT64_C(1) << 62, FIXTURE_ZEROS, 1, false, &err),
                     CP_ENOSPC);
    assert_non_null(strstr(err.msg, "volume '"));
    assert_non_null(strstr(err.msg, path));
    assert_int_equal(entries_in(d->dir), 0);
}

static void test_write_file_bad_paths_are_usage_errors(void **state)
{
    dir_fixture_t *d = *state;
    char path[256];
    cp_err_t err = {0};
    snprintf(path, sizeof path, "%s/no/such/dir/f.bin", d->dir);
    assert_int_equal(fixture_write_file(path, 10, FIXTURE_ZEROS, 1, false, &err), CP_EUSAGE);
    cp_err_clear(&err);
    assert_int_equal(fixture_write_file(d->dir, 10, FIXTURE_ZEROS, 1, true, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "directory"));
    cp_err_clear(&err);
    assert_int_equal(fixture_write_file("", 10, FIXTURE_ZEROS, 1, false, &err), CP_EUSAGE);
    assert_int_equal(entries_in(d->dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names_round_trip),
        cmocka_unit_test(test_bad_kind_is_a_usage_error),
        cmocka_unit_test(test_chunking_does_not_change_the_bytes),
        cmocka_unit_test(test_same_seed_same_bytes_other_seed_other_bytes),
        cmocka_unit_test(test_streams_are_pinned),
        cmocka_unit_test(test_random_kind_matches_its_definition),
        cmocka_unit_test(test_kinds_compress_as_documented),
        cmocka_unit_test(test_text_looks_like_prose),
        cmocka_unit_test(test_binary_has_code_strings_and_padding),
        cmocka_unit_test_setup_teardown(test_write_file_has_exact_size_and_the_stream, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_write_file_refuses_to_overwrite_without_force,
                                        make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_write_file_size_zero_makes_an_empty_file, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_write_file_interrupted_leaves_nothing, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_write_file_refuses_what_does_not_fit, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_write_file_bad_paths_are_usage_errors, make_dir,
                                        remove_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
