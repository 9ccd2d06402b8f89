/* test_parse.c - the command line's small languages: sizes, rates, thread lists, positive
 * integers, targets, and the shared option families (--reps, --seed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/options.h"
#include "cli/parse.h"

static uint64_t size_ok(const char *text)
{
    uint64_t v = 0;
    cp_err_t err = {0};
    int rc = parse_size(text, &v, &err);
    if (rc != CP_OK)
        fail_msg("parse_size(\"%s\") failed: %s", text, err.msg);
    return v;
}

static void size_bad(const char *text)
{
    uint64_t v = 12345;
    cp_err_t err = {0};
    if (parse_size(text, &v, &err) != CP_EUSAGE)
        fail_msg("parse_size(\"%s\") accepted", text);
    assert_int_equal(v, 12345); /* untouched on failure */
    assert_non_null(strstr(err.msg, text));
}

static void test_sizes_binary_and_decimal(void **state)
{
    (void)state;
    assert_int_equal(size_ok("0"), 0);
    assert_int_equal(size_ok("512"), 512);
    assert_int_equal(size_ok("512B"), 512);
    assert_int_equal(size_ok("4K"), 4096);
    assert_int_equal(size_ok("4KiB"), 4096);
    assert_int_equal(size_ok("1M"), 1048576);
    assert_int_equal(size_ok("1G"), 1073741824ull);
    assert_int_equal(size_ok("1T"), 1099511627776ull);
    assert_int_equal(size_ok("1.5G"), 1610612736ull);
    assert_int_equal(size_ok("2MB"), 2000000);
    assert_int_equal(size_ok("10MB"), 10000000);
    assert_int_equal(size_ok("2GB"), 2000000000ull);
    assert_int_equal(size_ok("1KB"), 1000);
    assert_int_equal(size_ok("0.5KB"), 500);
    assert_int_equal(size_ok("1.0001KB"), 1000); /* fractions of a byte round down */
    assert_int_equal(size_ok("1.5K"), 1536);       /* a fraction with a unit is fine */
}

/* Units are read in any case: "10mb" is 10MB, "4k" is 4K, "64mib" is 64MiB. */
static void test_sizes_lowercase_units(void **state)
{
    (void)state;
    assert_int_equal(size_ok("10mb"), 10000000);
    assert_int_equal(size_ok("1m"), 1048576);
    assert_int_equal(size_ok("4k"), 4096);
    assert_int_equal(size_ok("64mib"), 67108864);
    assert_int_equal(size_ok("2Gb"), 2000000000ull);
    assert_int_equal(size_ok("512b"), 512);
}

/* A bare fraction is a count of bytes with a fraction: refused, not rounded to 1 byte. */
static void test_sizes_bare_fraction_refused(void **state)
{
    (void)state;
    size_bad("1.5");
    size_bad("0.5");
    size_bad("1.5B");
    uint64_t v;
    cp_err_t err = {0};
    assert_int_equal(parse_size("1.5", &v, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "a fraction needs a unit"));
    assert_int_equal(size_ok("2.0"), 2); /* a whole number written with .0 is still whole */
}

static void test_sizes_rejected(void **state)
{
    (void)state;
    size_bad("");
    size_bad("M");
    size_bad("-1M");
    size_bad("1 M");
    size_bad("1MBs");
    size_bad("1.M");
    size_bad(".5M");
    size_bad("1e6");
    size_bad("4X");
    size_bad("10000000T"); /* beyond 63 bits */
    uint64_t v;
    cp_err_t err = {0};
    assert_int_equal(parse_size(NULL, &v, &err), CP_EUSAGE);
}

static double rate_ok(const char *text)
{
    double v = 0;
    cp_err_t err = {0};
    if (parse_rate(text, &v, &err) != CP_OK)
        fail_msg("parse_rate(\"%s\") failed: %s", text, err.msg);
    return v;
}

static void rate_bad(const char *text)
{
    double v = -1;
    cp_err_t err = {0};
    if (parse_rate(text, &v, &err) != CP_EUSAGE)
        fail_msg("parse_rate(\"%s\") accepted", text);
    assert_true(v == -1);
    assert_non_null(strstr(err.msg, text));
}

