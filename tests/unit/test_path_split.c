/* test_path_split.c - a run's time along its critical path: the writer's waits and writes
 * split by hand, and a real thread's clocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <time.h>

#include "measure/path_split.h"

#define assert_near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* The writer waited 3 s for a block read 1 s into the wait: that second was the reader's
 * (0.2 s on a core, 0.8 s blocked), the next 2 the compressor's (0.5 s of them waiting
 * for a core). */
static void test_wait_for_a_block_by_hand(void **state)
{
    (void)state;
    path_split_t s = {0};
    path_block_t b = {.read_end_s = 11.0,
                      .read = {.wall_s = 1.0, .cpu_s = 0.2, .core_wait_s = 0.0},
                      .compress = {.wall_s = 4.0, .cpu_s = 3.0, .core_wait_s = 1.0}};
    path_split_wait(&s, &b, 10.0, 13.0);
    assert_near(s.read_blocked_s, 0.8);
    assert_near(s.io_cpu_s, 0.2);
    assert_near(s.core_wait_s, 0.5);
    assert_near(s.compute_s, 1.5);
    assert_near(s.write_blocked_s, 0.0);
    assert_near(path_split_total(&s), 3.0);
}

/* A block read before the wait began leaves none of it to the reader; a spill of 0.5 s
 * inside the wait is writing. */
static void test_wait_after_the_read_and_a_spill(void **state)
{
    (void)state;
    path_split_t s = {0};
    path_block_t b = {.read_end_s = 5.0,
                      .read = {.wall_s = 1.0, .cpu_s = 1.0},
                      .compress = {.wall_s = 1.0, .cpu_s = 1.0},
                      .spill = {.wall_s = 0.5, .cpu_s = 0.1}};
    path_split_wait(&s, &b, 10.0, 12.0);
    assert_near(s.read_blocked_s, 0.0);
    assert_near(s.io_cpu_s, 0.1); /* the spill's, on a core */
    assert_near(s.write_blocked_s, 0.4);
    assert_near(s.compute_s, 1.5);
    path_split_wait(&s, &b, 12.0, 12.0); /* no wait: nothing counted */
    assert_near(path_split_total(&s), 2.0);
}

/* The writer's own write: blocked 3 of 4 s, on a core 0.75 s, waiting 0.25 s. */
static void test_a_write_by_hand(void **state)
{
    (void)state;
    path_split_t s = {0};
    path_span_t op = {.wall_s = 4.0, .cpu_s = 0.75, .core_wait_s = 0.25};
    path_split_write(&s, &op, 4.0);
    assert_near(s.write_blocked_s, 3.0);
    assert_near(s.io_cpu_s, 0.75);
    assert_near(s.core_wait_s, 0.25);
    assert_near(s.compute_s, 0.0);
}

/* A thread asleep for 50 ms is neither on a core nor waiting for one; spinning is on a
 * core. Bounds wide enough for a loaded machine: sleeping, at most a tenth on a core. */
static void test_thread_clocks_tell_sleeping_from_running(void **state)
{
    (void)state;
    path_span_t slept = {0};
    path_clock_t c0 = path_clock_now();
    nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    path_span_add(&slept, &c0);
    assert_true(slept.wall_s >= 0.05);
    assert_true(slept.cpu_s < 0.1 * slept.wall_s);

    path_span_t spun = {0};
    c0 = path_clock_now();
    volatile double x = 0;
    while (path_clock_now().wall_s - c0.wall_s < 0.05)
        x += 1.0;
    path_span_add(&spun, &c0);
    assert_true(spun.cpu_s + spun.core_wait_s > 0.5 * spun.wall_s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wait_for_a_block_by_hand),
        cmocka_unit_test(test_wait_after_the_read_and_a_spill),
        cmocka_unit_test(test_a_write_by_hand),
        cmocka_unit_test(test_thread_clocks_tell_sleeping_from_running),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
