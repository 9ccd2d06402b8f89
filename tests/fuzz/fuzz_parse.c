/* fuzz_parse.c - the command line's small languages under arbitrary bytes.
 *
 * The first byte picks the parser (size, rate, thread list, positive int, TARGET, codec,
 * codec list, the keyword options); the rest, cut at the first NUL, is the text. Every
 * parser must either succeed with a value inside its documented range or fail with
 * CP_EUSAGE and a message, never crash, hang or leak. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/parse.h"
#include "codecs/codec.h"
#include "measure/pipeline.h"
#include "measure/sink.h"
#include "measure/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_TEXT_MAX 8192

/* Aborts (a fuzzer finding) when cond is false. */
#define REQUIRE(cond)                                                                      \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "fuzz_parse: %s:%d: broken promise: %s\n", __FILE__, __LINE__, \
                    #cond);                                                                \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

/* A failed parse says why: CP_EUSAGE (or CP_ENOMEM) with a non-empty message. */
static void require_failure_reported(int rc, const cp_err_t *err)
{
    REQUIRE(rc == CP_EUSAGE || rc == CP_ENOMEM);
    REQUIRE(err->code == rc);
    REQUIRE(err->msg[0] != '\0');
    REQUIRE(memchr(err->msg, '\0', sizeof err->msg) != NULL);
}

static void fuzz_size(const char *text)
{
    cp_err_t err = {0};
    uint64_t value = 0;
    int rc = parse_size(text, &value, &err);
    if (rc == CP_OK)
        REQUIRE(value < ((uint64_t)1 << 63));
    else
        require_failure_reported(rc, &err);
}

static void fuzz_rate(const char *text)
{
    cp_err_t err = {0};
    double bps = -1;
    int rc = parse_rate(text, &bps, &err);
    if (rc == CP_OK)
        REQUIRE(isfinite(bps) && bps > 0);
    else
        require_failure_reported(rc, &err);
}

static void fuzz_thread_list(const char *text)
{
    cp_err_t err = {0};
    int *list = NULL;
    size_t n = 0;
    int rc = parse_thread_list(text, &list, &n, &err);
    if (rc == CP_OK) {
        REQUIRE(n >= 1 && n <= CP_MAX_THREADS);
        for (size_t i = 0; i < n; i++) {
            REQUIRE(list[i] >= 1 && list[i] <= CP_MAX_THREADS);
            REQUIRE(i == 0 || list[i] > list[i - 1]); /* ascending, no duplicates */
        }
        free(list);
    } else {
        REQUIRE(list == NULL);
        require_failure_reported(rc, &err);
    }
}

static void fuzz_positive_int(const char *text)
{
    static const long maxima[] = {1, 1000, CP_MAX_THREADS, 2147483647L, LONG_MAX};
    for (size_t i = 0; i < sizeof maxima / sizeof maxima[0]; i++) {
        cp_err_t err = {0};
        long value = 0;
        int rc = parse_positive_int(text, "--fuzz", maxima[i], &value, &err);
        if (rc == CP_OK)
            REQUIRE(value >= 1 && value <= maxima[i]);
        else
            require_failure_reported(rc, &err);
    }
}

static void fuzz_target(const char *text)
{
    cp_err_t err = {0};
    target_spec_t t;
    int rc = parse_target(text, &t, &err);
    if (rc != CP_OK) {
        require_failure_reported(rc, &err);
        return;
    }
    REQUIRE(memchr(t.name, '\0', sizeof t.name) != NULL);
    REQUIRE(memchr(t.dir, '\0', sizeof t.dir) != NULL);
    REQUIRE(t.name[0] != '\0');
    REQUIRE(t.rate_cap_bps == 0 || (isfinite(t.rate_cap_bps) && t.rate_cap_bps > 0));
    REQUIRE(t.read_cap_bps == 0 || (isfinite(t.read_cap_bps) && t.read_cap_bps > 0));
    if (t.kind == TARGET_MEM) {
        REQUIRE(strcmp(t.name, "mem") == 0);
    } else {
        REQUIRE(t.dir[0] != '\0');
        REQUIRE(strcmp(t.name, "mem") != 0); /* reserved */
        /* Names go into CSV cells unquoted-safe: no commas, quotes or control bytes. */
        REQUIRE(strpbrk(t.name, ",\"\n\r") == NULL);
    }
}

static void fuzz_codec(const char *text)
{
    cp_err_t err = {0};
    codec_spec_t spec;
    int rc = codec_parse(text, &spec, &err);
    if (rc != CP_OK) {
        require_failure_reported(rc, &err);
        return;
    }
    REQUIRE(spec.ops != NULL);
    REQUIRE(spec.level >= spec.ops->min_level && spec.level <= spec.ops->max_level);
    REQUIRE(!spec.extreme || spec.ops->has_extreme);
    /* The canonical text parses back to the same spec. */
    char canon[64];
    codec_format(&spec, canon, sizeof canon);
    codec_spec_t again;
    cp_err_t err2 = {0};
    REQUIRE(codec_parse(canon, &again, &err2) == CP_OK);
    REQUIRE(again.ops == spec.ops && again.level == spec.level && again.extreme == spec.extreme);
}

static void fuzz_codec_list(const char *text)
{
    cp_err_t err = {0};
    codec_spec_t *list = NULL;
    size_t n = 0;
    int rc = codec_parse_list(text, &list, &n, &err);
    if (rc == CP_OK) {
        REQUIRE(n >= 1);
        for (size_t i = 0; i < n; i++)
            REQUIRE(list[i].ops != NULL);
        free(list);
    } else {
        require_failure_reported(rc, &err);
    }
}

static void fuzz_keywords(const char *text)
{
    cp_err_t err = {0};
    sync_mode_t sync;
    pipeline_engine_t engine;
    sweep_layout_t layout;
    int rc = sync_mode_parse(text, &sync, &err);
    if (rc == CP_OK)
        REQUIRE(strcmp(sync_mode_name(sync), text) == 0);
    cp_err_clear(&err);
    rc = pipeline_engine_parse(text, &engine, &err);
    if (rc == CP_OK)
        REQUIRE(strcmp(pipeline_engine_name(engine), text) == 0);
    cp_err_clear(&err);
    rc = sweep_layout_parse(text, &layout, &err);
    if (rc == CP_OK)
        REQUIRE(strcmp(sweep_layout_name(layout), text) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_TEXT_MAX)
        return 0;
    char text[FUZZ_TEXT_MAX];
    size_t len = size - 1;
    memcpy(text, data + 1, len);
    text[len] = '\0'; /* argv strings end at the first NUL, as here */
    switch (data[0] % 8) {
    case 0: fuzz_size(text); break;
    case 1: fuzz_rate(text); break;
    case 2: fuzz_thread_list(text); break;
    case 3: fuzz_positive_int(text); break;
    case 4: fuzz_target(text); break;
    case 5: fuzz_codec(text); break;
    case 6: fuzz_codec_list(text); break;
    default: fuzz_keywords(text); break;
    }
    return 0;
}
