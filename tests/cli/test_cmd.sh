#!/usr/bin/env bash
# sweep --cmd: the user's own command timed onto a directory and into memory; paths with
# spaces and quotes reach it intact; presets; a failing command is an error row with its
# stderr while the other targets go on (exit 1); an interrupt ends the command's process
# group and leaves nothing behind.
source "$(dirname "$0")/lib.sh"
set -e

command -v zstd > /dev/null || skip "no zstd CLI"

in="$WORK/in put's file"
"$CP" fixture -o "$in" --size 6M --kind mixed --seed 5 -q
disk="$WORK/d i'r"
mkdir -p "$disk" "$WORK/good" "$WORK/bad"

# col NAME ROW_REGEX FILE: the NAME column of the first row matching ROW_REGEX
col() {
    local i
    i=$(csv_col "$3" "$1")
    awk -F, -v i="$i" -v re="$2" 'NR > 1 && $0 ~ re { print $i; exit }' "$3"
}

# Quoting: cp gets the input's and the output's paths whole; a copy of the output is kept.
run "$CP" sweep -i "$in" --cmd "cp {input} {output} && cp {output} $WORK/kept" --cmd-name copy \
    -T 1 --reps 1 --no-warmup --seed 1 -o "$WORK/q.csv" "disk=$disk"
expect_status 0 "cp through a template, paths with a space and a quote"
check "the command's output is the input, byte for byte" cmp -s "$in" "$WORK/kept"
check "the series is cmd:NAME" grep -q "^disk,cmd:copy," "$WORK/q.csv"
check "output_bytes is what the command wrote" \
    test "$(col output_bytes '^disk,' "$WORK/q.csv")" -eq "$(stat -c %s "$in")"
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"

# The zstd CLI on a directory and in memory, by template and by preset. The rows checked
# are the two-thread ones, so the size is -T2's (zstd's multi-threaded frames may differ).
want=$(zstd -q -T2 -3 -c "$in" | wc -c)
run "$CP" sweep -i "$in" --codec zstd:3,zstd-cli:3 --cmd 'zstd -q -T{threads} -3 -c {input} > {output}' \
    -T 1,2 --reps 1 --seed 2 -o "$WORK/z.csv" "disk=$disk" mem
expect_status 0 "zstd:3, the zstd-cli:3 preset and a zstd template on a directory and mem"
check "3 series x 2 targets x 2 thread counts" test "$(data_rows "$WORK/z.csv")" -eq 12
for t in disk mem; do
    for s in cmd:zstd cmd:zstd-cli:3; do
        check "$t $s measures the CLI's real output size" \
            test "$(col output_bytes "^$t,$s,.*,2,1," "$WORK/z.csv")" -eq "$want"
        cpu=$(col cpu_user_s "^$t,$s," "$WORK/z.csv")
        is_figure "$t $s: the command's CPU time" "$cpu" &&
        check "$t $s records the command's CPU time ($cpu s)" awk -v c="$cpu" 'BEGIN { exit !(c > 0) }'
        check "$t $s records the command's peak RSS" \
            test "$(col max_rss_bytes "^$t,$s," "$WORK/z.csv")" -gt 1000000
    done
done
flush=$(col flush_s '^disk,cmd:zstd,' "$WORK/z.csv")
is_figure "the directory row's flush" "$flush" &&
check "the directory rows have a flush phase ($flush s)" awk -v f="$flush" 'BEGIN { exit !(f > 0) }'
check "every row is valid" test "$(awk -F, 'NR > 1 && $0 !~ /,1,$/' "$WORK/z.csv" | wc -l)" -eq 0
check "a command's rows leave the pipeline-stage and estimate columns empty" \
    test "$(col compress_busy_s '^disk,cmd:zstd,' "$WORK/z.csv")$(col writer_busy_s '^mem,cmd:zstd,' "$WORK/z.csv")$(col mem_estimate_bytes '^disk,cmd:zstd,' "$WORK/z.csv")" = ""
