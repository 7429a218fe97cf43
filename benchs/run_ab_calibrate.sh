#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How small a change can this machine resolve today, for this benchmark?
# bench ab is run on a change of known size: A against A with a busy loop
# added inside htab-mem's timed batch (--extra-work), sized to PCT percent
# of a batch, and A against A itself.  The A/A runs count false positives,
# the others the power.
#
#   benchs/run_ab_calibrate.sh [-o DIR] [-n AA[,CHANGE]] [-b BUDGET]
#                              [-m METRIC] [-H none|on|toggle] [-L | -I] PCT
#   benchs/run_ab_calibrate.sh -R DIR
#
#   PCT        the change to detect, in percent of a batch's time (0.1..50)
#   -o DIR     where every run's files go (default: a new directory under $TMPDIR)
#   -n AA[,CHANGE]  AA A/A runs and CHANGE A/A+PCT runs (default 5,5; one
#              number for both), alternating while both last
#   -b BUDGET  each bench ab run's --budget (default 2m)
#   -m METRIC  the metric bench ab tests (default op_ns: the robust per-op
#              time, --latency; per_prod_op: the rate)
#   -H MODE    a CPU hog beside the runs: none (default), on (for the whole
#              time, pinned to the producer's CPU), toggle (on and off every
#              HOG_PERIOD seconds, default 20: it starts and stops inside runs)
#   -L         pair the bucket layouts: every run gets --zero-seed and
#              --key-offset, the same for A and B of one ab block and a new
#              one per block (BENCH_AB_BLOCK x 65536), so the layout, which
#              moves -p2 runs by 10-15%, cancels inside each block
#   -I         the interleaved design (bench ab --interleave, slices of SLICE
#              ms, default ab's): A and B take turns on the producer's CPU;
#              at the end, what the pairs of invocations say of the
#              interference: the A/A pairs' mean log ratio (A = B), every
#              pair's estimate by the side that went first, and the slice
#              pairs' by their order (A B against B A)
#   -R DIR     run nothing: read an earlier -I run's files in DIR (its -o)
#              again and print what they say of the interference
#   BENCH      the bench binary (default ./bench of this tree)
#   ARGS       the invocation, an htab-mem one (default
#              "-w1 -d2 -p1 -a htab-mem --use-case overwrite")
#   PAIRS      interleaved pairs of the size check (default 10)
#   SLICE      with -I, bench ab's --slice (ms)
#   LOOPS      the change's loop count, from an earlier run's size line of
#              the same ARGS: the size and its check are skipped (they take
#              a minute or two of the machine each time)
#
# First the size: the loop's cost per iteration from runs with 0 and 20000
# iterations, the iterations that make PCT percent of the median batch, and
# a check of PCT by PAIRS interleaved runs with and without it (the rate's
# change is smaller: a trigger also pays for the syscall around the batch);
# a size whose check (pairs across a machine-speed flip left out) puts the
# middle half of its ratios wholly off by more than a third is scaled once
# and checked again.
# Exit status: 0, 1 when a bench run failed, 2 for bad arguments.
set -uo pipefail
PROG=$(basename "$0")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$ROOT/bench}
ARGS=${ARGS:--w1 -d2 -p1 -a htab-mem --use-case overwrite}
PAIRS=${PAIRS:-10}
HOG_PERIOD=${HOG_PERIOD:-20}

usage() {
	sed -n '4,/^# Exit status/s/^# \{0,1\}//p' "$0"
}

die_usage() {
	echo "$PROG: $*" >&2
	exit 2
}

