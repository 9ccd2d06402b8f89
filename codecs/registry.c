/* registry.c - the codec registry (codec.h): the table of codecs by name, parsing and
 * formatting "NAME:LEVEL" specs and their lists. */
#include "codecs/codec.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const codec_ops_t *const registry[] = {&codec_zstd, &codec_xz, &codec_copy, NULL};


/* Appends the formatted text at buf[*used], within size (truncating), and advances *used. */
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
    if (*used >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    *used += w > 0 ? (size_t)w : 0;
}

void codec_list_text(char *buf, size_t size, const char *extreme_lead)
{
    size_t n = 0, used = 0;
    while (registry[n] != NULL)
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const codec_ops_t *c = registry[i];
        const char *sep = i == 0 ? "" : i + 1 == n && extreme_lead != NULL ? " or " : ", ";
        if (c->min_level == c->max_level)
            append(buf, size, &used, "%s%s", sep, c->name);
        else
            append(buf, size, &used, "%s%s:%d..%d", sep, c->name, c->min_level, c->max_level);
        if (c->has_extreme && extreme_lead == NULL)
            append(buf, size, &used, "[e]");
        else if (c->has_extreme)
            append(buf, size, &used, " (%s%s:%de)", extreme_lead, c->name, c->default_level);
    }
}

static int codec_usage_error(cp_err_t *err, const char *text)
{
    char expected[160];
    codec_list_text(expected, sizeof expected, "optionally with 'e' for extreme, e.g. ");
    return cp_err_set(err, CP_EUSAGE, "bad codec '%s': expected %s", text, expected);
}

int codec_parse(const char *text, codec_spec_t *out, cp_err_t *err)
{
    if (text == NULL)
        return codec_usage_error(err, "");
    const char *colon = strchr(text, ':');
    size_t name_len = colon ? (size_t)(colon - text) : strlen(text);
    const codec_ops_t *ops = NULL;
    for (const codec_ops_t *const *r = registry; *r; r++)
        if (strlen((*r)->name) == name_len && strncmp((*r)->name, text, name_len) == 0)
            ops = *r;
    if (ops == NULL)
        return codec_usage_error(err, text);
    codec_spec_t spec = {ops, ops->default_level, false};
    if (colon != NULL) {
        const char *p = colon + 1;
        if (!isdigit((unsigned char)*p) || ops->min_level == ops->max_level)
            return codec_usage_error(err, text);
        long level = 0;
        while (isdigit((unsigned char)*p) && level < 1000)
            level = level * 10 + (*p++ - '0');
        if (*p == 'e' && ops->has_extreme) {
            spec.extreme = true;
            p++;
        }
        if (*p != '\0' || level < ops->min_level || level > ops->max_level)
            return codec_usage_error(err, text);
        spec.level = (int)level;
    }
    *out = spec;
    return CP_OK;
}

int codec_parse_list(const char *text, codec_spec_t **out, size_t *count, cp_err_t *err)
{
    if (text == NULL || *text == '\0')
        return codec_usage_error(err, "");
    /* strtok_r would skip an empty item silently; "zstd:1,,xz:1" is a typo to report. */
    size_t len = strlen(text);
    if (text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,") != NULL)
        return cp_err_set(err, CP_EUSAGE, "bad codec list '%s': an empty item between commas; "
                          "expected e.g. zstd:1,xz:6", text);
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    codec_spec_t *list = calloc(cap, sizeof *list);
    char *copy = strdup(text);
    if (list == NULL || copy == NULL) {
        free(list);
        free(copy);
        return cp_err_set(err, CP_ENOMEM, "out of memory parsing codecs");
    }
    size_t n = 0;
    int rc = CP_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && rc == CP_OK; tok = strtok_r(NULL, ",", &save))
        rc = codec_parse(tok, &list[n++], err);
    if (rc == CP_OK && n == 0)
        rc = codec_usage_error(err, text);
    free(copy);
    if (rc != CP_OK) {
        free(list);
        return rc;
    }
    *out = list;
    *count = n;
    return CP_OK;
}

void codec_format(const codec_spec_t *spec, char *buf, size_t size)
{
    if (spec->ops->min_level == spec->ops->max_level)
        snprintf(buf, size, "%s", spec->ops->name);
    else
        snprintf(buf, size, "%s:%d%s", spec->ops->name, spec->level, spec->extreme ? "e" : "");
}

int codec_stream_process(codec_stream_t *s, const void *in, size_t in_size, bool finish,
                         codec_out_fn out, void *ctx, cp_err_t *err)
{
    return s->ops->process(s, in, in_size, finish, out, ctx, err);
}

void codec_stream_free(codec_stream_t *s)
{
    if (s != NULL)
        s->ops->free(s);
}
