#!/usr/bin/env bash
# `chokepoint import`: fio and hyperfine run for real, and what chokepoint imports is held
# against their own JSON, read here with python: every bytes_per_s is fio's bw_bytes,
# every seconds one of hyperfine's times. Files that are not theirs, or lack what the
# model needs, are refused with one line, exit 2, and nothing written.
. "$(dirname "$0")/lib.sh"
set -e
for tool in fio hyperfine zstd python3; do
    command -v $tool >/dev/null || { echo "FAILED: $tool is needed (scripts/setup.sh --with-tests)"; exit 1; }
done
vol=$WORK/vol
mkdir -p "$vol"

# fio: a direct write and an end_fsync'd write in group 0, a read and a buffered write
# without a sync after a stonewall (group 1), as json+.
cat > "$WORK/jobs.fio" <<JOBS
[global]
directory=$vol
size=8M
ioengine=psync

[seqwrite-direct]
rw=write
bs=1M
direct=1

[seqwrite-fsync]
rw=write
bs=256k
end_fsync=1

[seqread]
stonewall
rw=read
bs=1M

[cached]
rw=write
bs=64k
JOBS
fio --output-format=json+ --output="$WORK/fio.json" "$WORK/jobs.fio" >/dev/null
run "$CP" import fio "$WORK/fio.json" -o "$WORK/probe.csv"
expect_status 0 "import fio: fio's json+ of four jobs in two groups"
check "a buffered write without a sync is called a page-cache speed" \
    grep -q "job 'cached' wrote through the page cache" "$WORK/err"

check "meta.json beside probe.csv: fio's timestamp, host unknown, source fio, complete" \
    python3 - "$WORK/fio.json" "$WORK/meta.json" <<'PY'
import json, sys, time
fio, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert m["started"] == time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(fio["timestamp"])), m
assert m["started_from"] == "fio timestamp" and m["host"] == {"hostname": "unknown"}, m
assert m["source"] == "fio" and m["status"] == "complete" and m["import"]["table"] == "probe.csv", m
PY

# Each row against fio's own figures: bw_bytes, the sync mode its options give, the block
# size, the size option, and the source.
check "imported rows equal fio's bw_bytes, sync, bs and size" python3 - "$WORK/fio.json" "$WORK/probe.csv" <<'PY'
import csv, json, sys
fio = json.load(open(sys.argv[1]))
rows = {(r["target"], r["op"]): r for r in csv.DictReader(open(sys.argv[2]))}
want = {"seqwrite-direct": ("write", "direct", 1 << 20), "seqwrite-fsync": ("write", "fsync", 256 << 10),
        "seqread": ("read", "none", 1 << 20), "cached": ("write", "none", 64 << 10)}
assert len(rows) == 4, rows.keys()
for job in fio["jobs"]:
    op, sync, bs = want[job["jobname"]]
    r = rows[(job["jobname"], op)]
    assert int(r["bytes_per_s"]) == job[op]["bw_bytes"], (r["bytes_per_s"], job[op]["bw_bytes"])
    assert r["sync"] == sync and int(r["block_size"]) == bs and int(r["size_bytes"]) == 8 << 20, r
    assert r["source"] == "fio", r
    drain = r["drain_bps"]
    assert (drain == str(job[op]["bw_bytes"])) if sync == "direct" else drain == "", r
PY

# hyperfine on the zstd CLI at 1 and 2 threads.
make_input "$WORK/in" 4000000
hyperfine -N --runs 3 --warmup 1 -L threads 1,2 \
    "zstd -q -T{threads} -f $WORK/in -o $WORK/out.zst" --export-json "$WORK/hf.json" >/dev/null
out_size=$(stat -c %s "$WORK/out.zst")
run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --output-size "$out_size" \
    --target mem -o "$WORK/runs.csv"
expect_status 0 "import hyperfine: zstd at 1 and 2 threads"
check "imported seconds are hyperfine's times, CPU its user and system means" \
    python3 - "$WORK/hf.json" "$WORK/runs.csv" "$out_size" <<'PY'
