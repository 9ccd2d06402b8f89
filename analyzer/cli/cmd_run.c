/* cmd_run.c - `chokepoint run`, the main job: its options (and, for --resume, the
 * recorded ones read back by study/study_resume.h), the study run by study/study.h in its
 * session (study/session.h), and what is said at the end: the report's path, or where
 * what was measured is and how to continue it. */
#include <errno.h>
#include <limits.h>
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
#include "codecs/presets.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "study/study.h"
#include "study/study_resume.h"


static const char run_head[] =
    "usage: chokepoint run [-i INPUT | --fixture-size SIZE] [options] [TARGET...]\n"
    "\n"
    "The whole study in one go, into results/<YYYYMMDD-HHMMSS>-<host>/ (or --out DIR):\n"
    "generates a fixture when no INPUT is given, probes each target's write and read speed\n"
    "(file sizes up to the input's size), compresses the input at every thread count on\n"
    "every target (sweep), analyses the timings and draws the plots. Writes runs.csv,\n"
    "probe.csv, analysis.json, report.md, the plots and meta.json, and prints the verdict\n"
    "per target.\n"
    "\n"
    "With no TARGET: the results directory itself ('local', its volume), /dev/shm when it is\n"
    "a writable tmpfs with room for the input ('shm', RAM: measured in a directory of the\n"
    "study's own there, /dev/shm/chokepoint-study.<pid>-<n>.chokepoint-tmp, removed at the\n"
    "end; left out with a note where it is too small), and 'mem'\n"
    "(output discarded: the CPU ceiling). TARGET is [NAME=]DIR[@CAP] as in 'chokepoint\n"
    "sweep --help' (CAP: RATE, write=RATE, read=RATE or write=RATE,read=RATE).\n"
    "Every target directory is locked for the whole study\n"
    "(DIR/.chokepoint-target.lock, removed at the end): a TARGET that another chokepoint\n"
    "command is measuring is refused (exit 2) before anything is written; studies with\n"
    "the default targets measure directories of their own and never refuse each other.\n"
    "\n"
    "options:\n";

static const char run_tail[] =
    "\n"
    "Exit status: 0 success, 1 some runs failed (the rest is still analysed), 2 usage error\n"
    "(including a results directory or target in use by another chokepoint process), 130\n"
    "interrupted (what was measured is kept and meta.json says where it stopped).\n";

static const opt_use_t run_uses[] = {
    {.id = OPT_INPUT, .help = "compress this file instead of a generated fixture"},
    {.id = OPT_FIXTURE_SIZE,
     .help = "size of the generated 'mixed' fixture (default 1G; 64M with\n"
             "--quick)"},
    {.id = OPT_THREADS, .help = "thread counts, 1,2,4 or 1..8 (default 1..usable CPUs)"},
    {.id = OPT_CODEC,
     .help = "codecs (default zstd:3; given twice, both lists) and\n"
             "presets that run a program:",
     .more = presets_write_help},
    {.id = OPT_CMD,
     .help = "time this shell command instead (added to an explicit\n"
             "--codec list); see 'chokepoint sweep --help'"},
    {.id = OPT_CMD_NAME},
    {.id = OPT_ENGINE, .help = "blocks (default) or native"},
    {.id = OPT_REPS,
     .help = "repetitions of each run and probe size (default 3; 1 with\n"
             "--quick); auto: 3, then more runs until each median's 95%\n"
             "interval is within +-3% (at most 10)"},
    {.id = OPT_LAYOUT, .help = "split (default) or same; see 'chokepoint sweep --help'"},
    {.id = OPT_SYNC,
     .help = "fsync (default: buffered writes, each run timed to its\n"
             "output's fsync), direct (O_DIRECT writes; the probe writes\n"
             "with O_DIRECT too, so the direct path's own CPU cost is\n"
             "measured) or none (no fsync: the page cache is in the\n"
             "figure; the probe still fsyncs)"},
    {.id = OPT_DECOMPRESS,
     .help = "time decompression instead (the input compressed once per\n"
             "target, each run restores it); see 'chokepoint sweep --help'"},
    {.id = OPT_SEED,
     .help = "seed of the run and probe orders, 0 to 2147483647 (default:\n"
             "random, recorded); the generated fixture always uses seed 1"},
    {.id = OPT_NO_PROBE, .help = "skip the probe (no write or read ceilings then)"},
    {.id = OPT_FORMAT, .help = "plot format: png (default), svg or both"},
    {.id = OPT_OUT, .help = "results directory (must not exist, or be empty)"},
    {.id = OPT_KEEP_INPUT, .help = "keep the generated fixture in the results directory"},
    {.id = OPT_MAX_MEMORY},
    {.id = OPT_RESUME,
     .help = "continue the study in DIR (interrupted, killed or failed,\n"
             "or complete with failed runs) with the options recorded\n"
             "in its meta.json: checks the input is the same (size and\n"
             "XXH3), measures only the runs and probes missing from\n"
             "runs.csv and probe.csv and the runs that failed, then\n"
             "analyses and plots; takes no other option but -q and\n"
             "--max-memory. Prints the recorded command line; replays\n"
             "its --cmd, DIR@RATE targets and working directory only\n"
             "for the user who made the study there (a replay record in\n"
             "that user's state directory; docs/security.md)"},
    {.id = OPT_QUICK,
     .help = "a small, fast study: 64M fixture, 1 repetition, probe sizes up\n"
             "to the input's"},
    {.id = OPT_QUIET, .help = "no progress or log lines on stderr"},
    {.id = OPT_HELP},
    {.id = OPT_NONE},
};
static const opt_command_t run_command = {run_uses, 26, true};


