#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Upstream's RCU Tasks Trace run: 15000 sleeper processes churning task
# local storage for 10 minutes, grace period latency and the
# rcu_tasks_trace kthread's ticks per grace period, the Iter lines left
# out:
#
#   SUMMARY tasks_trace grace period latency	avg 22180.170 us	stddev 1451.046 us
#   SUMMARY ticks per tasks_trace grace period	avg 2.089	stddev 0.060
#
# RUN_BENCH  runner and common options (default "./bench", relative to
#            the source tree)
# NR_PROCS   sleeper processes (default 15000)
# DURATION   measured seconds (default 600)
#
# Upstream passes --quiet 1; this runner's --quiet takes no value.

set -uo pipefail

RUN_BENCH=${RUN_BENCH:-./bench}
# shellcheck source-path=SCRIPTDIR source=run_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"

NR_PROCS=${NR_PROCS:-15000}
DURATION=${DURATION:-600}

# the name is cut to 15 characters before Linux 6.3 or so
kthread_pid=$(pgrep -x 'rcu_tasks_trace(_kthread)?' | head -n1)
if [ -z "$kthread_pid" ]; then
	echo "error: Couldn't find rcu_tasks_trace_kthread" >&2
	exit 1
fi

run_bench --nr_procs "$NR_PROCS" --kthread_pid "$kthread_pid" -d "$DURATION" --quiet \
	local-storage-tasks-trace
