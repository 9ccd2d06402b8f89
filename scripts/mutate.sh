#!/usr/bin/env bash
# Mutation testing of the model and the verdict: a fixed list of small, deliberate defects
# (a comparison flipped, a term dropped, a tolerance changed, two causes swapped, the
# flush moved into the overlap, pairing turned off...), each applied alone to a scratch
# copy of the tree, built, and run against the quick suite. A mutant is killed when a
# test of the quick suite fails (or hangs past its timeout); one that passes every test
# survived, and is a missing test. Prints a Markdown table (id, file, change, killed or
# survived, by which test) and exits 1 when a mutant survived or the script itself could
# not do its work (a mutation that no longer applies exactly once, a mutant that does not
# compile, a quick suite that fails on the unchanged tree).
#   scripts/mutate.sh            every mutation
#   scripts/mutate.sh ID...      only these (e.g. wbm-serial-overlap stats-median-even)
#   scripts/mutate.sh --list     the mutations, nothing built
# The working tree is never changed: the copy is made in a temporary directory from the
# tree's files as they are (committed or not), removed at the end. Builds one at a time,
# with JOBS (default 2) jobs, through ccache when it is installed.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-2}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}

# ---- the quick suite --------------------------------------------------------------------
# Unit tests: every tests/unit program except those that time a sleeping token bucket or
# hold a process's memory (throttle, pipeline): those measure, they do not judge the model.
# CLI tests: the fast ones that judge the model's output on fixed data (the reference
# study, hand-made runs.csv and probe.csv), in seconds each; no lab, no root, no timing.
QUICK_UNIT_EXCLUDE="test_throttle test_pipeline"
QUICK_CLI="analyze report predict compare history plot plurals probe_regimes advice newcomer"

# ---- the mutations ----------------------------------------------------------------------
# mutation ID FILE WHAT OLD NEW: in FILE (under analyzer/), OLD (which must occur exactly
# once) becomes NEW.
IDS=() FILES=() WHATS=() OLDS=() NEWS=()
mutation() {
    IDS+=("$1") FILES+=("$2") WHATS+=("$3") OLDS+=("$4") NEWS+=("$5")
}

# verdict.c: the verdict from the ceilings
mutation verdict-cpu-tolerance model/verdict.c "CPU-bound above (1 + tol) of the ceiling, not (1 - tol)" \
    'if (measured_bps >= (1.0 - tolerance) * cpu_bps)' \
    'if (measured_bps >= (1.0 + tolerance) * cpu_bps)'
mutation verdict-swap-read-write model/verdict.c "the lower of read and write ceilings names the other" \
    'return read_bps < write_bps ? VERDICT_READ : VERDICT_WRITE;' \
    'return read_bps < write_bps ? VERDICT_WRITE : VERDICT_READ;'
mutation verdict-efficiency-no-write model/verdict.c "efficiency ignores the write ceiling" \
    'limit = fmin(limit, write_bps);' \
    'limit = fmin(limit, limit);'
mutation verdict-write-ceiling-ratio model/verdict.c "write ceiling multiplied by the output ratio, not divided" \
    'return sustained_write_bps / output_ratio;' \
    'return sustained_write_bps * output_ratio;'
mutation verdict-no-balanced model/verdict.c "a second cause never makes a point balanced" \
    'return second != CAUSE_UNKNOWN && cause_verdict(second) != cause_verdict(cause)' \
    'return (void)second, false'

# cause.c: causes and their witnesses
mutation cause-swap-write-flush model/cause.c "the write term is named flush-tail" \
    'case TERM_WRITE: return CAUSE_WRITE_THROUGHPUT;' \
    'case TERM_WRITE: return CAUSE_FLUSH_TAIL;'
mutation cause-read-is-write model/cause.c "read-throughput gives write-bound" \
    'case CAUSE_READ_THROUGHPUT: return VERDICT_READ;
    default: return VERDICT_UNEXPLAINED;' \
    'case CAUSE_READ_THROUGHPUT: return VERDICT_WRITE;
    default: return VERDICT_UNEXPLAINED;'
