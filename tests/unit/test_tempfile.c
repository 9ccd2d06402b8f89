/* test_tempfile.c - the one temp-file-and-rename: names, commit with and without replace,
 * discard, and the output-path helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/dirlock.h"
#include "common/tempfile.h"

static char dir[] = "test-tempfile-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_text(tempfile_t *t, const char *text)
{
    assert_int_equal(write(t->fd, text, strlen(text)), (ssize_t)strlen(text));
}

static void read_text(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static void test_commit_without_replace(void **state)
{
    (void)state;
    char final[PATH_MAX], buf[64];
    snprintf(final, sizeof final, "%s/out.txt", dir);
    tempfile_t t = TEMPFILE_INIT;
    cp_err_t err = {0};
    assert_int_equal(tempfile_open(&t, dir, ".out.txt", 0, &err), CP_OK);
    assert_true(t.fd >= 0);
    assert_non_null(strstr(t.path, ".out.txt."));
    assert_non_null(strstr(t.path, ".chokepoint-tmp"));
    write_text(&t, "first");
    assert_int_equal(tempfile_commit(&t, final, false, &err), CP_OK);
    tempfile_discard(&t); /* keeps the committed file */
    read_text(final, buf, sizeof buf);
    assert_string_equal(buf, "first");

    /* A second file may not replace it... */
    assert_int_equal(tempfile_open(&t, dir, ".out.txt", 0, &err), CP_OK);
    char temp[PATH_MAX];
    snprintf(temp, sizeof temp, "%s", t.path);
    write_text(&t, "second");
    assert_int_equal(tempfile_commit(&t, final, false, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "use --force"));
    tempfile_discard(&t);
    assert_int_not_equal(access(temp, F_OK), 0); /* discarded */
    read_text(final, buf, sizeof buf);
    assert_string_equal(buf, "first");

    /* ...unless asked to. */
    cp_err_clear(&err);
    assert_int_equal(tempfile_open(&t, dir, ".out.txt", 0, &err), CP_OK);
    write_text(&t, "third");
    assert_int_equal(tempfile_commit(&t, final, true, &err), CP_OK);
    tempfile_discard(&t);
    read_text(final, buf, sizeof buf);
    assert_string_equal(buf, "third");
    unlink(final);
}

static int count_temporary_files(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strstr(e->d_name, ".chokepoint-tmp") != NULL;
    closedir(d);
    return n;
}

/* Commits "text" to final with replace and returns the tempfile's replaced_s. */
static double commit_replacing(const char *final, const char *text, ino_t *new_ino)
{
    tempfile_t t = TEMPFILE_INIT;
    cp_err_t err = {0};
    assert_int_equal(tempfile_open(&t, dir, ".rep.txt", 0, &err), CP_OK);
    write_text(&t, text);
    struct stat st;
    assert_int_equal(fstat(t.fd, &st), 0);
    *new_ino = st.st_ino;
    assert_int_equal(tempfile_commit(&t, final, true, &err), CP_OK);
    double replaced_s = t.replaced_s;
    tempfile_discard(&t);
    return replaced_s;
}

static void test_replace_removes_the_old_file_and_times_it(void **state)
{
    (void)state;
    char final[PATH_MAX], buf[64];
    snprintf(final, sizeof final, "%s/rep.txt", dir);
    ino_t ino;
    /* Nothing to replace: nothing removed, nothing timed. */
    assert_true(commit_replacing(final, "old", &ino) == 0.0);
    int old_fd = open(final, O_RDONLY);
    assert_true(old_fd >= 0);

    double replaced_s = commit_replacing(final, "new", &ino);
    assert_true(replaced_s > 0.0);
    struct stat st;
    assert_int_equal(stat(final, &st), 0);
    assert_int_equal(st.st_ino, ino); /* the new file, moved in whole */
    read_text(final, buf, sizeof buf);
    assert_string_equal(buf, "new");
    assert_int_equal(fstat(old_fd, &st), 0);
    assert_int_equal(st.st_nlink, 0); /* the old file is gone from every name */
    assert_int_equal(count_temporary_files(), 0);
    close(old_fd);
    unlink(final);
}

