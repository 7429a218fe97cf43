#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fidelity: ours against upstream's bench on this machine, for every
# benchmark both runners have, at each producer count.
#
#   UPSTREAM=path/to/upstream/bench benchs/run_bench_fidelity.sh [OPTIONS]
#
# UPSTREAM is a bench binary built from a kernel tree
# (make -C tools/testing/selftests/bpf bench).  Each configuration runs in
# blocks of four invocations, ours (A) and upstream's (B) interleaved:
# A B B A, then B A A B, and so on, so that neither side always runs first
# or last while the machine drifts.  From each invocation the main rate is
# read, the figure upstream's wrapper script reports: the Summary's first
# figure (hits, hits throughput, per-prod-op, throughput, creates), its
# "total operations" for hashmap-with-bloom and hashmap-without-bloom, its
# percentage for bloom-false-positive, or the mean of the per-CPU lines of
# bpf-hashmap-full-update and bpf-hashmap-lookup.
#
# The statistics are bench ab's: a block's observation is the mean of its
# two paired log ratios log(A/B), in which a linear drift cancels; the
# blocks are the replicates.  A row gives ours/upstream, the geometric mean
# of the blocks' ratios, and its 95% interval (Student's t on the blocks'
# log ratios, n - 1 degrees of freedom; benchs/paired_ratio.awk), and the
# verdict:
#
#   within ±3%   the interval lies inside 0.97..1.03: the two runners
#                agree to 3% on this machine
#   outside ±3%  the interval lies wholly beyond: they differ by more
#   undecided    the interval straddles a bound (or one block: no
#                interval): more blocks, or a quieter machine, decide it
#
# Options:
#   -w SEC      warm-up of every invocation (default 1)
#   -d SEC      duration of every invocation (default 3)
#   -n BLOCKS   blocks per configuration (default 5: 20 invocations); an
#               interval needs 2 or more
#   -t PCT      the verdict's bound: within ±PCT percent (default 3)
#   -p LIST     producer counts, comma-separated (default 1,2); above 1 the
#               threads are pinned (-a)
#   -b LIST     benchmarks, comma-separated names (default: all shared)
#   -r REGEX    only the configurations whose label, the table's first
#               column (e.g. "-p2 -a htab-mem --use-case overwrite"),
#               matches REGEX (extended, bash's =~); with -b and -p
#   -T FILE     the table in FILE, which runs in short windows build
#               together: each block is kept as it ends (in FILE.blocks),
#               a configuration goes on from the blocks FILE has (to -n in
#               all: a later run with a larger -n adds blocks), and its row
#               is appended to FILE when it has them; one already there
#               with as many blocks is skipped.  FILE's header names both
#               binaries (path and sha256), -w, -d and -t: a run whose
#               differ is refused, so blocks of two builds never mix.  Of
#               two rows of one configuration the later counts.
#   -S SEC      a time budget: no block starts that would end after SEC
#               seconds (estimated from the longest block so far, or
#               4 x (w + d + 2) seconds before the first); the run then
#               stops with exit status 3, and with -T the same command
#               goes on from there
#   -o DIR      keep every invocation's output in DIR (default: discarded)
#   BENCH       our bench binary (default: this tree's ./bench)
#   LOCK        a file every invocation is wrapped in flock(1) on (e.g. the
#               tests' /tmp/bench-bpf-tests.lock, so that no BPF test runs
#               beside a measurement, nor a measurement beside a test)
#
# The benchmarks: count-local, count-global, htab-mem, lpm-trie-*,
# bpf-hashmap-full-update, bpf-hashmap-lookup, local-storage-create (task
# storage), local-storage-cache-seq-get, -int-get and -hashmap-control,
# bloom-lookup, bloom-update, bloom-false-positive, hashmap-without-bloom,
# hashmap-with-bloom, rb-libbpf, rb-custom, pb-libbpf and pb-custom (with
# one consumer, -c1: sampled, and back-to-back).  local-storage-tasks-trace
# is not among them: upstream's needs fentry to time its grace periods.
#
# A benchmark upstream's bench does not list (-l) gets the row "not in
# upstream's bench" and runs no invocation (lpm-trie-* against Linux
# 6.12's).  Configurations the benchmark refuses at a producer count (lpm-trie-insert,
# -delete and -free, the local-storage-cache-* and the back-to-back ring
# buffers need one, add_del_on_diff_cpu an even number) are skipped.
# Upstream's runner refuses -w0 (its warm-up is 1 second at least): give
# -w1 or more.  Upstream's tp/ programs need tracefs: when it is not mounted,
# upstream's runs are wrapped in a private mount namespace that mounts it
# (root only), and a line on stderr says so.
#
# Run it on a machine as quiet as you can get: the load averages before and
# after the table are printed with it.  Timings are never pass/fail.
#
# Exit status: 0, whatever the verdicts; 1 when an invocation failed or
# printed no rate (its row is marked failed); 2 for bad arguments; 3 when
# the -S budget stopped the run before every configuration was done.
set -uo pipefail
PROG=$(basename "$0")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-$ROOT/bench}
LOCK=${LOCK:-}

