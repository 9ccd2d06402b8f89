#!/usr/bin/env bash
# chokepoint probe against the built binary: rows and columns, the output file, an
# emulated slow volume, sustained rows, errors, interrupts, and no files left behind.
set -u
: "${CHOKEPOINT:?set CHOKEPOINT to the built binary}"

work=$(mktemp -d /tmp/cp-cli-probe.XXXXXX)
trap 'rm -rf "$work"' EXIT
target="$work/target"
mkdir "$target"
echo "keep me" >"$target/sentinel"
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Nothing but the sentinel may remain in the target, and the sentinel must be intact.
check_target_clean() {
    local left
    left=$(ls -A "$target" | grep -v '^sentinel$')
    [ -z "$left" ] || fail "$1: files left in the target: $left"
    [ "$(cat "$target/sentinel")" = "keep me" ] || fail "$1: the sentinel was touched"
}

# --- help ---
"$CHOKEPOINT" probe --help >"$work/help" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "--help exit $rc"
grep -q '^usage: chokepoint probe' "$work/help" || fail "--help does not print the usage on stdout"
[ -s "$work/err" ] && fail "--help wrote to stderr"

# --- rows and columns on stdout ---
"$CHOKEPOINT" probe --sizes 2MB,5MB --reps 2 --seed 11 "t1=$target" >"$work/out.csv" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "probe exit $rc: $(cat "$work/err")"
header=$(head -1 "$work/out.csv")
for col in target op size_bytes rep seconds bytes_per_s sync fs_type emulated; do
    echo "$header" | tr ',' '\n' | grep -qx "$col" || fail "column $col missing from: $header"
done
rows=$(($(wc -l <"$work/out.csv") - 1))
[ "$rows" -eq 8 ] || fail "expected 8 rows (2 sizes x 2 reps x write,read), got $rows"
ncols=$(echo "$header" | awk -F, '{print NF}')
awk -F, -v n="$ncols" 'NR > 1 && NF != n { bad = 1 } END { exit bad }' "$work/out.csv" ||
    fail "rows do not all have $ncols fields"
awk -F, 'NR > 1 && ($1 != "t1" || ($2 != "write" && $2 != "read") || $5 <= 0 || $6 <= 0 ||
         ($3 != 2000000 && $3 != 5000000) || $7 != "fsync" || $9 != 0) { bad = 1 }
         END { exit bad }' "$work/out.csv" || fail "unexpected row contents: $(cat "$work/out.csv")"
[ "$(awk -F, 'NR > 1 && $2 == "write"' "$work/out.csv" | wc -l)" -eq 4 ] || fail "expected 4 write rows"
grep -q 'probe summary' "$work/err" || fail "no summary on stderr"
grep -q 'write sustained' "$work/err" || fail "summary lacks the sustained write speed"
check_target_clean "stdout run"

# The same seed gives the same order.
"$CHOKEPOINT" probe --sizes 2MB,5MB --reps 2 --seed 11 -q "t1=$target" >"$work/again.csv" 2>/dev/null
diff <(cut -d, -f2-4 "$work/out.csv") <(cut -d, -f2-4 "$work/again.csv") >/dev/null ||
    fail "--seed 11 twice gave different orders"

# --- -o FILE: written whole, not clobbered without --force ---
"$CHOKEPOINT" probe --sizes 2MB --reps 1 -q -o "$work/probe.csv" "$target" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "-o exit $rc: $(cat "$work/err")"
[ "$(wc -l <"$work/probe.csv")" -eq 3 ] || fail "-o file should hold a header and 2 rows"
cp "$work/probe.csv" "$work/probe.before"
"$CHOKEPOINT" probe --sizes 2MB --reps 1 -q -o "$work/probe.csv" "$target" 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "existing -o without --force: exit $rc, expected 2"
grep -q 'force' "$work/err" || fail "the message should mention --force: $(cat "$work/err")"
cmp -s "$work/probe.csv" "$work/probe.before" || fail "an existing -o file was changed"
"$CHOKEPOINT" probe --sizes 2MB --reps 2 -q --force -o "$work/probe.csv" "$target" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "--force exit $rc"
[ "$(wc -l <"$work/probe.csv")" -eq 5 ] || fail "--force did not replace the file"
ls -A "$work" | grep -q 'chokepoint-tmp' && fail "a temporary output file was left in $work"
check_target_clean "-o run"

# --- an emulated 20 MB/s volume writes within 10% of its cap ---
# Where the cap paces each write (emulation "pacing"), the fsync after them goes to the real
# disk underneath, at its own speed, so the cap is judged on the writes alone (seconds -
# flush_s). An emulated disk (emulation "disk", as root) takes the writes into the page
# cache and drains them at the cap by the fsync: its drain rate is judged, and the whole
# fsync'd write is never faster than the cap (the copies into the page cache add to it).
"$CHOKEPOINT" probe --sizes 20MB --reps 1 --ops write -q "slow=$target@20MB/s" >"$work/slow.csv" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "throttled exit $rc: $(cat "$work/err")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         NR == 2 { disk = $c["emulation"] == "disk"
                   r = $c["size_bytes"] / ($c["seconds"] - (disk ? 0 : $c["flush_s"])) / 20e6
                   d = disk ? $c["drain_bps"] / 20e6 : 1
                   ok = ($c["op"] == "write" && $c["emulated"] == 1 && r < 1.1 &&
                         (disk || r > 0.9) && d > 0.9 && d < 1.1) }
         END { exit !ok }' "$work/slow.csv" ||
    fail "throttled write not within 10% of 20 MB/s: $(cat "$work/slow.csv")"
