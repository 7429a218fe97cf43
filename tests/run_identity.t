#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Which kernel build ran, and when: a result file's identity fields
# (context.kernel_version, kernel_build_id, kernel_cmdline, start_time,
# end_time, tag) against what the machine says, read here another way
# (uname, perl on /sys/kernel/notes, /proc/cmdline, the clock); --tag's
# refusals; a file written before these fields still loads.  count-local
# only: no BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cd "$TEST_TMP" || exit 1
export LC_ALL=C

before=$(date -u +%Y-%m-%dT%H:%M:%SZ)
run_bench r.out -q -w0 -d1 --tag "base 1a2b" --json r.json count-local
ok $? "count-local --tag --json: exit 0"
after=$(date -u +%Y-%m-%dT%H:%M:%SZ)
schema_ok r.json "the document validates"
ctx() { jq -r ".context.$1 // \"null\"" r.json; }

is "$(ctx kernel_release)" "$(uname -r)" "kernel_release is uname -r"
is "$(ctx kernel_version)" "$(uname -v)" "kernel_version is uname -v"
# the GNU build id note (name "GNU", type 3) of /sys/kernel/notes, parsed by perl
want=null
if [ -r /sys/kernel/notes ]; then
	want=$(perl -e '
		local $/; open(my $f, "<", "/sys/kernel/notes") or exit 1; my $d = <$f>;
		my $o = 0;
		while ($o + 12 <= length($d)) {
			my ($n, $s, $t) = unpack("L3", substr($d, $o, 12));
			my $name = substr($d, $o + 12, $n);
			my $desc = substr($d, $o + 12 + (($n + 3) & ~3), $s);
			if ($t == 3 && $name eq "GNU\0") { print unpack("H*", $desc); exit 0; }
			$o += 12 + (($n + 3) & ~3) + (($s + 3) & ~3);
		}
		print "null";')
fi
is "$(ctx kernel_build_id)" "$want" "kernel_build_id is the notes' GNU build id ($want)"
is "$(ctx kernel_cmdline)" "$(cat /proc/cmdline)" "kernel_cmdline is /proc/cmdline"
is "$(ctx tag)" "base 1a2b" "tag is --tag's text"
start=$(ctx start_time) end=$(ctx end_time)
ok "$([[ ! "$start" < "$before" && ! "$end" > "$after" && ! "$start" > "$end" ]]; echo $?)" \
	"start $start and end $end lie in order within the invocation ($before .. $after)"

run_bench n.out -q -w0 -d1 --json n.json count-local
ok $? "without --tag: exit 0"
is "$(jq -r '.context.tag' n.json)" "null" "without --tag: tag is null"

# --tag's refusals: one line naming the value, exit 64, no file
long=$(printf 'x%.0s' {1..129})
for bad in "" $'a\nb' $'a\tb' "$long" $'\xff\xfe'; do
	rm -f bad.json
	"$BENCH" -w0 -d1 --tag "$bad" --json bad.json count-local >bad.out 2>bad.err
	rc=$?
	is "$rc $(grep -c . bad.err) $([ -e bad.json ] && echo file || echo nofile)" "64 1 nofile" \
		"--tag '$(printf '%q' "$bad" | cut -c1-20)': exit 64, one line, no file"
	like bad.err "^invalid --tag '.*': expected 1\\.\\.128 bytes of UTF-8 text" "... naming what is accepted"
done
is_exit 0 "--tag of 128 bytes: accepted" "$BENCH" -q -w0 -d1 --tag "${long:1}" count-local

# a file written before the identity fields still loads everywhere
jq 'del(.context.kernel_version, .context.kernel_build_id, .context.kernel_cmdline,
	.context.start_time, .context.end_time, .context.tag)' r.json >old.json
is_exit 0 "compare of a file without identity fields against one with: exit 0" \
	"$BENCH" compare old.json r.json
is_exit 0 "bench config of it: exit 0" "$BENCH" config old.json

# two builds of one release: a copy of the run with another build id,
# uname -v and tag (a patched kernel that says the same uname -r), and one
# with no build id, only another uname -v
jq '.context.kernel_build_id = "0123456789abcdef0123456789abcdef01234567"
    | .context.kernel_version = "#2 SMP patched" | .context.tag = "patched"' r.json >p.json
jq '.context.kernel_build_id = null | .context.kernel_version = "#3 SMP other" | .context.tag = null' \
	r.json >v.json
