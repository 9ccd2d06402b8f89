#!/usr/bin/env bash
# Ctrl-C and SIGTERM at several points of compress, sweep, probe, run (fixture, probe,
# plot), analyze and plot: exit 130 within STOP_LIMIT_S of the signal with our handler's
# message, nothing chokepoint created is left in any directory, an existing file is never
# damaged, and the rows measured before the signal are kept. Each signal waits for the state
# it means to hit (a temporary file, a row on disk, gnuplot started), never a fixed sleep.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults_lib.sh"
set -e
# run's fixture step below checks its volume's room for 2 GiB before it writes a byte.
need_free_space $((2150 * 1024 * 1024)) "$WORK"

# Text that xz compresses slowly (seconds on 2 threads), and random data for the copy codec.
head -c 27000000 /dev/urandom | base64 -w 100 > "$WORK/text"
head -c 4000000 /dev/urandom > "$WORK/rand4m"
mkdir "$WORK/dst" "$WORK/t" "$WORK/p"

# ---- compress: blocks engine early and mid-run, native engine, both signals ----
# Early: the output's temporary file exists; mid-run: it holds compressed data.
for point in "created INT blocks" "written INT blocks" "written TERM blocks" "written INT native" \
    "written TERM native"; do
    set -- $point
    codec=xz:6
    [ "$3" = native ] && codec=xz:1
    cond="has_temp '$WORK/dst'"
    [ "$1" = written ] && cond="has_temp '$WORK/dst' 0"
    signal_when "$cond" "$2" "$CP" compress -q -i "$WORK/text" -o "$WORK/dst/x.xz" -c $codec -T 2 \
        --engine "$3" --block-size 256K
    expect_prompt_stop "compress $3, SIG$2 once the output is $1"
    expect_handler "compress $3, SIG$2"
    check "compress $3, SIG$2 once $1: no output and no temporary file" \
        test -z "$(ls -A "$WORK/dst")"
done

# An interrupted --force run leaves the file it would have replaced as it was.
echo precious > "$WORK/dst/keep.xz"
signal_when "has_temp '$WORK/dst'" INT "$CP" compress -q -i "$WORK/text" -o "$WORK/dst/keep.xz" -c xz:6 -T 2 \
    --block-size 256K --force
expect_prompt_stop "compress --force over an existing file"
check "the existing output is untouched" test "$(cat "$WORK/dst/keep.xz")" = precious
check "no temporary file beside it" no_temp_files "$WORK/dst"
rm -f "$WORK/dst/keep.xz"

# ---- sweep: a target capped at 5 MB/s, 0.8 s per run ----
sweep() {
    exec "$CP" sweep -q -i "$WORK/rand4m" -c copy -T 1 --reps 3 --no-warmup --seed 1 \
        "slow=$WORK/t@5MB/s" -o "$WORK/runs.csv" "$@"
}
signal_when "has_temp '$WORK/t'" INT sweep
expect_prompt_stop "sweep, SIGINT during the first run"
check "no runs.csv when no run finished" test ! -e "$WORK/runs.csv"
check "no temporary files in the target or beside -o" no_temp_files "$WORK"

for point in "2 INT 1" "3 TERM 2"; do
    set -- $point
    signal_when "lines_at_least $1 '$WORK/runs.csv.partial'" "$2" sweep
    expect_prompt_stop "sweep, SIG$2 after $3 row(s)"
    expect_handler "sweep, SIG$2"
    set -- "after $3 row(s)" "$2" "$3"
    rows=$(csv_rows "$WORK/runs.csv")
    check "sweep, SIG$2 at $1 s: the $3 finished row(s) are kept ($rows kept)" test "$rows" -ge "$3"
    check "sweep, SIG$2 at $1 s: the kept rows are valid" \
        test "$(csv_field "$WORK/runs.csv" 1 valid)" = 1
    check "sweep, SIG$2 at $1 s: the run cut short is not a row" test "$rows" -lt 3
    check "sweep, SIG$2 at $1 s: no temporary files anywhere" no_temp_files "$WORK"
    check "sweep, SIG$2 at $1 s: the target is empty" test -z "$(ls -A "$WORK/t")"
    rm -f "$WORK/runs.csv"
