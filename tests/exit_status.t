#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# README's "Exit status" table, row by row: at least one case of every
# row, so that no status can drift from what the table says.  No BPF:
# count-local runs, and result files made from one.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"

# ---- bench: 0 ----
is_exit 0 "bench: a run that measured: 0" "$BENCH" -w0 -d1 count-local
is_exit 0 "bench -l: 0" "$BENCH" -l
is_exit 0 "bench --help: 0" "$BENCH" --help

# ---- bench: 64, what argp refuses while parsing (upstream's argp_usage) ----
is_exit 64 "bench: unknown option: 64" "$BENCH" --no-such-option count-local
is_exit 64 "bench: missing option value: 64" "$BENCH" count-local -d
is_exit 64 "bench: malformed runner value (-d 5x): 64" "$BENCH" -d 5x count-local
is_exit 64 "bench: out-of-range runner value (-p 0): 64" "$BENCH" -p 0 count-local
is_exit 64 "bench: malformed CPU list: 64" "$BENCH" --prod-affinity 0- count-local
is_exit 64 "bench: --repeat out of range: 64" "$BENCH" --repeat 0 count-local
is_exit 64 "bench: a benchmark's bad value (htab-mem --value-size 0): 64" \
	"$BENCH" htab-mem --value-size 0
is_exit 64 "bench: a benchmark's bad value (htab-mem --use-case x): 64" \
	"$BENCH" htab-mem --use-case x
is_exit 64 "bench: a benchmark's bad value (bpf-hashmap-lookup --key_size 0): 64" \
	"$BENCH" bpf-hashmap-lookup --key_size 0
is_exit 64 "bench: a benchmark's bad value (bpf-hashmap-lookup --hook x): 64" \
	"$BENCH" bpf-hashmap-lookup --hook x
# above a benchmark's own limit, not only below 1 (upstream's validate() exits 1 there)
is_exit 64 "bench: a benchmark's value above its limit (--nr_maps 1001): 64" \
	"$BENCH" -w0 -d1 local-storage-cache-seq-get --nr_maps 1001
is_exit 64 "bench: a benchmark's value above its limit (--hashmap_nr_keys_used 4194305): 64" \
	"$BENCH" -w0 -d1 local-storage-cache-hashmap-control --hashmap_nr_keys_used 4194305
is_exit 64 "bench: a benchmark's value above its limit (--nr_procs 150001): 64" \
	"$BENCH" -w0 -d1 local-storage-tasks-trace --nr_procs 150001
is_exit 64 "bench: a decimal --min-cpu-share out of range (100.5): 64" \
	"$BENCH" -w0 -d1 --min-cpu-share 100.5 count-local
is_exit 64 "bench: two benchmark names: 64" "$BENCH" count-local count-global
is_exit 64 "bench: another benchmark's option: 64" "$BENCH" count-local --use-case overwrite

# ---- bench: 1, parsed but cannot run (upstream's find_benchmark, validate) ----
is_exit 1 "bench: no benchmark: 1" "$BENCH" -d1
is_exit 1 "bench: unknown benchmark: 1" "$BENCH" nope
is_exit 1 "bench: a mistyped command, files after it: 1" "$BENCH" comapre a.json b.json
is_exit 1 "bench: a command after an option: 1" "$BENCH" -d1 history
is_exit 1 "bench: consumers for a benchmark without: 1" "$BENCH" -c2 count-local
is_exit 1 "bench: an odd -p for add_del_on_diff_cpu: 1" \
	"$BENCH" -p3 htab-mem --use-case add_del_on_diff_cpu
is_exit 1 "bench: --latency where it does not apply: 1" "$BENCH" --latency count-local
is_exit 1 "bench: --zero-seed where it does not apply: 1" "$BENCH" --zero-seed count-local
is_exit 1 "bench: --repeat 2 where it does not apply: 1" "$BENCH" --repeat 2 bpf-hashmap-lookup
is_exit 1 "bench: repeats longer than a day: 1" "$BENCH" --repeat 2 -d 86400 count-local
is_exit 1 "bench: a CPU this process may not use: 1" "$BENCH" --prod-affinity 1000 count-local
is_exit 1 "bench: --nr_entries above --max_entries: 1" \
	"$BENCH" bpf-hashmap-lookup --max_entries 10 --nr_entries 20
