#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Results as data with the BPF benchmarks: every benchmark's JSON against
# the schema and as its readers outside bench take it (contrib/lkp-tests'
# parse and export kcidb, which agree on its figures), htab-mem's memory source and
# per-producer rates and compare on htab-mem runs (run_bench_htab_mem.t
# checks the wrapper's markdown tables).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
jq_true() { jq -e "$@" >/dev/null; }

# The runs side by side (lib.sh's par_start): each is checked on its own
# output and document alone, and none on its rates.  First the htab-mem
# runs checked further below: the plain one and the preallocated one, which
# compare sets against each other (refused, then --force's rows), and hm2,
# a second preallocated run: hm--preallocated and hm2 are the two runs of
# one configuration whose memory compare weighs.  Each measures its own
# cgroup; a preallocated map takes all its memory when it is made, so what
# differs between the two is the per-CPU charge batch alone.  (Not so the
# BPF memory allocator's: it reuses a freed element only after an RCU grace
# period, so its memory follows how long grace periods take; once, in CI,
# two runs' peaks differed by more than the 0.5 MiB resolution.)  The two
# start together: whatever runs beside one runs beside the other.  Two
# samples each (a test needs two a side).  The no_op run only feeds
# compare's refusal and rows.
for flavour in "" --preallocated; do
	par_start "$TEST_TMP/hm$flavour" "$BENCH" -w0 -d2 -p2 -a --per-producer \
		--json "$TEST_TMP/hm$flavour.json" htab-mem --use-case overwrite $flavour
done
par_start "$TEST_TMP/hm2" "$BENCH" -q -w0 -d2 -p2 -a --json "$TEST_TMP/hm2.json" \
	htab-mem --use-case overwrite --preallocated
# (host_only's test without its skip line, which comes with the checks)
[ "${BENCH_TEST_IN_VM:-0}" = 1 ] ||
	par_start "$TEST_TMP/no" "$BENCH" -q -w0 -d2 -p2 -a --json "$TEST_TMP/no.json" htab-mem --use-case no_op

# every benchmark writes a document that validates (lpm_trie.t and
# map_perf.t check their families' other members, one producer each)
mapfile -t benchs < <(bench_representatives)
cmp_ok "${#benchs[@]}" -ge 10 "bench -l lists every benchmark (${#benchs[@]} of its families)"
# start_doc_run <i>: start the run of benchs[i], if there is one
start_doc_run() {
	local b=${benchs[$1]:-} extra

	[ -n "$b" ] || return 0
	read -r -a extra <<<"$(bench_needs_opts "$b")"
	[ "$b" = bpf-hashmap-lookup ] && extra=(--nr_loops 20000)
	# one producer: what is checked is the document and its readers, not
	# the producer count (a second one would spin a CPU the other tests need)
	par_start "$TEST_TMP/all-$b" "$BENCH" -q -w0 -d1 -p1 --json "$TEST_TMP/all-$b.json" "$b" "${extra[@]}"
}
# PAR_WIDTH runs ahead of the checks, whose readers' processes take as
# long as the runs: the next run starts as each one's checks begin
for ((i = 0; i < PAR_WIDTH; i++)); do
	start_doc_run "$i"
