#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The assertions of tests/lib.sh fail when they should, and say why.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
LIB="$TESTS_DIR/lib.sh"

# verdict <check...>: run one check in a subshell whose TAP counters
# start again, as in a test of its own; its TAP line ("ok" or "not ok")
# on stdout, its diagnostics in $TEST_TMP/diag.  A subshell, not a bash
# that sources lib.sh again: that set-up (a dozen processes) for each of
# the 60 checks was most of this file's time.
verdict() {
	# shellcheck disable=SC2034 # lib.sh's, which the check reads
	(TAP_N=0 TAP_FAILED=0 TAP_LAST_FAILED=0; "$@") 2>"$TEST_TMP/diag" |
		sed -nE 's/^(ok|not ok) 1 - .*/\1/p'
}

is "$(verdict is 2 2 d)" "ok" "is: equal strings pass"
is "$(verdict is 2 3 d)" "not ok" "is: different strings fail"
like "$TEST_TMP/diag" "^#      got: '2'$" "is: a failure says what it got"
like "$TEST_TMP/diag" "^# expected: '3'$" "is: and what it expected"
is "$(verdict is "" 0 d)" "not ok" "is: empty is not 0"
is "$(verdict isnt 2 3 d)" "ok" "isnt: different strings pass"
is "$(verdict isnt 0 0 d)" "not ok" "isnt: equal strings fail"
like "$TEST_TMP/diag" "^# expected: anything but '0'$" "isnt: a failure says what it did not want"

is "$(verdict cmp_ok 10 -ge 10 d)" "ok" "cmp_ok: 10 -ge 10"
is "$(verdict cmp_ok 9 -ge 10 d)" "not ok" "cmp_ok: 9 -ge 10 fails"
like "$TEST_TMP/diag" "^# expected: -ge '10'$" "cmp_ok: a failure names the comparison"
is "$(verdict cmp_ok -3 -lt 0 d)" "ok" "cmp_ok: negative numbers"
is "$(verdict cmp_ok abc -eq 0 d)" "not ok" "cmp_ok: a non-integer fails a numeric comparison"
is "$(verdict cmp_ok 1.5 -gt 0 d)" "not ok" "cmp_ok: so does a decimal"
is "$(verdict cmp_ok a == a d)" "ok" "cmp_ok: string =="
is "$(verdict cmp_ok a != a d)" "not ok" "cmp_ok: string != fails on equal strings"
is "$(verdict cmp_ok 1 '<' 2 d)" "not ok" "cmp_ok: an unknown operator fails"
like "$TEST_TMP/diag" "unknown operator '<'" "cmp_ok: and says so"

is "$(verdict cmp_num 1.5 '>' 0 d)" "ok" "cmp_num: 1.5 > 0"
is "$(verdict cmp_num 1e-3 '<' 0.01 d)" "ok" "cmp_num: an exponent is a number"
is "$(verdict cmp_num 0 '>' 0 d)" "not ok" "cmp_num: 0 > 0 fails"
like "$TEST_TMP/diag" "^# expected: > 0$" "cmp_num: a failure names the comparison"
is "$(verdict cmp_num "" '>=' 0 d)" "not ok" "cmp_num: nothing extracted is not 0"
is "$(verdict cmp_num nan '>' 0 d)" "not ok" "cmp_num: nan is not a number (awk alone takes it for one above 0)"
is "$(verdict cmp_num null '>=' 0 d)" "not ok" "cmp_num: nor is jq's null"
is "$(verdict cmp_num 2 '>=' "" d)" "not ok" "cmp_num: an expected value that is not a number fails too"
is "$(verdict cmp_num 1 '-gt' 0 d)" "not ok" "cmp_num: an unknown operator fails"
is "$(verdict is_near 1.0004 1 0.0005 d)" "ok" "is_near: within the tolerance"
is "$(verdict is_near 1.0006 1 0.0005 d)" "not ok" "is_near: outside it"
like "$TEST_TMP/diag" "^# expected: '1' within 0.0005$" "is_near: a failure says what it wanted"
is "$(verdict is_near 99.5 100 1% d)" "ok" "is_near: a relative tolerance"
is "$(verdict is_near 98.5 100 1% d)" "not ok" "is_near: outside a relative tolerance"
is "$(verdict is_near "" "" 1% d)" "not ok" "is_near: two empty strings are not near"
is "$(verdict is_near null null 0.1 d)" "not ok" "is_near: nor two nulls"

