/* cmd_import.c - `chokepoint import fio|hyperfine`: another tool's JSON as chokepoint's
 * probe.csv or runs.csv, with a meta.json beside a table written to a file. Argument
 * handling and output only; the formats are tables/fio_import.c and
 * tables/hyperfine_import.c, the meta.json tables/import_meta.c. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "common/err.h"
#include "common/log.h"
#include "model/data_source.h"
#include "tables/fio_import.h"
#include "tables/hyperfine_import.h"
#include "tables/import_json.h"
#include "tables/import_meta.h"
#include "tables/outfile.h"

static const char import_head[] =
    "usage: chokepoint import fio FIO.json [-o PROBE.csv] [--host NAME] [--started TIME]\n"
    "                         [--force]\n"
    "       chokepoint import hyperfine HF.json --input-size SIZE [--output-size SIZE]\n"
    "                         [--target NAME] [-o RUNS.csv] [--host NAME] [--started TIME]\n"
    "                         [--force]\n"
    "\n"
    "Turns another tool's measurements into chokepoint's tables, which analyze, plot,\n"
    "compare, history and predict then read like their own (source fio or hyperfine).\n"
    "\n"
    "  fio        fio's --output-format=json (or json+) as probe.csv: each job a target\n"
    "             named by its job name, its write or read bw_bytes a row at its size,\n"
    "             with its block size; direct=1 is sync direct, end_fsync, fsync_on_close,\n"
    "             fsync or fdatasync is fsync, anything else none (a page-cache speed,\n"
    "             never a drain rate). Jobs must be sequential (rw=write or rw=read).\n"
    "  hyperfine  hyperfine's --export-json from a run with a threads parameter\n"
    "             (-P threads 1 8, -L threads 1,2,4) as runs.csv: each result's times\n"
    "             the repetitions at its thread count, its user and system means the CPU\n"
    "             seconds; parameters target and codec name the target and series, else\n"
    "             the command's text does\n"
    "\n";

static const opt_use_t import_uses[] = {
    {.id = OPT_INPUT_SIZE,
     .help = "bytes each hyperfine run read (K M G T powers of 1024, KB MB\n"
             "GB TB of 1000)"},
    {.id = OPT_OUTPUT_SIZE, .help = "bytes each run wrote (default: not known)"},
    {.id = OPT_TARGET, .help = "the target of results without a target parameter"},
    {.id = OPT_OUTPUT,
     .help = "the table to write (default: stdout); refused if it exists.\n"
             "A meta.json is written beside it when none is there, so\n"
             "history, compare and predict know the table's host and start\n"
             "time; a meta.json already there is left as it is"},
    {.id = OPT_HOST,
     .help = "the machine the figures were measured on, for meta.json\n"
             "(default: 'unknown', never this machine's name)"},
    {.id = OPT_STARTED,
     .help = "when they were measured, YYYY-MM-DDTHH:MM:SS then Z or +HHMM\n"
             "(no zone: UTC); default: fio's timestamp, else the imported\n"
             "file's modification time"},
    {.id = OPT_FORCE,
     .help = "replace FILE, and the meta.json beside it when an import of\n"
             "FILE wrote it (any other meta.json stays)"},
    {.id = OPT_HELP},
    {.id = OPT_NONE},
};

static const opt_command_t import_command = {import_uses, 22, false};

static const char import_tail[] =
    "\n"
    "Exit status: 0 written, 1 runtime failure, 2 bad arguments or a file that is not the\n"
    "tool's output (one line naming the file or option and what is wrong; nothing\n"
    "written, neither the table nor meta.json).\n";

typedef enum import_kind { IMPORT_FIO, IMPORT_HYPERFINE } import_kind_t;

typedef struct import_args {
    import_kind_t kind;
    const char *input, *output, *target, *host, *started;
    uint64_t input_bytes, output_bytes;
    bool force, input_size_given;
} import_args_t;

/* The kind word after "import". CP_EUSAGE naming it otherwise. */
static int parse_kind(const char *word, import_kind_t *kind, cp_err_t *err)
{
    if (word != NULL && strcmp(word, "fio") == 0)
        *kind = IMPORT_FIO;
    else if (word != NULL && strcmp(word, "hyperfine") == 0)
        *kind = IMPORT_HYPERFINE;
    else
        return cp_err_set(err, CP_EUSAGE, "import: what to import: 'fio' or 'hyperfine', not "
                          "'%s'; try 'chokepoint import --help'", word ? word : "");
    return CP_OK;
}

