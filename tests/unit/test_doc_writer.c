/* test_doc_writer.c - the renderer's two back ends on one document: a table (header, rows
 * padded or trimmed, alignment, a row's note, a column in parentheses, a column text
 * leaves out, '|' and backslashes escaped), a section, a label, an alarm word, a legend
 * and a folded block, each written once and compared byte for byte in text and in
 * Markdown. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_alarm_fits_its_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
