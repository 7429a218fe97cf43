#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every command's standard output onto /dev/full, a closed descriptor and
# a full file system: one line naming the error (strerror's), and the exit
# status README's table gives an output that could not be written (1;
# compare's 2, as its 1 is a regression), never 0.  A reader that went away
# ends a command as its SIGPIPE would, quietly: 141.  count-local runs, no
# BPF.

# its mounts (a full or read-only tmpfs) in a namespace of its own
# shellcheck disable=SC2034 # read by lib.sh
PRIVATE_MOUNTS=1

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP" || exit 1

"$BENCH" -q -w0 -d3 --min-cpu-share 0 --json a.json count-local >/dev/null 2>&1
is $? 0 "a result file to read"
steady_and_halved a.json steady.json half.json
"$BENCH" history add --db h.db a.json >/dev/null 2>&1
is $? 0 "a history to list"

# out_fails <status> <what> <command...>: onto /dev/full and closed, the
# same status and one line naming the error
out_fails() {
	local want=$1 what=$2 rc

	shift 2
	"$@" >/dev/full 2>full.err
	rc=$?
	is "$rc" "$want" "$what >/dev/full: exit $want"
	like full.err ': No space left on device$' "$what >/dev/full: says ENOSPC"
	"$@" >&- 2>closed.err
	rc=$?
	is "$rc" "$want" "$what >&-: exit $want"
	like closed.err ': Bad file descriptor$' "$what >&-: says EBADF"
}

out_fails 2 "compare" "$BENCH" compare a.json a.json
out_fails 2 "compare --json" "$BENCH" compare --json a.json a.json
out_fails 2 "compare --markdown" "$BENCH" compare --markdown a.json a.json
out_fails 2 "compare --fail-on-regression of a regression" \
	"$BENCH" compare --fail-on-regression steady.json half.json
like full.err '^compare: failed to write standard output: No space left on device$' \
	"compare: the line names the command and what failed"
out_fails 1 "config" "$BENCH" config a.json
out_fails 1 "config --key" "$BENCH" config --key a.json
out_fails 1 "history list" "$BENCH" history list --db h.db
out_fails 1 "history list --json" "$BENCH" history list --db h.db --json
out_fails 1 "history show" "$BENCH" history show --db h.db
out_fails 1 "history show --json" "$BENCH" history show --db h.db --json
out_fails 1 "plot -o -" "$BENCH" plot timeline --text -o - a.json
out_fails 1 "export kcidb" "$BENCH" export kcidb --origin test a.json
out_fails 1 "bench -l" "$BENCH" -l
out_fails 1 "bench -l --json -" "$BENCH" -l --json -
out_fails 1 "bench --help" "$BENCH" --help
out_fails 2 "compare --help" "$BENCH" compare --help
# bench ab's report (issue 40's item 4: ab and ab --json once exited 0):
# 1, its directory a new one under TMPDIR each time, its ab.txt kept
AB=(ab --blocks 6 --cmd-a "cp $TEST_TMP/a.json \"\$BENCH_AB_JSON\"" --cmd-b "cp $TEST_TMP/a.json \"\$BENCH_AB_JSON\"")
TMPDIR=$TEST_TMP out_fails 1 "ab" "$BENCH" "${AB[@]}"
TMPDIR=$TEST_TMP out_fails 1 "ab --json" "$BENCH" "${AB[@]}" --json
is "$(find "$TEST_TMP" -maxdepth 2 -path '*/bench-ab-*/ab.txt' -size +0 | wc -l)" 4 "ab: each report kept whole in its directory"

# an option naming the standard output (-o -, --json -): README's one line
# and the status of an output that could not be written, where a closed
# one was once a bad option (import, export: "invalid -o '-'", exit 2) or
# said twice (the runner); "failed to write -" is "standard output" now
"$BENCH" -w0 -d2 --min-cpu-share 0 count-local >up.txt 2>/dev/null
is $? 0 "a runner's text to import"
# out_fails_once <status> <what> <command...>: out_fails, each failure said
# once (a run's noise warnings may come before it)
out_fails_once() {
	out_fails "$@"
	is "$(grep -c 'failed to' full.err) $(grep -c 'failed to' closed.err)" "1 1" "$2: one line each"
	like full.err '(^|: )failed to write standard output: ' "$2 >/dev/full: names the standard output"
	like closed.err '(^|: )failed to write standard output: ' "$2 >&-: names the standard output"
}
out_fails_once 1 "import -o -" "$BENCH" import -o - -C "bench -w0 -d2 count-local" up.txt
out_fails_once 1 "export kcidb -o -" "$BENCH" export kcidb --origin test -o - a.json
out_fails_once 1 "bench --json -" "$BENCH" -q -w0 -d1 --min-cpu-share 0 --json - count-local
out_fails_once 1 "bench -l --json /dev/stdout" "$BENCH" -l --json /dev/stdout
# a path that cannot be written stays a bad option
"$BENCH" export kcidb --origin test -o none/k.json a.json >/dev/null 2>bad.err
is $? 2 "export -o into a missing directory: still 2"
like bad.err "^invalid -o 'none/k\.json': cannot write there: No such file or directory$" "it says so"

# a refusal keeps its own status: bad input, whatever stdout is
"$BENCH" compare a.json none.json >/dev/full 2>/dev/null
is $? 2 "compare of a missing file >/dev/full: still 2"

# a reader gone (before the list is written): 141, nothing said
{ sleep 0.3; "$BENCH" history list --db h.db 2>gone.err; echo $? >gone.rc; } | true
is "$(cat gone.rc)" 141 "history list | a reader gone: 141"
assert "history list | a reader gone: nothing said" stderr_clean gone.err

if [ -n "${BENCH_TEST_MNTNS:-}" ]; then
	mkdir full
	mount -t tmpfs -o size=16k tmpfs full
	head -c $((16 * 1024)) /dev/zero >full/filler 2>/dev/null
	"$BENCH" compare a.json a.json >full/out 2>tmpfs.err
	is $? 2 "compare >full tmpfs: exit 2"
	like tmpfs.err '^compare: failed to write standard output: No space left on device$' \
		"compare >full tmpfs: says ENOSPC"
	"$BENCH" config a.json >full/out 2>tmpfs.err
	is $? 1 "config >full tmpfs: exit 1"
	umount full
else
	skip "needs root and a private mount namespace" "outputs onto a full tmpfs"
fi

done_testing