# waits and probes that cannot pass on what they could not read
printf 'Setting up\nIter 0\n' >"$TEST_TMP/run.out"
wait_for "$TEST_TMP/run.out" '^Iter' $$ 1
is $? 0 "wait_for: a line already there"
wait_for "$TEST_TMP/run.out" '^Summary' $$ 1
is $? 1 "wait_for: fails at its limit"
true &
gone=$!
wait "$gone"
wait_for "$TEST_TMP/run.out" '^Summary' "$gone" 10
is $? 1 "wait_for: fails at once when the process is gone without the line"
# nap sleeps on a FIFO nothing arrives on: one that returned at once would
# make the watchdog interrupt every run it watches
assert "nap: the FIFO it reads is open" [ -n "$NAP_FD" ]
t0=$(date +%s%N)
nap 0.3
cmp_ok $((($(date +%s%N) - t0) / 1000000)) -ge 300 "nap 0.3: no return before its time (ms)"
mkdir -p "$TEST_TMP/bin"
printf '#!/bin/sh\necho "Error: cannot list programs" >&2\nexit 255\n' >"$TEST_TMP/bin/bpftool"
chmod +x "$TEST_TMP/bin/bpftool"
PATH="$TEST_TMP/bin:$PATH" loaded_bench_progs 'x'
is $? 1 "loaded_bench_progs: a bpftool that fails is not a count of 0"
PATH="$TEST_TMP/bin:$PATH" none_loaded 'x'
is $? 1 "none_loaded: nor is it 'none loaded'"
printf '#!/bin/sh\necho "7: tracepoint  name other  tag 0"\necho "8: tracepoint  name mine  tag 0"\n' >"$TEST_TMP/bin/bpftool"
is "$(PATH="$TEST_TMP/bin:$PATH" loaded_bench_progs 'mine|ours')" 1 "loaded_bench_progs: counts the names matched"
PATH="$TEST_TMP/bin:$PATH" none_loaded 'ours'
is $? 0 "none_loaded: a listing without the names"
out=$(PATH="$TEST_TMP/bin:$PATH" loaded_bench_progs 'mine|(')
is "$?:$out" "1:" "loaded_bench_progs: a name regex that is not one fails, printing nothing"
printf '#!/bin/sh
' >"$TEST_TMP/bin/bpftool"
is "$(PATH="$TEST_TMP/bin:$PATH" loaded_bench_progs 'mine')" 0 "loaded_bench_progs: no program loaded, 0"
cmp_ok "$(tracefs_mounts)" -ge 0 "tracefs_mounts: a count"
echo '{}' >"$TEST_TMP/notresult.json"
is "$(verdict schema_ok "$TEST_TMP/notresult.json" d)" "not ok" "schema_ok: a document that is not a result fails"
is "$(verdict schema_ok "$TEST_TMP/missing.json" d)" "not ok" "schema_ok: so does a missing file"

# the wrappers' parser, as the tests reach it
out='Repeat 1/2: Summary: hits 1.000 ± 0.100M/s (1.000M/prod), drops 0.000 ± 0.000M/s
Repeat 2/2: Summary: hits 2.000 ± 0.200M/s (2.000M/prod), drops 0.000 ± 0.000M/s
Repeats: hits 1.50 ± 0.71 M/s between 2 repeats (CV 47.14%), within repeats ± 0.16 M/s (CV 10.54%)'
run_common summary_line "$out" >/dev/null
is $? 1 "summary_line: a --repeat run has no bare Summary line"
is "$(run_common summary_line "$out" 2)" "Summary: hits 2.000 ± 0.200M/s (2.000M/prod), drops 0.000 ± 0.000M/s" \
	"summary_line OUTPUT 2: repeat 2's Summary, without its prefix"
is "$(run_common field_num "$(run_common summary_line "$out" 1)" hits)" 1.000 "field_num: repeat 1's hits"
is "$(run_common repeats_field "$out" hits)" "1.50 ± 0.71M/s (2 repeats; within ± 0.16M/s)" \
	"repeats_field: the two levels of a metric"
