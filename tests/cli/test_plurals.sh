#!/usr/bin/env bash
# A count agrees with its noun wherever chokepoint writes one: "1 thread", "2 threads",
# "1, 2 and 4 threads", "1 failed run", "1 run in 1 series", "1 of 1 thread count", in
# the answer, the notes, the details, the Markdown report, the plot captions, compare and
# the refusals.
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"

# bad_plurals FILE...: the lines where a count disagrees with "thread(s)" or "run(s)"
# ("2 thread counts" is a count of counts, and fine)
bad_plurals() {
    grep -HnP '(?<![0-9.,])1 (failed )?(threads|runs|thread counts)\b|(?<![0-9.])([02-9]|[1-9][0-9]+) (failed )?(thread(?!s|\scounts?\b)|run\b)' "$@" || true
}
no_bad_plurals() { [ -z "$(bad_plurals "$@")" ]; }

# The checker itself finds each wrong form (else every check below would pass blindly).
printf '%s\n' 'x at 2 thread: y' 'x at 1 threads (y)' 'x at 1, 2 and 4 thread: y' \
    '(1 failed runs skipped)' '3 failed run skipped' '1 of 1 thread counts slower' > wrong.txt
printf '%s\n' 'x at 1 thread: y' 'at 2 threads, 1..8 threads' 'needs 2 thread counts' \
    '1 failed run skipped' '12 threads' > right.txt
check "the checker finds all 6 wrong lines" test "$(bad_plurals wrong.txt | wc -l)" -eq 6
check "and none of the right ones" no_bad_plurals right.txt

# runs FILE T...: mem and disk, 3 repetitions at each T, 1 GB in, 400 MB out; the disk 1-3%
# slower than mem (mem takes 2 s / T)
runs() {
    local file=$1 t r
    shift
    echo "target,codec,threads,rep,sync,input_bytes,output_bytes,seconds" > "$file"
    for t in "$@"; do
        for r in 1 2 3; do
            echo "mem,zstd:3,$t,$r,fsync,1000000000,400000000,$(awk -v t="$t" -v r="$r" 'BEGIN { print 2 / t + 0.01 * (r - 1) }')"
            echo "disk,zstd:3,$t,$r,fsync,1000000000,400000000,$(awk -v t="$t" -v r="$r" 'BEGIN { print 2 / t + 0.03 + 0.01 * (r - 1) }')"
        done
    done >> "$file"
}
probe() { # FILE BYTES_PER_S: the disk's write probe
    echo "target,op,size_bytes,rep,seconds,bytes_per_s,sync" > "$1"
    for r in 1 2 3; do echo "disk,write,400000000,$r,$(awk -v b="$2" 'BEGIN { print 4e8 / b }'),$2,fsync" >> "$1"; done
}

# ---- one thread only: the answer, the details and the what-if at T = 1 -------------------
runs one.csv 1
probe slow.csv 100000000 # the disk takes 4 s to write its 400 MB: write-bound
awk -F, 'BEGIN { OFS = "," } NR > 1 && $1 == "disk" { $8 += 2 } { print }' one.csv > one-slow.csv
run "$CP" analyze one-slow.csv --probe slow.csv
expect_status 0 "analyze a 1-thread study"
cp "$WORK/out" one.txt
check "the CPU ceiling is at 1 thread" grep -q 'mem (zstd:3): the CPU ceiling: [0-9.]* s at 1 thread (' one.txt
check "the disk's answer is at 1 thread" grep -Eq 'disk \(zstd:3\): the disk sets the time at the only count measured: [0-9.]+ s at 1 thread, ' one.txt
check "the what-if is at 1 thread" grep -q '; at 1 thread the job needs ' one.txt
check "the prediction is at 1 thread" grep -q '^  at 1 thread: predicted ' one.txt
check "text: no count disagrees with its noun: $(bad_plurals one.txt | head -3)" no_bad_plurals one.txt
"$CP" analyze one-slow.csv --probe slow.csv --format markdown -o one.md
check "Markdown: no count disagrees with its noun: $(bad_plurals one.md | head -3)" no_bad_plurals one.md