static void test_discard_is_safe_twice_and_on_nothing(void **state)
{
    (void)state;
    tempfile_t t = TEMPFILE_INIT;
    tempfile_discard(&t);
    cp_err_t err = {0};
    assert_int_equal(tempfile_open(&t, dir, "x", 0, &err), CP_OK);
    char temp[PATH_MAX];
    snprintf(temp, sizeof temp, "%s", t.path);
    assert_int_equal(access(temp, F_OK), 0);
    tempfile_discard(&t);
    tempfile_discard(&t);
    assert_int_not_equal(access(temp, F_OK), 0);
    assert_int_equal(t.fd, -1);
    assert_string_equal(t.path, "");
}

static void test_open_in_a_missing_directory(void **state)
{
    (void)state;
    tempfile_t t = TEMPFILE_INIT;
    cp_err_t err = {0};
    assert_int_equal(tempfile_open(&t, "no-such-dir-for-test-tempfile", "x", 0, &err), CP_EIO);
    assert_int_not_equal(t.open_errno, 0);
    assert_int_equal(t.fd, -1);
    assert_non_null(strstr(err.msg, "no-such-dir-for-test-tempfile"));
    tempfile_discard(&t);
}

static void test_split_path(void **state)
{
    (void)state;
    char d[PATH_MAX], b[PATH_MAX];
    assert_int_equal(tempfile_split_path("file", d, b, NULL), CP_OK);
    assert_string_equal(d, ".");
    assert_string_equal(b, "file");
    assert_int_equal(tempfile_split_path("/file", d, b, NULL), CP_OK);
    assert_string_equal(d, "/");
    assert_string_equal(b, "file");
    assert_int_equal(tempfile_split_path("a/b/file", d, b, NULL), CP_OK);
    assert_string_equal(d, "a/b");
    assert_string_equal(b, "file");
    assert_int_equal(tempfile_split_path("", d, b, NULL), CP_EUSAGE);
    assert_int_equal(tempfile_split_path("a/", d, b, NULL), CP_EUSAGE);
}