# interference DIR: with -I, what the pairs of invocations (pair-NNN.json)
# say: the A/A ones' mean log(B/A), which A = B puts at 0 unless A and B
# disturb each other unequally, and every kind's mean by the side that
# went first, which differs unless the order matters (means as % with a
# 95% t interval, Cornish-Fisher's t quantile); then the slice order:
# each pair of invocations' slice pairs A B and B A apart (their 20%
# trimmed means), whose difference A = B puts at 0 unless a slice carries
# over into the next one unequally (slice_order, below)
interference() {
	local kind
	for kind in aa change; do
		for f in "$1/$kind"-*/pair-[0-9][0-9][0-9].json; do
			[ -e "$f" ] && jq -r 'select(.estimate.log_ratio != null) | "\(.first) \(.estimate.log_ratio)"' "$f"
		done | awk -v kind="$kind" '
			function tq(df,  z) { z = 1.959964; return z + (z^3 + z) / (4 * df) + (5 * z^5 + 16 * z^3 + 3 * z) / (96 * df^2) }
			function pct(x) { return 100 * (exp(x) - 1) }
			function iv(s, ss, n,  m, sd, h) { m = s / n; sd = n > 1 ? sqrt((ss - n * m * m) / (n - 1)) : 0
				h = n > 1 ? tq(n - 1) * sd / sqrt(n) : 0
				return sprintf("%+.2f%% (95%% CI %+.2f%% .. %+.2f%%, n %d)", pct(m), pct(m - h), pct(m + h), n) }
			{ n[$1]++; s[$1] += $2; ss[$1] += $2 * $2; N++; S += $2; SS += $2 * $2 }
			END {
				if (!N) exit
				va = n["A"] > 1 ? (ss["A"] - s["A"]^2 / n["A"]) / (n["A"] - 1) : 0
				vb = n["B"] > 1 ? (ss["B"] - s["B"]^2 / n["B"]) / (n["B"] - 1) : 0
				d = (n["A"] && n["B"]) ? s["B"] / n["B"] - s["A"] / n["A"] : 0
				se = (n["A"] && n["B"]) ? sqrt(va / n["A"] + vb / n["B"]) : 0
				printf "interference (%s): %d pairs of invocations, mean log(B/A) %s; A first %s, B first %s; B first - A first %+.2f%% (95%% CI %+.2f%% .. %+.2f%%)\n",
					kind == "aa" ? "A = B" : "A against A plus the change", N, iv(S, SS, N),
					n["A"] ? iv(s["A"], ss["A"], n["A"]) : "none", n["B"] ? iv(s["B"], ss["B"], n["B"]) : "none",
					100 * d, 100 * (d - 1.96 * se), 100 * (d + 1.96 * se) }'
	done
}

# slice_order DIR: the slice pairs' estimate by their order, per kind
slice_order() {
	local kind
	for kind in aa change; do
		for f in "$1/$kind"-*/pair-[0-9][0-9][0-9].json; do
			[ -e "$f" ] && jq -r '
				def tmean: sort | (length * 0.2 | floor) as $g | .[$g:length - $g] |
					if length > 0 then add / length else null end;
				(.slices.seq | to_entries | map({key: (.value | tostring), value: .key}) |
				 from_entries) as $at | .slices.side as $side |
				[.differences.first_seq, .differences.log_ratio] | transpose |
				map({o: $side[$at[.[0] | tostring]:$at[.[0] | tostring] + 1], d: .[1]}) |
				[(map(select(.o == "A") | .d) | tmean), (map(select(.o == "B") | .d) | tmean)] |
				select(all(. != null)) | "\(.[0]) \(.[1])"' "$f"
		done | awk -v kind="$kind" '
			function tq(df,  z) { z = 1.959964; return z + (z^3 + z) / (4 * df) + (5 * z^5 + 16 * z^3 + 3 * z) / (96 * df^2) }
			function pct(x) { return 100 * (exp(x) - 1) }
			function iv(s, ss, n,  m, sd, h) { m = s / n; sd = n > 1 ? sqrt((ss - n * m * m) / (n - 1)) : 0
				h = n > 1 ? tq(n - 1) * sd / sqrt(n) : 0
				return sprintf("%+.2f%% (95%% CI %+.2f%% .. %+.2f%%)", pct(m), pct(m - h), pct(m + h)) }
			{ n++; a += $1; aa += $1 * $1; b += $2; bb += $2 * $2; d = $2 - $1; s += d; ss += d * d }
			END {
				if (!n) exit
				printf "slice order (%s): %d pairs of invocations, slice pairs A B %s, B A %s; B A - A B %s\n",
					kind == "aa" ? "A = B" : "A against A plus the change", n,
					iv(a, aa, n), iv(b, bb, n), iv(s, ss, n) }'
	done
}

DIR=""
AA_RUNS=5
CHANGE_RUNS=5
BUDGET=2m
METRIC=op_ns
HOG=none
LAYOUT=0
INTERLEAVE=0
REREAD=""
[ "${1:-}" = --help ] && { usage; exit 0; }
while getopts ':o:n:b:m:H:LIR:h' opt; do
	case $opt in
	o) DIR=$OPTARG ;;
	n)
		[[ $OPTARG =~ ^([1-9][0-9]{0,2})(,([0-9]{1,3}))?$ ]] ||
			die_usage "bad round count '$OPTARG' for -n (accepted: AA or AA,CHANGE, AA in 1..999, CHANGE in 0..999)"
		AA_RUNS=${BASH_REMATCH[1]}
		CHANGE_RUNS=${BASH_REMATCH[3]:-$AA_RUNS}
		;;
	b) BUDGET=$OPTARG ;;
	m) METRIC=$OPTARG ;;
	H)
		case $OPTARG in none | on | toggle) HOG=$OPTARG ;;
		*) die_usage "bad hog mode '$OPTARG' for -H (accepted: none, on, toggle)" ;;
		esac
		;;
	L) LAYOUT=1 ;;
	I) INTERLEAVE=1 ;;
	R) REREAD=$OPTARG ;;
	h) usage; exit 0 ;;
	:) die_usage "option -$OPTARG needs a value" ;;
	*) die_usage "unknown option '-$OPTARG' (accepted: -o DIR, -n AA[,CHANGE], -b BUDGET, -m METRIC, -H MODE, -L, -I, -R DIR, -h)" ;;
	esac
