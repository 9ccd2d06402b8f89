#!/usr/bin/env bash
# validate-model.sh - the one model (prediction, verdict, cause) against real throttled
# volumes, on a grid whose ground truth is stated physically.
#
#   scripts/validate-model.sh [--size 256M] [--reps 3] [--codecs "zstd:3 zstd:1 zstd:9 xz:1"]
#                             [--factors "0.5 0.8 1.25 2"] [--syncs "fsync direct none"]
#                             [--threads 1,2,4] [--layouts "split same"] [--no-small-dirty]
#                             [--no-emulated] [--probe-size SIZE] [--out DIR]
#
# Calibrates this machine's output rate r1 (the first codec, one thread, into memory),
# builds loop-mounted ext4 volumes capped by the kernel's block throttle at each factor x
# r1 for reads and writes (scripts/lab-volumes.sh), and an emulated volume (a directory
# on the local disk behind chokepoint's own @RATE cap at 0.8 x r1). Probes them buffered
# and with O_DIRECT (each sync mode is analysed with the probe of its own path), then for
# every codec, layout and sync mode sweeps the thread counts over mem, /dev/shm and the
# volumes; with the first codec, split layout and fsync it sweeps once more with small
# write-back thresholds (vm.dirty_background_bytes 32 MiB, vm.dirty_bytes 96 MiB: set for
# the run, restored afterwards, also after an interrupt).
#
# For every point it prints the measured median, the model's prediction, its parts, the
# verdict and cause, and the physical truth: which of the memory target's time c, the
# input over the read speed i/R (same layout), the output over the write speed o/D, the
# memory time plus the flush c + o/D (fsync) and the read plus the flush max(c, i/R) + o/D
# (same layout, fsync) comes nearest the measured time; two within the tolerance of it make
# the truth "balanced". Then the median and worst |error| and the verdicts that disagree
# with the truth, over the lab and emulated volumes at T up to the CPUs online (more
# threads are marked oversubscribed and reported apart; /dev/shm is reported, not judged).
# Root only (loop devices, cgroups, sysctl); exits 77 without them. Results stay in --out
# (default a new directory under results/).
set -euo pipefail
cd "$(dirname "$0")/.."

size=256M reps=3 codecs="zstd:3 zstd:1 zstd:9 xz:1" factors="0.5 0.8 1.25 2"
syncs="fsync direct none" threads=1,2,4 layouts="split same" small_dirty=1 emulated=1 out=""
probe_size=""
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --codecs) codecs=$2; shift 2 ;;
    --factors) factors=$2; shift 2 ;;
    --syncs) syncs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --layouts) layouts=$2; shift 2 ;;
    --no-small-dirty) small_dirty=0; shift ;;
    --no-emulated) emulated=0; shift ;;
    --probe-size) probe_size=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate-model.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "validate-model.sh: needs root (loop devices, cgroups)" >&2; exit 77; }