# name and options of every configuration; a third field restricts the
# producer counts: "one" or "even"; a fourth names the Summary's figure
# that is the main rate when it is not the first: "total" (total
# operations) or "percent" (the false positive percentage)
CONFIGS=(
	"count-local||"
	"count-global||"
	"htab-mem|--use-case overwrite|"
	"htab-mem|--use-case overwrite --preallocated|"
	"htab-mem|--use-case batch_add_batch_del|"
	"htab-mem|--use-case batch_add_batch_del --preallocated|"
	"htab-mem|--use-case add_del_on_diff_cpu|even"
	"htab-mem|--use-case add_del_on_diff_cpu --preallocated|even"
	"lpm-trie-noop|--nr_entries 10000|"
	"lpm-trie-baseline|--nr_entries 10000|"
	"lpm-trie-lookup|--nr_entries 10000|"
	"lpm-trie-update|--nr_entries 10000|"
	"lpm-trie-insert|--nr_entries 10000|one"
	"lpm-trie-delete|--nr_entries 10000|one"
	"lpm-trie-free|--nr_entries 10000|one"
	"bpf-hashmap-full-update||"
	"bpf-hashmap-lookup||"
	"local-storage-create|--storage-type task|"
	"local-storage-cache-seq-get|--nr_maps 1|one"
	"local-storage-cache-seq-get|--nr_maps 100|one"
	"local-storage-cache-int-get|--nr_maps 1|one"
	"local-storage-cache-int-get|--nr_maps 100|one"
	"local-storage-cache-hashmap-control|--nr_maps 1 --hashmap_nr_keys_used 1000|one"
	"bloom-lookup|--nr_entries 10000 --value_size 8|"
	"bloom-update|--nr_entries 10000 --value_size 8|"
	"bloom-false-positive|--nr_entries 10000 --value_size 8||percent"
	"hashmap-without-bloom|--nr_entries 10000 --value_size 8||total"
	"hashmap-with-bloom|--nr_entries 10000 --value_size 8||total"
	"rb-libbpf|-c1 --rb-sampled|"
	"rb-custom|-c1 --rb-sampled|"
	"pb-libbpf|-c1 --rb-sampled|"
	"pb-custom|-c1 --rb-sampled|"
	"rb-libbpf|-c1 --rb-b2b|one"
	"rb-custom|-c1 --rb-b2b|one"
	"pb-libbpf|-c1 --rb-b2b|one"
	"pb-custom|-c1 --rb-b2b|one"
)

die_usage() {
	echo "$PROG: $*" >&2
	exit 2
}

known_bench() {
	local c

	for c in "${CONFIGS[@]}"; do
		[ "${c%%|*}" = "$1" ] && return 0
	done
	return 1
}

usage() {
	sed -n '4,/^set -uo/{ /^set -uo/d; s/^# \{0,1\}//; p }' "$0"
}
[ "${1:-}" = --help ] && { usage; exit 0; }

