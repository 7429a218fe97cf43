#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vmtest_suite.sh (make vmtest's driver) with a stand-in for
# scripts/vmtest.sh: a VM whose guest kernel locked up is booted once more,
# and only then; a test failure is not retried; a signal to the suite
# reaches every vmtest.sh, so no VM outlives it.  No VM, no BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

SUITE=$TESTS_DIR/vmtest_suite.sh
FAKE=$TEST_TMP/fake-vmtest.sh
export CALLS=$TEST_TMP/calls
# make test PROVE_FLAGS=--timer exports them to every test: the stand-in
# below reads its files from prove's command line, which they would join
unset PROVE_FLAGS

# fake-vmtest.sh ... -- prove --exec '' FILES...: logs its files; $MODE
# says how it ends: ok, lockup-once, lockup, vmfail, testfail, hang
cat >"$FAKE" <<'FAKE'
#!/bin/bash
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift 4		# -- prove --exec ''
echo "$*" >>"$CALLS"
n=$(grep -cxF "$*" "$CALLS")
lockup() {
	echo "vmtest.sh: the guest kernel locked up (soft lockup - CPU#0 stuck for 23s! [bench:162]): kernel log above" >&2
	exit 125
}
case $MODE in
ok) echo "prove: $*: ok" ;;
lockup-once) if [ "$n" -eq 1 ] && [[ $* == *a.t* ]]; then lockup; fi; echo "prove: $*: ok" ;;
lockup) lockup ;;
vmfail) echo "vmtest.sh: the VM failed to boot (qemu exit 1): kernel log above" >&2; exit 125 ;;
testfail) echo "prove: $*: FAIL"; exit 1 ;;
hang)
	trap 'echo "$$" >>"$CALLS.term"; kill "$child"; exit 143' TERM
	sleep 300 &
	child=$!
	echo "$child" >>"$CALLS.child"
	wait
	;;
esac
FAKE
chmod +x "$FAKE"

suite() {	# suite <mode> <output>: the suite over four files on two VMs
	local mode=$1 out=$2
	rm -f "$CALLS"
	MODE=$mode VMTEST=$FAKE "$SUITE" -j 2 -- a.t b.t c.t d.t >"$out" 2>&1
}

suite ok "$TEST_TMP/ok"
is $? 0 "two VMs that pass: exit 0"
is "$(wc -l <"$CALLS")" 2 "two VMs booted"
like "$TEST_TMP/ok" '^vmtest_suite\.sh: all 2 VM\(s\) passed$' "and says so"

suite lockup-once "$TEST_TMP/once"
is $? 0 "a guest lockup, then a pass on the second boot: exit 0"
is "$(grep -cx 'a.t c.t' "$CALLS")" 2 "the locked-up VM's files ran twice"
is "$(grep -cx 'b.t d.t' "$CALLS")" 1 "the other VM's once"
like "$TEST_TMP/once" '^vmtest_suite\.sh: VM 1: the guest kernel locked up; booting it again, once: a\.t c\.t$' \
	"the second boot is announced, with its files"
like "$TEST_TMP/once" 'soft lockup - CPU#0 stuck' "the lockup's own line is in the output"

suite lockup "$TEST_TMP/twice"
is $? 1 "a guest that locks up twice: exit 1"
is "$(wc -l <"$CALLS")" 4 "each VM booted twice, no more"
like "$TEST_TMP/twice" '^vmtest_suite\.sh: VM 2: the guest kernel locked up again$' "says it happened again"
like "$TEST_TMP/twice" '^vmtest_suite\.sh: FAILED$' "and fails"

suite vmfail "$TEST_TMP/vmfail"
is $? 1 "a VM that failed to boot: exit 1"
is "$(wc -l <"$CALLS")" 2 "not booted again: only a lockup is"
suite testfail "$TEST_TMP/testfail"
is $? 1 "a failing test: exit 1"
is "$(wc -l <"$CALLS")" 2 "a test failure is never retried"

# a signal to the suite reaches each vmtest.sh (which kills its VM)
rm -f "$CALLS" "$CALLS.term" "$CALLS.child"
MODE=hang VMTEST=$FAKE "${SIG_DEFAULT[@]}" "$SUITE" -j 2 -- a.t b.t >"$TEST_TMP/hang" 2>&1 &
pid=$!
lines_are() {	# lines_are <file> <n>
	local n

	n=$(wc -l 2>/dev/null <"$1") || n=0
	[ "$n" -eq "$2" ]
}
eventually lines_are "$CALLS.child" 2
ok $? "two stand-ins started"
kill -TERM "$pid"
wait "$pid"
is $? 143 "SIGTERM: the suite exits 143"
eventually lines_are "$CALLS.term" 2
ok $? "both vmtest.sh got SIGTERM"
none_left() {	# none of the stand-ins' children is running (or a zombie)
	local c
	while read -r c; do
		! kill -0 "$c" 2>/dev/null || return 1
	done <"$CALLS.child"
}
eventually none_left
ok $? "nothing they started is left running"

done_testing
