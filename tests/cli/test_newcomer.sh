#!/usr/bin/env bash
# What a new user stumbles on, pinned: a repeated target or a fixture too small to time
# is refused before anything is written; rates take their unit in any case; a --cmd
# placeholder typo is refused; a target whose runs all failed is named in the answer
# with its first error; a command on an emulated target is labelled unpaced where its
# verdict is; an emulated cap recorded in runs.csv is the volume's speed without a probe;
# compare warns when the inputs differ and names what it could not pair; a closed stdout
# or stderr (run ... 2>&1 | head, >&- 2>&-) fails no finished study and lands in no file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/d"
"$CP" fixture -q -o "$WORK/in" --size 2M
# --- refusals before anything is written -------------------------------------------------
run "$CP" run --quick --out "$WORK/s1" mem mem
expect_status 2 "run with mem twice"
check "it names the repeated target" grep -q "target 'mem' is given twice" "$WORK/err"
check "nothing was written" test ! -e "$WORK/s1"
for twice in "a=$WORK/d b=$WORK/d" "$WORK/d $WORK/d/"; do
    # shellcheck disable=SC2086 # two targets
    run "$CP" run --quick --out "$WORK/s1" $twice mem
    expect_status 2 "run with one directory twice ($twice)"
    check "it names both targets and the directory" \
        grep -q "targets '.*' and '.*' are one directory ($WORK/d) measured alike" "$WORK/err"
    check "nothing was written for it" test ! -e "$WORK/s1"
done
run "$CP" sweep -i "$WORK/in" -c copy -T 1 --reps 1 --no-warmup -o "$WORK/c.csv" \
    "a=$WORK/d" "b=$WORK/d@100MB/s"
expect_status 0 "one directory twice with an emulated cap on one: two disks"
run "$CP" run -i "$WORK/in" --codec copy --codec zstd:1 -T 1 --reps 1 --no-probe --format svg \
    --out "$WORK/s1" mem
expect_status 0 "run --codec copy --codec zstd:1"
check "both codecs were measured" \
    test "$(cut -d, -f2 "$WORK/s1/runs.csv" | grep -Ec '^(copy|zstd:1)$')" -eq 2
check "the finished results directory holds no lock file" test ! -e "$WORK/s1/.chokepoint.lock"
rm -rf "$WORK/s1"
run "$CP" run --quick --codec copy --codec zstd:1,copy --out "$WORK/s1" mem
expect_status 2 "a codec given twice"
check "it names the codec" grep -q "codec 'copy' is given twice" "$WORK/err"
check "nothing was written for it" test ! -e "$WORK/s1"
run "$CP" run --fixture-size 100 --out "$WORK/s2" mem
expect_status 2 "a 100-byte fixture"
check "it says the smallest that works" grep -q "the smallest is 1M" "$WORK/err"
check "nothing was written for it" test ! -e "$WORK/s2"
run "$CP" sweep -i "$WORK/in" --cmd 'zstd -T{thread} -c {input} > {output}' mem
expect_status 2 "a --cmd placeholder typo"
check "it names the typo and the placeholders" \
    grep -q "unknown placeholder '{thread}'.*{input}, {output} and {threads}" "$WORK/err"
run "$CP" sweep -i "$WORK/in" -T 1 --reps 1 --no-warmup -q -o "$WORK/lower.csv" \
    "d=$WORK/d@80mb/s"
expect_status 0 "a rate cap in lower case (80mb/s)"
check "it is the 80 MB/s cap" grep -q ',80000000,' "$WORK/lower.csv"

# --- {output} names a path that does not exist yet (zstd -o refuses to overwrite) ---------
command -v zstd > /dev/null || { not_ok "zstd is missing (scripts/setup.sh --with-tests)"; }
run "$CP" sweep -i "$WORK/in" -T 1 --reps 1 --no-warmup -o "$WORK/zo.csv" \
    --cmd 'zstd -q -1 -T{threads} {input} -o {output}' "d=$WORK/d"
