/* fuzz_meta_json.c - every reader of a results directory's meta.json under arbitrary
 * bytes. The input is the meta.json of a directory named as `run` names one
 * (STAMP-HOST), beside a small valid runs.csv, in a private directory
 * (tests/fuzz/fuzz_split.h). Read by: meta_read and meta_import_table
 * (tables/meta_json.c), the environment compare and predict take (meta_read_env through
 * compare_input_load, predict_study_load's page-cache settings), history's host and start
 * time (history_load), the status rules (study_dir_status, study_dir_note), import's
 * rule for a meta.json already there (import_meta_action), the command line `run
 * --resume` rebuilds (study_resume_load, its working directory restored after), and the
 * "How this was measured" section of report.md (meta_write_markdown), whose tables must
 * keep their width (fuzz_output_check.h). None may crash, leak or hang; a refusal is one
 * line. */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "fuzz_csv_check.h"
#include "fuzz_output_check.h"
#include "fuzz_split.h"
#include "report/meta_md.h"
#include "study/meta.h"
#include "study/study_resume.h"
#include "tables/compare_load.h"
#include "tables/history_load.h"
#include "tables/import_meta.h"
#include "tables/meta_json.h"
#include "tables/predict_study.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define STUDY "20261204-184232-vm"

/* The memory target at two thread counts and one failed run: what every reader needs
 * beside meta.json, quick to analyse (no volume, so no crossover to search) at every
 * input. */
static const char runs_csv[] =
    "target,codec,threads,rep,input_bytes,output_bytes,seconds,valid,error\n"
    "mem,zstd:3,1,1,8388608,6056571,0.200,1,\n"
    "mem,zstd:3,2,1,8388608,6056571,0.110,1,\n"
    "mem,zstd:3,2,2,8388608,6056571,,0,the command exited with 1\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cp_log_set_quiet(true); /* resume's and analysis's notes are not what is fuzzed */
    return 0;
}

static void require_one_line(const char *text, const char *what)
{
    cp_err_t shown = {0};
    snprintf(shown.msg, sizeof shown.msg, "%s", text);
    fuzz_csv_require(text[0] != '\0' && strpbrk(text, "\n\r") == NULL, what, &shown);
}

/* The report.md section: its tables keep their width. */
static void check_markdown(const json_t *meta, bool odd_words)
{
    fuzz_stream_t s;
    meta_write_markdown(meta, fuzz_stream_open(&s));
    fuzz_output_t o = fuzz_stream_close(&s, "report.md's How this was measured");
    fuzz_check_markdown_tables(&o);
    fuzz_check_finite(&o, odd_words, odd_words);
    free(s.text);
}

/* history's host and start time of the one study under the root. */
static void check_history(const char *root)
{
    analysis_options_t options = analysis_defaults();
    history_set_t *set = NULL;
    cp_err_t err = {0};
    int rc = history_load(root, &options, &set, &err);
    fuzz_csv_require(rc == CP_OK || rc == CP_ENOMEM, "history_load reads its root", &err);
    if (rc != CP_OK)
        return;
    fuzz_csv_require(set->n + set->nskipped == 1, "the one study is loaded or skipped", &err);
    for (size_t i = 0; i < set->n; i++) {
        const history_entry_t *e = &set->entries[i];
        fuzz_csv_require(e->host != NULL && e->host[0] != '\0', "a study names its host", &err);
        fuzz_csv_require(isfinite(e->started), "a study's start time is a time", &err);
        fuzz_csv_require(e->started_text != NULL && e->status != NULL && e->input != NULL,
                         "a study holds its texts and input", &err);
    }
    for (size_t i = 0; i < set->nskipped; i++) {
        const char *reason = set->skipped[i].reason;
        fuzz_csv_require(reason != NULL && reason[0] != '\0', "a skipped directory says why",
                         &err);
        for (const char *p = reason; *p != '\0'; p++)
            fuzz_csv_require(!iscntrl((unsigned char)*p), "a skip's reason is one printable "
                             "line", &err);
    }
    history_set_free(set);
}

