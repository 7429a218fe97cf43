#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench import: upstream's runner's text (here our own count-local
# output, which is upstream's format, tests/upstream_format.t) and a patch
# mail's table row (written here in run_bench_htab_mem.sh's format) into
# result files our reader takes; compare of an import against a bench
# run; the -- COMMAND form under bench ab --cmd-b, and killed; bad input:
# status 2, one line naming the line or value, no file.  count-local runs,
# no BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP" || exit 1
export LC_ALL=C.UTF-8

# 1. a runner's text, and a run of ours beside it
par_start up.log "$BENCH" -w1 -d2 --min-cpu-share 0 count-local
par_start ours.out "$BENCH" -q -w1 -d2 --min-cpu-share 0 --json ours.json count-local
par_wait up.log
is $? 0 "the 'upstream' run: exit 0"
par_wait ours.out
is $? 0 "our run: exit 0"

is_exit 0 "import of a runner's text with its command line: exit 0" \
	"$BENCH" import -o up.json --command "sudo ./bench -w1 -d2 count-local" up.log
is "$(jq -r '[.source.kind, .source.file, (.source.command_line | join(" ")), .benchmark,
	.options.runner.warmup_sec, .options.runner.duration_sec, (.samples | length), .summary.fails,
	(.source.lacks | length > 2)] | join("|")' up.json)" \
	"upstream-text|up.log|sudo ./bench -w1 -d2 count-local|count-local|1|2|3||true" \
	"the file says where it came from, its samples, no fails count, what it lacks"
sum=$(sed -nE 's/^Summary: hits +([0-9.]+) ± ([0-9.]+)M.*/\1 \2/p' up.log)
read -r mean sd <<<"$sum"
is_near "$(jq '.summary.metrics.hits.mean' up.json)" "$mean" 0.001 "hits mean: the Summary's ($mean)"
is_near "$(jq '.summary.metrics.hits.stddev' up.json)" "$sd" 0.002 "hits stddev: the Summary's ($sd)"
is "$(jq -c '[.summary.metrics | keys[]]' up.json)" '["drops","hits","hits_per_prod"]' \
	"count-local's metrics, as a run of ours names them"

is_exit 0 "import without --command: upstream's defaults for the benchmark named" \
	"$BENCH" import -o dflt.json up.log
is "$(jq -r '.source.command_line' dflt.json)" null "no command line recorded"
is_exit 2 "... but -w1's Summary does not follow with -w2" \
	"$BENCH" import -o w2.json --command "bench -w2 -d1 count-local" up.log
like "$TEST_TMP/is_exit.err" "^import: up.log: line [0-9]+: the Summary's hits is .* warm-up" \
	"... and it says which line and why"

"$BENCH" compare --verbose up.json ours.json >cmp.out 2>cmp.err
is $? 0 "compare of the import against our run: exit 0"
like cmp.out "^note: up.json \(base\) was imported from upstream-text up.log; it lacks:" \
	"compare says which side is imported"
like cmp.out "^  validity: " "... and what it lacks"
like cmp.out "^hits \(M/s\) .*(better|worse|within ±[0-9.]+%|undecided: [0-9]+ samples a side)" "hits compared with a test (the verdict of one, not summary-only's)"

# 2. a patch mail's table: the printed mean and spread alone
cat >mail.txt <<'EOF'
Results on an 8-CPU guest:

(1) preallocated
> overwrite            per-prod-op : 90.00 ± 0.10k/s, avg mem: 1.20 ± 0.00MiB, peak mem: 1.30MiB
> batch_add_batch_del  per-prod-op : 100.00 ± 0.20k/s, avg mem: 1.25 ± 0.01MiB, peak mem: 1.50MiB

(2) bpf memory allocator
overwrite            per-prod-op : 99.00 ± 0.30k/s, avg mem: 2.40 ± 0.02MiB, peak mem: 2.80MiB
EOF
cmdline="./bench -w3 -d10 -a -p8 htab-mem --use-case overwrite"
is_exit 2 "a mail with two overwrite rows and no --line" \
	"$BENCH" import -o m.json --row overwrite --command "$cmdline" mail.txt
like "$TEST_TMP/is_exit.err" "2 table rows named 'overwrite' \(the first at line 4\): pick one with --line N" \
	"... names the rows and the way out"
is_exit 2 "a mail without --command" "$BENCH" import -o m.json --line 4 mail.txt
like "$TEST_TMP/is_exit.err" "names no benchmark or options: give --command" "... says what it needs"
is_exit 0 "row on line 4" "$BENCH" import -o m4.json --line 4 --command "$cmdline --preallocated" mail.txt
is_exit 0 "row on line 8" "$BENCH" import -o m8.json --line 8 --command "$cmdline" mail.txt
is "$(jq -r '[.source.kind, .source.row.name, .source.row.line, (.samples | length),
	.summary.metrics.per_prod_op.summary_only, .summary.metrics.per_prod_op.n,
	.summary.metrics.per_prod_op.mean, (.summary.peak_memory_mib * 100 | round), (.source.missing_metrics | join(","))]
	| join("|")' m8.json)" "patch-mail|overwrite|8|0|true||99|280|failures" \
	"the row's figures, summary only, and what upstream does not print"
