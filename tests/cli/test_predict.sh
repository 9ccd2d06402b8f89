#!/usr/bin/env bash
# chokepoint predict: help, the storage classes, usage and data errors (one line, exit 2,
# nothing written), and a round trip on a small generated study: a memory-only study,
# predictions for a probed directory, a typed speed and a class, then a later study on
# that directory checked against them.
source "$(dirname "$0")/lib.sh"
set -e

# --- help ------------------------------------------------------------------------------
run "$CP" predict --help
expect_status 0 "predict --help"
check "--help names the command's forms" grep -q "^usage: chokepoint predict RESULTS_DIR" "$WORK/out"
check "--help names --classes" grep -q "chokepoint predict --classes" "$WORK/out"
run "$CP" --help
check "the main usage lists predict" grep -Eq "^  predict +the job's time on a volume" "$WORK/out"

# --- the storage classes -----------------------------------------------------------------
run "$CP" predict --classes
expect_status 0 "predict --classes"
check "--classes says where the figures are from" grep -q "typical, from published tests" "$WORK/out"
for c in usb3-hdd-outer usb3-hdd-inner sata-ssd sata-ssd-notrim usb3.2g2-ssd tb3-ssd usb4-ssd \
         nvme-gen3 nvme-gen4 nas-1gbe nas-2.5gbe; do
    grep -Eq "^$c +[0-9]+ MB/s +[0-9]+ MB/s" "$WORK/out" || not_ok "class $c not listed"
done
check "a table a person reads: one line a class, nothing else but a heading and a pointer" \
    test "$(grep -c . "$WORK/out")" -le 17
check "no addresses on the terminal" sh -c "! grep -Eq 'https?:|www\.' '$WORK/out'"
check "it says where the sources are" grep -q 'docs/method.md, "Storage classes"' "$WORK/out"
if need_python3; then
    run "$CP" predict --classes --format json
    check "--classes JSON: eleven classes, tb3-ssd at 1200 MB/s" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["name"]: x for x in d["classes"]}
assert len(c) == 11 and c["tb3-ssd"]["write_bytes_per_s"] == 1200e6, c
assert d["label"] == "typical, from published tests"
for x in d["classes"]:
    assert x["sources"] and "http" not in x["sources"], x' "$WORK/out"
    # Every address docs/method.md cites for the classes is a publication's (a review
    # site, a vendor, a standard's body): no paste, mirror, aggregator or listicle.
    check "the classes' sources in docs/method.md are publications" python3 - \
        "$SRC_DIR/docs/method.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text[text.index("### Storage classes"):]
section = section[:section.index("\n## ")]
hosts = {"www.techpowerup.com", "www.anandtech.com", "www.tomshardware.com", "www.kitguru.net",
         "cdrlabs.com", "www.legitreviews.com", "pcper.com"}
urls = re.findall(r"https?://([^/>)\s]+)", section)
assert urls, "no addresses"
bad = sorted(set(u for u in urls if u not in hosts))
assert not bad, bad
cited = set(int(n) for n in re.findall(r"\[(\d+)\]", section))
listed = set(int(n) for n in re.findall(r"^(\d+)\. ", section, re.M))
assert cited and cited <= listed, (cited - listed)
PY
fi

# --- errors: one line, exit 2 ------------------------------------------------------------
# A study of the memory target alone, small and quick.
run "$CP" run --quick --fixture-size 8M -T 1,2 --no-probe --out "$WORK/study" mem
expect_status 0 "a memory-only study"
S=$WORK/study

