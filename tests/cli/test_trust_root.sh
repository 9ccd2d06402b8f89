#!/usr/bin/env bash
# What root does for an emulated disk (DIR@RATE) cannot be turned against the machine, and
# nothing is left behind after any ending but power loss:
# - a leftover temporary file or directory is removed only when its lock can be taken (a
#   live process in another PID namespace keeps its files, whatever its PID reads as here);
# - the disk lives in a root-owned 0700 directory of chokepoint's own in DIR, refused when
#   DIR or a directory above it is writable by others without the sticky bit; a second
#   user who owns DIR can neither reach the image nor have mkfs format a file of theirs;
# - the crash cleanup never follows a symlink nor trusts a record it did not write: a
#   planted ".chokepoint-disk.<dead pid>-0" makes root detach nothing and clear no rule;
# - SIGHUP unwinds like SIGTERM, and a kill of chokepoint's whole process group leaves its
#   guardian (a session of its own) to take the disk, its throttle rule, the tracefs
#   instance and kernel.task_delayacct down.
# Root only, but the first section; without root it skips, and under CI=true a root check
# that cannot run is a failure.
if [ "$(id -u)" -eq 0 ] && [ -z "${CP_TRUST_NS:-}" ] && command -v unshare > /dev/null &&
    unshare -m --propagation private true 2> /dev/null; then
    # A mount namespace of the test's own, so that tracefs can be mounted for chokepoint
    # without changing what other processes on the machine see.
    CP_TRUST_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/faults_lib.sh"
set -e

# cannot_run REASON: the root part cannot run here: a skip, or under CI a failure.
cannot_run() {
    if [ "${CI:-}" = true ]; then
        not_ok "under CI this root test must run: $*"
        finish
        exit 1
    fi
    skip "$*"
}

# dead_pid: the PID of a process that has ended (a name for a leftover of a dead process).
dead_pid() {
    sleep 0 &
    local p=$!
    wait "$p"
    echo "$p"
}

# ---- stale means the lock can be taken (any user) ----
mkdir "$WORK/t10"
head -c 100000 /dev/urandom > "$WORK/small.bin"
dead=$(dead_pid)
leftover=$WORK/t10/runs.$dead-0.chokepoint-tmp
shm_left=$WORK/t10/chokepoint-study.$dead-1.chokepoint-tmp
echo rows > "$leftover"
mkdir "$shm_left"
echo 1 > "$shm_left/.chokepoint-target.lock"
echo data > "$shm_left/.chokepoint-run.$dead-2.chokepoint-tmp"
# A live process (as one in another PID namespace would) holds both locks.
(
    exec 8< "$leftover" 9< "$shm_left/.chokepoint-target.lock"
    flock -x 8
    flock -x 9
    exec sleep 60
) &
holder=$!
CLEANUP_HOOKS+=("kill $holder 2> /dev/null")
wait_for 5 bash -c "! flock -xn '$leftover' true" || true
run "$CP" compress -q -i "$WORK/small.bin" -c zstd:1 -T 1 -o "$WORK/t10/a.zst"
expect_status 0 "compress into a directory with leftovers whose PID names no process"
check "a leftover temporary file whose lock a live process holds is not removed" \
    test "$(cat "$leftover" 2> /dev/null)" = rows
check "a leftover directory whose target lock a live process holds is not removed" \
    test -e "$shm_left/.chokepoint-run.$dead-2.chokepoint-tmp"
kill "$holder" 2> /dev/null || true
wait "$holder" 2> /dev/null || true
run "$CP" compress -q -i "$WORK/small.bin" -c zstd:1 -T 1 -o "$WORK/t10/b.zst"
expect_status 0 "compress once the locks are free"
check "with its lock free, the leftover file is removed" test ! -e "$leftover"
check "with its lock free, the leftover directory is removed" test ! -e "$shm_left"

