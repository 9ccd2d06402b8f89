#!/usr/bin/env bash
# chokepoint plot: a foreign runs table, the reference data set with a probe table, and
# gnuplot missing. Images are checked for what makes them images: the PNG signature and
# SVG that parses as XML.
. "$(dirname "$0")/lib.sh"
REF=$SRC_DIR/fixtures/reference

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }
is_svg() {
    if command -v python3 >/dev/null; then
        python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.tag.endswith("svg") else 1)' "$1"
    else
        head -c 200 "$1" | grep -Eq '^(<\?xml|<svg)'
    fi
}

# --- usage errors -------------------------------------------------------------------------
run "$CP" plot --help
expect_status 0 "--help"
check "help names the command" grep -q '^usage: chokepoint plot RESULTS_DIR' "$WORK/out"
run "$CP" plot
expect_status 2 "no RESULTS_DIR"
expect_one_line_error "plot needs RESULTS_DIR" "missing directory named"
mkdir -p "$WORK/empty"
run "$CP" plot "$WORK/empty"
expect_status 2 "directory without runs.csv"
expect_one_line_error "empty/runs.csv: no runs table there" "missing runs.csv named"
run "$CP" plot "$WORK/empty" --format gif
expect_status 2 "bad --format"
expect_one_line_error "--format 'gif'" "bad format named"

# Without gnuplot (scripts/setup.sh installs it) only the missing-gnuplot path can run: each
# set of figure checks says it was skipped.
if ! command -v "${CHOKEPOINT_GNUPLOT:-gnuplot}" >/dev/null; then
    HAVE_GNUPLOT=0
else
    HAVE_GNUPLOT=1
fi

# --- a foreign table: only target,threads,seconds,input_bytes, a path with a quote -------
D="$WORK/it's foreign"
mkdir -p "$D"
cp "$REF/foreign_runs.csv" "$D/runs.csv"
if [ "$HAVE_GNUPLOT" = 1 ]; then
    run "$CP" plot "$D" --format both
    expect_status 0 "plot on a foreign runs.csv"
    for name in time_vs_threads rate_vs_threads; do
        check "foreign $name.png is a PNG" is_png "$D/$name.png"
        check "foreign $name.svg is SVG" is_svg "$D/$name.svg"
        check "foreign $name.png listed on stdout" grep -qxF "$D/$name.png" "$WORK/out"
    done
    check "no probe plot without probe.csv" test ! -e "$D/probe.png"
    check "no bottleneck plot without write speeds" test ! -e "$D/bottleneck.png"
    check "report.md embeds the time plot" grep -qF '![Time against threads](time_vs_threads.png)' "$D/report.md"
    check "report.md says why the bottleneck plot is missing" grep -q 'bottleneck: no probe.csv' "$D/report.md"
    check "no temporary files left" no_temp_files "$D"
else
    skip_check "no ${CHOKEPOINT_GNUPLOT:-gnuplot}: the figures of a foreign runs.csv are not checked"
fi

# --- the reference data set with probe.csv -------------------------------------------------
R="$WORK/reference"
mkdir -p "$R"
cp "$REF/runs.csv" "$REF/probe.csv" "$R/"
if [ "$HAVE_GNUPLOT" = 1 ]; then
    run "$CP" plot "$R" --format both
    expect_status 0 "plot on the reference data set"
    for name in time_vs_threads rate_vs_threads bottleneck probe rate_vs_write; do
        check "reference $name.png is a PNG" is_png "$R/$name.png"
        check "reference $name.svg is SVG" is_svg "$R/$name.svg"
    done
    check "report.md has the verdicts" grep -q '^### usb (zstd:3)' "$R/report.md"
    # The generator's truth (fixtures/reference/make_reference.py): usb's write ceiling is
    # 250 MB/s / 0.35 = 714 MB/s of input, and its write time comes within 10% of the
    # compression's where the USL rate reaches 0.9 x 714 MB/s: T = 2.23, worked out here.
    check "report.md reads the bottleneck plot, as the generator's truth says" python3 - "$R/report.md" <<'PY'
