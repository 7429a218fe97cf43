#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The manual pages (make man: scripts/gen-man.sh, help2man over --help):
# one for bench and one for every command its --help lists, each with the
# NAME whatis reads, the synopsis, every option its --help lists, and the
# other pages under SEE ALSO; EXIT STATUS from README's table, ENVIRONMENT
# with every BENCH_* variable the code reads, FILES with where make install
# puts the wrappers; rendered by man without a warning.  Under
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

# ---- EXIT STATUS, ENVIRONMENT, FILES ----
# section <page> <NAME>: the section's roff source, one line (the page
# source, not man's rendering, which may break a long name)
section() {
	awk -v s="$2" '$0 == ".SH " s || $0 == ".SH \"" s "\"" { on = 1; next } on && /^\.SH/ { exit } on' \
		"$MAN/$1.1" | tr -s ' \n' '  '
}
# README's exit-status table, the rows of one command: "STATUS STATUS ..."
readme_statuses() {
	awk -F' [|] ' -v c="$1" '/^## Exit status/ { on = 1; next } on && /^## / { exit }
		on && /^[|] / { sub(/^[|] /, "")
			if (c == "" ? $1 == "`bench`" : $1 ~ ("^`bench " c "( [a-z]+)?`$")) printf "%s ", $2 }' "$ROOT/README.md"
}
for c in "" "${CMDS[@]}"; do
	page=bench${c:+-$c}
	want=$(readme_statuses "$c")
	isnt "$want" "" "README's table has rows for bench${c:+ $c}"
	# each row's status, in order, as a tag (.TP, .B STATUS) of the section
	got=$(awk '$0 == ".SH \"EXIT STATUS\"" { on = 1; next } on && /^\.SH/ { exit }
		on && /^\.B / { sub(/^\.B /, ""); printf "%s ", $0 }' "$MAN/$page.1")
	is "$got" "$want" "$page: EXIT STATUS has README's rows for bench${c:+ $c}"
	like "$TEST_TMP/$page.txt" "^EXIT STATUS\$" "$page: man renders EXIT STATUS"
done
[[ $(section bench-compare "EXIT STATUS") == *"never 1, which is a regression's"* ]]
ok $? "bench-compare: a row's text, from README"
# every BENCH_* variable the code reads is in bench(1)'s ENVIRONMENT
env_text=$(section bench ENVIRONMENT)
missing=""
for v in $(cd "$ROOT" && grep -ohE 'getenv\("BENCH_[A-Z_]+"\)' ./*.c results/*.c benchs/*.c | sed 's/getenv("//; s/")//' | sort -u); do
	[[ $env_text == *"$v"* ]] || missing+=" $v"
done
is "$missing" "" "bench: ENVIRONMENT names every BENCH_* variable the code reads"
like "$TEST_TMP/bench-plot.txt" "^ENVIRONMENT\$" "bench-plot: an ENVIRONMENT section"
[[ $(section bench-plot ENVIRONMENT) == *BENCH_GNUPLOT_TIMEOUT* ]]
ok $? "bench-plot: ENVIRONMENT names BENCH_GNUPLOT_TIMEOUT"
[[ $(section bench-history ENVIRONMENT) == *BENCH_HISTORY_LOCK_TIMEOUT*XDG_DATA_HOME* ]]
ok $? "bench-history: ENVIRONMENT names BENCH_HISTORY_LOCK_TIMEOUT and XDG_DATA_HOME"
[[ $(section bench-ab ENVIRONMENT) == *TMPDIR*BENCH_AB_JSON* ]]
ok $? "bench-ab: ENVIRONMENT names TMPDIR and BENCH_AB_JSON"
# FILES: where make install puts the wrappers, with the paths make was given
files=$(section bench FILES)
[[ $files == *"/usr/local/libexec/bench/benchs/run_*.sh"*"/usr/local/libexec/bench/bench"* ]]
ok $? "bench: FILES says the wrappers are in libexec/bench, with the ./bench they run"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$files"
like "$TEST_TMP/bench.txt" "^FILES\$" "bench: man renders FILES"
[[ $(section bench-history FILES) == *history.db* ]]
ok $? "bench-history: FILES names the default database"
# the Makefile hands gen-man.sh its install paths (make install PREFIX=...)
mkdir "$TEST_TMP/paths"
BINDIR=/opt/bench/bin LIBEXECDIR=/opt/bench/libexec/bench BASHCOMPDIR=/opt/bench/completions \
	"$ROOT/scripts/gen-man.sh" "$BENCH" "$TEST_TMP/paths/man" >"$TEST_TMP/gen" 2>&1
is $? 0 "gen-man.sh with LIBEXECDIR=/opt/bench/libexec/bench: exit 0"
cmp_ok "$(grep -c "/opt/bench/libexec/bench/benchs/run_" "$TEST_TMP/paths/man/bench.1")" -ge 1 "gen-man.sh with LIBEXECDIR: FILES names /opt/bench/libexec/bench"
# shellcheck disable=SC2016 # make's text, not the shell's
grep -qF 'LIBEXECDIR=$(call shq,$(LIBEXECDIR))' "$ROOT/Makefile"
ok $? "the Makefile passes LIBEXECDIR to gen-man.sh"

done_testing
