#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scripts written for upstream's output keep working on ours: upstream's own
# extractors (tests/upstream_helpers.sh) find hits, drops and total
# operations in the hits/drops reporter's output, with the numbers our
# Summary prints, and the Iter lines carry the same fields.  No BPF here
# (count-local, count-global, trig-syscall-count); upstream_format_bpf.t does the same
# for BPF benchmarks and htab-mem's extractor.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=tests/upstream_helpers.sh
source "$(dirname "$0")/upstream_helpers.sh"
RUN_COMMON="$(cd "$(dirname "$0")/.." && pwd)/benchs/run_common.sh"

# our wrapper scripts' field(), in a subshell: run_common.sh has its own
# run_bench and changes directory
our_field() {
	# shellcheck source=benchs/run_common.sh
	(source "$RUN_COMMON" && field "$@")
}

NUM='[0-9]+\.[0-9]+'
SUMMARY_RE="^Summary: hits +($NUM) ± ($NUM)M/s \\( *${NUM}M/prod\\), drops +($NUM) ± ($NUM)M/s, total operations +($NUM) ± ($NUM)M/s\$"

# near <a> <b> <tolerance>: exit status
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(a != "" && b != "" && d <= t) }'
}

check() {	# check <name> <warm-up> <duration> <bench args...>
	local name=$1 w=$2 d=$3 out line h hs dr ds t ts got iters bad
	shift 3
	out="$TEST_TMP/$name"
	run_bench "$out" -w"$w" -d"$d" --json "$out.json" "$@"
	ok $? "$name: exits 0"
	line=$(grep -E "$SUMMARY_RE" "$out")
	is "$(grep -c '^Summary:' "$out") Summary line(s), ${line:+one }in the format" "1 Summary line(s), one in the format" \
		"$name: one Summary line, ending in upstream's total operations field"
	diag "$line"
	read -r h hs dr ds t ts <<<"$(sed -E "s#$SUMMARY_RE#\\1 \\2 \\3 \\4 \\5 \\6#" <<<"$line")"

	got=$(up_summarize "$name" "$(cat "$out")")
	[ "$got" = "$(printf '%-20s %s (drops %s)' "$name" "$h ± ${hs}M/s" "$dr ± ${ds}M/s")" ]
	ok $? "$name: upstream's summarize() extracts our hits and drops"
	diag "summarize: $got"
	got=$(up_summarize_total "$name" "$(cat "$out")")
	[ "$got" = "$(printf '%-20s %s' "$name" "$t ± ${ts}M/s")" ]
	ok $? "$name: upstream's summarize_total() extracts our total operations"
	diag "summarize_total: $got"
	got=$(our_field "$line" 'total operations')
	[ "$got" = "$t ± ${ts}M/s" ]
	ok $? "$name: our run_common.sh field() reads total operations too ($got)"

	near "$t" "$(awk -v a="$h" -v b="$dr" 'BEGIN { print a + b }')" 0.0015
	ok $? "$name: total operations is hits + drops ($t = $h + $dr)"
	# the spread of the per-sample totals, from the samples themselves
	got=$(jq '[.samples[] | select(.warmup | not) | .metrics.hits + .metrics.drops]
		| (add / length) as $m | if length > 1
		then (map((. - $m) * (. - $m)) | add / (length - 1) | sqrt) else 0 end' "$out.json")
	near "$ts" "$got" 0.0006
	ok $? "$name: the total's ± is the stddev of the per-sample totals ($ts vs $got)"

	iters=$(grep -c '^Iter' "$out")
	is "$iters" $((w + d)) "$name: exactly -w + -d = $((w + d)) samples, one Iter line each"
	bad=$(grep '^Iter' "$out" | sed -E "s/.*hits +($NUM)M\\/s .*drops +($NUM)M\\/s, total operations +($NUM)M\\/s\$/\\1 \\2 \\3/" |
		awk 'NF != 3 || ($1 + $2 - $3) ^ 2 > 0.0015 ^ 2 { bad++ } END { print bad + 0 }')
	ok "$bad" "$name: every Iter line ends in total operations = hits + drops ($bad bad)"
}

check count-local 1 3 -p2 count-local
check count-global 1 2 -p2 count-global
check trig-syscall-count 0 2 trig-syscall-count

# -q prints only the Summary: the extractors still find every field
run_bench "$TEST_TMP/q" -q -w0 -d2 count-local
ok $? "-q count-local: exits 0"
like "$TEST_TMP/q" "$SUMMARY_RE" "-q: the Summary has the total operations field"
up_summarize_total count-local "$(cat "$TEST_TMP/q")" | grep -Eq "^count-local +$NUM ± ${NUM}M/s\$"
ok $? "-q: summarize_total() extracts the total"

done_testing
