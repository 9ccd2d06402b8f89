#!/usr/bin/env bash
# chokepoint run --quick: the whole study produces every file (runs.csv, probe.csv,
# analysis.json, report.md, valid plots, meta.json), prints the verdict table, keeps stderr
# free of carriage returns when it is not a terminal, and handles --out and interrupts.
source "$(dirname "$0")/lib.sh"
set -e

cd "$WORK"
out=$WORK/study
mkdir -p "$WORK/capped"
run "$CP" run --quick --threads 1,2 --out "$out" mem local="$WORK" capped="$WORK/capped@40MB/s"
expect_status 0 "run --quick"
# Files with a header hold rows, not just the header: 6 runs; probe rows for local.
check "runs.csv holds 6 runs" test "$(data_rows "$out/runs.csv")" -eq 6
check "probe.csv holds rows for local" test "$(grep -c '^local,' "$out/probe.csv")" -ge 2
for f in analysis.json report.md meta.json; do
    check "$f written" test -s "$out/$f"
done
for p in time_vs_threads rate_vs_threads bottleneck probe rate_vs_write; do
    check "$p.png is a PNG" bash -c "head -c 8 '$out/$p.png' | od -An -tx1 | tr -d ' \n' | grep -qx 89504e470d0a1a0a"
done
check "report.md embeds the plots" grep -q '](bottleneck.png)' "$out/report.md"
# What limited the real disk ("local") is not known in advance, but two things are, from
# runs.csv alone. The study runs in randomized blocks, so local's run at 2 threads and
# memory's ran next to each other, at one CPU speed (tests/cli/paired_runs.py): a point that
# ran as fast as memory (within 5%, inside the 10% tolerance) was held back by nothing
# memory was not, so it is not write-bound or read-bound (it may be cpu-bound, balanced with
# compute as a term, or unexplained where the volume's probed figures predicted a wait that
# did not come: a figure is wrong, and it says so); one that took 1.35x memory's time or
# more was held back, so compute is not its cause. In between the truth is not known from
# the runs: that check is listed as skipped, with the figures.
if need_python3; then
    read -r local_s mem2_s < <(PYTHONPATH=$SRC_DIR/tests/cli python3 - "$out/runs.csv" <<'PY'
from paired_runs import load, paired
import sys
p = paired(load(sys.argv[1]), "local", 2)
print(p["measured"], p["mem"])
PY
)
    local_ratio=$(awk -v a="$local_s" -v b="$mem2_s" 'BEGIN { printf "%.3f", a / b }')
    read -r got_verdict got_cause got_second got_why < <(python3 -c "import json; a=json.load(open('$out/analysis.json')); t=[t for t in a['targets'] if t['name']=='local'][0]; v=[v for v in t['verdicts'] if v['threads']==2][0]; print(v['verdict'], v['cause'], v.get('second_cause'), v.get('unexplained'))")
    local_at="local at 2 threads took ${local_s} s, memory ${mem2_s} s in its block (x${local_ratio}): $got_verdict ($got_cause, $got_second, $got_why)"
    if sanitized; then
        skip_check "local's verdict: timings under the sanitizers are not the product's"
    elif awk -v r="$local_ratio" 'BEGIN { exit !(r <= 1.05) }'; then
        check "$local_at: at memory's speed, not held back by the volume" bash -c \
            "[ '$got_verdict $got_cause' = 'cpu-bound compute' ] || [ '$got_verdict' = unexplained ] || { [ '$got_verdict' = balanced ] && [ '$got_cause' = compute -o '$got_second' = compute ]; }"
        check "the verdict table says so" grep -Eq "^local \(zstd:3\) +2 $got_verdict " "$WORK/out"
    elif awk -v r="$local_ratio" 'BEGIN { exit !(r >= 1.35) }'; then
        check "$local_at: held back, so compute is not its cause" \
            test "$got_cause" != compute -a "$got_second" != compute
    else
        skip_check "local's verdict: $local_at, too near the tolerance to know its truth"
    fi
    # The capped volume's truth is known without the analysis: at T=2 its output over the
    # 40 MB/s cap takes far longer than the memory target's whole run, so the job waits
    # on writing: during the run where a cap paces each write, at the fsync's flush where
    # an emulated disk (as root) took the output into the page cache. Worked out here from runs.csv alone; the check applies only when the
    # margin is at least 2x (a very slow machine could make compute comparable).
    capped_truth=$(python3 - "$out/runs.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["threads"] == "2"]
mem_s = [float(r["seconds"]) for r in rows if r["target"] == "mem"][0]
out_b = [float(r["output_bytes"]) for r in rows if r["target"] == "capped"][0]
print("write-bound" if out_b / 40e6 >= 2 * mem_s else "unclear", round(out_b / 40e6, 2), round(mem_s, 2))
PY
)
    read -r truth write_s mem_s <<< "$capped_truth"
    if sanitized; then
        skip_check "the capped volume's verdict: timings under the sanitizers are not the product's"
    elif [ "$truth" = write-bound ]; then
        got=$(python3 -c "import json; a=json.load(open('$out/analysis.json')); t=[t for t in a['targets'] if t['name']=='capped'][0]; v=[v for v in t['verdicts'] if v['threads']==2][0]; print(v['verdict'], v['cause'])")
        check "the 40 MB/s volume is write-bound at 2 threads (output ${write_s} s at the cap, memory ${mem_s} s): $got" \
            bash -c "[ '$got' = 'write-bound write-throughput' ] || [ '$got' = 'write-bound flush-tail' ]"
        check "the verdict table says so" grep -Eq "^capped \(zstd:3, emulated 40 MB/s (cap|disk)\) +2 write-bound " "$WORK/out"
    else
        skip_check "the capped volume's truth is unclear on this machine ($capped_truth)"
    fi