import csv, json, sys
hf = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == sum(len(r["times"]) for r in hf["results"]), len(rows)
i = 0
for res in hf["results"]:
    for rep, t in enumerate(res["times"], 1):
        r = rows[i]; i += 1
        assert r["threads"] == res["parameters"]["threads"] and int(r["rep"]) == rep, r
        assert abs(float(r["seconds"]) - t) < 1e-6, (r["seconds"], t)
        assert abs(float(r["cpu_user_s"]) - res["user"]) < 1e-4, r
        assert abs(float(r["cpu_sys_s"]) - res["system"]) < 1e-4, r
        assert r["codec"] == "cmd:zstd -q -T{threads} -f %s -o %s" % (sys.argv[2].rsplit("/", 1)[0] + "/in", sys.argv[2].rsplit("/", 1)[0] + "/out.zst"), r["codec"]
        assert r["target"] == "mem" and r["input_bytes"] == "4000000" and r["output_bytes"] == sys.argv[3], r
        assert r["source"] == "hyperfine" and r["valid"] == "1", r
PY

# The imported tables are read as chokepoint's own, and the report names who measured
# what: the same runs as if on the direct-written volume, its speeds from fio.
"$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --output-size "$out_size" \
    --target seqwrite-direct -o "$WORK/runs-vol.csv" 2>/dev/null
tail -n +2 "$WORK/runs-vol.csv" >> "$WORK/runs.csv"
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe.csv"
expect_status 0 "analyze reads the imported runs and probe"
check "the report says the runs are hyperfine's and the volume's speeds fio's" \
    grep -q "measured by: runs hyperfine, volume speeds fio (probe target seqwrite-direct)" "$WORK/out"
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe.csv" --format json
check "analysis.json names each series' sources" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
got = sorted((s["name"], s["source"], s["probe_source"]) for s in a["targets"])
assert got == [("mem", "hyperfine", None), ("seqwrite-direct", "hyperfine", "fio")], got' "$WORK/out"
mkdir "$WORK/study"
cp "$WORK/runs.csv" "$WORK/probe.csv" "$WORK/study/"
run "$CP" plot "$WORK/study" --format svg
expect_status 0 "plot draws a directory of imported tables"
check "its report.md names the sources" grep -q "volume speeds fio" "$WORK/study/report.md"
run "$CP" compare "$WORK/runs.csv" "$WORK/runs-vol.csv"
expect_status 0 "compare reads imported runs tables"

# predict --probe: every synced volume of a probe table, fio's as chokepoint's own. The
# direct write's drain rate is fio's bw_bytes; the unsynced write is left out, said so.
run "$CP" predict "$WORK/runs.csv" --probe "$WORK/probe.csv" --format json
expect_status 0 "predict --probe reads fio's imported probe"
check "predict --probe: the synced volumes, the direct one's drain rate fio's bw_bytes" \
    python3 - "$WORK/out" "$WORK/fio.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
bw = {j["jobname"]: j["write"]["bw_bytes"] for j in json.load(open(sys.argv[2]))["jobs"]}
vols = {v["name"]: v for v in f["volumes"]}
assert sorted(vols) == ["seqwrite-direct", "seqwrite-fsync"], sorted(vols)
d = vols["seqwrite-direct"]
assert d["source"] == "probe-file" and d["measured_by"] == "fio", d
assert d["drain_source"] == "probe-drain" and d["drain_bytes_per_s"] == bw["seqwrite-direct"], d
assert all(p["seconds"] > 0 for p in f["predictions"]), f["predictions"]
PY
check "predict --probe says the page cache's speed is left out" \
    grep -q "target 'cached' is not predicted: its writes were never synced" "$WORK/err"
"$CP" probe --sizes 2MB --reps 1 -q -o "$WORK/own.csv" "own=$vol"
run "$CP" predict "$WORK/runs.csv" --probe "$WORK/own.csv" --format json
expect_status 0 "predict --probe reads chokepoint's own probe"
check "its volume is measured by chokepoint" python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["volumes"]
assert [(x["name"], x["measured_by"]) for x in v] == [("own", "chokepoint")], v' "$WORK/out"
{ head -1 "$WORK/probe.csv"; grep "^cached," "$WORK/probe.csv"; } > "$WORK/cached.csv"
run "$CP" predict "$WORK/runs.csv" --probe "$WORK/cached.csv"
expect_status 2 "predict --probe of page-cache speeds only"
check "it says there is no synced write" grep -q "cached.csv: no synced write row" "$WORK/err"

