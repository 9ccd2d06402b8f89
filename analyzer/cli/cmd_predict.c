/* cmd_predict.c - `chokepoint predict`: the job's time on volumes the study did not run
 * on. Argument handling and output only; the prediction is model/predict.c, the volumes
 * cli/predict_volumes.c, the words report/predict_out.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
#include "cli/predict_volumes.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/log.h"
#include "common/prng.h"
#include "model/predict_check.h"
#include "report/predict_out.h"
#include "report/report_format.h"
#include "tables/predict_study.h"
#include "tables/outfile.h"

static const char predict_head[] =
    "usage: chokepoint predict RESULTS_DIR [--volume NAME=DIR[@CAP]]...\n"
    "                          [--write [NAME=]RATE [--read RATE]]... [--class NAME]...\n"
    "                          [--probe PROBE.csv]\n"
    "                          [--threads LIST] [--codec LIST] [--layout split|same]\n"
    "                          [--tolerance 0.10] [--check RESULTS_DIR2] [--seed N]\n"
    "                          [--format text|json|markdown] [-o FILE [--force]]\n"
    "       chokepoint predict --classes [--format text|json|markdown]\n\n"
    "Predicts the job's time on volumes the study did not run on, with the model\n"
    "analyze explains runs with: the memory target's runs in RESULTS_DIR (a results\n"
    "directory or a runs.csv) give the CPU time per codec and thread count, each\n"
    "volume its drain rate, and the study's meta.json the page cache's write-back\n"
    "thresholds. Per volume, codec and thread count: the seconds, the verdict and its\n"
    "cause, the model's terms, and the thread count from which the volume limits the\n"
    "job. The first line answers for the first codec at the largest thread count.\n"
    "It forecasts compressions: a decompression study is refused (exit 2), saying so.\n\n"
    "volumes (any number of each, in one table, in the order given):\n";

static const char predict_middle[] = "\noptions:\n";

static const char predict_tail[] =
    "\n"
    "Exit status: 0 success, 1 runtime failure (a probe's I/O), 2 usage or data error,\n"
    "130 interrupted.\n";

static const opt_use_t predict_uses[] = {
    {.id = OPT_VOLUME, .flags = OPT_SECTION2,
     .help = "probe DIR now (fsync'd writes and cold reads of sizes up\n"
             "to the study's output, 3 repetitions; its files removed) and\n"
             "predict from its drain rate and the CPU cost of writing;\n"
             "@CAP: an emulated disk of that write speed (as root; else\n"
             "a cap pacing each write) takes the probe and the prediction"},
    {.id = OPT_WRITE, .flags = OPT_SECTION2,
     .help = "a volume typed by its write speed (e.g. usb=150MB/s), taken\n"
             "as its drain rate; named by RATE when no NAME is given"},
    {.id = OPT_READ, .flags = OPT_SECTION2,
     .help = "the read speed of the volume the --write before it typed\n"
             "(counts with --layout same)"},
    {.id = OPT_CLASS, .flags = OPT_SECTION2,
     .help = "a storage class: typical speeds from published tests, the\n"
             "write speed taken as the drain rate (--classes lists them)"},
    {.id = OPT_PROBE, .arg = "PROBE.csv", .flags = OPT_SECTION2 | OPT_WIDE_GAP,
     .help = "every target of a probe table with write rows: chokepoint's\n"
             "own (probe -o, a study's probe.csv) or imported from fio\n"
             "(import fio); its drain rate as analyze reads one (a write\n"
             "without a sync, the page cache's speed, gives none)"},
    {.id = OPT_CLASSES,
     .help = "list the storage classes with their speeds (a table; the\n"
             "sources in --format json or markdown and docs/method.md)"},
    {.id = OPT_THREADS,
     .help = "thread counts (default: those the memory target ran); one it\n"
             "did not run is taken from the fitted CPU model, labelled\n"
             "extrapolated"},
    {.id = OPT_CODEC,
     .help = "codecs as runs.csv names them, comma-separated (default: each\n"
             "the memory target ran; given twice, both lists)"},
    {.id = OPT_LAYOUT,
     .help = "split (default: the input is read where the study read it) or\n"
             "same (read from each volume: its read speed counts)"},
    {.id = OPT_TOLERANCE, .help = "as analyze's (default 0.10)"},
    {.id = OPT_CHECK,
     .help = "a later study that ran on the predicted volumes (matched by\n"
             "target name, or a probed volume by its directory): predicted\n"
             "against measured median per point, and the errors; where DIR2\n"
             "ran memory too, also the same prediction from its memory runs\n"
             "(the CPU's speed in its minutes) and that error"},
    {.id = OPT_SEED,
     .help = "seed of the probe's order and data, 0 to 2147483647 (default:\n"
             "from the clock; said on stderr)"},
    {.id = OPT_FORMAT},
    {.id = OPT_OUTPUT, .flags = OPT_SHORT_ONLY},
    {.id = OPT_FORCE},
    {.id = OPT_QUIET},
    {.id = OPT_HELP, .help = "this help"},
    {.id = OPT_NONE},
};
static const opt_command_t predict_command = {predict_uses, 20, false};

/* The whole --help: the volume options, then the others. */
static void usage(FILE *out)
{
    fputs(predict_head, out);
    options_print(out, &predict_command, 1);
    fputs(predict_middle, out);
    options_help(out, &predict_command, "", predict_tail);
}

