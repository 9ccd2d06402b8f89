#!/usr/bin/env bash
# chokepoint history: a ROOT of three results directories made by hand (the host reference
# table with repetitions, meta.json with the host and start time; the latest 10% slower)
# judged slower with --fail-on-regression exiting 1, a directory that cannot be read
# skipped with a warning, an empty ROOT, usage errors, the JSON shape, Markdown and plots.
. "$(dirname "$0")/lib.sh"
REF=$SRC_DIR/fixtures/reference
need_python3 || { finish; exit 1; }

# --- usage errors: exit 2, one line naming the argument ------------------------------------
run "$CP" history --help
expect_status 0 "--help"
check "help names the command" grep -q '^usage: chokepoint history ROOT' "$WORK/out"
run "$CP" history
expect_status 2 "no ROOT"
expect_one_line_error "history needs a ROOT directory" "missing ROOT named"
run "$CP" history "$WORK" "$WORK"
expect_status 2 "two ROOTs"
expect_one_line_error "history takes one ROOT" "second ROOT refused"
run "$CP" history "$WORK/missing"
expect_status 2 "missing ROOT"
expect_one_line_error "missing: not a directory of results" "missing ROOT named"
run "$CP" history "$REF/compare_host.csv"
expect_status 2 "a file as ROOT"
expect_one_line_error "compare_host.csv: not a directory" "file ROOT refused"
run "$CP" history "$WORK" --threshold abc
expect_status 2 "bad --threshold"
expect_one_line_error "bad --threshold 'abc'" "bad threshold named"
run "$CP" history "$WORK" --fail-on-regression 150
expect_status 2 "bad --fail-on-regression"
expect_one_line_error "bad --fail-on-regression '150'" "bad limit named"
run "$CP" history "$WORK" --format xml
expect_status 2 "bad --format"
expect_one_line_error "--format 'xml'" "bad format named"
run "$CP" history "$WORK" --force
expect_status 2 "--force without -o"
expect_one_line_error "--force replaces an -o FILE" "--force alone refused"
run "$CP" history "$WORK" --bogus
expect_status 2 "unknown option"
expect_one_line_error "unknown option '--bogus'" "unknown option named"

# --- an empty ROOT ------------------------------------------------------------------------
mkdir -p "$WORK/empty/not-a-study"
run "$CP" history "$WORK/empty"
expect_status 2 "empty ROOT"
expect_one_line_error "empty: no results directories there" "empty ROOT: one clear line"

# --- three studies of one host: the latest 10% slower -------------------------------------
# The host reference table, three repetitions per thread count (noise within 0.6%); the
# third study's runs take 1/0.9 as long. Start times out of name order, one in another zone.
ROOT=$WORK/root
python3 - "$REF/compare_host.csv" "$ROOT" <<'PY'
import csv, json, os, sys
rows = list(csv.DictReader(open(sys.argv[1])))
studies = [("b-study", "2026-01-01T10:00:00+0000", 1.0),
           ("a-study", "2026-02-01T10:00:00+0000", 1.0),
           ("c-study", "2026-03-01T11:00:00+0100", 1 / 0.9)]
for name, started, slow in studies:
    d = os.path.join(sys.argv[2], name)
    os.makedirs(d)
    with open(os.path.join(d, "runs.csv"), "w") as f:
        f.write("target,codec,threads,seconds,input_bytes\n")
        for r in rows:
            for noise in (1.0, 1.006, 0.995):
                f.write("%s,%s,%s,%.6f,%s\n" % (r["target"], r["codec"], r["threads"],
                        float(r["seconds"]) * slow * noise, r["input_bytes"]))
    json.dump({"started": started, "status": "complete",
               "host": {"hostname": "lab1", "cpu_model": "hand-made"}},
              open(os.path.join(d, "meta.json"), "w"), indent=2)
PY
# Unreadable: a meta.json that is not JSON, and (when not root) a directory without access.
mkdir -p "$ROOT/broken" "$ROOT/locked/inner"
echo '{"started": ' > "$ROOT/broken/meta.json"
cp "$ROOT/a-study/runs.csv" "$ROOT/broken/"
chmod 000 "$ROOT/locked"

