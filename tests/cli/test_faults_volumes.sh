#!/usr/bin/env bash
# A target that fills up, vanishes or is unmounted mid-sweep, an input that changes during
# a run, and symlinks where chokepoint writes: the failing run becomes a row with an error
# naming the volume, nothing is left on the volume, the other targets' rows are fine, and
# the exit status is 1 (data errors 2). Full and unmounted volumes need root (tmpfs).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults_lib.sh"
set -e

head -c 24000000 /dev/urandom > "$WORK/rand24m"
head -c 4000000 /dev/urandom > "$WORK/rand4m"
mkdir "$WORK/ok"

# valid_of TARGET: the valid column of the target's rows in runs.csv, one per line. Columns
# are found by their header name (runs.csv gains columns; the error text may hold commas,
# and it comes after every numeric column).
valid_of() {
    awk -F, -v t="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "valid") c = i; next }
        $1 == t { print $c }' "$WORK/runs.csv"
}
# all_rows_valid TARGET / some_row_failed TARGET
all_rows_valid() { [ -n "$(valid_of "$1")" ] && ! valid_of "$1" | grep -qv '^1$'; }
some_row_failed() { valid_of "$1" | grep -q '^0$'; }

# ---- a full volume: 16 MB tmpfs, incompressible 24 MB input ----
if is_root && mount_tmpfs "$WORK/full" 16m; then
    run "$CP" sweep -q -i "$WORK/rand24m" -c zstd:1 -T 1 --reps 1 --no-warmup --seed 3 \
        "full=$WORK/full" "ok=$WORK/ok" -o "$WORK/runs.csv"
    expect_status 1 "sweep with a target that fills up"
    check "the full target's row carries the error" some_row_failed full
    check "the error names the volume and says no space" \
        grep -q "volume 'full'.*No space left on device" "$WORK/runs.csv"
    check "the other target's rows are valid" all_rows_valid ok
    check "stderr names the full volume in one line" \
        grep -q "target 'full'.*volume 'full'.*No space left" "$WORK/err"
    check "nothing is left on the full volume" test -z "$(ls -A "$WORK/full")"
    check "nothing is left in the other target" test -z "$(ls -A "$WORK/ok")"
    rm -f "$WORK/runs.csv"

    # compress onto the full volume: exit 1, one line naming it, no partial output
    run "$CP" compress -q -i "$WORK/rand24m" -o "$WORK/full/x.zst" -c zstd:1
    expect_status 1 "compress onto a full volume"
    check "compress names the full volume in one error line" \
        test "$(grep -c "error: .*volume '.*full'.*No space left on device" "$WORK/err")" -eq 1 -a \
        "$(grep -c "error:" "$WORK/err")" -eq 1
    check "no partial output on the full volume" test -z "$(ls -A "$WORK/full")"
else
    skip_lab_check "full-volume cases need root and tmpfs mounts"
fi

# ---- a restore that cannot fit: 100 MiB tmpfs, a 24 MB archive, the volume's 64 MiB
# margin: the archive fits, restoring the 24 MB beside it does not (--layout same) ----
if is_root && mount_tmpfs "$WORK/tight" 100m; then
    for series in zstd:1 zstd-cli:1; do
        rm -f "$WORK/runs.csv"
        run "$CP" sweep -q -i "$WORK/rand24m" --decompress --layout same -c "$series" -T 1 \
            --reps 1 --no-warmup "tight=$WORK/tight" -o "$WORK/runs.csv"
        expect_status 1 "$series restoring onto a volume without room for it"
        check "$series: its row says the restored file does not fit" \
            grep -q "volume '[^']*tight' has [0-9.]* MB free, the restored file needs 24.0 MB" \
            "$WORK/runs.csv"
        check "$series: nothing is left on the volume" test -z "$(ls -A "$WORK/tight")"
    done
    rm -f "$WORK/runs.csv"
else
    skip_lab_check "the restore that cannot fit needs root and a tmpfs mount"
fi

# ---- the target directory removed mid-sweep (0.8 s runs at 5 MB/s, paced per O_DIRECT
# write in the directory itself: an emulated disk's mount point could not be removed) ----
mkdir "$WORK/gone"
when_running "$WORK/gone" 0.2 "rm -rf '$WORK/gone'"
run "$CP" sweep -q -i "$WORK/rand4m" -c copy -T 1 --reps 2 --no-warmup --seed 5 --sync direct \
    "gone=$WORK/gone@5MB/s" "ok=$WORK/ok" -o "$WORK/runs.csv"
wait
expect_status 1 "sweep whose target directory is removed"
check "the removed target's run is a failed row" some_row_failed gone
check "its error names the target and says it is gone" \
    grep -q "target 'gone': directory '.*gone' is gone" "$WORK/runs.csv"
