#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/lkp-tests' bpf-bench program against lkp-tests' contract for a
# test case (doc/add-testcase.md): run takes its job parameters from the
# environment and runs bench; parse turns the JSON result (not the text)
# into "key: value" lines, every value a finite number.  On real -w0 -d1
# runs (results_bpf.t applies parse to every benchmark's); the keys are stable across runs and
# name the configuration as bench export kcidb does, whose report of a
# htab-mem run is validated against KCIDB's schema.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
require_kcidb_validator

LKP=$(cd "$(dirname "$0")/../contrib/lkp-tests/programs/bpf-bench" && pwd)
cd "$TEST_TMP" || exit 1

# lkp_run <dir> <VAR=value...>: the run script as lkp-tests calls it
lkp_run() {
	local dir=$1
	shift
	mkdir -p "$dir"
	env -u LKP_SRC BPF_BENCH="$BENCH" RESULT_ROOT="$TEST_TMP/$dir" warmup=0 duration=1 \
		producers=1 "$@" "$LKP/run" >"$dir/out" 2>"$dir/err"
}

# contract <dir> <benchmark>: parse of the run's result keeps lkp-tests' contract
contract() {
	local dir=$1 b=$2
	RESULT_ROOT="$TEST_TMP/$dir" "$LKP/parse" >"$dir/parsed" 2>"$dir/parse.err"
	ok $? "$b: parse exits 0"
	lkp_contract "$dir/parsed" "$b"
}

# run as lkp-tests calls it: a benchmark with memory figures, one without,
# and one with bench_options; parse of every benchmark's result (its
# contract, and the configuration export kcidb names) is in results_bpf.t
for b in htab-mem count-local lpm-trie-lookup; do
	opts=
	# the LPM trie benchmarks have no default trie size
	case $b in lpm-trie-*) opts="--nr_entries 1000" ;; esac
	lkp_run "$b-1" benchmark="$b" bench_options="$opts"
	ok $? "$b: run exits 0"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(tail -3 "$b-1/err")"
	jq -e .summary "$b-1/bpf-bench.json" >/dev/null 2>&1
	ok $? "$b: run leaves the JSON result in RESULT_ROOT"
	contract "$b-1" "$b"
	# the configuration in parse's keys is the one bench export kcidb names
	"$BENCH" export kcidb --origin lkp_test "$b-1/bpf-bench.json" >"$b-1/kcidb" 2>&1
	is "$(jq -r '.tests[0].path | split(".")[3]' "$b-1/kcidb")" "$(head -1 "$b-1/parsed" | cut -d. -f2)" \
		"$b: parse's configuration is export kcidb's"
done
diag "$(head -4 htab-mem-1/parsed)"

# keys stable across runs: a second run of the benchmark with memory figures and of one without
for b in htab-mem count-local; do
	lkp_run "$b-2" benchmark="$b"
	ok $? "$b: a second run exits 0"
	contract "$b-2" "$b"
	is "$(cut -d: -f1 "$b-2/parsed")" "$(cut -d: -f1 "$b-1/parsed")" "$b: the same keys in the same order as the first run"
done
# run pins its threads (-a): the configuration says so
like htab-mem-1/parsed '^htab-mem\.overwrite-affinity\.per_prod_op: ' "htab-mem: htab-mem.overwrite-affinity.per_prod_op"
like htab-mem-1/parsed '^htab-mem\.overwrite-affinity\.peak_memory_mib: [0-9]' "htab-mem: the peak memory in MiB"

# the job parameters: use case, flavour, producers
lkp_run hm-p benchmark=htab-mem use_case=add_del_on_diff_cpu flavour=prealloc producers=2
ok $? "htab-mem add_del_on_diff_cpu prealloc -p2: run exits 0"
contract hm-p htab-mem
like hm-p/parsed '^htab-mem\.add_del_on_diff_cpu-affinity-preallocated-producers_2\.per_prod_op: ' \
	"use_case, flavour and producers name the configuration"
is "$(jq -r '.options.runner.producers, .options.benchmark.preallocated' hm-p/bpf-bench.json | tr '\n' ' ')" \
	"2 true " "producers and flavour reach bench"
"$BENCH" export kcidb --origin lkp_test htab-mem-1/bpf-bench.json hm-p/bpf-bench.json >hm.kcidb
ok $? "export kcidb of two htab-mem runs: exit 0"
"$KCIDB_VALIDATE" "$KCIDB_SCHEMA" hm.kcidb >hm.verdict 2>&1
ok $? "export kcidb of htab-mem runs: the validator says valid"
diag "$(cat hm.verdict)"

# refusals: a bad flavour, a run that fails, a result that is not there
lkp_run bad-flavour benchmark=htab-mem flavour=lru
isnt $? 0 "an unknown flavour: run fails"
like bad-flavour/err "unknown flavour 'lru': expected bpf-ma or prealloc" "an unknown flavour: said"
lkp_run bad-p benchmark=htab-mem use_case=add_del_on_diff_cpu producers=3
isnt $? 0 "add_del_on_diff_cpu with 3 producers: run fails (bench refuses)"
RESULT_ROOT="$TEST_TMP/bad-p" "$LKP/parse" >bad-p/parsed 2>bad-p/parse.err
isnt $? 0 "parse of a run that wrote no result: non-zero exit"
is "$(wc -c <bad-p/parsed)" 0 "parse of a run that wrote no result: no key at all"
echo '{"schema": "other"}' >other.json
"$LKP/parse" other.json >other.parsed 2>other.err
isnt $? 0 "parse of a file that is not a bench result: non-zero exit"
is "$(wc -c <other.parsed)" 0 "parse of a file that is not a bench result: no key"

done_testing
