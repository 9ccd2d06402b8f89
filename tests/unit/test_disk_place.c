/* test_disk_place.c - the emulated disk's private directory: which directories may hold
 * one, making it, finding a dead process's again by its lock, and removing only what its
 * record names (no loop device or mount needed: those parts are root's, in
 * tests/cli/test_trust_root.sh). */
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
#include <unistd.h>

#include "measure/disk_place.h"

static char dir[] = "test-disk-place-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_directories_others_can_write_are_refused(void **state)
{
    (void)state;
    char open_dir[PATH_MAX], sub[PATH_MAX], sticky[PATH_MAX];
    snprintf(open_dir, sizeof open_dir, "%s/open", dir);
    snprintf(sub, sizeof sub, "%s/open/sub", dir);
    snprintf(sticky, sizeof sticky, "%s/sticky", dir);
    assert_int_equal(mkdir(open_dir, 0755) | mkdir(sub, 0755) | mkdir(sticky, 0755), 0);
    int fd = -1;
    cp_err_t err = {0};
    assert_int_equal(disk_place_check(sub, &fd, &err), CP_OK);
    assert_true(fd >= 0);
    close(fd);

    assert_int_equal(chmod(open_dir, 0777), 0);
    assert_int_equal(disk_place_check(open_dir, &fd, &err), CP_EUSAGE);
    assert_int_equal(fd, -1);
    assert_non_null(strstr(err.msg, "/open' is writable by other users without the sticky bit"));
    cp_err_clear(&err);
    assert_int_equal(disk_place_check(sub, &fd, &err), CP_EUSAGE); /* named: the parent */
    assert_non_null(strstr(err.msg, "/open' is writable"));
    assert_null(strstr(err.msg, "/sub'"));
    cp_err_clear(&err);
    assert_int_equal(chmod(open_dir, 0775), 0); /* its group too */
    assert_int_equal(disk_place_check(open_dir, &fd, &err), CP_EUSAGE);
    cp_err_clear(&err);

    assert_int_equal(chmod(sticky, 01777), 0);
    assert_int_equal(disk_place_check(sticky, &fd, &err), CP_OK);
    close(fd);
    assert_int_equal(chmod(open_dir, 0755), 0);
}

static void put_file(int at, const char *name)
{
    int fd = openat(at, name, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    close(fd);
}

static void test_a_place_is_made_found_and_emptied_by_its_record(void **state)
{
    (void)state;
    char where[PATH_MAX];
    snprintf(where, sizeof where, "%s/disk", dir);
    assert_int_equal(mkdir(where, 0755), 0);
    int dir_fd = open(where, O_RDONLY | O_DIRECTORY);
    assert_true(dir_fd >= 0);

    /* A name already there, a planted symlink, is passed over. */
    char planted[PATH_MAX + 64];
    snprintf(planted, sizeof planted, "%s/" DISK_PLACE_PREFIX "%ld-0", where, (long)getpid());
    assert_int_equal(symlink("/", planted), 0);
    disk_place_t p;
    cp_err_t err = {0};
    assert_int_equal(disk_place_make(dup(dir_fd), where, 0, &p, &err), CP_OK);
    char expected[64];
    snprintf(expected, sizeof expected, DISK_PLACE_PREFIX "%ld-1", (long)getpid());
    assert_string_equal(p.name, expected);
    struct stat st;
    assert_int_equal(fstatat(dir_fd, p.name, &st, AT_SYMLINK_NOFOLLOW), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 07777, 0700);

    /* The image, recorded; a file of someone else's beside it. */
    int image = openat(p.fd, DISK_PLACE_IMAGE, O_RDWR | O_CREAT | O_EXCL, 0600);
    assert_true(image >= 0);
    assert_int_equal(fstat(image, &st), 0);
    close(image);
    p.record.image_dev = (uint64_t)st.st_dev;
    p.record.image_ino = (uint64_t)st.st_ino;
    assert_int_equal(disk_place_record(&p, &err), CP_OK);
    put_file(p.fd, "someone-elses");

    /* While its lock is held it is a live process's; the planted symlink is never one. */
    disk_place_t found;
    assert_false(disk_place_open_stale(dir_fd, p.name, &found));
    assert_false(disk_place_open_stale(dir_fd, strrchr(planted, '/') + 1, &found));

    /* Its holder dies (the lock goes with its descriptor): it is found, and taken down to
     * what the record names; the stranger's file keeps the directory. */
    char name[64];
    snprintf(name, sizeof name, "%s", p.name);
    close(p.lock_fd);
    close(p.fd);
    close(p.dir_fd);
    assert_true(disk_place_open_stale(dir_fd, name, &found));
    assert_int_equal(found.record.image_ino, (uint64_t)st.st_ino);
    assert_false(found.record.loop);
    int place_fd = dup(found.fd);
    disk_place_take_down(&found);
    assert_int_equal(found.fd, -1);
    assert_int_not_equal(faccessat(place_fd, DISK_PLACE_IMAGE, F_OK, 0), 0);
    assert_int_equal(faccessat(place_fd, "someone-elses", F_OK, 0), 0);
    assert_int_equal(faccessat(dir_fd, name, F_OK, 0), 0);
    assert_int_equal(unlinkat(place_fd, "someone-elses", 0), 0);
    close(place_fd);

    /* Emptied, it is no longer a place with a lock and a record: left alone. */
    assert_false(disk_place_open_stale(dir_fd, name, &found));
    assert_int_equal(unlinkat(dir_fd, name, AT_REMOVEDIR), 0);

    /* A directory that is not 0700 is not one either, lock and record or not. */
    disk_place_t q;
    assert_int_equal(disk_place_make(dup(dir_fd), where, 5, &q, &err), CP_OK);
    assert_int_equal(disk_place_record(&q, &err), CP_OK);
    snprintf(name, sizeof name, "%s", q.name);
    assert_int_equal(fchmod(q.fd, 0755), 0);
    close(q.lock_fd);
    assert_false(disk_place_open_stale(dir_fd, name, &found));
    q.lock_fd = openat(q.fd, "lock", O_RDWR);
    assert_int_equal(fchmod(q.fd, 0700), 0);
    disk_place_take_down(&q);
    assert_int_not_equal(faccessat(dir_fd, name, F_OK, AT_SYMLINK_NOFOLLOW), 0);
    close(dir_fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directories_others_can_write_are_refused),
        cmocka_unit_test(test_a_place_is_made_found_and_emptied_by_its_record),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