WARMUP=1
DURATION=3
ROUNDS=5
WITHIN=3
PRODS=1,2
ONLY=""
KEEP=""
MATCH=""
TABLE=""
BUDGET=""
while getopts ':w:d:n:t:p:b:r:T:S:o:h' opt; do
	case $opt in
	w)
		[[ $OPTARG =~ ^[0-9]{1,4}$ ]] || die_usage "bad warm-up '$OPTARG' for -w (accepted: 0..9999 seconds)"
		WARMUP=$OPTARG
		;;
	d)
		[[ $OPTARG =~ ^[1-9][0-9]{0,3}$ ]] || die_usage "bad duration '$OPTARG' for -d (accepted: 1..9999 seconds)"
		DURATION=$OPTARG
		;;
	n)
		[[ $OPTARG =~ ^[1-9][0-9]{0,2}$ ]] || die_usage "bad block count '$OPTARG' for -n (accepted: 1..999)"
		ROUNDS=$OPTARG
		;;
	t)
		if ! [[ $OPTARG =~ ^([1-9][0-9]?|0)(\.[0-9]{1,3})?$ ]] || ! awk -v t="$OPTARG" 'BEGIN { exit !(t > 0) }'; then
			die_usage "bad bound '$OPTARG' for -t (accepted: a percentage above 0 and below 100)"
		fi
		WITHIN=$OPTARG
		;;
	p)
		[[ $OPTARG =~ ^[1-9][0-9]{0,3}(,[1-9][0-9]{0,3})*$ ]] ||
			die_usage "bad producer list '$OPTARG' for -p (accepted: counts 1..9999, comma-separated)"
		PRODS=$OPTARG
		;;
	b)
		ONLY=$OPTARG
		IFS=, read -r -a names <<<"$ONLY"
		[ "${#names[@]}" -gt 0 ] || die_usage "empty benchmark list for -b"
		for n in "${names[@]}"; do
			known_bench "$n" || die_usage "unknown benchmark '$n' for -b (accepted: $(printf '%s\n' "${CONFIGS[@]%%|*}" | uniq | paste -sd' '))"
		done
		;;
	r)
		rc=0
		[[ "" =~ $OPTARG ]] || rc=$?
		if [ "$rc" -eq 2 ] || [ -z "$OPTARG" ]; then
			die_usage "bad regular expression '$OPTARG' for -r (accepted: a non-empty extended regular expression)"
		fi
		MATCH=$OPTARG
		;;
	T)
		[ -n "$OPTARG" ] || die_usage "empty table file name for -T"
		TABLE=$OPTARG
		;;
	S)
		[[ $OPTARG =~ ^[1-9][0-9]{0,5}$ ]] || die_usage "bad time budget '$OPTARG' for -S (accepted: 1..999999 seconds)"
		BUDGET=$OPTARG
		;;
	o) KEEP=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	:) die_usage "option -$OPTARG needs a value" ;;
	*) die_usage "unknown option -$OPTARG (see $PROG -h)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (see $PROG -h)"
[ -n "${UPSTREAM:-}" ] || die_usage "UPSTREAM is not set: give the path of upstream's bench (UPSTREAM=path $PROG)"
if ! [ -f "$UPSTREAM" ] || ! [ -x "$UPSTREAM" ]; then
	die_usage "UPSTREAM '$UPSTREAM' is not an executable file"
fi
if ! [ -f "$BENCH" ] || ! [ -x "$BENCH" ]; then
	die_usage "BENCH '$BENCH' is not an executable file (build it with make)"
fi
LOCKED=()
if [ -n "$LOCK" ]; then
	command -v flock >/dev/null || die_usage "LOCK is set but flock(1) is not installed"
	{ : >>"$LOCK"; } 2>/dev/null || die_usage "LOCK '$LOCK' cannot be opened for writing"
	LOCKED=(flock "$LOCK")
fi