done

# ---- sweep --decompress --engine native: SIGINT while liblzma's threaded decoder restores
# onto a target capped at 20 MB/s (the 36 MB text takes about 2 s) ----
restoring() { [ -n "$(find "$WORK/t" -name '.chokepoint-run*chokepoint-tmp*' -size +0c)" ]; }
signal_when restoring INT "$CP" sweep -q -i "$WORK/text" --decompress --engine native -c xz:1 \
    -T 2 --reps 1 --no-warmup --layout same "slow=$WORK/t@20MB/s" -o "$WORK/runs.csv"
expect_prompt_stop "sweep --decompress --engine native, SIGINT while restoring"
expect_handler "sweep --decompress --engine native, SIGINT"
check "native restore, SIGINT: no archive, output or rows left" \
    test -z "$(ls -A "$WORK/t")" -a ! -e "$WORK/runs.csv"
check "native restore, SIGINT: no temporary files anywhere" no_temp_files "$WORK"

# ---- probe: 2 MB files at 5 MB/s, 0.4 s per write ----
probe() {
    exec "$CP" probe -q --sizes 2MB --reps 4 --seed 1 "slow=$WORK/p@5MB/s" -o "$WORK/probe.csv"
}
for point in "0 INT 0" "3 TERM 2"; do
    set -- $point
    if [ "$1" = 0 ]; then cond="has_temp '$WORK/p'"; else
        cond="lines_at_least $1 '$WORK/probe.csv.partial'"; fi
    signal_when "$cond" "$2" probe
    expect_prompt_stop "probe, SIG$2 after $3 row(s)"
    expect_handler "probe, SIG$2"
    set -- "after $3 row(s)" "$2" "$3"
    rows=$(csv_rows "$WORK/probe.csv")
    check "probe, SIG$2 at $1 s: the CSV keeps the $3+ rows measured ($rows)" test "$rows" -ge "$3"
    check "probe, SIG$2 at $1 s: not every row was measured" test "$rows" -lt 8
    check "probe, SIG$2 at $1 s: no temporary files anywhere" no_temp_files "$WORK"
    check "probe, SIG$2 at $1 s: the target is empty" test -z "$(ls -A "$WORK/p")"
    rm -f "$WORK/probe.csv"
done

# ---- run: SIGINT in its fixture, probe and plot stages ----
meta_stage() {
    python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(m['status'] + '/' + m['stage'])" "$1"
}
# A gnuplot that says it started, then takes a while and draws nothing.
printf '#!/bin/sh\ntouch "%s"\nsleep 0.5\n' "$WORK/gnuplot-started" > "$WORK/slow-gnuplot"
chmod +x "$WORK/slow-gnuplot"
export CHOKEPOINT_GNUPLOT=$WORK/slow-gnuplot

# Fixture: once the generated input holds data.
signal_when "has_temp '$WORK/RF' 1000000" INT "$CP" run -q --fixture-size 2G -c copy -T 1 \
    --reps 1 --no-probe --out "$WORK/RF" mem
expect_prompt_stop "run, SIGINT while generating the fixture"
expect_handler "run in its fixture"
check "run in its fixture: no half-written input or temporary file" \
    test ! -e "$WORK/RF/input.bin" -a -z "$(find "$WORK/RF" -name '*chokepoint-tmp*')"
need_python3 && check "run in its fixture: meta.json says interrupted/fixture" \
    test "$(meta_stage "$WORK/RF/meta.json")" = interrupted/fixture