check "the built-in series' rows have them" \
    test -n "$(col compress_busy_s '^disk,zstd:3,' "$WORK/z.csv")"
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"
run "$CP" analyze "$WORK/z.csv"
expect_status 0 "analyze reads the command series"
check "no pipeline-stage claim about a command" \
    test "$(grep -c '^  pipeline at' "$WORK/out")" -eq 2

# An emulated disk (as root) takes a command's writes too, and its rows say so.
if is_root && [ -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ] &&
    command -v mkfs.ext4 > /dev/null; then
    run "$CP" sweep -i "$in" --codec zstd:3,zstd-cli:3 -T 1 --reps 1 --no-warmup \
        -o "$WORK/disk.csv" "disk=$disk@100MB/s"
    expect_status 0 "a command and a built-in codec on an emulated disk"
    check "no warning that the cap cannot pace the command" \
        bash -c "! grep -q 'cannot pace\|paces chokepoint.s own' '$WORK/err'"
    check "the command's row: emulated disk at the cap" \
        test "$(col emulation '^disk,cmd:zstd-cli:3,' "$WORK/disk.csv"),$(col rate_cap_bps '^disk,cmd:zstd-cli:3,' "$WORK/disk.csv")" = "disk,100000000"
    check "nothing left in the target after the emulated disk" test -z "$(find "$disk" -mindepth 1)"
else
    skip_lab_check "an emulated disk needs root, mkfs.ext4 and cgroup v1's blkio throttle"
fi

# A cap chokepoint paces itself (O_DIRECT writes, --sync direct; or without root) cannot
# pace a command: its rows say so (not emulated, no cap), while the built-in series on the
# same target is paced and labelled.
run "$CP" sweep -i "$in" --codec zstd:3,zstd-cli:3 -T 1 --reps 1 --no-warmup -o "$WORK/cap.csv" \
    --sync direct "disk=$disk@100MB/s"
expect_status 0 "a command and a built-in codec on a capped target"
check "one warning names the target whose cap cannot pace the command" \
    test "$(grep -c "target 'disk': an emulated cap paces chokepoint's own" "$WORK/err")" -eq 1
check "the command's row is not labelled emulated" \
    test "$(col emulated '^disk,cmd:zstd-cli:3,' "$WORK/cap.csv")" = 0
check "the command's row carries no cap" \
    test -z "$(col rate_cap_bps '^disk,cmd:zstd-cli:3,' "$WORK/cap.csv")"
check "the built-in series' row is emulated at the cap" \
    test "$(col emulated '^disk,zstd:3,' "$WORK/cap.csv"),$(col rate_cap_bps '^disk,zstd:3,' "$WORK/cap.csv")" = "1,100000000"
# The probe of that target ran through the cap: its figures are the built-in series', never
# the command's.
run "$CP" probe --sizes 8M --reps 1 -q --sync direct -o "$WORK/cap-probe.csv" "disk=$disk@100MB/s"
expect_status 0 "a probe of the capped target"
run "$CP" analyze "$WORK/cap.csv" --probe "$WORK/cap-probe.csv" --format json -o "$WORK/cap.json"
expect_status 0 "analyze the capped target's runs with that probe"
# The volume's write speed is the cap that paced the built-in series, or the O_DIRECT
# speed of the disk beneath where that is slower (an 8 MB probe file's rate says little:
# 50 ms of the cap's credit are in it).
speed() {
    jq -r --arg c "$1" '.targets[] | select(.name == "disk" and .codec == $c)
                        | .write_speed_bytes_per_s' "$WORK/cap.json"
}
is_figure "the built-in series' write speed" "$(speed zstd:3)" &&
check "the built-in series' volume writes at the cap, or the disk beneath where slower ($(speed zstd:3))" \
    awk -v w="$(speed zstd:3)" 'BEGIN { exit !(w <= 1e8 && w >= 0.5e8) }'
check "the command series takes none ($(speed cmd:zstd-cli:3))" test "$(speed cmd:zstd-cli:3)" = null
check "a warning in the analysis says why" \
    grep -q "series cmd:zstd-cli:3: .* through an emulated cap" "$WORK/err"