run "$CP" predict "$S" --class tb3
expect_status 2 "an unknown class"
expect_one_line_error "--class 'tb3': no such storage class" "an unknown class is named"
run "$CP" predict "$S" --write 150MBs
expect_status 2 "a bad rate"
expect_one_line_error "bad rate '150MBs'" "the bad rate is quoted"
run "$CP" predict "$S" --read 100MB/s --write 150MB/s
expect_status 2 "--read before its --write"
expect_one_line_error "--read 100MB/s: it gives the read speed of the volume typed by the --write" "--read needs a --write before it"
run "$CP" predict "$WORK/no-such-study" --class sata-ssd
expect_status 2 "a missing study"
expect_one_line_error "no-such-study: not a results directory or runs table" "the missing study is named"
run "$CP" predict "$S"
expect_status 2 "no volume"
expect_one_line_error "no volume to predict" "no volume is an error"
run "$CP" predict "$S" --class sata-ssd --codec xz:6
expect_status 2 "a codec the study did not run"
expect_one_line_error "--codec xz:6: the study has no memory-target runs of it \(it has: zstd:3\)" "the codec is named"
run "$CP" predict "$S" --class sata-ssd --codec xz:6 --codec zstd:3
expect_status 2 "--codec twice: both lists are taken, none dropped"
expect_one_line_error "--codec xz:6: the study has no memory-target runs of it" "the first list is not dropped"
run "$CP" predict "$S" --class sata-ssd --codec zstd:3 --codec zstd:3
expect_status 2 "a codec given twice"
expect_one_line_error "codec 'zstd:3' is given twice" "the repeated codec is named"
run "$CP" predict "$S" --class sata-ssd -T 64
expect_status 2 "a thread count beyond reach"
expect_one_line_error "--threads 64: beyond reach" "the thread count is named"
run "$CP" predict "$S" --volume "d=$WORK/not-a-dir" --class sata-ssd
expect_status 2 "a --volume that is not a directory"
check "nothing was printed for it" test ! -s "$WORK/out"
echo keep > "$WORK/p.txt"
run "$CP" predict "$S" --class sata-ssd -o "$WORK/p.txt"
expect_status 2 "-o onto an existing file without --force"
expect_one_line_error "p.txt" "the existing file is named"
check "the existing file is untouched" grep -qx keep "$WORK/p.txt"
run "$CP" predict "$S" --class sata-ssd --force
expect_status 2 "--force without -o"

# --- typed speeds and classes, text and -o ---------------------------------------------
run "$CP" predict "$S" --write usb=20MB/s --class nvme-gen4
expect_status 0 "a typed speed and a class"
check "the first line answers" grep -Eq "^For zstd:3 at 2 threads on this machine: usb [0-9.]+ s( \(.*\))?, nvme-gen4 class [0-9.]+ s" "$WORK/out"
check "the class is labelled" grep -q "nvme-gen4 .*typical, from published tests" "$WORK/out"
check "the typed volume's assumption is said" grep -q "the stated write speed is taken as the drain rate" "$WORK/out"
check "the page cache's thresholds come from meta.json" grep -q "write-back thresholds ($S/meta.json)" "$WORK/out"
cp "$WORK/out" "$WORK/typed.txt"
run "$CP" predict "$S" --write usb=20MB/s --class nvme-gen4 -o "$WORK/p.txt" --force
expect_status 0 "-o FILE --force replaces it"
check "-o writes what stdout shows" cmp -s "$WORK/p.txt" "$WORK/typed.txt"
check "no temporary file is left beside it" no_temp_files "$WORK"
run "$CP" predict "$S/runs.csv" --write usb=20MB/s --class nvme-gen4
check "a runs.csv in a study reads its meta.json too: the same predictions" \
    diff <(grep -v '^CPU:' "$WORK/out") <(grep -v '^CPU:' "$WORK/typed.txt")

# --- the round trip: probe a directory, run on it, check ------------------------------
mkdir -p "$WORK/disk"
run "$CP" predict "$S" --volume "disk=$WORK/disk" --class usb3-hdd-inner -T 1,2,4 --format json -o "$WORK/p.json"
expect_status 0 "predict --volume probes the directory"
check "the probe's files are gone" test -z "$(ls -A "$WORK/disk")"
if need_python3; then
    check "the JSON has a prediction per volume and thread count, 4 extrapolated" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["predictions"]
assert [(x["volume"], x["threads"]) for x in p] == [(v, t) for v in ("disk", "usb3-hdd-inner") for t in (1, 2, 4)], p
for x in p:
    assert x["codec"] == "zstd:3" and x["seconds"] > 0 and x["verdict"] and x["cause"]
    assert set(x["terms"]) == {"compute", "io-cpu", "read", "write", "flush"}
    assert abs(sum(x["terms"].values()) - x["seconds"]) < 1e-6 * x["seconds"]
    assert x["extrapolated"] == (x["threads"] == 4)
