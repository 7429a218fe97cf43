#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf_ma on the real kernel: a kernel without the kfuncs is refused before
# anything is loaded; otherwise every object allocated is freed (the
# bench's cross-check, and its counts against the samples'), in both
# flavours, every object size loads, the Summary has the posted shape, and
# nothing is left behind by a run, a refusal or a signal, also inside a pid
# namespace.  No timing is checked.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
require_kcidb_validator

CG_PARENT=$(own_mem_cgroup)
PROGS='bench_[0-9]+|percpu_bench_[0-9]*'
NUM='-?[0-9]+\.[0-9]+'
SUMMARY_RE="^Summary: per-prod alloc +$NUM ± ${NUM}M/s free +$NUM ± ${NUM}M/s, total memory usage +$NUM ± ${NUM}MiB\$"
ALLOC_RE="^Allocator: slab [+-]$NUM MiB, percpu [+-]$NUM MiB \\(system-wide, since set-up\\), [0-9]+ objects allocated, [0-9]+ freed\$"

# check_clean <pid> <what>: nothing of that run is left behind
check_clean() {
	local pid=$1 what=$2 left=""

	if [ -n "$CG_PARENT" ] && compgen -G "$CG_PARENT/bench-bpf_ma.$pid*" >/dev/null; then
		left="cgroup $(echo "$CG_PARENT"/bench-bpf_ma."$pid"*)"
	fi
	# the kernel releases a closed program (and its stash's objects)
	# asynchronously: eventually lists them anew at each try, and a listing
	# that failed counts as something left
	if ! eventually none_loaded "$PROGS"; then
		left="$left; BPF program: $(bpftool prog show 2>&1 | grep -E "name ($PROGS) |rror")"
	fi
	assert "$what: nothing left behind" [ -z "$left" ]
	[ -z "$left" ] || diag "left: $left"
}

# run_ma <out> <args...>: a run, its pid in RUN_PID
run_ma() {
	local out=$1 rc=0
	shift
	"$BENCH" "$@" >"$out" 2>"$out.err" &
	RUN_PID=$!
	wait "$RUN_PID" || rc=$?
	return $rc
}

# has_kfunc <name>: the kernel has it, by its symbol (not by the BTF the bench reads);
# /proc/kallsyms is read once (a long file, asked about five times)
KFUNC_SYMS=$(grep -oE ' (bpf_obj_new_impl|bpf_percpu_obj_new_impl)$' /proc/kallsyms)
has_kfunc() {
	[[ $'\n'$KFUNC_SYMS$'\n' == *$'\n'" $1"$'\n'* ]]
}

# ---- bad input: one line, non-zero exit, nothing created ----
declare -A RC PID
# bad_check <out> <what> <stderr regex>: the checks of a refused run, its
# exit status in RC[out], its pid in PID[out]
bad_check() {
	local out=$1 what=$2 re=$3 rc=${RC[$1]}

	assert "$what: refused (exit $rc)" [ "$rc" -ne 0 ]
	assert "$what: one line on stderr" [ "$(wc -l <"$out.err")" -eq 1 ]
	assert "$what: nothing on stdout" [ ! -s "$out" ]
	like "$out.err" "$re" "$what: the message names the problem"
	check_clean "${PID[$out]}" "$what"
}

# bad_run <out> <args...>: a refused run, its exit status in RC[out], its
# pid in PID[out]
bad_run() {
	local out=$1

	shift
	run_ma "$out" "$@"
	RC[$out]=$?
	PID[$out]=$RUN_PID
}

bad_input() {	# bad_input <what> <stderr regex> <args...>: bad_run, then bad_check
	bad_run "$TEST_TMP/bad" "${@:3}"
	bad_check "$TEST_TMP/bad" "$1" "$2"
}

# a kernel without the kfuncs: the one line naming it, before anything is loaded
missing=0
for k in bpf_obj_new_impl bpf_percpu_obj_new_impl; do
	has_kfunc "$k" && continue
	opt=()
	[ "$k" = bpf_percpu_obj_new_impl ] && opt=(--percpu)
	bad_input "a kernel without $k" \
		"^bpf_ma: this kernel has no ${k%_impl}\\(\\): the kfunc $k is not in its BTF \\(Linux [0-9.]+ and later have it\\)\$" \
		-w0 -d1 bpf_ma "${opt[@]}"
	missing=$((missing + 1))
done
diag "$(uname -r): kfuncs missing: $missing"
if ! has_kfunc bpf_obj_new_impl; then
	done_testing
	exit
