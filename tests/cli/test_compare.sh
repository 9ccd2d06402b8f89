#!/usr/bin/env bash
# chokepoint compare: the host and VM reference tables (no repetitions: threshold calls),
# results directories with repetitions (a synthetic 8% regression, a study against itself),
# partial overlap, nothing in common, usage errors, the JSON shape, and the plots.
. "$(dirname "$0")/lib.sh"
REF=$SRC_DIR/fixtures/reference
need_python3 || { finish; exit 1; }

# --- usage errors: exit 2, one line naming the argument ------------------------------------
run "$CP" compare --help
expect_status 0 "--help"
check "help names the command" grep -q '^usage: chokepoint compare A B' "$WORK/out"
run "$CP" compare "$REF/compare_host.csv"
expect_status 2 "one study"
expect_one_line_error "compare needs two studies" "a single study refused"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --threshold abc
expect_status 2 "bad --threshold"
expect_one_line_error "bad --threshold 'abc'" "bad threshold named"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --fail-on-regression 150
expect_status 2 "bad --fail-on-regression"
expect_one_line_error "bad --fail-on-regression '150'" "bad limit named"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --format xml
expect_status 2 "bad --format"
expect_one_line_error "--format 'xml'" "bad format named"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --pair nocolon
expect_status 2 "bad --pair"
expect_one_line_error "bad --pair 'nocolon'" "bad pair named"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --pair host-ssd:nvme
expect_status 2 "--pair with an unknown target"
expect_one_line_error "no target 'nvme' in .*compare_vm.csv" "unknown target named"
run "$CP" compare "$REF/compare_host.csv" "$WORK/missing"
expect_status 2 "missing study"
expect_one_line_error "missing: not a results directory or runs table" "missing study named"
mkdir -p "$WORK/empty"
run "$CP" compare "$REF/compare_host.csv" "$WORK/empty"
expect_status 2 "directory without runs.csv"
expect_one_line_error "empty/runs.csv: no runs table there" "missing runs.csv named"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --bogus
expect_status 2 "unknown option"
expect_one_line_error "unknown option '--bogus'" "unknown option named"

# --- host against VM: one series a side pairs by itself; no repetitions -------------------
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --format json
expect_status 0 "host against VM"
cp "$WORK/out" "$WORK/hostvm.json"
check "host/VM JSON: shape, ratios, slope ratio and exponents" python3 - "$WORK/hostvm.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) >= {"studies", "threshold", "fail_on_regression", "regressions", "pairs"}, d.keys()
assert d["threshold"] == 0.02 and d["fail_on_regression"] is None
p, = d["pairs"]
assert p["a"]["target"] == "host-ssd" and p["b"]["target"] == "vm-disk", p
pts = {x["threads"]: x for x in p["points"]}
assert sorted(pts) == [1, 2, 4, 8]
for x in p["points"]:
    assert set(x) >= {"threads", "rate_ratio", "ci_low", "ci_high", "change", "basis"}
    assert x["ci_low"] is None and x["basis"] == "threshold" and x["change"] == "slower", x
# Independent values: (49.89/2^0.912)/(54.74/2^0.854), and the least-squares slopes of
# rate on T over 1, 2, 4, 8 computed here.
assert abs(pts[2]["rate_ratio"] - (49.89 / 2**0.912) / (54.74 / 2**0.854)) < 1e-5
T = [1, 2, 4, 8]
def slope(a, b):
    y = [1e10 / (a / t**b) for t in T]; mx = sum(T) / 4; my = sum(y) / 4
    return sum((t - mx) * (v - my) for t, v in zip(T, y)) / sum((t - mx)**2 for t in T)
assert abs(p["slope_ratio"] - slope(54.74, 0.854) / slope(49.89, 0.912)) < 1e-4, p["slope_ratio"]
assert abs(p["exponent_a"] - 0.912) < 1e-5 and abs(p["exponent_b"] - 0.854) < 1e-5
PY
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --fail-on-regression 5
expect_status 1 "VM slower than the host by more than 5%: exit 1"
expect_one_line_error "4 points are slower than the regression limit of 5%; the worst: host-ssd \\(zstd:3\\) -> vm-disk \\(zstd:3\\) at 8 threads, B/A 0\.808 \\(1078\.8 against 1335\.4 MB/s\\)$" \
    "regressions counted, the worst named with its thread count and ratio"
