#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One verdict, one change, one interval on every surface (results/verdict.c):
# the same files through bench compare's text, --markdown, --json and plot
# compare --text must say the same.  count-local runs (no BPF), the new side
# made from them by scaling (lib.sh's scaled_hits), so the cases are known:
# +30% on 2 + 2 runs, the same runs on both sides, one run a side.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP" || exit 1
export LC_ALL=C.UTF-8

for i in 1 2; do
	par_start "a$i.out" "$BENCH" -q -w0 -d3 --min-cpu-share 0 --json "a$i.json" count-local
done
for i in 1 2; do
	par_wait "a$i.out"
	ok $? "count-local run $i: exit 0"
	scaled_hits "a$i.json" 1.3 "b$i.json"
done

# the hits row of each surface: change, interval, verdict
text_row() {	# text_row <compare args...>: "change|interval|verdict" of compare's table
	# the row holds the verdict's word; its reason, when it has one, is the
	# line under the table naming the metric ("hits, ...: undecided: ..."),
	# wrapped onto lines indented by 2 spaces: joined again
	local out row word why
	out=$("$BENCH" compare "$@" 2>/dev/null)
	row=$(sed -nE 's/^hits M\/s +[0-9.]+( ± [0-9.]+)? +[0-9.]+( ± [0-9.]+)? +([-+][0-9.e+]+%) (-|unbounded|\[[^]]*\]%?) +([^ ].*)$/\3|\4|\5/p' <<<"$out")
	word=${row##*|}
	why=$(awk '{ sub(/ +$/, "") }
		/^[a-z_0-9]+(, [a-z_0-9]+)*: / { on = 0; split($0, p, ": "); n = split(p[1], m, ", ")
			for (i = 1; i <= n; i++) if (m[i] == "hits") on = 1
			if (on) { t = substr($0, length(p[1]) + 3); next } }
		on && /^  [^ ]/ { sub(/^ +/, ""); t = t " " $0; next } { on = 0 }
		END { print t }' <<<"$out")
	[ -n "$row" ] && echo "${row%|*}|${why:-$word}"
}
md_row() {	# md_row <compare args...>: "change|interval|word" of the markdown row
	# (one benchmark: the header names it, the row its configuration; a
	# verdict with a reason below the table carries a "*")
	"$BENCH" compare --markdown "$@" 2>/dev/null |
		sed -nE 's/^\| default \|[^|]*\|[^|]*\| ([-+][0-9.e+]+%) (-|unbounded|\[[^]]*\]%?) \| ([^|*]*[^ |*])\*? \|.*/\1|\2|\3/p'
}
json_row() {	# json_row <compare args...>: "verdict|verdict_text|change_pct|lo|hi"
	"$BENCH" compare --json "$@" 2>/dev/null |
		jq -r '.rows[] | select(.metric == "hits") | [.verdict, .verdict_text, .change_pct, .ci95_pct[0], .ci95_pct[1]] | map(tostring) | join("|")'
}
plot_row() {	# plot_row <compare args...>: the verdict in the list under the text chart
	# (a long line wraps onto lines indented by 5 spaces: joined again)
	"$BENCH" plot compare --text "$@" 2>/dev/null |
		awk '{ sub(/ +$/, "") }
		     /^ *1 hits \(M\/s\): / { on = 1; sub(/^ *1 hits \(M\/s\): /, ""); t = $0; next }
		     on && /^     [^ ]/ { sub(/^ +/, ""); t = t " " $0; next } { on = 0 }
		     END { sub(/ +$/, "", t); print t }'
}
hist_row() {	# hist_row <db>: "change|interval|verdict" of history show's last build
	"$BENCH" history show --db "$1" 2>/dev/null |
		awk -F '  +' '$3 == "patched" { r = $8 "|" $9 "|" $11 } END { print r }'
}
hist_json_row() {	# hist_json_row <db>: "verdict|verdict_text|change_pct|lo|hi" of show --json
	"$BENCH" history show --db "$1" --json 2>/dev/null |
		jq -r '.kernels[] | select(.tags == "patched") | [.verdict, .verdict_text, .change_pct, .ci95_pct[0], .ci95_pct[1]] | map(tostring) | join("|")'
}
# the change between the sides' means of each file's figure: kcidb's numbers, lkp's values
kcidb_values() {	# kcidb_values <file...>: each file's hits as its KCIDB test's number
	local f

	for f; do
		"$BENCH" export kcidb --origin verdict "$f" |
			jq -r '.tests[] | select(.path == "bpf.bench.count-local.default.hits") | .number.value'
	done
}
lkp_values() {	# lkp_values <file...>: each file's hits as lkp's parse prints it
	local f

	for f; do
		"$SRC_TOP/contrib/lkp-tests/programs/bpf-bench/parse" "$f" | sed -n 's/^hits: //p'
	done
}
ratio_of_means() {	# ratio_of_means <base values file> <new values file>: the change in percent
	awk 'NR == FNR { a += $1; na++; next } { b += $1; nb++ }
	     END { printf "%.10g\n", ((b / nb) / (a / na) - 1) * 100 }' "$1" "$2"
}

# pct <number>: a percent as verdict.c prints it (2 decimals under 10, 1 under 100)
pct() {
	awk -v x="$1" 'BEGIN { a = x < 0 ? -x : x; if (a < 0.005) { print "+0.00"; exit }
		f = a < 9.995 ? "%+.2f" : a < 99.95 ? "%+.1f" : a < 9999.5 ? "%+.0f" : "%+.1e"; printf f "\n", x }'
}

surfaces() {	# surfaces <case> <compare args...>
	local name=$1 t m j p ch ci v
	shift
	t=$(text_row "$@")
	m=$(md_row "$@")
	j=$(json_row "$@")
	p=$(plot_row "$@")
	IFS='|' read -r ch ci v <<<"$t"
	isnt "$t" "" "$name: compare's row read ($t)"
	is "$(cut -d'|' -f1,2 <<<"$m")" "$ch|$ci" "$name: --markdown has compare's change and interval"
	IFS='|' read -r jw jt jc jl jh <<<"$j"
	is "$jt" "$v" "$name: --json's verdict_text is compare's verdict"
	like <(echo "$v") "^$jw" "$name: --json's verdict word ($jw) starts it"
	is "$(pct "$jc")%" "$ch" "$name: --json's change_pct is compare's change"
	if [ "$jl" = null ]; then
		like <(echo "$ci") '^(-|unbounded)$' "$name: --json has no interval, nor has compare ($ci)"
	else
		is "[$(pct "$jl"), $(pct "$jh")]%" "$ci" "$name: --json's interval is compare's"
	fi
	case $v in
	undecided*) is "$(cut -d'|' -f3 <<<"$m")" "undecided" "$name: --markdown says undecided" ;;
	*) is "$(cut -d'|' -f3 <<<"$m")" "${v%%,*}" "$name: --markdown's verdict is compare's" ;;
	esac
	if command -v gnuplot >/dev/null; then
		is "$p" "$v" "$name: plot compare's verdict is compare's"
	else
		skip "gnuplot not installed" "$name: plot compare's verdict is compare's"
	fi
	other_surfaces "$name" "$t" "$@"
}

