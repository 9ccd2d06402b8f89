/* csv_table.c - the CSV reader behind every table chokepoint loads: a header and rows
 * of text fields over libcsv, with limits and line numbers for messages (csv_table.h). */
#include "tables/csv_table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csv.h>

#include "common/cleanup.h"
#include "common/regular_file.h"

typedef struct csv_row {
    long line;
    char **fields; /* ncols pointers into text */
    char *text;
} csv_row_t;

struct csv_table {
    char *name;
    long header_line;
    size_t ncols;
    char **header;
    char *header_text;
    csv_row_t *rows;
    size_t nrows, cap_rows;
};

/* Parser state shared with libcsv's callbacks. Fields of the record being read are
 * collected in buf (NUL-separated) and committed at the end of the record. */
typedef struct reader {
    csv_table_t *table;
    cp_err_t *err;
    int code;          /* CP_OK, or the first failure: CP_EDATA or CP_ENOMEM */
    bool in_record;
    long line;         /* physical line of the piece being fed */
    long record_line;  /* where the current record started */
    bool prev_cr;      /* the last byte fed was a CR (so a following LF ends no line) */
    char *buf;
    size_t buf_len, buf_cap;
    size_t nfields;
    bool have_header;
} reader_t;

/* libcsv keeps a field in one growing buffer; refusing to grow it past the field limit
 * bounds memory whatever the file holds (it then reports CSV_ENOMEM). */
static void *capped_realloc(void *p, size_t size)
{
    if (size > CSV_TABLE_FIELD_MAX + 1024)
        return NULL;
    return realloc(p, size);
}

static void reader_fail(reader_t *r, long line, const char *what)
{
    if (r->code == CP_OK)
        r->code = cp_err_set(r->err, CP_EDATA, "%s:%ld: %s", r->table->name, line, what);
}

static void reader_nomem(reader_t *r)
{
    if (r->code == CP_OK)
        r->code = cp_err_set(r->err, CP_ENOMEM, "%s: out of memory", r->table->name);
}

static void on_field(void *data, size_t len, void *ctx)
{
    reader_t *r = ctx;
    if (r->code != CP_OK)
        return;
    if (!r->in_record) {
        r->in_record = true;
        r->record_line = r->line;
    }
    if (len > CSV_TABLE_FIELD_MAX) {
        char msg[96];
        snprintf(msg, sizeof msg, "a field is longer than %d bytes", CSV_TABLE_FIELD_MAX);
        reader_fail(r, r->record_line, msg);
        return;
    }
    if (len > 0 && memchr(data, '\0', len) != NULL) {
        reader_fail(r, r->record_line, "a NUL byte in a field (is this a text CSV file?)");
        return;
    }
    if (r->nfields >= CSV_TABLE_COLUMNS_MAX) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %d columns", CSV_TABLE_COLUMNS_MAX);
        reader_fail(r, r->record_line, msg);
        return;
    }
    if (r->buf_len + len + 1 > r->buf_cap) {
        size_t cap = r->buf_cap ? r->buf_cap : 256;
        while (cap < r->buf_len + len + 1)
            cap *= 2;
        char *grown = realloc(r->buf, cap);
        if (grown == NULL) {
            reader_nomem(r);
            return;
        }
        r->buf = grown;
        r->buf_cap = cap;
    }
    if (len > 0)
        memcpy(r->buf + r->buf_len, data, len);
    r->buf[r->buf_len + len] = '\0';
    r->buf_len += len + 1;
    r->nfields++;
}

/* Copies the collected fields into one allocation with a pointer per field. CP_OK or
 * CP_ENOMEM. */
