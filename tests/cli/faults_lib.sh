# Helpers for the fault tests (source after lib.sh).

# Seconds allowed from a signal to the process's exit. The run must stop after the block
# in hand (compress) or the current slice of a rate-capped write (100 ms).
STOP_LIMIT_S=${STOP_LIMIT_S:-1.5}

# reap_since T0: waits for the background command $pid; sets status (its exit status) and
# stop_s (seconds from T0, an $EPOCHREALTIME, to its exit).
reap_since() {
    set +e
    wait "$pid"
    status=$?
    set -e
    stop_s=$(awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
}

# signal_after DELAY SIGNAL CMD...: starts CMD in the background (a shell function must
# exec the program, so the signal reaches it), sends SIGNAL after DELAY
# seconds and waits for it. Sets status, stop_s (seconds from the signal to the exit) and
# signalled (0 when the command had already finished, so the signal hit nothing).
signal_after() {
    local delay=$1 sig=$2
    shift 2
    "$@" > "$WORK/out" 2> "$WORK/err" &
    local pid=$!
    sleep "$delay"
    local t0=$EPOCHREALTIME
    signalled=1
    kill -s "$sig" "$pid" 2> /dev/null || signalled=0
    reap_since "$t0"
}

# signal_when CONDITION SIGNAL CMD...: as signal_after, but sends SIGNAL once CONDITION (a
# shell string, run with $pid set to the command's) holds, at most 30 s; no fixed sleep that
# a slow or fast machine can miss.
signal_when() {
    local cond=$1 sig=$2
    shift 2
    "$@" > "$WORK/out" 2> "$WORK/err" &
    pid=$!
    signalled=1
    wait_for 30 eval "$cond || ! kill -0 $pid 2> /dev/null" || true
    local t0=$EPOCHREALTIME
    eval "$cond" || signalled=0
    [ "$signalled" -eq 1 ] && { kill -s "$sig" "$pid" 2> /dev/null || signalled=0; }
    reap_since "$t0"
}

# has_temp DIR [BYTES]: DIR holds a chokepoint temporary file (of more than BYTES)
has_temp() {
    if [ $# -lt 2 ]; then
        [ -n "$(find "$1" -name '*chokepoint-tmp*' 2> /dev/null | head -1)" ]
    else
        [ -n "$(find "$1" -name '*chokepoint-tmp*' -size +"$2"c 2> /dev/null | head -1)" ]
    fi
}

# handled PID SIGNAL: the signal sent to PID is no longer pending, so our handler has taken
# it (a second one sent now cannot merge with it)
handled() {
    local bit
    bit=$(( 1 << ($(kill -l "$2") - 1) ))
    local pnd
    pnd=$(awk '/^ShdPnd:/ { print $2 }' "/proc/$1/status" 2> /dev/null) || return 0
    [ -z "$pnd" ] && return 0
    [ $(( 0x$pnd & bit )) -eq 0 ]
}

# expect_handler DESCRIPTION: stderr shows our handler's message (exit 130 alone is also what
# the default SIGINT action gives)
expect_handler() {
    if grep -q 'interrupted' "$WORK/err"; then ok "$1: our handler's message"; else
        not_ok "$1: no 'interrupted' on stderr: $(head -c 300 "$WORK/err")"; fi
}

# when_running DIR DELAY CMD...: runs CMD (a shell string) in the background DELAY seconds
# after DIR first holds a chokepoint temporary file (a run has started there; its output is
# written at the run's pace), or after 30 s. Anchored on the run, not on the clock of a
# machine that may be slow to start it.
when_running() {
    local dir=$1 delay=$2
    shift 2
    (
        for _ in $(seq 1500); do
            has_temp "$dir" && break
            sleep 0.02
        done
        sleep "$delay"
        eval "$*"
    ) &
}

# expect_prompt_stop DESCRIPTION: the command was signalled mid-run and exited 130 within
# STOP_LIMIT_S.
expect_prompt_stop() {
    if [ "$signalled" -ne 1 ]; then
        not_ok "$1: the command finished before the signal (status $status); make the run longer"
        return
    fi
    expect_status 130 "$1"
    if awk -v s="$stop_s" -v l="$STOP_LIMIT_S" 'BEGIN { exit !(s <= l) }'; then
        ok "$1 stopped ${stop_s} s after the signal"
    else
        not_ok "$1 took ${stop_s} s to stop after the signal (limit ${STOP_LIMIT_S} s)"
    fi
}

# csv_rows FILE: data rows in a CSV (lines after the header)
csv_rows() { [ -f "$1" ] && echo $(($(wc -l < "$1") - 1)) || echo 0; }

# csv_field FILE ROW COLUMN_NAME: a plain (unquoted) field of data row ROW (1-based)
csv_field() {
    awk -F, -v row="$2" -v name="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
        NR == row + 1 { print $c }' "$1"
}
