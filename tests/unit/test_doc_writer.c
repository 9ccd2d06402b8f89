/* test_doc_writer.c - the renderer's two back ends on one document: a table (header, rows
 * padded or trimmed, alignment, a row's note, a column in parentheses, a column text
 * leaves out, '|' escaped), a section, a label, an alarm word, a legend and a folded
 * block, each written once and compared byte for byte in text and in Markdown; names from
 * files escaped for Markdown (\ | < > &) and their control bytes shown, never written. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/doc_writer.h"

/* What write(d) writes in style, as a string the caller frees. */
static char *render(const doc_style_t *style, void (*write)(const doc_t *d))
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    const doc_t d = {.out = out, .style = style};
    write(&d);
    fclose(out);
    return text;
}

static void write_table(const doc_t *d)
{
    static const doc_column_t columns[] = {
        {.title = "name", .left = true, .width = 6},
        {.title = "seconds (median)", .text_title = "s", .width = 7},
        {.title = "call", .left = true, .gap = "  "},
        {.title = "basis", .left = true, .text_in_parens = true},
        {.title = "source", .left = true, .text_hidden = true},
    };
    const doc_table_t t = {.columns = columns, .ncolumns = 5, .indent = "  ",
                           .note_column = 2};
    char alarm[32] = " ";
    doc_alarm(d, "regression", alarm + 1, sizeof alarm - 1);
    doc_table_head(d, &t);
    const char *row1[] = {"a|b", "  1.5 ", "slower", "ratio", "probe"};
    const char *row2[] = {"d\\|e", "20.25", "same", "interval", "class"};
    doc_table_row(d, &t, row1, alarm);
    doc_table_row(d, &t, row2, NULL);
    doc_table_end(d);
    doc_legend(d, "\"s\": seconds.");
}

static void test_table(void **state)
{
    (void)state;
    char *text = render(&doc_style_text, write_table);
    assert_string_equal(text, "  name         s  call\n"
                              "  a|b       1.5   slower (ratio) REGRESSION\n"
                              "  d\\|e     20.25  same (interval)\n");
    free(text);
    char *md = render(&doc_style_markdown, write_table);
    assert_string_equal(md, "| name | seconds (median) | call | basis | source |\n"
                            "|---|---:|---|---|---|\n"
                            "| a\\|b | 1.5 | slower **regression** | ratio | probe |\n"
                            "| d\\\\\\|e | 20.25 | same | interval | class |\n"
                            "\n"
                            "\"s\": seconds.\n\n");
    free(md);
}

static void write_pieces(const doc_t *d)
{
    doc_section(d, 1, "", "Title");
    doc_section(d, 2, "the answer:\n", "The answer");
    doc_section(d, 0, "  notes:\n", "Notes:");
    doc_heading(d, 1, "first %d", 1);
    doc_label(d, "  ", "crossover");
    fprintf(d->out, ": 4 threads%s", doc_sentence_end(d));
    doc_fold_begin(d, "  models:\n", "Models");
    fputs("m\n", d->out);
    doc_fold_end(d);
    fprintf(d->out, "end%s", doc_paragraph_end(d));
}

static void test_pieces(void **state)
{
    (void)state;
    char *text = render(&doc_style_text, write_pieces);
    assert_string_equal(text, "the answer:\n  notes:\nfirst 1\n\n  crossover: 4 threads\n"
                              "  models:\nm\nend\n");
    free(text);
    char *md = render(&doc_style_markdown, write_pieces);
    assert_string_equal(md, "# Title\n\n## The answer\n\nNotes:\n\n# first 1\n\n"
                            "Crossover: 4 threads.\n\n"
                            "\n<details><summary>Models</summary>\n\nm\n\n</details>\n\n"
                            "end\n\n");
    free(md);
}

static void test_alarm_fits_its_buffer(void **state)
{
    (void)state;
    const doc_t text = {.out = stdout, .style = &doc_style_text};
    char buf[5];
    assert_string_equal(doc_alarm(&text, "regression", buf, sizeof buf), "REGR");
}

/* Names from other people's files in a table, a section and a sentence. */
static void write_names(const doc_t *d)
{
    static const doc_column_t columns[] = {
        {.title = "target", .left = true, .width = 18},
        {.title = "s", .width = 4},
    };
    const doc_table_t t = {.columns = columns, .ncolumns = 2};
    doc_section(d, 2, "host <b>&\n", "host <b>&");
    doc_table_head(d, &t);
    const char *row1[] = {"c|d\\|e", "1"};
    const char *row2[] = {"<script>x</script>", "2"};
    const char *row3[] = {"a\x1b]0;T\x07" "b", "3"};
    doc_table_row(d, &t, row1, NULL);
    doc_table_row(d, &t, row2, NULL);
    doc_table_row(d, &t, row3, NULL);
    doc_table_end(d);
    doc_text(d, "> &amp; \\ x");
    fputc('\n', d->out);
}

