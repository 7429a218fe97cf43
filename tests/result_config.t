#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A run's configuration, defined once (result_config.c): bench config's
# label, slug and key; defaults filled in for documents written before an
# option existed; different configurations never share a name in compare,
# history (list, show, --config) or export kcidb's test paths.  The
# documents are a real count-local run's, given htab-mem's options by jq
# (no BPF needed); results_bpf.t checks the labels of real default runs.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - sqlite3 not installed (install-deps.sh installs it)"; exit 1; }
	skip_all "sqlite3 not installed (scripts/install-deps.sh installs it)"
}
cd "$TEST_TMP" || exit 1
export LC_ALL=C

run_bench base.out -q -w0 -d1 --json base.json count-local
ok $? "count-local --json: exit 0"

# hm NAME JQ-UPDATE: base.json as an htab-mem run with these options
hm() {
	jq ".benchmark = \"htab-mem\"
	    | .options.benchmark = {use_case: \"overwrite\", value_size: 8, preallocated: false,
				    own_counter: false}
	    | $2" base.json >"$1.json"
}
hm def '.'
hm v4096 '.options.benchmark.value_size = 4096'
hm pre '.options.benchmark.preallocated = true'
# (a share of a CPU per producer, as the reader checks)
hm p2 '.options.runner.producers = 2 | .validity.prod_cpu_share += .validity.prod_cpu_share'
hm zs '.options.runner.zero_seed = true'
hm lat '.options.runner.latency = true'
hm batch '.options.benchmark.use_case = "batch_add_batch_del" | .options.benchmark.value_size = 4096'
# written before zero_seed and latency existed: the defaults, one configuration with def
hm old 'del(.options.runner.zero_seed) | del(.options.runner.latency)'

is_exit 0 "bench config of eight files: exit 0" "$BENCH" config def.json v4096.json pre.json p2.json \
	zs.json lat.json batch.json old.json
is "$(tr '\n' '|' <"$TEST_TMP/is_exit.out")" \
	"overwrite|overwrite value_size=4096|overwrite preallocated|overwrite producers=2|overwrite zero_seed|overwrite latency|batch_add_batch_del value_size=4096|overwrite|" \
	"labels: the use case, then what is not at its default"
is "$("$BENCH" config --slug v4096.json batch.json | tr '\n' '|')" \
	"overwrite-value_size_4096|batch_add_batch_del-value_size_4096|" "slugs: one path component each"
is "$("$BENCH" config --key old.json)" "$("$BENCH" config --key def.json)" \
	"a document without zero_seed and latency has the key of one with both false"
is "$("$BENCH" config --key def.json | jq -c '[.value_size, .preallocated, .zero_seed, .latency, .producers]')" \
	"[8,false,false,false,1]" "the key holds every option, defaults included"
is "$("$BENCH" config --json v4096.json | jq -r '.configs[0] | [.benchmark, .label, .slug, .config.value_size] | join("|")')" \
	"htab-mem|overwrite value_size=4096|overwrite-value_size_4096|4096" "--json: benchmark, label, slug, config"
# options that came with a new default: a document without them ran the
# old way, which is not the default (lpm-trie-*: the inlined loop and a
# cursor per producer; bpf-hashmap-full-update: the rate over every batch;
# htab-mem: no shared op counter)
hm hold 'del(.options.benchmark.own_counter)'
hm hown '.options.benchmark.own_counter = true'
is "$("$BENCH" config def.json hold.json hown.json | tr '\n' '|')" "overwrite|overwrite own_counter|overwrite own_counter|" \
	"htab-mem: labels; a document from before own_counter counted in each producer's line alone"
is "$("$BENCH" config --key hold.json)" "$("$BENCH" config --key hown.json)" \
	"htab-mem: the old document is the configuration --own-counter runs today"
lpm() {
	jq ".benchmark = \"lpm-trie-lookup\"
	    | .options.benchmark = {nr_entries: 10000, prefix_len: 32, random: false,
				    inline_loop: false, own_cursor: false}
	    | $2" base.json >"$1.json"
}
lpm lnew '.'
lpm lold 'del(.options.benchmark.inline_loop) | del(.options.benchmark.own_cursor)'
lpm lown '.options.benchmark.own_cursor = true'
is "$("$BENCH" config lnew.json lold.json lown.json | tr '\n' '|')" "nr_entries=10000|inline_loop nr_entries=10000 own_cursor|nr_entries=10000 own_cursor|" \
	"lpm-trie: labels; a document from before inline_loop and own_cursor ran with both"