fi

flavours=("")
has_kfunc bpf_percpu_obj_new_impl && flavours+=(--percpu)
# sizes_of <flavour>: every object size it takes
sizes_of() {
	if [ -n "$1" ]; then echo "16 32 64 96 128 192 256 512"; else echo "16 32 64 96 128 192 256 512 1024 2048 4096"; fi
}

# ---- the runs checked for themselves alone, side by side ----
# Every run whose checks are of its own exit status, lines and counts,
# none of a memory figure (which another run beside it would change),
# starts here, side by side (lib.sh's par_start, at most PAR_WIDTH at once), the
# longest first: the --repeat run, the two runs a signal ends mid-run
# (sig_run: each waits a second for its first Iter line), the --latency
# and pid namespace runs, then set-up alone of every object size of each
# flavour (each its own program and cgroup); the refused ones, over in
# milliseconds, one at a time in the foreground while the first ones
# take every place.  Their checks,
# below in their sections, start once every one of them is reaped:
# check_clean then sees the machine with none of them running.  The wrapper's runs and the real
# runs (whose memory figures are checked) and the --footprint ones (which
# count every allocation of the BPF memory allocator on the machine,
# another run's too) start after them, with no other run beside them.
POOL=()
pool_start() {	# pool_start <out> <command...>: par_start, reaped below
	POOL+=("$1")
	par_start "$@"
}
# sig_run <signal>: a run sent the signal once it got going, as a job of
# the pool: whether it got going (wait_iter's status) in
# $TEST_TMP/sig<signal>.going, its pid in .pid, and its exit status the
# job's; its checks are in the last section
sig_run() {
	local out=$TEST_TMP/sig$1 pid

	"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 -p2 bpf_ma >"$out" 2>"$out.err" &
	pid=$!
	echo "$pid" >"$out.pid"
	wait_iter "$out" "$pid" 30
	echo $? >"$out.going"
	kill -"$1" "$pid"
	wait "$pid"
}
pool_start "$TEST_TMP/rep" "$BENCH" -w0 -d1 --repeat 2 --json "$TEST_TMP/rep.json" bpf_ma
for sig in INT TERM; do
	pool_start "$TEST_TMP/job.sig$sig" sig_run "$sig"
done
pool_start "$TEST_TMP/lat" "$BENCH" -w0 -d1 -p1 --latency --json "$TEST_TMP/lat.json" bpf_ma --obj-size 4096 --batch-size 16
pool_start "$TEST_TMP/ns" unshare -p -f --mount-proc "$BENCH" -w0 -d1 -p2 --json "$TEST_TMP/ns.json" bpf_ma
bad_run "$TEST_TMP/bad.size100" -w0 -d1 bpf_ma --obj-size 100
bad_run "$TEST_TMP/bad.sizeabc" -w0 -d1 bpf_ma --obj-size abc
bad_run "$TEST_TMP/bad.batch0" -w0 -d1 bpf_ma --batch-size 0
bad_run "$TEST_TMP/bad.batch8193" -w0 -d1 bpf_ma --batch-size 8193
if has_kfunc bpf_percpu_obj_new_impl; then
	bad_run "$TEST_TMP/bad.percpu1024" -w0 -d1 bpf_ma --percpu --obj-size 1024
fi
bad_run "$TEST_TMP/bad.p1024" -w0 -d1 -p1024 bpf_ma --batch-size 8192
for f in "${flavours[@]}"; do
	opt=()
	[ -n "$f" ] && opt=("$f")
	for sz in $(sizes_of "$f"); do
		pool_start "$TEST_TMP/sz$f$sz" env BENCH_TEST_EXIT_AFTER_SETUP=1 \
			"$BENCH" -w0 -d1 bpf_ma "${opt[@]}" --obj-size "$sz"
	done
done
for out in "${POOL[@]}"; do
	par_wait "$out"
	RC[$out]=$?
	PID[$out]=$RUN_PID
done

bad_check "$TEST_TMP/bad.size100" "--obj-size 100" \
	"object size '100'.*16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096\$"
bad_check "$TEST_TMP/bad.sizeabc" "--obj-size abc" "object size 'abc'"
bad_check "$TEST_TMP/bad.batch0" "--batch-size 0" "batch size '0'.*1\\.\\.8192"
bad_check "$TEST_TMP/bad.batch8193" "--batch-size 8193" "batch size '8193'.*1\\.\\.8192"
if has_kfunc bpf_percpu_obj_new_impl; then
	bad_check "$TEST_TMP/bad.percpu1024" "--percpu --obj-size 1024" \
		"object size 1024 with --percpu.*16, 32, 64, 96, 128, 192, 256, 512\$"
