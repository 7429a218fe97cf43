#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# benchs/run_kernel_ab.sh's command line: each side its own kernel and
# modules (-k ... -M ...), each run tagged A or B; with a stand-in for
# scripts/vmtest.sh (VMTEST) that logs what it was asked to boot and runs
# the bench on the host, so no VM is started.  Its refusals: exit 2, one
# line.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
AB=$SRC_TOP/benchs/run_kernel_ab.sh
cd "$TEST_TMP" || exit 1

mkdir -p modsA modsB
touch modsA/modules.dep modsB/modules.dep
cat >vmtest-standin <<'SH'
#!/bin/bash
# log the kernel and modules, then run what follows --
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
shift
echo "${args[*]}" >>"$STANDIN_LOG"
exec "$@"
SH
chmod +x vmtest-standin
export STANDIN_LOG=$TEST_TMP/standin.log

VMTEST=$TEST_TMP/vmtest-standin BENCH=$BENCH "$AB" -k imgA -M modsA -k imgB -M modsB -n 1 -o out -- \
	-q -w0 -d1 --min-cpu-share 0 count-local >ab.out 2>ab.err
is $? 0 "one round of two kernels, each with its modules: exit 0"
like standin.log "^-k imgA -M $TEST_TMP/modsA -o " "side A boots its kernel with its modules"
like standin.log "^-k imgB -M $TEST_TMP/modsB -o " "side B boots its kernel with its modules"
is "$(jq -r .context.tag out/A-1.json) $(jq -r .context.tag out/B-1.json)" "A B" "each run is tagged with its side"
like ab.out '^A = imgA \(modules .*/modsA\)$' "the sides are named with their modules"

: >standin.log
VMTEST=$TEST_TMP/vmtest-standin BENCH=$BENCH "$AB" -k imgA -k imgB -M modsB -n 1 -o out2 -- \
	-q -w0 -d1 --min-cpu-share 0 --tag mine count-local >ab2.out 2>ab2.err
is $? 0 "modules for one side only, a user's --tag: exit 0"
like standin.log '^-k imgA -o ' "side A: no -M"
is "$(jq -r .context.tag out2/A-1.json)" "mine" "the user's --tag is kept"

# refusals
refuse() {	# refuse <description> <stderr regex> <args...>
	local desc=$1 re=$2 rc
	shift 2
	VMTEST=$TEST_TMP/vmtest-standin BENCH=$BENCH "$AB" "$@" >r.out 2>r.err
	rc=$?
	is "$rc $(grep -c . r.err)" "2 1" "$desc: exit 2, one line"
	like r.err "$re" "$desc: said"
}
refuse "-M before -k" "-M 'modsA' before any -k" -M modsA -k a -k b -- count-local
refuse "two -M for one kernel" "a second -M 'modsB' for kernel 'a'" -k a -M modsA -M modsB -k b -- count-local
refuse "a modules directory without modules.dep" "bad modules directory 'nope' for -M" -k a -M nope -k b -- count-local

done_testing