run_common repeats_field "$out" drops >/dev/null
is $? 1 "repeats_field: fails for a metric without a Repeats line"
is "$(last_summary <(printf 'Summary: a 1\nSummary: a 2\n'))" "Summary: a 2" "last_summary: the last Summary line"

is "$(verdict is_exit 3 d sh -c 'echo out; echo err >&2; exit 3')" "ok" "is_exit: the expected status passes"
is "$(verdict is_exit 0 d sh -c 'echo oops >&2; exit 1')" "not ok" "is_exit: another status fails"
like "$TEST_TMP/diag" "^# stderr: oops$" "is_exit: a failure shows the command's stderr"

# diag: "# " before every line, blank ones too, on stdout, and on stderr
# after a failed check
is "$( (TAP_LAST_FAILED=0; diag "a
b

c") 2>/dev/null)" "# a
# b
# 
# c" "diag: every line prefixed, a blank one too"
# shellcheck disable=SC2016 # the backslash is diag's to print
is "$( (TAP_LAST_FAILED=0; diag -n; diag -e 'a\tb') 2>/dev/null)" '# -n
# -e a\tb' "diag: a text that looks like echo's options, printed as it is"
# shellcheck disable=SC2034 # lib.sh's, which diag reads
is "$( (TAP_LAST_FAILED=1; diag "x") 2>&1 >/dev/null)" "# x" "diag: on stderr after a failed check"

# the hook and grace periods lines: one well-formed of each at most, no
# grace periods without a hook, the rest kept in order; stderr_clean
# takes runner warnings and blank lines at the end, nothing else
hook_case() {	# hook_case <stderr text>: "<strip status>:<its output>:<stderr_clean status>"
	local f=$TEST_TMP/hook.err out rc=0

	printf '%b' "$1" >"$f"
	out=$(strip_hook_line "$f") || rc=$?
	stderr_clean "$f"
	echo "$rc:${out//$'\n'/|}:$?"
}
H='hook: tp/syscalls/sys_enter_getpgid (--hook tracepoint)'
G='grace periods: not measured (no fentry)'
is "$(hook_case "$H\nwarning: noisy\n")" "0:warning: noisy:0" "hook lines: a hook line and a warning: stripped, clean"
is "$(hook_case "warning: a\n$H\n$G\nwarning: b")" "0:warning: a|warning: b:0" \
	"hook lines: hook and grace periods lines stripped, the rest in order, a last line without newline kept"
is "$(hook_case "")" "0::0" "hook lines: an empty file is clean"
is "$(hook_case "warning: a\n\n\n")" "0:warning: a:0" "hook lines: blank lines at the end are clean"
is "$(hook_case "warning: a\n\nwarning: b\n")" "0:warning: a||warning: b:1" "hook lines: a blank line between is not"
is "$(hook_case "$H\nerror: x\n")" "0:error: x:1" "hook lines: anything but a warning is not clean"
is "$(hook_case "$H\n$H\n")" "1::1" "hook lines: two hook lines fail"
is "$(hook_case "hook: kprobe/x\n")" "1::1" "hook lines: a malformed hook line fails"
is "$(hook_case "$G\n")" "1::1" "hook lines: grace periods without a hook line fail"
is "$(hook_case "$H\ngrace periods: soon\n")" "1::1" "hook lines: a malformed grace periods line fails"
# read once: a pipe (here a process substitution) gives its lines to one
# reader only (the greps stderr_clean once ran read it four times, and
# all but the first saw nothing: anything passed)
stderr_clean <(printf 'warning: a\nerror: b\n')
is $? 1 "stderr_clean: a pipe's lines are checked"
rm -f "$TEST_TMP/hook.err"
is "$(out=$(strip_hook_line "$TEST_TMP/hook.err" 2>/dev/null); echo "$?:$out")" "1:" "hook lines: a file that cannot be read fails"

# host_only: true on the host; in a guest one skip line and false
# shellcheck disable=SC2016 # $1 is the inner shell's
out=$(env -u BENCH_TEST_IN_VM BENCH=/bin/true bash -c 'source "$1"; host_only "x" && echo yes' _ "$LIB")
is "$out" "yes" "host_only: true without BENCH_TEST_IN_VM, and says nothing"
# shellcheck disable=SC2016 # $1 is the inner shell's
out=$(BENCH_TEST_IN_VM=1 BENCH=/bin/true bash -c 'source "$1"; host_only "the thing" || echo no' _ "$LIB")
is "$out" "ok 1 - the thing # SKIP userspace alone: make test checks it on the host
no" "host_only: in a guest, one skip line and false"

