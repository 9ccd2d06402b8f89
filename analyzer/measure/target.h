/* target.h - a volume to measure: a directory on it (or the memory target), a name for
 * reports and optional emulated write- and read-rate caps. The command line parses the
 * text form (cli/parse.h); the engine checks and uses the parsed value.
 *
 * How a target does its I/O (opens files on it, reads them back, finds its free space and
 * device, locks it) is its kind's table of operations (target_ops_t, chosen by
 * target_ops_for): one file per kind (target_dir.c, target_mem.c), its enum value and
 * extern here, and one line in the registry in target.c. Code that writes, reads or
 * inspects a target asks its ops; code that reports ("this series is the CPU ceiling", "it
 * has no volume") asks their capabilities; the messages and --help that list the kinds
 * are made from their forms (target_forms_text, target_kinds_help). Only measure/target*.c
 * test a target's kind. */
#ifndef CP_MEASURE_TARGET_H
#define CP_MEASURE_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/bounds.h"
#include "common/dirlock.h"
#include "common/err.h"
#include "common/sys.h"
#include "common/target_name.h"
#include "measure/sink.h"
#include "measure/volume.h"

#define CP_TARGET_NAME_MAX CP_NAME_MAX

/* What a target is, and so how it does its I/O (target_ops_for). A directory on a RAM
 * volume (tmpfs) is a TARGET_DIR: it does I/O as any directory does, and the volume's
 * inspection (volume_info_t.is_ram) says it lives in RAM. */
typedef enum target_kind {
    TARGET_DIR, /* a directory on a volume: files are written to and read from it */
    TARGET_MEM, /* CP_MEM_TARGET_NAME: output counted and discarded (the CPU ceiling) */
    TARGET_KIND_COUNT
} target_kind_t;

/* A parsed TARGET. The mem target has kind TARGET_MEM and an empty dir. */
typedef struct target_spec {
    char name[CP_TARGET_NAME_MAX];
    char dir[PATH_MAX];
    double rate_cap_bps; /* emulated write cap (@RATE, @write=RATE); 0 = none */
    /* Emulated read cap (@read=RATE); 0 = none. Readers of the target pace each read(2)
     * with a throttle_make(read_cap_bps) bucket (throttle_read), and every figure so paced
     * is labelled emulated with this cap, as the write cap's are. */
    double read_cap_bps;
    target_kind_t kind;
    /* While the target's emulated disk is up (measure/emulated_disk.h): the mount point of
     * the kernel-throttled volume that stands in for dir. Files are written there and the
     * kernel, not chokepoint, paces them at rate_cap_bps. "" otherwise. */
    char disk_dir[PATH_MAX];
} target_spec_t;

/* True while t's writes go to an emulated disk (disk_dir set): the page cache takes them
 * and the kernel's write-back drains them at the cap. */
bool target_emulates_disk(const target_spec_t *t);

/* The write cap chokepoint paces t's writes at itself (sink, probe), one write at a time:
 * the cap when the target has one and no emulated disk paces it instead; 0 otherwise. */
double target_pacing_cap(const target_spec_t *t);

/* Checks a parsed directory target: it must exist, be a directory (not a symlink to a
 * non-directory) and be writable. CP_EUSAGE naming it otherwise. The mem target passes. */
int target_check(const target_spec_t *t, cp_err_t *err);

/* Checks that no two of targets[0..n) share a name (reports, runs.csv and locks tell
 * targets apart by it) or are one directory with the same caps (`a=/x b=/x`, `/x /x/`).
 * CP_EUSAGE "two targets are named 'X'; give each a NAME=" (for mem: "'mem' is given
 * twice"), or "targets 'a' and 'b' are one directory ..." otherwise. Call it before
 * anything is written. */
int target_check_names(const target_spec_t *targets, size_t n, cp_err_t *err);

/* The memory target: output counted and discarded. */
void target_init_mem(target_spec_t *out);

/* A directory target named name on dir, without a rate cap (the filesystem is not looked
 * at: see target_check). CP_EUSAGE when name or dir does not fit. */
int target_init_dir(target_spec_t *out, const char *name, const char *dir, cp_err_t *err);

/* ---- one command per target directory ---- */