mutation cause-flush-share model/cause.c "the flush names the cause at a tenth of the gap, not half" \
    'if (cause_flush_share(e) >= 0.5)' \
    'if (cause_flush_share(e) >= 0.1)'
mutation cause-idle-flip model/cause.c "cores-saturated when the CPU is idle, not busy" \
    'if (e->cpu_idle_share < tolerance)' \
    'if (e->cpu_idle_share > tolerance)'
mutation cause-write-witness model/cause.c "a write cause disagrees only below gap/40, not gap/4" \
    'return !e->io_paced && writes < gap / 4.0;' \
    'return !e->io_paced && writes < gap / 40.0;'
mutation cause-device-cpu model/cause.c "a CPU cause disagrees with an idle device, not a busy one" \
    'case VERDICT_CPU: return dev_busy_share >= 0.95;' \
    'case VERDICT_CPU: return dev_busy_share <= 0.95;'
mutation cause-witness-reads model/cause.c "the witnessed read cause needs twice the gap, not half" \
    'if (reads >= gap_s / 2.0)' \
    'if (reads >= gap_s * 2.0)'
mutation cause-cores-witness model/cause.c "cores-saturated disagrees only below gap/100 of waiting for a core" \
    'case CAUSE_CORES_SATURATED: return e->cpu_wait_s < gap / 10.0;' \
    'case CAUSE_CORES_SATURATED: return e->cpu_wait_s < gap / 100.0;'
mutation cause-witness-flush-swap model/cause.c "a witnessed long final flush names write-throughput, a short one flush-tail" \
    'return e->flush_s >= gap_s / 2.0 ? CAUSE_FLUSH_TAIL : CAUSE_WRITE_THROUGHPUT;' \
    'return e->flush_s >= gap_s / 2.0 ? CAUSE_WRITE_THROUGHPUT : CAUSE_FLUSH_TAIL;'

# stats.c
mutation stats-median-even model/stats.c "the median of an even count is its upper middle value" \
    '? copy[n / 2] : 0.5 * (copy[n / 2 - 1] + copy[n / 2]);' \
    '? copy[n / 2] : copy[n / 2];'
mutation stats-aicc-correction model/stats.c "AICc loses its small-sample correction (plain AIC)" \
    'return dn * log(rss / dn) + 2.0 * dk + 2.0 * dk * (dk + 1.0) / (dn - dk - 1.0);' \
    'return dn * log(rss / dn) + 2.0 * dk;'
mutation stats-r2-sign model/stats.c "R² is the unexplained share, not the explained one" \
    'return 1.0 - stats_rss(observed, predicted, n) / tss;' \
    'return stats_rss(observed, predicted, n) / tss;'

# fit.c
mutation fit-power-sign model/fit.c "the power law's exponent with the wrong sign" \
    'r->param[1] = -c1;' \
    'r->param[1] = c1;'
mutation fit-amdahl-serial model/fit.c "Amdahl's serial share from the parallel part" \
    'r->param[1] = a / t1;' \
    'r->param[1] = b / t1;'
mutation fit-usl-kappa model/fit.c "USL's coherence term loses its factor T" \
    'double denom = 1.0 + p[1] * (T - 1.0) + p[2] * T * (T - 1.0);
    return p[0] * T / denom;' \
    'double denom = 1.0 + p[1] * (T - 1.0) + p[2] * (T - 1.0);
    return p[0] * T / denom;'
mutation fit-best-by-worst model/fit.c "the best rate model is the highest AICc" \
    '(best < 0 || fits[k].rate_aicc < fits[best].rate_aicc))' \
    '(best < 0 || fits[k].rate_aicc > fits[best].rate_aicc))'
mutation fit-holdout-base model/fit.c "the holdout error relative to the prediction, not the measurement" \
    '(out->holdout_predicted - out->holdout_measured) / out->holdout_measured;' \
    '(out->holdout_predicted - out->holdout_measured) / out->holdout_predicted;'
