#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench compare and bench plot compare are one evaluation: for several
# files a side, --repeat files, --paired and --rank, the chart's verdict
# labels are compare's, row by row; intervals of a change are a ratio's and
# never reach below -100%; peak memory with several files a side is tested.
# Real count-local and count-global runs (no BPF), and files made from them
# with jq where a known answer is needed.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

require_plot_tools
cd "$TEST_TMP" || exit 1

# three invocations a side, each of 2 repeats, of two benchmarks (so that
# the verdicts are not all "within noise" on a quiet machine), and the run
# of three samples the made results below start from: no run reads
# another's file, so they run side by side (lib.sh, par_start)
par_start s.out "$BENCH" -q -w0 -d3 --json s.json count-local
for i in 1 2 3; do
	par_start "l$i.out" "$BENCH" -q -w0 -d1 --repeat 2 --json "l$i.json" count-local
	par_start "g$i.out" "$BENCH" -q -w0 -d1 --repeat 2 --json "g$i.json" count-global
done
# verdicts <compare output>: the verdict of every metric row, in order
verdicts() {
	sed -nE 's/^[a-z_0-9]+ \([^)]*\) .* (-|unbounded|\[[-+][0-9.e+]+, [-+][0-9.e+]+\]%) +(-|<?[0-9.]+) +(.*)$/\3/p' "$1" |
		sed -E 's/^(undecided):.*/\1/; s/^(better|worse), below .*/\1/'
}

# chart_verdicts <svg> <n>: the first n verdict labels over the bars
chart_verdicts() {
	grep -oE '>(better|worse|within ±[0-9.]+%|undecided|n/a)<' "$1" |
		head -n "$2" | sed -E 's/^>(.*)<$/\1/'
}

# plot_start <name> <compare and plot options...> -- files: bench plot
# compare in the background, its chart <name>.svg.  A chart is gnuplot's
# work, CPU-bound, a quarter of a second: the charts of the cases of
# several files a side are drawn at once, beside the compares.
declare -A PLOT_PID=() PLOT_ARGS=()
plot_start() {
	local name=$1
	shift
	"$BENCH" plot compare "$@" -o "$name.svg" >"$name.plot.out" 2>"$name.plot.err" &
	PLOT_PID[$name]=$!
	PLOT_ARGS[$name]="$*"
}

# agree <name> <compare and plot options...> -- files: compare's verdicts
# are the chart's; the chart is the one plot_start drew of these very
# options, or drawn now (beside compare)
agree() {
	local name=$1 n
	shift
	if [ -n "${PLOT_PID[$name]:-}" ] && [ "${PLOT_ARGS[$name]}" != "$*" ]; then
		wait "${PLOT_PID[$name]}"
		diag "$name: the chart drawn beforehand had other options: drawn again"
		unset 'PLOT_PID[$name]'
	fi
	[ -n "${PLOT_PID[$name]:-}" ] || plot_start "$name" "$@"
	"$BENCH" compare --verbose "$@" >"$name.cmp" 2>"$name.cmp.err"
	is $? 0 "$name: compare exits 0"
	wait "${PLOT_PID[$name]}"
	is $? 0 "$name: plot compare exits 0"
	unset 'PLOT_PID[$name]' 'PLOT_ARGS[$name]'
	verdicts "$name.cmp" >"$name.want"
	n=$(grep -c . "$name.want")
	cmp_ok "$n" -ge 3 "$name: compare has a verdict per metric ($n)"
	chart_verdicts "$name.svg" "$n" >"$name.got"
	if diff -u "$name.want" "$name.got" >"$name.diff"; then
		ok 0 "$name: the chart's verdicts are compare's: $(paste -sd, "$name.want")"
	else
		ok 1 "$name: the chart's verdicts are compare's"
		diag "$(cat "$name.diff")"
	fi
}