static void test_check_destination(void **state)
{
    (void)state;
    char path[PATH_MAX];
    cp_err_t err = {0};
    snprintf(path, sizeof path, "%s/new", dir);
    assert_int_equal(tempfile_check_destination(path, false, &err), CP_OK);
    assert_int_equal(tempfile_check_destination(dir, true, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "is a directory"));
    cp_err_clear(&err);
    assert_int_equal(tempfile_check_destination("no-such-dir-for-test-tempfile/x", false, &err),
                     CP_EUSAGE);
    assert_non_null(strstr(err.msg, "does not exist"));
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

static void put_file(const char *dir_path, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir_path, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("x", f);
    fclose(f);
}

static void test_temporary_directories(void **state)
{
    (void)state;
    char made[PATH_MAX], name[PATH_MAX];
    cp_err_t err = {0};
    assert_int_equal(tempfile_mkdir(dir, "study", made, &err), CP_OK);
    snprintf(name, sizeof name, "%s/study.%ld-", dir, (long)getpid());
    assert_memory_equal(made, name, strlen(name));
    assert_int_equal(tempfile_name_pid(strrchr(made, '/') + 1), (long)getpid());
    struct stat st;
    assert_int_equal(stat(made, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    tempfile_rmdir(made);
    assert_string_equal(made, "");
    assert_int_not_equal(access(name, F_OK), 0);

    /* A dead process's directory goes with the files it left; one holding something of
     * the user's stays, as does a live process's. */
    long dead = dead_pid();
    char stale[PATH_MAX], kept[PATH_MAX], live[PATH_MAX], tmp_name[64];
    snprintf(stale, sizeof stale, "%s/study.%ld-1.chokepoint-tmp", dir, dead);
    snprintf(kept, sizeof kept, "%s/study.%ld-2.chokepoint-tmp", dir, dead);
    snprintf(live, sizeof live, "%s/study.%ld-3.chokepoint-tmp", dir, (long)getppid());
    assert_int_equal(mkdir(stale, 0700) | mkdir(kept, 0700) | mkdir(live, 0700), 0);
    snprintf(tmp_name, sizeof tmp_name, ".run.%ld-7.chokepoint-tmp", dead);
    put_file(stale, tmp_name);
    put_file(stale, DIRLOCK_TARGET_NAME);
    put_file(kept, "mine.txt");
    put_file(live, tmp_name);
    assert_int_equal(tempfile_clean_stale(dir), 3); /* two files and a directory */
    assert_int_not_equal(access(stale, F_OK), 0);
    assert_int_equal(access(kept, F_OK), 0);
    assert_int_equal(access(live, F_OK), 0);
    char cmd[PATH_MAX * 2 + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", kept, live);
    assert_int_equal(system(cmd), 0);
}

/* True when another open file's flock on path would block now. */
static bool locked_elsewhere(const char *path)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    bool held = flock(fd, LOCK_EX | LOCK_NB) != 0;
    close(fd);
    return held;
}

static void test_the_lock_decides_what_is_stale(void **state)
{
    (void)state;
    /* Chokepoint's own temporary file and directory are locked while they are ones, the
     * file even after the caller closed its descriptor. */
    tempfile_t t = TEMPFILE_INIT;
    cp_err_t err = {0};
    assert_int_equal(tempfile_open(&t, dir, "held", 0, &err), CP_OK);
    close(t.fd);
    t.fd = -1;
    assert_true(locked_elsewhere(t.path));
    tempfile_discard(&t);
    char made[PATH_MAX], lock[PATH_MAX + 32];
    assert_int_equal(tempfile_mkdir(dir, "held", made, &err), CP_OK);
    snprintf(lock, sizeof lock, "%s/%s", made, TEMPFILE_DIR_LOCK);
    assert_true(locked_elsewhere(lock));
    tempfile_rmdir(made);
    assert_int_not_equal(access(lock, F_OK), 0);

    /* Leftovers named after a PID that names no process, whose locks a live process holds
     * (as one in another PID namespace would): kept until the locks are free. */
    long dead = dead_pid();
    char file[PATH_MAX], sub[PATH_MAX], sub_lock[PATH_MAX + 32];
    snprintf(file, sizeof file, "%s/rows.%ld-1.chokepoint-tmp", dir, dead);
    snprintf(sub, sizeof sub, "%s/study.%ld-2.chokepoint-tmp", dir, dead);
    assert_int_equal(mkdir(sub, 0700), 0);
    put_file(dir, strrchr(file, '/') + 1);
    put_file(sub, DIRLOCK_TARGET_NAME);
    snprintf(sub_lock, sizeof sub_lock, "%s/%s", sub, DIRLOCK_TARGET_NAME);
    int hold_file = open(file, O_RDONLY), hold_dir = open(sub_lock, O_RDONLY);
    assert_int_equal(flock(hold_file, LOCK_EX) | flock(hold_dir, LOCK_EX), 0);
    assert_int_equal(tempfile_clean_stale(dir), 0);
    assert_int_equal(access(file, F_OK) | access(sub_lock, F_OK), 0);
    close(hold_file);
    close(hold_dir);
    assert_int_equal(tempfile_clean_stale(dir), 3); /* the file, the lock and the directory */
    assert_int_not_equal(access(file, F_OK), 0);
    assert_int_not_equal(access(sub, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit_without_replace),
        cmocka_unit_test(test_replace_removes_the_old_file_and_times_it),
        cmocka_unit_test(test_discard_is_safe_twice_and_on_nothing),
        cmocka_unit_test(test_open_in_a_missing_directory),
        cmocka_unit_test(test_split_path),
        cmocka_unit_test(test_check_destination),
        cmocka_unit_test(test_temporary_directories),
        cmocka_unit_test(test_the_lock_decides_what_is_stale),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