static int take_fields(reader_t *r, char ***fields_out, char **text_out)
{
    char *text = malloc(r->buf_len ? r->buf_len : 1);
    char **fields = calloc(r->nfields ? r->nfields : 1, sizeof *fields);
    if (text == NULL || fields == NULL) {
        free(text);
        free(fields);
        return CP_ENOMEM;
    }
    memcpy(text, r->buf, r->buf_len);
    char *p = text;
    for (size_t i = 0; i < r->nfields; i++) {
        fields[i] = p;
        p += strlen(p) + 1;
    }
    *fields_out = fields;
    *text_out = text;
    return CP_OK;
}

static void on_record(int terminator, void *ctx)
{
    (void)terminator;
    reader_t *r = ctx;
    csv_table_t *t = r->table;
    if (r->code != CP_OK)
        goto reset;
    if (!r->in_record)
        r->record_line = r->line;
    if (!r->have_header) {
        if (take_fields(r, &t->header, &t->header_text) != CP_OK)
            goto nomem;
        t->ncols = r->nfields;
        t->header_line = r->record_line;
        r->have_header = true;
        for (size_t i = 0; i < t->ncols; i++)
            for (size_t j = 0; j < i; j++)
                if (t->header[i][0] != '\0' && strcasecmp(t->header[i], t->header[j]) == 0) {
                    char msg[160], shown[104];
                    csv_table_printable(t->header[i], shown, sizeof shown);
                    snprintf(msg, sizeof msg, "column '%s' appears twice in the header", shown);
                    reader_fail(r, r->record_line, msg);
                    goto reset;
                }
        goto reset;
    }
    /* A line holding one empty field is a blank line with stray spaces, not data. */
    if (r->nfields == 1 && r->buf[0] == '\0' && t->ncols != 1)
        goto reset;
    if (r->nfields != t->ncols) {
        char msg[128];
        snprintf(msg, sizeof msg, "%zu fields where the header has %zu", r->nfields, t->ncols);
        reader_fail(r, r->record_line, msg);
        goto reset;
    }
    if (t->nrows >= CSV_TABLE_ROWS_MAX) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %d rows", CSV_TABLE_ROWS_MAX);
        reader_fail(r, r->record_line, msg);
        goto reset;
    }
    if (t->nrows == t->cap_rows) {
        size_t cap = t->cap_rows ? 2 * t->cap_rows : 64;
        csv_row_t *grown = realloc(t->rows, cap * sizeof *grown);
        if (grown == NULL)
            goto nomem;
        t->rows = grown;
        t->cap_rows = cap;
    }
    csv_row_t *row = &t->rows[t->nrows];
    if (take_fields(r, &row->fields, &row->text) != CP_OK)
        goto nomem;
    row->line = r->record_line;
    t->nrows++;
    goto reset;
nomem:
    reader_nomem(r);
reset:
    r->in_record = false;
    r->nfields = 0;
    r->buf_len = 0;
}

void csv_table_free(csv_table_t *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->nrows; i++) {
        free(t->rows[i].fields);
        free(t->rows[i].text);
    }
    free(t->rows);
    free(t->header);
    free(t->header_text);
    free(t->name);
    free(t);
}

/* The length of chunk up to and including its first line end (LF, CRLF or a lone CR), or
 * n when it has none. */
static size_t line_end(const char *chunk, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (chunk[i] == '\n')
            return i + 1;
        if (chunk[i] == '\r')
            return i + 1 < n && chunk[i + 1] == '\n' ? i + 2 : i + 1;
    }
    return n;
}

/* Feeds one piece (ending at a line end or at the end of the data) to libcsv, keeping
 * track of the physical line where each record starts. CP_OK or the reader's failure. */