import math, re, sys
m = re.search(r"usb \(write ceiling ([0-9.]+) MB/s\) starts to limit the job at T = ([0-9.]+), "
              r"so from 3 threads on", open(sys.argv[1]).read())
ceiling, t = float(m.group(1)), float(m.group(2))
truth_ceiling = 250 / 0.35
# 300 T = 0.9 c (1 + 0.03 (T - 1) + 0.0008 T (T - 1)), a quadratic in T: its smaller root
c = 0.9 * truth_ceiling
a, b, k = 0.0008 * c, 0.03 * c - 0.0008 * c - 300, c * (1 - 0.03)
truth_t = (-b - math.sqrt(b * b - 4 * a * k)) / (2 * a)
assert abs(ceiling - truth_ceiling) <= 0.02 * truth_ceiling, (ceiling, truth_ceiling)
assert abs(t - truth_t) <= 0.15, (t, truth_t)
PY
    check "plot data written" test -s "$R/plot-data/points.dat" -a -s "$R/plot-data/vars.gp"
    # Every crossover marker sits on the curve the plot draws for its series (the model
    # along the CPU curve, model_rate.dat), not between the lines; and one is drawn here.
    check "every crossover marker lies on its series' model curve" python3 - "$R/plot-data" <<'PY'
import sys
def blocks(path):
    out, cur = {}, None
    for line in open(path):
        if line.startswith("# index "):
            cur = int(line.split()[2].rstrip(":"))
            out[cur] = []
        elif cur is not None and line.strip() and not line.startswith("#"):
            t, r = line.split()[:2]
            out[cur].append((float(t), float(r)))
    return out
curves = blocks(sys.argv[1] + "/model_rate.dat")
marks = [l.split() for l in open(sys.argv[1] + "/crossovers.dat") if l[0] not in "#\n"]
marks = [(float(t), float(r), int(s)) for t, r, s in marks if s != "0"]
assert marks, "no crossover drawn"
for t, r, s in marks:
    pts = curves[s - 1]
    on = [r1 + (r2 - r1) * (t - t1) / (t2 - t1) if t2 > t1 else r1
          for (t1, r1), (t2, r2) in zip(pts, pts[1:]) if t1 <= t <= t2]
    assert on and abs(on[0] - r) <= 1e-3 * r, (t, r, on)
