#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench plot timeline with a memory axis and bench plot latency: htab-mem
# runs of both flavours with --latency (run under the BPF lock), in every
# format; the latency chart's curves and marks against the runs' own
# Latency lines and JSON.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
require_plot_tools

T=$TEST_TMP
# -d2: the timeline's band is of two measured samples; no warm-up (the
# timeline's warm-up series is plot.t's, the latency histogram latency.t's)
run_bench "$T/ma" -q -w0 -d2 -p2 -a --latency --json "$T/ma.json" htab-mem --use-case overwrite
is $? 0 "htab-mem overwrite --latency --json: exit 0"
run_bench "$T/pa" -q -w0 -d2 -p2 -a --latency --json "$T/pa.json" htab-mem --use-case overwrite --preallocated
is $? 0 "htab-mem overwrite --preallocated --latency --json: exit 0"
if [ "$(jq -r '.memory_source' "$T/ma.json")" = null ]; then
	ok 1 "the runs measured memory (no memory cgroup here?)"
	done_testing
	exit
fi

"$BENCH" plot timeline "$T/pa.json" "$T/ma.json" -o "$T/t.svg" 2>"$T/t.err"
is $? 0 "timeline of both flavours -o .svg: exit 0"
xmllint --noout "$T/t.svg"
ok $? "the SVG parses as XML"
for s in "preallocated=true: " "preallocated=false: " "memory (MiB)" "per_prod_op (k/s)" \
	"preallocated=true: memory (MiB, right axis)" "time since start (s)" "(mean ± stddev band, n=2)"; do
	grep -qF -- "$s" "$T/t.svg"
	ok $? "the SVG holds '$s'"
done
"$BENCH" plot timeline "$T/pa.json" "$T/ma.json" -o "$T/t.png" 2>/dev/null
is $? 0 "-o .png: exit 0"
is "$(od -An -tx1 -N8 "$T/t.png" | tr -d ' \n')" 89504e470d0a1a0a "a PNG (its signature)"
"$BENCH" plot timeline "$T/pa.json" "$T/ma.json" --text >"$T/t.txt" 2>/dev/null
is $? 0 "--text: exit 0"
like "$T/t.txt" '^ +htab-mem timeline: per_prod_op per second +$' "text: the title"
like "$T/t.txt" 'per_prod_op \(k/s\) +memory \(MiB\)' "text: both axes with their units"
like "$T/t.txt" '^ +0 \+-+\+ 0 *$' "text: both axes start at 0"
like "$T/t.txt" 'preallocated=false: memory \(MiB, right axis\)' "text: a memory series per run"

# ---- the latency chart ----
# lat_figs <run output>: "p50 p99 p99.9 max" as its Latency line printed them
lat_figs() {
	sed -nE 's/^Latency: per-op p50 ([^ ]+) ns, p90 [^,]+, p99 ([^,]+), p99\.9 ([^,]+), max ([^ ]+) \(.*/\1 \2 \3 \4/p' "$1"
}
# lat_block <script> <run index> <curve|marks>: the block's rows
lat_block() {
	sed -n "/^\\\$run$2_$3 << EOD\$/,/^EOD\$/p" "$1" | sed '1,2d;$d'
}
# near <a> <b>: equal within 1e-9 relative (the script's %.10g against jq's)
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && d * d <= (1e-9 * b) ^ 2) }'
}

# the script bench hands gnuplot, caught on its way
mkdir -p "$T/wrap"
printf '#!/bin/sh\ntee "%s" | exec "%s"\n' "$T/lat.gp" "$(command -v gnuplot)" >"$T/wrap/gnuplot"
chmod +x "$T/wrap/gnuplot"
PATH="$T/wrap:$PATH" "$BENCH" plot latency "$T/pa.json" "$T/ma.json" -o "$T/lat.svg" 2>"$T/lat.err"
is $? 0 "plot latency of both flavours -o .svg: exit 0"
xmllint --noout "$T/lat.svg"
ok $? "plot latency: the SVG parses as XML"
for s in "percentile (log scale of 1/(1 - p))" "latency (ns per op, log scale)" \
	">50%<" ">90%<" ">99%<" ">99.9%<" ">99.99%<"; do
	grep -qF -- "$s" "$T/lat.svg"
	ok $? "plot latency: the SVG holds '$s'"
done

