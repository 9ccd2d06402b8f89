/* strbuf.h - appending formatted text to a fixed buffer, for sentences built in parts. */
#ifndef CP_REPORT_STRBUF_H
#define CP_REPORT_STRBUF_H

#include <stddef.h>

/* Appends printf-style text after buf's current NUL-terminated contents, truncating at
 * cap bytes (buf stays NUL-terminated; a full buffer is left as it is). */
void strbuf_appendf(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
