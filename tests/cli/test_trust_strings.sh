#!/usr/bin/env bash
# Strings and numbers read from other people's files: a meta.json host that would run a
# gnuplot command, or send a terminal an escape sequence, is refused where it is read (one
# line naming the file and the field) and reaches no script, terminal or report; names
# keep their Markdown table cell and put no raw HTML into report.md; a number is kept or
# refused, never cut (fio's bw_bytes 1e300) nor taken when it is absurd (a run of 1e-320 s).
. "$(dirname "$0")/lib.sh"
REF=$SRC_DIR/fixtures/reference
need_python3 || { finish; exit 1; }
ESC=$(printf '\033')

# study DIR META_JSON [RUNS]: a results directory: meta.json and a reference runs table
# (the host's, or RUNS).
study() {
    mkdir -p "$1"
    cp "${3:-$REF/compare_host.csv}" "$1/runs.csv"
    printf '%s\n' "$2" > "$1/meta.json"
}

# no_esc FILE...: true when none of the files holds an ESC byte.
no_esc() {
    local f
    for f in "$@"; do
        if grep -q "$ESC" "$f"; then echo "ESC byte in $f"; return 1; fi
    done
}

# --- a host that would run a gnuplot command -----------------------------------------------
# gnuplot closes an open quote at a line's end and runs the next line: the host reached
# vars.gp and `system("touch pwned")` ran (exit 0) before the host was checked at load.
EVIL='{"started": "2026-01-01T10:00:00+0000", "status": "complete",
       "host": {"hostname": "evil\nsystem(\"touch pwned\")\n#"}}'
study "$WORK/evil/s1" "$EVIL"
mkdir -p "$WORK/cwd"
if command -v gnuplot >/dev/null; then
    run env -C "$WORK/cwd" -u CHOKEPOINT_GNUPLOT "$CP" history "$WORK/evil" --plots "$WORK/plots"
else
    skip_check "no gnuplot: the host is checked, but no gnuplot would have run it"
    run env -C "$WORK/cwd" "$CP" history "$WORK/evil" --plots "$WORK/plots"
fi
check "history --plots: no file 'pwned' made anywhere" \
    test -z "$(find "$WORK" -name pwned 2>/dev/null)"
expect_status 2 "history: its only study skipped, nothing left to show"
check "the skip names meta.json and the field host.hostname, in one line" \
    grep -Eq "^chokepoint: warning: .*evil/s1: meta.json: field 'host.hostname' holds a control character$" "$WORK/err"
check "no line of stderr begins with the injected command" \
    bash -c "! grep -q '^system' '$WORK/err'"
check "nothing written for a refused history" test ! -e "$WORK/plots/history.md"

# Beside a good study, the bad one is skipped and the good one's plots hold no control byte.
study "$WORK/evil/s0" '{"started": "2025-12-01T10:00:00+0000", "status": "complete",
                        "host": {"hostname": "lab1"}}'
run env -C "$WORK/cwd" "$CP" history "$WORK/evil" --plots "$WORK/plots"
expect_status 0 "history: the good study shown, the bad one skipped"
check "history.md lists the skip, without the host's text" \
    bash -c "grep -q 'skipped' '$WORK/plots/history.md' && ! grep -q 'touch pwned' '$WORK/plots/history.md'"
# Every line of a vars.gp is a comment, an array or one assignment of a number or a whole
# single-quoted literal: no literal spans lines, nothing else is a command.
check_vars() {
    python3 - "$1" <<'PY'
import os, re, sys
line_ok = re.compile(r"^(#.*|\s*|array \w+\[\d+\]|\w+(\[\d+\])? = ('([^'\x00-\x1f]|'')*'|[-+0-9.eE]+|NaN))$")
n = 0
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        if f.endswith(".gp"):
            n += 1
            for i, line in enumerate(open(os.path.join(d, f), encoding="utf-8").read().split("\n")):
                assert line_ok.match(line), "%s:%d: %r" % (f, i + 1, line)
assert n > 0, "no vars.gp"
PY
}
check "every vars.gp line is a comment, an array or one whole assignment" check_vars "$WORK/plots"