check "the other target's rows are valid" all_rows_valid ok
check "the directory was not recreated" test ! -e "$WORK/gone"
rm -f "$WORK/runs.csv"

# ---- the target's filesystem unmounted mid-sweep (lazy unmount while a file is open) ----
# 128 MiB: the 4 MB copy must fit beside the 64 MiB free-space margin (common/sys.h).
if is_root && mount_tmpfs "$WORK/mnt" 128m; then
    when_running "$WORK/mnt" 0.2 "umount -l '$WORK/mnt'"
    run "$CP" sweep -q -i "$WORK/rand4m" -c copy -T 1 --reps 2 --no-warmup --seed 5 \
        "usb=$WORK/mnt@5MB/s" "ok=$WORK/ok" -o "$WORK/runs.csv"
    wait
    expect_status 1 "sweep whose target is unmounted"
    check "the unmounted target's run is a failed row" some_row_failed usb
    check "its error names the target" grep -q "target 'usb'.*no longer the directory" "$WORK/runs.csv"
    check "nothing was written to the directory under the mount point" \
        test -z "$(ls -A "$WORK/mnt")"
    check "the other target's rows are valid" all_rows_valid ok
    rm -f "$WORK/runs.csv"
else
    skip_lab_check "unmount case needs root and tmpfs mounts"
fi

# ---- the input changes during a run ----
cp "$WORK/rand4m" "$WORK/input"
mkdir "$WORK/t"
when_running "$WORK/t" 0.2 "echo more >> '$WORK/input'"
run "$CP" sweep -q -i "$WORK/input" -c copy -T 1 --reps 1 --no-warmup \
    "slow=$WORK/t@5MB/s" -o "$WORK/runs.csv"
wait
expect_status 1 "sweep whose input grows during a run"
check "the run is marked invalid" some_row_failed slow
check "its error says the input changed" grep -q "changed during the run" "$WORK/runs.csv"
check "runs.csv has a bytes_per_s column" test -n "$(csv_col "$WORK/runs.csv" bytes_per_s)"
check "no throughput is reported for it" \
    test -z "$(csv_field "$WORK/runs.csv" 1 bytes_per_s)"
check "nothing is left in the target" test -z "$(ls -A "$WORK/t")"
rm -f "$WORK/runs.csv"

# ---- symlinks ----
echo victim > "$WORK/victim"
ln -s "$WORK/victim" "$WORK/link.zst"
run "$CP" compress -q -i "$WORK/rand4m" -o "$WORK/link.zst" -c zstd:1
expect_status 2 "compress -o onto a symlink"
run "$CP" compress -q -i "$WORK/rand4m" -o "$WORK/link.zst" -c zstd:1 --force
expect_status 2 "compress -o onto a symlink, even with --force"
expect_one_line_error "not a regular file; refusing" "the refusal says why"
ln -s "$WORK/victim" "$WORK/link.csv"
run "$CP" sweep -q -i "$WORK/rand4m" -c copy -T 1 --reps 1 --no-warmup mem -o "$WORK/link.csv" --force
expect_status 2 "sweep -o onto a symlink, even with --force"
check "the symlinks' target is untouched" test "$(cat "$WORK/victim")" = victim

# Symlinks planted under the very names compress -o gives its temporary files
# (DIR/BASE.PID-N.chokepoint-tmp, analyzer/common/tempfile.c; the pid is known because the
# shell execs chokepoint, and N counts from 0, so the first names it tries are planted):
# O_EXCL|O_NOFOLLOW refuses each and a free name is used. A product that opened through
# a link would write into the victim, or create the file a dangling link names.
# trap_links KIND TARGET: compress -o trap-KIND/x.zst beside two links to TARGET.
trap_links() {
    mkdir "$WORK/trap-$1"
    run bash -c 'for n in 0 1; do ln -s "$2" "$1/x.zst.$$-$n.chokepoint-tmp"; done
                 exec "$3" compress -q -i "$4" -o "$1/x.zst" -c zstd:1' \
        _ "$WORK/trap-$1" "$2" "$CP" "$WORK/rand4m"
    expect_status 0 "compress beside symlinks to $1 named like its temporary files"
    check "the output is a fresh regular file" test -f "$WORK/trap-$1/x.zst" -a ! -L "$WORK/trap-$1/x.zst"
    check "the planted symlinks are left alone" test "$(find "$WORK/trap-$1" -type l | wc -l)" -eq 2
}
trap_links file "$WORK/victim"
check "the file behind the planted symlinks is untouched" test "$(cat "$WORK/victim")" = victim
trap_links dangling "$WORK/created-through-link"
check "no file was created through a dangling symlink" test ! -e "$WORK/created-through-link"

finish
