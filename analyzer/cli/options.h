/* options.h - what the subcommands share about options: getopt_long handling with
 * one-line messages for unknown options and missing values, the outcome of parsing a
 * command line, and one parser per option family that several commands take, with the
 * named limits of common/bounds.h. The options themselves (names, letters, help texts)
 * are declared once in cli/option_table.h.
 *
 * The families and where each is parsed, so every command gives one option one range:
 *   threads     -T/--threads LIST  parse_thread_list (cli/parse.h), 1..CP_MAX_THREADS
 *   series list -c/--codec LIST    parse_series_list (cli/parse.h)
 *   engine      --engine E         pipeline_engine_parse (measure/pipeline.h)
 *   layout      --layout L         sweep_layout_parse (measure/sweep.h)
 *   reps        --reps N|auto      options_reps, 1..CP_MAX_REPS (auto: sweep and run)
 *   seed        --seed N           options_seed, 0..CP_SEED_MAX
 *   memory      --max-memory SIZE  options_max_memory (compress, sweep, run) */
#ifndef CP_CLI_OPTIONS_H
#define CP_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/bounds.h"
#include "common/err.h"
#include "measure/sweep.h"

/* What parsing a subcommand's command line came to (like curl's ParameterError): an
 * outcome with a name, kept apart from the CP_E* error codes. */
typedef enum options_outcome {
    OPTIONS_PROCEED,        /* parsed: run the command */
    OPTIONS_HELP_REQUESTED, /* --help was printed: exit 0 */
    OPTIONS_FAILED,         /* a usage or setup error; its code is in the cp_err_t */
} options_outcome_t;

/* Prepares getopt_long for a fresh parse of a subcommand's argv (resets optind, silences
 * getopt's own messages). Call before the getopt_long loop, whose optstring must start
 * with ':' so a missing value is reported as ':'. */
void options_begin(void);

/* Logs the one-line error for the ':' (missing value) or '?' (unknown option) that
 * getopt_long returned, naming the option and pointing to 'chokepoint COMMAND --help'.
 * Returns 2, the usage exit status. */
int options_error(const char *command, int c, char **argv);

/* --reps N: a whole number from 1 to CP_MAX_REPS. CP_OK with *out set, or CP_EUSAGE with
 * "bad --reps 'TEXT': expected a whole number from 1 to 1000" in err. */
int options_reps(const char *text, int *out, cp_err_t *err);

/* --reps N or --reps auto (sweep, run and probe): auto sets *out to 3 and *auto_reps, which asks
 * for more repetitions until each median settles (measure/sweep.h, measure/probe.h). */
int options_reps_or_auto(const char *text, int *out, bool *auto_reps, cp_err_t *err);

/* --seed N: a whole number from 0 to CP_SEED_MAX (decimal digits only). CP_OK with *out
 * set, or CP_EUSAGE with "bad seed 'TEXT': expected a whole number from 0 to ..." in err. */
int options_seed(const char *text, uint64_t *out, cp_err_t *err);

/* --max-memory SIZE: the memory a run may take (measure/memest.h checks the estimate
 * against it before anything starts; without it, against MemAvailable). A size as
 * parse_size reads it, above 0. CP_EUSAGE naming the text otherwise. */
int options_max_memory(const char *text, uint64_t *out, cp_err_t *err);

/* --decompress's companions in sweep and run. Each command series of series[0..n) becomes
 * its preset's restore, its codec the built-in codec that writes its archives
 * (command_series_restore; a --cmd template or pigz is refused); then
 * --sync only when the restored bytes are written (--layout same).
 * CP_OK, changing nothing, when p does not decompress; CP_EUSAGE naming the option
 * otherwise. */
int options_check_decompress(const sweep_params_t *p, series_spec_t *series, size_t n,
                             bool sync_given, cp_err_t *err);

/* What `run` and `sweep` check and fill in once their options and TARGETs are parsed:
 * each directory target exists and is writable (target_check); --layout same has a
 * directory to copy the input onto; --cmd-name comes with a --cmd, whose series is
 * appended to *series; --decompress's companions (options_check_decompress); then the
 * defaults: zstd:3 when no series was given, every CPU count (1..N) when no thread list
 * was. *series and *threads are malloc'd lists (p->n_series, p->n_threads) the caller
 * frees, also on failure. CP_OK, or CP_EUSAGE naming what is wrong. */
int options_finish_sweep(sweep_params_t *p, series_spec_t **series, int **threads,
                         const target_spec_t *targets, size_t n_targets,
                         const char *cmd_template, const char *cmd_name, bool sync_given,
                         cp_err_t *err);

#endif
