#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_htab_mem.sh end to end with a short RUN_BENCH, started
# from a directory other than the source tree.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

require_bpf


SCRIPT=$SRC_TOP/benchs/run_bench_htab_mem.sh
out="$TEST_TMP/table"

# Runs shared between invocations of the wrapper: --markdown runs the
# same bench configurations as the first invocation, and --repeat 2 those
# of --markdown --repeat 2 (only --json's path differs).  One real run of
# each feeds both: $SHARE, as the first word of RUN_BENCH, records each
# real run (SHARE_MODE=record: its stdout, stderr, exit status and result
# file, under its arguments less --json's), and gives it back to the
# second invocation (SHARE_MODE=replay, its result file at that
# invocation's --json path).  A replay of arguments that were not recorded
# fails the run, so the wrapper's bench command is still checked whole.
SHARE=$TEST_TMP/share
cat >"$SHARE" <<'SH'
#!/bin/bash
json="" key=() args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
	if [ "${args[i]}" = --json ]; then
		i=$((i + 1))
		json=${args[i]}
	else
		key+=("${args[i]}")
	fi
done
d=$SHARE_DIR/$(printf '%s\n' "${key[@]}" | md5sum | cut -c1-32)
if [ "$SHARE_MODE" = record ]; then
	mkdir -p "$d" && printf '%s\n' "${key[@]}" >"$d/args" || exit 125
	"$@" >"$d/out" 2>"$d/err"
	echo $? >"$d/rc"
	[ -z "$json" ] || [ ! -e "$json" ] || cp "$json" "$d/json" || exit 125
else
	if [ ! -e "$d/rc" ] || { [ -n "$json" ] && [ ! -e "$d/json" ]; }; then
		echo "share: no recorded run of: ${key[*]}${json:+ with a result file}" >&2
		exit 125
	fi
	[ -z "$json" ] || cp "$d/json" "$json" || exit 125
fi
cat "$d/out"
cat "$d/err" >&2
exit "$(cat "$d/rc")"
SH
chmod +x "$SHARE"
export SHARE_DIR=$TEST_TMP/shared-runs

# The real runs, made by three invocations side by side (lib.sh's
# par_start, all three at once; each one's runs stay one after another):
# the eight of the first invocation's every use case of both flavours,
# recorded by two invocations of two use cases each, and those of
# --markdown --repeat 2.  They record runs of different arguments and none
# reads another's.  The whole --json-dir invocation, whose output the
# header, order and format checks below read, is then a replay of the
# first two's runs (their --json-dir only makes them record each run's
# result file; its own directory is another); the records are reaped
# before the replays start, the --markdown replay's check of its
# temporary directory would otherwise see --markdown --repeat 2's.
REC=(env -C "$TEST_TMP" SHARE_MODE=record RUN_BENCH="$SHARE $BENCH -w0 -d1 -a" PRODUCERS=2)
par_start "$out.rec1" "${REC[@]}" USE_CASES="overwrite no_op" "$SCRIPT" --json-dir recorded
par_start "$out.rec2" "${REC[@]}" USE_CASES="batch_add_batch_del add_del_on_diff_cpu" \
	"$SCRIPT" --json-dir recorded
# with --repeat the rows keep their ± (between repeats): checked below
par_start "$out.mdr" "${REC[@]}" USE_CASES=overwrite "$SCRIPT" --markdown --repeat 2
par_wait "$out.rec1"
REC_RC=$?
par_wait "$out.rec2"
REC_RC+=" $?"
par_wait "$out.mdr"
MDR_RC=$?

# The replays, side by side too: none makes a run, and only --markdown's
# makes a temporary directory.
REPLAY=(env -C "$TEST_TMP" SHARE_MODE=replay RUN_BENCH="$SHARE $BENCH -w0 -d1 -a" PRODUCERS=2)
# every use case of both flavours, keeping the result files (--json-dir)
par_start "$out" "${REPLAY[@]}" "$SCRIPT" --json-dir kept
# the markdown tables (checked below; the runs: the records of the first two)
par_start "$out.md" "${REPLAY[@]}" USE_CASES="overwrite no_op" "$SCRIPT" --markdown
# --repeat N (checked below; the runs: those of --markdown --repeat 2)
par_start "$out.rep" "${REPLAY[@]}" USE_CASES=overwrite "$SCRIPT" --repeat 2
par_wait "$out"
is "$REC_RC $?" "0 0 0" "the wrapper runs from another directory (exit status 0; the two records', the whole one's)"
[ -s "$out.err" ] && diag "$(cat "$out.err")"

is "$(grep -c '^preallocated$' "$out")" 1 "a 'preallocated' header"
is "$(grep -c '^normal bpf ma$' "$out")" 1 "a 'normal bpf ma' header"
n=$(awk '/^preallocated$/ { f = 1 } /^normal bpf ma$/ { f = 2 } { print f + 0 }' "$out" | uniq | tr -d '\n')
is "$n" "012" "preallocated comes first (before, preallocated, normal bpf ma)"

line='per-prod-op: [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2}k/s, avg mem: [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2}MiB, peak mem: [0-9]+\.[0-9]{2}MiB$'
for uc in overwrite batch_add_batch_del add_del_on_diff_cpu no_op; do
	is "$(grep -Ec "^$(printf '%-20s' "$uc") $line" "$out")" 2 "$uc: one line in the reference format per flavour"
