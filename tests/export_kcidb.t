#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench export kcidb: every report it writes is checked against KCIDB's
# I/O schema 5.3 (vendored in tests/kcidb/) with a Draft-07 validator, on
# real count-local and count-global results (no BPF needed; the BPF tests
# export their benchmarks' runs), with the runs' own figures in the
# numbers scaled from every unit, stable ids, FAIL and SKIP tests without
# numbers, a run that ended without a result (--failed), and refusals
# that write nothing.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_kcidb_validator

cd "$TEST_TMP" || exit 1

# valid <report> <description>: the report is validated with the others
# by valid_all, at the end.  Python, jsonschema and the schema's check take
# half a second a start, most of this file's time at one start a report;
# the validator takes many reports and says valid or not of each
VALID_REPORTS=() VALID_WHAT=()
valid() {
	VALID_REPORTS+=("$1")
	VALID_WHAT+=("$2")
}

# valid_all: one check per report valid named, in order: its line from the
# validator says valid (an invalid report gets lines saying what is wrong
# instead, an unreadable one makes the validator stop: no line for it)
valid_all() {
	local i r rc=0

	"$KCIDB_VALIDATE" "$KCIDB_SCHEMA" "${VALID_REPORTS[@]}" >all.verdict 2>&1 || rc=$?
	for i in "${!VALID_REPORTS[@]}"; do
		r=${VALID_REPORTS[$i]}
		grep -qxF -- "$r: valid" all.verdict
		ok $? "${VALID_WHAT[$i]}: the validator says valid"
		[ "$TAP_LAST_FAILED" -eq 0 ] ||
			diag "$(awk -v r="$r: " 'index($0, r) == 1' all.verdict | head -20)
(the validator: exit $rc, its last line: $(tail -1 all.verdict))"
	done
}

# the two runs are independent: side by side (lib.sh, par_start)
par_start a.out "$BENCH" -q -w0 -d2 --json a.json count-local
par_start g.out "$BENCH" -q -w0 -d2 -p2 --json g.json count-global
par_wait a.out
ok $? "count-local --json: exit 0"
par_wait g.out
ok $? "count-global -p2 --json: exit 0"

is_exit 0 "export kcidb of one run: exit 0" "$BENCH" export kcidb --origin bench_test a.json
cp "$TEST_TMP/is_exit.out" one.kcidb
is "$(grep -c . "$TEST_TMP/is_exit.err")" 0 "export kcidb: nothing on stderr"
valid one.kcidb "one count-local run"
is "$(jq -c '.version' one.kcidb)" '{"major":5,"minor":3}' "the report says schema 5.3"
is "$(jq '.checkouts | length' one.kcidb) $(jq '.builds | length' one.kcidb)" "1 1" "one checkout, one build"
is "$(jq -r '.checkouts[0].comment' one.kcidb)" "$(jq -r '.context.kernel_release' a.json)" \
	"the checkout is the kernel release the run ran on"
is "$(jq -r '.builds[0].architecture' one.kcidb)" "$(jq -r '.context.machine' a.json)" \
	"the build's architecture is the run's machine"
# one test per summary metric and one for the peak memory
is "$(jq -r '[.tests[].path] | join(" ")' one.kcidb)" \
	"$(jq -r '[.summary.metrics | keys_unsorted[] | "bpf.bench.count-local.default." + .] + ["bpf.bench.count-local.default.peak_memory"] | join(" ")' a.json)" \
	"paths bpf.bench.BENCHMARK.CONFIGURATION.METRIC, one per metric and the peak"
is "$(jq -r '[.tests[] | select(.path | endswith(".hits")) | .status, .number.unit, .number.prefix] | join(" ")' one.kcidb)" \
	"DONE op/s metric" "hits: DONE, op/s with metric prefixes"
# the number is the run's mean, in the unit's base: M/s times 1e6
is "$(jq '[.tests[] | select(.path | endswith(".hits")) | .number.value] | .[0]' one.kcidb)" \
	"$(jq '.summary.metrics.hits.mean * 1000000' a.json)" "hits: the number is the summary's mean, scaled from M/s"
is "$(jq '[.tests[] | select(.path | endswith(".hits")) | .misc.statistics.n, .misc.statistics.stddev] | map(tostring) | join(" ")' one.kcidb)" \
	"\"$(jq '[.summary.metrics.hits.n, .summary.metrics.hits.stddev] | map(tostring) | join(" ")' a.json | tr -d '"')\"" \
	"hits: the per-sample statistics under misc"
is "$(jq -r '.tests[0].environment.misc.command_line' one.kcidb)" "$(jq -r '.context.command_line | join(" ")' a.json)" \
	"the command line under environment.misc"
