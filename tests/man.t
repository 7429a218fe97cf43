#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The manual pages (make man: scripts/gen-man.sh, help2man over --help):
# one for bench and one for every command its --help lists, each with the
# NAME whatis reads, the synopsis, every option its --help lists, and the
# other pages under SEE ALSO; rendered by man without a warning.  Under
# CI=true a missing help2man or man fails (scripts/install-deps.sh installs
# them), elsewhere a skip.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$SRC_TOP
OUT=${OUTPUT:-$ROOT/.output}

why=""
for tool in help2man man lexgrog; do
	command -v "$tool" >/dev/null || why+="${why:+, }$tool not installed"
done
if [ -n "$why" ]; then
	why+=" (scripts/install-deps.sh installs help2man, man-db and groff-base)"
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - cannot check the manual pages under CI: $why"
		exit 1
	fi
	skip_all "$why"
fi

# make test has made them; made here when this file runs alone
make -s -C "$ROOT" OUTPUT="$OUT" BENCH_BIN="$BENCH" man >"$TEST_TMP/make" 2>&1
is $? 0 "make man: exit 0"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(tail -20 "$TEST_TMP/make")"
MAN=$OUT/man

mapfile -t CMDS < <("$BENCH" --help | sed -n '/^COMMANDS:$/,/^$/s/^    \([a-z][a-z0-9-]*\) .*/\1/p')
cmp_ok "${#CMDS[@]}" -ge 5 "bench --help lists the commands (ab, compare, plot, export, history, ...)"
is "$(find "$MAN" -name '*.1' | wc -l)" $((${#CMDS[@]} + 1)) "a page for bench and one per command, nothing else"

# check_page <page> <command words...>: the page of bench (no words) or
# of bench COMMAND
check_page() {
	local page=$1 f=$MAN/$1.1 desc o missing="" other see=""
	shift

	assert "$page.1 exists" test -s "$f"
	# bench's NAME line is the page's own; a command's, its line under COMMANDS
	desc="BPF benchmark runner: "
	[ $# -eq 0 ] || desc=$("$BENCH" --help | sed -n "/^COMMANDS:\$/,/^\$/s/^    $1  *//p")\"
	lexgrog "$f" >"$TEST_TMP/$page.whatis" 2>&1
	is "$(grep -cF "$f: \"$page - $desc" "$TEST_TMP/$page.whatis")" 1 \
		"$page: NAME reads '$page - $desc' (as whatis and apropos read it)"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$TEST_TMP/$page.whatis")"
	MANWIDTH=80 man --warnings -l "$f" >"$TEST_TMP/$page.txt" 2>"$TEST_TMP/$page.err"
	is $? 0 "$page: man renders it"
	is "$(cat "$TEST_TMP/$page.err")" "" "$page: without a warning"
	like "$TEST_TMP/$page.txt" "^SYNOPSIS\$" "$page: a SYNOPSIS section"
	like "$TEST_TMP/$page.txt" "^       bench${1:+ $1} " "$page: the synopsis names the command"
	# every option the help lists, the page lists (its own help and, for
	# history and plot history, their commands')
	for o in $("$BENCH" "$@" --help | sed -nE 's/^ {1,10}(-[^ ,-], )?(--[^ =[]+).*/\2/p' | sort -u); do
		grep -qe "^ *$o\\b\\|, $o\\b" "$TEST_TMP/$page.txt" || missing+=" $o"
	done
	is "$missing" "" "$page: every option of bench${1:+ $1} --help is in the page"
	for other in bench "${CMDS[@]/#/bench-}"; do
		[ "$other" = "$page" ] || see+="$other(1) "
	done
	is "$(sed -n '/^\.SH "SEE ALSO"$/,/^\.SH/s/^\.BR \(bench[-a-z]*\) (1),\{0,1\}$/\1(1)/p' "$f" |
		sort | tr '\n' ' ')" \
		"$(echo "$see" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')" "$page: SEE ALSO names every other page"
}

check_page bench
like "$TEST_TMP/bench.txt" "^COMMANDS\$" "bench: a COMMANDS section"
for c in "${CMDS[@]}"; do
	like "$TEST_TMP/bench.txt" "^       $c( |\$)" "bench: COMMANDS lists $c"
	check_page "bench-$c" "$c"
done
like "$TEST_TMP/bench.txt" '^EXAMPLES$' "bench: an EXAMPLES section"
like "$TEST_TMP/bench.txt" '^ +\$ bench -l$' "bench: the examples verbatim"
like "$TEST_TMP/bench.txt" '^   htab-mem options:$' "bench: a benchmark's options under its name"
like "$TEST_TMP/bench-ab.txt" '±threshold' "bench-ab: UTF-8 kept (±)"

# a command's own commands, each in a section of its own, whose options
# the page lists too
for sub in "history add" "history list" "history show" "plot history"; do
	page=bench-${sub%% *}
	like "$TEST_TMP/$page.txt" "^BENCH ${sub^^}\$" "$page: a section for bench $sub"
	missing=""
	# shellcheck disable=SC2086 # the command's words
	for o in $("$BENCH" $sub --help | sed -nE 's/^ {1,10}(-[^ ,-], )?(--[^ =[]+).*/\2/p'); do
		grep -qe "^ *$o\\b\\|, $o\\b" "$TEST_TMP/$page.txt" || missing+=" $o"
	done
	is "$missing" "" "$page: every option of bench $sub --help is in the page"
done
is "$(grep -c '^BENCH PLOT TIMELINE$' "$TEST_TMP/bench-plot.txt")" 0 \
	"bench-plot: plot timeline's help, which is plot's, is not said twice"

done_testing
