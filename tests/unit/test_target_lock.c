/* test_target_lock.c - one command per target directory (measure/target.h, target_lock_all,
 * on common/dirlock): a second holder is refused naming the target and the PID, a directory
 * is locked once however it is spelled, a stale lock file does not block, a failed call
 * keeps nothing, release leaves the directory as found, and a results directory's lock and
 * a target lock on one directory do not refuse each other. flock locks an open file
 * description, so a second lock taken by this same process is refused like another
 * process's would be. And the kinds' operations and the lists of their forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/dirlock.h"
#include "measure/target.h"

static char root[] = "test-target-lock-XXXXXX";
static char dir_a[PATH_MAX], dir_b[PATH_MAX];

static int setup(void **state)
{
    (void)state;
    if (mkdtemp(root) == NULL)
        return -1;
    snprintf(dir_a, sizeof dir_a, "%s/a", root);
    snprintf(dir_b, sizeof dir_b, "%s/b", root);
    return mkdir(dir_a, 0755) == 0 && mkdir(dir_b, 0755) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static target_spec_t dir_target(const char *name, const char *dir)
{
    target_spec_t t;
    cp_err_t err = {0};
    assert_int_equal(target_init_dir(&t, name, dir, &err), CP_OK);
    return t;
}

static bool lock_file_exists(const char *dir)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, DIRLOCK_TARGET_NAME);
    return access(path, F_OK) == 0;
}

static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void test_second_holder_refused_with_name_and_pid(void **state)
{
    (void)state;
    target_spec_t first = dir_target("ssd", dir_a), second = dir_target("again", dir_a);
    target_locks_t held = TARGET_LOCKS_INIT, other = TARGET_LOCKS_INIT;
    cp_err_t err = {0};
    assert_int_equal(target_lock_all(&first, 1, &held, &err), CP_OK);
    assert_int_equal(held.n, 1);
    assert_true(lock_file_exists(dir_a));

    assert_int_equal(target_lock_all(&second, 1, &other, &err), CP_EUSAGE);
    char want[PATH_MAX + 200];
    snprintf(want, sizeof want,
             "target 'again' (%s) is in use by another chokepoint process (pid %ld); wait for "
             "it or choose another directory",
             dir_a, (long)getpid());
    assert_string_equal(err.msg, want);
    assert_int_equal(other.n, 0);
    target_unlock_all(&other);

    target_unlock_all(&held);
    assert_int_equal(held.n, 0);
    assert_null(held.held);
    assert_int_equal(entries(dir_a), 0); /* the directory as found */
    cp_err_clear(&err);
    assert_int_equal(target_lock_all(&second, 1, &other, &err), CP_OK);
    target_unlock_all(&other);
    target_unlock_all(&other); /* twice is safe */
}

static void test_one_lock_per_directory_however_spelled(void **state)
{
    (void)state;
    char dotted[PATH_MAX + 8];
    snprintf(dotted, sizeof dotted, "%s/./", dir_a);
    target_spec_t ts[4];
    target_init_mem(&ts[0]);
    ts[1] = dir_target("plain", dir_a);
    ts[2] = dir_target("capped", dotted);
    ts[3] = dir_target("other", dir_b);
    target_locks_t held = TARGET_LOCKS_INIT;
    cp_err_t err = {0};
    assert_int_equal(target_lock_all(ts, 4, &held, &err), CP_OK);
    assert_int_equal(held.n, 2);
    /* A later call for a directory already held takes nothing more. */
    assert_int_equal(target_lock_all(&ts[2], 1, &held, &err), CP_OK);
    assert_int_equal(held.n, 2);
    target_unlock_all(&held);
    assert_false(lock_file_exists(dir_a));
    assert_false(lock_file_exists(dir_b));
}

static void test_mem_needs_no_lock(void **state)
{
    (void)state;
    target_spec_t mem;
    target_init_mem(&mem);
    target_locks_t held = TARGET_LOCKS_INIT;
    cp_err_t err = {0};
    assert_int_equal(target_lock_all(&mem, 1, &held, &err), CP_OK);
    assert_int_equal(held.n, 0);
    target_unlock_all(&held);
}

