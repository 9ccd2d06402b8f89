#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer (gcc, with
# OpenMP from libgomp), in build-asan/. Any memory error, leak or undefined behaviour
# fails the test that hit it; every skipped test and check is listed with its reason
# (scripts/list-skips.sh). Extra arguments go to ctest (e.g. -R cli_faults).
#   scripts/ci-sanitize.sh [ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan
scripts/setup.sh --with-tests --packages-only
cmake -S . -B "$build" -DCHOKEPOINT_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" -j "$(nproc)"
# Leaks are errors; UBSan stops at the first finding with a stack trace. A finding exits
# 86, a status of the sanitizers' own (their default, 1, is chokepoint's "runtime failure",
# which a test of an error path expects), and tests/cli/lib.sh's run() fails any command
# whose stderr holds a report, whatever its status. The signal tests allow for the
# sanitizers' slower start-up and unwinding.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:exitcode=86
export LSAN_OPTIONS=exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86
export STOP_LIMIT_S=${STOP_LIMIT_S:-2.0}
# The truth tests run every command under the sanitizers but judge no timing (tests/cli/
# lib.sh, sanitized): the sanitizers slow the CPU's work and not the disk's.
export CHOKEPOINT_SANITIZED=1
status=0
ctest --test-dir "$build" --output-on-failure -j 2 --timeout 900 "$@" 2>&1 |
    tee "$build/ctest.out" || status=$?
scripts/list-skips.sh "$build/ctest.out" "$build"
exit "$status"
