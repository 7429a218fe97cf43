#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install under DESTDIR and PREFIX: the binary, every script of
# benchs/ (which run the installed binary) and the vmtest.sh that
# run_kernel_ab.sh boots with, none of them writing into the installed
# tree, the manual pages and the bash completion, whose names all come from
# the bench being completed: every benchmark bench -l lists, every command,
# each command's own commands and options.  No BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
ROOT=$SRC_TOP
OUT=${OUTPUT:-$ROOT/.output}
command -v help2man >/dev/null || {
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - help2man not installed (install-deps.sh installs it)"; exit 1; }
	skip_all "help2man not installed (scripts/install-deps.sh installs it)"
}

# install <destdir> <make args...>
install_to() {
	local dest=$1
	shift
	make -s -C "$ROOT" OUTPUT="$OUT" BENCH_BIN="$BENCH" DESTDIR="$dest" "$@" install \
		>"$TEST_TMP/make" 2>&1
}

D=$TEST_TMP/root
install_to "$D" PREFIX=/usr
is $? 0 "make install DESTDIR=... PREFIX=/usr: exit 0"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(tail -20 "$TEST_TMP/make")"
assert "bin/bench, executable" test -x "$D/usr/bin/bench"
assert "bin/bench is the binary built" cmp -s "$D/usr/bin/bench" "$BENCH"
mapfile -t CMDS < <("$BENCH" --help | sed -n '/^COMMANDS:$/,/^$/s/^    \([a-z][a-z0-9-]*\) .*/\1/p')
for p in bench "${CMDS[@]/#/bench-}"; do
	assert "share/man/man1/$p.1" test -s "$D/usr/share/man/man1/$p.1"
done
assert "the bash completion in share/bash-completion/completions/bench" \
	test -s "$D/usr/share/bash-completion/completions/bench"
# every script a user runs, not only the run_bench_*.sh wrappers
for w in "$ROOT"/benchs/run_*.sh; do
	[ "${w##*/}" != run_common.sh ] || continue
	assert "libexec/bench/benchs/${w##*/}, executable" test -x "$D/usr/libexec/bench/benchs/${w##*/}"
done
assert "libexec/bench/benchs/run_common.sh, which they source" test -f "$D/usr/libexec/bench/benchs/run_common.sh"
assert "libexec/bench/scripts/vmtest.sh, executable (run_kernel_ab.sh's VM)" \
	test -x "$D/usr/libexec/bench/scripts/vmtest.sh"
is "$(readlink "$D/usr/libexec/bench/bench")" "../../bin/bench" \
	"libexec/bench/bench: a relative link to bin/bench (the wrappers' ./bench), which DESTDIR does not break"
is "$(find "$D" -path "*$ROOT*" | wc -l)" 0 "nothing installed under the source tree's path"

# the installed binary and an installed wrapper, away from the tree
cd "$TEST_TMP" || exit 1
is "$("$D/usr/bin/bench" -l)" "$("$BENCH" -l)" "the installed bench lists the benchmarks"
RUN_BENCH="./bench -w0 -d1" "$D/usr/libexec/bench/benchs/run_bench_scaling.sh" -P 2 -o "$TEST_TMP/sweep" \
	count-local >"$TEST_TMP/sweep.out" 2>"$TEST_TMP/sweep.err"
is $? 0 "an installed wrapper (run_bench_scaling.sh -P 2 count-local) runs: exit 0"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$TEST_TMP/sweep.err")"
assert "it ran the installed bench: its result files" test -s "$TEST_TMP/sweep/p2.json"
is "$(jq -r .context.bench_version "$TEST_TMP/sweep/p2.json" 2>/dev/null)" "$("$BENCH" --version | cut -d' ' -f2)" \
	"the result names the installed bench's version"

