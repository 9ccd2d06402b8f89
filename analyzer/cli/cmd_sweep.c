/* cmd_sweep.c - `chokepoint sweep`: compress runs over targets x codecs x threads x reps.
 * Its options, the input's check (the one user-facing one; measure/sweep.c only asserts
 * it), the memory estimate and target locks shared with `run` (study/session.h's
 * session_claim_targets), runs.csv on stdout or in -o FILE (tables/runs_writer.h), and
 * the sweep itself as `run` makes it (study/sweeping.h), a failed run failing it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "codecs/codec.h"
#include "codecs/presets.h"
#include "common/log.h"
#include "common/prng.h"
#include "measure/codec_job.h"
#include "measure/hostinfo.h"
#include "measure/sweep.h"
#include "tables/runs_writer.h"
#include "study/session.h"
#include "study/sweeping.h"

static const char sweep_head[] =
    "usage: chokepoint sweep -i INPUT [options] TARGET...\n"
    "\n"
    "Compresses INPUT once per target x codec x thread count x repetition, in a shuffled\n"
    "order, after one discarded warm-up per (target, codec), and writes one CSV row per run:\n"
    "time from opening the input to the output's fsync and close, bytes, CPU, pipeline stage\n"
    "accounting and system telemetry. Outputs are temporary files in each target, removed\n"
    "after every run. Each target directory is locked while the sweep runs\n"
    "(DIR/.chokepoint-target.lock, removed at the end): a second chokepoint command that\n"
    "would measure the same directory is refused (exit 2) before it writes anything.\n"
    "\n";

/* The TARGET paragraph's words on the directory form; the other kinds' sentences follow
 * from the registry (parse_target_help), then sweep_targets_end. */
static const char sweep_targets[] =
    "TARGET is [NAME=]DIR[@CAP]: a directory on the volume to test, an optional name, and\n"
    "optional emulated rate caps: @400MB/s or @write=400MB/s caps the writes (e.g.\n"
    "usb=/media/usb@400MB/s), @read=60MB/s the reads from its volume, and\n"
    "@write=400MB/s,read=60MB/s both. As root a write cap is an emulated disk (ext4 on a\n"
    "loop device in DIR, its writes throttled by the kernel: page cache and write-back as\n"
    "on a real disk); with --sync direct or without root chokepoint paces each write.";

static const char sweep_targets_end[] =
    "A target given twice (mem mem; a=/x b=/x or /x /x/ with the same caps) is refused.";

static const char sweep_tail[] =
    "\n"
    "Exit status: 0 all runs succeeded, 1 some runs failed (their rows carry the error),\n"
    "2 usage error (including a target in use by another chokepoint process), 130\n"
    "interrupted (rows measured so far are kept).\n";

/* -c's help: the codecs of the registry (codecs/codec.h), then the presets. */
static void codec_help(char *buf, size_t size)
{
    char codecs[160];
    codec_list_text(codecs, sizeof codecs, NULL);
    snprintf(buf, size, "comma-separated codecs: %s\n"
             "(default zstd:3), or presets that run a program (--cmd);\n"
             "given twice, both lists are measured:", codecs);
}

static const opt_use_t sweep_uses[] = {
    {.id = OPT_INPUT},
    {.id = OPT_CODEC, .help_fn = codec_help, .more = presets_write_help},
    {.id = OPT_CMD,
     .help = "time this shell command instead (added to an explicit\n"
             "--codec list): {input}, {output} (substituted quoted, do not\n"
             "quote them) and {threads}; run with /bin/sh -c, timed to its\n"
             "exit plus the output's fsync; mem: {output} is a FIFO that\n"
             "chokepoint reads and counts"},
    {.id = OPT_CMD_NAME},
    {.id = OPT_THREADS, .help = "thread counts: 1,2,4 or 1..8 (default 1..usable CPUs)"},
    {.id = OPT_ENGINE, .help = "blocks (default) or native; see 'chokepoint compress --help'"},
    {.id = OPT_BLOCK_SIZE,
     .help = "block size for the blocks engine (default: the codec's);\n"
             "read size for native (default 1 MiB; 512 KiB decoding)"},
    {.id = OPT_REPS,
     .help = "measured repetitions of each case (default 3); auto: 3, then\n"
             "more until each median's 95% interval is within +-3% (at\n"
             "most 10)"},
    {.id = OPT_NO_WARMUP},
    {.id = OPT_LAYOUT,
     .help = "split: read INPUT where it is (default); same: copy INPUT to\n"
             "each target first and read it from there"},
    {.id = OPT_DECOMPRESS,
     .help = "time decompression instead: INPUT is compressed once per\n"
             "target and codec (not timed, checked byte for byte), and each\n"
             "run reads that archive from the target (cache dropped) and\n"
             "restores it with T decoder threads, to memory (default) or,\n"
             "with --layout same, onto the target; rates are restored bytes\n"
             "per second; mem keeps its archive in RAM (the CPU ceiling).\n"
             "--engine blocks: independent frames restored in parallel;\n"
             "native: the library's stream and streaming decoder (xz's\n"
             "decodes with T threads, zstd's with one).\n"
             "The presets zstd-cli:L and xz-cli:L time the CLIs restoring\n"
             "the same archive (zstd:L's, xz:L's); --cmd is refused"},
    {.id = OPT_SYNC, .help = "fsync (default), direct or none"},
    {.id = OPT_SEED,
     .help = "shuffles the run order, 0 to 2147483647 (default: random,\n"
             "printed)"},
    {.id = OPT_OUTPUT,
     .help = "write runs.csv here (default stdout); rows are appended and\n"
             "synced to FILE.partial as each run ends, renamed to FILE at\n"
             "the end"},
    {.id = OPT_FORCE, .help = "replace an existing output file"},
    {.id = OPT_MAX_MEMORY},
    {.id = OPT_QUIET, .help = "no progress or log lines on stderr"},
    {.id = OPT_HELP},
    {.id = OPT_NONE},
};
static const opt_command_t sweep_command = {sweep_uses, 25, true};

