#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_bench_fidelity.sh's behaviour, never its timings: the
# arguments it refuses, the rate it reads from each kind of output (stand-in
# benches that print fixed figures), the interval and the verdict of each
# kind (stand-ins whose figures give hand-worked values), the table's rows,
# a run that printed no rate, and one short real block with our own bench
# standing in for upstream's (count-local: no BPF needed).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
host_only "userspace only: the script and stand-ins"

SCRIPT=$SRC_TOP/benchs/run_bench_fidelity.sh
export LC_ALL=C
unset UPSTREAM

# one short real block, our bench standing in for upstream's; -o keeps
# every invocation's output (4 a block).  Its four -d1 runs take wall
# time whatever else runs: started first, beside every other invocation
# of the script below (lib.sh, par_start; none reads another's files), and
# checked last
par_start "$TEST_TMP/real.out" env UPSTREAM="$BENCH" BENCH="$BENCH" LOCK="$TEST_TMP/lock" \
	"$SCRIPT" -w0 -d1 -n1 -p1 -b count-local -o "$TEST_TMP/keep"

# -S: a budget that stops a run between blocks.  Its stand-in sleeps 1 s a
# call (a block 4 s or more); -w1 -d1 estimates the first block at
# 4 x (1 + 1 + 2) = 16 s: -S 17 lets it start, and with the longest block
# as the estimate after it, stops the run before its fifth block.  Started
# early: its seconds pass beside the checks below
sleepy=$TEST_TMP/sleepy
printf '#!/bin/sh\necho x >>%s.calls\nsleep 1\necho "Summary: hits 100.000 ± 0.001M/s (100.000M/prod)"\n' "$sleepy" >"$sleepy"
chmod +x "$sleepy"
par_start "$TEST_TMP/budget.out" env BENCH="$sleepy" UPSTREAM="$sleepy" \
	"$SCRIPT" -w1 -d1 -n5 -S 17 -p1 -b count-local -T "$TEST_TMP/budget.tab"

# stand-ins printing fixed figures: each output kind's rate, and the ratio
# column exact (ours 400, upstream 200 -> 2.000 in each of two blocks: a
# spread of 0, the interval 2.000..2.000, wholly beyond ±3%)
stand_in() {	# stand_in <file> <output line>...
	local f=$1
	shift
	{
		echo '#!/bin/sh'
		for l in "$@"; do printf "printf '%%s\\\\n' '%s'\n" "$l"; done
	} >"$f"
	chmod +x "$f"
}
row_re() {	# the row of <label> with ratio <r>, its interval r..r from 2 blocks
	printf '^%s +%s +%s\\.\\.%s +2 +outside ±3%%$' "$1" "$2" "$2" "$2"
}
# start_kind <benchmark> <ours line> <upstream line>...: the script on
# stand-ins of its own, started beside the others (lib.sh, par_start);
# KINDS, in order, for check_kind
KINDS=()
start_kind() {
	local b=$1 ours=$2
	shift 2
	KINDS+=("$b")
	stand_in "$TEST_TMP/$b.ours" "$ours"
	stand_in "$TEST_TMP/$b.up" "$@"
	par_start "$TEST_TMP/$b.k" env BENCH="$TEST_TMP/$b.ours" UPSTREAM="$TEST_TMP/$b.up" "$SCRIPT" -n2 -p1 -b "$b"
}
check_kind() {	# check_kind <benchmark>: the checks of start_kind's run
	local b=$1
	par_wait "$TEST_TMP/$b.k"
	is $? 0 "$b stand-ins: exit 0"
	like "$TEST_TMP/$b.k" "$(row_re "-p1 $b( -[-a-z0-9_]+( [a-z0-9]+)?)*" 2.000)" \
		"$b: ratio 2.000 from the outputs' main rates, interval 2.000..2.000, outside ±3%"
}
start_kind count-local \
	'Summary: hits   40.000 ± 1.000M/s ( 40.000M/prod), drops    0.000 ± 0.000M/s, total operations   40.000 ± 1.000M/s' \
	'Summary: hits   20.000 ± 1.000M/s ( 20.000M/prod), drops    0.000 ± 0.000M/s, total operations   20.000 ± 1.000M/s'
start_kind lpm-trie-free \
	'Summary: throughput    4.000 ± 0.100 K ops/s (  4.000K ops/prod), latency    0.250 ms/op' \
	'Summary: throughput    2.000 ± 0.100 K ops/s (  2.000K ops/prod), latency    0.500 ms/op'
