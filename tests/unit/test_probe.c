/* test_probe.c - the probe engine through its header: data generator, rows produced, and
 * nothing left in the target. (The free-space margin and file system names: test_sys.c.) */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/parse.h"
#include "common/cleanup.h"
#include "measure/pagecache.h"
#include "measure/probe.h"
#include "measure/volume.h"

static void test_random_data_is_deterministic_and_varied(void **state)
{
    (void)state;
    enum { N = 1 << 16 };
    unsigned char *a = malloc(N), *b = malloc(N), *c = malloc(N);
    probe_fill_random(a, N, 42);
    probe_fill_random(b, N, 42);
    probe_fill_random(c, N, 43);
    assert_memory_equal(a, b, N);
    assert_memory_not_equal(a, c, N);
    /* Incompressible-looking: every byte value appears, none dominates. */
    size_t counts[256] = {0};
    for (size_t i = 0; i < N; i++)
        counts[a[i]]++;
    for (int v = 0; v < 256; v++)
        if (counts[v] < N / 256 / 2 || counts[v] > N / 256 * 2)
            fail_msg("byte %d appears %zu times in %d", v, counts[v], N);
    free(a);
    free(b);
    free(c);
}

static void test_volume_of_shm_is_ram(void **state)
{
    (void)state;
    volume_info_t v;
    cp_err_t err = {0};
    if (volume_inspect("/dev/shm", &v, &err) != CP_OK || strcmp(v.fs_type, "tmpfs") != 0)
        skip(); /* no tmpfs at /dev/shm here */
    assert_true(v.is_ram);
    assert_true(v.total_bytes > 0);
    assert_string_equal(v.mount_point, "/dev/shm");
    assert_int_equal(volume_inspect("/no/such/dir", &v, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "/no/such/dir"));
}

typedef struct collected {
    probe_row_t rows[64];
    size_t n;
} collected_t;

static int collect(const probe_row_t *row, void *ctx, cp_err_t *err)
{
    (void)err;
    collected_t *c = ctx;
    if (c->n < 64)
        c->rows[c->n++] = *row;
    return CP_OK;
}

static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d != NULL)
        closedir(d);
    return n;
}

static void test_run_rows_and_cleanup(void **state)
{
    (void)state;
    char dir[] = "/tmp/cp-probe-XXXXXX";
    assert_non_null(mkdtemp(dir));
    target_spec_t t;
    cp_err_t err = {0};
    char text[64];
    snprintf(text, sizeof text, "unit=%s", dir);
    assert_int_equal(parse_target(text, &t, &err), CP_OK);

    probe_params_t p = probe_defaults();
    p.sizes[0] = 1000000;
    p.sizes[1] = 3000000;
    p.n_sizes = 2;
    p.reps = 2;
    p.seed = 7;
    collected_t c = {.n = 0};
    int rc = probe_run(&p, &t, 1, collect, &c, &err);
    if (rc != CP_OK)
        fail_msg("probe_run: %s", err.msg);
    assert_int_equal(c.n, 2 * 2 * 2); /* sizes x reps x (write, read) */
    size_t writes = 0, reads = 0;
    for (size_t i = 0; i < c.n; i++) {
        const probe_row_t *r = &c.rows[i];
        assert_string_equal(r->target, "unit");
        assert_true(r->seconds > 0);
        assert_true(r->bytes_per_s > 0);
        assert_true(r->rep == 1 || r->rep == 2);
        assert_true(r->size_bytes == 1000000 || r->size_bytes == 3000000);
        assert_int_equal(r->seed, 7);
        writes += r->op == PROBE_WRITE;
        reads += r->op == PROBE_READ;
    }
    assert_int_equal(writes, 4);
    assert_int_equal(reads, 4);
    assert_int_equal(dir_entries(dir), 0);

    /* Interrupted: stops with CP_EINTR and still leaves nothing behind. */
    cp_set_interrupted(true);
    cp_err_clear(&err);
    assert_int_equal(probe_run(&p, &t, 1, collect, &c, &err), CP_EINTR);
    cp_set_interrupted(false);
    assert_int_equal(dir_entries(dir), 0);
    rmdir(dir);
}

static void test_run_refuses_missing_target(void **state)
{
    (void)state;
    target_spec_t t;
    cp_err_t err = {0};
    assert_int_equal(parse_target("gone=/no/such/dir", &t, &err), CP_OK);
    probe_params_t p = probe_defaults();
    collected_t c = {.n = 0};
    assert_int_equal(probe_run(&p, &t, 1, collect, &c, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "gone"));
    assert_int_equal(c.n, 0);
}

/* How many of the file's pages are in the page cache, counted here with mincore(2) (not
 * with the code under test); -1 when it cannot be told. */
static long resident_pages(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return -1;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = ((size_t)st.st_size + page - 1) / page;
    unsigned char *vec = malloc(pages);
    long resident = -1;
    if (vec != NULL && mincore(map, (size_t)st.st_size, vec) == 0) {
        resident = 0;
        for (size_t i = 0; i < pages; i++)
            resident += vec[i] & 1;
    }
    free(vec);
    munmap(map, (size_t)st.st_size);
    return resident;
}

static void test_pagecache_drop_on_disk(void **state)
{
    (void)state;
    char path[] = "/tmp/cp-cache-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static unsigned char buf[1 << 20];
    probe_fill_random(buf, sizeof buf, 1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(write(fd, buf, sizeof buf), (ssize_t)sizeof buf);
    close(fd);
    volume_info_t v;
    cp_err_t err = {0};
    assert_int_equal(volume_inspect("/tmp", &v, &err), CP_OK);
    bool dropped = false;
    assert_int_equal(pagecache_drop(path, &dropped, &err), CP_OK);
    if (!v.is_ram) {
        assert_true(dropped);
        assert_true(resident_pages(path) <= 4 * (1 << 20) / 4096 / 100);
    } else {
        assert_false(dropped);
    }
    unlink(path);
    assert_int_equal(pagecache_drop(path, &dropped, &err), CP_EIO);
}

/* Every case starts uninterrupted, whatever a failed one left behind. */
static int no_interrupt(void **state)
{
    (void)state;
    cp_set_interrupted(false);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_random_data_is_deterministic_and_varied, no_interrupt),
        cmocka_unit_test_setup(test_volume_of_shm_is_ram, no_interrupt),
        cmocka_unit_test_setup(test_run_rows_and_cleanup, no_interrupt),
        cmocka_unit_test_setup(test_run_refuses_missing_target, no_interrupt),
        cmocka_unit_test_setup(test_pagecache_drop_on_disk, no_interrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
