/* fio's and hyperfine's JSON into probe.csv and runs.csv: figures carried over as the
 * tools gave them, the sync mode and series named from the jobs' options and parameters,
 * and every file that lacks what the model needs refused with one line; the meta.json an
 * import writes beside its table (its options, its start time, what it leaves alone). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tables/csv_out.h"
#include "tables/fio_import.h"
#include "tables/hyperfine_import.h"
#include "tables/history_load.h"
#include "tables/import_json.h"
#include "tables/import_meta.h"
#include "tables/meta_json.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

static json_t *json_of(const char *text)
{
    json_t *root = NULL;
    cp_err_t err = {0};
    if (import_json_parse("in.json", text, strlen(text), &root, &err) != CP_OK)
        fail_msg("%s", err.msg);
    return root;
}

/* A fio job: name, group, options (a JSON object's members), write and read bw_bytes. */
static char *fio_job(char *buf, size_t cap, const char *name, int group, const char *options,
                     long long write_bw, long long read_bw)
{
    snprintf(buf, cap,
             "{\"jobname\":\"%s\",\"groupid\":%d,\"error\":0,\"job options\":{%s},"
             "\"write\":{\"io_bytes\":%lld,\"bw_bytes\":%lld,\"runtime\":2000},"
             "\"read\":{\"io_bytes\":%lld,\"bw_bytes\":%lld,\"runtime\":1000}}",
             name, group, options, write_bw * 2, write_bw, read_bw, read_bw);
    return buf;
}

static int fio_parse(const char *text, fio_import_t *imp, cp_err_t *err)
{
    json_t *root = json_of(text);
    int rc = fio_import_parse("in.json", root, imp, err);
    json_decref(root);
    return rc;
}

static void test_fio_jobs_groups_and_sync(void **state)
{
    (void)state;
    char a[512], b[512], c[512], d[512], text[4096];
    snprintf(text, sizeof text,
             "fio: warning printed before the JSON\n"
             "{\"fio version\":\"fio-3.33\",\"global options\":{\"end_fsync\":\"1\"},"
             "\"jobs\":[%s,%s,%s,%s]}",
             fio_job(a, sizeof a, "ssd", 0, "\"rw\":\"write\",\"bs\":\"1M\",\"size\":\"64M\","
                     "\"direct\":\"1\"", 500000000, 0),
             fio_job(b, sizeof b, "ssd", 1, "\"rw\":\"write\",\"bs\":\"1M\",\"size\":\"64M\","
                     "\"direct\":\"1\"", 520000000, 0),
             fio_job(c, sizeof c, "usb", 2, "\"rw\":\"write\",\"bs\":\"4k,64k\",\"size\":\"1GiB\"",
                     150000000, 0),
             fio_job(d, sizeof d, "usb-read", 3, "\"size\":\"50%\"", 0, 90000000));
    fio_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(fio_parse(text, &imp, &err), CP_OK);
    assert_int_equal(imp.n, 4);
    assert_string_equal(imp.version, "fio-3.33");
    /* The same job in two groups: two repetitions at one size. */
    assert_string_equal(imp.rows[1].target, "ssd");
    assert_int_equal(imp.rows[1].rep, 2);
    assert_int_equal(imp.rows[0].size_bytes, 64 << 20);
    assert_int_equal(imp.rows[0].sync, SYNC_DIRECT);
    assert_int_equal(imp.rows[0].block_bytes, 1 << 20);
    assert_true(imp.rows[1].bytes_per_s == 520000000.0);
    assert_true(imp.rows[0].seconds == 2.0);
    /* The global end_fsync makes the buffered job fsync; bs "R,W" gives writes W. */
    assert_int_equal(imp.rows[2].sync, SYNC_FSYNC);
    assert_int_equal(imp.rows[2].block_bytes, 64 << 10);
    assert_int_equal(imp.rows[2].size_bytes, (uint64_t)1 << 30);
    /* No rw: fio reads; a size fio takes as a share of the device: the bytes read. */
    assert_int_equal(imp.rows[3].op, PROBE_READ);
    assert_int_equal(imp.rows[3].size_bytes, 90000000);
    assert_int_equal(imp.rows[3].block_bytes, 4096);

    /* Read back as analyze reads a probe file: fio's bandwidth is the volume's speed, a
     * direct write's the drain rate, a buffered one's none. */
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    assert_int_equal(fio_import_write(out, &imp, &err), CP_OK);
    fclose(out);
    probe_table_t *probe = NULL;
    assert_int_equal(probe_table_load_buffer("p.csv", csv, len, &probe, &err), CP_OK);
    assert_true(probe_table_speed(probe, "ssd", PROBE_OP_WRITE) == 510000000.0);
    assert_true(probe_table_speed(probe, "ssd", PROBE_OP_DRAIN) == 510000000.0);
    assert_true(isnan(probe_table_speed(probe, "usb", PROBE_OP_DRAIN)));
    assert_true(probe_table_speed(probe, "usb-read", PROBE_OP_READ) == 90000000.0);
    assert_non_null(strstr(csv, ",fio\n"));
    probe_table_free(probe);
    free(csv);
    fio_import_free(&imp);
}

