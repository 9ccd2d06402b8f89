#!/usr/bin/env bash
# Every option chokepoint's outputs advise is one the command it advises takes: collects
# the --options named in answers, reports, notes, warnings and errors of a set of small
# analyses, a quick study and refused command lines, and checks each against the --help
# of the commands a reader would try it on (the one that printed it, and the commands its
# text names: `run`, `sweep`, `probe`, `analyze`, ...). A test of the advice, not of the
# help text: an option that no command takes fails it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
REF=$SRC_DIR/fixtures/reference
export CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot

commands="fixture probe compress sweep analyze plot run compare history"
# options_of CMD: the long options CMD's --help lists, one per line.
options_of() { "$CP" "$1" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u; }
for c in $commands; do options_of "$c" > "$WORK/opts-$c"; done

# advised FILE...: the long options named in the files.
advised() { cat "$@" | grep -oE -- '--[a-z][a-z-]*[a-z]' | sort -u; }

# check_advice WHAT CMDS FILE...: every option named in FILE... is taken by one of CMDS.
check_advice() {
    local what=$1 cmds=$2 bad="" o c found n=0
    shift 2
    for o in $(advised "$@"); do
        found=0 n=$((n + 1))
        for c in $cmds; do grep -qx -- "$o" "$WORK/opts-$c" && found=1; done
        [ "$found" = 1 ] || bad="$bad $o"
    done
    check "$what: every option it advises exists ($n named; unknown:${bad:- none})" \
        test -n "$n" -a "$n" -gt 0 -a -z "$bad"
}

# Analyses: the reference study with and without its probe, a foreign table, markdown.
"$CP" analyze "$REF/runs.csv" --probe "$REF/probe.csv" > "$WORK/a1" 2>&1
"$CP" analyze "$REF/runs.csv" --format markdown > "$WORK/a2" 2>&1
"$CP" analyze "$REF/foreign_runs.csv" > "$WORK/a3" 2>&1
printf 'target,threads,seconds,input_bytes,output_bytes,sync\n%s\n%s\n%s\n%s\n' \
    "mem,1,1.0,1000000000,500000000,fsync" "disk,1,9.0,1000000000,500000000,fsync" \
    "mem,2,0.5,1000000000,500000000,fsync" "disk,2,9.5,1000000000,500000000,fsync" > "$WORK/slow.csv"
printf 'target,op,size_bytes,bytes_per_s,drain_bps\ndisk,write,100000000,60000000,60000000\n' \
    > "$WORK/slow_probe.csv"
"$CP" analyze "$WORK/slow.csv" --probe "$WORK/slow_probe.csv" > "$WORK/a4" 2>&1
grep -q -- '--' "$WORK/a4" || not_ok "the write-bound analysis advises no option at all"
check_advice "analyze's reports" "analyze run sweep probe" "$WORK"/a[1-4]

# A quick study without a probe, and its report.
mkdir -p "$WORK/disk"
run "$CP" run --quick --fixture-size 2M -T 1 --no-probe --out "$WORK/study" mem "disk=$WORK/disk"
expect_status 0 "a quick study without a probe"
cat "$WORK/out" "$WORK/err" > "$WORK/r1"
check_advice "run's answer and warnings" "run sweep probe analyze" "$WORK/r1" \
    "$WORK/study/report.md"

# compare on studies with nothing in common (two targets a side, named apart).
printf 'target,codec,threads,seconds,input_bytes\nx,zstd:3,1,2,100\nw,zstd:3,1,2,100\n' > "$WORK/x.csv"
printf 'target,codec,threads,seconds,input_bytes\ny,zstd:3,1,2,100\nz,zstd:3,1,2,100\n' > "$WORK/y.csv"
run "$CP" compare "$WORK/x.csv" "$WORK/y.csv"
cat "$WORK/out" "$WORK/err" > "$WORK/c1"
check_advice "compare's error" "compare" "$WORK/c1"

# Refused command lines say what to use instead.
run "$CP" run --resume "$WORK/study" --reps 2
cat "$WORK/err" > "$WORK/e1"
run "$CP" sweep -i "$WORK/x.csv" --cmd 'cat {in} > {output}' mem
cat "$WORK/err" >> "$WORK/e1"
check_advice "refusals" "run sweep" "$WORK/e1"

finish
