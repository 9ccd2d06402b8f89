#!/usr/bin/env bash
# Options whose promise had no test, each held to what a user relies on:
#   compare/history --tolerance: the verdicts are analyze's at that tolerance;
#   compare/history --seed: the bootstrap's intervals are the seed's (the same seed gives
#     the same intervals, another seed others), and the seed is recorded;
#   plot --tolerance: report.md's verdicts are analyze's at that tolerance;
#   predict --layout same: each volume also reads the input, at its read speed;
#   predict --seed: a probed volume is written the seed's data, and stderr names it;
#   probe --block SIZE: the writes are issued SIZE bytes at a time (strace);
#   run --engine, --sync, --layout: the runs are made so, and recorded so;
#   run --reps auto: a steady command stops early (3 to 5 repetitions), a noisy one at 10;
#   sweep --block-size: the blocks engine cuts the input into blocks of that size;
#   xz:Ne (extreme) at levels beside 0e: the very stream of `xz -Ne`;
#   meta.json's command_line and cwd: the arguments and the directory the study ran with.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_python3 || { finish; exit 1; }
REF=$SRC_DIR/fixtures/reference
cd "$WORK"

# --- two results directories: A the reference study, B its disks 8% slower -------------
# Seven repetitions each (the reference's three, and four more with the same times a few
# percent apart), so the bootstrap has more than a handful of resamples to draw.
mkdir -p A B
cp "$REF/probe.csv" A/
cp "$REF/probe.csv" B/
python3 - "$REF/runs.csv" A/runs.csv B/runs.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fields = list(rows[0].keys())
more = []
for k, f in enumerate((0.97, 1.02, 0.99, 1.04)):
    for r in rows:
        if r["rep"] == "1" and r["seconds"]:
            more.append(dict(r, rep=str(4 + k), seconds="%.6f" % (float(r["seconds"]) * f)))
for path, slower in ((sys.argv[2], 1.0), (sys.argv[3], 1.08)):
    with open(path, "w", newline="") as out:
        w = csv.DictWriter(out, fieldnames=fields)
        w.writeheader()
        for r in rows + more:
            if r["target"] != "mem" and r["seconds"]:
                r = dict(r, seconds="%.6f" % (float(r["seconds"]) * slower))
            w.writerow(r)
PY

# verdicts_of RUNS PROBE TOLERANCE: "target T verdict" lines from analyze at TOLERANCE.
verdicts_of() {
    "$CP" analyze "$1" --probe "$2" --tolerance "$3" --format json | python3 -c '
import json, sys
for t in json.load(sys.stdin)["targets"]:
    for v in t["verdicts"]:
        print(t["name"], v["threads"], v["verdict"])' | sort
}
# changes_expected TOLERANCE: the verdict changes from A to B that analyze's verdicts at
# TOLERANCE imply, as compare's JSON lists them ("target T a b").
changes_expected() {
    join -j 1 <(verdicts_of A/runs.csv A/probe.csv "$1" | awk '{ print $1 "/" $2, $3 }') \
              <(verdicts_of B/runs.csv B/probe.csv "$1" | awk '{ print $1 "/" $2, $3 }') |
        awk '$2 != $3 { sub("/", " ", $1); print }' | sort
}
# changes_given JSON: the verdict changes a compare (or history's latest compare) lists,
# "target T a b".
changes_given() {
    python3 -c '
import json, sys
def walk(x):
    if isinstance(x, dict):
        for p in x.get("pairs", []):
            for c in p["verdict_changes"]:
                print(p["a"]["target"], c["threads"], c["a"], c["b"])
        for k, v in x.items():
            if k != "pairs":
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(open(sys.argv[1])))' "$1" | sort
}
# intervals JSON: every compared point's bootstrap interval, "target T low high".
intervals() {
    python3 -c '
import json, sys
def walk(x):
    if isinstance(x, dict):
        for p in x.get("pairs", []):
            for q in p["points"]:
                print(p["a"]["target"], q["threads"], q["ci_low"], q["ci_high"])
        for k, v in x.items():
            if k != "pairs":
                walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(open(sys.argv[1])))' "$1"
}
# differ A B: the files differ
differ() { ! cmp -s "$1" "$2"; }
for tol in 0.10 0.5; do
    run "$CP" compare A B --tolerance "$tol" --format json -o "compare-$tol.json"
    expect_status 0 "compare --tolerance $tol"
    check "compare --tolerance $tol: its verdict changes are analyze's at $tol ($(changes_given "compare-$tol.json" | tr '\n' ';'))" \
        diff <(changes_expected "$tol") <(changes_given "compare-$tol.json")