static void test_fio_sync_modes(void **state)
{
    (void)state;
    static const struct {
        const char *options;
        sync_mode_t sync;
    } cases[] = {
        {"\"rw\":\"write\",\"direct\":\"1\"", SYNC_DIRECT},
        {"\"rw\":\"write\",\"buffered\":\"0\"", SYNC_DIRECT},
        {"\"rw\":\"write\",\"end_fsync\":\"1\"", SYNC_FSYNC},
        {"\"rw\":\"write\",\"fsync_on_close\":\"1\"", SYNC_FSYNC},
        {"\"rw\":\"write\",\"fsync\":\"32\"", SYNC_FSYNC},
        {"\"rw\":\"write\",\"direct\":\"0\"", SYNC_NONE},
        {"\"rw\":\"write\"", SYNC_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char job[512], text[1024];
        snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[%s]}",
                 fio_job(job, sizeof job, "j", 0, cases[i].options, 1000000, 0));
        fio_import_t imp;
        cp_err_t err = {0};
        assert_int_equal(fio_parse(text, &imp, &err), CP_OK);
        assert_int_equal(imp.rows[0].sync, cases[i].sync);
        fio_import_free(&imp);
    }
}

/* The file must be refused with a message holding `words`. */
static void fio_refused(const char *text, const char *words)
{
    fio_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(fio_parse(text, &imp, &err), CP_EDATA);
    if (strstr(err.msg, words) == NULL)
        fail_msg("'%s' does not say '%s'", err.msg, words);
    assert_non_null(strstr(err.msg, "in.json"));
}

static void test_fio_refusals(void **state)
{
    (void)state;
    char job[512], text[1536];
    fio_refused("{\"results\":[]}", "not fio's JSON output");
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[%s]}",
             fio_job(job, sizeof job, "rnd", 0, "\"rw\":\"randwrite\"", 1000, 0));
    fio_refused(text, "job 'rnd' is not sequential (rw=randwrite)");
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[%s]}",
             fio_job(job, sizeof job, "mix", 0, "\"rw\":\"rw\"", 1000, 1000));
    fio_refused(text, "job 'mix' is not sequential (rw=rw)");
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[%s]}",
             fio_job(job, sizeof job, "w", 0, "\"rw\":\"write\"", 0, 5000));
    fio_refused(text, "job 'w' has no write bandwidth");
    char job2[512];
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[%s,%s]}",
             fio_job(job, sizeof job, "c", 0, "\"rw\":\"write\",\"numjobs\":\"2\"", 1000, 0),
             fio_job(job2, sizeof job2, "c", 0, "\"rw\":\"write\",\"numjobs\":\"2\"", 1000, 0));
    fio_refused(text, "--group_reporting");
}

