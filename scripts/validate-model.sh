#!/usr/bin/env bash
# validate-model.sh - the write-back model and the verdicts against real throttled volumes.
#
#   scripts/validate-model.sh [--size SIZE] [--reps N] [--kinds "mixed text"]
#                             [--volumes "lab120:120 lab250:250 lab400:400"] [--out DIR]
#
# Builds loop-mounted ext4 volumes capped by the kernel's block throttle
# (scripts/lab-volumes.sh), then for each fixture kind: probes the volumes (fsync'd, so
# the probe's drain rate comes from the flush of files the page cache held), sweeps
# T = 1,2 over mem, /dev/shm and the volumes once with the default timing (buffered writes,
# fsync at the end) and once with O_DIRECT, and analyses both. Prints, for every point,
# the measured median time against the model's prediction, the regime, the verdict and
# its cause, and the median and worst absolute error over the lab volumes. Root only
# (loop devices, cgroups); exits 77 without them. Results stay in --out (default a new
# directory under results/).
set -euo pipefail
cd "$(dirname "$0")/.."

size=1G reps=3 kinds="mixed text" out=""
volumes="lab120:120 lab250:250 lab400:400"
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --kinds) kinds=$2; shift 2 ;;
    --volumes) volumes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate-model.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "validate-model.sh: needs root (loop devices, cgroups)" >&2; exit 77; }
command -v jq >/dev/null || { echo "validate-model.sh: needs jq (scripts/setup.sh --with-bench)" >&2; exit 1; }

scripts/setup.sh --with-bench >&2
CP=$PWD/build/chokepoint
out=${out:-results/validate-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

export CHOKEPOINT_LAB_DIR=$out/lab
export CHOKEPOINT_LAB_VOLUMES=$volumes
export CHOKEPOINT_LAB_SIZE=${CHOKEPOINT_LAB_SIZE:-3G}
export CHOKEPOINT_LAB_CGROUP=chokepoint-validate-$$
shm=/dev/shm/chokepoint-validate-$$
cleanup() {
    scripts/lab-volumes.sh down >/dev/null 2>&1 || true
    rm -rf "$shm" "$out/input.bin"
}
trap cleanup EXIT
rc=0
scripts/lab-volumes.sh up >&2 || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
targets=$(scripts/lab-volumes.sh targets)
mkdir -p "$shm"
lab() { scripts/lab-volumes.sh exec -- "$@"; }

table=$out/points.tsv
printf 'kind\tvolume\tsync\tT\tmeasured_s\tpredicted_s\terror\tregime\tverdict\tcause\n' > "$table"
for kind in $kinds; do
    echo "== $kind: fixture, probe, sweeps (fsync and direct), analysis" >&2
    "$CP" fixture -o "$out/input.bin" --size "$size" --kind "$kind" --force -q
    # shellcheck disable=SC2086 # targets are NAME=DIR words
    lab "$CP" probe --sizes "$size" --reps 3 -q -o "$out/probe-$kind.csv" --force $targets
    for sync in fsync direct; do
        # shellcheck disable=SC2086
        lab "$CP" sweep -i "$out/input.bin" --threads 1,2 --reps "$reps" --sync "$sync" -q \
            -o "$out/runs-$kind-$sync.csv" --force mem shm="$shm" $targets
        "$CP" analyze "$out/runs-$kind-$sync.csv" --probe "$out/probe-$kind.csv" \
            --format json -o "$out/analysis-$kind-$sync.json" --force
        jq -r --arg kind "$kind" --arg sync "$sync" '
            .targets[] | select(.is_mem | not) | . as $t
            | range(0; .points | length) as $i
            | [$kind, $t.name, $sync, .points[$i].threads, .points[$i].seconds,
               .points[$i].predicted_seconds,
               (if .points[$i].predicted_seconds == null then null
                else (.points[$i].predicted_seconds - .points[$i].seconds) / .points[$i].seconds end),
               .points[$i].predicted_regime, .verdicts[$i].verdict, .verdicts[$i].cause]
            | @tsv' "$out/analysis-$kind-$sync.json" >> "$table"
    done
done

echo
awk -F'\t' 'NR == 1 { printf "%-6s %-8s %-6s %2s %10s %10s %7s  %-10s %-12s %s\n",
                       "kind", "volume", "sync", "T", "measured", "predicted", "error",
                       "regime", "verdict", "cause"; next }
            { err = $7 == "" ? "-" : sprintf("%+.1f%%", 100 * $7)
              printf "%-6s %-8s %-6s %2d %9.3fs %9.3fs %7s  %-10s %-12s %s\n",
                     $1, $2, $3, $4, $5, $6 == "" ? 0 : $6, err, $8, $9, $10 }' "$table"
# The error summary over the lab volumes (the RAM volume is reported, not judged).
awk -F'\t' 'NR > 1 && $2 ~ /^lab/ && $7 != "" { print ($7 < 0 ? -$7 : $7) }' "$table" | sort -g |
    awk '{ v[++n] = $1 }
         END {
             if (n == 0) { print "no predictions"; exit 1 }
             med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
             printf "\nlab volumes: %d points, median |error| %.1f%%, worst %.1f%%\n",
                    n, 100 * med, 100 * v[n]
         }'
echo "tables and analyses in $out" >&2