/* The locks a command holds on the directories it measures (target_lock_all). */
typedef struct target_locks {
    struct target_lock *held; /* malloc'd, one per distinct directory */
    size_t n;
} target_locks_t;

#define TARGET_LOCKS_INIT {NULL, 0}

/* ---- a kind's operations ---- */

/* How one kind of target does its I/O. Every member is set; those that do not apply to a
 * kind say so by their result (no directory, no volume, nothing to lock). */
typedef struct target_ops {
    target_kind_t kind;
    /* ---- capabilities: what the engine and the reports may ask of a kind ---- */
    /* True when the target writes its files in a directory on a volume: it has a volume
     * to inspect, probe, emulate a disk on, watch (telemetry) and describe (runs.csv's
     * file system, device, write-back thresholds and directory; meta.json's volume). */
    bool has_volume;
    /* True when its series is the CPU ceiling: its output is counted and discarded, so a
     * rate measured on it is the compression's alone (the analysis knows its rows by
     * target_name_is_ceiling). */
    bool cpu_ceiling;
    /* True when what it writes lives in RAM (its output, an archive kept on it), whatever
     * volume it has; a directory's files are in RAM when its volume is (is_ram). */
    bool in_ram;
    /* How messages name where it keeps its files ("memory") when its name does not say
     * it; NULL for kinds named by their name (target_place). */
    const char *place;
    /* ---- how the command line names it: the lists of kinds in messages and in the
     * --help of sweep and probe are made from these (target_forms_text,
     * target_kinds_help) ---- */
    /* Its TARGET text as a list of the forms shows it: "[NAME=]DIR[@RATE]", "mem". */
    const char *form;
    /* What a target given as form is, a phrase that follows the form in quotes and ends
     * a sentence: "counts the output and discards it: the pure CPU ceiling" ("'mem'
     * counts ... ceiling."). NULL for the kind given as [NAME=]DIR (parse NULL), whose
     * text each command's --help teaches with its caps. */
    const char *what;
    /* ---- operations ---- */
    /* Reads a TARGET text naming a target of this kind that the command line's
     * [NAME=]DIR[@RATE] form does not cover ("mem"): CP_OK with *out filled, CP_EUSAGE
     * for a malformed one, TARGET_NOT_MINE when text is not of this kind. NULL for kinds
     * given as that form (directories). */
    int (*parse)(const char *text, target_spec_t *out, cp_err_t *err);
    /* Checks the target can be measured (target_check). */
    int (*check)(const target_spec_t *t, cp_err_t *err);
    /* The directory a measured run writes its output file in (open_output's; a command's
     * {output} is a file there) and telemetry watches, or NULL when the target has none:
     * its output is counted and discarded in memory. */
    const char *(*output_dir)(const target_spec_t *t);
    /* Writes into buf (cap bytes, PATH_MAX will do) the target's identity as runs.csv and
     * probe.csv record it in their dir column, which the analysis matches a run's target to
     * its probe by when the two name it differently: the directory resolved (realpath; as
     * given when that fails). "" for a target without a volume. */
    void (*identity)(const target_spec_t *t, char *buf, size_t cap);
    /* Describes the volume the target writes to into *out (volume_inspect); a target
     * without a volume leaves *out alone. CP_OK, or CP_EUSAGE naming the directory. */
    int (*inspect)(const target_spec_t *t, volume_info_t *out, cp_err_t *err);
    /* The free space for a file on the target now (sys_space_read); total_bytes 0 when
     * nothing is known of its room (memory). CP_EIO naming the directory on failure. */
    int (*space)(const target_spec_t *t, sys_space_t *out, cp_err_t *err);
    /* Opens the sink a measured run writes its output to, counted and removed after the
     * run (codec_job): a temporary file named after prefix in the target's directory
     * (sink_open_file), or a sink that counts and discards (sink_open_mem) for a target
     * whose output is not kept (the CPU ceiling). NULL with err set on failure. */
    sink_t *(*open_output)(const target_spec_t *t, const char *prefix,
                           const sink_options_t *opts, cp_err_t *err);
    /* Opens for writing a new file kept on the target to be read back by path
     * (sink_temp_path) until sink_close: a temporary file named after prefix in the
     * directory (sink_open_file), or a file in RAM of at most ram_limit bytes, 0 no limit
     * (sink_open_ram). Written, synced (sink_finish) and removed (sink_close) by the
     * sink. NULL with err set on failure. */
    sink_t *(*open_kept)(const target_spec_t *t, const char *prefix, const sink_options_t *opts,
                         uint64_t ram_limit, cp_err_t *err);
    /* Opens path, a file kept on the target, for reading, bypassing the page cache when
     * direct (sys_direct_open_flag). Returns the descriptor, or -1 with errno set (EINVAL:
     * the volume refuses direct reads). */
    int (*open_read)(const target_spec_t *t, const char *path, bool direct);
    /* CP_OK while the target is still on the volume v first inspected; CP_EIO naming it
     * once its directory was removed or its volume unmounted. */
    int (*still_there)(const target_spec_t *t, const volume_info_t *v, cp_err_t *err);
    /* True when the file at path lies on the target's volume v (device identity). */
    bool (*holds)(const target_spec_t *t, const volume_info_t *v, const char *path);
    /* Takes what keeps other chokepoint processes from measuring the target at once
     * (target_lock_all); CP_OK when the kind needs nothing. */
    int (*lock)(const target_spec_t *t, target_locks_t *locks, cp_err_t *err);
} target_ops_t;

