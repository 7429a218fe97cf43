#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# trig-base: the raw getpgid() rate, per producer, with no program attached.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"


out="$TEST_TMP/trig"
run_bench "$out" -w0 -d1 -p2 trig-base
ok $? "trig-base runs"
like "$out" '^Summary: hits +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s \( *[0-9]+\.[0-9]{3}M/prod\), drops +0\.000 ± 0\.000M/s, total operations +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s$' \
	"trig-base: Summary in the hits/drops format, no drops"
hits=$(sed -nE 's/^Summary: hits +([0-9.]+).*/\1/p' "$out")
awk -v h="$hits" 'BEGIN { exit !(h > 0) }'
ok $? "trig-base: producers made syscalls ($hits M/s)"
[ "$(bpftool prog show 2>/dev/null | grep -c 'sys_enter_getpgid' || true)" -eq 0 ] ||
	diag "note: something else has a getpgid program loaded"

run_bench "$out" trig-base --use-case overwrite
rc=$?
assert "trig-base: htab-mem's options are refused (exit $rc)" [ $rc -ne 0 ]
like "$out.err" "does not apply to benchmark 'trig-base'" "trig-base: the message says why"

done_testing
