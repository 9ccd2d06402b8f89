/* import_json.h - the JSON files `chokepoint import` reads (fio's --output-format=json,
 * hyperfine's --export-json): loaded whole, names checked the way the table readers
 * check them. */
#ifndef CP_TABLES_IMPORT_JSON_H
#define CP_TABLES_IMPORT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/bounds.h"
#include "common/err.h"

/* Parses data[0..len) as one JSON object. Text before the first line that starts with '{'
 * is skipped (fio prints its warnings there). On success *root is the caller's
 * (json_decref); CP_EDATA "NAME: not JSON (...)" otherwise, *root NULL. */
int import_json_parse(const char *name, const char *data, size_t len, json_t **root,
                      cp_err_t *err);

/* Reads path, which must be a regular file (common/regular_file.h: a FIFO or a device is
 * refused, CP_EDATA, without blocking), and parses it as import_json_parse. CP_EUSAGE
 * naming the file when it cannot be opened, CP_EIO when it cannot be read. */
int import_json_read(const char *path, json_t **root, cp_err_t *err);

/* The string member key of obj, or NULL when it is absent or not a string. */
const char *import_json_text(const json_t *obj, const char *key);

/* Copies text into out[CP_NAME_MAX] when it can name a target or series in the tables
 * (1 to CP_NAME_MAX - 1 bytes, no control characters). False otherwise (out empty). */
bool import_json_name(const char *text, char out[CP_NAME_MAX]);

#endif