# As an ordinary user, so the locked directory is unreadable even when the suite is root.
reader_uid=$(id -u)
if is_root && command -v setpriv > /dev/null; then reader_uid=65534; fi
[ "$reader_uid" = 0 ] && skip_check "a directory without access: root without setpriv reads it"
run unprivileged "$CP" history "$ROOT" --format json
expect_status 0 "history of three studies"
cp "$WORK/out" "$WORK/history.json"
check "warning names the broken directory and why" grep -q "skipped .*broken: meta.json" "$WORK/err"
check "history JSON: hosts, order, rates, latest judged slower" python3 - "$WORK/history.json" "$ROOT" "$reader_uid" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); root = sys.argv[2]
assert set(d) >= {"root", "studies", "skipped", "threshold", "fail_on_regression",
                  "regressions", "hosts"}, d.keys()
assert d["studies"] == 3 and d["regressions"] == 0 and d["fail_on_regression"] is None
skipped = {s["path"]: s["reason"] for s in d["skipped"]}
assert root + "/broken" in skipped, skipped
if sys.argv[3] != "0":
    assert root + "/locked" in skipped, skipped
h, = d["hosts"]
assert h["host"] == "lab1"
assert [s["path"] for s in h["studies"]] == [root + "/b-study", root + "/a-study",
                                            root + "/c-study"], h["studies"]
assert h["studies"][2]["started_unix"] - h["studies"][1]["started_unix"] == 28 * 86400
assert [(s["target"], s["codec"], s["threads"]) for s in h["series"]] == \
    [("host-ssd", "zstd:3", t) for t in (1, 2, 4, 8)]
for s in h["series"]:
    r = [p["rate_bytes_per_s"] for p in s["points"]]
    assert len(r) == 3 and abs(r[0] / r[1] - 1) < 1e-9 and abs(r[2] / r[1] - 0.9) < 1e-6, r
    assert all(p["runs"] == 3 for p in s["points"])
# T=1: 1e10 bytes over the median 49.89 s.
assert abs(h["series"][0]["points"][0]["rate_bytes_per_s"] - 1e10 / 49.89) < 1
L = h["latest"]
assert L["studies"] == [root + "/a-study", root + "/c-study"], L["studies"]
p, = L["pairs"]
assert len(p["points"]) == 4
for x in p["points"]:
    assert x["change"] == "slower" and x["basis"] == "ci", x
    assert abs(x["rate_ratio"] - 0.9) < 1e-6 and x["ci_high"] < 0.98, x
PY

run "$CP" history "$ROOT" --fail-on-regression 5
expect_status 1 "10% slower than the one before beyond a 5% limit: exit 1"
check "the regression is counted on stderr, the worst named with its thread count and ratio" grep -Eq "4 points of the latest studies are slower than the regression limit of 5%; the worst: host lab1: host-ssd \(zstd:3\) at [1248] threads?, B/A 0\.900 \(" "$WORK/err"
check "text names the comparison and the call" grep -q "slower (ci) REGRESSION" "$WORK/out"
check "text table of rates by study" grep -Eq '^  host-ssd \(zstd:3\) +1 +200\.4 +200\.4 +180\.4$' "$WORK/out"
run "$CP" history "$ROOT" --fail-on-regression 15
expect_status 0 "within a 15% limit: exit 0"

# Only the broken directory left: every directory skipped is a clear error, exit 2.
mkdir -p "$WORK/allbad/x"
echo 'garbage' > "$WORK/allbad/x/meta.json"
: > "$WORK/allbad/x/runs.csv"
run "$CP" history "$WORK/allbad"
expect_status 2 "nothing readable"
check "says no readable results directory" grep -q "no readable results directory (1 skipped" "$WORK/err"

# A results directory without meta.json is skipped, its name says why; the host of a
# meta.json without one comes from the STAMP-HOST directory name.
mkdir -p "$WORK/names/nometa" "$WORK/names/20260105-120000-box7"
cp "$ROOT/a-study/runs.csv" "$WORK/names/nometa/"
cp "$ROOT/a-study/runs.csv" "$WORK/names/20260105-120000-box7/"
echo '{"started": "2026-01-05T12:00:00+0000"}' > "$WORK/names/20260105-120000-box7/meta.json"
run "$CP" history "$WORK/names" --format json
expect_status 0 "a host from the directory name"
check "host from the name, nometa skipped" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [h["host"] for h in d["hosts"]] == ["box7"], d["hosts"]
assert d["hosts"][0]["latest"] is None and "one study" in d["hosts"][0]["note"]
assert any(s["path"].endswith("/nometa") and "no meta.json" in s["reason"] for s in d["skipped"])
' "$WORK/out"