# A directory whose name holds a control character is skipped, its name shown with \xNN.
study "$WORK/evil/s2"$'\033]0;T\007' '{"started": "2026-02-01T10:00:00+0000",
                                     "host": {"hostname": "lab1"}}'
run env -C "$WORK/cwd" "$CP" history "$WORK/evil" --plots "$WORK/plots2"
expect_status 0 "history: a directory named with an escape sequence skipped"
check "the skip shows the name with \\xNN and says why" \
    grep -q 's2\\x1b\]0;T\\x07: the directory.s name holds a control character' "$WORK/err"
check "no ESC byte on stderr nor in history.md" no_esc "$WORK/err" "$WORK/plots2/history.md"

# --- a host that sends the terminal an escape sequence -------------------------------------
TITLE='{"started": "2026-01-01T10:00:00+0000", "status": "complete",
        "host": {"hostname": "\u001b]0;TITLE\u0007", "cpu_model": "\u001b[2J\u009b2J"}}'
study "$WORK/title/s1" "$TITLE" "$REF/runs.csv" # memory's runs too: predict can read it
run "$CP" history "$WORK/title"
expect_status 2 "history: the escape-sequence host refused"
check "no ESC byte on stdout or stderr (history)" no_esc "$WORK/out" "$WORK/err"
check "history's warning names the file and the field" \
    grep -q "title/s1: meta.json: field 'host.hostname' holds a control character" "$WORK/err"
study "$WORK/good" '{"host": {"hostname": "box"}}' "$REF/runs.csv"
run "$CP" compare "$WORK/title/s1" "$WORK/good"
expect_status 2 "compare: a study whose meta.json holds an escape sequence refused"
expect_one_line_error "title/s1/meta.json: field 'host.hostname' holds a control character" \
    "compare: one line naming the file and the field"
check "no ESC byte on stdout or stderr (compare)" no_esc "$WORK/out" "$WORK/err"
run "$CP" predict "$WORK/title/s1" --write usb=150MB/s
expect_status 2 "predict: the same meta.json refused"
expect_one_line_error "title/s1/meta.json: field 'host.hostname' holds a control character" \
    "predict: one line naming the file and the field"
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" plot -q "$WORK/title/s1"
expect_status 0 "plot: the study goes without its meta.json section"
check "no ESC byte in any file plot wrote, nor on stdout or stderr" \
    no_esc "$WORK/out" "$WORK/err" $(find "$WORK/title/s1" -type f)
# U+009B (CSI) spelt in UTF-8 is a control character too; plot makes its report without
# the section, and no output holds the byte sequence.
study "$WORK/csi" '{"host": {"hostname": "box", "cpu_model": "\u009b2J"}}'
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" plot -q "$WORK/csi"
expect_status 0 "plot: a meta.json with U+009B goes without its section"
check "plot's warning names the field host.cpu_model" \
    grep -q "csi/meta.json: field 'host.cpu_model' holds a control character" "$WORK/err"
check "report.md holds no C1 control (U+009B)" \
    bash -c "! grep -q \"\$(printf '\\302\\233')\" '$WORK/csi/report.md'"

# --- names in Markdown: a table cell kept, no raw HTML -------------------------------------
# runs.csv names `c|d\|e` and `<script>x</script>`; meta.json's host and a target's
# directory hold HTML and a pipe. '\' was not escaped: `c\|d\\|e` split its cell.
mkdir -p "$WORK/md"
python3 - "$REF/runs.csv" "$WORK/md" <<'PY'
import csv, json, sys
reader = csv.DictReader(open(sys.argv[1]))
names = {"ssd": "c|d\\|e", "usb": "<script>x</script>"}
with open(sys.argv[2] + "/runs.csv", "w", newline="") as f:
    w = csv.DictWriter(f, reader.fieldnames)
    w.writeheader()
    for r in reader:
        r["target"] = names.get(r["target"], r["target"])
        r["input_target"] = names.get(r["input_target"], r["input_target"])
        w.writerow(r)
