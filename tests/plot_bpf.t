#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench plot timeline with a memory axis: htab-mem runs of both flavours
# (run under the BPF lock), in every format.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_bpf
require_plot_tools

T=$TEST_TMP
run_bench "$T/ma" -q -w1 -d2 -p2 -a --json "$T/ma.json" htab-mem --use-case overwrite
is $? 0 "htab-mem overwrite --json: exit 0"
run_bench "$T/pa" -q -w1 -d2 -p2 -a --json "$T/pa.json" htab-mem --use-case overwrite --preallocated
is $? 0 "htab-mem overwrite --preallocated --json: exit 0"
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

done_testing