"$BENCH" -w0 -d1 count-local >/dev/full 2>"$TEST_TMP/full.err"
is "$?" 1 "bench: an output that cannot be written: 1"
# a run that measured nothing is 1 too: pidns.t checks it, with getpgid() denied

# ---- bench: 128 + N, a signal ended the run ----
"${SIG_DEFAULT[@]}" "$BENCH" -w0 -d60 count-local >"$TEST_TMP/sig" 2>"$TEST_TMP/sig.err" &
pid=$!
if wait_iter "$TEST_TMP/sig" "$pid"; then
	kill -TERM "$pid"
fi
wait "$pid"
is "$?" 143 "bench: SIGTERM ended the run: 128 + 15"

# ---- bench compare: 0, 1, 2 ----
"$BENCH" -w0 -d3 --json "$TEST_TMP/a.json" count-local >/dev/null 2>&1
is "$?" 0 "a result file to compare"
steady_and_halved "$TEST_TMP/a.json" "$TEST_TMP/steady.json" "$TEST_TMP/half.json"
is_exit 0 "compare: compared, a regression without --fail-on-regression: 0" \
	"$BENCH" compare "$TEST_TMP/steady.json" "$TEST_TMP/half.json"
like "$TEST_TMP/is_exit.out" '^hits .* worse$' "compare: and it was a regression"
is_exit 1 "compare --fail-on-regression with a metric worse: 1" \
	"$BENCH" compare --fail-on-regression "$TEST_TMP/steady.json" "$TEST_TMP/half.json"
is_exit 2 "compare: a bad option: 2" "$BENCH" compare --bogus "$TEST_TMP/a.json" "$TEST_TMP/a.json"
is_exit 2 "compare: a file refused: 2" "$BENCH" compare "$TEST_TMP/a.json" "$TEST_TMP/none.json"
"$BENCH" compare --fail-on-regression "$TEST_TMP/steady.json" "$TEST_TMP/half.json" >/dev/full 2>/dev/null
is "$?" 2 "compare: the output could not be written, a regression found: 2, not 1"

# ---- bench plot: 0, 1, 2 ----
is_exit 0 "plot: the chart written: 0" \
	"$BENCH" plot compare "$TEST_TMP/a.json" "$TEST_TMP/a.json" -o "$TEST_TMP/c.txt"
"$BENCH" plot compare "$TEST_TMP/a.json" "$TEST_TMP/a.json" -o - >/dev/full 2>"$TEST_TMP/pf.err"
is "$?" 1 "plot: the chart could not be written: 1"
is_exit 2 "plot: an unknown kind: 2" "$BENCH" plot nope "$TEST_TMP/a.json"
is_exit 2 "plot: a bad option: 2" "$BENCH" plot compare --bogus "$TEST_TMP/a.json" "$TEST_TMP/a.json"
is_exit 2 "plot: a file refused: 2" "$BENCH" plot compare "$TEST_TMP/a.json" "$TEST_TMP/none.json" \
	-o "$TEST_TMP/n.txt"

# ---- bench export kcidb: 0, 1, 2 ----
is_exit 0 "export: the report written: 0" \
	"$BENCH" export kcidb --origin test -o "$TEST_TMP/k.json" "$TEST_TMP/a.json"
"$BENCH" export kcidb --origin test -o /dev/full "$TEST_TMP/a.json" 2>"$TEST_TMP/kf.err"
is "$?" 1 "export: the report could not be written: 1"
is_exit 2 "export: a bad option: 2" "$BENCH" export kcidb --bogus "$TEST_TMP/a.json"
is_exit 2 "export: a file refused: 2" "$BENCH" export kcidb --origin test "$TEST_TMP/none.json"

# ---- bench ab: 0, 1, 2 (128 + N: ab.t interrupts it) ----
# a stand-in invocation writes a one-sample result with the next rate of its list
STANDIN=$TESTS_DIR/ab_standin.sh
yes 100 | head -12 >"$TEST_TMP/rates.a"
yes 100 | head -12 >"$TEST_TMP/rates.b"
is_exit 0 "ab: it ran: 0" "$BENCH" ab --alpha 0.25 --blocks 3 -o "$TEST_TMP/ab0.d" \
	--cmd-a "$STANDIN $TEST_TMP/rates.a" --cmd-b "$STANDIN $TEST_TMP/rates.b"