done
shift $((OPTIND - 1))
if [ -n "$REREAD" ]; then
	[ $# -eq 0 ] || die_usage "-R reads files and runs nothing: no change size with it; got '$*'"
	compgen -G "$REREAD/aa-*/pair-[0-9][0-9][0-9].json" >/dev/null ||
		compgen -G "$REREAD/change-*/pair-[0-9][0-9][0-9].json" >/dev/null ||
		die_usage "no pair files of an -I run in '$REREAD' for -R (expected its aa-NN/ and change-NN/ directories)"
	interference "$REREAD"
	slice_order "$REREAD"
	exit 0
fi
[ $# -eq 1 ] || die_usage "one change size expected, in percent (e.g. 2); got $#"
PCT=$1
awk -v p="$PCT" 'BEGIN { exit !(p ~ /^[0-9]+(\.[0-9]+)?$/ && p >= 0.1 && p <= 50) }' ||
	die_usage "bad change size '$PCT' (accepted: a percentage in 0.1..50)"
[[ $PAIRS =~ ^[1-9][0-9]{0,2}$ ]] || die_usage "bad PAIRS '$PAIRS' (accepted: 1..999)"
[[ $HOG_PERIOD =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "bad HOG_PERIOD '$HOG_PERIOD' (accepted: 1..9999 seconds)"
[[ ${LOOPS:-1} =~ ^[1-9][0-9]{0,6}$ ]] || die_usage "bad LOOPS '$LOOPS' (accepted: 1..9999999, a size line's loop count)"
[[ ${SLICE:-1} =~ ^[0-9]{1,3}(\.[0-9]{1,3})?$ ]] || die_usage "bad SLICE '$SLICE' (accepted: milliseconds, bench ab's --slice)"
[ -x "$BENCH" ] || die_usage "no bench at '$BENCH': build it, or set BENCH"
[ "$LAYOUT$INTERLEAVE" != 11 ] ||
	die_usage "-L and -I are two designs: -L pairs the bucket layouts of blocks, -I interleaves A and B inside a pair of invocations"
# shellcheck disable=SC2086
set -- $ARGS
case " $ARGS " in *" htab-mem "*) ;; *) die_usage "ARGS must run htab-mem (--extra-work is htab-mem's); got '$ARGS'" ;; esac
[ -n "$DIR" ] || DIR=$(mktemp -d "${TMPDIR:-/tmp}/ab-calibrate.XXXXXX")
mkdir -p "$DIR" || die_usage "cannot create '$DIR' for -o"

hog_pid=""
hog_cpu=$(awk -F'[-,]' '{ print $1 }' /sys/devices/system/cpu/online)
stop_hog() {
	[ -n "$hog_pid" ] && { kill "$hog_pid" 2>/dev/null; wait "$hog_pid" 2>/dev/null; }
	hog_pid=""
}
trap 'stop_hog; exit 130' INT TERM
trap stop_hog EXIT
start_hog() {
	case $HOG in
	on) taskset -c "$hog_cpu" sh -c 'while :; do :; done' & ;;
	toggle) taskset -c "$hog_cpu" sh -c "while :; do t=\$((\$(date +%s) + $HOG_PERIOD)); while [ \$(date +%s) -lt \$t ]; do :; done; sleep $HOG_PERIOD; done" & ;;
	*) return 0 ;;
	esac
	hog_pid=$!
}

design() {	# with -I, bench ab's options of the interleaved design
	[ "$INTERLEAVE" = 1 ] && echo "--interleave ${SLICE:+--slice $SLICE}"
}

layout() {	# layout N: with -L, the N-th bucket layout's options
	[ "$LAYOUT" = 1 ] && echo "--zero-seed --key-offset $(($1 * 65536))"
}

run_json() {	# run_json FILE ARGS...: the run, quietly, with --latency
	local f=$1
	shift
	"$BENCH" -q --latency --json "$f" "$@" >/dev/null 2>"$f.err" || {
		echo "$PROG: bench failed ($*); its stderr:" >&2
		cat "$f.err" >&2
		exit 1
	}
}