# refused arguments: exit 2, one line on stderr naming the bad value, no
# table.  Checked here, while the two runs above and the real block take
# the PAR_WIDTH slots: the refusals are CPU work of their own, beside the
# stand-ins' (the real block's producer, at nice 15, takes what is left)
refuses() {
	local want=$1 rc=0
	shift
	env "$@" >"$TEST_TMP/r.out" 2>"$TEST_TMP/r.err" || rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$TEST_TMP/r.err")" -eq 1 ] &&
		grep -Eq -- "$want" "$TEST_TMP/r.err" && [ ! -s "$TEST_TMP/r.out" ]
	ok $? "refused in one line with exit 2: ${*: -3}"
	[ "$TAP_LAST_FAILED" -eq 1 ] && diag "rc $rc: $(cat "$TEST_TMP/r.err")"
}
refuses "UPSTREAM is not set" "$SCRIPT"
refuses "UPSTREAM '/nonexistent' is not an executable file" UPSTREAM=/nonexistent "$SCRIPT"
refuses "UPSTREAM '/etc/passwd' is not an executable file" UPSTREAM=/etc/passwd "$SCRIPT"
refuses "BENCH '/nonexistent'" UPSTREAM="$BENCH" BENCH=/nonexistent "$SCRIPT"
refuses "bad block count '0' for -n" UPSTREAM="$BENCH" "$SCRIPT" -n 0
refuses "bad bound '0' for -t \\(accepted: a percentage above 0 and below 100\\)" UPSTREAM="$BENCH" "$SCRIPT" -t 0
refuses "bad bound '100' for -t" UPSTREAM="$BENCH" "$SCRIPT" -t 100
refuses "bad duration '0' for -d" UPSTREAM="$BENCH" "$SCRIPT" -d 0
refuses "bad warm-up 'x' for -w" UPSTREAM="$BENCH" "$SCRIPT" -w x
refuses "bad producer list '1,,2' for -p" UPSTREAM="$BENCH" "$SCRIPT" -p 1,,2
refuses "unknown benchmark 'nope' for -b \\(accepted: count-local" UPSTREAM="$BENCH" "$SCRIPT" -b count-local,nope
refuses "LOCK '/nonexistent/lock' cannot be opened" UPSTREAM="$BENCH" LOCK=/nonexistent/lock "$SCRIPT"
refuses "unknown option -x" UPSTREAM="$BENCH" "$SCRIPT" -x
refuses "unexpected argument 'extra'" UPSTREAM="$BENCH" "$SCRIPT" extra
refuses "bad regular expression '\\(' for -r" UPSTREAM="$BENCH" "$SCRIPT" -r '('
refuses "bad time budget '0' for -S" UPSTREAM="$BENCH" "$SCRIPT" -S 0
refuses "empty table file name for -T" UPSTREAM="$BENCH" "$SCRIPT" -T ''
refuses "table '/nonexistent/t' or '/nonexistent/t.blocks' cannot be opened" UPSTREAM="$BENCH" "$SCRIPT" -T /nonexistent/t

# per-CPU lines: their mean (100 and 300 -> 200)
start_kind bpf-hashmap-full-update '0:hash_map_full_perf 400 events per sec' \
	'0:hash_map_full_perf 100 events per sec' '1:hash_map_full_perf 300 events per sec'
start_kind bpf-hashmap-lookup 'cpu00: lookup 40.000M ± 1.000M events/sec (approximated from 32 samples of ~9ms)' \
	'cpu00: lookup 10.000M ± 1.000M events/sec (approximated from 32 samples of ~9ms)' \
	'cpu01: lookup 30.000M ± 1.000M events/sec (approximated from 32 samples of ~9ms)'

start_kind local-storage-cache-seq-get \
	'Summary: hits throughput  160.000 ± 1.000 M ops/s, hits latency    6.250 ns/op, important_hits throughput  160.000 ± 1.000 M ops/s' \
	'Summary: hits throughput   80.000 ± 1.000 M ops/s, hits latency   12.500 ns/op, important_hits throughput   80.000 ± 1.000 M ops/s'
start_kind rb-libbpf \
	'Summary: hits   10.000 ± 0.100M/s ( 10.000M/prod), drops    4.000 ± 0.100M/s, total operations   14.000 ± 0.100M/s' \
	'Summary: hits    5.000 ± 0.100M/s (  5.000M/prod), drops    9.000 ± 0.100M/s, total operations   14.000 ± 0.100M/s'
