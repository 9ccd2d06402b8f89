/* option_table.c - the one table of the subcommands' options (option_table.h), the
 * getopt_long arrays made from a command's list, and the printer of its --help block. */
#include "cli/option_table.h"

#include <assert.h>
#include <getopt.h>
#include <string.h>

#include "report/report_format.h"

/* One option: how it is spelled, what it takes, and its help where most commands agree. */
typedef struct opt_desc {
    const char *long_name;
    char short_name;  /* 0: none */
    const char *arg;  /* the argument's name in --help; NULL: takes none */
    const char *help; /* NULL: help_fn's text, or each command's own (opt_use_t) */
    void (*help_fn)(char *buf, size_t size);
} opt_desc_t;

/* --format's default help: the document formats of report/report_format.h. */
static void document_formats_help(char *buf, size_t size)
{
    report_format_list(REPORT_FORMATS_DOCUMENT, true, buf, size);
}

#define D(id, long_, short_, arg_, help_)                                        \
    [(id) - OPT_INPUT] = {                                                        \
        .long_name = (long_), .short_name = (short_), .arg = (arg_), .help = (help_)}
static const opt_desc_t table[OPT_END - OPT_INPUT] = {
    D(OPT_INPUT, "input", 'i', "FILE", "the file to compress (required)"),
    D(OPT_OUTPUT, "output", 'o', "FILE", "write there (atomically) instead of stdout"),
    D(OPT_CODEC, "codec", 'c', "LIST", NULL),
    D(OPT_THREADS, "threads", 'T', "LIST", NULL),
    D(OPT_QUIET, "quiet", 'q', NULL, "no informational messages on stderr"),
    D(OPT_HELP, "help", 'h', NULL, "this text"),
    D(OPT_ENGINE, "engine", 0, "E", NULL),
    D(OPT_BLOCK_SIZE, "block-size", 0, "SIZE", NULL),
    D(OPT_SYNC, "sync", 0, "MODE", NULL),
    D(OPT_WARM, "warm", 0, NULL, "keep the input's page cache (default: drop it first)"),
    D(OPT_VERIFY, "verify", 0, NULL, "after timing, decompress and compare XXH3 hashes"),
    D(OPT_FORCE, "force", 0, NULL, "replace FILE when it exists (otherwise an error)"),
    D(OPT_JSON, "json", 0, NULL, "print the record as one JSON object"),
    D(OPT_MAX_MEMORY, "max-memory", 0, "SIZE",
      "refuse (exit 2) when the memory estimate of the largest\n"
      "thread count is above SIZE (default: MemAvailable);\n"
      "with --decompress, archives kept in RAM (mem, tmpfs)\n"
      "must fit beside the estimate (without SIZE: within\n"
      "half of MemAvailable), else exit 1 before any timing"),
    D(OPT_REPS, "reps", 0, "N|auto", NULL),
    D(OPT_NO_WARMUP, "no-warmup", 0, NULL, "skip the discarded warm-up runs"),
    D(OPT_LAYOUT, "layout", 0, "L", NULL),
    D(OPT_SEED, "seed", 0, "N",
      "of the bootstrap (default 1: the same inputs give the same calls)"),
    D(OPT_CMD, "cmd", 0, "TEMPLATE", NULL),
    D(OPT_CMD_NAME, "cmd-name", 0, "NAME",
      "the series' name, cmd:NAME (default: the program's name)"),
    D(OPT_DECOMPRESS, "decompress", 0, NULL, NULL),
    D(OPT_PROBE, "probe", 0, "FILE", NULL),
    D(OPT_TOLERANCE, "tolerance", 0, "X", "for the verdicts, as in analyze (default 0.10)"),
    [OPT_FORMAT - OPT_INPUT] = {.long_name = "format", .arg = "F",
                                .help_fn = document_formats_help},
    D(OPT_PAIR, "pair", 0, "A:B",
      "pair target A of the first study with target B of the others\n(repeatable)"),
    D(OPT_THRESHOLD, "threshold", 0, "PCT",
      "smaller changes are 'same' (default 2; '2' or '2%')"),
    D(OPT_FAIL_ON_REGRESSION, "fail-on-regression", 0, "PCT", NULL),
    D(OPT_PLOTS, "plots", 0, "DIR", NULL),
    D(OPT_PLOT_FORMAT, "plot-format", 0, "F", "png (default), svg or both"),
    D(OPT_CLASSES, "classes", 0, NULL, NULL),
    D(OPT_CHECK, "check", 0, "DIR2", NULL),
    D(OPT_VOLUME, "volume", 0, "NAME=DIR[@CAP]", NULL),
    D(OPT_WRITE, "write", 0, "[NAME=]RATE", NULL),
    D(OPT_READ, "read", 0, "RATE", NULL),
    D(OPT_CLASS, "class", 0, "NAME", NULL),
    D(OPT_SIZES, "sizes", 0, "LIST", NULL),
    D(OPT_OPS, "ops", 0, "LIST", NULL),
    D(OPT_BLOCK, "block", 0, "SIZE", NULL),
    D(OPT_SUSTAINED, "sustained", 0, "SIZE", NULL),
    D(OPT_FIXTURE_SIZE, "fixture-size", 0, "SIZE", NULL),
    D(OPT_NO_PROBE, "no-probe", 0, NULL, NULL),
    D(OPT_OUT, "out", 0, "DIR", NULL),
    D(OPT_KEEP_INPUT, "keep-input", 0, NULL, NULL),
    D(OPT_RESUME, "resume", 0, "DIR", NULL),
    D(OPT_QUICK, "quick", 0, NULL, NULL),
    D(OPT_SIZE, "size", 0, "SIZE", NULL),
    D(OPT_KIND, "kind", 0, "KIND", NULL),
    D(OPT_INPUT_SIZE, "input-size", 0, "SIZE", NULL),
    D(OPT_OUTPUT_SIZE, "output-size", 0, "SIZE", NULL),
    D(OPT_TARGET, "target", 0, "NAME", NULL),
    D(OPT_HOST, "host", 0, "NAME", NULL),
    D(OPT_STARTED, "started", 0, "TIME", NULL),
};
#undef D

