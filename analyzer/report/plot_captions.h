/* plot_captions.h - the words of the plots: key titles and labels for the data files,
 * and the one-sentence caption under each plot in report.md.
 *
 * Pure string functions: each reads the analysis, the probe table or plain numbers and
 * formats into the caller's buffer (buf, cap bytes; always NUL-terminated when cap > 0,
 * cut short when it does not fit). No I/O. multi_codec is true when the plotted series
 * differ in codec: names then carry the codec. */
#ifndef CP_REPORT_PLOT_CAPTIONS_H
#define CP_REPORT_PLOT_CAPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/analysis.h"
#include "model/probe_speeds.h"

/* ---- titles and labels ---- */

/* A series' key title: "usb", "usb zstd:3" with multi_codec, plus a tag: " (CPU only)"
 * for mem, " (emulated 100 MB/s)" with a known cap, " (emulated)", or " (RAM)".
 * Returns buf. */
const char *plot_series_title(const analysis_series_t *s, bool multi_codec, char *buf,
                              size_t cap);

/* A series as captions name it: "usb", or "usb (zstd:3)" with multi_codec. Returns buf. */
const char *plot_series_name(const analysis_series_t *s, bool multi_codec, char *buf,
                             size_t cap);

/* A probe target's key title: "ssd", "ssd (emulated)" when emulated == 1, else
 * "ssd (RAM)" when ram == 1. Returns buf. */
const char *plot_target_title(const char *target, int emulated, int ram, char *buf,
                              size_t cap);

/* How the points were measured, as far as the runs tell: "one run per point", "median of
 * 3 runs" or "median of 3-5 runs", with ", bars min to max" when the plot draws those bars
 * (bars), then ", fsync'd", ", O_DIRECT" or ", not fsync'd" when every non-mem series used
 * that sync mode. */
void plot_measured_text(const analysis_t *a, bool bars, char *buf, size_t cap);

/* What a power-law exponent b means: "doubling threads cuts time by 50%", or "doubling
 * threads adds 7% to the time" when b < 0. */
void plot_doubling_text(double b, char *buf, size_t cap);

/* A USL fit's short key label: "USL, peaks at T = 12", "USL, no peak" (no peak below
 * ANALYSIS_CROSSOVER_MAX_THREADS), or "" when not fitted. */
void plot_usl_label(const fit_result_t *usl, char *buf, size_t cap);

/* A CPU ceiling's key title: "CPU rate (mem target)" or "CPU rate (estimated: fastest
 * target)", with the codec after "CPU rate" when multi_codec. */
void plot_cpu_title(const analysis_ceiling_t *ce, bool multi_codec, char *buf, size_t cap);

/* A volume ceiling's key title: "read ceiling 400 MB/s (from ssd)" when read ("(from ssd,
 * emulated 60.0 MB/s read cap)" when probe, which may be NULL, has ssd's reads paced by
 * an emulated cap), else "usb write ceiling 710 MB/s (ratio 0.35)" (no ratio when
 * unknown); ", above the plot" appended when above. bps is the ceiling drawn. */
void plot_ceiling_title(const analysis_series_t *s, bool multi_codec, bool read, double bps,
                        bool above, const probe_table_t *probe, char *buf, size_t cap);

/* What takes over at s's crossover, in words: the term that sets the time there
 * ("writing's CPU work", "the disk's flush", "the disk writing", "reading the input"),
 * or the volume's own term where it is balanced with the compute term. */
const char *plot_crossover_term_words(const analysis_series_t *s);

/* A crossover point's label: "usb: the disk's flush from T = 2.5". */
void plot_crossover_label(const analysis_series_t *s, bool multi_codec, char *buf,
                          size_t cap);

/* One clause of the bottleneck caption, without a final period: name (its kind, "write"
 * or "read", ceiling of limit_bps) starts to limit the job at crossover_threads, where
 * the model first names the volume ("..., so from 3 threads on the volume sets the time",
 * the first whole thread count past the crossing; who, when not NULL, in the volume's
 * place: "writing's CPU work"); when crossover_threads is not finite,
 * the ceiling "never limits the job up to 1024 threads" if has_model, else the CPU rate
 * "has no model to meet it". The thread counts measured were lo..hi: a crossing past hi is said to be
 * extrapolated, one past ANALYSIS_EXTRAPOLATION_REACH x hi "not within reach of the
 * measured range", without a thread count. */
void plot_crossover_text(const char *name, const char *kind, double limit_bps,
                         double crossover_threads, bool has_model, int lo, int hi,
                         const char *who, char *buf, size_t cap);

/* ---- captions: one sentence of reading per plot ----
 * plot_render asks for them through each plot's row in the registry (plot_kinds.h),
 * whose caption function calls the one here with what the plot data hold. */

/* time_vs_threads: the best and worst scaling power laws. */
void plot_caption_time(const analysis_t *a, bool multi_codec, char *buf, size_t cap);

/* rate_vs_threads: the first CPU ceiling's linear gain per thread and its USL peak. */
void plot_caption_rate(const analysis_t *a, bool multi_codec, char *buf, size_t cap);

/* bottleneck: up to three series by earliest crossover (plot_crossover_text each), then
 * how many more the plot shows. */
void plot_caption_bottleneck(const analysis_t *a, bool multi_codec, char *buf, size_t cap);

/* probe: write and read speeds at the largest file size of up to four of the n targets
 * (names as in p), each followed by " (emulated 60.0 MB/s read cap)" (or write cap) when
 * the rows behind it were paced by an emulated cap; a write speed other than the measured
 * drain rate is followed by that drain as the verdict tables name it ("volume writes"). */
void plot_caption_probe(const probe_table_t *p, const char *const *targets, size_t n,
                        char *buf, size_t cap);

/* probe_sustained: the range and median of the sustained rates of up to three targets. */
void plot_caption_sustained(const probe_table_t *p, const char *const *targets, size_t n,
                            char *buf, size_t cap);

/* rate_vs_write: up to four series' rates at their largest thread count against their
 * volume's write speed, and the CPU ceiling when they share one thread count. */
void plot_caption_rate_vs_write(const analysis_t *a, bool multi_codec, char *buf,
                                size_t cap);

/* time_split: what a bar is, and for each series (up to four) how much of its largest
 * thread count's time the job waited for writes, for reads and for the codec along its
 * critical path (analysis_path_split). */
void plot_caption_time_split(const analysis_t *a, char *buf, size_t cap);

#endif
