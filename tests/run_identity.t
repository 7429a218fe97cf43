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

done_testing
