#!/usr/bin/env bash
# Lists what a ctest run did not judge, with the reasons the tests gave, so a skip is never
# a silent pass: every test ctest skipped (exit 77) with its "skipped: REASON" line, and
# every check skipped inside a test that ran (a CLI test's "SKIPPED: REASON" line, cmocka's
# "[  SKIPPED ]"). Prints nothing when nothing was skipped. Used by scripts/test.sh and
# scripts/ci-sanitize.sh.
#   scripts/list-skips.sh CTEST_OUTPUT BUILD_DIR
#     CTEST_OUTPUT  what ctest printed (its "The following tests did not run:" list)
#     BUILD_DIR     the build directory whose Testing/Temporary/LastTest.log holds each
#                   test's output
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: list-skips.sh CTEST_OUTPUT BUILD_DIR" >&2; exit 2; }
log=$2/Testing/Temporary/LastTest.log
[ -f "$1" ] && [ -f "$log" ] || exit 0
# The tests ctest skipped, by name, from its closing list ("  43 - cli_lab (Skipped)").
skipped_tests=$(awk '/^The following tests did not run:/ { on = 1; next }
                     on && /\(Skipped\)/ { print $3; next }
                     on && !/^[[:space:]]/ { on = 0 }' "$1")
awk -v skipped=" $(echo $skipped_tests) " '
    /^[0-9]+\/[0-9]+ Testing: / { test = $3; next }
    /^skipped: / && index(skipped, " " test " ") { reason[test] = substr($0, 10) }
    /^SKIPPED: |\[  SKIPPED \]/ { checks = checks "  " test ": " $0 "\n"; nchecks++ }
    END {
        n = split(skipped, names, " ")
        if (n) printf "%d test(s) skipped:\n", n
        for (i = 1; i <= n; i++)
            printf "  %s: %s\n", names[i], (names[i] in reason) ? reason[names[i]] : "(no reason given)"
        if (nchecks) printf "%d check(s) skipped inside tests that ran:\n%s", nchecks, checks
    }' "$log"
