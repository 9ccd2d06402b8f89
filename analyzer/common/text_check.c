/* text_check.c - the rule for strings read from files, and control characters made
 * visible (text_check.h). */
#include "common/text_check.h"

#include <string.h>

size_t text_control_at(const char *text, size_t len)
{
    unsigned char c = (unsigned char)text[0];
    if (len == 0)
        return 0;
    if (c < 0x20 || c == 0x7f)
        return 1;
    /* C1 controls in UTF-8: 0xC2 then 0x80..0x9F (CSI is U+009B). */
    if (c == 0xc2 && len > 1 && (unsigned char)text[1] >= 0x80 && (unsigned char)text[1] <= 0x9f)
        return 2;
    return 0;
}

text_fault_t text_check_bytes(const char *text, size_t len, size_t cap, size_t *at)
{
    if (len == 0)
        return TEXT_EMPTY;
    for (size_t i = 0; i < len; i++)
        if (text_control_at(text + i, len - i) > 0) {
            if (at != NULL)
                *at = i;
            return TEXT_CONTROL;
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
    case TEXT_LONG: break;
    }
    snprintf(buf, buf_cap, "is longer than %zu bytes", cap > 0 ? cap - 1 : 0);
    return buf;
}

void text_visible(FILE *out, const char *text, size_t len, bool keep_newlines)
{
    size_t start = 0, i = 0;
    while (i < len) {
        size_t n = text_control_at(text + i, len - i);
        if (n == 0 || (keep_newlines && text[i] == '\n')) {
            i++;
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
