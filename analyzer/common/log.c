/* log.c - diagnostics on stderr with levels and --quiet (log.h). */
#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/text_check.h"

static bool log_quiet;
static bool progress_drawn;

void cp_log_set_quiet(bool quiet) { log_quiet = quiet; }
bool cp_log_quiet(void) { return log_quiet; }

static void log_line(const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* A message may quote what a file holds (a name that was refused, a path): its control
 * characters are shown as "\xNN", so no diagnostic can move the cursor, set a terminal's
 * title or begin a line of its own. */
static void log_line(const char *prefix, const char *fmt, va_list ap)
{
    cp_log_progress_done();
    char small[1024];
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    char *text = small;
    if (len >= (int)sizeof small && (text = malloc((size_t)len + 1)) != NULL)
        vsnprintf(text, (size_t)len + 1, fmt, again);
    va_end(again);
    if (text == NULL) { /* out of memory: what fitted */
        text = small;
        len = (int)strlen(small);
    }
    fputs(prefix, stderr);
    if (len > 0)
        text_visible(stderr, text, (size_t)len, false);
    fputc('\n', stderr);
    if (text != small)
        free(text);
}

void cp_log_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_line("chokepoint: error: ", fmt, ap);
    va_end(ap);
}

void cp_log_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_line("chokepoint: warning: ", fmt, ap);
    va_end(ap);
}

void cp_log_info(const char *fmt, ...)
{
    if (log_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_line("", fmt, ap);
    va_end(ap);
}

bool cp_log_progress_enabled(void) { return !log_quiet && isatty(STDERR_FILENO); }

void cp_log_progress(const char *fmt, ...)
{
    if (!cp_log_progress_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    progress_drawn = true;
}

void cp_log_progress_done(void)
{
    if (progress_drawn) {
        fputc('\n', stderr);
        progress_drawn = false;
    }
}