# installed run_kernel_ab.sh boots with the installed vmtest.sh (refusing
# -c 0 here, before anything boots), and neither writes into the installed
# tree: the results go to a new directory under TMPDIR, vmtest.sh's state
# under XDG_CACHE_HOME (a file here, so that it is refused, naming it)
mkdir -p "$TEST_TMP/tmp"
: >"$TEST_TMP/cache-file"
env -u BENCH -u VMTEST -u OUTPUT -u VMTEST_CACHE TMPDIR="$TEST_TMP/tmp" VMTEST_OPTS="-c 0" \
	"$D/usr/libexec/bench/benchs/run_kernel_ab.sh" -k a -k b -n 1 -- count-local \
	</dev/null >"$TEST_TMP/kab.out" 2>"$TEST_TMP/kab.err"
is $? 1 "installed run_kernel_ab.sh, its boots refused: exit 1"
like "$TEST_TMP/kab.err" "^vmtest\.sh: bad CPU count '0'" "installed run_kernel_ab.sh: it ran the installed vmtest.sh"
like "$TEST_TMP/kab.out" "^results: $TEST_TMP/tmp/kernel-ab\.[A-Za-z0-9]+\$" \
	"installed run_kernel_ab.sh: its results in a new directory under TMPDIR"
if [ "${CI:-}" = true ] || command -v qemu-system-x86_64 busybox dpkg-deb setpriv >/dev/null; then
	env -u OUTPUT -u VMTEST_CACHE XDG_CACHE_HOME="$TEST_TMP/cache-file" \
		"$D/usr/libexec/bench/scripts/vmtest.sh" -- true </dev/null >"$TEST_TMP/vm.out" 2>"$TEST_TMP/vm.err"
	is $? 2 "installed vmtest.sh, its default output directory not a directory: exit 2"
	like "$TEST_TMP/vm.err" "^vmtest\.sh: bad output directory '$TEST_TMP/cache-file/bench/vmtest/out'" \
		"installed vmtest.sh: its state under XDG_CACHE_HOME, not in the installed tree"
else
	skip "qemu-system-x86_64, busybox, dpkg-deb or setpriv missing (scripts/install-deps.sh installs them)" \
		"installed vmtest.sh: its state under XDG_CACHE_HOME"
fi
is "$(find "$D" -name .output | wc -l)" 0 "nothing written into the installed tree"