static void test_stale_lock_file_does_not_block(void **state)
{
    (void)state;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir_a, DIRLOCK_TARGET_NAME);
    FILE *f = fopen(path, "w"); /* left by a killed process: nobody holds it */
    assert_non_null(f);
    fputs("999999999\n", f);
    fclose(f);
    target_spec_t t = dir_target("ssd", dir_a);
    target_locks_t held = TARGET_LOCKS_INIT;
    cp_err_t err = {0};
    assert_int_equal(target_lock_all(&t, 1, &held, &err), CP_OK);
    char text[32] = "";
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_int_equal(strtol(text, NULL, 10), (long)getpid());
    target_unlock_all(&held);
    assert_false(lock_file_exists(dir_a));
}

static void test_failed_call_keeps_nothing(void **state)
{
    (void)state;
    target_spec_t busy = dir_target("busy", dir_b);
    target_locks_t other = TARGET_LOCKS_INIT, held = TARGET_LOCKS_INIT;
    cp_err_t err = {0};
    assert_int_equal(target_lock_all(&busy, 1, &other, &err), CP_OK);
    target_spec_t ts[2] = {dir_target("free", dir_a), dir_target("busy", dir_b)};
    assert_int_equal(target_lock_all(ts, 2, &held, &err), CP_EUSAGE);
    assert_int_equal(held.n, 0);
    assert_false(lock_file_exists(dir_a));
    target_unlock_all(&held);
    target_unlock_all(&other);

    char missing[PATH_MAX + 16];
    snprintf(missing, sizeof missing, "%s/missing", root);
    target_spec_t gone = dir_target("gone", missing);
    cp_err_clear(&err);
    assert_int_equal(target_lock_all(&gone, 1, &held, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "target 'gone': cannot use directory"));
    assert_int_equal(held.n, 0);
}

static void test_results_lock_and_target_lock_on_one_directory(void **state)
{
    (void)state;
    dirlock_t results = DIRLOCK_INIT;
    cp_err_t err = {0};
    assert_int_equal(dirlock_acquire(dir_a, &results, &err), CP_OK);
    target_spec_t local = dir_target("local", dir_a);
    target_locks_t held = TARGET_LOCKS_INIT;
    assert_int_equal(target_lock_all(&local, 1, &held, &err), CP_OK);
    assert_true(dirlock_held(dir_a, NULL));
    target_unlock_all(&held);
    assert_true(dirlock_held(dir_a, NULL)); /* the results lock is its own */
    dirlock_release(&results);
    assert_false(dirlock_held(dir_a, NULL));
    /* A results directory's lock file goes with the lock: a finished study leaves only
     * its results (an abandoned one is told by meta.json and no live holder). */
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir_a, DIRLOCK_NAME);
    assert_int_equal(access(path, F_OK), -1);
}

/* Each kind's operations: mem has no directory, no volume and no room to tell, claims its
 * name on the command line, and keeps a file in RAM; a directory writes in itself, holds
 * its own files and knows its free space. */