/* Reads the options and targets into s. OPTIONS_FAILED leaves the error in err; its
 * message is empty when options_error has already logged it. */
static options_outcome_t parse_args(int argc, char **argv, study_t *s, const char **resume,
                                     cp_err_t *err)
{
    int rc = CP_OK, c, given = 0;
    const char *cmd_template = NULL, *cmd_name = NULL;
    options_begin();
    while (rc == CP_OK && (c = options_next(&run_command, argc, argv)) != -1) {
        given++;
        switch (c) {
        case OPT_INPUT: s->input_arg = optarg; break;
        case OPT_FIXTURE_SIZE:
            rc = parse_size(optarg, &s->fixture_size, err);
            if (rc == CP_OK && s->fixture_size < RUN_MIN_FIXTURE)
                rc = cp_err_set(err, CP_EUSAGE, "bad --fixture-size '%s': too small to time a "
                                "study; the smallest is 1M (1 MiB)", optarg);
            s->fixture_size_given = true;
            break;
        case OPT_THREADS:
            free(s->threads);
            s->threads = NULL;
            rc = parse_thread_list(optarg, &s->threads, &s->sweep.n_threads, err);
            break;
        case OPT_CODEC: rc = parse_series_list(optarg, &s->series, &s->sweep.n_series, err); break;
        case OPT_ENGINE: rc = pipeline_engine_parse(optarg, &s->sweep.engine, err); break;
        case OPT_REPS:
            rc = options_reps_or_auto(optarg, &s->sweep.reps, &s->sweep.reps_auto, err);
            s->reps_given = true;
            break;
        case OPT_LAYOUT: rc = sweep_layout_parse(optarg, &s->sweep.layout, err); break;
        case OPT_SYNC: rc = sync_mode_parse(optarg, &s->sweep.sync, err); break;
        case OPT_SEED:
            rc = options_seed(optarg, &s->sweep.seed, err);
            s->seed_given = true;
            break;
        case OPT_NO_PROBE: s->probe = false; break;
        case OPT_FORMAT: rc = plot_format_parse(optarg, &s->format, err); break;
        case OPT_OUT: s->out_arg = optarg; break;
        case OPT_KEEP_INPUT: s->keep_input = true; break;
        case OPT_QUICK: s->quick = true; break;
        case OPT_MAX_MEMORY:
            rc = options_max_memory(optarg, &s->max_memory, err);
            given--; /* a resume may set its own limit */
            break;
        case OPT_RESUME:
            if (resume == NULL) /* a recorded command line never holds it */
                rc = cp_err_set(err, CP_EUSAGE, "meta.json's command line holds --resume");
            else
                *resume = optarg;
            given--;
            break;
        case OPT_CMD: cmd_template = optarg; break;
        case OPT_CMD_NAME: cmd_name = optarg; break;
        case OPT_DECOMPRESS: s->sweep.decompress = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); given--; break;
        case OPT_HELP:
            options_help(stdout, &run_command, run_head, run_tail);
            return OPTIONS_HELP_REQUESTED;
        default:
            options_error("run", c, argv); /* logged here: err keeps no message */
            err->code = CP_EUSAGE;
            return OPTIONS_FAILED;
        }
    }
    if (rc != CP_OK)
        return OPTIONS_FAILED;
    if (resume != NULL && *resume != NULL) {
        if (given > 0 || optind < argc) {
            cp_err_set(err, CP_EUSAGE, "--resume takes no other options or targets (but -q "
                       "and --max-memory): the study's own are recorded in its meta.json");
            return OPTIONS_FAILED;
        }
        return OPTIONS_PROCEED;
    }
    if (s->input_arg != NULL && s->fixture_size_given) {
        cp_err_set(err, CP_EUSAGE, "give either -i INPUT or --fixture-size, not both");
        return OPTIONS_FAILED;
    }
    if (s->input_arg != NULL && s->keep_input) {
        cp_err_set(err, CP_EUSAGE, "--keep-input keeps a generated fixture; with -i INPUT "
                   "nothing is generated (INPUT is never removed)");
        return OPTIONS_FAILED;
    }
    /* No option is silently ignored: --quick sets the fixture's size and the repetitions. */
    if (s->quick && (s->input_arg != NULL || s->fixture_size_given) && s->reps_given) {
        cp_err_set(err, CP_EUSAGE, "--quick has no effect: %s and --reps are given (it sets "
                   "only the fixture's size and the repetitions)",
                   s->input_arg != NULL ? "-i INPUT" : "--fixture-size");
        return OPTIONS_FAILED;
    }
    s->n_targets = (size_t)(argc - optind);
    if (s->n_targets > RUN_MAX_TARGETS) {
        cp_err_set(err, CP_EUSAGE, "at most %d targets", RUN_MAX_TARGETS);
        return OPTIONS_FAILED;
    }
    for (size_t i = 0; i < s->n_targets && rc == CP_OK; i++)
        rc = parse_target(argv[optind + (int)i], &s->targets[i], err);
    if (rc == CP_OK)
        rc = target_check_names(s->targets, s->n_targets, err);
    if (rc == CP_OK)
        rc = options_finish_sweep(&s->sweep, &s->series, &s->threads, s->targets,
                                  s->n_targets, cmd_template, cmd_name, false, err);
    if (!s->fixture_size_given)
        s->fixture_size = s->quick ? RUN_QUICK_FIXTURE : RUN_DEFAULT_FIXTURE;
    if (!s->reps_given)
        s->sweep.reps = s->quick ? 1 : 3;
    return rc == CP_OK ? OPTIONS_PROCEED : OPTIONS_FAILED;
}