json.dump({"host": {"hostname": "<b>h&amp;</b>", "cpu_model": "a|b", "os": "<img src=x>"},
           "targets": [{"name": "c|d\\|e", "dir": "/x|y<z>", "fs_type": "ext4"}]},
          open(sys.argv[2] + "/meta.json", "w"))
PY
cut -d, -f1 "$WORK/md/runs.csv" | sort -u > "$WORK/names"
check "the table holds both names" grep -q '<script>' "$WORK/names"
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" plot -q "$WORK/md"
expect_status 0 "plot: report.md of names with pipes, backslashes and HTML"
check "every Markdown table row of report.md has its header's cells" python3 - "$WORK/md/report.md" <<'PY'
import re, sys
# A '|' ends a cell unless an odd number of backslashes comes before it (CommonMark's
# escapes: '\\' is a backslash, '\|' a pipe).
def cells(line):
    n, run = 0, 0
    for ch in line.strip():
        if ch == "|" and run % 2 == 0:
            n += 1
        run = run + 1 if ch == "\\" else 0
    return n - 1
lines = open(sys.argv[1]).read().split("\n")
tables, width, seen = 0, None, 0
for i, line in enumerate(lines):
    if not line.startswith("|"):
        width = None
        continue
    if width is None:
        width = cells(line)
        tables += 1
        continue
    assert cells(line) == width, "line %d: %d cells, header %d: %s" % (i + 1, cells(line), width, line)
    seen += "c\\|d" in line
assert tables > 0 and seen > 0, (tables, seen)
PY
check "no raw HTML from a name or meta.json in report.md (a '<' not escaped)" \
    bash -c "! grep -Pq '(?<!\\\\)<(script|b|img)' '$WORK/md/report.md'"
check "the names are there, escaped" \
    bash -c "grep -Fq '\\<script\\>x\\</script\\>' '$WORK/md/report.md' && grep -Fq 'c\\|d\\\\\\|e' '$WORK/md/report.md'"
check "meta.json's host is escaped in 'How this was measured'" \
    grep -Fq '\<img src=x\>' "$WORK/md/report.md"

# A failed run's names reach the report's "no result" line: checked as a measured row's.
{ echo "target,codec,threads,seconds,input_bytes,error"
  echo "mem,zstd:3,1,2.0,1000000000,"
  printf 'x\033]0;T\007,zstd:3,1,2.0,1000000000,exit 1\n'; } > "$WORK/failed.csv"
run "$CP" analyze "$WORK/failed.csv"
expect_status 2 "analyze: a failed row's target with an escape sequence refused"
expect_one_line_error "failed.csv:3: column 'target': a control character in the name" \
    "analyze: one line with file:line and the column"
check "no ESC byte on stdout or stderr (analyze)" no_esc "$WORK/out" "$WORK/err"

# --- Markdown that outside text could make ----------------------------------------------
# A host that is an image, emphasis, a code span and a javascript: link reached history.md
# as it is, in its heading and a caption: only '\ | < > &' were escaped.
MDHOST='![x](http://tracker.example/p.png) *b* `c` [l](javascript:alert(1))'
MDHOST_SHOWN='\!\[x\](http://tracker.example/p.png) \*b\* \`c\` \[l\](javascript:alert(1))'
for k in 0 1; do
    mkdir -p "$WORK/mdh/s$k"
    cp "$REF/compare_host.csv" "$WORK/mdh/s$k/runs.csv"
    python3 -c 'import json, sys; json.dump({"started": "2026-01-0%sT10:00:00+0000" % sys.argv[2],
        "status": "complete", "host": {"hostname": sys.argv[1]}}, open(sys.argv[3], "w"))' \
        "$MDHOST" "$((k + 1))" "$WORK/mdh/s$k/meta.json"
done
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" history "$WORK/mdh" --plots "$WORK/mdh-out"
expect_status 0 "history --plots: a host made of Markdown"
check "history.md: no image, link, emphasis or code span from the host" \
    bash -c "! grep -Fe '![x](' -e '[l](' -e '*b*' -e ' \`c\` ' '$WORK/mdh-out/history.md'"
