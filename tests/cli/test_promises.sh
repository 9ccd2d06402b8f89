#!/usr/bin/env bash
# Promises the help texts and docs make that no other test holds: -h on every command,
# `analyze --format summary`, `--sync none`, `run --keep-input`, and the input's page
# cache dropped before a run (checked, as the summary says).
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"

# -h and --help on every command: usage on stdout naming the command, exit 0, stderr empty.
for cmd in fixture probe compress sweep analyze plot run compare history; do
    for flag in -h --help; do
        run "$CP" "$cmd" "$flag"
        check "$cmd $flag: exit 0, usage on stdout, nothing on stderr" bash -c \
            "[ $status = 0 ] && grep -q '^usage: chokepoint $cmd' '$WORK/out' && [ ! -s '$WORK/err' ]"
    done
done
run "$CP" -h
check "chokepoint -h lists every command" bash -c \
    "[ $status = 0 ] && for c in fixture probe compress sweep analyze plot run compare history; do grep -q \"^  \$c \" '$WORK/out' || exit 1; done"

# analyze --format summary: one table row per target with its verdict at the largest
# thread count. The reference data set is generated with known speeds
# (fixtures/reference/make_reference.py): ssd writes 1.5 GB/s and never limits the job, usb
# writes 250 MB/s, under the 8-thread output rate; mem is the CPU itself.
REF=$SRC_DIR/fixtures/reference
run "$CP" analyze "$REF/runs.csv" --probe "$REF/probe.csv" --format summary
expect_status 0 "analyze --format summary"
check "summary: mem cpu-bound at 8 threads" grep -Eq '^mem \(zstd:3\) +8 cpu-bound ' "$WORK/out"
check "summary: ssd cpu-bound at 8 threads" grep -Eq '^ssd \(zstd:3\) +8 cpu-bound ' "$WORK/out"
check "summary: usb write-bound at 8 threads" grep -Eq '^usb \(zstd:3\) +8 write-bound ' "$WORK/out"
check "summary: one row per target" test "$(grep -Ec '^(mem|ssd|usb) \(zstd:3\) +8 ' "$WORK/out")" -eq 3

# --sync none: the summary and the record say the output was not synced; fsync (the
# default) says it was.
"$CP" fixture -o in.bin --size 8M --kind text --seed 2 -q
mkdir -p outdir
run "$CP" compress -i in.bin -o outdir/none.zst --sync none
expect_status 0 "compress --sync none"
check "--sync none: the summary says no fsync" grep -q "no fsync" "$WORK/out"
run "$CP" compress -i in.bin -o outdir/none2.zst --sync none --json
check "--sync none: the JSON record says sync none" grep -q '"sync": *"none"' "$WORK/out"
run "$CP" compress -i in.bin -o outdir/fsync.zst --json
check "the default: the JSON record says sync fsync" grep -q '"sync": *"fsync"' "$WORK/out"
check "both outputs restore the input" bash -c "zstd -q -d -c outdir/none.zst | cmp -s - in.bin && zstd -q -d -c outdir/fsync.zst | cmp -s - in.bin"

# The input's page cache is dropped before a run, checked: on a disk the summary says
# "dropped first" and the file is then out of the cache; a tmpfs input cannot leave
# memory ("not dropped"); --warm keeps it ("kept warm").
fs=$(stat -f -c %T "$WORK")
if [ "$fs" = tmpfs ] || [ "$fs" = ramfs ]; then
    skip_check "the input's cache dropped on a disk: \$TMPDIR is $fs"
else
    cat in.bin > /dev/null # in the cache now
    run "$CP" compress -i in.bin -o /dev/null
    check "on $fs the input's cache is dropped first" grep -q "input cache dropped first" "$WORK/out"
fi
run "$CP" compress -i in.bin -o /dev/null --warm
check "--warm: the input cache is kept warm" grep -q "input cache kept warm" "$WORK/out"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    shm_in=$(mktemp /dev/shm/cp-promises.XXXXXX)
    CLEANUP_HOOKS+=("rm -f '$shm_in'")
    cp in.bin "$shm_in"
    run "$CP" compress -i "$shm_in" -o /dev/null
    check "a tmpfs input's cache is not dropped, and the summary says so" \
        grep -q "input cache not dropped (the kernel kept it)" "$WORK/out"
else
    skip_check "the input's cache on tmpfs: no writable /dev/shm"
fi

# run --keep-input keeps the generated fixture in the study; without it it is removed
# (test_run.sh).
run "$CP" run --quick --threads 1 --no-probe --keep-input --out "$WORK/kept" -q mem
expect_status 0 "run --keep-input"
check "--keep-input: the generated input is kept, 64 MiB" test "$(stat -c %s "$WORK/kept/input.bin" 2>/dev/null)" = 67108864

finish
