#!/usr/bin/env bash
# Nothing measured is lost: SIGKILL during run's probe, sweep and analysis keeps every
# finished row and meta.json names the stage; run --resume measures only what is missing (no duplicate
# rows) and completes; leftovers of a dead PID are removed, a live one's kept; sweep -o
# keeps its rows in FILE.partial; second writers are refused; the memory estimate refuses
# what does not fit and stays honest; --sustained without sustained in --ops is refused.
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"
head -c 4000000 /dev/urandom > in.bin
mkdir t

# dead_pid: a PID that named a process which has exited
dead_pid() { sleep 0 & local p=$!; wait $p; echo $p; }

# wait_rows FILE N: until FILE has N lines (header included), at most 15 s
wait_rows() {
    for _ in $(seq 1 150); do
        [ "$(cat "$1" 2>/dev/null | wc -l)" -ge "$2" ] && return 0
        sleep 0.1
    done
    return 1
}

# duplicates FILE COLS: how many rows repeat the key made of columns COLS (cut -f list)
duplicates() { tail -n +2 "$1" | cut -d, -f"$2" | sort | uniq -d | wc -l; }

# ---- SIGKILL in the sweep, then --resume ----
"$CP" run -q -i in.bin -c copy --threads 1,2 --reps 2 --no-probe --seed 7 --out R \
    "t=$WORK/t@20MB/s" mem > /dev/null 2>&1 &
pid=$!
check "runs.csv gets rows while the sweep goes on" wait_rows R/runs.csv 3
rows_at_kill=$(($(wc -l < R/runs.csv) - 1))
kill -KILL $pid
wait $pid 2> /dev/null || true
rows=$(($(wc -l < R/runs.csv) - 1))
check "after SIGKILL runs.csv holds every row it had at the kill ($rows_at_kill, now $rows)" \
    test "$rows" -ge "$rows_at_kill"
check "after SIGKILL every line of runs.csv is whole (as many fields as the header)" \
    awk -F, 'NR == 1 { n = NF; next } NF != n { exit 1 }' R/runs.csv
check "after SIGKILL meta.json says running in stage sweep" \
    test "$(json_get R/meta.json 'm["status"] + "/" + m["stage"]')" = running/sweep
check "meta.json records the input's XXH3 hash" test -n "$(json_get R/meta.json 'm["input"]["xxh3"]')"
run "$CP" analyze R/runs.csv
check "analyze says the study was abandoned" grep -q "abandoned, its process died" "$WORK/err"

# A temporary file of a process that cannot exist (its PID above pid_max) beside whatever
# the killed run left: the resume must remove both, and say so in one line.
dead=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
printf 'partial output' > "t/cmd-output.$dead-0.chokepoint-tmp"
run "$CP" run --resume R
expect_status 0 "run --resume after SIGKILL"
check "the resume completes the table (8 runs)" test "$(($(wc -l < R/runs.csv) - 1))" -eq 8
check "no run is in runs.csv twice" test "$(duplicates R/runs.csv 1,2,4,5)" -eq 0
check "the runs kept from before were not measured again" \
    grep -q "resuming: $rows run(s) kept from before" "$WORK/err"
check "meta.json says complete and records the resume" \
    test "$(json_get R/meta.json 'm["status"] + "/" + str(m["resumes"][0]["runs_kept"])')" = "complete/$rows"
check "report.md and analysis.json written" test -s R/report.md -a -s R/analysis.json
check "the dead processes' temporary files are removed, said in one line" \
    test "$(grep -Ec 'removed [0-9]+ leftover temporary files? .* that died' "$WORK/err")" -eq 1
check "the planted one is gone" test ! -e "t/cmd-output.$dead-0.chokepoint-tmp"
check "nothing temporary is left on the target" no_temp_files t

run "$CP" run --resume R
expect_status 2 "--resume of a complete study"
check "the refusal says it is complete" grep -q "complete and every run succeeded; nothing to resume" "$WORK/err"
mkdir unrelated
run "$CP" run --resume unrelated
expect_status 2 "--resume of a directory that is no study"
run "$CP" run --resume R --threads 4
expect_status 2 "--resume takes no other options"
expect_one_line_error "^chokepoint: error: --resume takes no other options or targets \(but -q and --max-memory\): the study's own are recorded in its meta.json$" \
    "the refusal names the options it does take"
run "$CP" run --resume R --max-memory 1G -q
expect_status 2 "--resume with --max-memory, of a complete study"
expect_one_line_error "the study is complete and every run succeeded; nothing to resume" \
    "--max-memory is taken: the refusal is the complete study's"

