#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# BENCH_TEST_EXIT_AFTER_SETUP=1: every benchmark sets up (loads and
# attaches its programs, creates its cgroup, mounts tracefs), tears down
# and exits 0 without sampling, saying so, and leaves nothing behind.

# a private mount namespace, so "no tracefs mount left" is ours to check
# (before lib.sh, whose temporary directory exec would leak)
if [ -z "${EXIT_AFTER_SETUP_T_MNTNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
   unshare --mount --propagation private true 2>/dev/null; then
	export EXIT_AFTER_SETUP_T_MNTNS=1
	exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROGS='count_getpgid[a-z_]*|alloc_batch|bench_ringbuf[a-z_]*|bench_perfbuf[a-z_]*|hashmap_lookup|htab_mem_[a-z_]*|hash_lookup|array_lookup|pcpu_hash_lkup|pcpu_array_lkup|lru_hash_lookup|mp_[a-z_]*|full_update_[a-z]*|bloom_[a-z_]*|get_(local|hash)_[a-z]*|pregp_step|postgp'
CG_PARENT=$(own_mem_cgroup)
TRACEFS_BEFORE=$(tracefs_mounts)
cmp_ok "$TRACEFS_BEFORE" -ge 0 "tracefs mounts at the start, counted"

mapfile -t benchs < <("$BENCH" -l | sed -nE 's/^  ([a-z0-9-]+) .*/\1/p')
cmp_ok "${#benchs[@]}" -ge 10 "bench -l lists every benchmark (${#benchs[@]})"

# The set-ups side by side (lib.sh's par_start, at most PAR_WIDTH at once):
# no run depends on another, each has its own cgroup (named by its pid) and
# its own mount namespace for tracefs.  What is left on the machine is
# checked only once every run is reaped.  hashmap-control fills a 4M-entry
# hash map, half the set-up time of all the others together: it starts
# first, and the rest go beside it.
declare -A WD=() RC=() PID=()
order=()
for b in "${benchs[@]}"; do
	[ "$b" = local-storage-cache-hashmap-control ] && order=("$b" "${order[@]}") || order+=("$b")
done
for b in "${order[@]}"; do
	out="$TEST_TMP/$b"
	# -d30: a run that sampled would not come back for half a minute
	read -r -a extra <<<"$(bench_needs_opts "$b")"
	par_start "$out" env BENCH_TEST_EXIT_AFTER_SETUP=1 "$BENCH" -w0 -d30 -p2 --json "$out.json" "$b" "${extra[@]}"
	watchdog "$!"
	WD[$b]=$WATCHDOG
done
# the normal run the last checks are about goes beside them: it is one
# run more, its checks on its own output and exit status, and it is reaped
# with the others before the machine is looked at
par_start "$TEST_TMP/zero" env BENCH_TEST_EXIT_AFTER_SETUP=0 "$BENCH" -q -w0 -d1 count-local
for b in "${order[@]}"; do
	par_wait "$TEST_TMP/$b"
	RC[$b]=$?
	PID[$b]=$RUN_PID
	wait "${WD[$b]}" 2>/dev/null
done
par_wait "$TEST_TMP/zero"
ZERO_RC=$?

# What each run may have left on the machine, read once: with every run
# reaped nothing of ours changes it any more, so each run's check below
# reads the same state, as it did when each read it anew (a bpftool, a find
# and a grep per run, seconds in all)
eventually none_loaded "$PROGS"
LOADED_RC=$?
LOADED_DIAG=
[ "$LOADED_RC" -eq 0 ] || LOADED_DIAG=$(bpftool prog show 2>&1 | grep -E "name ($PROGS) |rror")
if [ -n "$CG_PARENT" ]; then
	# the cgroups under ours, one name a line, as find -name matches them below
	CG_LEFT=$(find "$CG_PARENT" -maxdepth 1 -name 'bench-*' 2>&1)
	CG_FIND_RC=$?
	mapfile -t CG_NAMES <<<"$CG_LEFT"
fi
TRACEFS_AFTER=$(tracefs_mounts)

for b in "${benchs[@]}"; do
	out="$TEST_TMP/$b"
	pid=${PID[$b]}
	is "${RC[$b]}" 0 "$b: exit status 0"
	# local-storage-tasks-trace forks its sleepers in set-up and says so, as upstream's
	is "$(grep -Ev '^Spun up [0-9]+ procs \(our pid [0-9]+\)$' "$out")" "Setting up benchmark '$b'..." \
		"$b: set up, never started"
	# lpm-trie-free says which hook times the freeing, as the hook line does
	is "$(strip_hook_line "$out.err" | grep -v '^lpm-trie-free: the freeing work is timed on ')" "exiting after set-up (BENCH_TEST_EXIT_AFTER_SETUP=1): nothing measured" \
		"$b: says on stderr that nothing was measured"
	assert "$b: no JSON result for a run that measured nothing" [ ! -e "$out.json" ]
	ok "$LOADED_RC" "$b: no program left loaded"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$LOADED_DIAG"
	if [ -n "$CG_PARENT" ]; then
		# find's -name "bench-*.$pid" on its listing
		left=
		if [ "$CG_FIND_RC" -ne 0 ]; then
			left="find failed: $CG_LEFT"
		else
			for cg in "${CG_NAMES[@]}"; do
				[[ ${cg##*/} == bench-*."$pid" ]] && left+=${left:+$'\n'}$cg
			done
		fi
		is "$left" "" "$b: no cgroup left"
	fi
	if [ -n "${EXIT_AFTER_SETUP_T_MNTNS:-}" ]; then
		cmp_ok "$TRACEFS_AFTER" -eq "$TRACEFS_BEFORE" "$b: no tracefs mount left"
	fi
done

# only "1" switches it on
is "$ZERO_RC" 0 "BENCH_TEST_EXIT_AFTER_SETUP=0: a normal run (exit status 0)"
like "$TEST_TMP/zero" '^Summary: hits ' "BENCH_TEST_EXIT_AFTER_SETUP=0: it measures"

done_testing