mutation fit-usl-peak model/fit.c "USL's peak without the contention term" \
    'r->peak_threads = sqrt((1.0 - r->param[1]) / r->param[2]);' \
    'r->peak_threads = sqrt(1.0 / r->param[2]);'

# crossover.c
mutation crossover-linear-se-sign model/crossover.c "the band moves a linear rate's intercept the wrong way" \
    '[FIT_LINEAR_RATE] = {+1, +1, 0},' \
    '[FIT_LINEAR_RATE] = {-1, +1, 0},'
mutation crossover-band-swap model/crossover.c "the band's ends swapped (faster curve gives the high end)" \
    '*lo = crossover_find(&faster, limits, ctx, max_threads);
    *hi = crossover_find(&slower, limits, ctx, max_threads);' \
    '*lo = crossover_find(&slower, limits, ctx, max_threads);
    *hi = crossover_find(&faster, limits, ctx, max_threads);'
mutation crossover-ceiling-flip model/crossover.c "the crossover's volume ceiling is the higher of read and write" \
    'read_ceiling_bps < write_ceiling_bps;' \
    'read_ceiling_bps > write_ceiling_bps;'
mutation crossover-scan-range model/crossover.c "the scan stops at half the thread limit" \
    'hi <= max_threads + step / 2;' \
    'hi <= max_threads / 2;'

# writeback_model.c: the model's time and its decomposition
mutation wbm-serial-overlap model/writeback_model.c "the flush moved into the overlap: serial t = max(c, o/D)" \
    'p.seconds = compute + write_s;' \
    'p.seconds = fmax(compute, write_s);'
mutation wbm-no-background-threshold model/writeback_model.c "the cache holds the whole output whatever the background threshold" \
    'double held = fmin(in->output_bytes, in->dirty_background_bytes);' \
    'double held = in->output_bytes;'
mutation wbm-flusher-wakeup-flip model/writeback_model.c "the flusher's wake-up limits runs shorter than its period" \
    'if (in->dirty_writeback_s > 0.0 && compute_s > in->dirty_writeback_s)' \
    'if (in->dirty_writeback_s > 0.0 && compute_s < in->dirty_writeback_s)'
mutation wbm-mixed-drop-start model/writeback_model.c "mixed regime: the disk's busy time loses when it starts" \
    'double busy_disk = compute * held / out + write_s;' \
    'double busy_disk = write_s;'
mutation wbm-direct-no-fill model/writeback_model.c "O_DIRECT: the pipeline's fill dropped" \
    'if (pace == 0.0)
            write_s += fill;' \
    'if (pace == 0.0)
            write_s += 0.0 * fill;'
mutation wbm-direct-no-last-block model/writeback_model.c "O_DIRECT: the last block's write after the cores dropped" \
    'p.seconds = fmax(compute + last_out / in->drain_bps, write_s);' \
    'p.seconds = fmax(compute, write_s);'
mutation wbm-no-io-cpu model/writeback_model.c "the I/O path's CPU work is not charged to the cores" \
    'cores = fmax(cores, (in->cpu_work_s + out * in->io_cpu_per_byte) / in->cpus);' \
    'cores = fmax(cores, in->cpu_work_s / in->cpus);'
mutation wbm-read-output model/writeback_model.c "the read term reads the output's bytes, not the input's" \
    'double read = in->read_bps > 0.0 ? in->input_bytes / in->read_bps : 0.0;' \
    'double read = in->read_bps > 0.0 ? out / in->read_bps : 0.0;'
mutation wbm-pace-no-last-block model/writeback_model.c "a paced cap: the last block after the cores dropped" \
    'cores_end += last_out / in->pace_bps;' \
    'cores_end += 0.0 * last_out;'
mutation wbm-none-no-dirty-limit model/writeback_model.c "--sync none: writers never throttled at the dirty threshold" \
    'double limit = in->dirty_bytes >= 0.0 ? in->dirty_bytes : INFINITY;' \
    'double limit = INFINITY;'