static int hf_parse(const char *text, const char *target, hyperfine_import_t *imp,
                    cp_err_t *err)
{
    json_t *root = json_of(text);
    hyperfine_sizes_t sizes = {1000000, 400000, target};
    int rc = hyperfine_import_parse("in.json", root, &sizes, imp, err);
    json_decref(root);
    return rc;
}

static void test_hyperfine_threads_and_commands(void **state)
{
    (void)state;
    /* Two commands at two thread counts, in hyperfine's order: thread count first. */
    const char *text =
        "{\"results\":["
        "{\"command\":\"zstd -3 -T1 in\",\"user\":0.5,\"system\":0.25,\"times\":[1.0,1.5],"
        "\"exit_codes\":[0,0],\"parameters\":{\"threads\":\"1\"}},"
        "{\"command\":\"zstd -19 -T1 in\",\"user\":2.0,\"system\":0.5,\"times\":[4.0],"
        "\"exit_codes\":[1],\"parameters\":{\"threads\":\"1\"}},"
        "{\"command\":\"zstd -3 -T10 in\",\"user\":0.6,\"system\":0.25,\"times\":[0.25],"
        "\"exit_codes\":[0],\"parameters\":{\"threads\":\"10\"}},"
        "{\"command\":\"zstd -19 -T10 in\",\"user\":2.5,\"system\":0.5,\"times\":[0.5],"
        "\"exit_codes\":[0],\"parameters\":{\"threads\":\"10\"}}]}";
    hyperfine_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(hf_parse(text, "ssd", &imp, &err), CP_OK);
    assert_int_equal(imp.n, 5);
    assert_string_equal(imp.rows[0].codec, "cmd:zstd -3 -T{threads} in");
    assert_string_equal(imp.rows[3].codec, "cmd:zstd -3 -T{threads} in");
    assert_string_equal(imp.rows[2].codec, "cmd:zstd -19 -T{threads} in");
    assert_string_equal(imp.rows[4].codec, "cmd:zstd -19 -T{threads} in");
    assert_string_equal(imp.rows[0].target, "ssd");
    assert_int_equal(imp.rows[1].rep, 2);
    assert_true(imp.rows[1].seconds == 1.5);
    assert_int_equal(imp.rows[3].threads, 10);
    assert_true(imp.rows[0].cpu_user_s == 0.5 && imp.rows[0].cpu_sys_s == 0.25);
    assert_int_equal(imp.rows[2].exit_code, 1);

    /* Read back as analyze reads runs.csv: the failed run counted apart. */
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    assert_int_equal(hyperfine_import_write(out, &imp, &err), CP_OK);
    fclose(out);
    runs_table_t *runs = NULL;
    assert_int_equal(runs_table_load_buffer("r.csv", csv, len, &runs, &err), CP_OK);
    assert_int_equal(runs->nrows, 4);
    assert_int_equal(runs->skipped_failed, 1);
    assert_true(runs->rows[0].seconds == 1.0 && runs->rows[0].input_bytes == 1000000.0);
    assert_true(runs->rows[0].output_bytes == 400000.0);
    runs_table_free(runs);
    free(csv);
    hyperfine_import_free(&imp);
}

static void test_hyperfine_parameters_name(void **state)
{
    (void)state;
    const char *text =
        "{\"results\":[{\"command\":\"run x\",\"user\":1,\"system\":0,\"times\":[2.0],"
        "\"parameters\":{\"threads\":\"4\",\"codec\":\"zstd:3\",\"target\":\"mem\"}}]}";
    hyperfine_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(hf_parse(text, "ignored", &imp, &err), CP_OK);
    assert_string_equal(imp.rows[0].target, "mem");
    assert_string_equal(imp.rows[0].codec, "zstd:3");
    hyperfine_import_free(&imp);
    /* No target anywhere: the command names it. */
    const char *bare = "{\"results\":[{\"command\":\"run x\",\"times\":[2.0],"
                       "\"parameters\":{\"threads\":\"4\"}}]}";
    assert_int_equal(hf_parse(bare, NULL, &imp, &err), CP_OK);
    assert_string_equal(imp.rows[0].target, "run x");
    assert_string_equal(imp.rows[0].codec, "cmd:run x");
    hyperfine_import_free(&imp);
}

