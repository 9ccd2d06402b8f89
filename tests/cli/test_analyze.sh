#!/usr/bin/env bash
# chokepoint analyze on the checked-in reference data set and on malformed input.
set -u
CP=${CHOKEPOINT:?set CHOKEPOINT to the built binary}
REF=${SRC_DIR:?set SRC_DIR to the source tree}/fixtures/reference
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_in() { # expect_in FILE PATTERN
    grep -qE -- "$2" "$1" || { fail "'$2' not in $1:"; sed 's/^/    /' "$1"; }
}

# --- help and usage errors ---------------------------------------------------------------
"$CP" analyze --help >"$WORK/help" 2>"$WORK/err" || fail "--help exit $?"
expect_in "$WORK/help" "^usage: chokepoint analyze RUNS.csv"
[ -s "$WORK/err" ] && fail "--help wrote to stderr"

"$CP" analyze "$REF/runs.csv" --bogus >"$WORK/out" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "unknown option: exit $rc, want 2"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "unknown option: not one line on stderr"
expect_in "$WORK/err" "unknown option '--bogus'"

"$CP" analyze >"$WORK/out" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "no RUNS.csv: exit $rc, want 2"
"$CP" analyze "$REF/runs.csv" --tolerance 1.5 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "bad tolerance: exit $rc, want 2"
"$CP" analyze "$WORK/missing.csv" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "missing file: exit $rc, want 2"
expect_in "$WORK/err" "missing.csv: cannot open"

# --- the reference data set: text --------------------------------------------------------
"$CP" analyze "$REF/runs.csv" --probe "$REF/probe.csv" >"$WORK/text" 2>"$WORK/err" \
    || fail "reference text: exit $?"
expect_in "$WORK/text" "72 runs in 3 series; 1 failed run skipped"
expect_in "$WORK/text" "time = [0-9.]+ / T\^0\.[0-9]+ s"
expect_in "$WORK/text" "rate = [0-9.]+ \+ [0-9.]+ x T MB/s"
expect_in "$WORK/text" "^usb \(zstd:3\)"
expect_in "$WORK/text" "verdict at 8 threads: write-bound; runs at 3[0-9]% of mem's speed"
expect_in "$WORK/text" "this volume starts to limit the job at T = 2\.[1-3] \(2\.[0-9]\.\.2\.[0-9] within one standard error of the fit\), where the volume's write time comes within 10% of the compression's \(its write ceiling: 7[01][0-9] MB/s of input\), so from 3 threads on it sets the time; the model's rate there: [0-9]+ MB/s \(usl model, measured 1\.\.8 threads\)"
# mem at 8 threads: 1073741824 B / 1.91 GB/s = 0.562 s; within 10%: 0.562 / 0.9 = 0.625 s,
# so the disk must take usb's output (1.0e9 B at ratio ~0.35) in 0.625 s: ~600 MB/s.
expect_in "$WORK/text" "what-if: this volume writes 2[0-9]{2} MB/s of output \(7[01][0-9] MB/s of input at this job's ratio 0\.3[0-9]\); at 8 threads the job needs 6[0-9]{2} MB/s of writes to keep up with the cores while they compress; a disk that writes 6[0-9]{2} MB/s would bring it down to 0\.62[0-9]* s"
# ssd is judged against mem (mem, its own ceiling, is cpu-bound by construction).
sed -n '/^ssd (zstd:3)/,/^$/p' "$WORK/text" > "$WORK/ssd.txt"
expect_in "$WORK/ssd.txt" "verdict at 8 threads: cpu-bound"

# --- JSON --------------------------------------------------------------------------------
"$CP" analyze "$REF/runs.csv" --probe="$REF/probe.csv" --format json -o "$WORK/a.json" \
    2>"$WORK/err" || fail "reference json: exit $?"
[ -s "$WORK/a.json" ] || fail "no JSON written"
ls "$WORK" | grep -q 'a.json.' && fail "temporary file left beside a.json"
need_python3() { command -v python3 >/dev/null || { fail "python3 is missing (scripts/setup.sh --with-tests): JSON checks not run"; return 1; }; }
if need_python3; then
    python3 - "$WORK/a.json" <<'PY' || fail "JSON content"
