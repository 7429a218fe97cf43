#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the memory goes (the runner's memory breakdown) on whatever cgroup
# layout this kernel has: v1 on a hybrid host, pure v2 in scripts/vmtest.sh's
# VM.  The fields a run reports must be exactly those its cgroup's files
# offer (read here from a running bench's own cgroup), never a 0 for one
# they lack; their figures must fit under the total; memory_stat must be
# the sum of its parts and memory_unstat the rest of the total, within the
# per-CPU charge batches (docs/memory.md); the line after the Summary must
# add up to the total; and compare must take a field one kernel lacks for
# what it is, not for another configuration.
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
		grep -q '^file ' "$d/memory.stat" && echo file
		# stat and unstat where every part of stat is there
		[ "$(grep -cE '^(anon|file|kernel|sock) ' "$d/memory.stat")" = 4 ] && echo stat unstat
	else
		head -n1 "$d/memory.kmem.slabinfo" 2>/dev/null | grep -q '^slabinfo - version:' &&
			echo slab
		grep -Eqx '[0-9]+' "$d/memory.kmem.usage_in_bytes" 2>/dev/null && echo kmem
		grep -q '^rss ' "$d/memory.stat" && echo anon
		grep -q '^cache ' "$d/memory.stat" && echo file
		grep -Eqx '[0-9]+' "$d/memory.kmem.usage_in_bytes" 2>/dev/null &&
			grep -q '^rss ' "$d/memory.stat" && grep -q '^cache ' "$d/memory.stat" &&
			echo stat unstat
	fi
}
# the parts memory_stat sums, in the line's order
want_parts() {
	if [ "$WANT" = v2 ]; then echo memory_anon memory_file memory_kernel memory_sock
	else echo memory_anon memory_file memory_kmem; fi
}

# ---- what this kernel offers: read from a running bench's own cgroup ----
out=$TEST_TMP/long
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 -p1 htab-mem >"$out" 2>"$out.err" &
pid=$!
wait_iter "$out" "$pid" 30
ok $? "a run got going"
cg=$CG_PARENT/bench-htab-mem.$pid
want_fields=$(offered "$cg" | paste -sd' ' | tr -s ' ')
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
ok "$(jq -e '[.samples[] | .counters.mem_stat_bytes | del(.memory_unstat)[]] | all(type == "number" and . >= 0)' \
	"$out.json" >/dev/null; echo $?)" "every field read in every sample, none negative (but unstat, a difference)"
ok "$(jq -e '[.samples[] | .counters as $c | .metrics as $m | $c.mem_stat_bytes | to_entries[] |
		(.value / 1048576 - $m[.key]) | fabs < 1e-9] | all' "$out.json" >/dev/null; echo $?)" \
	"every sample's metrics are its bytes in MiB"
ok "$(jq -e --arg d "$CG_PARENT/bench-htab-mem." '[.memory_source.fields[] | .file | startswith($d)] | all' \
	"$out.json" >/dev/null; echo $?)" "every field's source is a file of the run's own cgroup"
[ "$(jq -r '.memory_source.fields | del(.memory_unstat) | to_entries | map(select(.value.file | test("/memory\\.(stat|kmem\\.usage_in_bytes|kmem\\.slabinfo)$") | not)) | length' "$out.json")" = 0 ]
ok $? "every field's source file is memory.stat or a v1 kmem file"
is "$(jq -r '.memory_source | (.fields.memory_unstat.file == .current_file)' "$out.json")" true \
	"memory_unstat's source: the total's file"

# ---- stat is its parts' sum, unstat the rest of the total, both per sample ----
is "$(jq -r '.memory_source.stat_parts | join(" ")' "$out.json")" "$(want_parts)" \
	"memory_source.stat_parts: the fields memory.stat accounts without overlap"
ok "$(jq -e '.memory_source.stat_parts as $p | [.samples[] | .counters as $c | $c.mem_stat_bytes |
		(.memory_stat == ([$p[] as $k | .[$k]] | add)) and
		(.memory_unstat == $c.mem_bytes - .memory_stat)] | all' "$out.json" >/dev/null; echo $?)" \
	"every sample: memory_stat = the sum of its parts, memory_unstat = mem_bytes - memory_stat"
# what memory.current holds beyond the objects: each CPU's precharged batch at most
ok "$(jq -e '.summary.metrics | .memory_unstat.mean <= .memory.resolution' "$out.json" >/dev/null; echo $?)" \
	"memory_unstat within the CPUs' charge batches (memory's resolution)"
# memory.current counts every charge, these are parts of it; the
# resolution allows for memory.current's precharged batches
ok "$(jq -e '.summary.metrics as $s | ($s.memory.resolution) as $r |
	[$s | to_entries[] | select(.key | startswith("memory_")) | .value.max <= $s.memory.max + $r] | all' \
	"$out.json" >/dev/null; echo $?)" "no field exceeds the total (memory) beyond its resolution"
is "$(jq -r '[.summary.metrics | to_entries[] | select(.key | startswith("memory_")) | .value.resolution] | unique | length' "$out.json")" 1 \
	"the fields have one resolution"
is "$(jq -r '.summary.metrics | (to_entries | map(select(.key | startswith("memory_"))) | .[0].value.resolution) == .memory.resolution' "$out.json")" true \
	"it is memory's"