# The run of three samples (the made results below start from it) ends
# first: its cases are checked while the last --repeat runs go on.
# ---- an interval Fieller's method cannot bound ----
# samples 50, 150, 100 (mean 100, sd 50) against a tenth of them (10, sd
# 5), 3 a side: va = 2500 / 3 = 833.3, vb = 8.3, Welch df 2.04, t about
# 4.24; t^2 va = 15000 is above 100^2: the base mean is not itself clear
# of 0, so the ratio's interval has no bounds: -90.0%, "unbounded", and no
# verdict from it
par_wait s.out
is $? 0 "count-local -d3: a run of three samples"
jq '.samples |= [to_entries[] | .value.metrics.hits = ([50, 150, 100][.key % 3]) | .value] |
    .summary.metrics.hits += {mean: 100, stddev: 50, median: 100, min: 50, max: 150,
			      cv: 0.5, ci95: (4.302652729911275 * 50 / (3 | sqrt)),
			      q1: 75, q3: 125, iqr: 50, mad: 50, p90: 140, p99: 149,
			      tukey: {low_fence: 0, high_fence: 200, outliers: []}}' s.json >wide.json
ok $? "a run with hits 50, 150, 100 made"
"$BENCH" compare --verbose wide.json wide.json >wide.self 2>&1
if ! like wide.self '^hits \(M/s\) .* undecided: 3 samples a side resolve only changes above [0-9.]+%$' "the made run is a valid result"; then
	diag "$(head -5 wide.self)"
fi
scaled_hits wide.json 0.1 tenth.json
"$BENCH" compare --verbose wide.json tenth.json >tenth.cmp 2>&1
is $? 0 "a tenth: compare exits 0"
like tenth.cmp '^hits \(M/s\) +100\.000 ± 50\.000 +10\.000 ± 5\.000 +-90\.0% +unbounded +[0-9.]+ +undecided: 3 samples a side: too noisy to bound the change$' \
	"a tenth: -90.0%, an unbounded interval said so, undecided"
"$BENCH" plot compare wide.json tenth.json -o tenth.svg 2>tenth.err
is $? 0 "a tenth: plot compare exits 0"

# ---- known verdicts: a run made steady and the same halved (lib.sh) ----
steady_and_halved s.json steady.json half.json
agree halved steady.json half.json
like halved.want '^worse$' "halved: compare says worse (and the chart, above)"
agree doubled half.json steady.json
like doubled.want '^better$' "doubled: compare says better (and the chart, above)"

# The count-local runs end before the last count-global one, which
# started last: the cases of count-local runs alone are checked meanwhile.
for i in 1 2 3; do
	par_wait "l$i.out"
	is $? 0 "count-local --repeat 2 run $i"
done
L=(l1.json l2.json l3.json)

# ---- A/A: the same configuration on both sides ----
agree aa "${L[@]::2}" -- "${L[2]}"

# ---- peak memory with several files a side: tested, with an interval ----
for i in 1 2 3; do
	jq ".summary.peak_memory_bytes = $(((10 + i) * 1048576)) | .summary.peak_memory_mib = $((10 + i)) |
	    .summary.peak_memory_resolution_mib = 0.5" "l$i.json" >"ml$i.json"
	jq ".summary.peak_memory_bytes = $(((20 + i) * 1048576)) | .summary.peak_memory_mib = $((20 + i)) |
	    .summary.peak_memory_resolution_mib = 0.5" "l$i.json" >"mg$i.json"
done
agree memory ml1.json ml2.json ml3.json -- mg1.json mg2.json mg3.json
# 12 +- 1 against 22 +- 1 MiB over 3 + 3 files: the ratio of the means
# 22 / 12 = +83.3%; va = vb = 1/3, Welch df 4, t(0.975, 4) = 2.7764;
# Fieller: A = 144 - 2.7764^2 / 3 = 141.43, B = 264, disc = 2.7764^2 x
# (484 / 3 + 141.43 / 3) = 1607.0, sqrt 40.09: [223.9, 304.1] / 141.43 =
# [1.583, 2.150], +58.3% .. +115%; t = 10 / sqrt(2/3) = 12.25 on 4 df, p 0.0003
like memory.cmp '^peak_memory \(MiB\) +12\.000 ± 1\.000 +22\.000 ± 1\.000 +\+83\.3% +\[\+58\.3, \+115\]% +0\.000[0-9]+ +worse$' \
	"memory: 12 against 22 MiB over 3 + 3 files: +83.3% (the means), Fieller's interval, worse"