# the -T table's header: what its blocks were measured with
table_head() {
	local a b

	a=$(sha256sum <"$BENCH" | cut -c1-16) && b=$(sha256sum <"$UPSTREAM" | cut -c1-16) || return 1
	printf 'ours: %s (sha256 %s)\nupstream: %s (sha256 %s)\n' \
		"$(readlink -f "$BENCH")" "$a" "$(readlink -f "$UPSTREAM")" "$b"
	printf -- '-w%s -d%s, each row from the blocks it says (A B B A, B A A B, ...; A ours, B upstream), 95%% intervals, bound ±%s%%\n' \
		"$WARMUP" "$DURATION" "$WITHIN"
}
BLOCKS=""
if [ -n "$TABLE" ]; then
	head=$(table_head) || die_usage "cannot read BENCH or UPSTREAM to name them in the table"
	BLOCKS=$TABLE.blocks
	if [ -s "$TABLE" ]; then
		have=$(head -n 3 "$TABLE")
		[ "$have" = "$head" ] ||
			die_usage "table '$TABLE' was measured with other binaries or settings (its header: $(printf '%s' "$have" | paste -sd'|'); this run: $(printf '%s' "$head" | paste -sd'|'))"
		{ : >>"$TABLE" && : >>"$BLOCKS"; } 2>/dev/null || die_usage "table '$TABLE' or '$BLOCKS' cannot be opened for writing"
	else
		{ printf '%s\n\n' "$head" >"$TABLE" && : >"$BLOCKS"; } 2>/dev/null ||
			die_usage "table '$TABLE' or '$BLOCKS' cannot be opened for writing"
		printf '%-58s %-13s %-20s %-6s %s\n' configuration "ours/upstream" "95% interval" blocks verdict >>"$TABLE"
	fi
fi

if [ -n "$KEEP" ]; then
	mkdir -p "$KEEP" || die_usage "cannot create output directory '$KEEP'"
	OUT=$KEEP
else
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/fidelity.XXXXXX") || exit 1
	trap 'rm -rf "$OUT"' EXIT
fi
trap 'exit 130' INT
trap 'exit 143' TERM

# upstream's tp/ programs find tracepoints through tracefs
UP_WRAP=()
if [ ! -d /sys/kernel/tracing/events ] && [ ! -d /sys/kernel/debug/tracing/events ]; then
	if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
		UP_WRAP=(unshare -m --propagation private sh -c 'mount -t tracefs nodev /sys/kernel/tracing && exec "$@"' sh)
		echo "$PROG: tracefs is not mounted: upstream's runs mount it in a mount namespace of their own" >&2
	else
		echo "$PROG: tracefs is not mounted and cannot be mounted here: upstream's tp/ benchmarks will fail" >&2
	fi
fi

# main_rate FILE [FIGURE]: the main rate of one invocation's output, or
# nothing; FIGURE "total" or "percent" reads that figure of the Summary
main_rate() {
	awk -v fig="${2:-}" '
		/^Summary: / && fig == "total" {
			if (match($0, /total operations +[0-9]+(\.[0-9]+)?/)) {
				s = substr($0, RSTART, RLENGTH)
				sub(/^total operations +/, "", s)
			}
			next
		}
		/^Summary: / && fig == "percent" {
			if (match($0, /Percentage = +[0-9]+(\.[0-9]+)?/)) {
				s = substr($0, RSTART, RLENGTH)
				sub(/^Percentage = +/, "", s)
			}
			next
		}
		/^Summary: / {
			for (i = 2; i <= NF; i++)
				if ($i ~ /^[0-9]+(\.[0-9]+)?$/) { s = $i; break }
		}
		/^[0-9]+:hash_map_full_perf [0-9]+ events per sec$/ { sum += $2; n++ }
		/^cpu[0-9]+: lookup [0-9.]+M / { v = $3; sub(/M$/, "", v); sum += v; n++ }
		END {
			if (s != "") print s
			else if (n) printf "%.6f\n", sum / n
		}' "$1"
}

# run WHO FILE FIGURE ARGS...: one invocation, its output in FILE; prints
# the rate (FIGURE as for main_rate)
run_one() {
	local who=$1 file=$2 fig=$3 rc=0
	shift 3

	if [ "$who" = A ]; then
		"${LOCKED[@]}" "$BENCH" "$@" >"$file" 2>&1 || rc=$?
	else
		"${LOCKED[@]}" "${UP_WRAP[@]}" "$UPSTREAM" "$@" >"$file" 2>&1 || rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		echo "$PROG: $([ "$who" = A ] && echo ours || echo upstream) failed (exit $rc): $* (output: $(tail -n 2 "$file" | tr '\n' ' '))" >&2
		return 1
	fi
	main_rate "$file" "$fig"
}

