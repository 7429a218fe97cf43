#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench compare's output for patch mails and terminals (issue 37, item 5),
# on two htab-mem runs a side (base, and --preallocated as the new side):
# the default table within 80 columns and a 2+2 compare within 30 lines,
# metrics 0 on both sides in one line, a noisy file's warnings in one
# line naming it once, --verbose keeping the p-values and tests the table
# leaves out, --markdown within 120 columns, and the TCG "emulated
# timings" note on every surface when the files say TCG (copies made with
# jq: context.hypervisor "tcg").
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
cd "$TEST_TMP" || exit 1
export LC_ALL=C.UTF-8

for f in base-1 base-2 new-1 new-2; do
	case $f in new-*) pre=--preallocated ;; *) pre= ;; esac
	# shellcheck disable=SC2086 # $pre: the option or nothing
	"$BENCH" -q -w0 -d2 --min-cpu-share 0 --json "$f.json" htab-mem --use-case overwrite -p1 $pre \
		>"$f.out" 2>&1
	ok $? "htab-mem run $f: exit 0"
done
FILES=(base-1.json base-2.json -- new-1.json new-2.json)

# widest <file>: the widest line in terminal columns (a "±" or "→" is one)
widest() {
	wc -L <"$1"
}

is_exit 0 "compare 2+2: exit 0" "$BENCH" compare --force "${FILES[@]}"
cp "$TEST_TMP/is_exit.out" table.out
cmp_ok "$(widest table.out)" -le 80 "every line within 80 columns"
cmp_ok "$(grep -c . table.out)" -le 30 "a 2+2 compare fits a screen: 30 lines or fewer"
like table.out '^metric +before +after +change \[95% CI\] +verdict$' "the columns: before, after, change with its interval, verdict"
like table.out '^per_prod_op k/s +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+ +[-+][0-9.]+% (\[[^]]*\]%?|unbounded) +(better|worse|within ±2%|undecided)$' \
	"the rate's row: before, after with their spread, the change, its interval, the verdict"
like table.out '^memory MiB +[0-9.]+' "memory has its row"
is "$(grep -c '^failures' table.out)" 0 "failures, 0 on both sides, has no row"
is "$(grep -c 'failures' table.out)" 1 "... but one line"
like table.out '^0 on both sides: (.*, )?failures \(1/s\)' "... which says the metrics are 0 on both sides"
like table.out '^warning: options differ: preallocated false vs true$' "the --force difference is a warning after the table"
is "$(grep -c TCG table.out)" 0 "no TCG note for runs off TCG"
like table.out '^--verbose: ' "the table says where the details went"

# the verdict's word in the row, its reason once under the table with every metric it applies to
while read -r m w; do
	if [ "$w" = undecided ]; then
		like <(sed -E 's/^  //' table.out | tr '\n' ' ') "(^| )([a-z_0-9]+, )*$m(, [a-z_0-9]+)*: undecided: " \
			"$m: undecided, and its reason is under the table"
	fi
done < <(awk 'f && /^[a-z_0-9]+ [^ ]+ / { print $1, $NF } /^metric / { f = 1 }' table.out)

# the JSON of the same comparison: the table's numbers are its numbers
json=$("$BENCH" compare --force --json "${FILES[@]}" 2>/dev/null)
ch=$(jq -r '.rows[] | select(.metric == "per_prod_op") | .change_pct' <<<"$json")
tch=$(sed -nE 's/^per_prod_op k\/s +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+ +([-+][0-9.]+)% .*/\1/p' table.out)
is_near "$tch" "$ch" 0.5 "the rate's change is --json's change_pct ($ch), as printed ($tch)"
is "$(jq -r '.emulated_timings' <<<"$json")" false "--json: emulated_timings false off TCG"

# --verbose: what the table leaves out
is_exit 0 "compare --verbose: exit 0" "$BENCH" compare --force --verbose "${FILES[@]}"
cp "$TEST_TMP/is_exit.out" verbose.out
like verbose.out '^metric +base +new +change +95% CI +p-value +verdict$' "--verbose: the p-value column"
like verbose.out "^  per_prod_op: Welch's t-test on 2 \+ 2 invocation means" "--verbose: each metric's test"
like verbose.out '^Resolution: memory 0.500 MiB' "--verbose: the resolutions"
like verbose.out '^Verdict: better or worse only when' "--verbose: the verdict rule"
vch=$(sed -nE 's/^per_prod_op \(k\/s\) .* ([-+][0-9.]+%) +(\[[^]]*\]%?|unbounded|-) .*/\1 \2/p' verbose.out)
is "$(sed -nE 's/^per_prod_op k\/s +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+ +([-+][0-9.]+% [^ ]+( [^ ]+)?) +[a-z].*/\1/p' table.out | sed 's/ *$//')" \
	"$vch" "--verbose and the table: one change and interval"

# a noisy file: its warnings in one line, naming it once
jq '.warnings = ["per-second rates vary: the result is noisy", "the machine was busy"]' base-1.json >noisy-1.json
"$BENCH" compare --force noisy-1.json base-2.json -- new-1.json new-2.json >noisy.out 2>&1
is "$(grep -c 'noisy-1.json' noisy.out)" 1 "a noisy file is named once"
like <(tr '\n' ' ' <noisy.out | sed 's/   */ /g') 'warning: noisy-1\.json \(base\) was noisy: per-second rates vary: the result is noisy; the machine was busy' \
	"... with all its warnings in one line, after the table"