check "history.md: the host's heading shows it escaped" \
    grep -Fxq "## $MDHOST_SHOWN" "$WORK/mdh-out/history.md"
check "history.md: so does the plot's caption" \
    grep -Fq "Compression rate on $MDHOST_SHOWN," "$WORK/mdh-out/history.md"

# Names and paths analyze wrote around doc_text: the fastest target ("runs at N% of X's
# speed"), the probe's figures in full (its target's name), the paths in backticks.
NAME='[a](http://x.example)<b>S</b>'
NAME_SHOWN='\[a\](http://x.example)\<b\>S\</b\>'
mkdir -p "$WORK/mdn/p\`q"
python3 - "$REF" "$WORK/mdn" "$NAME" <<'PY'
import csv, sys
ref, out, name = sys.argv[1:]
def renamed(src, dst, keep=lambda r: True, extra=lambda r: []):
    reader = csv.DictReader(open(ref + "/" + src))
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, reader.fieldnames, lineterminator="\n")
        w.writeheader()
        for r in reader:
            for col in ("target", "input_target"):
                if r.get(col) == "ssd":
                    r[col] = name
            if keep(r):
                w.writerow(r)
                for q in extra(r):
                    w.writerow(q)
renamed("runs.csv", out + "/nomem.csv", keep=lambda r: r["target"] != "mem")
renamed("runs.csv", out + "/runs.csv")
# The largest write size in two groups: a probe note with the target's name in full.
def groups(r):
    if r["target"] != name or r["op"] != "write" or r["size_bytes"] != "2000000000":
        return []
    rows = []
    for k, f in enumerate([1.0, 1.01, 2.0, 2.02, 0.99, 2.01]):
        q = dict(r, rep=str(10 + k), seconds="%.4f" % (float(r["seconds"]) * f))
        q["bytes_per_s"] = str(int(int(q["size_bytes"]) / float(q["seconds"])))
        rows.append(q)
    return rows
renamed("probe.csv", out + "/p`q/probe.csv", extra=groups)
PY
run "$CP" analyze "$WORK/mdn/nomem.csv" --format markdown
expect_status 0 "analyze --format markdown: a target named in Markdown, no mem runs"
check "the fastest target's name is escaped where a slower one is held to it" \
    grep -Fq "of $NAME_SHOWN's speed" "$WORK/out"
check "no link or HTML from the name anywhere" \
    bash -c "! grep -Fe '$NAME' -e '[a](' -e '<b>' '$WORK/out'"
run "$CP" analyze "$WORK/mdn/runs.csv" --probe "$WORK/mdn/p\`q/probe.csv" --format markdown
expect_status 0 "analyze --format markdown: the name in the probe too, its path with a backtick"
check "the probe's figures in full name the target escaped" \
    grep -Fq -- "- probe target '$NAME_SHOWN': its writes at the largest size" "$WORK/out"
check "no link or HTML from the name anywhere (with the probe)" \
    bash -c "! grep -Fe '$NAME' -e '[a](' -e '<b>' '$WORK/out'"
check "a path holding a backtick is code in a longer fence, whole" \
    grep -Fq "with probe \`\`$WORK/mdn/p\`q/probe.csv\`\`, tolerance" "$WORK/out"

