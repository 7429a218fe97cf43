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

NUM='[0-9]+\.[0-9]+'
SUMMARY_RE="^Summary: hits +($NUM) ± ($NUM)M/s \\( *${NUM}M/prod\\), drops +($NUM) ± ($NUM)M/s, total operations +($NUM) ± ($NUM)M/s\$"

# start <name> <warm-up> <duration> <bench args...>: a run for check,
# started beside the others (lib.sh, par_start): no run reads another's
start() {
	local name=$1 w=$2 d=$3
	shift 3
	par_start "$TEST_TMP/$name" "$BENCH" -w"$w" -d"$d" --json "$TEST_TMP/$name.json" "$@"
}

check() {	# check <name> <warm-up> <duration>: the checks of start's run
	local name=$1 w=$2 d=$3 out line h hs dr ds t ts got iters bad
	out="$TEST_TMP/$name"
	par_wait "$out"
	is $? 0 "$name: exit status 0"
	line=$(grep -E "$SUMMARY_RE" "$out")
	is "$(grep -c '^Summary:' "$out") Summary line(s), ${line:+one }in the format" "1 Summary line(s), one in the format" \
		"$name: one Summary line, ending in upstream's total operations field"
	diag "$line"
	read -r h hs dr ds t ts <<<"$(sed -E "s#$SUMMARY_RE#\\1 \\2 \\3 \\4 \\5 \\6#" <<<"$line")"

	is "$(up_summarize "$name" "$(cat "$out")")" \
		"$(printf '%-20s %s (drops %s)' "$name" "$h ± ${hs}M/s" "$dr ± ${ds}M/s")" \
		"$name: upstream's summarize() extracts our hits and drops"
	is "$(up_summarize_total "$name" "$(cat "$out")")" "$(printf '%-20s %s' "$name" "$t ± ${ts}M/s")" \
		"$name: upstream's summarize_total() extracts our total operations"
	is "$(run_common field "$line" 'total operations')" "$t ± ${ts}M/s" \
		"$name: our run_common.sh field() reads total operations too"

	is_near "$t" "$(awk -v a="$h" -v b="$dr" 'BEGIN { if (a != "" && b != "") print a + b }')" 0.0015 \
		"$name: total operations is hits + drops ($h + $dr)"
	# the spread of the per-sample totals, from the samples themselves
	got=$(jq '[.samples[] | select(.warmup | not) | .metrics.hits + .metrics.drops]
		| (add / length) as $m | if length > 1
		then (map((. - $m) * (. - $m)) | add / (length - 1) | sqrt) else 0 end' "$out.json")
	is_near "$ts" "$got" 0.0006 "$name: the total's ± is the stddev of the per-sample totals"

	iters=$(grep -c '^Iter' "$out")
	is "$iters" $((w + d)) "$name: exactly -w + -d = $((w + d)) samples, one Iter line each"
	bad=$(grep '^Iter' "$out" | sed -E "s/.*hits +($NUM)M\\/s .*drops +($NUM)M\\/s, total operations +($NUM)M\\/s\$/\\1 \\2 \\3/" |
		awk 'NF != 3 || ($1 + $2 - $3) ^ 2 > 0.0015 ^ 2 { bad++ } END { print bad + 0 }')
	is "$bad" 0 "$name: every Iter line ends in total operations = hits + drops (lines that do not)"
}

# two measured samples each: the least with a spread for the ± checks
start count-local 1 2 -p2 count-local
start count-global 1 2 -p2 count-global
start trig-syscall-count 0 2 trig-syscall-count
# -q prints only the Summary: the extractors still find every field (the
# format, not the figures: one sample is enough)
par_start "$TEST_TMP/q" "$BENCH" -q -w0 -d1 count-local

check count-local 1 2
check count-global 1 2
check trig-syscall-count 0 2

par_wait "$TEST_TMP/q"
is $? 0 "-q count-local: exit status 0"
like "$TEST_TMP/q" "$SUMMARY_RE" "-q: the Summary has the total operations field"
up_summarize_total count-local "$(cat "$TEST_TMP/q")" >"$TEST_TMP/q.total"
like "$TEST_TMP/q.total" "^count-local +$NUM ± ${NUM}M/s\$" "-q: summarize_total() extracts the total"

done_testing
