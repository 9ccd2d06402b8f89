/* analysis_json.h - an analysis as JSON (the analysis.json schema in docs/formats.md).
 * Rates are bytes per second; anything unknown is null, never a made-up number. */
#ifndef CP_REPORT_ANALYSIS_JSON_H
#define CP_REPORT_ANALYSIS_JSON_H

#include <stdio.h>

#include <jansson.h>

#include "common/err.h"
#include "model/analysis.h"

/* Builds the JSON tree; the caller owns it (json_decref). NULL when out of memory. */
json_t *analysis_to_json(const analysis_t *analysis);

/* Writes the JSON document (indented, with a final newline) to out. CP_EIO or CP_ENOMEM
 * with err set on failure; out may then hold part of the document. */
int analysis_write_json(const analysis_t *analysis, FILE *out, cp_err_t *err);

#endif