# An import's file name was put between backticks escaped: a backtick in it ended the
# code span (and '\' escapes do not work inside one). It is code in a longer fence now.
mkdir -p "$WORK/mdi"
cp "$REF/runs.csv" "$WORK/mdi/runs.csv"
python3 -c 'import json, sys; json.dump({"started": "2026-11-02T09:30:00+0100",
    "started_from": "--started", "source": "hyperfine", "host": {"hostname": "lab-box"},
    "import": {"file": sys.argv[1], "table": "runs.csv", "host_given": True}},
    open(sys.argv[2], "w"))' '/x/h`f_1 *b*.json' "$WORK/mdi/meta.json"
CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot run "$CP" plot -q "$WORK/mdi"
expect_status 0 "plot: an import whose file name holds a backtick"
check "report.md gives the imported file as code, whole" \
    grep -Fq "from hyperfine's \`\`/x/h\`f_1 *b*.json\`\` by \`chokepoint import\`" "$WORK/mdi/report.md"

# A bare 0x9B is CSI to a terminal that reads 8-bit controls: not UTF-8, refused.
{ echo "target,codec,threads,seconds,input_bytes"
  echo "mem,zstd:3,1,2.0,1000000000"
  printf 'x\2332J,zstd:3,1,2.0,1000000000\n'; } > "$WORK/c1.csv"
run "$CP" analyze "$WORK/c1.csv"
expect_status 2 "analyze: a target with a bare 0x9B byte refused"
expect_one_line_error "c1.csv:3: column 'target': a byte that is not UTF-8 in the name" \
    "analyze: one line with file:line and the column"
check "no 0x9B byte on stdout or stderr" \
    bash -c "! grep -q \"\$(printf '\\233')\" '$WORK/out' '$WORK/err'"

# --- numbers: kept or refused ---------------------------------------------------------------
# fio's bw_bytes 1e300 went through a 40-byte field and came out about 1e38.
cat > "$WORK/fio.json" <<'JSON'
{"fio version": "fio-3.33", "jobs": [{"jobname": "ssd", "groupid": 0, "error": 0,
  "job options": {"rw": "write", "bs": "1M", "size": "64M"},
  "write": {"io_bytes": 67108864, "bw_bytes": 1e300, "runtime": 2000},
  "read": {"io_bytes": 0, "bw_bytes": 0, "runtime": 0}}]}
JSON
mkdir -p "$WORK/fio" "$WORK/fio2"
run "$CP" import fio "$WORK/fio.json" -o "$WORK/fio/probe.csv"
expect_status 2 "import fio: bw_bytes 1e300 refused"
expect_one_line_error "fio.json: job 'ssd': write.bw_bytes 1e\+300 is past 2\^63" \
    "import fio: one line naming the file, the job and the field"
check "nothing written by the refused import" test ! -e "$WORK/fio/probe.csv"
# A large rate that is a rate is kept to the byte.
sed 's/1e300/9.2e18/' "$WORK/fio.json" > "$WORK/fio2.json"
run "$CP" import fio "$WORK/fio2.json" -o "$WORK/fio2/probe.csv"
expect_status 0 "import fio: bw_bytes 9.2e18 taken"
check "probe.csv keeps 9.2e18 exactly" python3 - "$WORK/fio2/probe.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1 and float(rows[0]["bytes_per_s"]) == 9.2e18, rows
PY

# A time below a microsecond gave "nan%" and a verdict.
{ echo "target,codec,threads,seconds,input_bytes"
  echo "mem,zstd:3,1,1e-320,1000000000"
  echo "mem,zstd:3,2,2.0,1000000000"; } > "$WORK/tiny.csv"
run "$CP" analyze "$WORK/tiny.csv"
expect_status 2 "analyze: seconds=1e-320 refused"
expect_one_line_error "tiny.csv:2: column 'seconds': .* below a microsecond" \
    "analyze: one line with file:line and the column"
check "no nan on stdout" bash -c "! grep -qi nan '$WORK/out'"
{ echo "target,codec,threads,seconds,input_bytes"
  echo "mem,zstd:3,1,2.0,1e300"; } > "$WORK/huge.csv"
run "$CP" analyze "$WORK/huge.csv"
expect_status 2 "analyze: input_bytes=1e300 refused"
expect_one_line_error "huge.csv:2: column 'input_bytes': 1e\+300 is past 2\^63" \
    "analyze: the size past 2^63 named with file:line"
# meta.json's numbers: a negative size refused like a bad string.
study "$WORK/neg" '{"host": {"hostname": "box", "mem_total_bytes": -5}}' "$REF/runs.csv"
run "$CP" compare "$WORK/neg" "$WORK/good"
expect_status 2 "compare: a negative size in meta.json refused"
expect_one_line_error "neg/meta.json: field 'host.mem_total_bytes': -5 is not a count" \
    "compare: one line naming the file and the field"

finish