fi
bad_check "$TEST_TMP/bad.p1024" "-p 1024 --batch-size 8192" "batch size 8192 with -p 1024: at most 4194304 slots"

# ---- every size of each flavour loads and attaches ----
for f in "${flavours[@]}"; do
	bad=""
	for sz in $(sizes_of "$f"); do
		out=$TEST_TMP/sz$f$sz
		[ "${RC[$out]}" -eq 0 ] || bad="$bad $sz($(tail -n1 "$out.err"))"
		last=${PID[$out]}
	done
	is "${bad:-none}" none "bpf_ma ${f:-(kmalloc)}: every --obj-size loads and attaches"
	# the last size's cgroup, and any program of any size
	check_clean "$last" "bpf_ma ${f:-(kmalloc)} sizes"
done

# ---- the wrapper: the posted loop, both flavours ----
# Its four runs (-w0 -d1, -p1 and -p2, kmalloc then --percpu) are the
# configurations of the real runs below, which check them as their own
# (lib.sh's shared_runs: four -w0 -d1 runs fewer).
SHARED=$TEST_TMP/shared
if has_kfunc bpf_percpu_obj_new_impl; then
	out=$TEST_TMP/wrap
	PRODUCERS="1 2" RUN_BENCH=$(shared_runs "$SHARED" -w0 -d1) benchs/run_bench_bpf_ma.sh >"$out" 2>"$out.err"
	ok $? "run_bench_bpf_ma.sh: exits 0"
	is "$(grep -cE "^-p[12] +per-prod alloc +$NUM ± ${NUM}M/s free +$NUM ± ${NUM}M/s, total memory usage +$NUM ± ${NUM}MiB\$" "$out")" 4 \
		"run_bench_bpf_ma.sh: a Summary per producer count and flavour"
	is "$(grep -c '^bpf_ma' "$out")" 2 "run_bench_bpf_ma.sh: a header per flavour (kmalloc, --percpu)"
	check_clean "" "run_bench_bpf_ma.sh"
fi

# ---- real runs: the posted shape, and every object allocated is freed ----
# run_facts <json>: what the checks read of a run's JSON, in one jq (a jq
# costs a tenth of a second on a loaded machine, and a run's checks had a
# dozen): FACT[<key>] is what a jq of that expression alone printed (JSON
# for all but strings), unset when it failed.  counts_ok: the whole run's
# counts add up, and hold the samples'.
declare -A FACT
run_facts() {
	local k v

	FACT=()
	while IFS=$'\t' read -r k v; do
		FACT[$k]=$v
	done < <(jq -r 'def fact(k; e): try "\(k)\t\(e | if type == "string" then . else tojson end)" catch empty;
		def after_peak(rest; peak): if rest / 1048576 >= peak then "not below" else "peak \(peak), after \(rest / 1048576)" end;
		fact("counts_ok"; .counts as $c | $c.allocated > 0 and $c.allocated == $c.freed and $c.stale == 0 and
			([.samples[].counters.hits] | add) <= $c.allocated and
			([.samples[].counters.hits] | add) > 0),
		fact("counts"; .counts),
		fact("allocated_freed"; "\(.counts.allocated) \(.counts.freed)"),
		fact("growth_ok"; [.samples[].metrics | .sys_slab_growth, .sys_percpu_growth] | all(. >= 0)),
		fact("floor"; .counts.memory_floor_bytes),
		fact("below_sys_slab_growth"; .summary.metrics.sys_slab_growth.mean * 1048576 < .counts.memory_floor_bytes),
		fact("below_sys_percpu_growth"; .summary.metrics.sys_percpu_growth.mean * 1048576 < .counts.memory_floor_bytes),
		fact("flagged"; .counts.memory_below_floor == 1),
		fact("alloc_failed"; .counts.alloc_failed_batches > 0),
		fact("options"; .options.benchmark),
		fact("latency_ok"; .latency.triggers > 0 and .latency.triggers * 16 <= .counts.allocated),
		fact("footprint_frees_slab"; .counts.footprint_frees_slab),
		fact("footprint_frees_percpu"; .counts.footprint_frees_percpu),
		fact("footprint_untracked"; .counts.footprint_untracked),
		# after the run against the peak of the samples, both as the Footprint line has them
		fact("footprint_after_slab"; after_peak(.counts.footprint_rest_slab_bytes; .summary.metrics.footprint_slab.max)),
		fact("footprint_after_percpu"; after_peak(.counts.footprint_rest_percpu_bytes; .summary.metrics.footprint_percpu.max)),
		fact("footprint_option"; .options.benchmark.footprint)' "$1")
}

# counts_ok: run_facts' verdict on the counts
counts_ok() {
	[ "${FACT[counts_ok]:-}" = true ]
}

# possible_cpus: how many CPUs the kernel's per-CPU areas are made for
possible_cpus() {
	awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += n == 2 ? r[2] - r[1] + 1 : 1 } }
		END { print c }' /sys/devices/system/cpu/possible
}

