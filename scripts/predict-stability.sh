#!/usr/bin/env bash
# predict-stability.sh - how far `predict` from a memory-only study lands from a later sweep
# onto the volumes it predicted, K times, and how much of the miss is the CPU's.
#
#   scripts/predict-stability.sh [-k K] [--out DIR] [--binary PATH]
#                                --write NAME=RATE [--write NAME=RATE ...] -- RUN_ARGS...
#   scripts/predict-stability.sh --tabulate DIR [--binary PATH] --write NAME=RATE ...
#
# Each try runs `chokepoint run RUN_ARGS mem` (the memory-only study: the CPU figures), then
# `chokepoint run RUN_ARGS mem TARGET...` for the targets named NAME=DIR in RUN_ARGS (the
# sweep: give NAME=DIR for every --write NAME). Then it predicts the volumes from the
# memory-only study twice, checked against the sweep (`predict MEMORY --check SWEEP`):
#   - from the stated rates (`--write NAME=RATE`), as a user who knows a disk's rating;
#   - from the volumes' probe (`--probe SWEEP/probe.csv`), as a user who ran `chokepoint
#     probe` on the disks first: the sweep probes its volumes before any run, so that file
#     is a measurement of the volumes alone, made after the memory-only study.
# Give RUN_ARGS without targets, and --input or --fixture-size, --threads, --reps and
# --codec as wanted; the targets go after "--targets". K defaults to 5. --tabulate DIR
# makes both predictions again from the studies already in DIR (with this binary) and
# prints the table, without measuring.
#   example: scripts/predict-stability.sh --write lab150=150MB/s -- -i in.bin -T 1,2 \
#                --reps 3 --targets lab150=/mnt/lab150
#
# Prints a Markdown table with one row per try and point: the prediction's error against
# the sweep's median from the stated rate and from the probe (the CPU figure taken from
# the memory-only study's minutes), the probe's prediction made from the sweep's own memory
# runs (the CPU speed the volume's runs met), the two memory times, and the sweep's own
# analysis of that point by this binary (its verdict and its prediction's error, from the
# probe's figures, its memory runs and its runs' CPU seconds). Then each column's range.
# Exit status: 0 when every try ran, 1 when one failed (its log says why), 2 on a usage
# error. The studies stay in DIR (default a new directory under results/).
set -euo pipefail
cd "$(dirname "$0")/.."

k=5 out="" bin=build/chokepoint writes=() tabulate=""
while [ $# -gt 0 ]; do
    case $1 in
    -k) k=${2:?}; shift 2 ;;
    --tabulate) tabulate=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --binary) bin=${2:?}; shift 2 ;;
    --write) writes+=(--write "${2:?}"); shift 2 ;;
    --) shift; break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "predict-stability.sh: unexpected argument '$1' (the study's arguments follow --)" >&2
       exit 2 ;;
    esac