import json, sys
a = json.load(open(sys.argv[1]))
t = {s["name"]: s for s in a["targets"]}
usb, mem = t["usb"], t["mem"]
assert usb["codec"] == "zstd:3"
assert usb["verdict"] == "write-bound", usb["verdict"]
assert 2.0 < usb["crossover_threads"] < 2.5, usb["crossover_threads"]
assert [p["threads"] for p in usb["points"]] == list(range(1, 9))
assert usb["points"][0]["n"] == 3
v8 = usb["verdicts"][-1]
assert v8["threads"] == 8 and v8["verdict"] == "write-bound"
assert abs(v8["write_ceiling_bytes_per_s"] - 250e6 / 0.35) / (250e6 / 0.35) < 0.02
assert v8["read_ceiling_bytes_per_s"] is not None
usl = mem["models"]["usl"]
# make_reference.py's truth: lambda 300 MB/s, sigma 0.03, kappa 0.0008, 1% noise. Each
# estimate within 2 of its standard errors of the truth, the errors themselves small.
se = usl["se"]
assert 0 < se["sigma"] < 0.02 and 0 < se["kappa"] < 0.002, se
assert abs(usl["lambda"] - 300e6) < 2 * se["lambda"], (usl["lambda"], se)
assert abs(usl["sigma"] - 0.03) < 2 * se["sigma"], (usl["sigma"], se)
assert abs(usl["kappa"] - 0.0008) < 2 * se["kappa"], (usl["kappa"], se)
# and the fitted curve reproduces mem's medians within 3%
lam, sig, kap = usl["lambda"], usl["sigma"], usl["kappa"]
for p in mem["points"]:
    n = p["threads"]
    pred = lam * n / (1 + sig * (n - 1) + kap * n * (n - 1))
    assert abs(pred / p["bytes_per_s"] - 1) < 0.03, (n, pred, p["bytes_per_s"])
# usb's crossover against the truth: where the disk's time (output / 250 MB/s) comes
# within the 10% tolerance of the compression's (the writes overlap: this table records no
# write-back thresholds), usl(T) = 0.9 x 250 MB/s / 0.35, near T = 2.2
lo, hi = 1.0, 8.0
for _ in range(60):
    mid = (lo + hi) / 2
    if 300e6 * mid / (1 + 0.03 * (mid - 1) + 0.0008 * mid * (mid - 1)) < 0.9 * 250e6 / 0.35:
        lo = mid
    else:
        hi = mid
assert abs(usb["crossover_threads"] - lo) < 0.1, (usb["crossover_threads"], lo)
# ... and inside the band one standard error of the fit gives it, a band of a few tenths.
r = usb["crossover_range"]
assert r[0] <= lo <= r[1] and r[1] - r[0] < 0.5, (r, lo)
for k in ("power_time", "linear_rate", "amdahl", "usl"):
    m = mem["models"][k]
    assert m["n"] == 8 and m["r2"] > 0.98 and "se" in m and "aicc" in m, k
assert mem["crossover_threads"] is None
assert t["ssd"]["verdict"] == "cpu-bound"
assert a["runs_skipped"] == 1
PY
fi

# --- Markdown ----------------------------------------------------------------------------
"$CP" analyze "$REF/runs.csv" --probe "$REF/probe.csv" --format markdown >"$WORK/md" \
    || fail "markdown: exit $?"
expect_in "$WORK/md" "^### usb \(zstd:3\)"
expect_in "$WORK/md" "^\| 8 \| .* \| write-bound \(write-throughput\) \|"

# --- a foreign table with only the four required columns ---------------------------------
"$CP" analyze "$REF/foreign_runs.csv" --format json >"$WORK/f.json" 2>"$WORK/err" \
    || fail "foreign: exit $?"
if need_python3; then
    python3 - "$WORK/f.json" <<'PY' || fail "foreign JSON content"
import json, sys
a = json.load(open(sys.argv[1]))
t = {s["name"]: s for s in a["targets"]}
assert t["usb-stick"]["codec"] is None
assert t["usb-stick"]["verdict"] == "unexplained"
assert t["usb-stick"]["verdicts"][-1]["cpu_ceiling_source"] == "estimated"
assert t["laptop-nvme"]["verdict"] == "cpu-bound"
assert "skipped" in t["usb-stick"]["models"]["usl"] or t["usb-stick"]["models"]["usl"]["n"] == 4
PY
fi