# tests run from any clone: none reads what sits beside the checkout, but
# lkp_bpf_bench.t, which runs lkp's own run-stats from an lkp-tests checkout
# (LKP_SRC, else the snapshot in ../shared: lkp-tests is not vendored), skips
# without one outside CI and fails without one under CI=true
ROOT=$SRC_TOP
is "$(cd "$ROOT" && grep -rlF '../shared' tests scripts benchs Makefile .ci |
	grep -v -e '^tests/lib_sh.t$' -e '^tests/lkp_bpf_bench.t$')" "" \
	"no test, script or build file reads ../shared, but the lkp-tests one"
grep -q 'CI:-}" = "true"' "$ROOT/tests/lkp_bpf_bench.t"
is $? 0 "lkp_bpf_bench.t fails under CI=true when it finds no lkp-tests"

# par_start/par_wait: each run's status and output under its own name, and
# no more than PAR_WIDTH at once, yet that many: every run waits (10 s at
# most) until it sees two runs alive, which one at a time never would, and
# notes the most it saw
# shellcheck disable=SC2034 # par_start reads it
PAR_WIDTH=2
mkdir "$TEST_TMP/live"
pair() {	# pair <status>: the run par_start starts
	exec sh -c 'touch "$1/$$"; max=0; i=0
		while [ $i -lt 200 ]; do
			n=$(ls "$1" | wc -l); [ "$n" -gt "$max" ] && max=$n
			[ "$n" -ge 2 ] && break
			sleep 0.05; i=$((i + 1))
		done
		sleep 0.1; n=$(ls "$1" | wc -l); [ "$n" -gt "$max" ] && max=$n
		rm "$1/$$"; echo "$$ $max"; echo "to stderr $2" >&2
		[ "$max" -ge 2 ] && exit "$2"; exit 99' _ "$TEST_TMP/live" "$1"
}
i=0
PAIRS=()
for k in 0 3 0 5; do
	i=$((i + 1))
	PAIRS+=("$TEST_TMP/par$k.$i")
	par_start "${PAIRS[-1]}" pair "$k"
