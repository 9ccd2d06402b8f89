#!/usr/bin/env bash
# Promises no other test holds: `run --resume` measures a failed run again and keeps the
# good rows as they were; it drops a last line cut off mid-row and measures that run
# again; the default memory limit is MemAvailable, and half of it for archives kept in RAM
# with --decompress; compare lists the verdicts that changed (none between identical
# studies); analyze marks a point that wrote faster than its volume was probed and one
# whose repetitions spread past the tolerance, and neither on clean data.
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"
need_python3 || { finish; exit 1; }

# stopped DIR: meta.json as a study killed in its sweep leaves it (running, no process
# holding the lock: abandoned), so run --resume takes it up
stopped() {
    python3 - "$1/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m.update(status="running", stage="sweep", complete=False)
m.pop("finished", None)
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
}

# progress_lines: the runs a command measured, from its stderr ("[k/n] target codec T=t rep r: ...")
progress_lines() { grep -E '^\[[0-9]+/[0-9]+\] ' "$WORK/err" || true; }

# one_valid_row FILE TARGET THREADS REP: that run is in FILE exactly once, valid, with a
# positive time and no error
one_valid_row() {
    python3 - "$@" <<'PY'
import csv, sys
path, target, threads, rep = sys.argv[1:]
rows = [r for r in csv.DictReader(open(path, newline=""))
        if (r["target"], r["threads"], r["rep"]) == (target, threads, rep)]
assert len(rows) == 1, rows
r = rows[0]
assert r["valid"] == "1" and r["error"] == "" and float(r["seconds"]) > 0, r
PY
}

# whole_lines FILE: every line ends in a newline and has the header's number of fields
whole_lines() {
    python3 - "$1" <<'PY'
import csv, sys
text = open(sys.argv[1], newline="").read()
assert text.endswith("\n"), "no newline at the end"
rows = list(csv.reader(text.splitlines()))
assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
PY
}

# ---- a small complete study, the starting point of both resumes --------------------------
"$CP" fixture -o in.bin --size 4M --kind text --seed 3 -q
mkdir loc
run "$CP" run -i in.bin --threads 1,2 --reps 2 --seed 11 --no-probe --out base -q mem "local=$WORK/loc"
expect_status 0 "a small study (2 targets x 2 thread counts x 2 reps)"
check "it has 8 valid runs" test "$(data_rows base/runs.csv)" -eq 8 -a \
    "$(json_get base/meta.json 'm["status"]')" = complete

# ---- 1. run --resume measures a failed run again and keeps the good rows -----------------
# The study stopped in its sweep after the run of local at 2 threads, rep 1 failed: its
# row is written as the sweep writes a failed run (the measured fields empty, valid 0).
cp -r base F
stopped F
failed=$(python3 - F/runs.csv <<'PY'
import csv, sys
path = sys.argv[1]
lines = open(path, newline="").read().splitlines(keepends=True)
head = next(csv.reader([lines[0]]))
measured = head[head.index("input_bytes"):head.index("throttle_s") + 1] + [
    "cpu_user_share", "cpu_sys_share", "cpu_iowait_share", "cpu_idle_share", "device",
    "dev_written_bytes", "dev_busy_share", "dirty_background_bytes", "dirty_bytes",
    "dirty_expire_s", "dirty_writeback_s", "online_cpus", "cpu_wait_s", "psi_io_some_s",
    "psi_io_full_s", "psi_cpu_some_s"]
for i, line in enumerate(lines[1:], 1):
    r = dict(zip(head, next(csv.reader([line]))))
    if r["target"] == "local" and r["threads"] == "2" and r["rep"] == "1":
        for name in measured:
            r[name] = ""
        r["valid"] = "0"
        r["error"] = "cannot write the output: No space left on device"
        lines[i] = ",".join(r[name] for name in head) + "\n"
        open(path, "w", newline="").write("".join(lines))
        print(i)
        break
PY
)
check "the failed row is in place (line $failed of runs.csv)" test -n "$failed"
grep -v ',0,cannot write the output: No space left on device$' F/runs.csv > F.kept
run "$CP" run --resume F
expect_status 0 "run --resume of a study with a failed run"
check "the resume keeps the 7 good runs" grep -q "resuming: 7 run(s) kept from before" "$WORK/err"
check "exactly one run is measured, the failed one ($(progress_lines | tr '\n' ' '))" \
    test "$(progress_lines | wc -l)" -eq 1 -a -n "$(progress_lines | grep -E '^\[1/[0-9]+\] local zstd:3 T=2 rep 1: ')"
