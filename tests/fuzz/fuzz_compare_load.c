/* fuzz_compare_load.c - `chokepoint compare A B` from its directories under arbitrary
 * bytes. The input holds the files of results directory a (runs.csv first, then after
 * "@@ NAME" lines probe.csv, meta.json) and optionally of b ("@@ b/runs.csv", ...;
 * tests/fuzz/fuzz_split.h), written into a private directory. Each side is loaded by
 * compare_input_load (tables/compare_load.c: runs, probe, the environment of meta.json,
 * the analysis) - a, as a directory or, for inputs of odd size, as its runs table - and
 * must load or be refused in one line (CP_EDATA naming its file). Then a is compared with
 * b (with itself without b) and the comparison written as text, Markdown and JSON, whose
 * promises are the reports' (fuzz_output_check.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/log.h"
#include "fuzz_csv_check.h"
#include "fuzz_output_check.h"
#include "fuzz_split.h"
#include "model/compare.h"
#include "report/compare_out.h"
#include "report/report_format.h"
#include "tables/compare_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cp_log_set_quiet(true);
    return 0;
}

/* A side refused: one line, CP_EDATA naming a file of the side, or CP_EUSAGE. */
static void check_refusal(int rc, const cp_err_t *err, const char *path)
{
    fuzz_csv_require(rc == CP_EDATA || rc == CP_EUSAGE || rc == CP_ENOMEM || rc == CP_EIO,
                     "a side is refused with CP_EDATA or CP_EUSAGE", err);
    fuzz_csv_require(err->code == rc && err->msg[0] != '\0', "a refusal says why", err);
    fuzz_csv_require(strpbrk(err->msg, "\n\r") == NULL, "a refusal is one line", err);
    if (rc == CP_EDATA)
        fuzz_csv_require(strncmp(err->msg, path, strlen(path)) == 0,
                         "a data error names the side's file", err);
}

/* Loads one side; NULL when it was refused (as it should be). */
static compare_input_t *load_side(const char *path, const analysis_options_t *options)
{
    compare_input_t *in = NULL;
    cp_err_t err = {0};
    int rc = compare_input_load(path, options, &in, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(in == NULL, "a refused side holds nothing", &err);
        check_refusal(rc, &err, path);
        return NULL;
    }
    fuzz_csv_require(in->runs != NULL && in->analysis != NULL && in->runs_path != NULL,
                     "a loaded side holds its runs and analysis", &err);
    fuzz_csv_require(in->env.ntargets <= STUDY_ENV_TARGETS_MAX, "the environment's targets",
                     &err);
    fuzz_csv_require(memchr(in->env.hostname, '\0', sizeof in->env.hostname) != NULL &&
                         memchr(in->env.kernel, '\0', sizeof in->env.kernel) != NULL,
                     "the environment's texts are terminated", &err);
    return in;
}

/* Whether a side's names or meta.json hold word's letters (reports print them). */
static bool side_words(const compare_input_t *in, const fuzz_part_t *meta, const char *word)
{
    if (fuzz_bytes_have_letters(meta->data, meta->len, word) ||
        memmem(meta->data, meta->len, "\\u", 2) != NULL)
        return true;
    for (size_t i = 0; i < in->runs->nrows; i++)
        if (fuzz_has_letters(in->runs->rows[i].target, word) ||
            fuzz_has_letters(in->runs->rows[i].codec, word))
            return true;
    for (size_t i = 0; in->probe != NULL && i < in->probe->nrows; i++)
        if (fuzz_has_letters(in->probe->rows[i].target, word))
            return true;
    return false;
}

static void check_compare(const compare_input_t *a, const compare_input_t *b, bool odd_nan,
                          bool odd_inf)
{
    compare_study_t studies[2] = {compare_input_study(a), compare_input_study(b)};
    compare_options_t options = compare_defaults();
    options.resamples = 200; /* the bootstrap's cost, not its precision, is what is fuzzed */
    compare_result_t *r = NULL;
    cp_err_t err = {0};
    int rc = compare_run(studies, 2, NULL, 0, &options, &r, &err);
    if (rc != CP_OK) {
        fuzz_csv_require(r == NULL, "a refused comparison holds nothing", &err);
        fuzz_csv_require(rc == CP_EDATA || rc == CP_ENOMEM, "studies with nothing in common "
                         "are CP_EDATA", &err);
        fuzz_csv_require(a != b, "a study has everything in common with itself", &err);
        fuzz_csv_require(strpbrk(err.msg, "\n\r") == NULL && err.msg[0] != '\0',
                         "a refusal is one line", &err);
        return;
    }
    const compare_doc_t doc = {r, studies, 2, NULL};
    static const report_format_t formats[] = {REPORT_FORMAT_TEXT, REPORT_FORMAT_MARKDOWN,
                                              REPORT_FORMAT_JSON};
    static const char *const names[] = {"compare --format text", "compare --format markdown",
                                        "compare --format json"};
    for (size_t i = 0; i < 3; i++) {
        fuzz_stream_t s;
        rc = report_write(&compare_document, formats[i], &doc, fuzz_stream_open(&s), &err);
        fuzz_output_t o = fuzz_stream_close(&s, names[i]);
        if (rc != CP_OK)
            fuzz_output_fail(&o, "the comparison was not written", err.msg);
        fuzz_check_finite(&o, odd_nan, odd_inf);
        if (formats[i] == REPORT_FORMAT_JSON)
            fuzz_check_json(&o);
        if (formats[i] == REPORT_FORMAT_MARKDOWN)
            fuzz_check_markdown_tables(&o);
        free(s.text);
    }
    compare_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"runs.csv",   "probe.csv",   "meta.json",
                                        "b/runs.csv", "b/probe.csv", "b/meta.json"};
    static const char *const files[] = {"a/runs.csv", "a/probe.csv", "a/meta.json",
                                        "b/runs.csv", "b/probe.csv", "b/meta.json"};
    fuzz_part_t parts[6];
    fuzz_split(data, size, names, 6, parts);
    for (size_t i = 0; i < 6; i++)
        fuzz_tmp_write(files[i], &parts[i]);
    char a_path[PATH_MAX], b_path[PATH_MAX];
    snprintf(a_path, sizeof a_path, size % 2 ? "%s/a/runs.csv" : "%s/a", fuzz_tmp_root());
    snprintf(b_path, sizeof b_path, "%s/b", fuzz_tmp_root());
    analysis_options_t options = analysis_defaults();
    compare_input_t *a = load_side(a_path, &options);
    compare_input_t *b = a != NULL && parts[3].present ? load_side(b_path, &options) : NULL;
    if (a != NULL && (b != NULL || !parts[3].present)) {
        const compare_input_t *other = b != NULL ? b : a;
        bool odd_nan = side_words(a, &parts[2], "nan") || side_words(other, &parts[5], "nan");
        bool odd_inf = side_words(a, &parts[2], "inf") || side_words(other, &parts[5], "inf");
        check_compare(a, other, odd_nan, odd_inf);
    }
    compare_input_free(b);
    compare_input_free(a);
    fuzz_tmp_clear();
    return 0;
}
