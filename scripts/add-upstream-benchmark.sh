#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# add-upstream-benchmark.sh DIR [MAKE ARGS...]: build ./bench with the
# benchmarks of DIR added, unchanged: DIR holds benchs/bench_NAME.c and
# progs/NAME.c as upstream's tools/testing/selftests/bpf does (the pair a
# patch series adds), written against upstream's bench.h.  It checks that
# every skeleton a benchmark includes has its program, lists what it found
# and the programs on hooks some kernels refuse, then runs
#
#   make UPSTREAM_BENCHS=DIR [MAKE ARGS...]
#
# A benchmark of DIR replaces ours of the same name.  To swap a hook this
# kernel refuses without touching the file, pass a section map, e.g.
#
#   scripts/add-upstream-benchmark.sh DIR \
#	UPSTREAM_SEC_MAP='fentry/__x64_sys_getpgid=tp/syscalls/sys_enter_getpgid'
#
# Exit status: make's; 2 for a DIR that is not such a tree.
set -uo pipefail
PROG=$(basename "$0")
ROOT=$(cd "$(dirname "$0")/.." && pwd)

die() {
	echo "$PROG: $*" >&2
	exit 2
}

case ${1:-} in
-h | --help)
	sed -n '4,/^set -uo/{ /^set -uo/d; s/^# \{0,1\}//; p }' "$0"
	exit 0
	;;
esac
[ $# -ge 1 ] || die "usage: $PROG DIR [MAKE ARGS...] (DIR/benchs/bench_*.c and DIR/progs/*.c)"
DIR=$1
shift
[ -d "$DIR" ] || die "no directory '$DIR'"
shopt -s nullglob
benchs=("$DIR"/benchs/bench_*.c)
[ "${#benchs[@]}" -gt 0 ] || die "no benchs/bench_*.c in '$DIR'"

missing=""
for f in "${benchs[@]}"; do
	while read -r skel; do
		[ -f "$DIR/progs/$skel.c" ] || missing+=" progs/$skel.c (for ${f##*/})"
	done < <(sed -nE 's/^#include "([A-Za-z0-9_]+)\.skel\.h"/\1/p' "$f")
done
[ -z "$missing" ] || die "missing in '$DIR':$missing"

names=$(sed -nE 's/^[[:space:]]*\.name = "([^"]+)",.*/\1/p' "${benchs[@]}" | paste -sd' ')
echo "$PROG: benchmarks of $DIR: $names"
hooks=$(grep -hoE 'SEC\("\??(fentry|fexit|fmod_ret|kprobe|kretprobe|lsm\.s|lsm)/[^"]*"( SYS_PREFIX "[^"]*")?' \
	"$DIR"/progs/*.c 2>/dev/null | sort -u | paste -sd' ')
[ -z "$hooks" ] || echo "$PROG: hooks some kernels refuse (UPSTREAM_SEC_MAP can swap them): $hooks"
exec make -C "$ROOT" UPSTREAM_BENCHS="$(cd "$DIR" && pwd)" "$@"
