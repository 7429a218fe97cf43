#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The runner's command line: listing, and every kind of bad input.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

run_bench "$TEST_TMP/list" -l
is $? 0 "bench -l exits 0"
like "$TEST_TMP/list" '^  count-global +[a-z]' "-l lists count-global with a description"
like "$TEST_TMP/list" '^  count-local +[a-z]' "-l lists count-local with a description"

run_bench "$TEST_TMP/help" --help
is $? 0 "--help exits 0"
like "$TEST_TMP/help" '--prod-affinity=CPUSET' "--help documents --prod-affinity"

# bad <description> <stderr regex> <args...>: non-zero exit, one line on stderr
bad() {
	local desc=$1 re=$2 rc lines
	shift 2
	run_bench "$TEST_TMP/bad" "$@"
	rc=$?
	isnt "$rc" 0 "$desc: non-zero exit"
	like "$TEST_TMP/bad.err" "$re" "$desc: message names the problem"
	lines=$(grep -c . "$TEST_TMP/bad.err")
	is "$lines" 1 "$desc: exactly one line on stderr"
	is "$(grep -c . "$TEST_TMP/bad")" 0 "$desc: nothing on stdout"
}

bad "unknown benchmark" "unknown benchmark 'nope'; known benchmarks: .*count-local" nope
bad "missing name" "no benchmark given; known benchmarks:" -d1
bad "two names" "two benchmark names given: 'count-local' and 'count-global'" count-local count-global
bad "-d 5x" "invalid duration '5x'" -d 5x count-local
bad "-d 0" "invalid duration '0'" -d 0 count-local
bad "-d empty" "invalid duration ''" -d "" count-local
bad "-w -1" "invalid warm-up '-1'" -w -1 count-local
bad "-p -1" "invalid producer count '-1'" -p -1 count-local
bad "-p 0" "invalid producer count '0'" -p 0 count-local
bad "-p 99999" "invalid producer count '99999'" -p 99999 count-local
bad "-c x" "invalid consumer count 'x'" -c x count-local
bad "malformed CPU set" "invalid --prod-affinity '0-'" --prod-affinity 0- count-local
bad "reversed CPU range" "invalid --cons-affinity '3-1'" --cons-affinity 3-1 count-local
bad "duplicate CPU" "invalid --prod-affinity '0,0'" --prod-affinity 0,0 count-local
bad "CPU not allowed" "CPU 1000 is not available to this process" --prod-affinity 1000 count-local
bad "CPU beyond cpu_set_t" "invalid --prod-affinity '4096': expected CPU numbers in 0..1023" --prod-affinity 4096 count-local
bad "another benchmark's option" "option --use-case does not apply to benchmark 'count-local'" \
	count-local --use-case overwrite
bad "another benchmark's option, given first" "option --key_size does not apply to benchmark 'htab-mem'" \
	--key_size 8 htab-mem
bad "another benchmark's option after one of its own" "option --key_size does not apply to benchmark 'htab-mem'" \
	htab-mem --value-size 8 --key_size 8
bad "htab-mem bad value size" "invalid value size 'abc'" htab-mem --value-size abc
bad "--json with an empty name" "invalid --json ''" --json "" count-local
bad "--latency without per-trigger map work (count)" \
	"invalid --latency for benchmark 'count-global': it does no map operations per trigger" --latency count-global
bad "--latency without per-trigger map work (trig-base)" \
	"invalid --latency for benchmark 'trig-base': it does no map operations per trigger" trig-base --latency
bad "consumers for a producer-only benchmark" "has no consumers; -c/--consumers must be 0 \\(got 2\\)" -c 2 count-local

# a CPU this process may not use: restrict ourselves to CPU 0, ask for 1
if [ "$(nproc --all)" -gt 1 ] && command -v taskset >/dev/null; then
	taskset -c 0 "$BENCH" --prod-affinity 1 -d1 -w0 count-local >"$TEST_TMP/ts" 2>"$TEST_TMP/ts.err"
	isnt $? 0 "a CPU outside our affinity mask is refused"
	like "$TEST_TMP/ts.err" "CPU 1 is not available to this process \\(allowed: 0\\)" \
		"and the message lists the allowed CPUs"
else
	skip "needs 2 CPUs and taskset" "a CPU outside our affinity mask is refused"
fi

"$BENCH" --no-such-option count-local >/dev/null 2>"$TEST_TMP/uo.err"
isnt $? 0 "unknown option: non-zero exit"
like "$TEST_TMP/uo.err" "unrecognized option '--no-such-option'" "unknown option is named"

done_testing
