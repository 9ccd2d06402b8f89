#!/usr/bin/env bash
# lab-volumes.sh - real slow volumes on one machine, for demos and tests.
#
#   lab-volumes.sh up       create, mount and throttle the volumes; print TARGET arguments
#   lab-volumes.sh status   show the volumes and their caps (exit 0 up, 1 down)
#   lab-volumes.sh targets  print only the TARGET arguments (NAME=DIR ...)
#   lab-volumes.sh exec [--] CMD ARGS...   run CMD where the caps apply (see below)
#   lab-volumes.sh down     unmount, detach, remove images, rules and cgroup (idempotent)
#
# Each volume is an ext4 file system in a sparse image file, attached to a loop device
# with direct I/O (so the loop device's traffic reaches the real disk, not a second page
# cache) and capped by the kernel's block throttle on that loop device: write and read
# bytes per second. The caps are set on a cgroup (cgroup v2 io.max, or cgroup v1
# blkio.throttle.*_bps_device); `exec` runs a command inside it. On cgroup v1 the same
# caps are also set on the root blkio cgroup when the kernel allows it: the loop device
# belongs to the lab alone, so that throttles every writer in the root group, including
# the kernel's background writeback. v1 applies a group's rules to its own writers only,
# so `exec` then runs the command in the root group, where that one rule covers its
# writes, its fsyncs and the flusher's write-back together.
#
# Environment:
#   CHOKEPOINT_LAB_DIR      state directory (images, mount points)  [/var/tmp/chokepoint-lab]
#   CHOKEPOINT_LAB_VOLUMES  NAME:MBPS list, 0 = unthrottled  ["lab50:50 lab200:200 labfast:0"]
#   CHOKEPOINT_LAB_SIZE     image size (truncate syntax)     [2G]
#   CHOKEPOINT_LAB_CGROUP   cgroup name                      [chokepoint-lab]
#
# Exit status: 0 success, 1 failure, 2 usage error, 77 not root / not permitted /
# loop devices or block cgroup unavailable (skip).
set -euo pipefail

STATE_DIR=${CHOKEPOINT_LAB_DIR:-/var/tmp/chokepoint-lab}
VOLUMES=${CHOKEPOINT_LAB_VOLUMES:-"lab50:50 lab200:200 labfast:0"}
IMAGE_SIZE=${CHOKEPOINT_LAB_SIZE:-2G}
CGROUP_NAME=${CHOKEPOINT_LAB_CGROUP:-chokepoint-lab}
STATE_FILE=$STATE_DIR/lab.state
ME=lab-volumes.sh

die() { echo "$ME: error: $*" >&2; exit 1; }
skip() { echo "$ME: skipped: $*" >&2; exit 77; }
usage() {
    echo "usage: $ME up|down|status|targets|exec [--] COMMAND..." >&2
    exit 2
}

need_root() {
    [ "$(id -u)" -eq 0 ] || skip "must run as root (loop devices, mounts and cgroups)"
}

# ---- cgroups ---------------------------------------------------------------------------
# cg_detect sets CG_MODE (v1|v2) and CG_ROOT (the hierarchy's mount point), preferring
# cgroup v2 when its io controller is available (it also throttles page-cache writeback
# when the memory controller is on), else cgroup v1 blkio.
cg_detect() {
    local root
    root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
    if [ -n "$root" ] && grep -qw io "$root/cgroup.controllers" 2>/dev/null; then
        CG_MODE=v2 CG_ROOT=$root
        return 0
    fi
    root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit }' /proc/mounts)
    if [ -n "$root" ] && [ -w "$root/blkio.throttle.write_bps_device" ]; then
        CG_MODE=v1 CG_ROOT=$root
        return 0
    fi
    return 1
}

cg_create() {
    local dir=$CG_ROOT/$CGROUP_NAME
    if [ "$CG_MODE" = v2 ]; then
        grep -qw io "$CG_ROOT/cgroup.subtree_control" ||
            echo +io >"$CG_ROOT/cgroup.subtree_control" 2>/dev/null ||
            skip "cannot enable the io controller in $CG_ROOT"
        # With memory on as well, writeback of dirty pages is charged to the cgroup.
        grep -qw memory "$CG_ROOT/cgroup.controllers" &&
            ! grep -qw memory "$CG_ROOT/cgroup.subtree_control" &&
            { echo +memory >"$CG_ROOT/cgroup.subtree_control" 2>/dev/null || true; }
    fi
    mkdir -p "$dir" 2>/dev/null || skip "cannot create cgroup $dir"
    CG_DIR=$dir
}