# floor_ok <out> <producers> <per-CPU bytes and CPUs, or ""> <name>: (after
# run_facts of the run) the
# floor in JSON is a batch of 64 per producer, of 128-byte objects (per-CPU:
# 120 data bytes on each possible CPU); the figure is flagged below it
# exactly when its mean is, and then the warning says so on stderr
floor_ok() {
	local out=$1 p=$2 pc=$3 name=$4 want metric below bytes cpus

	if [ -n "$pc" ]; then
		read -r bytes cpus <<<"$pc"
		want=$((64 * p * bytes * cpus)) metric=sys_percpu_growth
	else
		want=$((64 * p * 128)) metric=sys_slab_growth
	fi
	is "${FACT[floor]:-}" "$want" "$name: the memory floor is a batch per producer"
	below=${FACT[below_$metric]:-}
	is "${FACT[flagged]:-}" "$below" "$name: below the floor exactly when the figure is"
	is "$(grep -c '^warning: bpf_ma.s total memory usage .* is below the .* MiB the run.s stashed objects occupy' "$out.err")" \
		"$([ "$below" = true ] && echo 1 || echo 0)" "$name: a warning exactly when below the floor"
	diag "floor $want bytes, below: $below"
	host_only "$name: export kcidb of the figure" || return 0
	# KCIDB gets the figure only when it is one: below the floor, an ERROR without a number
	"$BENCH" export kcidb --origin bench_test "$out.json" >"$out.kcidb" 2>&1
	is "$(jq -r --arg m "$metric" '.tests[] | select(.path | endswith("." + $m)) | "\(.status) \(.number != null)"' "$out.kcidb")" \
		"$([ "$below" = true ] && echo "ERROR false" || echo "DONE true")" \
		"$name: export kcidb: $metric $([ "$below" = true ] && echo "ERROR, no number" || echo "DONE, its number")"
}

