/* fuzz_csv_check.h - what every data-file loader promises, checked by the CSV fuzzers.
 *
 * A load either succeeds or fails with CP_EDATA whose message starts "NAME:LINE: " (the
 * file and the physical line at fault), or CP_ENOMEM/CP_EIO naming the file. Anything
 * else is a finding: the harness aborts with the message. */
#ifndef CP_FUZZ_CSV_CHECK_H
#define CP_FUZZ_CSV_CHECK_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

static void fuzz_csv_require(int cond, const char *what, const cp_err_t *err)
{
    if (!cond) {
        fprintf(stderr, "broken promise: %s (code %d, message '%s')\n", what, err->code,
                err->msg);
        abort();
    }
}

/* Checks an import's refusal: CP_EDATA (or CP_ENOMEM), recorded as returned, one line
 * starting with "NAME: " (an import names its file, not a line). */
static inline void fuzz_check_import_refusal(int rc, const cp_err_t *err, const char *name)
{
    fuzz_csv_require(rc == CP_EDATA || rc == CP_ENOMEM, "a refusal is CP_EDATA", err);
    fuzz_csv_require(err->code == rc, "the recorded error is the returned one", err);
    size_t n = strlen(name);
    fuzz_csv_require(strncmp(err->msg, name, n) == 0 && strncmp(err->msg + n, ": ", 2) == 0,
                     "the message starts with the file name", err);
    fuzz_csv_require(strpbrk(err->msg, "\n\r") == NULL, "the message is one line", err);
}

/* Checks a failed load's error against the FILE:LINE: contract for file `name`. */
static inline void fuzz_csv_check_failure(int rc, const cp_err_t *err, const char *name)
{
    fuzz_csv_require(rc == CP_EDATA || rc == CP_ENOMEM || rc == CP_EIO,
                     "a data-file error is CP_EDATA (or CP_ENOMEM/CP_EIO)", err);
    fuzz_csv_require(err->code == rc, "the recorded error is the returned one", err);
    size_t n = strlen(name);
    fuzz_csv_require(strncmp(err->msg, name, n) == 0 && err->msg[n] == ':',
                     "the message starts with the file name and ':'", err);
    if (rc != CP_EDATA)
        return;
    const char *p = err->msg + n + 1;
    fuzz_csv_require(isdigit((unsigned char)*p) != 0, "a data error gives FILE:LINE:", err);
    while (isdigit((unsigned char)*p))
        p++;
    fuzz_csv_require(*p == ':', "a data error gives FILE:LINE:", err);
    fuzz_csv_require(strchr(err->msg, '\n') == NULL && strchr(err->msg, '\r') == NULL,
                     "the message is one line", err);
}

#endif