# --- malformed data: exit 2, FILE:LINE, nothing written ------------------------------------
printf 'target,threads,seconds,input_bytes,note\nssd,1,2,100,"a\nb"\nssd,2,x,100,\n' >"$WORK/bad.csv"
"$CP" analyze "$WORK/bad.csv" -o "$WORK/never.txt" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "malformed runs: exit $rc, want 2"
expect_in "$WORK/err" "bad.csv:4: column 'seconds': 'x' is not a number"
[ -e "$WORK/never.txt" ] && fail "output written despite the error"
ls "$WORK" | grep -q 'never.txt' && fail "temporary output left behind"

printf 'target,op,bytes_per_s\nssd,write,100\nssd,trim,5\n' >"$WORK/badprobe.csv"
"$CP" analyze "$REF/runs.csv" --probe "$WORK/badprobe.csv" >"$WORK/out" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "malformed probe: exit $rc, want 2"
expect_in "$WORK/err" "badprobe.csv:3: column 'op': unknown op 'trim'"
[ -s "$WORK/out" ] && fail "stdout written despite the error"

head -c 20000 /dev/urandom >"$WORK/garbage.csv"
timeout 10 "$CP" analyze "$WORK/garbage.csv" >"$WORK/out" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "garbage: exit $rc, want 2"
[ "$(wc -l <"$WORK/err")" -le 1 ] || fail "garbage: more than one line on stderr"

printf 'target,threads,seconds,input_bytes\r\nssd,1,2,100\r\nssd,2,1.1,100\r\n' >"$WORK/crlf.csv"
"$CP" analyze "$WORK/crlf.csv" >"$WORK/out" 2>"$WORK/err" || fail "CRLF file: exit $?"
expect_in "$WORK/out" "verdict at 2 threads: cpu-bound"

# --- the reference generator still makes exactly the checked-in data -------------------
if need_python3; then
    (cd "$WORK" && python3 "$REF/make_reference.py") || fail "make_reference.py failed"
    cmp -s "$WORK/runs.csv" "$REF/runs.csv" || fail "make_reference.py no longer makes runs.csv"
    cmp -s "$WORK/probe.csv" "$REF/probe.csv" || fail "make_reference.py no longer makes probe.csv"
fi

# --- read-bound at the CLI: layout same, the target reads its input at 150 MB/s ----------
# (6.67 s against 1.25 s of compression and 0.25 s of writing; measured 7 s)
printf 'target,threads,seconds,input_bytes,output_bytes,layout,input_target\n%s\n%s\n' \
    "mem,1,1.25,1000000000,500000000,split,src" "disk,1,7,1000000000,500000000,same," >"$WORK/rb.csv"
printf 'target,op,size_bytes,bytes_per_s\ndisk,write,2000000000,2000000000\ndisk,read,2000000000,150000000\n' >"$WORK/rb_probe.csv"
"$CP" analyze "$WORK/rb.csv" --probe "$WORK/rb_probe.csv" >"$WORK/out" 2>"$WORK/err" || fail "read-bound: exit $?"
expect_in "$WORK/out" "verdict at 1 thread: read-bound"

# --- no usable runs: exit 2, one line naming the file --------------------------------------
printf 'target,threads,seconds,input_bytes,error\ndisk,1,,,out of space\n' >"$WORK/none.csv"
"$CP" analyze "$WORK/none.csv" -o "$WORK/none.txt" >"$WORK/out" 2>"$WORK/err"; rc=$?
[ "$rc" -eq 2 ] || fail "no usable runs: exit $rc, want 2"
expect_in "$WORK/err" "none.csv: no usable runs \(1 failed run skipped\)"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "no usable runs: not one line on stderr"
[ -e "$WORK/none.txt" ] && fail "no usable runs: output written"

