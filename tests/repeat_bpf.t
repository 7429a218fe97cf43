#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htab-mem --repeat with real BPF: every repeat gets a new BPF object
# (a new map, so a new hash seed) under running producers, every producer
# is registered in every object, nothing is left loaded afterwards, and
# --zero-seed is recorded.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

require_bpf

PROGS='htab_mem_[a-z_]*'
jq_true() { jq -e "$@" >/dev/null; }

# the BPF memory allocator on the plain use case, the preallocated map on
# the paired one (whose producers wait on barriers across the switch).
# The first has a warm-up second per repeat, which the measured samples
# must leave out; the second none: each repeat's measured second starts
# right at the switch, which its producers must come through counting.
# Every run of the file side by side (lib.sh's par_start): each program
# counts its own run's producers only, every check reads one run's output
# and document, and no rate is checked; the one htab-mem run checked
# later is reaped before "nothing left loaded" lists the programs.
CFGS="overwrite::-w1 add_del_on_diff_cpu:--preallocated:-w0"
for cfg in $CFGS; do
	IFS=: read -r uc flavour warmup <<<"$cfg"
	par_start "$TEST_TMP/o$uc" "$BENCH" "$warmup" -d1 -p2 --repeat 3 --json "$TEST_TMP/$uc$flavour.json" \
		htab-mem --use-case "$uc" ${flavour:+"$flavour"}
done
par_start "$TEST_TMP/l" "$BENCH" -w0 -d1 -p2 --repeat 2 --zero-seed --json "$TEST_TMP/l.json" hash-lookup
# (one producer: what is checked is the option's record, not the producers)
par_start "$TEST_TMP/z" "$BENCH" -q -w0 -d1 -p1 --repeat 2 --zero-seed --json "$TEST_TMP/z.json" htab-mem

for cfg in $CFGS; do
	IFS=: read -r uc flavour warmup <<<"$cfg"
	name="$uc${flavour:+ $flavour}"
	J=$TEST_TMP/$uc$flavour.json
	O=$TEST_TMP/o$uc
	par_wait "$O"
	is $? 0 "$name --repeat 3: exit 0"
	assert "$name: stderr has only noise warnings" stderr_clean "$O.err"
	cmp_ok "$(grep -c '^Repeat [23]/3: fresh state$' "$O")" -eq 2 \
		"$name: repeats 2 and 3 start with fresh state"
	cmp_ok "$(grep -c '^Repeat [1-3]/3: Summary: per-prod-op ' "$O")" -eq 3 \
		"$name: a Summary per repeat"
	like "$O" '^Repeats: per_prod_op [0-9.]+ ± [0-9.]+ k/s between 3 repeats' \
		"$name: the two levels"
	# a producer the new object did not know would count nothing
	assert "$name: both producers counted in every measured sample of every repeat" jq_true \
		'[.samples[] | select(.warmup | not)] | length == 3 and
		 all(.[]; .counters.prod_hits | length == 2 and all(.[]; . > 0))' "$J"
	assert "$name: measured samples tagged 0, 1, 2" jq_true \
		'[.samples[] | select(.warmup | not) | .repeat] == [0, 1, 2]' "$J"
done
# (the --zero-seed htab-mem run's status, for its checks below: reaped
# first, so that its program counts as left over only if it is)
par_wait "$TEST_TMP/z"
z_rc=$?
# (eventually lists the programs anew at each try)
assert "no htab-mem program left loaded" eventually none_loaded "$PROGS"

# the lookups: a new filled map per repeat, every producer registered in it
J=$TEST_TMP/l.json
par_wait "$TEST_TMP/l"
is $? 0 "hash-lookup --repeat 2 --zero-seed: exit 0"
cmp_ok "$(grep -c '^Repeat 2/2: fresh state$' "$TEST_TMP/l")" -eq 1 "hash-lookup: fresh state"
assert "hash-lookup: both producers counted in both repeats" jq_true \
	'[.samples[] | select(.warmup | not) | .counters.prod_hits | all(.[]; . > 0)] == [true, true]' "$J"
is_exit 1 "array-lookup --zero-seed: exit 1 (the benchmark cannot honour it)" "$BENCH" --zero-seed array-lookup

J=$TEST_TMP/z.json
is "$z_rc" 0 "--zero-seed --repeat 2: exit 0"
assert "--zero-seed is recorded" jq_true '.options.runner.zero_seed == true' "$J"

done_testing