check "one warm-up, for the target that still has a run" \
    test "$(grep -c '^warm-up (not timed): ' "$WORK/err")" -eq 1 -a \
    -n "$(grep '^warm-up (not timed): local zstd:3 ' "$WORK/err")"
check "the failed run is measured again and now valid" one_valid_row F/runs.csv local 2 1
check "the good rows are kept byte for byte, in order, the new one after them" \
    test "$(head -8 F/runs.csv)" = "$(cat F.kept)" -a "$(data_rows F/runs.csv)" -eq 8
check "no failed row is left" test "$(awk -F, 'NR > 1 && $(NF - 1) != "1"' F/runs.csv | wc -l)" -eq 0
check "meta.json: complete, no run failed, the resume kept 7 runs" test \
    "$(json_get F/meta.json 'm["status"], m["some_runs_failed"], m["resumes"][-1]["runs_kept"]')" \
    = "('complete', False, 7)"
check "meta.json: the resume found the study abandoned (its process died), not running" \
    test "$(json_get F/meta.json 'm["resumes"][-1]["status_before"]')" = abandoned

# fail_orders FILE ORDER...: the rows of runs.csv at those places in the run order become
# failed runs (valid 0, an error, no time), as a sweep writes them
fail_orders() {
    python3 - "$@" <<'PY'
import csv, sys
path, orders = sys.argv[1], set(sys.argv[2:])
rows = list(csv.reader(open(path, newline="")))
head = rows[0]
for r in rows[1:]:
    if r[head.index("order")] in orders:
        r[head.index("seconds")] = r[head.index("bytes_per_s")] = ""
        r[head.index("valid")] = "0"
        r[head.index("error")] = "cannot write the output: No space left on device"
csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
PY
}

# ---- 1b. a resume's progress counts the runs it measures ---------------------------------
# The two runs first in the study's order failed; the resume keeps the seed, so it measures
# them first: "[1/2]" and "[2/2]", not "[1/8]" as if the 6 kept runs were still to come.
cp -r base P
stopped P
fail_orders P/runs.csv 1 2
check "two rows are failed runs" test "$(grep -c ',0,cannot write the output' P/runs.csv)" -eq 2
run "$CP" run --resume P
expect_status 0 "run --resume of a study with its first two runs failed"
check "the progress counts the 2 runs left: $(progress_lines | cut -d' ' -f1 | tr '\n' ' ')" \
    test "$(progress_lines | cut -d' ' -f1 | tr '\n' ' ')" = "[1/2] [2/2] "

# ---- 1c. a complete study whose runs failed: run --resume measures them again -----------
# The study ran to the end, but two runs failed (their rows say why): it is complete, and
# resuming it retries those two, keeps the six good rows, and analyses again.
cp -r base D
fail_orders D/runs.csv 3 6
python3 - D/meta.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["some_runs_failed"] = True
json.dump(m, open(sys.argv[1], "w"), indent=2)
PY
grep ',1,$' D/runs.csv > D.kept || true
check "the study is complete with 2 failed rows" test \
    "$(json_get D/meta.json 'm["status"], m["some_runs_failed"]')" = "('complete', True)" -a \
    "$(grep -c ',0,cannot write the output' D/runs.csv)" -eq 2
run "$CP" run --resume D
expect_status 0 "run --resume of a complete study with 2 failed runs"
check "it says it retries them: 'complete, but runs.csv holds 2 failed runs: measuring them again'" \
    grep -q "^resuming .*/D (complete, but runs.csv holds 2 failed runs: measuring them again)$" "$WORK/err"
check "it measures exactly those 2: $(progress_lines | cut -d' ' -f1 | tr '\n' ' ')" \
    test "$(progress_lines | cut -d' ' -f1 | tr '\n' ' ')" = "[1/2] [2/2] "
check "runs.csv: the 6 good rows as they were, then 2 valid ones, no failed row" test \
    "$(head -7 D/runs.csv | tail -6)" = "$(cat D.kept)" -a "$(data_rows D/runs.csv)" -eq 8 -a \
    "$(grep -c ',1,$' D/runs.csv)" -eq 8
check "meta.json: complete, no run failed, the resume found it complete and kept 6 runs" test \
    "$(json_get D/meta.json 'm["status"], m["some_runs_failed"], m["resumes"][-1]["status_before"], m["resumes"][-1]["runs_kept"]')" \
    = "('complete', False, 'complete', 6)"
