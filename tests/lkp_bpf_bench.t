#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/lkp-tests' bpf-bench inside lkp-tests' own stats pipeline: run
# as bin/run-test calls it (job parameters in the environment, its stdout
# the log $RESULT_ROOT/bpf-bench), then lkp's bin/run-stats, which calls
# parse on the log and sbin/dump-stat on parse's output, leaving the stats
# in $RESULT_ROOT/bpf-bench.json.  That is the smallest part of lkp's
# pipeline that runs without an lkp install: bin/run-stats and
# sbin/dump-stat need LKP_SRC (lkp's lib/ and etc/) and ruby, not a job
# runner.  LKP_SRC is the user's lkp-tests, else ../shared/lkp-tests beside
# the checkout; bpf-bench is added to it as a maintainer would (its
# programs/ with ours beside theirs, in a private tree of links).
# Under CI=true nothing here skips; elsewhere only a missing lkp-tests does.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

TOP=$SRC_TOP
PROG=$TOP/contrib/lkp-tests/programs/bpf-bench
lkp_src_of() {	# the user's LKP_SRC, or the snapshot beside the (main) checkout
	local common

	if [ -n "${LKP_SRC:-}" ]; then
		echo "$LKP_SRC"
	elif [ -d "$TOP/../shared/lkp-tests" ]; then
		echo "$TOP/../shared/lkp-tests"
	elif common=$(git -C "$TOP" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) &&
	     [ -d "$(dirname "$common")/../shared/lkp-tests" ]; then
		echo "$(dirname "$common")/../shared/lkp-tests"
	fi
}
SRC=$(lkp_src_of)
if [ ! -x "$SRC/bin/run-stats" ] || [ ! -x "$SRC/sbin/dump-stat" ]; then
	why="no lkp-tests at ${SRC:-../shared/lkp-tests} (set LKP_SRC to an lkp-tests checkout)"
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - $why"; exit 1; }
	skip_all "$why"
fi
cd "$TEST_TMP" || exit 1
: >"$TEST_TMP/start"	# for the last check: nothing of run-stats' left in /tmp

# lkp-tests with bpf-bench in it: links to every top-level entry and program
LKP=$TEST_TMP/lkp-src
mkdir -p "$LKP/programs" bm/bpf-bench
SRC=$(cd "$SRC" && pwd)
for f in "$SRC"/*; do
	case ${f##*/} in programs | etc) ;; *) ln -s "$f" "$LKP/" ;; esac
done
ln -s "$SRC"/programs/* "$LKP/programs/"
ln -s "$PROG" "$LKP/programs/bpf-bench"
# etc/: lkp's files, with contrib's lines added to the ones it has lines for
mkdir "$LKP/etc"
for f in "$SRC"/etc/*; do
	if [ -f "$TOP/contrib/lkp-tests/etc/${f##*/}" ]; then
		cat "$f" "$TOP/contrib/lkp-tests/etc/${f##*/}" >"$LKP/etc/${f##*/}"
	else
		ln -s "$f" "$LKP/etc/"
	fi
done
ln -s "$BENCH" bm/bpf-bench/bench
# job <dir> <param=value...>: the program's run as bin/run-test calls it, its
# stdout the log, in result root <dir>
job() {
	local rr=$TEST_TMP/result/$1
	shift
	env LKP_SRC="$LKP" BENCHMARK_ROOT="$TEST_TMP/bm" RESULT_ROOT="$rr" TMP_RESULT_ROOT="$rr" \
		warmup=0 runtime=1 nr_threads=1 "$@" "$LKP/programs/bpf-bench/run" >"$rr/bpf-bench" 2>"$rr/run.err"
}
# job_start <dir> <param=value...>: job, started beside the others (lib.sh's
# par_start); job_wait <dir>: its exit status, and RR set to its result root
job_start() {
	mkdir -p "$TEST_TMP/result/$1"
	echo "category: benchmark" >"$TEST_TMP/result/$1/job.yaml"
	par_start "$TEST_TMP/result/$1/job.par" job "$@"
}
job_wait() {
	RR=$TEST_TMP/result/$1
	par_wait "$RR/job.par"
}
# stats: lkp's bin/run-stats bpf-bench on $RR.  run-stats removes its
# temporary file (/tmp/lkp-stats.XXXXXXXX) only when it succeeds; when it
# fails, as it must on the documents refused below, its error message on
# stderr names the file, and stats removes that one
stats() {
	local rc=0 left

	env LKP_SRC="$LKP" RESULT_ROOT="$RR" "$LKP/bin/run-stats" bpf-bench >"$RR/stats.out" 2>"$RR/stats.err" ||
		rc=$?
	left=$(sed -n 's|.*tmpfile: \(/tmp/lkp-stats\.[A-Za-z0-9]*\)$|\1|p' "$RR/stats.err")
	[ -z "$left" ] || rm -f "$left"
	return "$rc"
}
# stats_start <dir>...: stats on each result root, beside one another;
# stats_wait <dir>: its exit status, and RR set to the result root
stats_start() {
	local d

	for d in "$@"; do
		RR=$TEST_TMP/result/$d
		par_start "$RR/stats.par" stats
	done
}
stats_wait() {
	RR=$TEST_TMP/result/$1
	par_wait "$RR/stats.par"
}
doc() { sed -n '/^{/,$p' "$RR/bpf-bench"; }	# bench's document in the log
stat() { jq -r --arg k "bpf-bench.$1" '.[$k][0] // "none"' "$RR/bpf-bench.json"; }
# near <a> <b>: equal to rounding (Ruby and jq print doubles each their way)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a; exit !(d <= 1e-9 * m + 1e-12) }'; }

