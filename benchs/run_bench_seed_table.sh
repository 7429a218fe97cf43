#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The htab-mem cover letter's table in one command: the seed's
#
#   ./bench htab-mem --use-case $name ${OPTS} -w3 -d10 -a -p8
#
# for no_op (the baseline row: the same cgroup and map, no operation) and
# the three use cases, both flavours (OPTS=--preallocated, then the BPF
# memory allocator), in a VM of CPUS vCPUs booting each KERNEL in turn
# (scripts/vmtest.sh), or on this machine without -k.  Per kernel and
# flavour, one table of the seed's shape with the memory split beside it:
#
#   | name | loop (k/s) | average memory (MiB) | peak memory (MiB) | stat (MiB) | unstat (MiB) | stat - no_op (MiB) | stat's parts (MiB) |
#
# average and peak memory are memory.current, the seed's figures; stat is
# memory.stat's parts (docs/memory.md), which the CPUs' precharged batches
# (unstat) do not inflate; stat - no_op is what the use case adds to the
# baseline row's map.
#
#   benchs/run_bench_seed_table.sh [-k KERNEL]... [-c CPUS] [-m MEM]
#                                  [-p PRODUCERS] [-w SECS] [-d SECS]
#                                  [-u "USE_CASE..."] [-o DIR]
#
#   -k KERNEL  a kernel for scripts/vmtest.sh -k (up to two; none: run here)
#   -c CPUS    the VM's vCPUs (default 8)
#   -m MEM     the VM's memory (default 8G)
#   -p N       producers (default: CPUS in a VM, else run_common.sh's default)
#   -w, -d     warm-up and measured seconds (default 3 and 10, the seed's)
#   -u LIST    use cases (default "no_op overwrite batch_add_batch_del add_del_on_diff_cpu")
#   -o DIR     keep the runs' result files in DIR/KERNEL/{prealloc,bpf-ma}-USE_CASE.json
#              (KERNEL "local" without -k; default: a temporary directory, removed)
#
# BENCH names the bench binary (default ./bench, in the source tree).
#
# Under TCG (no /dev/kvm) the rates are an emulator's; the memory is the
# kernel's.  Runs use --min-cpu-share 0: a busy host starves vCPUs, and
# the memory figures do not depend on it.  Exit status: 0, 1 when a run or
# a VM failed or a run failed map operations (its table says which), 2 for
# bad arguments.
set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

PROG=run_bench_seed_table.sh
SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KERNELS=()
CPUS=8
MEM=8G
PRODUCERS=""
WARMUP=3
DURATION=10
USE_CASES="no_op overwrite batch_add_batch_del add_del_on_diff_cpu"
KEEP=""

usage_error() {
	echo "$PROG: $*" >&2
	exit 2
}

int_arg() {	# int_arg OPTION VALUE MIN MAX
	if ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then
		usage_error "invalid $1 '$2': expected an integer in $3..$4"
	fi
}

while getopts ":k:c:m:p:w:d:u:o:" opt; do
	case $opt in
	k) KERNELS+=("$OPTARG") ;;
	c) int_arg -c "$OPTARG" 1 256; CPUS=$OPTARG ;;
	m) MEM=$OPTARG ;;
	p) int_arg -p "$OPTARG" 1 256; PRODUCERS=$OPTARG ;;
	w) int_arg -w "$OPTARG" 0 3600; WARMUP=$OPTARG ;;
	d) int_arg -d "$OPTARG" 1 3600; DURATION=$OPTARG ;;
	u) USE_CASES=$OPTARG ;;
	o) KEEP=$OPTARG ;;
	:) usage_error "-$OPTARG needs a value" ;;
	*) usage_error "unknown option '-$OPTARG' (accepted: -k -c -m -p -w -d -u -o -h)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage_error "unexpected argument '$1' (the options above only)"
[ "${#KERNELS[@]}" -le 2 ] || usage_error "invalid -k: ${#KERNELS[@]} kernels given, at most 2 accepted"
for u in $USE_CASES; do
	case $u in
	no_op | overwrite | batch_add_batch_del | add_del_on_diff_cpu) ;;
	*) usage_error "invalid use case '$u' in -u: expected no_op, overwrite, batch_add_batch_del or add_del_on_diff_cpu" ;;
	esac
done
[ -n "$USE_CASES" ] || usage_error "invalid -u '': expected one use case or more"
command -v jq >/dev/null || { echo "$PROG: jq is missing: it builds the tables" >&2; exit 1; }

if [ -n "$KEEP" ]; then
	if ! mkdir -p "$KEEP" 2>/dev/null || [ ! -w "$KEEP" ]; then
		usage_error "invalid -o '$KEEP': cannot write there"
	fi
	OUT=$(cd "$KEEP" && pwd)