done
# each run by its name (a glob of the files missed the last run, whose
# shell had not yet made its output file when the glob was read)
seen=""
for out in "${PAIRS[@]}"; do
	k=${out##*/par}
	k=${k%%.*}
	par_wait "$out"
	is "$?" "$k" "par_wait: the status of the run that exits $k, which saw two runs alive"
	is "$(cut -d' ' -f1 "$out")" "$RUN_PID" "par_wait: RUN_PID is the pid of the run that wrote $out"
	is "$(cat "$out.err")" "to stderr $k" "par_start: its stderr in $out.err"
	seen="$seen $(cut -d' ' -f2 "$out")"
done
is "$(tr ' ' '\n' <<<"$seen" | sort -n | tail -1)" 2 "par_start: never more than PAR_WIDTH runs at once"
par_wait "$TEST_TMP/never" 2>/dev/null
is "$?" 255 "par_wait: a run never started fails"
# runs that ended before the next par_start, and that bash has dropped
# from its jobs since (an async job after them, then a foreground
# command): wait -n passes them over, and par_start must still reap them,
# go on, and leave their statuses to par_wait; in a subshell, since bash
# abandons the rest of a command on an empty array subscript
out=$(
	exec 2>"$TEST_TMP/gone.err"
	par_start "$TEST_TMP/gone1" sh -c 'exit 3'
	par_start "$TEST_TMP/gone2" true
	while kill -0 "${PAR_PID[$TEST_TMP/gone1]}" 2>/dev/null || kill -0 "${PAR_PID[$TEST_TMP/gone2]}" 2>/dev/null; do
		nap 0.05
	done
	/bin/true &
	wait $!
	/bin/true
	par_start "$TEST_TMP/gone3" sh -c 'exit 5'
	for k in 1 2 3; do
		par_wait "$TEST_TMP/gone$k"
		printf '%s ' "$?"
	done
	echo "and on"
)
is "$out" "3 0 5 and on" "par_start: runs bash has dropped from its jobs are reaped, and the checks go on"
is "$(cat "$TEST_TMP/gone.err")" "" "par_start: and nothing on stderr"
# _par_reap_one itself, given runs bash has dropped (wait -n names none):
# it waits for each by its pid
out=$(
	exec 2>"$TEST_TMP/gone.err"
	sh -c 'exit 4' &
	a=$!
	sh -c 'exit 6' &
	b=$!
	while kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null; do nap 0.05; done
	/bin/true &
	wait $!
	/bin/true
	# shellcheck disable=SC2034 # _par_reap_one reads it
	PAR_LIVE=("$a" "$b")
	_par_reap_one
	echo "${PAR_RC[$a]:-none} ${PAR_RC[$b]:-none}"
)
is "$out" "4 6" "_par_reap_one: runs wait -n cannot name are waited for by their pids"

# par_queue/par_feed/par_take: PAR_WIDTH (2) runs ahead of the takes, no
# more; each take returns its own run's status and starts the next; a take
# of a run not yet started starts it, with those queued before it; a
# reaper given is the one that reaps; par_feed_all, and par_feed in a
# guest, start them all
for k in 1 2 3 4; do
	# shellcheck disable=SC2016 # $1 is the inner shell's
	par_queue par_start "$TEST_TMP/q$k" sh -c 'exit "$1"' _ "$k"
done
BENCH_TEST_IN_VM=0 par_feed
is "$PAR_QNEXT" 2 "par_feed: PAR_WIDTH runs started ahead, no more"
BENCH_TEST_IN_VM=0 par_take "$TEST_TMP/q1"
is "$?.$PAR_QNEXT" 1.3 "par_take: its run's status, and the next queued run started"
BENCH_TEST_IN_VM=0 par_take "$TEST_TMP/q4"
is "$?.$PAR_QNEXT" 4.4 "par_take: a run not yet started is started, with those queued before it"
BENCH_TEST_IN_VM=0 par_take "$TEST_TMP/q2"
is $? 2 "par_take: a run started ahead, taken later"
reaper() { REAPED=$1; par_wait "$1"; }
BENCH_TEST_IN_VM=0 par_take "$TEST_TMP/q3" reaper
is "$?.$REAPED" "3.$TEST_TMP/q3" "par_take: the reaper given reaps"
for k in 5 6 7; do
	par_queue par_start "$TEST_TMP/q$k" true
done
BENCH_TEST_IN_VM=0 par_feed_all
is "$PAR_QNEXT" 7 "par_feed_all: every queued run started"
for k in 8 9 10; do
	par_queue par_start "$TEST_TMP/q$k" true
done
BENCH_TEST_IN_VM=1 par_feed
is "$PAR_QNEXT" 10 "par_feed in a guest: every queued run started"
par_wait_all

# shared_runs/shared_ahead: a run started ahead runs once; the script's
# call waits for it and passes on its output, stderr and status; a call
# not started ahead runs then (a stand-in bench that logs each run and
# exits with its last argument)
cat >"$TEST_TMP/fakebench" <<EOF
#!/bin/sh
echo "\$*" >>"$TEST_TMP/fake.log"
sleep 0.3
echo "out \$*"; echo "err \$*" >&2
for a; do last=\$a; done
exit "\$last"
EOF
chmod +x "$TEST_TMP/fakebench"
RUN=$(BENCH=$TEST_TMP/fakebench shared_runs "$TEST_TMP/shared" -w0)
shared_ahead "$RUN" x 3
"$RUN" x 3 >"$TEST_TMP/sh.out" 2>"$TEST_TMP/sh.err"
is "$?" 3 "shared_ahead: the script's call exits with the status of the run started ahead"
is "$(cat "$TEST_TMP/sh.out")" "out -w0 --json $TEST_TMP/shared/x_3.json x 3" "shared_ahead: and prints its output"
is "$(cat "$TEST_TMP/sh.err")" "err -w0 --json $TEST_TMP/shared/x_3.json x 3" "shared_ahead: and its stderr"
"$RUN" y 0 >/dev/null 2>&1
is "$?" 0 "shared_runs: a call not started ahead runs then"
par_wait_all
is "$(cut -d' ' -f4- "$TEST_TMP/fake.log" | sort | tr '\n' ,)" "x 3,y 0," "shared_ahead: each configuration ran once"

done_testing
