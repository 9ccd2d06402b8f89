/* fuzz_output_check.h - what every report promises, checked by the fuzzers that render
 * one: a number printed is finite (no "nan" or "inf" in the text), a JSON output parses
 * as one object, and a Markdown table has as many cells on every row as in its header.
 * A broken promise aborts with the output's name and the line at fault. */
#ifndef CP_FUZZ_OUTPUT_CHECK_H
#define CP_FUZZ_OUTPUT_CHECK_H

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* An output being checked: its text (NUL-terminated, len bytes) and its name. */
typedef struct fuzz_output {
    const char *name;
    const char *text;
    size_t len;
} fuzz_output_t;

static inline void fuzz_output_fail(const fuzz_output_t *o, const char *what, const char *at)
{
    size_t n = at != NULL ? strcspn(at, "\n") : 0;
    fprintf(stderr, "broken promise: %s: %s%s%.*s\n", o->name, what, at ? ": " : "",
            (int)(n > 300 ? 300 : n), at ? at : "");
    fprintf(stderr, "---- %s (%zu bytes) ----\n%.*s\n----\n", o->name, o->len,
            (int)(o->len > 20000 ? 20000 : o->len), o->text);
    abort();
}

/* The start of the line holding p. */
static inline const char *fuzz_line_of(const fuzz_output_t *o, const char *p)
{
    while (p > o->text && p[-1] != '\n')
        p--;
    return p;
}

/* Whether word (lower case) stands at p as a word of its own, in any case. */
static inline bool fuzz_word_at(const fuzz_output_t *o, const char *p, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(o->text + o->len - p) < n || strncasecmp(p, word, n) != 0)
        return false;
    bool before = p > o->text && isalpha((unsigned char)p[-1]);
    bool after = isalpha((unsigned char)p[n]);
    return !before && !after;
}

/* No "nan" and no "inf" (any case, as printf spells a non-finite number) stands as a word
 * in the output. names_have_nan / names_have_inf: the input's names hold those letters
 * (a target called "nan" is not a number), and that word is then not looked for. */
static inline void fuzz_check_finite(const fuzz_output_t *o, bool names_have_nan,
                                     bool names_have_inf)
{
    for (const char *p = o->text; p < o->text + o->len; p++) {
        if ((!names_have_nan && fuzz_word_at(o, p, "nan")) ||
            (!names_have_inf && (fuzz_word_at(o, p, "inf") || fuzz_word_at(o, p, "infinity"))))
            fuzz_output_fail(o, "a number that is not finite", fuzz_line_of(o, p));
    }
}

/* Whether text holds word's letters in any case (for fuzz_check_finite's exceptions). */
static inline bool fuzz_has_letters(const char *text, const char *word)
{
    return strcasestr(text, word) != NULL;
}

/* Whether the bytes data[0..size) hold word's letters in any case. */
static inline bool fuzz_bytes_have_letters(const void *data, size_t size, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= size; i++)
        if (strncasecmp((const char *)data + i, word, n) == 0)
            return true;
    return false;
}

/* Every real number of the JSON value v is finite. */
static inline void fuzz_json_finite(const fuzz_output_t *o, const json_t *v)
{
    if (json_is_real(v) && !isfinite(json_real_value(v)))
        fuzz_output_fail(o, "a JSON number that is not finite", NULL);
    const char *key;
    json_t *item;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, item)
            fuzz_json_finite(o, item);
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, item)
            fuzz_json_finite(o, item);
    }
}

/* The output parses as one JSON object (jansson), its numbers finite. */
static inline void fuzz_check_json(const fuzz_output_t *o)
{
    json_error_t jerr;
    json_t *doc = json_loadb(o->text, o->len, 0, &jerr);
    if (doc == NULL) {
        char at[256];
        snprintf(at, sizeof at, "line %d column %d: %s", jerr.line, jerr.column, jerr.text);
        fuzz_output_fail(o, "not JSON", at);
    }
    if (!json_is_object(doc))
        fuzz_output_fail(o, "JSON that is not an object", NULL);
    fuzz_json_finite(o, doc);
    json_decref(doc);
}

/* The cells of a Markdown table row at line (n bytes, no newline): the '|' not escaped
 * (a backslash escapes the character after it, a backslash too), less one for the
 * leading pipe; -1 when the line does not end with an unescaped '|'. */
static inline int fuzz_md_cells(const char *line, size_t n)
{
    int pipes = 0;
    size_t last_pipe_end = 0; /* just after the last unescaped '|' */
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '\\') {
            i++;
        } else if (line[i] == '|') {
            pipes++;
            last_pipe_end = i + 1;
        }
    }
    size_t end = n;
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
        end--;
    return end > 0 && last_pipe_end == end ? pipes - 1 : -1;
}

/* Whether line (n bytes) is a table's delimiter row: "|", then cells of '-' with an
 * optional ':' either side, each followed by '|'. */
static inline bool fuzz_md_delimiter(const char *line, size_t n)
{
    if (n < 2 || line[0] != '|')
        return false;
    for (size_t i = 1; i < n; i++)
        if (strchr("-:| ", line[i]) == NULL)
            return false;
    return memchr(line, '-', n) != NULL;
}

/* Every Markdown table in the output (a row starting '|' followed by a delimiter row, then
 * its rows while lines start with '|'; fenced code left out) has the header's number of
 * cells on every row, its delimiter row included. */
static inline void fuzz_check_markdown_tables(const fuzz_output_t *o)
{
    const char *p = o->text, *end = o->text + o->len;
    bool fenced = false;
    int columns = -1; /* the current table's, -1 outside a table */
    const char *prev = NULL;
    size_t prev_len = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl != NULL ? nl : end) - p);
        if (n >= 3 && memcmp(p, "```", 3) == 0)
            fenced = !fenced;
        if (!fenced && columns >= 0) {
            if (n > 0 && p[0] == '|') {
                if (fuzz_md_cells(p, n) != columns)
                    fuzz_output_fail(o, "a table row whose cells are not the header's", p);
            } else {
                columns = -1;
            }
        } else if (!fenced && prev != NULL && prev[0] == '|' && fuzz_md_delimiter(p, n)) {
            columns = fuzz_md_cells(prev, prev_len);
            if (columns < 1)
                fuzz_output_fail(o, "a table header that does not end in '|'", prev);
            if (fuzz_md_cells(p, n) != columns)
                fuzz_output_fail(o, "a delimiter row whose cells are not the header's", p);
        }
        prev = n > 0 ? p : NULL;
        prev_len = n;
        p += n + 1;
    }
}

/* A stream into memory for one output; fuzz_output_close checks nothing, frees nothing. */
typedef struct fuzz_stream {
    FILE *f;
    char *text;
    size_t len;
} fuzz_stream_t;

static inline FILE *fuzz_stream_open(fuzz_stream_t *s)
{
    *s = (fuzz_stream_t){0};
    s->f = open_memstream(&s->text, &s->len);
    if (s->f == NULL)
        abort();
    return s->f;
}

/* Closes the stream: the output is then o (name given), the caller frees s->text. */
static inline fuzz_output_t fuzz_stream_close(fuzz_stream_t *s, const char *name)
{
    if (fclose(s->f) != 0)
        abort();
    s->f = NULL;
    return (fuzz_output_t){name, s->text, s->len};
}

#endif
