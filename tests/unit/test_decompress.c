/* Decompression: an archive made with its frame table restores byte for byte through the
 * parallel decoder (to a file and to memory), at every thread count and at the block
 * boundaries; a truncated archive or a wrong table is an error, not a short result; the
 * archive module leaves nothing on the target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/cleanup.h"
#include "measure/archive.h"
#include "measure/compress_job.h"
#include "measure/pipeline.h"
#include "measure/verify.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    cp_set_interrupted(false);
    snprintf(dir, sizeof dir, "%s/cp-decompress-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static int count_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* n bytes, some random 4 KiB blocks and some compressible ones. */
static void write_input(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        fputc((i / 4096) % 3 == 0 ? (int)(x & 0xff) : (int)('a' + (x % 7)), f);
    }
    fclose(f);
}

static int files_equal(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa != NULL && fb != NULL;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Compresses in to path with the blocks engine, recording its frames. */
static void make_archive(const char *in, const char *path, const char *codec, size_t bs,
                         pipeline_frames_t *frames)
{
    compress_job_t job = compress_job_defaults();
    job.pipeline.input_path = in;
    assert_int_equal(codec_parse(codec, &job.pipeline.codec, NULL), CP_OK);
    job.pipeline.threads = 2;
    job.pipeline.block_size = bs;
    job.pipeline.record_frames = frames;
    job.output_path = path;
    compress_record_t rec;
    cp_err_t err = {0};
    if (compress_job_run(&job, &rec, &err) != CP_OK)
        fail_msg("%s: %s", codec, err.msg);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(frames->packed_total, (uint64_t)st.st_size);
    assert_int_equal(frames->unpacked_total, rec.run.input_bytes);
}

/* Restores archive into out with T decoder threads; returns the job's code. */
static int restore(const char *archive, const char *out, const char *codec, int threads,
                   const pipeline_frames_t *frames, compress_record_t *rec, cp_err_t *err)
{
    compress_job_t job = compress_job_defaults();
    job.pipeline.input_path = archive;
    assert_int_equal(codec_parse(codec, &job.pipeline.codec, NULL), CP_OK);
    job.pipeline.threads = threads;
    job.pipeline.frames = frames;
    job.output_path = out;
    job.force = true;
    return compress_job_run(&job, rec, err);
}

static void test_restores_byte_for_byte(void **state)
{
    (void)state;
    const size_t bs = 64 * 1024;
    const size_t sizes[] = {0, 1, bs - 1, bs, bs + 1, 23 * bs + 77};
    const char *codecs[] = {"zstd:3", "xz:1", "copy"};
    const int threads[] = {1, 2, 7};
    char in[300], archive[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(archive, sizeof archive, "%s/in.archive", dir);
    snprintf(out, sizeof out, "%s/restored", dir);
    for (size_t c = 0; c < 3; c++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            write_input(in, sizes[i]);
            pipeline_frames_t frames = {0};
            make_archive(in, archive, codecs[c], bs, &frames);
            /* The blocks engine writes one frame per block (one, empty, for no input). */
            assert_int_equal(frames.n, sizes[i] == 0 ? 1 : (sizes[i] + bs - 1) / bs);
            for (size_t t = 0; t < 3; t++) {
                compress_record_t rec;
                cp_err_t err = {0};
                if (restore(archive, out, codecs[c], threads[t], &frames, &rec, &err) != CP_OK)
                    fail_msg("%s n=%zu T=%d: %s", codecs[c], sizes[i], threads[t], err.msg);
                assert_true(rec.decompress);
                /* Counted on the uncompressed side: restored bytes in, archive out. */
                assert_int_equal(rec.run.input_bytes, sizes[i]);
                assert_int_equal(rec.run.output_bytes, frames.packed_total);
                assert_true(files_equal(in, out));
                unlink(out);
            }
            pipeline_frames_free(&frames);
            unlink(archive);
        }
    unlink(in);
    assert_int_equal(count_entries(), 0);
}

static void test_truncated_archive_or_wrong_table_fails(void **state)
{
    (void)state;
    char in[300], archive[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(archive, sizeof archive, "%s/a", dir);
    snprintf(out, sizeof out, "%s/restored", dir);
    write_input(in, 10 * 65536 + 5);
    pipeline_frames_t frames = {0};
    make_archive(in, archive, "zstd:1", 65536, &frames);

    /* A table that says frame 3 restores to one byte more than it does. */
    frames.unpacked[2]++;
    compress_record_t rec;
    cp_err_t err = {0};
    assert_int_not_equal(restore(archive, out, "zstd:1", 2, &frames, &rec, &err), CP_OK);
    assert_non_null(strstr(err.msg, "frame 3"));
    assert_int_not_equal(access(out, F_OK), 0); /* nothing half-written */
    frames.unpacked[2]--;

    /* The archive cut inside its last frame. */
    struct stat st;
    assert_int_equal(stat(archive, &st), 0);
    assert_int_equal(truncate(archive, st.st_size - 3), 0);
    cp_err_clear(&err);
    assert_int_not_equal(restore(archive, out, "zstd:1", 2, &frames, &rec, &err), CP_OK);
    assert_non_null(strstr(err.msg, "ends inside frame"));
    assert_int_not_equal(access(out, F_OK), 0);

    /* A frame table of the wrong codec: the decoder says the data is not its own. */
    assert_int_equal(truncate(archive, st.st_size), 0);
    cp_err_clear(&err);
    assert_int_not_equal(restore(archive, out, "xz:1", 1, &frames, &rec, &err), CP_OK);
    pipeline_frames_free(&frames);
}

/* archive_make on a directory leaves one temporary file while open and none after; in
 * memory it leaves none at all; both restore to the input's hash (checked inside). */
static void test_archive_on_target_and_in_memory(void **state)
{
    (void)state;
    char in[300], tdir[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(tdir, sizeof tdir, "%s/t", dir);
    assert_int_equal(mkdir(tdir, 0755), 0);
    write_input(in, 3 * 1024 * 1024 + 11);
    uint64_t hash, bytes;
    assert_int_equal(verify_hash_file(in, &hash, &bytes, NULL), CP_OK);
    codec_spec_t codec;
    assert_int_equal(codec_parse("xz:0", &codec, NULL), CP_OK);

    target_spec_t t, mem;
    assert_int_equal(target_init_dir(&t, "t", tdir, NULL), CP_OK);
    target_init_mem(&mem);
    archive_t a, m;
    cp_err_t err = {0};
    assert_int_equal(archive_make(in, bytes, hash, &codec, 2, 256 * 1024, &t, &a, &err), CP_OK);
    assert_int_equal(archive_make(in, bytes, hash, &codec, 2, 256 * 1024, &mem, &m, &err), CP_OK);
    assert_int_equal(a.frames.n, 13);
    assert_int_equal(m.frames.packed_total, a.frames.packed_total);
    struct stat st;
    assert_int_equal(stat(a.path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, a.frames.packed_total);
    assert_int_equal(stat(m.path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, m.frames.packed_total);
    assert_int_equal(strncmp(a.path, tdir, strlen(tdir)), 0);

    /* A wrong expected hash: the check refuses the archive and removes it. */
    archive_t bad;
    assert_int_equal(archive_make(in, bytes, hash ^ 1, &codec, 1, 256 * 1024, &t, &bad, &err),
                     CP_EVERIFY);
    assert_non_null(strstr(err.msg, "target 't'"));

    archive_close(&a);
    archive_close(&m);
    DIR *d = opendir(tdir);
    struct dirent *e;
    int left = 0;
    while ((e = readdir(d)) != NULL)
        left += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(left, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_restores_byte_for_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truncated_archive_or_wrong_table_fails, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive_on_target_and_in_memory, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
