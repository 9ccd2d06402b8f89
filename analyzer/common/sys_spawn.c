/* sys_spawn.c - starting programs and waiting for them (sys.h's processes), in POSIX terms
 * every system shares: posix_spawnp for a plain child; fork for a guarded one, whose
 * guardian ends the program's whole process group if chokepoint dies outright (through
 * sys_die_with_parent, the one system-specific call). */
#include "common/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"

extern char **environ;

/* The guardian's answer to chokepoint's death (sys_die_with_parent): end the whole process
 * group, itself included. Async-signal-safe. */
static void parent_died(int sig)
{
    (void)sig;
    kill(0, SIGKILL);
}

/* The guardian, leader of the program's process group: it runs the program as its own
 * child and exits as the program did (code or signal), so wait4 on it gives the program's
 * status and, summed over everything it waited for, its rusage. Its purpose: if chokepoint
 * is killed outright (SIGKILL, the OOM killer), the kernel tells the guardian (parent-death
 * signal) and it kills the group, so nothing the program started writes on into a target
 * the next study cleans. A SIGTERM to the group ends the guardian and the program alike. */
static void guardian(const char *path, char *const argv[], pid_t parent)
{
    signal(SIGUSR1, parent_died);
    if (SYS_HAVE_PDEATHSIG)
        sys_die_with_parent(SIGUSR1);
    if (getppid() != parent) /* chokepoint died before the call (or cannot be told) */
        parent_died(SIGUSR1);
    pid_t child = fork();
    if (child == 0) {
        signal(SIGUSR1, SIG_DFL);
        if (path != NULL)
            execv(path, argv);
        else
            execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    pid_t got = -1;
    while (child > 0 && (got = waitpid(child, &status, 0)) < 0 && errno == EINTR)
        ;
    if (got != child)
        _exit(127); /* no program, or its status is lost: a failure, never a success */
    if (!WIFSIGNALED(status))
        _exit(WEXITSTATUS(status));
    /* Die of the program's signal, without a core of this copy of chokepoint. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
    _exit(128 + WTERMSIG(status));
}

/* Forks the guardian with the program's descriptors and default signals. */
static pid_t spawn_guarded(char *const argv[], const sys_spawn_opts_t *opts)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* The guardian never execs: it must not count as a holder of the settings this
     * process raised, or a second signal's release would find it still holding them. */
    cp_cleanup_settings_forget_in_child();
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL); /* the guardian waits for the program */
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);
        dup2(devnull, STDOUT_FILENO);
    }
    if (opts->stdout_fd >= 0)
        dup2(opts->stdout_fd, STDOUT_FILENO);
    if (opts->stderr_fd >= 0)
        dup2(opts->stderr_fd, STDERR_FILENO);
    else if (devnull >= 0)
        dup2(devnull, STDERR_FILENO);
    guardian(opts->path, argv, parent);
    _exit(127);
}

/* Adds to actions: descriptor target from fd, or /dev/null (flags) when fd < 0. */
static void redirect(posix_spawn_file_actions_t *actions, int target, int fd, int flags)
{
    if (fd >= 0)
        posix_spawn_file_actions_adddup2(actions, fd, target);
    else
        posix_spawn_file_actions_addopen(actions, target, "/dev/null", flags, 0);
}

/* Frees the copies made by pass_descriptors. */
static void close_all(int *fds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Adds to actions: opts' pass_fds as descriptors 3, 4, ... of the program, from copies
 * above them (kept in copies, closed by the caller after the spawn), so that no dup2
 * overwrites a descriptor still to be passed. 0 or an errno. */
static int pass_descriptors(posix_spawn_file_actions_t *actions, const sys_spawn_opts_t *opts,
                            int *copies)
{
    for (size_t i = 0; i < opts->n_pass_fds; i++)
        copies[i] = -1;
    for (size_t i = 0; i < opts->n_pass_fds; i++) {
        copies[i] = fcntl(opts->pass_fds[i], F_DUPFD_CLOEXEC, (int)(3 + opts->n_pass_fds));
        if (copies[i] < 0)
            return errno;
        posix_spawn_file_actions_adddup2(actions, copies[i], (int)(3 + i));
    }
    return 0;
}

int sys_spawn(char *const argv[], const sys_spawn_opts_t *opts, long *pid)
{
    if (opts->n_pass_fds > 8 || (opts->guarded && opts->n_pass_fds > 0))
        return EINVAL;
    if (opts->guarded) {
        pid_t child = spawn_guarded(argv, opts);
        if (child < 0)
            return errno;
        setpgid(child, child); /* also in the child: whichever runs first */
        *pid = (long)child;
        return 0;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    redirect(&actions, STDOUT_FILENO, opts->stdout_fd, O_WRONLY);
    redirect(&actions, STDERR_FILENO, opts->stderr_fd, O_WRONLY);
    int copies[8];
    int rc = pass_descriptors(&actions, opts, copies);
    pid_t child;
    if (rc == 0)
        rc = posix_spawnp(&child, opts->path != NULL ? opts->path : argv[0], &actions, NULL,
                          argv, environ);
    close_all(copies, opts->n_pass_fds);
    posix_spawn_file_actions_destroy(&actions);
    if (rc == 0)
        *pid = (long)child;
    return rc;
}

int sys_wait(long pid, sys_exit_t *out)
{
    int status;
    while (waitpid((pid_t)pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    out->exited = WIFEXITED(status);
    out->code = out->exited ? WEXITSTATUS(status) : WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return 0;
}