check "the analysis is written again, after the retry" test D/analysis.json -nt D.kept
# A complete study with no failed run has nothing to resume: refused, nothing touched.
cp -r base E
run "$CP" run --resume E
expect_status 2 "run --resume of a complete study whose runs all succeeded"
expect_one_line_error "^chokepoint: error: --resume 'E': the study is complete and every run succeeded; nothing to resume \(see its report.md\)$" \
    "it says why there is nothing to resume"
check "nothing in it changed" diff -r base E

# ---- 2. run --resume drops a last line cut off mid-row -----------------------------------
# A power cut in the middle of the last row's write: half its bytes, no newline.
cp -r base C
stopped C
last=$(tail -1 C/runs.csv)
IFS=, read -r cut_target cut_codec _ cut_threads cut_rep _ <<< "$last"
head -n -1 C/runs.csv > C.kept
{ cat C.kept; printf '%s' "${last:0:$((${#last} / 2))}"; } > C/runs.csv
check "runs.csv ends in a cut-off line" test "$(tail -c 1 C/runs.csv | od -An -c | tr -d ' ')" != '\n'
run "$CP" run --resume C
expect_status 0 "run --resume of a study whose last line was cut off"
check "the study completes" test "$(json_get C/meta.json 'm["status"], m["resumes"][-1]["runs_kept"]')" \
    = "('complete', 7)"
check "runs.csv parses: every line whole, with the header's number of fields" whole_lines C/runs.csv
check "exactly one run is measured, the cut-off one ($cut_target T=$cut_threads rep $cut_rep)" \
    test "$(progress_lines | wc -l)" -eq 1 -a \
    -n "$(progress_lines | grep -F "] $cut_target $cut_codec T=$cut_threads rep $cut_rep: ")"
check "the cut-off run is in runs.csv once, valid" one_valid_row C/runs.csv "$cut_target" "$cut_threads" "$cut_rep"
check "the rows before it are kept byte for byte" \
    test "$(head -8 C/runs.csv)" = "$(cat C.kept)" -a "$(data_rows C/runs.csv)" -eq 8

# ---- 3. the default memory limit: MemAvailable (half of it for archives in RAM) ---------
# The help of compress, sweep and run: "--max-memory SIZE refuse (exit 2) when the memory
# estimate of the largest thread count is above SIZE (default: MemAvailable); with
# --decompress, archives kept in RAM (mem, tmpfs) must fit beside the estimate (without
# SIZE: within half of MemAvailable), else exit 1 before any timing".
avail_kb() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
# Against the machine's own MemAvailable: xz:9 at 1024 threads needs about 1.5 TB.
before=$(avail_kb)
if [ -z "$before" ] || [ "$before" -gt 1300000000 ]; then
    skip_check "the refusal against this machine's MemAvailable (${before:-unknown} kB): it has room for xz:9 at 1024 threads"
else
    run "$CP" sweep -i in.bin -c xz:9 -T 1024 -q -o big.csv mem
    after=$(avail_kb)
    expect_status 2 "xz:9 at 1024 threads with the default limit"
    limit_gb=$(sed -nE 's/.* above the ([0-9.]+) GB available now; .*/\1/p' "$WORK/err")
    check "the limit it names (${limit_gb:-none} GB) is MemAvailable read here ($before, $after kB), within 10%" \
        awk -v g="${limit_gb:-0}" -v a="$before" -v b="$after" 'BEGIN {
            lo = (a < b ? a : b) * 1024 / 1e9; hi = (a > b ? a : b) * 1024 / 1e9
            exit !(g >= 0.9 * lo && g <= 1.1 * hi) }'
    check "nothing was measured" test ! -e big.csv -a ! -e big.csv.partial
fi

# Exactly, with MemAvailable set: /proc/meminfo replaced by a copy in a private mount
# namespace (root, or an unprivileged user namespace).
fake_meminfo() { # FILE KB: /proc/meminfo with MemAvailable KB kB
    awk -v kb="$2" '/^MemAvailable:/ { printf "MemAvailable:   %d kB\n", kb; next } { print }' \
        /proc/meminfo > "$1"
}
with_meminfo() { # FILE CMD...: CMD with FILE as /proc/meminfo
    local file=$1 ns=(unshare -m --propagation private)
    shift
    is_root || ns=(unshare -U -r -m --propagation private)
    "${ns[@]}" bash -c 'mount --bind "$0" /proc/meminfo && exec "$@"' "$file" "$@"
}
fake_meminfo probe.meminfo 12345
if ! command -v unshare > /dev/null ||
    [ "$(with_meminfo probe.meminfo awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2> /dev/null)" != 12345 ]; then
    skip_check "the default memory limit to the byte: no private mount namespace to set MemAvailable in"