fi
check "it says where the report is" grep -q "report: $out/report.md" "$WORK/out"
check "stderr has no carriage returns" bash -c "! grep -q $'\r' '$WORK/err'"
check "meta.json says complete" grep -q '"status": "complete"' "$out/meta.json"
check "meta.json records the host and targets" bash -c "grep -q '\"cpu_model\"' '$out/meta.json' && grep -q '\"fs_type\"' '$out/meta.json' && grep -q '\"seed\"' '$out/meta.json'"
check "the generated input is removed" test ! -e "$out/input.bin"

run "$CP" run --quick --out "$out" mem
expect_status 2 "a non-empty --out is refused"
expect_one_line_error "not empty" "the refusal says why"
run "$CP" run --quick --threads 0
expect_status 2 "--threads 0"
run "$CP" run -i "$WORK/missing" mem
expect_status 2 "missing input"

# Defaults: no TARGET means the results volume, /dev/shm and mem; results/<stamp>-<host>/.
run "$CP" run --quick --threads 1 --no-probe -q
expect_status 0 "run with default targets"
dir=$(ls -d "$WORK"/results/*-* 2>/dev/null | head -1)
check "results/<stamp>-<host>/ created" test -n "$dir"
check "the default targets include local and mem" bash -c "grep -q '^local,' '$dir/runs.csv' && grep -q '^mem,' '$dir/runs.csv'"
check "--quiet leaves stderr empty" test ! -s "$WORK/err"

# Interrupted: what was measured is kept, meta.json says so, exit 130, no temp files.
mkdir -p "$WORK/slow"
set +e
"$CP" run --quick --threads 1,2 --no-probe --out "$WORK/int" -q mem slow="$WORK/slow@20MB/s" > /dev/null 2> "$WORK/err" &
pid=$!
# Wait until at least one row is on disk (header + 1 line in the temporary runs.csv).
for _ in $(seq 1 300); do
    rows=$(cat "$WORK"/int/runs.csv 2>/dev/null | wc -l)
    [ "$rows" -ge 2 ] && break
    sleep 0.1
done
[ "$rows" -ge 2 ] || not_ok "no measured row appeared in 30 s (the interrupt below proves less)"
kill -INT $pid
wait $pid
status=$?
set -e
expect_status 130 "SIGINT during run"
check "our handler ran: stderr says interrupted" grep -q "interrupted" "$WORK/err"
check "meta.json says interrupted" grep -q '"status": "interrupted"' "$WORK/int/meta.json"
check "runs.csv kept the $((rows - 1)) row(s) measured before the signal" \
    test "$(data_rows "$WORK/int/runs.csv")" -ge $((rows - 1))
check "no temporary files left" no_temp_files "$WORK"
check "nothing left in the slow target" test -z "$(find "$WORK/slow" -mindepth 1)"
finish