# --- markdown, -o, plots ----------------------------------------------------------------
run "$CP" history "$ROOT" --format markdown -o "$WORK/h.md"
expect_status 0 "markdown to -o"
check "markdown rate table" grep -q '^| series | threads | #1 | #2 | #3 |' "$WORK/h.md"
check "markdown latest section" grep -q '^### Latest (#3, B) against the one before (#2, A)' "$WORK/h.md"
run "$CP" history "$ROOT" -o "$WORK/h.md"
expect_status 2 "-o onto an existing file without --force"
if command -v "${CHOKEPOINT_GNUPLOT:-gnuplot}" >/dev/null; then
    run "$CP" history "$ROOT" --plots "$WORK/plots" --plot-format both -q
    expect_status 0 "--plots"
    check "history_rate.png written" test -s "$WORK/plots/lab1/history_rate.png"
    check "history_rate.svg written" test -s "$WORK/plots/lab1/history_rate.svg"
    check "plot in history.md" grep -qF "(lab1/history_rate.png)" "$WORK/plots/history.md"
    check "rate data: one block per target, codec and T" test "$(grep -c '^# index' "$WORK/plots/lab1/history-data/rates.dat")" -eq 4
    check "nothing temporary left" no_temp_files "$WORK/plots"
else
    skip_check "history --plots: no ${CHOKEPOINT_GNUPLOT:-gnuplot} (scripts/setup.sh --with-tests installs it): the PNG and SVG figures are not checked"
fi
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" history "$ROOT" --plots "$WORK/noplot"
expect_status 0 "--plots without gnuplot still succeeds"
check "history.md and data written without gnuplot" test -s "$WORK/noplot/history.md" -a -s "$WORK/noplot/lab1/history-data/rates.dat"
check "notice names gnuplot" grep -q "gnuplot not found" "$WORK/err"

# --- two hosts whose names differ only in a replaced character: a directory each ---------
# "a b" and "a_b" both became DIR/a_b: without --force "output exists", with it the second
# host's figures replaced the first's and both headings linked the same image.
for h in "a b" a_b; do
    mkdir -p "$WORK/twins/s-$h"
    cp "$ROOT/a-study/runs.csv" "$WORK/twins/s-$h/"
    printf '{"started": "2026-01-01T10:00:00+0000", "status": "complete", "host": {"hostname": "%s"}}\n' \
        "$h" > "$WORK/twins/s-$h/meta.json"
done
# "a b" is named a_b and the low 32 bits of the XXH3-64 of "a b" (xxhsum -H3: 8044f8a624582c4c).
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" history "$WORK/twins" --plots "$WORK/twins-plots"
expect_status 0 "history --plots of hosts 'a b' and 'a_b'"
check "host 'a_b' keeps its name as its directory" test -s "$WORK/twins-plots/a_b/history-data/rates.dat"
check "host 'a b' has a directory of its own" test -s "$WORK/twins-plots/a_b-24582c4c/history-data/rates.dat"
check "each host's data names its own host" \
    grep -q "^host = 'a b'" "$WORK/twins-plots/a_b-24582c4c/history-data/vars.gp"
if command -v "${CHOKEPOINT_GNUPLOT:-gnuplot}" >/dev/null; then
    run "$CP" history "$WORK/twins" --plots "$WORK/twins-drawn" -q
    expect_status 0 "history --plots of hosts 'a b' and 'a_b' drawn"
    check "history.md links each host's own figure" \
        python3 - "$WORK/twins-drawn/history.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
links = {}
for part in re.split(r"^## ", text, flags=re.M)[1:]:
    host = re.sub(r"\\(.)", r"\1", part.split("\n", 1)[0])  # Markdown's escapes read back
    links[host] = re.findall(r"\]\(([^)]*history_rate\.png)\)", part)
assert links == {"a b": ["a_b-24582c4c/history_rate.png"], "a_b": ["a_b/history_rate.png"]}, links
PY
else
    skip_check "history --plots of two like-named hosts: no ${CHOKEPOINT_GNUPLOT:-gnuplot}: the links of history.md are not checked"
fi

# --- a study whose process died reads "abandoned", as analyze and plot call it ----------
python3 - "$ROOT/b-study/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["status"] = "running"; m["stage"] = "sweep"
json.dump(m, open(sys.argv[1], "w"))
PY
run "$CP" history "$ROOT"
expect_status 0 "history with a study recorded as running and no process"
check "a dead 'running' study is shown as abandoned" grep -q "b-study (abandoned)" "$WORK/out"

chmod 700 "$ROOT/locked"
finish
