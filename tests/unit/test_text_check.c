/* test_text_check.c - the rule for strings read from files (common/text_check.h): control
 * characters (C0, DEL, C1 in UTF-8) and the length bound refused, UTF-8 text and the
 * bound's last byte taken; control characters shown as "\xNN". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bounds.h"
#include "common/text_check.h"

static void test_rule(void **state)
{
    (void)state;
    assert_int_equal(text_check("ssd", CP_NAME_MAX), TEXT_OK);
    assert_int_equal(text_check("caf\xc3\xa9 \xe2\x86\x92 \xc4\x9b", CP_NAME_MAX), TEXT_OK);
    assert_int_equal(text_check("", CP_NAME_MAX), TEXT_EMPTY);
    assert_int_equal(text_check(NULL, CP_NAME_MAX), TEXT_EMPTY);
    assert_int_equal(text_check("evil\nsystem(\"touch pwned\")", CP_NAME_MAX), TEXT_CONTROL);
    assert_int_equal(text_check("\x1b]0;TITLE\x07", CP_NAME_MAX), TEXT_CONTROL);
    assert_int_equal(text_check("tab\there", CP_NAME_MAX), TEXT_CONTROL);
    assert_int_equal(text_check("del\x7f", CP_NAME_MAX), TEXT_CONTROL);
    /* U+009B (CSI) in UTF-8: a terminal may take it for ESC [. */
    assert_int_equal(text_check("\xc2\x9b" "2J", CP_NAME_MAX), TEXT_CONTROL);
    assert_int_equal(text_check("\xc2\xa0nbsp", CP_NAME_MAX), TEXT_OK);
    char name[CP_NAME_MAX + 1];
    memset(name, 'x', sizeof name);
    name[CP_NAME_MAX - 1] = '\0';
    assert_int_equal(text_check(name, CP_NAME_MAX), TEXT_OK);
    name[CP_NAME_MAX - 1] = 'x';
    name[CP_NAME_MAX] = '\0';
    assert_int_equal(text_check(name, CP_NAME_MAX), TEXT_LONG);
    size_t at = 0;
    assert_int_equal(text_check_bytes("ab\0c", 4, CP_NAME_MAX, &at), TEXT_CONTROL);
    assert_int_equal(at, 2);
    char buf[64];
    assert_string_equal(text_fault_says(TEXT_LONG, CP_NAME_MAX, buf, sizeof buf),
                        "is longer than 127 bytes");
    assert_string_equal(text_fault_says(TEXT_CONTROL, CP_NAME_MAX, buf, sizeof buf),
                        "holds a control character");
}

static void test_visible(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    const char *s = "a\x1b]0;T\x07 \xc2\x9b" "b\n";
    text_visible(out, s, strlen(s), false);
    fputc('|', out);
    text_visible(out, "x\ny", 3, true);
    fclose(out);
    assert_string_equal(text, "a\\x1b]0;T\\x07 \\xc2\\x9bb\\x0a|x\ny");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
