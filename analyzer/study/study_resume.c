/* study_resume.c - the pieces of `run --resume`: rows kept from before, the runs they
 * cover, and the input's fingerprint. */
#include "study/study_resume.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/tempfile.h"
#include "measure/verify.h"
#include "tables/csv_out.h"
#include "tables/csv_table.h"

/* ---- rewriting a CSV with the rows worth keeping ---- */

static int read_whole(const char *path, char **data, size_t *len, cp_err_t *err)
{
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return errno == ENOENT ? CP_OK : cp_err_errno(err, CP_EIO, errno, "cannot read %s", path);
    size_t cap = 0;
    int rc = CP_OK;
    for (;;) {
        if (*len + 65536 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *p = realloc(*data, cap);
            if (p == NULL) {
                rc = cp_err_set(err, CP_ENOMEM, "out of memory reading %s", path);
                break;
            }
            *data = p;
        }
        size_t n = fread(*data + *len, 1, cap - *len, f);
        *len += n;
        if (n == 0) {
            if (ferror(f))
                rc = cp_err_errno(err, CP_EIO, errno, "cannot read %s", path);
            break;
        }
    }
    fclose(f);
    /* An unfinished last line is a row whose write was cut by a crash. */
    while (rc == CP_OK && *len > 0 && (*data)[*len - 1] != '\n')
        (*len)--;
    return rc;
}

/* True when the table's columns are the header line's, in order. */
static bool same_header(const csv_table_t *t, const char *header_text)
{
    const char *p = header_text;
    for (size_t c = 0; c < csv_table_columns(t); c++) {
        const char *name = csv_table_header(t, c);
        size_t n = strlen(name);
        if (strncasecmp(p, name, n) != 0 || (p[n] != ',' && p[n] != '\n'))
            return false;
        p += n + 1;
    }
    return *p == '\0';
}

int study_csv_keep(const char *path, const char *header_text, study_keep_fn keep, void *ctx,
                   size_t *kept, cp_err_t *err)
{
    *kept = 0;
    char *data = NULL;
    size_t len = 0;
    int rc = read_whole(path, &data, &len, err);
    if (rc != CP_OK || data == NULL) {
        free(data);
        return rc;
    }
    csv_table_t *t = NULL;
    if (len > 0)
        rc = csv_table_read_buffer(path, data, len, &t, err);
    free(data);
    if (rc == CP_OK && t != NULL && !same_header(t, header_text))
        rc = cp_err_set(err, CP_EUSAGE, "%s has other columns than this version of chokepoint "
                        "writes; it cannot be resumed", path);
    char dir[PATH_MAX], base[PATH_MAX], prefix[PATH_MAX + 1];
    tempfile_t tmp = TEMPFILE_INIT;
    FILE *out = NULL;
    if (rc == CP_OK)
        rc = tempfile_split_path(path, dir, base, err);
    if (rc == CP_OK) {
        snprintf(prefix, sizeof prefix, ".%s", base);
        rc = tempfile_open(&tmp, dir, prefix, 0, err);
    }
    if (rc == CP_OK && (out = fdopen(tmp.fd, "w")) == NULL)
        rc = cp_err_errno(err, CP_EIO, errno, "cannot write %s", tmp.path);
    if (out != NULL)
        tmp.fd = -1; /* fclose closes it */
    size_t cols = t != NULL ? csv_table_columns(t) : 0;
    const char **cells = calloc(cols + 1, sizeof *cells);
    const char **names = calloc(cols + 1, sizeof *names);
    if (rc == CP_OK && (cells == NULL || names == NULL))
        rc = cp_err_set(err, CP_ENOMEM, "out of memory");
    for (size_t c = 0; rc == CP_OK && c < cols; c++)
        names[c] = csv_table_header(t, c);
    if (rc == CP_OK)
        fputs(header_text, out);
    for (size_t r = 0; rc == CP_OK && t != NULL && r < csv_table_rows(t); r++) {
        for (size_t c = 0; c < cols; c++)
            cells[c] = csv_table_cell(t, r, (int)c);
        if (!keep(ctx, cells, names, cols))
            continue;
        for (size_t c = 0; c < cols; c++) {
            if (c > 0)
                fputc(',', out);
            csv_out_text(out, cells[c]);
        }
        fputc('\n', out);
        (*kept)++;
    }
    free(cells);
    free(names);
    csv_table_free(t);
    if (out != NULL) {
        if (rc == CP_OK && (fflush(out) != 0 || fsync(fileno(out)) != 0))
            rc = cp_err_errno(err, CP_EIO, errno, "writing %s", tmp.path);
        if (fclose(out) != 0 && rc == CP_OK)
            rc = cp_err_errno(err, CP_EIO, errno, "writing %s", tmp.path);
    }
    if (rc == CP_OK)
        rc = tempfile_commit(&tmp, path, true, err);
    tempfile_discard(&tmp);
    return rc;
}

