/* writeback_model.h - the write-back model (prefix wbm_): how long a compression run takes
 * on a volume, from how the kernel moves its output: the CPU time of the job (its time
 * into memory), the volume's drain rate, the sync mode and the page cache's write-back
 * thresholds.
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
 * Writes that overlap the compression (O_DIRECT, a cap) start only once the first block
 * is compressed (the pipeline's fill, max(cores, read) x min(1, T x block / input)), and
 * the last block's output is written after the cores finish.
 * Pure functions: no I/O, no allocation. Unknown inputs are NAN. */
#ifndef CP_MODEL_WRITEBACK_MODEL_H
#define CP_MODEL_WRITEBACK_MODEL_H

typedef enum wbm_sync {
    WBM_SYNC_FSYNC,  /* buffered writes, fsync at the end (the default timing) */
    WBM_SYNC_DIRECT, /* O_DIRECT: no page cache */
    WBM_SYNC_NONE,   /* buffered writes, no fsync: the run ends with the last write */
} wbm_sync_t;

/* Parses a runs.csv sync value ("fsync", "direct", "none"); "" or anything else reads as
 * fsync, the default timing. */
wbm_sync_t wbm_sync_from_name(const char *name);

typedef enum wbm_regime {
    WBM_UNKNOWN,    /* a required input was unknown: no prediction */
    WBM_CPU_ONLY,   /* nothing to write (memory target, or a RAM volume) */
    WBM_READ,       /* nothing to write, and reading the input takes longer than the
                       CPU work (a decompression restoring to memory) */
    WBM_OVERLAPPED,
    WBM_SERIAL,
    WBM_MIXED,
} wbm_regime_t;

/* "unknown", "cpu-only", "read", "overlapped", "serial", "mixed". */
const char *wbm_regime_name(wbm_regime_t regime);

typedef struct wbm_inputs {
    double input_bytes, output_bytes;
    double cpu_s;          /* the same job at the same T into memory (required) */
    double cpu_work_s;     /* that run's CPU seconds (user + system); NAN: unknown */
    double io_cpu_per_byte; /* the volume's system CPU seconds per byte written; NAN */
    double cpus;           /* CPUs online; NAN: unknown */
    double read_bps;       /* the input volume's cold read speed; NAN: reading is free */
    double drain_bps;      /* the volume's write speed with the cache out of the way;
                              INFINITY for RAM; NAN: unknown (no prediction) */
    double pace_bps;       /* an emulated write cap paces the writes themselves; NAN: none */
    wbm_sync_t sync;
    double dirty_background_bytes, dirty_bytes; /* NAN: unknown (taken as overlapped: a
                                                   table from elsewhere rarely says) */
    double dirty_expire_s; /* NAN: unknown (no age limit) */
    double dirty_writeback_s; /* the flusher's wake-up interval; NAN: unknown (none) */
    /* The pipeline: T compressors take blocks of block_bytes of input, so the first
     * output exists only once a block is compressed (fill), and the last block's output
     * is written after the cores finish. NAN: unknown (no fill, no last block). */
    double threads, block_bytes;
} wbm_inputs_t;

/* The terms of the decomposition, each a mechanism that can set a run's time. */
typedef enum wbm_term {
    TERM_COMPUTE, /* the cores compressing: the memory target's time at this T */
    TERM_IO_CPU,  /* the I/O path's own CPU work (page-cache copies, file system, block
                     layer) on cores the compressors already fill */
    TERM_READ,    /* reading the input (a decompression: the archive) from its volume */
    TERM_WRITE,   /* the disk writing while the cores work: O_DIRECT, write-back during
                     the run, an emulated cap pacing the writes */
    TERM_FLUSH,   /* the flush tail: what the page cache still holds at the fsync */
    TERM_COUNT
} wbm_term_t;

/* "compute", "io-cpu", "read", "write", "flush". */
const char *wbm_term_name(wbm_term_t term);

typedef struct prediction {
    wbm_regime_t regime;
    double seconds;        /* predicted wall time; NAN when regime is WBM_UNKNOWN */
    double compute_s;      /* the cores' part before the flush: max(cpu, cores with the
                              I/O path's work, input / read, output / pace) */
    double tail_s;         /* predicted seconds after the last output byte (the flush) */
    double cached_bytes;   /* B: output the cache holds before write-back starts */
    /* The decomposition. part_s sums to seconds: the memory target's time, then what
     * each other term adds on top of it (0 when it adds nothing). own_s is each term's
     * own time, had it alone set the run's: compute the cpu time, io-cpu the cores' time
     * with the I/O path's work, read input / read speed, write the disk's busy time when
     * it writes during the run, or the paced writes' time (0 when nothing is written
     * before the fsync), flush the tail. */
    double part_s[TERM_COUNT];
    double own_s[TERM_COUNT];
} prediction_t;

/* Predicts one run. */
prediction_t wbm_predict(const wbm_inputs_t *in);

/* What sets a predicted time, with tolerance tol (0.10). At CPU speed (seconds <=
 * compute / (1 - tol)) the limit is TERM_COMPUTE, balanced with a read or an overlapped
 * write whose own time is within tol of the run's. Held back: the cores (with the I/O
 * path's work), reading and overlapped writing run side by side, and the longest of them
 * by its own time leads; the limit is that leader, or TERM_FLUSH when the flush adds more
 * than the side-by-side group does. Balanced, with *second the other term, when a term of
 * another kind (CPU: compute, io-cpu; read; write: write, flush) comes within tol of the
 * limit: a side-by-side term by its own time, the flush and the group by what they add.
 * *second is TERM_COUNT when not balanced. TERM_COUNT when the prediction is unknown. */
wbm_term_t wbm_decide(const prediction_t *p, double tol, wbm_term_t *second);

/* Which speed wbm_speed_for_seconds varies. */
typedef enum wbm_speed {
    WBM_SPEED_DRAIN, /* drain_bps: the volume's device */
    WBM_SPEED_PACE,  /* pace_bps: an emulated write cap */
    WBM_SPEED_READ,  /* read_bps: the input's volume */
} wbm_speed_t;

/* The smallest speed (bytes per second) of the given kind at which the run takes at most
 * seconds, the other inputs as given; NAN when no speed reaches it (the other terms alone
 * take longer) or the prediction is unknown. Bisection on the logarithm of the speed. */
double wbm_speed_for_seconds(const wbm_inputs_t *in, wbm_speed_t which,
                             double seconds);

#endif