static void hf_refused(const char *text, const char *words)
{
    hyperfine_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(hf_parse(text, NULL, &imp, &err), CP_EDATA);
    if (strstr(err.msg, words) == NULL)
        fail_msg("'%s' does not say '%s'", err.msg, words);
}

static void test_hyperfine_refusals(void **state)
{
    (void)state;
    hf_refused("{\"fio version\":\"x\",\"jobs\":[]}", "not hyperfine's JSON export");
    hf_refused("{\"results\":[{\"command\":\"c\",\"times\":[1.0],\"parameters\":{}}]}",
               "has no threads parameter");
    hf_refused("{\"results\":[{\"command\":\"c\",\"times\":[1.0]}]}", "has no threads parameter");
    hf_refused("{\"results\":[{\"command\":\"c\",\"times\":[1.0],"
               "\"parameters\":{\"threads\":\"2.5\"}}]}", "has no threads parameter");
    hf_refused("{\"results\":[{\"command\":\"c\",\"times\":[0],"
               "\"parameters\":{\"threads\":\"2\"}}]}", "time 1 is not a positive number");
    /* runs.csv keeps microseconds: 0.4 us would be written as 0, which analyze refuses. */
    hf_refused("{\"results\":[{\"command\":\"c\",\"times\":[1.0,4e-7],"
               "\"parameters\":{\"threads\":\"2\"}}]}",
               "time 2, 4e-07 s, is below a microsecond");
    /* A refused command or name is shown printable: the message stays one line. */
    hf_refused("{\"results\":[{\"command\":\"a\\nb\\u001b]0;x\\u0007\",\"times\":[1.0],"
               "\"parameters\":{}}]}", "result 1 ('a?b?]0;x?') has no threads parameter");
    hf_refused("{\"results\":[{\"command\":\"a\\nb\",\"times\":[1.0],"
               "\"parameters\":{\"threads\":\"2\"}}]}", "cannot name the target 'a?b'");
}

/* fio's figures a table cannot hold are refused, not cut: bw_bytes 1e300 was written as
 * the first 39 digits (about 1e38). */
static void test_fio_absurd_speed_refused(void **state)
{
    (void)state;
    fio_import_t imp;
    cp_err_t err = {0};
    const char *text = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"ssd\","
                       "\"groupid\":0,\"error\":0,\"job options\":{\"rw\":\"write\"},"
                       "\"write\":{\"io_bytes\":4096,\"bw_bytes\":1e300,\"runtime\":2000}}]}";
    assert_int_equal(fio_parse(text, &imp, &err), CP_EDATA);
    assert_string_equal(err.msg, "in.json: job 'ssd': write.bw_bytes 1e+300 is past 2^63 "
                                 "bytes/s");
    /* An option a message quotes is shown printable: the message stays one line. */
    cp_err_clear(&err);
    const char *rw = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"ssd\","
                     "\"groupid\":0,\"error\":0,\"job options\":{\"rw\":\"rand\\nwrite\"},"
                     "\"write\":{\"io_bytes\":4096,\"bw_bytes\":1000,\"runtime\":2000}}]}";
    assert_int_equal(fio_parse(rw, &imp, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "option 'rw' holds a control character"));
    assert_null(strchr(err.msg, '\n'));
}

/* A job whose size neither its options nor its io_bytes give is written with size_bytes
 * empty (not 0, which probe.csv's loader refuses): what import writes, analyze reads. */
/* A name with blanks at its ends is written quoted, so probe.csv's loader (which trims
 * the blanks of a field not quoted) reads the same name back. */
