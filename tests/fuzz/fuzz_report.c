/* fuzz_report.c - from a loaded table to every report: runs.csv (and a probe.csv after a
 * line "@@ probe.csv", tests/fuzz/fuzz_split.h) loaded, analysed with a tolerance the
 * input's size picks, and written as text, Markdown, JSON, the summary and report.md
 * (without plots). A load or an analysis may refuse the input (FILE:LINE: or one line);
 * what is written must keep the reports' promises (fuzz_output_check.h): every number
 * finite, the JSON an object that parses, every Markdown table as wide on every row. */
#include <stdint.h>
#include <stdlib.h>

#include "common/log.h"
#include "fuzz_csv_check.h"
#include "fuzz_output_check.h"
#include "fuzz_split.h"
#include "model/analysis.h"
#include "report/analysis_text.h"
#include "report/report_format.h"
#include "report/report_md.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cp_log_set_quiet(true); /* the analysis's notes are not what is fuzzed */
    return 0;
}

/* Whether any name the tables hold (which reports print as given) holds word's letters. */
static bool names_hold(const runs_table_t *runs, const probe_table_t *probe, const char *word)
{
    for (size_t i = 0; i < runs->nrows; i++) {
        const run_row_t *r = &runs->rows[i];
        if (fuzz_has_letters(r->target, word) || fuzz_has_letters(r->codec, word) ||
            fuzz_has_letters(r->dir, word) || fuzz_has_letters(r->input_target, word) ||
            fuzz_has_letters(r->sync, word))
            return true;
    }
    for (size_t i = 0; probe != NULL && i < probe->nrows; i++)
        if (fuzz_has_letters(probe->rows[i].target, word) ||
            fuzz_has_letters(probe->rows[i].dir, word))
            return true;
    return false;
}

/* Writes one format of the analysis and checks it. */
static void check_format(const analysis_t *a, report_format_t format, const char *name,
                         bool nan_names, bool inf_names)
{
    fuzz_stream_t s;
    cp_err_t err = {0};
    int rc = report_write(&analysis_document, format, a, fuzz_stream_open(&s), &err);
    fuzz_output_t o = fuzz_stream_close(&s, name);
    if (rc != CP_OK)
        fuzz_output_fail(&o, "the report was not written", err.msg);
    fuzz_check_finite(&o, nan_names, inf_names);
    if (format == REPORT_FORMAT_JSON)
        fuzz_check_json(&o);
    if (format == REPORT_FORMAT_MARKDOWN)
        fuzz_check_markdown_tables(&o);
    free(s.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"runs.csv", "probe.csv"};
    fuzz_part_t parts[2];
    fuzz_split(data, size, names, 2, parts);
    cp_err_t err = {0};
    runs_table_t *runs = NULL;
    probe_table_t *probe = NULL;
    analysis_t *a = NULL;
    int rc = runs_table_load_buffer("runs.csv", parts[0].data, parts[0].len, &runs, &err);
    if (rc != CP_OK) {
        fuzz_csv_check_failure(rc, &err, "runs.csv");
        return 0;
    }
    if (parts[1].present) {
        rc = probe_table_load_buffer("probe.csv", parts[1].data, parts[1].len, &probe, &err);
        if (rc != CP_OK) {
            fuzz_csv_check_failure(rc, &err, "probe.csv");
            runs_table_free(runs);
            return 0;
        }
    }
    static const double tolerances[] = {0.10, 0.0, 0.5, 0.99};
    analysis_options_t options = analysis_defaults();
    options.tolerance = tolerances[size % 4];
    rc = analysis_run(runs, probe, &options, &a, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(a == NULL, "a failed analysis returns nothing", &err);
        fuzz_csv_require(rc == CP_EDATA || rc == CP_ENOMEM, "an analysis refuses with "
                         "CP_EDATA", &err);
        fuzz_csv_require(err.msg[0] != '\0' && strchr(err.msg, '\n') == NULL,
                         "a refusal says why in one line", &err);
    } else {
        bool nan_names = names_hold(runs, probe, "nan");
        bool inf_names = names_hold(runs, probe, "inf");
        check_format(a, REPORT_FORMAT_TEXT, "analyze --format text", nan_names, inf_names);
        check_format(a, REPORT_FORMAT_MARKDOWN, "analyze --format markdown", nan_names,
                     inf_names);
        check_format(a, REPORT_FORMAT_JSON, "analyze --format json", nan_names, inf_names);
        check_format(a, REPORT_FORMAT_SUMMARY, "analyze --format summary", nan_names,
                     inf_names);
        fuzz_stream_t s;
        int md = report_markdown_write(fuzz_stream_open(&s), a, NULL);
        fuzz_output_t o = fuzz_stream_close(&s, "report.md");
        if (md != 0)
            fuzz_output_fail(&o, "report.md was not written", NULL);
        fuzz_check_finite(&o, nan_names, inf_names);
        fuzz_check_markdown_tables(&o);
        free(s.text);
    }
    analysis_free(a);
    probe_table_free(probe);
    runs_table_free(runs);
    return 0;
}
