#!/usr/bin/env bash
# lab-volumes.sh: one 256 MiB volume capped at 20 MB/s; a 40 MB O_DIRECT write inside the
# lab cgroup must run within 15% of the cap, and `down` must leave nothing behind.
# Needs root and loop devices; exits 77 (skip) otherwise.
set -euo pipefail

SRC_DIR=${SRC_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
LAB=$SRC_DIR/scripts/lab-volumes.sh

# cannot_run REASON: a skip (77), or under CI=true (which runs as root) a failure, as
# tests/cli/lib.sh's skip_lab.
cannot_run() {
    if [ "${CI:-}" = true ]; then echo "FAILED: under CI=true this test must run, but: $*"; exit 1; fi
    echo "skipped: $*"
    exit 77
}
[ "$(id -u)" -eq 0 ] || cannot_run "not root: no loop devices or cgroups"
if [ ! -e /dev/loop-control ] || ! losetup --find >/dev/null 2>&1; then
    cannot_run "no free loop device"
fi

state=$(mktemp -d /var/tmp/chokepoint-labtest.XXXXXX)
export CHOKEPOINT_LAB_DIR=$state/lab
export CHOKEPOINT_LAB_VOLUMES="t20:20"
export CHOKEPOINT_LAB_SIZE=256M
export CHOKEPOINT_LAB_CGROUP=chokepoint-labtest-$$
mnt=$CHOKEPOINT_LAB_DIR/mnt/t20

cleanup() {
    bash "$LAB" down >/dev/null 2>&1 || true
    rm -rf "$state"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

rc=0
out=$(bash "$LAB" up) || rc=$?
[ "$rc" -ne 77 ] || cannot_run "lab-volumes.sh up could not throttle a loop device (no usable block cgroup)"
[ "$rc" -eq 0 ] || fail "up exited $rc"
mountpoint -q "$mnt" || fail "$mnt is not mounted after up"
grep -q "t20=$mnt" <<<"$out" || fail "up did not print the TARGET argument t20=$mnt"
[ "$(bash "$LAB" targets)" = "t20=$mnt" ] || fail "targets printed '$(bash "$LAB" targets)'"

# dd's own figure: "41943040 bytes (42 MB, 40 MiB) copied, 2.02 s, 20.7 MB/s".
dd_rate() {
    awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "copied,") s = $(i + 1);
                    printf "%.0f\n", $1 / s }'
}
# check_rate WHAT RATE [LOW]: RATE within LOW (default 0.85) .. 1.15 of the cap.
check_rate() {
    local what=$1 rate=$2 low=${3:-0.85} cap=20000000
    echo "$what: $rate bytes/s against a cap of $cap"
    awk -v r="$rate" -v c="$cap" -v lo="$low" 'BEGIN { exit !(r >= lo * c && r <= 1.15 * c) }' ||
        fail "$what ran at $rate bytes/s, not within $low .. 1.15 of $cap"
}

rate=$(LC_ALL=C bash "$LAB" exec -- dd if=/dev/zero of="$mnt/direct" bs=1M count=40 oflag=direct 2>&1 |
    dd_rate)
check_rate "40 MB O_DIRECT write in the cgroup" "$rate"

# Buffered writes and fsync as chokepoint's default sink does them. Journal and metadata
# writes share the byte budget, so this may come in well under the cap, never over it.
rate=$(LC_ALL=C bash "$LAB" exec -- dd if=/dev/zero of="$mnt/fsync" bs=1M count=40 conv=fsync 2>&1 |
    dd_rate)
check_rate "40 MB buffered write + fsync in the cgroup" "$rate" 0.6

bash "$LAB" status >/dev/null || fail "status exited $? while up"

loop=$(losetup -j "$CHOKEPOINT_LAB_DIR/images/t20.img" -O NAME -n)
dev=$(cat "/sys/block/${loop#/dev/}/dev")
cg_dirs=$(awk '$3 == "cgroup" && $4 ~ /blkio/ { print $2 } $3 == "cgroup2" { print $2 }' \
    /proc/mounts)
bash "$LAB" down >/dev/null || fail "down exited $?"
bash "$LAB" down >/dev/null || fail "a second down exited $? (must be idempotent)"
! mountpoint -q "$mnt" 2>/dev/null || fail "$mnt still mounted after down"
[ ! -e "$CHOKEPOINT_LAB_DIR" ] || fail "$CHOKEPOINT_LAB_DIR left behind"
! losetup -l -n -O BACK-FILE "$loop" 2>/dev/null | grep -qF "$CHOKEPOINT_LAB_DIR" ||
    fail "$loop still attached"
for d in $cg_dirs; do
    [ ! -d "$d/$CHOKEPOINT_LAB_CGROUP" ] || fail "cgroup $d/$CHOKEPOINT_LAB_CGROUP left behind"
    ! grep -qs "^$dev " "$d/blkio.throttle.write_bps_device" ||
        fail "a write cap on $dev ($loop) is left in $d"
done
set +e
status_rc=0
bash "$LAB" status >/dev/null || status_rc=$?
set -e
[ "$status_rc" -eq 1 ] || fail "status exited $status_rc when down, expected 1"
echo "ok"