static void test_rates(void **state)
{
    (void)state;
    assert_true(rate_ok("400MB/s") == 400e6);
    assert_true(rate_ok("1.5GB/s") == 1.5e9);
    assert_true(rate_ok("200MiB/s") == 200.0 * 1048576);
    assert_true(rate_ok("1GiB/s") == 1073741824.0);
    assert_true(rate_ok("800KB/s") == 800e3);
    assert_true(rate_ok("100B/s") == 100.0);
    rate_bad("400");      /* unit required */
    rate_bad("400MB");    /* a size, not a rate */
    rate_bad("0MB/s");    /* must be positive */
    rate_bad("-5MB/s");
    assert_true(rate_ok("400mb/s") == 400e6); /* units in any case, as sizes take them */
    assert_true(rate_ok("2gib/s") == 2.0 * 1073741824.0);
    rate_bad("MB/s");
    rate_bad("");
    rate_bad("1000000TB/s"); /* absurd */
}

static void thread_list_is(const char *text, const int *want, size_t n)
{
    int *list = NULL;
    size_t count = 0;
    cp_err_t err = {0};
    if (parse_thread_list(text, &list, &count, &err) != CP_OK)
        fail_msg("parse_thread_list(\"%s\") failed: %s", text, err.msg);
    assert_int_equal(count, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(list[i], want[i]);
    free(list);
}

static void thread_list_bad(const char *text)
{
    int *list = NULL;
    size_t count = 99;
    cp_err_t err = {0};
    if (parse_thread_list(text, &list, &count, &err) != CP_EUSAGE)
        fail_msg("parse_thread_list(\"%s\") accepted", text);
    assert_null(list);
    assert_int_equal(count, 99);
}

static void test_thread_lists(void **state)
{
    (void)state;
    thread_list_is("4", (int[]){4}, 1);
    thread_list_is("1,2,4", (int[]){1, 2, 4}, 3);
    thread_list_is("1..4", (int[]){1, 2, 3, 4}, 4);
    thread_list_is("8,1..3,2", (int[]){1, 2, 3, 8}, 4); /* sorted, duplicates dropped */
    thread_list_is("1024", (int[]){1024}, 1);
    thread_list_is("3..3", (int[]){3}, 1);
    thread_list_bad("");
    thread_list_bad("0");
    thread_list_bad("1025");
    thread_list_bad("4..2");
    thread_list_bad("1,,2");
    thread_list_bad("1,");
    thread_list_bad(",1");
    thread_list_bad("1...4");
    thread_list_bad("1..");
    thread_list_bad("a");
    thread_list_bad("-1");
    thread_list_bad("99999999999999999999");
}

static void test_positive_ints(void **state)
{
    (void)state;
    long v = 0;
    cp_err_t err = {0};
    assert_int_equal(parse_positive_int("3", "--reps", 1000, &v, &err), CP_OK);
    assert_int_equal(v, 3);
    assert_int_equal(parse_positive_int("1000", "--reps", 1000, &v, &err), CP_OK);
    assert_int_equal(v, 1000);
    assert_int_equal(parse_positive_int("1001", "--reps", 1000, &v, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "--reps"));
    cp_err_clear(&err);
    assert_int_equal(parse_positive_int("0", "--reps", 1000, &v, &err), CP_EUSAGE);
    cp_err_clear(&err);
    assert_int_equal(parse_positive_int("", "--reps", 1000, &v, &err), CP_EUSAGE);
    cp_err_clear(&err);
    assert_int_equal(parse_positive_int("+3", "--reps", 1000, &v, &err), CP_EUSAGE);
    cp_err_clear(&err);
    assert_int_equal(parse_positive_int("3x", "--reps", 1000, &v, &err), CP_EUSAGE);
    cp_err_clear(&err);
    /* The whole range of long, without overflow on the way. */
    assert_int_equal(parse_positive_int("9223372036854775807", "n", LONG_MAX, &v, &err), CP_OK);
    assert_true(v == LONG_MAX);
    assert_int_equal(parse_positive_int("9223372036854775808", "n", LONG_MAX, &v, &err),
                     CP_EUSAGE);
    cp_err_clear(&err);
    assert_int_equal(parse_positive_int("99999999999999999999999", "n", LONG_MAX, &v, &err),
                     CP_EUSAGE);
}

/* --reps and --seed have one range in every command (common/bounds.h). */
static void test_option_families(void **state)
{
    (void)state;
    cp_err_t err = {0};
    int reps = 0;
    assert_int_equal(options_reps("1", &reps, &err), CP_OK);
    assert_int_equal(reps, 1);
    assert_int_equal(options_reps("1000", &reps, &err), CP_OK);
    assert_int_equal(reps, CP_MAX_REPS);
    assert_int_equal(options_reps("1001", &reps, &err), CP_EUSAGE);
    assert_string_equal(err.msg, "bad --reps '1001': expected a whole number from 1 to 1000");
    assert_int_equal(reps, CP_MAX_REPS); /* untouched on failure */
    cp_err_clear(&err);
    assert_int_equal(options_reps("0", &reps, &err), CP_EUSAGE);
    cp_err_clear(&err);

    uint64_t seed = 7;
    assert_int_equal(options_seed("0", &seed, &err), CP_OK);
    assert_true(seed == 0);
    assert_int_equal(options_seed("2147483647", &seed, &err), CP_OK);
    assert_true(seed == (uint64_t)CP_SEED_MAX);
    const char *bad[] = {"2147483648", "18446744073709551615", "18446744073709551616", "",
                         "-1", "+1", "1x", " 1", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        seed = 5;
        assert_int_equal(options_seed(bad[i], &seed, &err), CP_EUSAGE);
        assert_non_null(strstr(err.msg, "bad seed '"));
        assert_non_null(strstr(err.msg, "from 0 to 2147483647"));
        assert_true(seed == 5);
        cp_err_clear(&err);
    }
}

static target_spec_t target_ok(const char *text)
{
    target_spec_t t;
    cp_err_t err = {0};
    if (parse_target(text, &t, &err) != CP_OK)
        fail_msg("parse_target(\"%s\") failed: %s", text, err.msg);
    return t;
}

static void target_bad(const char *text)
{
    target_spec_t t;
    cp_err_t err = {0};
    if (parse_target(text, &t, &err) != CP_EUSAGE)
        fail_msg("parse_target(\"%s\") accepted", text);
    assert_true(err.msg[0] != '\0');
}

static void test_targets(void **state)
{
    (void)state;
    target_spec_t t = target_ok("/mnt/ssd");
    assert_string_equal(t.name, "/mnt/ssd");
    assert_string_equal(t.dir, "/mnt/ssd");
    assert_true(t.rate_cap_bps == 0);
    assert_false(t.kind == TARGET_MEM);

    t = target_ok("ssd=/mnt/ssd@400MB/s");
    assert_string_equal(t.name, "ssd");
    assert_string_equal(t.dir, "/mnt/ssd");
    assert_true(t.rate_cap_bps == 400e6);

    t = target_ok("/data/a=b");  /* '=' after the first '/' belongs to the directory */
    assert_string_equal(t.dir, "/data/a=b");
    assert_string_equal(t.name, "/data/a=b");

    t = target_ok("out@1.5GiB/s");
    assert_string_equal(t.dir, "out");
    assert_true(t.rate_cap_bps == 1.5 * 1073741824.0);

    t = target_ok("mem");
    assert_true(t.kind == TARGET_MEM);
    assert_string_equal(t.name, "mem");

    target_bad("");
    target_bad("=/mnt/ssd");
    target_bad("ssd=");
    target_bad("ssd=@400MB/s");
    target_bad("/mnt/ssd@fast");
    target_bad("/mnt/ssd@400MB");
    target_bad("mem=/mnt/ssd");     /* reserved name */
    target_bad("mem@100MB/s");
    target_bad("a,b=/mnt/ssd");     /* would break the CSV */
    target_bad("a\"b=/mnt/ssd");
    target_bad("/mnt/a,b");         /* a label needs a NAME= */
    char long_name[CP_TARGET_NAME_MAX + 8];
    memset(long_name, 'n', sizeof long_name);
    strcpy(long_name + CP_TARGET_NAME_MAX, "=/tmp");
    target_bad(long_name);
}

/* A malformed cap: CP_EUSAGE, one line that quotes the whole TARGET and says what is
 * wrong (want), the output untouched. */
static void cap_bad(const char *text, const char *want)
{
    target_spec_t t;
    memset(&t, 0x5a, sizeof t);
    cp_err_t err = {0};
    if (parse_target(text, &t, &err) != CP_EUSAGE)
        fail_msg("parse_target(\"%s\") accepted", text);
    char quoted[PATH_MAX + 16];
    snprintf(quoted, sizeof quoted, "bad target '%s'", text);
    if (strstr(err.msg, quoted) == NULL || strstr(err.msg, want) == NULL ||
        strchr(err.msg, '\n') != NULL)
        fail_msg("parse_target(\"%s\"): message '%s' should quote the target and say '%s'",
                 text, err.msg, want);
    assert_true(((unsigned char *)&t)[0] == 0x5a);
}

static void test_target_caps(void **state)
{
    (void)state;
    /* @RATE is the write cap, as it always was; no read cap. */
    target_spec_t t = target_ok("/mnt/ssd@400MB/s");
    assert_true(t.rate_cap_bps == 400e6);
    assert_true(t.read_cap_bps == 0);
    t = target_ok("/mnt/ssd");
    assert_true(t.rate_cap_bps == 0 && t.read_cap_bps == 0);

    t = target_ok("ssd=/mnt/ssd@write=60MB/s");
    assert_string_equal(t.name, "ssd");
    assert_string_equal(t.dir, "/mnt/ssd");
    assert_true(t.rate_cap_bps == 60e6);
    assert_true(t.read_cap_bps == 0);

    t = target_ok("/mnt/ssd@read=1.5GB/s");
    assert_string_equal(t.name, "/mnt/ssd");
    assert_string_equal(t.dir, "/mnt/ssd");
    assert_true(t.rate_cap_bps == 0);
    assert_true(t.read_cap_bps == 1.5e9);

    t = target_ok("ssd=/mnt/ssd@write=400MB/s,read=200MiB/s");
    assert_true(t.rate_cap_bps == 400e6);
    assert_true(t.read_cap_bps == 200.0 * 1048576.0);
    t = target_ok("ssd=/mnt/ssd@read=200MiB/s,write=400MB/s"); /* either order */
    assert_true(t.rate_cap_bps == 400e6);
    assert_true(t.read_cap_bps == 200.0 * 1048576.0);

    /* Without a '/' in DIR the keyed cap's '=' is not a NAME='s. */
    t = target_ok("out@read=20MB/s");
    assert_string_equal(t.name, "out");
    assert_string_equal(t.dir, "out");
    assert_true(t.read_cap_bps == 20e6);
    t = target_ok("slow=out@read=20MB/s");
    assert_string_equal(t.name, "slow");
    assert_string_equal(t.dir, "out");
    /* An '@' earlier in the directory stays in it. */
    t = target_ok("/mnt/a@b@read=20MB/s");
    assert_string_equal(t.dir, "/mnt/a@b");
    assert_true(t.read_cap_bps == 20e6);

    cap_bad("/mnt/ssd@speed=20MB/s", "unknown cap 'speed'");
    cap_bad("/mnt/ssd@Read=20MB/s", "unknown cap 'Read'");
    cap_bad("/mnt/ssd@read", "'read=' needs a RATE");
    cap_bad("/mnt/ssd@read=", "'read=' needs a RATE");
    cap_bad("/mnt/ssd@write=20MB/s,read=", "'read=' needs a RATE");
    cap_bad("/mnt/ssd@read=20MB/s,read=30MB/s", "'read=' given twice");
    cap_bad("/mnt/ssd@write=20MB/s,read=1MB/s,write=30MB/s", "'write=' given twice");
    cap_bad("/mnt/ssd@read=fast", "read cap: bad rate 'fast'");
    cap_bad("/mnt/ssd@read=20MB", "read cap: bad rate '20MB'");
    cap_bad("/mnt/ssd@write=0MB/s", "write cap: bad rate '0MB/s'");
    cap_bad("/mnt/ssd@read=20MB/s,", "an empty cap");
    cap_bad("/mnt/ssd@read=20MB/s,,write=1MB/s", "an empty cap");
    cap_bad("/mnt/ssd@fast", "unknown cap 'fast'");
    cap_bad("/mnt/ssd@400MB/s,read=20MB/s", "bad rate");
    cap_bad("ssd=@read=20MB/s", "empty DIR");
    cap_bad("@read=20MB/s", "empty DIR");
    cap_bad("mem@read=20MB/s", "reserved");
}

static void test_target_check(void **state)
{
    (void)state;
    char dir[] = "/tmp/cp-parse-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%s/plain", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    char missing[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/missing", dir);

    target_spec_t t = target_ok(dir);
    cp_err_t err = {0};
    assert_int_equal(target_check(&t, &err), CP_OK);

    t = target_ok(missing);
    assert_int_equal(target_check(&t, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, missing));
    cp_err_clear(&err);

    t = target_ok(file);
    assert_int_equal(target_check(&t, &err), CP_EUSAGE);
    assert_non_null(strstr(err.msg, "not a directory"));
    cp_err_clear(&err);

    t = target_ok("mem");
    assert_int_equal(target_check(&t, &err), CP_OK);

    unlink(file);
    rmdir(dir);
}

/* -c mixes built-in codecs and presets into one list of series; a --cmd appends one. */
static void test_series_list_mixes_codecs_and_presets(void **state)
{
    (void)state;
    series_spec_t *series = NULL;
    size_t n = 0;
    cp_err_t err = {0};
    assert_int_equal(parse_series_list("zstd:3,zstd-cli:3,xz:1", &series, &n, &err), CP_OK);
    assert_int_equal(n, 3);
    assert_int_equal(series[0].kind, SERIES_CODEC);
    assert_int_equal(series[1].kind, SERIES_COMMAND);
    assert_string_equal(series[1].command.series, "cmd:zstd-cli:3");
    assert_string_equal(series[1].codec.ops->name, "copy");
    assert_int_equal(series[2].kind, SERIES_CODEC);
    assert_string_equal(series[2].codec.ops->name, "xz");
    char name[32];
    series_format(&series[0], name, sizeof name);
    assert_string_equal(name, "zstd:3");
    command_series_t extra;
    assert_int_equal(command_series_make("cp {input} {output}", NULL, &extra, &err), CP_OK);
    series_spec_t command = series_of_command(&extra);
    assert_int_equal(series_list_append(&series, &n, &command, &err), CP_OK);
    assert_int_equal(n, 4);
    series_format(&series[3], name, sizeof name);
    assert_string_equal(name, "cmd:cp");
    /* -c given again adds to the list; a name already in it is refused, list and all. */
    assert_int_equal(parse_series_list("xz:6", &series, &n, &err), CP_OK);
    assert_int_equal(n, 5);
    series_format(&series[4], name, sizeof name);
    assert_string_equal(name, "xz:6");
    assert_int_equal(parse_series_list("copy,xz:6", &series, &n, &err), CP_EUSAGE);
    assert_string_equal(err.msg, "codec 'xz:6' is given twice");
    assert_null(series);
    assert_int_equal(n, 0);
    cp_err_clear(&err);
    assert_int_equal(parse_series_list("zstd:3,", &series, &n, &err), CP_EUSAGE);
    assert_null(series);
    assert_int_equal(n, 0);
    assert_int_equal(parse_series_list("zstd-cli:99", &series, &n, &err), CP_EUSAGE);
    assert_int_equal(parse_series_list("nope:1", &series, &n, &err), CP_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_list_mixes_codecs_and_presets),
        cmocka_unit_test(test_sizes_binary_and_decimal),
        cmocka_unit_test(test_sizes_rejected),
        cmocka_unit_test(test_sizes_lowercase_units),
        cmocka_unit_test(test_sizes_bare_fraction_refused),
        cmocka_unit_test(test_rates),
        cmocka_unit_test(test_thread_lists),
        cmocka_unit_test(test_positive_ints),
        cmocka_unit_test(test_option_families),
        cmocka_unit_test(test_targets),
        cmocka_unit_test(test_target_caps),
        cmocka_unit_test(test_target_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