# cg_rule DIR MAJ:MIN BYTES_PER_S  (0 removes the cap)
cg_rule() {
    local dir=$1 dev=$2 bps=$3
    if [ "$CG_MODE" = v2 ]; then
        if [ "$bps" -eq 0 ]; then
            echo "$dev rbps=max wbps=max" >"$dir/io.max"
        else
            echo "$dev rbps=$bps wbps=$bps" >"$dir/io.max"
        fi
    else
        echo "$dev $bps" >"$dir/blkio.throttle.write_bps_device" &&
            echo "$dev $bps" >"$dir/blkio.throttle.read_bps_device"
    fi
}

# The write cap in force for a device in a cgroup directory, in bytes/s, or "none".
cg_show_rule() {
    local dir=$1 dev=$2 v
    if [ "$CG_MODE" = v2 ]; then
        v=$(awk -v d="$dev" '$1 == d { for (i = 2; i <= NF; i++)
                if ($i ~ /^wbps=/) { sub(/^wbps=/, "", $i); print $i } }' \
            "$dir/io.max" 2>/dev/null)
    else
        v=$(awk -v d="$dev" '$1 == d { print $2 }' \
            "$dir/blkio.throttle.write_bps_device" 2>/dev/null)
    fi
    case "$v" in "" | max) echo none ;; *) echo "$v" ;; esac
}

# ---- state -----------------------------------------------------------------------------
# lab.state lines:  cgroup MODE ROOT DIR
#                   volume NAME MBPS MAJ:MIN LOOPDEV IMAGE MOUNT GLOBAL(0|1)
load_state() {
    [ -s "$STATE_FILE" ] || return 1
    read -r _ CG_MODE CG_ROOT CG_DIR < <(grep '^cgroup ' "$STATE_FILE") || return 1
}

volume_lines() { grep '^volume ' "$STATE_FILE" 2>/dev/null || true; }

print_targets() {
    local line=() targets=""
    while read -r -a line; do
        targets+="${targets:+ }${line[1]}=${line[6]}"
    done < <(volume_lines)
    echo "$targets"
}