/* run --resume DIR: the recorded command line parsed again into s. */
static int prepare_resume(const char *dir, study_t *s, char *abs_dir, int *argc, char ***argv,
                          cp_err_t *err)
{
    json_t *meta = NULL;
    int rc = study_resume_load(dir, abs_dir, &meta, argc, argv, err);
    if (rc != CP_OK)
        return rc;
    bool quiet = cp_log_quiet();
    uint64_t max_memory = s->max_memory;
    if (parse_args(*argc, *argv, s, NULL, err) != OPTIONS_PROCEED) {
        json_decref(meta);
        return cp_err_code(err, CP_EUSAGE);
    }
    cp_log_set_quiet(quiet); /* -q is the resume's own, not the study's */
    if (max_memory > 0)
        s->max_memory = max_memory;
    s->meta = meta;
    s->resume = true;
    s->out_arg = abs_dir;
    return CP_OK;
}

static void study_init(study_t *s)
{
    memset(s, 0, sizeof *s);
    s->sweep = sweep_defaults();
    s->probe = true;
    s->format = PLOT_PNG;
    s->lock = (dirlock_t)DIRLOCK_INIT;
    s->target_locks = (target_locks_t)TARGET_LOCKS_INIT;
}

int cmd_run(int argc, char **argv)
{
    study_t s;
    study_init(&s);
    cp_err_t err = {0};
    const char *resume = NULL;
    options_outcome_t parsed = parse_args(argc, argv, &s, &resume, &err);
    if (parsed == OPTIONS_HELP_REQUESTED) {
        free(s.series);
        free(s.threads);
        return 0;
    }
    int rargc = 0;
    char **rargv = NULL;
    static char abs_dir[PATH_MAX];
    int rc = parsed == OPTIONS_PROCEED ? CP_OK : err.code;
    if (rc == CP_OK && resume != NULL) {
        free(s.series);
        free(s.threads);
        uint64_t max_memory = s.max_memory;
        study_init(&s);
        s.max_memory = max_memory;
        rc = prepare_resume(resume, &s, abs_dir, &rargc, &rargv, &err);
    }
    if (rc == CP_OK)
        rc = resume != NULL ? study_execute(&s, rargc, rargv, &err)
                            : study_execute(&s, argc, argv, &err);
    study_resume_free_args(rargc, rargv);
    if (rc != CP_OK) {
        if (err.msg[0] != '\0') /* option errors were already reported */
            cp_log_error("%s", err.msg);
        /* A refusal (exit 2: a changed input on resume, a memory estimate) measured
         * nothing new; pointing at --resume would only repeat it. */
        if (s.dir[0] && s.meta && s.some_failed && rc == CP_EDATA)
            /* Every run failed: resuming as is would only fail them the same way. */
            cp_log_error("every run in %s failed, each row says why; once the cause is "
                         "fixed, 'chokepoint run --resume %s' measures them again",
                         s.dir, s.dir);
        else if (s.dir[0] && s.meta && rc != CP_EUSAGE)
            cp_log_error("what was measured is in %s (meta.json says where it stopped); "
                         "'chokepoint run --resume %s' continues it", s.dir, s.dir);
    } else if (rc == CP_OK) {
        printf("\nreport: %s/report.md\n", s.dir);
    }
    json_decref(s.meta);
    free(s.series);
    free(s.threads);
    if (rc == CP_OK && s.some_failed)
        return 1;
    return cp_exit_status(rc);
}
