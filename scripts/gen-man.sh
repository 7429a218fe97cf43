#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The manual pages, made from --help by help2man: bench(1), and
# bench-COMMAND(1) for every command `bench --help` lists.  --help is the
# one source: a page says what --help says, in man's sections.
#
#   [BINDIR=.. LIBEXECDIR=.. BASHCOMPDIR=..] scripts/gen-man.sh BENCH OUTDIR
#
# Besides --help, each page gets EXIT STATUS, its rows of README's
# exit-status table; ENVIRONMENT, bench --help's entries (a command's page
# those that name it); FILES, where make install puts the binary, the
# wrapper scripts (LIBEXECDIR), the completion (paths as the Makefile
# gives them, /usr/local's by default), and a command's own files.
#
# A command's page holds its --help, then that of each of its own commands
# (history add, list, show; plot history) whose help says something the
# page does not say yet, each in a section of its own.  The pages are made
# in a new directory that replaces OUTDIR only once all of them were made:
# a failure leaves the old pages, never half a set.
set -euo pipefail
# -h, --help: the comment above is the usage
case ${1:-} in -h | --help) sed -n '4,${ /^#/!q; s/^# \{0,1\}//p }' "$0"; exit 0 ;; esac

PROG=gen-man.sh
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

# bench's help is read as the completion reads it: _bench_commands,
# _bench_subcommands
# shellcheck source=scripts/bench-completion.bash
source "$(dirname "$SELF")/bench-completion.bash"

# a help text without what every argp help says: the usage block (its
# lines argp wrapped too) and --help, --usage, --version
essence() {
	awk 'NR == 1 || (usage && (/^ +or: / || /^        +[^ ]/)) { usage = 1; next } { usage = 0 }
	     !/^ +-\?, --help|^ +--usage|^ +-V, --version/' "$1"
}

