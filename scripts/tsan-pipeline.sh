#!/usr/bin/env bash
# The pipeline's own synchronisation under ThreadSanitizer (build-tsan/, -DCHOKEPOINT_TSAN=ON).
# libgomp is not instrumented, so TSan cannot see OpenMP's fork, join and barriers and
# reports every handoff across them (main thread before/after the parallel region, the
# `single` that publishes the team size). Those are filtered out; what remains is a race
# between two pipeline threads (reader, compressors, writer) on the shared state, which
# fails the script with the report.
#   scripts/tsan-pipeline.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-tsan
cmake -S . -B "$build" -DCHOKEPOINT_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" -j "$(nproc)" --target test_pipeline > /dev/null
log=$build/tsan-pipeline.log
symbolizer=$(command -v llvm-symbolizer || true)
TSAN_OPTIONS="halt_on_error=0 exitcode=0 ${symbolizer:+external_symbolizer_path=$symbolizer}" \
    "$build/tests/test_pipeline" > "$log" 2>&1 || { tail -20 "$log"; exit 1; }
total=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
# A warning is between pipeline threads when neither access is the main thread's and it is
# not the team-size handoff inside run_team (published by `omp single` + its barrier).
between_workers=$(awk '
    /WARNING: ThreadSanitizer/ { n = 0; kind = $0 }
    /^  (Read|Write|Previous|Atomic)/ { n++; who[n] = $0; getline; frame[n] = $2 " " $3 }
    /^$/ && n >= 2 {
        if (who[1] !~ /main thread/ && who[2] !~ /main thread/ &&
            !(frame[1] ~ /^run_team/ && frame[2] ~ /^run_team/))
            print kind " | " frame[1] " <-> " frame[2]
        n = 0
    }' "$log" | sort | uniq -c)
echo "ThreadSanitizer: $total warnings in test_pipeline, all across OpenMP fork/join/barriers" \
     "unless listed below (full log: $log)"
if [ -n "$between_workers" ]; then
    echo "races between pipeline threads:"
    echo "$between_workers"
    exit 1
fi
echo "no race between pipeline threads on the shared state"
