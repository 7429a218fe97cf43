#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf-hashmap-full-update on the real kernel: upstream's output and
# nothing else on stdout, one line per CPU; the hook it ran on said once
# and recorded; every update of the full map counted as failed; --repeat,
# --latency, a pid namespace, SIGINT, bad values, and compare's refusal
# to mix hooks.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
require_kcidb_validator

B=bpf-hashmap-full-update
PROGS='full_update_[a-z]*'
CG_PARENT=$(own_mem_cgroup)
CPU_LINE='^([0-9]+):hash_map_full_perf [1-9][0-9]* events per sec$'
nothing_loaded() { [ "$(loaded_bench_progs "$PROGS")" -eq 0 ]; }
no_cgroup() { [ -z "$CG_PARENT" ] || [ -z "$(find "$CG_PARENT" -maxdepth 1 -name "bench-*.$1*")" ]; }

# upstream_stdout <out> <producers>: the two runner lines, then only CPU lines, one per CPU used
upstream_stdout() {
	local n

	[ "$(sed -n 1p "$1")" = "Setting up benchmark '$B'..." ] &&
		[ "$(sed -n 2p "$1")" = "Benchmark '$B' started." ] || return 1
	n=$(tail -n +3 "$1" | grep -Ecv "$CPU_LINE")
	[ "$n" -eq 0 ] || return 1
	n=$(tail -n +3 "$1" | wc -l)
	[ "$n" -ge 1 ] && [ "$n" -le "$2" ]
}

# hook_of <stderr file>: fentry or tracepoint, from the one hook line
hook_of() {
	case $(grep '^hook: ' "$1") in
	"hook: fentry/"*) echo fentry ;;
	"hook: tp/"*) echo tracepoint ;;
	esac
}

# The measured runs side by side (lib.sh's par_start), all reaped before
# the SIGINT run: each program counts its own run's producers only, every
# check below reads one run's output and document, and no rate is checked
# (a CPU line's rate must only be positive).  The SIGINT run, which the
# test signals, and the "nothing left loaded" checks come after them all.
par_start "$TEST_TMP/p1" "$BENCH" -w0 -d1 -a --json "$TEST_TMP/p1.json" "$B"
par_start "$TEST_TMP/p2" "$BENCH" -w0 -d1 -p2 -a "$B"
par_start "$TEST_TMP/all" "$BENCH" -w0 -d1 -p2 -a --json "$TEST_TMP/all.json" "$B" --all-batches
par_start "$TEST_TMP/tp" "$BENCH" -w0 -d1 --json "$TEST_TMP/tp.json" "$B" --hook tracepoint
par_start "$TEST_TMP/fentry" "$BENCH" -w0 -d1 "$B" --hook fentry
par_start "$TEST_TMP/repeat" "$BENCH" -w0 -d1 -p2 -a --repeat 2 "$B"
par_start "$TEST_TMP/latency" "$BENCH" -w0 -d1 --latency "$B"
if command -v unshare >/dev/null; then
	par_start "$TEST_TMP/pidns" unshare -p -f --mount-proc "$BENCH" -w0 -d1 -p2 -a "$B"
fi

out=$TEST_TMP/p1
rc=0
par_wait "$out" || rc=$?
[ "$rc" -eq 0 ] && stderr_clean "$out.err" && [ "$(grep -c '^hook: ' "$out.err")" -eq 1 ]
ok $? "-p1 -a: exit status 0, one hook line and nothing else on stderr but noise warnings"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(head -c 1500 "$out.err")"
assert "-p1 -a: upstream's stdout, a 'N:hash_map_full_perf R events per sec' line" upstream_stdout "$out" 1
hook=$(hook_of "$out.err")
is "$(jq -r .options.benchmark.hook "$out.json")" "$hook" "-p1 -a: JSON options.benchmark.hook is the hook that ran ($hook)"
cpu=$(sed -nE "s/$CPU_LINE/\\1/p" "$out")
is "$(jq -r --arg m "$(printf 'full_update_cpu%02d' "${cpu:-0}")" '.summary.metrics[$m].n > 0' "$out.json")" true \
	"-p1 -a: JSON has the per-sample rates of CPU $cpu"
# every update of the full map failed, as it must: those are its hits; a
# failure (fails) is an update that succeeded, none in a run that is kept
cmp_ok "$(jq '[.samples[].counters.hits] | add' "$out.json")" -gt 0 "-p1 -a: the updates were counted as hits"
is "$(jq '[.samples[].counters.fails] | add' "$out.json") $(jq .summary.fails "$out.json")" "0 0" \
	"-p1 -a: no failure: the full map's -E2BIG is the measured path"
