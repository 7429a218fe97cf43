#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every shell script of the tree through shellcheck, the tests and their
# helpers included: each file clean at shellcheck's default severity
# (style), sourced files followed (but not tests/lib.sh from each test:
# see below).  Under CI=true a missing shellcheck is a failure
# (scripts/install-deps.sh installs it), elsewhere a skip.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$SRC_TOP

if ! command -v shellcheck >/dev/null; then
	why="shellcheck not installed (scripts/install-deps.sh installs it)"
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - cannot lint the shell scripts under CI: $why"
		exit 1
	fi
	skip_all "$why"
fi

# shell_scripts: every shell script under the tree, by name (*.sh, *.t)
# or by its first lines (a shell's #!, or a "shellcheck shell=" directive
# in the sourced helpers), outside what the build and git generate.  The
# first three lines are read with bash's read, not head | tr: a subshell
# and two processes per file of the tree were 5 s of this test; read
# drops NUL bytes as tr -d '\0' did.
shell_scripts() {
	local f first l1 l2 l3

	find . \( -name .git -o -name .output \) -prune -o -type f -print | sort |
		while read -r f; do
			f=${f#./}
			case $f in
			*.sh | *.t)
				echo "$f"
				continue
				;;
			esac
			l1='' l2='' l3=''
			{ IFS= read -r l1; IFS= read -r l2; IFS= read -r l3; } 2>/dev/null <"$f"
			first=$l1$'\n'$l2$'\n'$l3
			if [[ $first =~ ^\#!(/usr)?/bin/(env\ )?(ba)?sh || $first == *"shellcheck shell="* ]]; then
				echo "$f"
			fi
		done
}

# source=tests/lib.sh and the like are relative to the tree's top
cd "$ROOT" || exit 1
mapfile -t SCRIPTS < <(shell_scripts)
diag "$(shellcheck --version | sed -n 's/^version: /shellcheck /p'): ${#SCRIPTS[@]} scripts"

# a lint that found nothing to lint must not pass: the files that are
# known to be there are among those found
for known in .ci/run benchs/run_common.sh scripts/vmtest.sh tests/lib.sh tests/shellcheck.t; do
	found=no
	for f in "${SCRIPTS[@]}"; do
		[ "$f" = "$known" ] && found=yes
	done
	is "$found" yes "$known is among the scripts linted"
done

# Shellcheck over all the files in a few runs, not one per file: the test
# files on their own, without following tests/lib.sh (in the run of the
# other scripts, which names lib.sh, shellcheck would follow it from every
# test: it re-reads a sourced file per file, which was 40 of this test's
# 43 s); lib.sh itself with what it sources, like every other script.
# The findings (gcc format, "file:line:col: level: text [SCnnnn]") are
# told apart by file, so each file still has its own check.  Shellcheck
# lints each file on its own (the test files are not followed into
# anything), so the test files are split in two runs, and the three runs
# (about 4 s of CPU each) run at once: two CPUs lint in half the time of
# one run after the other.
TESTS=() OTHERS=()
for f in "${SCRIPTS[@]}"; do
	case $f in
	tests/*.t) TESTS+=("$f") ;;
	*) OTHERS+=("$f") ;;
	esac
done
TESTS_A=() TESTS_B=()
for i in "${!TESTS[@]}"; do
	if ((i % 2)); then TESTS_B+=("${TESTS[i]}"); else TESTS_A+=("${TESTS[i]}"); fi
done
# lint_start <name> <shellcheck options and files...>: one run in the
# background, its findings in $TEST_TMP/<name>.out, its stderr in <name>.err
declare -A LINT_PID
lint_start() {
	local name=$1
	shift

	shellcheck -f gcc "$@" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err" &
	LINT_PID[$name]=$!
}
# lint <what> <name...>: the runs of <what> reaped, their findings
# appended to $TEST_TMP/sc.out; exit 0 is clean, 1 is findings, anything
# else (bad options, a file it could not read) fails every file
lint() {
	local what=$1 name rc rcs='' bad=0
	shift

	: >"$TEST_TMP/sc.err"
	for name; do
		rc=0
		wait "${LINT_PID[$name]}" || rc=$?
		rcs+="${rcs:+ }$rc"
		[ "$rc" -le 1 ] || bad=1
		cat "$TEST_TMP/$name.out" >>"$TEST_TMP/sc.out"
		cat "$TEST_TMP/$name.err" >>"$TEST_TMP/sc.err"
	done
	ok "$([ "$bad" -eq 0 ] && [ ! -s "$TEST_TMP/sc.err" ]; echo $?)" \
		"shellcheck ran over the $what (exit $rcs: 0 clean, 1 findings)"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(head -c 2000 "$TEST_TMP/sc.err")"
	[ "$bad" -eq 0 ] || echo "$what: shellcheck exit $rcs" >>"$TEST_TMP/sc.failed"
}
lint_start tests-a -e SC1091 "${TESTS_A[@]}"
lint_start tests-b -e SC1091 "${TESTS_B[@]}"
lint_start others -x "${OTHERS[@]}"
: >"$TEST_TMP/sc.out"
lint "test files" tests-a tests-b
lint "other scripts" others
cmp_ok "$(grep -c . "$TEST_TMP/sc.out")" -eq "$(grep -cE '^[^:]+:[0-9]+:[0-9]+: [a-z]+: .* \[SC[0-9]+\]$' "$TEST_TMP/sc.out")" \
	"every line shellcheck printed is a finding of a file"
for f in "${SCRIPTS[@]}"; do
	out=$(awk -F: -v f="$f" '$1 == f' "$TEST_TMP/sc.out")
	[ -z "$out" ] && [ ! -e "$TEST_TMP/sc.failed" ]
	ok $? "shellcheck $f"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "${out:-$(cat "$TEST_TMP/sc.failed")}"
done
# a finding is in a file linted, never lost to a name of another
is "$(cut -d: -f1 "$TEST_TMP/sc.out" | sort -u | grep -vxF -f <(printf '%s\n' "${SCRIPTS[@]}"))" "" \
	"shellcheck's findings are all in files linted"

done_testing
