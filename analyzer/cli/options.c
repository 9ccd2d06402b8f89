#include "cli/options.h"

#include <stddef.h>

#include "common/log.h"

void options_begin(void)
{
    optind = 0; /* 0 makes glibc reinitialise, so several parses in one process work */
    opterr = 0;
}

int options_error(const char *command, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    char short_opt[3] = {'-', (char)optopt, '\0'};
    /* For a short option the offending word may hold several options ("-qx"). */
    const char *name = (arg != NULL && arg[0] == '-' && arg[1] == '-') || optopt == 0 ? arg
                                                                                      : short_opt;
    if (c == ':')
        cp_log_error("option '%s' needs a value; see 'chokepoint %s --help'", name, command);
    else
        cp_log_error("unknown option '%s'; see 'chokepoint %s --help'", name, command);
    return 2;
}
