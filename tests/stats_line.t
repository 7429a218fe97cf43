#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --stats and the robust summaries in JSON, through the real runner
# (count-local: no BPF): one Stats line per metric, its figures those of
# the JSON, the JSON valid against the schema, and a loader that refuses
# an edited quantile or outlier list.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SCHEMA="$(dirname "$0")/schema.jq"

j=$TEST_TMP/cl.json
no_stats=$TEST_TMP/plain
# the run with --stats and the one without are independent: side by side
# (lib.sh, par_start)
par_start "$TEST_TMP/out" "$BENCH" -w0 -d4 --stats --json "$j" count-local
par_start "$no_stats" "$BENCH" -w0 -d1 count-local
par_wait "$TEST_TMP/out"
ok $? "count-local --stats --json: exits 0"
is "$(grep -c '^Stats: ' "$TEST_TMP/out")" 3 "one Stats line per metric (hits, hits_per_prod, drops)"
like "$TEST_TMP/out" "^Stats: hits \(M/s, 4 values\): median [0-9.]+, min [0-9.]+, max [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, MAD [0-9.]+, IQR [0-9.]+; Tukey's fences -?[0-9.]+ \.\. [0-9.]+: (none outside|[0-9]+ outside \(flagged, not dropped\):.*)$" \
	"the hits line has every robust figure and the fences"
is "$(jq -r -f "$SCHEMA" "$j")" "" "the JSON with robust summaries validates against the schema"
for k in median p90 p99 mad iqr; do
	want=$(jq -r ".summary.metrics.hits.$k | . * 1000 | round / 1000 | tostring" "$j")
	key=$k
	[ "$k" = mad ] && key=MAD
	[ "$k" = iqr ] && key=IQR
	got=$(sed -nE "s/^Stats: hits \(.*[:,] $key ([0-9.]+)[,;].*/\1/p" "$TEST_TMP/out")
	assert "Stats line $key '$got' is the JSON's $want within rounding" \
		awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(a != "" && (d < 0 ? -d : d) <= 0.0011) }'
done
ok "$(jq -e '.summary.metrics.hits | .iqr == .q3 - .q1 and .tukey.low_fence == .q1 - 1.5 * .iqr
	and (.tukey.outliers | all(.[]; .sample >= 0)) and .median == .median' "$j" >/dev/null; echo $?)" \
	"iqr is q3 - q1, the fences are 1.5 IQR out"
n_out=$(jq '[.samples[] | select(.warmup | not) | .metrics.hits] as $v | .summary.metrics.hits.tukey as $t
	| [$v[] | select(. < $t.low_fence or . > $t.high_fence)] | length' "$j")
is "$(jq '.summary.metrics.hits.tukey.outliers | length' "$j")" "$n_out" \
	"the outlier list holds exactly the samples outside the fences ($n_out)"
par_wait "$no_stats"
ok $? "count-local without --stats: exits 0"
ok "$(! grep -q '^Stats:' "$no_stats"; echo $?)" "without --stats: no Stats line (upstream's output unchanged)"

jq '.summary.metrics.hits.p90 = 1e6' "$j" >"$TEST_TMP/edited.json"
is_exit 2 "compare refuses an edited p90" "$BENCH" compare "$j" "$TEST_TMP/edited.json"
like "$TEST_TMP/is_exit.err" 'summary.metrics.hits.p90: 1000000 in the file, .* from its samples: the file was edited or corrupted' \
	"and names the field"
jq '.summary.metrics.hits.tukey.outliers += [{"index": 0, "sample": 0, "value": 1, "side": "low", "beyond_fence": 1, "iqrs": 9}]' \
	"$j" >"$TEST_TMP/edited.json"
is_exit 2 "compare refuses an outlier list that is not the samples'" "$BENCH" compare "$j" "$TEST_TMP/edited.json"
jq 'del(.summary.metrics[] | .p90, .p99, .q1, .q3, .iqr, .mad, .tukey)' "$j" >"$TEST_TMP/old.json"
is_exit 0 "a file written before the robust summaries still loads" "$BENCH" compare "$j" "$TEST_TMP/old.json"
done_testing