metric_of() {	# metric_of FILE NAME: the run's figure as bench ab takes it
	if [ "$2" = op_ns ]; then	# the pooled median of the run's batches
		jq -r '.latency.per_op.p50_interpolated' "$1"
	else
		jq -r --arg m "$2" '.summary.metrics[$m].mean' "$1"
	fi
}

reference_of() {	# reference_of FILE: the run's machine-speed reference (ns), 0 if none
	jq -r '.latency.reference.p50_ns // 0' "$1"
}

start_hog
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), hog: $HOG${hog_pid:+ (pid $hog_pid, CPU $hog_cpu)}"
paired=""
[ "$LAYOUT" = 1 ] && paired="; bucket layouts paired (--zero-seed, --key-offset per block)"
[ "$INTERLEAVE" = 1 ] && paired="; interleaved (bench ab --interleave${SLICE:+ --slice $SLICE})"
echo "invocation: bench $ARGS; metric: $METRIC; change: $PCT% of a batch$paired"

if [ -n "${LOOPS:-}" ]; then
	loops=$LOOPS
	echo "size: $loops loops (LOOPS: the size and its check skipped)"
else
# the loop's cost: 0 and 20000 iterations, interleaved, twice
# shellcheck disable=SC2046
for i in 1 2; do
	run_json "$DIR/size-0-$i.json" "$@" --extra-work 0 $(layout "$i")
	run_json "$DIR/size-big-$i.json" "$@" --extra-work 20000 $(layout "$i")
done
read -r base big < <(for i in 1 2; do
	echo "$(metric_of "$DIR/size-0-$i.json" op_ns) $(metric_of "$DIR/size-big-$i.json" op_ns)"
done | awk '{ a += $1; b += $2 } END { print a / NR, b / NR }')
ops=$(jq -r '.latency.ops_per_trigger' "$DIR/size-0-1.json")
loops=$(awk -v a="$base" -v b="$big" -v p="$PCT" 'BEGIN {
	per = (b - a) / 20000; n = p / 100 * a / per; printf "%d", n + 0.5 }')
[ "$loops" -ge 1 ] || { echo "$PROG: the loop's cost could not be measured (op_ns $base and $big)" >&2; exit 1; }
printf 'size: op_ns %.3f ns without, %.3f with 20000 loops: %.4f ns per loop per op (%d ops a batch); %d loops = %s%%\n' \
	"$base" "$big" "$(awk -v a="$base" -v b="$big" 'BEGIN { print (b - a) / 20000 }')" "$ops" "$loops" "$PCT"

# the check: PAIRS interleaved pairs (tagged TAG) with LOOPS, the median
# ratio of each metric over the pairs that ran at one machine speed (their
# reference loops within bench ab's 1.25x: a pair across a speed flip reads
# +-75%), and the middle half of the ratios (quartiles)
check() {	# check TAG LOOPS: prints the check lines; CHECK_Q: op_ns's quartiles in %
	local tag=$1 n=$2 i m a b
	shift 2
	# shellcheck disable=SC2046
	for i in $(seq "$PAIRS"); do
		run_json "$DIR/check$tag-A-$i.json" "$@" $(layout "$i")
		run_json "$DIR/check$tag-B-$i.json" "$@" --extra-work "$n" $(layout "$i")
	done
	for m in op_ns "$METRIC"; do
		for i in $(seq "$PAIRS"); do
			a=$DIR/check$tag-A-$i.json b=$DIR/check$tag-B-$i.json
			awk -v a="$(metric_of "$a" "$m")" -v b="$(metric_of "$b" "$m")" \
				-v ra="$(reference_of "$a")" -v rb="$(reference_of "$b")" 'BEGIN {
				if (ra > 0 && rb > 0 && (ra > rb ? ra / rb : rb / ra) > 1.25) print "flip"
				else printf "%.6f\n", b / a }'
		done | sort -n | awk -v m="$m" -v l="$n" '
			$1 == "flip" { flips++; next } { r[++n] = $1 }
			function q(f,  x, k) { x = 1 + (n - 1) * f; k = int(x); return r[k] + (x - k) * (r[k + 1] - r[k]) }
			END {
				if (!n) { printf "check: %s: every pair crossed a speed flip\n", m; exit }
				r[n + 1] = r[n]
				printf "check: %s B/A median %+.2f%% over %d pairs with %d loops (middle half %+.2f%% .. %+.2f%%, range %+.2f%% .. %+.2f%%; %d pairs across a speed flip left out)\n",
					m, 100 * (q(0.5) - 1), n, l, 100 * (q(0.25) - 1), 100 * (q(0.75) - 1),
					100 * (r[1] - 1), 100 * (r[n] - 1), flips }'
	done | sort -u >"$DIR/check$tag.txt"
	cat "$DIR/check$tag.txt"
	CHECK_Q=$(sed -n 's/^check: op_ns B\/A median \([-+0-9.]*\)% .*middle half \([-+0-9.]*\)% \.\. \([-+0-9.]*\)%.*/\1 \2 \3/p' \
		"$DIR/check$tag.txt")
}
CHECK_PARGS=("$@")
check "" "$loops" "${CHECK_PARGS[@]}"
# A short loop partly hides behind the batch's own work (the CPU overlaps
# them), so the linear size can fall short: when the middle half of the
# check's ratios lies wholly outside PCT's two thirds to four thirds, the
# loop is scaled once by PCT / median and checked again, and the runs use
# that size.  One noisy pair cannot trigger it (a 6-pair median once read
# +3.33% for a 2% loop, and the re-size made it +0.49%).
# shellcheck disable=SC2086
resized=$(set -- $CHECK_Q; awk -v m="${1:-0}" -v lo="${2:-0}" -v hi="${3:-0}" -v p="$PCT" -v l="$loops" 'BEGIN {
	if (m > 0.1 && (hi < p * 2 / 3 || lo > p * 4 / 3)) { n = int(l * p / m + 0.5); if (n > 20 * l) n = 20 * l; print n } }')