done
for ((i = 0; i < ${#benchs[@]}; i++)); do
	b=${benchs[$i]}
	j="$TEST_TMP/all-$b.json"
	par_wait "$TEST_TMP/all-$b"
	rc=$?
	start_doc_run $((i + PAR_WIDTH))
	# a kernel without what the benchmark needs (bpf_ma on 6.1) refuses it
	# with one line, exit 1 and no file: that is checked, not skipped
	if [ "$rc" -eq 1 ] && grep -q "^$b: this kernel has no " "$TEST_TMP/all-$b.err"; then
		is "$(wc -l <"$TEST_TMP/all-$b.err") $([ -e "$j" ] && echo file || echo nofile)" "1 nofile" \
			"$b: refused on this kernel, one line and no result file ($(cat "$TEST_TMP/all-$b.err"))"
		continue
	fi
	is "$rc" 0 "$b --json: exit status 0"
	schema_ok "$j" "$b: JSON validates against the schema"
	# the ring buffer family on upstream's hook where the kernel loads
	# fentry (make vmtest's guests; ringbufs.t runs the family on the host)
	if [ "$b" = rb-libbpf ] && [ "${BENCH_TEST_FENTRY:-}" = 1 ]; then
		like "$TEST_TMP/all-$b.err" '^hook: fentry/[a-z0-9_]*sys_getpgid$' \
			"$b: upstream's fentry hook, as BENCH_TEST_FENTRY=1 says it must"
	fi
	# what readers outside bench make of the file does not depend on the kernel
	host_only "$b: the configuration's label, lkp-tests' parse and export kcidb's configuration" || continue
	# result_config.c's defaults agree with the benchmark's: the label of a
	# run given only -p1 and what it needs (bench_needs_opts: the ring
	# buffers' -c1 too) names nothing else
	label=$("$BENCH" config "$j")
	rest=$(tr ' ' '\n' <<<"$label" |
		grep -Ev '^(overwrite|default|producers=[12]|hook=.*|grace_periods=.*|nr_loops=20000|nr_entries=1000|nr_maps=17|nr_procs=10|consumers=1)$')
	is "$rest" "" "$b: the configuration label ($label) names no option at its default"
	"$LKP_PARSE" "$j" >"$j.parsed" 2>"$j.parse.err"
	ok $? "$b: lkp-tests' parse exits 0"
	lkp_contract "$j.parsed" "$b"
	"$BENCH" export kcidb --origin lkp_test "$j" >"$j.kcidb" 2>&1
	# every number scaled from a unit export kcidb knows (a unit it does not is exported as it is, without a prefix)
	is "$(jq -c '[.tests[].number | select(. != null and .prefix == null) | .unit]' "$j.kcidb")" "[]" \
		"$b: export kcidb: every number in a unit's base with its prefix"
	# lkp and KCIDB get the same figures: parse's keys are export's DONE metrics
	is "$(cut -d: -f1 "$j.parsed" | grep -vx memory_below_floor | sort | tr '\n' ' ')" \
		"$(jq -r '.tests[] | select(.status == "DONE") | .path | split(".") | last' "$j.kcidb" | sort | tr '\n' ' ')" \
		"$b: parse prints a figure exactly where export kcidb has a number"
done
assert "bpf-hashmap-lookup: per-CPU lookup rates are metrics" \
	jq_true '.summary.metrics | keys | any(startswith("lookup_cpu"))' "$TEST_TMP/all-bpf-hashmap-lookup.json"

# htab-mem (the runs started first): memory source and peak, per-producer
# rates that add up
for flavour in "" --preallocated; do
	j="$TEST_TMP/hm$flavour.json"
	par_wait "$TEST_TMP/hm$flavour"
	is $? 0 "htab-mem $flavour: exit status 0"
	schema_ok "$j" "htab-mem $flavour: JSON validates"
	jq -r '.memory_source.cgroup' "$j" >"$TEST_TMP/source" 2>&1
	like "$TEST_TMP/source" '^v[12]$' "htab-mem $flavour: the cgroup version memory came from is recorded"
	peak=$(jq '.summary.peak_memory_mib' "$j")
	cmp_num "$peak" '>' 0 "htab-mem $flavour: peak memory is positive"
	cmp_num "$peak" '>=' "$(jq '.summary.metrics.memory.mean * 0.999' "$j")" \
		"htab-mem $flavour: peak memory is not below the average"
	is "$(jq -c '.options.benchmark' "$j")" \
		'{"use_case":"overwrite","value_size":8,"preallocated":'"$([ -n "$flavour" ] && echo true || echo false)"',"own_counter":false}' \
		"htab-mem $flavour: the benchmark's options are recorded, defaults included"
	total=$(jq '.per_producer.total_rate' "$j")
	sum=$(jq '[.per_producer.producers[].rate] | add' "$j")
	ppo=$(jq '.summary.metrics.per_prod_op.mean * 2' "$j")
	is_near "$sum" "$total" 0.0001% "htab-mem $flavour: two producers' rates add up to the total"
	is_near "$total" "$ppo" 1% "htab-mem $flavour: the total is per-prod-op x 2 within 1%"
	like "$TEST_TMP/hm$flavour" '^Per-producer rates \(k/s\):$' "htab-mem $flavour: per-producer rates in k/s"
	n=$(grep -cE '^  producer +[01] \(CPU +[01]\): +[0-9]+\.[0-9]{3}$' "$TEST_TMP/hm$flavour")
	is "$n" 2 "htab-mem $flavour: two producers on two CPUs"
done

# compare: preallocated vs BPF memory allocator is refused unless forced
# (compare reads files, userspace alone: the host checks it)
if host_only "compare of preallocated vs bpf ma"; then
	"$BENCH" compare "$TEST_TMP/hm--preallocated.json" "$TEST_TMP/hm.json" >/dev/null 2>"$TEST_TMP/c1.err"
	is $? 2 "compare of preallocated vs bpf ma: refused without --force"
	like "$TEST_TMP/c1.err" 'different options: preallocated true vs false' "and names the option"
	"$BENCH" compare --verbose --force "$TEST_TMP/hm--preallocated.json" "$TEST_TMP/hm.json" >"$TEST_TMP/c2" 2>&1
	is $? 0 "compare --force of preallocated vs bpf ma: exit 0"
	like "$TEST_TMP/c2" '^per_prod_op \(k/s\) ' "compare shows per_prod_op"
	like "$TEST_TMP/c2" '^memory \(MiB\) ' "compare shows memory"
	like "$TEST_TMP/c2" '^peak_memory \(MiB\) ' "compare shows peak memory"
	diag "$(cat "$TEST_TMP/c2")"
fi

# two runs of one configuration: memory readings differ by part of a
# per-CPU charge batch, which compare must not call a change
cmp_num "$(jq '.summary.metrics.memory.resolution' "$TEST_TMP/hm.json")" '>' 0 \
	"htab-mem: the memory metric records its resolution"
par_wait "$TEST_TMP/hm2"
is $? 0 "htab-mem --preallocated, a second run of one configuration: exit status 0"
"$BENCH" compare --verbose "$TEST_TMP/hm--preallocated.json" "$TEST_TMP/hm2.json" >"$TEST_TMP/c0" 2>&1
is $? 0 "compare of two htab-mem runs of one configuration: exit 0"
like "$TEST_TMP/c0" '^memory \(MiB\) .* (within ±2%|undecided: .*)$' "memory of two runs of one configuration is not a change"
like "$TEST_TMP/c0" '^peak_memory \(MiB\) .* (within ±2%|undecided: .*)$' "nor is their peak"
diag "$(cat "$TEST_TMP/c0")"

# compare of two use cases: refused unless forced; which is faster is a
# timing, so only logged (userspace alone: the host checks it); a wide
# interval's ends print in exponent form (+1.5e+04%), as compare rounds them
if host_only "compare of overwrite vs no_op"; then
	par_wait "$TEST_TMP/no"
	is $? 0 "htab-mem --use-case no_op: exit status 0"
	"$BENCH" compare "$TEST_TMP/hm.json" "$TEST_TMP/no.json" >/dev/null 2>"$TEST_TMP/c3.err"
	is $? 2 "compare of overwrite vs no_op: refused without --force"
	like "$TEST_TMP/c3.err" 'different options: use_case "overwrite" vs "no_op"' "and names the option"
	"$BENCH" compare --verbose --force "$TEST_TMP/hm.json" "$TEST_TMP/no.json" >"$TEST_TMP/c3" 2>&1
	is $? 0 "compare --force of overwrite vs no_op: exit 0"
	like "$TEST_TMP/c3" '^per_prod_op \(k/s\) +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+ +[-+][0-9.]+% +(\[[-+][0-9.]+(e[-+][0-9]+)?, [-+][0-9.]+(e[-+][0-9]+)?\]%|-|unbounded) +[<0-9.]+ +(within ±2%|better|worse|undecided: .*|(better|worse), below the ±2% threshold)$' \
		"compare --force of overwrite vs no_op: a per_prod_op verdict"
	# whether no_op is faster is a timing: logged, not judged
	diag "$(cat "$TEST_TMP/c3")"
fi

done_testing