static void test_names_escaped(void **state)
{
    (void)state;
    /* Markdown: '\' as well as '|' escaped in a cell (an unescaped '\' took the escape
     * from the '|' after it, and `c|d\|e` split its cell); '<', '>' and '&' escaped (no
     * raw HTML, entity or quote); a control byte shown, never written. */
    char *md = render(&doc_style_markdown, write_names);
    assert_string_equal(md, "## host \\<b\\>\\&\n\n"
                            "| target | s |\n|---|---:|\n"
                            "| c\\|d\\\\\\|e | 1 |\n"
                            "| \\<script\\>x\\</script\\> | 2 |\n"
                            "| a\\x1b\\]0;T\\x07b | 3 |\n"
                            "\n"
                            "\\> \\&amp; \\\\ x\n");
    free(md);
    /* Text: as it is, but no control byte reaches a terminal, padding counted as shown. */
    char *text = render(&doc_style_text, write_names);
    assert_string_equal(text, "host <b>&\n"
                              "target                s\n"
                              "c|d\\|e                1\n"
                              "<script>x</script>    2\n"
                              "a\\x1b]0;T\\x07b        3\n"
                              "> &amp; \\ x\n");
    free(text);
}

/* doc_text in Markdown of each text, one a line. */
static void write_markdown_active(const doc_t *d)
{
    static const char *const texts[] = {
        "![x](http://tracker.example/p.png) *b* `c` [l](javascript:alert(1))",
        "# h #", "a_b_ ~~s~~", "- x", "+ x", "1. x", "12) x", "---", "===", "=",
        /* ordinary names and words: as they are */
        "zstd:3", "usb-ssd", "/mnt/x", "--started", "1.5 MB", "-x", "a (b) c", "+1%",
        "\x9b" "2J",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        doc_text(d, texts[i]);
        fputc('\n', d->out);
    }
}

/* Every character outside text could make a link, an image, emphasis, a code span or a
 * heading with is escaped; a line's start is escaped where it would open a list or a
 * heading's underline; ordinary names stay as they are. */
static void test_markdown_active(void **state)
{
    (void)state;
    char *md = render(&doc_style_markdown, write_markdown_active);
    assert_string_equal(md,
        "\\!\\[x\\](http://tracker.example/p.png) \\*b\\* \\`c\\` \\[l\\](javascript:alert(1))\n"
        "\\# h \\#\n"
        "a\\_b\\_ \\~\\~s\\~\\~\n"
        "\\- x\n"
        "\\+ x\n"
        "1\\. x\n"
        "12\\) x\n"
        "\\---\n"
        "\\===\n"
        "\\=\n"
        "zstd:3\nusb-ssd\n/mnt/x\n--started\n1.5 MB\n-x\na (b) c\n+1%\n"
        "\\x9b2J\n");
    free(md);
    /* doc_escape escapes as doc_text does. */
    const doc_t d = {.out = stdout, .style = &doc_style_markdown};
    char buf[64];
    assert_string_equal(doc_escape(&d, "*a*", buf, sizeof buf), "\\*a\\*");
}

static void write_code(const doc_t *d)
{
    static const char *const paths[] = {"/tmp/r_1.csv", "a`b", "`x``", "c\x1b" "d"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        doc_code(d, paths[i]);
        fputc('\n', d->out);
    }
}

/* A path as code: a fence longer than any backtick run in it, so none ends the span. */
static void test_code(void **state)
{
    (void)state;
    char *md = render(&doc_style_markdown, write_code);
    assert_string_equal(md, "`/tmp/r_1.csv`\n``a`b``\n``` `x`` ```\n`c\\x1bd`\n");
    free(md);
    char *text = render(&doc_style_text, write_code);
    assert_string_equal(text, "/tmp/r_1.csv\na`b\n`x``\nc\\x1bd\n");
    free(text);
}

static void write_parens(const doc_t *d)
{
    static const doc_column_t columns[] = {
        {.title = "name", .left = true},
        {.title = "basis", .left = true, .text_in_parens = true},
    };
    const doc_table_t t = {.columns = columns, .ncolumns = 2};
    const char *row[] = {"a", "b\x1b]0;T\x07"};
    doc_table_row(d, &t, row, NULL);
}

/* A text cell in parentheses shows a control character as a cell of its own does. */
static void test_parens_cell_visible(void **state)
{
    (void)state;
    char *text = render(&doc_style_text, write_parens);
    assert_string_equal(text, "a (b\\x1b]0;T\\x07)\n");
    free(text);
}

static void test_escape_fits_its_buffer(void **state)
{
    (void)state;
    const doc_t d = {.out = stdout, .style = &doc_style_markdown};
    char buf[6];
    /* "a\<b" is 4 bytes, the next escape would not fit; no half escape is left behind. */
    assert_string_equal(doc_escape(&d, "a<b<c", buf, sizeof buf), "a\\<b");
    assert_string_equal(doc_escape(&d, "ab<<", buf, sizeof buf), "ab\\<");
    assert_string_equal(doc_escape(&d, "abcd<", buf, sizeof buf), "abcd");
    const doc_t t = {.out = stdout, .style = &doc_style_text};
    assert_string_equal(doc_escape(&t, "a<b", buf, sizeof buf), "a<b");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_alarm_fits_its_buffer),
        cmocka_unit_test(test_names_escaped),
        cmocka_unit_test(test_escape_fits_its_buffer),
        cmocka_unit_test(test_markdown_active),
        cmocka_unit_test(test_code),
        cmocka_unit_test(test_parens_cell_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
