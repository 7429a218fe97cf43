#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# README's Layout lists every file of the tree with its one job: each
# tracked file matches an entry (a path, NAME.[ch], a glob such as
# benchs/run_*.sh, or a directory ending in /), and every entry names
# something that exists.  A file added without its line, or a line left
# behind by a move, fails here.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SRC=$SRC_TOP

# layout_entries: one pattern per line, from the code blocks of README's
# "## Layout" section.  An entry is the first column (up to two spaces);
# "a.c, b.h" is two entries, b.h in a.c's directory; NAME.[ch] is two.
layout_entries() {
	awk '/^## Layout/ { on = 1; next } on && /^## / { exit }
	     on && /^```/ { code = !code; next }
	     on && code && /^[^ ]/ { sub(/  .*/, ""); print }' "$SRC/README.md" |
		while IFS= read -r line; do
			dir=""
			IFS=',' read -ra parts <<<"$line"
			for p in "${parts[@]}"; do
				p=${p# }
				[ -z "$dir" ] && case $p in */*) dir=${p%/*}/ ;; esac
				case $p in */*) ;; *) p=$dir$p ;; esac
				case $p in
				*.\[ch\]) echo "${p%.\[ch\]}.c"; echo "${p%.\[ch\]}.h" ;;
				*) echo "$p" ;;
				esac
			done
		done
}

# matches FILE: FILE is one of the entries (path, glob or directory)
matches() {
	local e
	while IFS= read -r e; do
		case $e in
		*/) case $1 in "$e"*) return 0 ;; esac ;;
		*) # shellcheck disable=SC2254
			case $1 in $e) return 0 ;; esac ;;
		esac
	done <"$TEST_TMP/entries"
	return 1
}

layout_entries >"$TEST_TMP/entries"
cmp_ok "$(wc -l <"$TEST_TMP/entries")" -ge 40 "README's Layout has its entries"
(cd "$SRC" && git ls-files) >"$TEST_TMP/files" 2>/dev/null ||
	(cd "$SRC" && find . \( -name .git -o -name .output \) -prune -o -type f -print | sed 's|^\./||') >"$TEST_TMP/files"
missing=""
while IFS= read -r f; do
	case $f in README.md | .gitignore | LICENSE* | bench) continue ;; esac
	matches "$f" || missing="$missing $f"
done <"$TEST_TMP/files"
is "${missing# }" "" "every file of the tree has its line in README's Layout"

stale=""
while IFS= read -r e; do
	# shellcheck disable=SC2086
	(cd "$SRC" && compgen -G "$e" >/dev/null) || [ -d "$SRC/$e" ] || stale="$stale $e"
done <"$TEST_TMP/entries"
is "${stale# }" "" "every Layout entry names files that exist"

# the folder rule: the runner and upstream's files at the root, the
# subcommands that only read results in results/
for f in bench.c runner.c producer_counters.c benchs/bench_lpm_trie_map.c \
	progs/bench_local_storage_create.c progs/bpf_hashmap_full_update_bench.c; do
	ok "$([ -f "$SRC/$f" ]; echo $?)" "$f where upstream (or the runner) has it"
done
for c in compare plot ab history export_kcidb; do
	ok "$([ -f "$SRC/results/$c.c" ] && [ ! -e "$SRC/$c.c" ]; echo $?)" "$c.c in results/, not at the root"
done

# The Makefile orders make test's lanes by a list of test files
# (CPU_BOUND_TESTS): a renamed or removed file would drop out of the
# order without a word, so every name there must be a test file
mapfile -t cpu_bound < <(sed -n '/^CPU_BOUND_TESTS :=/,/[^\\]$/p' "$SRC/Makefile" |
	sed 's|.*/tests/,||; s|[)\\]||g' | tr -s ' \t' '\n' | grep -v '^$')
cmp_ok "${#cpu_bound[@]}" -ge 2 "the Makefile's CPU_BOUND_TESTS read (${cpu_bound[*]})"
stale=""
for t in "${cpu_bound[@]}"; do
	[[ $t == *.t && -f $SRC/tests/$t ]] || stale="$stale $t"
done
is "${stale# }" "" "every name in the Makefile's CPU_BOUND_TESTS is a test file of tests/"
done_testing
