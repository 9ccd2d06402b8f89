#!/usr/bin/env bash
# Sets up (scripts/setup.sh --with-tests), builds the libFuzzer targets the suite's
# cli_fuzz_smoke replays (scripts/fuzz.sh --build-only, build-fuzz/; CHOKEPOINT_NO_FUZZ=1
# leaves them out and that test skips), and runs the whole test suite with ctest. Then it
# lists every test that skipped and every check skipped inside a test that ran, each with
# its reason (scripts/list-skips.sh), so a skip is never a silent pass.
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
ctest --test-dir "$build_dir" --output-on-failure -j 2 --timeout 900 2>&1 |
    tee "$build_dir/ctest.out" || status=$?
scripts/list-skips.sh "$build_dir/ctest.out" "$build_dir"
exit "$status"
