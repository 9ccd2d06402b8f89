/* cmd_fixture.c - `chokepoint fixture`: write a deterministic test input file. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "common/err.h"
#include "common/log.h"
#include "fixtures/fixture.h"
#include "common/clock.h"

static const char fixture_head[] =
    "usage: chokepoint fixture -o FILE [--size SIZE] [--kind KIND] [--seed N] [--force]\n"
    "                          [-q]\n"
    "\n"
    "Writes a deterministic test input: the same arguments give the same bytes on any\n"
    "machine. The file is written under a temporary name, fsynced, and renamed to FILE\n"
    "only when complete.\n"
    "\n";

static const char fixture_tail[] =
    "\n"
    "Exit status: 0 written, 1 runtime failure (no space, I/O error), 2 bad arguments or\n"
    "existing FILE, 130 interrupted. Nothing is left behind on failure.\n";

static const opt_use_t fixture_uses[] = {
    {.id = OPT_OUTPUT, .help = "the file to create (refused if it exists, unless --force)"},
    {.id = OPT_SIZE,
     .help = "exact size in bytes (default 1G); K M G T are powers of 1024,\n"
             "KB MB GB TB powers of 1000; 0 makes an empty file"},
    {.id = OPT_KIND,
     .help = "what the bytes look like (default mixed):\n"
             "  mixed   regions of compressed data, text, code and zeros,\n"
             "          like a disk image or an app bundle\n"
             "  text    English-like prose\n"
             "  binary  executable-like: code, string and pointer tables\n"
             "  random  incompressible\n"
             "  zeros   all zero bytes"},
    {.id = OPT_SEED,
     .help = "selects one of many streams of the kind (default 1;\n"
             "0 to 2147483647)"},
    {.id = OPT_FORCE, .help = "replace FILE if it exists"},
    {.id = OPT_QUIET, .help = "no summary line on stderr"},
    {.id = OPT_HELP},
    {.id = OPT_NONE},
};
static const opt_command_t fixture_command = {fixture_uses, 21, false};

/* Prints one usage error line and returns exit status 2. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    char line[CP_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    cp_log_error("%s (see 'chokepoint fixture --help')", line);
    return 2;
}

int cmd_fixture(int argc, char **argv)
{
    const char *output = NULL;
    uint64_t size = (uint64_t)1 << 30;
    fixture_kind_t kind = FIXTURE_MIXED;
    uint64_t seed = 1;
    bool force = false, seed_given = false;
    cp_err_t err = {0};

    options_begin();
    int c;
    while ((c = options_next(&fixture_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_OUTPUT: output = optarg; break;
        case OPT_SIZE:
            if (parse_size(optarg, &size, &err) != CP_OK)
                return usage_error("%s", err.msg);
            break;
        case OPT_KIND:
            if (fixture_kind_parse(optarg, &kind, &err) != CP_OK)
                return usage_error("%s", err.msg);
            break;
        case OPT_SEED:
            if (options_seed(optarg, &seed, &err) != CP_OK)
                return usage_error("%s", err.msg);
            seed_given = true;
            break;
        case OPT_FORCE: force = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP:
            options_help(stdout, &fixture_command, fixture_head, fixture_tail);
            return 0;
        default: return options_error("fixture", c, argv);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (output == NULL)
        return usage_error("%s", "missing -o FILE: the fixture's output file");
    if (seed_given && kind == FIXTURE_ZEROS)
        return usage_error("%s", "--seed has no effect with --kind zeros (all zero bytes); "
                           "drop it");

    double start = clock_now();
    int rc = fixture_write_file(output, size, kind, seed, force, &err);
    double seconds = clock_now() - start;
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
        return cp_exit_status(rc);
    }
    /* A rate only where the clock can tell one: below 10 ms it would be noise. */
    char rate[48] = "too short to give a rate";
    if (seconds >= 0.01)
        snprintf(rate, sizeof rate, "%.0f MB/s", (double)size / seconds / 1e6);
    cp_log_info("fixture: wrote %s: %llu bytes (%.2f MiB), kind %s, seed %llu, %.2f s, %s",
                output, (unsigned long long)size, (double)size / 1048576.0,
                fixture_kind_name(kind), (unsigned long long)seed, seconds, rate);
    return 0;
}