# The jobs, started side by side (lib.sh's par_start, at most PAR_WIDTH at once):
# each is its own run of bench in its own result root, and no check of one
# reads another; their checks are on each run's own document, none on the
# machine.  htab-mem's 2 s run starts first, the ruby check goes beside it.
job_start hm benchmark=htab-mem use_case=overwrite flavour=prealloc nr_threads=2 runtime=2
job_start free benchmark=lpm-trie-free bench_options="--nr_entries 1000"
job_start fu benchmark=bpf-hashmap-full-update
ruby -e 'require "tty-command"; require "active_support"; require "git"' 2>ruby.err
ok $? "ruby and the gems lkp's stats need (scripts/install-deps.sh installs them)"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(head -3 ruby.err)"
job_start ma benchmark=bpf_ma
job_start bad-flavour benchmark=htab-mem flavour=lru
job_start no-benchmark
declare -A JOB_RC=()
for j in hm free fu ma bad-flavour no-benchmark; do
	job_wait "$j"
	JOB_RC[$j]=$?
done

# the edited documents the checks below give lkp's stats: htab-mem's log,
# each in a result root of its own
edited() {	# edited <name> <jq filter>: htab-mem's log, its document edited
	RR=$TEST_TMP/result/$1
	mkdir -p "$RR"
	cp "$HM/job.yaml" "$RR/"
	{ sed -n 1p "$HM/bpf-bench"; sed -n '/^{/,$p' "$HM/bpf-bench" | jq "$2"; } >"$RR/bpf-bench"
}
HM=$TEST_TMP/result/hm
edited deleted '.samples |= .[1:]'
edited emptied '.samples = []'
edited cut '.samples |= .[:1] | .options.runner.duration_sec = 1'
edited mean '.summary.metrics.per_prod_op.mean *= 2'
edited other '{"schema": "other"}'
edited fails '.samples[-1].counters.fails = 3 | .summary.fails = 3'
edited invalid '.validity = {"valid": false, "reason": "producers starved", "min_cpu_share": 0.8, "prod_cpu_share": [0.1, 0.1]}'
edited kept '.validity = {"valid": false, "reason": "producers starved", "min_cpu_share": 0.8, "prod_cpu_share": [0.1, 0.1]}'
# bpf_ma's log, its document saying its total memory is below its floor
RR=$TEST_TMP/result/ma
doc | jq '.counts.memory_below_floor = 1' >"$RR/below.json"
{ sed -n 1p "$RR/bpf-bench"; cat "$RR/below.json"; } >"$RR/bpf-bench.below"
mv "$RR/bpf-bench.below" "$RR/bpf-bench"
# lkp's bin/run-stats on every result root, side by side too (CPU-bound
# ruby, two at once on two CPUs): each reads and writes its own root alone
stats_start hm free fu deleted emptied cut mean other fails invalid ma

# htab-mem, as the job file has it: its stats are the result's means, in op/s
RR=$TEST_TMP/result/hm
ok "${JOB_RC[hm]}" "htab-mem overwrite prealloc, nr_threads=2 runtime=2: run exits 0"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(tail -3 "$RR/run.err")"
like "$RR/bpf-bench" "^[0-9-]+ [0-9:]+ $TEST_TMP/bm/bpf-bench/bench -a -w 0 -d 2 -p 2 --json - htab-mem --use-case overwrite --preallocated$" \
	"the log starts with lkp's log_cmd line: the job's parameters as bench's options"
