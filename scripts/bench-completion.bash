# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# bash completion of bench and ./bench: benchmarks, commands, their own
# commands (plot's chart kinds, history's add, list, show), options, and
# the values of an option whose help lists them (--use-case, --hook, ...).  Nothing is
# listed here: every name is read from the bench being completed (bench -l,
# bench --help, bench COMMAND --help), so what bench gains is completed
# without a change to this file.  make install puts it where
# bash-completion finds it; or source it.  scripts/gen-man.sh reads
# bench's help with the same functions.

# _bench_benchmarks BENCH: every benchmark and alias, one a line
_bench_benchmarks() {
	"$1" -l 2>/dev/null | awk '/^  [^ ]/ { print $1 } /\(alias: [^)]+\)$/ { sub(/.*\(alias: /, ""); sub(/\)$/, ""); print }'
}

# _bench_commands BENCH: the commands bench --help lists, one a line
_bench_commands() {
	"$1" --help 2>/dev/null | sed -n '/^COMMANDS:$/,/^$/s/^    \([a-z][a-z0-9-]*\) .*/\1/p'
}

# _bench_subcommands CMD < HELP: the words a command takes first, from the
# usage lines of its help, those argp wrapped joined (plot: timeline,
# scaling, ...; history: add, list, show; export: kcidb)
_bench_subcommands() {
	awk 'NR > 1 && /^            +[^ ]/ { sub(/^ +/, " "); line = line $0; next }
	     NR > 1 { print line } { line = $0 } END { print line }' |
		sed -nE "s/^(Usage:| +or:|      ) +bench $1 (\\[OPTION\\.\\.\\.\\] )?([a-z][a-z0-9-]*)( .*|)\$/\\3/p" |
		awk '!seen[$0]++'
}

# _bench_options < HELP: "OPTION ARG" for each option a help lists, short
# and long alike, each once (the runner's help lists --hook in every
# benchmark family that has it); ARG is the value's name (FILE, SEC), "-"
# for none
_bench_options() {
	sed -nE 's/^ {1,10}(-([^ ,-]), )?--([^ =[]+)(\[?=([^] ]+))?.*/-\2 --\3 \5/p' |
		awk '{ arg = NF >= 3 ? $3 : "-"; if ($1 != "-") print $1, arg; print $2, arg }' |
		awk '!seen[$1]++'
}

# _bench_values < HELP: "OPTION VALUE..." for each option whose value is
# one of a list its help spells out ("overwrite (default),
# batch_add_batch_del, add_del_on_diff_cpu or no_op"; "Run on: auto (...),
# fentry or tracepoint"): the list starts the text or follows a colon,
# asides in parentheses left out
_bench_values() {
	awk '
	function flush(   d, m, v, n, i, out) {
		if (opt != "" && desc != "") {
			d = desc
			while (gsub(/\([^()]*\)/, "", d))
				;
			gsub(/ +/, " ", d); gsub(/ ,/, ",", d); gsub(/ \./, ".", d); sub(/ $/, "", d)
			if (match(d, /(^|: )([A-Za-z0-9][A-Za-z0-9_-]*, )*[A-Za-z0-9][A-Za-z0-9_-]* or [A-Za-z0-9][A-Za-z0-9_-]*([ .,;]|$)/) ||
			    match(d, /(^|: )[A-Za-z0-9][A-Za-z0-9_-]*, [A-Za-z0-9][A-Za-z0-9_-]*, ([A-Za-z0-9][A-Za-z0-9_-]*, )*[A-Za-z0-9][A-Za-z0-9_-]*$/)) {
				m = substr(d, RSTART, RLENGTH)
				sub(/^: /, "", m); sub(/[ .,;]$/, "", m)
				gsub(/,? or |, /, " ", m)
				n = split(m, v, " ")
				out = opt
				for (i = 1; i <= n; i++)
					out = out " " v[i]
				for (i = 1; i <= nnames; i++)
					print names[i] substr(out, length(opt) + 1)
			}
		}
		opt = ""; desc = ""; nnames = 0
	}
	/^ +-/ && match($0, /^ +/) && RLENGTH <= 10 {
		flush()
		if (!match($0, /^ +(-[^ ,-], )?--[^ =[]+(\[?=[^] ]+\]?)/))
			next
		head = substr($0, RSTART, RLENGTH)
		if (head !~ /=/)
			next
		rest = substr($0, RSTART + RLENGTH)
		sub(/^ +/, "", rest)
		opt = head; sub(/^ +/, "", opt); sub(/\[?=.*/, "", opt)
		nnames = split(opt, names, /, /)
		desc = rest
		next
	}
	opt != "" && /^                    +[^ -]/ { line = $0; sub(/^ +/, "", line); desc = desc (desc == "" ? "" : " ") line; next }
	{ flush() }
	END { flush() }'
}

_bench() {
	local bench=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev="" help
	local cmd="" sub="" name="" i arg values
	local -a benchmarks commands subs

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --opt=VALUE: bash splits the word at "=" (COMP_WORDBREAKS)
	if [ "$cur" = = ]; then
		cur=""
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -gt 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	mapfile -t benchmarks < <(_bench_benchmarks "$bench")
	mapfile -t commands < <(_bench_commands "$bench")
	if [ "$COMP_CWORD" -gt 1 ] && [[ " ${commands[*]} " == *" ${COMP_WORDS[1]} "* ]]; then
		cmd=${COMP_WORDS[1]}
		help=$("$bench" "$cmd" --help 2>/dev/null)
		mapfile -t subs < <(_bench_subcommands "$cmd" <<<"$help")
		if [ "$COMP_CWORD" -gt 2 ] && [[ " ${subs[*]} " == *" ${COMP_WORDS[2]} "* ]]; then
			sub=${COMP_WORDS[2]}
			help=$("$bench" "$cmd" "$sub" --help 2>/dev/null)
		fi
	else
		help=$("$bench" --help 2>/dev/null)
		# a benchmark named already: no second one
		for ((i = 1; i < COMP_CWORD; i++)); do
			[[ " ${benchmarks[*]} " == *" ${COMP_WORDS[i]} "* ]] && name=${COMP_WORDS[i]}
		done
	fi

	# the value of an option: one of those its help lists, a file or
	# directory, or nothing to offer
	arg=$(_bench_options <<<"$help" | awk -v o="$prev" '$1 == o { print $2; exit }')
	if [ -n "$arg" ] && [ "$arg" != - ]; then
		values=$(_bench_values <<<"$help" | awk -v o="$prev" '$1 == o { $1 = ""; print; exit }')
		if [ -n "$values" ]; then
			mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
			return
		fi
		case $arg in
		FILE | DIR | OUT) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
		*) COMPREPLY=() ;;
		esac
		return
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_bench_options <<<"$help" | awk '{ print $1 }')" -- "$cur")
		return
	fi
	if [ -n "$cmd" ]; then
		if [ "$COMP_CWORD" -eq 2 ] && [ ${#subs[@]} -gt 0 ]; then
			mapfile -t COMPREPLY < <(compgen -W "${subs[*]}" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return
	fi
	[ -n "$name" ] && return
	if [ "$COMP_CWORD" -eq 1 ]; then
		mapfile -t COMPREPLY < <(compgen -W "${benchmarks[*]} ${commands[*]}" -- "$cur")
	else
		mapfile -t COMPREPLY < <(compgen -W "${benchmarks[*]}" -- "$cur")
	fi
}

# bench installed, and ./bench in a checkout (or LIBEXECDIR, where the
# wrappers run it)
complete -F _bench bench ./bench
