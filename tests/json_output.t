#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --json onto every kind of path, through the real runner (count-local:
# no BPF): a regular file, a symlink, a FIFO with a reader, stdout,
# /dev/full and a full tmpfs.  What the path named must still be what it
# was, and a failure leaves neither a partial nor a temporary file.

# A full tmpfs is mounted in a private mount namespace, gone with us.
# (Before lib.sh, whose temporary directory exec would leak.)
if [ -z "${JSON_OUTPUT_T_MNTNS:-}" ] && [ "$(id -u)" -eq 0 ] &&
   unshare --mount --propagation private true 2>/dev/null; then
	export JSON_OUTPUT_T_MNTNS=1
	exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

# A runner that replaces what --json names would replace the machine's
# /dev/stdout or /dev/full: in our mount namespace, /dev is a tmpfs of our
# own with just what the tests and their tools use.
if [ -n "${JSON_OUTPUT_T_MNTNS:-}" ] && mount -t tmpfs -o size=64k,mode=755 devtmp /dev; then
	mknod -m 666 /dev/null c 1 3
	mknod -m 666 /dev/zero c 1 5
	mknod -m 666 /dev/full c 1 7
	mknod -m 666 /dev/urandom c 1 9
	ln -s /proc/self/fd /dev/fd
	ln -s /proc/self/fd/0 /dev/stdin
	ln -s /proc/self/fd/1 /dev/stdout
	ln -s /proc/self/fd/2 /dev/stderr
	PRIVATE_DEV=1
else
	skip_all "needs root and a private mount namespace (writes onto /dev/stdout and /dev/full)"
fi

RUN=(-q -w0 -d1 count-local)

json_ok() {	# json_ok <file> <description>
	jq -e '.schema == "bench-result" and .benchmark == "count-local"' "$1" >/dev/null 2>&1
	ok $? "$2"
}

no_tmp() {	# no_tmp <dir> <description>
	local found

	# a find that failed would find nothing: it fails the check instead
	found=$(find "$1" -name '*.tmp.*' 2>&1) || found="find failed: $found"
	is "$found" "" "$2"
}

D="$TEST_TMP/d"
mkdir "$D"
# a runner that took "-" for a file name would create it here
cd "$TEST_TMP" || exit 1

# The runs that write a file go side by side (par_start), each onto paths
# of its own, except where one run's check needs an earlier one's result
# (the existing file is the new file's).  Every run that writes under $D
# is reaped before a no_tmp "$D" check, and the full tmpfs's first run
# (-d4) starts first, under a mount of its own.
# umask_start <mask> <out> <command...>: par_start under that umask
umask_start() {
	local saved

	saved=$(umask)
	umask "$1"
	shift
	par_start "$@"
	umask "$saved"
}
if [ -n "$PRIVATE_DEV" ]; then
	M="$TEST_TMP/mnt"
	mkdir "$M"
	mount -t tmpfs -o size=64k tmpfs "$M"
	# one page of room left: not enough for this run's document (over 4 KiB)
	head -c $((60 * 1024)) /dev/zero >"$M/filler" 2>/dev/null
	par_start "$TEST_TMP/tiny" "$BENCH" --json "$M/r.json" -q -w0 -d4 -p4 --per-producer count-local
fi
mkdir "$D/sub"
echo old >"$D/sub/target.json"
ln -s sub/target.json "$D/link.json"
ln -s sub/absent.json "$D/dangling.json"
umask_start 027 "$TEST_TMP/new" "$BENCH" --json "$D/new.json" "${RUN[@]}"
par_start "$TEST_TMP/link" "$BENCH" --json "$D/link.json" "${RUN[@]}"

# ---- a new file follows the umask; an existing file keeps its mode ----
par_wait "$TEST_TMP/new"
is $? 0 "new file: exit 0"
json_ok "$D/new.json" "new file: a result document"
is "$(stat -c %a "$D/new.json")" 640 "new file: mode 640 under umask 027"
chmod 604 "$D/new.json"
umask_start 022 "$TEST_TMP/old" "$BENCH" --json "$D/new.json" "${RUN[@]}"
par_start "$TEST_TMP/dangling" "$BENCH" --json "$D/dangling.json" "${RUN[@]}"
mkfifo "$D/fifo"
timeout 30 cat "$D/fifo" >"$TEST_TMP/fifo.got" &
reader=$!
par_start "$TEST_TMP/fifo" "$BENCH" --json "$D/fifo" "${RUN[@]}"
# the runs that write nowhere under $D
i=0
for p in - /dev/stdout; do
	par_start "$TEST_TMP/so$i" "$BENCH" --json "$p" -w0 -d1 count-local
	i=$((i + 1))
done
# shellcheck disable=SC2016 # the inner shell's expansions
par_start "$TEST_TMP/pipe" bash -c '"$0" --json - -w0 -d1 count-local 2>/dev/null | head -c 0
exit "${PIPESTATUS[0]}"' "$BENCH"
FULL=/dev/full
par_start "$TEST_TMP/full" "$BENCH" --json "$FULL" "${RUN[@]}"
par_wait "$TEST_TMP/old"
is $? 0 "existing file: exit 0"
is "$(stat -c %a "$D/new.json")" 604 "existing file: its mode 604 is kept"
par_wait "$TEST_TMP/link"
link_rc=$?
par_wait "$TEST_TMP/dangling"
dangling_rc=$?
par_wait "$TEST_TMP/fifo"
fifo_rc=$?
no_tmp "$D" "regular file: no temporary file left"