assert p[0]["source"] == "probe" and p[3]["source"] == "class"
v = d["volumes"][0]
assert v["drain_bytes_per_s"] > 0 and v["probe_reps"] == 3 and v["dir"].endswith("/disk"), v
assert d["first_line"].startswith("For zstd:3 at 4 threads (CPU time extrapolated) on this machine: disk ")
assert d["page_cache"]["dirty_background_bytes"] is not None' "$WORK/p.json"
fi
run "$CP" run --quick --fixture-size 8M -T 1,2 --no-probe --out "$WORK/later" mem "ondisk=$WORK/disk"
expect_status 0 "a later study on the probed directory"
run "$CP" predict "$S" --volume "disk=$WORK/disk" --check "$WORK/later" --format json -o "$WORK/c.json"
expect_status 0 "predict --check"
if need_python3; then
    check "the check pairs both thread counts by directory, with finite errors" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["check"]
pts = c["points"]
assert [(x["volume"], x["target"], x["threads"]) for x in pts] == [("disk", "ondisk", 1), ("disk", "ondisk", 2)], pts
for x in pts:
    assert x["measured_seconds"] > 0 and x["runs"] >= 1
    assert abs(x["error"] - (x["predicted_seconds"] - x["measured_seconds"]) / x["measured_seconds"]) < 1e-9
assert c["max_abs_error"] == max(abs(x["error"]) for x in pts)
assert c["unmatched_volumes"] == 0' "$WORK/c.json"
    # The check's own figures, from the two studies' runs.csv: its measured time is the
    # later study's median on the disk, and its error is the prediction's against it,
    # bounded: within a factor of three either way. The runs are 0.05 s on a shared local
    # disk (predictions twice the time were seen there), so no tighter claim holds here;
    # this holds --check to the runs, and test_truth_predict holds the model to the lab.
    check "--check measures the later runs and its error is within a factor of three" python3 -c '
import csv, json, statistics, sys
c = json.load(open(sys.argv[1]))["check"]
def med(path, target, t):
    s = [float(r["seconds"]) for r in csv.DictReader(open(path))
         if r["target"] == target and int(r["threads"]) == t and r["valid"] == "1"]
    return statistics.median(s)
for x in c["points"]:
    t = x["threads"]
    measured = med(sys.argv[3] + "/runs.csv", "ondisk", t)
    moved = abs(med(sys.argv[3] + "/runs.csv", "mem", t) / med(sys.argv[2] + "/runs.csv", "mem", t) - 1)
    predicted = x["predicted_seconds"]
    error = (predicted - measured) / measured
    assert abs(x["measured_seconds"] - measured) <= 1e-6 * measured, (x, measured)
    assert abs(x["error"] - error) < 1e-6, (x, error)
    assert measured / 3 <= predicted <= 3 * measured, f"T={t}: predicted {predicted} s, measured {measured} s, memory moved {moved:.1%}"
' "$WORK/c.json" "$S" "$WORK/later"
fi
run "$CP" predict "$S" --write other=20MB/s --check "$WORK/later"
expect_status 2 "--check with nothing in common"
expect_one_line_error "--check .*ran none of the predicted points" "the check says why"

# --- the memory baseline's spread ------------------------------------------------------
# Memory's two-thread runs spread 5.5-7.0 s (more than the 10% tolerance), its one-thread
# runs 9.8-10.2 s (less): the answer names the first, with its runs' range and median.
mkdir -p "$WORK/spread"
printf '%s\n' "target,codec,threads,seconds,input_bytes,output_bytes" \
    "mem,zstd:3,1,10,1000000000,400000000" "mem,zstd:3,1,9.8,1000000000,400000000" \
    "mem,zstd:3,1,10.2,1000000000,400000000" "mem,zstd:3,2,5.5,1000000000,400000000" \
    "mem,zstd:3,2,7.0,1000000000,400000000" "mem,zstd:3,2,6.0,1000000000,400000000" \
    > "$WORK/spread/runs.csv"
run "$CP" predict "$WORK/spread/runs.csv" --write usb=100MB/s
expect_status 0 "predict from a study with a noisy memory point"
check "a noisy memory point is named with its runs' range and median" \
    grep -q "^CPU spread: at 2 threads its runs took 5.50-7.00 s, more than the 10% tolerance apart: .* from their median, 6.00 s" "$WORK/out"
check "a steady one is not" sh -c "! grep -q 'CPU spread: at 1 thread' '$WORK/out'"

finish
