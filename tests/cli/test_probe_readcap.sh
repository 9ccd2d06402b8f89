#!/usr/bin/env bash
# An emulated read cap (TARGET@read=RATE): the probe's cold reads are paced to it and
# labelled emulated with it, its writes are not paced; @write=...,read=... labels each op
# with its own cap; the study records the cap in meta.json and report.md; a malformed cap
# is a one-line usage error naming the target.
source "$(dirname "$0")/lib.sh"
set -e

T=$WORK/t
mkdir "$T"
echo "keep me" > "$T/sentinel"
CAP=20000000

# target_clean: nothing but the untouched sentinel is left in the target.
target_clean() {
    [ "$(ls -A "$T")" = "sentinel" ] && [ "$(cat "$T/sentinel")" = "keep me" ]
}

# --- @read=20MB/s: reads at the cap, writes not paced ---
run "$CP" probe --sizes 2MB,5MB --reps 2 --seed 5 -o "$WORK/probe.csv" "rc=$T@read=20MB/s"
expect_status 0 "probe of a read-capped target"
check "8 rows (2 sizes x 2 reps x write, read)" test "$(data_rows "$WORK/probe.csv")" -eq 8

# Columns by name; every read row within -30%/+10% of the cap, emulated with the cap. A
# fresh bucket per file grants no saved-up credit, so a read faster than the cap is a
# pacing bug, not noise.
reads_at_cap() {
    awk -F, -v cap=$CAP 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["op"] == "read" { n++
            r = $c["bytes_per_s"] / cap
            if (!(r > 0.7 && r < 1.1) || $c["emulated"] != 1 || $c["rate_cap_bps"] != cap) {
                print "bad read row: " $0 > "/dev/stderr"; bad = 1 } }
        END { exit bad || n != 4 }' "$WORK/probe.csv"
}
check "read rows at 20 MB/s (-30%/+10%), emulated 1, rate_cap_bps $CAP" reads_at_cap

# Write rows carry no cap and are not paced: the writes before the fsync (seconds -
# flush_s) take well under half the time the cap would have made them take.
writes_unpaced() {
    awk -F, -v cap=$CAP 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["op"] == "write" { n++
            paced = $c["size_bytes"] / cap
            if ($c["emulated"] != 0 || $c["rate_cap_bps"] != "" ||
                !($c["seconds"] - $c["flush_s"] < 0.5 * paced)) {
                print "bad write row: " $0 > "/dev/stderr"; bad = 1 } }
        END { exit bad || n != 4 }' "$WORK/probe.csv"
}
check "write rows not emulated, no cap, not paced" writes_unpaced
check "the summary names the read cap" grep -q "emulated 20 MB/s read cap" "$WORK/err"
check "nothing left in the target" target_clean

# --- @write=30MB/s,read=20MB/s (and the other order): each op carries its own cap ---
each_own_cap() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n++; want = $c["op"] == "read" ? 20000000 : 30000000
          if ($c["emulated"] != 1 || $c["rate_cap_bps"] != want) bad = 1 }
        END { exit bad || n != 2 }' "$WORK/out"
}
for spec in "write=30MB/s,read=20MB/s" "read=20MB/s,write=30MB/s"; do
    run "$CP" probe --sizes 2MB --reps 1 --seed 5 "both=$T@$spec"
    expect_status 0 "probe of $spec"
    check "$spec: the write row carries 30 MB/s, the read row 20 MB/s" each_own_cap
    check "$spec: the summary names both caps" \
        grep -q "emulated 30 MB/s write cap and 20 MB/s read cap" "$WORK/err"
done
check "nothing left in the target" target_clean

# --- a study records the read cap (meta.json, report.md) ---
head -c 2000000 /dev/urandom > "$WORK/in"
run "$CP" run -q -i "$WORK/in" -c copy --threads 1 --reps 1 --seed 5 --out "$WORK/R" \
    "rc=$T@read=20MB/s"
expect_status 0 "run on a read-capped target"
check "meta.json records emulated_read_cap_bytes_per_s" \
    grep -Eq '"emulated_read_cap_bytes_per_s": 20000000(\.0)?' "$WORK/R/meta.json"
check "report.md's target table says the read cap" \
    grep -q "| emulated 20 MB/s read cap on this volume |" "$WORK/R/report.md"
check "report.md's probe caption says the read cap" \
    grep -Eq "reads [0-9.]+ MB/s \(emulated 20\.0 MB/s read cap\)" "$WORK/R/report.md"
check "nothing left in the target" target_clean

# --- malformed caps: exit 2, one line quoting the target, nothing written ---
bad_cap() {
    local spec=$1 want=$2
    run "$CP" probe --sizes 2MB -o "$WORK/bad.csv" "x=$T@$spec"
    expect_status 2 "@$spec"
    expect_one_line_error "bad target 'x=.*@$want" "@$spec: one line naming the target"
    check "@$spec: nothing written" test ! -e "$WORK/bad.csv"
}
bad_cap "speed=20MB/s" "speed=20MB/s': unknown cap 'speed'; expected @RATE, @write=RATE, @read=RATE"
bad_cap "read=" "read=': 'read=' needs a RATE"
bad_cap "read=20MB/s,read=30MB/s" "read=20MB/s,read=30MB/s': 'read=' given twice"
bad_cap "read=fast" "read=fast': read cap: bad rate 'fast': expected a positive number with a unit"
bad_cap "write=20MB/s," "write=20MB/s,': an empty cap"
check "nothing left in the target" target_clean

finish