static int feed(struct csv_parser *p, reader_t *r, const char *piece, size_t len)
{
    if (!r->in_record)
        r->record_line = r->line;
    if (csv_parse(p, piece, len, on_field, on_record, r) != len) {
        if (csv_error(p) == CSV_ENOMEM && csv_get_buffer_size(p) >= CSV_TABLE_FIELD_MAX) {
            char msg[96];
            snprintf(msg, sizeof msg, "a field is longer than %d bytes", CSV_TABLE_FIELD_MAX);
            reader_fail(r, r->record_line, msg);
        } else {
            reader_fail(r, r->record_line, csv_strerror(csv_error(p)));
        }
        return r->code;
    }
    /* libcsv's state 0 is "row not begun": anything else means a record began in this
     * piece and has not ended yet (a quoted newline). */
    if (!r->in_record && p->pstate != 0) {
        r->in_record = true;
    }
    /* A line ends at LF, CRLF or a lone CR (libcsv ends records at all three). */
    for (size_t i = 0; i < len; i++) {
        if (piece[i] == '\r' || (piece[i] == '\n' && !r->prev_cr))
            r->line++;
        r->prev_cr = piece[i] == '\r';
    }
    return r->code;
}

static int parse_stream(const char *name, FILE *in, const void *data, size_t len,
                        csv_table_t **out, cp_err_t *err)
{
    *out = NULL;
    csv_table_t *t = calloc(1, sizeof *t);
    if (t == NULL || (t->name = strdup(name)) == NULL) {
        free(t);
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", name);
    }
    struct csv_parser p;
    if (csv_init(&p, 0) != 0) {
        csv_table_free(t);
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", name);
    }
    csv_set_realloc_func(&p, capped_realloc);
    reader_t r = {.table = t, .err = err, .code = CP_OK, .line = 1, .record_line = 1};
    char block[65536];
    size_t offset = 0;
    bool first = true;
    int rc = 0;
    for (;;) {
        const char *chunk;
        size_t n;
        if (in != NULL) {
            if (cp_interrupted()) { /* a long table gives way to SIGINT/SIGTERM */
                rc = cp_err_set(err, CP_EINTR, "interrupted");
                break;
            }
            n = fread(block, 1, sizeof block, in);
            if (n == 0 && ferror(in)) {
                rc = cp_err_errno(err, CP_EIO, errno, "%s: cannot read", name);
                break;
            }
            /* A file that grew past the bound while read (csv_table_read_file). */
            offset += n;
            if (offset > REGULAR_FILE_TABLE_MAX) {
                rc = cp_err_set(err, CP_EDATA, "%s: larger than %zu MiB, the most chokepoint "
                                "reads of such a file", name, REGULAR_FILE_TABLE_MAX >> 20);
                break;
            }
            chunk = block;
        } else {
            n = len - offset;
            chunk = (const char *)data + offset;
            offset = len;
        }
        if (n == 0)
            break;
        if (first && n >= 3 && memcmp(chunk, "\xEF\xBB\xBF", 3) == 0) {
            chunk += 3;
            n -= 3;
        }
        first = false;
        while (n > 0 && rc == 0) {
            size_t piece = line_end(chunk, n);
            rc = feed(&p, &r, chunk, piece);
            chunk += piece;
            n -= piece;
        }
        if (rc != 0)
            break;
    }
    if (rc == 0) {
        /* libcsv's state 2 is "field begun": inside quotes at the end means the closing
         * quote is missing; non-strict libcsv would quietly accept it. */
        if (p.pstate == 2 && p.quoted)
            reader_fail(&r, r.record_line, "a quoted field is not closed before the end of the file");
        else if (csv_fini(&p, on_field, on_record, &r) != 0)
            reader_fail(&r, r.record_line, "malformed CSV at the end of the file");
        rc = r.code;
        if (rc == CP_OK && !r.have_header)
            rc = cp_err_set(err, CP_EDATA, "%s:1: empty file: a header line is required", name);
    }
    csv_free(&p);
    free(r.buf);
    if (rc != 0) {
        csv_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int csv_table_read_file(const char *path, csv_table_t **out, cp_err_t *err)
{
    *out = NULL;
    int fd;
    int rc = regular_file_open(path, REGULAR_FILE_GIVEN, &fd, err);
    if (rc != CP_OK)
        return rc;
    struct stat st;
    if (fstat(fd, &st) == 0 && (unsigned long long)st.st_size > REGULAR_FILE_TABLE_MAX) {
        close(fd);
        return cp_err_set(err, CP_EDATA, "%s: larger than %zu MiB, the most chokepoint reads "
                          "of such a file", path, REGULAR_FILE_TABLE_MAX >> 20);
    }
    FILE *in = fdopen(fd, "rb");
    if (in == NULL) {
        close(fd);
        return cp_err_errno(err, CP_ENOMEM, errno, "%s: cannot open", path);
    }
    rc = parse_stream(path, in, NULL, 0, out, err);
    fclose(in);
    return rc;
}

int csv_table_read_buffer(const char *name, const void *data, size_t len,
                          csv_table_t **out, cp_err_t *err)
{
    return parse_stream(name, NULL, data, len, out, err);
}

void csv_table_printable(const char *text, char *out, size_t cap)
{
    size_t i = 0;
    if (cap == 0)
        return;
    for (; text[i] != '\0' && i + 1 < cap; i++)
        out[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
    out[i] = '\0';
    if (text[i] != '\0' && cap > 4)
        memcpy(out + cap - 4, "...", 4);
}

const char *csv_table_name(const csv_table_t *t) { return t->name; }
size_t csv_table_columns(const csv_table_t *t) { return t->ncols; }
size_t csv_table_rows(const csv_table_t *t) { return t->nrows; }
long csv_table_header_line(const csv_table_t *t) { return t->header_line; }

const char *csv_table_header(const csv_table_t *t, size_t col)
{
    return col < t->ncols ? t->header[col] : "";
}

int csv_table_find(const csv_table_t *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcasecmp(t->header[i], name) == 0)
            return (int)i;
    return -1;
}

long csv_table_line(const csv_table_t *t, size_t row)
{
    return row < t->nrows ? t->rows[row].line : 0;
}

const char *csv_table_cell(const csv_table_t *t, size_t row, int col)
{
    if (row >= t->nrows || col < 0 || (size_t)col >= t->ncols)
        return "";
    return t->rows[row].fields[col];
}

int csv_table_number(const csv_table_t *t, size_t row, int col, double *out, cp_err_t *err)
{
    *out = NAN;
    const char *text = csv_table_cell(t, row, col);
    if (text[0] == '\0')
        return CP_OK;
    const char *p = text;
    if (*p == '+' || *p == '-')
        p++;
    bool digits = false;
    while (isdigit((unsigned char)*p))
        p++, digits = true;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits = true;
    if (digits && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            digits = false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    double value = digits && *p == '\0' ? strtod(text, NULL) : NAN;
    if (!isfinite(value)) {
        char shown[48], name[48];
        csv_table_printable(text, shown, sizeof shown);
        csv_table_printable(csv_table_header(t, (size_t)col), name, sizeof name);
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': '%s' is not a number",
                          t->name, csv_table_line(t, row), name, shown);
    }
    /* Nothing a table holds (bytes, seconds, rates, shares) is past 2^63 or, unless 0,
     * below a millionth: such a value is not a measurement, and the model's ratios of it
     * would not be finite. */
    if (fabs(value) >= 0x1p63 || (value != 0 && fabs(value) < 1e-6)) {
        char shown[48], name[48];
        csv_table_printable(text, shown, sizeof shown);
        csv_table_printable(csv_table_header(t, (size_t)col), name, sizeof name);
        if (fabs(value) >= 0x1p63)
            return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': %g is past 2^63 (no size, "
                              "rate or time is)", t->name, csv_table_line(t, row), name, value);
        return cp_err_set(err, CP_EDATA, "%s:%ld: column '%s': %s is below a microsecond or "
                          "a millionth, and not 0 (no measurement is)", t->name,
                          csv_table_line(t, row), name, shown);
    }
    *out = value;
    return 0;
}