load() {
	cut -d' ' -f1-3 /proc/loadavg
}

# emit_row LABEL FORMAT ARGS...: a row on standard output and, with -T, at
# the end of the table
emit_row() {
	local label=$1 fmt=$2 line
	shift 2

	line=$(printf "%-58s $fmt" "$label" "$@")
	emit printf '%s\n' "$line"
	[ -z "$TABLE" ] && return 0
	printf '%s\n' "$line" >>"$TABLE" && return 0
	echo "$PROG: failed to append to table '$TABLE': the results are incomplete" >&2
	exit 1
}

# keep_block LABEL R A B: block R's two geometric means in FILE.blocks
keep_block() {
	[ -z "$BLOCKS" ] && return 0
	printf '%s\t%s\t%s\t%s\n' "$@" >>"$BLOCKS" && return 0
	echo "$PROG: failed to append to '$BLOCKS': the results are incomplete" >&2
	exit 1
}

# budget_allows: whether a block started now ends within -S; the estimate
# is the longest block so far (LONGEST), or 4 x (w + d + 2) seconds
budget_allows() {
	local est=$LONGEST

	[ -z "$BUDGET" ] && return 0
	[ "$est" -gt 0 ] || est=$((4 * (WARMUP + DURATION + 2)))
	[ $((SECONDS - START + est)) -le "$BUDGET" ]
}

# run_block LABEL DIR FIGURE R ARGS...: block R's four invocations; sets
# BLOCK_A and BLOCK_B, the geometric means of its two A and two B rates
# (the log of their ratio is the mean of the block's two paired log
# ratios, which paired_ratio.awk takes as one replicate)
run_block() {
	local label=$1 dir=$2 fig=$3 r=$4 pos who file rate
	local -a order a b
	shift 4

	if ((r % 2)); then order=(A B B A); else order=(B A A B); fi
	for pos in 0 1 2 3; do
		who=${order[$pos]}
		file=$dir/block$r-$((pos + 1))-$([ "$who" = A ] && echo ours || echo upstream).out
		rate=$(run_one "$who" "$file" "$fig" -w"$WARMUP" -d"$DURATION" "$@") || rate=""
		if ! [[ $rate =~ ^[0-9]+(\.[0-9]+)?$ ]] || awk -v x="$rate" 'BEGIN { exit !(x <= 0) }'; then
			[ -n "$rate" ] || echo "$PROG: no rate in $([ "$who" = A ] && echo our || echo "upstream's") output of $label" >&2
			return 1
		fi
		if [ "$who" = A ]; then a+=("$rate"); else b+=("$rate"); fi
	done
	BLOCK_A=$(awk -v x="${a[0]}" -v y="${a[1]}" 'BEGIN { printf "%.9g", sqrt(x * y) }')
	BLOCK_B=$(awk -v x="${b[0]}" -v y="${b[1]}" 'BEGIN { printf "%.9g", sqrt(x * y) }')
}

