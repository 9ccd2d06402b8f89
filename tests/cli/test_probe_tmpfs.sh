#!/usr/bin/env bash
# chokepoint probe on small tmpfs volumes (needs root to mount): a volume too small for
# any size exits 1 naming it and its free space, leaving nothing; a roomier one is
# reported as tmpfs and called RAM.
set -u
: "${CHOKEPOINT:?set CHOKEPOINT to the built binary}"

if [ "$(id -u)" -ne 0 ]; then
    # Under CI=true (which runs as root) a failure, as tests/cli/lib.sh's skip_lab.
    if [ "${CI:-}" = true ]; then echo "FAILED: under CI=true this test must run, but: not root"; exit 1; fi
    echo "skipped: not root, cannot mount a tmpfs"
    exit 77
fi
work=$(mktemp -d /tmp/cp-cli-tmpfs.XXXXXX)
small="$work/small"
roomy="$work/roomy"
mkdir "$small" "$roomy"
cleanup() {
    umount "$small" 2>/dev/null
    umount "$roomy" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
if ! mount -t tmpfs -o size=32M tmpfs "$small" 2>/dev/null ||
   ! mount -t tmpfs -o size=96M tmpfs "$roomy" 2>/dev/null; then
    # As root a tmpfs mount must work: a failure here is a failure, not a skip.
    echo "FAIL: mounting a tmpfs failed as root (no CAP_SYS_ADMIN?)" >&2
    exit 1
fi
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# 32 MiB free minus the 64 MiB margin: nothing fits.
"$CHOKEPOINT" probe --sizes 2MB,5MB --reps 1 "tiny=$small" >"$work/out.csv" 2>"$work/err"; rc=$?
[ $rc -eq 1 ] || fail "too-small tmpfs: exit $rc, expected 1"
grep -q "tiny" "$work/err" && grep -q "free" "$work/err" ||
    fail "the error should name the volume and its free space: $(cat "$work/err")"
[ -z "$(ls -A "$small")" ] || fail "files left on the small tmpfs: $(ls -A "$small")"
[ -s "$work/out.csv" ] && fail "a failed probe printed CSV: $(cat "$work/out.csv")"

# 96 MiB: 2 MB and 5 MB fit (32 MiB usable), 50 MB is skipped with a warning.
"$CHOKEPOINT" probe --sizes 2MB,5MB,50MB --reps 1 "ram=$roomy" >"$work/out.csv" 2>"$work/err"; rc=$?
[ $rc -eq 0 ] || fail "roomy tmpfs: exit $rc: $(cat "$work/err")"
[ "$(($(wc -l <"$work/out.csv") - 1))" -eq 4 ] || fail "expected 4 rows: $(cat "$work/out.csv")"
grep -q 'skipping 50 MB' "$work/err" || fail "no warning for the skipped 50 MB: $(cat "$work/err")"
awk -F, 'NR > 1 && $8 != "tmpfs" { bad = 1 } END { exit bad }' "$work/out.csv" ||
    fail "fs_type should be tmpfs: $(cat "$work/out.csv")"
grep -q 'tmpfs (RAM)' "$work/err" || fail "the summary should call tmpfs RAM: $(cat "$work/err")"
[ -z "$(ls -A "$roomy")" ] || fail "files left on the roomy tmpfs: $(ls -A "$roomy")"

[ $failures -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok"