# exported to KCIDB: its rates, not a FAIL (the failing updates are what it times)
if host_only "-p1 -a: export kcidb"; then
	"$BENCH" export kcidb --origin bench_test "$out.json" >"$out.kcidb" 2>"$out.kcidb.err"
	ok $? "-p1 -a: export kcidb: exit 0"
	"$KCIDB_VALIDATE" "$KCIDB_SCHEMA" "$out.kcidb" >"$out.verdict" 2>&1
	ok $? "-p1 -a: export kcidb: the validator says valid"
	[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(head -5 "$out.verdict")"
	is "$(jq -r '[.tests[] | select(.path | endswith(".updates")) | .status, .number.unit] | join(" ")' "$out.kcidb")" \
		"DONE op/s" "-p1 -a: export kcidb: updates DONE, in op/s"
	is "$(jq '[.tests[] | select(.path | endswith(".updates")) | .number.value] | .[0]' "$out.kcidb")" \
		"$(jq '.summary.metrics.updates.mean * 1000000' "$out.json")" "-p1 -a: export kcidb: the number is the updates' mean"
	is "$(jq '[.tests[] | select(.status == "FAIL")] | length' "$out.kcidb")" 0 "-p1 -a: export kcidb: no FAIL"
fi

out=$TEST_TMP/p2
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "-p2 -a: exit status 0"
assert "-p2 -a: upstream's stdout" upstream_stdout "$out" 2
is "$(sed -nE "s/$CPU_LINE/\\1/p" "$out" | sort -u | tr '\n' ' ')" "0 1 " "-p2 -a: a line for CPU 0 and one for CPU 1"

# the line's rate: the CPU's last batch by default (upstream's), every
# measured batch with --all-batches; the JSON says which
is "$(jq -r .options.benchmark.all_batches "$TEST_TMP/p1.json")" false \
	"-p1 -a: each line is the CPU's last batch, as upstream's (options: all_batches false)"
out=$TEST_TMP/all
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "-p2 -a --all-batches: exit status 0"
assert "-p2 -a --all-batches: upstream's stdout" upstream_stdout "$out" 2
is "$(jq -r .options.benchmark.all_batches "$out.json")" true "--all-batches: options: all_batches true"

# the hook asked for
out=$TEST_TMP/tp
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "--hook tracepoint: exit status 0"
like "$out.err" '^hook: tp/syscalls/sys_enter_getpgid \(--hook tracepoint\)$' "--hook tracepoint: the hook line says so"
is "$(jq -r .options.benchmark.hook "$out.json")" tracepoint "--hook tracepoint: recorded in JSON"
out=$TEST_TMP/fentry
rc=0
par_wait "$out" || rc=$?
if [ "$rc" -eq 0 ]; then
	like "$out.err" '^hook: fentry/[a-z0-9_]*sys_getpgid$' "--hook fentry: loaded, the hook line names it"
else
	[ "$(wc -l <"$out.err")" -eq 1 ] && grep -q "^failed to load $B's BPF program on fentry/" "$out.err"
	ok $? "--hook fentry refused by this kernel: exit $rc, one line saying why"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out.err")"
fi

# compare refuses runs of different hooks (userspace alone: the host checks it)
if host_only "compare of runs on different hooks"; then
	jq '.options.benchmark.hook = (if .options.benchmark.hook == "fentry" then "tracepoint" else "fentry" end)' \
		"$TEST_TMP/tp.json" >"$TEST_TMP/other-hook.json"
	rc=0
	"$BENCH" compare "$TEST_TMP/tp.json" "$TEST_TMP/other-hook.json" >"$TEST_TMP/cmp" 2>"$TEST_TMP/cmp.err" || rc=$?
	[ "$rc" -ne 0 ] && grep -q 'hook' "$TEST_TMP/cmp.err"
	ok $? "compare refuses to mix hooks (exit $rc)"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$TEST_TMP/cmp.err")"
fi

# --repeat: a fresh map each time, the hook line once, every line prefixed
out=$TEST_TMP/repeat
rc=0
par_wait "$out" || rc=$?
is "$rc" 0 "--repeat 2: exit status 0"
is "$(grep -c '^hook: ' "$out.err")" 1 "--repeat 2: one hook line"
is "$(grep -Ec '^Repeat [12]/2: [01]:hash_map_full_perf [0-9]+ events per sec$' "$out")" 4 \
	"--repeat 2: each repeat's per-CPU lines, prefixed"

# --latency: the batch the program times anyway
out=$TEST_TMP/latency
rc=0
par_wait "$out" || rc=$?
# the runner's timer calibration, not this benchmark, is refused by some kernels (6.1: EACCES)
if [ "$rc" -ne 0 ] && grep -q '^failed to load the --latency calibration program' "$out.err"; then
	skip "this kernel refuses --latency's calibration program: $(tail -n1 "$out.err")" "--latency"
else
	is "$rc" 0 "--latency: exit status 0"
	like "$out" '^Latency: per-op p50 [0-9.]+ ns, .*\([0-9]+ triggers, 10000 ops each\)$' "--latency: a Latency line, 10000 updates a trigger"
fi

if command -v unshare >/dev/null; then
	out=$TEST_TMP/pidns
	rc=0
	par_wait "$out" || rc=$?
	[ "$rc" -eq 0 ] && stderr_clean "$out.err" && upstream_stdout "$out" 2
	ok $? "-p2 -a in a pid namespace: exit 0, upstream's lines"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$out" "$out.err")"
else
	skip "unshare (util-linux) not installed" "a pid namespace"
fi

# bad values: userspace alone, the host checks them
if host_only "bad values refused in one line"; then
	refused "invalid --hook 'kprobe': expected auto, fentry or tracepoint" -w0 -d1 "$B" --hook kprobe
	refused "does not apply" -w0 -d1 "$B" --nr_entries 10
	refused "no consumers" -w0 -d1 -c 1 "$B"
fi

out=$TEST_TMP/sigint
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d30 -p2 --json "$out.json" "$B" >"$out" 2>"$out.err" &
pid=$!
watchdog "$pid"
for _ in $(seq 100); do
	grep -q started "$out" && break
	sleep 0.1
done
sleep 0.5
kill -INT "$pid"
reap "$pid"
is $? 130 "SIGINT: exit status 130"
assert "SIGINT: no JSON file" [ ! -e "$out.json" ]
eventually nothing_loaded
ok $? "SIGINT: nothing left loaded"
assert "SIGINT: no cgroup left" no_cgroup "$pid"

eventually nothing_loaded
ok $? "nothing left loaded after the runs"

done_testing
