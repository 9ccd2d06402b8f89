/* --cmd: shell quoting and substitution, template checks, presets, the codec-and-preset
 * list, and one run of a command that fails, writes nothing or works. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "measure/command_job.h"

/* What /bin/sh makes of `printf %s QUOTED`: the quoted string must come back as it was. */
static void assert_shell_round_trip(const char *s)
{
    char quoted[1024], command[1100], back[1024] = "";
    assert_true(command_shell_quote(s, quoted, sizeof quoted) > 0);
    snprintf(command, sizeof command, "printf %%s %s", quoted);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    size_t n = fread(back, 1, sizeof back - 1, p);
    back[n] = '\0';
    pclose(p);
    assert_string_equal(back, s);
}

static void test_quote_survives_the_shell(void **state)
{
    (void)state;
    assert_shell_round_trip("plain");
    assert_shell_round_trip("with space");
    assert_shell_round_trip("it's");
    assert_shell_round_trip("'''");
    assert_shell_round_trip("$HOME `id` $(id) \"dq\" \\ ; | & > < * ?");
    assert_shell_round_trip("-starts-with-dash");
}

static void test_quote_exact_text_and_overflow(void **state)
{
    (void)state;
    char out[32];
    assert_int_equal(command_shell_quote("a'b", out, sizeof out), 8);
    assert_string_equal(out, "'a'\\''b'");
    assert_int_equal(command_shell_quote("0123456789", out, 12), -1); /* needs 12 + NUL */
    assert_string_equal(out, "");
}

static void test_expand_substitutes_every_placeholder(void **state)
{
    (void)state;
    char out[256];
    cp_err_t err = {0};
    assert_int_equal(command_template_expand("zstd -T{threads} -c {input} > {output}; echo ${X} {x}",
                                         "/a b/in's", "/o/out", 4, out, sizeof out, &err),
                     CP_OK);
    assert_string_equal(out, "zstd -T4 -c '/a b/in'\\''s' > '/o/out'; echo ${X} {x}");
    assert_int_equal(command_template_expand("cp {input} {output} {input}", "i", "o", 1, out,
                                         sizeof out, &err),
                     CP_OK);
    assert_string_equal(out, "cp 'i' 'o' 'i'");
    assert_int_equal(command_template_expand("cp {input} {output}", "i", "o", 1, out, 8, &err),
                     CP_EUSAGE);
}

static void test_template_check(void **state)
{
    (void)state;
    cp_err_t err = {0};
    assert_int_equal(command_template_check("cp {input} {output}", &err), CP_OK);
    assert_int_equal(command_template_check("cat < {input} > {output}", &err), CP_OK);
    assert_int_equal(command_template_check("cp {input} /dev/null", &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "{output}"));
    err = (cp_err_t){0}; /* the first error recorded stays */
    assert_int_equal(command_template_check("cp '{input}' {output}", &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "quotes"));
    assert_int_equal(command_template_check("cp {input} \"{output}\"", &err), CP_EUSAGE);
    assert_int_equal(command_template_check("", &err), CP_EUSAGE);
}

static void test_series_names(void **state)
{
    (void)state;
    command_series_t s;
    cp_err_t err = {0};
    assert_int_equal(command_series_make("/usr/bin/zstd -c {input} > {output}", NULL, &s, &err),
                     CP_OK);
    assert_string_equal(s.series, "cmd:zstd");
    assert_int_equal(command_series_make("  pigz -c {input} > {output}", "mine", &s, &err), CP_OK);
    assert_string_equal(s.series, "cmd:mine");
    assert_int_equal(command_series_make("cp {input} {output}", "a,b", &s, &err), CP_EUSAGE);
    assert_int_equal(command_series_make("cp {input} {output}",
                                     "a-name-that-is-far-too-long-for-a-series", &s, &err),
                     CP_EUSAGE);
}

