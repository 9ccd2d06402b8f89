/* test_held_setting.c - a setting raised by several holders goes back to its original value
 * only when the last live one ends, also when one of them was killed; a setting someone
 * else raised is left alone. A plain file stands in for the /proc/sys setting. Holders in
 * one process are told apart as processes are, since flock(2) locks belong to open file
 * descriptions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/held_setting.h"

static char dir[] = "test-held-XXXXXX";
static char state_dir[PATH_MAX];
static char setting[PATH_MAX];
static char original[PATH_MAX + 32];

static int setup(void **state)
{
    (void)state;
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(state_dir, sizeof state_dir, "%s/state", dir);
    snprintf(setting, sizeof setting, "%s/task_delayacct", dir);
    snprintf(original, sizeof original, "%s/delayacct.original", state_dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void set_value(const char *text)
{
    FILE *f = fopen(setting, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The setting's value now, in a static buffer. */
static const char *value(void)
{
    static char buf[32];
    FILE *f = fopen(setting, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int raise_it(held_setting_t *h)
{
    return held_setting_raise(h, state_dir, "delayacct", setting, "1\n");
}

static void test_last_holder_puts_it_back(void **state)
{
    (void)state;
    set_value("0\n");
    held_setting_t a = HELD_SETTING_INIT, b = HELD_SETTING_INIT;
    assert_int_equal(raise_it(&a), 1);
    assert_string_equal(value(), "1\n");
    assert_int_equal(raise_it(&b), 1);
    held_setting_release(&a); /* the first to end must not turn it off under b */
    assert_string_equal(value(), "1\n");
    held_setting_release(&b);
    assert_string_equal(value(), "0\n");
    assert_int_not_equal(access(original, F_OK), 0);
    held_setting_release(&b); /* twice is harmless */
    assert_string_equal(value(), "0\n");
}

static void test_killed_holder_is_undone_by_the_next(void **state)
{
    (void)state;
    set_value("0\n");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        held_setting_t h = HELD_SETTING_INIT;
        _exit(raise_it(&h) == 1 ? 0 : 1); /* ends without releasing, as after SIGKILL */
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_string_equal(value(), "1\n");
    assert_int_equal(access(original, F_OK), 0);

    held_setting_t next = HELD_SETTING_INIT;
    assert_int_equal(raise_it(&next), 1);
    held_setting_release(&next);
    assert_string_equal(value(), "0\n"); /* the killed holder's original, not "1" */
}

/* A child forked without exec shares the parent's hold; once it forgets its copy, the
 * parent's release is the last one even while the child lives. */
static void test_child_that_forgets_is_no_holder(void **state)
{
    (void)state;
    set_value("0\n");
    held_setting_t h = HELD_SETTING_INIT;
    assert_int_equal(raise_it(&h), 1);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        held_setting_forget_in_child(&h);
        (void)!write(ready[1], "x", 1);
        pause(); /* alive until the parent ends it */
        _exit(0);
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    held_setting_release(&h);
    assert_string_equal(value(), "0\n");
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(ready[0]);
    close(ready[1]);
}

static void test_raised_by_someone_else_stays(void **state)
{
    (void)state;
    set_value("1\n");
    held_setting_t h = HELD_SETTING_INIT;
    assert_int_equal(raise_it(&h), 1);
    assert_int_not_equal(access(original, F_OK), 0);
    held_setting_release(&h);
    assert_string_equal(value(), "1\n");
}

static void test_missing_setting_is_not_held(void **state)
{
    (void)state;
    held_setting_t h = HELD_SETTING_INIT;
    char missing[PATH_MAX + 16];
    snprintf(missing, sizeof missing, "%s/no-such-setting", dir);
    assert_int_equal(held_setting_raise(&h, state_dir, "x", missing, "1\n"), 0);
    held_setting_release(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_last_holder_puts_it_back),
        cmocka_unit_test(test_killed_holder_is_undone_by_the_next),
        cmocka_unit_test(test_child_that_forgets_is_no_holder),
        cmocka_unit_test(test_raised_by_someone_else_stays),
        cmocka_unit_test(test_missing_setting_is_not_held),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