# ---- what the root part needs ----
is_root || cannot_run "an emulated disk needs root"
if [ ! -e /dev/loop-control ] || ! command -v mkfs.ext4 > /dev/null ||
    [ ! -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ] || ! command -v useradd > /dev/null ||
    ! command -v setpriv > /dev/null || ! command -v python3 > /dev/null; then
    cannot_run "needs loop devices, mkfs.ext4, cgroup v1's blkio throttle, useradd, setpriv and python3"
fi
RULES=/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device
user=cptrust$$
useradd -M -N -s /usr/sbin/nologin "$user" 2> "$WORK/useradd.err" ||
    cannot_run "cannot add a second user: $(cat "$WORK/useradd.err")"
CLEANUP_HOOKS+=("userdel '$user' 2> /dev/null")
uid=$(id -u "$user")
gid=$(id -g "$user")
as_user() { setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"; }
chmod 755 "$WORK"
# A python3 the second user can run (a root's own, under /root, it cannot).
user_python=""
for py in /usr/bin/python3 /usr/local/bin/python3 "$(command -v python3)"; do
    if [ -x "$py" ] && as_user "$py" -c pass 2> /dev/null; then user_python=$py; break; fi
done
[ -n "$user_python" ] || cannot_run "no python3 the second user can run"
"$CP" fixture -o "$WORK/in.bin" --size 8MiB --kind mixed -q
chmod 644 "$WORK/in.bin"
# tracefs, where the kernel has it, mounted in this test's namespace only.
tracing=""
if [ -n "${CP_TRUST_NS:-}" ] && grep -qw tracefs /proc/filesystems; then
    if [ ! -e /sys/kernel/tracing/events/writeback ]; then
        mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null || true
    fi
    [ -e /sys/kernel/tracing/events/writeback/balance_dirty_pages ] && tracing=/sys/kernel/tracing
fi

# disk_mounted DIR: an emulated disk is mounted in DIR
disk_mounted() { grep -q " $1/.chokepoint-disk" /proc/mounts; }
# leftovers DIR: what an emulated disk could leave in DIR or the system (empty: nothing)
leftovers() {
    ls -A "$1" | grep '^\.chokepoint-disk\.' || true
    grep " $1/.chokepoint-disk" /proc/mounts || true
    losetup -a | grep "$1/.chokepoint-disk" || true
}
# stray_rules: write rules on a loop device no file backs, or on one of this test's
# emulated disks (the victim's, below, is the test's own)
stray_rules() {
    local dev backing
    while read -r dev _; do
        backing=$(cat "/sys/dev/block/$dev/loop/backing_file" 2> /dev/null || true)
        [ "$backing" != "$WORK/victim.img" ] || continue
        if [ -z "$backing" ] || [[ "$backing" == "$WORK"/* ]]; then echo "$dev"; fi
    done < "$RULES"
}
sweep_onto() { # sweep_onto DIR CSV [options]: a short sweep onto DIR@20MB/s
    local dir=$1 csv=$2
    shift 2
    run "$CP" sweep -i "$WORK/in.bin" -T 1 --reps 1 -c zstd:1 -o "$csv" "$@" "e=$dir@20MB/s"
}

# ---- a victim the leftovers could be turned against: a mounted loop device with a rule ----
truncate -s 64M "$WORK/victim.img"
mkfs.ext4 -q -F "$WORK/victim.img"
victim_loop=$(losetup --find --show "$WORK/victim.img")
CLEANUP_HOOKS+=("losetup -d '$victim_loop'")
mkdir "$WORK/victim"
mount "$victim_loop" "$WORK/victim"
CLEANUP_HOOKS+=("umount -l '$WORK/victim'")
victim_dev=$(lsblk -dno MAJ:MIN "$victim_loop" | tr -d ' ')
echo "$victim_dev 123456789" > "$RULES"
CLEANUP_HOOKS+=("echo '$victim_dev 0' > $RULES")
victim_rule() { grep -q "^$victim_dev 123456789$" "$RULES"; }

# ---- planted leftovers: a symlink and a forged record are not followed ----
mkdir "$WORK/emu"
dead=$(dead_pid)
ln -s "$WORK/victim" "$WORK/emu/.chokepoint-disk.$dead-0"
ln -s "$WORK/victim.img" "$WORK/emu/.chokepoint-disk.$dead-0.img"
# The second user's directory dressed as a leftover: a record naming the victim's device.
forged=$WORK/emu/.chokepoint-disk.$dead-1
mkdir -m 700 "$forged"
read -r vmaj vmin < <(echo "$victim_dev" | tr ':' ' ')
printf 'chokepoint emulated disk\nimage %s %s\nloop %s %s\n' "$(stat -c %d "$WORK/victim.img")" \
    "$(stat -c %i "$WORK/victim.img")" "$vmaj" "$vmin" > "$forged/record"
: > "$forged/lock"
ln -s "$WORK/victim" "$forged/mnt"
chown -R "$user" "$forged"
sweep_onto "$WORK/emu" "$WORK/planted.csv"
expect_status 0 "a sweep onto a directory holding planted leftovers"
check "a planted symlink leftover: the mount it points to is not detached" mountpoint -q "$WORK/victim"
check "a planted symlink leftover: that device's throttle rule is not cleared" victim_rule
check "the planted symlinks are not removed (chokepoint removes only what it made)" \
    test -L "$WORK/emu/.chokepoint-disk.$dead-0" -a -L "$WORK/emu/.chokepoint-disk.$dead-0.img"
check "another user's directory with a forged record is left alone" test -L "$forged/mnt" -a -e "$forged/record"
check "the sweep still had its emulated disk" grep -q "an emulated 20 MB/s disk" "$WORK/err"
rm -rf "$WORK/emu"/.chokepoint-disk.*

# ---- DIR, or a directory above it, writable by others without the sticky bit ----
mkdir -p "$WORK/open" "$WORK/openparent/sub" "$WORK/sticky"
chmod 777 "$WORK/open" "$WORK/openparent"
chmod 1777 "$WORK/sticky"
sweep_onto "$WORK/open" "$WORK/open.csv"
expect_status 0 "a sweep onto a world-writable DIR (paced instead)"
check "a world-writable DIR: one line names it and says why there is no disk" \
    grep -q "no emulated disk ('$WORK/open' is writable by other users without the sticky bit" "$WORK/err"
check "a world-writable DIR: nothing made in it" test -z "$(leftovers "$WORK/open")"
sweep_onto "$WORK/openparent/sub" "$WORK/openparent.csv"
check "a world-writable directory above DIR: the line names that directory" \
    grep -q "no emulated disk ('$WORK/openparent' is writable by other users" "$WORK/err"
sweep_onto "$WORK/sticky" "$WORK/sticky.csv"
check "a world-writable DIR with the sticky bit gets its disk" \
    grep -q "an emulated 20 MB/s disk" "$WORK/err"

# ---- a second user who owns DIR: the image and the mount point are out of reach ----
mkdir "$WORK/owned"
chown "$user" "$WORK/owned"
head -c 64M /dev/urandom > "$WORK/canary"
canary_sum=$(md5sum < "$WORK/canary")
# The attacker swaps every image it can reach for a symlink to the canary, and a mount
# point for one to the victim, for as long as the sweep runs.
cat > "$WORK/attacker.py" << 'EOF'
import os, sys, time
d, canary, victim, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
end, denied, swapped = time.time() + seconds, 0, 0
def swap(path, to):
    global swapped
    try:
        os.rename(path, path + '.moved')
        os.symlink(to, path)
        swapped += 1
    except OSError:
        pass
attached = 0
def canary_attached():
    for dev in os.listdir('/sys/block'):
        try:
            with open('/sys/block/%s/loop/backing_file' % dev) as f:
                if f.read().strip() == canary:
                    return True
        except OSError:
            pass
    return False
while time.time() < end:
    attached += canary_attached()
    for name in os.listdir(d):
        here = os.path.join(d, name)
        if not name.startswith('.chokepoint-disk.') or os.path.islink(here):
            continue
        if name.endswith('.img'):
            swap(here, canary)  # an image beside the mount point, by name in DIR
            continue
        try:
            inside = os.listdir(here)
        except OSError:
            denied += 1
            continue
        for n in inside:  # an image or a mount point inside a directory it can enter
            if n.endswith('.img') or n == 'mnt':
                swap(os.path.join(here, n), canary if n.endswith('.img') else victim)
print('denied', denied, 'swapped', swapped, 'attached', attached)
EOF
chmod 644 "$WORK/attacker.py"
as_user "$user_python" "$WORK/attacker.py" "$WORK/owned" "$WORK/canary" "$WORK/victim" 8 > "$WORK/attacker.out" 2>&1 &
attacker=$!
"$CP" sweep -i "$WORK/in.bin" -T 1 --reps 2 -c xz:6 -o "$WORK/owned.csv" "e=$WORK/owned@20MB/s" \
    > /dev/null 2> "$WORK/owned.err" &
pid=$!
if wait_for 30 disk_mounted "$WORK/owned"; then
    place=$(ls -A "$WORK/owned" | grep '^\.chokepoint-disk\.' | head -1)
    check "the disk's directory is root's own, mode 700" \
        test "$(stat -c '%U %a' "$WORK/owned/$place")" = "root 700"
    check "the disk is mounted inside it" grep -q " $WORK/owned/$place/mnt ext4 " /proc/mounts
    check "the second user cannot list it" bash -c "! setpriv --reuid=$uid --regid=$gid --clear-groups ls '$WORK/owned/$place' > /dev/null 2>&1"
else
    not_ok "the emulated disk in a directory the second user owns was not mounted within 30 s: $(head -c 300 "$WORK/owned.err")"
fi
wait "$pid" || true
wait "$attacker" || true
check "the attacker ran, and was denied the disk's directory" grep -q "^denied [1-9]" "$WORK/attacker.out"
check "the sweep in the second user's directory had its disk" grep -q "an emulated 20 MB/s disk" "$WORK/owned.err"
check "no loop device was ever backed by the attacker's file" grep -q " attached 0$" "$WORK/attacker.out"
check "mkfs formatted no file of the attacker's choosing (the canary is unchanged)" \
    test "$(md5sum < "$WORK/canary")" = "$canary_sum"
check "the victim is still mounted and its rule set" bash -c "mountpoint -q '$WORK/victim' && grep -q '^$victim_dev 123456789$' $RULES"
check "nothing is left in the second user's directory" test -z "$(leftovers "$WORK/owned")"

# ---- a name already there is passed over, never used ----
mkdir "$WORK/pre"
( ln -s "$WORK/canary" "$WORK/pre/.chokepoint-disk.$BASHPID-0"
  ln -s "$WORK/canary" "$WORK/pre/.chokepoint-disk.$BASHPID-0.img"
  exec "$CP" sweep -i "$WORK/in.bin" -T 1 --reps 1 -c zstd:1 -o "$WORK/pre.csv" "e=$WORK/pre@20MB/s" ) \
    > /dev/null 2> "$WORK/pre.err" || true
check "with its disk's name taken by a symlink, the sweep still gets a disk of its own" \
    grep -q "an emulated 20 MB/s disk" "$WORK/pre.err"
check "the symlinks at the taken names are left as they were" \
    test "$(find "$WORK/pre" -maxdepth 1 -type l | wc -l)" -eq 2
check "the canary the symlinks point to is unchanged" test "$(md5sum < "$WORK/canary")" = "$canary_sum"

# ---- endings: a kill of the whole process group, and a hang-up ----
DELAYACCT=/proc/sys/kernel/task_delayacct
# group_kill N: sweep onto an emulated disk in its own process group, SIGKILL to the group
# once the disk is up; the guardian must take everything down. An attempt where another
# chokepoint holds task_delayacct cannot judge its restoring.
group_kill() {
    mkdir -p "$WORK/kill$1"
    local judge_delayacct=1
    delayacct_idle 60 && [ -w "$DELAYACCT" ] && echo 0 > "$DELAYACCT" || judge_delayacct=0
    set -m
    "$CP" sweep -i "$WORK/in.bin" -T 1 --reps 4 -c xz:6 -o "$WORK/kill$1.csv" \
        "e=$WORK/kill$1@20MB/s" > /dev/null 2>&1 &
    pid=$!
    set +m
    if ! wait_for 30 disk_mounted "$WORK/kill$1"; then
        kill -KILL -- "-$pid" 2> /dev/null || true
        not_ok "attempt $1: the emulated disk was not mounted within 30 s"
        return 0
    fi
    sleep 0.3
    kill -KILL -- "-$pid"
    wait "$pid" 2> /dev/null || true
    check "kill -9 of the process group: the guardian takes the disk down within 10 s" \
        wait_for 10 bash -c "[ -z \"\$(ls -A '$WORK/kill$1' | grep '^\.chokepoint-disk\.')\" ]"
    check "kill -9 of the process group: no mount, no loop device, no throttle rule left" \
        test -z "$(leftovers "$WORK/kill$1")$(stray_rules)"
    if [ -n "$tracing" ]; then
        # The guardian takes the disk down first, the tracefs instance after it.
        check "kill -9 of the process group: no tracefs instance of the killed process" \
            wait_for 10 test ! -e "$tracing/instances/chokepoint-$pid" -a \
                ! -e "/run/chokepoint/trace.chokepoint-$pid.lock"
    else
        skip_check "tracefs is not available here: the tracefs instance is not checked"
    fi
    if [ "$judge_delayacct" = 1 ] && ! delayacct_idle 0; then
        unjudged="another chokepoint held task_delayacct during the attempt"
        return 1
    fi
    if [ "$judge_delayacct" = 1 ]; then
        check "kill -9 of the process group: task_delayacct is put back" \
            wait_for 5 bash -c "[ \"\$(cat $DELAYACCT)\" = 0 ]"
        check "and its record removed" wait_for 5 test ! -e /run/chokepoint/task_delayacct.original
        return 0
    fi
    unjudged="another chokepoint held task_delayacct for 60 s"
    return 1
}
measure_until_judged 3 group_kill || true

# A hang-up to the process group (a closed terminal or ssh session): chokepoint unwinds
# as for SIGTERM, and the guardian, in a session of its own, is not hit.
mkdir "$WORK/hup"
set -m
"$CP" probe --sizes 32MB --reps 3 -o "$WORK/hup.csv" "e=$WORK/hup@20MB/s" > /dev/null 2> "$WORK/hup.err" &
pid=$!
set +m
if wait_for 30 disk_mounted "$WORK/hup"; then
    wait_for 30 has_temp "$WORK/hup" || sleep 1
    kill -HUP -- "-$pid"
    set +e
    wait "$pid"
    st=$?
    set -e
    check "SIGHUP to the process group: exit status 130 (our handler), as for SIGTERM" test "$st" -eq 130
    check "SIGHUP: the handler's message" grep -q interrupted "$WORK/hup.err"
    check "SIGHUP: no disk, mount, loop device or throttle rule left" \
        wait_for 5 bash -c "[ -z \"\$(ls -A '$WORK/hup' | grep '^\.chokepoint-disk\.')\$(grep ' $WORK/hup/.chokepoint-disk' /proc/mounts)\" ]"
    check "SIGHUP: no throttle rule left" test -z "$(stray_rules)"
    check "SIGHUP: no temporary file left" no_temp_files "$WORK"
else
    kill -KILL -- "-$pid" 2> /dev/null || true
    not_ok "the emulated disk for the hang-up was not mounted within 30 s"
fi
finish
