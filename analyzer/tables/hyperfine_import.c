/* hyperfine_import.c - hyperfine's --export-json into runs.csv rows (hyperfine_import.h). */
#include "tables/hyperfine_import.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/bounds.h"
#include "model/data_source.h"
#include "tables/csv_out.h"
#include "tables/csv_table.h"
#include "tables/import_json.h"
#include "tables/runs_writer.h"

/* The threads parameter of a result as a count, 0 when absent or not a whole number in
 * 1..CP_MAX_THREADS. */
static int result_threads(const json_t *result)
{
    const char *text = import_json_text(json_object_get(result, "parameters"), "threads");
    if (text == NULL || !isdigit((unsigned char)text[0]))
        return 0;
    char *end;
    long n = strtol(text, &end, 10);
    return *end == '\0' && n >= 1 && n <= CP_MAX_THREADS ? (int)n : 0;
}

/* Whether two results share every parameter but threads: the same command at two
 * thread counts. */
static bool same_but_threads(const json_t *a, const json_t *b)
{
    const json_t *pa = json_object_get(a, "parameters"), *pb = json_object_get(b, "parameters");
    if (json_object_size(pa) != json_object_size(pb))
        return false;
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)pa, key, value) {
        const char *other = import_json_text(pb, key);
        if (strcmp(key, "threads") != 0 &&
            (other == NULL || json_string_value(value) == NULL ||
             strcmp(other, json_string_value(value)) != 0))
            return false;
    }
    return true;
}

/* The lengths of the common prefix and suffix of a and b, not overlapping. */
static void common_ends(const char *a, const char *b, size_t *prefix, size_t *suffix)
{
    size_t la = strlen(a), lb = strlen(b), shorter = la < lb ? la : lb;
    size_t p = 0, s = 0;
    while (p < shorter && a[p] == b[p])
        p++;
    while (s < shorter - p && a[la - 1 - s] == b[lb - 1 - s])
        s++;
    *prefix = p;
    *suffix = s;
}

/* The command of result i with its thread count written "{threads}": where it differs
 * from the command of the same parameters at another thread count closest to it (the
 * digits around the difference included). The command itself when there is none. */
static void command_template(const json_t *results, size_t i, char *out, size_t cap)
{
    const json_t *result = json_array_get(results, i);
    const char *cmd = import_json_text(result, "command");
    size_t best_prefix = 0, best_suffix = 0, j;
    bool found = false;
    const json_t *other;
    json_array_foreach(results, j, other) {
        const char *ocmd = import_json_text(other, "command");
        if (j == i || ocmd == NULL || result_threads(other) == result_threads(result) ||
            !same_but_threads(result, other))
            continue;
        size_t p, s;
        common_ends(cmd, ocmd, &p, &s);
        if (!found || p + s > best_prefix + best_suffix) {
            best_prefix = p;
            best_suffix = s;
            found = true;
        }
    }
    if (!found) {
        snprintf(out, cap, "%s", cmd);
        return;
    }
    size_t len = strlen(cmd);
    while (best_prefix > 0 && isdigit((unsigned char)cmd[best_prefix - 1]))
        best_prefix--;
    while (best_suffix > 0 && isdigit((unsigned char)cmd[len - best_suffix]))
        best_suffix--;
    snprintf(out, cap, "%.*s{threads}%s", (int)best_prefix, cmd, cmd + len - best_suffix);
}

/* The target and series names of result i, from its parameters, the sizes' target or its
 * command. CP_EDATA when a name cannot be one. */
static int result_names(const char *name, const json_t *results, size_t i,
                        const hyperfine_sizes_t *sizes, hyperfine_row_t *row, cp_err_t *err)
{
    const json_t *params = json_object_get(json_array_get(results, i), "parameters");
    char cmd[4096], series[4096 + 8];
    command_template(results, i, cmd, sizeof cmd);
    const char *target = import_json_text(params, "target");
    if (target == NULL)
        target = sizes->target != NULL ? sizes->target : cmd;
    const char *codec = import_json_text(params, "codec");
    snprintf(series, sizeof series, "cmd:%s", cmd);
    char shown[64]; /* a name refused is shown printable: the message stays one line */
    if (!import_json_name(target, row->target)) {
        csv_table_printable(target, shown, sizeof shown);
        return cp_err_set(err, CP_EDATA, "%s: cannot name the target '%s' (1 to %d "
                          "printable bytes); give --target NAME or a target parameter", name,
                          shown, CP_NAME_MAX - 1);
    }
    if (!import_json_name(codec != NULL ? codec : series, row->codec)) {
        csv_table_printable(codec != NULL ? codec : series, shown, sizeof shown);
        return cp_err_set(err, CP_EDATA, "%s: cannot name the series '%s' (1 to %d "
                          "printable bytes); give hyperfine a codec parameter (-L codec NAME)",
                          name, shown, CP_NAME_MAX - 1);
    }
    return CP_OK;
}

