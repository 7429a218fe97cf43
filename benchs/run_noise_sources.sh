#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the spread between invocations comes from: the between-invocation
# coefficient of variation of htab-mem overwrite (the BPF memory allocator
# and --preallocated, -p2) and count-local (-p1) under each candidate
# cause, the conditions interleaved round by round so that the machine's
# drift hits all alike.  For the table in docs/statistics-and-noise.md's
# "How noisy is this?".
#
#   benchs/run_noise_sources.sh [-r ROUNDS] [-d SECONDS] [-o DIR] [-c CONDITIONS] [-w WORKLOADS]
#
# Conditions (default: all that this machine allows):
#   base        bench -w0 -d3 [-a]: the reference.  From its files also
#               "first second": the first measured second alone, and
#               "after the first second": seconds 2..3 (as -w1 -d2 would)
#               (3 s, here and below, is -d SECONDS' default)
#   noaslr      the same under setarch -R (personality ADDR_NO_RANDOMIZE,
#               a re-exec without address-space randomisation)
#   thp-always  /sys/kernel/mm/transparent_hugepage/enabled = always
#   thp-never   ... = never (the setting is global: it is put back at exit)
#   unpinned    without -a: the scheduler places the producers
#   repeat      --repeat 4 -w0 -d3 in one process: a fresh map (htab-mem)
#               per repeat; its between-repeat CV against base's
#               between-invocation CV is "a fresh process against a fresh
#               map", and the first repeat against the others is "the
#               first repeat after set-up"
# The map's NUMA placement: the node count is printed; on one node there
# is nothing to vary.
#
#   -r ROUNDS     rounds (default 20; one round runs every condition and
#                 workload once: about 100 s)
#   -d SECONDS    measured seconds of each invocation, -w0 -dSECONDS
#                 (default 3, 1..3600); at 1 the rows of seconds 2.. have
#                 no figures (short test runs: tests/noise_scripts.t)
#   -o DIR        where the result files go (default: a new directory under
#                 $TMPDIR); DIR/COND-WORKLOAD-ROUND.json
#   -c LIST       conditions, comma-separated
#   -w LIST       workloads, comma-separated: bpf-ma, prealloc, count-local
#   RUN_BENCH     the runner (default ./bench, relative to the source tree);
#                 its options are the script's, do not add -w/-d/-a
#   LOCK          a file every run is wrapped in flock(1) on (BPF lock)
#
# Output: one line per condition and workload, then the table as markdown.
# Speed numbers from a loaded machine are meaningless: run it on a quiet
# one.  Exit status: 0, 1 when a run failed, 2 for bad arguments.
set -uo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac
# before run_common.sh, whose default adds -a: "unpinned" must be without it
RUN_BENCH=${RUN_BENCH:-./bench}
# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"
PROG=$(basename "$0")
THP=/sys/kernel/mm/transparent_hugepage/enabled

die_usage() {
	echo "$PROG: $*" >&2
	exit 2
}

ROUNDS=20
SECS=3
DIR=""
CONDS="base,noaslr,thp-always,thp-never,unpinned,repeat"
WORKLOADS="bpf-ma,prealloc,count-local"
while getopts ':r:d:o:c:w:h' opt; do
	case $opt in
	r)
		[[ $OPTARG =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "bad round count '$OPTARG' for -r (accepted: 1..9999)"
		ROUNDS=$OPTARG
		;;
	d)
		[[ $OPTARG =~ ^[1-9][0-9]{0,3}$ && $OPTARG -le 3600 ]] ||
			die_usage "bad duration '$OPTARG' for -d (accepted: 1..3600 seconds)"
		SECS=$OPTARG
		;;
	o) DIR=$OPTARG ;;
	c) CONDS=$OPTARG ;;
	w) WORKLOADS=$OPTARG ;;
	h)
		sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"
		exit 0
		;;
	:) die_usage "option -$OPTARG needs a value" ;;
	*) die_usage "unknown option '-$OPTARG' (accepted: -r ROUNDS, -d SECONDS, -o DIR, -c CONDITIONS, -w WORKLOADS)" ;;
	esac
done
IFS=, read -r -a conds <<<"$CONDS"
IFS=, read -r -a loads <<<"$WORKLOADS"
for c in "${conds[@]}"; do
	case $c in
	base | noaslr | unpinned | repeat) ;;
	thp-always | thp-never)
		[ -w "$THP" ] || die_usage "condition '$c' needs a writable $THP (root, a kernel with THP)"
		;;
	*) die_usage "unknown condition '$c' (accepted: base, noaslr, thp-always, thp-never, unpinned, repeat)" ;;
	esac
done
for w in "${loads[@]}"; do
	case $w in
	bpf-ma | prealloc | count-local) ;;
	*) die_usage "unknown workload '$w' (accepted: bpf-ma, prealloc, count-local)" ;;
	esac
done
[ -n "$DIR" ] || DIR=$(mktemp -d "${TMPDIR:-/tmp}/noise-sources.XXXXXX")
mkdir -p "$DIR" || die_usage "cannot create '$DIR' for -o"

# the THP setting is the machine's: put back what it was
THP_WAS=""
if [ -r "$THP" ]; then
	THP_WAS=$(sed -nE 's/.*\[([a-z]+)\].*/\1/p' "$THP")
	trap '[ -n "$THP_WAS" ] && [ -w "$THP" ] && echo "$THP_WAS" >"$THP"' EXIT
