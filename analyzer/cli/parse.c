/* parse.c - the command line's small languages (parse.h): sizes, rates, thread lists,
 * block sizes, tolerances and targets. */
#include "cli/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/option_table.h"
#include "common/sys.h"

typedef struct unit {
    const char *suffix;
    double factor;
} unit_t;

/* Reads a non-negative decimal number (digits with an optional fraction) from text.
 * Returns a pointer just past it, or NULL when there is no number there. */
static const char *read_number(const char *text, double *value)
{
    const char *p = text;
    if (!isdigit((unsigned char)*p))
        return NULL;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    char buf[64];
    size_t n = (size_t)(p - text);
    if (n >= sizeof buf)
        return NULL;
    memcpy(buf, text, n);
    buf[n] = '\0';
    *value = strtod(buf, NULL);
    return p;
}

/* Sizes and rates take their unit in any case ("10mb" is 10MB, "4k" is 4K, "80mb/s" is
 * 80MB/s): nobody means bits or milli-bytes on a command line, and refusing them only
 * annoys. */
static const unit_t *find_unit_nocase(const unit_t *units, const char *suffix)
{
    for (const unit_t *u = units; u->suffix != NULL; u++)
        if (strcasecmp(u->suffix, suffix) == 0)
            return u;
    return NULL;
}

static const unit_t size_units[] = {
    {"", 1.0}, {"B", 1.0},
    {"K", 1024.0}, {"M", 1048576.0}, {"G", 1073741824.0}, {"T", 1099511627776.0},
    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
    {NULL, 0},
};

int parse_size(const char *text, uint64_t *out, cp_err_t *err)
{
    double value;
    const char *rest = text ? read_number(text, &value) : NULL;
    const unit_t *unit = rest ? find_unit_nocase(size_units, rest) : NULL;
    if (unit == NULL)
        return cp_err_set(err, CP_EUSAGE,
                          "bad size '%s': expected a number with an optional unit, e.g. 512, "
                          "4K, 1G (powers of 1024) or 10MB, 2GB (powers of 1000)",
                          text ? text : "");
    if (unit->factor == 1.0 && value != floor(value))
        return cp_err_set(err, CP_EUSAGE,
                          "bad size '%s': a fraction needs a unit, e.g. 1.5G or 1.5GB "
                          "(a count of bytes is whole)", text);
    double bytes = floor(value * unit->factor);
    if (!(bytes < 9.2e18))
        return cp_err_set(err, CP_EUSAGE, "bad size '%s': too large", text);
    *out = (uint64_t)bytes;
    return CP_OK;
}

int parse_block_size(const char *text, const char *what, size_t *out, cp_err_t *err)
{
    uint64_t size;
    int rc = parse_size(text, &size, err);
    if (rc == CP_OK && (size < CP_BLOCK_MIN || size > CP_BLOCK_MAX))
        rc = cp_err_set(err, CP_EUSAGE, "bad %s '%s': expected 4K to 1G", what, text);
    if (rc == CP_OK)
        *out = (size_t)size;
    return rc;
}

static const unit_t rate_units[] = {
    {"B/s", 1.0},
    {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12},
    {"KiB/s", 1024.0}, {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0},
    {NULL, 0},
};

int parse_rate(const char *text, double *out_bps, cp_err_t *err)
{
    double value;
    const char *rest = text ? read_number(text, &value) : NULL;
    /* Rates, like sizes, take their unit in any case (80mb/s is 80MB/s). */
    const unit_t *unit = rest ? find_unit_nocase(rate_units, rest) : NULL;
    if (unit == NULL || !(value > 0) || !(value * unit->factor < 1e15))
        return cp_err_set(err, CP_EUSAGE,
                          "bad rate '%s': expected a positive number with a unit, e.g. "
                          "400MB/s, 1.5GB/s, 200MiB/s",
                          text ? text : "");
    *out_bps = value * unit->factor;
    return CP_OK;
}

int parse_tolerance(const char *text, double *out, cp_err_t *err)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(value >= 0.0) || !(value < 1.0))
        return cp_err_set(err, CP_EUSAGE, "--tolerance '%s': expected a fraction from 0 to "
                          "below 1, like 0.10", text);
    *out = value;
    return CP_OK;
}

int parse_percentage(const char *option, const char *text, double *out, cp_err_t *err)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end != text && *end == '%')
        end++;
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v) || v < 0.0 || v >= 100.0 ||
        strspn(text, "0123456789.") == 0)
        return cp_err_set(err, CP_EUSAGE, "bad %s '%s': expected a percentage from 0 to "
                          "below 100 (2 or 2%%)", option, text);
    *out = v / 100.0;
    return CP_OK;
}