# the bloom filter's: its percentage, and total operations where hits are 0
start_kind bloom-false-positive \
	'Summary: 2000000 false hits of 40000000 total operations. Percentage =  5.00 %' \
	'Summary: 3000000 false hits of 120000000 total operations. Percentage =  2.50 %'
start_kind hashmap-without-bloom \
	'Summary: hits    0.000 ± 0.000M/s (  0.000M/prod), drops   40.000 ± 1.000M/s, total operations   40.000 ± 1.000M/s' \
	'Summary: hits    0.000 ± 0.000M/s (  0.000M/prod), drops   20.000 ± 1.000M/s, total operations   20.000 ± 1.000M/s'
start_kind hashmap-with-bloom \
	'Summary: hits   30.000 ± 1.000M/s ( 30.000M/prod), drops   10.000 ± 1.000M/s, total operations   40.000 ± 1.000M/s' \
	'Summary: hits   19.000 ± 1.000M/s ( 19.000M/prod), drops    1.000 ± 1.000M/s, total operations   20.000 ± 1.000M/s'

# the interval and the verdict, hand-worked: upstream prints 100 every
# time, ours the next figure of its list on each call (a counter file);
# A B B A, B A A B, A B B A puts ours' calls 1-2, 3-4 and 5-6 in blocks 1, 2
# and 3.  A block's log ratio is the mean of its two pairs' (here both
# ln(ours/100)); the interval Student's t on the blocks' logs:
#   101 101 101 101          blocks 1.01 1.01: spread 0, 1.010..1.010,
#                            inside ±3%: within
#   100.5 100.5 100 100 101 101  logs of 1.005 1.000 1.010: mean 0.0049875,
#                            sd 0.0049875, t(2) 4.303 x sd/sqrt(3) =
#                            0.012391: 1.005 (0.993..1.017), within
#   100 100 104 104          logs 0 and 0.0392207: mean 0.0196104, sd
#                            0.0277332, t(1) 12.706 x sd/sqrt(2) = 0.249170:
#                            1.020 (0.795..1.308), straddles: undecided
#   110 110 112 112 111 111  logs of 1.10 1.12 1.11: mean 0.1043330, sd
#                            0.0090094, h 0.022383: 1.110 (1.085..1.135),
#                            wholly above 1.03: outside
#   97 97 97 97 with -t 2    0.970 (0.970..0.970), beyond -2%: outside ±2%
seq_stand_in() {	# seq_stand_in <file> <figure>...
	local f=$1
	shift
	printf '0\n' >"$f.n"
	{
		printf '#!/bin/sh\ncount=%s.n\nset -- %s\n' "$f" "$*"
		# the stand-in's own code: expanded when it runs, not here
		cat <<'EOS'
n=$(cat "$count"); n=$((n + 1)); echo "$n" >"$count"
shift $((n - 1))
printf 'Summary: hits %s ± 0.001M/s (%s M/prod)\n' "$1" "$1"
EOS
	} >"$f"
	chmod +x "$f"
}
stand_in "$TEST_TMP/up100" 'Summary: hits 100.000 ± 0.001M/s (100.000M/prod)'
VERDICTS=()
start_verdict() {	# start_verdict <name> <blocks> <script options> -- <figures>...
	local name=$1 n=$2 opts=$3
	shift 4
	VERDICTS+=("$name")
	seq_stand_in "$TEST_TMP/v-$name" "$@"
	# shellcheck disable=SC2086
	par_start "$TEST_TMP/v-$name.out" env BENCH="$TEST_TMP/v-$name" UPSTREAM="$TEST_TMP/up100" \
		"$SCRIPT" -n"$n" $opts -p1 -b count-local
}
start_verdict within 2 "" -- 101 101 101 101
start_verdict within-spread 3 "" -- 100.5 100.5 100 100 101 101
start_verdict undecided 2 "" -- 100 100 104 104
start_verdict outside 3 "" -- 110 110 112 112 111 111
start_verdict bound 2 "-t 2" -- 97 97 97 97
declare -A WANT=(
	[within]='1\.010 +1\.010\.\.1\.010 +2 +within ±3%'
	[within-spread]='1\.005 +0\.993\.\.1\.017 +3 +within ±3%'
	[undecided]='1\.020 +0\.795\.\.1\.308 +2 +undecided'
	[outside]='1\.110 +1\.085\.\.1\.135 +3 +outside ±3%'
	[bound]='0\.970 +0\.970\.\.0\.970 +2 +outside ±2%'
)