static void test_kinds_operations(void **state)
{
    (void)state;
    target_spec_t mem, dir;
    cp_err_t err = {0};
    assert_int_equal(target_parse_kind("mem", &mem, &err), CP_OK);
    assert_int_equal(mem.kind, TARGET_MEM);
    assert_string_equal(mem.name, CP_MEM_TARGET_NAME);
    assert_int_equal(target_parse_kind("/tmp", &dir, &err), TARGET_NOT_MINE);
    const target_ops_t *m = target_ops_for(&mem);
    assert_null(m->output_dir(&mem));
    sys_space_t space;
    assert_int_equal(m->space(&mem, &space, &err), CP_OK);
    assert_int_equal(space.total_bytes, 0);
    sink_options_t opts = {SYNC_FSYNC, 0, mem.name};
    sink_t *kept = m->open_kept(&mem, "test-kept", &opts, 0, &err);
    assert_non_null(kept);
    assert_int_equal(sink_write(kept, "abc", 3, &err), CP_OK);
    assert_int_equal(sink_finish(kept, &err), CP_OK);
    int fd = m->open_read(&mem, sink_temp_path(kept), false);
    assert_true(fd >= 0);
    char back[4] = "";
    assert_int_equal(read(fd, back, 3), 3);
    assert_string_equal(back, "abc");
    close(fd);
    sink_close(kept);
    /* The CPU ceiling: no volume, its output counted and discarded, no identity. */
    assert_true(m->cpu_ceiling && m->in_ram && !m->has_volume);
    assert_string_equal(target_place(&mem), "memory");
    assert_true(target_name_is_ceiling(mem.name));
    assert_false(target_name_is_ceiling("mem2") || target_name_is_ceiling(NULL));
    sink_t *out = m->open_output(&mem, "test-out", &opts, &err);
    assert_non_null(out);
    assert_null(sink_temp_path(out));
    assert_int_equal(sink_write(out, "abc", 3, &err), CP_OK);
    assert_int_equal(sink_bytes(out), 3);
    sink_close(out);
    char id[PATH_MAX] = "x";
    m->identity(&mem, id, sizeof id);
    assert_string_equal(id, "");

    char path[] = "/tmp/test-target-ops.XXXXXX";
    assert_non_null(mkdtemp(path));
    assert_int_equal(target_init_dir(&dir, "d", path, &err), CP_OK);
    const target_ops_t *d = target_ops_for(&dir);
    assert_int_equal(d->kind, TARGET_DIR);
    assert_string_equal(d->output_dir(&dir), path);
    volume_info_t v;
    assert_int_equal(d->inspect(&dir, &v, &err), CP_OK);
    assert_true(d->holds(&dir, &v, path));
    assert_int_equal(d->still_there(&dir, &v, &err), CP_OK);
    assert_int_equal(d->space(&dir, &space, &err), CP_OK);
    assert_true(space.total_bytes > 0);
    /* A directory: a volume, named by its name; its output a file in it, removed. */
    assert_true(d->has_volume && !d->cpu_ceiling && !d->in_ram);
    assert_string_equal(target_place(&dir), "d");
    out = d->open_output(&dir, "test-out", &opts, &err);
    assert_non_null(out);
    assert_non_null(strstr(sink_temp_path(out), path));
    assert_int_equal(sink_write(out, "abc", 3, &err), CP_OK);
    assert_int_equal(sink_finish(out, &err), CP_OK);
    sink_close(out);
    char resolved[PATH_MAX];
    d->identity(&dir, id, sizeof id);
    assert_string_equal(id, realpath(path, resolved));
    rmdir(path);
    assert_int_equal(d->still_there(&dir, &v, &err), CP_EIO);
}

/* The lists of the kinds that messages and --help are made from: every kind's form in
 * the registry's order (the directory's first, with the words it is given), and a
 * sentence for each kind given by a text of its own (not the directory), of those with a
 * volume only when asked. Written for any kinds after these two. */
static void test_kinds_text(void **state)
{
    (void)state;
    char buf[512];
    target_forms_text(buf, sizeof buf, " or ", "");
    assert_ptr_equal(strstr(buf, "[NAME=]DIR[@RATE] or mem"), buf);
    assert_ptr_equal(target_forms_text(buf, sizeof buf, ", or ", " with DIR writable"), buf);
    assert_ptr_equal(strstr(buf, "[NAME=]DIR[@RATE] with DIR writable, or mem"), buf);
    target_forms_text(buf, 8, " or ", ""); /* truncated, still a string */
    assert_string_equal(buf, "[NAME=]");

    target_kinds_help(buf, sizeof buf, false);
    assert_ptr_equal(strstr(buf, "'mem' counts the output and discards it: the pure CPU "
                                 "ceiling."), buf);
    assert_null(strstr(buf, "DIR"));
    target_kinds_help(buf, sizeof buf, true); /* mem has no volume */
    assert_null(strstr(buf, "'mem'"));
    target_kinds_help(buf, 6, false);
    assert_string_equal(buf, "'mem'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_holder_refused_with_name_and_pid),
        cmocka_unit_test(test_one_lock_per_directory_however_spelled),
        cmocka_unit_test(test_mem_needs_no_lock),
        cmocka_unit_test(test_stale_lock_file_does_not_block),
        cmocka_unit_test(test_failed_call_keeps_nothing),
        cmocka_unit_test(test_results_lock_and_target_lock_on_one_directory),
        cmocka_unit_test(test_kinds_operations),
        cmocka_unit_test(test_kinds_text),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
