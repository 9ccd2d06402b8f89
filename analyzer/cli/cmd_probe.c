/* cmd_probe.c - `chokepoint probe`: each target volume's write and read speed by size. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "common/prng.h"
#include "measure/probe.h"
#include "measure/sink.h"
#include "report/probe_summary.h"
#include "study/probing.h"
#include "study/session.h"
#include "tables/probe_writer.h"
#include "tables/rows_file.h"

static const char probe_head[] =
    "usage: chokepoint probe [OPTIONS] TARGET...\n"
    "\n";

/* The paragraph that teaches TARGET: its words on the directory form; the sentences of
 * the other kinds with a volume follow from the registry (parse_target_help), then
 * probe_targets_end. */
static const char probe_targets[] =
    "Measures each target volume's write and read speed across file sizes, with\n"
    "incompressible data, writes timed through fsync and reads after dropping the cache.\n"
    "TARGET is [NAME=]DIR[@CAP]: a directory on the volume, an optional report name, and\n"
    "optional emulated rate caps: @400MB/s or @write=400MB/s caps the writes, @read=60MB/s\n"
    "the reads, @write=400MB/s,read=60MB/s both (rows so capped are reported as emulated).\n"
    "As root a write cap is an emulated disk (ext4 on a loop device in DIR, its writes\n"
    "throttled by the kernel); with --sync direct or without root each write is paced.";

static const char probe_targets_end[] =
    "Each target directory is locked while the probe runs (DIR/.chokepoint-target.lock,\n"
    "removed at the end): a second chokepoint command that would measure the same\n"
    "directory is refused (exit 2) before it writes anything.";

static const char probe_tail[] =
    "\n"
    "Output: CSV, one row per measurement (docs/formats.md, probe.csv); a summary on\n"
    "stderr. Every file written is unique and removed afterwards, also on error and\n"
    "Ctrl-C. Exit status: 0 success, 1 runtime failure (no size fits, I/O error),\n"
    "2 usage error (including a TARGET that is not a writable directory or is in use by\n"
    "another chokepoint process), 130 interrupted (rows measured so far are still\n"
    "written).\n";

static const opt_use_t probe_uses[] = {
    {.id = OPT_SIZES,
     .help = "file sizes, comma-separated (default\n"
             "2MB,5MB,10MB,20MB,50MB,100MB,200MB,500MB,1GB,2GB); K M G are\n"
             "powers of 1024, KB MB GB powers of 1000. Sizes that do not fit\n"
             "in free space less max(64 MiB, 5%) are skipped with a warning."},
    {.id = OPT_REPS,
     .help = "repetitions of each size (default 3), in shuffled order; auto:\n"
             "3, then more of each size until the median of its writes and\n"
             "reads is within +-3% at 95% confidence (at most 10)"},
    {.id = OPT_OPS,
     .help = "write, read and/or sustained (default write,read; plus\n"
             "sustained when --sustained is given). A read reads back the\n"
             "file just written, so 'read' alone still writes it."},
    {.id = OPT_SYNC,
     .help = "fsync (default: buffered writes, fsync before close),\n"
             "direct (O_DIRECT writes and reads), or none (no fsync: the\n"
             "page cache is measured)"},
    {.id = OPT_BLOCK, .help = "write and read chunk (default 1M; 4K to 1G)"},
    {.id = OPT_SUSTAINED, .help = "also write one file of SIZE, logging MB/s every 0.5 s"},
    {.id = OPT_SEED,
     .help = "seed of the order and the data, 0 to 2147483647 (default:\n"
             "from the clock; recorded in the seed column)"},
    {.id = OPT_OUTPUT,
     .help = "write the CSV to FILE instead of stdout ('-' = stdout); rows\n"
             "are appended and synced to FILE.partial as they are measured,\n"
             "renamed to FILE at the end"},
    {.id = OPT_FORCE},
    {.id = OPT_QUIET, .help = "no progress or summary on stderr"},
    {.id = OPT_HELP},
    {.id = OPT_NONE},
};
static const opt_command_t probe_command = {probe_uses, 20, false};

/* probe --help: its usage line, the paragraph on TARGET, its options and its tail. */
static void probe_help(FILE *out)
{
    fputs(probe_head, out);
    parse_target_help(out, probe_targets, true, probe_targets_end);
    options_help(out, &probe_command, "\noptions:\n", probe_tail);
}

typedef struct probe_output {
    FILE *csv;           /* stdout, or the rows file's stream for -o */
    rows_file_t *file;   /* -o FILE: rows appended and synced to FILE.partial */
    bool header_done;    /* stdout: written with the first row, so a failed start prints
                            nothing */
    probe_rows_t kept;   /* every row, for the summary */
} probe_output_t;

