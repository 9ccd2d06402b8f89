#!/usr/bin/env bash
# run --resume replays a recorded --cmd, DIR@RATE targets and cwd only for the user with
# a record of making that study in that directory with that command line, kept in their
# own state directory (root: /var/lib/chokepoint/studies; others:
# $XDG_STATE_HOME/chokepoint/studies): a meta.json cannot prove who wrote it.
# - the caller's own interrupted study, resumed where it was made, replays its --cmd;
# - a meta.json whose command line was edited after it was made is refused;
# - a copy (cp -r) of a study, its "uid" the caller's, is refused, and its --cmd not run;
# - a copy of a study with no --cmd, no DIR@RATE and the same cwd resumes without a record;
# - as root: another user's study with "uid": 0, copied by root with cp -r, is refused;
#   that user resumes their own study in place, and a copy of it is refused to them too.
. "$(dirname "$0")/lib.sh"
set -e
cd "$WORK"
need_python3 || { finish; exit 1; }
export CHOKEPOINT_GNUPLOT=/nonexistent/gnuplot # the data files and report.md are enough
export XDG_STATE_HOME=$WORK/state               # a non-root caller's records (root's: /var/lib)

# records_of: the caller's state directory
records_of() { if is_root; then echo /var/lib/chokepoint/studies; else echo "$XDG_STATE_HOME/chokepoint/studies"; fi; }
# forget DIR: removes the caller's record of the study in DIR at exit
forget() {
    local token
    token=$(json_get "$1/meta.json" 'm.get("replay_token", "")')
    [ -z "$token" ] || CLEANUP_HOOKS+=("rm -f '$(records_of)/$token'")
}
# stopped DIR: meta.json as a study killed at the start of its sweep leaves it, runs.csv
# with its header only, so run --resume takes it up and would measure every run again
stopped() {
    python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
m = json.load(open(os.path.join(d, "meta.json")))
m.update(status="running", stage="sweep")
m.pop("finished", None)
json.dump(m, open(os.path.join(d, "meta.json"), "w"), indent=2)
head = open(os.path.join(d, "runs.csv")).readline()
open(os.path.join(d, "runs.csv"), "w").write(head)
PY
}
# edit META PYTHON: runs PYTHON on meta.json's object m and writes it back
edit() {
    python3 -c 'import json,sys; p=sys.argv[1]; m=json.load(open(p)); exec(sys.argv[2]); json.dump(m,open(p,"w"))' "$1" "$2"
}
# retemplate META FILE: the recorded --cmd now touches FILE
retemplate() { edit "$1" 'i=m["command_line"].index("--cmd"); m["command_line"][i+1]="touch '"$2"'; cat {input} > {output}"'; }
expect_in() { if grep -q -- "$2" "$1"; then ok "$3"; else not_ok "$3: $(head -c 400 "$1")"; fi; }

"$CP" fixture -q -o in.bin --size 1M --kind text
mkdir loc

# ---- the caller's own study, and what its record is ---------------------------------------
run "$CP" run -q -i in.bin --threads 1 --reps 1 --no-probe --out R \
    --cmd "touch $WORK/ran; cat {input} > {output}" "local=$WORK/loc"
expect_status 0 "a study timing a shell command"
forget R
token=$(json_get R/meta.json 'm.get("replay_token", "")')
check "meta.json holds a replay token of 128 random bits in hex" \
    grep -Eq '^[0-9a-f]{32}$' <<< "$token"
record=$(records_of)/$token
check "the record is in the caller's state directory, a regular file" test -f "$record" -a ! -L "$record"
check "the record is 0600 and its directory 0700" \
    test "$(stat -c %a "$record")" = 600 -a "$(stat -c %a "$(records_of)")" = 700
check "the record names the results directory's real path" \
    test "$(sed -n 3p "$record")" = "path $(realpath R)"
check "and a hash of the command line" grep -Eq '^command xxh3-128 [0-9a-f]{32}$' "$record"
stopped R
cp -r R R-copy # before the edits below
rm -f ran
run "$CP" run -q --resume R
expect_status 0 "the caller's own interrupted study resumes where it was made"
check "and its shell command runs again" test -e ran
rm -f ran

# ---- its command line edited after it was made ----------------------------------------------
stopped R
retemplate R/meta.json "$WORK/edited"
run "$CP" run --resume R
expect_status 2 "resume of a study whose recorded command line was edited"
check "one error line" test "$(grep -c 'error:' "$WORK/err")" -eq 1
expect_in "$WORK/err" "error: --resume 'R': you have no record of making this study here (a meta.json cannot prove who wrote it): its command line is not the one your record of it holds.*runs a shell command (--cmd).*run it yourself with --out a new directory: chokepoint run " \
    "the edit: said why and how to proceed"
check "the edited shell command did not run" test ! -e edited