# ---- a symlink keeps pointing at the new content ----
is $link_rc 0 "symlink: exit 0"
assert "symlink: still a symlink" [ -L "$D/link.json" ]
is "$(readlink "$D/link.json")" sub/target.json "symlink: still pointing at its target"
json_ok "$D/sub/target.json" "symlink: the target holds the result"
no_tmp "$D" "symlink: no temporary file left"
is $dangling_rc 0 "dangling symlink: exit 0"
assert "dangling symlink: still a symlink" [ -L "$D/dangling.json" ]
json_ok "$D/sub/absent.json" "dangling symlink: what it points at is created with the result"

# ---- a FIFO is written in place, to its reader ----
is $fifo_rc 0 "FIFO: exit 0"
wait $reader
ok $? "FIFO: the reader got end of file (did not hang)"
json_ok "$TEST_TMP/fifo.got" "FIFO: the reader got the result"
assert "FIFO: still a FIFO" [ -p "$D/fifo" ]
no_tmp "$D" "FIFO: no temporary file"

# a FIFO nobody reads: the run waits for a reader, and a signal ends the wait
# waiting_for_reader <pid>: the run has measured, and sleeps between its
# attempts to open the FIFO (its main thread in nanosleep)
waiting_for_reader() {
	grep -q '^Summary' "$TEST_TMP/fifo2" && grep -q nanosleep "/proc/$1/wchan" 2>/dev/null
}
"${SIG_DEFAULT[@]}" "$BENCH" --json "$D/fifo" "${RUN[@]}" >"$TEST_TMP/fifo2" 2>"$TEST_TMP/fifo2.err" &
pid=$!
wait_for "$TEST_TMP/fifo2" '^Summary' $pid && eventually waiting_for_reader $pid
ok $? "FIFO without a reader: the run measured and waits for a reader"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "wchan: $(cat "/proc/$pid/wchan" 2>&1)"
kill -INT $pid
timeout 10 tail --pid=$pid -f /dev/null
ok $? "FIFO without a reader: SIGINT ends the wait"
wait $pid
rc=$?
is "$rc" 130 "FIFO without a reader: exit status 130"
like "$TEST_TMP/fifo2.err" "^interrupted while waiting for a reader of $D/fifo: not written\$" \
	"FIFO without a reader: says so"
assert "FIFO without a reader: still a FIFO" [ -p "$D/fifo" ]

# ---- stdout: the JSON alone, the human-readable lines on stderr ----
# (the runs were started above, their stdout a file of their own)
i=0
for p in - /dev/stdout; do
	par_wait "$TEST_TMP/so$i"
	is $? 0 "--json $p: exit 0"
	jq -e '.benchmark == "count-local"' "$TEST_TMP/so$i" >/dev/null
	ok $? "--json $p: stdout is the JSON document and nothing else"
	like "$TEST_TMP/so$i.err" '^Summary: hits ' "--json $p: the Summary is on stderr"
	like "$TEST_TMP/so$i.err" '^Iter +0 ' "--json $p: the Iter lines are on stderr"
	i=$((i + 1))
done
assert "--json -: no file named '-' created" [ ! -e ./- ]
assert "--json /dev/stdout: still a symlink" [ -L /dev/stdout ]
par_wait "$TEST_TMP/pipe"
rc=$?
isnt "$rc" 0 "--json - into a pipe nobody reads: non-zero exit"

# ---- /dev/full: ENOSPC, said, and the device is still the device ----
par_wait "$TEST_TMP/full"
isnt $? 0 "/dev/full: non-zero exit"
like "$TEST_TMP/full.err" "^failed to write $FULL: No space left on device\$" "/dev/full: says so"
assert "/dev/full: still a character device" [ -c "$FULL" ]
no_tmp "$D" "/dev/full: no temporary file"

# ---- a full tmpfs ----
if [ -n "$PRIVATE_DEV" ]; then
	# (mounted, filled and started above)
	par_wait "$TEST_TMP/tiny"
	isnt $? 0 "nearly full tmpfs: non-zero exit"
	like "$TEST_TMP/tiny.err" "^failed to write $M/r.json: No space left on device\$" \
		"nearly full tmpfs: says so"
	assert "nearly full tmpfs: no result file" [ ! -e "$M/r.json" ]
	no_tmp "$M" "nearly full tmpfs: no temporary file"
	head -c 1M /dev/zero >>"$M/filler" 2>/dev/null
	run_bench "$TEST_TMP/tinyfull" --json "$M/r.json" "${RUN[@]}"
	isnt $? 0 "full tmpfs: refused"
	like "$TEST_TMP/tinyfull.err" "^invalid --json '$M/r.json': cannot write there: No space left on device\$" \
		"full tmpfs: refused before the run, saying why"
	is "$(grep -c . "$TEST_TMP/tinyfull")" 0 "full tmpfs: the benchmark did not start (no line on stdout)"
	is "$(ls -A "$M")" filler "full tmpfs: nothing but the filler"
	mount -o remount,ro "$M"
	run_bench "$TEST_TMP/ro" --json "$M/r.json" "${RUN[@]}"
	isnt $? 0 "read-only file system: refused"
	like "$TEST_TMP/ro.err" "cannot write there: Read-only file system\$" "read-only file system: says so"
	umount "$M"
else
	skip "needs root and a private mount namespace" "full tmpfs"
fi

# ---- refused before the run: nothing created ----
run_bench "$TEST_TMP/dir" --json "$D" "${RUN[@]}"
isnt $? 0 "a directory: refused"
like "$TEST_TMP/dir.err" "cannot write there: Is a directory\$" "a directory: says so"
run_bench "$TEST_TMP/cfd" --json /dev/fd/9 "${RUN[@]}" 9>&-
isnt $? 0 "a closed descriptor: refused"
like "$TEST_TMP/cfd.err" "^invalid --json '/dev/fd/9': cannot write there: Bad file descriptor\$" \
	"a closed descriptor: says so"

done_testing