else
    # zstd:3 at 2 threads: its estimate, then MemAvailable 1 kB under it and just over it.
    est=$("$CP" compress -i in.bin -o /dev/null -T 2 --json | json_get /dev/stdin 'm["mem_estimate_bytes"]')
    under=$(((est - 1) / 1024))
    over=$(((est + 1023) / 1024))
    fake_meminfo under.meminfo "$under"
    fake_meminfo over.meminfo "$over"
    gb=$(awk -v b=$((under * 1024)) 'BEGIN { printf "%.2f", b / 1e9 }')
    refusal="^chokepoint: error: zstd:3 at 2 threads \(blocks engine\) needs an estimated .* above the $gb GB available now; at most 1 thread fits"
    run with_meminfo under.meminfo "$CP" compress -i in.bin -o /dev/null -T 2 -q
    expect_status 2 "compress: an estimate of $est bytes, MemAvailable $under kB"
    expect_one_line_error "$refusal" "compress: the refusal names MemAvailable as the limit"
    run with_meminfo over.meminfo "$CP" compress -i in.bin -o /dev/null -T 2 -q
    expect_status 0 "compress: the same estimate, MemAvailable $over kB"
    run with_meminfo under.meminfo "$CP" sweep -i in.bin -T 2 --reps 1 --no-warmup -q -o sw.csv mem
    expect_status 2 "sweep: MemAvailable under the estimate"
    expect_one_line_error "$refusal" "sweep: the refusal names MemAvailable as the limit"
    check "sweep: nothing measured" test ! -e sw.csv -a ! -e sw.csv.partial
    run with_meminfo over.meminfo "$CP" sweep -i in.bin -T 2 --reps 1 --no-warmup -q -o sw.csv mem
    expect_status 0 "sweep: MemAvailable just over the estimate"
    run with_meminfo under.meminfo "$CP" run -i in.bin --threads 2 --reps 1 --no-probe --out r-under -q mem
    expect_status 2 "run: MemAvailable under the estimate"
    expect_one_line_error "$refusal" "run: the refusal names MemAvailable as the limit"
    check "run: no results directory" test ! -e r-under
    run with_meminfo over.meminfo "$CP" run -i in.bin --threads 2 --reps 1 --no-probe --out r-over -q mem
    expect_status 0 "run: MemAvailable just over the estimate"
    check "run: its row records the estimate the limit was held to" \
        test "$(awk -F, -v i="$(csv_col r-over/runs.csv mem_estimate_bytes)" 'NR == 2 { print $i }' r-over/runs.csv)" = "$est"

    # --decompress: archives in RAM get half of MemAvailable when that is less than what
    # the runs' estimate leaves. copy at 1 thread with 64 KiB blocks estimates E; with
    # MemAvailable 2E + 4 MB, half is 10.9 MB, under the 12.6 MB archive of a 12 MiB input
    # (MemAvailable less E would hold it).
    "$CP" fixture -o in12.bin --size 12M --kind random --seed 5 -q
    dec=(--decompress -c copy --block-size 64K -T 1 --reps 1 --no-warmup -q)
    est=$("$CP" compress -i in12.bin -o /dev/null -c copy --block-size 64K -T 1 --json |
        json_get /dev/stdin 'm["mem_estimate_bytes"]')
    kb=$(((2 * est + 4000000) / 1024))
    fake_meminfo half.meminfo "$kb"
    half_mb=$(awk -v b=$((kb * 1024)) 'BEGIN { printf "%.1f", b / 2 / 1e6 }')
    run with_meminfo half.meminfo "$CP" sweep -i in12.bin "${dec[@]}" -o dec-mem.csv mem
    expect_status 1 "--decompress: mem's archive past half of MemAvailable ($kb kB)"
    expect_one_line_error "target 'mem' keeps its archive in memory, .* past the $half_mb MB left for archives in RAM \(half of the [0-9.]+ MB of memory available now\); give --max-memory [0-9]+M or more" \
        "the room it names is half of MemAvailable ($half_mb MB)"
    check "nothing was timed" test ! -e dec-mem.csv -a ! -e dec-mem.csv.partial
    if shm=$(mktemp -d /dev/shm/cp-promises-resume.XXXXXX 2> /dev/null) &&
        [ "$(stat -f -c %T "$shm")" = tmpfs ]; then
        CLEANUP_HOOKS+=("rm -rf '$shm'")
        run with_meminfo half.meminfo "$CP" sweep -i in12.bin "${dec[@]}" -o dec-shm.csv "shm=$shm"
        expect_status 1 "--decompress: a tmpfs target's archive past half of MemAvailable"
        expect_one_line_error "target 'shm' keeps its archive in RAM \(tmpfs, $shm\), .* past the $half_mb MB left for archives in RAM \(half of " \
            "the room it names for tmpfs is half of MemAvailable"
        check "nothing was timed, nothing left on the tmpfs" test ! -e dec-shm.csv -a -z "$(ls -A "$shm")"
    else
        skip_check "an archive on tmpfs against half of MemAvailable: no tmpfs /dev/shm"
    fi
    fake_meminfo room.meminfo $(((2 * 12582912 + 8000000) / 1024))
    run with_meminfo room.meminfo "$CP" sweep -i in12.bin "${dec[@]}" -o dec-room.csv mem
    expect_status 0 "--decompress: the same archive with half of MemAvailable above it"
    check "and its run is timed" test "$(data_rows dec-room.csv)" -eq 1
