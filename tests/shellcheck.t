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
ROOT=$(cd "$(dirname "$0")/.." && pwd)

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
# or by its first line (a shell's #!, or a "shellcheck shell=" directive
# in the sourced helpers), outside what the build and git generate
shell_scripts() {
	local f first

	find . \( -name .git -o -name .output \) -prune -o -type f -print | sort |
		while read -r f; do
			f=${f#./}
			case $f in
			*.sh | *.t)
				echo "$f"
				continue
				;;
			esac
			first=$(head -n 3 "$f" 2>/dev/null | tr -d '\0')
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

# The test files are linted on their own: following tests/lib.sh from
# each of them (shellcheck re-reads it per file) was 40 of this test's 43 s.
# lib.sh itself is linted with what it sources, like every other script.
for f in "${SCRIPTS[@]}"; do
	case $f in
	tests/*.t) follow=(-e SC1091) ;;
	*) follow=(-x) ;;
	esac
	out=$(shellcheck "${follow[@]}" "$f" 2>&1)
	rc=$?
	is "$rc" 0 "shellcheck $f"
	[ "$rc" -eq 0 ] || diag "$out"
done

done_testing
