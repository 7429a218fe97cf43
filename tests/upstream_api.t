#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# upstream-api-*: benchmarks written only against upstream's benchmark API,
# in upstream's style (benchs/bench_upstream_api.c, progs/upstream_api.c),
# so that the API stays whole: each reporter's lines in upstream's format,
# upstream's cgroup helpers, bench_force_done(), parse_num_list(), and a
# hook's exit(1) in validate, setup and measure leaving no cgroup, mount or
# attached program behind.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROGS='count_getpgid|count_getpgid_f|alloc_batch'
NUM='[0-9]+\.[0-9]{3}'
CG_PARENT=$(own_mem_cgroup)
V2_ROOT=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
V2_OWN=$V2_ROOT$(awk -F: '$1 == "0" && $2 == "" { print $3 }' /proc/self/cgroup)
# the runner mounts tracefs in a mount namespace of its own: none appears here
TRACEFS_BEFORE=$(tracefs_mounts)

# left_behind: run cgroups and upstream-style cgroups still on the machine
left_behind() {
	find "$CG_PARENT" "${V2_OWN%/}" -maxdepth 1 -name 'bench-*' 2>/dev/null
}

start() {	# start <name> <bench args...>
	local name=$1
	shift
	par_start "$TEST_TMP/$name" "$BENCH" "$@" --json "$TEST_TMP/$name.json"
}

start hits -w1 -d2 -p2 upstream-api-hits
start false -w1 -d2 upstream-api-false-hits
start ls -w1 -d2 upstream-api-local-storage
start ops -w1 -d2 upstream-api-ops --batch 8
start cg -w1 -d2 upstream-api-hits --cgroup --cpus 0-255
start forced -w1 -d30 upstream-api-hits --done-after 2

par_wait "$TEST_TMP/hits"
is $? 0 "upstream-api-hits: exit status 0"
like "$TEST_TMP/hits" "^Iter +[0-9]+ \\( *-?$NUM""us\\): hits +$NUM""M/s \\( *$NUM""M/prod\\), drops +$NUM""M/s, total operations +$NUM""M/s\$" \
	"upstream-api-hits: Iter lines of hits_drops_report_progress()"
like "$TEST_TMP/hits" "^Summary: hits +$NUM ± $NUM""M/s \\( *$NUM""M/prod\\), drops +$NUM ± $NUM""M/s, total operations +$NUM ± $NUM""M/s\$" \
	"upstream-api-hits: the Summary of hits_drops_report_final()"
hits=$(sed -nE 's/^Summary: hits +([0-9.]+).*drops +([0-9.]+).*/\1 \2/p' "$TEST_TMP/hits")
read -r h d <<<"$hits"
cmp_num "$h" '>' 0 "upstream-api-hits: the program counted the producers' triggers"
is_near "$(awk -v h="$h" -v d="$d" 'BEGIN { printf "%.3f", h / d }')" 3 1% \
	"upstream-api-hits: 3 hits a drop, as the program counts"
is "$(jq -r '.benchmark + " " + ([.summary.metrics | keys[] | select(startswith("memory_") | not)] | join(","))' \
	"$TEST_TMP/hits.json")" "upstream-api-hits drops,hits,hits_per_prod,memory" \
	"upstream-api-hits: JSON with the hits/drops metrics and memory, as the runner gives an upstream-style benchmark"
is "$(grep -c '^Memory:' "$TEST_TMP/hits")" 0 "upstream-api-hits: stdout is upstream's lines (no Memory: line)"

par_wait "$TEST_TMP/false"
is $? 0 "upstream-api-false-hits: exit status 0"
like "$TEST_TMP/false" '^Iter +[0-9]+ \( *-?[0-9.]+us\): [0-9]+ false hits of [0-9]+ total operations\. Percentage = 1[01]\.[0-9]{2} %$' \
	"upstream-api-false-hits: Iter lines of false_hits_report_progress() (2 of 18 counts: 11.11%)"
like "$TEST_TMP/false" '^Summary: [0-9]+ false hits of [0-9]+ total operations\. Percentage =  11\.11 %$' \
	"upstream-api-false-hits: the Summary of false_hits_report_final(), the ratio of the sums"

par_wait "$TEST_TMP/ls"
is $? 0 "upstream-api-local-storage: exit status 0"
like "$TEST_TMP/ls" "^Iter +[0-9]+ \\( *-?$NUM""us\\): hits +$NUM""M/s important_hits +$NUM""M/s\$" \
	"upstream-api-local-storage: Iter lines of local_storage_report_progress()"
