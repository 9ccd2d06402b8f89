#!/usr/bin/env bash
# --sync direct: compress writes through O_DIRECT, the unaligned tail (an input whose size
# is not a multiple of the alignment) arrives whole, the JSON says which mode was used;
# a volume that refuses O_DIRECT falls back to buffered writes + fsync and says so; probe
# records the mode in its sync column.
source "$(dirname "$0")/lib.sh"
set -e

head -c 3000001 /dev/urandom > "$WORK/odd"     # not a multiple of 512 or 4096
make_input "$WORK/text" 2500003
mkdir -p "$WORK/d"

run "$CP" compress -i "$WORK/odd" -o "$WORK/d/odd.copy" -c copy --sync direct --json -q
expect_status 0 "copy --sync direct, odd size"
check "the unaligned tail arrives: output equals input" cmp -s "$WORK/d/odd.copy" "$WORK/odd"
check "json: sync direct, no fallback" grep -q '"sync":"direct","sync_fell_back":false' "$WORK/out"
for engine in blocks native; do
    run "$CP" compress -i "$WORK/text" -o "$WORK/d/t.zst" -c zstd:3 -T 2 --engine $engine \
        --block-size 256K --sync direct --verify --json -q
    expect_status 0 "zstd:3 $engine --sync direct --verify"
    check "zstd restores the $engine output" bash -c "zstd -qdc '$WORK/d/t.zst' | cmp -s - '$WORK/text'"
    check "json: verified, sync direct ($engine)" bash -c \
        "grep -q '\"sync\":\"direct\"' '$WORK/out' && grep -q '\"verified\":true' '$WORK/out'"
    rm -f "$WORK/d/t.zst"
done
check "no temporary files" no_temp_files "$WORK"

# A volume that refuses O_DIRECT (tmpfs before Linux 6.6). Whether this kernel's tmpfs
# refuses it decides which promise applies; both are checked.
ram=""
if [ -d /dev/shm ] && [ -w /dev/shm ]; then ram=$(mktemp -d /dev/shm/cp-direct.XXXXXX); CLEANUP_HOOKS+=("rm -rf '$ram'"); fi
if [ -n "$ram" ]; then
    run "$CP" compress -i "$WORK/odd" -o "$ram/odd.copy" -c copy --sync direct --json
    expect_status 0 "--sync direct onto tmpfs"
    check "tmpfs output equals input" cmp -s "$ram/odd.copy" "$WORK/odd"
    if grep -q '"sync_fell_back":true' "$WORK/out"; then
        check "the fallback is fsync" grep -q '"sync":"fsync"' "$WORK/out"
        check "the fallback is announced" grep -q "refuses O_DIRECT; falling back to buffered writes + fsync" "$WORK/err"
    else
        check "tmpfs accepted O_DIRECT: json says direct and no warning" bash -c \
            "grep -q '\"sync\":\"direct\"' '$WORK/out' && ! grep -q 'refuses O_DIRECT' '$WORK/err'"
    fi
fi

# probe records the mode
run "$CP" probe --sizes 2MB --reps 1 --sync direct -q "d=$WORK/d"
expect_status 0 "probe --sync direct"
col=$(head -1 "$WORK/out" | tr ',' '\n' | grep -nx sync | cut -d: -f1)
check "probe's sync column says direct on every row" \
    test "$(awk -F, -v c="$col" 'NR > 1 { print $c }' "$WORK/out" | sort -u)" = direct
check "probe wrote 2 rows" test "$(($(wc -l < "$WORK/out") - 1))" -eq 2
finish