# man_help FILE: help2man's reading of a --help.  The synopsis gets every
# form of the command (the usage line, its "or:" lines, wrapped ones
# joined, and the forms of a USAGE block in the text); the title line goes
# (NAME has it); COMMANDS becomes a section, EXAMPLES too, each example its
# comment then the command verbatim; "Options:" comes before the first
# option, a benchmark family's options get a subsection; an option whose text argp started one space after it gets two,
# its text's other lines one more, as help2man wants; a sub-help's usage is
# a paragraph of its own.  Two passes: a USAGE block follows the usage.
man_help() {
	awk '
	function flush(   i) {
		if (pending != "")
			print pending
		pending = ""
		if (!usage_done)
			for (i = 1; i <= n; i++)
				print "  or:  " forms[i]
		usage_done = 1
	}
	NR == FNR {
		if ($0 ~ /^USAGE: /)
			in_block = 1
		else if (in_block && $0 ~ /^ +bench /) {
			sub(/^ +/, ""); sub(/ +\(see .*\)$/, ""); forms[++n] = $0
		} else
			in_block = 0
		next
	}
	FNR == 1 { pending = $0; next }
	!usage_done && /^ +or: / { if (pending != "") print pending; pending = $0; next }
	!usage_done && /^ +bench / { if (pending != "") print pending; sub(/^ +/, ""); pending = "  or:  " $0; next }
	!usage_done && /^        +[^ ]/ { sub(/^ +/, ""); pending = pending " " $0; next }
	!usage_done { flush() }
	sub_usage && (/^ +or: / || /^        +[^ ]/) { print; next }
	sub_usage { sub_usage = 0; if ($0 != "") print "" }
	/^Usage: / { print; sub_usage = 1; next }
	/^bench +[A-Z].*\.$/ && !text_seen { next }
	/^USAGE: / { in_block = 1; next }
	in_block && /^ +bench / { next }
	{ in_block = 0 }
	/^\*.*\*$/ { sub_help = 1 }
	/^COMMANDS:$/ { print "*Commands*"; next }
	/^EXAMPLES:$/ { print "Examples:"; in_examples = 1; next }
	/^ENVIRONMENT:$/ { print "Environment:"; next }
	in_examples && /^ +bench / {
		sub(/^ +/, "")
		c = index($0, "  #")
		if (c) {
			comment = substr($0, c + 2)
			sub(/^# */, "", comment)
			$0 = substr($0, 1, c - 1)
			sub(/ +$/, "")
			print comment
		}
		print "  $ " $0
		next
	}
	in_examples && /^$/ { in_examples = 0 }
	# a benchmark family'"'"'s options: argp heads them with its name
	/^ [a-z][a-z0-9_-]*$/ && options_seen { widened = 0; print substr($0, 2) " options:"; next }
	widened && /^                             [^ ]/ { print " " $0; next }
	{ match($0, /^ */); option = RLENGTH >= 1 && RLENGTH <= 10 && substr($0, RLENGTH + 1, 1) == "-" }
	option && !sub_help && !options_seen { print "Options:"; options_seen = 1 }
	option {
		widened = 0
		if (match($0, /^ +-[^ ,]*(, --[^ ]*)? [^ ]/)) {
			$0 = substr($0, 1, RSTART + RLENGTH - 2) " " substr($0, RSTART + RLENGTH - 1)
			widened = 1
		}
		print
		next
	}
	{ widened = 0; text_seen = 1; print }
	END { flush() }
	' "$1" "$1"
}

# emit BENCH CMD --help|--version: what help2man reads, for bench (CMD
# empty) or bench CMD
emit() {
	local bench=$1 cmd=$2 tmp w

	if [ "$3" = --version ]; then
		"$bench" --version
		return
	fi
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # the directory of this call
	trap "rm -rf '$tmp'" EXIT
	# shellcheck disable=SC2086 # no command: the runner's own --help
	"$bench" $cmd --help >"$tmp/help"
	essence "$tmp/help" >"$tmp/said"
	cp "$tmp/help" "$tmp/all"
	for w in $([ -z "$cmd" ] || _bench_subcommands "$cmd" <"$tmp/help"); do
		"$bench" "$cmd" "$w" --help >"$tmp/sub" 2>/dev/null || continue
		essence "$tmp/sub" >"$tmp/sub.said"
		# plot timeline's help is plot's: said already
		cmp -s "$tmp/sub.said" "$tmp/said" && continue
		cat "$tmp/sub.said" >>"$tmp/said"
		printf '\n*bench %s %s*\n' "$cmd" "$w" >>"$tmp/all"
		cat "$tmp/sub" >>"$tmp/all"
	done
	man_help "$tmp/all"
}

if [ "${1:-}" = emit ]; then
	emit "$2" "$3" "$4"
	exit
fi

[ $# -eq 2 ] || { echo "$PROG: usage: $PROG BENCH OUTDIR (see $PROG --help)" >&2; exit 2; }
BENCH=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUTDIR=$2
README=$(dirname "$SELF")/../README.md
# where make install puts things (the Makefile passes its values)
BINDIR=${BINDIR:-/usr/local/bin}
LIBEXECDIR=${LIBEXECDIR:-/usr/local/libexec/bench}
BASHCOMPDIR=${BASHCOMPDIR:-/usr/local/share/bash-completion/completions}
command -v help2man >/dev/null ||
	{ echo "$PROG: help2man not found: run scripts/install-deps.sh" >&2; exit 1; }
[ -x "$BENCH" ] || { echo "$PROG: no bench binary at '$1'" >&2; exit 1; }

NEW=$(mktemp -d "$OUTDIR.new.XXXXXX")
trap 'rm -rf "$NEW"' EXIT
VERSION=$("$BENCH" --version | sed -n '1s/^bench //p')
mapfile -t CMDS < <(_bench_commands "$BENCH")
[ ${#CMDS[@]} -gt 0 ] || { echo "$PROG: bench --help lists no commands" >&2; exit 1; }

# ROFF_AWK: esc(t), a text line as troff reads it (backslashes, a leading
# dot or quote; markdown's backquotes dropped)
ROFF_AWK='function esc(t) { gsub(/\\/, "\\e", t); gsub(/`/, "", t); if (t ~ /^[.'"'"']/) t = "\\&" t; return t }'

# exit_status CMD: README's exit-status table, the one table, its rows for
# bench CMD (CMD empty: bench itself) as a man section
exit_status() {
	printf '[EXIT STATUS]\n'
	# bench CMD's rows, or bench CMD FORMAT's (export kcidb)
	awk -F' [|] ' -v c="$1" "$ROFF_AWK"'
		/^## Exit status/ { on = 1; next } on && /^## / { exit }
		on && /^[|] / { sub(/^[|] /, ""); sub(/ [|]$/, "")
			if (c == "" ? $1 == "`bench`" : $1 ~ ("^`bench " c "( [a-z]+)?`$"))
				printf ".TP\n.B %s\n%s\n", $2, esc($3) }' "$README"
	printf '.PP\nREADME'"'"'s "Exit status" holds the table of every command.\n'
}

# environment CMD: bench's own ENVIRONMENT entries (bench --help) whose text
# begins "bench CMD:" (bench(1) has them all, from its --help)
environment() {
	"$BENCH" --help | awk -v c="bench $1:" "$ROFF_AWK"'
		/^ENVIRONMENT:$/ { on = 1; next } on && /^$/ { on = 0 } !on { next }
		/^    [^ ]/ { name = $0; sub(/^ +/, "", name); next }
		/^                         / { t = $0; sub(/^ +/, "", t)
			if (name != "") { text[name] = text[name] (text[name] == "" ? "" : " ") t; if (!(name in seen)) { seen[name] = 1; order[++n] = name } } }
		END { for (i = 1; i <= n; i++) if (index(text[order[i]], c) == 1)
			printf ".TP\n.B %s\n%s\n", order[i], esc(text[order[i]]) }' |
		sed '1s/^/[ENVIRONMENT]\n/'
}

# files CMD: where make install puts things (Makefile's BINDIR, LIBEXECDIR,
# BASHCOMPDIR, as make man was given them), and a command's own files
files() {
	printf '[FILES]\n'
	case $1 in
	"")
		printf '.TP\n.B %s/bench\nthe binary\n' "$BINDIR"
		printf '.TP\n.B %s/benchs/run_*.sh\n' "$LIBEXECDIR"
		printf 'the wrapper scripts (run_bench_htab_mem.sh, run_bench_scaling.sh, run_kernel_ab.sh, ...), with their library run_common.sh; they run ./bench from %s, where\n' "$LIBEXECDIR"
		printf '.B %s/bench\nis a link to the binary, and run_kernel_ab.sh boots kernels with\n.BR %s/scripts/vmtest.sh\n' "$LIBEXECDIR" "$LIBEXECDIR"
		printf '.TP\n.B %s/bench\nthe bash completion of bench and ./bench\n' "$BASHCOMPDIR"
		printf '.TP\n.B %s/installed-files\nwhat make install wrote, for make uninstall\n' "$LIBEXECDIR" ;;
	history)
		# shellcheck disable=SC2016 # the variable's name, for the page
		printf '.TP\n.B $XDG_DATA_HOME/bench/history.db\nthe database without --db (else ~/.local/share/bench/history.db)\n' ;;
	ab)
		printf '.TP\n.B DIR/pair-NNN-A.json, DIR/pair-NNN-B.json, DIR/*.log\neach invocation'"'"'s result file and output\n'
		printf '.TP\n.B DIR/ab.txt, DIR/ab.json\nthe report, as text and as JSON\n' ;;
	esac
}

# see_also PAGE: every other page
see_also() {
	local p out=""

	for p in bench "${CMDS[@]/#/bench-}"; do
		[ "$p" = "$1" ] || out+="${out:+,\n}.BR $p (1)"
	done
	printf '[SEE ALSO]\n%b\n' "$out"
}

# page NAME CMD DESCRIPTION: NAME.1 from bench CMD's help
page() {
	local name=$1 cmd=$2 desc=$3

	printf '#!/bin/sh\nexec "%s" emit "%s" "%s" "$@"\n' "$SELF" "$BENCH" "$cmd" >"$NEW/$name"
	chmod +x "$NEW/$name"
	{ exit_status "$cmd"; environment "$cmd"; files "$cmd"; see_also "$name"; } >"$NEW/$name.inc"
	help2man --locale=C.UTF-8 --no-info --version-string="$VERSION" --name="$desc" --section=1 \
		--source="bench $VERSION" --manual="bench manual" --include="$NEW/$name.inc" \
		--output="$NEW/$name.1" "$NEW/$name"
	rm -f "$NEW/$name" "$NEW/$name.inc"
}

page bench "" "BPF benchmark runner: the kernel's BPF selftests bench, standalone"
for c in "${CMDS[@]}"; do
	desc=$("$BENCH" --help | sed -n "/^COMMANDS:\$/,/^\$/s/^    $c  *//p")
	page "bench-$c" "$c" "$desc"
done
rm -rf "$OUTDIR"
mv "$NEW" "$OUTDIR"
trap - EXIT