# Refusals: one line naming the file and what is missing, exit 2, nothing written.
refused() { # DESCRIPTION REGEX CMD...
    local what=$1 regex=$2
    shift 2
    run "$@"
    expect_status 2 "$what"
    expect_one_line_error "$regex" "$what: one line"
    check "$what: nothing written" test ! -e "$WORK/refused.csv"
    check "$what: no temporary file" no_temp_files "$WORK"
}
echo "not json at all" > "$WORK/text.json"
refused "a file that is not JSON" "text.json: not JSON" \
    "$CP" import fio "$WORK/text.json" -o "$WORK/refused.csv"
refused "hyperfine's export given as fio's" "hf.json: not fio's JSON output" \
    "$CP" import fio "$WORK/hf.json" -o "$WORK/refused.csv"
refused "fio's output given as hyperfine's" "fio.json: not hyperfine's JSON export" \
    "$CP" import hyperfine "$WORK/fio.json" --input-size 1M -o "$WORK/refused.csv"
hyperfine -N --runs 2 "zstd -q -f $WORK/in -o $WORK/out.zst" --export-json "$WORK/nothreads.json" >/dev/null
refused "a hyperfine export without a threads parameter" "nothreads.json: result 1 .* has no threads parameter" \
    "$CP" import hyperfine "$WORK/nothreads.json" --input-size 1M -o "$WORK/refused.csv"
python3 - "$WORK/fio.json" "$WORK/nobw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][1]["write"]["bw_bytes"] = 0
json.dump(d, open(sys.argv[2], "w"))
PY
refused "a fio job without bandwidth" "nobw.json: job 'seqwrite-fsync' has no write bandwidth" \
    "$CP" import fio "$WORK/nobw.json" -o "$WORK/refused.csv"
fio --name=rnd --directory="$vol" --rw=randwrite --bs=4k --size=1M --output-format=json \
    --output="$WORK/rand.json" >/dev/null
refused "a random fio job" "rand.json: job 'rnd' is not sequential \(rw=randwrite\)" \
    "$CP" import fio "$WORK/rand.json" -o "$WORK/refused.csv"
refused "a size that does not parse" "--input-size: bad size '4 MB'" \
    "$CP" import hyperfine "$WORK/hf.json" --input-size "4 MB" -o "$WORK/refused.csv"
refused "an existing output" "probe.csv" \
    "$CP" import fio "$WORK/fio.json" -o "$WORK/probe.csv"
# meta.json beside an imported runs table: history lists it among studies, under the
# host and start time given, named as hyperfine's, its rates the input size over
# hyperfine's own median time.
mkdir -p "$WORK/hist/hf1" "$WORK/hist/hf2" "$WORK/hist/kept" "$WORK/hist/bad"
run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --target mem \
    --host lab-box --started 2026-11-02T09:30:00+0100 -o "$WORK/hist/hf1/runs.csv"
expect_status 0 "import hyperfine with --host and --started"
check "it says where meta.json went and what it records" \
    grep -q "hf1/meta.json written: host lab-box, started 2026-11-02T09:30:00+0100 (--started)" "$WORK/err"
run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --target mem \
    -o "$WORK/hist/hf2/runs.csv"
expect_status 0 "import hyperfine without --host"
check "without --host the host is 'unknown', the time the file's mtime" \
    python3 - "$WORK/hf.json" "$WORK/hist/hf2/meta.json" <<'PY'
import json, os, sys, time
m = json.load(open(sys.argv[2]))
assert m["host"] == {"hostname": "unknown"} and m["import"]["host_given"] is False, m
assert m["started"] == time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(os.stat(sys.argv[1]).st_mtime)), m
assert m["started_from"] == "file mtime" and m["source"] == "hyperfine", m
PY
run "$CP" history "$WORK/hist"
expect_status 0 "history of imported studies"
check "history text: the host given, the time given, the source" \
    grep -q "^Host lab-box: 1 study" "$WORK/out"
