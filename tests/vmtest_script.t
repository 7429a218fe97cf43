#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vmtest.sh: bad arguments are refused before anything boots; with
# VMTEST_BOOT=1 (make vmtest sets it), real boots: COMMAND's output and
# exit status, a file written to OUTDIR, the timeout, SIGTERM and SIGINT,
# each leaving no qemu and no temporary directory behind.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

VMTEST=$SRC_TOP/scripts/vmtest.sh
# our own TMPDIR: vmtest.sh's temporary directories and its qemu (whose
# command line names them) are told apart from other runs by it
export TMPDIR=$TEST_TMP/tmp
mkdir -p "$TMPDIR"

# refused <description> <stderr regex> <args...>: exit 2, one line, nothing left
refused() {
	local what=$1 re=$2 out=$TEST_TMP/bad rc
	shift 2

	"$VMTEST" "$@" >"$out" 2>"$out.err"
	rc=$?
	is "$rc" 2 "$what: refused with exit 2"
	is "$(wc -l <"$out.err")" 1 "$what: one line on stderr"
	like "$out.err" "$re" "$what: the message names the problem"
	assert "$what: nothing on stdout" [ ! -s "$out" ]
	assert "$what: no temporary directory left" [ -z "$(ls -A "$TMPDIR")" ]
}

refused "no command" "no COMMAND" --
refused "unknown option" "unknown option '-x'" -x -- true
refused "-c 0" "bad CPU count '0'.*1\\.\\.255" -c 0 -- true
refused "-c abc" "bad CPU count 'abc'" -c abc -- true
refused "-m 2T" "bad memory size '2T'" -m 2T -- true
refused "-m 0" "bad memory size '0'" -m 0 -- true
refused "-t -1" "bad timeout '-1'" -t -1 -- true
refused "-t 5s" "bad timeout '5s'" -t 5s -- true
refused "-k missing file" "kernel '/nonexistent/bzImage' is not a file" -k /nonexistent/bzImage -- true
refused "-k bad name" "bad kernel 'Linux Image'" -k 'Linux Image' -- true
refused "-k .deb missing" "kernel 'nope.deb' is not a file" -k nope.deb -- true
refused "-M without a bzImage" "-M '/tmp' goes only with a bzImage" -M /tmp -- true
touch "$TEST_TMP/bzImage"
refused "-M without modules.dep" "bad modules directory '$TEST_TMP'" -k "$TEST_TMP/bzImage" -M "$TEST_TMP" -- true
touch "$TEST_TMP/file"
refused "-o a file" "bad output directory '$TEST_TMP/file'" -o "$TEST_TMP/file" -- true
refused "-o /" "bad output directory '/'" -o / -- true
refused "-e 1X" "bad variable '1X'" -e 1X -- true
refused "-t without a value" "option -t needs a value" -t
VMTEST_ACCEL=xen refused "VMTEST_ACCEL=xen" "bad VMTEST_ACCEL 'xen'" -- true
if [ "$(id -u)" -eq 0 ] || [ -n "$(command -v apt-cache)" ]; then
	refused "-k unknown package" "kernel 'linux-image-nonesuch' is no Debian package" -k linux-image-nonesuch -- true
fi

if [ "${VMTEST_BOOT:-0}" != 1 ]; then
	skip "boots take a minute under TCG: make vmtest runs them (VMTEST_BOOT=1)" "real boots"
	done_testing
	exit
fi
for tool in qemu-system-x86_64 busybox; do
	if ! command -v "$tool" >/dev/null; then
		ok 1 "$tool is installed (scripts/install-deps.sh)"
		done_testing
		exit
	fi
done

# ---- the real boots ----
# Three cases boot a kernel all the way: a normal run, a bzImage without its
# modules, SIGINT mid-command.  One after another they were most of make
# vmtest's serial part, while a boot under TCG keeps about one of the host's
# CPUs busy: they boot at once, and the short cases run while they boot.
# Each case has a TMPDIR of its own, where its vmtest.sh makes its temporary
# directory and so names it on its qemu's command line: no_leftovers then
# sees that case's qemu and directory only.

# case_tmp <name>: a new TMPDIR for one case
case_tmp() {
	mkdir -p "$TMPDIR/$1"
	echo "$TMPDIR/$1"
}

# no_leftovers <what> <the case's TMPDIR>: no qemu of it, no temporary directory
no_leftovers() {
	local left

	left=$(pgrep -af "qemu-system.*$2/vmtest\\." || true)
	assert "$1: no qemu left" [ -z "$left" ]
	[ -z "$left" ] || diag "$left"
	assert "$1: no temporary directory left ($(ls -A "$2"))" [ -z "$(ls -A "$2")" ]
}

