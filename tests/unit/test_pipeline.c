/* The pipeline: ordered output whatever the thread count, block boundaries, empty and tiny
 * inputs, both engines, stage accounting, interrupts and the compress job's file care; and
 * backwards, decompression: an archive made with its frame table restores byte for byte
 * through the parallel decoder at every thread count and block boundary, a truncated
 * archive or a wrong table is an error, not a short result, and the archive module leaves
 * nothing on the target. */
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
#include "measure/codec_job.h"
#include "measure/pipeline.h"
#include "measure/verify.h"

/* clang names its sanitizers through __has_feature, gcc through __SANITIZE_*__. */
#if defined(__has_feature)
#define UNDER_CLANG_TSAN __has_feature(thread_sanitizer)
#define UNDER_CLANG_ASAN __has_feature(address_sanitizer)
#else
#define UNDER_CLANG_TSAN 0
#define UNDER_CLANG_ASAN 0
#endif

static char dir[256];

/* Per test: a fresh directory of its own (mkdtemp: parallel runs cannot collide) and the
 * interrupt flag cleared, so one failing case cannot cascade into the next. */
static int setup(void **state)
{
    (void)state;
    cp_set_interrupted(false);
    snprintf(dir, sizeof dir, "%s/cp-pipeline-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

/* Entries of path that are not hidden, or are temporary files. */
static int count_entries(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.' || strstr(e->d_name, "chokepoint-tmp") != NULL;
    closedir(d);
    return n;
}

/* Writes n deterministic bytes (each 4 KiB block distinct) to dir/name. */
static void write_input(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        fputc((i / 4096) % 3 == 0 ? (int)(x & 0xff) : (int)('a' + (x % 5)), f);
    }
    fclose(f);
}

/* Compresses input with the given settings, keeps the output, verifies the round trip. */
static void check_roundtrip(const char *codec, pipeline_engine_t engine, int threads,
                            size_t input_size, size_t block_size)
{
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    write_input(in, input_size);
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = in;
    assert_int_equal(codec_parse(codec, &job.pipeline.codec, NULL), CP_OK);
    job.pipeline.engine = engine;
    job.pipeline.threads = threads;
    job.pipeline.block_size = block_size;
    job.output_path = out;
    job.verify = true;
    compress_record_t rec;
    cp_err_t err = {0};
    int rc = codec_job_run(&job, &rec, &err);
    if (rc != CP_OK)
        fail_msg("%s %s T=%d n=%zu: %s", codec, pipeline_engine_name(engine), threads, input_size,
                 err.msg);
    assert_int_equal(rec.verified, 1);
    assert_int_equal(rec.run.input_bytes, input_size);
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal((uint64_t)st.st_size, rec.run.output_bytes);
    /* The stages' accounts add up: the reader and the writer are one thread each and live
     * within the run, the compressors' figures are summed over their threads (the native
     * engine: one thread driving the library). 10 ms for the clock reads around them. */
    const pipeline_result_t *r = &rec.run;
    int compressors = engine == PIPELINE_NATIVE ? 1 : threads;
    assert_true(r->reader.busy_s + r->reader.wait_s <= r->pipeline_s + 0.01);
    assert_true(r->writer.busy_s + r->writer.wait_s <= r->pipeline_s + 0.01);
    assert_true(r->compress.busy_s + r->compress.wait_s <= compressors * r->pipeline_s + 0.01);
    assert_true(r->compress.busy_s > 0 || input_size == 0 || strcmp(codec, "copy") == 0);
    /* Writing a file costs the writer time; an empty output costs it nothing. */
    assert_true(r->output_bytes == 0 ? r->writer.busy_s < 0.01 : r->writer.busy_s > 0);
    unlink(out);
    unlink(in);
}

/* More threads than blocks, block boundaries exact and off by one, tiny and empty inputs. */
static void test_blocks_engine_orders_output(void **state)
{
    (void)state;
    const size_t bs = 64 * 1024;
    const size_t sizes[] = {0, 1, bs - 1, bs, bs + 1, 5 * bs, 37 * bs + 123};
    const int threads[] = {1, 2, 8};
    for (size_t t = 0; t < 3; t++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            check_roundtrip("zstd:1", PIPELINE_BLOCKS, threads[t], sizes[i], bs);
            check_roundtrip("xz:0", PIPELINE_BLOCKS, threads[t], sizes[i], bs);
            check_roundtrip("copy", PIPELINE_BLOCKS, threads[t], sizes[i], bs);
        }
    assert_int_equal(count_entries(dir), 0);
}

static void test_native_engine_roundtrips(void **state)
{
    (void)state;
    const size_t bs = 64 * 1024;
    const size_t sizes[] = {0, 1, bs, 3 * bs + 5, (2u << 20) + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        check_roundtrip("zstd:1", PIPELINE_NATIVE, 2, sizes[i], bs);
        check_roundtrip("xz:0", PIPELINE_NATIVE, 2, sizes[i], bs);
        check_roundtrip("copy", PIPELINE_NATIVE, 1, sizes[i], bs);
    }
}

/* Memory stays bounded: the slot ring, not the input, decides the peak. The input is 40
 * blocks; at most 2T+2 = 6 may be held, so the run must still work with a tight ring. */
static void test_block_count_and_memory_sink(void **state)
{
    (void)state;
    char in[300];
    snprintf(in, sizeof in, "%s/in", dir);
    write_input(in, 40 * 4096);
    pipeline_params_t p = pipeline_defaults();
    p.input_path = in;
    p.threads = 2;
    p.block_size = 4096;
    sink_options_t opts = {SYNC_NONE, 0, NULL};
    sink_t *sink = sink_open_mem(&opts, NULL);
    pipeline_result_t r;
    cp_err_t err = {0};
    assert_int_equal(pipeline_run(&p, sink, &r, &err), CP_OK);
    assert_int_equal(r.blocks, 41); /* 40 full blocks and the empty read that ends the input */
    assert_int_equal(sink_bytes(sink), r.output_bytes);
    sink_close(sink);
    unlink(in);
}

static void test_interrupt_leaves_nothing(void **state)
{
    (void)state;
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    write_input(in, 1 << 20);
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = in;
    job.pipeline.threads = 2;
    job.pipeline.block_size = 65536;
    job.output_path = out;
    cp_set_interrupted(true);
    compress_record_t rec;
    cp_err_t err = {0};
    assert_int_equal(codec_job_run(&job, &rec, &err), CP_EINTR);
    cp_set_interrupted(false);
    unlink(in);
    assert_int_equal(count_entries(dir), 0);
}

static void test_existing_output_is_refused_and_kept(void **state)
{
    (void)state;
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    write_input(in, 10000);
    FILE *f = fopen(out, "w");
    fputs("precious", f);
    fclose(f);
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = in;
    job.output_path = out;
    compress_record_t rec;
    cp_err_t err = {0};
    assert_int_equal(codec_job_run(&job, &rec, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "--force"));
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_size, 8);
    job.force = true;
    cp_err_clear(&err);
    assert_int_equal(codec_job_run(&job, &rec, &err), CP_OK);
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal((uint64_t)st.st_size, rec.run.output_bytes);
    unlink(in);
    unlink(out);
    assert_int_equal(count_entries(dir), 0);
}