is "$(doc | jq -c '[.options.runner.producers, .options.runner.duration_sec, .options.benchmark.preallocated]')" \
	"[2,2,true]" "nr_threads, runtime and flavour reach bench"
stats_wait hm
ok $? "lkp's bin/run-stats bpf-bench: exit 0"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$RR/stats.err")"
is "$(grep -c . "$RR/stats.err")" 0 "run-stats: nothing on stderr"
diag "$(jq -c . "$RR/bpf-bench.json")"
is "$(jq -r 'keys | map(select(test("^bpf-bench\\.[a-z0-9_]+$") | not)) | length' "$RR/bpf-bench.json")" 0 \
	"every stat is bpf-bench.KEY: no benchmark, configuration, duration or producers in the keys"
for k in per_prod_op memory peak_memory; do
	assert "bpf-bench.$k is a stat" test "$(stat "$k")" != none
done
assert "per_prod_op: the result's mean, k/s in op/s" \
	near "$(stat per_prod_op)" "$(doc | jq '.summary.metrics.per_prod_op.mean * 1000')"
assert "memory: the result's mean, in MiB" near "$(stat memory)" "$(doc | jq '.summary.metrics.memory.mean')"
assert "peak_memory: the result's peak, in MiB" near "$(stat peak_memory)" "$(doc | jq '.summary.peak_memory_mib')"
is "$(stat failures)" none "failures, 0 here, is left out by dump-stat as lkp leaves every zero stat out"
# lkp's etc/ as contrib extends it: bpf-bench is a perf test case, and
# each stat's direction (1: higher is better) is found as lib/stats.rb finds it
assert "etc/linux-perf-test-cases lists bpf-bench" grep -qx bpf-bench "$LKP/etc/linux-perf-test-cases"
is "$(ruby -ryaml -rjson -e 'idx = YAML.load_file(ARGV[0]); stats = JSON.parse(File.read(ARGV[1]))
	puts stats.keys.sort.map { |s| k = idx.keys.find { |i| s =~ /^#{i}$/ }; "#{s}=#{k ? idx[k] : "none"}" }.join(" ")' \
	"$LKP/etc/index-perf-all.yaml" "$RR/bpf-bench.json")" \
	"$(jq -r 'keys | sort | map(. + "=" + (if test("per_prod_op$") then "1" elif test("memory") then "-1" else "none" end)) | join(" ")' "$RR/bpf-bench.json")" \
	"etc/index-perf-all.yaml: per_prod_op higher is better, memory lower"

# lpm-trie-free's K/s: thousands of op/s, as KCIDB gets them
RR=$TEST_TMP/result/free
ok "${JOB_RC[free]}" "lpm-trie-free: run exits 0"
stats_wait free
ok $? "lpm-trie-free: run-stats exit 0"
assert "lpm-trie-free: throughput K/s in op/s" \
	near "$(stat throughput)" "$(doc | jq '.summary.metrics.throughput.mean * 1000')"
assert "lpm-trie-free: latency ms in ns" \
	near "$(stat latency)" "$(doc | jq '.summary.metrics.latency.mean * 1000000')"

# bpf-hashmap-full-update: its failing updates are what it times, not fails
RR=$TEST_TMP/result/fu
ok "${JOB_RC[fu]}" "bpf-hashmap-full-update: run exits 0"
stats_wait fu
ok $? "bpf-hashmap-full-update: run-stats exit 0"
assert "bpf-hashmap-full-update: its updates rate in op/s" \
	near "$(stat updates)" "$(doc | jq '.summary.metrics.updates.mean * 1000000')"
is "$(stat fails)" none "bpf-hashmap-full-update: no fails stat"

# documents that lkp's stats must refuse, as compare, history and export do:
# parse exits non-zero and prints nothing, run-stats fails and stores none
refused() {	# refused <name> <description> <stderr regex>: parse and run-stats on the edited <name> refuse
	local name=$1 rc=0

	shift
	RR=$TEST_TMP/result/$name
	# shellcheck disable=SC2094 # as run-stats calls it: the log as argument and stdin
	"$PROG/parse" "$RR/bpf-bench" <"$RR/bpf-bench" >"$RR/parsed" 2>"$RR/parse.err" || rc=$?
	is "$rc $(wc -c <"$RR/parsed")" "1 0" "$1: parse exits 1, prints nothing"
	like "$RR/parse.err" "$2" "$1: $(head -1 "$RR/parse.err")"
	stats_wait "$name"
	isnt $? 0 "$1: run-stats fails"
	assert "$1: no stats stored" test ! -e "$RR/bpf-bench.json"
}
refused deleted "a sample deleted" 'samples: 0 warm-up and 1 measured samples, but options.runner says -w 0 -d 2'
refused emptied "the samples emptied" 'samples: no measured sample'
refused cut "the samples cut to one (and -d said so)" 'summary.metrics.per_prod_op.n: 2 in the file, 1 values in its measured samples'
refused mean "a mean edited" 'summary.metrics.per_prod_op.mean: .* in the file, .* from its samples'
refused other "not a bench result" 'not a bench result'
RR=$TEST_TMP/result/empty
mkdir -p "$RR"
rc=0
"$PROG/parse" </dev/null >"$RR/parsed" 2>"$RR/parse.err" || rc=$?
is "$rc $(wc -c <"$RR/parsed")" "1 0" "empty stdin (run-stats' call without a log): parse exits 1, prints nothing"
: >"$RR/empty.log"
rc=0
# shellcheck disable=SC2094
"$PROG/parse" "$RR/empty.log" <"$RR/empty.log" >"$RR/parsed" 2>"$RR/parse.err" || rc=$?
is "$rc $(wc -c <"$RR/parsed")" "1 0" "an empty log: parse exits 1, prints nothing"
like "$RR/parse.err" 'empty log: bench wrote no result' "an empty log: said"

# what the run says of its own figures
stats_wait fails
ok $? "failed map operations: run-stats exit 0"
is "$(jq -c 'keys' "$RR/bpf-bench.json") $(stat fails)" '["bpf-bench.fails"] 3' \
	"failed map operations: the count is the only stat, no figure"
stats_wait invalid
ok $? "an invalid run: run-stats exit 0"
is "$(jq -c 'keys' "$RR/bpf-bench.json")" '["bpf-bench.invalid_run"]' "an invalid run (producers starved): invalid_run, no figure"
# the job's include_invalid=1, in parse's environment as lkp gives it: the figures, marked
RR=$TEST_TMP/result/kept
include_invalid=1 stats
ok $? "an invalid run, include_invalid=1: run-stats exit 0"
is "$(stat invalid_run)" 1 "include_invalid=1: the run is marked invalid_run 1"
assert "include_invalid=1: its figures are kept (per_prod_op, the result's mean in op/s)" \
	near "$(stat per_prod_op)" "$(doc | jq '.summary.metrics.per_prod_op.mean * 1000')"
rc=0
"$PROG/parse" --include-invalid "$RR/bpf-bench" >"$RR/parsed" 2>"$RR/parse.err" || rc=$?
is "$rc $(grep -c '^invalid_run: 1$' "$RR/parsed") $(grep -c '^per_prod_op: ' "$RR/parsed")" "0 1 1" \
	"parse --include-invalid: exit 0, invalid_run: 1 beside the figures"
like "$RR/parse.err" 'invalid run \(kept: include_invalid\): producers starved' "parse --include-invalid: says it kept it"

# bpf_ma's total memory below its floor: not a number, a flag
RR=$TEST_TMP/result/ma
ok "${JOB_RC[ma]}" "bpf_ma: run exits 0"
stats_wait ma
ok $? "bpf_ma below its floor: run-stats exit 0"
is "$(stat memory_below_floor) $(stat sys_slab_growth)" "1 none" \
	"bpf_ma below its floor: memory_below_floor 1, no sys_slab_growth figure"
assert "bpf_ma below its floor: its rates still" near "$(stat alloc)" "$(jq '.summary.metrics.alloc.mean * 1000000' "$RR/below.json")"

# the run's refusals
RR=$TEST_TMP/result/bad-flavour
isnt "${JOB_RC[bad-flavour]}" 0 "an unknown flavour: run fails"
like "$RR/run.err" "unknown flavour 'lru': expected bpf-ma or prealloc" "an unknown flavour: said"
RR=$TEST_TMP/result/no-benchmark
isnt "${JOB_RC[no-benchmark]}" 0 "no benchmark: run fails"
like "$RR/run.err" "benchmark must be specified" "no benchmark: said"

is "$(find /tmp -maxdepth 1 -name 'lkp-stats.*' -newer "$TEST_TMP/start")" "" \
	"nothing of run-stats' left in /tmp: the failed ones' temporary files removed"

done_testing
