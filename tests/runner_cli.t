#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The runner's command line: listing, and every kind of bad input.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

run_bench "$TEST_TMP/list" -l
is $? 0 "bench -l exits 0"
like "$TEST_TMP/list" '^  count-global +[a-z]' "-l lists count-global with a description"
like "$TEST_TMP/list" '^  count-local +[a-z]' "-l lists count-local with a description"
like "$TEST_TMP/list" '^  trig-syscall-count +[a-z].* \(alias: trig-base\)$' \
	"-l lists trig-syscall-count, upstream's name, and says trig-base is its alias"
is "$(grep -c '^  trig-base ' "$TEST_TMP/list")" 0 "-l lists the alias on no line of its own"
# the descriptions start in one column, one past the longest name
cols=$(awk 'NR > 1 { match($0, /^  [^ ]+ +/); print RLENGTH }' "$TEST_TMP/list" | sort -u)
widest=$(awk 'NR > 1 { if (length($1) > w) w = length($1) } END { print w + 3 }' "$TEST_TMP/list")
is "$cols" "$widest" "-l: every description starts in column $widest, past the longest name"

run_bench "$TEST_TMP/help" --help
is $? 0 "--help exits 0"
like "$TEST_TMP/help" '--prod-affinity=CPUSET' "--help documents --prod-affinity"
like "$TEST_TMP/help" '^Usage: bench \[OPTION\.\.\.\] BENCHMARK \[BENCHMARK OPTION\.\.\.\]$' "--help: the usage names the benchmark"
for cmd in ab compare plot export history config import; do
	like "$TEST_TMP/help" "^    $cmd +[a-z]" "--help lists the command $cmd with what it does"
done
is "$(sed -n '/^COMMANDS:$/,/^$/p' "$TEST_TMP/help" | grep -c '^    [a-z]')" 7 \
	"--help: the COMMANDS section lists exactly the seven commands"
# upstream's list is not where this project's bugs go
for cmd in "" compare plot; do
	# shellcheck disable=SC2086 # no command: the runner's own --help
	"$BENCH" $cmd --help >"$TEST_TMP/help" 2>&1
	is "$(grep -c 'bpf@vger\|Report bugs' "$TEST_TMP/help")" 0 \
		"bench ${cmd:+$cmd }--help gives no bug address of upstream's"
done

# bad <status> <description> <stderr regex> <args...>: that exit status
# (README, "Exit status": 64 for what argp refuses, 1 after parsing), one
# line on stderr
bad() {
	local want=$1 desc=$2 re=$3 rc lines
	shift 3
	run_bench "$TEST_TMP/bad" "$@"
	rc=$?
	is "$rc" "$want" "$desc: exit $want"
	like "$TEST_TMP/bad.err" "$re" "$desc: message names the problem"
	lines=$(grep -c . "$TEST_TMP/bad.err")
	is "$lines" 1 "$desc: exactly one line on stderr"
	is "$(grep -c . "$TEST_TMP/bad")" 0 "$desc: nothing on stdout"
}

COMMANDS="ab compare plot export history config import"
bad 1 "unknown benchmark" "^unknown benchmark or command 'nope'; known benchmarks: .*count-local.* \\(see bench -l\\); commands: $COMMANDS \\(see bench --help\\)\$" nope
bad 1 "missing name" "^no benchmark given; known benchmarks: .*count-local.*; commands: $COMMANDS " -d1
is "$(grep -c 'did you mean' "$TEST_TMP/bad.err")" 0 "missing name: no suggestion"
# a mistyped name gets the nearest names, benchmarks and commands alike;
# the first word is checked before the rest, so a command's files or
# options do not hide the typo
bad 1 "benchmark typo" "^unknown benchmark or command 'htab_mem'; did you mean 'htab-mem'\\? known benchmarks: " \
	-p2 htab_mem --use-case overwrite
bad 1 "benchmark typo, first" "^unknown benchmark or command 'lpm-trie-lookpu'; did you mean 'lpm-trie-lookup'\\? " \
	lpm-trie-lookpu --nr_entries 10
bad 1 "alias typo" "did you mean 'trig-base'\\? " trig-bsae
bad 1 "a name's beginning" "did you mean 'count-global' or 'count-local'\\? " count
bad 1 "command typo with files" "^unknown benchmark or command 'comapre'; did you mean 'compare'\\? " \
	comapre a.json b.json
bad 1 "command typo with its options" "did you mean 'history'\\? " hsitory list --db x.db
bad 1 "a command after an option" "^'history' is a command: it comes first, before its options \\(bench history --help\\)\$" \
	-d1 history
