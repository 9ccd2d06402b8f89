#!/usr/bin/env bash
# The pipeline's own synchronisation under ThreadSanitizer: tests/unit/test_pipeline built
# with clang, -fsanitize=thread and clang's OpenMP runtime (libomp), in build-tsan/. libomp's
# Archer tool tells TSan what OpenMP's fork, join, barriers and `single` order, so a report
# is a real race whichever threads it names: the reader runs on OpenMP's thread 0, which is
# the main thread, and its races are judged as any other's. Each report is named by the
# first frames of chokepoint's own code (analyzer/, codecs/, tests/) in its two accesses;
# one with none is a library's internals, which only scripts/tsan.supp may excuse, each
# suppression with its reason. Any report left fails the script, listed.
#   scripts/tsan-pipeline.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --with-fuzz --packages-only
build=build-tsan
CC=clang cmake -S . -B "$build" -DCHOKEPOINT_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" -j "$(nproc)" --target test_pipeline > /dev/null
log=$build/tsan-pipeline.log
symbolizer=$(command -v llvm-symbolizer || true)
t0=$(date +%s)
ARCHER_OPTIONS=verbose=1 \
TSAN_OPTIONS="halt_on_error=0 exitcode=0 suppressions=$PWD/scripts/tsan.supp ${symbolizer:+external_symbolizer_path=$symbolizer}" \
    "$build/tests/test_pipeline" > "$log" 2>&1 || { tail -20 "$log"; echo "test_pipeline failed under TSan (log: $log)"; exit 1; }
grep -q "Archer detected OpenMP application with TSan" "$log" ||
    { echo "libomp's Archer tool did not load: TSan cannot see OpenMP's synchronisation (log: $log)"; exit 1; }
total=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
# Each report: its kind, then for each of its two accesses the thread and the first frame
# in chokepoint's own sources (or "a library" when there is none).
reports=$(awk '
    function ours(file) { return file ~ /(^|\/)(analyzer|codecs|tests)\// }
    /WARNING: ThreadSanitizer/ { on = 1; n = 0; kind = $0; sub(/.*ThreadSanitizer: /, "", kind)
                                 sub(/ \(pid=.*/, "", kind); next }
    on && /^  [A-Z].* by (main thread|thread T[0-9]+)/ {
        n++; who[n] = ($0 ~ /main thread/) ? "main thread" : "a pipeline thread"; top[n] = ""; next }
    on && /^    #[0-9]+ / && n > 0 && top[n] == "" && ours($3) { f = $3; sub(/^.*\.\.\//, "", f); sub(/:[0-9]+$/, "", f)
                                                               top[n] = $2 " (" f ")"; next }
    on && /^SUMMARY: ThreadSanitizer/ {
        line = kind ":"
        for (i = 1; i <= n && i <= 2; i++) line = line " " (top[i] == "" ? "a library" : top[i]) " on " who[i] (i == 1 && n > 1 ? " <->" : "")
        print line; on = 0 }' "$log" | sort | uniq -c | sort -rn)
echo "ThreadSanitizer: $total report(s) in test_pipeline, $(($(date +%s) - t0)) s (full log: $log)"
if [ -n "$reports" ]; then
    echo "races (count, kind, each access's first frame of chokepoint's own and its thread):"
    echo "$reports"
    exit 1
fi
echo "no race in the pipeline's threads (reader, compressors, writer) or anything they call"
