#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench history against its store's faults: another process's lock held
# past the wait, a read-only file system (an older layout is read through
# an up-to-date copy in memory), a database another user cannot read; each
# with README's exit status (1: could not be read or written; 2: refused)
# and a cause in the message.  No BPF.

# its mounts (a full or read-only tmpfs) in a namespace of its own
# shellcheck disable=SC2034 # read by lib.sh
PRIVATE_MOUNTS=1

# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - sqlite3 not installed (install-deps.sh installs it)"; exit 1; }
	skip_all "sqlite3 not installed (scripts/install-deps.sh installs it)"
}
cd "$TEST_TMP" || exit 1

"$BENCH" -q -w0 -d2 --min-cpu-share 0 --json a.json count-local >/dev/null 2>&1
is $? 0 "a result file"
"$BENCH" history add --db h.db a.json >/dev/null
is $? 0 "a history"
scaled_hits a.json 0.5 b.json

# old <db>: a copy of h.db taken back to layout version 3 (before the
# kernel build and the tag), which a migration brings up to date
old() {
	cp h.db "$1" &&
	sqlite3 "$1" "DROP INDEX runs_key; ALTER TABLE runs DROP COLUMN build;
		ALTER TABLE runs DROP COLUMN tag;
		CREATE INDEX runs_key ON runs (benchmark, config, kernel, machine);
		PRAGMA user_version = 3"
}

# ---- another process's lock, held past BENCH_HISTORY_LOCK_TIMEOUT ----
# (the lock is held 4 s, the commands wait 1 s: "database is locked",
# exit 1, where a minute's lock once said "not a bench history database
# (database is locked)", exit 2)
(echo 'BEGIN EXCLUSIVE;'; touch locked; sleep 4; echo 'COMMIT;') | sqlite3 h.db &
holder=$!
for ((i = 0; i < 100; i++)); do [ -e locked ] && break; sleep 0.05; done
for cmd in list show; do
	BENCH_HISTORY_LOCK_TIMEOUT=1 "$BENCH" history "$cmd" --db h.db >lock.out 2>lock.err
	is $? 1 "history $cmd under a lock held past the wait: exit 1"
	is "$(cat lock.err)" "history: failed to read h.db: database is locked: still held by another process after 1 s (BENCH_HISTORY_LOCK_TIMEOUT)" \
		"history $cmd: it says the database is locked, and how long it waited"
done
BENCH_HISTORY_LOCK_TIMEOUT=1 "$BENCH" history add --db h.db a.json >lock.out 2>lock.err
is $? 1 "history add under a lock held past the wait: exit 1"
like lock.err 'database is locked: still held by another process after 1 s' "history add: it says so"
wait "$holder"
BENCH_HISTORY_LOCK_TIMEOUT=x "$BENCH" history list --db h.db >/dev/null 2>bad.err
is $? 2 "BENCH_HISTORY_LOCK_TIMEOUT=x: bad input, exit 2"
is "$(cat bad.err)" "invalid BENCH_HISTORY_LOCK_TIMEOUT 'x': expected seconds in 0..86400" "it says what is accepted"

# ---- a database another user cannot read ----
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	# nobody reaches the file, and is refused it
	chmod o+x "$TEST_TMP"
	mkdir -m 755 perm
	cp h.db perm/h.db
	chmod 600 perm/h.db
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$BENCH" history list --db perm/h.db >perm.out 2>perm.err
	is $? 1 "a database this user cannot read: exit 1 (could not be read), not 2"
	is "$(cat perm.err)" "history: failed to open perm/h.db: unable to open database file: Permission denied" \
		"it gives the cause"
else
	skip "needs root, setpriv and a nobody user" "a database another user cannot read"
fi

# ---- a read-only file system ----
if [ -n "${BENCH_TEST_MNTNS:-}" ]; then
	mkdir ro
	mount -t tmpfs -o size=1m tmpfs ro
	old ro/old.db && cp h.db ro/cur.db
	mount -o remount,ro ro
	"$BENCH" history list --db ro/old.db >roold.out 2>roold.err
	is $? 0 "an older layout on a read-only file system: listed, exit 0"
	like roold.out '^ +1 +[^ ]+ +[0-9a-f]+ .* hits: ' "its run is listed, with its build filled in"
	is "$(cat roold.err)" "history: ro/old.db has layout 3, older than this bench's $(sqlite3 h.db 'PRAGMA user_version'), and cannot be written here: it is read through an up-to-date copy in memory (bench history add where it can be written updates it)" \
		"it says it reads a copy, and why"
	"$BENCH" history show --db ro/old.db >/dev/null 2>&1
	is $? 0 "... and shown, exit 0"
	is "$(sqlite3 ro/old.db 'PRAGMA user_version')" 3 "the file is untouched"
	"$BENCH" history add --db ro/old.db a.json >roadd.out 2>roadd.err
	is $? 1 "history add there: exit 1 (could not be written), not 2"
	like roadd.err 'attempt to write a readonly database \(the file, or its file system, is read-only\)$' \
		"it gives the cause"
	"$BENCH" history add --db ro/cur.db b.json >/dev/null 2>rocur.err
	is $? 1 "history add of a new run to a current layout there: exit 1"
	like rocur.err 'attempt to write a readonly database \(the file, or its file system, is read-only\)$' \
		"it gives the cause"
	"$BENCH" history list --db ro/cur.db >/dev/null 2>&1
	is $? 0 "history list of it: exit 0"
	umount ro
else
	skip "needs root and a private mount namespace" "a read-only file system"
fi

# ---- what the docs say ----
# shellcheck disable=SC2016 # the backquotes are the page's
is "$(sed -n 's/.*`PRAGMA user_version`, \([0-9]*\) today.*/\1/p' "$SRC_TOP/docs/fleets.md")" \
	"$(sqlite3 h.db 'PRAGMA user_version')" "docs/fleets.md gives the layout version this bench writes"
# under a restrictive umask: the modes the docs give
mkdir um
(
	cd um || exit 1
	umask 027
	XDG_DATA_HOME="$TEST_TMP/um/xdg" "$BENCH" history add ../a.json >/dev/null
)
is "$(stat -c %a um/xdg/bench um/xdg/bench/history.db)" "$(printf '750\n640')" \
	"umask 027: the history's directory 750, its database 640"
like "$SRC_TOP/docs/fleets.md" 'umask' "docs/fleets.md says how the umask sets them"

done_testing