# a configuration per producer count, skipping those the benchmark refuses
stand_in "$TEST_TMP/ours" 'Summary: creates    2.000 ± 0.100k/s (  2.000k/prod), 1.35 kmallocs/create'
par_start "$TEST_TMP/p1.out" env BENCH="$TEST_TMP/ours" UPSTREAM="$TEST_TMP/ours" \
	"$SCRIPT" -n1 -p 1,2 -b lpm-trie-insert,count-global
par_start "$TEST_TMP/p2.out" env BENCH="$TEST_TMP/ours" UPSTREAM="$TEST_TMP/ours" \
	"$SCRIPT" -n1 -p 1,2 -b local-storage-cache-int-get,pb-custom
# a run with no rate, and a failing invocation (checked below)
par_start "$TEST_TMP/f1.out" env BENCH="$TEST_TMP/ours" UPSTREAM=/bin/true "$SCRIPT" -n1 -p1 -b count-local
stand_in "$TEST_TMP/bad" 'benchmark doesnt support consumer'
printf 'exit 3\n' >>"$TEST_TMP/bad"
par_start "$TEST_TMP/f2.out" env BENCH="$TEST_TMP/ours" UPSTREAM="$TEST_TMP/bad" "$SCRIPT" -n1 -p1 -b count-local

for b in "${KINDS[@]}"; do
	check_kind "$b"
done

for v in "${VERDICTS[@]}"; do
	par_wait "$TEST_TMP/v-$v.out"
	is "$?" 0 "verdict $v: exit 0"
	like "$TEST_TMP/v-$v.out" "^-p1 count-local +${WANT[$v]}\$" "verdict $v: the hand-worked ratio, interval and verdict"
done
like "$TEST_TMP/v-bound.out" ' bound ±2%$' "-t 2: the header names the bound"

par_wait "$TEST_TMP/p1.out"
is "$?" 0 "-p 1,2 -b lpm-trie-insert,count-global: exit 0"
is "$(grep -Ec '^-p1 lpm-trie-insert ' "$TEST_TMP/p1.out"):$(grep -Ec '^-p2 -a lpm-trie-insert ' "$TEST_TMP/p1.out")" 1:0 \
	"lpm-trie-insert at -p1 only (upstream allows one producer)"
is "$(grep -Ec '^-p1 count-global ' "$TEST_TMP/p1.out"):$(grep -Ec '^-p2 -a count-global ' "$TEST_TMP/p1.out")" 1:1 \
	"count-global at -p1, and at -p2 pinned (-a)"
is "$(grep -Ec '^-p' "$TEST_TMP/p1.out")" 3 "three rows in all"
par_wait "$TEST_TMP/p2.out"
is "$?" 0 "-p 1,2 -b local-storage-cache-int-get,pb-custom: exit 0"
is "$(grep -Ec '^-p1 local-storage-cache-int-get --nr_maps [0-9]+ ' "$TEST_TMP/p2.out"):$(grep -Ec '^-p2 -a local-storage-cache-int-get ' "$TEST_TMP/p2.out")" 2:0 \
	"local-storage-cache-int-get at -p1 only, one row per --nr_maps (upstream allows one producer)"
is "$(grep -Ec '^-p1 pb-custom -c1 --rb-sampled ' "$TEST_TMP/p2.out"):$(grep -Ec '^-p2 -a pb-custom -c1 --rb-sampled ' "$TEST_TMP/p2.out")" 1:1 \
	"pb-custom sampled at -p1 and at -p2 pinned, with its consumer"
is "$(grep -Ec '^-p1 pb-custom -c1 --rb-b2b ' "$TEST_TMP/p2.out"):$(grep -Ec '^-p2 -a pb-custom -c1 --rb-b2b ' "$TEST_TMP/p2.out")" 1:0 \
	"pb-custom back-to-back at -p1 only (one producer)"

# a run with no rate: its row says FAILED, stderr says why, exit 1
par_wait "$TEST_TMP/f1.out"
is "$?" 1 "an upstream that prints no rate: exit 1"
like "$TEST_TMP/f1.out" '^-p1 count-local +FAILED$' "its row says FAILED"
like "$TEST_TMP/f1.out.err" "no rate in upstream's output of -p1 count-local" "stderr says which output had no rate"

