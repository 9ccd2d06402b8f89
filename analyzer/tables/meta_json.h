/* meta_json.h - meta.json for a study directory: what ran, where, on what machine, with
 * which seeds, and whether it finished. Written at the start (status "running") and again
 * at every stage, so an interrupted study says how far it got. Its one writer and its one
 * reader (meta_read) are here; which status is recorded when, and what a reader makes of
 * it, are study/meta.h's rules. */
#ifndef CP_TABLES_META_JSON_H
#define CP_TABLES_META_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "measure/target.h"
#include "common/err.h"
#include "measure/hostinfo.h"
#include "measure/volume.h"
#include "measure/writeback.h"
#include "model/study_env.h"
#include "tables/outfile.h"

/* Starts a meta object: chokepoint version, command line (argv), start time, host (CPU
 * model and counts, memory, kernel, OS, host name when known: host, as the caller gathered
 * it) and its write-back settings (wb, when known). Reads nothing from the system. The
 * caller owns the reference (json_decref); NULL when out of memory. */
json_t *meta_create(int argc, char **argv, const host_info_t *host,
                    const writeback_settings_t *wb);

/* Adds a target: name, directory, filesystem type, RAM flag, device, mount source,
 * rotational flag, free bytes and emulated write and read caps (volume NULL for the memory
 * target). */
void meta_add_target(json_t *meta, const target_spec_t *target, const volume_info_t *volume);

/* Sets meta["status"] ("running", "complete", "interrupted", "failed") and, for anything but
 * "running", the end time; `stage` names the stage reached ("fixture", "probe", "sweep",
 * "analyze", "plot", "done"). */
void meta_set_status(json_t *meta, const char *status, const char *stage);

/* What meta_read found. */
typedef enum meta_read_result {
    META_READ_OK,      /* *meta is the caller's reference (json_decref) */
    META_READ_MISSING, /* no DIR/meta.json (or its path is too long) */
    META_READ_BAD,     /* there, but not JSON: err says where */
    META_READ_REFUSED, /* JSON, but a field breaks meta_check's rule: err names it */
} meta_read_result_t;

/* Checks every field of meta, read from path, before any of it is used: each string
 * keeps the rule of common/text_check.h (no control characters; host names and target
 * names under CP_NAME_MAX bytes, a word of command_line under 128 KiB and the only
 * strings that may hold tabs and line ends, any other under CP_TEXT_MAX), each number is
 * from 0 to 2^63, and the document is no deeper than 16 levels. CP_OK, or CP_EDATA
 * "PATH: field 'host.hostname' holds a control character" (the value itself is not
 * repeated). */
int meta_check(const json_t *meta, const char *path, cp_err_t *err);

/* Reads DIR/meta.json, the one reader of that file, opened as a regular file without
 * following a symlink and without blocking (common/regular_file.h; a FIFO, a device or a
 * symlink is META_READ_BAD), and checks it (meta_check); *meta is
 * NULL unless META_READ_OK. err (may be NULL) gets one line naming the file for
 * META_READ_BAD and META_READ_REFUSED. What the fields mean is the reader's business
 * (study/meta.h has the status rules). */
meta_read_result_t meta_read(const char *dir, json_t **meta, cp_err_t *err);

/* meta_read, also giving the user id owning the file read in *owner_uid (-1 unless the
 * file could be read): `run --resume` replays a command line only from a meta.json of
 * the caller's own. */
meta_read_result_t meta_read_owned(const char *dir, json_t **meta, long *owner_uid,
                                   cp_err_t *err);

/* Reads the environment recorded in the meta.json at path into *env (study_env_init first:
 * what the file lacks stays unknown). CP_OK, with env->known false, when the file is
 * missing or not JSON: an environment only explains. CP_EDATA (err as meta_read's) when
 * a field breaks meta_check's rule: the file is refused, not half used. An import's
 * meta.json (meta_create_import) is read with env->imported true and env->known false:
 * it names a host, not a machine. */
int meta_read_env(const char *path, study_env_t *env, cp_err_t *err);

/* Writes meta to DIR/meta.json (replacing the previous version atomically). */
int meta_write(const json_t *meta, const char *dir, cp_err_t *err);

/* Opens DIR/meta.json as an outfile (tables/outfile.h) with meta printed into it and
 * flushed to its temporary file: outfile_commit puts it in place, outfile_close without a
 * commit leaves nothing. An existing meta.json is refused (CP_EUSAGE naming it) unless
 * replace. The caller owns the outfile; NULL on failure, err set. */
outfile_t *meta_open(const json_t *meta, const char *dir, bool replace, cp_err_t *err);

/* A time as meta.json spells it, local time with its offset ("2026-11-30T14:53:33+0100"),
 * into buf (32 bytes are enough). Returns buf. */
const char *meta_time_text(time_t t, char *buf, size_t cap);

/* What `chokepoint import` says of a table it wrote, for meta_create_import. The strings
 * are the caller's. */
typedef struct meta_import {
    const char *source;       /* the program that measured: "fio" or "hyperfine" */
    const char *file;         /* the file imported, as given */
    const char *table;        /* the table written, its base name: "probe.csv", "runs.csv" */
    const char *host;         /* the machine the figures came from ("unknown": not said) */
    bool host_given;          /* host came from --host */
    const char *started;      /* the start time, as meta_time_text spells it or as given */
    const char *started_from; /* where started came from: "--started", "fio timestamp",
                                 "file mtime", "import time" */
} meta_import_t;

/* A meta object for a table `chokepoint import` wrote: chokepoint version, command line,
 * started and started_from, host.hostname (nothing else of a machine it may never have
 * seen), status "complete" at stage "done", source, and an "import" object (file, table,
 * host_given) that marks the file as an import's. The caller owns the reference; NULL when
 * out of memory. */
json_t *meta_create_import(int argc, char **argv, const meta_import_t *imp);

/* The table an import wrote meta (a meta.json read back) for ("runs.csv", "probe.csv"),
 * or NULL when meta was not written by `chokepoint import`. Points into meta. */
const char *meta_import_table(const json_t *meta);

#endif