# ---- up --------------------------------------------------------------------------------
parse_volumes() {
    VOL_NAMES=() VOL_CAPS=()
    local spec name cap
    for spec in $VOLUMES; do
        name=${spec%%:*} cap=${spec#*:}
        [[ "$spec" == *:* && "$name" =~ ^[A-Za-z0-9_-]+$ && "$cap" =~ ^[0-9]+$ ]] ||
            { echo "$ME: error: CHOKEPOINT_LAB_VOLUMES: bad entry '$spec' (want NAME:MBPS)" >&2; exit 2; }
        [ "$name" != mem ] ||
            { echo "$ME: error: CHOKEPOINT_LAB_VOLUMES: 'mem' is reserved for the memory target" >&2; exit 2; }
        [[ " ${VOL_NAMES[*]} " != *" $name "* ]] ||
            { echo "$ME: error: CHOKEPOINT_LAB_VOLUMES: '$name' appears twice" >&2; exit 2; }
        VOL_NAMES+=("$name") VOL_CAPS+=("$cap")
    done
    [ ${#VOL_NAMES[@]} -gt 0 ] || { echo "$ME: error: CHOKEPOINT_LAB_VOLUMES is empty" >&2; exit 2; }
}

UP_DONE=0
up_cleanup() {
    if [ "$UP_DONE" -eq 0 ]; then
        echo "$ME: up failed; removing what was created" >&2
        do_down >/dev/null 2>&1 || true
    fi
}

do_up() {
    need_root
    local tool
    for tool in losetup mkfs.ext4 mount umount mountpoint truncate; do
        command -v "$tool" >/dev/null || skip "$tool not installed"
    done
    [ -e /dev/loop-control ] || skip "no loop devices (/dev/loop-control missing)"
    losetup --find >/dev/null 2>&1 || skip "no free loop device"
    cg_detect || skip "no block-throttling cgroup (cgroup v2 io or v1 blkio) is writable"
    parse_volumes
    if load_state; then
        echo "$ME: already up ($STATE_FILE); 'down' first to rebuild" >&2
        do_status
        return
    fi

    mkdir -p "$STATE_DIR/images" "$STATE_DIR/mnt"
    local size_bytes avail need
    size_bytes=$(numfmt --from=iec "${IMAGE_SIZE%B}" 2>/dev/null) ||
        { echo "$ME: error: CHOKEPOINT_LAB_SIZE: bad size '$IMAGE_SIZE'" >&2; exit 2; }
    avail=$(df --output=avail -B1 "$STATE_DIR" | tail -1)
    need=$((size_bytes * ${#VOL_NAMES[@]}))
    [ "$avail" -ge "$need" ] ||
        die "$STATE_DIR: $((avail >> 20)) MiB free, images may grow to $((need >> 20)) MiB"

    trap up_cleanup EXIT
    cg_create
    echo "cgroup $CG_MODE $CG_ROOT $CG_DIR" >"$STATE_FILE"

    local i name cap img mnt loop dev global bps dio
    for i in "${!VOL_NAMES[@]}"; do
        name=${VOL_NAMES[$i]} cap=${VOL_CAPS[$i]}
        img=$STATE_DIR/images/$name.img mnt=$STATE_DIR/mnt/$name
        rm -f "$img"
        truncate -s "$IMAGE_SIZE" "$img"
        # Initialise inode tables and journal now: lazy init would write in the
        # background through the throttled device while measurements run.
        mkfs.ext4 -q -F -m 0 -L "$name" -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$img"
        loop=$(losetup --find --show --direct-io=on "$img")
        dev=$(cat "/sys/block/${loop#/dev/}/dev")
        global=0
        echo "volume $name $cap $dev $loop $img $mnt $global" >>"$STATE_FILE"
        dio=$(cat "/sys/block/${loop#/dev/}/loop/dio" 2>/dev/null || echo 0)
        [ "$dio" = 1 ] ||
            echo "$ME: warning: $loop: direct I/O refused; its writes pass through the page cache of $STATE_DIR" >&2
        mkdir -p "$mnt"
        mount -o noatime "$loop" "$mnt"
        chmod 1777 "$mnt"
        if [ "$cap" -gt 0 ]; then
            bps=$((cap * 1000000))
            cg_rule "$CG_DIR" "$dev" "$bps" || die "cannot set the cap on $loop in $CG_DIR"
            if [ "$CG_MODE" = v1 ] && cg_rule "$CG_ROOT" "$dev" "$bps" 2>/dev/null; then
                global=1
                sed -i "s|^volume $name .*|volume $name $cap $dev $loop $img $mnt 1|" "$STATE_FILE"
            fi
        fi
    done
    UP_DONE=1
    trap - EXIT
    do_status
}

# ---- status ----------------------------------------------------------------------------
do_status() {
    need_root
    if ! load_state; then
        echo "lab volumes: down ($STATE_DIR)"
        return 1
    fi
    local line=() ok=0 any_global=0 mounted cap_now
    echo "lab volumes: cgroup $CG_MODE $CG_DIR"
    printf '  %-10s %-6s %-7s %-11s %-8s %s\n' NAME DEVICE MAJ:MIN CAP MOUNTED MOUNT
    while read -r -a line; do
        # volume NAME MBPS MAJ:MIN LOOPDEV IMAGE MOUNT GLOBAL
        mounted=no
        mountpoint -q "${line[6]}" && mounted=yes
        [ "$mounted" = yes ] || ok=1
        cap_now=$(cg_show_rule "$CG_DIR" "${line[3]}")
        [ "$cap_now" = none ] || cap_now="$((cap_now / 1000000))MB/s"
        if [ "${line[7]}" = 1 ]; then any_global=1; fi
        printf '  %-10s %-6s %-7s %-11s %-8s %s\n' "${line[1]}" "${line[4]#/dev/}" \
            "${line[3]}" "$cap_now" "$mounted" "${line[6]}"
    done < <(volume_lines)
    echo "TARGET arguments:"
    echo "  $(print_targets)"
    if [ "$any_global" = 1 ]; then
        echo "The caps are also set on the root blkio cgroup: every process in it is throttled,"
        echo "and the kernel's write-back with it. exec runs a command there from any group:"
    else
        echo "The caps apply only to processes in the lab cgroup; run commands with:"
    fi
    echo "  $0 exec -- chokepoint probe $(print_targets)"
    return $ok
}

# ---- exec ------------------------------------------------------------------------------
do_exec() {
    [ "${1:-}" != -- ] || shift
    [ $# -gt 0 ] || usage
    need_root
    load_state || die "lab volumes are down; run '$0 up' first"
    local join=$CG_DIR
    # cgroup v1 applies a group's rules to that group's writers only. Where the caps sit in
    # the root blkio group too, the command joins the root group: the kernel's write-back
    # is written from there, so one rule then covers the command's own writes and fsyncs
    # and the flusher's alike. In the lab group its fsync would meet the lab's rule while
    # the flusher met the root's, and a volume could drain at up to twice its cap.
    if [ "$CG_MODE" = v1 ] && volume_lines | awk '$8 == 1 { found = 1 } END { exit !found }'; then
        join=$CG_ROOT
    fi
    echo $$ >"$join/cgroup.procs" 2>/dev/null || skip "cannot join cgroup $join"
    exec "$@"
}

# ---- down ------------------------------------------------------------------------------
do_down() {
    need_root
    local line=() loop dev img failed=0
    if ! load_state; then
        # A lost state file: still find the cgroup by name.
        CG_DIR=""
        if cg_detect && [ -d "$CG_ROOT/$CGROUP_NAME" ]; then
            CG_DIR=$CG_ROOT/$CGROUP_NAME
        fi
    fi
    # Caps go first, so unmounting does not wait on throttled writeback and no stale rule
    # throttles whoever gets the loop device next. Devices are found from the image
    # files, which also covers volumes a lost state file no longer names.
    for img in "$STATE_DIR"/images/*.img; do
        [ -e "$img" ] || continue
        for loop in $(losetup -j "$img" -O NAME -n 2>/dev/null); do
            dev=$(cat "/sys/block/${loop#/dev/}/dev" 2>/dev/null) || continue
            if [ -n "${CG_DIR:-}" ] && [ -d "$CG_DIR" ]; then
                cg_rule "$CG_DIR" "$dev" 0 2>/dev/null || true
            fi
            if [ "${CG_MODE:-}" = v1 ]; then
                cg_rule "$CG_ROOT" "$dev" 0 2>/dev/null || true
            fi
        done
    done
    for mnt in "$STATE_DIR"/mnt/*; do
        [ -d "$mnt" ] || continue
        if mountpoint -q "$mnt" && ! umount "$mnt"; then
            echo "$ME: error: $mnt is busy" >&2
            failed=1
            continue
        fi
        rmdir "$mnt" 2>/dev/null || true
    done
    for img in "$STATE_DIR"/images/*.img; do
        [ -e "$img" ] || continue
        for loop in $(losetup -j "$img" -O NAME -n 2>/dev/null); do
            losetup -d "$loop" 2>/dev/null || failed=1
        done
        if [ -z "$(losetup -j "$img" 2>/dev/null)" ]; then
            rm -f "$img"
        fi
    done
    [ "$failed" -eq 0 ] || die "some volumes are still in use; state kept in $STATE_FILE"
    if [ -n "${CG_DIR:-}" ] && [ -d "$CG_DIR" ]; then
        # Processes still inside go back to the root cgroup so the directory can go.
        local pid
        while read -r pid; do
            echo "$pid" >"$CG_ROOT/cgroup.procs" 2>/dev/null || true
        done <"$CG_DIR/cgroup.procs"
        rmdir "$CG_DIR" || die "cannot remove cgroup $CG_DIR"
    fi
    rm -f "$STATE_FILE"
    rmdir "$STATE_DIR/images" "$STATE_DIR/mnt" "$STATE_DIR" 2>/dev/null || true
    echo "lab volumes: down"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
    up) [ $# -eq 0 ] || usage; do_up ;;
    down) [ $# -eq 0 ] || usage; do_down ;;
    status) [ $# -eq 0 ] || usage; do_status ;;
    targets) [ $# -eq 0 ] || usage; load_state || die "lab volumes are down"; print_targets ;;
    exec) do_exec "$@" ;;
    -h | --help | help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) usage ;;
esac