CPUS=$(possible_cpus)
for f in "${flavours[@]}"; do
	for p in 1 2; do
		name="bpf_ma ${f:---kmalloc} -p$p"
		out=$TEST_TMP/run
		opt=()
		[ -n "$f" ] && opt=("$f")
		# the wrapper's run of this configuration, when it ran above
		if shared_take "$SHARED/-p${p}_bpf_ma${f:+_$f}" "$out"; then
			(exit "$SHARED_RC")
		else
			run_ma "$out" -w0 -d1 -p"$p" --json "$out.json" bpf_ma "${opt[@]}"
		fi
		ok $? "$name: exits 0"
		[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(head -c 1000 "$out.err")"
		s=$(last_summary "$out")
		diag "$s"
		diag "$(grep -E '^(Allocator|Memory):' "$out")"
		like "$out" "$SUMMARY_RE" "$name: the posted Summary shape"
		like "$out" "$ALLOC_RE" "$name: the Allocator line"
		run_facts "$out.json"
		counts_ok
		ok $? "$name: allocated == freed, nothing stale, and they hold every sample's allocations"
		diag "counts: ${FACT[counts]:-}"
		# the Allocator line's counts are the JSON's
		a=$(grep '^Allocator:' "$out" | sed -E 's/.*, ([0-9]+) objects allocated, ([0-9]+) freed$/\1 \2/')
		is "${a:-no Allocator line}" "${FACT[allocated_freed]:-}" \
			"$name: the line's counts are the JSON's"
		is "$([ -s "$out.json" ] && jq -r -f tests/schema.jq "$out.json" || echo "no JSON")" "" \
			"$name: the JSON follows the schema"
		[ "${FACT[growth_ok]:-}" = true ]
		ok $? "$name: memory growth is never negative (the baseline is the lowest level seen)"
		floor_ok "$out" "$p" "${f:+120 $CPUS}" "$name"
		if [ "${FACT[alloc_failed]:-}" = true ]; then
			like "$out" "^Failures: [0-9]+ alloc batches cut short by bpf_(percpu_)?obj_new\(\) returning NULL" \
				"$name: failed allocations are said"
		fi
		is "${FACT[options]:-}" \
			"{\"percpu\":$([ -n "$f" ] && echo true || echo false),\"obj_size\":128,\"batch_size\":64,\"footprint\":false,\"memory_source\":\"/proc/meminfo $([ -n "$f" ] && echo Percpu || echo SUnreclaim)\"}" \
			"$name: the posted defaults and the memory source in the JSON options"
		check_clean "$RUN_PID" "$name"
	done
done
cp "$TEST_TMP/run.json" "$TEST_TMP/a.json"

# The first --footprint run (its section's first try, kmalloc) starts
# now, in the background, and its section waits for it: until then only
# checks go on beside it, of a run below its floor and of the --latency
# and --repeat runs (jq, python, bench export), none of which loads a
# program or allocates from the BPF memory allocator, whose every
# allocation on the machine it counts.
# fp_run <out> [--percpu]: the section's --footprint run, in the background
# (its pid in RUN_PID)
fp_run() {
	"$BENCH" -w0 -d2 -p1 --json "$1.json" bpf_ma "${@:2}" --footprint --batch-size 256 >"$1" 2>"$1.err" &
	RUN_PID=$!
}
fp_run "$TEST_TMP/fp"
FP_AHEAD=$RUN_PID

# a run below its floor, whichever the runs above were: KCIDB gets an ERROR
# saying why, never the figure as a number; the report validates
if host_only "export kcidb of a run below its floor"; then
	jq '.counts.memory_below_floor = 1' "$TEST_TMP/a.json" >"$TEST_TMP/below.json"
	"$BENCH" export kcidb --origin bench_test "$TEST_TMP/below.json" >"$TEST_TMP/below.kcidb"
	ok $? "below the floor: export kcidb exits 0"
	"$KCIDB_VALIDATE" "$KCIDB_SCHEMA" "$TEST_TMP/below.kcidb" >"$TEST_TMP/below.verdict" 2>&1
	ok $? "below the floor: the KCIDB report validates"
	m=$(jq -r 'if .options.benchmark.percpu then "sys_percpu_growth" else "sys_slab_growth" end' "$TEST_TMP/a.json")
	is "$(jq -r --arg m "$m" '.tests[] | select(.path | endswith("." + $m)) | "\(.status) \(.number != null) \(.misc.invalid != null)"' "$TEST_TMP/below.kcidb")" \
		"ERROR false true" "below the floor: $m is an ERROR without a number, misc.invalid says why"
	like "$TEST_TMP/below.kcidb" "\"comment\": \"bpf_ma [^\"]*: $m: below the memory its stashed objects occupy" "below the floor: the comment says so"
	is "$(jq '[.tests[] | select(.status == "DONE" and (.path | test("\\.(alloc|free)$")))] | length' "$TEST_TMP/below.kcidb")" 2 \
		"below the floor: its rates are still DONE"
fi

# The --latency, --repeat and pid namespace runs ran side by side at the
# start (their checks are of their own counts and lines, none of a memory
# figure, which another run beside would change).

# another batch and size, with --latency: each trigger is timed, 2 x batch ops
out=$TEST_TMP/lat
ok "${RC[$out]}" "--obj-size 4096 --batch-size 16 --latency: exits 0"
run_facts "$out.json"
counts_ok
ok $? "--obj-size 4096 --batch-size 16: allocated == freed"
like "$out" '^Latency: per-op p50 .* \([0-9]+ triggers, 32 ops each\)$' "--latency: per op of 16 allocs and 16 frees"
[ "${FACT[latency_ok]:-}" = true ]
ok $? "--latency: the timed triggers are at most the allocations / batch"

# --repeat: one state, a new measured phase; the cross-check once
out=$TEST_TMP/rep
ok "${RC[$out]}" "--repeat 2: exits 0"
is "$(grep -c '^Repeat [12]/2: Summary: per-prod alloc' "$out")" 2 "--repeat 2: each repeat's Summary"
run_facts "$out.json"
counts_ok
ok $? "--repeat 2: allocated == freed over both"

# ---- --footprint: the allocator's own bytes, counted exactly ----
FP_RE="^Footprint: slab $NUM MiB \\(peak $NUM, after the run $NUM\\), percpu $NUM MiB \\(peak $NUM, after the run $NUM\\): the allocator's own kmalloc\\(\\) and per-CPU bytes held, counted exactly\$"
for f in "${flavours[@]}"; do
	name="bpf_ma ${f:---kmalloc} --footprint"
	kind=slab
	[ -n "$f" ] && kind=percpu
	out=$TEST_TMP/fp
	opt=()
	[ -n "$f" ] && opt=("$f")
	# A run may count no free at all, whatever the batch: the allocator
	# can keep and reuse everything it is given back.  This very command
	# counted none in 1 of 8 runs, and with --percpu in 3 of 8, on a quiet
	# machine (2026-12-03; after one-second runs that counted none, none
	# came in the next 60 s either).  A run without a free is checked for
	# what that means, a figure after the run not below the peak,
	# and the free side is checked on the first of up to six runs that saw
	# one: a 3-in-8 chance six times over is about 1 in 360.
	for try in 1 2 3 4 5 6; do
		# kmalloc's first: started ahead, above
		if [ -n "$f" ] || [ "$try" -gt 1 ]; then
			fp_run "$out" "${opt[@]}"
		else
			RUN_PID=$FP_AHEAD
		fi
		wait "$RUN_PID"
		ok $? "$name (run $try): exits 0"
		[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(head -c 1000 "$out.err")"
		diag "$(grep -E '^(Summary|Footprint):' "$out")"
		like "$out" "$FP_RE" "$name (run $try): the Footprint line"
		# No claim that the peak reaches the stashed batch: the allocator is
		# warm from the runs above (its global caches live until reboot), and
		# objects it cached before attach are rightly not counted, so a batch
		# may be served partly by them; and a sample is an instant, not the
		# moment a trigger holds its batch (CI failed on that claim once).
		run_facts "$out.json"
		diag "counts: ${FACT[counts]:-}"
		is "${FACT[footprint_untracked]:-}" 0 "$name (run $try): every allocation tracked"
		is "${FACT[footprint_option]:-}" true "$name (run $try): in the JSON options"
		is "$(jq -r -f tests/schema.jq "$out.json")" "" "$name (run $try): the JSON follows the schema"
		check_clean "$RUN_PID" "$name (run $try)"
		[ "${FACT[footprint_frees_$kind]:-}" != 0 ] && break
		# nothing given back, so nothing dropped: after the run at least the peak
		is "${FACT[footprint_after_$kind]:-}" "not below" "$name (run $try): no free counted, after the run >= peak"
	done
	# the frees were seen, not only the allocations
	cmp_num "${FACT[footprint_frees_$kind]:-}" '>' 0 "$name: frees of its $kind objects were counted (run $try of at most 6)"
done
# without it: no footprint line, and the metric is not measured (null), not 0
is "$(grep -c '^Footprint:' "$TEST_TMP/run")" 0 "without --footprint: no Footprint line"
is "$(jq -c '[.samples[].metrics.footprint_slab] | unique' "$TEST_TMP/run.json")" "[null]" \
	"without --footprint: footprint_slab is null in every sample"

# ---- compare and plot take its results ----
"$BENCH" compare --verbose "$TEST_TMP/a.json" "$TEST_TMP/run.json" >"$TEST_TMP/cmp" 2>&1
ok $? "compare: two bpf_ma runs"
like "$TEST_TMP/cmp" '^alloc \(M/s\) ' "compare: the alloc rate"
like "$TEST_TMP/cmp" '^sys_percpu_growth \(MiB\) |^sys_slab_growth \(MiB\) ' "compare: the memory growth"

# ---- inside a pid namespace ----
out=$TEST_TMP/ns
ok "${RC[$out]}" "in a new pid namespace: exits 0"
run_facts "$out.json"
counts_ok
ok $? "in a new pid namespace: the producers were seen, allocated == freed"
assert "in a new pid namespace: no cgroup left" \
	[ -z "$(compgen -G "$CG_PARENT/bench-bpf_ma.*" 2>/dev/null)" ]

# ---- a signal mid-run: torn down, nothing left ----
# (the runs: sig_run's, side by side with the others at the start)
for sig in INT TERM; do
	out=$TEST_TMP/sig$sig
	going=$(cat "$out.going" 2>/dev/null) || going=1
	ok "$going" "SIG$sig: the run got going"
	want=130
	[ "$sig" = TERM ] && want=143
	is "${RC[$TEST_TMP/job.sig$sig]}" "$want" "SIG$sig: exit $want"
	check_clean "$(cat "$out.pid")" "SIG$sig mid-run"
done

done_testing
