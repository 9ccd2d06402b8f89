#!/usr/bin/env bash
# chokepoint compress: round trips through the system zstd and xz, every error case with its
# exit status and message, and no partial files.
source "$(dirname "$0")/lib.sh"
set -e

make_input "$WORK/in" 3000000
: > "$WORK/empty"

for engine in blocks native; do
    for threads in 1 2; do
        run "$CP" compress -i "$WORK/in" -o "$WORK/o.zst" --codec zstd:3 --threads $threads --engine $engine --block-size 256K
        expect_status 0 "zstd:3 $engine T=$threads"
        check "zstd -d restores $engine T=$threads" bash -c "zstd -qdc '$WORK/o.zst' | cmp -s - '$WORK/in'"
        run "$CP" compress -i "$WORK/in" -o "$WORK/o.xz" --codec xz:1 --threads $threads --engine $engine --block-size 512K
        expect_status 0 "xz:1 $engine T=$threads"
        check "xz -d restores $engine T=$threads" bash -c "xz -dc '$WORK/o.xz' | cmp -s - '$WORK/in'"
        rm -f "$WORK/o.zst" "$WORK/o.xz"
    done
done

run "$CP" compress -i "$WORK/in" -o "$WORK/o.copy" --codec copy -T 2
check "copy output equals input" cmp -s "$WORK/o.copy" "$WORK/in"

run "$CP" compress -i "$WORK/in" -o "$WORK/v.xz" --codec xz:0e -T 2 --verify --json
expect_status 0 "--verify --json"
check "json names every field" bash -c "for k in codec level engine threads block_size sync input_bytes output_bytes seconds bytes_per_s cpu_user_s cpu_sys_s max_rss_bytes stages reader compress writer busy_s wait_s verified; do grep -q \"\\\"\$k\\\"\" '$WORK/out' || exit 1; done"
check "json says verified true" grep -q '"verified":true' "$WORK/out"
check "json is one line" test "$(wc -l < "$WORK/out")" -eq 1

run "$CP" compress -i "$WORK/empty" -o "$WORK/empty.zst"
expect_status 0 "empty input"
check "empty input gives a valid empty frame" bash -c "test \"\$(zstd -qdc '$WORK/empty.zst' | wc -c)\" -eq 0"
run "$CP" compress -i "$WORK/empty" -o "$WORK/empty.xz" -c xz:6
check "empty input gives a valid empty xz stream" bash -c "test \"\$(xz -dc '$WORK/empty.xz' | wc -c)\" -eq 0"

run "$CP" compress -i "$WORK/in" -o /dev/null -T 2
expect_status 0 "-o /dev/null discards"
check "/dev/null is still a character device" test -c /dev/null
check "summary says MB/s" grep -q "MB/s" "$WORK/out"

# ---- errors: exit 2, one line naming the fault ----
run "$CP" compress -i "$WORK/missing" -o "$WORK/x.zst"
expect_status 2 "missing input"
expect_one_line_error "input '.*missing'.*No such file" "missing input is named"
run "$CP" compress -i "$WORK" -o "$WORK/x.zst"
expect_status 2 "directory input"
expect_one_line_error "is a directory" "directory input is named"
# An input without read permission (as root, checked as the unprivileged user nobody).
if is_root && ! command -v setpriv > /dev/null; then
    skip_check "unreadable input: root without setpriv cannot drop its privileges"
else
    cp "$WORK/in" "$WORK/secret"; chmod 000 "$WORK/secret"
    run unprivileged "$CP" compress -i "$WORK/secret" -o /dev/null
    expect_status 2 "unreadable input"
    expect_one_line_error "cannot be read" "unreadable input is named"