fi

# ---- 4. compare lists the verdicts that changed ------------------------------------------
# A: the reference study, usb write-bound from 3 threads (test_promises.sh). B: the same,
# but usb's runs and probe are ssd's (cpu-bound throughout).
REF=$SRC_DIR/fixtures/reference
mkdir A B A2
cp "$REF/runs.csv" "$REF/probe.csv" A/
cp "$REF/runs.csv" "$REF/probe.csv" A2/
for f in runs probe; do
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } $1 == "usb" { next } { print }
             $1 == "ssd" { $1 = "usb"; print }' "$REF/$f.csv" > B/$f.csv
done
for s in A B; do "$CP" analyze $s/runs.csv --probe $s/probe.csv --format json -o $s.json; done
run "$CP" compare A B
expect_status 0 "compare A B"
# pair_has NAME REGEX: the block of NAME's pair (its heading to the next blank line) matches
pair_has() {
    awk -v h="$1 (zstd:3) in B against $1 (zstd:3) in A" 'index($0, h) == 1 { on = 1 }
        on && /^$/ { exit } on' "$WORK/out" | grep -Eq -- "$2"
}
check "usb: the changed verdict listed with both (T=8 write-bound -> cpu-bound)" \
    pair_has usb '^  verdicts changed:.* T=8 write-bound -> cpu-bound(,|$)'
check "mem: verdicts unchanged" pair_has mem '^  verdicts: unchanged$'
check "ssd: verdicts unchanged" pair_has ssd '^  verdicts: unchanged$'
run "$CP" compare A B --format json
check "JSON: the verdict changes are exactly where analyze's verdicts of A and B differ" \
    python3 - "$WORK/out" A.json B.json <<'PY'
import json, sys
cmp, a, b = (json.load(open(p)) for p in sys.argv[1:])
def verdicts(d):
    return {(t["name"], v["threads"]): v["verdict"] for t in d["targets"] for v in t["verdicts"]}
va, vb = verdicts(a), verdicts(b)
want = {k: (va[k], vb[k]) for k in va if k in vb and va[k] != vb[k]}
got = {(p["a"]["target"], c["threads"]): (c["a"], c["b"]) for p in cmp["pairs"]
       for c in p["verdict_changes"]}
assert got == want, (got, want)
assert want[("usb", 8)] == ("write-bound", "cpu-bound"), want
assert all(t == "usb" for t, _ in want), want
PY
run "$CP" compare A A2
expect_status 0 "compare of two identical studies"
check "identical studies: every pair says verdicts unchanged, none changed" \
    test "$(grep -c '^  verdicts: unchanged$' "$WORK/out")" -eq 3 -a "$(grep -c 'verdicts changed' "$WORK/out")" -eq 0
run "$CP" compare A A2 --format json
check "identical studies, JSON: no verdict changes" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["pairs"]) == 3 and all(p["verdict_changes"] == [] for p in d["pairs"]), d' "$WORK/out"