# A study whose input changed since is refused in one line naming both hashes, and
# nothing is measured. (A study abandoned in the sweep, its input then rewritten.)
"$CP" run -q -i in.bin -c copy --threads 1 --reps 1 --no-probe --seed 7 --out C mem > /dev/null 2>&1
python3 -c "import json,sys; m=json.load(open(sys.argv[1])); m['status']='running'; m['stage']='sweep'; json.dump(m, open(sys.argv[1], 'w'))" C/meta.json
cp in.bin in.saved
head -c 4000000 /dev/urandom > in.bin
rows_before=$(wc -l < C/runs.csv)
run "$CP" run --resume C
expect_status 2 "--resume with a changed input"
check "the refusal is one error line naming the input and both hashes" bash -c \
    "[ \$(grep -c 'error:' '$WORK/err') = 1 ] && grep -Eq \"error: input '.*in.bin' is not the one this study measured .*XXH3 .*recorded .*XXH3\" '$WORK/err'"
check "nothing was measured on the changed input" test "$(wc -l < C/runs.csv)" -eq "$rows_before"
mv in.saved in.bin

# ---- SIGKILL in the probe, then --resume: probe rows are not doubled ----
"$CP" run -q -i in.bin -c copy --threads 1 --reps 2 --seed 7 --out P "t=$WORK/t@10MB/s" \
    > /dev/null 2>&1 &
pid=$!
check "probe.csv gets rows while the probe goes on" wait_rows P/probe.csv 2
kill -KILL $pid
wait $pid 2> /dev/null || true
check "after SIGKILL in the probe meta.json names it" \
    test "$(json_get P/meta.json 'm["stage"]')" = probe
run "$CP" run --resume P
expect_status 0 "run --resume after SIGKILL in the probe"
check "no probe row twice" test "$(duplicates P/probe.csv 1,2,3,4)" -eq 0
check "the probe is complete (2 ops x 1 size x 2 reps)" test "$(($(wc -l < P/probe.csv) - 1))" -eq 4

# ---- SIGKILL in the analysis stage (gnuplot drawing), then --resume: nothing measured again ----
printf '#!/bin/sh\ntouch "%s"\nsleep 0.3\n' "$WORK/gnuplot-started" > slow-gnuplot
chmod +x slow-gnuplot
CHOKEPOINT_GNUPLOT=$WORK/slow-gnuplot "$CP" run -q -i in.bin -c copy --threads 1,2 --reps 1 \
    --no-probe --seed 7 --out A mem > /dev/null 2>&1 &
pid=$!
check "run reaches its analysis stage (gnuplot started)" wait_for 60 test -e gnuplot-started
kill -KILL $pid
wait $pid 2> /dev/null || true
check "after SIGKILL in the analysis meta.json says running in stage analyze" \
    test "$(json_get A/meta.json 'm["status"] + "/" + m["stage"]')" = running/analyze
check "no report.md yet" test ! -e A/report.md
cp A/runs.csv runs.before
run "$CP" run --resume A
expect_status 0 "run --resume after SIGKILL in the analysis"
check "no run measured again: runs.csv as it was" cmp -s runs.before A/runs.csv
check "the resume says both runs were kept" grep -q "resuming: 2 run(s) kept from before" "$WORK/err"
check "the resume writes analysis.json and report.md" test -s A/analysis.json -a -s A/report.md
check "the resume writes the plot data" test -n "$(ls -A A/plot-data 2> /dev/null)"
if command -v gnuplot > /dev/null; then
    check "the resume draws the plots" test -n "$(find A -maxdepth 1 -name '*.png')"
fi
check "meta.json says complete" test "$(json_get A/meta.json 'm["status"]')" = complete
check "nothing temporary is left in the results" no_temp_files A

# ---- leftovers: a dead PID's removed, a live one's kept ----
dead=$(dead_pid)
sleep 30 &
live=$!
CLEANUP_HOOKS+=("kill $live")
head -c 1000 /dev/zero > "t/.x.zst.$dead-3.chokepoint-tmp"
head -c 1000 /dev/zero > "t/.x.zst.$live-3.chokepoint-tmp"
ln -s /nonexistent "t/.y.zst.$dead-4.chokepoint-tmp"
run "$CP" compress -i in.bin -o t/x.zst -c zstd:1
expect_status 0 "compress into a directory with leftovers"
check "the dead process's file is removed" test ! -e "t/.x.zst.$dead-3.chokepoint-tmp"
check "the live process's file is kept" test -e "t/.x.zst.$live-3.chokepoint-tmp"
check "a symlink named like a leftover is kept" test -L "t/.y.zst.$dead-4.chokepoint-tmp"
check "one line says so" test "$(grep -c "removed 1 leftover temporary file.*pid $dead" "$WORK/err")" -eq 1
rm -f t/x.zst "t/.x.zst.$live-3.chokepoint-tmp" "t/.y.zst.$dead-4.chokepoint-tmp"