# PREFIX alone moves everything
install_to "$TEST_TMP/root2" PREFIX=/opt/bench
is $? 0 "make install PREFIX=/opt/bench: exit 0"
assert "PREFIX: bin/bench under it" test -x "$TEST_TMP/root2/opt/bench/bin/bench"
assert "PREFIX: the pages under it" test -s "$TEST_TMP/root2/opt/bench/share/man/man1/bench-ab.1"
is "$(find "$TEST_TMP/root2" -type f -not -path "$TEST_TMP/root2/opt/bench/*" | wc -l)" 0 \
	"PREFIX: nothing outside it"

# spaces in PREFIX and DESTDIR: everything where they say (once, PREFIX's
# second word made ./stuff in the source tree and make exited 2); an
# installed wrapper runs from there; make uninstall removes what make
# install wrote, by its manifest, and leaves the shared directories
SP="$TEST_TMP/dest dir"
install_to "$SP" PREFIX="/opt/my stuff"
is $? 0 "make install with spaces in PREFIX and DESTDIR: exit 0"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(tail -20 "$TEST_TMP/make")"
assert "spaces: bin/bench under them" test -x "$SP/opt/my stuff/bin/bench"
assert "spaces: the pages under them" test -s "$SP/opt/my stuff/share/man/man1/bench-ab.1"
is "$(readlink "$SP/opt/my stuff/libexec/bench/bench")" "../../bin/bench" "spaces: the wrappers' ./bench link"
is "$(find "$ROOT" -maxdepth 1 -name stuff | wc -l)" 0 "spaces: nothing made in the source tree"
RUN_BENCH="./bench -w0 -d1" "$SP/opt/my stuff/libexec/bench/benchs/run_bench_scaling.sh" -P 2 \
	-o "$TEST_TMP/sweep sp" count-local >"$TEST_TMP/sweepsp.out" 2>"$TEST_TMP/sweepsp.err"
is $? 0 "spaces: an installed wrapper runs"
[ "$TAP_LAST_FAILED" -eq 0 ] || diag "$(cat "$TEST_TMP/sweepsp.err")"
make -s -C "$ROOT" OUTPUT="$OUT" BENCH_BIN="$BENCH" DESTDIR="$SP" PREFIX="/opt/my stuff" uninstall \
	>"$TEST_TMP/make" 2>&1
is $? 0 "make uninstall with the same spaces: exit 0"
is "$(find "$SP" -type f -o -type l | wc -l)" 0 "make uninstall: every file make install wrote is gone"
assert "make uninstall: the shared bin/ stays" test -d "$SP/opt/my stuff/bin"
assert "make uninstall: libexec/bench/ is gone" test ! -e "$SP/opt/my stuff/libexec/bench"
make -s -C "$ROOT" OUTPUT="$OUT" BENCH_BIN="$BENCH" DESTDIR="$SP" PREFIX="/opt/my stuff" uninstall \
	>"$TEST_TMP/make" 2>&1
isnt $? 0 "make uninstall of nothing installed: fails"
like "$TEST_TMP/make" "^nothing to uninstall: no $SP/opt/my stuff/libexec/bench/installed-files" "and says why"

# ---- the completion, as installed ----
# complete <words...>: the candidates for the last word, sorted, one line
complete_words() {
	bash -c 'source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
		_bench; [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		_ "$D/usr/share/bash-completion/completions/bench" "$@"
}
B=$D/usr/bin/bench
# listed() [commands]: bench -l's benchmarks and aliases (and the
# commands), sorted, one line
listed() {
	{
		"$B" -l | awk '/^  [^ ]/ { print $1 }'
		"$B" -l | sed -n 's/.*(alias: \([^)]*\))$/\1/p'
		[ $# -eq 0 ] || printf '%s\n' "${CMDS[@]}"
	} | sort | tr '\n' ' '
}
is "$(complete_words "$B" "")" "$(listed commands)" \
	"bench <TAB>: every benchmark and alias of bench -l, and every command"
is "$(complete_words "$B" htab)" "htab-mem " "bench htab<TAB>: htab-mem"
is "$(complete_words "$B" -p2 "")" "$(listed)" "bench -p2 <TAB>: the benchmarks (a command comes first)"
is "$(complete_words "$B" htab-mem --use)" "--use-case " "bench htab-mem --use<TAB>: a benchmark's option"
is "$(complete_words "$B" -p2 htab-mem "")" "" "after a benchmark: no second one"
is "$(complete_words "$B" plot "")" "compare history latency scaling timeline " "bench plot <TAB>: the chart kinds"
is "$(complete_words "$B" history "")" "add list show " "bench history <TAB>: its commands"
is "$(complete_words "$B" history add --)" "--db --help --include-invalid --machine --usage --version " \
	"bench history add --<TAB>: add's options only"
is "$(complete_words "$B" plot history --me)" "--metric " "bench plot history --me<TAB>"
is "$(complete_words "$B" compare --ra)" "--rank " "bench compare --ra<TAB>"
is "$(complete_words "$B" -d "")" "" "bench -d <TAB>: a number, nothing offered"
touch "$TEST_TMP/res.json"
is "$(complete_words "$B" --json "$TEST_TMP/re")" "$TEST_TMP/res.json " "bench --json <TAB>: a file"
is "$(complete_words "$B" compare "$TEST_TMP/re")" "$TEST_TMP/res.json " "bench compare <TAB>: files"
# a name bench gains is completed without a change to the completion: a
# stand-in bench with a benchmark and a command of its own
cat >"$TEST_TMP/fake" <<'EOF'
#!/bin/sh
case "$1" in
-l) printf 'Benchmarks:\n  brand-new   a new one (alias: bn)\n' ;;
--help) printf 'Usage: bench [OPTION...] BENCHMARK\n\nCOMMANDS:\n    fresh     a new command\n\n  -z, --zap     a new option\n' ;;
esac
EOF
chmod +x "$TEST_TMP/fake"
is "$(complete_words "$TEST_TMP/fake" "")" "bn brand-new fresh " "a new benchmark, alias and command are completed"
is "$(complete_words "$TEST_TMP/fake" --z)" "--zap " "a new option is completed"

done_testing
