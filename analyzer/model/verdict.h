/* verdict.h - what limits a job at one thread count.
 *
 * Ceilings are bytes of input per second. A ceiling that is not known is NAN. Pure
 * functions: no I/O, no allocation. */
#ifndef CP_MODEL_VERDICT_H
#define CP_MODEL_VERDICT_H

typedef enum verdict_kind {
    VERDICT_CPU,         /* within tolerance of the CPU ceiling */
    VERDICT_WRITE,       /* short of the CPU ceiling; the write ceiling is below it */
    VERDICT_READ,        /* short of the CPU ceiling; the read ceiling is below it */
    VERDICT_UNEXPLAINED, /* short of the CPU ceiling; no known ceiling accounts for it */
    VERDICT_BALANCED,    /* two terms of different kinds set the time within tolerance */
} verdict_kind_t;

/* "cpu-bound", "write-bound", "read-bound", "unexplained", "balanced". */
const char *verdict_name(verdict_kind_t kind);

/* The verdict for a measured rate against the CPU ceiling cpu_bps (required) and the
 * write and read ceilings (NAN when unknown): cpu-bound when measured >= (1 - tolerance)
 * * cpu; else the lower of the write/read ceilings that lies below cpu names it; else
 * unexplained. */
verdict_kind_t verdict_classify(double measured_bps, double cpu_bps, double write_bps,
                                double read_bps, double tolerance);

/* measured / min(cpu, write, read) over the known ceilings; NAN when none is known. */
double verdict_efficiency(double measured_bps, double cpu_bps, double write_bps,
                          double read_bps);

/* Write ceiling of a volume for a job: sustained write speed / (output / input bytes).
 * A ratio that is unknown (NAN) or not positive counts as 1. NAN when write_bps is. */
double verdict_write_ceiling(double sustained_write_bps, double output_ratio);

#endif
