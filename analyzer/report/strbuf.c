/* strbuf.c - formatted text appended to a fixed buffer (strbuf.h). */
#include "report/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void strbuf_appendf(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}
