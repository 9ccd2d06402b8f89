#!/usr/bin/env bash
# Ctrl-C and SIGTERM at several points of compress, sweep and probe: exit 130 within
# STOP_LIMIT_S of the signal, nothing chokepoint created is left in any directory, an
# existing file is never damaged, and the rows measured before the signal are kept.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults_lib.sh"
set -e

# Text that xz compresses slowly (seconds on 2 threads), and random data for the copy codec.
head -c 27000000 /dev/urandom | base64 -w 100 > "$WORK/text"
head -c 4000000 /dev/urandom > "$WORK/rand4m"
mkdir "$WORK/dst" "$WORK/t" "$WORK/p"

# ---- compress: blocks engine early and mid-run, native engine, both signals ----
for point in "0.3 INT blocks" "1.2 INT blocks" "0.8 TERM blocks" "1.0 INT native" "1.0 TERM native"; do
    set -- $point
    codec=xz:6
    [ "$3" = native ] && codec=xz:1
    signal_after "$1" "$2" "$CP" compress -q -i "$WORK/text" -o "$WORK/dst/x.xz" -c $codec -T 2 \
        --engine "$3" --block-size 256K
    expect_prompt_stop "compress $3, SIG$2 at $1 s"
    check "compress $3, SIG$2 at $1 s: no output and no temporary file" \
        test -z "$(ls -A "$WORK/dst")"
done

# An interrupted --force run leaves the file it would have replaced as it was.
echo precious > "$WORK/dst/keep.xz"
signal_after 0.5 INT "$CP" compress -q -i "$WORK/text" -o "$WORK/dst/keep.xz" -c xz:6 -T 2 \
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
signal_after 0.3 INT sweep
expect_prompt_stop "sweep, SIGINT during the first run"
check "no runs.csv when no run finished" test ! -e "$WORK/runs.csv"
check "no temporary files in the target or beside -o" no_temp_files "$WORK"

for point in "1.2 INT 1" "2.0 TERM 2"; do
    set -- $point
    signal_after "$1" "$2" sweep
    expect_prompt_stop "sweep, SIG$2 at $1 s"
    rows=$(csv_rows "$WORK/runs.csv")
    check "sweep, SIG$2 at $1 s: the $3 finished row(s) are kept ($rows kept)" test "$rows" -ge "$3"
    check "sweep, SIG$2 at $1 s: the kept rows are valid" \
        test "$(csv_field "$WORK/runs.csv" 1 valid)" = 1
    check "sweep, SIG$2 at $1 s: the run cut short is not a row" test "$rows" -lt 3
    check "sweep, SIG$2 at $1 s: no temporary files anywhere" no_temp_files "$WORK"
    check "sweep, SIG$2 at $1 s: the target is empty" test -z "$(ls -A "$WORK/t")"
    rm -f "$WORK/runs.csv"
done

# ---- probe: 2 MB files at 5 MB/s, 0.4 s per write ----
probe() {
    exec "$CP" probe -q --sizes 2MB --reps 4 --seed 1 "slow=$WORK/p@5MB/s" -o "$WORK/probe.csv"
}
for point in "0.2 INT 0" "1.0 TERM 2"; do
    set -- $point
    signal_after "$1" "$2" probe
    expect_prompt_stop "probe, SIG$2 at $1 s"
    rows=$(csv_rows "$WORK/probe.csv")
    check "probe, SIG$2 at $1 s: the CSV keeps the $3+ rows measured ($rows)" test "$rows" -ge "$3"
    check "probe, SIG$2 at $1 s: not every row was measured" test "$rows" -lt 8
    check "probe, SIG$2 at $1 s: no temporary files anywhere" no_temp_files "$WORK"
    check "probe, SIG$2 at $1 s: the target is empty" test -z "$(ls -A "$WORK/p")"
    rm -f "$WORK/probe.csv"
done

# ---- a second signal while unwinding still exits 130 and cleans up ----
"$CP" sweep -q -i "$WORK/rand4m" -c copy -T 1 --reps 3 --no-warmup "slow=$WORK/t@5MB/s" \
    -o "$WORK/runs.csv" > /dev/null 2>&1 &
pid=$!
sleep 0.4
kill -INT $pid; kill -INT $pid 2> /dev/null || true
set +e; wait $pid; status=$?; set -e
expect_status 130 "sweep, two SIGINTs in a row"
check "two SIGINTs: no temporary files anywhere" no_temp_files "$WORK"

finish
