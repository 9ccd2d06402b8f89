/* sink.h - where output bytes go: a file on a target volume, or memory (counted and
 * discarded). Either may be paced by an emulated rate cap (TARGET@RATE).
 *
 * A file sink always writes a fresh temporary file (common/tempfile.h) created with
 * O_EXCL|O_NOFOLLOW in the chosen directory and registered for removal on interrupt.
 * sink_commit renames it into place; sink_close removes it unless it was committed. So a
 * failed or interrupted run leaves nothing behind and never damages an existing file. One
 * thread uses a sink. */
#ifndef CP_SINK_H
#define CP_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"

typedef enum sync_mode {
    SYNC_FSYNC,  /* buffered writes, fsync before close (the default) */
    SYNC_DIRECT, /* O_DIRECT with aligned buffers, fsync before close */
    SYNC_NONE,   /* buffered writes, no fsync: what the page cache accepts */
} sync_mode_t;

/* "fsync", "direct" or "none". */
const char *sync_mode_name(sync_mode_t mode);

/* Parses "fsync|direct|none"; CP_EUSAGE naming the text otherwise. */
int sync_mode_parse(const char *text, sync_mode_t *out, cp_err_t *err);

typedef struct sink_options {
    sync_mode_t sync;
    double rate_cap_bps; /* emulated write-rate cap; 0 = none */
    const char *volume_label; /* names the volume in error messages (may be NULL) */
} sink_options_t;

typedef struct sink sink_t;

/* Opens a sink on a new temporary file in dir, named "<prefix>.<pid>-<n>.chokepoint-tmp".
 * For SYNC_DIRECT, when the filesystem refuses O_DIRECT the sink falls back to SYNC_FSYNC
 * (see sink_effective_sync) and logs a warning. Returns NULL with err set on failure. */
sink_t *sink_open_file(const char *dir, const char *prefix, const sink_options_t *opts,
                       cp_err_t *err);

/* Opens a sink that counts bytes and discards them (the CPU ceiling). Never fails except
 * for memory (NULL, err set). */
sink_t *sink_open_mem(const sink_options_t *opts, cp_err_t *err);

/* Opens a sink on an anonymous file in RAM (memfd): the bytes are kept, readable at
 * sink_temp_path ("/proc/PID/fd/N", so a child process can open it too) until
 * sink_close frees them. Nothing is synced. Holds
 * what a memory target must keep (a decompression's archive). Bytes past limit_bytes (0: no
 * limit) are counted but not kept, instead of exhausting the machine, and sink_finish then
 * fails with CP_ENOMEM; sink_bytes says how much the whole file needed. NULL with err set
 * on failure. */
sink_t *sink_open_ram(const char *name, const sink_options_t *opts, uint64_t limit_bytes,
                      cp_err_t *err);

/* True when a RAM file sink passed its limit (its writes since were counted, not kept). */
bool sink_limit_reached(const sink_t *s);

/* A memory sink that also keeps an XXH3-64 of the bytes (sink_hash): checks what a
 * decoder restores. NULL with err set when out of memory. */
sink_t *sink_open_mem_hashing(const sink_options_t *opts, cp_err_t *err);

/* A hashing memory sink's XXH3-64 of every byte written so far; 0 for other sinks. */
uint64_t sink_hash(const sink_t *s);

/* Writes all len bytes (pacing first when capped). CP_ENOSPC/CP_EIO with a message naming
 * the volume on failure, CP_EINTR when an interrupt arrived while waiting in the rate cap;
 * the sink is then only good for sink_close. */
int sink_write(sink_t *s, const void *buf, size_t len, cp_err_t *err);

/* Flushes what is buffered, fsyncs as the sync mode says, and closes the file. The end of
 * the timed region. */
int sink_finish(sink_t *s, cp_err_t *err);

/* After sink_finish: renames the temporary file to final_path. Unless replace is true an
 * existing final_path is left alone and CP_EUSAGE returned. The directory is fsynced. */
int sink_commit(sink_t *s, const char *final_path, bool replace, cp_err_t *err);

/* Marks a file sink's temporary file as results worth keeping: if the process is killed by
 * a second SIGINT/SIGTERM before sink_commit, the file is linked to final_path instead of
 * being deleted. No effect on memory sinks. */
void sink_keep_on_interrupt(sink_t *s, const char *final_path);

/* Closes the sink, removes its temporary file unless committed, frees it. NULL is fine. */
void sink_close(sink_t *s);

/* The temporary file's path (valid until sink_close), or NULL for a memory sink. */
const char *sink_temp_path(const sink_t *s);

/* Bytes accepted by sink_write so far. */
uint64_t sink_bytes(const sink_t *s);

/* The sync mode actually used (SYNC_FSYNC after a refused SYNC_DIRECT). */
sync_mode_t sink_effective_sync(const sink_t *s);

/* Seconds spent waiting in the emulated rate cap. */
double sink_throttle_seconds(const sink_t *s);

/* After a sink_commit that replaced an existing file: the seconds removing the old one
 * (tempfile_commit's replaced_s); else 0. */
double sink_replaced_seconds(const sink_t *s);

#endif