mutation wbm-decide-tolerance model/writeback_model.c "at CPU speed within tol/2 of the compute term, not tol" \
    'if (t <= p->own_s[TERM_COMPUTE] / (1.0 - tol) * (1.0 + 1e-12)) {' \
    'if (t <= p->own_s[TERM_COMPUTE] / (1.0 - tol / 2.0) * (1.0 + 1e-12)) {'
mutation wbm-decide-flush-flip model/writeback_model.c "the flush leads when it adds less than the group" \
    'if (flush > group) {' \
    'if (flush < group) {'
mutation wbm-decide-leader-flip model/writeback_model.c "the shortest side-by-side term leads the group" \
    'if (p->own_s[k] > p->own_s[leader])' \
    'if (p->own_s[k] < p->own_s[leader])'
mutation wbm-decide-no-flush-balance model/writeback_model.c "a flush and a group within tol are never balanced" \
    'if (term_kind(leader) != term_kind(TERM_FLUSH) && group >= (1.0 - tol) * flush)' \
    'if (term_kind(leader) != term_kind(TERM_FLUSH) && group >= flush)'
mutation wbm-speed-bisect-flip model/writeback_model.c "the what-if's bisection moves the wrong end" \
    'if (wbm_predict(&probe).seconds > seconds)
            lo = mid;
        else
            hi = mid;' \
    'if (wbm_predict(&probe).seconds > seconds)
            hi = mid;
        else
            lo = mid;'
mutation wbm-expire-flip model/writeback_model.c "the dirty-expiry age limits runs shorter than it" \
    'if (in->dirty_expire_s > 0.0 && compute_s > in->dirty_expire_s)' \
    'if (in->dirty_expire_s > 0.0 && compute_s < in->dirty_expire_s)'
mutation wbm-decide-cpu-balance model/writeback_model.c "at CPU speed balanced only with a term as long as the run" \
    'double best = (1.0 - tol) * t;' \
    'double best = t;'

# analysis_explain.c: the judged time, its noise and the verdict's steps
mutation explain-no-pairing model/analysis_explain.c "pairing turned off: the median judged with the spreads" \
    'if (e->paired_s > 0.0) {' \
    'if (e->paired_s < 0.0) {'
mutation explain-pair-sign model/analysis_explain.c "the paired gap subtracted from memory's median" \
    'e->paired_s = m->seconds + stats_median(gaps, n);' \
    'e->paired_s = m->seconds - stats_median(gaps, n);'
mutation explain-pair-untrimmed model/analysis_explain.c "the paired noise keeps the largest and smallest of five" \
    'size_t lo = n >= 5 ? 1 : 0, hi = n >= 5 ? n - 2 : n - 1;' \
    'size_t lo = 0, hi = n - 1;'
mutation explain-miss-no-noise model/analysis_explain.c "the model is missed beyond tol alone, the noise left out" \
    'return fabs(judged_s - predicted_s) > tolerance * predicted_s + noise_s;' \
    'return fabs(judged_s - predicted_s) > tolerance * predicted_s + 0.0 * noise_s;'
mutation explain-miss-interval-low model/analysis_explain.c "an interval's upper bound taken from its low end" \
    'return judged_s > p->predicted_high_s * (1.0 + tolerance) + noise_s ||' \
    'return judged_s > p->predicted_low_s * (1.0 + tolerance) + noise_s ||'
mutation explain-nearer-end-flip model/analysis_explain.c "an interval decided by the end the time is farther from" \
    'if (fabs(p->seconds - high.seconds) < fabs(p->seconds - low.seconds))
        late_inputs(s, p, &in);' \
    'if (fabs(p->seconds - high.seconds) > fabs(p->seconds - low.seconds))
        late_inputs(s, p, &in);'
mutation explain-cannot-matter-faster model/analysis_explain.c "a volume that cannot matter is tried at twice its speed, not half" \
    'slower.drain_bps /= 2.0;
    slower.read_bps /= 2.0;
    slower.pace_bps /= 2.0;' \
    'slower.drain_bps *= 2.0;
    slower.read_bps *= 2.0;
    slower.pace_bps *= 2.0;'
