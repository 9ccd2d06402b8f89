/* cause.h - why a point got its verdict: the mechanism, and the figures it rests on.
 *
 * The verdict words stay four (cpu-bound, write-bound, read-bound, unexplained); the cause
 * says which physics produced them:
 *   compute           at the CPU ceiling                                    cpu-bound
 *   cores-saturated   short of it, but the cores had no idle time: the I/O
 *                     path's own CPU work (page-cache copies, file system,
 *                     block layer) took what the memory target did not pay  cpu-bound
 *   cpu-contention    the compressors needed more busy time than in memory  cpu-bound
 *   flush-tail        the output waited in the page cache and its final
 *                     flush accounts for at least half of the shortfall     write-bound
 *   write-throughput  the volume's write ceiling is below the CPU rate      write-bound
 *   read-throughput   the input volume's read ceiling is below it           read-bound
 *   unknown           none of these                                          unexplained
 * Pure functions: no I/O, no allocation. Unknown figures are NAN. */
#ifndef CP_MODEL_CAUSE_H
#define CP_MODEL_CAUSE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/writeback_model.h"
#include "model/verdict.h"

/* Why a point is unexplained (CAUSE_UNKNOWN), so the report can say what was checked. */
typedef enum cause_miss {
    MISS_NONE,          /* explained */
    MISS_MODEL,         /* measured more than the tolerance away from the model's time */
    MISS_BEYOND_VOLUME, /* wrote (fsync'd or O_DIRECT) faster than the volume can write */
    MISS_NO_FIGURE,     /* no model inputs, and no recorded figure accounts for the gap */
    MISS_UNPROBED,      /* beyond the model, or with no model beyond the ceiling, on a
                           volume whose speed was not measured, and the run's accounting
                           witnesses no blocked reads or writes */
} cause_miss_t;

/* The cause a model term names: compute, cores-saturated (io-cpu), read-throughput,
 * write-throughput, flush-tail. */
verdict_cause_t cause_of_term(wbm_term_t term);

/* "compute", "cores-saturated", "cpu-contention", "flush-tail", "write-throughput",
 * "read-throughput", "unknown". */
const char *cause_name(verdict_cause_t cause);

/* The verdict a cause implies. */
verdict_kind_t cause_verdict(verdict_cause_t cause);

/* What one point's cause rests on. */
typedef struct cause_evidence {
    double measured_bps, cpu_ceiling_bps;  /* input bytes per second (required) */
    double write_ceiling_bps, read_ceiling_bps;
    double seconds;          /* the measured median time */
    double cpu_seconds;      /* the same input at the CPU ceiling's rate */
    double flush_s;          /* the final flush (fsync + close) */
    double cpu_idle_share, cpu_sys_share; /* of all CPUs over the run */
    double dev_busy_share;   /* the target's device over the run */
    double busy_growth;      /* compressors' busy seconds / those in memory - 1 */
    /* The CPU time this point's runs spent in user space for the same work, over the
     * memory target's at the same thread count, - 1 (NAN unknown). The work is the same,
     * so a shift is the CPU's own speed moving between the runs (another load on its
     * core or its host, thermal limits, a slower core), not the volume. Known only below
     * one thread per online CPU, where the I/O path has a core of its own. */
    double cpu_time_shift;
    /* The kernel's accounting, summed over the run's threads (NAN unknown): waiting for a
     * core; blocked on I/O, and of it on reading the input (NAN: not split). io_paced:
     * the volume is an emulated cap (chokepoint's own pacing sleeps, not I/O), so the
     * I/O figures cannot witness a throughput cause. */
    double cpu_wait_s, io_wait_s, io_read_wait_s;
    bool io_paced;
    /* The model's decomposition of the point (model/writeback_model.h); predicted_s NAN
     * when the point has no prediction. */
    double predicted_s;
    double part_s[TERM_COUNT], own_s[TERM_COUNT];
    /* The runs in pairs: pairs is how many of the point's repetitions have memory's run of
     * the same repetition (same block of the sweep, so the same CPU speed); paired_s is
     * memory's median time plus the median of the pairs' differences, the point's time at
     * memory's CPU speed (NAN without pairs). The model is held to paired_s where there
     * are pairs, else to the median. */
    size_t pairs;
    double paired_s;
    /* How far the judged time may stand from the prediction beyond the tolerance. With
     * pairs: half the range of the middle differences (without the largest and smallest
     * of five or more). Without: half the spread of the point's repetitions plus half of
     * the memory target's (0 for single runs), plus the compute term's share of a CPU
     * time shift (|cpu_time_shift| x the memory target's time). A miss past tolerance x
     * predicted + noise_s is unexplained. */
    double noise_s;
} cause_evidence_t;

/* The shortfall's seconds (seconds - cpu_seconds, at least 0) and the flush's share of
 * it (NAN when either is unknown or there is no shortfall). */
double cause_gap_s(const cause_evidence_t *e);
double cause_flush_share(const cause_evidence_t *e);

/* Classifies one point without a model prediction (no volume speed known), checking in
 * order: compute (measured >= (1 - tolerance) x CPU
 * ceiling); flush-tail (flush >= half the shortfall); read- or write-throughput (the
 * lower volume ceiling below the CPU ceiling); cores-saturated (idle share below the
 * tolerance); cpu-contention (busy growth above the tolerance); else unknown. */
verdict_cause_t cause_classify(const cause_evidence_t *e, double tolerance);

/* True when the device's busy share contradicts the cause: a throughput cause on a device
 * busy less than half the run, or a CPU cause on a device busy at least 95% of it. False
 * when the busy share is unknown. */
bool cause_device_disagrees(verdict_cause_t cause, double dev_busy_share);

/* True when the run's own figures can witness the cause: its I/O waits for a throughput
 * or flush cause on a volume that is not paced by an emulated cap, its waits for a core
 * for saturated cores. The device's busy share is then not used as a witness: a device
 * behind a block throttle, a loop device or a network share can be idle while the run's
 * writes wait. */
bool cause_accounting_known(verdict_cause_t cause, const cause_evidence_t *e);

/* True when the kernel's accounting contradicts the cause (docs/method.md, "Where the
 * time went"): a write cause (write throughput, flush tail) whose threads were blocked on
 * writes for under a quarter of the gap to the CPU ceiling, a read cause blocked on reads
 * under a quarter of it, or saturated cores whose threads waited for a core under a tenth
 * of it. False when the figure or the gap is unknown, or the I/O is paced (io_paced). */
bool cause_accounting_disagrees(verdict_cause_t cause, const cause_evidence_t *e);

/* The cause the run's own accounting witnesses for gap_s seconds beyond the model on a
 * volume of unknown speed: its threads blocked reading (or writing) for at least half the
 * gap; the flush tail where the final flush alone takes that long. CAUSE_UNKNOWN when the
 * accounting is off, paced, or shows less. Where reads are not told apart, the blocked
 * time goes to the job's one direction on the volume (reads for a decompression), not to
 * both as cause_accounting_disagrees counts it: a witness names a cause only on evidence,
 * a contradiction only on its absence. */
verdict_cause_t cause_witnessed(const cause_evidence_t *e, bool decompress, double gap_s);

#endif
