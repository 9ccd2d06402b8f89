#!/usr/bin/env bash
# bench-fixture.sh - how fast `chokepoint fixture` writes each kind, beside the usual
# ways of making a big file (dd from /dev/zero, head from /dev/urandom), all fsynced.
#
# usage: scripts/bench-fixture.sh [DIR [SIZE_MIB]]
#   DIR       where the files go (default /dev/shm when writable, else /tmp): on tmpfs
#             the figures are generator speed; on a disk they are disk speed
#   SIZE_MIB  file size in MiB (default 1024)
# CHOKEPOINT names the binary (default build/chokepoint). Files are removed afterwards.
set -eu

dir=${1:-}
if [ -z "$dir" ]; then
    if [ -w /dev/shm ]; then dir=/dev/shm; else dir=/tmp; fi
fi
mib=${2:-1024}
bin=${CHOKEPOINT:-build/chokepoint}
[ -x "$bin" ] || { echo "bench-fixture: no binary at $bin (build first or set CHOKEPOINT)" >&2; exit 2; }
avail_mib=$(($(df -Pk "$dir" | awk 'NR==2 {print $4}') / 1024))
if [ "$avail_mib" -le $((mib + 64)) ]; then
    echo "bench-fixture: $dir has ${avail_mib} MiB free, needs $((mib + 64))" >&2
    exit 1
fi

out="$dir/bench-fixture.$$"
trap 'rm -f "$out"' EXIT

# seconds COMMAND...: wall-clock seconds of COMMAND.
seconds() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}

report() {
    local what=$1 s=$2
    printf '%-28s %7.2f s  %7.0f MB/s\n' "$what" "$s" "$(echo "$mib * 1048576 / $s / 1000000" | bc -l)"
}

echo "writing $mib MiB to $dir ($(df -PT "$dir" | awk 'NR==2 {print $2}')), fsynced"
for kind in zeros random mixed text binary; do
    rm -f "$out"
    report "chokepoint fixture $kind" "$(seconds "$bin" fixture -o "$out" --size "${mib}M" --kind "$kind" --quiet)"
done
rm -f "$out"
report "dd if=/dev/zero" "$(seconds dd if=/dev/zero of="$out" bs=4M count=$((mib / 4)) conv=fsync)"
rm -f "$out"
report "head -c /dev/urandom" "$(seconds sh -c "head -c ${mib}M /dev/urandom | dd of='$out' bs=4M iflag=fullblock conv=fsync")"
