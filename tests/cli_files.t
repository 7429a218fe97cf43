#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every subcommand that reads result files takes as many as one limit says
# (bench_limits.h's BENCH_MAX_FILES, through results/cli_files.c) and
# refuses one more the same way: exit status 2 (bad input), one line on
# stderr naming the command, the limit and the argument refused, before a
# file is read or anything is written.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

max=$(sed -nE 's/^#define BENCH_MAX_FILES ([0-9]+).*/\1/p' "$(dirname "$0")/../bench_limits.h")
cmp_ok "${max:-0}" -gt 1 "BENCH_MAX_FILES read from bench_limits.h: ${max:-none}"
cd "$TEST_TMP" || exit 1
mapfile -t files < <(seq -f "f%g.json" 1 "$max")

# refuses <name> <extra> <description> <command...>: exit 2, one stderr
# line naming the command, its limit and <extra>, nothing written here
refuses() {
	local name=$1 extra=$2 desc=$3 before

	shift 3
	before=$(ls -A -I 'is_exit*')
	is_exit 2 "$desc: one file more than the limit is bad input" "$@"
	is "$(wc -l <is_exit.err)" 1 "$desc: one line on stderr"
	like is_exit.err "^$name takes at most $max result files; extra argument '$extra'$" \
		"$desc: it names the command, the limit and the argument"
	is "$(ls -A -I 'is_exit*')" "$before" "$desc: nothing written"
}

refuses compare extra.json "compare BASE -- NEW..." "$BENCH" compare base.json -- "${files[@]:1}" extra.json
refuses plot extra.json "plot timeline" "$BENCH" plot timeline "${files[@]}" extra.json
refuses history extra.json "history add" "$BENCH" history add --db h.db "${files[@]}" extra.json
refuses "export kcidb" extra.json "export kcidb" "$BENCH" export kcidb --origin t "${files[@]}" extra.json

mapfile -t labels < <(seq -f "--label=l%g" 1 "$max")
is_exit 2 "plot: one --label more than the limit is bad input" \
	"$BENCH" plot timeline "${labels[@]}" --label=extra a.json
like is_exit.err "^plot takes at most $max --label options; extra argument 'extra'$" \
	"plot: the --label refused is named with the limit"

done_testing