# --- the tolerance boundary at the CLI: disk at exactly 80% of mem -------------------------
printf 'target,threads,seconds,input_bytes\nmem,1,4,1000\ndisk,1,5,1000\n' >"$WORK/tol.csv"
"$CP" analyze "$WORK/tol.csv" --tolerance 0.25 >"$WORK/out" 2>&1 || fail "tolerance 0.25: exit $?"
sed -n '/^disk/,/^$/p' "$WORK/out" > "$WORK/disk.txt"
expect_in "$WORK/disk.txt" "verdict at 1 thread: cpu-bound"
"$CP" analyze "$WORK/tol.csv" --tolerance 0.1875 >"$WORK/out" 2>&1 || fail "tolerance 0.1875: exit $?"
sed -n '/^disk/,/^$/p' "$WORK/out" > "$WORK/disk.txt"
expect_in "$WORK/disk.txt" "verdict at 1 thread: unexplained"

# --- the answer's order ------------------------------------------------------------------
# For each codec in turn (the order the file first mentions them), memory first, then the
# targets in the order they were given (target_order), whatever order the rows come in:
# the file mentions zstd:9 first and its series as lab, mem, usb; usb was given first.
printf '%s\n' target,codec,threads,seconds,input_bytes,output_bytes,target_order \
    lab,zstd:9,1,2,1000,500,3 lab,zstd:1,1,1,1000,600,3 mem,zstd:9,1,2,1000,500,2 \
    usb,zstd:1,1,1,1000,600,1 mem,zstd:1,1,1,1000,600,2 usb,zstd:9,1,2,1000,500,1 \
    lab,zstd:9,2,1,1000,500,3 mem,zstd:1,2,0.5,1000,600,2 > "$WORK/order.csv"
want_order="mem (zstd:9)|usb (zstd:9)|lab (zstd:9)|mem (zstd:1)|usb (zstd:1)|lab (zstd:1)"
"$CP" analyze "$WORK/order.csv" >"$WORK/order.txt" 2>"$WORK/err" || fail "order: exit $?"
got=$(sed -n 's/^  \([a-z]* ([a-z0-9:]*)\): .*/\1/p' "$WORK/order.txt" | paste -sd'|')
[ "$got" = "$want_order" ] || fail "the answer's order: $got, want $want_order"
got=$(sed -n 's/^  \([a-z]* ([a-z0-9:]*)\) \{1,\}[0-9].*/\1/p' "$WORK/order.txt" | uniq | paste -sd'|')
[ "$got" = "$want_order" ] || fail "the verdict table's order: $got, want $want_order"
got=$(grep -E '^[a-z]+ \([a-z0-9:]+\)$' "$WORK/order.txt" | paste -sd'|')
[ "$got" = "$want_order" ] || fail "the details' order: $got, want $want_order"
if need_python3; then
    "$CP" analyze "$WORK/order.csv" --format json -o "$WORK/order.json" 2>"$WORK/err" \
        || fail "order json: exit $?"
    got=$(python3 -c "import json,sys; print('|'.join('%s (%s)' % (t['name'], t['codec']) for t in json.load(open(sys.argv[1]))['targets']))" "$WORK/order.json")
    [ "$got" = "$want_order" ] || fail "analysis.json's order: $got, want $want_order"
fi

# --- a decompression's words: its own job, restored bytes, the volume it reads ----------
# usb restores an archive read through an emulated 500 MB/s read cap (1.25 GB/s of
# restored data at a ratio of 2.5): reading limits it from T = 4.5 along mem's line.
{
    echo "target,codec,op,threads,seconds,input_bytes,output_bytes,read_cap_bps,emulated"
    for t in 1 2 4; do
        echo "mem,zstd:3,decompress,$t,$((4 / t)),1000000000,400000000,,0"
    done
    echo "usb,zstd:3,decompress,1,4.1,1000000000,400000000,500000000,1"
    echo "usb,zstd:3,decompress,2,2.3,1000000000,400000000,500000000,1"
    echo "usb,zstd:3,decompress,4,2.1,1000000000,400000000,500000000,1"
} >"$WORK/restore.csv"
"$CP" analyze "$WORK/restore.csv" >"$WORK/out" 2>"$WORK/err" || fail "decompression: exit $?"
expect_in "$WORK/out" "this volume starts to limit the job at T = 4.5, where the volume's read time comes within 10% of the decompression's \(its read ceiling: 1.25 GB/s of restored data\), so from 5 threads on it sets the time"
grep -Eq "reading the input from  |the compression's|of input\)" "$WORK/out" &&
    fail "a decompression described as a compression, or a volume without a name"
expect_in "$WORK/out" "usb 2.10 s \(the only volume\)"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "ok"