bad 1 "nothing near" "^unknown benchmark or command 'xyzzy'; known benchmarks: " xyzzy
bad 64 "two names" "two benchmark names given: 'count-local' and 'count-global'" count-local count-global
bad 64 "-d 5x" "invalid duration '5x'" -d 5x count-local
bad 64 "-d 0" "invalid duration '0'" -d 0 count-local
bad 64 "-d empty" "invalid duration ''" -d "" count-local
bad 64 "-w -1" "invalid warm-up '-1'" -w -1 count-local
bad 64 "-p -1" "invalid producer count '-1'" -p -1 count-local
bad 64 "-p 0" "invalid producer count '0'" -p 0 count-local
bad 64 "-p 99999" "invalid producer count '99999'" -p 99999 count-local
bad 64 "-c x" "invalid consumer count 'x'" -c x count-local
bad 64 "malformed CPU set" "invalid --prod-affinity '0-'" --prod-affinity 0- count-local
bad 64 "reversed CPU range" "invalid --cons-affinity '3-1'" --cons-affinity 3-1 count-local
bad 64 "duplicate CPU" "invalid --prod-affinity '0,0'" --prod-affinity 0,0 count-local
bad 1 "CPU not allowed" "CPU 1000 is not available to this process" --prod-affinity 1000 count-local
bad 64 "CPU beyond cpu_set_t" "invalid --prod-affinity '4096': expected CPU numbers in 0..1023" --prod-affinity 4096 count-local
bad 64 "another benchmark's option" "option --use-case does not apply to benchmark 'count-local'" \
	count-local --use-case overwrite
bad 64 "another benchmark's option, given first" "option --key_size does not apply to benchmark 'htab-mem'" \
	--key_size 8 htab-mem
bad 64 "another benchmark's option after one of its own" "option --key_size does not apply to benchmark 'htab-mem'" \
	htab-mem --value-size 8 --key_size 8
bad 64 "htab-mem bad value size" "invalid value size 'abc'" htab-mem --value-size abc
bad 64 "--json with an empty name" "invalid --json ''" --json "" count-local
bad 1 "--latency without timed map work (count)" \
	"invalid --latency for benchmark 'count-global': its BPF program does not time its map operations per trigger; accepted by: " \
	--latency count-global
bad 1 "--latency without timed map work (trig-syscall-count)" \
	"invalid --latency for benchmark 'trig-syscall-count': its BPF program does not time" \
	trig-syscall-count --latency
# the benchmarks --latency's refusal names are the table's: every one
# named passes the check (and stops at the next, repeats longer than a
# day: nothing runs), every other is refused (bloom-lookup once said only
# htab-mem, the *-lookup benchmarks and bpf-hashmap-lookup took it)
accepted=$("$BENCH" --latency bloom-lookup 2>&1 | sed -n 's/.*accepted by: //p' | tr ' ' '\n' | sort)
passing=$(for b in $("$BENCH" -l | awk 'NR > 1 { print $1 }'); do
	"$BENCH" --latency --repeat 2 -w0 -d 86400 "$b" 2>&1 | grep -q -- 'invalid --latency' || echo "$b"
done | sort)
is "$accepted" "$passing" "--latency's refusal lists exactly the benchmarks that accept it"
assert "... lpm-trie-lookup among them" grep -qx -e lpm-trie-lookup <<<"$accepted"
assert "... bpf_ma among them" grep -qx -e bpf_ma <<<"$accepted"
bad 1 "consumers for a producer-only benchmark" "has no consumers; -c/--consumers must be 0 \\(got 2\\)" -c 2 count-local

# a CPU this process may not use: restrict ourselves to CPU 0, ask for 1
if [ "$(nproc --all)" -gt 1 ] && command -v taskset >/dev/null; then
	taskset -c 0 "$BENCH" --prod-affinity 1 -d1 -w0 count-local >"$TEST_TMP/ts" 2>"$TEST_TMP/ts.err"
	is $? 1 "a CPU outside our affinity mask is refused: exit 1"
	like "$TEST_TMP/ts.err" "CPU 1 is not available to this process \\(allowed: 0\\)" \
		"and the message lists the allowed CPUs"
else
	skip "needs 2 CPUs and taskset" "a CPU outside our affinity mask is refused"
fi

"$BENCH" --no-such-option count-local >/dev/null 2>"$TEST_TMP/uo.err"
is $? 64 "unknown option: exit 64 (argp's EX_USAGE)"
like "$TEST_TMP/uo.err" "unrecognized option '--no-such-option'" "unknown option is named"

done_testing
