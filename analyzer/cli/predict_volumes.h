/* predict_volumes.h - the volumes `chokepoint predict` is asked about, from its command
 * line (--volume NAME=DIR[@CAP], --write [NAME=]RATE [--read RATE], --class NAME,
 * --probe PROBE.csv), in the order given, and their figures: a probed volume is probed
 * here, briefly (study/probing over measure/probe). */
#ifndef CP_CLI_PREDICT_VOLUMES_H
#define CP_CLI_PREDICT_VOLUMES_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "measure/target.h"
#include "model/predict.h"

/* The short probe of a --volume: sizes up to the study's output, each this many times. */
#define PREDICT_PROBE_REPS 3

typedef struct predict_volume_spec {
    predict_source_t source;
    char name[CP_NAME_MAX];
    target_spec_t target;       /* PREDICT_PROBE: the directory and its emulated caps */
    double write_bps, read_bps; /* PREDICT_TYPED: as typed (read NAN: not given) */
    const storage_class_t *storage_class; /* PREDICT_CLASS */
} predict_volume_spec_t;

typedef struct predict_volume_list {
    predict_volume_spec_t *specs;
    size_t n, cap;
    probe_table_t *probe_file; /* --probe's table, whose targets are PREDICT_PROBE_FILE
                                  specs; NULL when not given */
} predict_volume_list_t;

/* Each adds one volume from an option's text, or returns CP_EUSAGE quoting it:
 * --volume NAME=DIR[@CAP] (parse_target; not mem), --write [NAME=]RATE (named by the rate
 * as typed when no NAME is given), --class NAME (model/storage_class.h). CP_ENOMEM. */
int predict_volumes_add_probe(predict_volume_list_t *list, const char *text, cp_err_t *err);
int predict_volumes_add_typed(predict_volume_list_t *list, const char *text, cp_err_t *err);
int predict_volumes_add_class(predict_volume_list_t *list, const char *text, cp_err_t *err);

/* --probe PROBE.csv: every target of the table with synced write rows becomes a volume,
 * in the order of its first row (one whose writes were all unsynced, a page-cache speed,
 * is left out with a warning); the table is read now (as analyze reads one) and kept by
 * the list. CP_EUSAGE when --probe was already given or the file cannot be opened,
 * CP_EDATA (naming the file) when it is not a probe table or has no such target. */
int predict_volumes_add_file(predict_volume_list_t *list, const char *path, cp_err_t *err);

/* --read RATE: the read speed of the volume the --write just before it typed. CP_EUSAGE
 * when the last volume given is not a typed one or already has a read speed. */
int predict_volumes_set_read(predict_volume_list_t *list, const char *text, cp_err_t *err);

/* CP_EUSAGE when two volumes share a name. */
int predict_volumes_check_names(const predict_volume_list_t *list, cp_err_t *err);

/* The forecast's volumes, in the order given: typed and class volumes from their figures;
 * every --volume probed now (locked against other chokepoint commands while it is, fsync'd
 * writes and cold reads of sizes up to output_bytes, PREDICT_PROBE_REPS times each; its
 * files removed; seed orders the probe and makes its data), its drain rate and I/O cost read as analyze reads a probe file. On
 * success *out (n entries) is the caller's (free). The probe's errors otherwise (CP_EUSAGE
 * for a directory that is not writable or in use, CP_ENOSPC, CP_EIO, CP_EINTR). */
int predict_volumes_resolve(const predict_volume_list_t *list, uint64_t output_bytes,
                            uint64_t seed, predict_volume_t **out, cp_err_t *err);

/* Frees the list's specs and table; safe twice. */
void predict_volumes_free(predict_volume_list_t *list);

#endif