fi
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --codec lz4
expect_status 2 "unknown codec"
expect_one_line_error "bad codec 'lz4'.*zstd:1\.\.19.*xz:0\.\.9.*copy" "unknown codec lists the valid ones"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --codec xz:6 --codec zstd:3
expect_status 2 "two codecs for one output"
expect_one_line_error "--codec is given twice" "a second --codec is refused, not dropped"
check "nothing was written for it" test ! -e "$WORK/x.zst"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --codec zstd:22
expect_status 2 "zstd level out of range"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --threads 0
expect_status 2 "--threads 0"
expect_one_line_error "bad thread count '0'.*1 to 1024" "--threads 0 says the range"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --threads abc
expect_status 2 "--threads abc"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --engine turbo
expect_status 2 "bad engine"
expect_one_line_error "bad engine 'turbo'" "bad engine is named"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --sync sometimes
expect_status 2 "bad sync mode"
run "$CP" compress -i "$WORK/in" -o "$WORK/x.zst" --bogus
expect_status 2 "unknown option"
expect_one_line_error "unknown option '--bogus'" "unknown option is named"
run "$CP" compress -i "$WORK/in" -o
expect_status 2 "missing value"
expect_one_line_error "option '-o' needs a value" "missing value is named"
run "$CP" compress -i "$WORK/in"
expect_status 2 "missing -o"
run "$CP" compress -i "$WORK/in" -o "$WORK/nodir/x.zst"
expect_status 2 "output directory missing"
check "no stray outputs from failed runs" test ! -e "$WORK/x.zst"

echo precious > "$WORK/keep.zst"
run "$CP" compress -i "$WORK/in" -o "$WORK/keep.zst"
expect_status 2 "existing output refused"
expect_one_line_error "exists; use --force" "refusal says --force"
check "existing output untouched" grep -qx precious "$WORK/keep.zst"
ln -s "$WORK/keep.zst" "$WORK/link.zst"
run "$CP" compress -i "$WORK/in" -o "$WORK/link.zst" --force
expect_status 2 "symlink output refused even with --force"
check "symlink target untouched" grep -qx precious "$WORK/keep.zst"
run "$CP" compress -i "$WORK/in" -o "$WORK/keep.zst" --force
expect_status 0 "--force replaces"
check "replaced output is valid" bash -c "zstd -qdc '$WORK/keep.zst' | cmp -s - '$WORK/in'"
check "the summary times the old output's removal apart" grep -q "^  replaced [0-9.]* s after the clock stopped" "$WORK/out"
exec {old_fd}< "$WORK/keep.zst"
run "$CP" compress -i "$WORK/in" -o "$WORK/keep.zst" --force --json
check "--json: replacing records the removal's seconds" python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['replaced_s'] > 0" "$WORK/out"
check "the replaced output is unlinked, not left under another name" test "$(stat -L -c %h /proc/self/fd/$old_fd)" -eq 0
exec {old_fd}<&-
run "$CP" compress -i "$WORK/in" -o "$WORK/fresh.zst" --json
check "--json: a new output replaced nothing" python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['replaced_s'] == 0" "$WORK/out"
check "--json: the critical path's six parts add up to the run's time" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
p = r['path']
assert sorted(p) == sorted(['compute_s', 'core_wait_s', 'io_cpu_s', 'read_blocked_s', 'write_blocked_s', 'other_s'])
assert min(p.values()) >= 0 and abs(sum(p.values()) - r['seconds']) < 1e-6 * r['seconds'] + 1e-9
" "$WORK/out"

run "$CP" compress --help
expect_status 0 "--help"
check "--help goes to stdout and names every option" bash -c "for o in --input --output --codec --threads --engine --block-size --sync --warm --verify --force --json; do grep -q -- \"\$o\" '$WORK/out' || exit 1; done"

# ---- no space left: exit 1, the volume named, nothing left ----
if is_root && mount_tmpfs "$WORK/small" 16m; then
    head -c 40000000 /dev/urandom > "$WORK/random"
    run "$CP" compress -i "$WORK/random" -o "$WORK/small/out.zst" -c zstd:1 -T 2
    expect_status 1 "full 16 MB tmpfs"
    check "one error line saying no space" bash -c "test \$(grep -c 'error:' '$WORK/err') -eq 1 && grep 'error:' '$WORK/err' | grep -q 'No space left on device'"
    check "volume is named" grep -q "$WORK/small" "$WORK/err"
    check "no partial file on the full volume" test -z "$(ls -A "$WORK/small")"
else
    skip_lab_check "no-space case needs root to mount a tmpfs"
fi

check "no temporary files anywhere" no_temp_files "$WORK"
finish
