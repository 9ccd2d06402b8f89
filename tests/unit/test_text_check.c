/* test_text_check.c - the rule for strings read from files (common/text_check.h): control
 * characters (C0, DEL, C1 in UTF-8), bytes outside UTF-8 and the length bound refused,
 * UTF-8 text and the bound's last byte taken; control characters and bytes outside UTF-8
 * shown as "\xNN". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* A byte that is no part of valid UTF-8 is refused: a bare 0x9B is CSI to a terminal
 * that reads 8-bit controls, and the others are no text. */
static void test_not_utf8(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "\x9b" "2J",         /* a bare C1 byte: 8-bit CSI */
        "a\x85" "b",         /* NEL, bare */
        "caf\xe9",           /* Latin-1 */
        "\xc0\xaf",          /* an overlong '/' */
        "\xe0\x80\xaf",      /* another */
        "\xed\xa0\x80",      /* a surrogate */
        "\xf4\x90\x80\x80",  /* past U+10FFFF */
        "\xf8\x88\x80\x80\x80", /* no such lead byte */
        "\xe2\x86",          /* cut short */
        "\xc3\xa9\xa9",      /* a continuation byte after a whole character */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(text_check(bad[i], CP_NAME_MAX), TEXT_ENCODING);
    assert_int_equal(text_check("\xf0\x9f\x98\x80 \xef\xbf\xbd \xf4\x8f\xbf\xbf",
                                CP_NAME_MAX), TEXT_OK);
    size_t at = 0;
    assert_int_equal(text_check_bytes("\xc3\xa9x\x9b", 4, CP_NAME_MAX, &at), TEXT_ENCODING);
    assert_int_equal(at, 3);
    char buf[64];
    assert_string_equal(text_fault_says(TEXT_ENCODING, CP_NAME_MAX, buf, sizeof buf),
                        "is not valid UTF-8");
    text_fault_t fault = TEXT_OK;
    assert_int_equal(text_char_at("\xe2\x86\x92!", 4, &fault), 3);
    assert_int_equal(fault, TEXT_OK);
    assert_int_equal(text_char_at("\xc2\x9b", 2, &fault), 2);
    assert_int_equal(fault, TEXT_CONTROL);
}

/* No byte is read when there are none: a text that ends at the last byte of a page, the
 * page after it unmapped. */
static void test_empty_reads_nothing(void **state)
{
    (void)state;
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    assert_true(p != MAP_FAILED);
    assert_int_equal(mprotect(p + page, (size_t)page, PROT_NONE), 0);
    text_fault_t fault = TEXT_CONTROL;
    assert_int_equal(text_char_at(p + page, 0, &fault), 0);
    assert_int_equal(fault, TEXT_OK);
    assert_int_equal(text_check_bytes(p + page, 0, CP_NAME_MAX, NULL), TEXT_EMPTY);
    munmap(p, 2 * (size_t)page);
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
    fputc('|', out);
    text_visible(out, "\x9b" "2J caf\xc3\xa9 \xe9", 11, false);
    fclose(out);
    assert_string_equal(text, "a\\x1b]0;T\\x07 \\xc2\\x9bb\\x0a|x\ny|\\x9b2J caf\xc3\xa9 \\xe9");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_not_utf8),
        cmocka_unit_test(test_empty_reads_nothing),
        cmocka_unit_test(test_visible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
