#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the memory goes (the runner's memory breakdown) on whatever cgroup
# layout this kernel has: v1 on a hybrid host, pure v2 in scripts/vmtest.sh's
# VM.  The fields a run reports must be exactly those its cgroup's files
# offer (read here from a running bench's own cgroup), never a 0 for one
# they lack; their figures must fit under the total; the line after the
# Summary must list them; and compare must take a field one kernel lacks
# for what it is, not for another configuration.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

SRC=$(own_mem_source)
WANT=${SRC%% *}
CG_PARENT=${SRC#v? }
diag "memory source: ${SRC:-none}"

if [ -z "$SRC" ]; then
	out=$TEST_TMP/none
	run_bench "$out" -w0 -d1 -p1 --json "$out.json" htab-mem
	ok $? "no memory cgroup: the run succeeds"
	ok "$(grep -c '^Memory:' "$out" | grep -qx 0; echo $?)" "no memory cgroup: no Memory: line"
	ok "$(jq -e '[.summary.metrics | keys[] | select(startswith("memory_"))] == []' \
		"$out.json" >/dev/null; echo $?)" "no memory cgroup: no breakdown metric"
	done_testing
	exit
fi

# offered <cgroup dir>: the fields its files offer, in the bench's order,
# decided here from the files themselves
offered() {
	local d=$1 k

	if [ "$WANT" = v2 ]; then
		if grep -q '^slab ' "$d/memory.stat" ||
			{ grep -q '^slab_reclaimable ' "$d/memory.stat" &&
			  grep -q '^slab_unreclaimable ' "$d/memory.stat"; }; then
			echo slab
		fi
		for k in percpu vmalloc kernel; do
			grep -q "^$k " "$d/memory.stat" && echo "$k"
		done
		grep -q '^sock ' "$d/memory.stat" && echo sock
		grep -q '^anon ' "$d/memory.stat" && echo anon
	else
		head -n1 "$d/memory.kmem.slabinfo" 2>/dev/null | grep -q '^slabinfo - version:' &&
			echo slab
		grep -Eqx '[0-9]+' "$d/memory.kmem.usage_in_bytes" 2>/dev/null && echo kmem
		grep -q '^rss ' "$d/memory.stat" && echo anon
	fi
}

# ---- what this kernel offers: read from a running bench's own cgroup ----
out=$TEST_TMP/long
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 -p1 htab-mem >"$out" 2>"$out.err" &
pid=$!
wait_iter "$out" "$pid" 30
ok $? "a run got going"
cg=$CG_PARENT/bench-htab-mem.$pid
want_fields=$(offered "$cg" | paste -sd' ')
kill -INT "$pid"
wait "$pid"
is "$?" 130 "that run ended by SIGINT"
diag "fields its cgroup offers: $want_fields"
[ -n "$want_fields" ]
ok $? "the cgroup offers at least one field"

# ---- a run reports exactly those, per sample and summarised ----
out=$TEST_TMP/run
run_bench "$out" -w0 -d2 -p1 --json "$out.json" htab-mem
ok $? "htab-mem -w0 -d2: exits 0"
is "$(jq -r -f tests/schema.jq "$out.json")" "" "the JSON follows the schema"
got=$(jq -r '.memory_source.fields | keys_unsorted | map(sub("^memory_"; "")) | join(" ")' "$out.json")
is "$got" "$want_fields" "memory_source.fields: exactly what the cgroup offers, in order"
got=$(jq -r '[.summary.metrics | keys_unsorted[] | select(startswith("memory_")) | sub("^memory_"; "")] | join(" ")' "$out.json")
is "$got" "$want_fields" "summary.metrics: one metric per field offered, no other"
ok "$(jq -e '[.samples[] | .counters.mem_stat_bytes | keys_unsorted | map(sub("^memory_"; "")) | join(" ")] | unique == [$w]' \
	--arg w "$want_fields" "$out.json" >/dev/null; echo $?)" \
	"every sample has bytes for exactly those fields"
ok "$(jq -e '[.samples[] | .counters.mem_stat_bytes[]] | all(type == "number" and . >= 0)' \
	"$out.json" >/dev/null; echo $?)" "every field read in every sample, none negative"
ok "$(jq -e '[.samples[] | .counters as $c | .metrics as $m | $c.mem_stat_bytes | to_entries[] |
		(.value / 1048576 - $m[.key]) | fabs < 1e-9] | all' "$out.json" >/dev/null; echo $?)" \
	"every sample's metrics are its bytes in MiB"
