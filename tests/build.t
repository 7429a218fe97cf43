#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build: out of tree, incremental, VMLINUX_H, and one actionable line
# when a tool is missing.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT="$TEST_TMP/out"
BIN="$TEST_TMP/bench"

make -s -C "$SRC" OUTPUT="$OUT" BENCH_BIN="$BIN" >"$TEST_TMP/b1" 2>&1
ok $? "out-of-tree build succeeds"
ok "$([ -x "$BIN" ] && [ -f "$OUT/vmlinux.h" ] && ls "$OUT"/*.skel.h >/dev/null; echo $?)" \
	"the binary, vmlinux.h and the skeletons are where OUTPUT says"
is "$(git -C "$SRC" status --porcelain --ignored 2>/dev/null | grep -c "$OUT")" 0 \
	"nothing generated in the source tree by an out-of-tree build"

make -C "$SRC" OUTPUT="$OUT" BENCH_BIN="$BIN" >"$TEST_TMP/b2" 2>&1
ok $? "second make succeeds"
like "$TEST_TMP/b2" "Nothing to be done for 'all'" "second make has nothing to do"
is "$(grep -cE '^  (CC|BPF|LINK|GEN)' "$TEST_TMP/b2")" 0 "second make rebuilds nothing"

touch "$SRC/progs/htab_mem_bench.c"
make -C "$SRC" OUTPUT="$OUT" BENCH_BIN="$BIN" >"$TEST_TMP/b3" 2>&1
like "$TEST_TMP/b3" '^  BPF +htab_mem_bench.bpf.o$' "touching a BPF program rebuilds it"
n=$(grep -c '^  BPF ' "$TEST_TMP/b3")
is "$n" 1 "and only it (BPF objects rebuilt)"

make -C "$SRC" OUTPUT="$TEST_TMP/out2" BENCH_BIN="$TEST_TMP/bench2" VMLINUX_H="$OUT/vmlinux.h" \
	>"$TEST_TMP/b5" 2>&1
ok $? "VMLINUX_H= builds with a given header"

make -C "$SRC" OUTPUT="$TEST_TMP/out3" BENCH_BIN="$TEST_TMP/bench3" CLANG=/nonexistent/clang \
	>"$TEST_TMP/b6" 2>&1
isnt $? 0 "a missing clang stops the build"
like "$TEST_TMP/b6" "/nonexistent/clang not found: run 'scripts/install-deps.sh'" \
	"with one actionable line"
n=$(grep -v 'ing directory' "$TEST_TMP/b6" | grep -c .)
is "$n" 1 "and no wall of errors (lines of output)"

make -C "$SRC" OUTPUT="$TEST_TMP/out4" BENCH_BIN="$TEST_TMP/bench4" VMLINUX_BTF=/nonexistent/btf \
	>"$TEST_TMP/b7" 2>&1
isnt $? 0 "a missing BTF stops the build"
like "$TEST_TMP/b7" "/nonexistent/btf not found" "and names it"

make -s -C "$SRC" OUTPUT="$OUT" BENCH_BIN="$BIN" clean >/dev/null 2>&1
ok "$([ ! -e "$OUT" ] && [ ! -e "$BIN" ]; echo $?)" "make clean removes the output and the binary"

done_testing