/* predict's page-cache settings, as compare's environment. */
static void check_predict(const char *dir, bool meta_refused)
{
    predict_study_t study;
    cp_err_t err = {0};
    int rc = predict_study_load(dir, &study, &err);
    if (meta_refused) { /* a meta.json its reader refused stops predict, in one line */
        fuzz_csv_require(rc == CP_EDATA && strchr(err.msg, '\n') == NULL &&
                             strstr(err.msg, "meta.json") != NULL,
                         "predict refuses a refused meta.json in one line naming it", &err);
        if (rc == CP_OK)
            predict_study_release(&study);
        return;
    }
    fuzz_csv_require(rc == CP_OK, "predict loads the study (its runs are valid)", &err);
    const study_env_t *env = &study.input->env;
    fuzz_csv_require(memchr(env->hostname, '\0', sizeof env->hostname) != NULL &&
                         memchr(env->cpu_model, '\0', sizeof env->cpu_model) != NULL &&
                         memchr(env->kernel, '\0', sizeof env->kernel) != NULL,
                     "the environment's texts are terminated", &err);
    fuzz_csv_require(env->ntargets <= STUDY_ENV_TARGETS_MAX, "at most the targets it holds",
                     &err);
    fuzz_csv_require(!study.writeback_known || (study.writeback.dirty_background_bytes >= 0 &&
                                                study.writeback.dirty_bytes >= 0),
                     "known thresholds are not negative", &err);
    fuzz_csv_require(memchr(study.hostname, '\0', sizeof study.hostname) != NULL,
                     "the host name is terminated", &err);
    predict_study_release(&study);
}

/* `run --resume DIR`: the recorded command line, or a refusal in one line; the working
 * directory it enters is left again. */
static void check_resume(const char *dir)
{
    int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cwd < 0)
        abort();
    char abs_dir[PATH_MAX];
    json_t *meta = NULL;
    int argc = 0;
    char **argv = NULL;
    cp_err_t err = {0};
    int rc = study_resume_load(dir, abs_dir, &meta, &argc, &argv, &err);
    if (fchdir(cwd) != 0)
        abort();
    close(cwd);
    if (rc != CP_OK) {
        fuzz_csv_require(meta == NULL && argv == NULL, "a refusal holds nothing", &err);
        fuzz_csv_require(rc == CP_EUSAGE || rc == CP_ENOMEM, "a refusal is CP_EUSAGE", &err);
        require_one_line(err.msg, "a refusal says why in one line");
        return;
    }
    fuzz_csv_require(argc >= 1 && argv != NULL && strcmp(argv[0], "run") == 0,
                     "the command line is run's", &err);
    for (int i = 0; i < argc; i++)
        fuzz_csv_require(argv[i] != NULL, "every word is a string", &err);
    study_resume_free_args(argc, argv);
    json_decref(meta);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_part_t meta_part = {data, size, true};
    const fuzz_part_t runs_part = {(const uint8_t *)runs_csv, sizeof runs_csv - 1, true};
    fuzz_tmp_write(STUDY "/meta.json", &meta_part);
    fuzz_tmp_write(STUDY "/runs.csv", &runs_part);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/" STUDY, fuzz_tmp_root());

    cp_err_t merr = {0};
    json_t *meta = NULL;
    meta_read_result_t read = meta_read(dir, &meta, &merr);
    fuzz_csv_require(read != META_READ_MISSING, "meta.json is there", &(cp_err_t){0});
    /* A refusal is one line naming the file: the reader's rule, not the caller's. */
    fuzz_csv_require(read == META_READ_OK || (merr.msg[0] != '\0' && strchr(merr.msg, '\n') == NULL),
                     "a refused meta.json is one line", &merr);
    fuzz_csv_require((read == META_READ_OK) == (meta != NULL), "a read gives JSON or nothing",
                     &(cp_err_t){0});
    if (meta != NULL) {
        const char *table = meta_import_table(meta);
        fuzz_csv_require(table == NULL || json_is_object(meta), "an import's table is its own",
                         &(cp_err_t){0});
        /* meta.json's own words ("nan" in a name, or spelt with \u escapes) are printed
         * as they are. */
        bool odd_words = fuzz_bytes_have_letters(data, size, "nan") ||
                         fuzz_bytes_have_letters(data, size, "inf") ||
                         memmem(data, size, "\\u", 2) != NULL;
        check_markdown(meta, odd_words);
        const char *started = json_string_value(json_object_get(meta, "started"));
        double t;
        if (started != NULL && history_parse_time(started, &t) == CP_OK)
            fuzz_csv_require(isfinite(t), "a parsed time is finite", &(cp_err_t){0});
        json_decref(meta);
    }
    const char *stage = NULL;
    const char *status = study_dir_status(dir, &stage);
    fuzz_csv_require(stage != NULL, "a stage is always given", &(cp_err_t){0});
    char note[PATH_MAX * 3 + 256];
    const char *said = study_dir_note(dir, note, sizeof note);
    fuzz_csv_require(said == NULL || status != NULL, "a note only for a status", &(cp_err_t){0});
    import_meta_action(dir, "runs.csv", true);
    import_meta_action(dir, "probe.csv", false);
    check_predict(dir, read == META_READ_REFUSED);
    check_history(fuzz_tmp_root());
    check_resume(dir);
    fuzz_tmp_clear();
    return 0;
}
