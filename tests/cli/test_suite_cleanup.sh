#!/usr/bin/env bash
# A lab test killed by SIGTERM (what ctest sends at its timeout) while it waits on a long
# command takes its lab down: the command ends, no mount or loop device under its lab
# directory remains, its state directory and its throttling cgroup are gone, and it exits
# 143 within seconds, not when the command would have finished. Root and loop devices
# (tests/cli/lib.sh, need_lab; under CI=true their absence fails).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_lab

# The killed test: one 2 MB/s lab volume, then 24 MiB of incompressible output written to
# it with an fsync at the end (over ten seconds), through run() as every lab test does.
cat > "$WORK/victim.sh" <<EOF
set -euo pipefail
. '$SRC_DIR/tests/cli/lib.sh'
need_lab
lab_slow_volume 2 128M
echo "lab: \$CHOKEPOINT_LAB_DIR \$CHOKEPOINT_LAB_CGROUP"
head -c 24M /dev/urandom > "\$WORK/in.bin"
run lab "\$CP" compress -i "\$WORK/in.bin" -c zstd:1 -T 1 -o "\${slow#slow=}/out.zst" --force -q
echo "the command finished: exit \$status"
finish
EOF
bash "$WORK/victim.sh" > "$WORK/victim.out" 2>&1 &
pid=$!
CLEANUP_HOOKS+=("kill -KILL $pid 2> /dev/null || true")
# Its lab directory and cgroup, then its compress running inside the lab.
lab_dir="" cgroup="" compress=""
for _ in $(seq 600); do
    read -r _ lab_dir cgroup < <(grep -m 1 '^lab: ' "$WORK/victim.out" 2> /dev/null || echo)
    if [ -n "$lab_dir" ]; then
        compress=$(descendants "$pid" | while read -r p; do
                       [ "$(ps -o comm= -p "$p" 2> /dev/null)" != chokepoint ] || echo "$p"; done)
        [ -z "$compress" ] || break
    fi
    sleep 0.05
done
if [ -z "$lab_dir" ] || [ -z "$compress" ]; then
    not_ok "the victim never ran its command in a lab: $(tail -c 400 "$WORK/victim.out")"
    finish
    exit 1
fi
state=${lab_dir%/lab}
# Whatever happens below, this test leaves no lab behind either.
CLEANUP_HOOKS+=("CHOKEPOINT_LAB_DIR='$lab_dir' CHOKEPOINT_LAB_CGROUP='$cgroup' bash '$SRC_DIR/scripts/lab-volumes.sh' down > /dev/null 2>&1; rm -rf '$state'")
check "the victim's volume is mounted under its lab directory while it runs" grep -q " $lab_dir/" /proc/mounts
sleep 1
check "its command is still running a second later (pid $compress)" kill -0 "$compress"

t0=$EPOCHREALTIME
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
echo "--- the victim's output:"; cat "$WORK/victim.out"; echo "---"
check "the killed test exits 143 within 10 s (exit $rc after $took s)" \
    awk -v r="$rc" -v t="$took" 'BEGIN { exit !(r == 143 && t < 10) }'
check "it did not wait for its command to finish" bash -c "! grep -q '^the command finished' '$WORK/victim.out'"
check "its command was ended" wait_for 5 bash -c "! kill -0 $compress 2> /dev/null"
check "no mount under its lab directory remains" bash -c "! grep -q ' $lab_dir' /proc/mounts"
check "no loop device on its images remains" bash -c "! losetup -a | grep -qF '$state'"
check "its state directory is removed" test ! -e "$state"
check "its throttling cgroup is removed" \
    bash -c "! ls -d /sys/fs/cgroup/*/'$cgroup' /sys/fs/cgroup/'$cgroup' 2> /dev/null | grep -q ."
finish