[ "$(wc -l <"$work/slow.csv")" -eq 2 ] || fail "--ops write should give write rows only"
check_target_clean "throttled run"

# --- --reps auto: 3, then more until each size's median is within +-3% at 95%, at most 10 ---
"$CHOKEPOINT" probe --sizes 2MB,4MB --reps auto --ops write -q "slow=$target@20MB/s" \
    >"$work/auto.csv" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "--reps auto exit $rc: $(cat "$work/err")"
python3 - "$work/auto.csv" <<'PY' || fail "--reps auto stopped by another rule: $(cat "$work/auto.csv")"
import csv, math, statistics, sys
t975 = {2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
by_size = {}
for r in csv.DictReader(open(sys.argv[1])):
    by_size.setdefault(r["size_bytes"], []).append(float(r["seconds"]))
assert sorted(by_size) == ["2000000", "4000000"], by_size
def settled(s):
    half = t975[min(len(s) - 1, 9)] * statistics.stdev(s) / math.sqrt(len(s))
    return half <= 0.03 * statistics.median(s)
for size, s in by_size.items():
    assert 3 <= len(s) <= 10, (size, s)
    assert len(s) == 10 or settled(s), (size, s)        # it stopped because it settled
    assert len(s) == 3 or not settled(s[:-1]), (size, s)  # and not later than that
PY
check_target_clean "--reps auto run"

# --- sustained: one long write logged every half second (O_DIRECT writes, paced one by one:
# an emulated disk's page cache would take all 20 MB in the first interval) ---
"$CHOKEPOINT" probe --ops sustained --sustained 20MB --sync direct "slow=$target@20MB/s" >"$work/sus.csv" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "sustained exit $rc: $(cat "$work/err")"
awk -F, 'NR > 1 && $2 != "sustained" { bad = 1 } NR > 1 { n++; last = $3 }
         END { exit bad || n < 2 || last != 20000000 }' "$work/sus.csv" ||
    fail "sustained rows wrong: $(cat "$work/sus.csv")"
grep -q 'emulated 20 MB/s write cap' "$work/err" || fail "summary does not label the emulated cap"
check_target_clean "sustained run"

# --- usage errors: exit 2 naming the culprit ---
"$CHOKEPOINT" probe --sizes 2MB "$work/missing" >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "missing target: exit $rc, expected 2"
grep -q "$work/missing" "$work/err" || fail "missing target not named: $(cat "$work/err")"
"$CHOKEPOINT" probe --sizes 2MB "$target/sentinel" >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "file as target: exit $rc, expected 2"
for bad in "--sizes 0" "--sizes 2XB" "--reps 0" "--sync sometimes" "--ops erase" \
           "--block 1" "--ops sustained" "--bogus"; do
    # shellcheck disable=SC2086
    "$CHOKEPOINT" probe $bad "$target" >/dev/null 2>"$work/err"; rc=$?
    [ $rc -eq 2 ] || fail "'probe $bad': exit $rc, expected 2"
    [ "$(wc -l <"$work/err")" -eq 1 ] || fail "'probe $bad': expected a one-line error: $(cat "$work/err")"
done
"$CHOKEPOINT" probe >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no target: exit $rc, expected 2"
"$CHOKEPOINT" probe mem >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "mem target: exit $rc, expected 2"
check_target_clean "usage errors"

# --- Ctrl-C: exit 130, rows so far kept, nothing left ---
# 4 x 100 MB at 50 MB/s is 8 s of writes. The signal goes as soon as a measured row is on
# disk (in -o's file or its temporary/partial companion), else after 4 s, when at least
# one 100 MB write has finished. Every row the summary counts as measured must be in the
# file, and stderr must show our handler's message (exit 130 alone is also what the
# default SIGINT action gives).
"$CHOKEPOINT" probe --sizes 2MB,100MB --reps 4 --seed 3 -o "$work/int.csv" "slow=$target@50MB/s" \
    >/dev/null 2>"$work/err" &
pid=$!
seen=0
for _ in $(seq 1 200); do
    for f in "$work"/int.csv* "$work"/.int.csv*; do
        [ -f "$f" ] && [ "$(wc -l <"$f")" -ge 2 ] && seen=$(($(wc -l <"$f") - 1))
    done
    [ $seen -ge 1 ] && break
    sleep 0.02
done
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "interrupted probe: exit $rc, expected 130"
grep -q 'interrupted' "$work/err" || fail "interrupted probe: our handler's message is missing: $(cat "$work/err")"
head -1 "$work/int.csv" 2>/dev/null | grep -q '^target,op,' || fail "interrupted -o file lacks the header"
kept=$(($(wc -l <"$work/int.csv" 2>/dev/null || echo 1) - 1))
measured=$(awk '/^  (write|read) +[0-9]/ { n += $NF } END { print n + 0 }' "$work/err")
[ "$kept" -ge 1 ] || fail "interrupted probe kept no row although at least one was measured"
[ "$kept" -eq "$measured" ] || fail "interrupted probe kept $kept rows, its summary counts $measured measured"
[ "$kept" -ge "$seen" ] || fail "interrupted probe kept $kept rows, $seen were on disk before the signal"
[ "$kept" -lt 16 ] || fail "interrupted probe has all 16 rows: the signal hit nothing"
ls -A "$work" | grep -q 'int.csv.' && fail "interrupted probe left a companion file: $(ls -A "$work")"
check_target_clean "interrupted run"

[ $failures -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok"
