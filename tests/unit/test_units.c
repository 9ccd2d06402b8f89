/* test_units.c - sizes for people: decimal by default, binary where the user typed binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/units.h"

static void test_decimal(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(units_format_bytes(buf, sizeof buf, 512), "512 B");
    assert_string_equal(units_format_bytes(buf, sizeof buf, 2000000), "2 MB");
    assert_string_equal(units_format_bytes(buf, sizeof buf, 67108864), "67.11 MB");
    assert_string_equal(units_format_bytes(buf, sizeof buf, 1073741824ull), "1.074 GB");
}

/* 64M, 1.5G, 8K echo as typed (binary); 10MB, 1GB and a plain byte count stay decimal. */
static void test_echo_as_typed(void **state)
{
    (void)state;
    char buf[32];
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 67108864), "64 MiB");
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 1610612736ull), "1.5 GiB");
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 8192), "8 KiB");
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 10000000), "10 MB");
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 1000000000ull), "1 GB");
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 1234567), "1.235 MB");
    assert_string_equal(units_format_bytes_echo(buf, sizeof buf, 0), "0 B");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal),
        cmocka_unit_test(test_echo_as_typed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