/* Every row kept for the summary, then written as CSV: appended and synced to -o's
 * FILE.partial, or to stdout (the header with the first row, so a failed start prints
 * nothing). */
static int on_row(const probe_row_t *row, void *ctx, cp_err_t *err)
{
    probe_output_t *o = ctx;
    if (probing_keep_row(row, &o->kept, err) != CP_OK)
        return CP_ENOMEM;
    if (o->file != NULL)
        return probing_file_row(row, o->file, err);
    int rc = o->header_done ? CP_OK : probe_csv_header(o->csv, err);
    o->header_done = true;
    if (rc == CP_OK)
        rc = probe_csv_row(o->csv, row, err);
    if (rc == CP_OK && fflush(stdout) != 0)
        rc = cp_err_errno(err, CP_EIO, errno, "writing the probe CSV to stdout");
    return rc;
}

static int parse_size_list(const char *text, probe_params_t *p, cp_err_t *err)
{
    char buf[1024];
    if (strlen(text) >= sizeof buf)
        return cp_err_set(err, CP_EUSAGE, "bad --sizes: list too long");
    strcpy(buf, text);
    p->n_sizes = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        uint64_t size;
        int rc = parse_size(tok, &size, err);
        if (rc != CP_OK)
            return rc;
        if (size == 0)
            return cp_err_set(err, CP_EUSAGE, "bad size '%s' in --sizes: must be positive", tok);
        bool dup = false;
        for (size_t i = 0; i < p->n_sizes && !dup; i++)
            dup = p->sizes[i] == size;
        if (dup)
            continue;
        if (p->n_sizes == PROBE_MAX_SIZES)
            return cp_err_set(err, CP_EUSAGE, "bad --sizes: at most %d sizes", PROBE_MAX_SIZES);
        p->sizes[p->n_sizes++] = size;
    }
    if (p->n_sizes == 0)
        return cp_err_set(err, CP_EUSAGE, "bad --sizes '%s': no sizes", text);
    return CP_OK;
}

static int parse_ops(const char *text, bool *write, bool *read, bool *sustained, cp_err_t *err)
{
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return cp_err_set(err, CP_EUSAGE, "bad --ops: too long");
    strcpy(buf, text);
    *write = *read = *sustained = false;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "write") == 0)
            *write = true;
        else if (strcmp(tok, "read") == 0)
            *read = true;
        else if (strcmp(tok, "sustained") == 0)
            *sustained = true;
        else
            return cp_err_set(err, CP_EUSAGE,
                              "bad --ops '%s': expected write, read and/or sustained, "
                              "comma-separated",
                              text);
    }
    if (!*write && !*read && !*sustained)
        return cp_err_set(err, CP_EUSAGE, "bad --ops '%s': no operations", text);
    return CP_OK;
}

