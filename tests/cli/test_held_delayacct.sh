#!/usr/bin/env bash
# kernel.task_delayacct, which a measuring command turns on for its figures, is the
# machine's and not one process's: a chokepoint that ends while another still measures
# must leave it on, the last one to end must put the original back, and one killed with
# SIGKILL (which can run no handler) leaves it on only until the next one ends. A record of
# the original that no live chokepoint holds, found before the test begins, is a failure
# (then the next one to end must put it back). Root only (under CI=true its absence fails).
# Another chokepoint on the machine that holds the setting during an attempt decides these
# claims instead of the test's commands: the attempt is measured again, three at most.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SYSCTL=/proc/sys/kernel/task_delayacct
[ -w "$SYSCTL" ] || skip_lab "no kernel.task_delayacct to change here (needs root)"
RECORD=/run/chokepoint/task_delayacct.original
HOLDERS=/run/chokepoint/task_delayacct.holders
LOCK=/run/chokepoint/task_delayacct.lock

run "$CP" fixture -o "$WORK/in.bin" --size 16M --kind text --seed 3 -q
expect_status 0 "a 16 MiB fixture"
mkdir "$WORK/vol"

# long_run: a measuring command that lasts seconds (xz at a high level, one thread).
long_run() {
    "$CP" compress -i "$WORK/in.bin" -c xz:6 -T 1 -o "$WORK/vol/x.xz" --force \
        > "$WORK/long.out" 2> "$WORK/long.err" &
    long_pid=$!
    for _ in $(seq 100); do
        [ "$(cat $SYSCTL)" = 1 ] && return 0
        sleep 0.05
    done
    return 1
}
short_run() {
    run "$CP" probe --sizes 1M --reps 1 -q -o "$WORK/probe.csv" --force "$WORK/vol"
    expect_status 0 "a short probe beside it"
}

# others_hold: another chokepoint on this machine holds the setting now (its shared lock on
# the holders file keeps an exclusive one from being taken). The claims below are about
# this test's own commands; another holder's end would decide them instead.
others_hold() { [ -e "$HOLDERS" ] && ! flock -xn "$HOLDERS" true; }
# idle: waits up to 120 s for other holders to end, so an attempt starts from the original.
idle() { wait_for 120 bash -c "! { [ -e '$HOLDERS' ] && ! flock -xn '$HOLDERS' true; }"; }

# A record of the original with no live holder (read under the record's lock, as
# chokepoint writes it) was left by a chokepoint that ended without putting the setting
# back: the leftover this test exists to catch, whatever left it. It is a failure; then
# the next chokepoint to end must put the recorded original back, as after a SIGKILL.
orphaned_record() {
    [ -e "$LOCK" ] || return 1
    flock -x "$LOCK" bash -c "[ -e '$RECORD' ] && { [ ! -e '$HOLDERS' ] || flock -xn '$HOLDERS' true; }"
}
if orphaned_record; then
    recorded=$(cat "$RECORD")
    not_ok "a record of task_delayacct's original ($recorded) is left with no live chokepoint holding it (now $(cat "$SYSCTL"))"
    short_run
    check "the next chokepoint to end put the dead one's original ($recorded) back" \
        test "$(cat "$SYSCTL")" = "$recorded" -a ! -e "$RECORD"
fi
! others_hold || skip "another chokepoint holds task_delayacct now: its end, not this test's commands, would decide the claims"
old=$(cat "$SYSCTL")
CLEANUP_HOOKS+=("echo $old > $SYSCTL")

# Two at once: the one that ends first must not turn it off under the other.
together() {
    idle || { unjudged="another chokepoint held the setting for 120 s"; return 1; }
    echo 0 > "$SYSCTL"
    check "a measuring command turns delay accounting on" long_run
    short_run
    if kill -0 "$long_pid" 2> /dev/null; then
        check "the short command left it on while the long one still measures" \
            test "$(cat $SYSCTL)" = 1
    else
        skip_check "the long command ended before the short one; nothing overlapped"
    fi
    wait "$long_pid"
    if others_hold; then
        unjudged="another chokepoint began holding the setting during the attempt"
        return 1
    fi
    check "the last one to end put the original back" test "$(cat $SYSCTL)" = 0
    check "and removed the record of it" test ! -e "$RECORD"
}
measure_until_judged 3 together

# Killed: no handler runs, so the next one to end puts it back.
killed() {
    idle || { unjudged="another chokepoint held the setting for 120 s"; return 1; }
    echo 0 > "$SYSCTL"
    check "a measuring command turns delay accounting on again" long_run
    kill -KILL "$long_pid"
    wait "$long_pid" 2> /dev/null || true
    check "SIGKILL leaves it on (documented)" test "$(cat $SYSCTL)" = 1
    check "with the original recorded" grep -qx 0 "$RECORD"
    short_run
    if others_hold; then
        unjudged="another chokepoint began holding the setting during the attempt"
        return 1
    fi
    check "the next chokepoint to end put the killed one's original back" \
        test "$(cat $SYSCTL)" = 0
    check "and removed the record of it" test ! -e "$RECORD"
}
measure_until_judged 3 killed
finish
