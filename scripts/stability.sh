#!/usr/bin/env bash
# stability.sh - the same study K times: how often each point's verdict came, and how far
# its time and its prediction moved between the repeats. A verdict that flips between
# studies of the same machine is a finding, whatever each study says on its own.
#
#   scripts/stability.sh [-k K] [--out DIR] [--binary PATH] -- RUN_ARGS...
#   scripts/stability.sh --tabulate DIR      (the table of studies already in DIR)
#
# Runs `chokepoint run RUN_ARGS --out DIR/study-N` K times (default 5), one after another,
# then prints a Markdown table with one row per (target, codec, thread count): the
# verdicts (verdict and cause) with how many of the K studies gave each, the measured
# median's range over the studies, the model's prediction's range, its error's range
# (prediction over the measured median, minus 1), the same against the time the model is
# judged by (where the runs pair with memory's in the sweep's blocks: memory's median
# plus the median of the pairs' differences, the point at memory's CPU speed), and the
# time against memory's. The
# studies stay in DIR (default a new directory under results/), so any row can be read in
# full. Exit status: 0 when all K studies ran, 1 when one failed (its output says why), 2
# on a usage error.
#   example: scripts/stability.sh -k 5 -- --fixture-size 64M --threads 1,2 --reps 1 \
#                mem shm=/dev/shm 'slow=/var/tmp/x@20MB/s'
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}
k=5 out="" bin=build/chokepoint tabulate=""
while [ $# -gt 0 ]; do
    case $1 in
    --tabulate) tabulate=${2:?}; shift 2; break ;;
    -k) k=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --binary) bin=${2:?}; shift 2 ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "stability.sh: unexpected argument '$1' (the study's arguments follow --)" >&2
       exit 2 ;;
    esac
done
if [ -n "$tabulate" ]; then
    out=$tabulate
    k=$(find "$out" -maxdepth 1 -name 'study-*' -type d | wc -l)
    [ "$k" -gt 0 ] || { echo "stability.sh: no study-N directories in $out" >&2; exit 2; }
fi
[ -n "$tabulate" ] || [ $# -gt 0 ] || { echo "stability.sh: no study arguments after --" >&2; exit 2; }
[[ $k =~ ^[1-9][0-9]*$ ]] || { echo "stability.sh: bad -k '$k': a positive count" >&2; exit 2; }
[ -x "$bin" ] || { echo "stability.sh: no chokepoint binary at $bin (build first, or --binary)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "stability.sh: needs python3" >&2; exit 2; }
if [ -z "$tabulate" ]; then
[ -n "$out" ] || out=results/stability-$(date +%Y%m%d-%H%M%S)
[ ! -e "$out" ] || { echo "stability.sh: $out exists: give another --out" >&2; exit 2; }
mkdir -p "$out"
fi

for i in $(seq 1 "$([ -n "$tabulate" ] && echo 0 || echo "$k")"); do
    echo "study $i of $k" >&2
    "$bin" run "$@" -q --out "$out/study-$i" > "$out/study-$i.log" 2>&1 ||
        { echo "stability.sh: study $i failed; see $out/study-$i.log" >&2; exit 1; }
done

python3 - "$out" "$k" <<'PY'
import collections, json, sys
out, k = sys.argv[1], int(sys.argv[2])
rows = collections.OrderedDict()
for i in range(1, k + 1):
    a = json.load(open(f"{out}/study-{i}/analysis.json"))
    mem = {}
    for s in a["targets"]:
        if s["name"] == "mem":
            for p in s["points"]:
                mem[(s["codec"], p["threads"])] = p["seconds"]
    for s in a["targets"]:
        for p, v in zip(s["points"], s["verdicts"]):
            key = (s["name"], s["codec"], p["threads"])
            r = rows.setdefault(key, {"verdicts": collections.Counter(), "seconds": [],
                                      "predicted": [], "error": [], "paired": [],
                                      "vs_mem": []})
            cause = v["cause"] if v["verdict"] != "unexplained" else v["unexplained"]
            second = f'+{v["second_cause"]}' if v.get("second_cause") else ""
            r["verdicts"][f'{v["verdict"]} ({cause}{second})'] += 1
            r["seconds"].append(p["seconds"])
            if p.get("predicted_seconds"):
                r["predicted"].append(p["predicted_seconds"])
                r["error"].append(p["predicted_seconds"] / p["seconds"] - 1)
                judged = v.get("evidence", {}).get("paired_s")
                if judged:
                    r["paired"].append(p["predicted_seconds"] / judged - 1)
            m = mem.get((s["codec"], p["threads"]))
            if m:
                r["vs_mem"].append(p["seconds"] / m - 1)

def span(x, fmt):
    return "-" if not x else (fmt.format(min(x)) if min(x) == max(x)
                              else f"{fmt.format(min(x))} .. {fmt.format(max(x))}")

print(f"{k} studies in {out}: each point's verdicts (how many studies gave each) and the "
      f"range over the studies of its measured median, the model's prediction, the "
      f"prediction's error and the time against memory's.\n")
print("| target | codec | T | verdicts | measured s | predicted s | error | error, paired "
      "| vs memory |")
print("|---|---|---|---|---|---|---|---|---|")
for (name, codec, t), r in rows.items():
    verdicts = "; ".join(f"{v} {n}/{k}" for v, n in r["verdicts"].most_common())
    pct = lambda x: [100 * v for v in x]
    print(f"| {name} | {codec} | {t} | {verdicts} | {span(r['seconds'], '{:.3f}')} | "
          f"{span(r['predicted'], '{:.3f}')} | {span(pct(r['error']), '{:+.1f}%')} | "
          f"{span(pct(r['paired']), '{:+.1f}%')} | "
          f"{span(pct(r['vs_mem']), '{:+.0f}%')} |")
PY