DB=$TEST_TMP/h.db
is_exit 0 "history add of three builds of one release: exit 0" "$BENCH" history add --db "$DB" r.json p.json v.json
is_exit 0 "history list: exit 0" "$BENCH" history list --db "$DB"
like "$TEST_TMP/is_exit.out" '^ +id +kernel +build +tag +benchmark' "list: build and tag columns"
# this machine's build as tables show it: 12 digits of its id, else v: and uname -v's hash
short=$(jq -r '.context.kernel_build_id // empty | .[0:12]' r.json)
[ -n "$short" ] || short=v:$(printf '%s' "$(uname -v)" | sha256sum | cut -c1-8)
like "$TEST_TMP/is_exit.out" "^ +1 +[^ ]+ +$short +base 1a2b +count-local " "list: run 1's build id (12 digits) and tag"
like "$TEST_TMP/is_exit.out" '^ +2 +[^ ]+ +0123456789ab +patched +count-local ' "list: run 2's build and tag"
vshort=$(printf '%s' "#3 SMP other" | sha256sum | cut -c1-8)
like "$TEST_TMP/is_exit.out" "^ +3 +[^ ]+ +v:$vshort +- +count-local " "list: no build id: uname -v's hash, no tag"
like "$TEST_TMP/is_exit.out" "^note: kernel $(uname -r | sed 's/[.+]/\\&/g') ran as 3 different builds: " \
	"list: a note that one release ran as three builds"
is_exit 0 "history show: exit 0" "$BENCH" history show --db "$DB"
is "$(grep -c "^$(uname -r | sed 's/[.+]/\\&/g') " "$TEST_TMP/is_exit.out")" 3 "show: one line per build, not one per release"
like "$TEST_TMP/is_exit.out" ' 0123456789ab +patched +.* 1 +[0-9.]+ +- +[-+][0-9.]+% +(-|\[[^]]*\]%|unbounded) +2 +(better|worse|within|undecided)' \
	"show: the patched build's line, its tag, its change, interval and verdict"
like "$TEST_TMP/is_exit.out" '^note: kernel .* ran as 3 different builds: .*0123456789ab \(patched\)' "show: the note names builds and tags"
is_exit 0 "history list --build 0123: exit 0" "$BENCH" history list --db "$DB" --build 0123
is "$(awk 'NR > 1 && /^ +[0-9]/ { print $1 }' "$TEST_TMP/is_exit.out" | tr '\n' ' ')" "2 " "--build PREFIX selects that build"
is_exit 0 "history list --build v:$vshort: exit 0" "$BENCH" history list --db "$DB" --build "v:$vshort"
is "$(awk 'NR > 1 && /^ +[0-9]/ { print $1 }' "$TEST_TMP/is_exit.out" | tr '\n' ' ')" "3 " "--build v:HASH selects the uname -v build"
is_exit 0 "history list --tag 'base 1a2b': exit 0" "$BENCH" history list --db "$DB" --tag "base 1a2b"
is "$(awk 'NR > 1 && /^ +[0-9]/ { print $1 }' "$TEST_TMP/is_exit.out" | tr '\n' ' ')" "1 " "--tag selects by tag"

# compare says when the sides ran different builds of one release
is_exit 0 "compare of two builds: exit 0" "$BENCH" compare --verbose r.json p.json
like "$TEST_TMP/is_exit.out" "^note: base and new ran different builds of kernel $(uname -r | sed 's/[.+]/\\&/g'): $short \(tag base 1a2b\) vs 0123456789ab \(tag patched\)$" \
	"compare: the note names both builds and tags"
jq '.context.tag = "patched"' r.json >rt.json
is_exit 0 "compare of one build under two tags: exit 0" "$BENCH" compare --verbose r.json rt.json
like "$TEST_TMP/is_exit.out" '^note: base and new are tagged differently but ran the same build' "compare: same build, different tags: said"
is_exit 0 "compare of a side mixing builds: exit 0" "$BENCH" compare r.json p.json -- n.json rt.json
like "$TEST_TMP/is_exit.out" '^warning: the base side mixes kernel builds: ' "compare: a side of two builds: warned"
is_exit 0 "compare of a file without identity fields: exit 0" "$BENCH" compare old.json old.json
is "$(grep -c 'build' "$TEST_TMP/is_exit.out")" 0 "compare: no build note when the files do not record one"

done_testing