expect_status 0 "a command that writes its own output file (zstd -o {output})"
check "its run is valid and wrote something" \
    awk -F, -v v="$(csv_col "$WORK/zo.csv" valid)" -v o="$(csv_col "$WORK/zo.csv" output_bytes)" \
        'NR == 2 { exit !($v == 1 && $o > 0) }' "$WORK/zo.csv"
run "$CP" sweep -i "$WORK/in" -T 1 --reps 1 --no-warmup -o "$WORK/zr.csv" \
    --cmd 'zstd -q -1 -T{threads} -c {input} > {output}' "d=$WORK/d"
expect_status 0 "the same with a redirection (> {output})"
check "nothing left in the target" no_temp_files "$WORK/d"
# A failed run shows its error, not a rate.
run "$CP" sweep -i "$WORK/in" -T 1 --reps 1 --no-warmup -o "$WORK/fail.csv" \
    --cmd 'false {input} {output}' "d=$WORK/d"
check "a failed run's progress line gives its error, no rate" \
    grep -Eq '\[1/1\] d cmd:false T=1 rep 1: FAILED: [^0-9]' "$WORK/err"
check "and no MB/s" sh -c "! grep -q 'FAILED.*MB/s' '$WORK/err'"

# --- a target whose runs all failed is named, with its first error ------------------------
cat > "$WORK/failed.csv" <<'EOF'
target,codec,threads,seconds,input_bytes,output_bytes,error
mem,zstd:3,1,1.0,1000000,500000,
usb,zstd:3,1,,,,no space left on device (usb)
usb,zstd:3,1,,,,no space left on device (usb)
EOF
run "$CP" analyze "$WORK/failed.csv"
expect_status 0 "analyze a table where one target failed"
check "the answer names the failed target and its first error" \
    grep -q "usb (zstd:3): no result from its 2 runs: no space left on device (usb)" \
    "$WORK/out"

# --- a command on an emulated target is unpaced where its verdict is ----------------------
cat > "$WORK/cmd.csv" <<'EOF'
target,codec,threads,seconds,input_bytes,output_bytes,emulated,rate_cap_bps
mem,zstd:3,1,1.0,1000000000,500000000,0,
slow,zstd:3,1,6.3,1000000000,500000000,1,80000000
slow,cmd:zstd,1,1.1,1000000000,500000000,0,
EOF
run "$CP" analyze "$WORK/cmd.csv"
expect_status 0 "analyze a command beside a capped built-in series"
check "the command's answer says unpaced" grep -q "^  slow (cmd:zstd, unpaced): " "$WORK/out"
check "and its details say what that means" grep -q "^slow (cmd:zstd, unpaced: the target's emulated cap paces no command)" "$WORK/out"
# Without a probe, the cap recorded in runs.csv is the capped series' write speed: 500 MB
# paced at 80 MB/s take 6.25 s beside 1 s of compression: write-bound by the cap.
check "the capped series is judged against its cap" \
    grep -q "^  slow (zstd:3): the disk's cap sets the time .*; a disk writing [0-9.]* [MG]B/s would take" "$WORK/out"

# --- compare warns when the inputs differ, and names what it could not pair ---------------
cat > "$WORK/a.csv" <<'EOF'
target,codec,threads,seconds,input_bytes
ssd,zstd:3,1,1.0,128000000
nas,zstd:3,1,2.0,128000000
EOF
cat > "$WORK/b.csv" <<'EOF'
target,codec,threads,seconds,input_bytes
ssd,zstd:3,1,1.3,256000000
EOF
run "$CP" compare "$WORK/a.csv" "$WORK/b.csv"
expect_status 0 "compare a 128 MB study with a 256 MB one"
check "it warns that the inputs differ" grep -q "warning: the inputs differ (A 128.0 MB, B 256.0 MB)" "$WORK/out"
check "it names the target it could not pair" grep -q "not paired, so not compared: A: nas (zstd:3)" "$WORK/out"

