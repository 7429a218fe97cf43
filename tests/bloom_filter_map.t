#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bloom filter benchmarks on the real kernel: each of the five runs,
# prints upstream's Iter and Summary lines and the runner's Memory: line,
# counts what its program does (no peek of a held value misses, the false
# positive rate printed is the JSON counts' ratio), records its options and
# hook; the hook is fentry where the kernel loads it and the tracepoint
# where not (BENCH_TEST_FENTRY=1, which make vmtest sets, makes a refused
# fentry a failure); upstream's extractors, a pid namespace, a signal
# mid-run, bad values, the lkp-tests parse, export kcidb and the wrapper
# script.  -w0 -d1 runs: behaviour, not speed.  In make vmtest's guests,
# what depends on the kernel: the hooks, each BPF program, the signal.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=tests/upstream_helpers.sh
source "$(dirname "$0")/upstream_helpers.sh"
require_bpf

PROGS='bloom_[a-z_]*'
CG_PARENT=$(own_mem_cgroup)
NUM='[0-9]+\.[0-9]{3}'
HITS_ITER_RE="^Iter +[0-9]+ \\( *-?$NUM""us\\): hits +$NUM""M/s \\( *$NUM""M/prod\\), drops +$NUM""M/s, total operations +$NUM""M/s$"
HITS_SUMMARY_RE="^Summary: hits +$NUM ± $NUM""M/s \\( *$NUM""M/prod\\), drops +$NUM ± $NUM""M/s, total operations +$NUM ± $NUM""M/s$"
# upstream's: "%ld false hits of %ld total operations. Percentage = %2.2f %%"
FP_ITER_RE='^Iter +[0-9]+ \( *-?[0-9]+\.[0-9]{3}us\): [0-9]+ false hits of [0-9]+ total operations\. Percentage = [0-9]+\.[0-9]{2} %$'
FP_SUMMARY_RE='^Summary: [0-9]+ false hits of [0-9]+ total operations\. Percentage =  [0-9]+\.[0-9]{2} %$'

left_behind() {
	local left=""

	[ "$(loaded_bench_progs "$PROGS")" = 0 ] || left+="program; "
	if [ -n "$CG_PARENT" ] && compgen -G "$CG_PARENT/bench-*" >/dev/null; then
		left+="memory cgroup; "
	fi
	printf '%s' "$left"
}
nothing_left() { [ -z "$(left_behind)" ]; }
check_clean() {	# check_clean <what>
	eventually nothing_left
	ok $? "$1: nothing left behind (no program, no cgroup)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "left: $(left_behind)"
}

# --- the hook: fentry where the kernel allows it, else the tracepoint ---
out=$TEST_TMP/fentry
rc=0
BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d1 bloom-lookup --hook fentry >"$out" 2>"$out.err" || rc=$?
if [ "$rc" -eq 0 ]; then
	FENTRY=works
	HOOK='fentry/[a-z0-9_]*sys_getpgid'
	grep -Eqx "hook: $HOOK" "$out.err"
	ok $? "--hook fentry sets up here, saying so"
else
	FENTRY=refused
	HOOK='tp/syscalls/sys_enter_getpgid'
	[ "$(wc -l <"$out.err")" -eq 1 ] && grep -q "^failed to load bloom-lookup's BPF program on fentry/[a-z0-9_]*sys_getpgid: " "$out.err"
	ok $? "--hook fentry refused here (rc $rc) in one line naming fentry"
	FENTRY_WHY=$(cat "$out.err")
fi
diag "fentry $FENTRY here: $(cat "$out.err")"
if [ "${BENCH_TEST_FENTRY:-}" = 1 ]; then
	is "$FENTRY" works "--hook fentry loads on this kernel, as BENCH_TEST_FENTRY=1 says it must"
fi
check_clean "--hook fentry"
rc=0
BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d1 hashmap-with-bloom --hook tracepoint >"$out" 2>"$out.err" || rc=$?
[ "$rc" -eq 0 ] && grep -qx 'hook: tp/syscalls/sys_enter_getpgid (--hook tracepoint)' "$out.err"
ok $? "--hook tracepoint sets up everywhere (rc $rc), saying so"