int parse_positive_int(const char *text, const char *what, long max, long *out, cp_err_t *err)
{
    const char *p = text ? text : "";
    long value = 0;
    bool ok = *p != '\0';
    for (; *p && ok; p++) {
        /* Stop before value * 10 + digit could pass max (or overflow when max is LONG_MAX). */
        if (!isdigit((unsigned char)*p) || value > (max - (*p - '0')) / 10)
            ok = false;
        else
            value = value * 10 + (*p - '0');
    }
    if (!ok || value < 1 || value > max)
        return cp_err_set(err, CP_EUSAGE, "bad %s '%s': expected a whole number from 1 to %ld",
                          what, text ? text : "", max);
    *out = value;
    return CP_OK;
}

static int thread_list_error(cp_err_t *err, const char *text)
{
    return cp_err_set(err, CP_EUSAGE,
                      "bad thread list '%s': expected counts from 1 to %d as '4', '1,2,4' or "
                      "'1..8'",
                      text, CP_MAX_THREADS);
}

/* Reads a thread count 1..CP_MAX_THREADS at *p and advances *p past it. */
static bool read_thread_count(const char **p, int *value)
{
    long v = 0;
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return false;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s - '0');
        if (v > CP_MAX_THREADS)
            return false;
        s++;
    }
    if (v < 1)
        return false;
    *value = (int)v;
    *p = s;
    return true;
}

int parse_thread_list(const char *text, int **out, size_t *count, cp_err_t *err)
{
    if (text == NULL || *text == '\0')
        return thread_list_error(err, text ? text : "");
    bool seen[CP_MAX_THREADS + 1] = {false};
    const char *p = text;
    for (;;) {
        int lo, hi;
        if (!read_thread_count(&p, &lo))
            return thread_list_error(err, text);
        hi = lo;
        if (p[0] == '.' && p[1] == '.') {
            p += 2;
            if (!read_thread_count(&p, &hi) || hi < lo)
                return thread_list_error(err, text);
        }
        for (int t = lo; t <= hi; t++)
            seen[t] = true;
        if (*p == '\0')
            break;
        if (*p != ',')
            return thread_list_error(err, text);
        p++;
    }
    size_t n = 0;
    for (int t = 1; t <= CP_MAX_THREADS; t++)
        n += seen[t];
    int *list = malloc(n * sizeof *list);
    if (list == NULL)
        return cp_err_set(err, CP_ENOMEM, "out of memory parsing thread list");
    n = 0;
    for (int t = 1; t <= CP_MAX_THREADS; t++)
        if (seen[t])
            list[n++] = t;
    *out = list;
    *count = n;
    return CP_OK;
}

int thread_list_all_cpus(int **out, size_t *count, cp_err_t *err)
{
    char all[32];
    long cpus = sys_usable_cpus(); /* affinity: a pinned job cannot use the others */
    if (cpus <= 0)
        cpus = sys_online_cpus();
    if (cpus > CP_MAX_THREADS)
        cpus = CP_MAX_THREADS;
    snprintf(all, sizeof all, "1..%ld", cpus > 0 ? cpus : 1);
    return parse_thread_list(all, out, count, err);
}

/* The keyed cap form after a TARGET's '@' begins with a letter ("write=", "read="); the
 * plain form, a RATE, always begins with a digit. */
static bool cap_is_keyed(const char *cap)
{
    return isalpha((unsigned char)cap[0]);
}

/* Parses the keyed cap list "write=RATE", "read=RATE" or both, comma-separated in either
 * order, into t. text is the whole TARGET, for the message. */
static int parse_cap_list(const char *text, char *caps, target_spec_t *t, cp_err_t *err)
{
    static const char form[] = "expected @RATE, @write=RATE, @read=RATE or "
                               "@write=RATE,read=RATE, e.g. @read=60MB/s";
    bool seen_write = false, seen_read = false;
    char *item = caps;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma != NULL)
            *comma = '\0';
        if (item[0] == '\0')
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': an empty cap (a stray comma); %s",
                              text, form);
        char *eq = strchr(item, '=');
        if (eq != NULL)
            *eq = '\0';
        bool is_write = strcmp(item, "write") == 0, is_read = strcmp(item, "read") == 0;
        if (!is_write && !is_read)
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': unknown cap '%s'; %s", text,
                              item, form);
        if (eq == NULL || eq[1] == '\0')
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': '%s=' needs a RATE; %s", text,
                              item, form);
        bool *seen = is_write ? &seen_write : &seen_read;
        if (*seen)
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': '%s=' given twice", text,
                              item);
        *seen = true;
        cp_err_t rate_err = {0};
        double *cap = is_write ? &t->rate_cap_bps : &t->read_cap_bps;
        if (parse_rate(eq + 1, cap, &rate_err) != CP_OK)
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': %s cap: %s", text, item,
                              rate_err.msg);
        if (comma == NULL)
            return CP_OK;
        item = comma + 1;
    }
}

