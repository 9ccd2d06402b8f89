#!/usr/bin/env bash
# Probe reads in two regimes are named, not averaged (docs/method.md, "Probe"): the
# reference study's probe with its ssd reads at the largest size replaced by two slow
# reads whose thread worked 1.1 s per GB in the kernel while hardly blocked (the host
# faulting memory in) and two fast ones. analyze must say two groups with each group's
# median (computed here by hand), and that two of four reads were bound by the kernel;
# the unchanged usb target must get neither note.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_python3
REF=$SRC_DIR/fixtures/reference

python3 - "$REF/probe.csv" "$WORK/probe.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fields = list(rows[0].keys()) + ["io_wait_s", "thread_sys_s"]
# rate MB/s, seconds blocked on I/O, thread system seconds: 2 GB reads
new = [(300e6, 0.2, 2.2), (380e6, 0.1, 2.3), (1500e6, 0.0, 0.3), (1700e6, 0.0, 0.25)]
out = []
for r in rows:
    if r["target"] == "ssd" and r["op"] == "read" and r["size_bytes"] == "2000000000":
        continue
    out.append(dict(r, io_wait_s="", thread_sys_s=""))
for i, (rate, io, sys_s) in enumerate(new, 1):
    out.append({**{k: "" for k in fields}, "target": "ssd", "op": "read",
                "size_bytes": "2000000000", "rep": str(i), "seconds": "%.4f" % (2e9 / rate),
                "bytes_per_s": "%.0f" % rate, "sync": "fsync", "fs_type": "ext4",
                "emulated": "0", "io_wait_s": str(io), "thread_sys_s": str(sys_s)})
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields); w.writeheader(); w.writerows(out)
PY
run "$CP" analyze "$REF/runs.csv" --probe "$WORK/probe.csv"
expect_status 0 "analyze with the two-regime probe"
check "under the answer, one line for the ssd: two groups, reads bound by the kernel, what to do" \
    grep -q "^  ! probe target 'ssd': reads in two groups (340, 1600 MB/s), 2 of 4 reads bound by the kernel; probe with --sync direct for one speed\.$" "$WORK/out"
check "the ssd's reads are two groups with each one's median (340 and 1600 MB/s)" \
    grep -q "probe target 'ssd': its reads at the largest size fall into two groups, 2 at about 340 MB/s and 2 at about 1600 MB/s" "$WORK/out"
check "the two slow reads are bound by the kernel's work" \
    grep -q "probe target 'ssd': .*2 of its 4 reads at the largest size were bound by the kernel's own work" "$WORK/out"
check "the usb target, one speed, gets neither note" \
    test "$(grep -c "probe target 'usb': its reads at the largest size fall into two groups\|probe target 'usb': .* bound by the kernel" "$WORK/out")" = 0
finish
