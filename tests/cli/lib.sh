# Shared helpers for the CLI tests. Source it; it sets CP (the binary) and WORK (a fresh
# directory removed on exit), and counts checks so each test ends with "N passed, N failed".
set -u
CP=${CHOKEPOINT:?set CHOKEPOINT to the built chokepoint binary}
SRC_DIR=${SRC_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cp-cli.XXXXXX")
PASSED=0
FAILED=0
CLEANUP_HOOKS=()

cleanup() {
    local hook
    for hook in "${CLEANUP_HOOKS[@]+"${CLEANUP_HOOKS[@]}"}"; do eval "$hook" || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

ok() { PASSED=$((PASSED + 1)); echo "ok: $*"; }
not_ok() { FAILED=$((FAILED + 1)); echo "FAILED: $*"; }

# run CMD...: runs a command, keeping its exit status in $status, stdout in $WORK/out,
# stderr in $WORK/err.
run() {
    set +e
    "$@" > "$WORK/out" 2> "$WORK/err"
    status=$?
    set -e
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
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}

# skip REASON: ends the test as skipped (ctest SKIP_RETURN_CODE 77)
skip() {
    echo "skipped: $*"
    exit 77
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# mount_tmpfs DIR SIZE: mounts a small tmpfs (root only), unmounted at exit
mount_tmpfs() {
    mkdir -p "$1"
    mount -t tmpfs -o size="$2" tmpfs "$1" 2>/dev/null || return 1
    CLEANUP_HOOKS+=("umount '$1'")
}

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
