/* test_throttle.c - the token bucket that emulates a slower volume (TARGET@RATE), for
 * writes and for reads (throttle_read). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/clock.h"
#include "measure/sink.h"
#include "measure/throttle.h"

#define MB 1000000.0

/* Passes `total` bytes in `chunk` pieces through a bucket and returns the achieved rate. */
static double measured_rate(double rate_bps, size_t total, size_t chunk)
{
    throttle_t t = throttle_make(rate_bps);
    double t0 = clock_now();
    for (size_t done = 0; done < total; done += chunk)
        throttle_wait(&t, chunk);
    return (double)total / (clock_now() - t0);
}

static void assert_within(double measured, double want, double tolerance)
{
    double err = measured / want - 1.0;
    if (err > tolerance || err < -tolerance)
        fail_msg("measured %.3f MB/s, cap %.3f MB/s: off by %.1f%% (allowed %.0f%%)",
                 measured / MB, want / MB, err * 100, tolerance * 100);
}

static void test_rate_within_5_percent(void **state)
{
    (void)state;
    /* 40 MB at 100 MB/s in 1 MiB chunks: 0.4 s. */
    assert_within(measured_rate(100 * MB, 40u << 20, 1u << 20), 100 * MB, 0.05);
}

static void test_small_chunks_same_rate(void **state)
{
    (void)state;
    /* 20 MB at 200 MB/s in 64 KiB chunks: the chunk size does not change the rate. */
    assert_within(measured_rate(200 * MB, 20u << 20, 64u << 10), 200 * MB, 0.05);
}

static void test_chunk_larger_than_a_second(void **state)
{
    (void)state;
    /* One 30 MB write at 100 MB/s takes 0.3 s, like a disk of that speed. */
    throttle_t t = throttle_make(100 * MB);
    double slept = throttle_wait(&t, 30000000);
    assert_within(slept, 0.3, 0.05);
}

static void test_idle_credit_is_capped(void **state)
{
    (void)state;
    /* After an idle second, the bucket grants at most its 50 ms burst, not a second's worth:
     * 20 MB at 50 MB/s still takes about 0.4 - 0.05 s. */
    throttle_t t = throttle_make(50 * MB);
    throttle_wait(&t, 1u << 20);
    clock_sleep(1.0);
    double t0 = clock_now();
    for (int i = 0; i < 20; i++)
        throttle_wait(&t, 1000000);
    double seconds = clock_now() - t0;
    if (seconds < 0.33 || seconds > 0.40)
        fail_msg("20 MB at 50 MB/s after idling took %.3f s; expected 0.35..0.40", seconds);
}

static void test_disabled_bucket_never_waits(void **state)
{
    (void)state;
    throttle_t t = throttle_make(0);
    double t0 = clock_now();
    for (int i = 0; i < 1000; i++)
        assert_true(throttle_wait(&t, 1u << 30) == 0.0);
    assert_true(clock_now() - t0 < 0.05);
}

static void test_capped_memory_sink(void **state)
{
    (void)state;
    /* A mem sink with a cap is an emulated volume without a disk: 30 MB at 100 MB/s. */
    sink_options_t opts = {SYNC_FSYNC, 100 * MB, "emulated"};
    cp_err_t err = {0};
    sink_t *s = sink_open_mem(&opts, &err);
    assert_non_null(s);
    static unsigned char block[1u << 20];
    double t0 = clock_now();
    for (int i = 0; i < 30; i++)
        assert_int_equal(sink_write(s, block, sizeof block, &err), CP_OK);
    assert_int_equal(sink_finish(s, &err), CP_OK);
    double seconds = clock_now() - t0;
    assert_int_equal(sink_bytes(s), 30u << 20);
    assert_within((double)(30u << 20) / seconds, 100 * MB, 0.05);
    assert_true(sink_throttle_seconds(s) > 0.25);
    sink_close(s);
}

/* A temporary file of `size` bytes (each byte its offset mod 251), open for reading at
 * its start and already unlinked, so the test leaves nothing behind. */
static int temp_file_of(size_t size)
{
    char path[] = "/tmp/cp-test-throttle.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    static unsigned char block[1u << 16];
    for (size_t done = 0; done < size;) {
        size_t chunk = size - done < sizeof block ? size - done : sizeof block;
        for (size_t i = 0; i < chunk; i++)
            block[i] = (unsigned char)((done + i) % 251);
        assert_int_equal(write(fd, block, chunk), (ssize_t)chunk);
        done += chunk;
    }
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    return fd;
}

static void test_paced_read(void **state)
{
    (void)state;
    /* 30 MB read back at 100 MB/s in 1 MiB reads: 0.3 s, every byte delivered, the wait
     * counted; the end of the file is 0 and costs nothing. */
    size_t size = 30000000;
    int fd = temp_file_of(size);
    throttle_t t = throttle_make(100 * MB);
    static unsigned char buf[1u << 20];
    double waited = 0.0, t0 = clock_now();
    size_t got = 0;
    ssize_t n;
    while ((n = throttle_read(&t, fd, buf, sizeof buf, &waited)) > 0) {
        assert_int_equal(buf[0], (unsigned char)(got % 251));
        got += (size_t)n;
    }
    double seconds = clock_now() - t0;
    assert_int_equal(n, 0);
    assert_int_equal(got, size);
    assert_within((double)size / seconds, 100 * MB, 0.05);
    if (!(waited > 0.25 && waited <= seconds))
        fail_msg("waited %.3f s of %.3f s; expected most of it", waited, seconds);
    double before = waited;
    assert_int_equal(throttle_read(&t, fd, buf, sizeof buf, &waited), 0);
    assert_true(waited == before);
    close(fd);
}

static void test_unpaced_read_and_errors(void **state)
{
    (void)state;
    /* A disabled bucket is a plain read (NULL waited_s is fine); a failed read is -1
     * with read's errno and charges nothing. */
    int fd = temp_file_of(1000);
    throttle_t t = throttle_make(0);
    unsigned char buf[4096];
    assert_int_equal(throttle_read(&t, fd, buf, sizeof buf, NULL), 1000);
    assert_int_equal(buf[999], 999 % 251);
    close(fd);
    throttle_t capped = throttle_make(MB);
    double waited = 0.0;
    errno = 0;
    assert_int_equal(throttle_read(&capped, -1, buf, sizeof buf, &waited), -1);
    assert_int_equal(errno, EBADF);
    assert_true(waited == 0.0);
    assert_int_equal(capped.started, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_within_5_percent),
        cmocka_unit_test(test_small_chunks_same_rate),
        cmocka_unit_test(test_chunk_larger_than_a_second),
        cmocka_unit_test(test_idle_credit_is_capped),
        cmocka_unit_test(test_disabled_bucket_never_waits),
        cmocka_unit_test(test_capped_memory_sink),
        cmocka_unit_test(test_paced_read),
        cmocka_unit_test(test_unpaced_read_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