/* ---- the runs measured before ---- */

typedef struct done_run {
    char target[128], codec[32];
    int threads, rep;
    double seconds;
} done_run_t;

struct study_done {
    done_run_t *runs;
    size_t n, cap;
};

study_done_t *study_done_create(void) { return calloc(1, sizeof(study_done_t)); }

void study_done_free(study_done_t *d)
{
    if (d != NULL)
        free(d->runs);
    free(d);
}

static const char *cell_named(const char *const *cells, const char *const *names, size_t n,
                              const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0)
            return cells[i];
    return "";
}

bool study_done_keep_row(void *ctx, const char *const *cells, const char *const *names,
                         size_t n_cells)
{
    study_done_t *d = ctx;
    if (strcmp(cell_named(cells, names, n_cells, "valid"), "1") != 0)
        return false; /* failed or not run: measured again */
    done_run_t r;
    memset(&r, 0, sizeof r);
    snprintf(r.target, sizeof r.target, "%s", cell_named(cells, names, n_cells, "target"));
    snprintf(r.codec, sizeof r.codec, "%s", cell_named(cells, names, n_cells, "codec"));
    r.threads = atoi(cell_named(cells, names, n_cells, "threads"));
    r.rep = atoi(cell_named(cells, names, n_cells, "rep"));
    r.seconds = atof(cell_named(cells, names, n_cells, "seconds"));
    double seconds;
    if (study_done_lookup(d, r.target, r.codec, r.threads, r.rep, &seconds))
        return false; /* a duplicate: keep the first */
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        done_run_t *p = realloc(d->runs, cap * sizeof *p);
        if (p == NULL)
            return true; /* kept, only not known as done: measured again at worst */
        d->runs = p;
        d->cap = cap;
    }
    d->runs[d->n++] = r;
    return true;
}

bool study_done_lookup(void *ctx, const char *target, const char *codec, int threads, int rep,
                       double *seconds)
{
    const study_done_t *d = ctx;
    for (size_t i = 0; d != NULL && i < d->n; i++) {
        const done_run_t *r = &d->runs[i];
        if (r->threads == threads && r->rep == rep && strcmp(r->target, target) == 0 &&
            strcmp(r->codec, codec) == 0) {
            *seconds = r->seconds;
            return true;
        }
    }
    return false;
}

int study_failed_runs(const char *path, size_t *failed, cp_err_t *err)
{
    *failed = 0;
    if (access(path, F_OK) != 0)
        return CP_OK;
    csv_table_t *t = NULL;
    int rc = csv_table_read_file(path, &t, err);
    if (rc != CP_OK)
        return rc;
    int valid = csv_table_find(t, "valid");
    for (size_t r = 0; r < csv_table_rows(t); r++) /* as study_done_keep_row keeps them */
        *failed += valid < 0 || strcmp(csv_table_cell(t, r, valid), "1") != 0;
    csv_table_free(t);
    return CP_OK;
}

int study_input_hash(const char *path, char *hex, unsigned long long *bytes, cp_err_t *err)
{
    uint64_t hash = 0, size = 0;
    int rc = verify_hash_file(path, &hash, &size, err);
    if (rc == CP_OK) {
        snprintf(hex, 17, "%016llx", (unsigned long long)hash);
        *bytes = size;
    }
    return rc;
}
