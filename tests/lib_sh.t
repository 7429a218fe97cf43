#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The assertions of tests/lib.sh fail when they should, and say why.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
LIB="$(cd "$(dirname "$0")" && pwd)/lib.sh"

# verdict <check...>: run one check in a fresh shell; its TAP line
# ("ok" or "not ok") on stdout, its diagnostics in $TEST_TMP/diag
verdict() {
	BENCH=/bin/true bash -c 'source "$1"; shift; "$@"' _ "$LIB" "$@" 2>"$TEST_TMP/diag" |
		sed -nE 's/^(ok|not ok) 1 - .*/\1/p'
}

is "$(verdict is 2 2 d)" "ok" "is: equal strings pass"
is "$(verdict is 2 3 d)" "not ok" "is: different strings fail"
like "$TEST_TMP/diag" "^#      got: '2'$" "is: a failure says what it got"
like "$TEST_TMP/diag" "^# expected: '3'$" "is: and what it expected"
is "$(verdict is "" 0 d)" "not ok" "is: empty is not 0"
is "$(verdict isnt 2 3 d)" "ok" "isnt: different strings pass"
is "$(verdict isnt 0 0 d)" "not ok" "isnt: equal strings fail"
like "$TEST_TMP/diag" "^# expected: anything but '0'$" "isnt: a failure says what it did not want"

is "$(verdict cmp_ok 10 -ge 10 d)" "ok" "cmp_ok: 10 -ge 10"
is "$(verdict cmp_ok 9 -ge 10 d)" "not ok" "cmp_ok: 9 -ge 10 fails"
like "$TEST_TMP/diag" "^# expected: -ge '10'$" "cmp_ok: a failure names the comparison"
is "$(verdict cmp_ok -3 -lt 0 d)" "ok" "cmp_ok: negative numbers"
is "$(verdict cmp_ok abc -eq 0 d)" "not ok" "cmp_ok: a non-integer fails a numeric comparison"
is "$(verdict cmp_ok 1.5 -gt 0 d)" "not ok" "cmp_ok: so does a decimal"
is "$(verdict cmp_ok a == a d)" "ok" "cmp_ok: string =="
is "$(verdict cmp_ok a != a d)" "not ok" "cmp_ok: string != fails on equal strings"
is "$(verdict cmp_ok 1 '<' 2 d)" "not ok" "cmp_ok: an unknown operator fails"
like "$TEST_TMP/diag" "unknown operator '<'" "cmp_ok: and says so"

is "$(verdict is_exit 3 d sh -c 'echo out; echo err >&2; exit 3')" "ok" "is_exit: the expected status passes"
is "$(verdict is_exit 0 d sh -c 'echo oops >&2; exit 1')" "not ok" "is_exit: another status fails"
like "$TEST_TMP/diag" "^# stderr: oops$" "is_exit: a failure shows the command's stderr"

done_testing
