#!/usr/bin/env bash
# Every command-line error is exit 2 with exactly one line on stderr that says what is
# wrong and the accepted form (or where to find it), before anything is written.
source "$(dirname "$0")/lib.sh"
set -e

echo data > "$WORK/in"
mkdir "$WORK/t"
IN=$WORK/in
T=$WORK/t

# usage_error REGEX ARGS...: exit 2, one line matching REGEX, nothing created in $T
usage_error() {
    local want=$1
    shift
    run "$CP" "$@"
    local what="$*"
    what=${what//$WORK/W}
    expect_status 2 "$what"
    expect_one_line_error "$want" "$what: one line saying what and the form"
    check "$what: nothing written" test -z "$(ls -A "$T")"
}

for cmd in compress sweep probe; do
    case $cmd in
    compress) base=(compress -i "$IN" -o "$T/x.zst") ;;
    sweep) base=(sweep -i "$IN" -o "$T/runs.csv") ;;
    probe) base=(probe -o "$T/probe.csv") ;;
    esac
    tgt=()
    [ $cmd = compress ] || tgt=("$T")
    usage_error "unknown option '--bogus'; see 'chokepoint $cmd --help'" "${base[@]}" --bogus "${tgt[@]}"
    usage_error "unknown option '-Z'; see 'chokepoint $cmd --help'" "${base[@]}" -Z "${tgt[@]}"
    usage_error "option '--sync' needs a value; see 'chokepoint $cmd --help'" "${base[@]}" "${tgt[@]}" --sync
    usage_error "bad sync mode 'sometimes': expected fsync, direct or none" "${base[@]}" --sync sometimes "${tgt[@]}"
done

usage_error "bad thread count '0': expected a whole number from 1 to 1024" compress -i "$IN" -o "$T/x" --threads 0
usage_error "bad thread count '1\.\.0': expected a whole number from 1 to 1024" compress -i "$IN" -o "$T/x" --threads 1..0
usage_error "bad thread list '0': expected counts from 1 to 1024 as '4', '1,2,4' or '1\.\.8'" sweep -i "$IN" --threads 0 mem
usage_error "bad thread list '1\.\.0': expected counts from 1 to 1024" sweep -i "$IN" --threads 1..0 mem
usage_error "bad thread list '4,,8'" sweep -i "$IN" -T 4,,8 mem
usage_error "bad --reps '0': expected a whole number from 1 to 1000" sweep -i "$IN" --reps 0 mem
usage_error "bad --reps '0': expected a whole number from 1 to 1000" probe --reps 0 "$T"
usage_error "bad --reps '-3': expected a whole number" probe --reps -3 "$T"
# --seed has one range, 0..2^31-1, in every command that takes it.
usage_error "bad seed '2147483648': expected a whole number from 0 to 2147483647" sweep -i "$IN" --seed 2147483648 mem
usage_error "bad seed '2147483648': expected a whole number from 0 to 2147483647" probe --seed 2147483648 "$T"
usage_error "bad seed '2147483648': expected a whole number from 0 to 2147483647" run -i "$IN" --seed 2147483648 --out "$T/r" mem
usage_error "bad seed '2147483648': expected a whole number from 0 to 2147483647" fixture -o "$T/f" --seed 2147483648
usage_error "bad rate '5': expected a positive number with a unit, e\.g\. 400MB/s" sweep -i "$IN" "$T@5" 
usage_error "bad rate '5': expected a positive number with a unit" probe "$T@5"
usage_error "bad rate '0MB/s': expected a positive number" probe "$T@0MB/s"
usage_error "bad codec 'lz4': expected zstd:1\.\.19, xz:0\.\.9 .* or copy" compress -i "$IN" -o "$T/x" -c lz4
usage_error "bad codec 'zstd:99': expected zstd:1\.\.19" compress -i "$IN" -o "$T/x" -c zstd:99
usage_error "bad codec 'xz:10': expected zstd:1\.\.19, xz:0\.\.9" sweep -i "$IN" -c zstd:3,xz:10 mem
usage_error "bad codec 'copy:3'" sweep -i "$IN" -c copy:3 mem
usage_error "bad size '-5': expected a number with an optional unit, e\.g\. 512, 4K, 1G" compress -i "$IN" -o "$T/x" --block-size -5
usage_error "bad size '10XB': expected a number with an optional unit" probe --sizes 10XB "$T"
usage_error "'.*in' is not a directory; expected \[NAME=\]DIR\[@RATE\] with DIR a writable directory" sweep -i "$IN" "$IN"
usage_error "'.*in' is not a directory; expected \[NAME=\]DIR\[@RATE\]" probe "$IN"
usage_error "cannot use directory '.*missing'.*No such file" sweep -i "$IN" "$WORK/missing"
usage_error "the name 'mem' is reserved" sweep -i "$IN" "mem=$T"
usage_error "sweep needs at least one TARGET \(\[NAME=\]DIR\[@RATE\] or mem\)" sweep -i "$IN"
usage_error "no TARGET given; see 'chokepoint probe --help'" probe
usage_error "compress needs -i INPUT and -o OUTPUT" compress -i "$IN"
usage_error "unknown command 'frobnicate'; try 'chokepoint --help'" frobnicate

