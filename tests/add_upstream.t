#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/add-upstream-benchmark.sh DIR (make UPSTREAM_BENCHS=DIR): a
# benchmark pair laid out as upstream's tree has it, written against
# upstream's bench.h, built in unchanged, replacing ours of the same name;
# UPSTREAM_SEC_MAP moves a program to another hook without touching its
# source.  The pair is our own upstream-style one (upstream-api-*), copied
# out; the build reuses a copy of the tree's objects.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf

UP=$TEST_TMP/up
OUT=$TEST_TMP/out
ADD=$SRC_TOP/scripts/add-upstream-benchmark.sh
mkdir -p "$UP/benchs" "$UP/progs"
cp "$SRC_TOP/benchs/bench_upstream_api.c" "$UP/benchs/"

"$ADD" "$UP" >"$TEST_TMP/missing" 2>&1
is $? 2 "a benchmark whose program is missing: exit status 2"
like "$TEST_TMP/missing" 'missing in .*: progs/upstream_api\.c \(for bench_upstream_api\.c\)$' \
	"the line names the missing program and who includes its skeleton"
"$ADD" "$TEST_TMP/nowhere" >"$TEST_TMP/nodir" 2>&1
is $? 2 "no such directory: exit status 2"

cp "$SRC_TOP/progs/upstream_api.c" "$UP/progs/"
built=${OUTPUT:-.output}
[ "${built#/}" = "$built" ] && built=$SRC_TOP/$built
cp -a "$built/." "$OUT/" 2>/dev/null || mkdir -p "$OUT"
# the producers call getpgid(): on getsid's tracepoint the program never runs
"$ADD" "$UP" OUTPUT="$OUT" BENCH_BIN="$TEST_TMP/bench" \
	UPSTREAM_SEC_MAP='tp/syscalls/sys_enter_getpgid=tp/syscalls/sys_enter_getsid' \
	>"$TEST_TMP/build" 2>&1
is $? 0 "the tree builds with the pair added"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(tail -20 "$TEST_TMP/build")"
like "$TEST_TMP/build" '^add-upstream-benchmark\.sh: benchmarks of .*: upstream-api-hits upstream-api-false-hits upstream-api-local-storage upstream-api-ops$' \
	"the script lists the benchmarks it found"
like "$TEST_TMP/build" 'hooks some kernels refuse .*fentry/" SYS_PREFIX "sys_getpgid' \
	"and the programs on hooks some kernels refuse"

"$TEST_TMP/bench" -l >"$TEST_TMP/list"
like "$TEST_TMP/list" "^  upstream-api-hits +built from upstream's bench_upstream_api\\.c \\(UPSTREAM_BENCHS\\)\$" \
	"bench -l: the added benchmark replaces ours of its name"
is "$(grep -c '^  upstream-api-hits ' "$TEST_TMP/list")" 1 "bench -l: once"
sections=$(llvm-objdump -h "$OUT/upstream/upstream_api.bpf.o" 2>/dev/null | awk '{ print $2 }' | grep '^tp/' | paste -sd' ')
is "$sections" "tp/syscalls/sys_enter_getsid" "UPSTREAM_SEC_MAP renamed the program's section (BTF made after)"
cmp -s "$SRC_TOP/progs/upstream_api.c" "$UP/progs/upstream_api.c"
ok $? "the source is untouched"

"$TEST_TMP/bench" -w0 -d1 upstream-api-hits >"$TEST_TMP/run" 2>"$TEST_TMP/run.err"
is $? 0 "the added benchmark runs (exit status 0)"
like "$TEST_TMP/run" '^Summary: hits +0\.000 ± 0\.000M/s' \
	"on getsid's tracepoint it counts none of the producers' getpgid() calls: the swapped hook is what ran"
"$BENCH" -l >"$TEST_TMP/ours"
like "$TEST_TMP/ours" '^  upstream-api-hits +$' "the tree's own bench is as it was"

done_testing
