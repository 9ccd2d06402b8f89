#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) into build-fuzz/ and runs each for
# SECONDS, starting from its seed corpus in tests/fuzz/corpus/<target>/. New inputs go to
# build-fuzz/corpus/<target>/ (the seeds stay small); a crash, leak, hang (> 10 s on one
# input) or memory blow-up (> 2 GB) leaves its input in build-fuzz/artifacts/ and makes the
# script exit 1. Prints the executions of every target.
#   scripts/fuzz.sh [SECONDS]        (default 60; 0 = replay the seeds only)
#   scripts/fuzz.sh --build-only     (build the targets, run nothing: what the test
#                                     suite's cli_fuzz_smoke replays; scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
seconds=${1:-60}
case $seconds in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
scripts/setup.sh --with-fuzz --packages-only

build=build-fuzz
CC=clang cmake -S . -B "$build" -DCHOKEPOINT_FUZZ=ON -DCHOKEPOINT_SANITIZE=ON \
    -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build.configure.log" 2>&1 ||
    { cat "$build.configure.log" >&2; exit 1; }
rm -f "$build.configure.log"
mapfile -t targets < "$build/tests/fuzz/targets.txt"
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > /dev/null
[ $build_only = 0 ] || exit 0

# Largest input per target: parsers take command-line words, loaders whole files.
max_len() { case $1 in fuzz_parse) echo 4096 ;; *) echo 65536 ;; esac; }

mkdir -p "$build/artifacts"
failed=0
for t in "${targets[@]}"; do
    seeds=tests/fuzz/corpus/$t
    work=$build/corpus/$t
    mkdir -p "$work"
    log=$build/$t.log
    args=(-max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048
          -artifact_prefix="$build/artifacts/$t-" -print_final_stats=1)
    if [ "$seconds" -eq 0 ]; then
        cmd=("$build/tests/fuzz/$t" "${args[@]}" -runs=0 "$seeds")
    else
        cmd=("$build/tests/fuzz/$t" "${args[@]}" -max_total_time="$seconds" "$work" "$seeds")
    fi
    if ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "${cmd[@]}" > "$log" 2>&1; then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
        printf '%-22s ok      %12s executions  %s\n' "$t" "${execs:-?}" "${cov:-}"
    else
        failed=1
        printf '%-22s FAILED  see %s and %s/artifacts/\n' "$t" "$log" "$build"
        grep -m 5 -E 'ERROR|broken promise|runtime error|SUMMARY' "$log" | sed 's/^/    /' || true
    fi
done
exit $failed
