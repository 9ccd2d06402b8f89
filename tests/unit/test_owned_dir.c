/* test_owned_dir.c - directories written into by descriptor: a name swapped for a symlink
 * after the open redirects nothing, an existing file is kept without replace, a symlink is
 * never replaced, and what is refused; leftovers cleaned in the directory opened, not at
 * its path; and regular_file's refusal of a FIFO. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/owned_dir.h"
#include "common/regular_file.h"

static char base[] = "/tmp/test-owned-dir-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(base) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    return system(cmd) == 0 ? 0 : -1;
}

static void in_base(char *out, const char *name)
{
    snprintf(out, PATH_MAX, "%s/%s", base, name);
}

static void write_file(const owned_dir_t *d, const char *name, const char *text, bool replace,
                       int want)
{
    owned_file_t f;
    cp_err_t err = {0};
    assert_int_equal(owned_file_open(&f, d, name, &err), CP_OK);
    assert_int_equal(write(f.fd, text, strlen(text)), (ssize_t)strlen(text));
    assert_int_equal(owned_file_commit(&f, replace, &err), want);
    owned_file_discard(&f);
}

static void test_swapped_name_redirects_nothing(void **state)
{
    (void)state;
    char data[PATH_MAX], moved[PATH_MAX], elsewhere[PATH_MAX], path[PATH_MAX + 32];
    in_base(data, "data");
    in_base(moved, "moved");
    in_base(elsewhere, "elsewhere");
    assert_int_equal(mkdir(elsewhere, 0755), 0);
    owned_dir_t d = OWNED_DIR_INIT;
    cp_err_t err = {0};
    assert_int_equal(owned_dir_open(&d, data, true, &err), CP_OK);
    assert_true(d.made);
    /* The name now points elsewhere; the directory opened is still the one written. */
    assert_int_equal(rename(data, moved), 0);
    assert_int_equal(symlink(elsewhere, data), 0);
    write_file(&d, "points.dat", "1 2\n", true, CP_OK);
    snprintf(path, sizeof path, "%s/points.dat", moved);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(path, sizeof path, "%s/points.dat", elsewhere);
    assert_int_not_equal(access(path, F_OK), 0);
    owned_dir_close(&d);
    /* And opened again by its name, the symlink is refused. */
    assert_int_equal(owned_dir_open(&d, data, true, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "is a symlink"));
    assert_int_equal(d.fd, -1);
    /* A trailing slash, which would make the kernel follow it, changes nothing. */
    char slashed[PATH_MAX + 2];
    snprintf(slashed, sizeof slashed, "%s//", data);
    cp_err_clear(&err);
    assert_int_equal(owned_dir_open(&d, slashed, false, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "is a symlink"));
}

/* A PID that named a process which has exited. */
static long dead_pid(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    assert_true(pid > 0);
    assert_int_equal(waitpid(pid, NULL, 0), pid);
    return (long)pid;
}

/* The leftovers a dead chokepoint left are cleaned in the directory opened and checked,
 * not in whatever its path names by then: with the parent renamed and another directory
 * put at its old name, the open through the parent's descriptor cleans the directory it
 * opened (before: the one at the path, which was never checked). */
static void test_stale_cleaned_in_the_directory_opened(void **state)
{
    (void)state;
    char top[PATH_MAX], moved[PATH_MAX], path[PATH_MAX + 96], leftover[64];
    in_base(top, "stale-top");
    in_base(moved, "stale-moved");
    snprintf(path, sizeof path, "%s/sub", top);
    assert_int_equal(mkdir(top, 0755), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    owned_dir_t parent = OWNED_DIR_INIT, child = OWNED_DIR_INIT;
    cp_err_t err = {0};
    assert_int_equal(owned_dir_open(&parent, top, false, &err), CP_OK);
    assert_int_equal(rename(top, moved), 0);
    assert_int_equal(mkdir(top, 0755), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(leftover, sizeof leftover, "plot.%ld-0.chokepoint-tmp", dead_pid());
    const char *const dirs[] = {top, moved};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/sub/%s", dirs[i], leftover);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        assert_true(fd >= 0);
        close(fd);
    }
    assert_int_equal(owned_dir_open_in(&child, &parent, "sub", false, &err), CP_OK);
    snprintf(path, sizeof path, "%s/sub/%s", moved, leftover);
    assert_int_not_equal(access(path, F_OK), 0); /* cleaned: the directory opened */
    snprintf(path, sizeof path, "%s/sub/%s", top, leftover);
    assert_int_equal(access(path, F_OK), 0); /* kept: a directory never checked */
    owned_dir_close(&child);
    owned_dir_close(&parent);
}

static void test_replace_rules(void **state)
{
    (void)state;
    char top[PATH_MAX], path[PATH_MAX + 32], text[16] = "";
    in_base(top, "out");
    owned_dir_t d = OWNED_DIR_INIT;
    cp_err_t err = {0};
    assert_int_equal(owned_dir_open(&d, top, true, &err), CP_OK);
    write_file(&d, "report.md", "first", false, CP_OK);
    write_file(&d, "report.md", "second", false, CP_EUSAGE); /* kept without replace */
    snprintf(path, sizeof path, "%s/report.md", top);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "first");
    write_file(&d, "report.md", "third", true, CP_OK);
    /* A symlink in its place is never replaced, even with replace. */
    snprintf(path, sizeof path, "%s/img.png", top);
    assert_int_equal(symlink("/etc/passwd", path), 0);
    write_file(&d, "img.png", "x", true, CP_EUSAGE);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    owned_dir_close(&d);
    /* No temporary file is left behind. */
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep chokepoint-tmp)\"", top);
    assert_int_equal(system(cmd), 0);
}