# --- a reader that goes away, or no stdout and stderr at all, fails no finished study -----
# run ... 2>&1 | head: the study completes, exit 0. With stdout and stderr closed (>&-
# 2>&-) the files the study opens would take descriptors 1 and 2 and get its messages:
# they must hold only their own contents.
mkdir -p "$WORK/h"
set +e
"$CP" run -i "$WORK/in" --threads 1 --reps 1 --out "$WORK/H1" mem "d=$WORK/h" 2>&1 | head -1 > /dev/null
head_status=${PIPESTATUS[0]}
set -e
check "run ... 2>&1 | head: exit $head_status, 0 expected" test "$head_status" -eq 0
check "and the study is complete" test "$(json_get "$WORK/H1/meta.json" 'm["status"], m["stage"]')" = "('complete', 'done')"
set +e
"$CP" run -i "$WORK/in" --threads 1 --reps 1 --out "$WORK/H2" mem "d=$WORK/h" >&- 2>&-
closed_status=$?
set -e
check "run with stdout and stderr closed: exit $closed_status, 0 expected" test "$closed_status" -eq 0
check "the study is complete" test "$(json_get "$WORK/H2/meta.json" 'm["status"], m["stage"]')" = "('complete', 'done')"
check "the results directory's lock file is gone with the study" test ! -e "$WORK/H2/.chokepoint.lock"
messages='^(results go to |warm-up \(not timed\): |\[[0-9]+/[0-9]+\] )'
check "no file of the study or its target holds a message: $(grep -rlE "$messages" "$WORK/H2" "$WORK/h" | tr '\n' ' ')" \
    test -z "$(grep -rlE "$messages" "$WORK/H2" "$WORK/h")"

# --- a study too short to judge says so once, and judges no point unexplained -------------
# 16 MiB with --reps 2, as the machine gave it: memory's runs spread 20-29%, local's 0.07 s
# runs at one thread beat memory's (efficiency over 100%) and at two miss the model, usb's
# probe spread 30%. Without the rule: "unexplained (the model missed)", "efficiency over
# 100%?" and a note of 60 words on each.
cat > "$WORK/short.csv" <<'EOF'
target,codec,threads,rep,sync,input_bytes,output_bytes,seconds,flush_s,dirty_background_bytes,dirty_bytes,dirty_expire_s,dirty_writeback_s,emulated,rate_cap_bps
mem,zstd:3,1,1,fsync,16777216,12918630,0.094,,2400000000,4800000000,30,5,0,
mem,zstd:3,1,2,fsync,16777216,12918630,0.115,,2400000000,4800000000,30,5,0,
mem,zstd:3,2,1,fsync,16777216,12918630,0.105,,2400000000,4800000000,30,5,0,
mem,zstd:3,2,2,fsync,16777216,12918630,0.136,,2400000000,4800000000,30,5,0,
local,zstd:3,1,1,fsync,16777216,12918630,0.060,0.008,2400000000,4800000000,30,5,0,
local,zstd:3,1,2,fsync,16777216,12918630,0.081,0.008,2400000000,4800000000,30,5,0,
local,zstd:3,2,1,fsync,16777216,12918630,0.190,0.008,2400000000,4800000000,30,5,0,
local,zstd:3,2,2,fsync,16777216,12918630,0.205,0.008,2400000000,4800000000,30,5,0,
usb,zstd:3,1,1,fsync,16777216,12918630,0.426,0.33,2400000000,4800000000,30,5,1,40000000
usb,zstd:3,1,2,fsync,16777216,12918630,0.428,0.33,2400000000,4800000000,30,5,1,40000000
usb,zstd:3,2,1,fsync,16777216,12918630,0.437,0.33,2400000000,4800000000,30,5,1,40000000
usb,zstd:3,2,2,fsync,16777216,12918630,0.439,0.33,2400000000,4800000000,30,5,1,40000000
EOF
cat > "$WORK/short_probe.csv" <<'EOF'
target,op,size_bytes,rep,seconds,bytes_per_s
local,write,10000000,1,0.0139,721000000
local,write,10000000,2,0.0114,880000000
local,read,10000000,1,0.0077,1300000000
local,read,10000000,2,0.0077,1300000000
usb,write,10000000,1,0.323,31000000
usb,write,10000000,2,0.238,42000000
usb,read,10000000,1,0.0145,689000000
usb,read,10000000,2,0.0111,901000000
EOF
run "$CP" analyze "$WORK/short.csv" --probe "$WORK/short_probe.csv"
expect_status 0 "analyze a 16 MiB study of two repetitions"
sed -n '/^the answer:/,/^details per target:/p' "$WORK/out" > "$WORK/short_answer.txt"
check "it says once that the runs are too short, naming the input or --reps that would do" \
    test "$(grep -Ec '^  ! The runs, [0-9.]+ s each, are too short to judge: their 2 repetitions spread [0-9]+%, over the 10% tolerance; a [0-9]+ MiB input \(--fixture-size [0-9]+M\)( or --reps [0-9]+)? would do\.$' "$WORK/out")" -eq 1