check "text output still written" grep -q "slower (threshold) REGRESSION" "$WORK/out"
run "$CP" compare "$REF/compare_host.csv" "$REF/compare_vm.csv" --fail-on-regression 25
expect_status 0 "within a 25% limit: exit 0"

# --- results directories with repetitions ------------------------------------------------
# B: every run of the disks 8% longer, mem unchanged; C: A's own runs in another order.
mkdir -p "$WORK/A" "$WORK/B" "$WORK/C"
cp "$REF/runs.csv" "$REF/probe.csv" "$WORK/A/"
cp "$REF/probe.csv" "$WORK/B/"
python3 - "$REF/runs.csv" "$WORK/B/runs.csv" "$WORK/C/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
fields = list(rows[0].keys())
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields); w.writeheader()
    for r in rows:
        if r["target"] != "mem" and r["seconds"]:
            r = dict(r, seconds="%.4f" % (float(r["seconds"]) * 1.08))
        w.writerow(r)
with open(sys.argv[3], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields); w.writeheader()
    for r in reversed(rows):
        w.writerow(r)
PY
run "$CP" compare "$WORK/A" "$WORK/B" "$WORK/C" --format json --fail-on-regression 5 -o "$WORK/abc.json"
expect_status 1 "8% slower disks with repetitions: exit 1"
check "JSON file written despite the regression" test -s "$WORK/abc.json"
check "A/B/C calls: disks slower on the interval, mem and C the same" python3 - "$WORK/abc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["studies"]) == 3
seen = set()
for p in d["pairs"]:
    study, tgt = p["b"]["study"], p["b"]["target"]
    seen.add((study.rsplit("/", 1)[1], tgt))
    for x in p["points"]:
        assert x["basis"] == "ci" and x["ci_low"] <= x["rate_ratio"] <= x["ci_high"], x
        if study.endswith("/B") and tgt != "mem":
            assert x["change"] == "slower" and x["ci_high"] < 0.98, x
            assert abs(x["rate_ratio"] - 1 / 1.08) < 0.002, x
        else:
            assert x["change"] == "same" and abs(x["rate_ratio"] - 1) < 1e-9, x
assert ("B", "usb") in seen and ("C", "mem") in seen and len(seen) == 6, seen
assert d["regressions"] > 0
PY
run "$CP" compare "$WORK/A" "$WORK/C" --fail-on-regression 1
expect_status 0 "a study against itself passes even a 1% limit"

# --- partial overlap, nothing in common ------------------------------------------------
printf 'target,threads,seconds,input_bytes\nlaptop-nvme,2,20,2000000000\nlaptop-nvme,16,4,2000000000\n' > "$WORK/partial.csv"
run "$CP" compare "$REF/foreign_runs.csv" "$WORK/partial.csv" --format json
expect_status 0 "partial overlap"
check "only T=2 compared" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p, = d["pairs"]
assert [x["threads"] for x in p["points"]] == [2], p["points"]
assert p["a"]["target"] == "laptop-nvme" and p["a"]["codec"] is None
' "$WORK/out"
printf 'target,threads,seconds,input_bytes\nnas,1,50,2000000000\nsan,1,40,2000000000\n' > "$WORK/other.csv"
run "$CP" compare "$REF/foreign_runs.csv" "$WORK/other.csv"
expect_status 2 "nothing in common"
expect_one_line_error "have nothing in common to compare .*--pair NAME_A:NAME_B" "nothing-in-common error"
run "$CP" compare "$REF/foreign_runs.csv" "$WORK/other.csv" --pair usb-stick:nas --format json
expect_status 0 "--pair makes the pair"
check "--pair: usb-stick against nas at T=1" python3 -c '
import json, sys
p, = json.load(open(sys.argv[1]))["pairs"]
assert (p["a"]["target"], p["b"]["target"]) == ("usb-stick", "nas")
assert abs(p["points"][0]["rate_ratio"] - 44.0 / 50.0) < 1e-9
' "$WORK/out"

