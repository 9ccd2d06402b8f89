#!/usr/bin/env bash
# The suite's own helpers (tests/cli/lib.sh) cannot pass over a defect: a crashed helper
# inside a measure_until_judged attempt is a failure naming the command, even when the call
# is the condition of an ||; an attempt's figures and counts reach the test; a sanitizer's
# report fails a command whatever status was expected; under CI=true a lab test that cannot
# run fails; a figure that is missing or not a number fails with its name; a test killed
# by SIGTERM while it waits on its command ends the command and runs its clean-up.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

LIB=$SRC_DIR/tests/cli/lib.sh
# script NAME BODY: a test script of the suite's kind in $WORK/NAME.sh, sourcing lib.sh.
script() {
    { echo 'set -euo pipefail'; echo ". '$LIB'"; cat; } > "$WORK/$1.sh"
}

# A figures block that raises inside an attempt called from `|| { ...; }`: the attempt
# stops there and the test fails, naming the command (it used to count as judged, and an
# empty worst error compared as within any bound).
script crash <<'EOF'
attempt() {
    local figures
    run true
    expect_status 0 "attempt $1 runs a command"
    figures=$(python3 -c 'import json; print(json.loads("null") + 1)')
    worst=${figures%% *}
    unjudged=""
    [ -z "$unjudged" ]
}
measure_until_judged 3 attempt || { finish; exit 1; }
check "within 10% (worst $worst)" awk -v w="$worst" 'BEGIN { exit !(w <= 0.10) }'
finish
EOF
run bash "$WORK/crash.sh"
expect_status 1 "a crashed figures block fails its test"
check "the failure names the command that crashed" \
    grep -q "^FAILED: attempt 1 of 3 stopped (exit 1) before its figures could be judged, at: figures=\$(python3" "$WORK/out"
check "and no check of its figures passed" test "$(grep -c '^ok: within' "$WORK/out")" -eq 0
check "the attempt's own checks are counted" grep -qx "1 passed, 1 failed, 0 skipped" "$WORK/out"

# An attempt that cannot judge is measured again; what the judged one sets reaches the test.
script retry <<'EOF'
declare -A seen=([start]=1)
attempt() {
    run true
    expect_status 0 "attempt $1 runs"
    worst="0.0$1"; list=(x "y z"); seen[$1]=yes
    CLEANUP_HOOKS+=("echo 'clean-up hook $1 ran'")
    if [ "$1" -lt 2 ]; then unjudged="too noisy in $1"; return 1; fi
    skip_check "one check inside"
}
measure_until_judged 3 attempt
echo "figures: worst $worst, list ${list[1]}, seen ${!seen[*]}"
finish
EOF
run bash "$WORK/retry.sh"
expect_status 0 "an unjudgeable attempt, then a judged one"
check "the first attempt's reason is printed" grep -qx "attempt 1 of 3 cannot be judged: too noisy in 1" "$WORK/out"
check "the judged attempt's figures reach the test" grep -qx "figures: worst 0.02, list y z, seen . . ." \
    <(sed 's/seen .*/seen . . ./' "$WORK/out")
check "an associative array's new keys too" grep -Eq "^figures: .*seen( (start|1|2)){3}$" "$WORK/out"
check "every attempt's checks and skips are counted" grep -qx "2 passed, 0 failed, 1 skipped" "$WORK/out"
check "both attempts' clean-up hooks run" test "$(grep -c '^clean-up hook [12] ran$' "$WORK/out")" -eq 2

# An attempt that returns 1 without saying why is not an unjudgeable one.
script silent <<'EOF'
attempt() { return 1; }
measure_until_judged 3 attempt || { finish; exit 1; }
finish
EOF
run bash "$WORK/silent.sh"
expect_status 1 "an attempt that fails without a reason fails the test at once"
check "after one attempt" test "$(grep -c 'attempt 2' "$WORK/out")" -eq 0