# ---- sweep -o FILE: rows in FILE.partial until the end; a second writer is refused ----
"$CP" sweep -q -i in.bin -c copy -T 1 --reps 3 --no-warmup "t=$WORK/t@10MB/s" -o runs.csv &
pid=$!
check "sweep -o keeps its rows in runs.csv.partial" wait_rows runs.csv.partial 2
run "$CP" sweep -q -i in.bin -c copy -T 1 --reps 1 --no-warmup mem -o runs.csv
expect_status 2 "a second sweep on the same -o file"
check "the refusal names the other writer" grep -q "being written by another chokepoint" "$WORK/err"
rows_at_kill=$(($(wc -l < runs.csv.partial) - 1))
kill -KILL $pid
wait $pid 2> /dev/null || true
rows=$(($(wc -l < runs.csv.partial) - 1))
check "after SIGKILL runs.csv.partial holds every row it had at the kill ($rows_at_kill, now $rows)" \
    test "$rows" -ge "$rows_at_kill"
check "after SIGKILL every line of runs.csv.partial is whole (as many fields as the header)" \
    awk -F, 'NR == 1 { n = NF; next } NF != n { exit 1 }' runs.csv.partial
check "no runs.csv yet" test ! -e runs.csv
run "$CP" sweep -q -i in.bin -c copy -T 1 --reps 1 --no-warmup mem -o runs.csv
expect_status 2 "a stopped sweep's rows are not overwritten"
check "the refusal says where the rows are" grep -q "holds the rows of an earlier command" "$WORK/err"
run "$CP" sweep -q -i in.bin -c copy -T 1 --reps 1 --no-warmup mem -o runs.csv --force
expect_status 0 "--force replaces a stopped sweep's rows"
check "--force: runs.csv holds the new run alone, and the .partial is gone" \
    test "$(($(wc -l < runs.csv) - 1))" -eq 1 -a ! -e runs.csv.partial
rm -f runs.csv runs.csv.partial

# ---- a live study's directory is not resumed twice ----
"$CP" run -q -i in.bin -c copy --threads 1 --reps 3 --no-probe --out L "t=$WORK/t@5MB/s" \
    > /dev/null 2>&1 &
pid=$!
check "the study being resumed has started (runs.csv exists)" wait_rows L/runs.csv 1
run "$CP" run --resume L
expect_status 2 "--resume of a study still running"
check "the refusal names the running process" grep -q "in use by a running chokepoint process (pid $pid)" "$WORK/err"
kill -KILL $pid
wait $pid 2> /dev/null || true

# ---- memory: refused with the estimate and what fits; the estimate is honest ----
run "$CP" compress -i in.bin -o /dev/null -c xz:9 -T 64 --max-memory 4G
expect_status 2 "xz:9 at 64 threads in 4 GB"
expect_one_line_error "needs an estimated [0-9.]+ GB .*at most [0-9]+ threads fit" \
    "the refusal gives the estimate and the thread count that fits"
run "$CP" sweep -i in.bin -c zstd:19 -T 1,8 --max-memory 100M mem
expect_status 2 "sweep refuses before it starts"
# Text that fills every slot of the ring and several of zstd's jobs (2 MiB at level 1).
# Under AddressSanitizer (scripts/ci-sanitize.sh sets ASAN_OPTIONS) every allocation carries
# redzones and a quarantine, so peak RSS says nothing about the estimate there.
head -c 6000000 /dev/urandom | base64 -w 100 > text.in
jobs=("zstd:1 blocks" "zstd:1 native" "xz:1 blocks" "xz:1 native")
if [ -n "${ASAN_OPTIONS:-}" ]; then
    skip_check "peak RSS against the memory estimate: the sanitizers' redzones and quarantine inflate it"
    jobs=()
fi
for job in "${jobs[@]+"${jobs[@]}"}"; do
    set -- $job
    run "$CP" compress -q -i text.in -o /dev/null -c "$1" -T 2 --engine "$2" --block-size 1M --json
    ratio=$(python3 -c "import json; d=json.load(open('$WORK/out')); print(d['max_rss_bytes'] / d['mem_estimate_bytes'])")
    check "$1 $2: peak RSS within the estimate and not far below it (ratio $ratio)" \
        python3 -c "import sys; r=float('$ratio'); sys.exit(0 if 0.3 <= r <= 1.0 else 1)"
done

# ---- options that would do nothing are refused ----
run "$CP" probe --sustained 64M --ops write t
expect_status 2 "--sustained without sustained in --ops"
expect_one_line_error "lacks sustained" "the refusal says why"
run "$CP" probe --force t
expect_status 2 "probe --force without -o"
run "$CP" run -i in.bin --keep-input mem
expect_status 2 "run --keep-input with -i"

finish
