#!/usr/bin/env bash
# Probe and runs targets are matched by name, else by directory (probe.csv and runs.csv
# record it); whatever stays unmatched is a warning naming both sides, on stderr and in the
# report's notes (issue 14, point 4). Files without the dir column still load.
source "$(dirname "$0")/lib.sh"
set -e

mkdir -p "$WORK/x/vol" "$WORK/other"
"$CP" fixture -q -o "$WORK/in" --size 4M --kind text --seed 3

# probe names the target 'vol' (a relative DIR), sweep names it by its absolute path.
(cd "$WORK/x" && "$CP" probe -q --sizes 2MB --reps 1 --ops write,read -o "$WORK/probe.csv" vol)
run "$CP" sweep -q -i "$WORK/in" --threads 1 --reps 1 -o "$WORK/runs.csv" "$WORK/x/vol" mem
expect_status 0 "sweep naming the target by its path"
check "probe.csv has a dir column with the resolved directory" \
    test "$(awk -F, -v c="$(csv_col "$WORK/probe.csv" dir)" 'NR > 1 { print $c }' "$WORK/probe.csv" | sort -u)" = "$(cd "$WORK/x/vol" && pwd -P)"
check "runs.csv has a dir column with the resolved directory" \
    test "$(awk -F, -v c="$(csv_col "$WORK/runs.csv" dir)" -v t="$WORK/x/vol" 'NR > 1 && $1 == t { print $c }' "$WORK/runs.csv" | sort -u)" = "$(cd "$WORK/x/vol" && pwd -P)"

run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe.csv" --format json -o "$WORK/a.json"
expect_status 0 "analyze with differently named targets"
# (The probe's own noise notes may warn on a busy machine; no warning may be about the match.)
check "no warning about the match when the directories match" \
    bash -c "! grep -q 'warning: target .*matches no probe target\|warning: target .*, series .*measured the' '$WORK/err'"
check "stderr says which probe target was used" \
    grep -q "takes its speeds from probe target 'vol' in .*probe.csv: the same directory" "$WORK/err"
if need_python3; then
    field() { python3 -c "import json,sys; a=json.load(open('$WORK/a.json')); t=[t for t in a['targets'] if t['name']==sys.argv[1]][0]; print(t[sys.argv[2]])" "$@"; }
    check "the write ceiling is known" python3 -c "import json; a=json.load(open('$WORK/a.json')); t=[t for t in a['targets'] if t['name']=='$WORK/x/vol'][0]; assert t['write_ceiling_bytes_per_s'] and t['probe_target']=='vol'"
    check "the input's read speed comes from the probe of its volume's directory" \
        test "$(field "$WORK/x/vol" read_from)" = vol
fi
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe.csv"
check "no ceiling shown as unknown for lack of a probe row" \
    bash -c "! grep -q 'no write or read speed is known' '$WORK/out'"

# A probe of another directory under another name: nothing matches; the warning names both.
run "$CP" probe -q --sizes 2MB --reps 1 --ops write -o "$WORK/probe2.csv" elsewhere="$WORK/other"
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe2.csv"
expect_status 0 "analyze with an unmatched target"
check "stderr warns, naming the runs target, its directory and the probe target left over" \
    grep -q "warning: target '$WORK/x/vol' in .*runs.csv ($(cd "$WORK/x/vol" && pwd -P)) matches no probe target by name or directory.*left unmatched in .*probe2.csv: 'elsewhere' ($(cd "$WORK/other" && pwd -P))" "$WORK/err"
check "the report's notes carry the same warning" \
    grep -q "! target '$WORK/x/vol' in .*matches no probe target.*'elsewhere'" "$WORK/out"
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/probe2.csv" --format markdown
check "the markdown notes too" grep -q "^- target '$WORK/x/vol' in .*matches no probe target" "$WORK/out"

# Files written before the dir column: matched by name only, unmatched names warned about.
printf 'target,threads,seconds,input_bytes,output_bytes\nusb,1,2.0,1000000000,400000000\nmem,1,1.0,1000000000,400000000\n' > "$WORK/old_runs.csv"
printf 'target,op,size_bytes,bytes_per_s\nstick,write,1000000,100000000\n' > "$WORK/old_probe.csv"
run "$CP" analyze "$WORK/old_runs.csv" --probe "$WORK/old_probe.csv"
expect_status 0 "files without dir columns load"
check "old files: the warning names both sides" \
    grep -q "target 'usb' in .*old_runs.csv (no directory recorded) matches no probe target.*'stick' (no directory recorded)" "$WORK/err"
printf 'target,op,size_bytes,bytes_per_s\nusb,write,1000000,100000000\n' > "$WORK/old_probe.csv"
run "$CP" analyze "$WORK/old_runs.csv" --probe "$WORK/old_probe.csv"
check "old files: the same name matches, no warning" test ! -s "$WORK/err"

# Two probe targets on one directory under other names: ambiguous, so no match.
D=$(cd "$WORK/x/vol" && pwd -P)
printf 'target,op,size_bytes,bytes_per_s,dir\nslow,write,1000000,100000000,%s\nfast,write,1000000,900000000,%s\n' "$D" "$D" > "$WORK/amb_probe.csv"
run "$CP" analyze "$WORK/runs.csv" --probe "$WORK/amb_probe.csv"
check "two probe targets on one directory: neither is guessed" \
    grep -q "matches no probe target by name or directory.*'slow' ($D), 'fast' ($D)" "$WORK/err"

finish