# --- environments from meta.json -------------------------------------------------------------
run "$CP" compare "$WORK/A" "$WORK/B"
check "without meta.json the environments are said to be unknown" \
    grep -q "B: it has no meta.json\|B: A or it has no meta.json" "$WORK/out"
for side in A B; do
    bg=2400000000; sync=fsync
    [ "$side" = B ] && { bg=33554432; sync=direct; }
    cat > "$WORK/$side/meta.json" <<JSON
{"chokepoint_version": "0.1.0", "sync": "$sync", "engine": "blocks",
 "host": {"cpu_model": "AMD EPYC", "online_cpus": 8, "usable_cpus": 8, "kernel": "6.18.44",
          "writeback": {"dirty_background_bytes": $bg, "dirty_bytes": 4800000000,
                        "dirty_expire_centisecs": 3000.0}},
 "input": {"bytes": 1073741824},
 "targets": [{"name": "usb", "memory": false, "fs_type": "ext4", "mount_options": "rw,relatime",
              "device": "8:17", "mount_source": "/dev/sdb1", "rotational": true,
              "emulated_cap_bytes_per_s": null}]}
JSON
done
run "$CP" compare "$WORK/A" "$WORK/B"
expect_status 0 "compare with both environments"
check "the write-back threshold is set side by side with what it explains" \
    grep -Eq "B: dirty_background_bytes 2.4 GB -> 33.55 MB: write-back starts once this much output is dirty: of an output of 37[0-9.]+ MB, 34[0-9.]+ MB more was held by the page cache in A" "$WORK/out"
check "the sync mode is set side by side" grep -q "B: sync fsync -> direct" "$WORK/out"
check "nothing else differs" test "$(grep -c '^  B: ' "$WORK/out")" = 2
run "$CP" compare "$WORK/A" "$WORK/B" --format json
check "JSON environments list the two differences" python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["environments"]
assert len(e) == 1 and e[0]["known"] is True, e
assert [d["what"] for d in e[0]["differences"]] == ["dirty_background_bytes", "sync"], e
assert e[0]["differences"][0]["a"] == "2.4 GB" and e[0]["differences"][0]["b"] == "33.55 MB"
' "$WORK/out"
rm -f "$WORK/A/meta.json" "$WORK/B/meta.json"

# --- markdown, -o, plots ----------------------------------------------------------------
run "$CP" compare "$WORK/A" "$WORK/B" --format markdown
expect_status 0 "markdown"
check "markdown table" grep -q '^| threads | A MB/s | B MB/s' "$WORK/out"
run "$CP" compare "$WORK/A" "$WORK/B" -o "$WORK/abc.json"
expect_status 2 "-o onto an existing file without --force"
if command -v "${CHOKEPOINT_GNUPLOT:-gnuplot}" >/dev/null; then
    run "$CP" compare "$WORK/A" "$WORK/B" --plots "$WORK/plots" --plot-format both -q
    expect_status 0 "--plots"
    for name in compare_time compare_rate compare_ratio; do
        check "$name.png written" test -s "$WORK/plots/$name.png"
        check "$name.svg written" test -s "$WORK/plots/$name.svg"
        check "$name in compare.md" grep -qF "($name.png)" "$WORK/plots/compare.md"
    done
    check "ratio data: one block per pair" test "$(grep -c '^# index' "$WORK/plots/compare-data/ratio.dat")" -eq 3
    check "nothing temporary left" no_temp_files "$WORK/plots"
else
    skip_check "compare --plots: no ${CHOKEPOINT_GNUPLOT:-gnuplot} (scripts/setup.sh --with-tests installs it): the PNG and SVG figures are not checked"
fi
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" compare "$WORK/A" "$WORK/B" --plots "$WORK/noplot"
expect_status 0 "--plots without gnuplot still succeeds"
check "compare.md and data written without gnuplot" test -s "$WORK/noplot/compare.md" -a -s "$WORK/noplot/compare-data/points.dat"
check "notice names gnuplot" grep -q "gnuplot not found" "$WORK/err"

finish