like "$TEST_TMP/ls" "^Summary: hits throughput +$NUM ± $NUM M ops/s, hits latency +$NUM ns/op, important_hits throughput +$NUM ± $NUM M ops/s\$" \
	"upstream-api-local-storage: the Summary of local_storage_report_final()"

par_wait "$TEST_TMP/ops"
is $? 0 "upstream-api-ops: exit status 0"
like "$TEST_TMP/ops" "^Iter +[0-9]+ \\( *-?$NUM""us\\): hits +$NUM""M/s \\( *$NUM""M/prod\\)\$" \
	"upstream-api-ops: Iter lines of ops_report_progress()"
like "$TEST_TMP/ops" "^Summary: throughput +$NUM ± $NUM M ops/s \\( *$NUM""M ops/prod\\), latency +$NUM ns/op\$" \
	"upstream-api-ops: the Summary of ops_report_final()"
like "$TEST_TMP/ops" '^batches: [0-9.]+ ± [0-9.]+ us each, [0-9.]+ ± [0-9.]+ system ticks each \(1000000000 ns/s\)$' \
	"upstream-api-ops: grace_period_*_basic_stats() over bpf_obj_new() batches, NSEC_PER_SEC"

par_wait "$TEST_TMP/cg"
is $? 0 "--cgroup: exit status 0"
cmp_num "$(sed -nE 's/^Summary: hits +([0-9.]+) .*/\1/p' "$TEST_TMP/cg")" '>' 0 \
	"--cgroup: the program, counting only the cgroup's tasks by get_cgroup_id(), counted them"
like "$TEST_TMP/cg" '^cgroup /upstream_api: (memory\.current [0-9.]+MiB|no memory\.current .*)$' \
	"--cgroup: the cgroup's fd from cgroup_setup_and_join() reads its memory where v2 has it"

par_wait "$TEST_TMP/forced"
is $? 0 "--done-after 2 -d30: exit status 0"
is "$(grep -c '^Iter' "$TEST_TMP/forced")" 3 \
	"--done-after 2: bench_force_done() ended the run after the warm-up and 2 samples"
is "$(jq '.summary.metrics.hits.n' "$TEST_TMP/forced.json")" 2 "--done-after 2: the JSON summarises the 2 measured samples"

# exit(1) in a hook: nothing left behind
for stage in validate setup measure; do
	run_bench "$TEST_TMP/fail-$stage" -w0 -d2 upstream-api-hits --cgroup --fail-at "$stage"
	is $? 1 "exit(1) in $stage: exit status 1"
	like "$TEST_TMP/fail-$stage.err" "^upstream-api: exiting in $stage \\(--fail-at\\)\$" \
		"exit(1) in $stage: its line on stderr"
done
is "$(left_behind | tr '\n' ' ')" "" "exit(1) in a hook: no cgroup of the run or of the benchmark left"
none_loaded "$PROGS"
ok $? "exit(1) in a hook: no program of upstream-api-* left loaded"
is "$(tracefs_mounts)" "$TRACEFS_BEFORE" "exit(1) in a hook: no tracefs mount left"
# SIGKILL: no clean-up runs, so the run's cgroup stays, with the cgroups its
# benchmark made inside it; the next run's stale sweep removes them all
"$BENCH" -w1 -d30 upstream-api-hits --cgroup >"$TEST_TMP/killed" 2>&1 &
killed=$!
# the first Iter line: set-up is done, upstream_api exists
wait_for "$TEST_TMP/killed" '^Iter' "$killed" 30
ok $? "SIGKILL: the run to be killed measures"
kill -KILL "$killed"
{ wait "$killed"; } 2>/dev/null
is $? 137 "SIGKILL: the run is killed (exit status 137)"
# hybrid hosts: the run's v1 memory cgroup and bench-upstream.<pid> in v2;
# pure v2: upstream_api inside the run's own memory cgroup
killed_cgs=$(left_behind | grep "\\.$killed\$")
[ -n "$killed_cgs" ]
ok $? "SIGKILL: the killed run's cgroups are left (${killed_cgs//$'\n'/ })"
[ -n "$(printf '%s\n' "$killed_cgs" | xargs -r -I{} find {} -mindepth 1 -type d -name upstream_api)" ]
ok $? "SIGKILL: with the benchmark's upstream_api inside one of them"
run_bench "$TEST_TMP/after-kill" -w0 -d1 upstream-api-hits --cgroup
is $? 0 "the run after the killed one: exit status 0"
is "$(left_behind | tr '\n' ' ')" "" "the run after the killed one: its sweep left no cgroup of either run"
run_bench "$TEST_TMP/badstage" -w0 -d1 upstream-api-hits --fail-at nowhere
is $? 1 "--fail-at nowhere: refused in validate() (exit status 1)"

done_testing