# measure LABEL DIR FIGURE ARGS...: one configuration, ROUNDS blocks of
# four invocations (with -T, from the blocks the table has); prints its
# row; returns 1 when it failed, 3 when the -S budget stopped it
measure() {
	local label=$1 dir=$2 fig=$3 r have=0 done_n=0 t0 l k ga gb
	local geo_a="" geo_b="" row g lo hi n v

	shift 3
	if [ -n "$BLOCKS" ]; then
		while IFS=$'\t' read -r l k ga gb; do
			[ "$l" = "$label" ] || continue
			if [ "$k" = row ]; then
				[ "$ga" -le "$done_n" ] || done_n=$ga
				continue
			fi
			geo_a+=" $ga"
			geo_b+=" $gb"
			have=$((have + 1))
		done <"$BLOCKS"
		if [ "$have" -ge "$ROUNDS" ] && [ "$done_n" -ge "$have" ]; then
			echo "$PROG: in table '$TABLE' already, from $have blocks: $label" >&2
			return 0
		fi
	fi
	mkdir -p "$dir"
	for ((r = have + 1; r <= ROUNDS; r++)); do
		if ! budget_allows; then
			echo "$PROG: stopped at the -S budget ($BUDGET s): $label has $((r - 1)) of $ROUNDS blocks${TABLE:+; the same command goes on from there}" >&2
			return 3
		fi
		t0=$SECONDS
		if ! run_block "$label" "$dir" "$fig" "$r" "$@"; then
			emit_row "$label" 'FAILED\n'
			return 1
		fi
		[ $((SECONDS - t0)) -le "$LONGEST" ] || LONGEST=$((SECONDS - t0))
		geo_a+=" $BLOCK_A"
		geo_b+=" $BLOCK_B"
		keep_block "$label" "$r" "$BLOCK_A" "$BLOCK_B"
	done
	if ! row=$(awk -v off="$geo_b" -v on="$geo_a" -v within="$WITHIN" -f "$ROOT/benchs/paired_ratio.awk"); then
		emit_row "$label" 'FAILED\n'
		return 1
	fi
	read -r g lo hi n v <<<"$row"
	keep_block "$label" row "$n" -
	if [ "$lo" = - ]; then
		emit_row "$label" '%-13s %-20s %-6s %s' "$(printf '%.3f' "$g")" "none (1 block)" "$n" "undecided"
		return 0
	fi
	case $v in
	within | outside) v="$v ±$WITHIN%" ;;
	esac
	emit_row "$label" '%-13s %-20s %-6s %s' "$(printf '%.3f' "$g")" "$(printf '%.3f..%.3f' "$lo" "$hi")" "$n" "$v"
}

emit() {
	"$@" && return 0
	echo "$PROG: failed to write standard output: the results are incomplete" >&2
	exit 1
}

# the benchmarks upstream's bench lists (-l: "- NAME" lines), or none
# when it lists none that way: a kernel tree older than a benchmark has no
# such row to compare (Linux 6.12's has no lpm-trie-*)
UP_LIST=$("$UPSTREAM" -l 2>/dev/null | sed -n 's/^- \([A-Za-z0-9_.-]*\)$/\1/p')
up_has() {
	[ -z "$UP_LIST" ] || grep -qxF -- "$1" <<<"$UP_LIST"
}

failed=0
START=$SECONDS
LONGEST=0
emit printf 'ours: %s\nupstream: %s\n-w%s -d%s, %s blocks a configuration (A B B A, B A A B, ...; A ours, B upstream), 95%% intervals, bound ±%s%%\nload before: %s\n\n' \
	"$BENCH" "$UPSTREAM" "$WARMUP" "$DURATION" "$ROUNDS" "$WITHIN" "$(load)"
emit printf '%-58s %-13s %-20s %-6s %s\n' configuration "ours/upstream" "95% interval" blocks verdict
[ -z "$TABLE" ] || printf '# %s: load before %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" "$(load)" >>"$TABLE"
IFS=, read -r -a prods <<<"$PRODS"
idx=0
for p in "${prods[@]}"; do
	for c in "${CONFIGS[@]}"; do
		IFS='|' read -r name opts only fig <<<"$c"
		if [ -n "$ONLY" ] && ! [[ ",$ONLY," == *",$name,"* ]]; then
			continue
		fi
		case $only in
		one) [ "$p" -eq 1 ] || continue ;;
		even) [ $((p % 2)) -eq 0 ] || continue ;;
		esac
		pflags=(-p"$p")
		[ "$p" -gt 1 ] && pflags+=(-a)
		read -r -a optv <<<"$opts"
		idx=$((idx + 1))
		label="${pflags[*]} $name${opts:+ $opts}"
		[ -z "$MATCH" ] || [[ $label =~ $MATCH ]] || continue
		if ! up_has "$name"; then
			emit_row "$label" "not in upstream's bench (its -l)\n"
			continue
		fi
		rc=0
		measure "$label" "$OUT/$(printf '%02d' "$idx")-p$p-$name" "$fig" "${pflags[@]}" "$name" "${optv[@]}" || rc=$?
		[ "$rc" -eq 1 ] && failed=1
		[ "$rc" -eq 3 ] && { failed=3; break 2; }
	done
done
[ -z "$TABLE" ] || printf '# %s: load after %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" "$(load)" >>"$TABLE"
emit printf '\nload after: %s\n' "$(load)"
exit "$failed"