like memory.svg '3\+3 invocations' "memory: the chart counts the files, its memory bar's too"
"$BENCH" compare --verbose ml1.json mg1.json >memory1.cmp 2>&1
like memory1.cmp '^peak_memory \(MiB\) +11\.000 +21\.000 +\+90\.9% +- +- +undecided: 1 run a side, no spread: no test possible$' \
	"memory: one file a side stays untested"

for i in 1 2 3; do
	par_wait "g$i.out"
	is $? 0 "count-global --repeat 2 run $i"
done
G=(g1.json g2.json g3.json)

# the charts of the cases of several files a side (and of 300 a side, as
# many files as a long bench ab run writes), drawn at once in the
# background: agree and the 300 files' check below wait for them
plot_start files --force "${L[@]}" -- "${G[@]}"
plot_start repeats --force l1.json g1.json
plot_start paired --force --paired "${L[@]}" -- "${G[@]}"
plot_start prank --force --paired --rank "${L[@]}" -- "${G[@]}"
plot_start ptrim --force --paired --trimmed "${L[@]}" -- "${G[@]}"
plot_start rank --force --rank "${L[@]}" -- "${G[@]}"
many_a=() many_b=()
for i in $(seq 1 300); do
	many_a+=("${L[$((i % 3))]}")
	many_b+=("${G[$((i % 3))]}")
done
"$BENCH" plot compare --force "${many_a[@]}" -- "${many_b[@]}" -o many.svg >many.plot.out 2>many.plot.err &
MANY_PID=$!

# ---- several files a side: the invocation is the unit ----
agree files --force "${L[@]}" -- "${G[@]}"
like files.cmp '^Test: the per-invocation means are the observations' "files: compare's unit is the invocation"
like files.svg 'invocations, Fieller' "files: the chart names the unit and the test"
like files.svg '3\+3 invocations, Fieller' "files: the chart counts the observations, 3 + 3"
# which side is faster is a timing: logged, not judged
diag "count-local against count-global: $(grep '^hits ' files.cmp)"

# the interval of hits: Fieller's, of a ratio of means, around the change,
# never below -100% (new = 0); on a busy machine three runs a side may leave
# the base mean not clear of 0, and then the interval is unbounded above, or
# has no bounds at all ("unbounded" alone), which only an undecided row may print
read -r ch lo hi < <(sed -nE 's/^hits \(M\/s\) .* ([-+][0-9.]+)% +(\[([-+][0-9.]+), ([-+][0-9.]+|unbounded)\]%?|unbounded) .*/\1 \3 \4/p' files.cmp)
[ -n "$ch" ]
ok $? "files: the hits row has a change and an interval"
if [ -z "$lo" ]; then
	like files.cmp '^hits \(M/s\) .* [-+][0-9.]+% +unbounded .*undecided' \
		"files: an interval without bounds is undecided's"
else
	cmp_num "$lo" '<' "$ch" "files: the interval's low end is below the change ($lo < $ch)"
	if [ "$hi" = unbounded ]; then
		like files.cmp '^hits \(M/s\) .*undecided' "files: an interval unbounded above is undecided's"
	else
		cmp_num "$hi" '>' "$ch" "files: the interval's high end is above it ($hi > $ch)"
	fi
	cmp_num "$lo" '>=' -100 "files: the interval of a ratio stays at or above -100% ($lo)"
fi