scripts/setup.sh --with-bench >&2
command -v jq >/dev/null || { echo "validate-model.sh: needs jq (scripts/setup.sh --with-bench)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "validate-model.sh: needs python3" >&2; exit 1; }
CP=$PWD/build/chokepoint
out=${out:-results/validate-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
first_codec=${codecs%% *}

# The write-back thresholds, restored whatever happens (EXIT covers errors and, through
# the INT and TERM traps below, interrupts).
. scripts/writeback-thresholds.sh
export CHOKEPOINT_LAB_DIR=$out/lab
export CHOKEPOINT_LAB_SIZE=${CHOKEPOINT_LAB_SIZE:-3G}
export CHOKEPOINT_LAB_CGROUP=chokepoint-validate-$$
shm=/dev/shm/chokepoint-validate-$$
cleanup() {
    restore_dirty
    scripts/lab-volumes.sh down >/dev/null 2>&1 || true
    rm -rf "$shm" "$out/input.bin" "$out/emu"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "== fixture ($size, mixed) and calibration ($first_codec, one thread, into memory)" >&2
"$CP" fixture -o "$out/input.bin" --size "$size" --kind mixed --force -q
r1=$(for i in 1 2 3; do
         "$CP" compress -i "$out/input.bin" -o /dev/null -c "$first_codec" -T 1 --json -q --warm |
             jq '.output_bytes / .seconds'
     done | sort -g | tail -1)
echo "output rate into memory at one thread: $(awk -v r="$r1" 'BEGIN { printf "%.1f", r / 1e6 }') MB/s" >&2
volumes="" emu_cap=""
for f in $factors; do
    cap=$(awk -v r="$r1" -v f="$f" 'BEGIN { printf "%d", f * r / 1e6 }')
    name=lab$(awk -v f="$f" 'BEGIN { printf "%03d", f * 100 }')
    volumes="$volumes $name:$cap"
done
export CHOKEPOINT_LAB_VOLUMES=${volumes# }
rc=0
scripts/lab-volumes.sh up >&2 || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
# shellcheck disable=SC2207 # NAME=DIR words without spaces
targets=($(scripts/lab-volumes.sh targets))
if [ "$emulated" = 1 ]; then
    emu_cap=$(awk -v r="$r1" 'BEGIN { printf "%d", 0.8 * r / 1e6 }')
    mkdir -p "$out/emu"
    targets+=("emu=$out/emu@${emu_cap}MB/s")
fi
mkdir -p "$shm"
lab() { scripts/lab-volumes.sh exec -- "$@"; }

for probe_sync in fsync direct; do
    echo "== probe ($probe_sync): ${targets[*]}" >&2
    lab "$CP" probe --sizes "${probe_size:-$size}" --reps 3 --sync "$probe_sync" -q \
        -o "$out/probe-$probe_sync.csv" --force "${targets[@]}"
done

# sweep_case CODEC LAYOUT SYNC DIRTY: one sweep and its analysis (DIRTY default|small).
sweep_case() {
    local codec=$1 layout=$2 sync=$3 dirty=$4 tag probe
    tag=$(echo "$codec-$layout-$sync-$dirty" | tr ':' '_')
    probe=$out/probe-fsync.csv
    [ "$sync" != direct ] || probe=$out/probe-direct.csv
    echo "== $codec, layout $layout, sync $sync, write-back thresholds $dirty" >&2
    if [ "$dirty" = small ]; then
        sysctl -qw vm.dirty_background_bytes=33554432 vm.dirty_bytes=100663296
    fi
    lab "$CP" sweep -i "$out/input.bin" -c "$codec" --threads "$threads" --reps "$reps" \
        --layout "$layout" --sync "$sync" -q -o "$out/runs-$tag.csv" --force \
        mem "shm=$shm" "${targets[@]}"
    [ "$dirty" != small ] || restore_dirty
    "$CP" analyze "$out/runs-$tag.csv" --probe "$probe" --format json \
        -o "$out/analysis-$tag.json" --force
    echo "$codec $layout $sync $dirty $out/runs-$tag.csv $probe $out/analysis-$tag.json" >> "$out/cases.txt"
}
: > "$out/cases.txt"
for codec in $codecs; do
    for layout in $layouts; do
        for sync in $syncs; do
            # The same layout's reads matter whatever the sync mode; one is enough for
            # the codecs after the first.
            [ "$layout" = split ] || [ "$codec" = "$first_codec" ] || [ "$sync" = fsync ] || continue
            sweep_case "$codec" "$layout" "$sync" default
        done
    done
done
[ "$small_dirty" = 0 ] || sweep_case "$first_codec" split fsync small

python3 - "$out/cases.txt" "$out/points.tsv" <<'PY'
import csv, json, statistics, sys

TOL = 0.10
cases, table = sys.argv[1], sys.argv[2]

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None

def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None

def probe_speeds(path):
    """Per target: median drain (write rows) and read rate at the largest size, and the
    write cap when the probe was paced."""
    rows = list(csv.DictReader(open(path)))
    out = {}
    for t in {r["target"] for r in rows}:
        def at_largest(op, col):
            rs = [r for r in rows if r["target"] == t and r["op"] == op and num(r[col])]
            if not rs:
                return None
            big = max(num(r["size_bytes"]) for r in rs)
            return med([num(r[col]) for r in rs if num(r["size_bytes"]) == big])
        cap = med([num(r.get("rate_cap_bps")) for r in rows
                   if r["target"] == t and r["op"] == "write" and num(r.get("rate_cap_bps"))])
        out[t] = {"drain": at_largest("write", "drain_bps"),
                  "read": at_largest("read", "bytes_per_s"), "cap": cap}
    return out

def truth(c, i, o, D, R, sync, layout):
    """The candidates' times; the nearest to the measured time is the truth."""
    cand = {"compute": c}
    if layout == "same" and R:
        cand["read"] = i / R
    if D:
        cand["write"] = o / D
        if sync == "fsync":
            cand["flush"] = c + o / D
            if layout == "same" and R:
                cand["read+flush"] = max(c, i / R) + o / D
    return cand

KIND = {"compute": "cpu-bound", "read": "read-bound", "write": "write-bound",
        "flush": "write-bound"}
CAUSE = {"compute": "compute", "read": "read-throughput", "write": "write-throughput",
         "flush": "flush-tail"}

def agrees(verdict, cause, second, truth_names):
    """truth_names: one name, or two (balanced)."""
    def one(name):
        if name == "read+flush":
            return (verdict in ("read-bound", "write-bound", "balanced")
                    and {cause, second} & {"read-throughput", "flush-tail"})
        if name == "compute": # the CPU's time, with or without the cost of writing
            return verdict == "cpu-bound"
        return verdict == KIND[name] and cause == CAUSE[name]
    if len(truth_names) == 1:
        return bool(one(truth_names[0]))
    if verdict == "balanced":
        return True
    return any(one(n) for n in truth_names)

out = open(table, "w")
cols = ["codec", "layout", "sync", "dirty", "volume", "T", "over", "measured", "predicted",
        "error", "regime", "compute", "io_cpu", "read", "write", "flush", "verdict", "cause",
        "second", "truth", "agrees"]
out.write("\t".join(cols) + "\n")
for line in open(cases):
    codec, layout, sync, dirty, runs_path, probe_path, ana_path = line.split()
    a = json.load(open(ana_path))
    speeds = probe_speeds(probe_path)
    runs = list(csv.DictReader(open(runs_path)))
    mem = {p["threads"]: p for t in a["targets"] if t["name"] == "mem" for p in t["points"]}
    for t in a["targets"]:
        if t["is_mem"]:
            continue
        sp = speeds.get(t["name"], {})
        D = sp.get("cap") or sp.get("drain")
        R = sp.get("read")
        for p, v in zip(t["points"], t["verdicts"]):
            T = p["threads"]
            rr = [r for r in runs if r["target"] == t["name"] and int(r["threads"]) == T]
            cpus = med([num(r["online_cpus"]) for r in rr]) or 0
            c = mem[T]["seconds"] if T in mem else None
            i, o = p["input_bytes"], p["output_bytes"]
            meas, pred = p["seconds"], p["predicted_seconds"]
            cand = truth(c, i, o, D, R, sync, layout) if c else {}
            near = sorted(cand, key=lambda k: abs(cand[k] - meas))
            within = [k for k in near if abs(cand[k] - meas) <= TOL * meas]
            tn = within[:2] if len(within) >= 2 else near[:1]
            ev = v["evidence"]
            parts = ev.get("parts_s") or {}
            ok = agrees(v["verdict"], v["cause"], v.get("second_cause"), tn) if tn else None
            err = None if pred is None else (pred - meas) / meas
            row = [codec, layout, sync, dirty, t["name"], T, int(T > cpus), meas, pred, err,
                   p["predicted_regime"], parts.get("compute"), parts.get("io-cpu"),
                   parts.get("read"), parts.get("write"), parts.get("flush"), v["verdict"],
                   v["cause"], v.get("second_cause"), "/".join(tn), ok]
            out.write("\t".join("" if x is None else (f"{x:.4g}" if isinstance(x, float) else str(x))
                                for x in row) + "\n")
out.close()

rows = list(csv.DictReader(open(table), delimiter="\t"))
print(f"{'codec':7} {'lay':5} {'sync':6} {'dirty':7} {'volume':7} {'T':>2} {'measured':>9} "
      f"{'predicted':>9} {'error':>7}  {'parts: compute+io+read+write+flush':36} "
      f"{'verdict (cause)':38} truth")
for r in rows:
    e = f"{100 * float(r['error']):+.1f}%" if r["error"] else "-"
    parts = "+".join(f"{float(r[k]):.2f}" if r[k] else "-"
                     for k in ("compute", "io_cpu", "read", "write", "flush"))
    vc = f"{r['verdict']} ({r['cause']}{' + ' + r['second'] if r['second'] else ''})"
    mark = "" if r["agrees"] in ("True", "") else "  <- disagrees"
    over = " (oversubscribed)" if r["over"] == "1" else ""
    print(f"{r['codec']:7} {r['layout']:5} {r['sync']:6} {r['dirty']:7} {r['volume']:7} "
          f"{r['T']:>2} {float(r['measured']):8.3f}s {float(r['predicted'] or 0):8.3f}s {e:>7}  "
          f"{parts:36} {vc:38} {r['truth']}{mark}{over}")

def summary(sel, label):
    errs = [abs(float(r["error"])) for r in sel if r["error"]]
    agree = [r for r in sel if r["agrees"] == "True"]
    judged = [r for r in sel if r["agrees"] in ("True", "False")]
    if not errs:
        print(f"{label}: no predictions")
        return
    print(f"{label}: {len(errs)} points, median |error| {100 * statistics.median(errs):.1f}%, "
          f"worst {100 * max(errs):.1f}%; verdict agrees with the physics at "
          f"{len(agree)} of {len(judged)}")

judged = [r for r in rows if r["volume"] != "shm"]
print()
summary([r for r in judged if r["over"] == "0"], "lab and emulated volumes, T up to the CPUs")
summary([r for r in judged if r["over"] == "1"], "oversubscribed points")
summary([r for r in rows if r["volume"] == "shm"], "/dev/shm (reported, not judged)")
PY
echo "tables and analyses in $out" >&2
