#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench compare --markdown BASE... -- NEW...: the before/after table of a
# patch mail, one row per configuration, the header line naming the
# kernels, -p and the CPUs, warnings on stderr.  count-local runs, given a
# second configuration and a second kernel build by jq (no BPF).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP" || exit 1
export LC_ALL=C

# two invocations, independent of each other: side by side (lib.sh, par_start)
for i in 1 2; do
	par_start "a$i.out" "$BENCH" -q -w0 -d2 --min-cpu-share 0 --tag base --json "a$i.json" count-local
done
for i in 1 2; do
	par_wait "a$i.out"
	ok $? "count-local run $i: exit 0"
done
# the same runs as another configuration, and as a patched build
for i in 1 2; do
	jq '.options.runner.producers = 2 | .context.producer_cpus = [null, null]
		| .validity.prod_cpu_share = [.validity.prod_cpu_share[0], .validity.prod_cpu_share[0]]' \
		"a$i.json" >"c$i.json"
	for f in a c; do
		jq '.context.kernel_build_id = "0123456789abcdef0123456789abcdef01234567" | .context.tag = "patched"' \
			"$f$i.json" >"n$f$i.json"
	done
done
is_exit 0 "compare --markdown of two configurations a side: exit 0" \
	"$BENCH" compare --markdown a1.json a2.json c1.json c2.json -- na1.json na2.json nc1.json nc2.json
out=$TEST_TMP/is_exit.out
# the header is a paragraph, wrapped within 120 columns: read it joined
like <(sed -n '1,/^$/p' "$out" | tr '\n' ' ') '^Kernel: [^ ]+ build [^ ]+ \(base\) -> [^ ]+ build 0123456789ab \(patched\); count-local -p1\.\.2; [0-9]+ CPUs' \
	"the header: both kernels with build and tag, the benchmark of every row, -p, the CPUs"
cmp_ok "$(LC_ALL=C.UTF-8 wc -L <"$out")" -le 120 "every line within 120 columns"
like "$out" '^\| configuration \| before \| after \| change \[95% CI\] \| verdict \| memory \(MiB\) \| peak \(MiB\) \| runs \|$' \
	"the columns"
is "$(grep -c '^| \(default\|producers=2\) ' "$out")" 2 "one row per configuration"
like "$out" '^\| default \| [0-9.]+ ± [0-9.]+ \| [0-9.]+ ± [0-9.]+ \| \+0\.00% \[-[0-9.]+, \+[0-9.]+\]% \| (within ±2%|undecided\*) \| - \| - \| 2/2 \|$' \
	"a row: the rate with its ± before and after, the change and its interval, no memory where none was measured"
like <(sed -n '/^before, after: /,/^$/p' "$out" | tr '\n' ' ') '^before, after: the rate, hits \(M/s\) ' \
	"the rate's metric and unit are named under the table"
if grep -q 'undecided\*' "$out"; then
	like "$out" '^\\\* count-local default: undecided: 2 runs a side resolve only changes above [0-9.]+%' \
		"an undecided row's reason is under the table"
fi
like "$out" '^\| producers=2 \| [0-9.]' "the second configuration is named for what differs"
is "$(grep -c . "$TEST_TMP/is_exit.err")" "$(grep -c '^warning\|^note\|^compare' "$TEST_TMP/is_exit.err")" \
	"stderr holds only notes and warnings"
is "$(grep -c '^warning\|^note' "$out")" 0 "no warning in the table"

# a run's noise warning: on stderr, naming the row and the file
jq '.warnings = ["per-second rates vary: the result is noisy"]' na1.json >nw1.json
is_exit 0 "compare --markdown with a noisy new run: exit 0" \
	"$BENCH" compare --markdown a1.json a2.json -- nw1.json na2.json
like "$TEST_TMP/is_exit.err" '^warning: nw1\.json \(new\) was noisy: per-second rates vary: the result is noisy$' \
	"the warning names its file, once"
is "$(grep -c 'noisy' "$TEST_TMP/is_exit.out")" 0 "... and stays out of the table"

# a configuration with no run on the new side: left out, said on stderr
is_exit 0 "a configuration only on the base side: exit 0" \
	"$BENCH" compare --markdown a1.json a2.json c1.json -- na1.json na2.json
like "$TEST_TMP/is_exit.err" 'count-local producers=2: no new run of this configuration: left out of the table' \
	"the configuration without new runs is named"
is_exit 2 "no configuration on both sides: exit 2" "$BENCH" compare --markdown c1.json -- na1.json

done_testing
