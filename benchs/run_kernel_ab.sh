#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A/B one benchmark across two kernels, each booted in a throw-away VM.
#
#   benchs/run_kernel_ab.sh -k KERNEL_A [-M MODULES_A] -k KERNEL_B [-M MODULES_B]
#                           [-n N | -b BUDGET] [-o DIR] -- BENCH ARGS...
#
# Boots KERNEL_A and KERNEL_B N times each (default 3), interleaved A B A B
# so that a drift of the machine hits both sides alike, and runs
# "./bench --json FILE BENCH ARGS..." in each boot (scripts/vmtest.sh; a
# KERNEL is what vmtest.sh -k takes: a Debian kernel package name, a .deb or
# a bzImage).  The result files are kept in DIR (default
# .output/kernel-ab/<date>-<time> in the source tree; where make install put
# this script, a new directory under $TMPDIR) as A-1.json, B-1.json,
# A-2.json, ..., and compared with "bench compare", A as BASE and B as NEW.
#
#   -M MODULES  after a -k of a bzImage: that kernel's modules, the
#               lib/modules/VERSION directory of its build (make
#               modules_install INSTALL_MOD_PATH=DIR); each side its own
#   -n N        boots per kernel (default 3)
#   -b BUDGET   instead of N rounds, "bench ab --budget BUDGET" with one boot
#               of each kernel per invocation: blocks of A B B A, paired log
#               ratios, a sequential test that stops once the answer is
#               decided (e.g. -b 30m; the files are DIR/pair-NNN-A.json, ...)
#   -o DIR      where the result files go (created; must not hold results)
#   BENCH       the runner binary (default ./bench of this tree)
#   VMTEST_OPTS more options for vmtest.sh, e.g. "-c 4 -m 4G -t 1800"
#
# Each run is tagged A or B (bench --tag; unless BENCH ARGS give --tag), and
# records its kernel's build id and uname -v: compare and history tell two
# builds of one release apart.
#
# Exit status (with -b: bench ab's): 0 when every run succeeded and was compared, 1 when a run
# failed (the others are still run and compared), 2 for bad arguments.
#
# Under TCG (no KVM) rates are those of an emulator: compare them with each
# other, never with hardware.
set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

PROG=run_kernel_ab.sh
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$ROOT/bench}
# VMTEST: the tests' stand-in, which runs the bench on the host
VMTEST=${VMTEST:-$ROOT/scripts/vmtest.sh}

die_usage() {
	echo "$PROG: $*" >&2
	exit 2
}

KERNELS=()
MODS=()
N=3
DIR=""
BUDGET=""
while getopts ':k:M:n:o:b:h' opt; do
	case $opt in
	k) KERNELS+=("$OPTARG") MODS+=("") ;;
	M)
		[ ${#KERNELS[@]} -gt 0 ] || die_usage "-M '$OPTARG' before any -k: give it after the kernel it belongs to"
		[ -z "${MODS[-1]}" ] || die_usage "a second -M '$OPTARG' for kernel '${KERNELS[-1]}'"
		[ -f "$OPTARG/modules.dep" ] ||
			die_usage "bad modules directory '$OPTARG' for -M (accepted: a lib/modules/VERSION directory with modules.dep)"
		MODS[-1]=$(realpath "$OPTARG")
		;;
	b) BUDGET=$OPTARG ;;
	n)
		[[ $OPTARG =~ ^[1-9][0-9]?$ ]] ||
			die_usage "bad boot count '$OPTARG' for -n (accepted: 1..99)"
		N=$OPTARG
		;;
	o) DIR=$OPTARG ;;
	h)
		sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"
		exit 0
		;;
	:) die_usage "option -$OPTARG needs a value" ;;
	*) die_usage "unknown option '-$OPTARG' (accepted: -k KERNEL [-M MODULES] twice, -n N or -b BUDGET, -o DIR, then -- BENCH ARGS)" ;;
	esac
