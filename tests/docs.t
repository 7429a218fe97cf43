#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The documentation a newcomer navigates: README.md's "## Documentation"
# links every page of docs/ and every section of it, and every relative
# link of README.md and docs/*.md names a file that exists and, after a
# '#', a heading that file has (GitHub's anchor of it).  A page added
# without its line, a section renamed, or a link left behind by a move
# fails here.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
SRC=$SRC_TOP
export LC_ALL=C

# anchors FILE: the anchor of each heading outside code blocks, as GitHub
# makes it (lower case, punctuation dropped, spaces to hyphens; a repeat
# gets -1, -2, ...)
anchors() {
	awk '/^```/ { code = !code; next }
	     !code && /^#+ / { sub(/^#+ +/, ""); sub(/ +$/, ""); a = tolower($0)
		gsub(/[^a-z0-9_ -]/, "", a); gsub(/ /, "-", a)
		n = seen[a]++; print (n ? a "-" n : a) }' "$1"
}

# headings FILE: "LEVEL ANCHOR" of each heading below the title
headings() {
	paste -d' ' <(awk '/^```/ { code = !code; next }
			   !code && /^#+ / { match($0, /^#+/); print RLENGTH }' "$1") \
		<(anchors "$1") | awk '$1 > 1'
}

# links FILE: the relative link targets outside code blocks, one a line
links() {
	awk '/^```/ { code = !code; next } !code' "$1" |
		grep -o '\](\([^) ]*\))' | sed 's/^](//; s/)$//' |
		grep -v '^[a-z][a-z]*:' || true
}

pages=$(cd "$SRC" && ls docs/*.md)
cmp_ok "$(echo "$pages" | wc -w)" -ge 5 "docs/ has its pages"

# the contents: README's "## Documentation" section
awk '/^## Documentation$/ { on = 1; next } on && /^## / { exit } on' \
	"$SRC/README.md" >"$TEST_TMP/contents"
cmp_ok "$(wc -l <"$TEST_TMP/contents")" -ge 10 "README has its contents"
missing=""
for p in $pages; do
	grep -qF "]($p)" "$TEST_TMP/contents" || missing="$missing $p"
	while read -r _ a; do
		grep -qF "]($p#$a)" "$TEST_TMP/contents" || missing="$missing $p#$a"
	done < <(headings "$SRC/$p")
done
is "${missing# }" "" "README's contents link every page of docs/ and each of its sections"

broken=""
for f in README.md $pages; do
	dir=$(dirname "$f")
	while IFS= read -r l; do
		target=${l%%#*}
		anchor=""
		case $l in *'#'*) anchor=${l#*#} ;; esac
		if [ -z "$target" ]; then
			path=$f
		else
			path=$(realpath -m --relative-to="$SRC" "$SRC/$dir/$target")
		fi
		if [ ! -e "$SRC/$path" ]; then
			broken="$broken $f:$l"
		elif [ -n "$anchor" ] && ! anchors "$SRC/$path" | grep -qxF "$anchor"; then
			broken="$broken $f:$l"
		fi
	done < <(links "$SRC/$f")
done
is "${broken# }" "" "every relative link of README.md and docs/ names a file and a heading that exist"

# the checks can fail: a link to a heading nobody wrote is caught
printf '# t\n\n## A heading: its words\n\n[x](#a-heading-its-words) [y](#no-such)\n' >"$TEST_TMP/t.md"
is "$(anchors "$TEST_TMP/t.md" | tr '\n' ' ')" "t a-heading-its-words " "anchors: as GitHub makes them"
is "$(links "$TEST_TMP/t.md" | tr '\n' ' ')" "#a-heading-its-words #no-such " "links: every target"
done_testing
