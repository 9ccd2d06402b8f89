/* predict_study.h - the study `chokepoint predict` starts from: a results directory (or a
 * runs table) analysed, and the host's page-cache settings from the meta.json beside it. */
#ifndef CP_TABLES_PREDICT_STUDY_H
#define CP_TABLES_PREDICT_STUDY_H

#include <limits.h>
#include <stdbool.h>

#include "common/err.h"
#include "model/predict.h"
#include "tables/compare_load.h"

typedef struct predict_study {
    compare_input_t *input;           /* the runs (and probe.csv, when there) analysed */
    predict_writeback_t writeback;   /* meta.json's host.writeback; NAN fields without */
    bool writeback_known;
    char meta_path[PATH_MAX];         /* the meta.json read; "" when there is none */
    char hostname[256];               /* meta.json's host.hostname; "" when unknown */
} predict_study_t;

/* Loads path as compare_input_load does (CP_EUSAGE for a path that does not exist or a
 * directory without runs.csv, CP_EDATA with FILE:LINE for bad data), with the meta.json
 * beside the runs table. A missing or unreadable meta.json is not an error: the thresholds
 * stay unknown. On success *out is the caller's
 * (predict_study_release); on failure nothing is held. */
int predict_study_load(const char *path, predict_study_t *out, cp_err_t *err);

/* Frees what the study holds; a zeroed study is fine. */
void predict_study_release(predict_study_t *s);

#endif
