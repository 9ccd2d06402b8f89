#!/usr/bin/env bash
# A short compress (T = 2) under valgrind memcheck for both engines and both real codecs,
# with --verify so the decoders run too. Any invalid access, use of uninitialised memory or
# definite/indirect leak fails it (--error-exitcode=1).
#   scripts/valgrind-compress.sh [BUILD_DIR]      (default build; built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
command -v valgrind > /dev/null || { echo "valgrind-compress.sh: valgrind is needed" >&2; exit 1; }
[ -x "$build/chokepoint" ] || { cmake -S . -B "$build" > /dev/null && cmake --build "$build" -j "$(nproc)" > /dev/null; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cp-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
# 2 MB of text-like data: several 256 KiB blocks, so every thread has work.
head -c 1500000 /dev/urandom | base64 -w 76 > "$work/in"

# libgomp keeps its thread pool alive until exit: its "possibly lost" blocks are not ours.
vg=(valgrind --error-exitcode=1 --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --track-origins=yes --quiet)
failed=0
for engine in blocks native; do
    for codec in zstd:3 xz:1; do
        out=$work/out-$engine-${codec%%:*}
        if "${vg[@]}" --log-file="$out.vg" "$build/chokepoint" compress -q -i "$work/in" \
            -o "$out" -c "$codec" -T 2 --engine "$engine" --block-size 256K --verify > /dev/null; then
            echo "ok: $engine $codec T=2 --verify: valgrind clean"
        else
            failed=1
            echo "FAILED: $engine $codec T=2 --verify:"
            sed 's/^/    /' "$out.vg" | head -40
        fi
    done
done
exit $failed
