#!/usr/bin/env bash
# chokepoint sweep + probe + analyze: memory and RAM targets come out cpu-bound, an
# emulated 20 MB/s volume write-bound; runs.csv has a row per run with its columns; failed
# targets leave error rows and nothing on the volume.
source "$(dirname "$0")/lib.sh"
set -e

"$CP" fixture -o "$WORK/in" --size 24M --kind text --seed 3 -q
mkdir -p "$WORK/shm" "$WORK/slow"
# The RAM volume: /dev/shm where it has room for the runs and the probe beside chokepoint's
# free-space margin (a container's is often 64 MiB), else a tmpfs of our own (root). With
# neither, "ram" is a directory on $WORK's volume and the RAM checks are skipped, saying so.
shm_dir=$WORK/shm
have_ram=false
shm_free_mb=$(df -Pm /dev/shm 2> /dev/null | awk 'NR == 2 { print $4 }')
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "${shm_free_mb:-0}" -ge 256 ]; then
    shm_dir=$(mktemp -d /dev/shm/cp-sweep.XXXXXX); CLEANUP_HOOKS+=("rm -rf '$shm_dir'")
    have_ram=true
elif is_root && mount_tmpfs "$shm_dir" 256m; then
    have_ram=true
fi

run "$CP" sweep -i "$WORK/in" --codec zstd:3 --threads 1,2 --reps 3 --seed 7 -o "$WORK/runs.csv" \
    mem ram="$shm_dir" slow="$WORK/slow@20MB/s"
expect_status 0 "sweep over mem, RAM and a 20 MB/s emulated volume"
check "18 rows and a header" test "$(wc -l < "$WORK/runs.csv")" -eq 19
header=$(head -1 "$WORK/runs.csv")
for col in target codec engine threads rep seed layout input_bytes output_bytes seconds bytes_per_s \
           cpu_user_s cpu_sys_s max_rss_bytes reader_busy_s writer_busy_s compress_busy_s \
           cpu_user_share cpu_iowait_share dev_written_bytes dev_busy_share fs_type emulated layout valid error; do
    case ",$header," in *",$col,"*) ;; *) not_ok "runs.csv lacks column $col";; esac
done
ok "runs.csv names its columns"
check "every row is valid" test "$(awk -F, 'NR > 1 && $0 !~ /,1,$/' "$WORK/runs.csv" | wc -l)" -eq 0
check "the emulated target is labelled" grep -q "^slow,.*,1,20000000," "$WORK/runs.csv"
check "the seed is recorded" bash -c "awk -F, 'NR > 1 { print \$7 }' '$WORK/runs.csv' | sort -u | grep -qx 7"
check "stderr has no carriage returns when not a terminal" bash -c "! grep -q $'\r' '$WORK/err'"
check "nothing left in the targets" test -z "$(find "$shm_dir" "$WORK/slow" -mindepth 1)"

# The critical path: the 20 MB/s cap paces the writer, so the job waits for writes most
# of each run (compressing 24 MB of text takes a fraction of the 0.3 s its output needs);
# into memory it waits for the codec, not for writes. Each run's parts fit in its time.
path_cols="path_compute_s path_core_wait_s path_io_cpu_s path_read_blocked_s path_write_blocked_s"
path_share() { # path_share TARGET COLUMN: that column over seconds, one line per run of TARGET
    awk -F, -v t="$1" -v c="$(csv_col "$WORK/runs.csv" "$2")" -v s="$(csv_col "$WORK/runs.csv" seconds)" \
        'NR > 1 && $1 == t { print $c / $s }' "$WORK/runs.csv"
}
check "the emulated volume's runs waited for writes more than half their time" \
    test "$(path_share slow path_write_blocked_s | awk '$1 > 0.5' | wc -l)" -eq 6
check "memory's runs waited for the codec more than for writes" \
    test "$(paste <(path_share mem path_compute_s) <(path_share mem path_write_blocked_s) | awk '$1 > $2' | wc -l)" -eq 6
