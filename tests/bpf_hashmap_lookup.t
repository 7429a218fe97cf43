#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf-hashmap-lookup on the real kernel: per-CPU lines with positive
# rates, every lookup hitting at small and large keys, the fentry hook
# where the kernel loads it and the tracepoint where not, and bad input
# refused in one line with nothing left loaded.  BENCH_TEST_FENTRY=1 (make
# vmtest sets it) makes a refused fentry hook a failure.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

PROG='hashmap_lookup|hashmap_fentry'
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

# hook_clean <stderr file>: exactly one hook line, well-formed (which
# stderr_clean checks), and nothing else but noise warnings
hook_clean() {
	[ "$(grep -c '^hook: ' "$1")" -eq 1 ] && stderr_clean "$1"
}

# ok_run <desc> <file> [<status>]: the run par_start started as <file>
# (below) succeeds and says nothing on stderr but which hook it ran on;
# with a status, the run's par_wait has been done and that was its status
ok_run() {
	local desc=$1 out=$2 rc=${3:-0}

	[ $# -ge 3 ] || par_wait "$out" || rc=$?
	RUN_RC=$rc
	is "$rc" 0 "$desc: exit status 0"
	# stderr too: sanitizer reports and libbpf warnings land there
	assert "$desc: one hook line and nothing else on stderr but noise warnings" hook_clean "$out.err"
	if [ "$rc" -ne 0 ] || ! hook_clean "$out.err"; then
		diag "stderr: $(head -c 1000 "$out.err")"
	fi
}

# nothing_loaded: no program of ours and no map of ours, both listings
# made (a failed bpftool is not "nothing")
nothing_loaded() {
	local maps

	none_loaded "$PROG" && maps=$(bpftool map show 2>/dev/null) &&
		! grep -q "name hashmap_lookup " <<<"$maps"
}

# --- the measured runs, started side by side ---
# Every run here does at most 20000 lookups a trigger: the default million
# keeps an emulated guest's CPU in one program run for over 20 s when the
# host is busy, which its kernel calls a lockup (make vmtest runs this file).
# Each run's program counts and times its own producers' getpgid() calls
# only, in its own maps, and no run reads another's output: they need not
# wait for one another (lib.sh's par_start, at most PAR_WIDTH at once).  The
# checks below take them in their order with par_wait; the listings of
# what is loaded come after every one of them is reaped, and the signalled
# run at the end starts alone.
nr=$(nproc)
[ "$nr" -gt 4 ] && nr=4
# (--hook auto below is the defaults' run too: its JSON is for that check)
out=$TEST_TMP/default
par_start "$out" "$BENCH" -w0 -d1 --json "$out.json" bpf-hashmap-lookup --nr_loops 20000
par_start "$TEST_TMP/percpu" "$BENCH" -w0 -d1 -p"$nr" -a bpf-hashmap-lookup --nr_loops 20000
# the quiet forms are checked on the host alone (host_only below)
if [ "${BENCH_TEST_IN_VM:-0}" != 1 ]; then
	par_start "$TEST_TMP/quiet" "$BENCH" -w0 -d1 -q bpf-hashmap-lookup --nr_loops 100
	par_start "$TEST_TMP/quiet_a" "$BENCH" -w0 -d1 -q -a bpf-hashmap-lookup --nr_loops 100
fi
# check_hits' configurations: description, then options
HITS=(
	"key_size 64|--key_size 64 --nr_entries 10000 --max_entries 10000 --nr_loops 20000"
	"key_size 1024|--key_size 1024 --nr_loops 20000"
	"key_size 1, all 256 keys|--key_size 1 --nr_entries 256 --max_entries 256 --nr_loops 10000"
	"key_size 2|--key_size 2 --nr_entries 1000 --nr_loops 10000"
	"key_size 3|--key_size 3 --nr_entries 1000 --nr_loops 10000"
	"nr_loops not a multiple of nr_entries|--nr_entries 300 --nr_loops 1000"
	"nr_loops below nr_entries|--nr_entries 1000 --max_entries 1000 --nr_loops 7"
	"map_flags 0x41 (no prealloc, zero seed)|--map_flags 0x41 --nr_loops 10000"
)
for i in "${!HITS[@]}"; do
	IFS='|' read -r _ opts <<<"${HITS[$i]}"
	# shellcheck disable=SC2086 # the options, a word each
	par_start "$TEST_TMP/hits$i" "$BENCH" -w0 -d1 -q bpf-hashmap-lookup $opts
done
out=$TEST_TMP/hook_tp
par_start "$out" "$BENCH" -w0 -d1 --json "$out.json" bpf-hashmap-lookup --hook tracepoint --nr_loops 20000
out=$TEST_TMP/hook_fentry
par_start "$out" "$BENCH" -w0 -d1 --json "$out.json" bpf-hashmap-lookup --hook fentry --nr_loops 20000

# --- defaults (with a short run and a short trigger) ---
out=$TEST_TMP/default
ok_run "defaults (but --nr_loops 20000)" "$out"
DEFAULT_RC=$RUN_RC
grep '^cpu' "$out" > "$out.cpu"
lines_ok "$out.cpu" "$CPU_LINE" 2 4
ok $? "defaults: per-CPU lines with a positive rate and 1..32 samples"
diag "$(cat "$out.cpu")"
is "$(grep -vc -e '^cpu' -e '^Setting up' -e '^Benchmark' "$out")" 0 \
	"defaults: nothing but set-up lines and per-CPU lines on stdout"

# --- one line per CPU that ran a pinned producer ---
out=$TEST_TMP/percpu
ok_run "-p$nr -a" "$out"
grep '^cpu' "$out" > "$out.cpu"
lines_ok "$out.cpu" "$CPU_LINE" 2 4
ok $? "-p$nr -a: well-formed per-CPU lines"
is "$(wc -l < "$out.cpu")" "$nr" "-p$nr -a: exactly $nr lines"
is "$(sed -E "s#$CPU_LINE#\\1#" "$out.cpu" | sort -u | wc -l)" "$nr" "-p$nr -a: one per distinct CPU"

# --- short nr_loops, quiet forms ---
# the output's forms are userspace alone (check_hits below reads -q's lines
# in the guests too)
if host_only "-q and -q -a: the quiet forms"; then
	out=$TEST_TMP/quiet
	ok_run "-q --nr_loops 100" "$out"
	lines_ok "$out" "$QUIET_LINE" 2
	ok $? "-q: 'cpuNN rate' lines with a positive rate"

	out=$TEST_TMP/quiet_a
	ok_run "-q -a --nr_loops 100" "$out"
	lines_ok "$out" "$BARE_LINE" 1
	ok $? "-q -a: a bare positive number"
	is "$(wc -l < "$out")" 1 "-q -a: one line"
	diag "$(cat "$out")"
fi

# --- every lookup hits, whatever the key size and loop shape ---
# (a miss fails the run with a message, so exit 0 + a rate means all hit)
# (HITS above: each of its runs, -q, with its options)
for i in "${!HITS[@]}"; do
	IFS='|' read -r desc _ <<<"${HITS[$i]}"
	out=$TEST_TMP/hits$i
	ok_run "$desc" "$out"
	lines_ok "$out" "$QUIET_LINE" 2
	ok $? "$desc: every lookup hit, positive rate"
done

# the hook's two runs, checked below, are reaped before this listing
HOOK_TP_RC=0
par_wait "$TEST_TMP/hook_tp" || HOOK_TP_RC=$?
HOOK_FENTRY_RC=0
par_wait "$TEST_TMP/hook_fentry" || HOOK_FENTRY_RC=$?
eventually nothing_loaded
ok $? "nothing left loaded after the runs"

# --- the hook: fentry where the kernel allows it, else the tracepoint ---
# The forced tracepoint works everywhere; forced fentry either works or
# fails in one line; auto must then pick what the forced runs showed.
out=$TEST_TMP/hook_tp
ok_run "--hook tracepoint" "$out" "$HOOK_TP_RC"
like "$out.err" '^hook: tp/syscalls/sys_enter_getpgid \(--hook tracepoint\)$' \
	"--hook tracepoint: the hook line names the tracepoint"
is "$(jq -r '.options.benchmark.hook' "$out.json")" tracepoint \
	"--hook tracepoint: JSON options.benchmark.hook is \"tracepoint\""

out=$TEST_TMP/hook_fentry
rc=$HOOK_FENTRY_RC
if [ "$rc" -eq 0 ]; then
	FENTRY=works
	hook_clean "$out.err" && grep -Eq '^hook: fentry/[a-z0-9_]*sys_getpgid$' "$out.err" &&
		jq -e '.options.benchmark.hook == "fentry"' "$out.json" >/dev/null
	ok $? "--hook fentry runs here: hook line and JSON say fentry"
else
	FENTRY=refused
	[ "$(wc -l < "$out.err")" -eq 1 ] && grep -q 'fentry/[a-z0-9_]*sys_getpgid' "$out.err" &&
		[ ! -e "$out.json" ] && eventually nothing_loaded
	ok $? "--hook fentry refused here (rc $rc): one line naming fentry, no JSON, nothing loaded"
	FENTRY_WHY=$(cat "$out.err")
fi
diag "fentry $FENTRY here: $(cat "$out.err")"
# where fentry loads (Debian's kernels in make vmtest's VMs), the harness
# says so: a refusal there is a failure, not the tracepoint fallback
if [ "${BENCH_TEST_FENTRY:-}" = 1 ]; then
	is "$FENTRY" works "--hook fentry loads on this kernel, as BENCH_TEST_FENTRY=1 says it must"
fi

# auto is the default: the defaults' run above, the same configuration
out=$TEST_TMP/default
is "$DEFAULT_RC" 0 "--hook auto: exit status 0"
assert "--hook auto: one hook line and nothing else on stderr but noise warnings" hook_clean "$out.err"
if [ "$FENTRY" = works ]; then
	grep -Eq '^hook: fentry/' "$out.err" &&
		jq -e '.options.benchmark.hook == "fentry"' "$out.json" >/dev/null
	ok $? "auto: fentry, as the forced run showed it works (line and JSON)"
else
	grep -qxF "hook: tp/syscalls/sys_enter_getpgid (fentry unavailable: $FENTRY_WHY)" "$out.err" &&
		jq -e '.options.benchmark.hook == "tracepoint"' "$out.json" >/dev/null
	ok $? "auto: the tracepoint, saying why fentry is unavailable (line and JSON)"
fi
diag "$(grep '^hook: ' "$out.err")"

# compare refuses runs on different hooks unless forced; bad input: one
# line naming the value, non-zero exit, nothing loaded.  Userspace alone:
# the host checks them (compare reads files; options are refused before
# set-up)
if host_only "compare of runs on different hooks; bad input refused"; then
	jq '.options.benchmark.hook = "fentry"' "$TEST_TMP/hook_tp.json" > "$TEST_TMP/hook_other.json"
	rc=0
	"$BENCH" compare "$TEST_TMP/hook_tp.json" "$TEST_TMP/hook_other.json" \
		>"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err" || rc=$?
	is "$rc" 2 "compare: runs on different hooks refused (exit status 2)"
	is "$(wc -l < "$TEST_TMP/cmp.err")" 1 "compare: one line on stderr"
	like "$TEST_TMP/cmp.err" 'refusing to compare runs with different options: hook "tracepoint" vs "fentry"' \
		"compare: the refusal names the hook"
	rc=0
	"$BENCH" compare --force "$TEST_TMP/hook_tp.json" "$TEST_TMP/hook_other.json" \
		>"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err" || rc=$?
	is "$rc" 0 "compare --force: compares (exit status 0)"
	like "$TEST_TMP/cmp" '^warning: options differ: hook "tracepoint" vs "fentry"' "compare --force: a warning naming the hook"

	# --- bad input: one line naming the value, non-zero exit, nothing loaded ---
	# Whatever a refused run left loaded would outlive it (a run's own objects
	# go with its descriptors): one listing after all of them sees it, where a
	# listing after each took most of this file's time in a TCG guest.
	refuse() {	# refuse <text stderr must contain> <bench args...>
		local want=$1 rc=0

		shift
		out=$TEST_TMP/bad
		run_bench "$out" "$@" || rc=$?
		[ "$rc" -ne 0 ] && [ "$(wc -l < "$out.err")" -eq 1 ] &&
			grep -qF -- "$want" "$out.err" && [ ! -s "$out" ]
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
	refuse "invalid --hook 'kprobe': expected auto, fentry or tracepoint" bpf-hashmap-lookup --hook kprobe
	refuse "does not apply" hash-lookup --hook fentry
	eventually nothing_loaded
	ok $? "refused runs: nothing left loaded"
fi

# --- Ctrl-C mid-run cleans up ---
out=$TEST_TMP/sigint
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d30 bpf-hashmap-lookup --nr_loops 10000 >"$out" 2>"$out.err" &
pid=$!
watchdog "$pid"
# "started" follows the set-up and the producers' start: mid-run from then
wait_for "$out" "^Benchmark 'bpf-hashmap-lookup' started\.$" "$pid" 120
ok $? "SIGINT: the run got going"
cmp_ok "$(loaded_bench_progs "$PROG")" -ge 1 "SIGINT: mid-run, its program is loaded (so the clean-up check means something)"
kill -INT "$pid"
reap "$pid"
is $? 130 "SIGINT: exit status 130"
eventually nothing_loaded
ok $? "SIGINT: nothing left loaded"

done_testing