# ---- the line after the Summary: the total, split so that it adds up ----
line=$(grep -A1 '^Summary:' "$out" | sed -n 2p)
diag "$line"
summ_total=$(sed -nE 's/^Summary:.*memory usage +([0-9.]+) .*/\1/p' "$out")
re='^Memory: ([0-9.]+) MiB = stat ([0-9.]+) \(([a-z]+ [0-9.]+( \+ [a-z]+ [0-9.]+)*)\) \+ unstat (-?[0-9.]+) MiB(; in (kernel|kmem): ([a-z]+ [0-9.]+(, [a-z]+ [0-9.]+)*) MiB)?$'
[[ $line =~ $re ]]
ok $? "the line reads total = stat (parts) + unstat"
total=${BASH_REMATCH[1]} stat=${BASH_REMATCH[2]} parts=${BASH_REMATCH[3]} unstat=${BASH_REMATCH[5]}
inner=${BASH_REMATCH[8]}
is "$total" "$summ_total" "its total is the Summary's memory usage"
# in hundredths: the printed figures add up exactly
c() { awk -v x="$1" 'BEGIN { printf "%d", (x < 0 ? x * 100 - 0.5 : x * 100 + 0.5) }'; }
psum=0
read -r -a nums <<<"$(sed -E 's/[a-z]+ //g; s/ \+ / /g' <<<"$parts")"
for v in "${nums[@]}"; do psum=$((psum + $(c "$v"))); done
is "$psum" "$(c "$stat")" "the printed parts add up to the printed stat"
is "$(($(c "$stat") + $(c "$unstat")))" "$(c "$total")" "the printed stat and unstat add up to the printed total"
is "$(sed -E 's/ [0-9.]+//g; s/ \+ / /g' <<<"$parts" | sed 's/[a-z]*/memory_&/g')" "$(want_parts)" "the parts are stat_parts, in order"
# each printed figure is its JSON mean to within the last digit
near() { jq -e --arg k "$1" --argjson v "$2" '(.summary.metrics[$k].mean - $v) | fabs <= 0.0100001' "$out.json" >/dev/null; }
bad=""
for kv in "memory_stat $stat" "memory_unstat $unstat" \
	$(sed -E 's/([a-z]+) ([0-9.]+)/memory_\1:\2/g; s/ \+ / /g' <<<"$parts") \
	$(sed -E 's/([a-z]+) ([0-9.]+)/memory_\1:\2/g; s/, / /g' <<<"$inner"); do
	kv=${kv/:/ }
	# shellcheck disable=SC2086
	near $kv || bad="$bad $kv"
done
is "$bad" "" "every printed figure within 0.01 MiB of its mean in the JSON"
if [ "$WANT" = v2 ]; then
	is "$(sed -E 's/ [0-9.]+//g; s/, / /g' <<<"$inner")" \
		"$(jq -r '[.memory_source.fields | keys_unsorted[] | select(. == "memory_slab" or . == "memory_percpu" or . == "memory_vmalloc") | sub("memory_"; "")] | join(" ")' "$out.json")" \
		"in kernel: the slab, percpu and vmalloc fields offered"
fi
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
# (without anon, no memory_stat and memory_unstat: anon is one of its parts)
jq 'def drop: del(.memory_anon, .memory_stat, .memory_unstat);
	.memory_source.fields |= drop | .memory_source.stat_parts = [] | .summary.metrics |= drop |
	.samples[] |= (.metrics |= drop | .counters.mem_stat_bytes |= drop)' \
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

# ---- compare, history and export say which memory each figure is ----
"$BENCH" compare --verbose "$f" "$f" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err"
is "$?" 0 "compare --verbose of a run with itself: exit 0"
like "$TEST_TMP/cmp" "^Memory compared: memory is memory\\.current \\(v1: memory\\.usage_in_bytes\\), upstream's figure" \
	"compare: memory is memory.current"
like "$TEST_TMP/cmp" "^Memory compared: memory_stat is memory\\.stat's anon \\+ file \\+ kernel \\+ sock" \
	"compare: memory_stat is memory.stat's sum"
like "$TEST_TMP/cmp" "^Memory compared: peak_memory is memory\\.peak" "compare: and the peak"
"$BENCH" history add --db "$TEST_TMP/h.db" "$f" >/dev/null
is "$?" 0 "history add: exit 0"
"$BENCH" history show --db "$TEST_TMP/h.db" --metric memory_stat >"$TEST_TMP/hist"
is "$?" 0 "history show --metric memory_stat: exit 0"
is "$(sed -n 2p "$TEST_TMP/hist")" "memory_stat is $(grep -o "memory_stat is .*" "$TEST_TMP/cmp" | sed 's/^memory_stat is //; s/\.$//')" \
	"history show: says what memory_stat is, in compare's words"
"$BENCH" export kcidb --origin test "$f" >"$TEST_TMP/k.json"
is "$?" 0 "export kcidb: exit 0"
is "$(jq -r '[.tests[] | select(.misc.measures) | .misc.metric] | sort | join(" ")' "$TEST_TMP/k.json")" \
	"memory memory_stat memory_unstat peak_memory" "export kcidb: each memory test says what it measures, no other test"

done_testing
