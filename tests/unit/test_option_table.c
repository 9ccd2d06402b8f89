/* test_option_table.c - the one option table (cli/option_table.h): a command's list gives
 * getopt_long's ids back (short letters as their option's id), and its --help block is
 * laid out from the same list; and the lists --help takes from the registries (codecs,
 * presets, report formats). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/option_table.h"
#include "cli/options.h"
#include "codecs/codec.h"
#include "codecs/presets.h"
#include "report/report_format.h"

static const opt_use_t uses[] = {
    {.id = OPT_OUTPUT, .flags = OPT_SHORT_ONLY},
    {.id = OPT_FORCE},
    {.id = OPT_FORMAT},
    {.id = OPT_FAIL_ON_REGRESSION, .help = "exit 1 past PCT\nits interval", .flags = OPT_OWN_LINE},
    {.id = OPT_THREADS, .help = "thread counts"},
    {.id = OPT_PROBE, .arg = "P.csv", .help = "a table", .flags = OPT_WIDE_GAP},
    {.id = OPT_QUIET},
    {.id = OPT_NONE},
};
static const opt_command_t command = {uses, 20, false};

static void test_ids(void **state)
{
    (void)state;
    char *argv[] = {"cmd", "-o", "f", "--force", "-T", "1,2", "--format=json", "-q",
                    "--thr", "4", "rest", NULL};
    int argc = 11;
    int want[] = {OPT_OUTPUT, OPT_FORCE, OPT_THREADS, OPT_FORMAT, OPT_QUIET, OPT_THREADS, -1};
    const char *args[] = {"f", NULL, "1,2", "json", NULL, "4"};
    options_begin();
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int c = options_next(&command, argc, argv);
        assert_int_equal(c, want[i]);
        if (c != -1 && args[i] != NULL)
            assert_string_equal(optarg, args[i]);
    }
    assert_string_equal(argv[optind], "rest");

    char *unknown[] = {"cmd", "--nope", NULL};
    options_begin();
    assert_int_equal(options_next(&command, 2, unknown), '?');
    char *missing[] = {"cmd", "-o", NULL};
    options_begin();
    assert_int_equal(options_next(&command, 2, missing), ':');
}

static void test_help_block(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    options_print(out, &command, 0);
    fclose(out);
    assert_string_equal(text,
                        "  -o FILE           write there (atomically) instead of stdout\n"
                        "  --force           replace FILE when it exists (otherwise an error)\n"
                        "  --format F        text (default), json or markdown\n"
                        "  --fail-on-regression PCT\n"
                        "                    exit 1 past PCT\n"
                        "                    its interval\n"
                        "  -T, --threads LIST  thread counts\n"
                        "  --probe P.csv  a table\n"
                        "  -q, --quiet       no informational messages on stderr\n");
    free(text);
}

static void test_registry_lists(void **state)
{
    (void)state;
    char buf[160];
    codec_list_text(buf, sizeof buf, NULL);
    assert_string_equal(buf, "zstd:1..19, xz:0..9[e], copy");
    codec_list_text(buf, sizeof buf, "add 'e' for extreme: ");
    assert_string_equal(buf, "zstd:1..19, xz:0..9 (add 'e' for extreme: xz:6e) or copy");
    codec_list_text(buf, 8, NULL); /* truncated, still a string */
    assert_string_equal(buf, "zstd:1.");
    report_format_list(REPORT_FORMATS_ANALYZE, false, buf, sizeof buf);
    assert_string_equal(buf, "text, json, markdown or summary");
    report_format_list(REPORT_FORMATS_DOCUMENT, true, buf, sizeof buf);
    assert_string_equal(buf, "text (default), json or markdown");

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    presets_write_help(out);
    fclose(out);
    assert_non_null(strstr(text, "                           xz-cli:0..9[e]  xz -q -L "
                                 "-T{threads} -c {input} > {output}\n"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_help_block),
        cmocka_unit_test(test_registry_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