static void test_fio_blank_ended_name_loads(void **state)
{
    (void)state;
    const char *text = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\" ssd \","
                       "\"groupid\":0,\"error\":0,\"job options\":{\"rw\":\"write\"},"
                       "\"write\":{\"io_bytes\":4096,\"bw_bytes\":1000,\"runtime\":2000}}]}";
    fio_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(fio_parse(text, &imp, &err), CP_OK);
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    assert_int_equal(fio_import_write(out, &imp, &err), CP_OK);
    fclose(out);
    probe_table_t *t = NULL;
    if (probe_table_load_buffer("probe.csv", csv, len, &t, &err) != CP_OK)
        fail_msg("%s", err.msg);
    assert_string_equal(t->rows[0].target, " ssd ");
    probe_table_free(t);
    free(csv);
    fio_import_free(&imp);
}

static void test_fio_unknown_size_loads(void **state)
{
    (void)state;
    const char *text = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"ssd\","
                       "\"groupid\":0,\"error\":0,\"job options\":{\"rw\":\"write\"},"
                       "\"write\":{\"bw_bytes\":1000,\"runtime\":2000}}]}";
    fio_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(fio_parse(text, &imp, &err), CP_OK);
    assert_int_equal(imp.rows[0].size_bytes, 0);
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    assert_int_equal(fio_import_write(out, &imp, &err), CP_OK);
    fclose(out);
    probe_table_t *t = NULL;
    if (probe_table_load_buffer("probe.csv", csv, len, &t, &err) != CP_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(t->nrows, 1);
    assert_true(isnan(t->rows[0].size_bytes));
    probe_table_free(t);
    free(csv);
    fio_import_free(&imp);
}

static void test_not_json(void **state)
{
    (void)state;
    json_t *root = NULL;
    cp_err_t err = {0};
    const char *text = "line one\n{\"a\": tru";
    assert_int_equal(import_json_parse("x.json", text, strlen(text), &root, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "x.json: not JSON (line 2"));
    assert_null(root);
    /* jansson quotes the text near the fault: shown printable, the message one line. */
    cp_err_clear(&err);
    const char *escape = "{\"a\": \"b\\\n\"}";
    assert_int_equal(import_json_parse("x.json", escape, strlen(escape), &root, &err), CP_EDATA);
    assert_null(strpbrk(err.msg, "\n\r"));
}

/* --host and --started: names and ISO 8601 times accepted, the rest refused naming the
 * option. */
static void test_meta_options(void **state)
{
    (void)state;
    cp_err_t err = {0};
    assert_int_equal(import_meta_check_host("lab-box", &err), CP_OK);
    assert_int_equal(import_meta_check_host("", &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "--host: "));
    cp_err_clear(&err);
    assert_int_equal(import_meta_check_host("a\nb", &err), CP_EUSAGE);
    cp_err_clear(&err);
    assert_int_equal(import_meta_check_started("2026-11-02T09:30:00+0100", &err), CP_OK);
    assert_int_equal(import_meta_check_started("2026-11-02T09:30:00Z", &err), CP_OK);
    assert_int_equal(import_meta_check_started("2026-11-02 09:30:00", &err), CP_OK);
    const char *bad[] = {"", "yesterday", "2026-13-02T09:30:00", "2026-11-02T09:30",
                         "2026-11-02T09:30:00+01"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cp_err_clear(&err);
        assert_int_equal(import_meta_check_started(bad[i], &err), CP_EUSAGE);
        assert_non_null(strstr(err.msg, "--started: "));
    }
}

/* The start time: --started as given, else fio's timestamp, else the file's mtime, each
 * as meta.json spells times, and which one said. */
static void test_meta_started(void **state)
{
    (void)state;
    char buf[64], want[64];
    const char *from = NULL;
    import_meta_started("2026-11-02T09:30:00Z", 1700000000, "/", buf, sizeof buf, &from);
    assert_string_equal(buf, "2026-11-02T09:30:00Z");
    assert_string_equal(from, "--started");
    import_meta_started(NULL, 1700000000, "/", buf, sizeof buf, &from);
    time_t t = 1700000000;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(want, sizeof want, "%Y-%m-%dT%H:%M:%S%z", &tm);
    assert_string_equal(buf, want);
    assert_string_equal(from, "fio timestamp");
    double back;
    assert_int_equal(history_parse_time(buf, &back), CP_OK);
    assert_true(back == 1700000000.0);
    char dir[] = "/tmp/test_import_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/hf.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    struct timespec times[2] = {{.tv_sec = 1600000000}, {.tv_sec = 1600000000}};
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
    import_meta_started(NULL, 0, path, buf, sizeof buf, &from);
    assert_string_equal(from, "file mtime");
    assert_int_equal(history_parse_time(buf, &back), CP_OK);
    assert_true(back == 1600000000.0);
    import_meta_started(NULL, 0, "/nonexistent/hf.json", buf, sizeof buf, &from);
    assert_string_equal(from, "import time");
    unlink(path);
    rmdir(dir);
}

/* What becomes of a meta.json already there: none is written, an import's own of the same
 * table goes only with --force, anything else stays. */
static void test_meta_action(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_import_XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_int_equal(import_meta_action(dir, "runs.csv", true), IMPORT_META_WRITE);
    const meta_import_t imp = {.source = "hyperfine", .file = "hf.json", .table = "runs.csv",
                               .host = "box", .host_given = true,
                               .started = "2026-11-02T09:30:00Z", .started_from = "--started"};
    char *argv[] = {"import", "hyperfine", "hf.json"};
    json_t *meta = meta_create_import(3, argv, &imp);
    assert_non_null(meta);
    cp_err_t err = {0};
    assert_int_equal(meta_write(meta, dir, &err), CP_OK);
    json_decref(meta);
    assert_int_equal(import_meta_action(dir, "runs.csv", false), IMPORT_META_KEEP);
    assert_int_equal(import_meta_action(dir, "runs.csv", true), IMPORT_META_REPLACE);
    assert_int_equal(import_meta_action(dir, "probe.csv", true), IMPORT_META_KEEP);
    /* Read back: what history and compare need of a study. */
    assert_int_equal(meta_read(dir, &meta, NULL), META_READ_OK);
    assert_string_equal(json_string_value(json_object_get(meta, "status")), "complete");
    assert_string_equal(json_string_value(json_object_get(json_object_get(meta, "host"),
                                                          "hostname")), "box");
    assert_string_equal(json_string_value(json_object_get(meta, "source")), "hyperfine");
    json_decref(meta);
    /* compare's environment: the host's name, no machine to call the same as another. */
    char path[64];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    study_env_t env;
    study_env_init(&env);
    assert_int_equal(meta_read_env(path, &env, NULL), CP_OK);
    assert_true(env.imported);
    assert_false(env.known);
    assert_string_equal(env.hostname, "box");
    /* A study's own meta.json stays, --force or not. */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"host\": {\"hostname\": \"mine\"}, \"status\": \"complete\"}\n", f);
    fclose(f);
    assert_int_equal(import_meta_action(dir, "runs.csv", true), IMPORT_META_KEEP);
    unlink(path);
    rmdir(dir);
}

