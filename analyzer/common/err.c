/* err.c - error values with their messages, errno translated once, and the exit status
 * each code maps to (err.h). */
#include "common/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/sys.h"

static int err_vset(cp_err_t *err, int code, const char *suffix, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static int err_vset(cp_err_t *err, int code, const char *suffix, const char *fmt, va_list ap)
{
    if (err == NULL || err->code != CP_OK)
        return code;
    err->code = code;
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    if (suffix != NULL && n >= 0 && (size_t)n < sizeof err->msg)
        snprintf(err->msg + n, sizeof err->msg - (size_t)n, ": %s", suffix);
    return code;
}

int cp_err_set(cp_err_t *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, code, NULL, fmt, ap);
    va_end(ap);
    return code;
}

int cp_err_errno(cp_err_t *err, int code, int errnum, const char *fmt, ...)
{
    if (errnum == ENOSPC || errnum == EDQUOT)
        code = CP_ENOSPC;
    else if (errnum == ENOMEM)
        code = CP_ENOMEM;
    char text[128];
    const char *s = sys_strerror(errnum, text, sizeof text);
    va_list ap;
    va_start(ap, fmt);
    err_vset(err, code, s, fmt, ap);
    va_end(ap);
    return code;
}

void cp_err_clear(cp_err_t *err)
{
    if (err != NULL) {
        err->code = CP_OK;
        err->msg[0] = '\0';
    }
}

int cp_exit_status(int code)
{
    switch (code) {
    case CP_OK: return 0;
    case CP_EUSAGE:
    case CP_EDATA: return 2;
    case CP_EINTR: return 130;
    default: return 1;
    }
}

const char *cp_err_name(int code)
{
    switch (code) {
    case CP_OK: return "ok";
    case CP_EUSAGE: return "usage";
    case CP_EDATA: return "data";
    case CP_EIO: return "io";
    case CP_ENOSPC: return "no-space";
    case CP_EVERIFY: return "verify";
    case CP_EINTR: return "interrupted";
    case CP_ENOMEM: return "no-memory";
    case CP_ECODEC: return "codec";
    case CP_EINVALID: return "invalid";
    default: return "unknown";
    }
}

int cp_err_code(const cp_err_t *err, int fallback)
{
    return err != NULL && err->code != CP_OK ? err->code : fallback;
}
