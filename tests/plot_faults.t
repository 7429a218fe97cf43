#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench plot and its gnuplot under faults: a locale gnuplot cannot write
# the scripts' UTF-8 in (C, POSIX, LANG unset: cron, env -i, CI
# containers), a gnuplot that warns, fails or hangs (stand-ins first in
# PATH).  No BPF: a count-local run.

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
command -v gnuplot >/dev/null || {
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - gnuplot not installed (install-deps.sh installs it)"; exit 1; }
	skip_all "gnuplot not installed (scripts/install-deps.sh installs it)"
}
cd "$TEST_TMP" || exit 1
GNUPLOT=$(command -v gnuplot)

"$BENCH" -q -w0 -d2 --min-cpu-share 0 --json a.json count-local >/dev/null 2>&1
is $? 0 "a result file to draw"

# ---- the locale: every picture, under C, POSIX and none ----
for loc in C POSIX unset; do
	envs=(env -u LANG -u LANGUAGE -u LC_ALL -u LC_CTYPE)
	[ "$loc" = unset ] || envs+=("LC_ALL=$loc")
	for out in t.svg t.png t.txt; do
		"${envs[@]}" "$BENCH" plot timeline -o "$loc-$out" a.json 2>"$loc-$out.err"
		is $? 0 "LC_ALL $loc: plot timeline -o $out: exit 0"
		assert "LC_ALL $loc: $out drawn" test -s "$loc-$out"
		assert "LC_ALL $loc: $out: nothing said" stderr_clean "$loc-$out.err"
	done
done
env -i PATH="$PATH" "$BENCH" plot timeline --text -o - a.json >text.out 2>text.err
is $? 0 "env -i: plot timeline --text: exit 0"
like text.out 'hits per second' "env -i: the chart, on stdout"

# ---- gnuplot stand-ins ----
mkdir warn fail hang
printf '#!/bin/sh\necho "line 0: warning: a warning of the stand-in" >&2\nexec %s "$@"\n' "$GNUPLOT" >warn/gnuplot
printf '#!/bin/sh\necho "line 3: the stand-in fails" >&2\nexit 1\n' >fail/gnuplot
printf '#!/bin/sh\nexec sleep 300.%s\n' "$$" >hang/gnuplot
chmod +x warn/gnuplot fail/gnuplot hang/gnuplot

PATH="$TEST_TMP/warn:$PATH" "$BENCH" plot timeline -o w.svg a.json 2>w.err
is $? 0 "a gnuplot that warns and draws: exit 0"
assert "its picture is written" test -s w.svg
is "$(cat w.err)" "gnuplot: line 0: warning: a warning of the stand-in" "its warning is shown, saying whose"

PATH="$TEST_TMP/fail:$PATH" "$BENCH" plot timeline -o f.svg a.json 2>f.err
is $? 1 "a gnuplot that fails: exit 1"
is "$(cat f.err)" "gnuplot failed (exit 1): line 3: the stand-in fails" "its failure is said"
assert "nothing written" test ! -e f.svg

start=$SECONDS
PATH="$TEST_TMP/hang:$PATH" BENCH_GNUPLOT_TIMEOUT=1 timeout -k 5 60 "$BENCH" plot timeline -o h.svg a.json 2>h.err
is $? 1 "a gnuplot that hangs: exit 1 after BENCH_GNUPLOT_TIMEOUT, not the watchdog's"
cmp_ok "$((SECONDS - start))" -le 10 "it did not wait for the hung gnuplot"
is "$(cat h.err)" "gnuplot did not finish within 1 s (BENCH_GNUPLOT_TIMEOUT): killed" "it says so"
is "$(pgrep -fc "sleep 300\\.$$")" 0 "the hung gnuplot is gone"
assert "nothing written" test ! -e h.svg

BENCH_GNUPLOT_TIMEOUT=0 "$BENCH" plot timeline -o z.svg a.json 2>z.err
is $? 2 "BENCH_GNUPLOT_TIMEOUT=0: bad input, exit 2"
is "$(cat z.err)" "invalid BENCH_GNUPLOT_TIMEOUT '0': expected seconds in 1..86400" "it says what is accepted"

done_testing
