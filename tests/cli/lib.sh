# Shared helpers for the CLI tests. Source it; it sets CP (the binary) and WORK (a fresh
# directory removed on exit), and counts checks so each test ends with "N passed, N failed".
set -u
CP=${CHOKEPOINT:?set CHOKEPOINT to the built chokepoint binary}
SRC_DIR=${SRC_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cp-cli.XXXXXX")
PASSED=0
FAILED=0
SKIPPED=0
CLEANUP_HOOKS=()

cleanup() {
    local hook
    for hook in "${CLEANUP_HOOKS[@]+"${CLEANUP_HOOKS[@]}"}"; do eval "$hook" || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# descendants PID: every process below PID (children, their children, ...), one a line,
# not counting the listing's own processes.
descendants() {
    ps -e -o pid=,ppid= | awk -v root="$1" -v self="$BASHPID" '
        { kids[$2] = kids[$2] " " $1 }
        END {
            queue = root
            while (queue != "") {
                split(queue, now, " "); queue = ""
                for (i in now) {
                    n = split(kids[now[i]], k, " ")
                    for (j = 1; j <= n; j++) if (k[j] != self) { print k[j]; queue = queue " " k[j] }
                }
            }
        }'
}

# end_descendants: ends every process this test started, however deep: SIGTERM, which
# chokepoint answers by cleaning up, then SIGKILL for what is left after 2 s. One blocked
# in a write to a throttled lab volume ends once the clean-up lifts the cap (lab_volumes).
end_descendants() {
    local pids i
    pids=$(descendants $$)
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086
    kill -TERM $pids 2> /dev/null || true
    for i in $(seq 40); do
        # shellcheck disable=SC2086
        ps -o stat= -p "$(echo $pids | tr ' ' ,)" | grep -qv '^Z' || break
        sleep 0.05
    done
    # shellcheck disable=SC2086
    kill -KILL $pids 2> /dev/null || true
}

# A test killed by a signal (ctest's timeout sends SIGTERM, ^C SIGINT) ends the commands
# it started and runs its clean-up (the EXIT trap: lab volumes, mounts, settings), then
# exits 128 + the signal's number. Commands run through run() and measure_until_judged
# wait in the background, so the signal is seen while they run.
on_signal() {
    trap '' TERM INT HUP
    echo "FAILED: killed by SIG$1: ending its commands and taking down what it set up"
    end_descendants
    exit $((128 + $2))
}
trap 'on_signal TERM 15' TERM
trap 'on_signal INT 2' INT
trap 'on_signal HUP 1' HUP

ok() { PASSED=$((PASSED + 1)); echo "ok: $*"; }
not_ok() { FAILED=$((FAILED + 1)); echo "FAILED: $*"; }
# skip_check REASON: one check that cannot run here; counted and listed by scripts/test.sh
# (the test itself goes on; skip, below, ends it).
skip_check() { SKIPPED=$((SKIPPED + 1)); echo "SKIPPED: $*"; }

# SANITIZER_REPORT: what AddressSanitizer, LeakSanitizer, UndefinedBehaviorSanitizer and
# ThreadSanitizer print when they find something (an extended regular expression).
SANITIZER_REPORT='ERROR: (AddressSanitizer|LeakSanitizer)|: runtime error: |WARNING: ThreadSanitizer|^SUMMARY: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|ThreadSanitizer)'

# run CMD...: runs a command, keeping its exit status in $status, stdout in $WORK/out,
# stderr in $WORK/err. A sanitizer's report in its stderr is a failure of its own,
# whatever status the test expects (a leak on an error path still exits 1, or 86 under
# scripts/ci-sanitize.sh). The command runs in the background, waited for, so a signal
# to the test is handled while it runs (on_signal).
run() {
    set +e
    "$@" <&0 > "$WORK/out" 2> "$WORK/err" &
    status=0
    wait $! || status=$?
    set -e
    if grep -Eq -- "$SANITIZER_REPORT" "$WORK/err"; then
        not_ok "a sanitizer's report from: $(printf '%q ' "$@" | head -c 200): $(grep -Em 1 -- "$SANITIZER_REPORT" "$WORK/err")"
    fi
    return 0
}

# is_figure NAME VALUE...: true when every VALUE is a finite decimal number; otherwise one
# failure naming NAME and what came instead (a missing figure, a crashed helper's empty
# output, an empty list or "nan" is a failure with its reason, never a pass). Call it on
# every figure before comparing it: `is_figure "worst error" "$w" && check ...`.
is_figure() {
    local name=$1 v
    shift
    if [ $# -eq 0 ]; then not_ok "$name: no figure at all"; return 1; fi
    for v in "$@"; do
        if ! printf '%s' "$v" | grep -Eq '^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$'; then
            not_ok "$name: '$v' is not a number"
            return 1
        fi
    done
}

# expect_status N DESCRIPTION
expect_status() {
    if [ "$status" -eq "$1" ]; then ok "$2 (exit $1)"; else
        not_ok "$2: exit $status, expected $1; stderr: $(head -c 400 "$WORK/err")"; fi
}

# expect_err_match REGEX DESCRIPTION: stderr matches and is exactly one line
expect_one_line_error() {
    local lines
    lines=$(wc -l < "$WORK/err")
    if grep -Eq -- "$1" "$WORK/err" && [ "$lines" -eq 1 ]; then ok "$2"; else
        not_ok "$2: stderr ($lines lines) does not match /$1/: $(head -c 400 "$WORK/err")"; fi
}

# check DESCRIPTION CMD...: passes when the command succeeds
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# no_temp_files DIR: nothing chokepoint-made is left in DIR
no_temp_files() {
    [ -z "$(find "$1" -name '*chokepoint-tmp*' 2>/dev/null)" ]
}

finish() {
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
    [ "$FAILED" -eq 0 ]
}

# skip REASON: ends the test as skipped (ctest SKIP_RETURN_CODE 77), for a capability this
# machine lacks (not root, no loop devices, no delay accounting, too little free space) or a
# timing judgement under the sanitizers. A failure recorded before it is not hidden: the
# test then fails (exit 1), and its last lines say both.
skip() {
    if [ "$FAILED" -gt 0 ]; then
        echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
        echo "FAILED: $FAILED check(s) failed before the test would have skipped ($*)"
        exit 1
    fi
    echo "skipped: $*"
    exit 77
}

# skip_lab REASON: ends a test whose checks need root, loop devices or a machine-wide
# setting it cannot have here. As a user runs the suite, that is a skip (77); under
# CI=true (CI runs as root, where these checks are the suite's only ones held to a real
# slow volume) it is a failure: the physics checks cannot vanish there.
skip_lab() {
    if [ "${CI:-}" = true ]; then
        echo "$PASSED passed, $((FAILED + 1)) failed, $SKIPPED skipped"
        echo "FAILED: under CI=true this test must run, but: $*"
        exit 1
    fi
    skip "$*"
}

# skip_lab_check REASON: skip_check for one such check; under CI=true a failure.
skip_lab_check() {
    if [ "${CI:-}" = true ]; then not_ok "under CI=true this check must run, but: $*"; else
        skip_check "$*"; fi
}

# need_free_space BYTES DIR: skips (77), saying what it needs and what there is, when the
# file system holding DIR has fewer than BYTES free.
need_free_space() {
    local avail
    avail=$(df -P -B1 "$2" | awk 'NR == 2 { print $4 }')
    [ "${avail:-0}" -ge "$1" ] ||
        skip "needs $(awk -v b="$1" 'BEGIN { printf "%.1f GiB", b / 2^30 }') free in $2, has $(awk -v b="${avail:-0}" 'BEGIN { printf "%.1f GiB", b / 2^30 }')"
}

# measure_until_judged N ATTEMPT: the bounded re-measurement of a noisy machine. Calls the
# function ATTEMPT (its argument: the attempt's number) up to N times, until it returns 0:
# its figures can be judged. An ATTEMPT that cannot judge sets $unjudged to why (its
# figures) and returns 1; after N such attempts that is a failure, with every attempt's
# reason. A test that only skipped here would judge nothing on a busy machine.
# ATTEMPT runs under set -e: a command that fails where set -e would stop a script (a
# helper that crashed inside a command substitution, a failed wait) ends the attempt as a
# failure naming the command, never as judged figures, and never as merely unjudgeable
# when $unjudged is empty. That holds even when the call is the condition of an if or ||
# (where bash ignores set -e in every function and subshell below it): the attempt runs
# in a bash of its own, given the test's functions and variables, and the variables it
# changes (its checks' counts, $unjudged, the figures it sets, its clean-up hooks) are
# carried back. A skip inside it ends the test as skipped. Its $$ is its own, and what it
# left in the background is not the caller's to wait for.
measure_until_judged() {
    local _mu_n=$1 _mu_fn=$2 _mu_i _mu_reasons="" _mu_rc _mu_v
    local _mu_env=$WORK/.attempt-env _mu_state=$WORK/.attempt-state
    for _mu_i in $(seq 1 "$_mu_n"); do
        unjudged=""
        attempt_failed=""
        {
            declare -f
            for _mu_v in $(_mu_vars); do declare -p "$_mu_v"; done
            set +o
            shopt -p
        } > "$_mu_env"
        : > "$_mu_state"
        _mu_rc=0
        bash -c '. "$1"; _mu_state=$2; _mu_snapshot; trap _mu_on_exit EXIT; trap _mu_on_err ERR
                 set -eE; "$3" "$4"' "$0" "$_mu_env" "$_mu_state" "$_mu_fn" "$_mu_i" &
        wait $! || _mu_rc=$?
        # shellcheck disable=SC1090
        . "$_mu_state"
        if [ "$_mu_rc" -eq 77 ]; then exit 77; fi
        if [ "$_mu_rc" -eq 0 ]; then
            [ "$_mu_i" -eq 1 ] || echo "judged on attempt $_mu_i of $_mu_n (earlier: $_mu_reasons)"
            return 0
        fi
        if [ -z "$unjudged" ]; then
            not_ok "attempt $_mu_i of $_mu_n stopped (exit $_mu_rc) before its figures could be judged, at: ${attempt_failed:-an exit}"
            return 1
        fi
        echo "attempt $_mu_i of $_mu_n cannot be judged: $unjudged"
        _mu_reasons="${_mu_reasons:+$_mu_reasons; }$_mu_i: $unjudged"
    done
    not_ok "no attempt of $_mu_n could be judged: $_mu_reasons"
    return 1
}

# _mu_on_exit: the EXIT trap of an attempt: writes what it changed for the caller.
_mu_on_exit() { _mu_changes > "$_mu_state"; }
# _mu_on_err: the ERR trap of an attempt: keeps the first failed command and its status.
_mu_on_err() {
    local s=$? c=$BASH_COMMAND
    [ -n "${attempt_failed:-}" ] || attempt_failed="${c:0:300} (exit $s)"
}
# _mu_vars: the test's own variables (not the shell's, not measure_until_judged's).
_mu_vars() {
    compgen -v | grep -Ev '^(_mu_.*|BASH.*|FUNCNAME|LINENO|RANDOM|SRANDOM|SECONDS|EPOCH.*|PIPESTATUS|PPID|UID|EUID|GROUPS|HISTCMD|OPTIND|OPTARG|OPTERR|DIRSTACK|PWD|OLDPWD|SHELLOPTS|SHLVL|COLUMNS|LINES|IFS|PS[0-9]|_)$'
}
# _mu_snapshot: records every such variable's value (in _mu_before), inside the attempt.
_mu_snapshot() {
    local - _mu_v
    set +eu
    declare -gA _mu_before=()
    _mu_depth=${#FUNCNAME[@]}
    for _mu_v in $(_mu_vars); do
        local -n _mu_r=$_mu_v
        _mu_before[$_mu_v]="${_mu_r@a}:${_mu_r[*]@K}"
        unset -n _mu_r
    done
}
# _mu_changes: the assignments that give the caller the variables the attempt changed or
# made. An attempt stopped inside a function (its locals still in scope) carries back only
# what the failure report needs: the checks' counts, the clean-up hooks, $unjudged.
_mu_changes() {
    local - _mu_v _mu_a _mu_only=""
    set +eu
    # (called from _mu_on_exit: one frame deeper than _mu_snapshot at the top)
    [ "${#FUNCNAME[@]}" -eq $((_mu_depth + 1)) ] ||
        _mu_only=" PASSED FAILED SKIPPED CLEANUP_HOOKS unjudged attempt_failed status "
    for _mu_v in $(_mu_vars); do
        [[ -z $_mu_only || $_mu_only = *" $_mu_v "* ]] || continue
        local -n _mu_r=$_mu_v
        _mu_a=${_mu_r@a}
        if [[ $_mu_a != *r* && "${_mu_before[$_mu_v]-}" != "$_mu_a:${_mu_r[*]@K}" ]]; then
            case $_mu_a in
            *A*) printf 'declare -gA %s=(%s)\n' "$_mu_v" "${_mu_r[*]@K}" ;;
            *a*) printf '%s=(%s)\n' "$_mu_v" "${_mu_r[*]@Q}" ;;
            *) printf '%s=%s\n' "$_mu_v" "${_mu_r@Q}" ;;
            esac
            [[ $_mu_a != *x* ]] || printf 'export %s\n' "$_mu_v"
        fi
        unset -n _mu_r
    done
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# unprivileged CMD...: runs CMD as an ordinary user, so permission checks apply: as root,
# as nobody (uid/gid 65534, via setpriv) with $WORK opened for traversal; otherwise (or
# as root without setpriv, which the caller reports with skip_check) as the caller.
unprivileged() {
    if ! is_root || ! command -v setpriv > /dev/null; then "$@"; return; fi
    chmod 755 "$WORK"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# mount_tmpfs DIR SIZE: mounts a small tmpfs (root only), unmounted at exit. Returns 1
# without root (the caller says "skipped"); as root a failed mount is a failure, not a
# skip, so a CI machine that should run the section cannot pass it silently.
mount_tmpfs() {
    mkdir -p "$1"
    is_root || return 1
    if ! mount -t tmpfs -o size="$2" tmpfs "$1" 2> "$WORK/mount.err"; then
        not_ok "mounting a $2 tmpfs on $1 as root failed: $(cat "$WORK/mount.err")"
        return 1
    fi
    CLEANUP_HOOKS+=("umount '$1'")
}

# need_lab: what the lab-volume tests need: root and a free loop device (else skip_lab: a
# skip, 77, or under CI=true a failure),
# and jq to read the analysis (its absence fails: scripts/setup.sh --with-tests has it).
need_lab() {
    if [ "$(id -u)" -ne 0 ] || [ ! -e /dev/loop-control ] || ! losetup --find >/dev/null 2>&1; then
        skip_lab "needs root and a free loop device"
    fi
    command -v jq >/dev/null || { echo "FAILED: jq is needed (scripts/setup.sh --with-tests)"; exit 1; }
}

# lab_volumes "NAME:MBPS ..." SIZE: loop-mounted volumes whose devices read and write at
# MBPS MB/s each (scripts/lab-volumes.sh, block cgroup), in a lab instance of this test's
# own, taken down at exit (a signal to the test too: on_signal). Sets $lab_targets to their
# TARGET arguments (NAME=DIR, space-separated); lab CMD... runs a command inside the
# throttling cgroup. Skips (77) where no loop device can be throttled (skip_lab: under
# CI=true that fails); fails when the set-up breaks.
lab_volumes() {
    LAB=$SRC_DIR/scripts/lab-volumes.sh
    local state rc=0
    state=$(mktemp -d /var/tmp/chokepoint-truth.XXXXXX)
    export CHOKEPOINT_LAB_DIR=$state/lab
    export CHOKEPOINT_LAB_VOLUMES="$1"
    export CHOKEPOINT_LAB_SIZE=$2
    export CHOKEPOINT_LAB_CGROUP=chokepoint-truth-$$
    # Down lifts the caps first; a command still blocked on a throttled write (a test
    # killed by a signal) then drains and ends, and a later try finds its volume free.
    CLEANUP_HOOKS+=("for _ in \$(seq 100); do bash '$LAB' down >/dev/null 2>&1 && break; sleep 0.2; done; rm -rf '$state'")
    bash "$LAB" up >/dev/null || rc=$?
    [ "$rc" -ne 77 ] || skip_lab "lab-volumes.sh could not throttle a loop device here"
    [ "$rc" -eq 0 ] || { echo "FAILED: lab-volumes.sh up exited $rc"; exit 1; }
    lab_targets=$(bash "$LAB" targets)
}

# lab_slow_volume MBPS SIZE: one such volume named "slow"; sets $slow to its TARGET.
lab_slow_volume() {
    lab_volumes "slow:$1" "$2"
    slow=$lab_targets
}
lab() { bash "$LAB" exec -- "$@"; }

# hold_writeback_room BYTES: the page cache's background write-back threshold is at least
# BYTES while the test runs. Where the kernel's own (/proc/vmstat's
# nr_dirty_background_threshold) is lower, as on a machine with little memory, it raises
# vm.dirty_background_bytes to BYTES and vm.dirty_bytes to twice that, and puts both files
# of each pair back at exit (a ratio of 0 and bytes of 0 are not the same setting). Root
# only, as the lab tests are.
hold_writeback_room() {
    local page now vm f old
    page=$(getconf PAGESIZE)
    now=$(awk -v p="$page" '$1 == "nr_dirty_background_threshold" { printf "%d", $2 * p }' /proc/vmstat)
    [ "${now:-0}" -lt "$1" ] || return 0
    echo "the background write-back threshold ($now bytes) is below $1: held at $1 for this test"
    for vm in dirty_background dirty; do
        for f in "${vm}_ratio" "${vm}_bytes"; do
            old=$(cat "/proc/sys/vm/$f")
            [ "$old" = 0 ] || CLEANUP_HOOKS+=("echo $old > /proc/sys/vm/$f")
        done
    done
    echo $(($1 * 2)) > /proc/sys/vm/dirty_bytes
    echo "$1" > /proc/sys/vm/dirty_background_bytes
}

# need_python3: python3 reads the JSON the tests check; scripts/setup.sh --with-tests
# installs it. Its absence is a failure (the checks would otherwise never run).
need_python3() {
    command -v python3 > /dev/null && return 0
    not_ok "python3 is missing (scripts/setup.sh --with-tests installs it): JSON checks not run"
    return 1
}

# json_get FILE EXPR: prints the Python expression EXPR over FILE's JSON, bound to m
# delayacct_idle SECONDS: waits until no other chokepoint on the machine holds
# kernel.task_delayacct raised (their shared locks on its holders file keep an exclusive
# one from being taken), at most SECONDS; 1 when one still does. Until then the setting is
# theirs to put back, whatever this test's commands did.
delayacct_idle() {
    local holders=/run/chokepoint/task_delayacct.holders
    wait_for "$1" bash -c "! { [ -e '$holders' ] && ! flock -xn '$holders' true; }"
}

json_get() { python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

# wait_for SECONDS CMD...: polls CMD every 20 ms until it succeeds (0) or SECONDS pass (1).
wait_for() {
    local limit=$1 t0=$EPOCHREALTIME
    shift
    while ! "$@"; do
        awk -v a="$t0" -v b="$EPOCHREALTIME" -v l="$limit" 'BEGIN { exit !(b - a < l) }' || return 1
        sleep 0.02
    done
}

# lines_at_least N GLOB: some file matching GLOB has at least N lines
lines_at_least() {
    local f
    for f in $2; do
        [ -f "$f" ] && [ "$(wc -l < "$f")" -ge "$1" ] && return 0
    done
    return 1
}

# csv_col FILE NAME: the 1-based index of column NAME in FILE's header (empty if absent)
csv_col() {
    head -1 "$1" | tr -d '\r' | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1
}

# sanitized: true when the suite runs under the sanitizers (scripts/ci-sanitize.sh sets
# CHOKEPOINT_SANITIZED=1). They slow the CPU's work 2-3x and not the disk's, so a test that
# judges timings against the physics runs every command (for the sanitizers' findings) but
# judges no time there.
sanitized() { [ "${CHOKEPOINT_SANITIZED:-0}" = 1 ]; }

# median_of: the middle of the numbers on stdin, one per line (the lower middle of an even
# count); nothing for none
median_of() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# data_rows FILE: lines after the header (0 when FILE is missing)
data_rows() { [ -f "$1" ] && echo $(($(wc -l < "$1") - 1)) || echo 0; }

# make_input FILE BYTES: deterministic, compressible test data
make_input() {
    local n=0
    : > "$1"
    while [ "$(stat -c %s "$1")" -lt "$2" ]; do
        seq $((n * 10000)) $((n * 10000 + 9999)) >> "$1"
        head -c 20000 "$SRC_DIR/CMakeLists.txt" >> "$1"
        n=$((n + 1))
    done
    truncate -s "$2" "$1"
}
