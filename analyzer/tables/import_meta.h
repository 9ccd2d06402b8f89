/* import_meta.h - the meta.json `chokepoint import` writes beside the table it writes, so
 * that history, compare and predict know the table's host and start time as they know a
 * study's: which host and time it records and where they came from, and whether a
 * meta.json already there is left alone. The file is written by tables/meta_json.h's one
 * writer (docs/formats.md, "meta.json of an import"). */
#ifndef CP_TABLES_IMPORT_META_H
#define CP_TABLES_IMPORT_META_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "tables/outfile.h"

/* The host recorded when --host is not given: figures measured elsewhere never claim the
 * machine that imports them. */
#define IMPORT_META_HOST_UNKNOWN "unknown"

/* What the import knows of the table it writes. The strings are the caller's. */
typedef struct import_meta_args {
    const char *source;      /* the program that measured: "fio" or "hyperfine" */
    const char *file;        /* the JSON imported, as given */
    const char *table_path;  /* -o FILE: meta.json goes into its directory */
    const char *host;        /* --host; NULL: not given */
    const char *started;     /* --started; NULL: not given */
    int64_t fio_timestamp;   /* fio's report time, seconds since the epoch; 0: none */
    bool force;              /* --force: an import's own meta.json of this table may go */
} import_meta_args_t;

/* What becomes of the meta.json beside the table. */
typedef enum import_meta_action {
    IMPORT_META_WRITE,   /* none there: written */
    IMPORT_META_REPLACE, /* one an import wrote for this table, and --force: replaced */
    IMPORT_META_KEEP,    /* any other: left as it is */
} import_meta_action_t;

/* A meta.json being written (import_meta_open to import_meta_close). */
typedef struct import_meta {
    import_meta_action_t action;
    char path[PATH_MAX];     /* DIR/meta.json */
    outfile_t *file;         /* NULL when kept */
    bool committed;
    const import_meta_args_t *args;
    const char *host;        /* what is recorded: --host or IMPORT_META_HOST_UNKNOWN */
    char started[64];
    const char *started_from;
} import_meta_t;

/* Checks --host's value: 1 to CP_NAME_MAX - 1 bytes, no control characters. CP_EUSAGE
 * "--host: ..." otherwise. */
int import_meta_check_host(const char *host, cp_err_t *err);

/* Checks --started's value: an ISO 8601 time as meta.json's "started"
 * (YYYY-MM-DDTHH:MM:SS[.frac][Z|+HHMM|+HH:MM]; no zone is UTC). CP_EUSAGE
 * "--started: ..." otherwise. */
int import_meta_check_started(const char *text, cp_err_t *err);

/* The start time to record into buf and where it came from into *from (static text):
 * given ("--started"), else fio's report time ("fio timestamp"), else the imported file's
 * modification time ("file mtime"), else now ("import time"). Never fails. */
void import_meta_started(const char *given, int64_t fio_timestamp, const char *file,
                         char *buf, size_t cap, const char **from);

/* What an import of the table named table (its base name) with force does to the
 * meta.json in dir (import_meta_action_t's rules). */
import_meta_action_t import_meta_action(const char *dir, const char *table, bool force);

/* Decides what becomes of the meta.json beside a->table_path and, unless it is kept,
 * prepares the new one (meta_create_import over argc/argv) in a temporary file;
 * import_meta_commit puts it in place. a stays the caller's and must outlive out. CP_OK
 * with out->file NULL when kept; CP_EUSAGE, CP_EIO or CP_ENOMEM with nothing written
 * otherwise. Release with import_meta_close either way. */
int import_meta_open(const import_meta_args_t *a, int argc, char **argv, import_meta_t *out,
                     cp_err_t *err);

/* Puts the prepared meta.json in place; CP_OK when there is none to put. */
int import_meta_commit(import_meta_t *m, cp_err_t *err);

/* Says on stderr, in one line, what became of the meta.json (once the import is done). */
void import_meta_report(const import_meta_t *m);

/* Takes a committed meta.json away again when the import wrote it where none was (for a
 * table that then failed to go in place); anything else stays. */
void import_meta_undo(import_meta_t *m);

/* Frees m's temporary file (removed unless committed). */
void import_meta_close(import_meta_t *m);

#endif
