/* The kernel's write-back thresholds, computed as mm/page-writeback.c does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "measure/writeback.h"
#include "common/sys_linux_parse.h"

static const char meminfo[] = "MemTotal:       24000000 kB\n"
                              "MemFree:        20000000 kB\n"
                              "MemAvailable:   21500000 kB\n"
                              "Buffers:           10000 kB\n"
                              "Active(file):     600000 kB\n"
                              "Inactive(file):  1400000 kB\n";

static void test_ratios_apply_to_dirtyable_memory(void **state)
{
    (void)state;
    writeback_inputs_t in;
    memset(&in, 0, sizeof in);
    assert_true(sys_parse_writeback_meminfo(meminfo, &in));
    assert_int_equal(in.mem_free, 20000000ull * 1024);
    assert_int_equal(in.file_pages, 2000000ull * 1024);
    in.dirty_background_ratio = 10;
    in.dirty_ratio = 20;
    in.dirty_expire_centisecs = 3000;
    in.dirty_writeback_centisecs = 500;
    writeback_settings_t s = writeback_compute(&in);
    /* Dirtyable memory is free plus file pages (20,000,000 + 2,000,000 kB), not
     * MemAvailable (21,500,000 kB here, so reading the wrong field fails): 22,528,000,000
     * bytes; 10% and 20% of it, worked out by hand. */
    assert_int_equal(s.dirtyable_bytes, 22528000000ull);
    assert_int_equal(s.dirty_background_bytes, 2252800000ull);
    assert_int_equal(s.dirty_bytes, 4505600000ull);
    assert_true(s.dirty_expire_s == 30.0 && s.dirty_writeback_s == 5.0);
}

static void test_bytes_settings_win_and_background_stays_below(void **state)
{
    (void)state;
    writeback_inputs_t in;
    memset(&in, 0, sizeof in);
    assert_true(sys_parse_writeback_meminfo(meminfo, &in));
    in.dirty_background_ratio = 10;
    in.dirty_ratio = 20;
    in.dirty_background_bytes = 100000000;
    writeback_settings_t s = writeback_compute(&in);
    assert_int_equal(s.dirty_background_bytes, 100000000);
    /* A background threshold at or above the hard one becomes half of it. */
    in.dirty_bytes = 50000000;
    s = writeback_compute(&in);
    assert_int_equal(s.dirty_bytes, 50000000);
    assert_int_equal(s.dirty_background_bytes, 25000000);
    /* The kernel's published limits win over the computation. */
    assert_true(sys_parse_writeback_vmstat("nr_dirty 5\nnr_dirty_threshold 1000\n"
                                       "nr_dirty_background_threshold 400\n", 4096, &in));
    s = writeback_compute(&in);
    assert_int_equal(s.dirty_bytes, 1000 * 4096);
    assert_int_equal(s.dirty_background_bytes, 400 * 4096);
    /* meminfo without the file pages: unknown. */
    memset(&in, 0, sizeof in);
    assert_false(sys_parse_writeback_meminfo("MemFree: 1 kB\nMemAvailable: 2 kB\n", &in));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ratios_apply_to_dirtyable_memory),
        cmocka_unit_test(test_bytes_settings_win_and_background_stays_below),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