/* A number wider than a field's 40 bytes as %.0f is written so that it reads back the
 * same (it was cut: 1e300 became about 1e38). */
static void test_named_number_kept(void **state)
{
    (void)state;
    const double values[] = {1e300, 9.2e18, 123456789.0, -1e200};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        csv_named_row_t row = {0};
        csv_named_num(&row, "bytes_per_s", 0, values[i]);
        assert_true(strtod(row.fields[0].num, NULL) == values[i]);
    }
}

/* Times of a microsecond or two and a CPU time of 40 us, written by the hyperfine import
 * and read back as analyze reads runs.csv, are the values hyperfine gave (as %.6f and
 * %.4f they were 0.000001 and 0.0000: 29% and 33% off, and no CPU time). */
static void test_small_numbers_kept(void **state)
{
    (void)state;
    const char *text =
        "{\"results\":[{\"command\":\"zstd -T1 in\",\"user\":0.00004,\"system\":0.0000123,"
        "\"times\":[1.4e-6,1.49e-6],\"exit_codes\":[0,0],\"parameters\":{\"threads\":\"1\"}}]}";
    hyperfine_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(hf_parse(text, "t", &imp, &err), CP_OK);
    char *csv = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&csv, &len);
    assert_int_equal(hyperfine_import_write(out, &imp, &err), CP_OK);
    fclose(out);
    runs_table_t *runs = NULL;
    assert_int_equal(runs_table_load_buffer("r.csv", csv, len, &runs, &err), CP_OK);
    assert_int_equal(runs->nrows, 2);
    assert_true(runs->rows[0].seconds == 1.4e-6);
    assert_true(runs->rows[1].seconds == 1.49e-6);
    assert_true(runs->rows[0].cpu_user_s == 4e-5 && runs->rows[0].cpu_sys_s == 1.23e-5);
    /* The shortest digits that keep it, not 17 of them: the file stays readable. */
    assert_non_null(strstr(csv, "1.4e-06"));
    runs_table_free(runs);
    free(csv);
    hyperfine_import_free(&imp);

    /* Each value as a field of 4 and of 0 decimals reads back the same. */
    const double values[] = {4e-5, 1.4e-6, 0.1, 2.0 / 3.0, 1e-300, 0.5, 12.25};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        for (int decimals = 0; decimals <= 4; decimals += 4) {
            csv_named_row_t row = {0};
            csv_named_num(&row, "cpu_user_s", decimals, values[i]);
            assert_true(strtod(row.fields[0].num, NULL) == values[i]);
        }
    /* A value its decimals hold exactly stays in them. */
    csv_named_row_t row = {0};
    csv_named_num(&row, "seconds", 6, 12.25);
    assert_string_equal(row.fields[0].num, "12.250000");
}

