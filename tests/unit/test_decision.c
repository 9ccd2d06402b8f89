/* The recommendation line reports open with: the fastest target per codec and thread
 * count and each other's cost against it, the targets in the order given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/analysis.h"
#include "report/decision_text.h"
#include "tables/runs_csv.h"

/* usb comes first in the file, but local was given first (target_order). */
static const char runs_csv[] =
    "target,codec,threads,seconds,input_bytes,output_bytes,target_order\n"
    "usb,zstd:3,1,8.21,1000000000,400000000,3\n"
    "mem,zstd:3,1,2.95,1000000000,400000000,1\n"
    "local,zstd:3,1,3.38,1000000000,400000000,2\n"
    "shm,zstd:3,1,3.00,1000000000,400000000,4\n"
    "local,zstd:3,2,1.80,1000000000,400000000,2\n"
    "mem,zstd:3,2,1.50,1000000000,400000000,1\n"
    "mem,xz:6,1,20,1000000000,300000000,1\n"
    "usb,xz:6,1,20.1,1000000000,300000000,3\n";

static analysis_t *analyse(runs_table_t **runs)
{
    cp_err_t err = {0};
    assert_int_equal(runs_table_load_buffer("runs.csv", runs_csv, strlen(runs_csv), runs, &err),
                     CP_OK);
    analysis_t *a = NULL;
    analysis_options_t o = analysis_defaults();
    assert_int_equal(analysis_run(*runs, NULL, &o, &a, &err), CP_OK);
    return a;
}

static void test_the_fastest_and_each_cost_in_the_order_given(void **state)
{
    (void)state;
    runs_table_t *runs = NULL;
    analysis_t *a = analyse(&runs);
    char line[512];
    assert_string_equal(a->ceilings[0].codec, "zstd:3");
    assert_string_equal(decision_line(a, 0, 1, line, sizeof line),
                        "zstd:3 at 1 thread: local 3.38 s (+13%), usb 8.21 s (+174%), "
                        "shm 3.00 s (fastest)");
    assert_string_equal(decision_line(a, 0, 2, line, sizeof line),
                        "zstd:3 at 2 threads: local 1.80 s (the only volume)");
    assert_string_equal(decision_line(a, 0, 3, line, sizeof line), "");
    assert_string_equal(decision_line(a, 1, 1, line, sizeof line),
                        "xz:6 at 1 thread: usb 20.1 s (the only volume)");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(decision_write(a, &(doc_t){.out = out, .style = &doc_style_markdown}, "- "),
                     3);
    fclose(out);
    assert_string_equal(text, "- zstd:3 at 1 thread: local 3.38 s (+13%), usb 8.21 s (+174%), "
                              "shm 3.00 s (fastest)\n"
                              "- zstd:3 at 2 threads: local 1.80 s (the only volume)\n"
                              "- xz:6 at 1 thread: usb 20.1 s (the only volume)\n");
    free(text);
    analysis_free(a);
    runs_table_free(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_fastest_and_each_cost_in_the_order_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