mutation explain-boundary-no-noise model/analysis_explain.c "on the boundary only when the sides differ, never within the noise" \
    'return distance <= noise_s || (sides_differ' \
    'return distance <= 0.0 * noise_s || (sides_differ'
mutation explain-no-cpu-shift-noise model/analysis_explain.c "unpaired noise without the CPU time shift's share" \
    'e->noise_s += fabs(e->cpu_time_shift) * pred.part_s[TERM_COMPUTE];' \
    'e->noise_s += 0.0 * pred.part_s[TERM_COMPUTE];'
mutation explain-spread-full model/analysis_explain.c "unpaired noise: the whole spread, not half" \
    'return p->n > 1 && d > 0.0 ? d / 2.0 : 0.0;' \
    'return p->n > 1 && d > 0.0 ? d : 0.0;'
mutation explain-io-cost-whole-work model/analysis_explain.c "the run's I/O cost is all its CPU work, not the excess over memory's" \
    'in.io_cpu_per_byte = fmax(0.0, run_work - p->mem_cpu_work_s) / p->output_bytes;' \
    'in.io_cpu_per_byte = fmax(0.0, run_work) / p->output_bytes;'
mutation explain-pace-disk-swap model/analysis_explain.c "an emulated disk paces writes, a cap does not" \
    '.pace_bps = s->disk_emulated ? NAN : s->rate_cap_bps,' \
    '.pace_bps = s->disk_emulated ? s->rate_cap_bps : NAN,'
mutation explain-crossover-floor model/analysis_explain.c "off by one in the crossover: the model asked at floor(T)" \
    'c->at.threads = (int)ceil(threads);' \
    'c->at.threads = (int)floor(threads);'
mutation explain-whatif-goal model/analysis_explain.c "the what-if's goal c0 x (1 + tol), not c0 / (1 - tol)" \
    'double goal = in.cpu_s / (1.0 - tolerance);' \
    'double goal = in.cpu_s * (1.0 + tolerance);'
mutation explain-error-max-min model/analysis_explain.c "the series' largest prediction error is its smallest" \
    'worst = isnan(worst) ? e : fmax(worst, e);' \
    'worst = isnan(worst) ? e : fmin(worst, e);'
mutation explain-drain-ignored model/analysis_explain.c "the probe's drain rate ignored for the fsync'd write speed" \
    'if (drain > 0.0) {' \
    'if (drain < 0.0) {'
mutation explain-beyond-volume-margin model/analysis_explain.c "faster than probed at (1 - tol) of the speed" \
    'analysis_written_bytes(s, p) / p->seconds > (1.0 + margin) * speed;' \
    'analysis_written_bytes(s, p) / p->seconds > (1.0 - margin) * speed;'
mutation explain-cannot-matter-blocked model/analysis_explain.c "a volume cannot matter even when its writes blocked past the allowance" \
    'return isnan(e->io_read_wait_s) || isnan(writing) || writing <= allowed;' \
    'return isnan(e->io_read_wait_s) || isnan(writing) || writing <= 10.0 * allowed;'
mutation explain-unprobed-read-rate model/analysis_explain.c "a decompression's read speed is known only from a cap" \
    'return s->read_bps > 0.0 || s->read_cap_bps > 0.0;' \
    'return s->read_cap_bps > 0.0;'
mutation explain-split-threads model/analysis_explain.c "off by one in the per-thread split: T + 1 threads, not T + 2" \
    'double n = (double)(p->threads + 2);' \
    'double n = (double)(p->threads + 1);'

# predict.c
mutation predict-base-point-flip model/predict.c "a missing T takes its bytes from the largest measured T" \
    'if (mem->points[k].threads <= threads)
            base = &mem->points[k];' \
    'if (mem->points[k].threads >= threads)
            base = &mem->points[k];'