/* fio's figures past 2^63, and hyperfine's times below a microsecond, refused naming the
 * job or result. */
static void test_absurd_numbers(void **state)
{
    (void)state;
    char job[512], text[1024];
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"ssd\","
             "\"groupid\":0,\"error\":0,\"job options\":{\"rw\":\"write\"},\"write\":"
             "{\"io_bytes\":1,\"bw_bytes\":1e300,\"runtime\":2000}}]}");
    fio_import_t imp;
    cp_err_t err = {0};
    assert_int_equal(fio_parse(text, &imp, &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "job 'ssd': write.bw_bytes 1e+300 is past 2^63"));
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"ssd\","
             "\"groupid\":0,\"error\":0,\"job options\":{\"rw\":\"write\"},\"write\":"
             "{\"io_bytes\":-5,\"bw_bytes\":1000,\"runtime\":2000}}]}");
    cp_err_t neg = {0};
    assert_int_equal(fio_parse(text, &imp, &neg), CP_EDATA);
    assert_non_null(strstr(neg.msg, "job 'ssd': write.io_bytes is not a size"));
    /* An option that reaches a message keeps the rule of names. */
    fio_job(job, sizeof job, "ssd", 0, "\"rw\":\"write\\u001b[2J\"", 1000, 0);
    snprintf(text, sizeof text, "{\"fio version\":\"fio-3.33\",\"jobs\":[%s]}", job);
    cp_err_t err2 = {0};
    assert_int_equal(fio_parse(text, &imp, &err2), CP_EDATA);
    assert_non_null(strstr(err2.msg, "option 'rw' holds a control character"));
    json_t *root = json_of("{\"results\":[{\"command\":\"zstd -T1\",\"parameters\":"
                           "{\"threads\":\"1\"},\"times\":[1.5,1e-320]}]}");
    hyperfine_sizes_t sizes = {.input_bytes = 1000, .target = "ssd"};
    hyperfine_import_t hf;
    cp_err_t err3 = {0};
    assert_int_equal(hyperfine_import_parse("h.json", root, &sizes, &hf, &err3), CP_EDATA);
    if (strstr(err3.msg, "time 2, ") == NULL || strstr(err3.msg, " s, is below a microsecond") == NULL)
        fail_msg("%s", err3.msg);
    json_decref(root);
}