# A sanitizer's report in a command's stderr fails the test, even where the command's
# exit status is the one the test expects.
for report in "==4242==ERROR: LeakSanitizer: detected memory leaks" \
              "analyzer/x.c:12:5: runtime error: signed integer overflow" \
              "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020" \
              "WARNING: ThreadSanitizer: data race (pid=4242)"; do
    script sanitized <<EOF
run bash -c 'echo "$report" >&2; exit 1'
expect_status 1 "the expected runtime failure"
finish
EOF
    run bash "$WORK/sanitized.sh"
    expect_status 1 "a report in stderr fails the test: ${report:0:40}"
    check "the failure quotes it" grep -qF "FAILED: a sanitizer's report from: bash -c" "$WORK/out"
done
script clean <<'EOF'
run bash -c 'echo "error: no such file" >&2; exit 1'
expect_status 1 "the expected runtime failure"
finish
EOF
run bash "$WORK/clean.sh"
expect_status 0 "a plain error in stderr is no sanitizer's report"

# A lab test that cannot run: a skip as a user runs the suite, a failure under CI=true.
script lab <<'EOF'
skip_lab "needs root and a free loop device"
EOF
run env -u CI bash "$WORK/lab.sh"
expect_status 77 "without CI, a lab test that cannot run skips"
run env CI=true bash "$WORK/lab.sh"
expect_status 1 "under CI=true it fails"
check "saying it must run there" grep -q "^FAILED: under CI=true this test must run, but: needs root" "$WORK/out"
script labcheck <<'EOF'
skip_lab_check "the emulated disk needs root"
finish
EOF
run env CI=true bash "$WORK/labcheck.sh"
expect_status 1 "under CI=true a lab check that cannot run fails"
run env -u CI bash "$WORK/labcheck.sh"
expect_status 0 "without CI it is a skipped check"
check "listed as one" grep -qx "SKIPPED: the emulated disk needs root" "$WORK/out"

# is_figure: an empty figure, a word, or no figure at all fails with the figure's name.
script figures <<'EOF'
is_figure "worst error" "" || true
is_figure "drain rate" "nan" || true
is_figure "the predictions" || true
is_figure "a good one" 0.25 -1e-3 12 && ok "numbers pass"
finish
EOF
run bash "$WORK/figures.sh"
expect_status 1 "missing and non-numeric figures fail"
check "each named" test "$(grep -Ec "^FAILED: (worst error: '' is not a number|drain rate: 'nan' is not a number|the predictions: no figure at all)$" "$WORK/out")" -eq 3
check "numbers pass" grep -qx "1 passed, 3 failed, 0 skipped" "$WORK/out"

# SIGTERM to a test waiting on its command (run) and on an attempt (measure_until_judged):
# the command ends, the clean-up runs, the test exits 143, within seconds.
for how in run attempt; do
    script term <<EOF
CLEANUP_HOOKS+=("echo cleaned > '$WORK/cleaned-$how'")
attempt() { run sleep 300; unjudged=no; return 1; }
case $how in run) run sleep 300 ;; attempt) measure_until_judged 1 attempt || true ;; esac
finish
EOF
    rm -f "$WORK/cleaned-$how"
    bash "$WORK/term.sh" > "$WORK/term.out" 2>&1 &
    pid=$!
    sleeper=""
    for _ in $(seq 200); do
        sleeper=$(descendants "$pid" | while read -r p; do
                      [ "$(ps -o comm= -p "$p")" != sleep ] || echo "$p"; done)
        [ -z "$sleeper" ] || break
        sleep 0.05
    done
    check "$how: the test's command is running (sleep $sleeper)" test -n "$sleeper"
    t0=$EPOCHREALTIME
    kill -TERM "$pid"
    rc=0
    wait "$pid" || rc=$?
    took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    check "$how: the killed test exits 143 within 5 s (exit $rc, $took s)" \
        awk -v r="$rc" -v t="$took" 'BEGIN { exit !(r == 143 && t < 5) }'
    check "$how: its clean-up ran" test -s "$WORK/cleaned-$how"
    check "$how: its command was ended" bash -c "! kill -0 ${sleeper:-999999999} 2> /dev/null"
done
finish