mutation predict-work-user-only model/predict.c "memory's CPU work is its user time alone" \
    'p->mem_cpu_work_s = base->cpu_user_s + base->cpu_sys_s;' \
    'p->mem_cpu_work_s = base->cpu_user_s;'
mutation predict-reach-off-by-one model/predict.c "a thread count one past the reach is still predicted" \
    'if (T > ANALYSIS_EXTRAPOLATION_REACH * fc->measured_hi)' \
    'if (T > ANALYSIS_EXTRAPOLATION_REACH * fc->measured_hi + 1)'
mutation predict-spread-swap model/predict.c "the compute term's fastest repetition from the slowest" \
    'fp->cpu_min_s = p->seconds_min * scale;' \
    'fp->cpu_min_s = p->seconds_max * scale;'
mutation predict-typed-read-dropped model/predict.c "a typed read speed is dropped" \
    'v.read_bps = read_bps > 0.0 ? read_bps : NAN;' \
    'v.read_bps = NAN;'
mutation predict-no-cpus model/predict.c "a predicted point forgets the CPUs online (no I/O work charged)" \
    'p->online_cpus = base->online_cpus;' \
    'p->online_cpus = NAN;'

# analysis_match.c
mutation match-layout-flip model/analysis_match.c "layout same reads from input_target, split from the copy" \
    'if (first->layout == RUN_LAYOUT_SAME) {' \
    'if (first->layout != RUN_LAYOUT_SAME) {'
mutation match-probe-noise-tolerance model/analysis_match.c "a probe is noisy beyond twice the tolerance" \
    '!((hi - lo) > tolerance * mid))' \
    '!((hi - lo) > 2.0 * tolerance * mid))'
mutation match-read-ceiling-note model/analysis_match.c "the read-faster-than-its-ceiling note at any speed" \
    'if (!(best > (1.0 + tolerance) * s->read_ceiling_bps))' \
    'if (!(best > (1.0 - tolerance) * s->read_ceiling_bps))'

# ---- arguments ----------------------------------------------------------------------------
list_only=0
selected=()
for arg in "$@"; do
    case $arg in
    --list) list_only=1 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "mutate.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    *) selected+=("$arg") ;;
    esac
done
for id in "${selected[@]+"${selected[@]}"}"; do
    found=0
    for known in "${IDS[@]}"; do [ "$known" = "$id" ] && found=1; done
    [ $found = 1 ] || { echo "mutate.sh: no mutation '$id' (see --list)" >&2; exit 2; }