# --- the runs below that do not depend on one another, side by side ---
# (lib.sh's par_start: each benchmark's run, the one in a pid namespace and
# the wrapper's, whose own runs stay one after another), each under a
# watchdog, all reaped before the first check of what is left loaded.  The
# wrapper's five runs outlast the others: the checks of the others' own
# output go on beside it.  The runs are queued in the order they are
# checked and started PAR_WIDTH ahead of their checks (qreap), so that the
# checks of one run go on while the next ones measure, rather than all of
# them measured before the first check (in make vmtest's guests, one at a
# time, all of them reaped before the first check, as ever).
declare -A WD=() RC=()
start() {	# start <out> <command...>: par_start, under a watchdog
	par_start "$@"
	watchdog "$!"
	WD[$1]=$WATCHDOG
}
reap_runs() {	# reap_runs <out...>: par_wait for runs start started, their status in RC
	local out

	for out in "$@"; do
		par_wait "$out"
		RC[$out]=$?
		wait "${WD[$out]}" 2>/dev/null
		unset 'WD[$out]'
	done
}
qreap() {	# qreap <out>: par_take with reap_runs, unless the run was reaped
	[ -z "${RC[$1]+set}" ] || return 0
	par_take "$1" reap_runs
}
start_case() {	# start_case <benchmark>: its run, for run_case
	par_queue start "$TEST_TMP/$1" "$BENCH" -w0 -d1 -p2 --json "$TEST_TMP/$1.json" "$1"
}
# the host's, as the checks' host_only below says; the wrapper first, the
# longest (its five runs)
IN_VM=${BENCH_TEST_IN_VM:-0}
SCRIPT=$SRC_TOP/benchs/run_bench_bloom_filter_map.sh
if [ "$IN_VM" != 1 ]; then
	# the wrapper, one configuration of each table, from another directory
	par_queue start "$TEST_TMP/wrapper" env -C "$TEST_TMP" RUN_BENCH="$BENCH -w0 -d1" VALUE_SIZES=4 THREADS=1 \
		HASHES=2 ENTRIES=500 HASHMAP_THREADS=2 "$SCRIPT"
fi
start_case bloom-lookup
if [ "$IN_VM" != 1 ]; then
	start_case bloom-update
	start_case hashmap-without-bloom
	start_case hashmap-with-bloom
fi
start_case bloom-false-positive
if [ "$IN_VM" != 1 ]; then
	# a pid namespace, as in a container
	par_queue start "$TEST_TMP/ns" unshare -p -f --mount-proc "$BENCH" -w0 -d1 -p2 --json "$TEST_TMP/ns.json" \
		hashmap-with-bloom
fi
# (the wrapper, checked last, keeps its slot: PAR_WIDTH - 1 benchmarks'
# runs beside it ahead of their checks)
par_feed
if [ "$IN_VM" = 1 ]; then
	# all of them, before the first check
	for out in "${!WD[@]}"; do
		reap_runs "$out"
	done
fi

