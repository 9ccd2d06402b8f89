#!/usr/bin/env bash
# One command per target directory (issue 13 item 6): while a sweep, probe or run measures
# a directory, a second sweep, probe or run on it is refused at once (exit 2, one line
# naming the target, the directory and the holder's PID) and leaves nothing behind; another
# directory works at the same time, as do two targets of one command on one directory;
# after SIGKILL the lock file left behind does not block; a finished command leaves the
# directory as it found it; run's default targets are the study's own, so two studies with
# the defaults run side by side.
source "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"
head -c 1000000 /dev/urandom > in.bin
mkdir t u
LOCK=.chokepoint-target.lock

# holds_lock DIR PID: DIR's target lock file names PID
holds_lock() { [ "$(cat "$1/$LOCK" 2> /dev/null)" = "$2" ]; }

# refused_by PID WHAT: the last command was refused in one line naming target t and PID
refused_by() {
    expect_status 2 "$2 while pid $1 measures t"
    expect_one_line_error \
        "error: target '[^']+' \\(($WORK/)?t/?\\) is in use by another chokepoint process \\(pid $1\\); wait for it or choose another directory" \
        "$2: the refusal names the target, its directory and the other process"
}

# live_pid: the background command while it may still run; the exit hook kills it only
# then (once it has been waited for, its PID may be another process's).
live_pid=""
CLEANUP_HOOKS+=('[ -z "$live_pid" ] || kill -KILL "$live_pid" 2> /dev/null')

# has_temp_file DIR: a temporary file is in DIR
has_temp_file() { [ -n "$(find "$1" -name '*.chokepoint-tmp')" ]; }

# only_files_of PID DIR: DIR holds nothing but PID's temporary files and its lock
only_files_of() { [ -z "$(find "$2" -mindepth 1 ! -name "*.$1-*" ! -name "$LOCK")" ]; }

# ---- a sweep measures t: sweep, probe and run on t are refused ----
# (Its output is paced by an emulated cap, in the process itself, one O_DIRECT write at a
# time, so its temporary file is in t itself: a --cmd child would outlive the SIGKILL
# below and write into t after it, and an emulated disk would hold the file in its image.)
"$CP" sweep -q -i in.bin -c copy -T 1 --reps 1 --no-warmup --sync direct -o first.csv \
    "t=$WORK/t@100KB/s" > /dev/null 2> first.err &
pid=$!
live_pid=$pid
check "the sweep holds t's lock (its PID inside)" wait_for 15 holds_lock t $pid

run "$CP" sweep -i in.bin -c copy -T 1 --reps 1 --no-warmup -o second.csv "ssd=$WORK/t"
refused_by $pid "a second sweep"
check "the refused sweep made no -o file" test ! -e second.csv -a ! -e second.csv.partial
run "$CP" probe --sizes 1M --reps 1 -o probe.csv "t/"
refused_by $pid "a probe (the directory spelled t/)"
check "the refused probe made no -o file" test ! -e probe.csv -a ! -e probe.csv.partial
run "$CP" run --quick --fixture-size 1M --threads 1 --no-probe --out R t mem
refused_by $pid "a run"
check "the refused run made no results directory" test ! -e R -a ! -e results
check "nothing of the refused commands is in t" only_files_of $pid t

run "$CP" sweep -q -i in.bin -c copy -T 1 --reps 1 --no-warmup -o other.csv "u=$WORK/u" mem
expect_status 0 "meanwhile a sweep on another directory"
run "$CP" sweep -q -i in.bin -c copy -T 1 --reps 1 --no-warmup a=u "b=u/@50MB/s"
expect_status 0 "two targets of one sweep on one directory (one lock)"
check "u is left as found" test -z "$(find u -mindepth 1)"

check "the sweep is writing its output in t" wait_for 15 has_temp_file t
kill -KILL $pid
wait $pid 2> /dev/null || true
live_pid=""
check "the killed sweep's lock file stays in t" test -e "t/$LOCK"
run "$CP" probe --sizes 1M --reps 1 -o probe.csv "t=$WORK/t"
expect_status 0 "after SIGKILL a probe on t is not blocked"
check "the probe removed the killed sweep's temporary file" \
    grep -q "removed 1 leftover temporary file.*pid $pid" "$WORK/err"
check "t is left as found (no lock file, no temporary file)" test -z "$(find t -mindepth 1)"

# ---- a run holds its targets for the whole study ----
slow_cmd='sleep 3; cat {input} > {output}'
"$CP" run -q -i in.bin -c copy --cmd "$slow_cmd" --threads 1 --reps 1 --no-probe --out S \
    "t=$WORK/t" > /dev/null 2>&1 &
pid=$!
live_pid=$pid
check "the run holds t's lock" wait_for 15 holds_lock t $pid
run "$CP" sweep -i in.bin -c copy -T 1 --reps 1 --no-warmup "t=$WORK/t"
refused_by $pid "a sweep"
set +e
wait $pid
status=$?
set -e
live_pid=""
expect_status 0 "the run holding t completes"
check "t is left as found after the run" test -z "$(find t -mindepth 1)"

# ---- a probe holds its targets ----
"$CP" probe -q --sizes 20MB --reps 1 -o slow-probe.csv "t=$WORK/t@5MB/s" > /dev/null 2>&1 &
pid=$!
live_pid=$pid
check "the probe holds t's lock" wait_for 15 holds_lock t $pid
run "$CP" probe --sizes 1M --reps 1 "slow=$WORK/t"
refused_by $pid "a second probe"
kill -TERM $pid
wait $pid 2> /dev/null || true
live_pid=""
check "t is left as found after the interrupted probe" test -z "$(find t -mindepth 1)"

# ---- two studies with the default targets side by side ----
shm_study=""
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
    # A PID above the kernel's pid_max: no process has it, now or later.
    dead=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
    shm_study=/dev/shm/chokepoint-study.$dead-0.chokepoint-tmp
    mkdir "$shm_study"
    CLEANUP_HOOKS+=("rm -rf '$shm_study'")
    head -c 1000 /dev/zero > "$shm_study/.chokepoint-run.$dead-5.chokepoint-tmp"
    echo "$dead" > "$shm_study/$LOCK"
fi
"$CP" run -q --fixture-size 2M --threads 1 --reps 1 --no-probe --out D1 > /dev/null 2> d1.err &
p1=$!
"$CP" run -q --fixture-size 2M --threads 1 --reps 1 --no-probe --out D2 > /dev/null 2> d2.err &
p2=$!
set +e
wait $p1
s1=$?
wait $p2
s2=$?
set -e
check "two studies with the default targets at once both complete ($s1, $s2)" \
    test "$s1" -eq 0 -a "$s2" -eq 0
if [ -n "$shm_study" ] && need_python3; then
    for d in D1 D2; do
        dir=$(python3 -c "import json; m=json.load(open('$d/meta.json')); print([t['dir'] for t in m['targets'] if t['name']=='shm'][0])")
        check "$d's shm target is a directory of its own in /dev/shm ($dir)" \
            bash -c "case '$dir' in /dev/shm/chokepoint-study.*.chokepoint-tmp) ;; *) exit 1;; esac"
        check "$d's shm directory is removed at the end" test ! -e "$dir"
    done
    check "a dead study's directory in /dev/shm is removed, with what it left" test ! -e "$shm_study"
fi
check "each results directory is left without a target lock" test ! -e "D1/$LOCK" -a ! -e "D2/$LOCK"
finish