done
run_args=() targets=()
while [ $# -gt 0 ]; do
    if [ "$1" = --targets ]; then shift; targets=("$@"); break; fi
    run_args+=("$1"); shift
done
[ ${#writes[@]} -gt 0 ] || { echo "predict-stability.sh: give at least one --write NAME=RATE" >&2; exit 2; }
[ -x "$bin" ] || { echo "predict-stability.sh: no chokepoint binary at $bin (build first, or --binary)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "predict-stability.sh: needs python3" >&2; exit 2; }

# predict_try DIR I: both predictions of try I's volumes from its memory-only study.
predict_try() {
    local d=$1 i=$2
    "$bin" predict "$d/memory" "${writes[@]}" --check "$d/sweep" --format json \
        > "$d/check.json" 2> "$d/check.log" ||
        { echo "predict-stability.sh: try $i: predict failed; see $d/check.log" >&2; exit 1; }
    "$bin" predict "$d/memory" --probe "$d/sweep/probe.csv" --check "$d/sweep" --format json \
        > "$d/check-probe.json" 2> "$d/check-probe.log" ||
        { echo "predict-stability.sh: try $i: predict --probe failed; see $d/check-probe.log" >&2; exit 1; }
    "$bin" analyze "$d/sweep/runs.csv" --probe "$d/sweep/probe.csv" --format json \
        > "$d/sweep-analysis.json" 2> "$d/sweep-analysis.log" ||
        { echo "predict-stability.sh: try $i: analyze failed; see $d/sweep-analysis.log" >&2; exit 1; }
}

if [ -n "$tabulate" ]; then
    out=$tabulate k=0
    while [ -d "$out/try-$((k + 1))" ]; do k=$((k + 1)); predict_try "$out/try-$k" "$k"; done
    [ "$k" -gt 0 ] || { echo "predict-stability.sh: --tabulate $out: no try-1 in it" >&2; exit 2; }
else
    [ ${#targets[@]} -gt 0 ] || { echo "predict-stability.sh: name the sweep's targets after --targets" >&2; exit 2; }
    [[ $k =~ ^[1-9][0-9]*$ ]] || { echo "predict-stability.sh: bad -k '$k': a positive count" >&2; exit 2; }
    [ -n "$out" ] || out=results/predict-stability-$(date +%Y%m%d-%H%M%S)
    [ ! -e "$out" ] || { echo "predict-stability.sh: $out exists: give another --out" >&2; exit 2; }
    mkdir -p "$out"
    for i in $(seq 1 "$k"); do
        echo "try $i of $k" >&2
        d=$out/try-$i
        mkdir -p "$d"
        "$bin" run "${run_args[@]}" -q --out "$d/memory" mem > "$d/memory.log" 2>&1 ||
            { echo "predict-stability.sh: try $i: the memory study failed; see $d/memory.log" >&2; exit 1; }
        "$bin" run "${run_args[@]}" -q --out "$d/sweep" mem "${targets[@]}" > "$d/sweep.log" 2>&1 ||
            { echo "predict-stability.sh: try $i: the sweep failed; see $d/sweep.log" >&2; exit 1; }
        predict_try "$d" "$i"
    done
fi

python3 - "$out" "$k" <<'PY'
import json, sys
out, k = sys.argv[1], int(sys.argv[2])
cols = {"rate": [], "probe": [], "now": [], "sweep": []}
print(f"{k} tries in {out}: `predict` from a memory-only study against a sweep made right "
      f"after it, from the stated rate and from the volumes' probe; the probe's prediction "
      f"made from the sweep's own memory runs; the sweep's own analysis of the point (probed "
      f"volume, its memory runs, its runs' CPU seconds).\n")
print("| try | volume | codec | T | measured s | stated rate: predicted s | error "
      "| probe: predicted s | error | memory s then / in the sweep "
      "| probe, from the sweep's memory | error | sweep's verdict | sweep's error |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
pct = lambda x: "-" if x is None else f"{100 * x:+.1f}%"
sec = lambda x: "-" if x is None else f"{x:.3f}"
key = lambda p: (p["target"], p["codec"], p["threads"])
for i in range(1, k + 1):
    d = f"{out}/try-{i}"
    rate = json.load(open(f"{d}/check.json"))["check"]
    probe = {key(p): p for p in json.load(open(f"{d}/check-probe.json"))["check"]["points"]}
    a = json.load(open(f"{d}/sweep-analysis.json"))
    own = {}
    for s in a["targets"]:
        for p, v in zip(s["points"], s["verdicts"]):
            cause = v["cause"] if v["verdict"] != "unexplained" else v["unexplained"]
            err = (p["predicted_seconds"] / p["seconds"] - 1) if p.get("predicted_seconds") else None
            second = f'+{v["second_cause"]}' if v.get("second_cause") else ""
            own[(s["name"], s["codec"], p["threads"])] = (f'{v["verdict"]} ({cause}{second})', err)
    for p in rate["points"]:
        verdict, err = own.get(key(p), ("-", None))
        q = probe.get(key(p), {})
        cols["rate"].append(p["error"])
        if q.get("error") is not None:
            cols["probe"].append(q["error"])
        if q.get("error_from_check_memory") is not None:
            cols["now"].append(q["error_from_check_memory"])
        if err is not None:
            cols["sweep"].append(err)
        print(f'| {i} | {p["volume"]} | {p["codec"]} | {p["threads"]} | {sec(p["measured_seconds"])} '
              f'| {sec(p["predicted_seconds"])} | {pct(p["error"])} '
              f'| {sec(q.get("predicted_seconds"))} | {pct(q.get("error"))} '
              f'| {sec(q.get("memory_seconds"))} / {sec(q.get("check_memory_seconds"))} '
              f'| {sec(q.get("predicted_from_check_memory_seconds"))} '
              f'| {pct(q.get("error_from_check_memory"))} | {verdict} | {pct(err)} |')
def span(x):
    if not x:
        return "-"
    within = sum(abs(v) <= 0.10 for v in x)
    return f"{100 * min(x):+.1f}% .. {100 * max(x):+.1f}% ({within} of {len(x)} within 10%)"
print(f"\nfrom the memory-only study and the stated rates: {span(cols['rate'])}")
print(f"from the memory-only study and the volumes' probe: {span(cols['probe'])}")
print(f"from the volumes' probe and the sweep's own memory runs: {span(cols['now'])}")
print(f"the sweep's own analysis (probed volume): {span(cols['sweep'])}")
PY