/* The operations of t's kind. Never NULL. */
const target_ops_t *target_ops_for(const target_spec_t *t);

/* Where messages say t keeps its files: its kind's place ("memory"), else its name. */
const char *target_place(const target_spec_t *t);

/* What a kind's parse returns for a text that is not its own. */
#define TARGET_NOT_MINE 1

/* Offers text to every registered kind's parse: CP_OK with *out filled (or CP_EUSAGE)
 * from the kind that claims it; TARGET_NOT_MINE when none does, and the command line
 * reads it as [NAME=]DIR[@RATE]. */
int target_parse_kind(const char *text, target_spec_t *out, cp_err_t *err);

/* Writes into buf (cap bytes; truncated to fit) the form of every kind, in the registry's
 * order, joined by sep; the form of the kind given as [NAME=]DIR (its parse NULL) is
 * followed by dir_more. With ", or " and " with DIR a writable directory": "[NAME=]DIR[@RATE]
 * with DIR a writable directory, or mem"; with " or " and "": "[NAME=]DIR[@RATE] or mem".
 * Returns buf. */
const char *target_forms_text(char *buf, size_t cap, const char *sep, const char *dir_more);

/* Writes into buf (cap bytes; truncated to fit) a sentence for each kind given by a text
 * of its own (its parse set), in the registry's order, one space apart: its form in quotes
 * and what it is ("'mem' counts the output and discards it: the pure CPU ceiling.");
 * with volume_only, only the kinds with a volume. "" when no kind qualifies. Returns buf. */
const char *target_kinds_help(char *buf, size_t cap, bool volume_only);

/* The kinds' tables (target_dir.c, target_mem.c), listed in target.c's registry. */
extern const target_ops_t target_dir_ops;
extern const target_ops_t target_mem_ops;

/* For kinds whose target is a directory: checks it (target_check) and takes its lock
 * once per distinct directory (target_lock_all says how). */
int target_lock_directory(const target_spec_t *t, target_locks_t *locks, cp_err_t *err);

/* Checks each directory target (target_check) and takes its directory's lock
 * (DIRLOCK_TARGET_NAME, removed again on release) for as long as the command measures, so
 * two chokepoint processes never time one directory at once. A directory is locked once,
 * however many targets name it (by device and inode: two spellings of it are one) and
 * whatever locks already holds from an earlier call; mem needs none. When another process
 * holds one: CP_EUSAGE "target 'NAME' (DIR) is in use by another chokepoint process
 * (pid N); wait for it or choose another directory", and the locks this call took are
 * released (the earlier ones stay). Call it before anything is written or measured. */
int target_lock_all(const target_spec_t *targets, size_t n, target_locks_t *locks,
                    cp_err_t *err);

/* Releases every lock held in locks (their files removed) and frees them. Safe on
 * TARGET_LOCKS_INIT and twice. */
void target_unlock_all(target_locks_t *locks);

#endif
