#!/usr/bin/env bash
# predict against the truth: one study of the memory target and two throttled lab volumes
# (scripts/lab-volumes.sh), then `predict --volume` on the same volumes from that study's
# memory runs alone. Every predicted point must come within 10% of the measured time,
# beyond the noise of the runs it is judged by, both by the test's own rule
# (tests/cli/paired_runs.py): the study runs in randomized blocks, so a repetition's volume
# run and memory's ran next to each other at one CPU speed; the measured time is memory's
# median plus the median of the pairs' differences, the noise half the middle differences'
# range.
#
# A 32 MiB text fixture, zstd:9, T = 1 and 2, five repetitions, the default timing
# (buffered writes, fsync at the end). The caps are set from this machine's own speed, r1
# the bytes of output per second one thread produces into memory:
#   wb  at r1:      the flush of the output takes as long as the compression at T = 1:
#                   write-bound at both thread counts;
#   cpu at 30 x r1: the flush adds about 3% at T = 1: cpu-bound there.
# The predictions' premise is that the CPU does what the memory target's runs measured.
# Where the figures are not one machine's (a volume over 15% faster than memory in its
# blocks: the CPU's speed moved between paired runs) or too noisy for a 10% claim (a
# point's noise over 10% of its time), the study is measured again, three attempts at
# most, and the test fails with every attempt's figures if none can be judged. The page
# cache's background threshold is held above the output where it is lower (the premise of
# a flush at the end). Needs root, loop devices and a block-throttling cgroup; exits 77
# (skip) otherwise, and judges no time under the sanitizers.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_lab

CODEC=zstd:9
run "$CP" fixture -o "$WORK/in.bin" --size 32M --kind text -q
expect_status 0 "a 32 MiB text fixture"
# r1: output bytes per second into memory at T = 1, the best of three runs.
r1=$(for i in 1 2 3; do
         "$CP" compress -i "$WORK/in.bin" -o /dev/null -c "$CODEC" -T 1 --json -q --warm |
             jq '.output_bytes / .seconds'
     done | sort -g | tail -1)
wb_cap=$(awk -v r="$r1" 'BEGIN { c = int(r / 1e6 + 0.5); print c < 1 ? 1 : c }')
cpu_cap=$(awk -v r="$r1" 'BEGIN { printf "%d", 30 * r / 1e6 + 0.5 }')
echo "output rate into memory at T=1: $r1 B/s; caps: wb $wb_cap MB/s, cpu $cpu_cap MB/s"
lab_volumes "wb:$wb_cap cpu:$cpu_cap" 512M
read -r wb_target cpu_target <<< "$lab_targets"

hold_writeback_room $((64 * 1024 * 1024))

# attempt N: the study (the truth: memory and both volumes, runs in blocks) and the
# prediction from its memory runs alone (each volume probed now, inside the throttling
# cgroup, under a name of its own); 0 when the figures can be judged. Sets $worst.
attempt() {
    local study=$WORK/study-$1 figures
    run lab "$CP" run -i "$WORK/in.bin" -c "$CODEC" -T 1,2 --reps 5 --no-probe -q \
        --out "$study" mem "$wb_target" "$cpu_target"
    expect_status 0 "attempt $1: a study of memory and both volumes"
    run lab "$CP" predict "$study" --volume "p$wb_target" --volume "p$cpu_target" \
        --format json --force -o "$WORK/predict.json"
    expect_status 0 "attempt $1: predict --volume on both lab volumes"
    jq -r '.first_line, (.volumes[] | "\(.name): drain \(.drain_bytes_per_s) B/s (\(.drain_source))")' \
        "$WORK/predict.json" || true
    # The evidence, printed whatever follows: each point's prediction against the median.
    figures=$(PYTHONPATH=$SRC_DIR/tests/cli python3 - "$WORK/predict.json" "$study/runs.csv" <<'PY'
import json, sys
from paired_runs import describe, load, paired, unjudgeable
pred = json.load(open(sys.argv[1]))
rows = load(sys.argv[2])
worst, why = 0.0, []
for p in pred["predictions"]:
    name, t = p["volume"][1:], p["threads"]
    f = paired(rows, name, t)
    error = (p["seconds"] - f["measured"]) / f["measured"]
    worst = max(worst, max(0.0, abs(p["seconds"] - f["measured"]) - f["noise"]) / f["measured"])
    print(f'{describe(name, t, f)}; predicted {p["seconds"]:.3f} s ({p["verdict"]}, '
          f'{p["cause"]}): error {100 * error:+.1f}%', file=sys.stderr)
    why.append(unjudgeable(name, t, f))
print(f"{worst:.4f}", "; ".join(w for w in why if w))
PY
)
    worst=${figures%% *}
    unjudged=${figures#"$worst"}
    unjudged=${unjudged# }
    sanitized || [ -z "$unjudged" ]
}
measure_until_judged 3 attempt || { finish; exit 1; }
if sanitized; then
    skip "timings under the sanitizers are not the product's: every command ran, no time is judged"
fi

check "every prediction within 10% of the measured time (paired) beyond the runs' noise (worst $worst)" \
    awk -v w="$worst" 'BEGIN { exit !(w <= 0.10) }'
verdict() { jq -r --arg v "$1" --argjson t "$2" \
    '.predictions[] | select(.volume == $v and .threads == $t) | .verdict' "$WORK/predict.json"; }
check "wb at T=1 is predicted write-bound (got $(verdict pwb 1))" test "$(verdict pwb 1)" = write-bound
check "cpu at T=1 is predicted cpu-bound (got $(verdict pcpu 1))" test "$(verdict pcpu 1)" = cpu-bound
check "nothing left on the volumes" no_temp_files "${wb_target#wb=}"
finish
