#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Help a newcomer finds: every script's --help and -h, every command's
# --help, history add's options, and the nearest names offered for a
# mistyped chart kind, history command or export format, and one wording of
# the option several benchmark families share (--hook).  No BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$SRC_TOP
cd "$TEST_TMP" || exit 1

# ---- scripts: every executable script in benchs/ and scripts/ ----
# RUN_BENCH, BENCH and PATH's bench are false: a script that ran something
# instead of printing its usage fails or prints FAILED
mapfile -t SCRIPTS < <(cd "$ROOT" && find benchs scripts -maxdepth 1 -type f -perm -u+x \
	-exec sh -c 'head -n1 "$1" | grep -q "^#!.*sh"' _ {} \; -print | sort)
for known in scripts/vmtest.sh benchs/run_kernel_ab.sh benchs/run_bench_htab_mem.sh; do
	found=no
	for s in "${SCRIPTS[@]}"; do
		[ "$s" = "$known" ] && found=yes
	done
	is "$found" yes "$known is among the scripts checked"
done
for s in "${SCRIPTS[@]}"; do
	for opt in --help -h; do
		RUN_BENCH=false BENCH=false timeout 30 "$ROOT/$s" $opt </dev/null >"out$opt" 2>"err$opt"
		is $? 0 "$s $opt: exit 0"
		is "$(wc -c <"err$opt")" 0 "$s $opt: nothing on stderr"
		cmp_ok "$(grep -c . "out$opt")" -ge 3 "$s $opt: prints its usage (3 lines or more)"
		isnt "$(head -n1 "out$opt")" "" "$s $opt: the usage starts with text, not a blank line"
		is "$(grep -Ec 'SPDX|FAILED \(exit [0-9]+\)' "out$opt")" 0 "$s $opt: no SPDX line, nothing run"
	done
	cmp -s out--help out-h
	ok $? "$s: --help and -h print the same"
done

# ---- bench and its commands (all --help lists): --help on stdout, exit 0 ----
mapfile -t CMDS < <("$BENCH" --help | sed -n '/^COMMANDS:$/,/^$/s/^    \([a-z][a-z0-9-]*\) .*/\1/p')
cmp_ok "${#CMDS[@]}" -ge 5 "bench --help lists the commands"
for cmd in "" "${CMDS[@]}" "history add" "history list" "history show" "plot history"; do
	# shellcheck disable=SC2086 # the command's words
	is_exit 0 "bench ${cmd:+$cmd }--help: exit 0" "$BENCH" $cmd --help
	like "$TEST_TMP/is_exit.out" "^Usage: bench${cmd:+ $cmd} " "bench ${cmd:+$cmd }--help: its usage names it"
	is "$(wc -c <"$TEST_TMP/is_exit.err")" 0 "bench ${cmd:+$cmd }--help: nothing on stderr"
done

# ---- history add offers only what it takes ----
"$BENCH" history add --help >add.help
for o in db machine; do
	like add.help "^ +--$o=" "history add --help: --$o"
done
for o in benchmark config kernel like metric; do
	is "$(grep -c -- "--$o" add.help)" 0 "history add --help: no --$o (add refuses it)"
done
is_exit 2 "history add --benchmark: exit 2" "$BENCH" history add --db h.db --benchmark count-local x.json
like "$TEST_TMP/is_exit.err" '^history add takes --db and --machine only: the rest comes from the files$' \
	"history add --benchmark: refused with its reason"
is "$(grep -c . "$TEST_TMP/is_exit.err")" 1 "history add --benchmark: one line"
assert "history add --benchmark: no database created" test ! -e h.db

# ---- the nearest names, in the commands' own words ----
is_exit 2 "plot timline: exit 2" "$BENCH" plot timline a.json
like "$TEST_TMP/is_exit.err" "^unknown chart type 'timline': did you mean 'timeline'\\? expected timeline, scaling, compare, latency or history\$" \
	"plot timline: did you mean timeline"
is_exit 2 "history lsit: exit 2" "$BENCH" history lsit
like "$TEST_TMP/is_exit.err" "^history needs a command first: 'lsit' is not one; did you mean 'list'\\? accepted: add, list, show\$" \
	"history lsit: did you mean list"
is_exit 2 "export kcdib: exit 2" "$BENCH" export kcdib a.json
like "$TEST_TMP/is_exit.err" "^export needs a format first: 'kcdib' is not one; did you mean 'kcidb'\\? accepted: kcidb\$" \
	"export kcdib: did you mean kcidb"
is_exit 2 "history drop: exit 2" "$BENCH" history drop
is "$(grep -c 'did you mean' "$TEST_TMP/is_exit.err")" 0 "history drop: nothing near, nothing offered"

# ---- one option, one wording: --hook's help is lib_hook.h's in every family ----
"$BENCH" --help | awk '/^ +--hook=HOOK / { if (h != "") print h; h = $0; next }
	h != "" && /^                             [^ ]/ { h = h $0; next }
	h != "" { print h; h = "" } END { if (h != "") print h }' | tr -s ' ' >hook.help
cmp_ok "$(wc -l <hook.help)" -ge 6 "bench --help: --hook in every family that has it"
is "$(sort -u hook.help | wc -l)" 1 "bench --help: --hook's help reads the same in every family"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(sort hook.help | uniq -c)"

done_testing