"$BENCH" compare --verbose --force m4.json m8.json >mc.out 2>mc.err
is $? 0 "compare of two rows: exit 0"
like mc.out "^per_prod_op \(k/s\) +90\.000 ± 0\.100 +99\.000 ± 0\.300 +\+10\.0% .*untested \(summary only\)" \
	"the change between the printed means, untested"
"$BENCH" compare --fail-on-regression m8.json m8.json m8.json -- m4.json >/dev/null 2>mc2.err
is $? 2 "a summary-only import with others on its side: refused (2)"
like mc2.err "^compare: m8.json: imported without samples \(summary only\)" "... saying why"

# 3. -- COMMAND: run it, pass its output through, import it
is_exit 0 "import -- COMMAND" "$BENCH" import -o run.json -- "$BENCH" -w0 -d1 --min-cpu-share 0 count-local
like "$TEST_TMP/is_exit.out" "^Summary: hits " "the command's output passed through"
is "$(jq -r '.source.command_line[-1]' run.json)" count-local "its command line recorded"
is_exit 1 "a command that fails: exit 1" "$BENCH" import -o fail.json -- sh -c 'echo "Iter"; exit 3'
like "$TEST_TMP/is_exit.err" "exited with status 3: nothing imported" "... said"
ok "$(test ! -e fail.json; echo $?)" "... and no file"

# bench ab --cmd-b through import: two "upstream" logs of chosen rates
cat >fake-up.sh <<'EOF'
#!/bin/sh
# a stand-in for upstream's binary: its options are upstream's, its text a
# count-local log of upstream's format, hits at $RATE M/s (with 1% of jitter by block)
r=$RATE j=$(( ${BENCH_AB_BLOCK:-1} % 3 ))
echo "Setting up benchmark 'count-local'..."
echo "Benchmark 'count-local' started."
for i in 0 1 2; do
	h=$(awk -v r="$r" -v i="$i" -v j="$j" 'BEGIN { printf "%.3f", r * (1 + 0.01 * ((i + j) % 3 - 1)) }')
	echo "Iter   $i (  0.000us): hits  ${h}M/s (${h}M/prod), drops    0.000M/s, total operations  ${h}M/s"
done
EOF
chmod +x fake-up.sh
"$BENCH" ab --blocks 6 -o ab.d \
	--cmd-a "RATE=100 $BENCH import -o \"\$BENCH_AB_JSON\" -- $TEST_TMP/fake-up.sh -w0 -d3 count-local" \
	--cmd-b "RATE=120 $BENCH import -o \"\$BENCH_AB_JSON\" -- $TEST_TMP/fake-up.sh -w0 -d3 count-local" \
	>ab.out 2>ab.err
is $? 0 "bench ab --cmd-a/--cmd-b through import: exit 0"
like ab.out "better" "B's 20% more hits: better"
is "$(jq -r '.source.kind' ab.d/pair-001-B.json)" upstream-text "ab's B files are imports"

# 4. bad input: status 2, one line naming the line or value, nothing written
printf 'Setting up benchmark %s...\nIter   0 ( 1.000us): hits  inf M/s (1.000M/prod), drops 0.000M/s\n' \
	"'count-local'" >bad.log
echo keep >kept.json
is_exit 2 "an Iter line with inf" "$BENCH" import -o kept.json bad.log
is "$(wc -l <"$TEST_TMP/is_exit.err") $(cat kept.json)" "1 keep" "one line, the file left as it was"
like "$TEST_TMP/is_exit.err" "^import: bad.log: line 2: an Iter line in no reporter's format import knows" \
	"... naming the line"
is_exit 2 "a missing input" "$BENCH" import -o x.json nosuch.log
is_exit 2 "a command line naming another benchmark" "$BENCH" import -o x.json --command "bench count-global" up.log
like "$TEST_TMP/is_exit.err" "the text ran benchmark 'count-local', but the command line names 'count-global'" "... said"
is_exit 2 "no -o" "$BENCH" import up.log
is_exit 2 "--line on a runner's text" "$BENCH" import -o x.json --line 3 up.log
is_exit 2 "--command with help in it" "$BENCH" import -o x.json --command "bench --help" up.log
ok "$(test ! -e x.json; echo $?)" "no file from any of them"
"$BENCH" import --help >help.out
like help.out "^ *EXAMPLES:" "import --help has examples"

# import killed while its command runs (Ctrl-C, kill, timeout(1)): the
# signal goes on to the command's process group, a shell's children too,
# and import ends by it; a SIGTERM once left the command running with no
# reader of its output.  (SIG_DEFAULT: the signals a background job starts
# with ignored.)
SLEEPER="sleep 300.$$"
for sig in TERM INT; do
	rm -f killed.json
	"${SIG_DEFAULT[@]}" "$BENCH" import -o killed.json -- sh -c "$SLEEPER; echo done" >/dev/null 2>&1 &
	pid=$!
	for ((i = 0; i < 100; i++)); do pgrep -f "$SLEEPER" >/dev/null && break; sleep 0.05; done
	kill -"$sig" "$pid"
	wait "$pid"
	is $? "$((128 + $(kill -l "$sig")))" "import: SIG$sig as its command runs: ended by it"
	for ((i = 0; i < 40; i++)); do pgrep -f "$SLEEPER" >/dev/null || break; sleep 0.05; done
	is "$(pgrep -fc "$SLEEPER")" 0 "import: SIG$sig: its command's sleep is gone too"
	ok "$(test ! -e killed.json; echo $?)" "import: SIG$sig: nothing written"
done

done_testing
