#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem's memory source on whatever cgroup layout this kernel has (v1 on
# a hybrid host, pure v2 in scripts/vmtest.sh's VM): the bench must pick the
# source docs/running.md promises, read the files of its own cgroup, and the
# figures must be those files' contents.  Where the v2 cgroup does not
# delegate memory and there is no v1 hierarchy, it must say so and print
# n/a, never 0.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

SRC=$(own_mem_source)
WANT=${SRC%% *}
CG_PARENT=${SRC#v? }
diag "memory source expected: ${SRC:-none}"

# read_bytes <file>: its first number, or nothing
read_bytes() {
	awk 'NR == 1 && $1 ~ /^[0-9]+$/ { print $1 }' "$1" 2>/dev/null
}

if [ -z "$SRC" ]; then
	out=$TEST_TMP/none
	run_bench "$out" -w0 -d1 -p2 --json "$out.json" htab-mem
	is $? 0 "no memory cgroup: the run still succeeds (exit status 0)"
	like "$out" '^Summary: .*memory usage +n/a, peak memory usage +n/a$' "no memory cgroup: memory reads n/a"
	is "$(jq -c '[.memory_source, .summary.peak_memory_bytes]' "$out.json")" "[null,null]" \
		"no memory cgroup: the JSON has no memory source and a null peak"
	done_testing
	exit
fi

if [ "$WANT" = v2 ]; then
	CUR=memory.current
	PEAK=memory.peak
else
	CUR=memory.usage_in_bytes
	PEAK=memory.max_usage_in_bytes
fi

# ---- mid-run: the run sits in its own cgroup, whose files we read too ----
# A long run, ended with SIGINT once read: a short one could end before a
# slow machine (or TCG) got to read its files.
out=$TEST_TMP/long
"${SIG_DEFAULT[@]}" "$BENCH" -w1 -d60 -p2 --json "$out.json" htab-mem --use-case overwrite --value-size 4096 \
	>"$out" 2>"$out.err" &
pid=$!
wait_iter "$out" "$pid" 30
ok $? "the run got going"
cg=$CG_PARENT/bench-htab-mem.$pid
assert "mid-run: its cgroup $cg exists" [ -d "$cg" ]
if [ "$WANT" = v2 ]; then
	path=$(awk -F: '$1 == "0" && $2 == "" { print $3 }' "/proc/$pid/cgroup")
else
	path=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' "/proc/$pid/cgroup")
fi
[ "${path##*/}" = "bench-htab-mem.$pid" ] && [ "${cg%"$path"}$path" = "$cg" ]
ok $? "mid-run: the bench moved into it (/proc/$pid/cgroup: $path)"
cur=$(read_bytes "$cg/$CUR")
peak=$(read_bytes "$cg/$PEAK")
cmp_ok "$cur" -gt 0 "mid-run: $CUR of its cgroup reads a positive number"
cmp_ok "$peak" -ge "$cur" "mid-run: $PEAK of its cgroup is not below $CUR"
assert "mid-run: the run was still going when read" kill -0 "$pid"
kill -INT "$pid"
wait "$pid"
rc=$?
is "$rc" 130 "SIGINT: exit status 130"
assert "after SIGINT: its cgroup is removed" [ ! -e "$cg" ]
assert "after SIGINT: no JSON file (no partial result)" [ ! -e "$out.json" ]

# ---- a whole run: the JSON names that source and those files ----
out=$TEST_TMP/run
"$BENCH" -w1 -d2 -p2 --json "$out.json" htab-mem --use-case overwrite --value-size 4096 \
	>"$out" 2>"$out.err" &
pid=$!
wait "$pid"
rc=$?
is "$rc" 0 "a whole run succeeds (exit status 0)"
[ $rc -eq 0 ] || diag "$(cat "$out.err")"
cg=$CG_PARENT/bench-htab-mem.$pid
assert "after the run: its cgroup is removed" [ ! -e "$cg" ]
j=$out.json
is "$(jq -r '.memory_source.cgroup // "none"' "$j")" "$WANT" "the memory source is cgroup $WANT, as the bench must pick here"
is "$(jq -r '.memory_source.current_file // ""' "$j")" "$cg/$CUR" "current usage comes from $cg/$CUR"
is "$(jq -r '.memory_source.peak_file // ""' "$j")" "$cg/$PEAK" "the peak comes from $cg/$PEAK"
rpeak=$(jq -r '.summary.peak_memory_bytes // 0' "$j")
cmp_ok "$rpeak" -gt 0 "the reported peak is positive (bytes)"
is "$(jq '[.samples[] | select(.counters.mem_bytes == null or .counters.mem_bytes <= 0)] | length' "$j")" 0 \
	"every sample has a positive memory reading (samples without)"
is "$(jq --argjson p "$rpeak" '[.samples[] | select(.counters.mem_bytes > $p)] | length' "$j")" 0 \
	"no sample reads above the reported peak (samples above)"
cmp_ok "$(jq '.samples | length' "$j")" -eq 3 "those samples: -w1 -d2, three"

# ---- v2 without delegation, and no v1 to fall back to: n/a, never 0 ----
if [ "$WANT" = v2 ] && [ -z "$(awk '{ for (i = 7; $i != "-"; i++); }
	$(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/' /proc/self/mountinfo)" ]; then
	nd=$CG_PARENT/bench-test-nodeleg.$$
	mkdir "$nd"
	out=$TEST_TMP/nodeleg
	# in a child cgroup whose cgroup.subtree_control is empty
	(echo "$BASHPID" >"$nd/cgroup.procs" &&
	 exec "$BENCH" -w0 -d1 -p2 --json "$out.json" htab-mem) >"$out" 2>"$out.err"
	rc=$?
	is "$rc" 0 "v2 memory not delegated: the run still succeeds (exit status 0)"
	like "$out" '^Summary: .*memory usage +n/a, peak memory usage +n/a$' \
		"v2 memory not delegated: memory reads n/a"
	like "$out.err" 'cgroup v2 memory controller is not enabled for children' \
		"v2 memory not delegated: it says why"
	is "$(jq -c '[.memory_source, .summary.peak_memory_bytes]' "$out.json")" "[null,null]" \
		"v2 memory not delegated: the JSON has no memory source and a null peak"
	left=$(find "$nd" -mindepth 1 -type d 2>&1) || left="find failed: $left"
	is "$left" "" "v2 memory not delegated: no cgroup left inside"
	rmdir "$nd"
fi

done_testing
