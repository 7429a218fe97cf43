# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Minimal TAP producer for the integration tests.  Source it, then call
# the assertions; done_testing prints the plan.

BENCH=${BENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bench}
TAP_N=0
TAP_FAILED=0
TEST_TMP=$(mktemp -d /tmp/bench-test.XXXXXX)
trap 'rm -rf "$TEST_TMP"' EXIT

TAP_LAST_FAILED=0

ok() {	# ok <0|1 as exit status of a check> <description>
	local status=$1
	shift
	TAP_N=$((TAP_N + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $TAP_N - $*"
		TAP_LAST_FAILED=0
	else
		echo "not ok $TAP_N - $*"
		TAP_FAILED=$((TAP_FAILED + 1))
		TAP_LAST_FAILED=1
		echo "# failed: $TAP_N - $*" >&2
	fi
}

# diagnostics: after a failed check they go to stderr, which prove shows
diag() {
	if [ "$TAP_LAST_FAILED" -eq 1 ]; then
		# shellcheck disable=SC2001
		echo "$*" | sed 's/^/# /' >&2
	else
		# shellcheck disable=SC2001
		echo "$*" | sed 's/^/# /'
	fi
}

skip() {	# skip <reason> <description>
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $2 # SKIP $1"
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

# run <outfile> <args...>: run the bench, keep stdout+stderr apart, return rc
run_bench() {
	local out=$1
	shift
	"$BENCH" "$@" >"$out" 2>"$out.err"
}

# assert <description> <command...>: ok when the command succeeds
assert() {
	local what=$1
	shift
	if "$@"; then
		ok 0 "$what"
	else
		ok 1 "$what"
	fi
}

# like() <file> <extended regex> <description>
like() {
	if grep -Eq -- "$2" "$1"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "expected /$2/ in $1:"
		diag "$(head -c 2000 "$1")"
	fi
}

# Integration tests that load BPF: under CI=true, not being able to is a
# failure; elsewhere the whole file is skipped with the reason.
require_bpf() {
	local why=""

	if [ "$(id -u)" -ne 0 ]; then
		why="not root: loading BPF programs needs root (or CAP_BPF+CAP_PERFMON+CAP_SYS_ADMIN)"
	elif [ ! -r /sys/kernel/btf/vmlinux ]; then
		why="kernel has no BTF at /sys/kernel/btf/vmlinux"
	fi
	if [ -n "$why" ]; then
		if [ "${CI:-}" = "true" ]; then
			echo "1..1"
			echo "not ok 1 - cannot load BPF under CI: $why"
			exit 1
		fi
		skip_all "$why"
	fi
}

# own_mem_source: "v2 DIR" or "v1 DIR", the memory cgroup we run in,
# decided like cgroup_helpers.c does: the v2 cgroup when it delegates memory
# to its children, else the v1 memory one; nothing when there is neither
own_mem_source() {
	local v2mnt v1mnt path

	# mountinfo: ... mountpoint opts [optional fields] - fstype source superopts
	v2mnt=$(awk '{ for (i = 7; $i != "-"; i++); } $(i + 1) == "cgroup2" { print $5; exit }' \
		/proc/self/mountinfo)
	path=$(awk -F: '$1 == "0" && $2 == "" { print $3 }' /proc/self/cgroup)
	if [ -n "$v2mnt" ] && grep -qw memory "$v2mnt$path/cgroup.subtree_control" 2>/dev/null; then
		echo "v2 ${v2mnt}${path%/}"
		return
	fi
	v1mnt=$(awk '{ for (i = 7; $i != "-"; i++); }
		$(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/ { print $5; exit }' \
		/proc/self/mountinfo)
	path=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	if [ -n "$v1mnt" ] && [ -e "$v1mnt$path/memory.usage_in_bytes" ]; then
		echo "v1 ${v1mnt}${path%/}"
	fi
}

# own_mem_cgroup: the directory of own_mem_source
own_mem_cgroup() {
	local src

	src=$(own_mem_source)
	echo "${src#v? }"
}

# the BPF program names of bench's skeletons that are currently loaded
loaded_bench_progs() {	# loaded_bench_progs <name regex>
	bpftool prog show 2>/dev/null | grep -Ec -- "name ($1) " || true
}

# stderr_clean <file>: nothing on stderr but the runner's noise warnings
# ("warning: ..."), which depend on the machine's load, not on correctness
stderr_clean() {
	! grep -qv '^warning: ' "$1"
}

# eventually <command...>: true once the command succeeds within 3 s; the
# kernel frees a closed program's maps asynchronously
eventually() {
	local i

	for i in $(seq 30); do
		"$@" && return 0
		[ "$i" -lt 30 ] && sleep 0.1
	done
	return 1
}