# ---- notes on flagged points: one at 2 threads, then all of 1, 2 and 4 -------------------
runs two.csv 1 2
probe p200.csv 200000000 # T = 2 writes 385 MB/s of output, T = 1 196 MB/s: one point flagged
run "$CP" analyze two.csv --probe p200.csv
cp "$WORK/out" two.txt
check "one flagged point: 'disk (zstd:3) at 2 threads: wrote up to'" \
    grep -q '^  ! disk (zstd:3) at 2 threads: wrote up to ' two.txt
check "text: no count disagrees with its noun: $(bad_plurals two.txt | head -3)" no_bad_plurals two.txt
runs three.csv 1 2 4
probe p100.csv 100000000 # every point writes faster than 100 MB/s
run "$CP" analyze three.csv --probe p100.csv
cp "$WORK/out" three.txt
check "three flagged points: 'at 1, 2 and 4 threads: wrote up to'" \
    grep -q '^  ! disk (zstd:3) at 1, 2 and 4 threads: wrote up to ' three.txt
check "text: no count disagrees with its noun: $(bad_plurals three.txt | head -3)" no_bad_plurals three.txt

# ---- failed runs: one skipped, and a file with nothing else ------------------------------
{ cat two.csv; echo "disk,zstd:3,2,4,fsync,,,"; } > failed.csv
sed -i '1s/$/,error/; 2,$s/$/,/; $s/,$/,out of space/' failed.csv
run "$CP" analyze failed.csv
check "one failed run is '1 failed run skipped'" grep -q '; 1 failed run skipped (error or valid = 0)' "$WORK/out"
printf 'target,threads,seconds,input_bytes,error\ndisk,1,,,out of space\n' > none.csv
run "$CP" analyze none.csv
expect_status 2 "a file of one failed run"
expect_one_line_error 'none.csv: no usable runs \(1 failed run skipped\); the first: disk: out of space$' \
    "the refusal: '1 failed run skipped', and which"

# ---- one run; a comparison at one thread count ------------------------------------------
printf 'target,threads,seconds,input_bytes\nmem,1,2,1000000000\n' > single.csv
run "$CP" analyze single.csv
check "one run is '1 run in 1 series'" grep -q '^1 run in 1 series\.$' "$WORK/out"
printf 'target,threads,seconds,input_bytes\nmem,1,2.5,1000000000\n' > single-b.csv
run "$CP" compare single.csv single-b.csv
expect_status 0 "compare two studies of one thread count"
check "'1 of 1 thread count slower'" grep -q '1 of 1 thread count slower, 0 faster, 0 the same' "$WORK/out"
check "compare: no count disagrees with its noun: $(bad_plurals "$WORK/out" | head -3)" no_bad_plurals "$WORK/out"

# ---- the memory refusal at 1 thread ------------------------------------------------------
run "$CP" compress -i one.csv -o /dev/null -c xz:9 -T 1 --max-memory 1M
expect_status 2 "xz:9 at 1 thread within 1 MiB"
expect_one_line_error '^chokepoint: error: xz:9 at 1 thread \(blocks engine\) needs an estimated ' \
    "the refusal says 'at 1 thread'"

# ---- the plots' captions in report.md ----------------------------------------------------
if command -v gnuplot > /dev/null; then
    mkdir study
    cp one-slow.csv study/runs.csv
    cp slow.csv study/probe.csv
    run "$CP" plot study -q
    expect_status 0 "plot a 1-thread study"
    check "report.md: no count disagrees with its noun: $(bad_plurals study/report.md | head -3)" \
        no_bad_plurals study/report.md
else
    skip_check "the plot captions: no gnuplot (scripts/setup.sh --with-tests installs it)"
fi

finish