done
changes_given compare-0.10.json > changes-0.10
changes_given compare-0.5.json > changes-0.5
check "and the tolerance decides them: 0.10 and 0.5 give different changes" differ changes-0.10 changes-0.5

for seed in 1 1 2; do
    run "$CP" compare A B --seed "$seed" --format json -o "seed-$seed.json" --force
    expect_status 0 "compare --seed $seed"
    [ -f "seed-$seed.first" ] || cp "seed-$seed.json" "seed-$seed.first"
done
check "compare: the seed is recorded" test "$(json_get seed-2.json 'm["seed"]')" = 2
check "compare: the same seed gives the same intervals" diff <(intervals seed-1.first) <(intervals seed-1.json)
check "compare: the default seed is 1" \
    bash -c "'$CP' compare A B --format json | python3 -c 'import json,sys; assert json.load(sys.stdin)[\"seed\"] == 1'"
n_ci=$(intervals seed-1.json | awk '$3 != "None"' | wc -l)
check "compare: the points with seven repetitions on both sides have intervals ($n_ci)" test "$n_ci" -gt 0
intervals seed-1.json > ci-1
intervals seed-2.json > ci-2
check "compare: another seed gives other intervals" differ ci-1 ci-2

# history: the same options over a root holding both studies, as 'run' writes them.
mkdir -p root/a root/b
for s in a b; do
    up=$(echo "$s" | tr a-z A-Z)
    cp "$up"/runs.csv "$up"/probe.csv "root/$s/"
    python3 - "root/$s/meta.json" "$s" <<'PY'
import json, sys
json.dump({"chokepoint_version": "test", "command_line": ["run"], "status": "complete",
           "started": "2026-01-0%dT10:00:00Z" % (1 if sys.argv[2] == "a" else 2),
           "host": {"hostname": "lab1", "cpu_model": "x", "online_cpus": 8}},
          open(sys.argv[1], "w"))
PY
done
for tol in 0.10 0.5; do
    run "$CP" history root --tolerance "$tol" --format json -o "history-$tol.json"
    expect_status 0 "history --tolerance $tol"
    check "history --tolerance $tol: the latest study's verdict changes are analyze's at $tol" \
        diff <(changes_expected "$tol") <(changes_given "history-$tol.json")
done
for seed in 1 2; do
    run "$CP" history root --seed "$seed" --format json -o "history-seed-$seed.json"
    expect_status 0 "history --seed $seed"
    intervals "history-seed-$seed.json" > "history-ci-$seed"
done
check "history --seed: the seed is recorded" grep -q '"seed": 2' history-seed-2.json
check "history --seed: the intervals are there ($(awk '$3 != "None"' history-ci-1 | wc -l))" \
    test "$(awk '$3 != "None"' history-ci-1 | wc -l)" -gt 0
check "history --seed: another seed gives other intervals" differ history-ci-1 history-ci-2

# --- plot --tolerance: report.md's verdict table is analyze's at that tolerance ---------
# report_verdicts DIR: "target T verdict" from the table rows "| name (codec) | T | s | verdict (cause) |".
report_verdicts() {
    awk -F'|' 'NF >= 6 && $3 ~ /^ *[0-9]+ *$/ && $5 ~ /-bound|balanced|unexplained/ {
                   name = $2; sub(/^ */, "", name); sub(/ .*/, "", name)
                   v = $5; sub(/^ */, "", v); sub(/ .*/, "", v); gsub(/ /, "", $3)
                   print name, $3, v }' "$1/report.md" | sort -u
}
for tol in 0.10 0.5; do
    rm -rf "P$tol"
    cp -r A "P$tol"
    CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" plot "P$tol" --tolerance "$tol" -q
    expect_status 0 "plot --tolerance $tol (no gnuplot: report.md and the plot data only)"
    check "plot --tolerance $tol: report.md's verdicts are analyze's at $tol ($(report_verdicts "P$tol" | wc -l) rows)" \
        diff <(verdicts_of A/runs.csv A/probe.csv "$tol") <(report_verdicts "P$tol")
done
check "report.md states the tolerance" grep -q "tolerance 50%" P0.5/report.md
report_verdicts P0.10 > report-0.10
report_verdicts P0.5 > report-0.5
check "and it decides the verdicts: 0.10 and 0.5 differ" differ report-0.10 report-0.5