fi

workload_args() {	# the benchmark and its options
	case $1 in
	bpf-ma) echo "-p2 htab-mem --use-case overwrite" ;;
	prealloc) echo "-p2 htab-mem --use-case overwrite --preallocated" ;;
	count-local) echo "-p1 count-local" ;;
	esac
}

primary() {	# the metric a workload is judged by
	[ "$1" = count-local ] && echo hits || echo per_prod_op
}

one() {	# one <cond> <workload> <round>: one invocation
	local c=$1 w=$2 json=$DIR/$1-$2-$3.json pin=-a pre=() opts=(-w0 "-d$SECS")
	local -a cmd wl

	read -r -a cmd <<<"$RUN_BENCH"
	read -r -a wl <<<"$(workload_args "$w")"
	case $c in
	noaslr) pre=(setarch "$(uname -m)" -R) ;;
	thp-always) echo always >"$THP" ;;
	thp-never) echo never >"$THP" ;;
	unpinned) pin="" ;;
	repeat) opts=(-w0 "-d$SECS" --repeat 4) ;;
	esac
	case $c in thp-*) ;; *) [ -z "$THP_WAS" ] || echo "$THP_WAS" >"$THP" 2>/dev/null ;; esac
	if [ -n "${LOCK:-}" ]; then
		pre=(flock "$LOCK" "${pre[@]}")
	fi
	# shellcheck disable=SC2086
	"${pre[@]}" "${cmd[@]}" -q "${opts[@]}" $pin --json "$json" "${wl[@]}" >/dev/null 2>"$json.err"
}

echo "$PROG: $ROUNDS rounds of ${conds[*]} x ${loads[*]}, files in $DIR"
echo "NUMA nodes: $(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l) (one node: the map's node placement cannot vary)"
[ -n "$THP_WAS" ] && echo "transparent huge pages: $THP_WAS (restored at exit)"
failed=0
for r in $(seq 1 "$ROUNDS"); do
	for c in "${conds[@]}"; do
		for w in "${loads[@]}"; do
			one "$c" "$w" "$r" || {
				echo "$PROG: round $r, $c $w: FAILED: $(tail -1 "$DIR/$c-$w-$r.json.err")" >&2
				failed=1
			}
		done
	done
	echo "round $r/$ROUNDS done" >&2
done

# every file's mean over the measured samples FROM..TO (0-based), one per line
means() {	# means <cond> <workload> <from> <to>
	local f m

	m=$(primary "$2")
	for f in "$DIR/$1-$2"-*.json; do
		[ -s "$f" ] || continue
		jq -r --arg m "$m" --argjson a "$3" --argjson b "$4" \
			'[.samples[] | select(.warmup | not) | .metrics[$m]][$a:$b + 1]
			 | if length > 0 then add / length else empty end' "$f"
	done
}

# n, mean and CV (%) of numbers on stdin
cv() {
	awk '{ x[NR] = $1; s += $1 } END { if (NR < 2) { print NR, "-", "-"; exit }
		m = s / NR; for (i = 1; i <= NR; i++) q += (x[i] - m) ^ 2
		printf "%d %.3f %.2f\n", NR, m, sqrt(q / (NR - 1)) / m * 100 }'
}

# per repeat file: the between-repeat CV, and the first repeat's mean
# relative to the others', averaged over the files
repeat_stats() {	# repeat_stats <workload>
	local f m

	m=$(primary "$1")
	for f in "$DIR/repeat-$1"-*.json; do
		[ -s "$f" ] || continue
		jq -r --arg m "$m" '.summary.metrics[$m].repeats | "\(.between_cv * 100) \(.means[0] / ((.means[1:] | add) / (.means | length - 1)) - 1)"' "$f"
	done | awk '{ c += $1; b += $2; n++ } END { if (n) printf "%.2f %+.2f", c / n, b / n * 100; else printf "- -" }'
}

rows=()
row() {	# row <label> <workload> <n mean cv>
	local n mean c
	read -r n mean c <<<"$3"
	printf '%-34s %-12s %4s invocations  mean %10s  between-invocation CV %6s%%\n' "$1" "$2" "$n" "$mean" "$c"
	rows+=("| $1 | $2 | $n | $mean | $c% |")
}
echo
for w in "${loads[@]}"; do
	for c in "${conds[@]}"; do
		case $c in
		repeat)
			read -r rc bias <<<"$(repeat_stats "$w")"
			printf '%-34s %-12s between-repeat CV %s%% in one process (a fresh map per repeat); first repeat %s%% against the others\n' \
				"repeat (--repeat 4)" "$w" "$rc" "$bias"
			rows+=("| --repeat 4, between repeats of one process | $w | - | - | $rc% (first repeat $bias%) |")
			;;
		base)
			row "base (-w0 -d$SECS, all $SECS s)" "$w" "$(means base "$w" 0 $((SECS - 1)) | cv)"
			row "base, first second only" "$w" "$(means base "$w" 0 0 | cv)"
			row "base, after the first second" "$w" "$(means base "$w" 1 $((SECS - 1)) | cv)"
			;;
		*)
			row "$c (seconds 2..$SECS)" "$w" "$(means "$c" "$w" 1 $((SECS - 1)) | cv)"
			;;
		esac
	done
done
echo
echo "| condition | workload | invocations | mean | between-invocation CV |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $failed
