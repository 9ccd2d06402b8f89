/* test_option_table.c - the one option table (cli/option_table.h): a command's list gives
 * getopt_long's ids back (short letters as their option's id), and its --help block is
 * laid out from the same list; and the lists --help takes from the registries (codecs,
 * presets, report formats, target kinds) and the paragraphs made in parts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/option_table.h"
#include "cli/options.h"
#include "cli/parse.h"
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

/* A --help paragraph made in parts: the words of every part in order, one space apart,
 * wrapped at OPTIONS_PARAGRAPH_WIDTH columns (a longer word alone on its line); and the
 * TARGET paragraph, the kinds' sentences between the command's words. */
static void test_help_paragraph(void **state)
{
    (void)state;
    char long_word[OPTIONS_PARAGRAPH_WIDTH + 10];
    memset(long_word, 'x', sizeof long_word - 1);
    long_word[sizeof long_word - 1] = '\0';
    char lead[OPTIONS_PARAGRAPH_WIDTH + 1];
    memset(lead, 'a', sizeof lead - 3); /* a word that fills the line but 2 columns */
    lead[sizeof lead - 3] = '\0';
    const char *const parts[] = {lead, "", "b\nc  d", long_word, "e"};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    options_help_paragraph(out, parts, 5);
    options_help_paragraph(out, parts + 1, 1); /* no word: nothing */
    fclose(out);
    char expected[4 * OPTIONS_PARAGRAPH_WIDTH];
    snprintf(expected, sizeof expected, "%s b\nc d\n%s\ne\n", lead, long_word);
    assert_string_equal(text, expected);
    free(text);

    out = open_memstream(&text, &len);
    assert_non_null(out);
    parse_target_help(out, "TARGET is [NAME=]DIR.", false, "A target given twice is refused.");
    parse_target_help(out, "TARGET is [NAME=]DIR.", true, "Locked.");
    fclose(out);
    assert_ptr_equal(strstr(text, "TARGET is [NAME=]DIR. 'mem' counts the output and discards "
                                  "it: the pure CPU ceiling.\n"),
                     text);
    const char *second = strstr(text, "\nTARGET is [NAME=]DIR. ");
    assert_non_null(second);
    assert_null(strstr(second, "'mem'")); /* mem has no volume */
    assert_non_null(strstr(second, " Locked.\n"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_help_block),
        cmocka_unit_test(test_registry_lists),
        cmocka_unit_test(test_help_paragraph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
