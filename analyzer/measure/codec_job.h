/* codec_job.h - one measured run of a built-in codec from an input file to a sink: a
 * compression, what `chokepoint compress` does once and `sweep` does for every target x
 * codec x threads x repetition; or, with pipeline.frames (blocks engine) or
 * pipeline.decompress (native) set, a decompression of an archive (measure/archive.h).
 * Owns the output's life cycle: temporary file, timing, optional verification, then
 * rename into place (compress) or removal (sweep). */
#ifndef CP_CODEC_JOB_H
#define CP_CODEC_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/err.h"
#include "measure/pipeline.h"
#include "measure/sink.h"
#include "measure/target.h"

typedef struct codec_job {
    const char *input_path;
    /* Exactly one destination: */
    const char *output_path; /* keep the output here (renamed into place on success) */
    /* write the output to the sink the target opens (its ops' open_output: a temporary
     * file in its directory, or counted and discarded), then remove it */
    const target_spec_t *target;
    bool discard; /* memory sink: count and discard (a restore into memory, -o /dev/null) */

    const char *volume_label; /* names the output volume in messages (may be NULL) */
    double rate_cap_bps;      /* emulated write cap, 0 = none */
    pipeline_params_t pipeline;
    sync_mode_t sync;
    bool verify;              /* decompress and compare hashes after timing (file outputs;
                                 compression only) */
    bool force;               /* replace an existing output_path */
    /* A native decompression (pipeline.decompress, no frame table): the size the archive
     * restores to, for the free-space check and the result's (another size fails the
     * run); 0: unknown. The blocks engine takes it from its frames. */
    uint64_t restores_bytes;
} codec_job_t;

/* Bytes are counted on the uncompressed side whichever way the run went: run.input_bytes
 * is the input compressed or the bytes restored, run.output_bytes the compressed output or
 * the archive read, and bytes_per_s is uncompressed bytes per second. */
typedef struct compress_record {
    char codec[32];           /* "zstd:3" */
    bool decompress;          /* a decompression: the archive restored */
    bool command;             /* the user's command ran (command_job): it has no pipeline
                                 stages or memory estimate, whose columns stay empty */
    pipeline_engine_t engine;
    int threads;
    sync_mode_t sync;         /* as used (fsync after a refused direct) */
    bool sync_fell_back;      /* direct was asked for and refused */
    bool warm;
    bool discarded;           /* output went to memory */
    double rate_cap_bps;
    pipeline_result_t run;    /* bytes, seconds, block size, stage accounting */
    double bytes_per_s;       /* uncompressed bytes per second */
    double cpu_user_s, cpu_sys_s;
    uint64_t max_rss_bytes;   /* peak RSS of the process so far */
    uint64_t mem_estimate_bytes; /* what measure/memest.h expected the run to need */
    double throttle_s;        /* seconds spent in the emulated caps (writes and reads) */
    double replaced_s;        /* after the clock: seconds removing the output it replaced */
    int verified;             /* 1 match, 0 mismatch, -1 not checked */
} compress_record_t;

/* A job with pipeline_defaults(), fsync, no destination set. */
codec_job_t codec_job_defaults(void);

/* Checks the input is an existing, readable regular file; CP_EUSAGE naming it otherwise.
 * Sets *size to its size. */
int compress_check_input(const char *path, uint64_t *size, cp_err_t *err);

/* Checks that the volume holding dir (named label in messages) has room for input_size
 * bytes with its margin (sys_space_fits). When a run writes them whole, `whole` names
 * what ("copy", "restored file") and a shortfall is CP_ENOSPC; NULL (a compressed output,
 * smaller) makes it a warning. CP_OK when it fits or the free space is unknown. */
int compress_check_space(const char *dir, const char *label, uint64_t input_size,
                         const char *whole, cp_err_t *err);

/* compress_check_space on a free space already read: space NULL or its total_bytes 0
 * means unknown (CP_OK). */
int compress_check_room(const sys_space_t *space, const char *label, uint64_t input_size,
                        const char *whole, cp_err_t *err);

/* Turns a finished run's counts (bytes read in, bytes handed on) into the record's: for a
 * decompression the restored bytes become run.input_bytes and the archive
 * run.output_bytes; then bytes_per_s = run.input_bytes / run.seconds (left as it is when
 * no time was measured). codec_job and command_job call it once per run. */
void compress_record_count_uncompressed(compress_record_t *rec);

/* Runs the job and fills rec. Usage faults (bad input, existing output without force) are
 * CP_EUSAGE before anything is written; run-time faults CP_EIO/CP_ENOSPC/...; a verified
 * mismatch CP_EVERIFY. On any failure no output file remains. */
int codec_job_run(const codec_job_t *job, compress_record_t *rec, cp_err_t *err);

#endif