# other_surfaces <case> <compare's row> <compare args...>: history show of
# the same runs (the base side tagged base, the new side patched), and the
# figures KCIDB and lkp carry, whose change is compare's
other_surfaces() {
	local name=$1 t=$2 db f side=base h
	local -a base=() new=()

	shift 2
	for f; do
		if [ "$f" = -- ]; then
			side=patched
			continue
		fi
		jq --arg t "$side" '.context.tag = $t' "$f" >"$side-${f##*/}"
		if [ "$side" = base ]; then
			base+=("$f")
		else
			new+=("$f")
		fi
	done
	if [ ${#new[@]} -eq 0 ]; then	# compare A.json B.json
		new=("${base[1]}")
		base=("${base[0]}")
		mv "base-${new[0]##*/}" "patched-${new[0]##*/}"
		jq '.context.tag = "patched"' "${new[0]}" >"patched-${new[0]##*/}"
	fi
	db="$name.db"
	rm -f "$db"
	"$BENCH" history add --db "$db" "${base[@]/#/base-}" "${new[@]/#/patched-}" >/dev/null
	ok $? "$name: history add of both sides: exit 0"
	h=$(hist_row "$db")
	is "$h" "$t" "$name: history show's change, interval and verdict are compare's"
	IFS='|' read -r ch ci v <<<"$t"
	IFS='|' read -r jw jt jc jl jh <<<"$(hist_json_row "$db")"
	is "$jt|$(pct "$jc")%" "$v|$ch" "$name: history show --json's verdict_text and change_pct are compare's"
	kcidb_values "${base[@]}" >kcidb.a
	kcidb_values "${new[@]}" >kcidb.b
	is "$(pct "$(ratio_of_means kcidb.a kcidb.b)")%" "$ch" "$name: KCIDB's numbers give compare's change"
	if command -v ruby >/dev/null; then
		lkp_values "${base[@]}" >lkp.a
		lkp_values "${new[@]}" >lkp.b
		is "$(pct "$(ratio_of_means lkp.a lkp.b)")%" "$ch" "$name: lkp's values give compare's change"
	else
		skip "ruby not installed" "$name: lkp's values give compare's change"
	fi
}

surfaces "+30% on 2+2" a1.json a2.json -- b1.json b2.json
is "$(json_row a1.json a2.json -- b1.json b2.json | cut -d'|' -f3)" 30 "+30% on 2+2: the change is the ratio of the means, exactly +30"
if command -v gnuplot >/dev/null; then
	"$BENCH" plot compare --text a1.json a2.json -- b1.json b2.json >title.txt 2>/dev/null
	# the title: the lines above the chart's frame
	is "$(awk '/\+-----/ { exit } /\.\.\./ { n++ } END { print n + 0 }' title.txt)" 0 \
		"plot compare --text: no title line cut short (...)"
	like title.txt "Fieller's interval" "plot compare --text: the title whole, to its last words, wrapped"
else
	skip "gnuplot not installed" "plot compare --text: no title line cut short (...)"
	skip "gnuplot not installed" "plot compare --text: the title whole, to its last words, wrapped"
fi
surfaces "the same on both sides" a1.json a2.json -- a1.json a2.json
like <(text_row a1.json a2.json -- a1.json a2.json) '\|(within ±2%|undecided: 2 runs a side resolve only changes above [0-9.]+%)$' \
	"the same on both sides: within or undecided, never better or worse"
surfaces "one run a side" a1.json b1.json

# one sample a side: no spread printed as if measured, no test
"$BENCH" -q -w0 -d1 --json s1.json count-local >/dev/null
ok $? "a -d1 count-local run: exit 0"
scaled_hits s1.json 1.0431 s2.json
is "$(jq -c '.summary.metrics.hits | [.n, .stddev, .cv, .ci95]' s1.json)" "[1,null,null,null]" \
	"one sample: the result file's stddev, cv and ci95 are null, not 0"
surfaces "one sample a side" s1.json s2.json
is "$(text_row s1.json s2.json)" "+4.31%|-|undecided: 1 sample a side, no spread: no test possible" \
	"one sample a side: compare says no test was possible"
"$BENCH" compare s1.json s2.json >one.out 2>&1
ok $? "one sample a side: compare exits 0"
is "$(grep -cE '^[a-z_]+ \([^)]*\) .* ± [0-9]' one.out)" 0 \
	"one sample a side: no row prints a spread (no '± 0.000')"
is "$("$BENCH" compare --json s1.json s2.json | jq -c '.rows[] | select(.metric == "hits") | [.base.spread, .new.spread, .ci95_pct, .p]')" \
	"[null,null,[null,null],null]" "one sample a side: --json's spreads, interval and p are null"
is "$("$BENCH" export kcidb --origin verdict s1.json |
	jq -c '[.tests[] | select(.path == "bpf.bench.count-local.default.hits") | .misc.statistics | .stddev, .cv, .ci95]')" \
	"[null,null,null]" "one sample: KCIDB's statistics have null spreads"
done_testing
