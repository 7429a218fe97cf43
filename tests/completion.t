#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion (scripts/bench-completion.bash), read from --help:
# every option offered once (the runner's help lists --hook in six benchmark
# families), the values of an option whose help lists them (--use-case,
# --hook, ab's --test, ...) offered as a separate word and after "=", and
# ./bench completed as bench is.  install.t checks it as installed.  No BPF.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
export LC_ALL=C
COMPLETION=$SRC_TOP/scripts/bench-completion.bash
cd "$TEST_TMP" || exit 1

# complete_words <words...>: the candidates for the last word, in the order
# offered, one a line
complete_words() {
	bash -c 'source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
		_bench; [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$COMPLETION" "$@"
}
# one line, sorted
sorted() { "$@" | sort | tr '\n' ' '; }

complete_words "$BENCH" htab-mem -- >opts
cmp_ok "$(wc -l <opts)" -ge 40 "bench htab-mem --<TAB>: the options ($(wc -l <opts))"
is "$(sort opts | uniq -d | tr '\n' ' ')" "" "bench htab-mem --<TAB>: no option twice"
is "$(grep -cx -- --hook opts)" 1 "bench htab-mem --<TAB>: --hook once"
is "$(sorted complete_words "$BENCH" ab --)" "$(complete_words "$BENCH" ab -- | sort -u | tr '\n' ' ')" \
	"bench ab --<TAB>: no option twice"

is "$(sorted complete_words "$BENCH" htab-mem --use-case "")" \
	"add_del_on_diff_cpu batch_add_batch_del no_op overwrite " "bench htab-mem --use-case <TAB>: its four use cases"
is "$(sorted complete_words "$BENCH" htab-mem --use-case b)" "batch_add_batch_del " \
	"bench htab-mem --use-case b<TAB>"
# bash splits --use-case=b at "=" (COMP_WORDBREAKS): the words it hands over
is "$(sorted complete_words "$BENCH" htab-mem --use-case = "")" \
	"add_del_on_diff_cpu batch_add_batch_del no_op overwrite " "bench htab-mem --use-case=<TAB>"
is "$(sorted complete_words "$BENCH" htab-mem --use-case = o)" "overwrite " "bench htab-mem --use-case=o<TAB>"
is "$(sorted complete_words "$BENCH" bloom-lookup --hook "")" "auto fentry tracepoint " \
	"bench bloom-lookup --hook <TAB>: auto, fentry, tracepoint"
is "$(sorted complete_words "$BENCH" local-storage-create --storage-type "")" "socket task " \
	"bench local-storage-create --storage-type <TAB>"
is "$(sorted complete_words "$BENCH" bpf_ma --obj-size 10)" "1024 " "bench bpf_ma --obj-size 10<TAB>"
is "$(sorted complete_words "$BENCH" ab --test "")" "rank t trimmed " "bench ab --test <TAB>: its statistics"
is "$(sorted complete_words "$BENCH" ab --spending "")" "obf pocock " "bench ab --spending <TAB>"
is "$(sorted complete_words "$BENCH" export kcidb --failed-status "")" "ERROR FAIL " \
	"bench export kcidb --failed-status <TAB>"
is "$(sorted complete_words "$BENCH" -d "")" "" "bench -d <TAB>: a number, nothing offered"
is "$(sorted complete_words "$BENCH" -p "")" "" "bench -p <TAB>: a number, nothing offered"

# ./bench, as the README and the wrappers run it, is completed too
ln -s "$BENCH" "$TEST_TMP/bench"
# shellcheck disable=SC2016 # for the inner shell
out=$(bash -c 'source "$1"; complete -p ./bench bench' _ "$COMPLETION" 2>&1)
is "$out" "complete -F _bench ./bench
complete -F _bench bench" "the function is registered for ./bench and bench"
is "$(sorted complete_words ./bench htab-mem --use-case o)" "overwrite " "./bench htab-mem --use-case o<TAB>"

done_testing