static void test_presets(void **state)
{
    (void)state;
    command_series_t s;
    cp_err_t err = {0};
    assert_true(command_preset_is("zstd-cli:3"));
    assert_true(command_preset_is("pigz"));
    assert_false(command_preset_is("zstd:3"));
    assert_int_equal(command_preset_expand("zstd-cli:3", &s, &err), CP_OK);
    assert_string_equal(s.template_text, "zstd -q -3 -T{threads} -c {input} > {output}");
    assert_string_equal(s.series, "cmd:zstd-cli:3");
    assert_int_equal(command_preset_expand("xz-cli:6e", &s, &err), CP_OK);
    assert_string_equal(s.template_text, "xz -q -6e -T{threads} -c {input} > {output}");
    assert_string_equal(s.series, "cmd:xz-cli:6e");
    assert_int_equal(command_preset_expand("pigz:6", &s, &err), CP_OK);
    assert_string_equal(s.template_text, "pigz -q -6 -p {threads} -c {input} > {output}");
    assert_int_equal(command_template_check(s.template_text, &err), CP_OK);
    assert_int_equal(command_preset_expand("zstd-cli:20", &s, &err), CP_EUSAGE);
    assert_int_equal(command_preset_expand("zstd-cli:3e", &s, &err), CP_EUSAGE);
    assert_int_equal(command_preset_expand("pigz", &s, &err), CP_EUSAGE);
    assert_int_equal(command_preset_expand("pigz:x", &s, &err), CP_EUSAGE);
}

/* --decompress: a preset becomes its CLI restoring the archive of the matching built-in
 * codec; a template (format unknown) and pigz (no built-in gzip) cannot. */
static void test_presets_restore(void **state)
{
    (void)state;
    command_series_t s;
    codec_spec_t codec;
    cp_err_t err = {0};
    assert_int_equal(command_preset_expand("zstd-cli:3", &s, &err), CP_OK);
    assert_int_equal(command_series_restore(&s, &codec, &err), CP_OK);
    assert_string_equal(s.template_text, "zstd -q -d -c < {input} > {output}");
    assert_string_equal(s.series, "cmd:zstd-cli:3");
    assert_true(s.restores);
    char name[32];
    codec_format(&codec, name, sizeof name);
    assert_string_equal(name, "zstd:3");
    assert_int_equal(command_template_check(s.template_text, &err), CP_OK);

    assert_int_equal(command_preset_expand("xz-cli:6e", &s, &err), CP_OK);
    assert_int_equal(command_series_restore(&s, &codec, &err), CP_OK);
    assert_string_equal(s.template_text, "xz -q -d -T{threads} -c < {input} > {output}");
    codec_format(&codec, name, sizeof name);
    assert_string_equal(name, "xz:6e");

    assert_int_equal(command_preset_expand("pigz:6", &s, &err), CP_OK);
    assert_int_equal(command_series_restore(&s, &codec, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "pigz"));
    err = (cp_err_t){0};
    assert_int_equal(command_series_make("cp {input} {output}", "zstd-cli:3", &s, &err), CP_OK);
    assert_int_equal(command_series_restore(&s, &codec, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "--cmd template"));
    assert_false(s.restores);
}

/* A small input file in a fresh directory; returns the directory. */
static char *make_input(char *input, size_t cap)
{
    static char dir[] = "/tmp/cp-cmdjob.XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(input, cap, "%s/in put's", dir);
    FILE *f = fopen(input, "wb");
    assert_non_null(f);
    for (int i = 0; i < 10000; i++)
        fprintf(f, "line %d\n", i);
    fclose(f);
    return dir;
}

static int run_cmd(const char *tpl, const char *input, const char *dir, bool mem,
                   compress_record_t *rec, cp_err_t *err)
{
    command_series_t s;
    *err = (cp_err_t){0}; /* the first error recorded stays */
    assert_int_equal(command_series_make(tpl, "t", &s, err), CP_OK);
    command_job_t job = {.input_path = input, .command = &s, .threads = 2, .sync = SYNC_FSYNC,
                     .warm = true};
    target_spec_t target; /* the memory target's {output} is a FIFO, a directory's a file */
    if (mem)
        target_init_mem(&target);
    else
        assert_int_equal(target_init_dir(&target, "scratch", dir, err), CP_OK);
    job.target = &target;
    return command_job_run(&job, rec, err);
}

