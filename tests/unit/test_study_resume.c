/* test_study_resume.c - what `run --resume` keeps of runs.csv (the valid runs as the
 * runs.csv loader reads them, each once, without an unfinished last line), the failed runs
 * it counts, and the status rules of a results directory's meta.json (study/meta.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "tables/runs_writer.h"
#include "study/meta.h"
#include "study/study_resume.h"

static char dir[] = "test-study-resume-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* One runs.csv line in the header's columns: the named ones given, the rest empty. */
static void make_row(char *out, size_t cap, const char *target, int rep, const char *seconds,
                     int valid)
{
    char header[4096];
    snprintf(header, sizeof header, "%s", runs_csv_header_text());
    header[strcspn(header, "\n")] = '\0';
    size_t len = 0;
    out[0] = '\0';
    int first = 1;
    for (char *save = NULL, *name = strtok_r(header, ",", &save); name != NULL;
         name = strtok_r(NULL, ",", &save)) {
        char cell[64] = "";
        if (strcmp(name, "target") == 0)
            snprintf(cell, sizeof cell, "%s", target);
        else if (strcmp(name, "codec") == 0)
            snprintf(cell, sizeof cell, "zstd:3");
        else if (strcmp(name, "threads") == 0)
            snprintf(cell, sizeof cell, "2");
        else if (strcmp(name, "rep") == 0)
            snprintf(cell, sizeof cell, "%d", rep);
        else if (strcmp(name, "seconds") == 0 && valid)
            snprintf(cell, sizeof cell, "%s", seconds);
        else if (strcmp(name, "input_bytes") == 0)
            snprintf(cell, sizeof cell, "1048576");
        else if (strcmp(name, "valid") == 0)
            snprintf(cell, sizeof cell, "%d", valid);
        else if (strcmp(name, "error") == 0 && !valid)
            snprintf(cell, sizeof cell, "boom");
        len += (size_t)snprintf(out + len, cap - len, "%s%s", first ? "" : ",", cell);
        first = 0;
    }
    snprintf(out + len, cap - len, "\n");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_keep_runs(void **state)
{
    (void)state;
    char a[4096], b[4096], c[4096], a_again[4096], text[1 << 15], want[1 << 15];
    make_row(a, sizeof a, "ssd", 1, "1.5", 1);
    make_row(a_again, sizeof a_again, "ssd", 1, "9.0", 1); /* the same run again */
    make_row(b, sizeof b, "ssd", 2, "", 0);                /* failed */
    make_row(c, sizeof c, "usb", 1, "3.25", 1);
    snprintf(text, sizeof text, "%s%s%s%s%s%.20s", runs_csv_header_text(), a, a_again, b, c,
             c); /* an unfinished last line */
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/runs.csv", dir);
    write_file(path, text);

    size_t failed = 0;
    cp_err_t err = {0};
    study_done_t *done = NULL;
    size_t kept = 0;
    assert_int_equal(study_resume_keep_runs(path, &done, &kept, &err), CP_OK);
    assert_int_equal(kept, 2);
    snprintf(want, sizeof want, "%s%s%s", runs_csv_header_text(), a, c);
    assert_string_equal(read_file(path), want);
    double seconds = 0;
    assert_true(study_done_lookup(done, "ssd", "zstd:3", 2, 1, &seconds));
    assert_true(seconds == 1.5); /* the first of the two */
    assert_false(study_done_lookup(done, "ssd", "zstd:3", 2, 2, &seconds));
    assert_true(study_done_lookup(done, "usb", "zstd:3", 2, 1, &seconds));
    assert_true(seconds == 3.25);
    study_done_free(done);

    snprintf(text, sizeof text, "%s%s%s", runs_csv_header_text(), a, b);
    write_file(path, text);
    assert_int_equal(study_failed_runs(path, &failed, &err), CP_OK);
    assert_int_equal(failed, 1);
}

static void test_keep_runs_missing_and_foreign(void **state)
{
    (void)state;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/none.csv", dir);
    cp_err_t err = {0};
    study_done_t *done = NULL;
    size_t kept = 9, failed = 9;
    assert_int_equal(study_resume_keep_runs(path, &done, &kept, &err), CP_OK);
    assert_int_equal(kept, 0);
    study_done_free(done);
    assert_int_equal(study_failed_runs(path, &failed, &err), CP_OK);
    assert_int_equal(failed, 0);

    snprintf(path, sizeof path, "%s/foreign.csv", dir);
    write_file(path, "target,threads,seconds,input_bytes\nssd,1,2.0,100\n");
    assert_int_equal(study_resume_keep_runs(path, &done, &kept, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "it cannot be resumed"));
    study_done_free(done);
}

static void test_status_rules(void **state)
{
    (void)state;
    char sub[PATH_MAX], path[PATH_MAX + 16], note[PATH_MAX * 3 + 256];
    snprintf(sub, sizeof sub, "%s/study", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_null(study_dir_status(sub, NULL));
    assert_null(study_dir_note(sub, note, sizeof note));

    snprintf(path, sizeof path, "%s/meta.json", sub);
    write_file(path, "{\"status\": \"running\", \"stage\": \"sweep\"}\n");
    const char *stage = NULL;
    assert_string_equal(study_dir_status(sub, &stage), "abandoned"); /* nobody holds it */
    assert_string_equal(stage, "sweep");
    assert_non_null(study_dir_note(sub, note, sizeof note));
    assert_non_null(strstr(note, "is abandoned, its process died (stage 'sweep')"));

    write_file(path, "{\"status\": \"complete\", \"stage\": \"done\"}\n");
    assert_string_equal(study_dir_status(sub, NULL), "complete");
    assert_null(study_dir_note(sub, note, sizeof note));

    write_file(path, "{\"status\": ");
    assert_null(study_dir_status(sub, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keep_runs),
        cmocka_unit_test(test_keep_runs_missing_and_foreign),
        cmocka_unit_test(test_status_rules),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