check "each run's critical path fits in its time" bash -c "awk -F, -v s=$(csv_col "$WORK/runs.csv" seconds) \
    $(for c in $path_cols; do printf -- "-v %s=%s " "${c#path_}" "$(csv_col "$WORK/runs.csv" "$c")"; done) \
    'NR > 1 { t = \$compute_s + \$core_wait_s + \$io_cpu_s + \$read_blocked_s + \$write_blocked_s; if (t <= 0 || t > \$s * 1.001) bad++ } END { exit bad > 0 }' '$WORK/runs.csv'"

# --layout same: the input is copied to the target first and read from there.
mkdir -p "$WORK/same"
run "$CP" sweep -i "$WORK/in" --threads 1 --reps 1 --layout same -o "$WORK/same.csv" disk="$WORK/same" mem
expect_status 0 "sweep --layout same"
check "the directory target reads its own copy" grep -q "^disk,zstd:3,blocks,1,1,[0-9]*,[0-9]*,same,disk," "$WORK/same.csv"
check "mem reads the input where it is" grep -q "^mem,zstd:3,blocks,1,1,[0-9]*,[0-9]*,split," "$WORK/same.csv"
check "the copy is removed afterwards" test -z "$(find "$WORK/same" -mindepth 1)"

run "$CP" probe --sizes 5MB,10MB --reps 1 -o "$WORK/probe.csv" ram="$shm_dir" slow="$WORK/slow@20MB/s"
expect_status 0 "probe of the same targets"
# Medians of 3 on a shared machine: allow 20% below the CPU ceiling for cpu-bound.
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe.csv" --tolerance 0.2 --format json -o "$WORK/analysis.json"
expect_status 0 "analyze"
verdict() { python3 -c "import json,sys; a=json.load(open('$WORK/analysis.json')); print([t['verdict'] for t in a['targets'] if t['name']==sys.argv[1]][0])" "$1"; }
# ram_ok: a RAM volume has no device to wait for, so at every T its verdict is cpu-bound
# (or balanced between the cores and writing's CPU cost), noisy or not; never write- or
# read-bound, never "unexplained".
ram_ok() {
    python3 - "$WORK/analysis.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
t = [t for t in a["targets"] if t["name"] == "ram"][0]
bad = [(v["threads"], v["verdict"], v.get("cause")) for v in t["verdicts"]
       if v["verdict"] not in ("cpu-bound", "balanced")
       or v.get("cause") in ("write-throughput", "read-throughput", "flush-tail")]
if bad:
    print("RAM volume points:", bad, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
if need_python3; then
    # mem is its own CPU ceiling, so its verdict is not checked; the others are judged
    # against it.
    if $have_ram; then
        check "the RAM volume is cpu-bound at every T" ram_ok
    else
        skip_check "the RAM volume's verdict: no tmpfs with room (/dev/shm has ${shm_free_mb:-no} MB free, and no root to mount one)"
    fi
    check "the 20 MB/s volume is write-bound" test "$(verdict slow)" = write-bound
    check "the ceilings come from mem" python3 -c "
import json; a = json.load(open('$WORK/analysis.json'))
assert all(v['cpu_ceiling_source'] == 'mem' for t in a['targets'] for v in t['verdicts'])"
fi

# Telemetry values, not just names (docs/formats.md): the plain directory target of the
# --layout same sweep has its device, which wrote at least the output (after the fsync; the
# counters are the whole device's, so other writers only add); mem, the RAM volume and the
# emulated cap have no device figures; the shares are fractions.
telemetry_ok() {
    python3 - "$WORK/runs.csv" "$WORK/same.csv" "$WORK/no-device" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
same = list(csv.DictReader(open(sys.argv[2])))
disk = [r for r in same if r["target"] == "disk"]
assert disk and len(rows) == 18
for r in disk:
    if r["fs_type"] in ("ext4", "ext3", "xfs", "btrfs", "f2fs"):
        assert r["device"] != "", "no device for a directory on %s" % r["fs_type"]
    if r["device"] != "":
        assert int(r["dev_written_bytes"]) >= int(r["output_bytes"]), (r["dev_written_bytes"], r["output_bytes"])
        assert 0 < float(r["dev_busy_share"]) <= 1.0, r["dev_busy_share"]
    else:
        print(r["fs_type"], file=open(sys.argv[3], "a"))
for r in rows:
    # An emulated disk (as root) is a loop device, counted as any disk; a cap chokepoint
    # paces itself has no device of its own.
    if r["target"] == "mem" or (r["target"] == "ram" and r["ram"] == "1") or \
            (r["target"] == "slow" and r["emulation"] != "disk"):
        assert r["device"] == "" and r["dev_written_bytes"] == "" and r["dev_busy_share"] == "", r
    if r["target"] == "slow" and r["emulation"] == "disk":
        assert r["device"].startswith("loop"), r
for r in rows + same:
    for k in ("cpu_user_share", "cpu_iowait_share"):
        assert 0.0 <= float(r[k]) <= 1.0, (k, r[k])
    assert float(r["cpu_user_s"]) > 0 and int(r["max_rss_bytes"]) > 0
PY
}
if need_python3; then
    : > "$WORK/no-device"
    check "telemetry: the disk's device wrote >= the output; mem, RAM and paced caps have none" telemetry_ok
    [ ! -s "$WORK/no-device" ] ||
        skip_check "the disk target's device figures: no block device under $(sort -u "$WORK/no-device" | tr '\n' ' ')(\$TMPDIR)"
fi

# A run that fails: a 1 MiB tmpfs cannot hold the output. Its warm-up fails, its planned
# runs become error rows, the other target is measured, exit 1, nothing left behind.
if is_root && mount_tmpfs "$WORK/tiny" 1m; then
    run "$CP" sweep -i "$WORK/in" --threads 1,2 --reps 1 -o "$WORK/fail.csv" mem tiny="$WORK/tiny"
    expect_status 1 "sweep with a full volume"
    check "mem rows are valid" test "$(grep -c '^mem,.*,1,$' "$WORK/fail.csv")" -eq 2
    check "the full volume's runs are error rows" test "$(grep -c '^tiny,.*,0,' "$WORK/fail.csv")" -eq 2
    check "the error names the cause" grep -q "No space left on device" "$WORK/fail.csv"
    check "nothing left on the full volume" test -z "$(ls -A "$WORK/tiny")"
else
    skip_lab_check "full-volume case needs root to mount a tmpfs"
fi

run "$CP" sweep -i "$WORK/in" -o "$WORK/runs.csv" mem
expect_status 2 "an existing -o is refused"
expect_one_line_error "exists; use --force" "refusal names --force"
run "$CP" sweep -i "$WORK/in" mem mem
expect_status 2 "two targets with one name"
run "$CP" sweep -i "$WORK/in"
expect_status 2 "no target"
check "no temporary files anywhere" no_temp_files "$WORK"
finish
