# Helpers for the fault tests (source after lib.sh).

# Seconds allowed from a signal to the process's exit. The run must stop after the block
# in hand (compress) or the current slice of a rate-capped write (100 ms).
STOP_LIMIT_S=${STOP_LIMIT_S:-1.5}

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
    set +e
    wait "$pid"
    status=$?
    set -e
    stop_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
}

# after DELAY CMD...: runs CMD (a shell string) in the background after DELAY seconds.
after() {
    local delay=$1
    shift
    (sleep "$delay" && eval "$*") &
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
