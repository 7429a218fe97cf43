#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_local_storage_create.sh end to end with a short
# RUN_BENCH and one batch size, started from a directory other than the
# source tree: its lines, its --markdown tables, --json-dir.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

SCRIPT=$SRC_TOP/benchs/run_bench_local_storage_create.sh
out=$TEST_TMP/lines
HOOKS='(lsm\.s/socket_post_create|cgroup/sock_create)'

(cd "$TEST_TMP" && RUN_BENCH="$BENCH -w0 -d1" BATCH_SIZES=16 "$SCRIPT") >"$out" 2>"$out.err"
ok $? "the wrapper runs from another directory"
[ -s "$out.err" ] && diag "$(cat "$out.err")"
line='creates: [0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}k/s \([0-9]+\.[0-9]{3}k/prod\), kmallocs/create: [0-9]+\.[0-9]{2}$'
for t in socket task; do
	assert "$t: a header" [ "$(grep -c "^$t storage$" "$out")" -eq 1 ]
done
assert "one line per storage type in the format" [ "$(grep -Ec "^batch 16 {13}$line" "$out")" -eq 2 ]
like "$out" "^socket storage on $HOOKS, 1 producer\(s\)$" "socket: the hook it ran on"
like "$out" '^task storage on tp_btf/sched_process_fork, 1 producer\(s\)$' "task: the hook it ran on"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out")"

out=$TEST_TMP/md
(cd "$TEST_TMP" && RUN_BENCH="$BENCH -w0 -d1" BATCH_SIZES=16 STORAGE_TYPES=task PRODUCERS=2 \
	"$SCRIPT" --markdown --json-dir kept) >"$out" 2>"$out.err"
ok $? "--markdown --json-dir: exit 0"
row='^\| 16    \| [0-9]+\.[0-9]{2} +\| [0-9]+\.[0-9]{2} +\| [0-9]+\.[0-9]{2} +\| ([0-9]+\.[0-9]{2}|n/a) +\|$'
like "$out" '^\| batch \| creates \(k/s\) \| per producer \(k/s\) \| kmallocs/create \| peak memory \(MiB\) \|$' \
	"--markdown: the table header"
like "$out" "$row" "--markdown: a row for batch 16"
kline="^Kernel $(uname -r | sed 's/[.+]/\\&/g')(, build [0-9a-f]{12}|, #.*)?; -p2; $(nproc) CPUs\$"
like "$out" "$kline" "--markdown: the kernel line (release, build, -p, CPUs) above the table"
like "$out" '^task storage on tp_btf/sched_process_fork, 2 producer\(s\)$' "--markdown: the hook under the table"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$out" "$out.err")"
jq -e '.options.benchmark == {"storage_type": "task", "batch_size": 16, "hook": "tp_btf/sched_process_fork"}
	and .options.runner.producers == 2' "$TEST_TMP/kept/task-16.json" >/dev/null
ok $? "--json-dir: the run's result file kept as task-16.json"

rc=0
"$SCRIPT" --bogus >"$TEST_TMP/bad" 2>"$TEST_TMP/bad.err" || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$TEST_TMP/bad.err")" -eq 1 ] && grep -q "unknown option '--bogus'" "$TEST_TMP/bad.err"
ok $? "an unknown option: exit 2, one line naming it (rc $rc)"

done_testing