# --- each benchmark: one run, upstream's lines, the counts, the JSON ---
# run_case <benchmark> <iter regex> <summary regex> <jq check of the counts>
# (one jq for the JSON's checks: under TCG a process costs a fifth of a second)
run_case() {
	local b=$1 iter_re=$2 sum_re=$3 check=$4 out=$TEST_TMP/$1 rc hookline hook_ok opts_ok counts_ok

	qreap "$out"
	rc=${RC[$out]-}
	is "$rc" 0 "$b: exit status 0"
	read -r hook_ok opts_ok counts_ok < <(jq -r --arg h "$([ "$FENTRY" = works ] && echo fentry || echo tracepoint)" \
		"[.options.benchmark.hook == \$h,
		  (.options.benchmark | .nr_entries == 1000 and .nr_hash_funcs == 3 and .value_size == 8) and
		  .summary.peak_memory_mib > 2 and .summary.metrics.memory.mean > 0,
		  ($check)] | map(tostring) | join(\" \")" "$out.json" 2>/dev/null)
	hookline=$(grep '^hook: ' "$out.err")
	if [ "$FENTRY" = works ]; then
		[[ $hookline =~ ^hook:\ $HOOK$ ]]
	else
		[ "$hookline" = "hook: $HOOK (fentry unavailable: ${FENTRY_WHY//bloom-lookup/$b})" ]
	fi && stderr_clean "$out.err" && [ "$hook_ok" = true ]
	ok $? "$b: auto's hook, $HOOK, on stderr (with why fentry is not) and in the JSON"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
	like "$out" "$iter_re" "$b: upstream's Iter line"
	like "$out" "$sum_re" "$b: upstream's Summary line"
	like "$out" '^Memory: ([0-9.]+ MiB = stat [0-9.]+ \(|[a-z]+ [0-9.]+ MiB)' "$b: the runner's line of where the memory went"
	is "$opts_ok" true "$b: upstream's defaults in the JSON options; memory holds the 2.5 MB of random keys"
	is "$counts_ok" true "$b: the counts: $check"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(jq -c .counts "$out.json")"
	schema_ok "$out.json" "$b: JSON validates against the schema"
	if host_only "$b: lkp-tests' parse, export kcidb"; then
		"$LKP_PARSE" "$out.json" >"$out.parsed" 2>"$out.parse.err"
		ok $? "$b: lkp-tests' parse exits 0"
		lkp_contract "$out.parsed" "$b"
		# KCIDB: a test per metric, named by the configuration without its
		# defaults (result_config.c's), the false positive rate a percentage
		"$BENCH" export kcidb --origin bloom_test "$out.json" >"$out.kcidb" 2>"$out.kcidb.err"
		jq -e --arg b "$b" --slurpfile r "$out.json" '[.tests[] | select(.status == "DONE")] as $t |
			($r[0].summary.metrics | keys) as $m |
			($t | length) == ($m | length) + 1 and
			($t | all(.path | test("^bpf\\.bench\\.\($b)\\.hook_(fentry|tracepoint)-producers_2\\.[a-z_]+$"))) and
			($t | map(select(.path | endswith(".false_positive_rate"))) |
			 all(.number.unit == "%" and .number.prefix == "metric" and .number.value == $r[0].summary.metrics.false_positive_rate.mean))' \
			"$out.kcidb" >/dev/null
		ok $? "$b: export kcidb: a DONE test per metric and the peak, the rate in % as it is"
		[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(head -c 600 "$out.kcidb.err")"
	fi
}

# a peek of a value the filter holds never misses: every one a hit.  (Two
# counters read one after the other may be a producer's one operation apart.)
run_case bloom-lookup "$HITS_ITER_RE" "$HITS_SUMMARY_RE" '.counts | .hits > 0 and .drops == 0'
# bloom-update runs bloom-lookup's code with a push for the peek: in the
# guests, bloom-lookup covers it
if host_only "bloom-update (bloom-lookup's code)"; then
	run_case bloom-update "$HITS_ITER_RE" "$HITS_SUMMARY_RE" '.counts | .hits > 0 and .drops == 0'
fi
# the hash map benchmarks run bloom-false-positive's program: in the
# guests, that one covers it
if host_only "hashmap-without-bloom and hashmap-with-bloom (bloom-false-positive's program)"; then
	# random 8-byte keys: the 1000 held are never found
	run_case hashmap-without-bloom "$HITS_ITER_RE" "$HITS_SUMMARY_RE" \
		'.counts | .hits == 0 and .drops > 0 and .false_hits == 0'
	# the filter turns most lookups away (hits); what it lets by misses (drops)
	run_case hashmap-with-bloom "$HITS_ITER_RE" "$HITS_SUMMARY_RE" \
		'.counts | .hits > .drops and .drops > 0 and .false_hits == 0'
fi
run_case bloom-false-positive "$FP_ITER_RE" "$FP_SUMMARY_RE" \
	'(.counts | .false_hits > 0 and (.false_hits - .drops | . <= 2 and . >= -2)) and
	 (.summary.metrics.false_positive_rate.mean | . > 0 and . < 100)'
# the printed rate is the counts' (upstream's: a false hit is also a drop)
fp=$(sed -nE 's/^Summary: ([0-9]+) false hits of ([0-9]+) total operations\. Percentage =  ([0-9.]+) %$/\1 \2 \3/p' \
	"$TEST_TMP/bloom-false-positive")
want=$(jq -r '.counts | "\(.false_hits) \(.hits + .drops + .false_hits)"' "$TEST_TMP/bloom-false-positive.json")
is "${fp% *}" "$want" "bloom-false-positive: the Summary's counts are the JSON's (false hits, hits + drops + false hits)"
is "${fp##* }" "$(awk -v f="${want% *}" -v t="${want#* }" 'BEGIN { printf "%.2f", 100 * f / t }')" \
	"bloom-false-positive: its percentage is their ratio"
# the rest (the wrapper's, the pid namespace's), before anything on the
# machine is checked
par_feed_all
reap_runs "${!WD[@]}"
check_clean "the runs"

# upstream's wrapper reads our output with its own extractors (Memory: after
# the Summary); a pid namespace, as in a container (every benchmark's
# producer identity works alike there: the guests check it with htab-mem)
if host_only "upstream's extractors; a pid namespace"; then
	s=$(last_summary "$TEST_TMP/bloom-lookup")
	hits=$(run_common field "$s" hits | sed -E 's/ \(.*//')
	is "$(up_summarize "Lookups, total operations: " "$(cat "$TEST_TMP/bloom-lookup")")" \
		"$(printf '%-20s %s (drops %s)' "Lookups, total operations: " "$hits" "0.000 ± 0.000M/s")" \
		"bloom-lookup: upstream's summarize() extracts our hits and drops"
	s=$(last_summary "$TEST_TMP/hashmap-without-bloom")
	is "$(up_summarize_total "Hashmap without bloom filter: " "$(cat "$TEST_TMP/hashmap-without-bloom")")" \
		"$(printf '%-20s %s' "Hashmap without bloom filter: " "$(run_common field "$s" 'total operations')")" \
		"hashmap-without-bloom: upstream's summarize_total() extracts our total operations"
	is "$(up_summarize_percentage "False positive rate: " "$(cat "$TEST_TMP/bloom-false-positive")")" \
		"$(printf '%-20s %s%%' "False positive rate: " "${fp##* }")" \
		"bloom-false-positive: upstream's summarize_percentage() extracts our Summary's percentage"

	out=$TEST_TMP/ns
	rc=${RC[$out]-}
	[ "$rc" = 0 ] && stderr_clean "$out.err" && jq -e '.counts.hits > 0' "$out.json" >/dev/null
	ok $? "in a pid namespace: exit 0, lookups counted (rc $rc)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
	check_clean "in a pid namespace"
fi

# a signal mid-run: the program and the cgroup go
out=$TEST_TMP/sig
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 -p2 --json "$out.json" bloom-update >"$out" 2>"$out.err" &
pid=$!
watchdog "$pid"
wait_iter "$out" "$pid" 30
ok $? "SIGINT: the run got going"
is "$(loaded_bench_progs "$PROGS")" 1 "SIGINT: mid-run, its program is loaded"
kill -INT "$pid"
reap "$pid"
is $? 130 "SIGINT: exit status 130"
assert "SIGINT: no Summary, no JSON file" eval "! grep -q '^Summary' '$out' && [ ! -e '$out.json' ]"
check_clean "SIGINT"

# bad values: one line naming the value and what is accepted, before set-up
if host_only "bad values refused; the wrapper script"; then
	refused "invalid --nr_hash_funcs '16': expected an integer in 1\.\.15$" bloom-lookup --nr_hash_funcs 16
	is_exit 64 "--nr_hash_funcs 0: exit 64, as upstream's argp_usage()" "$BENCH" bloom-lookup --nr_hash_funcs 0
	refused "invalid --value_size '1': expected an integer in 2\.\.256$" bloom-update --value_size 1
	refused "invalid --value_size '257': expected an integer in 2\.\.256$" bloom-update --value_size 257
	refused "invalid --nr_entries '0': expected an integer in 1\.\.4294967295$" hashmap-with-bloom --nr_entries 0
	refused "invalid --nr_entries '10k': expected an integer in 1\.\.4294967295$" hashmap-with-bloom --nr_entries 10k
	refused "invalid --hook 'kprobe': expected auto, fentry or tracepoint$" bloom-false-positive --hook kprobe
	refused "^Not enough unique values for the nr_entries requested: --value_size 2 holds 65536 at most, --nr_entries is 65537$" \
		hashmap-without-bloom --value_size 2 --nr_entries 65537
	is_exit 1 "too many entries for the value size: exit 1, as upstream's" \
		"$BENCH" hashmap-without-bloom --value_size 2 --nr_entries 65537
	refused "has no consumers; -c/--consumers must be 0 \(got 1\)$" -c1 bloom-lookup
	check_clean "the refusals"

	# the wrapper, one configuration of each table, from another directory
	out=$TEST_TMP/wrapper
	ok "${RC[$out]-1}" "run_bench_bloom_filter_map.sh: exit 0"
	rate="$NUM ± $NUM""M/s"
	like "$out" '^	value_size: 4 bytes, # threads: 1, # hashes: 2$' "wrapper: upstream's subtitle"
	like "$out" "^	Lookups, total operations:  $rate \\(drops $rate\\)$" "wrapper: the lookups row"
	like "$out" "^	Updates, total operations:  $rate \\(drops $rate\\)$" "wrapper: the updates row"
	like "$out" '^	False positive rate:  [0-9]+\.[0-9]{2}%$' "wrapper: the false positive row"
	like "$out" "^	Hashmap without bloom filter:  $rate$" "wrapper: the hash map row"
	like "$out" "^	Hashmap with bloom filter:  $rate$" "wrapper: the hash map with filter row"
	like "$out" "^hook: $HOOK" "wrapper: the hook, once, at the end"
	is "$(grep -c '^hook: ' "$out.err")" 0 "wrapper: no hook line per run on stderr"
	rc=0
	"$SCRIPT" --bogus >"$out" 2>"$out.err" || rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$out.err")" -eq 1 ] && grep -q "unknown option '--bogus'" "$out.err"
	ok $? "wrapper: an option refused, exit 2, in one line (rc $rc)"
fi

done_testing