int cmd_probe(int argc, char **argv)
{
    probe_params_t p = probe_defaults();
    cp_err_t err = {0};
    const char *out_path = NULL;
    const char *ops_text = NULL;
    bool force = false, seed_given = false, sizes_given = false, reps_given = false;
    int rc = CP_OK;

    options_begin();
    int c;
    while (rc == CP_OK && (c = options_next(&probe_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_SIZES:
            rc = parse_size_list(optarg, &p, &err);
            sizes_given = true;
            break;
        case OPT_REPS:
            rc = options_reps_or_auto(optarg, &p.reps, &p.reps_auto, &err);
            reps_given = true;
            break;
        case OPT_OPS: ops_text = optarg; break;
        case OPT_SYNC: rc = sync_mode_parse(optarg, &p.sync, &err); break;
        case OPT_BLOCK: rc = parse_block_size(optarg, "--block", &p.block_bytes, &err); break;
        case OPT_SUSTAINED:
            rc = parse_size(optarg, &p.sustained_bytes, &err);
            if (rc == CP_OK && p.sustained_bytes == 0)
                rc = cp_err_set(&err, CP_EUSAGE, "bad --sustained '%s': must be positive",
                                optarg);
            break;
        case OPT_SEED:
            rc = options_seed(optarg, &p.seed, &err);
            seed_given = true;
            break;
        case OPT_OUTPUT: out_path = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP: probe_help(stdout); return 0;
        default: return options_error("probe", c, argv);
        }
    }
    if (rc == CP_OK && ops_text != NULL) {
        bool sustained = false;
        rc = parse_ops(ops_text, &p.op_write, &p.op_read, &sustained, &err);
        if (rc == CP_OK && sustained && p.sustained_bytes == 0)
            rc = cp_err_set(&err, CP_EUSAGE, "--ops sustained needs --sustained SIZE");
        /* No option is silently ignored. */
        if (rc == CP_OK && !sustained && p.sustained_bytes > 0)
            rc = cp_err_set(&err, CP_EUSAGE, "--sustained SIZE given but --ops '%s' lacks "
                            "sustained; add it to --ops (or drop --sustained)", ops_text);
        if (rc == CP_OK && !p.op_write && !p.op_read && sizes_given)
            rc = cp_err_set(&err, CP_EUSAGE, "--sizes given but --ops '%s' measures no sizes "
                            "(only sustained); add write or read to --ops", ops_text);
        if (rc == CP_OK && !p.op_write && !p.op_read && reps_given)
            rc = cp_err_set(&err, CP_EUSAGE, "--reps repeats the write and read sizes but "
                            "--ops '%s' measures none (sustained runs once); drop --reps",
                            ops_text);
        if (rc == CP_OK && !p.op_write && !p.op_read)
            p.n_sizes = 0; /* sustained only */
    }
    if (rc == CP_OK && optind >= argc)
        rc = cp_err_set(&err, CP_EUSAGE, "no TARGET given; see 'chokepoint probe --help'");
    if (out_path != NULL && strcmp(out_path, "-") == 0)
        out_path = NULL;
    if (rc == CP_OK && force && out_path == NULL)
        rc = cp_err_set(&err, CP_EUSAGE, "--force replaces an -o FILE; none was given");

    size_t n_targets = rc == CP_OK ? (size_t)(argc - optind) : 0;
    target_spec_t *targets = calloc(n_targets ? n_targets : 1, sizeof *targets);
    if (targets == NULL && rc == CP_OK)
        rc = cp_err_set(&err, CP_ENOMEM, "out of memory");
    for (size_t i = 0; rc == CP_OK && i < n_targets; i++) {
        rc = parse_target(argv[optind + (int)i], &targets[i], &err);
        if (rc == CP_OK && !target_ops_for(&targets[i])->has_volume)
            rc = cp_err_set(&err, CP_EUSAGE, "target '%s' has no volume to probe; give a "
                            "directory", targets[i].name);
    }
    if (rc == CP_OK)
        rc = target_check_names(targets, n_targets, &err);
    /* Refused before anything is written when another command measures a target. */
    target_locks_t locks = TARGET_LOCKS_INIT;
    if (rc == CP_OK)
        rc = session_lock_targets(targets, n_targets, p.sync == SYNC_DIRECT, &locks, &err);
    if (rc != CP_OK) {
        cp_log_error("%s", err.msg);
        session_release_targets(targets, n_targets, &locks);
        free(targets);
        return cp_exit_status(rc);
    }
    if (!seed_given)
        p.seed = prng_fresh_seed();

    probe_output_t out = {stdout, NULL, false, {NULL, 0, 0}};
    if (out_path != NULL) {
        out.file = rows_file_open(out_path, ROWS_BESIDE, force, probe_csv_header_text(), &err);
        if (out.file == NULL) {
            cp_log_error("%s", err.msg);
            session_release_targets(targets, n_targets, &locks);
            free(targets);
            return cp_exit_status(cp_err_code(&err, CP_EIO));
        }
        out.csv = rows_file_stream(out.file);
        out.header_done = true;
    }
    probing_request_t rq = {.params = &p, .targets = targets, .n_targets = n_targets,
                            .on_row = on_row, .row_ctx = &out, .on_failure = PROBING_STOP};
    rc = probing_run(&rq, &err);
    if ((rc == CP_OK || rc == CP_EINTR) && !out.header_done) {
        int header_rc = probe_csv_header(out.csv, &err);
        rc = rc == CP_OK ? header_rc : rc;
    }

    /* Rows already measured are results, whatever stopped the probe: FILE.partial holds
     * them and becomes FILE (with only the header when a finished or interrupted probe
     * measured nothing). */
    int out_rc = CP_OK;
    cp_err_t out_err = {0};
    if (out.file != NULL) {
        if (rc == CP_OK || rc == CP_EINTR)
            rows_file_keep_empty(out.file);
        out_rc = rows_file_close(out.file, &out_err);
    } else if (fflush(stdout) != 0 && rc == CP_OK) {
        rc = cp_err_errno(&err, CP_EIO, errno, "writing the probe CSV to stdout");
    }
    if (!cp_log_quiet())
        probe_summary_print(stderr, out.kept.rows, out.kept.n);
    if (rc != CP_OK)
        cp_log_error("%s", err.msg);
    if (out_rc != CP_OK)
        cp_log_error("%s", out_err.msg);
    free(out.kept.rows);
    session_release_targets(targets, n_targets, &locks);
    free(targets);
    if (rc == CP_OK)
        rc = out_rc;
    return cp_exit_status(rc);
}
