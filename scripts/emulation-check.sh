#!/usr/bin/env bash
# emulation-check.sh - does an emulated disk (TARGET@RATE) behave like a real volume of
# that speed, and does `predict --write RATE` agree with both?
#
#   scripts/emulation-check.sh [--rate 150] [--size 256M] [--codecs "zstd:1 zstd:9"]
#                              [--threads 1,2] [--reps 3] [--regimes "default small"]
#                              [--out DIR]
#
# One study per write-back regime runs memory, a lab volume throttled by the kernel's block
# throttle to RATE MB/s (scripts/lab-volumes.sh) and an emulated RATE MB/s disk in a
# directory on the local disk (chokepoint's DIR@RATE), in randomized blocks, fsync'd.
# "small" sets vm.dirty_background_bytes 32 MiB and vm.dirty_bytes 96 MiB for its study
# (restored afterwards, also after an interrupt); "default" keeps the host's. Then
# `predict STUDY --write RATE` predicts the same points from the memory runs alone.
#
# It prints, per regime, codec and thread count, the lab volume's and the emulated disk's
# median seconds (with their min-max), the prediction, and the three ratios: emulated /
# lab, predicted / lab and predicted / emulated. Root only (loop devices, the block
# throttle, sysctl); exits 77 without them. The studies stay in --out.
set -euo pipefail
cd "$(dirname "$0")/.."

rate=150 size=256M codecs="zstd:1 zstd:9" threads=1,2 reps=3 regimes="default small" out=""
while [ $# -gt 0 ]; do
    case $1 in
    --rate) rate=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --codecs) codecs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --regimes) regimes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "emulation-check.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[[ "$rate" =~ ^[0-9]+$ ]] || { echo "emulation-check.sh: --rate takes whole MB/s" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "emulation-check.sh: needs root (loop devices, the block throttle)" >&2; exit 77; }
CP=$PWD/build/chokepoint
[ -x "$CP" ] || scripts/setup.sh >&2
out=${out:-results/emulation-check-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

. scripts/writeback-thresholds.sh
export CHOKEPOINT_LAB_DIR=$out/lab CHOKEPOINT_LAB_VOLUMES="lab:$rate"
export CHOKEPOINT_LAB_CGROUP=chokepoint-emucheck-$$ CHOKEPOINT_LAB_SIZE=${CHOKEPOINT_LAB_SIZE:-3G}
cleanup() {
    restore_dirty
    scripts/lab-volumes.sh down >/dev/null 2>&1 || true
    rm -rf "$out/input.bin" "$out/emu"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$CP" fixture -o "$out/input.bin" --size "$size" --kind mixed --force -q
scripts/lab-volumes.sh up >/dev/null
lab_target=$(scripts/lab-volumes.sh targets)
mkdir -p "$out/emu"
codec_list=$(echo "$codecs" | tr ' ' ',')
for regime in $regimes; do
    case $regime in
    default) ;;
    small) sysctl -qw vm.dirty_background_bytes=33554432 vm.dirty_bytes=100663296 ;;
    *) echo "emulation-check.sh: unknown regime '$regime' (default, small)" >&2; exit 2 ;;
    esac
    echo "== $regime write-back thresholds" >&2
    scripts/lab-volumes.sh exec -- "$CP" run -i "$out/input.bin" -T "$threads" -c "$codec_list" \
        --reps "$reps" --out "$out/$regime" -q mem "$lab_target" "emu=$out/emu@${rate}MB/s" >&2
    restore_dirty
    "$CP" predict "$out/$regime" --write "pred=${rate}MB/s" --format json -q \
        -o "$out/$regime/predict.json" --force
done

python3 - "$out" "$regimes" <<'EOF'
import csv, json, statistics, sys
out, regimes = sys.argv[1], sys.argv[2].split()
print("| regime | codec | T | lab s (min-max) | emulated s (min-max) | predicted s | emu/lab | pred/lab | pred/emu |")
print("|---|---|---|---|---|---|---|---|---|")
for regime in regimes:
    runs = {}
    with open(f"{out}/{regime}/runs.csv") as f:
        for r in csv.DictReader(f):
            if r["valid"] == "1":
                runs.setdefault((r["target"], r["codec"], int(r["threads"])), []).append(float(r["seconds"]))
    pred = {(p["codec"], p["threads"]): p["seconds"]
            for p in json.load(open(f"{out}/{regime}/predict.json"))["predictions"]}
    for (codec, t), p in sorted(pred.items()):
        lab, emu = runs.get(("lab", codec, t)), runs.get(("emu", codec, t))
        if not lab or not emu:
            continue
        ml, me = statistics.median(lab), statistics.median(emu)
        print(f"| {regime} | {codec} | {t} | {ml:.2f} ({min(lab):.2f}-{max(lab):.2f}) | "
              f"{me:.2f} ({min(emu):.2f}-{max(emu):.2f}) | {p:.2f} | {me/ml-1:+.1%} | "
              f"{p/ml-1:+.1%} | {p/me-1:+.1%} |")
EOF
