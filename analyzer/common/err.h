/* err.h - error values shared by every module, translated to exit statuses once, in main.
 *
 * Functions that can fail return 0 or one of the negative CP_E* codes and, when given a
 * non-NULL cp_err_t, leave a one-line message there naming the thing at fault. Library
 * error codes (errno, ZSTD_isError, lzma_ret) are turned into these at the boundary and
 * keep their original text in the message. Nothing below main calls exit(). */
#ifndef CP_ERR_H
#define CP_ERR_H

#include <stddef.h>

enum {
    CP_OK = 0,
    CP_EUSAGE = -1,   /* bad command line: exit 2 */
    CP_EDATA = -2,    /* malformed data file: exit 2 */
    CP_EIO = -3,      /* read/write/open failure at run time: exit 1 */
    CP_ENOSPC = -4,   /* no space left on a volume: exit 1 */
    CP_EVERIFY = -5,  /* round-trip verification mismatch: exit 1 */
    CP_EINTR = -6,    /* interrupted by SIGINT/SIGTERM: exit 130 */
    CP_ENOMEM = -7,   /* allocation failed: exit 1 */
    CP_ECODEC = -8,   /* the compression library reported an error: exit 1 */
    CP_EINVALID = -9, /* the measurement is invalid (input changed during the run): exit 1 */
};

#define CP_ERR_MSG_MAX 512

/* An error code with its message. Zero-initialise ({0}) before use. */
typedef struct cp_err {
    int code;
    char msg[CP_ERR_MSG_MAX];
} cp_err_t;

/* Records code and a printf-style message in err (when err is not NULL, and only when no
 * error is recorded yet, so the first, most specific cause wins). Returns code. */
int cp_err_set(cp_err_t *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same as cp_err_set, with ": strerror(errnum)" appended; ENOSPC/EDQUOT map to CP_ENOSPC. */
int cp_err_errno(cp_err_t *err, int code, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The code recorded in err, or fallback when err is NULL or records none: what to return
 * after a callee that reports failure by returning NULL (it may have had no err to fill). */
int cp_err_code(const cp_err_t *err, int fallback);

/* Clears a recorded error so the struct can be reused. */
void cp_err_clear(cp_err_t *err);

/* The process exit status for an error code: 0, 1, 2 or 130. */
int cp_exit_status(int code);

/* A short name for an error code ("usage", "io", ...); never NULL. */
const char *cp_err_name(int code);

#endif
