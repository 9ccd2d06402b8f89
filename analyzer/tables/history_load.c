/* history_load.c - finding, reading and analysing the results directories under a root
 * (history_load.h); each meta.json is read by tables/meta_json.c's meta_read. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* timegm */
#endif
#include "tables/history_load.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/text_check.h"
#include "common/cleanup.h"
#include "tables/meta_json.h"

void history_set_free(history_set_t *set)
{
    if (set == NULL)
        return;
    for (size_t i = 0; i < set->n; i++) {
        free(set->entries[i].host);
        free(set->entries[i].started_text);
        free(set->entries[i].status);
        compare_input_free(set->entries[i].input);
    }
    for (size_t i = 0; i < set->nskipped; i++) {
        free(set->skipped[i].path);
        free(set->skipped[i].reason);
    }
    free(set->entries);
    free(set->skipped);
    free(set->root);
    free(set);
}

void history_set_studies(const history_set_t *set, history_study_t *out)
{
    for (size_t i = 0; i < set->n; i++) {
        const history_entry_t *e = &set->entries[i];
        out[i] = (history_study_t){
            .label = e->input->path, .host = e->host, .started = e->started,
            .started_text = e->started_text, .analysis = e->input->analysis,
            .runs = e->input->runs, .source = runs_table_source(e->input->runs)};
    }
}

/* ---- times and names ------------------------------------------------------------------ */

static bool digits(const char *s, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

int history_parse_time(const char *text, double *out)
{
    int Y, M, D, h, m, s, zh = 0, zm = 0;
    const char *p = text;
    if (strlen(p) < 19 || !digits(p, 4, &Y) || p[4] != '-' || !digits(p + 5, 2, &M) ||
        p[7] != '-' || !digits(p + 8, 2, &D) || (p[10] != 'T' && p[10] != ' ') ||
        !digits(p + 11, 2, &h) || p[13] != ':' || !digits(p + 14, 2, &m) || p[16] != ':' ||
        !digits(p + 17, 2, &s))
        return CP_EDATA;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || s > 60)
        return CP_EDATA;
    p += 19;
    double frac = 0.0;
    if (*p == '.') {
        double scale = 0.1;
        for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
            frac += (*p - '0') * scale;
    }
    int sign = 0;
    if (*p == 'Z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        sign = *p == '+' ? 1 : -1;
        p++;
        if (!digits(p, 2, &zh))
            return CP_EDATA;
        p += 2;
        if (*p == ':')
            p++;
        if (!digits(p, 2, &zm))
            return CP_EDATA;
        p += 2;
    }
    if (*p != '\0')
        return CP_EDATA;
    struct tm tm = {.tm_year = Y - 1900, .tm_mon = M - 1, .tm_mday = D, .tm_hour = h,
                    .tm_min = m, .tm_sec = s};
    time_t t = timegm(&tm);
    /* Local time = UTC + offset, so UTC = local - offset. */
    *out = (double)t + frac - sign * (zh * 3600.0 + zm * 60.0);
    return CP_OK;
}

bool history_host_from_dirname(const char *name, char *buf, size_t cap)
{
    int v;
    if (cap > 0)
        buf[0] = '\0';
    if (strlen(name) < 17 || !digits(name, 8, &v) || name[8] != '-' ||
        !digits(name + 9, 6, &v) || name[15] != '-' || name[16] == '\0')
        return false;
    snprintf(buf, cap, "%s", name + 16);
    return true;
}

/* ---- the walk ------------------------------------------------------------------------- */