is "$(jq -r '.tests[0].environment.misc.nr_online_cpus' one.kcidb)" "$(jq -r '.context.nr_online_cpus' a.json)" \
	"the CPUs under environment.misc"
# count-local measures no memory: the peak is a SKIP, without a number
is "$(jq -r '[.tests[] | select(.path | endswith(".peak_memory")) | .status, (.number // "none")] | join(" ")' one.kcidb)" \
	"SKIP none" "a peak memory the run did not measure: SKIP, no number"
is "$(jq '[.tests[] | select(.status == "DONE" and .number == null)] | length' one.kcidb)" 0 \
	"every DONE test has a number"
is "$(jq -r '[.tests[].id | startswith("bench_test:")] | all' one.kcidb)" true "test ids are ORIGIN:..."
is "$(jq '[.tests[] | select(.build_id != $b)] | length' --arg b "$(jq -r '.builds[0].id' one.kcidb)" one.kcidb)" 0 \
	"every test belongs to the build"

# stable ids: the same content, exported again or under another name
"$BENCH" export kcidb --origin bench_test a.json >again.kcidb 2>/dev/null
assert "exported twice: byte-identical reports" cmp -s one.kcidb again.kcidb
cp a.json copy.json
"$BENCH" export kcidb --origin bench_test copy.json >copy.kcidb 2>/dev/null
is "$(jq -c '[.tests[].id]' copy.kcidb)" "$(jq -c '[.tests[].id]' one.kcidb)" "a copy under another name: the same ids"
"$BENCH" export kcidb --origin other_ci a.json >other.kcidb 2>/dev/null
is "$(jq -r '.tests[0].id | sub("^other_ci:"; "bench_test:")' other.kcidb)" "$(jq -r '.tests[0].id' one.kcidb)" \
	"another origin: the same hash under its own prefix"

# two runs, one checkout and build, distinct tests
is_exit 0 "export kcidb of two runs: exit 0" "$BENCH" export kcidb --origin bench_test a.json g.json
cp "$TEST_TMP/is_exit.out" two.kcidb
valid two.kcidb "two runs"
is "$(jq '.tests | length' two.kcidb)" "$(($(jq '.tests | length' one.kcidb) * 2))" "two runs: twice the tests"
is "$(jq '[.tests[].id] | unique | length' two.kcidb)" "$(jq '.tests | length' two.kcidb)" "two runs: every test id distinct"
is "$(jq -r '.checkouts[0].id' two.kcidb)" "$(jq -r '.checkouts[0].id' one.kcidb)" "two runs: the same checkout id as one"

# --git-commit, --git-url, --config
commit=0123456789abcdef0123456789abcdef01234567
is_exit 0 "--git-commit --git-url --config: exit 0" "$BENCH" export kcidb --origin bench_test \
	--git-commit $commit --git-url https://git.kernel.org/pub/scm/linux/kernel/git/bpf/bpf-next.git \
	--config defconfig a.json
cp "$TEST_TMP/is_exit.out" git.kcidb
valid git.kcidb "with a commit, a repository and a config"
is "$(jq -r '.checkouts[0].git_commit_hash, .builds[0].config_name' git.kcidb | tr '\n' ' ')" "$commit defconfig " \
	"the commit in the checkout, the config in the build"
isnt "$(jq -r '.checkouts[0].id' git.kcidb)" "$(jq -r '.checkouts[0].id' one.kcidb)" \
	"another commit: another checkout id"

# -o FILE: written whole, nothing on stdout
is_exit 0 "-o FILE: exit 0" "$BENCH" export kcidb --origin bench_test -o out.kcidb a.json
is "$(wc -c <"$TEST_TMP/is_exit.out")" 0 "-o FILE: nothing on stdout"
assert "-o FILE: the same report as on stdout" cmp -s out.kcidb one.kcidb

# a run whose map operations failed: FAIL tests, never a number
jq '.samples[-1].counters.fails = 3 | .summary.fails = 3' a.json >failed.json
is_exit 0 "a run with failed operations: exit 0" "$BENCH" export kcidb --origin bench_test failed.json
cp "$TEST_TMP/is_exit.out" failed.kcidb
valid failed.kcidb "a run with failed operations"
is "$(jq -r '[.tests[].status] | unique | join(" ")' failed.kcidb)" "FAIL" "failed operations: every test FAIL"
is "$(jq '[.tests[] | select(.number)] | length' failed.kcidb)" 0 "failed operations: no number at all"
like failed.kcidb '3 map operations failed' "failed operations: the comment says how many"