# a command's output, exit status and a file in OUTDIR; the first boot
# fetches the default kernel on a clean clone
outdir=$TEST_TMP/out
run=$TEST_TMP/run
tmp_run=$(case_tmp run)
# shellcheck disable=SC2016 # expanded in the guest
TMPDIR=$tmp_run "$VMTEST" -o "$outdir" -e VMTEST_T_VALUE='two words' -- \
	bash -c 'echo "hello from $(uname -r)"; echo "$VMTEST_T_VALUE" >"$VMTEST_OUTDIR/back";
		 [ "$(pwd)" = "$1" ] && echo "in the project"; grep -w cgroup2 /proc/mounts | cut -d" " -f2;
		 exit 42' _ "$SRC_TOP" >"$run" 2>"$run.err" &
run_pid=$!
# "booting": the kernel is in the cache, for the boots below
wait_for "$run.err" 'booting' "$run_pid" 600
ok $? "the normal run gets to booting (the default kernel fetched)"

# Debian's kernel has 9p and overlay as modules: without -M they are missing
nomod=$TEST_TMP/nomod
tmp_nomod=$(case_tmp nomod)
image=$(find "${OUTPUT:-$(dirname "$0")/../.output}/vmtest/kernels" -path '*/boot/vmlinuz-*' 2>/dev/null | head -n 1)
if [ -n "$image" ]; then
	TMPDIR=$tmp_nomod "$VMTEST" -k "$image" -- true >"$nomod" 2>"$nomod.err" &
	nomod_pid=$!
fi

# SIGINT to the process group, as a terminal's Ctrl-C, mid-command: a job
# of its own (set -m), with SIGINT's default action even when this test was
# started with it ignored, as by `cmd &` from a script (bash cannot undo an
# inherited ignore; SIG_DEFAULT does).  -t bounds a failure.
sigint=$TEST_TMP/sigint
tmp_sigint=$(case_tmp sigint)
set -m
TMPDIR=$tmp_sigint "${SIG_DEFAULT[@]}" "$VMTEST" -t 600 -- sh -c 'echo started; sleep 600' >"$sigint" 2>"$sigint.err" &
sigint_pid=$!
set +m

# ---- while they boot: a VM that cannot boot, 125 and why ----
out=$TEST_TMP/notkernel
tmp=$(case_tmp notkernel)
TMPDIR=$tmp "$VMTEST" -k "$TEST_TMP/bzImage" -- true >"$out" 2>"$out.err"
rc=$?
is "$rc" 125 "not a kernel: exit 125"
like "$out.err" 'failed to boot' "not a kernel: it says the VM failed to boot"
no_leftovers "after a failed boot" "$tmp"

# ---- the timeout: 124 and a message ----
out=$TEST_TMP/timeout
tmp=$(case_tmp timeout)
TMPDIR=$tmp "$VMTEST" -t 2 -- sleep 600 >"$out" 2>"$out.err"
rc=$?
is "$rc" 124 "timeout: exit 124"
like "$out.err" 'timed out after 2 s' "timeout: it says so"
no_leftovers "after a timeout" "$tmp"

# ---- SIGTERM while booting ----
out=$TEST_TMP/sigterm
tmp=$(case_tmp sigterm)
TMPDIR=$tmp "${SIG_DEFAULT[@]}" "$VMTEST" -- sleep 600 >"$out" 2>"$out.err" &
pid=$!
wait_for "$out.err" 'booting' "$pid" 120
# booting: the VM is up once its qemu runs (and is what SIGTERM must end)
eventually pgrep -f "qemu-system.*$tmp/vmtest\\." >/dev/null
ok $? "SIGTERM: a qemu is booting"
kill -TERM "$pid"
wait "$pid"
rc=$?
is "$rc" 143 "SIGTERM: exit 143"
no_leftovers "after SIGTERM" "$tmp"

# ---- the boots' verdicts ----
wait "$run_pid"
rc=$?
is "$rc" 42 "COMMAND's exit status comes out"
like "$run" '^hello from [0-9]' "COMMAND's output comes out"
like "$run" '^in the project$' "COMMAND runs in the project directory"
like "$run" '^/sys/fs/cgroup$' "the guest has cgroup2 at /sys/fs/cgroup"
assert "a file written to OUTDIR comes back, -e VAR=VALUE went in" \
	[ "$(cat "$outdir/back" 2>/dev/null)" = "two words" ]
like "$run.err" 'booting .* under (KVM|TCG)' "it says what it boots and how"
[ "$rc" -eq 42 ] || diag "$(cat "$run" "$run.err")"
no_leftovers "after a normal run" "$tmp_run"

if [ -n "$image" ]; then
	wait "$nomod_pid"
	rc=$?
	is "$rc" 125 "a bzImage without its modules: exit 125"
	like "$nomod.err" 'the kernel lacks: 9p .*overlay' "a bzImage without its modules: it names what is missing"
	no_leftovers "after a kernel without 9p" "$tmp_nomod"
fi

wait_for "$sigint" '^started$' "$sigint_pid" 480
ok $? "SIGINT: the command got going"
kill -INT -- "-$sigint_pid"
wait "$sigint_pid"
rc=$?
is "$rc" 130 "SIGINT: exit 130"
like "$sigint.err" 'got SIGINT' "SIGINT: it says so"
no_leftovers "after SIGINT" "$tmp_sigint"

done_testing