static int skip_add(history_set_t *set, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int skip_add(history_set_t *set, const char *path, const char *fmt, ...)
{
    history_skip_t *items = realloc(set->skipped, (set->nskipped + 1) * sizeof *items);
    if (items == NULL)
        return CP_ENOMEM;
    set->skipped = items;
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    /* A reason quotes meta.json (its start time, the JSON error's excerpt): one line,
     * printable, whatever the file holds. */
    for (char *p = reason; *p != '\0'; p++)
        if (iscntrl((unsigned char)*p))
            *p = '?';
    history_skip_t *sk = &set->skipped[set->nskipped];
    sk->path = strdup(path);
    sk->reason = strdup(reason);
    if (sk->path == NULL || sk->reason == NULL) {
        free(sk->path);
        free(sk->reason);
        return CP_ENOMEM;
    }
    set->nskipped++;
    return CP_OK;
}

static const char *json_str(const json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v != NULL && v[0] != '\0' ? v : NULL;
}

/* The host named in meta, else in the directory's name; NULL when neither says. */
static const char *meta_host(const json_t *meta, const char *path, char *buf, size_t cap)
{
    const json_t *host = json_object_get(meta, "host");
    const char *name = json_string_value(host);
    if (name == NULL && json_is_object(host)) {
        name = json_str(host, "hostname");
        if (name == NULL)
            name = json_str(host, "name");
    }
    if (name != NULL && name[0] != '\0')
        return name;
    const char *base = strrchr(path, '/');
    return history_host_from_dirname(base ? base + 1 : path, buf, cap) ? buf : NULL;
}

/* Loads the results directory path into a new entry of set, or records why it cannot. */
static int load_one(history_set_t *set, const char *path, const analysis_options_t *options)
{
    char meta_path[PATH_MAX], runs_path[PATH_MAX];
    if ((size_t)snprintf(meta_path, sizeof meta_path, "%s/meta.json", path) >= sizeof meta_path ||
        (size_t)snprintf(runs_path, sizeof runs_path, "%s/runs.csv", path) >= sizeof runs_path)
        return skip_add(set, path, "path too long");
    cp_err_t merr = {0};
    json_t *meta = NULL;
    meta_read_result_t read = meta_read(path, &meta, &merr);
    if (read == META_READ_MISSING)
        return skip_add(set, path, "no meta.json (its host and start time are unknown)");
    if (access(runs_path, F_OK) != 0) {
        const char *imported = meta_import_table(meta);
        int rc = imported != NULL
                     ? skip_add(set, path, "no runs.csv (meta.json is the import of %s: "
                                "volume speeds, no runs)", imported)
                     : skip_add(set, path, "no runs.csv");
        json_decref(meta);
        return rc;
    }
    if (read == META_READ_BAD || read == META_READ_REFUSED) {
        /* The skip names the directory: its reason starts at "meta.json: ...". */
        size_t len = strlen(path);
        bool ours = strncmp(merr.msg, path, len) == 0 && merr.msg[len] == '/';
        return skip_add(set, path, "%s", ours ? merr.msg + len + 1 : merr.msg);
    }
    char hostbuf[256];
    const char *host = meta_host(meta, path, hostbuf, sizeof hostbuf);
    const char *started = json_str(meta, "started");
    const char *status = json_str(meta, "status");
    double t = NAN;
    int rc = CP_OK;
    if (host == NULL)
        rc = skip_add(set, path, "meta.json names no host (host.hostname)");
    else if (started == NULL || history_parse_time(started, &t) != CP_OK)
        rc = skip_add(set, path, "meta.json: no start time ('started' as "
                      "YYYY-MM-DDTHH:MM:SS+ZZZZ)%s%s", started ? ": " : "",
                      started ? started : "");
    if (host == NULL || !isfinite(t)) {
        json_decref(meta);
        return rc;
    }
    cp_err_t lerr = {0};
    compare_input_t *in = NULL;
    if (compare_input_load(path, options, &in, &lerr) != CP_OK) {
        json_decref(meta);
        return lerr.code == CP_ENOMEM || lerr.code == CP_EINTR ? lerr.code
                                                                : skip_add(set, path, "%s", lerr.msg);
    }
    history_entry_t *items = realloc(set->entries, (set->n + 1) * sizeof *items);
    if (items == NULL) {
        compare_input_free(in);
        json_decref(meta);
        return CP_ENOMEM;
    }
    set->entries = items;
    history_entry_t *e = &set->entries[set->n];
    *e = (history_entry_t){.host = strdup(host), .started_text = strdup(started),
                           .started = t, .status = strdup(status ? status : ""),
                           .input = in};
    json_decref(meta);
    set->n++;
    if (e->host == NULL || e->started_text == NULL || e->status == NULL)
        return CP_ENOMEM;
    return CP_OK;
}

/* Records a directory whose name holds a control character or a byte outside UTF-8
 * (fault; it would reach the reports, the plots' labels and the terminal): skipped, its
 * path shown with "\xNN" in their place. */
static int skip_named(history_set_t *set, const char *path, text_fault_t fault)
{
    char *shown = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&shown, &len);
    if (f == NULL)
        return CP_ENOMEM;
    text_visible(f, path, strlen(path), false);
    if (fclose(f) != 0) {
        free(shown);
        return CP_ENOMEM;
    }
    char says[64];
    int rc = skip_add(set, shown, "the directory's name %s",
                      text_fault_says(fault, PATH_MAX, says, sizeof says));
    free(shown);
    return rc;
}