int parse_target(const char *text, target_spec_t *out, cp_err_t *err)
{
    char forms[320], form[sizeof forms + 16];
    snprintf(form, sizeof form, "expected %s",
             target_forms_text(forms, sizeof forms, ", or ",
                               " or [NAME=]DIR@write=RATE,read=RATE, e.g. ssd=/mnt/ssd@400MB/s"));
    if (text == NULL || *text == '\0')
        return cp_err_set(err, CP_EUSAGE, "empty target: %s", form);
    target_spec_t t;
    memset(&t, 0, sizeof t);
    int claimed = target_parse_kind(text, out, err); /* mem, and any kind not a DIR */
    if (claimed != TARGET_NOT_MINE)
        return claimed;
    if (strlen(text) >= sizeof t.dir)
        return cp_err_set(err, CP_EUSAGE, "target too long: %.64s...", text);
    char buf[PATH_MAX];
    strcpy(buf, text);

    /* A keyed cap is cut off first: its '=' must not be taken for NAME='s when DIR has no
     * '/' (out@read=60MB/s). The plain @RATE is found after NAME=, as it always was. */
    char *keyed = strrchr(buf, '@');
    if (keyed != NULL && cap_is_keyed(keyed + 1)) {
        *keyed = '\0';
        int rc = parse_cap_list(text, keyed + 1, &t, err);
        if (rc != CP_OK)
            return rc;
    } else {
        keyed = NULL;
    }

    char *dir = buf;
    char *eq = strchr(buf, '=');
    char *slash = strchr(buf, '/');
    if (eq != NULL && (slash == NULL || eq < slash)) {
        *eq = '\0';
        if (buf[0] == '\0')
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': empty NAME before '='; %s",
                              text, form);
        if (strlen(buf) >= sizeof t.name)
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': NAME longer than %zu characters",
                              text, sizeof t.name - 1);
        for (const char *c = buf; *c; c++)
            if (!isprint((unsigned char)*c) || *c == ',' || *c == '"')
                return cp_err_set(err, CP_EUSAGE,
                                  "bad target '%s': NAME may not contain commas, quotes or "
                                  "control characters",
                                  text);
        strcpy(t.name, buf);
        dir = eq + 1;
    }
    char *at = keyed == NULL ? strrchr(dir, '@') : NULL;
    if (at != NULL) {
        *at = '\0';
        cp_err_t rate_err = {0};
        if (parse_rate(at + 1, &t.rate_cap_bps, &rate_err) != CP_OK)
            return cp_err_set(err, CP_EUSAGE, "bad target '%s': %s", text, rate_err.msg);
    }
    if (dir[0] == '\0')
        return cp_err_set(err, CP_EUSAGE, "bad target '%s': empty DIR; %s", text, form);
    if (target_name_is_ceiling(t.name) || (t.name[0] == '\0' && target_name_is_ceiling(dir)))
        return cp_err_set(err, CP_EUSAGE,
                          "bad target '%s': the name 'mem' is reserved for the memory target "
                          "(write it alone: mem)",
                          text);
    strcpy(t.dir, dir);
    if (t.name[0] == '\0') {
        if (strlen(dir) >= sizeof t.name)
            return cp_err_set(err, CP_EUSAGE,
                              "bad target '%s': directory name too long to be a label; give a "
                              "short NAME=",
                              text);
        for (const char *c = dir; *c; c++)
            if (!isprint((unsigned char)*c) || *c == ',' || *c == '"')
                return cp_err_set(err, CP_EUSAGE,
                                  "bad target '%s': give a NAME= (the directory has commas, "
                                  "quotes or control characters)",
                                  text);
        strcpy(t.name, dir);
    }
    *out = t;
    return CP_OK;
}

void parse_target_help(FILE *out, const char *lead, bool volume_only, const char *trail)
{
    char kinds[1024];
    const char *const parts[] = {lead, target_kinds_help(kinds, sizeof kinds, volume_only),
                                 trail};
    options_help_paragraph(out, parts, sizeof parts / sizeof parts[0]);
}

/* ---- the series list (-c) ---------------------------------------------------------------- */

int parse_series_list(const char *text, series_spec_t **out, size_t *count, cp_err_t *err)
{
    int rc = CP_OK;
    const char *s = text != NULL ? text : "";
    do {
        size_t len = strcspn(s, ",");
        char item[64];
        if (len == 0 || len >= sizeof item) {
            rc = cp_err_set(err, CP_EUSAGE, "bad codec list '%s': %s", text,
                            len == 0 ? "an empty item" : "an item too long");
            break;
        }
        snprintf(item, sizeof item, "%.*s", (int)len, s);
        series_spec_t series;
        if (command_preset_is(item)) {
            command_series_t command;
            rc = command_preset_expand(item, &command, err);
            if (rc == CP_OK)
                series = series_of_command(&command);
        } else {
            codec_spec_t codec;
            rc = codec_parse(item, &codec, err);
            if (rc == CP_OK)
                series = series_of_codec(&codec);
        }
        if (rc == CP_OK)
            rc = series_list_append(out, count, &series, err);
        s += len;
    } while (rc == CP_OK && *s++ == ',');
    if (rc != CP_OK) {
        free(*out);
        *out = NULL;
        *count = 0;
    }
    return rc;
}