# Probe: once a probe row is on disk, the next write is under way.
signal_when "lines_at_least 2 '$WORK/RP/probe.csv'" INT "$CP" run -q -i "$WORK/rand4m" -c copy \
    -T 1 --reps 2 --out "$WORK/RP" "slow=$WORK/p@5MB/s"
expect_prompt_stop "run, SIGINT in the probe"
expect_handler "run in its probe"
check "run in its probe: the probe rows measured are kept" test "$(csv_rows "$WORK/RP/probe.csv")" -ge 1
check "run in its probe: no runs measured" test "$(csv_rows "$WORK/RP/runs.csv")" -eq 0
check "run in its probe: no temporary files in the target or results" no_temp_files "$WORK"
need_python3 && check "run in its probe: meta.json says interrupted/probe" \
    test "$(meta_stage "$WORK/RP/meta.json")" = interrupted/probe

# Plot: once gnuplot has started; nothing half-drawn and no report.md.
rm -f "$WORK/gnuplot-started"
signal_when "test -e '$WORK/gnuplot-started'" INT "$CP" run -q -i "$WORK/rand4m" -c copy -T 1 \
    --reps 1 --no-probe --out "$WORK/RG" mem
expect_prompt_stop "run, SIGINT while plotting"
expect_handler "run while plotting"
check "run while plotting: the run is kept" test "$(csv_rows "$WORK/RG/runs.csv")" -eq 1
check "run while plotting: no image, no report.md, no temporary file" \
    test -z "$(find "$WORK/RG" -name '*.png' -o -name report.md -o -name '*chokepoint-tmp*')"
need_python3 && check "run while plotting: meta.json says interrupted in its analyze stage" \
    test "$(meta_stage "$WORK/RG/meta.json")" = interrupted/analyze

# ---- plot --force: SIGINT while gnuplot draws; an existing report.md is left as it was ----
echo "earlier report" > "$WORK/RG/report.md"
rm -f "$WORK/gnuplot-started"
signal_when "test -e '$WORK/gnuplot-started'" INT "$CP" plot -q --force "$WORK/RG"
expect_prompt_stop "plot, SIGINT while gnuplot draws"
expect_handler "plot"
check "plot: report.md untouched, no image, no temporary file" \
    test "$(cat "$WORK/RG/report.md")" = "earlier report" -a \
    -z "$(find "$WORK/RG" -name '*.png' -o -name '*chokepoint-tmp*')"
unset CHOKEPOINT_GNUPLOT

# ---- analyze: a FIFO as its table is refused at once, never waited on ----
mkfifo "$WORK/fifo.csv"
run timeout -k 1 10 "$CP" analyze -q "$WORK/fifo.csv" -o "$WORK/analysis.txt"
expect_status 2 "analyze on a FIFO"
expect_one_line_error "fifo\.csv: is a FIFO, not a regular file" "analyze on a FIFO: one line naming it"
check "analyze on a FIFO: no output file and no temporary file" \
    test ! -e "$WORK/analysis.txt" -a -z "$(find "$WORK" -maxdepth 1 -name '*chokepoint-tmp*')"

# ---- a second signal while unwinding still exits 130 and cleans up ----
# The first SIGINT goes once a run is writing; the second only when the first is no longer
# pending (our handler took it), so the two cannot merge into one.
"$CP" sweep -q -i "$WORK/rand4m" -c copy -T 1 --reps 3 --no-warmup "slow=$WORK/t@5MB/s" \
    -o "$WORK/runs.csv" > /dev/null 2> "$WORK/err" &
pid=$!
check "two SIGINTs: a run is writing before the first" wait_for 30 has_temp "$WORK/t"
kill -INT $pid
check "two SIGINTs: the first was taken by the handler before the second" wait_for 10 handled $pid INT
kill -INT $pid 2> /dev/null || true
set +e; wait $pid; status=$?; set -e
expect_status 130 "sweep, two SIGINTs in a row"
check "two SIGINTs: no temporary files anywhere" no_temp_files "$WORK"
rm -f "$WORK/runs.csv"

finish