static void test_run_counts_output_and_reports_failures(void **state)
{
    (void)state;
    char input[256];
    char *dir = make_input(input, sizeof input);
    compress_record_t rec;
    cp_err_t err = {0};

    assert_int_equal(run_cmd("cp {input} {output}", input, dir, false, &rec, &err), CP_OK);
    assert_string_equal(rec.codec, "cmd:t");
    assert_int_equal(rec.run.output_bytes, rec.run.input_bytes);
    assert_true(rec.run.seconds >= rec.run.pipeline_s);
    assert_true(rec.max_rss_bytes > 0);

    assert_int_equal(run_cmd("cat {input} > {output}", input, dir, true, &rec, &err), CP_OK);
    assert_int_equal(rec.run.output_bytes, rec.run.input_bytes);
    assert_true(rec.discarded);

    assert_int_equal(run_cmd("echo first >&2; echo last words >&2; exit 4 # {input} {output}",
                             input, dir, false, &rec, &err),
                     CP_EIO);
    assert_non_null(strstr(err.msg, "exited with status 4"));
    assert_non_null(strstr(err.msg, "first | last words"));

    /* A long stderr: its first line stays in the message, then its last bytes. */
    assert_int_equal(run_cmd("echo the cause >&2; seq 1 2000 >&2; exit 5 # {input} {output}",
                             input, dir, false, &rec, &err),
                     CP_EIO);
    assert_non_null(strstr(err.msg, "exited with status 5: the cause | ... | "));
    assert_non_null(strstr(err.msg, " | 1999 | 2000"));

    assert_int_equal(run_cmd("true {input} {output}", input, dir, false, &rec, &err), CP_EIO);
    assert_non_null(strstr(err.msg, "wrote nothing"));
    assert_int_equal(run_cmd("true {input} {output}", input, dir, true, &rec, &err), CP_EIO);

    assert_int_equal(run_cmd("kill -9 $$ # {input} {output}", input, dir, false, &rec, &err),
                     CP_EIO);
    assert_non_null(strstr(err.msg, "signal 9"));

    /* A restore must give back exactly the size it was told: counted on the restored side,
     * the input (the archive) as the output. */
    command_series_t s;
    assert_int_equal(command_series_make("head -c 1000 {input} > {output}", "r", &s, &err), CP_OK);
    command_job_t job = {.input_path = input, .command = &s, .threads = 1, .sync = SYNC_FSYNC,
                     .warm = true, .discard = true, .restores_bytes = 1000};
    err = (cp_err_t){0};
    assert_int_equal(command_job_run(&job, &rec, &err), CP_OK);
    assert_true(rec.decompress);
    assert_int_equal(rec.run.input_bytes, 1000);   /* restored */
    assert_int_equal(rec.run.output_bytes, 98890); /* the archive read */
    job.restores_bytes = 1001;
    assert_int_equal(command_job_run(&job, &rec, &err), CP_EIO);
    assert_non_null(strstr(err.msg, "restored 1000 bytes; the input has 1001"));
    assert_true(rec.decompress);

    /* Nothing left behind but the input. */
    char command[512];
    snprintf(command, sizeof command, "test $(ls -A '%s' | wc -l) -eq 1", dir);
    assert_int_equal(system(command), 0);
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quote_survives_the_shell),
        cmocka_unit_test(test_quote_exact_text_and_overflow),
        cmocka_unit_test(test_expand_substitutes_every_placeholder),
        cmocka_unit_test(test_template_check),
        cmocka_unit_test(test_series_names),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_presets_restore),
        cmocka_unit_test(test_run_counts_output_and_reports_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