cmp_ok "$(widest noisy.out)" -le 80 "... still within 80 columns"

# --markdown within 120 columns
is_exit 0 "compare --markdown: exit 0" "$BENCH" compare --force --markdown "${FILES[@]}"
cp "$TEST_TMP/is_exit.out" md.out
cmp_ok "$(widest md.out)" -le 120 "--markdown: every line within 120 columns"
like md.out '^\| configuration \| before \| after \| change \[95% CI\] \| verdict \| memory \(MiB\) \| peak \(MiB\) \| runs \|$' \
	"--markdown: the columns"
like md.out '^\| overwrite \| [0-9.]+ ± [0-9.]+ \| [0-9.]+ ± [0-9.]+ \| [-+][0-9.]+% ' "--markdown: the row"
"$BENCH" compare --force --markdown noisy-1.json base-2.json -- new-1.json new-2.json >/dev/null 2>md-noisy.err
is "$(grep -c 'noisy-1.json' md-noisy.err)" 1 "--markdown: a noisy file is named once, on stderr"

# TCG: the same files marked as run under QEMU's emulator
for f in base-1 base-2 new-1 new-2; do
	jq '.context.hypervisor = "tcg"' "$f.json" >"tcg-$f.json"
done
TCG=(tcg-base-1.json tcg-base-2.json -- tcg-new-1.json tcg-new-2.json)
"$BENCH" compare --force "${TCG[@]}" >tcg.out 2>&1
like <(tr '\n' ' ' <tcg.out | sed 's/   */ /g') 'warning: TIMINGS NOT COMPARABLE TO HARDWARE: the base and new runs ran under TCG \(emulated timings\): ' \
	"TCG: the table's warning"
cmp_ok "$(widest tcg.out)" -le 80 "TCG: still within 80 columns"
cmp_ok "$(grep -c . tcg.out)" -le 30 "TCG: still within 30 lines"
"$BENCH" compare --force --markdown "${TCG[@]}" >tcg-md.out 2>/dev/null
like tcg-md.out '\*\*emulated timings \(TCG\)\*\*' "TCG: --markdown's header says so"
like tcg-md.out '^Emulated timings: runs under TCG\.' "TCG: --markdown's note under the table"
cmp_ok "$(widest tcg-md.out)" -le 120 "TCG: --markdown within 120 columns"
is "$("$BENCH" compare --force --json "${TCG[@]}" 2>/dev/null | jq -r '.emulated_timings')" true \
	"TCG: --json's emulated_timings"
"$BENCH" history add --db h.db tcg-base-1.json tcg-base-2.json >/dev/null 2>&1
ok $? "TCG: history add"
"$BENCH" history show --db h.db >hist.out 2>&1
like hist.out '^emulated timings: runs [0-9]+,[0-9]+ ran under TCG: ' "TCG: history show says so, naming the runs"
is "$("$BENCH" history show --db h.db --json | jq -r '.emulated_timings')" true "TCG: history show --json's emulated_timings"
"$BENCH" history add --db hw.db base-1.json >/dev/null 2>&1
is "$("$BENCH" history show --db hw.db | grep -c 'emulated')" 0 "off TCG: history show says nothing of it"
kc=$("$BENCH" export kcidb --origin bench tcg-base-1.json)
is "$(jq -r '[.tests[] | select(.path | endswith(".per_prod_op"))][0].misc.emulated_timings' <<<"$kc")" true \
	"TCG: export kcidb's test misc.emulated_timings"
like <(jq -r '.tests[0].comment' <<<"$kc") 'emulated timings \(TCG\)' "TCG: export kcidb's comment"
is "$(BENCH=$BENCH "$LKP_PARSE" tcg-base-1.json | grep -c '^emulated_timings: 1$')" 1 "TCG: lkp's parse prints emulated_timings: 1"
is "$(BENCH=$BENCH "$LKP_PARSE" base-1.json | grep -c 'emulated')" 0 "off TCG: lkp's parse does not"
if command -v gnuplot >/dev/null; then
	"$BENCH" plot compare --force --text "${TCG[@]}" >plot.out 2>/dev/null
	like plot.out 'EMULATED TIMINGS \(TCG\)' "TCG: plot compare --text's title"
	"$BENCH" plot timeline --text tcg-base-1.json >plot-tl.out 2>/dev/null
	like plot-tl.out 'EMULATED TIMINGS \(TCG\)' "TCG: plot timeline --text's title"
	"$BENCH" plot compare --force -o tcg.svg "${TCG[@]}" 2>/dev/null
	like tcg.svg 'EMULATED TIMINGS \(TCG\)' "TCG: plot compare's SVG title"
	"$BENCH" plot history --db h.db --text >plot-h.out 2>/dev/null
	like plot-h.out 'EMULATED TIMINGS \(TCG\)' "TCG: plot history --text's title"
	"$BENCH" plot compare --force --text "${FILES[@]}" >plot-hw.out 2>/dev/null
	is "$(grep -c EMULATED plot-hw.out)" 0 "off TCG: no banner in the chart"
else
	for c in "plot compare --text's title" "plot timeline --text's title" "plot compare's SVG title" \
		 "plot history --text's title" "off TCG: no banner in the chart"; do
		skip "gnuplot not installed" "TCG: $c"
	done
fi

done_testing
