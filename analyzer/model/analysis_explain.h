/* analysis_explain.h - the part of the analysis that explains a point: the write-back
 * model's prediction and the cause of the verdict. Called by analysis.c for each point,
 * after the ceilings are known, and by predict.c, which asks the same questions of a
 * volume the study did not run on; outside model/, the reports read its answers
 * (explain_writeback_unknown for the interval's words, explain_model_rate_at for the
 * bottleneck plot's model curve) and change nothing. */
#ifndef CP_MODEL_ANALYSIS_EXPLAIN_H
#define CP_MODEL_ANALYSIS_EXPLAIN_H

#include "model/analysis.h"

/* Chooses the series' drain rate (probe drain, else probe write speed; INFINITY for RAM)
 * and sets drain_bps and drain_source. */
void explain_series_drain(analysis_series_t *s, const probe_table_t *probe);

/* The write speed behind the series' write ceiling: the drain rate when the probe measured
 * it (the probe's fsync'd write speed otherwise, and for RAM), never above an emulated
 * cap. NAN when the probe did not measure the volume. */
double explain_write_speed(const analysis_series_t *s);

/* True when point p of s was written through the page cache (not O_DIRECT, not "none")
 * with none of the page cache's thresholds known: a table from another tool or system,
 * which says nothing of when the writes reached the disk. Its model is an interval. */
bool explain_writeback_unknown(const analysis_series_t *s, const analysis_point_t *p);

/* The late end of p's interval at CPU rate cpu_bps: where the context is unknown, the page
 * cache holding the whole output to the fsync; where the run outlasts the flusher's
 * period, write-back not started at its wake-up (which needs this device's share of the
 * background threshold passed, a share set by every device's recent writes). NAN when p
 * has no interval: its prediction is a point. */
double explain_late_seconds(const analysis_series_t *s, const analysis_point_t *p,
                            double cpu_bps);

/* Predicts point p of series s and stores the prediction in p, from the CPU ceiling
 * cpu_bps (input bytes per second) and p->mem_cpu_work_s (for the I/O path's share of
 * the cores). Nothing for the mem series. */
void explain_predict_point(const analysis_series_t *s, analysis_point_t *p, double cpu_bps);

/* The model's prediction of point p of series s at CPU rate cpu_bps (input bytes per
 * second), with p->mem_cpu_work_s: the decomposition behind the verdict, from the same
 * inputs as explain_predict_point. Where the write-back context is unknown, the end of
 * the interval nearer p's measured time (the overlapped end when p has none). */
prediction_t explain_point_prediction(const analysis_series_t *s, const analysis_point_t *p,
                                      double cpu_bps);

/* True when point p wrote (output, or a restore's bytes) faster than (1 + margin) x the
 * volume's write speed, with timing that waited for the disk (fsync or O_DIRECT): the
 * volume cannot do that, so a figure behind it is wrong. */
bool explain_wrote_beyond_volume(const analysis_series_t *s, const analysis_point_t *p,
                                 double margin);


/* Fills v's cause, evidence and disagreement for point p of s, with mem_point the mem
 * series' point at the same T (NULL when there is none), and sets v->verdict. With a
 * prediction (p predicted), the model decides (wbm_decide): the term that sets the
 * time is the cause, balanced with a second term; a point the prediction misses by more
 * than the tolerance, or that wrote faster than the volume can, is unexplained. Without
 * one, the ceilings and telemetry do (cause_classify). v's ceilings and bytes_per_s must
 * be set. */
void explain_verdict(const analysis_series_t *s, const analysis_point_t *p,
                     const analysis_point_t *mem_point, analysis_verdict_t *v, double tolerance);

/* The series' prediction errors and noisy-point count (after every point is predicted). */
void explain_series_errors(analysis_series_t *s, double *scratch);

/* The what-if at the series' largest T (see analysis_series_t): the same model with the
 * same inputs, asked which write (or read) speed brings the job within the tolerance of
 * the compute term; only for a point the model explains with a volume term. */
void explain_whatif(analysis_series_t *s, const analysis_verdict_t *last, double tolerance);

/* The crossover: the smallest T at which the model, along the CPU ceiling's fitted curve
 * (its best rate model; none: no crossover) held to its measured rates
 * (analysis_ceiling_rate_held), names a volume term (alone or balanced), with its band
 * under the curve moved by one standard error; NAN when never. */
void explain_crossover(analysis_series_t *s, const analysis_ceiling_t *ceiling,
                       double tolerance);

/* The model's rate (input bytes per second) for series s at a real thread count, along
 * the CPU ceiling's best rate model held to its measured rates, from the crossover's
 * inputs (the largest measured point's bytes and thresholds), and in *lead the term that
 * sets the time there (TERM_COUNT when none): the curve the crossover lies on, so at
 * s->crossover_threads it is s->crossover_rate_bps. NAN without a model or a prediction. */
double explain_model_rate_at(const analysis_series_t *s, const analysis_ceiling_t *ceiling,
                             double tolerance, double threads, wbm_term_t *lead);

#endif