rm -f "$TEST_TMP"/rates.*.pos
STANDIN_FAIL=1 "$BENCH" ab --alpha 0.25 --blocks 3 -o "$TEST_TMP/ab1.d" \
	--cmd-a "$STANDIN $TEST_TMP/rates.a" --cmd-b "$STANDIN $TEST_TMP/rates.b" \
	>"$TEST_TMP/ab1.out" 2>"$TEST_TMP/ab1.err"
is "$?" 1 "ab: an invocation failed: 1"
is_exit 2 "ab: a bad option: 2" "$BENCH" ab --bogus --cmd-a true --cmd-b true
is_exit 2 "ab: a budget that cannot work: 2" "$BENCH" ab --blocks 2 --cmd-a true --cmd-b true
mkdir "$TEST_TMP/used.d" && touch "$TEST_TMP/used.d/pair-001-A.json"
is_exit 2 "ab: a result directory that cannot be had: 2" \
	"$BENCH" ab -o "$TEST_TMP/used.d" --cmd-a true --cmd-b true

# ---- bench history: 0, 1, 2 ----
is_exit 0 "history: added: 0" "$BENCH" history add --db "$TEST_TMP/h.db" "$TEST_TMP/a.json"
is_exit 0 "history: listed: 0" "$BENCH" history list --db "$TEST_TMP/h.db"
"$BENCH" history list --db "$TEST_TMP/h.db" --json >/dev/full 2>"$TEST_TMP/hf.err"
is "$?" 1 "history: the output could not be written: 1"
is_exit 2 "history: a bad option: 2" "$BENCH" history list --bogus
is_exit 2 "history: an unknown command: 2" "$BENCH" history nope
is_exit 2 "history: a file refused: 2" "$BENCH" history add --db "$TEST_TMP/h.db" "$TEST_TMP/none.json"
is_exit 2 "history: a database refused: 2" "$BENCH" history list --db "$TEST_TMP/none.db"

# ---- bench config: 0, 1, 2 ----
is_exit 0 "config: printed: 0" "$BENCH" config "$TEST_TMP/a.json"
"$BENCH" config "$TEST_TMP/a.json" >/dev/full 2>"$TEST_TMP/cf.err"
is "$?" 1 "config: the output could not be written: 1"
is_exit 2 "config: a bad option: 2" "$BENCH" config --bogus "$TEST_TMP/a.json"
is_exit 2 "config: no file: 2" "$BENCH" config
is_exit 2 "config: a file refused: 2" "$BENCH" config "$TEST_TMP/none.json"

# ---- bench import: 0, 1, 2, 128 + N ----
"$BENCH" -w1 -d1 count-local >"$TEST_TMP/up.log" 2>/dev/null
is_exit 0 "import: written: 0" "$BENCH" import -o "$TEST_TMP/imp.json" "$TEST_TMP/up.log"
is_exit 1 "import: the command it runs failed: 1" "$BENCH" import -o "$TEST_TMP/imp2.json" -- false
is_exit 1 "import: the file could not be written: 1" "$BENCH" import -o /dev/full "$TEST_TMP/up.log"
is_exit 2 "import: a bad option: 2" "$BENCH" import --bogus -o "$TEST_TMP/imp2.json" "$TEST_TMP/up.log"
is_exit 2 "import: a missing input: 2" "$BENCH" import -o "$TEST_TMP/imp2.json" "$TEST_TMP/none.log"
printf 'Summary: hits x\n' >"$TEST_TMP/bad.log"
is_exit 2 "import: a line it cannot read: 2" "$BENCH" import -o "$TEST_TMP/imp2.json" "$TEST_TMP/bad.log"
"${SIG_DEFAULT[@]}" "$BENCH" import -o "$TEST_TMP/imp3.json" -- sleep 30 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
is $? 143 "import: a signal ended it: 128 + N"

done_testing
