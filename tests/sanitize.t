#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build with ASan + UBSan into a private output directory and run the main
# paths: any sanitizer report fails the run (halt_on_error, exitcode 99).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SRC=$SRC_TOP
ABIN="$TEST_TMP/asan/bench"

# The BPF side (vmlinux.h, the BPF objects, their skeletons) does not
# depend on SANITIZE or OPT: the tree's own build's is copied in, mtimes
# kept, so that only userspace is compiled (make still rebuilds a copied
# file older than its sources); tests/build.t checks the BPF rules.
built=${OUTPUT:-.output}
[ "${built#/}" = "$built" ] && built=$SRC/$built
mkdir -p "$TEST_TMP/asan"
# one cp for them all: a cp per file, some thirty, took 0.7 s on a loaded machine
cpy=()
for f in "$built"/vmlinux.stamp "$built"/vmlinux.h "$built"/*.bpf.o "$built"/*.skel.h; do
	[ -f "$f" ] && cpy+=("$f")
done
[ "${#cpy[@]}" -eq 0 ] || cp -p "${cpy[@]}" "$TEST_TMP/asan/"
# -O0: the sanitizers need no optimisation, and it compiles in a quarter of the time
make -s -j"$(nproc)" -C "$SRC" SANITIZE=1 OPT=-O0 OUTPUT="$TEST_TMP/asan" BENCH_BIN="$ABIN" >"$TEST_TMP/build" 2>&1
ok $? "builds with SANITIZE=1 (out of tree)"
[ -x "$ABIN" ] || { diag "$(tail -20 "$TEST_TMP/build")"; done_testing; exit; }

export ASAN_OPTIONS=halt_on_error=1:exitcode=99:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1

# san_report <stderr file>: a sanitizer's report, if any, as a diagnostic
san_report() {
	grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$1" &&
		diag "$(head -30 "$1")"
}

san() {	# san <expected exit status> <description> <args...>
	local want=$1 desc=$2 rc
	shift 2
	"$ABIN" "$@" >"$TEST_TMP/s" 2>"$TEST_TMP/s.err"
	rc=$?
	is "$rc" "$want" "sanitizers: $desc: exit status"
	san_report "$TEST_TMP/s.err"
}

# The five -d1 runs (7 s one after the other) do not depend on one
# another and each is checked on its own (its exit status, its own
# sanitizer report): they run side by side (lib.sh, par_start), the
# output of each in its own file.  Each sanitized process takes a fifth
# of a second or more to start and exit (leak check included), a dozen
# of them one after another: the checks that read no result file run
# while the last runs end; compare and history read a.json and b.json,
# so they wait for those two runs only, and then the three compares,
# independent of one another, run side by side with the history
# commands, which follow one another through their database.
# san_start <name> <args...>: par_start the sanitized binary as <name>
san_start() {
	local name=$1
	shift
	par_start "$TEST_TMP/run-$name" "$ABIN" "$@"
}
# san_wait <expected exit status> <description> <name>: its exit status
san_wait() {
	local want=$1 desc=$2 out="$TEST_TMP/run-$3" rc
	par_wait "$out"
	rc=$?
	is "$rc" "$want" "sanitizers: $desc: exit status"
	san_report "$out.err"
}

# a node of our own as root: a runner that replaced it must not take /dev/full
FULL=/dev/full
[ "$(id -u)" -ne 0 ] || ! mknod -m 666 "$TEST_TMP/full" c 1 7 || FULL="$TEST_TMP/full"
mkfifo "$TEST_TMP/fifo"
cat "$TEST_TMP/fifo" >/dev/null &
san_start a -w1 -d1 -p2 --per-producer --json "$TEST_TMP/a.json" count-local
san_start b -w0 -d1 -p3 -a --json "$TEST_TMP/b.json" count-global
san_start stdout -w0 -d1 --json - count-local
san_start full -w0 -d1 --json "$FULL" count-local
san_start fifo -w0 -d1 --json "$TEST_TMP/fifo" count-local
san 64 "bad CPU list" --cons-affinity 3-1 count-local
san 64 "two names" count-local count-global
san 0 "list" -l

san_wait 0 "count-local with JSON and per-producer" a
san_wait 0 "count-global pinned" b
jq '.summary.metrics.hits.mean = 1' "$TEST_TMP/a.json" >"$TEST_TMP/edited.json"
# compare reads two files and exits, no run: the limit on runs at once
# (PAR_WIDTH, for their set-up) would only hold it behind full and fifo
PAR_WIDTH=9 san_start compare compare --force "$TEST_TMP/a.json" "$TEST_TMP/b.json"
PAR_WIDTH=9 san_start malformed compare "$TEST_TMP/a.json" /dev/null
PAR_WIDTH=9 san_start edited compare "$TEST_TMP/a.json" "$TEST_TMP/edited.json"
# history show's refusals free the rows they queried (an ASan build exited 1, a leak)
san 0 "history add" history add --db "$TEST_TMP/h.db" "$TEST_TMP/a.json" "$TEST_TMP/b.json"
san 2 "history show of runs of two configurations" history show --db "$TEST_TMP/h.db"
grep -q 'different configurations' "$TEST_TMP/s.err"
ok $? "history show of two configurations: refused as such"
san 2 "history show of a metric no run has" history show --db "$TEST_TMP/h.db" --metric nope
san 0 "history show of one benchmark" history show --db "$TEST_TMP/h.db" --benchmark count-local
san_wait 0 "compare" compare
san_wait 2 "compare of a malformed file" malformed
san_wait 2 "compare of an edited result" edited
san_wait 0 "--json - (stdout)" stdout
san_wait 1 "--json onto /dev/full" full
san_wait 0 "--json onto a FIFO with a reader" fifo
wait

done_testing