# The other presets' programs (scripts/setup.sh --with-tests installs them).
for preset in xz-cli:1 pigz:6; do
    prog=${preset%%:*}; prog=${prog%-cli}; level=${preset#*:}
    if ! command -v "$prog" > /dev/null; then not_ok "$preset: no $prog (scripts/setup.sh --with-tests installs it)"; continue; fi
    threads_opt=-T2; [ "$prog" = pigz ] && threads_opt="-p 2"
    want=$("$prog" -q -"$level" $threads_opt -c "$in" | wc -c)
    run "$CP" sweep -i "$in" --codec "$preset" -T 2 --reps 1 --no-warmup -o "$WORK/p.csv" --force mem
    expect_status 0 "the $preset preset"
    check "$preset writes what $prog -$level writes" \
        test "$(col output_bytes "^mem,cmd:$preset," "$WORK/p.csv")" -eq "$want"
done

# run: the whole study on a command series.
run "$CP" run -i "$in" --cmd 'zstd -q -T{threads} -3 -c {input} > {output}' -T 1,2 --reps 1 --no-probe \
    --format svg --out "$WORK/study" "disk=$disk" mem
expect_status 0 "run --cmd"
check "runs.csv has the command's rows" test "$(grep -c ',cmd:zstd,' "$WORK/study/runs.csv")" -eq 4
check "the report names the series" grep -q "cmd:zstd" "$WORK/study/report.md"
check "nothing left in the target" test -z "$(find "$disk" -mindepth 1)"

# A command that fails on one target: an error row with its stderr, the others go on.
run "$CP" sweep -i "$in" --cmd 'case {output} in */bad/*) echo "disk says no" >&2; exit 3;; esac; cp {input} {output}' \
    --cmd-name picky -T 1 --reps 2 --seed 3 -o "$WORK/f.csv" good="$WORK/good" bad="$WORK/bad" mem
expect_status 1 "a failing command"
check "its rows carry the exit status and stderr" \
    bash -c "grep '^bad,cmd:picky,' '$WORK/f.csv' | grep -q 'exited with status 3: disk says no'"
check "the other targets were measured" \
    test "$(grep -Ec '^(good|mem),cmd:picky,.*,1,$' "$WORK/f.csv")" -eq 4
check "stderr names the failure" grep -q "disk says no" "$WORK/err"
# A failing series fails alone: the other series on its target are measured and judged,
# report.md is written and names the series with its exit status and first stderr line.
boom='echo "no such tool" >&2; echo "more noise" >&2; exit 3; cat {input} > {output}'
run "$CP" run -i "$in" --codec zstd:1 --cmd "$boom" --cmd-name boom -T 1 --reps 1 --no-probe \
    --format svg --out "$WORK/boom" "e=$disk" mem
expect_status 1 "run with a failing command beside zstd:1"
check "report.md is written" test -s "$WORK/boom/report.md"
check "no lock file is left in it" test ! -e "$WORK/boom/.chokepoint.lock"
check "zstd:1 was measured on both targets" \
    test "$(grep -Ec '^(e|mem),zstd:1,.*,1,$' "$WORK/boom/runs.csv")" -eq 2
check "the answer names the series, its status and first stderr line" grep -q \
    '^- e (cmd:boom): no result from its 1 run: its warm-up failed: cmd:boom exited with status 3: no such tool$' \
    "$WORK/boom/report.md"
check "zstd:1 on e is judged" grep -q '^| e (zstd:1) | 1 |' "$WORK/boom/report.md"
run "$CP" run --resume "$WORK/boom"
expect_status 1 "resuming it: the command fails again"
check "the resumed study still writes its report" grep -q 'e (cmd:boom): no result' "$WORK/boom/report.md"
check "and keeps zstd:1's runs" test "$(grep -Ec '^(e|mem),zstd:1,.*,1,$' "$WORK/boom/runs.csv")" -eq 2
run "$CP" run -i "$in" --cmd "$boom" --cmd-name boom -T 1 --reps 1 --no-probe --out "$WORK/boom2" mem
expect_status 2 "run with only a failing command"
check "the error names the first failure" \
    grep -q 'no usable runs (1 failed run skipped); the first: mem (cmd:boom): its warm-up failed: cmd:boom exited with status 3: no such tool$' "$WORK/err"
check "resuming is advised only once the cause is fixed" grep -q 'once the cause is fixed' "$WORK/err"

run "$CP" sweep -i "$in" --cmd 'true {input} {output}' -T 1 --reps 1 --no-warmup -o "$WORK/e.csv" mem
expect_status 1 "a command that writes nothing"
check "its row says so" grep -q "wrote nothing" "$WORK/e.csv"

# Usage errors.
run "$CP" sweep -i "$in" --cmd 'cp {input} /dev/null' mem
expect_status 2 "a template without {output}"
run "$CP" sweep -i "$in" --cmd "cp '{input}' {output}" mem
expect_status 2 "a quoted placeholder"
run "$CP" sweep -i "$in" --cmd-name x mem
expect_status 2 "--cmd-name without --cmd"
run "$CP" sweep -i "$in" --codec zstd-cli:42 mem
expect_status 2 "a preset level out of range"
run "$CP" sweep --help
check "--help lists the presets" grep -q "zstd-cli:1..19" "$WORK/out"

# The command runs in a process group of its own, led by chokepoint's child: the tests below
# find that child by parent PID and watch its group, and only it. live_group is the group while it
# may still run; the exit hook kills it only then (once the group is gone its ID may be
# another's).
live_group=""
CLEANUP_HOOKS+=('[ -z "$live_group" ] || kill -KILL -- "-$live_group" 2> /dev/null')
# command_group: sets group to the process group of the command chokepoint ($pid) started,
# once the child leads it (chokepoint and the child both call setpgid; either may run first).
command_group() {
    local child
    child=$(pgrep -P "$pid" | head -n 1)
    [ -n "$child" ] && [ "$(ps -o pgid= -p "$child" | tr -d ' ')" = "$child" ] || return 1
    group=$child
}
# group_gone: no process is left in $group
group_gone() { ! kill -0 -- "-$group" 2> /dev/null; }
# group_done: after the checks on $group, what is left of it (a failure) is ended now
group_done() {
    group_gone || kill -KILL -- "-$group" 2> /dev/null || true
    live_group=""
}

# An interrupt ends the command's whole process group and removes its output.
"$CP" sweep -i "$in" --cmd "cp {input} {output}; sleep 37.5" -T 1 --reps 1 --no-warmup \
    -o "$WORK/i.csv" "disk=$disk" > /dev/null 2> "$WORK/i.err" &
pid=$!
group=""
# Once the group's sleep runs (the shell may have exec'd it), the copy is done.
if wait_for 10 command_group && live_group=$group && wait_for 10 pgrep -g "$group" -x sleep > /dev/null; then
    kill -INT "$pid"
    set +e; wait "$pid"; status=$?; set -e
    expect_status 130 "interrupted while the command runs"
    check "no process of the command is left" wait_for 2 group_gone
    group_done
    check "its output is removed" test -z "$(find "$disk" -mindepth 1)"
    check "no FIFO or temporary file is left in TMPDIR" \
        test -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name "cmd-output.$pid-*" 2>/dev/null)"
else
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    not_ok "the command did not start"
fi

# chokepoint killed outright (SIGKILL: no handler runs): the program the command runs dies
# with it rather than writing on into the target.
"$CP" sweep -i "$in" --cmd "sleep 41.5 < {input} > {output}" -T 1 --reps 1 --no-warmup \
    -o "$WORK/k.csv" "disk=$disk" > /dev/null 2>&1 &
pid=$!
group=""
if wait_for 10 command_group; then
    live_group=$group
    kill -KILL "$pid"
    wait "$pid" 2> /dev/null || true
    check "SIGKILL: the command's program is gone too" wait_for 2 group_gone
    group_done
else
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    not_ok "the command did not start"
fi

finish