static void test_verify_detects_a_wrong_output(void **state)
{
    (void)state;
    char in[300], other[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    write_input(in, 50000);
    write_input(other, 50001);
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = other;
    job.output_path = out;
    compress_record_t rec;
    assert_int_equal(codec_job_run(&job, &rec, NULL), CP_OK);
    verify_result_t v;
    cp_err_t err = {0};
    assert_int_equal(verify_roundtrip(in, out, &job.pipeline.codec, &v, &err), CP_OK);
    assert_false(v.match);
    assert_int_equal(verify_roundtrip(other, out, &job.pipeline.codec, &v, &err), CP_OK);
    assert_true(v.match);
    unlink(in);
    unlink(other);
    unlink(out);
}

/* --verify finding a mismatch through codec_job_run: a codec that compresses with zstd
 * but "decompresses" with copy restores the compressed bytes, never the input. The job
 * fails with CP_EVERIFY (exit 1), records verified = 0, and leaves no output and no
 * temporary file. */
static void test_verify_mismatch_fails_and_removes_output(void **state)
{
    (void)state;
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    write_input(in, 200000);
    static codec_ops_t broken;
    broken = codec_zstd;
    broken.decoder_create = codec_copy.decoder_create;
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = in;
    job.pipeline.codec.ops = &broken;
    job.pipeline.codec.level = 3;
    job.output_path = out;
    job.verify = true;
    compress_record_t rec;
    cp_err_t err = {0};
    assert_int_equal(codec_job_run(&job, &rec, &err), CP_EVERIFY);
    assert_int_equal(rec.verified, 0);
    assert_non_null(strstr(err.msg, "verification failed"));
    unlink(in);
    assert_int_equal(count_entries(dir), 0);
}

/* A "Name:   123 kB" line of /proc/self/status, in KiB; -1 when missing. */
static long status_kib(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, name, strlen(name)) == 0)
            kib = strtol(line + strlen(name), NULL, 10);
    fclose(f);
    return kib;
}

