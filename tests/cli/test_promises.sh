#!/usr/bin/env bash
# Promises the help texts and docs make that no other test holds: -h on every command,
# `analyze --format summary`, `--sync none`, `run --keep-input`, the input's page cache
# dropped before a run (checked, as the summary and runs.csv say), `--reps auto` stopping
# by 10, and `run --decompress`.
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"

# -h and --help on every command: usage on stdout naming the command, exit 0, stderr empty.
# Every command chokepoint -h lists is checked, so a new one cannot be left out; the list
# itself must name at least these.
known="fixture probe compress sweep analyze plot run compare history predict"
run "$CP" -h
listed=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$WORK/out")
check "chokepoint -h: exit 0, and it lists every command ($(echo $listed))" bash -c \
    "[ $status = 0 ] && for c in $known; do printf '%s\n' $(echo $listed) | grep -qx \"\$c\" || exit 1; done"
for cmd in $(printf '%s\n' $known $listed | sort -u); do
    for flag in -h --help; do
        run "$CP" "$cmd" "$flag"
        check "$cmd $flag: exit 0, usage on stdout, nothing on stderr" bash -c \
            "[ $status = 0 ] && grep -q '^usage: chokepoint $cmd' '$WORK/out' && [ ! -s '$WORK/err' ]"
    done
done

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

# A sweep drops its input's cache before each run too, and runs.csv says so for each row
# (cache_dropped). On a disk the input is really out of the cache when a run starts: a
# command series records, as its first step, how much of the input fincore (util-linux)
# finds resident: at most 1% (the same check chokepoint makes).
if [ "$fs" = tmpfs ] || [ "$fs" = ramfs ]; then
    skip_check "the input's cache dropped before each sweep run on a disk: \$TMPDIR is $fs"
else
    mkdir -p sweepdisk
    cat in.bin > /dev/null # in the cache now
    resident="$WORK/resident.txt"
    run "$CP" sweep -q -i in.bin -c zstd:1 -T 1 --reps 2 --no-warmup -o cached.csv "d=$WORK/sweepdisk" mem
    expect_status 0 "a sweep on $fs"
    i=$(csv_col cached.csv cache_dropped)
    check "runs.csv has a cache_dropped column" test -n "$i"
    check "every run's row says the input's cache was dropped first (4 rows)" \
        test "$(awk -F, -v i="${i:-0}" 'NR > 1 && $i == 1' cached.csv | wc -l)" -eq 4
    if command -v fincore > /dev/null; then
        : > "$resident"
        run "$CP" sweep -q -i in.bin --cmd "fincore -b -n -o RES {input} >> '$resident'; cat {input} > {output}" \
            --cmd-name fincore -T 1 --reps 3 --no-warmup -o cmd-cached.csv mem
        expect_status 0 "a command sweep on $fs"
        i=$(csv_col cmd-cached.csv cache_dropped)
        check "the command's rows say the input's cache was dropped first (3 rows)" \
            test "$(awk -F, -v i="${i:-0}" 'NR > 1 && $i == 1' cmd-cached.csv | wc -l)" -eq 3
        check "at each run's start at most 1% of the input is in the cache ($(echo $(cat "$resident")) bytes of $(stat -c %s in.bin))" \
            awk -v n="$(stat -c %s in.bin)" '{ if ($1 > 0.01 * n) exit 1; k++ } END { exit !(k == 3) }' "$resident"
    else
        skip_check "no fincore (util-linux): whether the input is out of the cache when a run starts"
    fi
fi

# run --keep-input keeps the generated fixture in the study; without it it is removed
# (test_run.sh).
run "$CP" run --quick --threads 1 --no-probe --keep-input --out "$WORK/kept" -q mem
expect_status 0 "run --keep-input"
check "--keep-input: the generated input is kept, 64 MiB" test "$(stat -c %s "$WORK/kept/input.bin" 2>/dev/null)" = 67108864

# --reps auto: 3 runs, then more until each median's 95% interval is within +-3%, at most
# 10. A command whose time is random (a sleep of 0 to 0.99 s) never settles: exactly 10.
# One that sleeps a fixed 1 s settles on its own, before 10 (a second, so that a busy
# machine's few milliseconds of process start-up stay well inside the 3%).
col_max_rep() { # the largest rep of CSV's rows
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") c = i; next } $c > m { m = $c } END { print m }' "$1"
}
head -c 100000 in.bin > small.bin
run "$CP" sweep -i small.bin --cmd 'sleep 0.$(od -An -N1 -tu1 /dev/urandom | tr -d " "); cat {input} > {output}' \
    --cmd-name jitter -T 1 --reps auto --no-warmup -q -o auto-jitter.csv mem
expect_status 0 "--reps auto on a command whose time is random"
check "--reps auto stops at 10 when the median never settles ($(col_max_rep auto-jitter.csv))" \
    test "$(col_max_rep auto-jitter.csv)" = 10
run "$CP" sweep -i small.bin --cmd 'sleep 1; cat {input} > {output}' --cmd-name steady -T 1 \
    --reps auto --no-warmup -q -o auto-steady.csv mem
expect_status 0 "--reps auto on a command of steady time"
check "--reps auto stops on its own when the median settles ($(col_max_rep auto-steady.csv) runs)" \
    test "$(col_max_rep auto-steady.csv)" -ge 3 -a "$(col_max_rep auto-steady.csv)" -lt 10

# run --decompress: the whole study of restoring, every row a decompression that restored
# the input's size, and an answer that names it.
run "$CP" run --decompress -i in.bin --threads 1 --reps 1 --no-probe --out "$WORK/dec" -q mem local="$WORK"
expect_status 0 "run --decompress"
check "run --decompress: every row is a decompression" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "op") c = i; next } { print $c }' "$WORK/dec/runs.csv" | sort -u)" = decompress
check "run --decompress: every row restored the input's 8 MiB" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "input_bytes") c = i; next } { print $c }' "$WORK/dec/runs.csv" | sort -u)" = 8388608
check "run --decompress: the report names the decompression" grep -q "zstd:3 decompression" "$WORK/dec/report.md"

finish
