/* The CSV reader and the runs/probe loaders: forgiving formats, and every malformed case
 * refused with the file and physical line at fault. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tables/csv_table.h"
#include "tables/probe_csv.h"
#include "tables/runs_csv.h"

static csv_table_t *table_of(const char *text, size_t len)
{
    csv_table_t *t = NULL;
    cp_err_t err = {0};
    if (csv_table_read_buffer("t.csv", text, len, &t, &err) != 0)
        fail_msg("%s", err.msg);
    return t;
}

/* Reading must fail with exactly this message. */
static void table_fails(const char *text, size_t len, const char *message)
{
    csv_table_t *t = NULL;
    cp_err_t err = {0};
    int rc = csv_table_read_buffer("t.csv", text, len, &t, &err);
    assert_int_equal(rc, CP_EDATA);
    assert_null(t);
    assert_string_equal(err.msg, message);
}

static void runs_fail(const char *text, const char *message)
{
    runs_table_t *r = NULL;
    cp_err_t err = {0};
    int rc = runs_table_load_buffer("runs.csv", text, strlen(text), &r, &err);
    assert_int_equal(rc, CP_EDATA);
    assert_null(r);
    assert_string_equal(err.msg, message);
}

static void probe_fails(const char *text, const char *message)
{
    probe_table_t *p = NULL;
    cp_err_t err = {0};
    int rc = probe_table_load_buffer("probe.csv", text, strlen(text), &p, &err);
    assert_int_equal(rc, CP_EDATA);
    assert_null(p);
    assert_string_equal(err.msg, message);
}

static void test_quoted_fields_crlf_bom_and_lines(void **state)
{
    (void)state;
    const char text[] = "\xEF\xBB\xBF" "Name,Note\r\n"
                        "a,\"x, y\"\r\n"
                        "\r\n"
                        "b,\"two\nlines\"\r\n"
                        "c,\"say \"\"hi\"\"\"\n"
                        "d,last";
    csv_table_t *t = table_of(text, sizeof text - 1);
    assert_int_equal(csv_table_columns(t), 2);
    assert_int_equal(csv_table_rows(t), 4);
    assert_int_equal(csv_table_find(t, "name"), 0); /* BOM gone, case-insensitive */
    assert_int_equal(csv_table_find(t, "missing"), -1);
    assert_string_equal(csv_table_cell(t, 0, 1), "x, y");
    assert_string_equal(csv_table_cell(t, 1, 1), "two\nlines");
    assert_string_equal(csv_table_cell(t, 2, 1), "say \"hi\"");
    assert_string_equal(csv_table_cell(t, 3, 1), "last");
    assert_string_equal(csv_table_cell(t, 3, -1), "");
    assert_int_equal(csv_table_line(t, 0), 2);
    assert_int_equal(csv_table_line(t, 1), 4); /* after a blank line */
    assert_int_equal(csv_table_line(t, 2), 6); /* the quoted newline counts */
    assert_int_equal(csv_table_line(t, 3), 7);
    csv_table_free(t);
}

/* Old Mac line ends (a lone CR) end lines too, for the line numbers as for libcsv. */
static void test_lone_cr_line_ends(void **state)
{
    (void)state;
    const char text[] = "a,b\r1,2\r\r3,\"x\ry\"\r\n4,5";
    csv_table_t *t = table_of(text, sizeof text - 1);
    assert_int_equal(csv_table_rows(t), 3);
    assert_int_equal(csv_table_line(t, 0), 2);
    assert_int_equal(csv_table_line(t, 1), 4); /* after a blank line */
    assert_string_equal(csv_table_cell(t, 1, 1), "x\ry");
    assert_int_equal(csv_table_line(t, 2), 6); /* the quoted CR counts, CRLF counts once */
    csv_table_free(t);
}

