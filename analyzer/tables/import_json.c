/* import_json.c - loading the JSON files `chokepoint import` reads (import_json.h). */
#include "tables/import_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/regular_file.h"
#include "common/text_check.h"
#include "tables/csv_table.h"

/* The start of the first line of data that opens an object, or NULL. */
static const char *object_start(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (data[i] == '{' && (i == 0 || data[i - 1] == '\n'))
            return data + i;
    return NULL;
}

/* The lines before start, so a message gives the file's own line number. */
static int lines_before(const char *data, const char *start)
{
    int lines = 0;
    for (const char *p = data; p < start; p++)
        lines += *p == '\n';
    return lines;
}

int import_json_parse(const char *name, const char *data, size_t len, json_t **root,
                      cp_err_t *err)
{
    *root = NULL;
    const char *start = object_start(data, len);
    if (start == NULL)
        return cp_err_set(err, CP_EDATA, "%s: not JSON: no object in the file", name);
    json_error_t jerr;
    json_t *doc = json_loadb(start, len - (size_t)(start - data), 0, &jerr);
    if (doc == NULL) {
        /* jansson's text quotes the file near the fault: shown printable, one line. */
        char why[sizeof jerr.text];
        csv_table_printable(jerr.text, why, sizeof why);
        return cp_err_set(err, CP_EDATA, "%s: not JSON (line %d: %s)", name,
                          jerr.line + lines_before(data, start), why);
    }
    *root = doc;
    return CP_OK;
}

int import_json_read(const char *path, json_t **root, cp_err_t *err)
{
    *root = NULL;
    char *data = NULL;
    size_t len = 0;
    int rc = regular_file_read_at_most(path, REGULAR_FILE_GIVEN, REGULAR_FILE_IMPORT_MAX, &data,
                                       &len, NULL, err);
    if (rc == CP_OK)
        rc = import_json_parse(path, data, len, root, err);
    free(data);
    return rc;
}

const char *import_json_text(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

bool import_json_name(const char *text, char out[CP_NAME_MAX])
{
    out[0] = '\0';
    if (text_check(text, CP_NAME_MAX) != TEXT_OK)
        return false;
    memcpy(out, text, strlen(text) + 1);
    return true;
}
