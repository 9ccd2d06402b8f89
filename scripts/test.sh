#!/usr/bin/env bash
# Sets up (scripts/setup.sh --with-tests), builds the libFuzzer targets the suite's
# cli_fuzz_smoke replays (scripts/fuzz.sh --build-only, build-fuzz/; CHOKEPOINT_NO_FUZZ=1
# leaves them out and that test skips), and runs the whole test suite with ctest. Then it
# lists every check that was skipped inside a test that passed (a CLI test's "SKIPPED:"
# line, cmocka's "[  SKIPPED ]"), with its reason, so a skip is never a silent pass.
#   scripts/test.sh [--build-dir DIR] [extra cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=build
if [ "${1:-}" = "--build-dir" ]; then
    build_dir=$2
    shift 2
fi
scripts/setup.sh --build-dir "$build_dir" --with-tests "$@"
[ "${CHOKEPOINT_NO_FUZZ:-0}" = 1 ] || scripts/fuzz.sh --build-only
status=0
ctest --test-dir "$build_dir" --output-on-failure -j 2 --timeout 900 || status=$?
log=$build_dir/Testing/Temporary/LastTest.log
if [ -f "$log" ]; then
    skipped=$(awk '/^[0-9]+\/[0-9]+ Testing: / { test = $3 }
                   /^SKIPPED: |\[  SKIPPED \]/ { print "  " test ": " $0 }' "$log")
    if [ -n "$skipped" ]; then
        echo "checks skipped inside tests that ran:"
        echo "$skipped"
    fi
fi
exit "$status"