# --- predict --layout same: each volume reads the input too, at its read speed ----------
# usb3-hdd-inner writes 60 MB/s and reads 62 MB/s (predict --classes): split, the volume
# only writes the output; same, it also reads the whole input, which alone takes
# input / 62 MB/s.
for layout in split same; do
    run "$CP" predict A --class usb3-hdd-inner --layout "$layout" --format json -o "predict-$layout.json"
    expect_status 0 "predict --layout $layout"
done
read -r in_b out_b < <(python3 - A/runs.csv <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["target"] == "mem" and r["threads"] == "1"]
print(statistics.median(float(r["input_bytes"]) for r in rows),
      statistics.median(float(r["output_bytes"]) for r in rows))
PY
)
is_figure "the study's input and output bytes at T=1" "$in_b" "$out_b" &&
check "predict: split, T=1 takes at least the output's write at 60 MB/s and less than reading the input at 62" \
    python3 - predict-split.json "$in_b" "$out_b" <<'PY'
import json, sys
p = [p for p in json.load(open(sys.argv[1]))["predictions"] if p["threads"] == 1][0]
i, o = float(sys.argv[2]), float(sys.argv[3])
assert o / 60e6 * 0.99 <= p["seconds"] < i / 62e6, (p["seconds"], o / 60e6, i / 62e6)
PY
check "predict: same, every point takes at least the input's read at 62 MB/s, read-bound" \
    python3 - predict-same.json "$in_b" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["layout"] == "same", d["layout"]
for p in d["predictions"]:
    assert p["seconds"] >= float(sys.argv[2]) / 62e6 * 0.99, p
    assert p["verdict"] == "read-bound", p
PY

# --- probe --block: the writes are issued SIZE bytes at a time ---------------------------
mkdir -p pb
if command -v strace > /dev/null; then
    # (LeakSanitizer cannot stop the world under a tracer: no leak check in this one run.)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run strace -f -qq -e trace=write,pwrite64 \
        -o "$WORK/probe.trace" "$CP" probe --sizes 2M --reps 1 --block 64K -q -o pb.csv pb
    expect_status 0 "probe --block 64K under strace"
    n64=$(grep -cE '^[0-9]+ +p?write(64)?\([0-9]+, .*, 65536(, [0-9]+)?\) += 65536' probe.trace || true)
    check "probe --block 64K: the 2 MiB file is written in 32 writes of 64 KiB (saw $n64)" test "$n64" -ge 32
    check "probe.csv records the block" test "$(awk -F, -v c="$(csv_col pb.csv block_size)" 'NR == 2 { print $c }' pb.csv)" = 65536
else
    skip_check "probe --block: no strace to see the writes' size"
fi

# --- run --engine, --sync, --layout; meta.json's command_line and cwd -------------------
head -c 4000000 "$CP" > r.in # (the binary, or its first 4 MB)
mkdir -p vol sub
args=(run -i ../r.in --engine native --sync direct --layout same --reps 1 -T 1 --no-probe -q
      --out study mem "v=$WORK/vol")
(cd sub && run "$CP" "${args[@]}" && echo "$status" > status)
check "a study with --engine native --sync direct --layout same" test "$(cat sub/status)" = 0
check "runs.csv: every run native, direct, and the volume's read from itself" python3 - sub/study/runs.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["engine"] == "native" and r["sync"] == "direct" for r in rows), rows
v = [r for r in rows if r["target"] == "v"]
assert v and all(r["layout"] == "same" and r["input_target"] == "v" for r in v), v
PY
check "meta.json: command_line is the arguments after chokepoint, as given" \
    python3 - sub/study/meta.json "${args[@]}" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
assert m["command_line"] == sys.argv[2:], (m["command_line"], sys.argv[2:])
PY
check "meta.json: cwd is the directory it ran in" test "$(json_get sub/study/meta.json 'm["cwd"]')" = "$WORK/sub"
check "meta.json: engine, sync and layout as given" \
    test "$(json_get sub/study/meta.json 'm["engine"] + m["sync"] + m["layout"]')" = nativedirectsame

