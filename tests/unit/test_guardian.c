/* test_guardian.c - the guardian of a process killed outright: a SIGKILL to the process's
 * whole group does not reach it (a session of its own), and it then runs the undo and
 * puts back a setting the process held when no other holder lives (here a file standing
 * in for kernel.task_delayacct, so the test needs no root and no idle machine). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/held_setting.h"
#include "common/sys.h"

static char dir[] = "test-guardian-XXXXXX";
static char setting[PATH_MAX], state[PATH_MAX], undone[PATH_MAX];

static int setup(void **state_)
{
    (void)state_;
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(setting, sizeof setting, "%s/setting", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    snprintf(undone, sizeof undone, "%s/undone", dir);
    return 0;
}

static int teardown(void **state_)
{
    (void)state_;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void read_file(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* The undo: leaves a mark (open and close only: async-signal-safe). */
static void mark_undone(void)
{
    int fd = open(undone, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0)
        close(fd);
}

static held_setting_t held = HELD_SETTING_INIT;

/* A process that holds the setting raised, under a guardian, in a process group of its
 * own; it tells the parent through ready and waits to be killed. */
static pid_t start_holder(void)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        /* A test that fails leaves no holder paused for ever (ctest would wait on it). */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        setpgid(0, 0);
        int ok = cp_cleanup_remember_setting(&held) == 0 &&
                 held_setting_raise(&held, state, "setting", setting, "1\n") == 1 &&
                 sys_guardian_start(mark_undone, NULL, 0);
        (void)!write(ready[1], ok ? "y" : "n", 1);
        for (;;)
            pause();
    }
    close(ready[1]);
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    assert_int_equal(c, 'y');
    return pid;
}

/* Waits up to about 30 s for path to read text (a loaded machine is slow to schedule
 * the guardian; a working one acts within milliseconds). */
static bool reads_within(const char *path, const char *text)
{
    char buf[64];
    for (int i = 0; i < 1500; i++) {
        read_file(path, buf, sizeof buf);
        if (strcmp(buf, text) == 0)
            return true;
        struct timespec pause_ = {0, 20 * 1000 * 1000};
        nanosleep(&pause_, NULL);
    }
    return false;
}

static void test_a_group_kill_leaves_the_guardian_to_undo(void **state_)
{
    (void)state_;
    write_file(setting, "0\n");
    pid_t pid = start_holder();
    char buf[64];
    read_file(setting, buf, sizeof buf);
    assert_string_equal(buf, "1\n");
    assert_int_equal(kill(-pid, SIGKILL), 0); /* the whole process group */
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_true(reads_within(setting, "0\n")); /* put back by the guardian */
    assert_int_equal(access(undone, F_OK), 0);
    char record[PATH_MAX + 32];
    snprintf(record, sizeof record, "%s/setting.original", state);
    assert_int_not_equal(access(record, F_OK), 0);
    unlink(undone);
}

static void test_a_live_holder_keeps_the_setting(void **state_)
{
    (void)state_;
    write_file(setting, "0\n");
    pid_t other = start_holder(); /* another chokepoint, still measuring */
    pid_t pid = start_holder();
    assert_int_equal(kill(-pid, SIGKILL), 0);
    waitpid(pid, NULL, 0);
    for (int i = 0; i < 1500 && access(undone, F_OK) != 0; i++)
        usleep(20 * 1000);
    assert_int_equal(access(undone, F_OK), 0); /* the guardian has acted ... */
    usleep(100 * 1000);
    char buf[64];
    read_file(setting, buf, sizeof buf);
    assert_string_equal(buf, "1\n"); /* ... and left it to the live holder */
    unlink(undone);
    assert_int_equal(kill(-other, SIGKILL), 0);
    waitpid(other, NULL, 0);
    assert_true(reads_within(setting, "0\n")); /* the last one's guardian puts it back */
    for (int i = 0; i < 1500 && access(undone, F_OK) != 0; i++)
        usleep(20 * 1000);
    unlink(undone);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_group_kill_leaves_the_guardian_to_undo),
        cmocka_unit_test(test_a_live_holder_keeps_the_setting),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