check "history text: the study line names hyperfine" \
    grep -q "2026-11-02T09:30:00+0100  $WORK/hist/hf1 (complete), imported from hyperfine" "$WORK/out"
check "history text: the import without --host under 'unknown'" grep -q "^Host unknown: 1 study" "$WORK/out"
run "$CP" history "$WORK/hist" --format json
check "history json: host, time, source, and each rate 4000000 B over hyperfine's median" \
    python3 - "$WORK/out" "$WORK/hf.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
hosts = {x["host"]: x for x in h["hosts"]}
assert sorted(hosts) == ["lab-box", "unknown"], sorted(hosts)
box = hosts["lab-box"]
st, = box["studies"]
assert st["started"] == "2026-11-02T09:30:00+0100" and st["source"] == "hyperfine", st
assert st["started_unix"] == 1793608200, st
assert st["status"] == "complete", st
median = {int(r["parameters"]["threads"]): r["median"] for r in json.load(open(sys.argv[2]))["results"]}
got = {l["threads"]: l["points"][0]["rate_bytes_per_s"] for l in box["series"]}
assert sorted(got) == sorted(median), (got, median)
for t, m in median.items():
    # runs.csv keeps seconds to the microsecond: the rate is within that of 4000000 / median.
    assert abs(got[t] / (4000000 / m) - 1) <= 0.6e-6 / m + 1e-9, (t, got[t], 4000000 / m)
PY

# compare and plot read the import's meta.json for what it is: a host and a time, no
# machine to tell apart.
run "$CP" compare "$WORK/hist/hf1" "$WORK/hist/hf2"
expect_status 0 "compare two imports with their meta.json"
check "compare says an import records no machine, not that the machines are the same" \
    grep -q "B: it is imported: its meta.json records no machine" "$WORK/out"
cp -r "$WORK/hist/hf1" "$WORK/plotted"
run "$CP" plot "$WORK/plotted" --format svg
expect_status 0 "plot a directory of an import with its meta.json"
check "report.md says where the figures came from" \
    grep -q "Imported: runs.csv from hyperfine's .*hf.json. by .chokepoint import." "$WORK/plotted/report.md"
check "report.md names the host and time given" \
    grep -q "Host: lab-box; started 2026-11-02T09:30:00+0100 (--started)" "$WORK/plotted/report.md"

# A meta.json already there stays: a study's own is never replaced, even with --force;
# an import's own is replaced only by --force for the same table.
printf '{"host": {"hostname": "mine"}, "started": "2026-01-01T00:00:00Z", "status": "complete"}\n' \
    > "$WORK/hist/kept/meta.json"
cp "$WORK/hist/kept/meta.json" "$WORK/kept-meta.json"
run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --host other \
    -o "$WORK/hist/kept/runs.csv"
expect_status 0 "import beside an existing meta.json"
check "the existing meta.json is not clobbered" cmp -s "$WORK/kept-meta.json" "$WORK/hist/kept/meta.json"
check "it says --host was not recorded" grep -q "kept/meta.json exists and is left as it is" "$WORK/err"
run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --force \
    -o "$WORK/hist/kept/runs.csv"
check "--force leaves a meta.json the import did not write" \
    cmp -s "$WORK/kept-meta.json" "$WORK/hist/kept/meta.json"
run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 --force --host again \
    -o "$WORK/hist/hf2/runs.csv"
check "--force replaces an import's own meta.json of that table" \
    test "$(json_get "$WORK/hist/hf2/meta.json" 'm["host"]["hostname"]')" = again

# A bad --started or --host: one line naming the option, exit 2, neither file written.
for bad in "--started 2026-13-02T09:30:00" "--started yesterday" "--host="; do
    run "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 $bad -o "$WORK/hist/bad/runs.csv"
    expect_status 2 "import with $bad"
    expect_one_line_error "${bad%%[ =]*}: " "import with $bad: one line naming the option"
    check "import with $bad: nothing written" test -z "$(ls -A "$WORK/hist/bad")"
done
(cd "$WORK/hist/bad" && "$CP" import hyperfine "$WORK/hf.json" --input-size 4000000 -o - >/dev/null 2>&1)
check "a table written to stdout (-o -) leaves no meta.json" test -z "$(ls -A "$WORK/hist/bad")"
finish
