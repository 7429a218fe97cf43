#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# trig-syscall-count (upstream's trig-base until 2024, still its alias):
# the raw getpgid() rate, per producer, with no program attached.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"


out="$TEST_TMP/trig"
run_bench "$out" -w0 -d1 -p2 trig-syscall-count
is $? 0 "trig-syscall-count runs (exit status 0)"
like "$out" '^Summary: hits +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s \( *[0-9]+\.[0-9]{3}M/prod\), drops +0\.000 ± 0\.000M/s, total operations +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3}M/s$' \
	"trig-base: Summary in the hits/drops format, no drops"
hits=$(sed -nE 's/^Summary: hits +([0-9.]+).*/\1/p' "$out")
cmp_num "$hits" '>' 0 "trig-base: producers made syscalls (M/s)"
bpftool prog show 2>/dev/null | grep -q 'sys_enter_getpgid' &&
	diag "note: something else has a getpgid program loaded"

run_bench "$out" trig-base --use-case overwrite
rc=$?
is "$rc" 64 "trig-base: htab-mem's options are refused (exit status 64, a command-line error)"
like "$out.err" "does not apply to benchmark 'trig-syscall-count'" \
	"trig-base: the message says why, naming the benchmark the alias selects"

# the alias runs the same benchmark under its name
run_bench "$out" -w0 -d1 trig-base
is $? 0 "trig-base, the alias, runs (exit status 0)"
like "$out" "^Setting up benchmark 'trig-syscall-count'\\.\\.\\.\$" "trig-base selects trig-syscall-count"

done_testing
