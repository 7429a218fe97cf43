#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf-hashmap-lookup on the real kernel: per-CPU lines with positive
# rates, every lookup hitting at small and large keys, and bad input
# refused in one line with nothing left loaded.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROG='hashmap_lookup'
CPU_LINE='^cpu([0-9]{2,}): lookup ([0-9]+\.[0-9]{3})M ± ([0-9]+\.[0-9]{3})M events/sec \(approximated from ([0-9]+) samples of ~([0-9]+)ms\)$'
QUIET_LINE='^cpu([0-9]{2,}) ([0-9]+\.[0-9]{3})$'
BARE_LINE='^([0-9]+\.[0-9]{3})$'

# lines_ok <file> <line regex> <rate group> [<samples group>]: there are
# lines, each matches, each rate is positive and each sample count 1..32
lines_ok() {
	local f=$1 re=$2 rate=$3 samples=${4:-}

	grep -q . "$f" || return 1
	if grep -Evq "$re" "$f"; then
		return 1
	fi
	# '#' delimits: the patterns contain '/'; pipefail: a sed error fails
	(set -o pipefail
	 sed -E "s#$re#\\$rate ${samples:+\\$samples}#" "$f" |
		awk -v s="$samples" 'NF == 0 || $1 <= 0 || (s != "" && ($2 < 1 || $2 > 32)) { bad = 1 }
				      END { exit bad || NR == 0 }')
}

# ok_run <desc> <file> <bench args...>: the run succeeds and says nothing on stderr
ok_run() {
	local desc=$1 out=$2 rc=0

	shift 2
	run_bench "$out" "$@" || rc=$?
	# stderr too: sanitizer reports and libbpf warnings land there
	[ "$rc" -eq 0 ] && stderr_clean "$out.err"
	ok $? "$desc: exit status 0, nothing on stderr but noise warnings"
	if [ "$rc" -ne 0 ] || ! stderr_clean "$out.err"; then
		diag "rc $rc, stderr: $(head -c 1000 "$out.err")"
	fi
}

nothing_loaded() {
	[ "$(loaded_bench_progs "$PROG")" -eq 0 ] &&
		! bpftool map show 2>/dev/null | grep -q "name hashmap_lookup "
}

# --- defaults (with a short run) ---
out=$TEST_TMP/default
ok_run "defaults" "$out" -w1 -d2 bpf-hashmap-lookup
grep '^cpu' "$out" > "$out.cpu" || true
lines_ok "$out.cpu" "$CPU_LINE" 2 4
ok $? "defaults: per-CPU lines with a positive rate and 1..32 samples"
diag "$(cat "$out.cpu")"
[ "$(grep -vc -e '^cpu' -e '^Setting up' -e '^Benchmark' "$out")" -eq 0 ]
ok $? "defaults: nothing but set-up lines and per-CPU lines on stdout"

# --- one line per CPU that ran a pinned producer ---
nr=$(nproc)
[ "$nr" -gt 4 ] && nr=4
out=$TEST_TMP/percpu
ok_run "-p$nr -a" "$out" -w0 -d1 -p"$nr" -a bpf-hashmap-lookup --nr_loops 20000
grep '^cpu' "$out" > "$out.cpu" || true
lines_ok "$out.cpu" "$CPU_LINE" 2 4
ok $? "-p$nr -a: well-formed per-CPU lines"
[ "$(sed -E "s#$CPU_LINE#\\1#" "$out.cpu" | sort -u | wc -l)" -eq "$nr" ] &&
	[ "$(wc -l < "$out.cpu")" -eq "$nr" ]
ok $? "-p$nr -a: exactly $nr lines, one per distinct CPU"

# --- short nr_loops, quiet forms ---
out=$TEST_TMP/quiet
ok_run "-q --nr_loops 100" "$out" -w0 -d1 -q bpf-hashmap-lookup --nr_loops 100
lines_ok "$out" "$QUIET_LINE" 2
ok $? "-q: 'cpuNN rate' lines with a positive rate"

out=$TEST_TMP/quiet_a
ok_run "-q -a --nr_loops 100" "$out" -w0 -d1 -q -a bpf-hashmap-lookup --nr_loops 100
lines_ok "$out" "$BARE_LINE" 1 && [ "$(wc -l < "$out")" -eq 1 ]
ok $? "-q -a: one bare positive number"
diag "$(cat "$out")"

# --- every lookup hits, whatever the key size and loop shape ---
# (a miss fails the run with a message, so exit 0 + a rate means all hit)
check_hits() {	# check_hits <desc> <options...>
	local desc=$1

	shift
	out=$TEST_TMP/hits
	ok_run "$desc" "$out" -w0 -d1 -q bpf-hashmap-lookup "$@"
	lines_ok "$out" "$QUIET_LINE" 2
	ok $? "$desc: every lookup hit, positive rate"
}
check_hits "key_size 64" --key_size 64 --nr_entries 10000 --max_entries 10000 --nr_loops 100000
check_hits "key_size 1024" --key_size 1024 --nr_loops 20000
check_hits "key_size 1, all 256 keys" --key_size 1 --nr_entries 256 --max_entries 256 --nr_loops 10000
check_hits "key_size 2" --key_size 2 --nr_entries 1000 --nr_loops 10000
check_hits "key_size 3" --key_size 3 --nr_entries 1000 --nr_loops 10000
check_hits "nr_loops not a multiple of nr_entries" --nr_entries 300 --nr_loops 1000
check_hits "nr_loops below nr_entries" --nr_entries 1000 --max_entries 1000 --nr_loops 7
check_hits "map_flags 0x41 (no prealloc, zero seed)" --map_flags 0x41 --nr_loops 10000

ok "$(eventually nothing_loaded; echo $?)" "nothing left loaded after the runs"

# --- bad input: one line naming the value, non-zero exit, nothing loaded ---
refuse() {	# refuse <text stderr must contain> <bench args...>
	local want=$1 rc=0

	shift
	out=$TEST_TMP/bad
	run_bench "$out" "$@" || rc=$?
	[ "$rc" -ne 0 ] && [ "$(wc -l < "$out.err")" -eq 1 ] &&
		grep -qF -- "$want" "$out.err" && [ ! -s "$out" ] && eventually nothing_loaded
	ok $? "refused: $* (rc $rc)"
	[ "$rc" -ne 0 ] || diag "unexpectedly ran: $(head -c 500 "$out")"
	diag "$(head -n 3 "$out.err")"
}
refuse "'0'" bpf-hashmap-lookup --key_size 0
refuse "'1025'" bpf-hashmap-lookup --key_size 1025
refuse "'8a'" bpf-hashmap-lookup --key_size 8a
refuse "'0xq'" bpf-hashmap-lookup --map_flags 0xq
refuse "'0x4'" bpf-hashmap-lookup --map_flags 0x4
refuse "'-1'" bpf-hashmap-lookup --map_flags -1
refuse "'0'" bpf-hashmap-lookup --max_entries 0
refuse "'16777217'" bpf-hashmap-lookup --max_entries 16777217
refuse "'x'" bpf-hashmap-lookup --max_entries x
refuse "'0'" bpf-hashmap-lookup --nr_entries 0
refuse "'1.5'" bpf-hashmap-lookup --nr_entries 1.5
refuse "'0'" bpf-hashmap-lookup --nr_loops 0
refuse "'8388609'" bpf-hashmap-lookup --nr_loops 8388609
refuse "'1e6'" bpf-hashmap-lookup --nr_loops 1e6
refuse "--nr_entries 1001 is more than --max_entries 1000" bpf-hashmap-lookup --nr_entries 1001
refuse "--nr_entries 500 is more than --max_entries 100" bpf-hashmap-lookup --max_entries 100
refuse "at most 256" bpf-hashmap-lookup --key_size 1 --nr_entries 300
refuse "no consumers" -c 1 bpf-hashmap-lookup
refuse "does not apply" hash-lookup --key_size 8

# --- Ctrl-C mid-run cleans up ---
out=$TEST_TMP/sigint
"$BENCH" -w0 -d30 bpf-hashmap-lookup >"$out" 2>"$out.err" &
pid=$!
for _ in $(seq 50); do
	grep -q started "$out" && break
	sleep 0.1
done
sleep 0.3
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
is "$rc" 130 "SIGINT: exit status 130"
gone=1
for _ in $(seq 20); do
	if nothing_loaded; then
		gone=0
		break
	fi
	sleep 0.1
done
ok "$gone" "SIGINT: nothing left loaded"

done_testing