static void test_malformed_tables(void **state)
{
    (void)state;
    table_fails("", 0, "t.csv:1: empty file: a header line is required");
    table_fails("a,b\n1,2\n3\n", 11, "t.csv:3: 1 fields where the header has 2");
    table_fails("a,b\n1,2,3\n", 10, "t.csv:2: 3 fields where the header has 2");
    table_fails("a,A\n", 4, "t.csv:1: column 'A' appears twice in the header");
    table_fails("a,b\n1,\"open\n2,3\n", 16,
                "t.csv:2: a quoted field is not closed before the end of the file");
    const char nul[] = "a,b\n1,2\nx\0y,3\n";
    table_fails(nul, sizeof nul - 1, "t.csv:3: a NUL byte in a field (is this a text CSV file?)");

    /* A field over 4 KiB (also inside quotes), and more than 1024 columns. */
    size_t big = 4 + 2 + 10000 + 3;
    char *text = malloc(big + 1);
    strcpy(text, "a,b\n1,");
    memset(text + 6, 'x', 10000);
    strcpy(text + 10006, ",\n");
    table_fails(text, strlen(text), "t.csv:2: a field is longer than 4096 bytes");
    text[6] = '"';
    table_fails(text, strlen(text), "t.csv:2: a field is longer than 4096 bytes");
    free(text);
    char *wide = malloc(3000);
    size_t n = 0;
    for (int i = 0; i < 1100; i++)
        wide[n++] = 'c', wide[n++] = ',';
    wide[n++] = '\n';
    table_fails(wide, n, "t.csv:1: more than 1024 columns");
    free(wide);
}

static void test_binary_garbage_is_refused_not_fatal(void **state)
{
    (void)state;
    unsigned char junk[4096];
    uint32_t s = 42;
    for (size_t i = 0; i < sizeof junk; i++) {
        s = s * 1664525u + 1013904223u;
        junk[i] = (unsigned char)(s >> 24);
    }
    runs_table_t *r = NULL;
    cp_err_t err = {0};
    int rc = runs_table_load_buffer("junk.csv", junk, sizeof junk, &r, &err);
    assert_int_equal(rc, CP_EDATA);
    assert_null(r);
    assert_non_null(strstr(err.msg, "junk.csv:"));
    assert_null(strchr(err.msg, '\n'));
}

static void test_runs_loader(void **state)
{
    (void)state;
    const char text[] = "seconds,extra,threads,target,input_bytes,valid,error,output_bytes\n"
                        "2.5,zz,4,\"ssd, fast\",1e9,1,,4e8\n"
                        "3,zz,4,ssd,1e9,0,,\n"
                        "3,zz,4,ssd,1e9,1,ENOSPC,\n"
                        "5,zz,2,ssd,1000000000,,,\n";
    runs_table_t *r = NULL;
    cp_err_t err = {0};
    assert_int_equal(runs_table_load_buffer("runs.csv", text, sizeof text - 1, &r, &err), 0);
    assert_int_equal(r->nrows, 2);
    assert_int_equal(r->skipped_failed, 2);
    assert_string_equal(r->rows[0].target, "ssd, fast");
    assert_int_equal(r->rows[0].threads, 4);
    assert_true(r->rows[0].output_bytes == 4e8);
    assert_string_equal(r->rows[0].codec, "");
    assert_true(r->rows[1].output_bytes != r->rows[1].output_bytes); /* NAN: unknown */
    assert_int_equal(r->rows[1].line, 5);
    runs_table_free(r);
}

static void test_runs_malformed(void **state)
{
    (void)state;
    runs_fail("target,threads,seconds\nssd,1,2\n",
              "runs.csv:1: required column 'input_bytes' is missing");
    runs_fail("target,threads,seconds,input_bytes\nssd,1,2,100\nssd,2,fast,100\n",
              "runs.csv:3: column 'seconds': 'fast' is not a number");
    runs_fail("target,threads,seconds,input_bytes\nssd,1,0,100\n",
              "runs.csv:2: column 'seconds': 0 is not positive");
    runs_fail("target,threads,seconds,input_bytes\nssd,1,2,-5\n",
              "runs.csv:2: column 'input_bytes': -5 is not positive");
    runs_fail("target,threads,seconds,input_bytes\nssd,1.5,2,100\n",
              "runs.csv:2: column 'threads': 1.5 is not a whole number from 1 to 1024");
    runs_fail("target,threads,seconds,input_bytes\nssd,,2,100\n",
              "runs.csv:2: column 'threads' is empty");
    runs_fail("target,threads,seconds,input_bytes\n,1,2,100\n",
              "runs.csv:2: column 'target' is empty");
    runs_fail("target,threads,seconds,input_bytes\nssd,1,nan,100\n",
              "runs.csv:2: column 'seconds': 'nan' is not a number");
    runs_fail("target,threads,seconds,input_bytes,layout\nssd,1,2,100,both\n",
              "runs.csv:2: column 'layout': 'both' is not split or same");
    runs_fail("target,threads,seconds,input_bytes,output_bytes\nssd,1,2,100,0\n",
              "runs.csv:2: column 'output_bytes': 0 is not positive");
    runs_fail("target,threads,seconds,input_bytes\n\"s\nsd\",1,2,100\n",
              "runs.csv:2: column 'target': a control character in the name");
    runs_fail("target,threads,seconds,input_bytes,note\nssd,1,2,100,\"two\nlines\"\n"
              "ssd,1,x,100,n\n",
              "runs.csv:4: column 'seconds': 'x' is not a number");
    /* Values no measurement has: the model's percentages of them were "nan%" and "inf%". */
    runs_fail("target,threads,seconds,input_bytes\nssd,1,1e-320,100\n",
              "runs.csv:2: column 'seconds': 1e-320 is below a microsecond or a millionth, "
              "and not 0 (no measurement is)");
    runs_fail("target,threads,seconds,input_bytes\nssd,1,2,1e19\n",
              "runs.csv:2: column 'input_bytes': 1e+19 is past 2^63 (no size, rate or time "
              "is)");
}

