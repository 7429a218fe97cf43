#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# docs/adding-a-benchmark.md's recipe for adding a benchmark, followed to
# the letter on a copy of the tree, so that it cannot rot: two new files
# (the example in tests/example/) and two lines in bench.c's table, then
# build and run.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SRC=$SRC_TOP
COPY="$TEST_TMP/src"

require_bpf
command -v git >/dev/null || skip_all "git not installed (scripts/install-deps.sh installs it)"
git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 || skip_all "$SRC is not a git checkout"

# the tree as it is, uncommitted changes included, without what is ignored
mkdir -p "$COPY"
git -C "$SRC" ls-files -z --cached --others --exclude-standard |
	(cd "$SRC" && xargs -0 tar -cf - --ignore-failed-read 2>/dev/null) | tar -xf - -C "$COPY"

# the recipe: two new files ...
cp "$SRC/tests/example/bench_example.c" "$COPY/benchs/bench_example.c"
cp "$SRC/tests/example/example.c" "$COPY/progs/example.c"
# ... and two lines in the table, next to the last benchmark's
sed -i -e '/^extern const struct bench bench_htab_mem;$/a extern const struct bench bench_example;' \
	-e '/^\t&bench_htab_mem,$/a \\t&bench_example,' "$COPY/bench.c"
is "$(diff "$SRC/bench.c" "$COPY/bench.c" | grep -c '^>')" 2 "the table gains two lines"
is "$(cd "$COPY" && find . -type f \( -name '*.[ch]' -o -name Makefile \) | sort |
	while read -r f; do cmp -s "$f" "$SRC/$f" || echo "$f"; done | tr '\n' ' ')" \
	"./bench.c ./benchs/bench_example.c ./progs/example.c " "and nothing else changes"

# no edit to the Makefile: it finds both files by wildcard.  The tree's
# own build is copied in first (mtimes kept), so that only what the recipe
# touched is built: the copy's sources are as old as they were.
built=${OUTPUT:-.output}
[ "${built#/}" = "$built" ] && built=$SRC/$built
[ -d "$built" ] && mkdir -p "$TEST_TMP/out" && cp -a "$built/." "$TEST_TMP/out/"
make -C "$COPY" -j2 OUTPUT="$TEST_TMP/out" >"$TEST_TMP/build.log" 2>&1
is $? 0 "the tree with the example builds"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(tail -20 "$TEST_TMP/build.log")"
like "$TEST_TMP/build.log" '^  GEN-SKEL example.skel.h$' "the example's skeleton is generated"

"$COPY/bench" -l >"$TEST_TMP/list" 2>&1
like "$TEST_TMP/list" '^  example +the adding-a-benchmark example' "bench -l lists the example"

"$COPY/bench" -w0 -d2 -p2 --json "$TEST_TMP/ex.json" example >"$TEST_TMP/run" 2>"$TEST_TMP/run.err"
is $? 0 "the example runs"
[ "$TAP_LAST_FAILED" -eq 1 ] && diag "$(cat "$TEST_TMP/run" "$TEST_TMP/run.err")"
hits=$(run_common field_num "$(last_summary "$TEST_TMP/run")" "hits")
cmp_num "$hits" '>' 0 "its BPF program counts the producers' calls (hits, M/s)"
assert "stderr has nothing but noise warnings" stderr_clean "$TEST_TMP/run.err"
# what the runner gives every BPF benchmark without a line of the example's
src=$(own_mem_source)
src=${src%% *}
is "$(jq -r '.memory_source | if . == null then "none" else .cgroup end' "$TEST_TMP/ex.json")" \
	"${src:-none}" "the runner measured its memory, from the cgroup the bench must pick"
is "$(jq '[.summary.metrics.memory.n, .per_producer.producers | length] | join(" ")' \
	-r "$TEST_TMP/ex.json")" "2 2" "memory for each sample, per-producer rates for each producer"

done_testing