/* Memory stays bounded by the ring, measured: a 512 MiB sparse input through copy into
 * memory at T = 2. The ring holds 2T+2 slots, each a 4 MiB input block and an output buffer
 * of the codec's bound (copy has no memory of its own beyond it), so the peak RSS may grow
 * by the ring and 16 MiB for the program (its stacks, stdio, telemetry and the allocator's
 * own); half as much again under AddressSanitizer (its shadow and redzones). Holding the
 * input, or a ring twice as long (about 74 MiB here against 65), exceeds that. Under ThreadSanitizer (scripts/tsan-pipeline.sh, which looks
 * for races) the bound is not judged: its shadow is several times the memory and its
 * reports take their own. Runs first, so earlier cases do not set the peak. */
static void test_memory_bounded_by_the_ring(void **state)
{
    (void)state;
    char in[300];
    snprintf(in, sizeof in, "%s/sparse", dir);
    FILE *f = fopen(in, "wb");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), 1L << 29), 0);
    fclose(f);
    /* The peak since now: "5" into clear_refs resets VmHWM to the current RSS (Linux 4.0+).
     * Without it there is no peak of this run alone (getrusage's ru_maxrss is the whole
     * process's life, which earlier allocations may have set): the check is skipped. */
    FILE *clear = fopen("/proc/self/clear_refs", "w");
    bool reset = clear != NULL && fputs("5", clear) >= 0;
    if (clear != NULL && fclose(clear) != 0)
        reset = false;
#if defined(__SANITIZE_THREAD__) || UNDER_CLANG_TSAN
    reset = false;
#endif
    long before_kib = reset ? status_kib("VmRSS:") : -1;
    if (before_kib < 0) {
        unlink(in);
        print_message("skipped: no peak RSS of this run alone here (cannot reset VmHWM through "
                      "/proc/self/clear_refs, or no VmRSS in /proc/self/status, or under "
                      "ThreadSanitizer)\n");
        skip();
    }
    pipeline_params_t p = pipeline_defaults();
    p.input_path = in;
    p.threads = 2;
    p.block_size = 4 << 20;
    assert_int_equal(codec_parse("copy", &p.codec, NULL), CP_OK);
    sink_options_t opts = {SYNC_NONE, 0, NULL};
    sink_t *sink = sink_open_mem(&opts, NULL);
    pipeline_result_t res;
    cp_err_t err = {0};
    assert_int_equal(pipeline_run(&p, sink, &res, &err), CP_OK);
    sink_close(sink);
    unlink(in);
    assert_int_equal(res.input_bytes, 1u << 29);
    long peak_kib = status_kib("VmHWM:");
    assert_true(peak_kib >= 0);
    long grown_kib = peak_kib - before_kib;
    size_t slots = 2 * 2 + 2; /* 2T+2 at T = 2 */
    size_t ring = slots * (p.block_size + p.codec.ops->block_bound(&p.codec, p.block_size));
    long allowed_kib = (long)((ring + ((size_t)16 << 20)) / 1024);
#if defined(__SANITIZE_ADDRESS__) || UNDER_CLANG_ASAN
    allowed_kib = allowed_kib * 3 / 2;
#endif
    print_message("peak RSS grew %ld KiB for a 512 MiB input (VmHWM reset first), at most "
                  "%ld KiB allowed: a ring of %zu slots, %zu KiB each, and 16 MiB\n",
                  grown_kib, allowed_kib, slots,
                  (size_t)(p.block_size + p.codec.ops->block_bound(&p.codec, p.block_size)) / 1024);
    assert_true(grown_kib <= allowed_kib);
}

/* ---- decompression ---- */

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

/* The input, its archive and the restored copy, in the test's directory (300 bytes each). */
static void round_trip_paths(char *in, char *archive, char *out)
{
    snprintf(in, 300, "%s/in", dir);
    snprintf(archive, 300, "%s/in.archive", dir);
    snprintf(out, 300, "%s/restored", dir);
}

/* Compresses in to path with the blocks engine, recording its frames. */
static void make_archive(const char *in, const char *path, const char *codec, size_t bs,
                         pipeline_frames_t *frames)
{
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = in;
    assert_int_equal(codec_parse(codec, &job.pipeline.codec, NULL), CP_OK);
    job.pipeline.threads = 2;
    job.pipeline.block_size = bs;
    job.pipeline.record_frames = frames;
    job.output_path = path;
    compress_record_t rec;
    cp_err_t err = {0};
    if (codec_job_run(&job, &rec, &err) != CP_OK)
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
    codec_job_t job = codec_job_defaults();
    job.pipeline.input_path = archive;
    assert_int_equal(codec_parse(codec, &job.pipeline.codec, NULL), CP_OK);
    job.pipeline.threads = threads;
    job.pipeline.frames = frames;
    job.output_path = out;
    job.force = true;
    return codec_job_run(&job, rec, err);
}

