/* options.h - shared getopt_long handling for the subcommands: one-line messages for
 * unknown options and missing values, in the form every subcommand uses. */
#ifndef CP_CLI_OPTIONS_H
#define CP_CLI_OPTIONS_H

#include <getopt.h>

/* Prepares getopt_long for a fresh parse of a subcommand's argv (resets optind, silences
 * getopt's own messages). Call before the getopt_long loop, whose optstring must start
 * with ':' so a missing value is reported as ':'. */
void options_begin(void);

/* Logs the one-line error for the ':' (missing value) or '?' (unknown option) that
 * getopt_long returned, naming the option and pointing to 'chokepoint COMMAND --help'.
 * Returns 2, the usage exit status. */
int options_error(const char *command, int c, char **argv);

#endif