done
wanted() {
    [ ${#selected[@]} -eq 0 ] && return 0
    local id
    for id in "${selected[@]}"; do [ "$id" = "$1" ] && return 0; done
    return 1
}
if [ $list_only = 1 ]; then
    for i in "${!IDS[@]}"; do printf '%-32s %-28s %s\n' "${IDS[$i]}" "${FILES[$i]}" "${WHATS[$i]}"; done
    exit 0
fi
command -v python3 >/dev/null || { echo "mutate.sh: python3 is needed" >&2; exit 1; }

# replace FILE OLD NEW: OLD must occur exactly once in FILE; fails loudly otherwise.
replace() {
    OLD=$2 NEW=$3 python3 - "$1" <<'EOF'
import os, sys
path, old, new = sys.argv[1], os.environ["OLD"], os.environ["NEW"]
text = open(path).read()
n = text.count(old)
if n != 1:
    name = path[path.index("/analyzer/") + 1:] if "/analyzer/" in path else path
    sys.exit(f"{name}: the mutation's text occurs {n} times, not once: {old!r}")
open(path, "w").write(text.replace(old, new))
EOF
}

# ---- the scratch copy ---------------------------------------------------------------------
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/cp-mutate.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM
TREE=$SCRATCH/tree
PRISTINE=$SCRATCH/pristine
mkdir -p "$TREE" "$PRISTINE"
(cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -C "$TREE" -xf -
cp -a "$TREE/analyzer" "$PRISTINE/"

# Every mutation must still apply exactly once before anything is built.
bad=0
for i in "${!IDS[@]}"; do
    wanted "${IDS[$i]}" || continue
    f=$TREE/analyzer/${FILES[$i]}
    if ! replace "$f" "${OLDS[$i]}" "${NEWS[$i]}" 2>"$SCRATCH/apply.err"; then
        echo "mutate.sh: ${IDS[$i]}: $(head -1 "$SCRATCH/apply.err")" >&2
        bad=1
    fi
    cp "$PRISTINE/analyzer/${FILES[$i]}" "$f"
done
[ $bad = 0 ] || { echo "mutate.sh: the code moved; update the mutations above" >&2; exit 1; }

# ccache through one base directory, so every scratch copy shares the cache's entries.
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR=$SCRATCH CCACHE_NOHASHDIR=1
fi
BUILD=$TREE/build
build() { cmake --build "$BUILD" -j "$JOBS" > "$SCRATCH/build.log" 2>&1; }
started=$(date +%s)
echo "building the unchanged copy in $SCRATCH ..." >&2
cmake -S "$TREE" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    > "$SCRATCH/configure.log" 2>&1 || { cat "$SCRATCH/configure.log" >&2; exit 1; }
build || { tail -30 "$SCRATCH/build.log" >&2; exit 1; }

# quick_suite: runs the quick suite in order, stopping at the first test that fails;
# prints that test's name (nothing when all pass); returns 1 when one failed.
quick_suite() {
    local t name
    for t in "$BUILD"/tests/test_*; do
        name=$(basename "$t")
        [ -x "$t" ] && [ -f "$t" ] || continue
        case " $QUICK_UNIT_EXCLUDE " in *" $name "*) continue ;; esac
        if ! (cd "$BUILD/tests" && timeout "$TEST_TIMEOUT" "$t") > "$SCRATCH/test.log" 2>&1; then
            echo "unit_${name#test_}"
            return 1
        fi
    done
    for name in $QUICK_CLI; do
        if ! (cd "$BUILD/tests" && CHOKEPOINT=$BUILD/chokepoint SRC_DIR=$TREE \
            timeout "$TEST_TIMEOUT" bash "$TREE/tests/cli/test_$name.sh") > "$SCRATCH/test.log" 2>&1; then
            echo "cli_$name"
            return 1
        fi
    done
}

echo "running the quick suite on the unchanged copy ..." >&2
if failed=$(quick_suite); then :; else
    echo "mutate.sh: the quick suite fails on the unchanged tree ($failed):" >&2
    tail -30 "$SCRATCH/test.log" >&2
    exit 1
fi
baseline_s=$(($(date +%s) - started))

echo "| id | file | what it changes | result | killed by |"
echo "|---|---|---|---|---|"
killed=0 survived=0 errors=0 count=0
for i in "${!IDS[@]}"; do
    wanted "${IDS[$i]}" || continue
    count=$((count + 1))
    f=$TREE/analyzer/${FILES[$i]}
    replace "$f" "${OLDS[$i]}" "${NEWS[$i]}"
    result="" by=""
    if ! build; then
        result="**does not build**" by="$(grep -m1 'error' "$SCRATCH/build.log" || true)"
        errors=$((errors + 1))
    elif by=$(quick_suite); then
        result="**survived**" by="-"
        survived=$((survived + 1))
    else
        result=killed
        killed=$((killed + 1))
    fi
    echo "| ${IDS[$i]} | ${FILES[$i]} | ${WHATS[$i]} | $result | $by |"
    # Restored with a new modification time, so the next build compiles it again.
    cp "$PRISTINE/analyzer/${FILES[$i]}" "$f"
    touch "$f"
done
build || { tail -30 "$SCRATCH/build.log" >&2; exit 1; }
elapsed=$(($(date +%s) - started))
echo
noun=mutations
[ "$count" -eq 1 ] && noun=mutation
echo "$count $noun: $killed killed, $survived survived, $errors did not build" \
    "(${elapsed} s, of which ${baseline_s} s building and checking the unchanged copy)"
[ $survived -eq 0 ] && [ $errors -eq 0 ]
