#!/usr/bin/env bash
# chokepoint run --quick: the whole study produces every file (runs.csv, probe.csv,
# analysis.json, report.md, valid plots, meta.json), prints the verdict table, keeps stderr
# free of carriage returns when it is not a terminal, and handles --out and interrupts; a
# study of three repetitions holds the verdicts of the real disk and a capped volume to
# what the runs alone say (measured again where they cannot say, three attempts at most).
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
check "it says where the report is" grep -q "report: $out/report.md" "$WORK/out"
check "stderr has no carriage returns" bash -c "! grep -q $'\r' '$WORK/err'"
check "meta.json says complete" grep -q '"status": "complete"' "$out/meta.json"
check "meta.json records the host and targets" bash -c "grep -q '\"cpu_model\"' '$out/meta.json' && grep -q '\"fs_type\"' '$out/meta.json' && grep -q '\"seed\"' '$out/meta.json'"
check "the generated input is removed" test ! -e "$out/input.bin"

# The verdicts against what is known without the analysis, judged on a study of their own:
# three repetitions at 2 threads of mem, the real disk ("local") and a 10 MB/s cap. The
# study runs in randomized blocks, so a repetition's local run and memory's ran next to
# each other at one CPU speed: the ratio is the median over the repetitions of local's
# time over memory's in its block.
#   local, x1.05 or less: it ran as fast as memory, held back by nothing memory was not:
#     not write-bound or read-bound (cpu-bound, balanced with compute as a term, or
#     unexplained where the volume's probed figures predicted a wait that did not come);
#   local, x1.35 or more: it was held back, so compute is not its cause;
#   local in between: its truth is not known from the runs, so the study is measured
#     again (three attempts at most; then the test fails with every attempt's figures);
#   capped: its output over the cap takes at least twice memory's whole run (checked, or
#     measured again), so the job waits on writing: write-bound.
# Figures taken while other processes took more than a quarter of a core (beyond all but
# two CPUs) are not judged either: the pairs' CPU speeds then differ.
verdict_at() { # STUDY TARGET: "verdict cause second_cause unexplained" at 2 threads
    python3 - "$1/analysis.json" "$2" <<'PY'
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["targets"] if t["name"] == sys.argv[2]][0]
v = [v for v in t["verdicts"] if v["threads"] == 2][0]
print(v["verdict"], v["cause"], v.get("second_cause"), v.get("unexplained"))
PY
}
judged_study() {
    local study=$WORK/judged-$1 figures
    mkdir -p "$WORK/local-$1" "$WORK/capped-$1"
    run "$CP" run --quick --reps 3 --threads 2 -q --out "$study" mem local="$WORK/local-$1" \
        capped="$WORK/capped-$1@10MB/s"
    expect_status 0 "attempt $1: a study of three repetitions at 2 threads"
    cp "$WORK/out" "$WORK/judged.table"
    # "ratio reps capped_write_s mem_s others": local over memory, per repetition in its
    # block; the most of a core other processes took during memory's runs (the machine's
    # busy share of all its CPUs less the run's own CPU time; local's runs also pay the
    # kernel's write-back, a part of their truth).
    figures=$(python3 - "$study/runs.csv" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["valid"] == "1" and r["threads"] == "2"]
by = lambda t: {r["rep"]: float(r["seconds"]) for r in rows if r["target"] == t}
mem, local = by("mem"), by("local")
ratios = [local[k] / mem[k] for k in local if k in mem]
out_b = statistics.median(float(r["output_bytes"]) for r in rows if r["target"] == "capped")
others = max(((1 - float(r["cpu_idle_share"]) - float(r["cpu_iowait_share"] or 0)) * int(r["online_cpus"])
              - (float(r["cpu_user_s"]) + float(r["cpu_sys_s"])) / float(r["seconds"])
              for r in rows if r["target"] == "mem"), default=0.0)
print(f"{statistics.median(ratios):.3f} {len(ratios)} {out_b / 10e6:.2f} {statistics.median(mem.values()):.2f} {max(0.0, others):.2f}")
PY
)
    read -r local_ratio pairs write_s mem_s others <<< "$figures"
    is_figure "attempt $1: local's ratio to memory, its pairs, the capped output's time at the cap, memory's time, others' load" \
        "$local_ratio" "$pairs" "$write_s" "$mem_s" "$others" || return 1
    check "attempt $1: every repetition of local has memory's beside it ($pairs of 3)" test "$pairs" -eq 3
    read -r got_verdict got_cause got_second got_why < <(verdict_at "$study" local)
    read -r cap_verdict cap_cause _ < <(verdict_at "$study" capped)
    local_at="local at 2 threads took x$local_ratio memory's time in its blocks: $got_verdict ($got_cause, $got_second, $got_why)"
    sanitized && return 0 # no time is judged there: one attempt runs every command
    unjudged=""
    # Another load makes a pair's CPU speeds differ: the ratio then says nothing of the
    # volume (a quarter of a core, or all but two of the CPUs the runs need, is allowed).
    awk -v o="$others" -v c="$(nproc)" 'BEGIN { a = c - 2 + 0.25; exit !(o > (a > 0.25 ? a : 0.25)) }' &&
        unjudged="other processes took $others of a core during memory's runs"
    awk -v r="$local_ratio" 'BEGIN { exit !(r > 1.05 && r < 1.35) }' &&
        unjudged="${unjudged:+$unjudged; }$local_at, too near the tolerance to know its truth"
    awk -v w="$write_s" -v m="$mem_s" 'BEGIN { exit !(w < 2 * m) }' &&
        unjudged="${unjudged:+$unjudged; }the capped output takes $write_s s at the cap, under twice memory's $mem_s s"
    [ -z "$unjudged" ]
}
if need_python3; then
    measure_until_judged 3 judged_study
    if sanitized; then
        skip_check "local's and the capped volume's verdicts: timings under the sanitizers are not the product's"
    elif [ -n "${got_verdict:-}" ] && [ -z "$unjudged" ]; then
        if awk -v r="$local_ratio" 'BEGIN { exit !(r <= 1.05) }'; then
            check "$local_at: at memory's speed, not held back by the volume" bash -c \
                "[ '$got_verdict $got_cause' = 'cpu-bound compute' ] || [ '$got_verdict' = unexplained ] || { [ '$got_verdict' = balanced ] && [ '$got_cause' = compute -o '$got_second' = compute ]; }"
            check "the verdict table says so" grep -Eq "^local \(zstd:3\) +2 $got_verdict " "$WORK/judged.table"
        else
            check "$local_at: held back, so compute is not its cause" \
                test "$got_cause" != compute -a "$got_second" != compute
        fi
        check "the 10 MB/s volume is write-bound at 2 threads (output $write_s s at the cap, memory $mem_s s): $cap_verdict $cap_cause" \
            bash -c "[ '$cap_verdict $cap_cause' = 'write-bound write-throughput' ] || [ '$cap_verdict $cap_cause' = 'write-bound flush-tail' ]"
        check "the verdict table says so" grep -Eq "^capped \(zstd:3, emulated 10 MB/s (cap|disk)\) +2 write-bound " "$WORK/judged.table"
    fi
fi

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