# ---- copies: the file is the caller's and records the caller's uid, and proves nothing ------
check "the copy's meta.json records the caller" test "$(json_get R-copy/meta.json 'm["uid"]')" = "$(id -u)"
run "$CP" run --resume R-copy
expect_status 2 "resume of a copy of a study with --cmd"
expect_in "$WORK/err" "no record of making this study here.*names another directory" "the copy: said why"
check "its shell command did not run" test ! -e ran
cp -r R-copy R-forged
retemplate R-forged/meta.json "$WORK/forged"
run "$CP" run --resume R-forged
expect_status 2 "resume of a copy with a command line of someone else's, \"uid\" the caller's"
check "the forged shell command did not run" test ! -e forged
cp -r R-copy R-tokenless
edit R-tokenless/meta.json 'm.pop("replay_token", None)'
run "$CP" run --resume R-tokenless
expect_status 2 "resume of a copy without a replay token"
expect_in "$WORK/err" "holds no replay token" "no token: said"
check "its shell command did not run" test ! -e ran

# ---- nothing to replay: a copy resumes without a record, as before --------------------------
run "$CP" run -q -i in.bin --threads 1 --reps 1 --no-probe -c copy --out P mem
expect_status 0 "a study with no --cmd and no DIR@RATE"
forget P
stopped P
cp -r P P-copy
edit P-copy/meta.json 'm.pop("replay_token", None)'
run "$CP" run -q --resume P-copy
expect_status 0 "a copy of it with no record resumes from the directory it ran in"
check "and completes" test "$(json_get P-copy/meta.json 'm["status"]')" = complete

if is_root && command -v useradd > /dev/null && command -v setpriv > /dev/null; then
    # ---- root and a second user -----------------------------------------------------------
    user=cpresume$$
    useradd --no-create-home --shell /usr/sbin/nologin "$user"
    CLEANUP_HOOKS+=("userdel '$user'")
    uid=$(id -u "$user")
    gid=$(id -g "$user")
    chmod 755 "$WORK"
    mkdir theirs
    chown "$uid:$gid" theirs
    cp in.bin theirs/
    as_them() { (cd theirs && setpriv --reuid="$uid" --regid="$gid" --clear-groups \
        env HOME="$WORK/theirs" XDG_STATE_HOME="$WORK/theirs/state" "$@"); }
    run as_them "$CP" run -q -i in.bin --threads 1 --reps 1 --no-probe -c copy --out S \
        --cmd "touch $WORK/theirs/ran; cat {input} > {output}" mem
    expect_status 0 "the second user's study"
    ttoken=$(json_get theirs/S/meta.json 'm.get("replay_token", "")')
    check "their record is in their state directory, theirs" \
        test -n "$ttoken" -a "$(stat -c %u "theirs/state/chokepoint/studies/$ttoken" 2> /dev/null)" = "$uid"
    stopped theirs/S
    chown "$uid:$gid" theirs/S/meta.json theirs/S/runs.csv
    run as_them "$CP" run -q --resume S
    expect_status 0 "the second user resumes their own study where it was made"
    check "and their shell command runs again, as them" test "$(stat -c %u theirs/ran 2> /dev/null)" = "$uid"
    rm -f theirs/ran
    stopped theirs/S
    chown "$uid:$gid" theirs/S/meta.json theirs/S/runs.csv
    run as_them cp -r S S-copy
    run as_them "$CP" run --resume S-copy
    expect_status 2 "the second user resuming a copy of their study with --cmd"
    expect_in "$WORK/err" "names another directory" "their copy: said why"
    check "its shell command did not run" test ! -e theirs/ran
    # What the author can write in their own meta.json: "uid": 0. Root copies the study.
    edit theirs/S/meta.json 'm["uid"] = 0'
    cp -r theirs/S copied
    check "root's copy is root's and records uid 0" \
        test "$(stat -c %u copied/meta.json)" = 0 -a "$(json_get copied/meta.json 'm["uid"]')" = 0
    run "$CP" run --resume copied
    expect_status 2 "root resuming its copy of another user's study, \"uid\": 0, with --cmd"
    check "one error line" test "$(grep -c 'error:' "$WORK/err")" -eq 1
    expect_in "$WORK/err" "error: --resume 'copied': you have no record of making this study here (a meta.json cannot prove who wrote it): /var/lib/chokepoint/studies holds none for its token.*run it yourself with --out a new directory" \
        "refused: no record of it by root"
    check "their shell command did not run as root" test ! -e theirs/ran
    # A state directory another user could write is no place for records.
    mkdir theirs/open
    chown "$uid:$gid" theirs/open
    chmod 777 theirs/open
    run as_them env XDG_STATE_HOME="$WORK/theirs/open" "$CP" run -i in.bin --threads 1 --reps 1 \
        --no-probe -c copy --out S2 mem
    expect_status 0 "a study whose state directory is writable by others still runs"
    expect_in "$WORK/err" "no replay record of this study: .*theirs/open is writable by other users" \
        "and says it has no replay record, and why"
    check "meta.json holds no replay token then" \
        test "$(json_get theirs/S2/meta.json 'm.get("replay_token", "")')" = ""
else
    skip_check "root and a second user: needs root, useradd and setpriv"
fi

finish
