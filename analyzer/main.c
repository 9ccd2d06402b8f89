/* main.c - subcommand dispatch only. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/commands.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "common/sys.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    bool measures; /* times runs: the kernel's delay accounting is turned on first */
} command_t;

static const command_t commands[] = {
    /* COMMAND TABLE: one line per subcommand */
    {"fixture", cmd_fixture, "generate a deterministic test input file", false},
    {"probe", cmd_probe, "measure each target volume's write and read speed by file size", true},
    {"compress", cmd_compress, "compress one file once and time it", true},
    {"sweep", cmd_sweep, "time compress runs over targets x codecs x threads x repetitions", true},
    {"analyze", cmd_analyze, "fit scaling models to runs.csv and say what limits the job", false},
    {"plot", cmd_plot, "draw gnuplot plots and report.md for a results directory", false},
    {"run", cmd_run, "the whole study: fixture, probe, sweep, analyze and plot", true},
    {"compare", cmd_compare, "compare studies: B/A per thread count, regressions, overlays", false},
    {"history", cmd_history, "every study under a directory: rates over time, latest vs previous",
     false},
    {"predict", cmd_predict, "the job's time on a volume the study did not run on (a probe, a "
     "speed, a class)", false},
    {"import", cmd_import, "fio's JSON as probe.csv, hyperfine's JSON as runs.csv", false},
    {NULL, NULL, NULL, false},
};

static void print_usage(FILE *out)
{
    fprintf(out, "usage: chokepoint COMMAND [OPTIONS]\n\n"
                 "Is a multi-threaded compression job limited by the CPU or by the disk?\n\n"
                 "commands:\n");
    for (const command_t *c = commands; c->name != NULL; c++)
        fprintf(out, "  %-9s %s\n", c->name, c->summary);
    fprintf(out, "\n'chokepoint COMMAND --help' describes each command.\n"
                 "Exit status: 0 success, 1 runtime failure, 2 usage or data-file error, "
                 "130 interrupted.\n");
}

/* A command running on a thread of its own. */
typedef struct command_call {
    const command_t *command;
    int argc;
    char **argv;
    int status;
} command_call_t;

static void *command_thread(void *arg)
{
    command_call_t *call = arg;
    call->status = call->command->run(call->argc, call->argv);
    return NULL;
}

/* Runs a measuring command. The kernel gives a thread delay accounting only when the
 * thread is created while accounting is on (kernel.task_delayacct), so it is turned on
 * first (as root, when off; put back at exit) and the command runs on a thread created
 * after it, with the main thread's stack size; every thread it starts is then counted
 * (run_account.h). Falls back to this thread when no thread can be started. */
static int run_measuring(const command_t *c, int argc, char **argv)
{
    sys_delayacct_enable();
    command_call_t call = {c, argc, argv, 1};
    pthread_attr_t attr;
    struct rlimit stack;
    size_t stack_bytes = (size_t)8 << 20;
    if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY &&
        stack.rlim_cur > stack_bytes)
        stack_bytes = (size_t)stack.rlim_cur;
    pthread_t thread;
    if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
        pthread_create(&thread, &attr, command_thread, &call) == 0) {
        pthread_attr_destroy(&attr);
        pthread_join(thread, NULL);
        return call.status;
    }
    return c->run(argc, argv);
}

int main(int argc, char **argv)
{
    sys_std_fds_guard(); /* before anything opens a file that could take 1 or 2 */
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        (strcmp(argv[1], "help") == 0 && argc == 2)) {
        print_usage(stdout);
        return 0;
    }
    /* "help COMMAND" is "COMMAND --help" (an unknown COMMAND is refused below). */
    char help_flag[] = "--help";
    char *help_argv[] = {argv[0], argc > 2 ? argv[2] : NULL, help_flag, NULL};
    if (strcmp(argv[1], "help") == 0) {
        argv = help_argv;
        argc = 3;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("chokepoint %s\n", CHOKEPOINT_VERSION);
        return 0;
    }
    for (const command_t *c = commands; c->name != NULL; c++)
        if (strcmp(argv[1], c->name) == 0) {
            cp_signals_install();
            /* A library that calls exit() (libgomp when it cannot start threads) must
             * not leave temporary files behind either. */
            atexit(cp_cleanup_unlink_all);
            /* Kernel settings a study raises are put back at exit by their holder
             * (cp_cleanup_remember_setting registers that), before the files go. */
            return c->measures ? run_measuring(c, argc - 1, argv + 1)
                               : c->run(argc - 1, argv + 1);
        }
    cp_log_error("unknown command '%s'; try 'chokepoint --help'", argv[1]);
    return 2;
}