static void test_probe_loader(void **state)
{
    (void)state;
    const char text[] = "target,op,bytes_per_s\nssd,write,300\nssd,write,100\nssd,write,200\n"
                        "ssd,read,900\nssd,sustained,5\n";
    probe_table_t *p = NULL;
    cp_err_t err = {0};
    assert_int_equal(probe_table_load_buffer("probe.csv", text, sizeof text - 1, &p, &err), 0);
    assert_true(probe_table_speed(p, "ssd", PROBE_OP_WRITE) == 200); /* median, no sizes */
    assert_true(probe_table_speed(p, "ssd", PROBE_OP_READ) == 900);
    double none = probe_table_speed(p, "usb", PROBE_OP_WRITE);
    assert_true(none != none);
    probe_table_free(p);

    probe_fails("target,bytes_per_s\nssd,1\n", "probe.csv:1: required column 'op' is missing");
    probe_fails("target,op,bytes_per_s\nssd,write,1\nssd,erase,1\n",
                "probe.csv:3: column 'op': unknown op 'erase' (write, read or sustained)");
    probe_fails("target,op,bytes_per_s\nssd,write,-1\n",
                "probe.csv:2: column 'bytes_per_s': -1 is not positive");
    probe_fails("target,op,bytes_per_s,size_bytes\nssd,write,1,big\n",
                "probe.csv:2: column 'size_bytes': 'big' is not a number");
}

/* The I/O path's CPU cost is per byte, so the rows of the large sizes pool: a quarter of
 * the largest size and up (here 50 and 200 MB, not 10 MB). One 200 MB write that the
 * kernel's other work inflated (1.2 s/GB) no longer sets it, as it did when the largest
 * size's three rows alone were taken (median 1.0 s/GB). The write speed keeps the largest
 * size alone. */
static void test_io_cost_pools_the_large_sizes(void **state)
{
    (void)state;
    const char text[] = "target,op,size_bytes,bytes_per_s,io_cpu_s,sync\n"
                        "ssd,write,10000000,900,0.03,fsync\n"   /* 3.0 s/GB: too small */
                        "ssd,write,50000000,500,0.02,fsync\n"   /* 0.4 */
                        "ssd,write,50000000,500,0.02,fsync\n"   /* 0.4 */
                        "ssd,write,200000000,100,0.24,fsync\n"  /* 1.2 */
                        "ssd,write,200000000,200,0.2,fsync\n"   /* 1.0 */
                        "ssd,write,200000000,300,0.09,fsync\n"; /* 0.45 */
    probe_table_t *p = NULL;
    cp_err_t err = {0};
    assert_int_equal(probe_table_load_buffer("probe.csv", text, sizeof text - 1, &p, &err), 0);
    double cost = probe_table_speed(p, "ssd", PROBE_OP_IO_COST);
    assert_true(fabs(cost - 0.45e-9) < 1e-15); /* median of 0.4, 0.4, 1.2, 1.0, 0.45 */
    assert_true(probe_table_speed(p, "ssd", PROBE_OP_WRITE) == 200); /* the largest size */
    probe_table_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_fields_crlf_bom_and_lines),
        cmocka_unit_test(test_lone_cr_line_ends),
        cmocka_unit_test(test_malformed_tables),
        cmocka_unit_test(test_binary_garbage_is_refused_not_fatal),
        cmocka_unit_test(test_runs_loader),
        cmocka_unit_test(test_runs_malformed),
        cmocka_unit_test(test_probe_loader),
        cmocka_unit_test(test_io_cost_pools_the_large_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