isnt "$("$BENCH" config --key lold.json)" "$("$BENCH" config --key lnew.json)" \
	"lpm-trie: the old document is another configuration than today's default"
jq '.benchmark = "bpf-hashmap-full-update" | .options.benchmark = {max_entries: 1000, nr_loops: 10000, hook: "tracepoint"}' \
	base.json >fold.json
jq '.options.benchmark.all_batches = false' fold.json >fnew.json
is "$("$BENCH" config fold.json fnew.json | tr '\n' '|')" "all_batches hook=tracepoint|hook=tracepoint|" \
	"bpf-hashmap-full-update: a document from before all_batches printed every batch's rate"
is "$("$BENCH" config base.json)" "default" "count-local: no options, \"default\""
n=$("$BENCH" config def.json v4096.json pre.json p2.json zs.json lat.json batch.json | sort -u | wc -l)
is "$n" 7 "seven configurations, seven labels"
n=$("$BENCH" config --slug def.json v4096.json pre.json p2.json zs.json lat.json batch.json | sort -u | wc -l)
is "$n" 7 "seven configurations, seven slugs"
is_exit 2 "bench config of a file that is not a result: exit 2" "$BENCH" config def.json nothere.json
is "$(wc -c <"$TEST_TMP/is_exit.out") $(grep -c . "$TEST_TMP/is_exit.err")" "0 1" \
	"a bad file: nothing printed for the good one, one line on stderr"
is_exit 2 "bench config without files: exit 2" "$BENCH" config

# compare refuses two configurations, naming the option
is_exit 2 "compare of value_size 8 against 4096: exit 2" "$BENCH" compare def.json v4096.json
like "$TEST_TMP/is_exit.err" 'different options: value_size 8 vs 4096' "compare names value_size"
is_exit 0 "compare of a pre-latency document against a latency=false one: exit 0" \
	"$BENCH" compare old.json def.json

# history: two configurations, two names; --config selects each
DB=$TEST_TMP/h.db
is_exit 0 "history add of four runs: exit 0" "$BENCH" history add --db "$DB" def.json v4096.json pre.json old.json
is_exit 0 "history list: exit 0" "$BENCH" history list --db "$DB"
like "$TEST_TMP/is_exit.out" '^ +2 .* htab-mem +overwrite value_size=4096 ' "list: the value_size run is named for it"
like "$TEST_TMP/is_exit.out" '^ +1 .* htab-mem +overwrite +1 ' "list: the default run is plain overwrite"
is_exit 0 "history list --config 'overwrite value_size=4096': exit 0" \
	"$BENCH" history list --db "$DB" --config "overwrite value_size=4096"
is "$(($(grep -c . "$TEST_TMP/is_exit.out") - 1))" 1 "--config selects the one value_size=4096 run"
is_exit 0 "history list --config overwrite: exit 0" "$BENCH" history list --db "$DB" --config overwrite
is "$(awk 'NR > 1 { print $1 }' "$TEST_TMP/is_exit.out" | tr '\n' ' ')" "1 4 " \
	"--config overwrite: the default run and the pre-latency one, not the others"
is_exit 2 "history show over two configurations: exit 2" "$BENCH" history show --db "$DB" --benchmark htab-mem
like "$TEST_TMP/is_exit.err" '\(htab-mem overwrite\) and [0-9]+ \(htab-mem overwrite (value_size=4096|preallocated)\) are of different configurations' \
	"show's refusal names the two configurations differently"

# export kcidb: one test path per configuration
"$BENCH" export kcidb --origin bench_test def.json v4096.json pre.json >k.json 2>k.err
ok $? "export kcidb of three configurations: exit 0"
is "$(jq -r '[.tests[].path | select(endswith(".hits"))] | unique | length' k.json)" 3 \
	"three configurations, three test paths"
like k.json '"bpf\.bench\.htab-mem\.overwrite-value_size_4096\.hits"' "the path carries the slug"

done_testing