/* Appends one row per time of result i to imp (whose rows have room). */
static int result_rows(const char *name, const json_t *results, size_t i,
                       const hyperfine_sizes_t *sizes, hyperfine_import_t *imp, cp_err_t *err)
{
    const json_t *result = json_array_get(results, i);
    const char *cmd = import_json_text(result, "command");
    const json_t *times = json_object_get(result, "times");
    hyperfine_row_t row = {0};
    row.threads = result_threads(result);
    if (cmd == NULL || !json_is_array(times))
        return cp_err_set(err, CP_EDATA, "%s: result %zu has no command or times (hyperfine "
                          "1.x's --export-json)", name, i + 1);
    char shown[64]; /* the command as messages show it: printable, one line */
    csv_table_printable(cmd, shown, sizeof shown);
    if (row.threads == 0)
        return cp_err_set(err, CP_EDATA, "%s: result %zu ('%s') has no threads parameter "
                          "of 1..%d; run hyperfine with -P threads 1 8 or -L threads 1,2,4",
                          name, i + 1, shown, CP_MAX_THREADS);
    int rc = result_names(name, results, i, sizes, &row, err);
    if (rc != CP_OK)
        return rc;
    row.cpu_user_s = json_number_value(json_object_get(result, "user"));
    row.cpu_sys_s = json_number_value(json_object_get(result, "system"));
    if (!(row.cpu_user_s >= 0 && row.cpu_user_s < CP_QUANTITY_MAX && row.cpu_sys_s >= 0 &&
          row.cpu_sys_s < CP_QUANTITY_MAX))
        return cp_err_set(err, CP_EDATA, "%s: result %zu ('%s'): user or system time is "
                          "not a time (0 to 2^63 s)", name, i + 1, shown);
    /* A mean below a microsecond is no CPU time a table holds (its loaders refuse it):
     * unknown, written empty, rather than a figure. */
    if (row.cpu_user_s > 0 && row.cpu_user_s < CP_SECONDS_MIN)
        row.cpu_user_s = NAN;
    if (row.cpu_sys_s > 0 && row.cpu_sys_s < CP_SECONDS_MIN)
        row.cpu_sys_s = NAN;
    const json_t *exit_codes = json_object_get(result, "exit_codes");
    size_t k;
    const json_t *t;
    json_array_foreach(times, k, t) {
        row.seconds = json_number_value(t);
        if (!json_is_number(t) || !(row.seconds > 0))
            return cp_err_set(err, CP_EDATA, "%s: result %zu ('%s'): time %zu is not a "
                              "positive number", name, i + 1, shown, k + 1);
        if (!(row.seconds >= CP_SECONDS_MIN && row.seconds < CP_QUANTITY_MAX))
            return cp_err_set(err, CP_EDATA, "%s: result %zu ('%s'): time %zu, %g s, is "
                              "%s", name, i + 1, shown, k + 1, row.seconds,
                              row.seconds < CP_SECONDS_MIN ? "below a microsecond"
                                                           : "past 2^63");
        row.rep = (int)k + 1;
        row.exit_code = (int)json_integer_value(json_array_get(exit_codes, k));
        imp->rows[imp->n++] = row;
    }
    return CP_OK;
}

/* The number of times over all results (the rows to come). */
static size_t count_times(const json_t *results)
{
    size_t n = 0, i;
    const json_t *result;
    json_array_foreach(results, i, result)
        n += json_array_size(json_object_get(result, "times"));
    return n;
}

int hyperfine_import_parse(const char *name, const json_t *root, const hyperfine_sizes_t *sizes,
                           hyperfine_import_t *out, cp_err_t *err)
{
    *out = (hyperfine_import_t){0};
    const json_t *results = json_object_get(root, "results");
    if (!json_is_array(results))
        return cp_err_set(err, CP_EDATA, "%s: not hyperfine's JSON export (no \"results\"; run "
                          "hyperfine with --export-json FILE)", name);
    size_t n = count_times(results);
    if (n == 0)
        return cp_err_set(err, CP_EDATA, "%s: hyperfine's export holds no timed run", name);
    out->rows = calloc(n, sizeof *out->rows);
    if (out->rows == NULL)
        return cp_err_set(err, CP_ENOMEM, "%s: out of memory", name);
    out->input_bytes = sizes->input_bytes;
    out->output_bytes = sizes->output_bytes;
    for (size_t i = 0; i < json_array_size(results); i++) {
        int rc = result_rows(name, results, i, sizes, out, err);
        if (rc != CP_OK) {
            hyperfine_import_free(out);
            return rc;
        }
    }
    return CP_OK;
}

int hyperfine_import_write(FILE *out, const hyperfine_import_t *imp, cp_err_t *err)
{
    const char *header = runs_csv_header_text();
    if (fputs(header, out) == EOF)
        return cp_err_set(err, CP_EIO, "cannot write the runs CSV header");
    for (size_t i = 0; i < imp->n; i++) {
        const hyperfine_row_t *r = &imp->rows[i];
        char error[48];
        snprintf(error, sizeof error, "the command exited with %d", r->exit_code);
        csv_named_row_t row = {0};
        csv_named_text(&row, "target", r->target);
        csv_named_text(&row, "codec", r->codec);
        csv_named_num(&row, "threads", 0, r->threads);
        csv_named_num(&row, "rep", 0, r->rep);
        csv_named_num(&row, "input_bytes", 0, (double)imp->input_bytes);
        csv_named_num(&row, "output_bytes", 0, imp->output_bytes > 0 ? (double)imp->output_bytes
                                                                     : NAN);
        csv_named_num(&row, "seconds", 6, r->seconds);
        csv_named_num(&row, "bytes_per_s", 0, (double)imp->input_bytes / r->seconds);
        csv_named_num(&row, "cpu_user_s", 4, r->cpu_user_s);
        csv_named_num(&row, "cpu_sys_s", 4, r->cpu_sys_s);
        csv_named_text(&row, "op", "compress");
        csv_named_num(&row, "valid", 0, r->exit_code == 0);
        csv_named_text(&row, "error", r->exit_code == 0 ? NULL : error);
        csv_named_text(&row, "source", DATA_SOURCE_HYPERFINE_NAME);
        int rc = csv_named_write(out, header, &row, err);
        if (rc != CP_OK)
            return rc;
    }
    return CP_OK;
}

void hyperfine_import_free(hyperfine_import_t *imp)
{
    free(imp->rows);
    imp->rows = NULL;
    imp->n = 0;
}