done
if grep -q FAILED "$out"; then
	ok 1 "no run failed, no map operation failed"
	diag "$(cat "$out")"
else
	ok 0 "no run failed, no map operation failed"
fi

# --json-dir kept every run's result file, from another directory
is "$(cd "$TEST_TMP/kept" && echo *.json)" "$(for f in bpf-ma prealloc; do
	for uc in add_del_on_diff_cpu batch_add_batch_del no_op overwrite; do echo "$f-$uc.json"; done; done | tr '\n' ' ' | sed 's/ $//')" \
	"--json-dir: one result file per run"
for f in prealloc-overwrite bpf-ma-overwrite prealloc-no_op bpf-ma-no_op; do
	jq -e '.schema == "bench-result" and .benchmark == "htab-mem"' "$TEST_TMP/kept/$f.json" >/dev/null
	ok $? "--json-dir: $f.json is the run's result"
done
jq -e '.options.benchmark.preallocated' "$TEST_TMP/kept/prealloc-overwrite.json" >/dev/null
ok $? "--json-dir: the prealloc file is the preallocated run"
# the markdown tables: a header and a row per use case in each flavour's;
# without --json-dir, the result files go to a temporary directory (the
# runs: the records of the first two)
par_wait "$out.md"
is $? 0 "--markdown: exit 0"
# --repeat 2's replay, beside it, makes a temporary directory of its own:
# reaped first (its checks below), so that the look sees neither
par_wait "$out.rep"
REP_RC=$?
left=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'htab-mem.*' -newer "$out.md.err" 2>/dev/null | wc -l)
is "$left" 0 "--markdown and --repeat 2: their temporary JSON directories are removed"
diag "$(cat "$out.md")"
n=$(grep -c '^| name                | loop (k/s) | average memory (MiB) | peak memory (MiB) |$' "$out.md")
is "$n" 2 "--markdown: one table header per flavour"
for uc in overwrite no_op; do
	n=$(grep -cE "^\\| $uc +\\| [0-9]+\\.[0-9]{2} +\\| [0-9]+\\.[0-9]{2} +\\| [0-9]+\\.[0-9]{2} +\\|\$" "$out.md")
	is "$n" 2 "--markdown: $uc has a row with numbers in both tables"
done
# the rate and the peak of each row are positive
is "$(awk '/^\| (overwrite|no_op) / { split($0, f, "|"); n++; if (f[3] + 0 > 0 && f[5] + 0 > 0) good++ }
	END { print good + 0 " of " n + 0 }' "$out.md")" "4 of 4" "--markdown: rates and peaks are positive"
# the line above each table: the kernel (release, build), -p and the CPUs
kline="^Kernel $(uname -r | sed 's/[.+]/\\&/g')(, build [0-9a-f]{12}|, #.*)?; -p2; $(nproc) CPUs\$"
is "$(grep -cE "$kline" "$out.md")" 2 "--markdown: a kernel line above each flavour's table"
# with --repeat the rows keep their ± (between repeats), and the kernel line
# says so (its invocation: above)
is "$MDR_RC" 0 "--markdown --repeat 2: exit 0"
n=$(grep -cE '^\| overwrite +\| [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2} +\| [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2} +\| [0-9]+\.[0-9]{2} +\|$' "$out.mdr")
is "$n" 2 "--markdown --repeat 2: rate and memory keep their ± in both tables"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$out.mdr")"
is "$(grep -c '; 2 repeats a row (mean ± stddev between them)$' "$out.mdr")" 2 "--markdown --repeat 2: the kernel line says what the ± is"
"$SCRIPT" --json-dir >/dev/null 2>"$out.noarg.err"
is $? 2 "--json-dir without a directory: exit 2"

# --repeat N passes through; the line gives the two levels, never one
# repeat's figure (the runs: those of --markdown --repeat 2)
is "$REP_RC" 0 "--repeat 2: exit 0"
rline='per-prod-op: [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2}k/s \(2 repeats; within ± [0-9]+\.[0-9]{2}k/s\), avg mem: [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2}MiB \(2 repeats; within ± [0-9]+\.[0-9]{2}MiB\), peak mem: [0-9]+\.[0-9]{2}MiB$'
is "$(grep -Ec "^$(printf '%-20s' overwrite) $rline" "$out.rep")" 2 "--repeat 2: overwrite in the repeats format per flavour"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$out.rep")"
"$SCRIPT" --repeat 0 >"$out.rep0" 2>&1
is $? 2 "--repeat 0: exit 2"
like "$out.rep0" "^run_bench_htab_mem.sh: invalid --repeat '0': expected an integer in 1\.\.1000$" \
	"--repeat 0: one clear line"

# a failing bench makes the script fail and says which
(cd "$TEST_TMP" && RUN_BENCH="$BENCH -w0 -d1 --bogus" PRODUCERS=2 USE_CASES=no_op "$SCRIPT") \
	>"$out.bad" 2>"$out.bad.err"
isnt $? 0 "a failing bench makes the wrapper fail"
like "$out.bad" '^no_op +FAILED \(exit [0-9]+\)$' "the failing use case is named"

done_testing
