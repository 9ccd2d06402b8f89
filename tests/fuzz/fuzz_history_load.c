/* fuzz_history_load.c - `chokepoint history ROOT` under arbitrary bytes. The input holds
 * the files of up to four results directories under a root ("@@ D/meta.json",
 * "@@ D/runs.csv", "@@ D/probe.csv" for D in a b c d, the input before the first header
 * a/meta.json; tests/fuzz/fuzz_split.h): a is named as `run` names one (STAMP-HOST), b
 * not, c two levels down, d beside a with another host; they are written into a private
 * directory. history_load (tables/history_load.c) must load every directory it can and
 * skip the others with a reason in one line; each study loaded names its host and a
 * finite start time. The studies are then built into a history and written as text,
 * Markdown and JSON, whose promises are the reports' (fuzz_output_check.h). */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/log.h"
#include "fuzz_csv_check.h"
#include "fuzz_output_check.h"
#include "fuzz_split.h"
#include "model/compare.h"
#include "model/history.h"
#include "report/history_out.h"
#include "report/report_format.h"
#include "tables/history_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define NDIRS 4
#define NFILES 3

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cp_log_set_quiet(true);
    return 0;
}

static void check_set(const history_set_t *set)
{
    cp_err_t none = {0};
    fuzz_csv_require(set->n + set->nskipped <= NDIRS, "at most the directories written",
                     &none);
    for (size_t i = 0; i < set->n; i++) {
        const history_entry_t *e = &set->entries[i];
        fuzz_csv_require(e->host != NULL && e->host[0] != '\0', "a study names its host",
                         &none);
        fuzz_csv_require(isfinite(e->started), "a study's start time is a time", &none);
        fuzz_csv_require(e->started_text != NULL && e->status != NULL, "a study's texts",
                         &none);
        fuzz_csv_require(e->input != NULL && e->input->analysis != NULL && e->input->runs,
                         "a study holds its runs and analysis", &none);
    }
    for (size_t i = 0; i < set->nskipped; i++) {
        const history_skip_t *sk = &set->skipped[i];
        fuzz_csv_require(sk->path != NULL && sk->reason != NULL && sk->reason[0] != '\0',
                         "a skipped directory says why", &none);
        for (const char *p = sk->reason; *p != '\0'; p++)
            fuzz_csv_require(!iscntrl((unsigned char)*p), "a skip's reason is one printable "
                             "line", &none);
    }
}

static void check_reports(const history_set_t *set, bool odd_words)
{
    history_study_t studies[NDIRS];
    history_set_studies(set, studies);
    compare_options_t options = compare_defaults();
    options.resamples = 200; /* the bootstrap's cost, not its precision, is what is fuzzed */
    history_result_t *r = NULL;
    cp_err_t err = {0};
    int rc = history_build(studies, set->n, &options, &r, &err);
    fuzz_csv_require(rc == CP_OK || rc == CP_ENOMEM, "studies loaded make a history", &err);
    if (rc != CP_OK)
        return;
    const history_doc_t doc = {r, set, studies, NULL};
    static const report_format_t formats[] = {REPORT_FORMAT_TEXT, REPORT_FORMAT_MARKDOWN,
                                              REPORT_FORMAT_JSON};
    static const char *const names[] = {"history --format text", "history --format markdown",
                                        "history --format json"};
    for (size_t i = 0; i < 3; i++) {
        fuzz_stream_t s;
        rc = report_write(&history_document, formats[i], &doc, fuzz_stream_open(&s), &err);
        fuzz_output_t o = fuzz_stream_close(&s, names[i]);
        if (rc != CP_OK)
            fuzz_output_fail(&o, "the history was not written", err.msg);
        fuzz_check_finite(&o, odd_words, odd_words);
        if (formats[i] == REPORT_FORMAT_JSON)
            fuzz_check_json(&o);
        if (formats[i] == REPORT_FORMAT_MARKDOWN)
            fuzz_check_markdown_tables(&o);
        free(s.text);
    }
    history_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const dirs[NDIRS] = {"20261204-184232-vm", "b", "deep/er/c",
                                            "20261205-090000-other"};
    static const char *const files[NFILES] = {"meta.json", "runs.csv", "probe.csv"};
    static const char *names[NDIRS * NFILES];
    static char name_text[NDIRS * NFILES][16];
    if (names[0] == NULL)
        for (size_t i = 0; i < NDIRS * NFILES; i++) {
            snprintf(name_text[i], sizeof name_text[i], "%c/%s", "abcd"[i / NFILES],
                     files[i % NFILES]);
            names[i] = name_text[i];
        }
    fuzz_part_t parts[NDIRS * NFILES];
    fuzz_split(data, size, names, NDIRS * NFILES, parts);
    for (size_t i = 0; i < NDIRS * NFILES; i++) {
        char rel[PATH_MAX];
        snprintf(rel, sizeof rel, "%s/%s", dirs[i / NFILES], files[i % NFILES]);
        fuzz_tmp_write(rel, &parts[i]);
    }
    analysis_options_t options = analysis_defaults();
    history_set_t *set = NULL;
    cp_err_t err = {0};
    int rc = history_load(fuzz_tmp_root(), &options, &set, &err);
    fuzz_csv_require(rc == CP_OK || rc == CP_ENOMEM, "history_load reads its root", &err);
    if (rc == CP_OK) {
        check_set(set);
        /* The hosts, names and meta.json's words are printed as they are. */
        bool odd_words = fuzz_bytes_have_letters(data, size, "nan") ||
                         fuzz_bytes_have_letters(data, size, "inf") ||
                         memmem(data, size, "\\u", 2) != NULL;
        if (set->n > 0)
            check_reports(set, odd_words);
    }
    history_set_free(set);
    fuzz_tmp_clear();
    return 0;
}