# a failing invocation: its status and output on stderr
par_wait "$TEST_TMP/f2.out"
is "$?" 1 "a failing upstream: exit 1"
like "$TEST_TMP/f2.out.err" 'upstream failed \(exit 3\): -w1 -d3 -p1 count-local \(output: benchmark doesnt support consumer' \
	"stderr names the invocation, its status and its output"

# -r: only the labels that match, with -b and -p
stand_in "$TEST_TMP/flat" 'Summary: hits 100.000 ± 0.001M/s (100.000M/prod)'
env BENCH="$TEST_TMP/flat" UPSTREAM="$TEST_TMP/flat" "$SCRIPT" -n1 -p 1,2 -b count-local,htab-mem \
	-r '^-p2 .*(count-local|overwrite --preallocated)$' >"$TEST_TMP/r.out" 2>&1
is "$?" 0 "-r: exit 0"
is "$(grep -E '^-p' "$TEST_TMP/r.out" | cut -c1-58 | sed 's/ *$//' | paste -sd'|')" \
	'-p2 -a count-local|-p2 -a htab-mem --use-case overwrite --preallocated' \
	"-r '^-p2 .*(count-local|overwrite --preallocated)\$' with -b and -p: the two rows it matches"

# an upstream bench that does not list a benchmark (-l): its row says so,
# and no invocation of either runs
listing=$TEST_TMP/listing
{
	printf '#!/bin/sh\necho x >>%s.calls\n' "$listing"
	# the stand-in's own code: expanded when it runs, not here
	cat <<'EOS'
if [ "$1" = -l ]; then
	printf 'Available benchmarks:\n- count-local\n'
	exit 0
fi
echo "Summary: hits 100.000 ± 0.001M/s (100.000M/prod)"
EOS
} >"$listing"
chmod +x "$listing"
env BENCH="$listing" UPSTREAM="$listing" "$SCRIPT" -n1 -p1 -b count-local,count-global >"$TEST_TMP/l.out" 2>&1
is "$?:$(wc -l <"$listing.calls")" 0:5 "an upstream without count-global: exit 0, -l and count-local's 4 invocations only"
like "$TEST_TMP/l.out" "^-p1 count-global +not in upstream's bench \\(its -l\\)\$" "count-global's row says upstream's bench has none"
like "$TEST_TMP/l.out" '^-p1 count-local +1\.000 ' "count-local measured"

# -T: a table built in chunks.  Ours' figures 101 101 100 100 | 102 102
# (a counter, as the verdicts' stand-ins): -n2 makes blocks 1 and 2 and a
# row from 2; -n3 then runs block 3 alone (two more calls of ours) and
# appends a row from 3; the same -n3 again runs nothing
seq_stand_in "$TEST_TMP/chunk" 101 101 100 100 102 102
tab=$TEST_TMP/chunks.tab
chunk() {	# chunk <blocks>: one run on the table; its stdout in chunk.out
	env BENCH="$TEST_TMP/chunk" UPSTREAM="$TEST_TMP/up100" "$SCRIPT" -n"$1" -p1 -b count-local \
		-T "$tab" >"$TEST_TMP/chunk.out" 2>"$TEST_TMP/chunk.err"
}
chunk 2
is "$?:$(cat "$TEST_TMP/chunk.n")" 0:4 "-T, -n2: exit 0, ours ran 4 times"
like "$tab" '^ours: .*/chunk \(sha256 [0-9a-f]{16}\)$' "the table's header names ours with its sha256"
like "$tab" '^-w1 -d3, each row from the blocks it says .*bound ±3%$' "and -w, -d and the bound"
is "$(grep -c $'^-p1 count-local\t[12]\t' "$tab.blocks")" 2 "both blocks kept in FILE.blocks"
chunk 3
is "$?:$(cat "$TEST_TMP/chunk.n")" 0:6 "-T, -n3 after -n2: exit 0, only block 3 ran (6 calls of ours in all)"
# blocks 1.01 1.00 1.02: logs 0.0099503 0 0.0198026, mean 0.0099176, sd
# 0.0099049, t(2) 4.303 x sd/sqrt(3) = 0.024607: 1.010 (0.985..1.035)
like "$TEST_TMP/chunk.out" '^-p1 count-local +1\.010 +0\.985\.\.1\.035 +3 +undecided$' \
	"the row from the 2 kept blocks and the new one: 1.010 (0.985..1.035) from 3"