/* Whether the table goes to a file (not stdout: no -o, or "-"), so a meta.json beside it. */
static bool to_file(const import_args_t *a)
{
    return a->output != NULL && strcmp(a->output, "-") != 0;
}

/* Checks what the options of each kind need, once parsed. */
static int check_args(const import_args_t *a, cp_err_t *err)
{
    if (a->input == NULL)
        return cp_err_set(err, CP_EUSAGE, "import: the JSON file to read is missing");
    if (a->kind == IMPORT_FIO && (a->input_size_given || a->output_bytes > 0 || a->target))
        return cp_err_set(err, CP_EUSAGE, "import fio: --input-size, --output-size and "
                          "--target are hyperfine's; fio's JSON names its jobs and sizes");
    if (a->kind == IMPORT_HYPERFINE && !(a->input_bytes > 0))
        return cp_err_set(err, CP_EUSAGE, "import hyperfine: --input-size SIZE (above 0) is "
                          "required: the bytes each run read");
    if (a->force && a->output == NULL)
        return cp_err_set(err, CP_EUSAGE, "--force replaces an -o FILE; none was given");
    if (a->output != NULL && a->output[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "-o: empty file name");
    if (a->host != NULL && import_meta_check_host(a->host, err) != CP_OK)
        return CP_EUSAGE;
    if (a->started != NULL && import_meta_check_started(a->started, err) != CP_OK)
        return CP_EUSAGE;
    if ((a->host != NULL || a->started != NULL) && !to_file(a))
        return cp_err_set(err, CP_EUSAGE, "--host and --started go into the meta.json "
                          "written beside -o FILE; without -o nothing records them");
    return a->output != NULL ? outfile_check(a->output, a->force, err) : CP_OK;
}

/* A size option's value (parse_size), the option named in the message. */
static int option_size(const char *option, const char *text, uint64_t *out, cp_err_t *err)
{
    int rc = parse_size(text, out, err);
    if (rc != CP_OK) {
        char msg[CP_ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg);
        cp_err_clear(err);
        cp_err_set(err, rc, "%s: %s", option, msg);
    }
    return rc;
}

/* Parses the arguments after "import": the kind, the file and the options. */
static int parse_args(int argc, char **argv, import_args_t *a, options_outcome_t *outcome,
                      cp_err_t *err)
{
    *outcome = OPTIONS_FAILED;
    options_begin();
    int c, rc = CP_OK;
    while (rc == CP_OK && (c = options_next(&import_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_OUTPUT: a->output = optarg; break;
        case OPT_INPUT_SIZE:
            rc = option_size("--input-size", optarg, &a->input_bytes, err);
            a->input_size_given = true;
            break;
        case OPT_OUTPUT_SIZE:
            rc = option_size("--output-size", optarg, &a->output_bytes, err);
            break;
        case OPT_TARGET: a->target = optarg; break;
        case OPT_FORCE: a->force = true; break;
        case OPT_HOST: a->host = optarg; break;
        case OPT_STARTED: a->started = optarg; break;
        case OPT_HELP: *outcome = OPTIONS_HELP_REQUESTED; return CP_OK;
        default: options_error("import", c, argv); return CP_EUSAGE;
        }
    }
    if (rc == CP_OK)
        rc = parse_kind(optind < argc ? argv[optind++] : NULL, &a->kind, err);
    if (rc == CP_OK && optind < argc)
        a->input = argv[optind++];
    if (rc == CP_OK && optind < argc)
        rc = cp_err_set(err, CP_EUSAGE, "import: one JSON file expected, got '%s' too",
                        argv[optind]);
    if (rc == CP_OK)
        rc = check_args(a, err);
    if (rc == CP_OK)
        *outcome = OPTIONS_PROCEED;
    return rc;
}

/* Says what came from fio, and that a buffered write without a sync is the page
 * cache's speed, not the disk's. */
static void import_fio_notes(const import_args_t *a, const fio_import_t *fio)
{
    cp_log_info("import: %s: %zu rows from %s -> %s", a->input, fio->n, fio->version,
                a->output ? a->output : "stdout");
    for (size_t i = 0; i < fio->n; i++)
        if (fio->rows[i].op == PROBE_WRITE && fio->rows[i].sync == SYNC_NONE)
            cp_log_warn("import: job '%s' wrote through the page cache without a sync "
                        "(no direct=1, end_fsync, fsync): %.0f MB/s is a page-cache speed, "
                        "not the disk's, and gives no drain rate", fio->rows[i].target,
                        fio->rows[i].bytes_per_s / 1e6);
}

/* The table's rows into f, flushed to its temporary file. */
static int write_rows(const import_args_t *a, outfile_t *f, const fio_import_t *fio,
                      const hyperfine_import_t *hf, cp_err_t *err)
{
    int rc = a->kind == IMPORT_FIO ? fio_import_write(outfile_stream(f), fio, err)
                                   : hyperfine_import_write(outfile_stream(f), hf, err);
    return rc == CP_OK ? outfile_flush(f, err) : rc;
}

/* Puts the table and, with -o, its meta.json in place: both are written into temporary
 * files first; meta.json goes in first and is taken away again when the table then
 * fails, so nothing half-done is left. */
static int commit_outputs(const import_args_t *a, const import_meta_args_t *margs, int argc,
                          char **argv, outfile_t *f, import_meta_t *meta, cp_err_t *err)
{
    int rc = to_file(a) ? import_meta_open(margs, argc, argv, meta, err) : CP_OK;
    if (rc == CP_OK)
        rc = import_meta_commit(meta, err);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    if (rc != CP_OK)
        import_meta_undo(meta);
    else if (to_file(a))
        import_meta_report(meta);
    return rc;
}

/* The rows of root as the kind's table, written whole into a->output (with its meta.json)
 * or not at all; one line on stderr says what was read. */
static int import_write(const import_args_t *a, const json_t *root, int argc, char **argv,
                        cp_err_t *err)
{
    fio_import_t fio = {0};
    hyperfine_import_t hf = {0};
    import_meta_t meta = {0};
    hyperfine_sizes_t sizes = {a->input_bytes, a->output_bytes, a->target};
    int rc = a->kind == IMPORT_FIO ? fio_import_parse(a->input, root, &fio, err)
                                   : hyperfine_import_parse(a->input, root, &sizes, &hf, err);
    outfile_t *f = rc == CP_OK ? outfile_open(a->output, a->force, err) : NULL;
    if (rc == CP_OK && f == NULL)
        rc = cp_err_code(err, CP_EIO);
    if (rc == CP_OK)
        rc = write_rows(a, f, &fio, &hf, err);
    const import_meta_args_t margs = {
        .source = a->kind == IMPORT_FIO ? DATA_SOURCE_FIO_NAME : DATA_SOURCE_HYPERFINE_NAME,
        .file = a->input, .table_path = a->output, .host = a->host, .started = a->started,
        .fio_timestamp = fio.timestamp, .force = a->force};
    if (rc == CP_OK)
        rc = commit_outputs(a, &margs, argc, argv, f, &meta, err);
    outfile_close(f);
    import_meta_close(&meta);
    if (rc == CP_OK && a->kind == IMPORT_FIO)
        import_fio_notes(a, &fio);
    if (rc == CP_OK && a->kind == IMPORT_HYPERFINE)
        cp_log_info("import: %s: %zu runs from hyperfine -> %s", a->input, hf.n,
                    a->output ? a->output : "stdout");
    fio_import_free(&fio);
    hyperfine_import_free(&hf);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    cp_err_t err = {0};
    import_args_t args = {0};
    options_outcome_t outcome;
    int rc = parse_args(argc, argv, &args, &outcome, &err);
    if (outcome == OPTIONS_HELP_REQUESTED) {
        options_help(stdout, &import_command, import_head, import_tail);
        return 0;
    }
    json_t *root = NULL;
    if (rc == CP_OK)
        rc = import_json_read(args.input, &root, &err);
    if (rc == CP_OK)
        rc = import_write(&args, root, argc, argv, &err);
    json_decref(root);
    if (rc != CP_OK && err.msg[0] != '\0')
        cp_log_error("%s", err.msg);
    return cp_exit_status(rc);
}