done
shift $((OPTIND - 1))
[ ${#KERNELS[@]} -eq 2 ] ||
	die_usage "need exactly two kernels, -k KERNEL_A -k KERNEL_B (got ${#KERNELS[@]})"
[ $# -gt 0 ] || die_usage "no benchmark to run (usage: $PROG -k A -k B [-n N] -- BENCH ARGS...)"
TAGS=(--tag A --tag B)
for a in "$@"; do
	case $a in
	--json | --json=*) die_usage "'$a': the script gives --json itself" ;;
	--tag | --tag=*) TAGS=() ;;
	esac
done
# tag_args I: side I's --tag, unless the user gave one
tag_args() {
	[ ${#TAGS[@]} -eq 0 ] || printf '%s\n' "${TAGS[$((2 * $1))]}" "${TAGS[$((2 * $1 + 1))]}"
}
# vm_args I: vmtest.sh's options for side I: the kernel, and its modules when given
vm_args() {
	printf '%s\n' -k "${KERNELS[$1]}"
	[ -z "${MODS[$1]}" ] || printf '%s\n' -M "${MODS[$1]}"
}
[ -x "$BENCH" ] || die_usage "no runner at '$BENCH': build it with make, or set BENCH"
BENCH=$(realpath "$BENCH")

# installed (no Makefile beside benchs/), nothing is written into the installed tree
if [ -z "$DIR" ] && [ -f "$ROOT/Makefile" ]; then
	DIR=$ROOT/.output/kernel-ab/$(date +%Y%m%d-%H%M%S)
elif [ -z "$DIR" ]; then
	DIR=$(mktemp -d "${TMPDIR:-/tmp}/kernel-ab.XXXXXX") ||
		die_usage "failed to create a result directory under ${TMPDIR:-/tmp}: give one with -o"
fi
if ! { mkdir -p "$DIR" 2>/dev/null && [ -w "$DIR" ]; }; then
	die_usage "bad result directory '$DIR' for -o (accepted: a writable directory, created if missing)"
fi
DIR=$(realpath "$DIR")
if compgen -G "$DIR/[AB]-*.json" >/dev/null; then
	die_usage "result directory '$DIR' already holds results: give a new one with -o"
fi

read -r -a VMOPTS <<<"${VMTEST_OPTS:-}"

# -b: bench ab drives the boots; each side is one boot running the bench,
# its result written where bench ab asks ($BENCH_AB_JSON, inside DIR,
# which the guest shares writable)
side_command() {	# side_command I BENCH-ARGS...: side I's shell command line
	local i=$1 vm tag
	shift
	mapfile -t vm < <(vm_args "$i")
	mapfile -t tag < <(tag_args "$i")
	printf '%q ' "$VMTEST" "${VMOPTS[@]}" "${vm[@]}" -o "$DIR" -- "$BENCH" "${tag[@]}" --json
	# expanded by the shell bench ab runs each side in, not here
	# shellcheck disable=SC2016
	printf '"$BENCH_AB_JSON"'
	printf ' %q' "$@"
}
if [ -n "$BUDGET" ]; then
	echo "A = ${KERNELS[0]}"
	echo "B = ${KERNELS[1]}"
	exec "$BENCH" ab --budget "$BUDGET" -o "$DIR" \
		--cmd-a "$(side_command 0 "$@")" \
		--cmd-b "$(side_command 1 "$@")"
fi
SIDES=(A B)
echo "A = ${KERNELS[0]}${MODS[0]:+ (modules ${MODS[0]})}"
echo "B = ${KERNELS[1]}${MODS[1]:+ (modules ${MODS[1]})}"
echo "bench: $(basename "$BENCH") $*"
echo "results: $DIR"

failed=0
A_FILES=()
B_FILES=()
for round in $(seq 1 "$N"); do
	for i in 0 1; do
		side=${SIDES[$i]}
		json=$DIR/$side-$round.json
		printf '\n== round %d/%d: %s (%s) ==\n' "$round" "$N" "$side" "${KERNELS[$i]}"
		mapfile -t vm < <(vm_args "$i")
		mapfile -t tag < <(tag_args "$i")
		"$VMTEST" "${VMOPTS[@]}" "${vm[@]}" -o "$DIR" -- \
			"$BENCH" "${tag[@]}" --json "$json" "$@"
		rc=$?
		if [ $rc -ne 0 ] || [ ! -s "$json" ]; then
			echo "$PROG: round $round, $side: FAILED (exit $rc)" >&2
			rm -f "$json"
			failed=1
			continue
		fi
		echo "$side-$round.json: kernel $(jq -r '.context | "\(.kernel_release), build \(.kernel_build_id // .kernel_version // "unrecorded")"' "$json" 2>/dev/null)"
		if [ "$side" = A ]; then
			A_FILES+=("$json")
		else
			B_FILES+=("$json")
		fi
	done
done

# each round's pair on its own, then every A run against every B run
compare_sides() {
	local round a b rc=0

	for round in $(seq 1 "$N"); do
		a=$DIR/A-$round.json
		b=$DIR/B-$round.json
		if [ ! -s "$a" ] || [ ! -s "$b" ]; then
			printf '\n== round %d: not compared, a run failed ==\n' "$round"
			rc=1
			continue
		fi
		printf '\n== compare, round %d: BASE %s (A), NEW %s (B) ==\n' "$round" "${a##*/}" "${b##*/}"
		"$BENCH" compare "$a" "$b" || rc=1
	done
	# the pooled verdict: every run of A against every run of B, with the
	# per-run means as observations (compare's several-files-per-side mode)
	[ "$rc" -eq 0 ] && [ "$N" -gt 1 ] || return $rc
	printf '\n== compare, pooled: A (%s) against B (%s) ==\n' \
		"$(basename -a "${A_FILES[@]}" | tr '\n' ' ')" "$(basename -a "${B_FILES[@]}" | tr '\n' ' ')"
	"$BENCH" compare "${A_FILES[@]}" -- "${B_FILES[@]}" || rc=1
	return $rc
}

# every run's mean of every metric, side by side: the spread between boots
# of one kernel is what a difference between the kernels must beat
means_table() {
	local files=("${A_FILES[@]}" "${B_FILES[@]}") f

	[ ${#files[@]} -gt 0 ] || return 0
	printf '\n== per-run means ==\n'
	{
		printf 'metric'
		for f in "${files[@]}"; do
			printf '\t%s' "$(basename "$f" .json)"
		done
		printf '\n'
		jq -r '.summary.metrics | to_entries[] | select(.value.mean != null) |
			"\(.key) (\(.value.unit))"' "${files[0]}" |
		while IFS= read -r label; do
			printf '%s' "$label"
			for f in "${files[@]}"; do
				printf '\t%s' "$(jq -r --arg k "${label% (*}" \
					'.summary.metrics[$k].mean // "n/a" | if type == "number" then (. * 1000 | round / 1000) else . end' "$f")"
			done
			printf '\n'
		done
		if jq -e '.summary.peak_memory_mib != null' "${files[0]}" >/dev/null; then
			printf 'peak_memory (MiB)'
			for f in "${files[@]}"; do
				printf '\t%s' "$(jq -r '.summary.peak_memory_mib // "n/a" | if type == "number" then (. * 1000 | round / 1000) else . end' "$f")"
			done
			printf '\n'
		fi
	} | column -t -s $'\t'
}

printf '\n%d run(s) of A, %d of B kept in %s\n' "${#A_FILES[@]}" "${#B_FILES[@]}" "$DIR"
means_table
compare_sides || failed=1
exit $failed