else
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/seed-table.XXXXXX") || exit 1
	trap 'rm -rf "$OUT"' EXIT
fi

# the runs of one kernel (or of this machine) into dir: run_bench_htab_mem.sh's
run_rows() {	# run_rows DIR [KERNEL]
	local dir=$1 kernel=${2:-} p=$PRODUCERS
	local -a cmd

	mkdir -p "$dir"
	[ -n "$p" ] || { [ -n "$kernel" ] && p=$CPUS; }
	cmd=(env "RUN_BENCH=${BENCH:-./bench} -w$WARMUP -d$DURATION -a --min-cpu-share 0"
	     "USE_CASES=$USE_CASES" ${p:+"PRODUCERS=$p"}
	     benchs/run_bench_htab_mem.sh --json-dir "$dir")
	if [ -n "$kernel" ]; then
		"$SRCDIR/scripts/vmtest.sh" -k "$kernel" -c "$CPUS" -m "$MEM" -o "$OUT" -- "${cmd[@]}"
	else
		(cd "$SRCDIR" && "${cmd[@]}")
	fi
}

# one flavour's table from its result files
table() {	# table DIR FLAVOUR
	local dir=$1 flavour=$2 u first=""

	for u in $USE_CASES; do
		[ -f "$dir/$flavour-$u.json" ] && { first=$dir/$flavour-$u.json; break; }
	done
	[ -n "$first" ] || { echo "(no run of this flavour succeeded)"; return; }
	jq -r '.context as $c | "Kernel \($c.kernel_release); -p\(.options.runner.producers); \($c.nr_online_cpus) CPUs; -w\(.options.runner.warmup_sec) -d\(.options.runner.duration_sec)"' "$first"
	echo
	echo "| name | loop (k/s) | average memory (MiB) | peak memory (MiB) | stat (MiB) | unstat (MiB) | stat - no_op (MiB) | stat's parts (MiB) |"
	echo "| -- | --: | --: | --: | --: | --: | --: | -- |"
	for u in $USE_CASES; do
		if [ ! -f "$dir/$flavour-$u.json" ]; then
			echo "| $u | failed: no result (see above) | | | | | | |"
			continue
		fi
		jq -r --arg name "$u" --slurpfile base <(cat "$dir/$flavour-no_op.json" 2>/dev/null || echo null) '
			def f: if . == null then "n/a" else (. * 100 | round) as $h | ($h | fabs) as $a
				| (if $h < 0 then "-" else "" end) + ($a / 100 | floor | tostring) + "."
				+ ($a % 100 | tostring | if length < 2 then "0" + . else . end) end;
			.summary.metrics as $m | (.memory_source.stat_parts // []) as $p |
			($base[0].summary.metrics.memory_stat.mean // null) as $b |
			"| \($name) | \($m.per_prod_op.mean | f) | \($m.memory.mean | f) ± \($m.memory.stddev | f) | \(.summary.peak_memory_mib | f) | \($m.memory_stat.mean | f) | \($m.memory_unstat.mean | f) | "
			+ (if $b == null or $m.memory_stat == null then "n/a" else ($m.memory_stat.mean - $b | f) end) + " | "
			+ ([$p[] | "\(sub("^memory_"; "")) \($m[.].mean | f)"] | join(" + "))
			+ ([("memory_slab", "memory_percpu", "memory_vmalloc") | select($m[.]) | "\(sub("^memory_"; "")) \($m[.].mean | f)"]
			   | if length > 0 then " (in kernel: " + join(", ") + ")" else "" end)
			+ " |" + (if .summary.fails > 0 then " FAILED operations: \(.summary.fails)" else "" end)' \
			"$dir/$flavour-$u.json"
	done
}

status=0
targets=("${KERNELS[@]}")
[ "${#KERNELS[@]}" -gt 0 ] || targets=("")
for k in "${targets[@]}"; do
	dir=$OUT/${k:-local}
	dir=${dir//[^A-Za-z0-9_.\/+-]/_}
	# the runs' own lines go to stderr: stdout is the tables
	run_rows "$dir" "$k" >&2 || { echo "$PROG: the runs on ${k:-this machine} failed (status $?)" >&2; status=1; }
	for flavour in prealloc bpf-ma; do
		echo
		if [ "$flavour" = prealloc ]; then
			printf '%s: preallocated\nOPTS=--preallocated\n\n' "${k:-this machine}"
		else
			printf '%s: normal bpf memory allocator\nOPTS=\n\n' "${k:-this machine}"
		fi
		table "$dir" "$flavour"
		for u in $USE_CASES; do
			# no result, or failed map operations (the row says FAILED)
			if [ ! -f "$dir/$flavour-$u.json" ] ||
			   [ "$(jq '.summary.fails' "$dir/$flavour-$u.json")" != 0 ]; then
				status=1
			fi
		done
	done
done
exit $status
