#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The measured goal of bench ab: does "bench ab --budget 5m" on htab-mem
# overwrite (BPF memory allocator, -p2 -a) detect a 2% change at p < 0.05
# with 80% power on this machine?  Shown three ways, each a step:
#
#   benchs/run_ab_goal.sh [-o DIR] [-n N] [-b BUDGET] STEP...
#
#   aa     N A/A runs (default 20) of bench ab at BUDGET (default 2m): the
#          same command as A and B, so every "better" or "worse" is a false
#          positive; prints each run's verdict and the count
#   five   one A/A bench ab --budget 5m: the smallest change it reports
#          detectable after 5 minutes
#   long   the establishing run: CHANGE_A against CHANGE_B (below),
#          bench ab --no-early-stop --budget LONG (default 30m), one test at
#          the end: the change's size and its 95% interval
#   real   the same change, bench ab --budget 5m: found within the budget?
#   all    aa five long real (about 80 minutes at the defaults)
#
#   -o DIR      where every run's files go (default: a new directory under
#               $TMPDIR): DIR/aa-01, ..., DIR/five, DIR/long, DIR/real
#   -n N        A/A runs for "aa" (default 20)
#   -b BUDGET   budget of each A/A run (default 2m)
#   -l LONG     budget of the establishing run (default 30m)
#   -f FIVE     budget of "five" and "real" (default 5m: the goal's)
#   BENCH       the bench binary (default ./bench of this tree)
#   ARGS        the invocation (default "-w1 -d2 -p2 -a htab-mem --use-case overwrite")
#   CHANGE_A, CHANGE_B  what "long" and "real" add to A and B (default
#               "--value-size 8" and "--value-size 16")
#   LOCK        a file every invocation is wrapped in flock(1) on
#   ALPHA       every bench ab's --alpha (default 0.05)
#   AB_OPTS     more bench ab options for every run (e.g. "--blocks 3")
#
# Run it on a quiet machine: on a loaded one the spread is the load's.
# Exit status: 0, 1 when a bench ab run failed, 2 for bad arguments.
set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac
PROG=$(basename "$0")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$ROOT/bench}
ARGS=${ARGS:--w1 -d2 -p2 -a htab-mem --use-case overwrite}
CHANGE_A=${CHANGE_A:---value-size 8}
CHANGE_B=${CHANGE_B:---value-size 16}
ALPHA=${ALPHA:-0.05}
AB_OPTS=${AB_OPTS:-}

die_usage() {
	echo "$PROG: $*" >&2
	exit 2
}

DIR=""
N=20
BUDGET=2m
LONG=30m
FIVE=5m
while getopts ':o:n:b:l:f:h' opt; do
	case $opt in
	o) DIR=$OPTARG ;;
	n)
		[[ $OPTARG =~ ^[1-9][0-9]{0,2}$ ]] || die_usage "bad run count '$OPTARG' for -n (accepted: 1..999)"
		N=$OPTARG
		;;
	b) BUDGET=$OPTARG ;;
	l) LONG=$OPTARG ;;
	f) FIVE=$OPTARG ;;
	h)
		sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"
		exit 0
		;;
	:) die_usage "option -$OPTARG needs a value" ;;
	*) die_usage "unknown option '-$OPTARG' (accepted: -o DIR, -n N, -b BUDGET, -l LONG, -f FIVE, then steps)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || die_usage "no step (accepted: aa, five, long, real, all)"
steps=()
for s in "$@"; do
	case $s in
	aa | five | long | real) steps+=("$s") ;;
	all) steps+=(aa five long real) ;;
	*) die_usage "unknown step '$s' (accepted: aa, five, long, real, all)" ;;
	esac
done
[ -x "$BENCH" ] || die_usage "no bench at '$BENCH': build it, or set BENCH"
[ -n "$DIR" ] || DIR=$(mktemp -d "${TMPDIR:-/tmp}/ab-goal.XXXXXX")
mkdir -p "$DIR" || die_usage "cannot create '$DIR' for -o"
read -r -a args <<<"$ARGS"
read -r -a abopts <<<"$AB_OPTS"

# bench ab on A and B (word lists of bench options), into DIR/NAME
ab() {	# ab <name> <budget> <a-extra> <b-extra> [bench ab options...]
	local name=$1 budget=$2 xa=$3 xb=$4 q
	shift 4
	set -- --alpha "$ALPHA" "${abopts[@]}" "$@"
	if [ -n "${LOCK:-}" ]; then
		q=$(printf '%q ' flock "$LOCK" "$BENCH" --json)
		# shellcheck disable=SC2016,SC2086
		"$BENCH" ab --budget "$budget" -o "$DIR/$name" "$@" \
			--cmd-a "$q"'"$BENCH_AB_JSON"'"$(printf ' %q' "${args[@]}" $xa)" \
			--cmd-b "$q"'"$BENCH_AB_JSON"'"$(printf ' %q' "${args[@]}" $xb)"
	else
		# shellcheck disable=SC2086
		"$BENCH" ab --budget "$budget" -o "$DIR/$name" "$@" -- "${args[@]}" $xa -- "${args[@]}" $xb
	fi
}

verdict() {	# the verdict word of a report
	sed -nE 's/^verdict: ([a-z]+).*/\1/p' "$1"
}

failed=0
echo "$PROG: ${steps[*]}; bench: $BENCH $ARGS; files in $DIR"
for s in "${steps[@]}"; do
	case $s in
	aa)
		fp=0
		for i in $(seq -w 1 "$N"); do
			ab "aa-$i" "$BUDGET" "" "" >"$DIR/aa-$i.out" 2>"$DIR/aa-$i.err" || failed=1
			v=$(verdict "$DIR/aa-$i.out")
			case $v in better | worse) fp=$((fp + 1)) ;; esac
			printf 'A/A %s: %-9s %s | %s\n' "$i" "${v:-FAILED}" \
				"$(sed -nE 's/^change: B vs A (.*)$/\1/p' "$DIR/aa-$i.out")" \
				"$(sed -nE 's/^smallest change detectable in what it ran: ([0-9.]+%).*/detectable \1/p' "$DIR/aa-$i.out")"
		done
		echo "A/A: $fp false positive(s) in $N runs of bench ab --budget $BUDGET (expected about $(awk -v n="$N" -v a="$ALPHA" 'BEGIN { printf "%.1f", n * a }') at alpha $ALPHA)"
		;;
	five)
		ab five "$FIVE" "" "" >"$DIR/five.out" 2>"$DIR/five.err" || failed=1
		cat "$DIR/five.out"
		;;
	long)
		ab long "$LONG" "$CHANGE_A" "$CHANGE_B" --no-early-stop \
			>"$DIR/long.out" 2>"$DIR/long.err" || failed=1
		cat "$DIR/long.out"
		;;
	real)
		ab real "$FIVE" "$CHANGE_A" "$CHANGE_B" >"$DIR/real.out" 2>"$DIR/real.err" || failed=1
		cat "$DIR/real.out"
		;;
	esac
done
exit $failed