/* meta.json is checked where it is read: a string with a control character, a name past
 * its bound, a negative size are refused naming the field; a command-line word may hold
 * a line end (a --cmd template). */
static void test_meta_check(void **state)
{
    (void)state;
    static const struct {
        const char *json, *says;
    } cases[] = {
        {"{\"host\": {\"hostname\": \"evil\\nsystem(1)\"}}",
         "m.json: field 'host.hostname' holds a control character"},
        {"{\"host\": \"\\u001b]0;T\\u0007\"}", "m.json: field 'host' holds a control"},
        {"{\"targets\": [{\"name\": \"a\"}, {\"dir\": \"x\\u009b2J\"}]}",
         "m.json: field 'targets[1].dir' holds a control character"},
        {"{\"host\": {\"mem_total_bytes\": -1}}",
         "m.json: field 'host.mem_total_bytes': -1 is not a count, size or rate"},
        {"{\"input\": {\"bytes\": 1e300}}", "field 'input.bytes': 1e+300 is not a count"},
        {"{\"command_line\": [\"run\", \"--cmd\", \"a\\u001b\"]}",
         "field 'command_line[2]' holds a control character"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *meta = json_of(cases[i].json);
        cp_err_t err = {0};
        assert_int_equal(meta_check(meta, "m.json", &err), CP_EDATA);
        if (strstr(err.msg, cases[i].says) == NULL)
            fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].says);
        json_decref(meta);
    }
    char long_name[400];
    memset(long_name, 'x', sizeof long_name);
    long_name[sizeof long_name - 1] = '\0';
    json_t *meta = json_pack("{s:{s:s}}", "host", "hostname", long_name);
    cp_err_t err = {0};
    assert_int_equal(meta_check(meta, "m.json", &err), CP_EDATA);
    assert_non_null(strstr(err.msg, "field 'host.hostname' is longer than 127 bytes"));
    json_decref(meta);
    meta = json_of("{\"command_line\": [\"run\", \"--cmd\", \"zstd -T{threads}\\n\\techo\"],"
                   " \"host\": {\"hostname\": \"caf\\u00e9\", \"online_cpus\": 8},"
                   " \"targets\": [{\"name\": \"ssd\", \"rotational\": null}]}");
    cp_err_t ok = {0};
    assert_int_equal(meta_check(meta, "m.json", &ok), CP_OK);
    json_decref(meta);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_jobs_groups_and_sync),
        cmocka_unit_test(test_fio_sync_modes),
        cmocka_unit_test(test_fio_refusals),
        cmocka_unit_test(test_fio_unknown_size_loads),
        cmocka_unit_test(test_fio_absurd_speed_refused),
        cmocka_unit_test(test_fio_blank_ended_name_loads),
        cmocka_unit_test(test_hyperfine_threads_and_commands),
        cmocka_unit_test(test_hyperfine_parameters_name),
        cmocka_unit_test(test_hyperfine_refusals),
        cmocka_unit_test(test_not_json),
        cmocka_unit_test(test_meta_options),
        cmocka_unit_test(test_meta_started),
        cmocka_unit_test(test_meta_action),
        cmocka_unit_test(test_named_number_kept),
        cmocka_unit_test(test_small_numbers_kept),
        cmocka_unit_test(test_absurd_numbers),
        cmocka_unit_test(test_meta_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
