/* main.c - subcommand dispatch only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "common/cleanup.h"
#include "common/log.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command_t;

static const command_t commands[] = {
    /* COMMAND TABLE: one line per subcommand */
    {"fixture", cmd_fixture, "generate a deterministic test input file"},
    {"probe", cmd_probe, "measure each target volume's write and read speed by file size"},
    {"compress", cmd_compress, "compress one file once and time it"},
    {"sweep", cmd_sweep, "time compress runs over targets x codecs x threads x repetitions"},
    {"analyze", cmd_analyze, "fit scaling models to runs.csv and say what limits the job"},
    {"plot", cmd_plot, "draw gnuplot plots and report.md for a results directory"},
    {"run", cmd_run, "the whole study: fixture, probe, sweep, analyze and plot"},
    {"compare", cmd_compare, "compare studies: B/A per thread count, regressions, overlays"},
    {"history", cmd_history, "every study under a directory: rates over time, latest vs previous"},
    {NULL, NULL, NULL},
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

int main(int argc, char **argv)
{
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
            return c->run(argc - 1, argv + 1);
        }
    cp_log_error("unknown command '%s'; try 'chokepoint --help'", argv[1]);
    return 2;
}
