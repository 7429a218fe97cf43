#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Result files no run of bench can have written, refused by the one
# reader (result_file.c) alike in every command that reads them: compare,
# plot, history add, export kcidb, config, bench ab (an invocation's file)
# and contrib/lkp-tests' parse (which runs bench's reader), each with the
# reader's line and its exit status of README's table: producers -1 or
# 5000, a CPU -1, 100000 or twice in the affinity lists, a validity block
# against its own figures, a run beyond a day (bench_limits.h); a file
# read out of memory is said to be that, not a damaged file.  count-local
# runs, no BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
export LC_ALL=C
cd "$TEST_TMP" || exit 1

"$BENCH" -q -w0 -d2 --json good.json count-local >/dev/null 2>&1
ok $? "count-local run: exit 0"
cp good.json good2.json

# edit <name> <jq filter>: good.json edited into <name>.json
edit() { jq "$2" good.json >"$1.json"; }
edit producers-neg '.options.runner.producers = -1'
edit producers-5000 '.options.runner.producers = 5000'
edit consumers-neg '.options.runner.consumers = -3'
# CPUs the command line does not take: KCIDB's path once read prod_affinity__-1_
edit cpu-neg '.options.runner.prod_affinity = [-1]'
edit cpu-100000 '.options.runner.prod_affinity = [100000]'
edit cpu-twice '.options.runner.cons_affinity = [1, 1]'
edit valid-starved '.validity.min_cpu_share = 0.745 | .validity.prod_cpu_share = [0.49]'
edit share-1.7 '.validity.prod_cpu_share = [1.7]'
edit min-share-2 '.validity.min_cpu_share = 2'
edit shares-2 '.validity.prod_cpu_share = [0.99, 0.99]'
# a day of warm-up and the two measured seconds: 86402 s, beyond a run's day
# shellcheck disable=SC2016 # jq's variables
edit over-a-day '.options.runner.warmup_sec = 86400 | .samples[0] as $s
	| .samples = [range(86400) | $s | .warmup = true | del(.repeat)] + .samples'
# the same shape within the day is read
# shellcheck disable=SC2016 # jq's variables
edit a-day '.options.runner.warmup_sec = 86398 | .samples[0] as $s
	| .samples = [range(86398) | $s | .warmup = true | del(.repeat)] + .samples'

is_exit 0 "a run of a day (86398 s of warm-up, 2 measured): compare reads it" \
	"$BENCH" compare a-day.json good.json
is_exit 0 "the unedited file: config reads it" "$BENCH" config good.json

DB=$TEST_TMP/h.db
"$BENCH" history add --db "$DB" good.json >/dev/null 2>&1
ok $? "history add of the unedited file: exit 0"

for f in producers-neg producers-5000 consumers-neg cpu-neg cpu-100000 cpu-twice valid-starved share-1.7 min-share-2 shares-2 over-a-day; do
	# the reader's line, as config prints it: every command prints the same
	rc=0
	"$BENCH" config "$f.json" >out 2>err || rc=$?
	is "$rc $(wc -c <out)" "2 0" "$f: config refuses it (exit 2, nothing printed)"
	line=$(grep -o "$f\.json: .*" err | head -1)
	isnt "$line" "" "$f: $line"
	for cmd in "compare $f.json good.json" "compare good.json $f.json" "plot timeline --text -o t.txt $f.json" \
		"history add --db $DB $f.json" "export kcidb --origin test $f.json"; do
		rc=0
		# shellcheck disable=SC2086 # the command's words
		"$BENCH" $cmd >out 2>err || rc=$?
		is "$rc" 2 "$f: bench ${cmd%% *} refuses it, exit 2"
		grep -qF -- "$line" err
		ok $? "$f: bench ${cmd%% *} says the reader's line"
		[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat err)"
	done
	# bench ab: an invocation writing this file is an invocation that failed
	rc=0
	"$BENCH" ab --blocks 6 -o "ab-$f.d" --cmd-a "cp $TEST_TMP/$f.json \"\$BENCH_AB_JSON\"" \
		--cmd-b "cp $TEST_TMP/good.json \"\$BENCH_AB_JSON\"" >out 2>err || rc=$?
	is "$rc" 1 "$f: bench ab refuses A's file, exit 1 (an invocation failed)"
	grep -qF -- "${line#"$f.json: "}" err
	ok $? "$f: bench ab says the reader's reason"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat err)"
	# lkp's parse: bench's reader, its line, exit 1 and no stat
	rc=0
	"$LKP_PARSE" "$f.json" >out 2>err || rc=$?
	is "$rc $(wc -c <out)" "1 0" "$f: lkp's parse refuses it, exit 1, no stat"
	grep -qF -- "${line#"$f.json: "}" err
	ok $? "$f: lkp's parse says the reader's reason"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat err)"
done
"$LKP_PARSE" good.json >out 2>err
is "$? $(grep -c '^hits: ' out)" "0 1" "lkp's parse of the unedited file: exit 0, hits"

# ---- a file read out of memory: said so, not taken for a damaged file ----
# 100,000 copies of a sample (32 MB of JSON) take some 300 MB to parse;
# 60 MB of address space is room for bench and a small file.  jansson
# ran out of memory as "line -1, column -1: not valid JSON" or "string
# or '}' expected": the loader now knows an allocation failed.
jq -c '.samples[0] as $s | .samples = [range(100000) | $s]' good.json >huge.json
(ulimit -v 60000 && "$BENCH" config good.json >/dev/null 2>&1)
is $? 0 "within 60 MB of address space: config reads the small file"
for cmd in config compare plot "history add" export; do
	case $cmd in
	config) args=(config huge.json) ;;
	compare) args=(compare good.json huge.json) ;;
	plot) args=(plot timeline --text -o t.txt huge.json) ;;
	"history add") args=(history add --db "$DB" huge.json) ;;
	export) args=(export kcidb --origin test huge.json) ;;
	esac
	(ulimit -v 60000 && "$BENCH" "${args[@]}" >/dev/null 2>err)
	rc=$?
	ok "$([ "$rc" -ne 0 ] && [ "$rc" -lt 64 ] && echo 0 || echo 1)" \
		"out of memory: $cmd fails with a status of its own, not a crash ($rc)"
	[ "$cmd" = export ] && cmd="export kcidb"
	is "$(cat err)" "$cmd: failed to load huge.json: Cannot allocate memory" \
		"out of memory: $cmd says so, not 'not valid JSON'"
done
(ulimit -v 60000 && "$BENCH" compare good.json huge.json >/dev/null 2>&1)
is $? 2 "out of memory: compare exits 2 (README: it could not compare), never 1"

done_testing