# every unit scaled to its base: lpm-trie-free's K/s is thousands of op/s
# (4.69 K/s is 4690 op/s, not 4.69), local-storage-create's ratio as it is
for u in "K/s 1000 op/s" "k/s 1000 op/s" "M/s 1000000 op/s" "1/s 1 1/s" "ms 0.001 s" "ns 0.000000001 s" \
	"MiB 1048576 B" "kmallocs/create 1 kmallocs/create"; do
	read -r unit scale base <<<"$u"
	jq --arg u "$unit" '.summary.metrics.hits.unit = $u' a.json >unit.json
	"$BENCH" export kcidb --origin bench_test unit.json >unit.kcidb 2>&1
	is "$(jq -r '.tests[0].number | "\(.unit) \(.prefix != null)"' unit.kcidb) $(jq '.tests[0].number.value' unit.kcidb)" \
		"$base true $(jq --argjson s "$scale" '.summary.metrics.hits.mean * $s' a.json)" \
		"a mean in $unit: the number in $base, scaled by $scale, with a prefix"
done

# a run that ended without a result (bench exited non-zero): one test at
# the benchmark's node, ERROR (or --failed-status FAIL) with the reason
reason="failed to load htab-mem's BPF program: Operation not permitted"
is_exit 0 "--failed alone: exit 0" "$BENCH" export kcidb --origin bench_test --failed htab-mem --reason "$reason"
cp "$TEST_TMP/is_exit.out" failed_alone.kcidb
valid failed_alone.kcidb "a failed run alone"
is "$(jq -r '.tests | length, (.[0] | .path, .status, .misc.reason, (.number // "none"))' failed_alone.kcidb | tr '\n' '|')" \
	"1|bpf.bench.htab-mem|ERROR|$reason|none|" "--failed alone: one ERROR test with its reason, no number"
like failed_alone.kcidb "htab-mem: the run ended without a result: $reason" "--failed: the comment says why"
is "$(jq -r '.checkouts[0].comment, .builds[0].architecture' failed_alone.kcidb | tr '\n' ' ')" "$(uname -r) $(uname -m) " \
	"--failed alone: the checkout and build are this machine's running kernel"
is "$(jq -r '.checkouts[0].id' failed_alone.kcidb)" "$(jq -r '.checkouts[0].id' one.kcidb)" \
	"--failed alone: the same checkout id as a run on this kernel"
is_exit 0 "--failed with a result file and FAIL: exit 0" "$BENCH" export kcidb --origin bench_test a.json \
	--failed bpf_ma --reason "bpf_ma: 3 objects allocated but never freed" --failed-status FAIL
cp "$TEST_TMP/is_exit.out" failed_with.kcidb
valid failed_with.kcidb "a failed run with a run's results"
is "$(jq '.tests | length' failed_with.kcidb)" "$(($(jq '.tests | length' one.kcidb) + 1))" "--failed with a result: its tests and one more"
is "$(jq -r '.tests[-1] | .path, .status, .build_id == $b' --arg b "$(jq -r '.builds[0].id' one.kcidb)" failed_with.kcidb | tr '\n' ' ')" \
	"bpf.bench.bpf_ma FAIL true " "--failed-status FAIL: the failed run's test, FAIL, on the results' build"

# a run marked invalid (its producers starved): ERROR tests with the reason, no number
jq '.validity = {"valid": false, "reason": "producers starved: 1 of 1 ran less than 80% of their measured time (#0 13.0%)",
	"min_cpu_share": 0.8, "prod_cpu_share": [0.13]}' a.json >invalid.json
is_exit 0 "an invalid run: exit 0" "$BENCH" export kcidb --origin bench_test invalid.json
cp "$TEST_TMP/is_exit.out" invalid.kcidb
valid invalid.kcidb "an invalid run"
is "$(jq -r '[.tests[].status] | unique | join(" ")' invalid.kcidb) $(jq '[.tests[] | select(.number)] | length' invalid.kcidb)" \
	"ERROR 0" "an invalid run: every test ERROR, no number"
like invalid.kcidb 'hits: invalid run, no figure of the kernel: producers starved' "an invalid run: the comment says why"

