#!/usr/bin/env bash
# An emulated write cap (DIR@RATE) is a disk: as root, the output goes to the page cache
# of an ext4 volume on a loop device that the kernel's block throttle caps at RATE. So a
# run without fsync ends long before RATE could write its output (the page cache took
# it), an fsync'd run waits for the kernel to drain it at RATE, the device's counters
# count, and runs.csv and meta.json say "disk". With --sync direct, or without root, the
# cap paces each write (and says so). Nothing is left behind: not after a run, not after
# two interrupts, not after a SIGKILL (a guardian process takes the disk down), and what
# a run killed together with its guardian left is removed by the next one.
source "$(dirname "$0")/lib.sh"
set -e

if ! is_root || [ ! -e /dev/loop-control ] || ! command -v mkfs.ext4 > /dev/null ||
    [ ! -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
    skip_lab "an emulated disk needs root, loop devices, mkfs.ext4 and cgroup v1's blkio throttle"
fi

rate=20 # MB/s
"$CP" fixture -o "$WORK/in.bin" --size 24MiB --kind mixed -q
# The page cache must be allowed to hold the whole output for the run without fsync to
# end before the cap could write it (a machine with little memory has a low threshold).
hold_writeback_room $((64 * 1024 * 1024))
mkdir -p "$WORK/emu"
emu="e=$WORK/emu@${rate}MB/s"

# leftovers DIR: what an emulated disk could leave in DIR or the system (empty: nothing)
leftovers() {
    ls -A "$1" | grep '^\.chokepoint-disk\.' || true
    grep " $1/.chokepoint-disk" /proc/mounts || true
    losetup -a | grep "$1/.chokepoint-disk" || true
}
# stray_rules: the block throttle's write rules on a device that no longer holds an
# image (a rule left behind would cap whoever takes the loop device next) or that holds
# one of this test's emulated disks (empty: none). Other tests' volumes keep theirs.
stray_rules() {
    local dev backing
    while read -r dev _; do
        backing=$(cat "/sys/dev/block/$dev/loop/backing_file" 2> /dev/null || true)
        if [ -z "$backing" ] || [[ "$backing" == "$WORK"/* ]]; then echo "$dev"; fi
    done < /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
}

# row_value FILE COLUMN: the column's value on the first data row
row_value() { awk -F, -v c="$(csv_col "$1" "$2")" 'NR == 2 { print $c }' "$1"; }

# ---- buffered writes: the page cache takes them, the kernel drains them at the cap ----
for sync in none fsync; do
    run "$CP" sweep -i "$WORK/in.bin" -T 2 --reps 1 -c zstd:1 --sync "$sync" \
        -o "$WORK/runs-$sync.csv" "$emu"
    expect_status 0 "sweep --sync $sync onto $emu"
    check "--sync $sync: the target is an emulated disk (said on stderr)" \
        grep -q "an emulated $rate MB/s disk (ext4 on /dev/loop" "$WORK/err"
    f=$WORK/runs-$sync.csv
    check "--sync $sync: runs.csv says emulation disk, emulated 1, cap $((rate * 1000000))" \
        test "$(row_value "$f" emulation),$(row_value "$f" emulated),$(row_value "$f" rate_cap_bps)" \
        = "disk,1,$((rate * 1000000))"
    is_figure "--sync $sync: the pacing's wait" "$(row_value "$f" throttle_s)" &&
    check "--sync $sync: no time waited in chokepoint's own pacing" \
        awk -v t="$(row_value "$f" throttle_s)" 'BEGIN { exit !(t == 0) }'
    check "--sync $sync: the loop device is the run's device" \
        bash -c "[[ '$(row_value "$f" device)' == loop* ]]"
    check "--sync $sync: nothing left behind" test -z "$(leftovers "$WORK/emu")"
done
out_bytes=$(row_value "$WORK/runs-none.csv" output_bytes)
drain_s=$(awk -v o="$out_bytes" -v r="$rate" 'BEGIN { print o / (r * 1e6) }')
none_s=$(row_value "$WORK/runs-none.csv" seconds)
fsync_s=$(row_value "$WORK/runs-fsync.csv" seconds)
is_figure "the output, the drain at the cap, the runs without and with fsync, the device's writes" \
    "$out_bytes" "$drain_s" "$none_s" "$fsync_s" "$(row_value "$WORK/runs-fsync.csv" dev_written_bytes)"
check "without fsync the run ($none_s s) ends before the cap could write its output ($drain_s s): the page cache took it" \
    awk -v s="$none_s" -v d="$drain_s" 'BEGIN { exit !(s < 0.5 * d) }'
check "with fsync the run ($fsync_s s) waits for the drain at the cap ($drain_s s)" \
    awk -v s="$fsync_s" -v d="$drain_s" 'BEGIN { exit !(s >= 0.8 * d) }'
check "the fsync'd run's device wrote the output" \
    awk -v w="$(row_value "$WORK/runs-fsync.csv" dev_written_bytes)" -v o="$out_bytes" \
        'BEGIN { exit !(w >= 0.9 * o) }'
check "no block throttle rule is left" test -z "$(stray_rules)"

# ---- run from another blkio group: cgroup v1 charges a write to its writer's group and
# applies only that group's rules, and the fsync is the process's own write while the
# kernel's write-back is the root group's. The cap must hold there, and once only: with
# small thresholds the flusher writes during the run and the fsync beside it, so a rule
# in each group would let the two through at twice the cap. ----
group=/sys/fs/cgroup/blkio/chokepoint-test-$$
if mkdir "$group" 2> /dev/null; then
    CLEANUP_HOOKS+=("rmdir '$group'")
    . "$SRC_DIR/scripts/writeback-thresholds.sh" # saves the thresholds; restore_dirty
    CLEANUP_HOOKS+=("restore_dirty")
    for regime in default small; do
        if [ "$regime" = small ]; then
            sysctl -qw vm.dirty_background_bytes=4194304 vm.dirty_bytes=8388608
        fi
        run bash -c "echo \$\$ > '$group/cgroup.procs' && exec '$CP' sweep -i '$WORK/in.bin' -T 2 \
            --reps 1 -c zstd:1 -o '$WORK/runs-group-$regime.csv' '$emu'"
        restore_dirty
        expect_status 0 "sweep from another blkio group, $regime thresholds"
        group_s=$(row_value "$WORK/runs-group-$regime.csv" seconds)
        is_figure "from another blkio group, $regime thresholds: the run's time" "$group_s" &&
        check "from another blkio group, $regime thresholds: the fsync'd run ($group_s s) waits for the drain at the cap ($drain_s s), not faster" \
            awk -v s="$group_s" -v d="$drain_s" 'BEGIN { exit !(s >= 0.8 * d) }'
    done
    check "no block throttle rule in the other group" \
        test -z "$(cat "$group/blkio.throttle.write_bps_device")"
    # dirty_pause_s: with the small thresholds (8 MB of dirty pages, against an output
    # that takes over a second at the cap) the kernel puts the writer to sleep in
    # balance_dirty_pages as it writes; the row counts that sleep, a part of its io_wait_s.
    f=$WORK/runs-group-small.csv
    pause=$(row_value "$f" dirty_pause_s)
    iowait=$(row_value "$f" io_wait_s)
    if [ -z "$pause" ]; then
        skip_check "dirty_pause_s: empty, no tracefs (/sys/kernel/tracing) for the write-back trace events here"
    elif is_figure "the small thresholds' run: dirty_pause_s, io_wait_s" "$pause" "$iowait"; then
        check "small thresholds: the writer slept in write-back throttling (dirty_pause_s $pause s)" \
            awk -v p="$pause" 'BEGIN { exit !(p > 0.05) }'
        check "and that sleep is a part of its blocked time (io_wait_s $iowait s)" \
            awk -v p="$pause" -v w="$iowait" 'BEGIN { exit !(p <= w + 0.05) }'
    fi
else
    not_ok "cannot create a blkio group $group as root"
fi

# ---- O_DIRECT writes meet the cap one by one: chokepoint paces them ----
run "$CP" sweep -i "$WORK/in.bin" -T 1 --reps 1 -c zstd:1 --sync direct \
    -o "$WORK/runs-direct.csv" "$emu"
expect_status 0 "sweep --sync direct onto $emu"
check "--sync direct: emulation pacing, no disk made" \
    test "$(row_value "$WORK/runs-direct.csv" emulation)" = pacing
check "--sync direct: no emulated disk was announced" \
    bash -c "! grep -q 'emulated $rate MB/s disk' '$WORK/err'"

# ---- a study's records and report say what the volume was ----
run "$CP" run -i "$WORK/in.bin" -T 1 --reps 1 -c zstd:1 --no-probe --out "$WORK/study" \
    mem "$emu"
expect_status 0 "run mem $emu"
check "meta.json: the target's emulation is disk" \
    test "$(json_get "$WORK/study/meta.json" "[t['emulation'] for t in m['targets'] if t['name'] == 'e'][0]")" = disk
check "report.md: the target is an emulated disk with the kernel's write-back" \
    grep -q "emulated $rate MB/s disk: ext4 on a loop device" "$WORK/study/report.md"
check "run: nothing left behind" test -z "$(leftovers "$WORK/emu")"

# ---- without root: the cap paces each write, and the warning says why ----
if command -v setpriv > /dev/null; then
    mkdir -p "$WORK/user"
    chmod 777 "$WORK/user"
    chmod 644 "$WORK/in.bin"
    run unprivileged "$CP" sweep -i "$WORK/in.bin" -T 1 --reps 1 -c zstd:1 \
        -o "$WORK/user/runs.csv" "e=$WORK/user@${rate}MB/s"
    expect_status 0 "sweep as an ordinary user onto DIR@RATE"
    check "as an ordinary user: one warning says there is no emulated disk and why" \
        grep -q "target 'e': no emulated disk (it needs root.*paces each write" "$WORK/err"
    check "as an ordinary user: emulation pacing" \
        test "$(row_value "$WORK/user/runs.csv" emulation)" = pacing
else
    skip_check "setpriv missing: the unprivileged fallback is not run"
fi

# ---- a killed run: its guardian takes the disk down; killed with it, the next run does ----
# disk_mounted: an emulated disk is mounted in $WORK/emu
disk_mounted() { grep -q " $WORK/emu/.chokepoint-disk" /proc/mounts; }
"$CP" sweep -i "$WORK/in.bin" -T 1 --reps 3 -c xz:6 -o "$WORK/killed.csv" "$emu" \
    > /dev/null 2>&1 &
pid=$!
if wait_for 30 disk_mounted; then
    kill -KILL "$pid"
    wait "$pid" 2> /dev/null || true
    check "a run killed with SIGKILL: its guardian takes the disk down within 5 s" \
        wait_for 5 bash -c "[ -z \"\$(ls -A '$WORK/emu' | grep '^\.chokepoint-disk\.')\" ]"
    check "a run killed with SIGKILL: nothing left, no block throttle rule" \
        test -z "$(leftovers "$WORK/emu")$(stray_rules)"
else
    kill -KILL "$pid" 2> /dev/null || true
    not_ok "the emulated disk was not mounted within 30 s"
fi
"$CP" sweep -i "$WORK/in.bin" -T 1 --reps 3 -c xz:6 -o "$WORK/killed2.csv" "$emu" \
    > /dev/null 2>&1 &
pid=$!
if wait_for 30 disk_mounted; then
    guardian=$(pgrep -P "$pid" | head -1)
    kill -KILL $guardian "$pid"
    wait "$pid" 2> /dev/null || true
    check "a run killed with its guardian leaves its disk mounted (the premise of the next check)" \
        test -n "$(leftovers "$WORK/emu")"
    run "$CP" sweep -i "$WORK/in.bin" -T 1 --reps 1 -c zstd:1 -o "$WORK/after.csv" "$emu"
    expect_status 0 "a run after a killed one"
    check "the next run removed the killed run's leftovers, and says so" \
        grep -q "leftover(s) of an emulated disk" "$WORK/err"
    check "after the next run nothing is left" test -z "$(leftovers "$WORK/emu")"
    check "after the next run no block throttle rule is left" test -z "$(stray_rules)"
else
    kill -KILL "$pid" 2> /dev/null || true
    not_ok "the emulated disk was not mounted within 30 s"
fi

# ---- two interrupts take the disk down at once ----
"$CP" sweep -i "$WORK/in.bin" -T 1 --reps 3 -c xz:6 -o "$WORK/int.csv" "$emu" \
    > /dev/null 2>&1 &
pid=$!
if wait_for 30 disk_mounted; then
    sleep 0.5
    kill -INT "$pid"
    sleep 0.05
    kill -INT "$pid" 2> /dev/null || true
    set +e
    wait "$pid"
    st=$?
    set -e
    check "two interrupts: exit status 130" test "$st" -eq 130
    check "two interrupts: nothing left behind" test -z "$(leftovers "$WORK/emu")"
    check "two interrupts: no block throttle rule is left" test -z "$(stray_rules)"
else
    kill -KILL "$pid" 2> /dev/null || true
    not_ok "the emulated disk was not mounted within 30 s"
fi
finish
