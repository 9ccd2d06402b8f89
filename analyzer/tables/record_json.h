/* record_json.h - a compress record as a JSON object (the `compress --json` output). */
#ifndef CP_TABLES_RECORD_JSON_H
#define CP_TABLES_RECORD_JSON_H

#include <jansson.h>

#include "measure/codec_job.h"

/* A new JSON object with the record's fields (see docs/formats.md, "compress --json");
 * the caller owns the reference (json_decref). NULL only when out of memory. */
json_t *record_to_json(const compress_record_t *rec);

#endif