# ---- --repeat files, one a side: the repeat is the unit ----
agree repeats --force l1.json g1.json
like repeats.cmp '^Test: the per-repeat means are the observations' "repeats: compare's unit is the repeat"
like repeats.svg 'repeats, Fieller' "repeats: the chart says so"

# ---- --paired ----
agree paired --force --paired "${L[@]}" -- "${G[@]}"
like paired.cmp '^  hits: paired t-test on 3 pairs of invocation means' "paired: compare tests the pairs"
like paired.svg 'pairs, paired t-test' "paired: the chart says so"
like paired.svg 'hits \(M/s\), 3 pairs' "paired: ... and counts the pairs of each bar (drops has none)"
is_exit 2 "paired: unequal sides refused" "$BENCH" compare --force --paired l1.json l2.json -- g1.json
like "$TEST_TMP/is_exit.err" 'pairs need as many files on each side' "paired: unequal sides: says why"
is_exit 2 "paired: plot refuses unequal sides too" "$BENCH" plot compare --force --paired l1.json l2.json -- g1.json -o bad.svg
assert "paired: no chart left from a refusal" [ ! -e bad.svg ]

# ---- --paired --rank and --paired --trimmed: bench ab's statistics ----
agree prank --force --paired --rank "${L[@]}" -- "${G[@]}"
like prank.cmp "^  hits: Wilcoxon's signed-rank test on 3 pairs of invocation means" "paired rank: the signed-rank test"
like prank.cmp "interval none: too few pairs for a 95% interval \\(6 needed\\)" "paired rank: 3 pairs have no 95% interval, and it says so"
like prank.svg 'signed-rank test' "paired rank: the chart says so"
agree ptrim --force --paired --trimmed "${L[@]}" -- "${G[@]}"
like ptrim.cmp "^  hits: trimmed t-test \\(Tukey-McLaughlin\\) on 3 pairs" "paired trimmed: the trimmed t-test"
like ptrim.svg 'trimmed t-test' "paired trimmed: the chart says so"
is_exit 2 "--trimmed without --paired refused" "$BENCH" compare --force --trimmed "${L[@]}" -- "${G[@]}"
like "$TEST_TMP/is_exit.err" "^compare: --trimmed is a test of pairs: give it with --paired and without --rank$" "... says why"

# ---- --rank ----
agree rank --force --rank "${L[@]}" -- "${G[@]}"
like rank.cmp "^  hits: Mann-Whitney's rank-sum test on 3 \\+ 3 invocation means \\(exact\\)" "rank: compare runs Mann-Whitney"
like rank.cmp '^hits \(M/s\) +[0-9.]+ \(median\)' "rank: the sides are their medians"
like rank.svg 'Hodges-Lehmann' "rank: the chart says so"

# ---- as many files as a long bench ab run writes: 300 a side ----
is_exit 0 "300 files a side: compare reads them" "$BENCH" compare --verbose --force "${many_a[@]}" -- "${many_b[@]}"
like "$TEST_TMP/is_exit.out" "^hits \(M/s\) .*" "300 files a side: a row per metric"
wait "$MANY_PID"
is $? 0 "300 files a side: so does plot compare"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "stderr: $(head -c 1000 many.plot.err)"
like many.svg '300\+300 invocations' "300 files a side: the chart counts them"

# ---- plot's own refusals ----
is_exit 2 "plot: '--' with a timeline refused" "$BENCH" plot timeline l1.json -- g1.json -o bad.svg
like "$TEST_TMP/is_exit.err" "'--' separates the base and new files of a compare chart" "plot: ... says why"
is_exit 2 "plot: nothing after '--' refused" "$BENCH" plot compare l1.json -- -o bad.svg
like "$TEST_TMP/is_exit.err" "no NEW result file after '--'" "plot: ... says why"
is_exit 2 "plot: --rank outside compare refused" "$BENCH" plot timeline --rank l1.json -o bad.svg
assert "plot: no chart left from the refusals" [ ! -e bad.svg ]

done_testing