/* Everything the command line asked for. */
typedef struct predict_args {
    const char *study, *check, *out_path;
    bool classes, force, seed_given;
    uint64_t seed;
    report_format_t format;
    predict_volume_list_t volumes;
    predict_request_t request;
    int *threads;
    char **codecs;
    size_t ncodecs;
} predict_args_t;

static void args_release(predict_args_t *a)
{
    predict_volumes_free(&a->volumes);
    free(a->threads);
    for (size_t i = 0; i < a->ncodecs; i++)
        free(a->codecs[i]);
    free(a->codecs);
}

/* --codec LIST: the names, comma-separated, as runs.csv gives them. */
static int parse_codecs(predict_args_t *a, const char *text, cp_err_t *err)
{
    char *copy = strdup(text), *save = NULL;
    if (copy == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    int rc = CP_OK;
    for (char *tok = strtok_r(copy, ",", &save); rc == CP_OK && tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        for (size_t i = 0; i < a->ncodecs && rc == CP_OK; i++)
            if (strcmp(a->codecs[i], tok) == 0)
                rc = cp_err_set(err, CP_EUSAGE, "codec '%s' is given twice", tok);
        if (rc != CP_OK)
            break;
        char **grown = realloc(a->codecs, (a->ncodecs + 1) * sizeof *grown);
        if (grown == NULL || (grown[a->ncodecs] = strdup(tok)) == NULL) {
            if (grown != NULL)
                a->codecs = grown;
            rc = cp_err_set(err, CP_ENOMEM, "out of memory");
            break;
        }
        a->codecs = grown;
        a->ncodecs++;
    }
    if (rc == CP_OK && a->ncodecs == 0)
        rc = cp_err_set(err, CP_EUSAGE, "--codec '%s': no codec named", text);
    free(copy);
    return rc;
}

static bool any_probe(const predict_volume_list_t *list)
{
    for (size_t i = 0; i < list->n; i++)
        if (list->specs[i].source == PREDICT_PROBE)
            return true;
    return false;
}

static int parse_args(int argc, char **argv, predict_args_t *a, options_outcome_t *outcome,
                      cp_err_t *err)
{
    int rc = CP_OK, c;
    *outcome = OPTIONS_FAILED;
    a->request = predict_defaults();
    options_begin();
    while (rc == CP_OK && (c = options_next(&predict_command, argc, argv)) != -1) {
        switch (c) {
        case OPT_VOLUME: rc = predict_volumes_add_probe(&a->volumes, optarg, err); break;
        case OPT_WRITE: rc = predict_volumes_add_typed(&a->volumes, optarg, err); break;
        case OPT_READ: rc = predict_volumes_set_read(&a->volumes, optarg, err); break;
        case OPT_CLASS: rc = predict_volumes_add_class(&a->volumes, optarg, err); break;
        case OPT_PROBE: rc = predict_volumes_add_file(&a->volumes, optarg, err); break;
        case OPT_CLASSES: a->classes = true; break;
        case OPT_THREADS:
            free(a->threads);
            a->threads = NULL;
            rc = parse_thread_list(optarg, &a->threads, &a->request.nthreads, err);
            break;
        case OPT_CODEC: rc = parse_codecs(a, optarg, err); break;
        case OPT_LAYOUT: {
            sweep_layout_t layout;
            rc = sweep_layout_parse(optarg, &layout, err);
            a->request.same_layout = layout == SWEEP_SAME;
            break;
        }
        case OPT_TOLERANCE: rc = parse_tolerance(optarg, &a->request.tolerance, err); break;
        case OPT_CHECK: a->check = optarg; break;
        case OPT_SEED:
            rc = options_seed(optarg, &a->seed, err);
            a->seed_given = true;
            break;
        case OPT_FORMAT:
            rc = report_format_parse(optarg, REPORT_FORMATS_DOCUMENT, &a->format, err);
            break;
        case OPT_OUTPUT: a->out_path = optarg; break;
        case OPT_FORCE: a->force = true; break;
        case OPT_QUIET: cp_log_set_quiet(true); break;
        case OPT_HELP: *outcome = OPTIONS_HELP_REQUESTED; return CP_OK;
        default: options_error("predict", c, argv); return CP_EUSAGE;
        }
    }
    if (rc == CP_OK && optind < argc)
        a->study = argv[optind++];
    if (rc == CP_OK && optind < argc)
        rc = cp_err_set(err, CP_EUSAGE, "predict: one RESULTS_DIR expected, got '%s' too",
                        argv[optind]);
    if (rc == CP_OK && a->classes && (a->study != NULL || a->volumes.n > 0 || a->check != NULL))
        rc = cp_err_set(err, CP_EUSAGE, "--classes lists the storage classes; it takes no "
                        "RESULTS_DIR, volume or --check");
    if (rc == CP_OK && !a->classes && a->study == NULL)
        rc = cp_err_set(err, CP_EUSAGE, "predict: RESULTS_DIR is required; try 'chokepoint "
                        "predict --help'");
    if (rc == CP_OK && !a->classes && a->volumes.n == 0)
        rc = cp_err_set(err, CP_EUSAGE, "predict: no volume to predict; give --volume "
                        "NAME=DIR, --write RATE, --class NAME or --probe PROBE.csv");
    if (rc == CP_OK)
        rc = predict_volumes_check_names(&a->volumes, err);
    if (rc == CP_OK && a->out_path != NULL && a->out_path[0] == '\0')
        rc = cp_err_set(err, CP_EUSAGE, "-o: empty file name");
    if (rc == CP_OK && a->seed_given && !any_probe(&a->volumes))
        rc = cp_err_set(err, CP_EUSAGE, "--seed orders and makes the probe of a --volume; "
                        "none was given");
    if (rc == CP_OK && a->force && a->out_path == NULL)
        rc = cp_err_set(err, CP_EUSAGE, "--force replaces an -o FILE; none was given");
    /* Refused before anything is probed. */
    if (rc == CP_OK && a->out_path != NULL)
        rc = outfile_check(a->out_path, a->force, err);
    a->request.threads = a->threads;
    a->request.codecs = (const char *const *)a->codecs;
    a->request.ncodecs = a->ncodecs;
    if (rc == CP_OK)
        *outcome = OPTIONS_PROCEED;
    return rc;
}

/* The probe's largest size: the largest output of the codecs forecast. */
static uint64_t predict_output_bytes(const predict_t *f)
{
    double largest = 0.0;
    for (size_t c = 0; c < f->ncodecs; c++)
        largest = fmax(largest, f->codecs[c].output_bytes);
    return (uint64_t)largest;
}

/* "this machine" when the study ran here (or does not say where), else its host. */
static const char *machine_words(const predict_study_t *s, char *buf, size_t cap)
{
    char here[256] = "";
    if (s->hostname[0] == '\0' || (gethostname(here, sizeof here - 1) == 0 &&
                                   strcmp(here, s->hostname) == 0))
        snprintf(buf, cap, "this machine");
    else
        snprintf(buf, cap, "host %s (the study's)", s->hostname);
    return buf;
}

/* The report, or the storage classes when r is NULL, in format. */
static int write_output(const predict_report_t *r, report_format_t format, FILE *out,
                        cp_err_t *err)
{
    return report_write(r != NULL ? &predict_document : &storage_classes_document, format, r,
                        out, err);
}

/* Writes the report (or the classes, r NULL) to -o FILE through a temporary file, or to
 * stdout. */
static int emit(const predict_args_t *a, const predict_report_t *r, cp_err_t *err)
{
    if (a->out_path == NULL)
        return write_output(r, a->format, stdout, err);
    outfile_t *f = outfile_open(a->out_path, a->force, err);
    if (f == NULL)
        return cp_err_code(err, CP_EIO);
    int rc = write_output(r, a->format, outfile_stream(f), err);
    if (rc == CP_OK)
        rc = outfile_commit(f, err);
    outfile_close(f);
    return rc;
}

/* The same forecast made from the later (--check) study's own memory runs and page-cache
 * settings: the CPU's speed in the minutes the check ran. NULL when that study has no
 * memory runs of the codecs or T asked for (the check then holds the prediction alone);
 * the caller frees it (predict_free). */
static predict_t *predict_at_later_cpu(const predict_study_t *later,
                                         const predict_volume_t *volumes, size_t n,
                                         const predict_request_t *request)
{
    predict_request_t r = *request;
    r.writeback = later->writeback;
    predict_t *f = NULL;
    cp_err_t ignored = {0};
    if (predict_run(later->input->analysis, volumes, n, &r, &f, &ignored) != CP_OK)
        return NULL;
    return f;
}

/* Loads the study, resolves (probes) the volumes, forecasts, checks and writes. */
static int predict(const predict_args_t *a, cp_err_t *err)
{
    predict_study_t study, later = {0};
    predict_volume_t *volumes = NULL;
    predict_t *forecast = NULL;
    predict_check_t *check = NULL;
    int rc = predict_study_load(a->study, &study, err);
    if (rc != CP_OK)
        return rc;
    if (a->check != NULL)
        rc = predict_study_load(a->check, &later, err);
    /* The forecast is asked once before probing too, so a bad --codec or --threads is
     * refused before a volume is written to; it gives the output size to probe up to. */
    predict_request_t request = a->request;
    request.writeback = study.writeback;
    uint64_t output = 0;
    if (rc == CP_OK) {
        predict_volume_t dry = predict_volume_typed("check", 1e9, NAN);
        rc = predict_run(study.input->analysis, &dry, 1, &request, &forecast, err);
        output = rc == CP_OK ? predict_output_bytes(forecast) : 0;
        predict_free(forecast);
        forecast = NULL;
    }
    if (rc == CP_OK)
        rc = predict_volumes_resolve(&a->volumes, output,
                                     a->seed_given ? a->seed : prng_fresh_seed(), &volumes, err);
    if (rc == CP_OK && cp_interrupted())
        rc = cp_err_set(err, CP_EINTR, "interrupted");
    if (rc == CP_OK)
        rc = predict_run(study.input->analysis, volumes, a->volumes.n, &request, &forecast, err);
    if (rc == CP_OK && a->check != NULL) {
        predict_t *at_later = predict_at_later_cpu(&later, volumes, a->volumes.n, &request);
        rc = predict_check_run(forecast, later.input->analysis, at_later, &check, err);
        predict_free(at_later);
    }
    if (rc == CP_OK) {
        char machine[320];
        predict_report_t r = {forecast, a->study,
                               study.writeback_known ? study.meta_path : NULL,
                               machine_words(&study, machine, sizeof machine), check, a->check};
        rc = emit(a, &r, err);
    }
    predict_check_free(check);
    predict_free(forecast);
    free(volumes);
    predict_study_release(&later);
    predict_study_release(&study);
    return rc;
}

int cmd_predict(int argc, char **argv)
{
    cp_err_t err = {0};
    predict_args_t args = {0};
    options_outcome_t outcome;
    int rc = parse_args(argc, argv, &args, &outcome, &err);
    if (outcome == OPTIONS_HELP_REQUESTED) {
        usage(stdout);
        args_release(&args);
        return 0;
    }
    if (rc == CP_OK)
        rc = args.classes ? emit(&args, NULL, &err) : predict(&args, &err);
    if (rc != CP_OK && err.msg[0] != '\0')
        cp_log_error("%s", err.msg);
    args_release(&args);
    return cp_exit_status(rc);
}