# lat_run_ok <run index> <run output> <json> <label>: run i's curve and marks
lat_run_ok() {
	local i=$1 out=$2 json=$3 label=$4 n ops figs names=(p50 p99 p99.9 max)
	local keys=(p50 p99 p99_9 max) xs k row why
	n=$(jq -r .latency.triggers "$json")
	ops=$(jq -r .latency.ops_per_trigger "$json")
	read -r -a figs <<<"$(lat_figs "$out")"
	is "${#figs[@]}" 4 "$label: the run printed its Latency line (${figs[*]})"
	why=$(lat_block "$T/lat.gp" "$i" curve | awk -v n="$n" '
		NR > 1 && ($1 < x || $2 < p || $3 < v) { bad = "not rising at row " NR }
		($1 - 1 / (1 - $2 / 100)) ^ 2 > (1e-6 * $1) ^ 2 { bad = "x is not 1/(1 - p) at row " NR }
		NR == 1 && $2 != 0 { bad = "no start at p = 0" }
		{ x = $1; p = $2; v = $3 }
		END { if (NR < 2) bad = "fewer than two points"
		      else if (x != n) bad = "ends at x = " x ", not at N = " n
		      if (bad) { print bad; exit 1 } }')
	ok $? "$label: the curve rises in p and latency, x = 1/(1 - p), from p = 0 to x = N = $n"
	diag "$why"
	# the points' latencies: the JSON's buckets, each its midpoint, per op (docs/charts.md)
	is "$(lat_block "$T/lat.gp" "$i" curve | awk 'NR > 1 { print $3 }' | tr '\n' ' ')" \
		"$(jq -r --argjson ops "$ops" '.latency.buckets[] | ((.lo_ns + .hi_ns - 1) / 2 / $ops)' "$json" |
		   awk '{ printf "%.10g ", $1 }')" \
		"$label: a point per bucket of the JSON, at its midpoint per op"
	xs=(2 100 1000 "$n")
	for k in 0 1 2 3; do
		row=$(lat_block "$T/lat.gp" "$i" marks | grep -F "\"${names[k]} ${figs[k]}\"")
		ok $? "$label: ${names[k]} marked and labelled ${figs[k]}, as the Latency line"
		near "$(awk '{ print $3 }' <<<"$row")" "$(jq -r ".latency.per_op.${keys[k]}" "$json")"
		ok $? "$label: ${names[k]} at the JSON's per_op.${keys[k]} ($(jq -r ".latency.per_op.${keys[k]}" "$json"))"
		near "$(awk '{ print $1 }' <<<"$row")" "${xs[k]}"
		ok $? "$label: ${names[k]} at x = ${xs[k]}"
	done
	grep -qF "$label: p50 ${figs[0]}, p99 ${figs[1]}, p99.9 ${figs[2]}, max ${figs[3]} ns/op ($n triggers)" "$T/lat.svg"
	ok $? "$label: the key gives the Latency line's figures and the triggers"
}
lat_run_ok 0 "$T/pa" "$T/pa.json" "preallocated=true"
lat_run_ok 1 "$T/ma" "$T/ma.json" "preallocated=false"

"$BENCH" plot latency "$T/pa.json" "$T/ma.json" -o "$T/lat.png" 2>/dev/null
is $? 0 "plot latency -o .png: exit 0"
is "$(od -An -tx1 -N8 "$T/lat.png" | tr -d ' \n')" 89504e470d0a1a0a "plot latency: a PNG (its signature)"
"$BENCH" plot latency "$T/pa.json" "$T/ma.json" -o - >"$T/lat.txt" 2>"$T/lat.txt.err"
is $? 0 "plot latency -o -: exit 0"
lines=$(wc -l <"$T/lat.txt")
cmp_ok "$lines" -ge 20 "plot latency text: at least 20 lines"
cmp_ok "$lines" -le 60 "plot latency text: at most 60 lines"
cmp_ok "$(wc -L <"$T/lat.txt")" -le 80 "plot latency text: fits 80 columns"
like "$T/lat.txt" '^ +htab-mem latency: per-op time by percentile +$' "plot latency text: the title"
like "$T/lat.txt" '^ +0% +50% +90% +99% +99\.9% +99\.99%' "plot latency text: the percentile tics"
like "$T/lat.txt" 'percentile \(log scale of 1/\(1 - p\)\)' "plot latency text: the percentile axis"
like "$T/lat.txt" 'latency \(ns per op, log scale\)' "plot latency text: the latency axis"
read -r -a figs <<<"$(lat_figs "$T/pa")"
# (the unit only if it fits: the text terminal drops a key entry too wide)
like "$T/lat.txt" "preallocated=true: p50 ${figs[0]}, p99 ${figs[1]}, p99\\.9 ${figs[2]}, max ${figs[3]}( ns/op| *$)" \
	"plot latency text: the key has the Latency line's figures"
like "$T/lat.txt" "p99\\.9 ${figs[2]}" "plot latency text: the marks are labelled"

done_testing
