#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build: out of tree, incremental (an object rebuilds when something
# it includes changed, and only then), a version that follows git,
# VMLINUX_H, and one actionable line when a tool is missing.
#
# It builds a copy of the tree in its own git repository, so touching
# files and committing leave the real tree alone.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SRC=$SRC_TOP
COPY="$TEST_TMP/src"
OUT="$TEST_TMP/out"
BIN="$TEST_TMP/bench"

command -v git >/dev/null || skip_all "git not installed (scripts/install-deps.sh installs it)"
git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 || skip_all "$SRC is not a git checkout"

# A missing clang or BTF stops a make of the tree itself at once, with a
# line of its own: those two makes (their own output directories, nothing
# of the copy) run in the background from here, beside the copy and its
# build, and are checked in their place below.
make -C "$SRC" OUTPUT="$TEST_TMP/out3" BENCH_BIN="$TEST_TMP/bench3" CLANG=/nonexistent/clang \
	>"$TEST_TMP/b8" 2>&1 &
B8_PID=$!
make -C "$SRC" OUTPUT="$TEST_TMP/out4" BENCH_BIN="$TEST_TMP/bench4" VMLINUX_BTF=/nonexistent/btf \
	>"$TEST_TMP/b9" 2>&1 &
B9_PID=$!

# the tree as it is, uncommitted changes included, without what is ignored
mkdir -p "$COPY"
git -C "$SRC" ls-files -z --cached --others --exclude-standard |
	(cd "$SRC" && xargs -0 tar -cf - --ignore-failed-read 2>/dev/null) | tar -xf - -C "$COPY"
gitc() {
	git -C "$COPY" -c user.name=build.t -c user.email=build.t@localhost "$@"
}
gitc init -q && gitc add -A && gitc commit -qm "the tree under test"
ok $? "a copy of the tree in its own repository"

# -O0: what is checked is the build's rules (where things go, what
# rebuilds, the version), not the code at -O2, which make test's own build
# compiles; at -O0 the copy's userspace compiles in a fraction of the time
mk() {	# mk <log> <make args...>: build the copy into $OUT
	local log=$1
	shift
	make -j"$(nproc)" -C "$COPY" OUTPUT="$OUT" BENCH_BIN="$BIN" OPT=-O0 "$@" >"$log" 2>&1
}

# built <log>: the build steps a make printed, "STEP file" sorted, one a line
built() {
	sed -nE 's/^  (CC|BPF|LINK|GEN|GEN-SKEL) +([^ ]+)$/\1 \2/p' "$1" | sort
}

# The BPF objects and their skeletons are the tree's own build's, copied
# in with their mtimes (as adding_a_benchmark.t does), those of the
# copy's programs only: clang over vmlinux.h, once per program, is a
# large part of a build.  The rest is built from nothing: vmlinux.h is dumped
# again (no stamp is copied) and kept, being unchanged, and userspace is
# compiled whole.  The BPF rules are checked below: a touched program
# rebuilt with its skeleton and includers, and one built from VMLINUX_H.
built=${OUTPUT:-.output}
[ "${built#/}" = "$built" ] && built=$SRC/$built
# One cp for them all: a cp per file, some thirty, took 0.7 s on a
# loaded machine.
mkdir -p "$OUT"
cpy=()
for p in "$COPY"/progs/*.c; do
	p=${p##*/}
	for f in "$built/${p%.c}.bpf.o" "$built/${p%.c}.skel.h"; do
		[ -f "$f" ] && cpy+=("$f")
	done
done
[ -f "$built/vmlinux.h" ] && cpy+=("$built/vmlinux.h")
[ "${#cpy[@]}" -eq 0 ] || cp -p "${cpy[@]}" "$OUT/"

# VMLINUX_H=: what the header feeds, one BPF program's skeleton into a
# directory of its own, not a second whole build; the header is marked,
# so that one dumped from BTF does not pass.  It is the vmlinux.h copied
# in above (the first build keeps it, being unchanged), so that clang over
# it (a serial second or two) runs beside the first build, whose own
# serial parts (the dump, the link) leave a CPU idle; it is reaped before
# the copy's git status is checked, and checked in its place below.
# Without a vmlinux.h to copy it runs after the first build, on its header.
b7() {
	{ cat "$OUT/vmlinux.h"; echo "/* given by build.t */"; } >"$TEST_TMP/given.h"
	make -C "$COPY" OUTPUT="$TEST_TMP/out2" BENCH_BIN="$TEST_TMP/bench2" VMLINUX_H="$TEST_TMP/given.h" \
		"$TEST_TMP/out2/map_lookup.skel.h" >"$TEST_TMP/b7" 2>&1
}
B7_PID=
if [ -f "$OUT/vmlinux.h" ]; then
	b7 &
	B7_PID=$!