is "$(grep -Ec '^-p1 count-local ' "$tab")" 2 "the table holds both rows, from 2 blocks and from 3"
chunk 3
is "$?:$(cat "$TEST_TMP/chunk.n")" 0:6 "the same -n3 again: exit 0, nothing ran"
like "$TEST_TMP/chunk.err" "in table '.*' already, from 3 blocks: -p1 count-local" "stderr says why"
is "$(grep -Ec '^-p1 count-local ' "$tab")" 2 "and no row was added"
env BENCH="$TEST_TMP/chunk" UPSTREAM="$TEST_TMP/up100" "$SCRIPT" -d2 -n3 -p1 -b count-local \
	-T "$tab" >"$TEST_TMP/chunk.out" 2>"$TEST_TMP/chunk.err"
is "$?:$(wc -l <"$TEST_TMP/chunk.err"):$(wc -c <"$TEST_TMP/chunk.out")" 2:1:0 \
	"a table of other settings (-d2 on a -d3 table): refused with exit 2, one line, no table"
like "$TEST_TMP/chunk.err" "table '.*' was measured with other binaries or settings" "the line says why"

# -S 1: no block fits: exit 3 before any invocation
env BENCH="$TEST_TMP/chunk" UPSTREAM="$TEST_TMP/up100" "$SCRIPT" -n1 -S 1 -p1 -b count-global \
	>"$TEST_TMP/s1.out" 2>"$TEST_TMP/s1.err"
is "$?:$(cat "$TEST_TMP/chunk.n")" 3:6 "-S 1: exit 3, nothing ran"
like "$TEST_TMP/s1.err" 'stopped at the -S budget \(1 s\): -p1 count-global has 0 of 1 blocks$' "stderr says where it stopped"

# -S 17 (started first): some blocks, not all five, and the same command
# without -S goes on from there
par_wait "$TEST_TMP/budget.out"
is "$?" 3 "-S 17: exit 3"
k=$(grep -c $'^-p1 count-local\t[0-9]' "$TEST_TMP/budget.tab.blocks")
ok "$( [ "$k" -ge 1 ] && [ "$k" -le 4 ]; echo $?)" "-S 17 kept between 1 and 4 of 5 blocks ($k)"
like "$TEST_TMP/budget.out.err" "stopped at the -S budget \(17 s\): -p1 count-local has $k of 5 blocks; the same command goes on from there" \
	"stderr says how many blocks it has"
is "$(grep -Ec '^-p1 count-local' "$TEST_TMP/budget.out")" 0 "no row from an unfinished configuration"
env BENCH="$sleepy" UPSTREAM="$sleepy" "$SCRIPT" -w1 -d1 -n5 -p1 -b count-local -T "$TEST_TMP/budget.tab" \
	>"$TEST_TMP/budget2.out" 2>&1
is "$?:$(wc -l <"$sleepy.calls")" "0:22" \
	"the same command without -S: exit 0, 20 invocations in all (the missing blocks only), and -l once a run"
like "$TEST_TMP/budget2.out" '^-p1 count-local +1\.000 +1\.000\.\.1\.000 +5 +within ±3%$' "its row from all 5 blocks"

# the real block started first
par_wait "$TEST_TMP/real.out"
is "$?" 0 "ours against itself, -w0 -d1 -n1: exit 0"
diag "$(cat "$TEST_TMP/real.out")"
like "$TEST_TMP/real.out" '^-w0 -d1, 1 blocks a configuration .*, 95% intervals, bound ±3%$' "the header gives -w, -d, the blocks and the bound"
like "$TEST_TMP/real.out" '^load before: [0-9.]+ [0-9.]+ [0-9.]+$' "the load before"
like "$TEST_TMP/real.out" '^load after: [0-9.]+ [0-9.]+ [0-9.]+$' "the load after"
like "$TEST_TMP/real.out" '^configuration +ours/upstream +95% interval +blocks +verdict$' "the column heads"
like "$TEST_TMP/real.out" '^-p1 count-local +[0-9]+\.[0-9]{3} +none \(1 block\) +1 +undecided$' \
	"one block: the ratio, no interval, undecided"
is "$(find "$TEST_TMP/keep" -name 'block1-*.out' | wc -l)" 4 "-o kept the block's four outputs"
is "$(find "$TEST_TMP/keep" -name 'block1-[14]-ours.out' | wc -l):$(find "$TEST_TMP/keep" -name 'block1-[23]-upstream.out' | wc -l)" 2:2 \
	"block 1 ran A B B A"

done_testing
