#!/usr/bin/env bash
# Replays every libFuzzer target over its seed corpus (no fuzzing, no time limit): the
# seeds, from real sweep/probe output to NUL bytes and CRLF, must load or be refused
# cleanly under ASan and UBSan. Needs the fuzz build (scripts/fuzz.sh or
# CC=clang cmake -B build-fuzz -DCHOKEPOINT_FUZZ=ON -DCHOKEPOINT_SANITIZE=ON); skipped
# without it. FUZZ_BUILD_DIR overrides where it is looked for.
source "$(dirname "$0")/lib.sh"
set -e

fuzz_build=${FUZZ_BUILD_DIR:-$SRC_DIR/build-fuzz}
list=$fuzz_build/tests/fuzz/targets.txt
[ -f "$list" ] || skip "no fuzz build in $fuzz_build (run scripts/fuzz.sh 0 first)"

while read -r t; do
    [ -n "$t" ] || continue
    bin=$fuzz_build/tests/fuzz/$t
    if [ ! -x "$bin" ]; then
        not_ok "$t is listed but not built in $fuzz_build"
        continue
    fi
    seeds=$SRC_DIR/tests/fuzz/corpus/$t
    n=$(find "$seeds" -type f | wc -l)
    run env ASAN_OPTIONS=detect_leaks=1 "$bin" -runs=0 -timeout=10 -rss_limit_mb=2048 "$seeds"
    expect_status 0 "$t replays its $n seeds"
    check "$t read all $n seeds" grep -q "seed corpus: files: $n " "$WORK/err"
done < "$list"
finish