ok "$(jq -e --arg d "$CG_PARENT/bench-htab-mem." '[.memory_source.fields[] | .file | startswith($d)] | all' \
	"$out.json" >/dev/null; echo $?)" "every field's source is a file of the run's own cgroup"
[ "$(jq -r '.memory_source.fields | to_entries | map(select(.value.file | test("/memory\\.(stat|kmem\\.usage_in_bytes|kmem\\.slabinfo)$") | not)) | length' "$out.json")" = 0 ]
ok $? "every field's source file is memory.stat or a v1 kmem file"
# memory.current counts every charge, these are parts of it; the
# resolution allows for memory.current's precharged batches
ok "$(jq -e '.summary.metrics as $s | ($s.memory.resolution) as $r |
	[$s | to_entries[] | select(.key | startswith("memory_")) | .value.max <= $s.memory.max + $r] | all' \
	"$out.json" >/dev/null; echo $?)" "no field exceeds the total (memory) beyond its resolution"
is "$(jq -r '[.summary.metrics | to_entries[] | select(.key | startswith("memory_")) | .value.resolution] | unique | length' "$out.json")" 1 \
	"the fields have one resolution"
is "$(jq -r '.summary.metrics | (to_entries | map(select(.key | startswith("memory_"))) | .[0].value.resolution) == .memory.resolution' "$out.json")" true \
	"it is memory's"

# ---- the line after the Summary ----
line=$(grep -A1 '^Summary:' "$out" | sed -n 2p)
diag "$line"
want_line=$(jq -r '"Memory: " + ([.summary.metrics | to_entries[] | select(.key | startswith("memory_")) |
	"\(.key | sub("^memory_"; "")) \(.value.mean * 100 | round / 100 | tostring) MiB"] | join(", "))' "$out.json")
# jq drops trailing zeros: compare the numbers, not their text
norm() { sed -E 's/([0-9]+\.[0-9]*[1-9])0+ MiB/\1 MiB/g; s/([0-9]+)\.0+ MiB/\1 MiB/g'; }
is "$(norm <<<"$line")" "$(norm <<<"$want_line")" "the line after the Summary: each field's mean"
is "$(grep -c '^Memory:' "$out")" 1 "one Memory: line"

# ---- the split explains the total: a preallocated map of 32 MiB ----
out=$TEST_TMP/prealloc
run_bench "$out" -w0 -d1 -p1 --json "$out.json" htab-mem --preallocated --value-size 4096
ok $? "htab-mem --preallocated --value-size 4096: exits 0"
diag "$(grep -E '^(Summary|Memory):' "$out")"
if [ "$WANT" = v2 ]; then
	big=$(jq -r '.memory_source.fields | if has("memory_vmalloc") then "memory_vmalloc"
		elif has("memory_kernel") then "memory_kernel" else "memory_slab" end' "$out.json")
else
	big=memory_kmem
fi
ok "$(jq -e --arg k "$big" '.summary.metrics as $s | $s[$k].mean >= 0.8 * $s.memory.mean and $s.memory.mean > 30' \
	"$out.json" >/dev/null; echo $?)" "preallocated: $big holds most of the 32 MiB total"

# ---- compare: a field only one run has is a note, a field without a source is refused ----
f=$TEST_TMP/run.json
jq '.memory_source.fields |= del(.memory_anon) | .summary.metrics |= del(.memory_anon) |
	.samples[] |= (.metrics |= del(.memory_anon) | .counters.mem_stat_bytes |= del(.memory_anon))' \
	"$f" >"$TEST_TMP/less.json"
is "$(jq -r -f tests/schema.jq "$TEST_TMP/less.json")" "" "a run without the anon field follows the schema"
"$BENCH" compare --verbose "$f" "$TEST_TMP/less.json" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err"
is "$?" 0 "compare: a field one side lacks is no reason to refuse"
like "$TEST_TMP/cmp" "^note: memory_anon only in $f: the other run's kernel or cgroup hierarchy does not report it$" \
	"compare: says which run has it"
jq 'del(.memory_source.fields.memory_anon)' "$f" >"$TEST_TMP/nosrc.json"
"$BENCH" compare "$f" "$TEST_TMP/nosrc.json" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err"
is "$?" 2 "compare: a breakdown metric without its source is refused"
like "$TEST_TMP/cmp.err" 'memory_source.fields: no source for summary.metrics.memory_anon' \
	"compare: naming the field"

done_testing
