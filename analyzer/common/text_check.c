/* text_check.c - the rule for strings read from files, and control characters made
 * visible (text_check.h). */
#include "common/text_check.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at text[0..len) (1 for ASCII), 0 when none
 * starts there: a stray continuation byte, an overlong form, a surrogate, a code point
 * past U+10FFFF, a sequence cut short. */
static size_t utf8_length(const unsigned char *t, size_t len)
{
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (t[0] < 0x80)
        return 1;
    if (t[0] >= 0xc2 && t[0] <= 0xdf)
        n = 2;
    else if (t[0] >= 0xe0 && t[0] <= 0xef)
        n = 3, lo = t[0] == 0xe0 ? 0xa0 : 0x80, hi = t[0] == 0xed ? 0x9f : 0xbf;
    else if (t[0] >= 0xf0 && t[0] <= 0xf4)
        n = 4, lo = t[0] == 0xf0 ? 0x90 : 0x80, hi = t[0] == 0xf4 ? 0x8f : 0xbf;
    else
        return 0;
    if (len < n || t[1] < lo || t[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (t[k] < 0x80 || t[k] > 0xbf)
            return 0;
    return n;
}

size_t text_char_at(const char *text, size_t len, text_fault_t *fault)
{
    text_fault_t f = TEXT_OK;
    size_t n = 0;
    if (len > 0) {
        const unsigned char *t = (const unsigned char *)text;
        n = utf8_length(t, len);
        if (n == 0)
            n = 1, f = TEXT_ENCODING;
        else if (t[0] < 0x20 || t[0] == 0x7f)
            f = TEXT_CONTROL;
        /* C1 controls in UTF-8: 0xC2 then 0x80..0x9F (CSI is U+009B). */
        else if (n == 2 && t[0] == 0xc2 && t[1] <= 0x9f)
            f = TEXT_CONTROL;
    }
    if (fault != NULL)
        *fault = f;
    return n;
}

text_fault_t text_check_bytes(const char *text, size_t len, size_t cap, size_t *at)
{
    if (len == 0)
        return TEXT_EMPTY;
    for (size_t i = 0, n; i < len; i += n) {
        text_fault_t fault;
        n = text_char_at(text + i, len - i, &fault);
        if (fault != TEXT_OK) {
            if (at != NULL)
                *at = i;
            return fault;
        }
    }
    return len >= cap ? TEXT_LONG : TEXT_OK;
}

text_fault_t text_check(const char *text, size_t cap)
{
    return text_check_bytes(text != NULL ? text : "", text != NULL ? strlen(text) : 0, cap,
                            NULL);
}

const char *text_fault_says(text_fault_t fault, size_t cap, char *buf, size_t buf_cap)
{
    switch (fault) {
    case TEXT_OK: return "is fine";
    case TEXT_EMPTY: return "is empty";
    case TEXT_CONTROL: return "holds a control character";
    case TEXT_ENCODING: return "is not valid UTF-8";
    case TEXT_LONG: break;
    }
    snprintf(buf, buf_cap, "is longer than %zu bytes", cap > 0 ? cap - 1 : 0);
    return buf;
}

void text_visible(FILE *out, const char *text, size_t len, bool keep_newlines)
{
    size_t start = 0, i = 0;
    while (i < len) {
        text_fault_t fault;
        size_t n = text_char_at(text + i, len - i, &fault);
        if (fault == TEXT_OK || (keep_newlines && text[i] == '\n')) {
            i += n;
            continue;
        }
        fwrite(text + start, 1, i - start, out);
        for (size_t k = 0; k < n; k++)
            fprintf(out, "\\x%02x", (unsigned char)text[i + k]);
        i += n;
        start = i;
    }
    fwrite(text + start, 1, len - start, out);
}