static const opt_desc_t *desc_of(opt_id_t id)
{
    assert(id >= OPT_INPUT && id < OPT_END && table[id - OPT_INPUT].long_name != NULL);
    return &table[id - OPT_INPUT];
}

/* The most options a command takes (run's count, with room to spare). */
enum { MAX_USES = 40 };

int options_next(const opt_command_t *cmd, int argc, char **argv)
{
    struct option longopts[MAX_USES + 1];
    char optstring[2 + 2 * MAX_USES] = ":";
    size_t n = 0, len = 1;
    for (const opt_use_t *u = cmd->uses; u->id != OPT_NONE; u++, n++) {
        assert(n < MAX_USES);
        const opt_desc_t *d = desc_of(u->id);
        longopts[n] = (struct option){d->long_name, d->arg ? required_argument : no_argument,
                                      NULL, (int)u->id};
        if (d->short_name != 0) {
            optstring[len++] = d->short_name;
            if (d->arg != NULL)
                optstring[len++] = ':';
        }
    }
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    optstring[len] = '\0';
    int c = getopt_long(argc, argv, optstring, longopts, NULL);
    for (const opt_use_t *u = cmd->uses; c > 0 && c < OPT_INPUT && u->id != OPT_NONE; u++)
        if (desc_of(u->id)->short_name == c)
            return (int)u->id;
    return c;
}

void options_print(FILE *out, const opt_command_t *cmd, unsigned section)
{
    for (const opt_use_t *u = cmd->uses; u->id != OPT_NONE; u++) {
        if (((u->flags & OPT_SECTION2) != 0) != (section == 1))
            continue;
        const opt_desc_t *d = desc_of(u->id);
        const char *arg = u->arg ? u->arg : d->arg;
        int width;
        if (d->short_name != 0 && (u->flags & OPT_SHORT_ONLY))
            width = fprintf(out, "  -%c", d->short_name);
        else if (d->short_name != 0)
            width = fprintf(out, "  -%c, --%s", d->short_name, d->long_name);
        else
            width = fprintf(out, "  %s--%s", cmd->indent_long ? "    " : "", d->long_name);
        if (arg != NULL)
            width += fprintf(out, " %s", arg);
        if (u->flags & OPT_OWN_LINE)
            fprintf(out, "\n%*s", cmd->column, "");
        else if ((u->flags & OPT_WIDE_GAP) || width >= cmd->column)
            fputs("  ", out);
        else
            fprintf(out, "%*s", cmd->column - width, "");
        char made[1024];
        void (*help_fn)(char *, size_t) = u->help_fn ? u->help_fn : d->help_fn;
        const char *help = u->help      ? u->help
                           : u->help_fn ? made
                           : d->help    ? d->help
                                        : made;
        if (help == made) {
            assert(help_fn != NULL);
            help_fn(made, sizeof made);
        }
        for (const char *line = help; line != NULL;) {
            const char *end = strchr(line, '\n');
            fprintf(out, "%.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
            line = end ? end + 1 : NULL;
            if (line != NULL)
                fprintf(out, "%*s", cmd->column, "");
        }
        if (u->more != NULL)
            u->more(out);
    }
}

void options_help(FILE *out, const opt_command_t *cmd, const char *head, const char *tail)
{
    fputs(head, out);
    options_print(out, cmd, 0);
    fputs(tail, out);
}

void options_help_paragraph(FILE *out, const char *const *parts, size_t n)
{
    static const char space[] = " \n";
    size_t column = 0;
    for (size_t i = 0; i < n; i++) {
        const char *word = parts[i];
        while (*(word += strspn(word, space)) != '\0') {
            size_t len = strcspn(word, space);
            if (column > 0 && column + 1 + len > OPTIONS_PARAGRAPH_WIDTH) {
                fputc('\n', out);
                column = 0;
            }
            if (column > 0) {
                fputc(' ', out);
                column++;
            }
            fprintf(out, "%.*s", (int)len, word);
            column += len;
            word += len;
        }
    }
    if (column > 0)
        fputc('\n', out);
}
