#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench plot: every chart type in every format, from result files of real
# count-local runs (no BPF, no lock), and its refusals.  The memory axis of
# the timeline, which needs htab-mem, is in plot_bpf.t.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

require_plot_tools

T=$TEST_TMP
# -d2 for every chart's n=2; a warm-up only where a chart shows one (the
# timeline of p1 and p2): the warm-up is not a configuration option, so the
# scaling and compare charts take p4 and p2b without one alike; the four
# runs are independent: side by side (lib.sh, par_start)
for p in 1 2 4; do
	w=0
	[ "$p" -le 2 ] && w=1
	par_start "$T/p$p" "$BENCH" -q -w$w -d2 -p$p -a --json "$T/p$p.json" count-local
done
par_start "$T/p2b" "$BENCH" -q -w0 -d2 -p2 -a --json "$T/p2b.json" count-local
for p in 1 2 4; do
	par_wait "$T/p$p"
	ok $? "count-local -p$p --json: the run for the charts"
done
par_wait "$T/p2b"
ok $? "a second count-local -p2 run, to compare"

# png_size <file>: "WIDTHxHEIGHT" from the PNG signature and IHDR chunk
png_size() {
	local sig
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { echo "not a PNG"; return; }
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
		$5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# svg_has <file> <text> <description>
svg_has() {
	if grep -qF -- "$2" "$1"; then ok 0 "$3"; else ok 1 "$3"; diag "'$2' not in $1"; fi
}

# plot_ok <name> <expected png size> <args...>: one chart type in svg, png and text
check_chart() {
	local name=$1 size=$2
	shift 2
	"$BENCH" plot "$@" -o "$T/$name.svg" >"$T/$name.svg.out" 2>"$T/$name.svg.err"
	is $? 0 "plot $name -o .svg: exit 0"
	xmllint --noout "$T/$name.svg" 2>"$T/$name.xml.err"
	ok $? "plot $name: the SVG parses as XML"
	"$BENCH" plot "$@" -o "$T/$name.png" >/dev/null 2>"$T/$name.png.err"
	is $? 0 "plot $name -o .png: exit 0"
	is "$(png_size "$T/$name.png")" "$size" "plot $name: a PNG of $size"
	"$BENCH" plot "$@" -o - >"$T/$name.txt" 2>"$T/$name.txt.err"
	is $? 0 "plot $name -o -: exit 0"
	"$BENCH" plot "$@" --text >"$T/$name.txt2" 2>/dev/null
	assert "plot $name --text draws the same as -o -" cmp -s "$T/$name.txt" "$T/$name.txt2"
	lines=$(wc -l <"$T/$name.txt")
	cmp_ok "$lines" -ge 20 "plot $name: text chart of a few dozen lines, at least 20"
	cmp_ok "$lines" -le 60 "plot $name: text chart of a few dozen lines, at most 60"
	cmp_ok "$(wc -L <"$T/$name.txt")" -le 80 "plot $name: text fits 80 columns"
	is "$(find "$T" -maxdepth 1 -name '*.tmp.*')" "" "plot $name: no temporary file left"
}

# timeline: two runs labelled by the option that differs
check_chart timeline 900x560 timeline "$T/p1.json" "$T/p2.json"
svg_has "$T/timeline.svg" "-p1: " "timeline SVG: series named from the option that differs (-p1)"
svg_has "$T/timeline.svg" "-p2: " "timeline SVG: series named from the option that differs (-p2)"
svg_has "$T/timeline.svg" "warm-up (1 sample, not in the statistics)" "timeline SVG: warm-up marked"
svg_has "$T/timeline.svg" "(mean ± stddev band, n=2)" "timeline SVG: the sample count in the legend"
svg_has "$T/timeline.svg" "hits (M/s)" "timeline SVG: the rate axis with its unit"
svg_has "$T/timeline.svg" "time since start (s)" "timeline SVG: the time axis with its unit"
like "$T/timeline.txt" '^ +count-local timeline: hits per second +$' "timeline text: the title"
like "$T/timeline.txt" 'time since start \(s\)' "timeline text: the time axis"
like "$T/timeline.txt" 'hits \(M/s\)' "timeline text: the rate axis"
like "$T/timeline.txt" '^ +0 \+-+\+' "timeline text: the rate axis starts at 0"
like "$T/timeline.txt" '-p2: [0-9.]+ ± [0-9.]+ M/s \(mean ± stddev band, n=2\)' \
	"timeline text: mean ± stddev and n in the legend"
# the values in the legend are the ones in the JSON summary
mean=$(jq -r '.summary.metrics.hits.mean * 100 | round / 100' "$T/p2.json")
like "$T/timeline.txt" "-p2: $(printf '%.2f' "$mean") ±" "timeline: the legend's mean is the Summary's ($mean)"
"$BENCH" plot timeline --label base --label new "$T/p1.json" "$T/p2.json" -o "$T/lab.svg" 2>/dev/null
svg_has "$T/lab.svg" "new: " "timeline --label names the series"
# --zoom fits the axis to the data; gnuplot's autoscale may still reach 0
# when a noisy run spans a wide range, so zoom into a run whose hits sit
# far above 0: the real run shifted by 10000 M/s, its summary to match
jq '.samples[].metrics.hits += 10000
    | .summary.metrics.hits |= (.mean += 10000 | .median += 10000 | .min += 10000
                                | .max += 10000 | .cv = .stddev / .mean
                                | .p90 += 10000 | .p99 += 10000 | .q1 += 10000 | .q3 += 10000
                                | .tukey.low_fence += 10000 | .tukey.high_fence += 10000)' \
	"$T/p1.json" >"$T/shifted.json"
"$BENCH" plot timeline --zoom "$T/shifted.json" -o - >"$T/zoom.txt" 2>/dev/null
is $? 0 "timeline --zoom: exit 0"
# (a steady run's ticks are decimals: 10058.4)
is "$(grep -cE '^ +0(\.0+)? \+-+\+' "$T/zoom.txt")" 0 "timeline --zoom: the axis no longer starts at 0"
like "$T/zoom.txt" '^ +[0-9]+(\.[0-9]+)? \+-+\+' "timeline --zoom: the axis starts somewhere"

# scaling
check_chart scaling 900x820 scaling "$T/p4.json" "$T/p1.json" "$T/p2.json"
svg_has "$T/scaling.svg" "ideal: linear from 1 producer" "scaling SVG: the ideal line"
svg_has "$T/scaling.svg" "total, mean ± stddev (n=2 per point)" "scaling SVG: total series with n"
svg_has "$T/scaling.svg" "per producer, mean ± stddev (n=2 per point)" "scaling SVG: per-producer series with n"
svg_has "$T/scaling.svg" "producers (threads)" "scaling SVG: the producer axis"
svg_has "$T/scaling.svg" "total (M/s)" "scaling SVG: the total axis with its unit"
like "$T/scaling.txt" 'count-local scaling: hits against producers' "scaling text: the title"
like "$T/scaling.txt" '^ +1 +2 +4 *$' "scaling text: the producer counts as axis marks"
"$BENCH" plot scaling --table "$T/p1.json" "$T/p2.json" "$T/p4.json" >"$T/table" 2>"$T/table.err"
is $? 0 "scaling --table: exit 0"
like "$T/table" '^producers +per-producer \(M/s\) +stddev +total \(M/s\) +efficiency +samples$' "scaling table header"
like "$T/table" '^ +1 +[0-9.]+ +± +[0-9.]+ +[0-9.]+ +100\.0% +2$' "scaling table: 1 producer at 100%"
is "$(grep -E '^ +[0-9]+ ' "$T/table" | awk '{ print $1 }' | tr '\n' ' ')" "1 2 4 " "scaling table: one row per count"

# compare
check_chart compare 900x560 compare "$T/p2.json" "$T/p2b.json"
svg_has "$T/compare.svg" "hits (M/s)" "compare SVG: the metric with its unit"
svg_has "$T/compare.svg" "change vs base (%), bars: 95% CI" "compare SVG: the change axis"
verdict=$("$BENCH" compare --verbose "$T/p2.json" "$T/p2b.json" | sed -nE 's/^hits \(M\/s\) .*[0-9%d-] +(within ±2%|better|worse|undecided)(: .*|, below .*)?$/\1/p')
svg_has "$T/compare.svg" ">$verdict<" "compare SVG: the bar says compare's verdict ($verdict)"
like "$T/compare.txt" 'count-local compare: change \(ratio of means\), new vs base' "compare text: the title"
like "$T/compare.txt" "$verdict" "compare text: the verdict in words"

# bad input: one line, exit 2, nothing written
echo '{"hello": 1}' >"$T/other.json"
echo old >"$T/keep.svg"
bad() {	# bad <description> <expected message regex> <args...>
	local what=$1 re=$2
	shift 2
	"$BENCH" plot "$@" >"$T/bad.out" 2>"$T/bad.err"
	is $? 2 "$what: exit 2"
	is "$(grep -c . "$T/bad.err")" 1 "$what: one line: $(head -n1 "$T/bad.err")"
	like "$T/bad.err" "$re" "$what: says why"
	is "$(grep -c . "$T/bad.out")" 0 "$what: nothing on stdout"
}
bad "no files" "needs result files" timeline -o "$T/keep.svg"
bad "not a bench result" "other.json: schema: .*not a bench result" timeline "$T/other.json" -o "$T/keep.svg"
bad "a missing file" "nosuch.json" timeline "$T/nosuch.json" -o "$T/keep.svg"
jq '.benchmark = "count-global"' "$T/p1.json" >"$T/g.json"
bad "different benchmarks" "refusing to plot different benchmarks in one chart: 'count-local' .* vs 'count-global'" \
	timeline "$T/p1.json" "$T/g.json" -o "$T/keep.svg"
bad "scaling of one point" "needs runs at two or more producer counts" scaling "$T/p1.json" -o "$T/keep.svg"
bad "scaling with duplicate counts" "two runs with 2 producers" scaling "$T/p1.json" "$T/p2.json" "$T/p2b.json" -o "$T/keep.svg"
jq '.options.runner.affinity = false' "$T/p2.json" >"$T/unpinned.json"
bad "scaling of runs differing in more than producers" "refusing to plot runs with different options: affinity true vs false" \
	scaling "$T/p1.json" "$T/unpinned.json" -o "$T/keep.svg"
bad "compare of three files" "takes two files" compare "$T/p1.json" "$T/p2.json" "$T/p4.json" -o "$T/keep.svg"
bad "latency of a run without --latency" "p1.json has no latency histogram: record the run with --latency" \
	latency "$T/p1.json" -o "$T/keep.svg"
bad "an unknown extension" "^invalid -o '.*chart.pdf': unknown extension; accepted: .svg, .png, .txt" \
	timeline "$T/p1.json" -o "$T/chart.pdf"
bad "an unwritable output path" "^invalid -o '/proc/no/such/dir/c.svg': cannot write there: " \
	timeline "$T/p1.json" -o /proc/no/such/dir/c.svg
bad "no output" "needs -o FILE" timeline "$T/p1.json"
bad "no chart type" "needs a chart type first" -o x.svg
bad "an unknown chart type" "unknown chart type 'pie'" pie "$T/p1.json" -o x.svg
is "$(cat "$T/keep.svg")" old "bad input: an existing output is left alone"
is "$(find "$T" -name 'chart.pdf*' -o -name 'keep.svg.tmp*' 2>&1)" "" "bad input: nothing written"
assert "scaling --force plots runs that differ" "$BENCH" plot scaling --force "$T/p1.json" "$T/unpinned.json" -o "$T/forced.svg"

# compare and plot compare take the comparison's options from one parser:
# the same flags, short and long, with the same help
for o in '-t, --threshold=PCT' '-f, --force' '-r, --rank' '-p, --paired' '-T, --trimmed'; do
	c=$("$BENCH" compare --help | grep -F -- "  $o ")
	p=$("$BENCH" plot compare --help | grep -F -- "  $o ")
	isnt "$c" "" "compare --help lists $o"
	is "$p" "$c" "plot compare --help lists $o as compare does"
done
"$BENCH" plot compare --threshold 5 --rank --force "$T/p2.json" "$T/p2b.json" -o "$T/long.svg" 2>/dev/null
is $? 0 "plot compare --threshold 5 --rank --force: exit 0"
"$BENCH" plot compare -t 5 -r -f "$T/p2.json" "$T/p2b.json" -o "$T/short.svg" 2>/dev/null
is $? 0 "plot compare -t 5 -r -f: exit 0"
assert "plot compare: -t 5 -r -f draws what --threshold 5 --rank --force does" cmp -s "$T/long.svg" "$T/short.svg"
svg_has "$T/short.svg" "±5% threshold" "plot compare -t 5: the threshold is 5%"
svg_has "$T/short.svg" "Hodges-Lehmann" "plot compare -r: the rank estimate"
"$BENCH" plot compare -p -T "$T/p2.json" "$T/p2b.json" -- "$T/p2b.json" "$T/p2.json" -o "$T/pt.txt" 2>/dev/null
is $? 0 "plot compare -p -T of two pairs: exit 0"
like "$T/pt.txt" "trimmed mean of log ratios" "plot compare -p -T: the paired trimmed estimate"
"$BENCH" compare -t 5 -r "$T/p2.json" "$T/p2b.json" >"$T/cs.out" 2>&1
is $? 0 "compare -t 5 -r: exit 0"
"$BENCH" compare --threshold 5 --rank "$T/p2.json" "$T/p2b.json" >"$T/cl.out" 2>&1
assert "compare: -t 5 -r says what --threshold 5 --rank does" cmp -s "$T/cs.out" "$T/cl.out"
bad "plot compare -t with a bad value" "^invalid --threshold '-1': expected a percentage in 0..1000" \
	compare -t -1 "$T/p2.json" "$T/p2b.json" -o "$T/keep.svg"
bad "plot timeline -r" "for compare charts only" timeline -r "$T/p1.json" -o "$T/keep.svg"

# bench ab's files carry their side in their names: the title says A and B,
# not the first file's name; --label may name the sides, one each
mkdir -p "$T/ab"
cp "$T/p2.json" "$T/ab/pair-001-A.json"; cp "$T/p2b.json" "$T/ab/pair-002-A.json"
cp "$T/p2b.json" "$T/ab/pair-001-B.json"; cp "$T/p2.json" "$T/ab/pair-002-B.json"
"$BENCH" plot compare --paired "$T"/ab/pair-*-A.json -- "$T"/ab/pair-*-B.json -o "$T/ab.svg" 2>/dev/null
is $? 0 "plot compare of ab's files: exit 0"
svg_has "$T/ab.svg" "new: B (2 files), base: A (2 files)" "plot compare of ab's files: the sides are A and B"
"$BENCH" plot compare --label old --label patched "$T/p2.json" "$T/p2b.json" -- "$T/p2b.json" "$T/p2.json" \
	-o "$T/sides.svg" 2>/dev/null
is $? 0 "plot compare with a --label per side: exit 0"
svg_has "$T/sides.svg" "new: patched (2 files), base: old (2 files)" "plot compare: a --label per side names the sides"
bad "three labels for four files" "3 --label for 4 files: give one per file, in order, one per side \\(base, new\\), or none" \
	compare --label a --label b --label c "$T/p2.json" "$T/p2b.json" -- "$T/p2b.json" "$T/p2.json" -o "$T/keep.svg"
# text: the bars are numbered, a line under the chart names each with its verdict
like "$T/compare.txt" "^ *1 hits \\(M/s\\): $verdict" "compare text: the bar's name and verdict in the list under it"

# without gnuplot: one line on what to install; compare and runs still work
mkdir -p "$T/nobin"
PATH="$T/nobin" "$BENCH" plot timeline "$T/p1.json" -o "$T/nognu.svg" >"$T/nognu" 2>"$T/nognu.err"
isnt $? 0 "without gnuplot: plot fails"
is "$(grep -c . "$T/nognu.err")" 1 "without gnuplot: one line: $(cat "$T/nognu.err")"
like "$T/nognu.err" "gnuplot-nox" "without gnuplot: says what to install"
assert "without gnuplot: nothing written" [ ! -e "$T/nognu.svg" ]
PATH="$T/nobin" "$BENCH" compare "$T/p2.json" "$T/p2b.json" >/dev/null 2>&1
ok $? "without gnuplot: compare still works"
PATH="$T/nobin" "$BENCH" plot scaling --table "$T/p1.json" "$T/p2.json" >/dev/null 2>&1
ok $? "without gnuplot: the scaling table still works"

done_testing