static void test_writable_by_others_refused(void **state)
{
    (void)state;
    char open_dir[PATH_MAX];
    in_base(open_dir, "open");
    assert_int_equal(mkdir(open_dir, 0755), 0);
    assert_int_equal(chmod(open_dir, 0777), 0);
    owned_dir_t d = OWNED_DIR_INIT;
    cp_err_t err = {0};
    assert_int_equal(owned_dir_open(&d, open_dir, true, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "writable by other users (mode 0777)"));
    assert_int_equal(chmod(open_dir, 0755), 0);
    cp_err_clear(&err);
    assert_int_equal(owned_dir_open(&d, open_dir, false, &err), CP_OK);
    assert_false(d.made);
    owned_dir_close(&d);
}

static void test_fifo_is_not_a_regular_file(void **state)
{
    (void)state;
    char fifo[PATH_MAX], link[PATH_MAX], plain[PATH_MAX];
    in_base(fifo, "meta.json");
    in_base(link, "linked.json");
    in_base(plain, "plain.json");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    int fd = -2;
    cp_err_t err = {0};
    /* Opened without blocking: no writer is needed for the refusal. */
    assert_int_equal(regular_file_open(fifo, REGULAR_FILE_OWN, &fd, &err), CP_EDATA);
    assert_int_equal(fd, -1);
    assert_non_null(strstr(err.msg, "meta.json: is a FIFO, not a regular file"));
    FILE *f = fopen(plain, "w");
    assert_non_null(f);
    fputs("{}", f);
    fclose(f);
    assert_int_equal(symlink(plain, link), 0);
    cp_err_clear(&err);
    assert_int_equal(regular_file_open(link, REGULAR_FILE_OWN, &fd, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "is a symlink"));
    char *data = NULL;
    size_t len = 0;
    long uid = -2;
    cp_err_clear(&err);
    assert_int_equal(regular_file_read(link, REGULAR_FILE_GIVEN, &data, &len, &uid, &err), CP_OK);
    assert_int_equal(len, 2);
    assert_string_equal(data, "{}");
    assert_int_equal(uid, (long)geteuid());
    free(data);
}

/* A file of more than the bound is refused by its size, and one whose size says less than
 * it holds (as a file that grew while read: /proc/self/status says 0 bytes) when the read
 * passes the bound; the file's bytes up to the bound are read as they are. */
static void test_read_bounded(void **state)
{
    (void)state;
    char path[PATH_MAX];
    in_base(path, "bounded.json");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"a\": 12345}\n", f); /* 13 bytes */
    fclose(f);
    char *data = NULL;
    size_t len = 0;
    cp_err_t err = {0};
    assert_int_equal(regular_file_read_at_most(path, REGULAR_FILE_GIVEN, 13, &data, &len, NULL,
                                               &err), CP_OK);
    assert_int_equal(len, 13);
    assert_string_equal(data, "{\"a\": 12345}\n");
    free(data);
    assert_int_equal(regular_file_read_at_most(path, REGULAR_FILE_GIVEN, 12, &data, &len, NULL,
                                               &err), CP_EDATA);
    assert_null(data);
    assert_int_equal(len, 0);
    assert_non_null(strstr(err.msg, "bounded.json: larger than 12 bytes, the most"));
    struct stat st;
    assert_int_equal(stat("/proc/self/status", &st), 0);
    if (st.st_size == 0) {
        cp_err_clear(&err);
        assert_int_equal(regular_file_read_at_most("/proc/self/status", REGULAR_FILE_GIVEN, 64,
                                                   &data, &len, NULL, &err), CP_EDATA);
        assert_null(data);
        assert_non_null(strstr(err.msg, "/proc/self/status: larger than"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swapped_name_redirects_nothing),
        cmocka_unit_test(test_replace_rules),
        cmocka_unit_test(test_stale_cleaned_in_the_directory_opened),
        cmocka_unit_test(test_writable_by_others_refused),
        cmocka_unit_test(test_fifo_is_not_a_regular_file),
        cmocka_unit_test(test_read_bounded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