/* sweep --help: its head, the TARGET paragraph, its options and its tail. */
static void sweep_help(FILE *out)
{
    fputs(sweep_head, out);
    parse_target_help(out, sweep_targets, false, sweep_targets_end);
    options_help(out, &sweep_command, "\noptions:\n", sweep_tail);
}

int cmd_sweep(int argc, char **argv)
{
    sweep_params_t p = sweep_defaults();
    cp_err_t err = {0};
    int rc = CP_OK;
    series_spec_t *series = NULL;
    int *threads = NULL;
    target_spec_t *targets = NULL;
    const char *out_path = NULL;
    bool force = false, seed_given = false, sync_given = false;
    const char *cmd_template = NULL, *cmd_name = NULL;

    options_begin();
    int c;
    while (rc == CP_OK &&
           (c = options_next(&sweep_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_INPUT: p.input_path = optarg; break;
        case OPT_CODEC: rc = parse_series_list(optarg, &series, &p.n_series, &err); break;
        case OPT_THREADS:
            free(threads);
            threads = NULL;
            rc = parse_thread_list(optarg, &threads, &p.n_threads, &err);
            break;
        case OPT_ENGINE: rc = pipeline_engine_parse(optarg, &p.engine, &err); break;
        case OPT_BLOCK_SIZE:
            rc = parse_block_size(optarg, "block size", &p.block_size, &err);
            break;
        case OPT_REPS:
            rc = options_reps_or_auto(optarg, &p.reps, &p.reps_auto, &err);
            break;
        case OPT_NO_WARMUP: p.warmup = false; break;
        case OPT_LAYOUT: rc = sweep_layout_parse(optarg, &p.layout, &err); break;
        case OPT_SYNC:
            sync_given = true;
            rc = sync_mode_parse(optarg, &p.sync, &err);
            break;
        case OPT_SEED:
            rc = options_seed(optarg, &p.seed, &err);
            seed_given = true;
            break;
        case OPT_OUTPUT: out_path = optarg; break;
        case OPT_FORCE: force = true; break;
        case OPT_MAX_MEMORY: rc = options_max_memory(optarg, &p.max_memory, &err); break;
        case OPT_CMD: cmd_template = optarg; break;
        case OPT_CMD_NAME: cmd_name = optarg; break;
        case OPT_DECOMPRESS: p.decompress = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP:
            sweep_help(stdout);
            free(series);
            free(threads);
            return 0;
        default:
            free(series);
            free(threads);
            return options_error("sweep", c, argv);
        }
    }
    size_t n_targets = rc == CP_OK ? (size_t)(argc - optind) : 0;
    if (rc == CP_OK && p.input_path == NULL)
        rc = cp_err_set(&err, CP_EUSAGE, "sweep needs -i INPUT; see 'chokepoint sweep --help'");
    /* A missing input is refused before the banner and before -o gets its header. */
    uint64_t input_size = 0;
    if (rc == CP_OK && p.input_path != NULL)
        rc = compress_check_input(p.input_path, &input_size, &err);
    if (rc == CP_OK && n_targets == 0) {
        char forms[256];
        rc = cp_err_set(&err, CP_EUSAGE, "sweep needs at least one TARGET (%s); see "
                        "'chokepoint sweep --help'",
                        target_forms_text(forms, sizeof forms, " or ", ""));
    }
    if (rc == CP_OK) {
        targets = calloc(n_targets, sizeof *targets);
        for (size_t i = 0; targets != NULL && i < n_targets && rc == CP_OK; i++)
            rc = parse_target(argv[optind + (int)i], &targets[i], &err);
    }
    if (rc == CP_OK && targets == NULL)
        rc = cp_err_set(&err, CP_ENOMEM, "out of memory");
    if (rc == CP_OK)
        rc = options_finish_sweep(&p, &series, &threads, targets, n_targets, cmd_template,
                                  cmd_name, sync_given, &err);
    if (rc == CP_OK && force && out_path == NULL)
        rc = cp_err_set(&err, CP_EUSAGE, "--force replaces an -o FILE; none was given");
    /* The memory estimate, and refused before anything is written when another command
     * measures a target. */
    target_locks_t locks = TARGET_LOCKS_INIT;
    if (rc == CP_OK)
        rc = session_claim_targets(&p, series, threads, targets, n_targets, &locks, &err);
    runs_csv_file_t out = {NULL, 0};
    if (rc == CP_OK)
        rc = runs_csv_open(&out, out_path, ROWS_BESIDE, force, &err);
    if (rc == CP_OK) {
        /* Warned only once every refusal has had its say: an error stays one line. */
        host_warn_oversubscribed(threads, p.n_threads);
        if (!seed_given)
            p.seed = prng_fresh_seed();
        p.targets = targets;
        p.n_targets = n_targets;
        p.series = series;
        p.threads = threads;
        sweeping_request_t rq = {.params = &p, .runs = &out, .plan = SWEEPING_PLAN_SWEEP,
                                 .on_failed_runs = SWEEPING_FAIL};
        rc = sweeping_run(&rq, NULL, &err);
    }
    session_release_targets(targets, n_targets, &locks);
    if (rc != CP_OK)
        cp_log_error("%s", err.msg);
    free(series);
    free(threads);
    free(targets);
    return cp_exit_status(rc);
}