# No option is silently ignored: one given where it can have no effect is a usage error.
echo "target,threads,seconds,input_bytes" > "$WORK/runs.csv"
usage_error "--force replaces an -o FILE; none was given" analyze "$WORK/runs.csv" --force
usage_error "--force replaces an -o FILE or the files of --plots DIR; neither was given" compare "$WORK/runs.csv" "$WORK/runs.csv" --force
usage_error "--plot-format is for the --plots DIR images; no --plots was given" compare "$WORK/runs.csv" "$WORK/runs.csv" --plot-format svg
usage_error "--force replaces an -o FILE; none was given" sweep -i "$IN" --force mem
usage_error "--force replaces an -o FILE; none was given" probe --force "$T"
usage_error "--sustained SIZE given but --ops 'write' lacks sustained" probe --ops write --sustained 1M "$T"
usage_error "--sizes given but --ops 'sustained' measures no sizes" probe --ops sustained --sustained 1M --sizes 1M "$T"
usage_error "--reps repeats the write and read sizes but --ops 'sustained' measures none" probe --ops sustained --sustained 1M --reps 2 "$T"
usage_error "--layout same copies the input onto each directory target; only mem was given" sweep -i "$IN" --layout same mem
usage_error "--layout same copies the input onto each directory target; only mem was given" run -i "$IN" --layout same --out "$T/r" mem
usage_error "--quick has no effect: -i INPUT and --reps are given" run -i "$IN" --quick --reps 2 --out "$T/r" mem
usage_error "--quick has no effect: --fixture-size and --reps are given" run --fixture-size 1M --quick --reps 2 --out "$T/r" mem
usage_error "--keep-input keeps a generated fixture; with -i INPUT nothing is generated" run -i "$IN" --keep-input --out "$T/r" mem
usage_error "--seed has no effect with --kind zeros" fixture -o "$T/f" --kind zeros --seed 3
for opt in --verify --force "--sync direct"; do
    usage_error "^chokepoint: error: ${opt% *} has no effect with -o /dev/null \(the output is counted and discarded" \
        compress -i "$IN" -o /dev/null $opt
done
# ... and where they do take effect they are accepted.
run "$CP" run -q -i "$IN" --quick --out "$WORK/quick" mem
expect_status 0 "run -i INPUT --quick (one repetition)"
run "$CP" fixture -q -o "$WORK/z" --kind zeros --size 4K
expect_status 0 "fixture --kind zeros without --seed"

# Issue 14, point 8: typos in lists, bare fractions, a missing input, the wrong arguments.
usage_error "bad codec list 'zstd:1,,xz:1': an empty item" sweep -i "$IN" -c zstd:1,,xz:1 -o "$T/runs.csv" mem
usage_error "bad size '1\.5': a fraction needs a unit" compress -i "$IN" -o "$T/x" --block-size 1.5
usage_error "bad size '1\.5': a fraction needs a unit" probe --sizes 1.5 "$T"
# A missing input: the one error line, no banner, no runs.csv with a header.
usage_error "nosuch\.bin" sweep -i "$WORK/nosuch.bin" -o "$T/runs.csv" mem
check "sweep with a missing input prints no CSV header" bash -c "! grep -q '^target,' '$WORK/out'"
run "$CP" sweep -i "$WORK/nosuch.bin" mem
expect_status 2 "sweep -i nosuch.bin to stdout"
check "sweep -i nosuch.bin: nothing on stdout" test ! -s "$WORK/out"
usage_error "one RUNS\.csv expected, got '.*' too \(a probe table is given with --probe" analyze "$IN" "$IN"
usage_error "'.*t' is a directory; give its runs\.csv .*chokepoint plot" analyze "$T"
# help COMMAND is COMMAND --help.
run "$CP" help compress
expect_status 0 "help compress"
check "help compress prints compress's help" grep -q '^usage: chokepoint compress' "$WORK/out"
run "$CP" help frobnicate
expect_status 2 "help frobnicate"

# fixture is a later command; its size errors are checked once it exists.
if "$CP" fixture --help > /dev/null 2>&1; then
    usage_error "bad size '-5': expected a number with an optional unit" fixture -o "$T/f" --size -5
    usage_error "unknown option '--bogus'" fixture -o "$T/f" --bogus
else
    skip_check "no fixture command in this build"
fi

finish
