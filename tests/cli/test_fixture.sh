#!/usr/bin/env bash
# chokepoint fixture: exact sizes, reproducible bytes, refusal to overwrite, usage errors
# with exit 2, and no temporary files left behind.
set -u
: "${CHOKEPOINT:?set CHOKEPOINT to the built binary}"

work=$(mktemp -d "${TMPDIR:-/tmp}/cli_fixture.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect_exit STATUS DESCRIPTION -- COMMAND...: runs COMMAND, checks its exit status and
# that stderr is a single line; keeps stdout/stderr in $work/out, $work/err.
expect_exit() {
    local want=$1 what=$2
    shift 3
    "$@" >"$work/out" 2>"$work/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        fail "$what: exit $got, expected $want; stderr: $(cat "$work/err")"
    fi
}

size_of() { stat -c %s "$1"; }

# --help: usage on stdout, exit 0, mentions every kind.
expect_exit 0 "--help" -- "$CHOKEPOINT" fixture --help
for word in "-o FILE" --size --kind --seed --force mixed text binary random zeros; do
    grep -q -- "$word" "$work/out" || fail "--help does not mention '$word'"
done
[ -s "$work/err" ] && fail "--help wrote to stderr"

# Exact sizes, every kind; the summary line names size, kind and seed.
# (zeros takes no --seed: it would have no effect, a usage error in test_faults_usage.sh)
for kind in mixed text binary random zeros; do
    seed=9
    [ "$kind" = zeros ] && seed=1
    seed_arg=(--seed 9)
    [ "$kind" = zeros ] && seed_arg=()
    expect_exit 0 "write $kind" -- "$CHOKEPOINT" fixture -o "$work/$kind.bin" --size 3M \
        --kind "$kind" "${seed_arg[@]}"
    [ "$(size_of "$work/$kind.bin")" = 3145728 ] || fail "$kind: size $(size_of "$work/$kind.bin")"
    grep -q "3145728 bytes.*kind $kind, seed $seed" "$work/err" || fail "$kind: summary: $(cat "$work/err")"
done
expect_exit 0 "odd decimal size" -- "$CHOKEPOINT" fixture -o "$work/odd" --size 1000001 --quiet
[ "$(size_of "$work/odd")" = 1000001 ] || fail "odd size: $(size_of "$work/odd")"
[ -s "$work/err" ] && fail "--quiet still printed: $(cat "$work/err")"
expect_exit 0 "decimal unit" -- "$CHOKEPOINT" fixture -o "$work/dec" --size 2MB --quiet
[ "$(size_of "$work/dec")" = 2000000 ] || fail "2MB: size $(size_of "$work/dec")"
expect_exit 0 "size 0" -- "$CHOKEPOINT" fixture -o "$work/empty" --size 0 --quiet
[ -f "$work/empty" ] && [ "$(size_of "$work/empty")" = 0 ] || fail "--size 0: no empty file"

# Same arguments => same bytes; another seed => other bytes; a prefix of a longer
# fixture is the shorter fixture.
# make FILE ARGS...: writes a fixture that must succeed and exist (so two failures cannot
# pass as two equal hashes of nothing).
make() {
    local file=$1
    shift
    "$CHOKEPOINT" fixture -o "$file" "$@" --quiet 2>"$work/make.err" ||
        fail "fixture $* exited $?: $(cat "$work/make.err")"
    [ -s "$file" ] || fail "fixture $* wrote no $file"
}
make "$work/a" --size 2M --kind mixed --seed 3
make "$work/b" --size 2M --kind mixed --seed 3
make "$work/c" --size 2M --kind mixed --seed 4
make "$work/long" --size 5M --kind mixed --seed 3
sum() { sha256sum "$1" | cut -d' ' -f1; }
[ "$(sum "$work/a")" = "$(sum "$work/b")" ] || fail "same seed gave different bytes"
[ "$(sum "$work/a")" != "$(sum "$work/c")" ] || fail "seeds 3 and 4 gave the same bytes"
[ "$(head -c 2097152 "$work/long" | sha256sum | cut -d' ' -f1)" = "$(sum "$work/a")" ] ||
    fail "a 2M fixture is not the prefix of the 5M one"

# The default seed is 1 and the default kind mixed.
make "$work/d1" --size 1M
make "$work/d2" --size 1M --kind mixed --seed 1
[ "$(sum "$work/d1")" = "$(sum "$work/d2")" ] || fail "defaults are not --kind mixed --seed 1"

# An existing file is refused (exit 2) and left untouched, unless --force.
printf 'precious' >"$work/keep"
expect_exit 2 "overwrite without --force" -- "$CHOKEPOINT" fixture -o "$work/keep" --size 1K
[ "$(cat "$work/keep")" = precious ] || fail "existing file was changed"
grep -q -- "--force" "$work/err" || fail "refusal does not mention --force: $(cat "$work/err")"
expect_exit 0 "overwrite with --force" -- "$CHOKEPOINT" fixture -o "$work/keep" --size 1K --force
[ "$(size_of "$work/keep")" = 1024 ] || fail "--force did not replace the file"

# Usage errors: exit 2, one line naming the fault.
check_usage() {
    local what=$1 pattern=$2
    shift 2
    expect_exit 2 "$what" -- "$CHOKEPOINT" fixture "$@"
    [ "$(wc -l <"$work/err")" = 1 ] || fail "$what: stderr is not one line: $(cat "$work/err")"
    grep -q -- "$pattern" "$work/err" || fail "$what: '$pattern' not in: $(cat "$work/err")"
}
check_usage "bad kind" "'jpeg'.*mixed, text, binary, random or zeros" -o "$work/x" --kind jpeg
check_usage "negative size" "bad size '-5'" -o "$work/x" --size -5
check_usage "word size" "bad size 'abc'" -o "$work/x" --size abc
check_usage "missing -o" "missing -o FILE" --size 1K
check_usage "bad seed" "bad seed 'x1'" -o "$work/x" --seed x1
check_usage "seed overflow" "bad seed" -o "$work/x" --seed 18446744073709551616
check_usage "unknown option" "unknown option '--bogus'" -o "$work/x" --bogus
check_usage "option without value" "needs a value" -o "$work/x" --size
check_usage "stray argument" "unexpected argument 'extra'" -o "$work/x" extra
check_usage "missing directory" "does not exist" -o "$work/nope/x" --size 1K
[ -e "$work/x" ] && fail "a usage error left $work/x behind"

# Not enough space: exit 1, naming the volume, nothing written.
expect_exit 1 "too large" -- "$CHOKEPOINT" fixture -o "$work/huge" --size 4000T
grep -q "volume '" "$work/err" || fail "no-space error does not name the volume: $(cat "$work/err")"
[ -e "$work/huge" ] && fail "refused fixture left a file"

# SIGINT mid-write: exit 130, our handler's message, no output, no temporary file. The
# signal goes once the temporary file has data (not after a fixed sleep); 2 GiB of random
# data takes over a second to write, and the volume must have room for it.
# The fixture checks the volume's room first and refuses a size that does not fit, so
# with under 2.1 GiB free the section cannot run: it says what it needs.
avail=$(df -P -B1 "$work" | awk 'NR == 2 { print $4 }')
if [ "${avail:-0}" -lt $((2150 * 1024 * 1024)) ]; then
    echo "SKIPPED: the SIGINT section needs 2.1 GiB free in ${TMPDIR:-/tmp}, has $((avail / 1048576)) MiB"
else
"$CHOKEPOINT" fixture -o "$work/big" --size 2G --kind random --quiet 2>"$work/err" &
pid=$!
started=0
for _ in $(seq 1 1500); do
    for f in "$work"/*big*chokepoint-tmp*; do
        [ -f "$f" ] && [ "$(stat -c %s "$f")" -gt 0 ] && started=1
    done
    [ $started = 1 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
done
[ $started = 1 ] || fail "SIGINT: the fixture never started writing ($(cat "$work/err"))"
kill -INT "$pid"
wait "$pid"
status=$?
if [ "$status" != 130 ]; then
    fail "SIGINT: exit $status, expected 130 ($(cat "$work/err"))"
elif ! grep -q "interrupted while writing" "$work/err"; then
    fail "SIGINT: no 'interrupted' message: $(cat "$work/err")"
fi
[ -e "$work/big" ] && fail "interrupted fixture left its output"
fi

# Nothing but the files we asked for: no temporary files anywhere.
if ls "$work" | grep -q chokepoint-tmp; then
    fail "temporary files left behind: $(ls "$work" | grep chokepoint-tmp)"
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "ok"