# --- predict --seed: the probe of a --volume writes the seed's data ---------------------
# The first bytes of each 64 KiB the probe writes (strace): the same seed writes the same
# data, another seed other data; stderr names the seed.
run "$CP" run -i r.in -T 1 --reps 1 --no-probe -q --out tiny mem
expect_status 0 "a small study of memory alone"
mkdir -p pv
probe_data() { # SEED FILE: the probe's first written chunks' first bytes, into FILE
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 run strace -f -qq -s 12 -x -e trace=write \
        -o "$WORK/predict-$1.trace" "$CP" predict tiny --volume "v=$WORK/pv" --seed "$1" \
        --format json -o "predict-seed.json" --force
    expect_status 0 "predict --volume --seed $1 under strace"
    grep -q "seed $1\$" "$WORK/err" || not_ok "predict --seed $1: stderr does not name the seed: $(head -c 300 "$WORK/err")"
    grep -E 'write\([0-9]+, ".*= 65536$' "$WORK/predict-$1.trace" | sed -E 's/^[0-9]+ +write\([0-9]+, //' |
        head -8 > "$2"
}
if command -v strace > /dev/null; then
    probe_data 5 data-5a
    probe_data 5 data-5b
    probe_data 6 data-6
    check "predict --seed: the probe wrote data ($(wc -l < data-5a) chunks seen)" test -s data-5a
    check "predict --seed 5 twice: the same data" cmp -s data-5a data-5b
    check "predict --seed 6: other data" differ data-5a data-6
else
    skip_check "predict --seed: no strace to see the probe's data"
fi

# --- run --reps auto: 3, then more until the median's interval is within 3% (at most 10) -
# A command that sleeps one second is steady (a busy machine's wake-ups may cost it a
# repetition or two); one that sleeps 0.1 to 0.9 s at random never settles.
reps_of() { python3 -c 'import csv,sys; print(len([r for r in csv.DictReader(open(sys.argv[1])) if r["valid"] == "1"]))' "$1/runs.csv"; }
run "$CP" run -i r.in --cmd 'sleep 1; cat {input} > {output}' --cmd-name steady --reps auto -T 1 \
    --no-probe -q --out auto-steady mem
expect_status 0 "run --reps auto with a steady command"
check "the steady command stops early, at 3 to 5 repetitions (ran $(reps_of auto-steady))" \
    test "$(reps_of auto-steady)" -ge 3 -a "$(reps_of auto-steady)" -le 5
check "meta.json records reps auto" test "$(json_get auto-steady/meta.json 'm["reps"]')" = auto
run "$CP" run -i r.in --cmd 'sleep 0.$(( $(od -An -N1 -tu1 /dev/urandom) % 9 + 1 )); cat {input} > {output}' \
    --cmd-name noisy --reps auto -T 1 --no-probe -q --out auto-noisy mem
expect_status 0 "run --reps auto with a noisy command"
check "the noisy command runs the most, 10 repetitions (ran $(reps_of auto-noisy))" test "$(reps_of auto-noisy)" -eq 10

# --- sweep --block-size: the blocks engine's blocks are that size ------------------------
run "$CP" sweep -i r.in --block-size 256K -T 2 --reps 1 --no-warmup -q -o bs.csv mem
expect_status 0 "sweep --block-size 256K"
check "runs.csv records the block size" test "$(awk -F, -v c="$(csv_col bs.csv block_size)" 'NR == 2 { print $c }' bs.csv)" = 262144
run "$CP" compress -i r.in -c zstd:3 -T 2 --block-size 256K -o r.zst --force -q
expect_status 0 "compress --block-size 256K"
frames=$(zstd -lv r.zst 2> /dev/null | awk '/Frames:/ { print $NF; exit }' || true)
if command -v zstd > /dev/null && [ -n "$frames" ]; then
    blocks=$(( ($(stat -c %s r.in) + 262143) / 262144 ))
    check "one zstd frame per 256 KiB block of the input: $blocks (zstd -l says $frames)" test "$frames" -eq "$blocks"
else
    skip_check "sweep --block-size: no zstd CLI to count the frames"
fi

# --- xz extreme levels: the stream of xz -Ne (one block: the blocks engine, one thread) ---
cat "$SRC_DIR"/docs/*.md | head -c 400000 > x.in
for lv in 1e 3e 6e; do
    run "$CP" compress -i x.in -c "xz:$lv" -T 1 -o "x$lv.xz" --force -q
    expect_status 0 "compress -c xz:$lv"
    if command -v xz > /dev/null; then
        check "xz:$lv is byte for byte xz -$lv's stream" cmp -s "x$lv.xz" <(xz "-$lv" -T1 -c x.in)
        check "and not xz -${lv%e}'s" bash -c "! cmp -s x$lv.xz <(xz -${lv%e} -T1 -c x.in)"
    else
        skip_check "xz:$lv: no xz CLI to compare the stream with"
    fi
done
finish