static bool has_file(const char *dir, const char *name)
{
    char path[PATH_MAX];
    return (size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path &&
           access(path, F_OK) == 0;
}

/* Visits dir's subdirectories in name order: results directories are loaded, others
 * searched down to HISTORY_MAX_DEPTH. */
static int walk(history_set_t *set, const char *dir, int depth,
                const analysis_options_t *options)
{
    struct dirent **names = NULL;
    int count = scandir(dir, &names, NULL, alphasort);
    if (count < 0)
        return skip_add(set, dir, "cannot read the directory: %s", strerror(errno));
    int rc = CP_OK;
    for (int i = 0; i < count; i++) {
        const char *name = names[i]->d_name;
        char path[PATH_MAX];
        struct stat st;
        if (rc == CP_OK && cp_interrupted()) /* SIGINT/SIGTERM: stop the search now */
            rc = CP_EINTR;
        if (rc != CP_OK || name[0] == '.' ||
            (size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path ||
            stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            free(names[i]);
            continue;
        }
        text_fault_t fault = text_check(name, PATH_MAX);
        if (fault == TEXT_CONTROL || fault == TEXT_ENCODING)
            rc = skip_named(set, path, fault);
        else if (set->n >= HISTORY_MAX_STUDIES)
            rc = skip_add(set, path, "more than %d studies: left out", HISTORY_MAX_STUDIES);
        else if (has_file(path, "meta.json") || has_file(path, "runs.csv"))
            rc = load_one(set, path, options);
        else if (access(path, R_OK | X_OK) != 0)
            rc = skip_add(set, path, "cannot read the directory: %s", strerror(errno));
        else if (depth < HISTORY_MAX_DEPTH)
            rc = walk(set, path, depth + 1, options);
        free(names[i]);
    }
    free(names);
    return rc;
}

int history_load(const char *root, const analysis_options_t *options, history_set_t **out,
                 cp_err_t *err)
{
    *out = NULL;
    struct stat st;
    if (stat(root, &st) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "%s: not a directory of results", root);
    if (!S_ISDIR(st.st_mode))
        return cp_err_set(err, CP_EUSAGE, "%s: not a directory (history takes a directory "
                          "holding results directories)", root);
    if (access(root, R_OK | X_OK) != 0)
        return cp_err_errno(err, CP_EUSAGE, errno, "%s: cannot read", root);
    history_set_t *set = calloc(1, sizeof *set);
    if (set == NULL || (set->root = strdup(root)) == NULL) {
        free(set);
        return cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    size_t len = strlen(set->root);
    while (len > 1 && set->root[len - 1] == '/')
        set->root[--len] = '\0';
    int rc = walk(set, set->root, 1, options);
    if (rc != CP_OK) {
        history_set_free(set);
        return rc == CP_EINTR ? cp_err_set(err, CP_EINTR, "interrupted")
                              : cp_err_set(err, CP_ENOMEM, "out of memory");
    }
    *out = set;
    return CP_OK;
}