# refusals: exit 2, one line naming the bad value, nothing written
echo '{"not": "a result"}' >bad.json
jq '.summary.metrics.hits.mean = 1' a.json >edited.json
jq '.context.kernel_release = "6.1.0-57-amd64"' a.json >other_kernel.json
echo previous >keep.kcidb
refused() {	# refused <description> <stderr regex> <args...>
	local what=$1 want=$2 rc=0
	shift 2
	"$BENCH" export kcidb "$@" >refused.out 2>refused.err || rc=$?
	is "exit $rc, $(grep -c . refused.err) line(s)" "exit 2, 1 line(s)" "$what: exit 2, one line"
	is "$(wc -c <refused.out)" 0 "$what: nothing on stdout"
	like refused.err "$want" "$what: $(head -1 refused.err)"
	"$BENCH" export kcidb "$@" -o keep.kcidb >/dev/null 2>&1
	is "$(cat keep.kcidb)" previous "$what: an -o file is left as it was"
}
refused "no --origin" 'needs --origin NAME' a.json
refused "an origin KCIDB refuses" "invalid --origin 'Bench-CI'" --origin Bench-CI a.json
refused "a short commit hash" "invalid --git-commit 'abc123'" --origin o --git-commit abc123 a.json
refused "a git URL that is not https" "invalid --git-url 'git://x/y.git'" --origin o --git-url git://x/y.git a.json
refused "no result file" 'needs result files \(bench --json FILE\) or --failed' --origin o
refused "--failed without --reason" '--failed and --reason go together' --origin o --failed htab-mem
refused "--reason without --failed" '--failed and --reason go together' --origin o --reason x a.json
refused "--failed-status without --failed" '--failed-status needs --failed' --origin o --failed-status FAIL a.json
refused "a status KCIDB has but a failed run cannot" "invalid --failed-status 'PASS': expected ERROR or FAIL" \
	--origin o --failed x --reason y --failed-status PASS
refused "--failed with a path" "invalid --failed 'a.b': expected a benchmark name" --origin o --failed a.b --reason y
refused "not a result" 'bad.json: schema: .*not a bench result' --origin o bad.json
refused "an edited result" 'edited.json: summary.metrics.hits.mean: .*edited or corrupted' --origin o edited.json
refused "a missing file" 'failed to read missing.json' --origin o missing.json
refused "runs of two kernels" 'one report is one checkout' --origin o a.json other_kernel.json

# the kernel build: the run's start in every test, the build in misc, a
# checkout per build (a base and a patched kernel of one release)
is "$(jq -r '[.tests[].start_time] | unique | join(" ")' one.kcidb)" "$(jq -r .context.start_time a.json)" \
	"every test's start_time is the run's context.start_time"
is "$(jq -r '.builds[0].misc.kernel_version' one.kcidb)" "$(jq -r .context.kernel_version a.json)" \
	"the build's misc carries uname -v"
jq '.context.kernel_build_id = "0123456789abcdef0123456789abcdef01234567" | .context.tag = "patched"' \
	a.json >patched.json
is_exit 0 "export of the patched build: exit 0" "$BENCH" export kcidb --origin bench_test patched.json
cp "$TEST_TMP/is_exit.out" patched.kcidb
valid patched.kcidb "a run with a build id and a tag"
isnt "$(jq -r '.checkouts[0].id' patched.kcidb)" "$(jq -r '.checkouts[0].id' one.kcidb)" \
	"another build of one release: another checkout id"
isnt "$(jq -r '.builds[0].id' patched.kcidb)" "$(jq -r '.builds[0].id' one.kcidb)" "... and another build id"
is "$(jq -r '.builds[0].misc | .kernel_build_id + " " + .tag' patched.kcidb)" \
	"0123456789abcdef0123456789abcdef01234567 patched" "the build's misc: build id and tag"
refused "runs of two builds of one release" 'on build 0123456789ab: one report is one checkout' \
	--origin o a.json patched.json
is_exit 2 "an unwritable -o: exit 2" "$BENCH" export kcidb --origin o -o nodir/x.kcidb a.json
assert "an unwritable -o: nothing created" test ! -e nodir
is_exit 2 "export without a format: exit 2" "$BENCH" export
is_exit 2 "export to an unknown format: exit 2" "$BENCH" export lava a.json
like "$TEST_TMP/is_exit.err" "'lava' is not one; accepted: kcidb" "an unknown format: named, with what is accepted"
is_exit 0 "export kcidb --help: exit 0" "$BENCH" export kcidb --help

# every report named to valid above, in one start of the validator
valid_all

# the validator itself must fail a broken report, naming what is wrong
jq 'del(.tests[0].build_id) | .tests[1].status = "BOGUS" | .tests[2].number.value = "fast"' one.kcidb >broken.kcidb
rc=0
"$KCIDB_VALIDATE" "$KCIDB_SCHEMA" broken.kcidb >broken.verdict 2>&1 || rc=$?
is "$rc" 1 "a deliberately broken report: the validator exits 1"
like broken.verdict "tests/0: 'build_id' is a required property" "broken: the missing build_id is named"
like broken.verdict "tests/1/status: 'BOGUS' is not one of" "broken: the bad status is named"
like broken.verdict "tests/2/number/value: 'fast' is not of type 'number'" "broken: the bad number is named"

done_testing