check "and judges no point unexplained" sh -c "! grep -q 'unexplained' '$WORK/out'"
check "nor explains its noise as efficiency over 100%" sh -c "! grep -Eq 'efficiency (over|up to)' '$WORK/out'"
check "its points the model missed are not judged" grep -Eq '^  local \(zstd:3\) +2 +0\.198 +not judged' "$WORK/out"
check "every line under the answer is at most 45 words: $(awk 'NF > 45' "$WORK/short_answer.txt")" \
    test -z "$(awk 'NF > 45' "$WORK/short_answer.txt")"
check "every note at most 30: $(awk '$1 == "!" && NF - 1 > 30' "$WORK/short_answer.txt")" \
    test -z "$(awk '$1 == "!" && NF - 1 > 30' "$WORK/short_answer.txt")"
check "probe noise is one line per volume, with what to do" \
    test "$(grep -c "^  ! probe target 'usb': writes spread 30%, reads spread 27%; rough speeds: probe again with more --reps\.$" "$WORK/out")" -eq 1
check "and its figures in full in the details" \
    grep -q "^  probe target 'usb': its writes at the largest size spread 30% (31 to 42 MB/s over 2 runs)" "$WORK/out"
run "$CP" analyze "$WORK/short.csv" --probe "$WORK/short_probe.csv" --format summary
check "the terminal's summary says it too, once" test "$(grep -c '^! The runs, .* too short to judge' "$WORK/out")" -eq 1
run "$CP" analyze "$WORK/short.csv" --probe "$WORK/short_probe.csv" --format json -o "$WORK/short.json"
if need_python3; then
    check "in JSON: too short, the repetitions needed, and verdicts not-judged" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
q = a["precision"]
assert q["too_short"] and q["short_runs"] and q["reps"] == 2 and q["reps_needed"] > 2, q
v = [t for t in a["targets"] if t["name"] == "local"][0]["verdicts"][1]
assert v["verdict"] == "not-judged" and v["unexplained"] is None, v' "$WORK/short.json"
fi

# --- a target is never balanced against itself ------------------------------------------------
grep -v '^mem,' "$WORK/short.csv" > "$WORK/nomem.csv"
run "$CP" analyze "$WORK/nomem.csv" --probe "$WORK/short_probe.csv"
check "the fastest target is the ceiling, not 'together' with itself" \
    grep -q '^  local (zstd:3): the fastest target, the ceiling the others are held to: ' "$WORK/out"
check "no sentence says 'together' for it" sh -c "! grep -q '^  local (zstd:3): .*together' '$WORK/out'"


# --- without root on a machine whose delay accounting is off, the blocked-on-I/O times are
# --- the machine's: said once, under the answer ------------------------------------------------
cat > "$WORK/psi.csv" <<'EOF'
target,codec,threads,rep,seconds,input_bytes,output_bytes,io_wait_s,io_wait_source
mem,zstd:3,1,1,1.00,100000000,40000000,0.01,psi-system
mem,zstd:3,1,2,1.01,100000000,40000000,0.01,psi-system
disk,zstd:3,1,1,1.50,100000000,40000000,0.45,psi-system
disk,zstd:3,1,2,1.52,100000000,40000000,0.47,psi-system
EOF
run "$CP" analyze "$WORK/psi.csv"
check "it says once that the I/O figures are the machine's, and why" \
    test "$(grep -c "^  ! Blocked-on-I/O times are the machine's pressure figures (every process's), not the runs' own: delay accounting was off, and turning it on takes root\.$" "$WORK/out")" -eq 1

finish