PY
    check "its label names what takes over" grep -q "^cross_label\[1\] = 'usb: the disk writing from T = " "$R/plot-data/vars.gp"
    check "no temporary files left" no_temp_files "$R"

    # Two codecs a hundredfold apart: one panel per codec, each drawn on a canvas taller
    # than one plot's 650 pixels (the PNG header's height, bytes 20-23).
    C="$WORK/codecs"
    mkdir -p "$C"
    {
        echo "target,codec,threads,rep,seconds,input_bytes,output_bytes,sync,cpu_user_s,cpu_sys_s,cpu_wait_s,io_wait_s,io_read_wait_s,io_wait_source,path_compute_s,path_core_wait_s,path_io_cpu_s,path_read_blocked_s,path_write_blocked_s"
        for t in 1 2; do for r in 1 2; do
            echo "mem,zstd:3,$t,$r,$((4 / t)),800000000,400000000,fsync,3.9,0.1,0.1,0.05,0.05,delayacct,$((4 / t)),0,0,0,0"
            echo "slow,zstd:3,$t,$r,8,800000000,400000000,fsync,3.9,0.5,0.2,4,0.1,delayacct,$((4 / t)),0,0,0,$((8 - 4 / t))"
            echo "mem,xz:6,$t,$r,$((400 / t)),800000000,300000000,fsync,399,1,1,0.05,0.05,delayacct,$((400 / t)),0,0,0,0"
            echo "slow,xz:6,$t,$r,$((401 / t)),800000000,300000000,fsync,399,1,1,0.5,0.1,delayacct,$((400 / t)),0,0,0,1"
        done; done
    } >"$C/runs.csv"
    printf 'target,op,size_bytes,bytes_per_s\nslow,write,50000000,100000000\n' >"$C/probe.csv"
    run "$CP" plot -q "$C"
    expect_status 0 "plot two codecs"
    png_height() { python3 -c 'import struct,sys; print(struct.unpack(">I", open(sys.argv[1],"rb").read()[20:24])[0])' "$1"; }
    check "bottleneck.png: one panel per codec" test "$(png_height "$C/bottleneck.png")" -gt 650
    check "time_split.png: one panel per codec" test "$(png_height "$C/time_split.png")" -gt 650
    check "their subtitles promise no bars they do not draw" sh -c \
        "! grep -q 'bars min to max' '$SRC_DIR/scripts/plots/bottleneck.gp' '$SRC_DIR/scripts/plots/time_split.gp' && grep -q measured_nobars '$SRC_DIR/scripts/plots/time_split.gp'"

    # svg only: no PNG made this time, report links the SVG
    S="$WORK/svg"
    mkdir -p "$S"
    cp "$REF/runs.csv" "$S/"
    run "$CP" plot "$S" --format svg -q
    expect_status 0 "svg only"
    check "svg only: no PNG" test ! -e "$S/time_vs_threads.png"
    check "svg only: report links the SVG" grep -qF '(time_vs_threads.svg)' "$S/report.md"

    # a template gnuplot cannot run: exit 1 naming it, nothing half-written
    B="$WORK/badtemplates"
    mkdir -p "$B"
    cp "$SRC_DIR"/scripts/plots/*.gp "$B/"
    echo 'plot this is not gnuplot' >> "$B/rate_vs_threads.gp"
    mkdir -p "$WORK/bad"
    cp "$REF/foreign_runs.csv" "$WORK/bad/runs.csv"
    run env CHOKEPOINT_PLOTS_DIR="$B" "$CP" plot "$WORK/bad"
    expect_status 1 "broken template"
    expect_one_line_error "rate_vs_threads.gp: gnuplot failed" "broken template named"
    check "broken template: no rate plot" test ! -e "$WORK/bad/rate_vs_threads.png"
    check "broken template: no temporary files" no_temp_files "$WORK/bad"
else
    skip_check "no ${CHOKEPOINT_GNUPLOT:-gnuplot}: the reference data set's figures, svg-only output and a broken template are not checked"
fi

# --- gnuplot missing: one notice, exit 0, data and report.md still produced -----------------
M="$WORK/nognuplot"
mkdir -p "$M"
cp "$REF/runs.csv" "$REF/probe.csv" "$M/"
run env CHOKEPOINT_GNUPLOT=/nonexistent "$CP" plot "$M"
expect_status 0 "gnuplot missing"
expect_one_line_error "gnuplot not found \(CHOKEPOINT_GNUPLOT=/nonexistent\); plots skipped, data in plot-data/" \
    "one-line notice when gnuplot is missing"
check "no images without gnuplot" test -z "$(ls "$M" | grep -E '\.(png|svg)$')"
check "data files still written" test -s "$M/plot-data/ceilings.dat"
check "report.md still written" grep -q 'gnuplot could not be run' "$M/report.md"
check "stdout names report.md" grep -qxF "$M/report.md" "$WORK/out"

# --- data errors: FILE:LINE, exit 2 ----------------------------------------------------------
E="$WORK/bad data"
mkdir -p "$E"
printf 'target,threads,seconds,input_bytes\nssd,1,2,100\nssd,2,x,100\n' > "$E/runs.csv"
run "$CP" plot "$E"
expect_status 2 "malformed runs.csv"
expect_one_line_error "runs.csv:3: column 'seconds'" "malformed runs.csv names FILE:LINE"
check "nothing written for malformed data" test ! -e "$E/report.md"

finish
