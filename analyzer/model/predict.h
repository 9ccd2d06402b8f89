/* predict.h - how long a compression run takes on a volume, from how the kernel moves its
 * output: the CPU time of the job (its time into memory), the volume's drain rate, the
 * sync mode and the page cache's write-back thresholds.
 *
 * Three regimes (docs/method.md derives them):
 * - overlapped: the writes bypass the cache (O_DIRECT) or the cache holds almost none of
 *   the output, so the disk works while the cores compress: t = max(cpu, out / drain).
 * - serial: the cache holds the whole output until the final fsync, so the disk works
 *   after the cores: t = cpu + out / drain.
 * - mixed: the cache holds B bytes (the background threshold, or what the dirty-expiry
 *   age lets pile up); background write-back starts once B is dirty, at cpu * B / out,
 *   and the disk then writes without pause: t = max(cpu + B / drain, cpu * B / out +
 *   out / drain). B = out gives the serial sum, B = 0 the overlapped maximum.
 * The I/O path costs CPU too (page-cache copies, file system, block layer): when the job's
 * own CPU work W plus the volume's I/O work (out x its CPU seconds per byte) exceeds what
 * the cores offer in the job's time, the cores' part becomes (W + I) / cores.
 * An emulated rate cap (TARGET@RATE) paces the writes during the run, so the cores'
 * part becomes max(cpu, out / cap) before the page cache's part begins.
 * Pure functions: no I/O, no allocation. Unknown inputs are NAN. */
#ifndef CP_MODEL_PREDICT_H
#define CP_MODEL_PREDICT_H

typedef enum predict_sync {
    PREDICT_SYNC_FSYNC,  /* buffered writes, fsync at the end (the default timing) */
    PREDICT_SYNC_DIRECT, /* O_DIRECT: no page cache */
    PREDICT_SYNC_NONE,   /* buffered writes, no fsync: the run ends with the last write */
} predict_sync_t;

/* Parses a runs.csv sync value ("fsync", "direct", "none"); "" or anything else reads as
 * fsync, the default timing. */
predict_sync_t predict_sync_from_name(const char *name);

typedef enum predict_regime {
    PREDICT_UNKNOWN,    /* a required input was unknown: no prediction */
    PREDICT_CPU_ONLY,   /* nothing to write (memory target, or a RAM volume) */
    PREDICT_READ,       /* nothing to write, and reading the input takes longer than the
                           CPU work (a decompression restoring to memory) */
    PREDICT_OVERLAPPED,
    PREDICT_SERIAL,
    PREDICT_MIXED,
} predict_regime_t;

/* "unknown", "cpu-only", "read", "overlapped", "serial", "mixed". */
const char *predict_regime_name(predict_regime_t regime);

typedef struct predict_inputs {
    double input_bytes, output_bytes;
    double cpu_s;          /* the same job at the same T into memory (required) */
    double cpu_work_s;     /* that run's CPU seconds (user + system); NAN: unknown */
    double io_cpu_per_byte; /* the volume's system CPU seconds per byte written; NAN */
    double cpus;           /* CPUs online; NAN: unknown */
    double read_bps;       /* the input volume's cold read speed; NAN: reading is free */
    double drain_bps;      /* the volume's write speed with the cache out of the way;
                              INFINITY for RAM; NAN: unknown (no prediction) */
    double pace_bps;       /* an emulated write cap paces the writes themselves; NAN: none */
    predict_sync_t sync;
    double dirty_background_bytes, dirty_bytes; /* NAN: unknown (taken as overlapped: a
                                                   table from elsewhere rarely says) */
    double dirty_expire_s; /* NAN: unknown (no age limit) */
    double dirty_writeback_s; /* the flusher's wake-up interval; NAN: unknown (none) */
} predict_inputs_t;

typedef struct prediction {
    predict_regime_t regime;
    double seconds;        /* predicted wall time; NAN when regime is PREDICT_UNKNOWN */
    double compute_s;      /* the cores' part: max(cpu, input / read) */
    double tail_s;         /* predicted seconds after the last output byte (the flush) */
    double cached_bytes;   /* B: output the cache holds before write-back starts */
} prediction_t;

/* Predicts one run. */
prediction_t predict_run(const predict_inputs_t *in);

/* The drain rate a volume would need for the run to take seconds (the inverse of
 * predict_run in drain_bps); NAN when no drain rate reaches it (e.g. below the compute
 * time, or for the serial regime when seconds <= compute_s). */
double predict_drain_for_seconds(const predict_inputs_t *in, double seconds);

#endif