static void test_restores_byte_for_byte(void **state)
{
    (void)state;
    const size_t bs = 64 * 1024;
    const size_t sizes[] = {0, 1, bs - 1, bs, bs + 1, 23 * bs + 77};
    const char *codecs[] = {"zstd:3", "xz:1", "copy"};
    const int threads[] = {1, 2, 7};
    char in[300], archive[300], out[300];
    round_trip_paths(in, archive, out);
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
    assert_int_equal(count_entries(dir), 0);
}

/* The native engine both ways: the library's multi-threaded encoder writes one stream
 * (xz: blocks with their sizes in the headers), and its streaming decoder restores it with
 * T threads, byte for byte; a restored size other than the expected one fails the run. */
static void test_native_restores_byte_for_byte(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, (1 << 20) + 77, 7 << 20};
    const char *codecs[] = {"zstd:3", "xz:1", "copy"};
    const int threads[] = {1, 2, 4};
    char in[300], archive[300], out[300];
    round_trip_paths(in, archive, out);
    for (size_t c = 0; c < 3; c++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            write_input(in, sizes[i]);
            codec_job_t make = codec_job_defaults();
            make.pipeline.input_path = in;
            assert_int_equal(codec_parse(codecs[c], &make.pipeline.codec, NULL), CP_OK);
            make.pipeline.engine = PIPELINE_NATIVE;
            make.pipeline.threads = 2;
            make.output_path = archive;
            compress_record_t rec;
            cp_err_t err = {0};
            if (codec_job_run(&make, &rec, &err) != CP_OK)
                fail_msg("%s: %s", codecs[c], err.msg);
            uint64_t archive_bytes = rec.run.output_bytes;
            for (size_t t = 0; t < 3; t++) {
                codec_job_t job = codec_job_defaults();
                job.pipeline.input_path = archive;
                job.pipeline.codec = make.pipeline.codec;
                job.pipeline.engine = PIPELINE_NATIVE;
                job.pipeline.decompress = true;
                job.pipeline.threads = threads[t];
                job.restores_bytes = sizes[i];
                job.output_path = out;
                job.force = true;
                err = (cp_err_t){0};
                if (codec_job_run(&job, &rec, &err) != CP_OK)
                    fail_msg("%s n=%zu T=%d: %s", codecs[c], sizes[i], threads[t], err.msg);
                assert_true(rec.decompress);
                assert_int_equal(rec.run.input_bytes, sizes[i]);
                assert_int_equal(rec.run.output_bytes, archive_bytes);
                assert_true(files_equal(in, out));
                unlink(out);
                if (sizes[i] > 0 && t == 1) { /* told another size: an error, nothing kept */
                    job.restores_bytes = sizes[i] + 1;
                    err = (cp_err_t){0};
                    assert_int_equal(codec_job_run(&job, &rec, &err), CP_ECODEC);
                    assert_non_null(strstr(err.msg, "not the input's"));
                    assert_int_equal(access(out, F_OK), -1);
                }
                if (archive_bytes > 0 && t == 2) { /* whole pieces, then an empty last one */
                    job.restores_bytes = sizes[i];
                    job.pipeline.block_size = archive_bytes;
                    err = (cp_err_t){0};
                    if (codec_job_run(&job, &rec, &err) != CP_OK)
                        fail_msg("%s n=%zu, one piece: %s", codecs[c], sizes[i], err.msg);
                    assert_true(files_equal(in, out));
                    unlink(out);
                }
            }
            if (sizes[i] > (1u << 20) && strcmp(codecs[c], "copy") != 0) {
                /* Cut in half: the decoder itself says so, whatever size was expected. */
                assert_int_equal(truncate(archive, (off_t)(archive_bytes / 2)), 0);
                codec_job_t job = codec_job_defaults();
                job.pipeline.input_path = archive;
                job.pipeline.codec = make.pipeline.codec;
                job.pipeline.engine = PIPELINE_NATIVE;
                job.pipeline.decompress = true;
                job.pipeline.threads = 2;
                job.discard = true;
                err = (cp_err_t){0};
                int got = codec_job_run(&job, &rec, &err);
                assert_true(got == CP_ECODEC || got == CP_EVERIFY); /* corrupt / cut short */
                assert_non_null(strstr(err.msg, make.pipeline.codec.ops->name));
            }
            unlink(archive);
        }
    unlink(in);
    assert_int_equal(count_entries(dir), 0);
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
    assert_int_equal(archive_make(in, bytes, hash, &codec, PIPELINE_BLOCKS, 2, 256 * 1024, &t, 0, &a, &err), CP_OK);
    assert_int_equal(archive_make(in, bytes, hash, &codec, PIPELINE_BLOCKS, 2, 256 * 1024, &mem, 0, &m, &err), CP_OK);
    assert_int_equal(a.frames.n, 13);
    assert_int_equal(m.frames.packed_total, a.frames.packed_total);
    struct stat st;
    assert_int_equal(stat(a.path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, a.frames.packed_total);
    assert_int_equal(stat(m.path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, m.frames.packed_total);
    assert_int_equal(strncmp(a.path, tdir, strlen(tdir)), 0);

    /* The native engine's archive: one stream, its totals but no frame table, checked
     * through the native decoder. */
    archive_t n;
    assert_int_equal(archive_make(in, bytes, hash, &codec, PIPELINE_NATIVE, 2, 0, &mem, 0, &n, &err),
                     CP_OK);
    assert_int_equal(n.frames.n, 0);
    assert_int_equal(n.frames.unpacked_total, bytes);
    assert_int_equal(stat(n.path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, n.frames.packed_total);
    archive_close(&n);

    /* A wrong expected hash: the check refuses the archive and removes it. */
    archive_t bad;
    assert_int_equal(archive_make(in, bytes, hash ^ 1, &codec, PIPELINE_BLOCKS, 1, 256 * 1024, &t, 0, &bad, &err),
                     CP_EVERIFY);
    assert_non_null(strstr(err.msg, "target 't'"));
    /* The mem target's archive past its share of the memory limit: refused, saying how to
     * make room. */
    cp_err_clear(&err);
    assert_int_equal(archive_make(in, bytes, hash, &codec, PIPELINE_BLOCKS, 1, 256 * 1024, &mem, 64 * 1024, &bad,
                                  &err),
                     CP_ENOMEM);
    assert_non_null(strstr(err.msg, "--max-memory"));
    /* ... with the room it needed: the whole archive, compressed to the end. */
    assert_int_equal(bad.ram_needed, m.frames.packed_total);

    archive_close(&a);
    archive_close(&m);
    assert_int_equal(count_entries(tdir), 0);
}

/* The RAM file keeps what was written, readable by path; past its limit it keeps nothing
 * more but counts on, and its finish fails saying how much the whole file needed. */
static void test_ram_file_sink(void **state)
{
    (void)state;
    sink_options_t opts = {SYNC_FSYNC, 0, "mem"};
    cp_err_t err = {0};
    sink_t *s = sink_open_ram("test", &opts, 10, &err);
    assert_non_null(s);
    assert_int_equal(sink_write(s, "0123456", 7, &err), CP_OK);
    assert_int_equal(sink_write(s, "789", 3, &err), CP_OK);
    assert_false(sink_limit_reached(s));
    assert_int_equal(sink_write(s, "XY", 2, &err), CP_OK);
    assert_true(sink_limit_reached(s));
    assert_int_equal(sink_write(s, "Z", 1, &err), CP_OK);
    assert_int_equal(sink_bytes(s), 13);
    assert_int_equal(sink_finish(s, &err), CP_ENOMEM);
    FILE *f = fopen(sink_temp_path(s), "rb");
    assert_non_null(f);
    char buf[16] = {0};
    assert_int_equal(fread(buf, 1, sizeof buf, f), 10);
    fclose(f);
    assert_string_equal(buf, "0123456789");
    sink_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_memory_bounded_by_the_ring, setup, teardown),
        cmocka_unit_test_setup_teardown(test_restores_byte_for_byte, setup, teardown),
        cmocka_unit_test_setup_teardown(test_native_restores_byte_for_byte, setup, teardown),
        cmocka_unit_test(test_ram_file_sink),
        cmocka_unit_test_setup_teardown(test_truncated_archive_or_wrong_table_fails, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_archive_on_target_and_in_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blocks_engine_orders_output, setup, teardown),
        cmocka_unit_test_setup_teardown(test_native_engine_roundtrips, setup, teardown),
        cmocka_unit_test_setup_teardown(test_block_count_and_memory_sink, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupt_leaves_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_existing_output_is_refused_and_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify_detects_a_wrong_output, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verify_mismatch_fails_and_removes_output, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
