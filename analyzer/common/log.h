/* log.h - diagnostics on stderr. Results never go through here: they go to stdout or to a
 * named file, so machine-readable output is never interleaved with diagnostics. A message's
 * control characters (a newline or an escape quoted from a file) are written as "\xNN":
 * each message is one line, and none sends a terminal an escape sequence. */
#ifndef CP_LOG_H
#define CP_LOG_H

#include <stdbool.h>

/* Silences info and progress messages (errors and warnings still print). */
void cp_log_set_quiet(bool quiet);
bool cp_log_quiet(void);

/* "chokepoint: error: ..." one line on stderr. */
void cp_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "chokepoint: warning: ..." one line on stderr. */
void cp_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A plain informational line on stderr, unless quiet. */
void cp_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* True when progress may be drawn in place (stderr is a terminal and not quiet). */
bool cp_log_progress_enabled(void);
/* Redraws the progress line in place ("\r...") when progress is enabled; no-op otherwise. */
void cp_log_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends a progress line (newline) if one is being drawn. */
void cp_log_progress_done(void);

#endif