if [ -n "$resized" ] && [ "$resized" != "$loops" ]; then
	echo "re-size: op_ns moved ${CHECK_Q%% *}% with $loops loops (middle half outside $PCT% +-1/3): $resized loops"
	loops=$resized
	check "-2" "$loops" "${CHECK_PARGS[@]}"
fi
fi

# the rounds: A/A, then A/A+PCT, alternating while both last
fp=0 found=0 wrong=0
rounds=$((AA_RUNS > CHANGE_RUNS ? AA_RUNS : CHANGE_RUNS))
for r in $(seq "$rounds"); do
	for kind in aa change; do
		[ $kind = aa ] && [ "$r" -gt "$AA_RUNS" ] && continue
		[ $kind = change ] && [ "$r" -gt "$CHANGE_RUNS" ] && continue
		extra=""
		[ $kind = change ] && extra="--extra-work $loops"
		out="$DIR/$kind-$(printf %02d "$r")"
		if [ "$LAYOUT" = 1 ]; then
			cmd="$BENCH --latency --zero-seed --json \"\$BENCH_AB_JSON\" $ARGS --key-offset \$((BENCH_AB_BLOCK * 65536))"
			"$BENCH" ab --budget "$BUDGET" --metric "$METRIC" -o "$out" --cmd-a "$cmd" --cmd-b "$cmd $extra" \
				>"$out.txt" 2>"$out.err"
		else
			# shellcheck disable=SC2086,SC2046 # $extra and $(design): words, or none
			"$BENCH" ab --budget "$BUDGET" --metric "$METRIC" -o "$out" $(design) -- "$@" -- "$@" $extra \
				>"$out.txt" 2>"$out.err"
		fi
		v=$(sed -n 's/^verdict: \([a-z]*\).*/\1/p' "$out.txt")
		[ -n "$v" ] || { echo "$PROG: bench ab gave no verdict; see $out.err" >&2; exit 1; }
		ch=$(sed -n 's/^change: B vs A \([-+0-9.]*%\).*/\1/p' "$out.txt")
		used=$(sed -n 's/^used: \([0-9]*\) blocks, .*, \([0-9hms]*\) of a .*/\1 blocks in \2/p' "$out.txt")
		left=$(sed -n 's/^left out: \([0-9]*\) .*/, \1 left out/p' "$out.txt")
		printf '%-6s %2d: %-9s %-8s (%s%s)\n' "$kind" "$r" "$v" "${ch:-n/a}" "$used" "$left"
		if [ $kind = aa ] && { [ "$v" = better ] || [ "$v" = worse ]; }; then
			fp=$((fp + 1))
		fi
		if [ $kind = change ]; then
			# more time per op is worse; a lower rate is worse too
			case "$v" in worse) found=$((found + 1)) ;; better) wrong=$((wrong + 1)) ;; esac
		fi
	done
done
echo "false positives: $fp of $AA_RUNS A/A runs; found: $found of $CHANGE_RUNS runs of a $PCT% change (wrong direction: $wrong); files: $DIR"
if [ "$INTERLEAVE" = 1 ]; then
	interference "$DIR"
	slice_order "$DIR"
fi
