/* option_table.h - every option of the subcommands, declared once (in the manner of git's
 * parse-options and curl's option table): its long name, short letter, argument name and
 * help text, under one id. A command lists the ids it takes (an opt_command_t); from that
 * one list options_next builds getopt_long's struct option array and optstring, and
 * options_print writes the options block of the command's --help. A command may give an
 * option its own help text where the option means something else there.
 *
 * Help texts are stored pre-wrapped, one '\n' between lines, without the indentation:
 * options_print indents every line to the command's help column. A paragraph of a
 * command's --help that is made in parts (typed words around a registry's) is wrapped
 * here (options_help_paragraph). */
#ifndef CP_CLI_OPTION_TABLE_H
#define CP_CLI_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The options, one id each. Above 255, so no id is a short letter or getopt's ':'/'?'. */
typedef enum opt_id {
    OPT_NONE = 0, /* ends a command's list */
    OPT_INPUT = 256, OPT_OUTPUT, OPT_CODEC, OPT_THREADS, OPT_QUIET, OPT_HELP,
    OPT_ENGINE, OPT_BLOCK_SIZE, OPT_SYNC, OPT_WARM, OPT_VERIFY, OPT_FORCE, OPT_JSON,
    OPT_MAX_MEMORY, OPT_REPS, OPT_NO_WARMUP, OPT_LAYOUT, OPT_SEED, OPT_CMD, OPT_CMD_NAME,
    OPT_DECOMPRESS, OPT_PROBE, OPT_TOLERANCE, OPT_FORMAT, OPT_PAIR, OPT_THRESHOLD,
    OPT_FAIL_ON_REGRESSION, OPT_PLOTS, OPT_PLOT_FORMAT, OPT_CLASSES, OPT_CHECK, OPT_VOLUME,
    OPT_WRITE, OPT_READ, OPT_CLASS, OPT_SIZES, OPT_OPS, OPT_BLOCK, OPT_SUSTAINED,
    OPT_FIXTURE_SIZE, OPT_NO_PROBE, OPT_OUT, OPT_KEEP_INPUT, OPT_RESUME, OPT_QUICK,
    OPT_SIZE, OPT_KIND, OPT_INPUT_SIZE, OPT_OUTPUT_SIZE, OPT_TARGET, OPT_HOST, OPT_STARTED,
    OPT_END
} opt_id_t;

/* How a command shows one option in its --help (flags of opt_use_t). */
enum {
    OPT_SHORT_ONLY = 1u << 0, /* listed as "-o FILE" (--output is still accepted) */
    OPT_OWN_LINE = 1u << 1,   /* the help starts on the line below the label */
    OPT_WIDE_GAP = 1u << 2,   /* two spaces after the label even when it ends before the
                                 help column */
    OPT_SECTION2 = 1u << 3,   /* listed by options_print(.., 1): a second block */
};

/* One option a command takes, as its --help shows it. */
typedef struct opt_use {
    opt_id_t id;
    const char *help; /* NULL: help_fn's text, else the table's */
    /* Writes the help text into buf (for a text made from a registry); or NULL. */
    void (*help_fn)(char *buf, size_t size);
    const char *arg;  /* NULL: the table's argument name */
    unsigned flags;   /* OPT_SHORT_ONLY, ... */
    void (*more)(FILE *out); /* lines printed after the help (a registry's list), or NULL */
} opt_use_t;

/* A command's options: the options it takes in --help order (ended by OPT_NONE), the
 * column its help texts start at, and whether a long option without a letter is indented
 * under the "-x, " of the others. */
typedef struct opt_command {
    const opt_use_t *uses;
    int column;
    bool indent_long;
} opt_command_t;

/* getopt_long over cmd's options (call options_begin first). Returns the id of the next
 * option (optarg set as getopt_long sets it; a short letter comes back as its option's
 * id), -1 at the end, or ':' (missing value) or '?' (unknown option), which
 * options_error reports. */
int options_next(const opt_command_t *cmd, int argc, char **argv);

/* Writes the options block of cmd's --help to out: each option of the block `section`
 * (0, or 1 for OPT_SECTION2), its label, then its help lines from the
 * command's help column. */
void options_print(FILE *out, const opt_command_t *cmd, unsigned section);

/* A command's whole --help: head (up to its "options:" line), the options block
 * (options_print's section 0), then tail. */
void options_help(FILE *out, const opt_command_t *cmd, const char *head, const char *tail);

/* The width a --help paragraph made in parts is wrapped to (options_help_paragraph). */
#define OPTIONS_PARAGRAPH_WIDTH 85

/* Writes to out one paragraph of a --help made of the n texts parts (typed ones and ones
 * made from a registry, e.g. target_kinds_help): their words in order, one space apart
 * (the parts' own spaces and line breaks, and an empty part, count only as a space),
 * wrapped greedily to lines of at most OPTIONS_PARAGRAPH_WIDTH columns (a longer word
 * alone on its line), each ended by '\n'. Writes nothing when the parts have no word. */
void options_help_paragraph(FILE *out, const char *const *parts, size_t n);

#endif