fi

mk "$TEST_TMP/b1" -s
ok $? "out-of-tree build succeeds"
if [ -n "$B7_PID" ]; then
	wait "$B7_PID"
else
	b7
fi
B7_RC=$?
assert "the binary is where BENCH_BIN says" [ -x "$BIN" ]
assert "vmlinux.h is where OUTPUT says" [ -f "$OUT/vmlinux.h" ]
is "$(find "$OUT" -maxdepth 1 -name '*.skel.h' | wc -l)" "$(find "$COPY/progs" -maxdepth 1 -name '*.c' | wc -l)" \
	"a skeleton per BPF program, where OUTPUT says"
is "$(git -C "$COPY" status --porcelain --ignored)" "" \
	"nothing generated in the source tree by an out-of-tree build"

mk "$TEST_TMP/b2"
ok $? "second make succeeds"
like "$TEST_TMP/b2" "Nothing to be done for 'all'" "second make has nothing to do"
is "$(built "$TEST_TMP/b2")" "" "second make rebuilds nothing"

# one BPF program: it, its skeleton, the objects that include that, the link
touch "$COPY/progs/map_lookup.c"
mk "$TEST_TMP/b3"
want=$({
	echo "BPF map_lookup.bpf.o"
	echo "GEN-SKEL map_lookup.skel.h"
	(cd "$COPY" && grep -l '#include "map_lookup.skel.h"' ./*.c benchs/*.c) |
		sed -E 's#^(\./)?(.*)\.c$#CC \2.o#'
	echo "LINK $BIN"
} | sort)
is "$(built "$TEST_TMP/b3")" "$want" \
	"touching progs/map_lookup.c rebuilds it, its skeleton and exactly the objects that include it"
diag "$(built "$TEST_TMP/b3")"

# the version: git describe at build time, rebuilt when it changes
includers=$( (cd "$COPY" && grep -l '#include "bench_version.h"' ./*.c benchs/*.c) |
	sed -E 's#^(\./)?(.*)\.c$#CC \2.o#')
version_rebuild="$(printf '%s\n' "GEN bench_version.h" "$includers" "LINK $BIN" | sort)"
is "$("$BIN" --version)" "bench $(git -C "$COPY" describe --always --dirty --tags)" \
	"--version is git describe of the tree built"

echo "# a local change" >>"$COPY/README.md"
mk "$TEST_TMP/b4"
is "$(built "$TEST_TMP/b4")" "$version_rebuild" \
	"a dirty tree: the version header and exactly its includers rebuild"
v=$("$BIN" --version)
is "$v" "bench $(git -C "$COPY" describe --always --dirty --tags)" "a dirty tree: --version is git describe"
is "${v##*-}" dirty "a dirty tree: --version says -dirty"
mk "$TEST_TMP/b5"
is "$(built "$TEST_TMP/b5")" "" "the unchanged version rebuilds nothing"

gitc commit -qam "a commit"
mk "$TEST_TMP/b6"
is "$(built "$TEST_TMP/b6")" "$version_rebuild" "a commit: the version header and its includers rebuild"
is "$("$BIN" --version)" "bench $(git -C "$COPY" describe --always --dirty --tags)" \
	"a commit: --version names it"

# VMLINUX_H= (run beside the first build, above)
ok "$B7_RC" "VMLINUX_H= builds a BPF program with a given header"
assert "VMLINUX_H=: the header used is the one given" cmp -s "$TEST_TMP/out2/vmlinux.h" "$TEST_TMP/given.h"

# a missing clang (started at the top)
wait "$B8_PID"
isnt $? 0 "a missing clang stops the build"
like "$TEST_TMP/b8" "/nonexistent/clang not found: run 'scripts/install-deps.sh'" \
	"with one actionable line"
is "$(grep -v 'ing directory' "$TEST_TMP/b8" | grep -c .)" 1 "and no wall of errors (lines of output)"

# a missing BTF (started at the top)
wait "$B9_PID"
isnt $? 0 "a missing BTF stops the build"
like "$TEST_TMP/b9" "/nonexistent/btf not found" "and names it"

mk /dev/null -s clean
assert "make clean removes the output" [ ! -e "$OUT" ]
assert "make clean removes the binary" [ ! -e "$BIN" ]

done_testing