# ---- 5. analyze's "faster than probed?" and "noisy" marks --------------------------------
# mem and a disk writing 400 MB of output per run; the disk within 3% of mem (cpu-bound).
# Probed at 1 GB/s it is clean; probed at 200 MB/s its 2-thread point (385 MB/s of output)
# beat the probe by more than the 10% tolerance, its 1-thread point (196 MB/s) did not.
# spread.csv: the disk's 1-thread repetitions spread 0.37 s around a 2.04 s median (18%).
runs_csv() { # DISK_T1_SECONDS DISK_T2_SECONDS (three each)
    echo "target,codec,threads,rep,sync,input_bytes,output_bytes,seconds"
    local target threads times r s
    while read -r target threads times; do
        r=0
        for s in $times; do
            r=$((r + 1))
            echo "$target,zstd:3,$threads,$r,fsync,1000000000,400000000,$s"
        done
    done <<EOF
mem 1 2.00 2.01 2.02
mem 2 1.00 1.01 1.02
disk 1 $1
disk 2 $2
EOF
}
probe_csv() { # WRITE_BYTES_PER_S
    echo "target,op,size_bytes,rep,seconds,bytes_per_s,sync"
    for r in 1 2 3; do echo "disk,write,400000000,$r,$(awk -v b="$1" 'BEGIN { print 4e8 / b }'),$1,fsync"; done
}
runs_csv "2.03 2.04 2.05" "1.03 1.04 1.05" > clean.csv
runs_csv "2.03 2.04 2.40" "1.03 1.04 1.05" > spread.csv
probe_csv 1000000000 > probe-fast.csv
probe_csv 200000000 > probe-slow.csv
# marks FILE.json: "target T flag,flag" per point, flags from "flags" and "noisy"
marks() {
    python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["targets"]:
    for p in t["points"]:
        print(t["name"], p["threads"], ",".join(p["flags"] + (["noisy"] if p["noisy"] else [])))' "$1"
}
# row_has T REGEX: the disk's row at T threads in the decision table matches
row_has() { grep -E "^  disk \(zstd:3\) +$1 " "$WORK/out" | grep -Eq -- "$2"; }
row_lacks() { ! row_has "$@"; }

run "$CP" analyze clean.csv --probe probe-fast.csv
expect_status 0 "analyze clean data"
check "clean data: no mark and no note of either kind" \
    test "$(grep -Ec 'faster than probed|noisy|faster than the volume' "$WORK/out")" -eq 0
"$CP" analyze clean.csv --probe probe-fast.csv --format json -o clean.json
check "clean data, JSON: no point flagged or noisy" test -z "$(marks clean.json | awk 'NF > 2')"

run "$CP" analyze clean.csv --probe probe-slow.csv
expect_status 0 "analyze a disk that beat its probe"
check "the 2-thread point is marked faster than probed" row_has 2 'faster than probed\?'
check "the 1-thread point is not" row_lacks 1 'faster than probed'
check "a note names it: 385 MB/s of output against the probed 200 MB/s" \
    grep -Eq 'disk \(zstd:3\) at 2 threads: wrote up to 385 MB/s, faster than the volume.s probed 200 MB/s' "$WORK/out"
check "nothing is marked noisy" test "$(grep -c noisy "$WORK/out")" -eq 0
"$CP" analyze clean.csv --probe probe-slow.csv --format json -o slow.json
check "JSON: faster-than-probed on disk at 2 threads only" \
    test "$(marks slow.json | grep -c faster-than-probed)" -eq 1 -a \
    -n "$(marks slow.json | grep -E '^disk 2 (.*,)?faster-than-probed')"

run "$CP" analyze spread.csv --probe probe-fast.csv
expect_status 0 "analyze a point whose repetitions spread"
check "the 1-thread point is marked noisy" row_has 1 ' noisy$'
check "the 2-thread point is not" row_lacks 2 noisy
check "the details count it: 1 point marked noisy past the 10% tolerance" \
    grep -q '1 point marked noisy: the repetitions spread more than the 10% tolerance' "$WORK/out"
check "nothing is marked faster than probed" test "$(grep -c 'faster than probed' "$WORK/out")" -eq 0
"$CP" analyze spread.csv --probe probe-fast.csv --format json -o spread.json
check "JSON: noisy on disk at 1 thread only, noisy_points 1" \
    test "$(marks spread.json | grep -c noisy)" -eq 1 -a -n "$(marks spread.json | grep -E '^disk 1 (.*,)?noisy$')" -a \
    "$(json_get spread.json '[t["noisy_points"] for t in m["targets"]]')" = "[0, 1]"
run "$CP" analyze spread.csv --probe probe-fast.csv --tolerance 0.2
check "with a 20% tolerance the 18% spread is not noisy" \
    test -z "$(grep -E 'noisy( |$)' "$WORK/out")" -a "$(grep -Ec '^  disk \(zstd:3\) +1 ' "$WORK/out")" -eq 1

finish
