/* cause.c - owns the choice of a verdict's cause from the figures a point carries, and
 * when the kernel's accounting disagrees with it (cause.h). */
#include "model/cause.h"

#include <math.h>

const char *cause_name(verdict_cause_t cause)
{
    switch (cause) {
    case CAUSE_COMPUTE: return "compute";
    case CAUSE_CORES_SATURATED: return "cores-saturated";
    case CAUSE_CPU_CONTENTION: return "cpu-contention";
    case CAUSE_FLUSH_TAIL: return "flush-tail";
    case CAUSE_WRITE_THROUGHPUT: return "write-throughput";
    case CAUSE_READ_THROUGHPUT: return "read-throughput";
    default: return "unknown";
    }
}

verdict_cause_t cause_of_term(wbm_term_t term)
{
    switch (term) {
    case TERM_COMPUTE: return CAUSE_COMPUTE;
    case TERM_IO_CPU: return CAUSE_CORES_SATURATED;
    case TERM_READ: return CAUSE_READ_THROUGHPUT;
    case TERM_WRITE: return CAUSE_WRITE_THROUGHPUT;
    case TERM_FLUSH: return CAUSE_FLUSH_TAIL;
    default: return CAUSE_UNKNOWN;
    }
}

verdict_kind_t cause_verdict(verdict_cause_t cause)
{
    switch (cause) {
    case CAUSE_COMPUTE:
    case CAUSE_CORES_SATURATED:
    case CAUSE_CPU_CONTENTION: return VERDICT_CPU;
    case CAUSE_FLUSH_TAIL:
    case CAUSE_WRITE_THROUGHPUT: return VERDICT_WRITE;
    case CAUSE_READ_THROUGHPUT: return VERDICT_READ;
    default: return VERDICT_UNEXPLAINED;
    }
}

double cause_gap_s(const cause_evidence_t *e)
{
    if (!(e->seconds > 0.0) || !(e->cpu_seconds > 0.0))
        return NAN;
    return fmax(0.0, e->seconds - e->cpu_seconds);
}

double cause_flush_share(const cause_evidence_t *e)
{
    double gap = cause_gap_s(e);
    if (!(gap > 0.0) || !(e->flush_s >= 0.0))
        return NAN;
    return e->flush_s / gap;
}

verdict_cause_t cause_classify(const cause_evidence_t *e, double tolerance)
{
    if (e->measured_bps >= (1.0 - tolerance) * e->cpu_ceiling_bps)
        return CAUSE_COMPUTE;
    if (cause_flush_share(e) >= 0.5)
        return CAUSE_FLUSH_TAIL;
    switch (verdict_classify(e->measured_bps, e->cpu_ceiling_bps, e->write_ceiling_bps,
                             e->read_ceiling_bps, tolerance)) {
    case VERDICT_WRITE: return CAUSE_WRITE_THROUGHPUT;
    case VERDICT_READ: return CAUSE_READ_THROUGHPUT;
    default: break;
    }
    if (e->cpu_idle_share < tolerance)
        return CAUSE_CORES_SATURATED;
    if (e->busy_growth > tolerance)
        return CAUSE_CPU_CONTENTION;
    return CAUSE_UNKNOWN;
}

bool cause_device_disagrees(verdict_cause_t cause, double dev_busy_share)
{
    if (isnan(dev_busy_share))
        return false;
    switch (cause_verdict(cause)) {
    case VERDICT_CPU: return dev_busy_share >= 0.95;
    case VERDICT_WRITE:
        return cause == CAUSE_WRITE_THROUGHPUT && dev_busy_share < 0.5;
    default: return false;
    }
}

bool cause_accounting_known(verdict_cause_t cause, const cause_evidence_t *e)
{
    switch (cause) {
    case CAUSE_WRITE_THROUGHPUT:
    case CAUSE_FLUSH_TAIL:
    case CAUSE_READ_THROUGHPUT: return !e->io_paced && !isnan(e->io_wait_s);
    case CAUSE_CORES_SATURATED: return !isnan(e->cpu_wait_s);
    default: return false;
    }
}

bool cause_accounting_disagrees(verdict_cause_t cause, const cause_evidence_t *e)
{
    double gap = cause_gap_s(e);
    if (!(gap > 0.0))
        return false;
    double reads = isnan(e->io_read_wait_s) ? e->io_wait_s : e->io_read_wait_s;
    double writes = isnan(e->io_read_wait_s) ? e->io_wait_s : e->io_wait_s - e->io_read_wait_s;
    switch (cause) {
    case CAUSE_WRITE_THROUGHPUT:
    case CAUSE_FLUSH_TAIL: return !e->io_paced && writes < gap / 4.0;
    case CAUSE_READ_THROUGHPUT: return !e->io_paced && reads < gap / 4.0;
    case CAUSE_CORES_SATURATED: return e->cpu_wait_s < gap / 10.0;
    default: return false;
    }
}

verdict_cause_t cause_witnessed(const cause_evidence_t *e, bool decompress, double gap_s)
{
    if (e->io_paced || isnan(e->io_wait_s) || !(gap_s > 0.0))
        return CAUSE_UNKNOWN;
    /* Without the reads told apart, the job's one direction on the volume has them all. */
    double reads = !isnan(e->io_read_wait_s) ? e->io_read_wait_s
                   : decompress              ? e->io_wait_s
                                             : 0.0;
    double writes = e->io_wait_s - reads;
    if (reads >= gap_s / 2.0)
        return CAUSE_READ_THROUGHPUT;
    if (writes >= gap_s / 2.0)
        return e->flush_s >= gap_s / 2.0 ? CAUSE_FLUSH_TAIL : CAUSE_WRITE_THROUGHPUT;
    return CAUSE_UNKNOWN;
}
