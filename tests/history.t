#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench history: result files into SQLite and back out as lists, trends,
# charts and compare sides, on real count-local and count-global results
# (no BPF needed); "other kernels" are the same runs with another
# context.kernel_release.  Two writers at once lose nothing; a damaged,
# foreign or newer database is refused with one line and left
# byte-identical; a version 1 database is migrated, its runs kept and
# their configuration keys recomputed.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
require_plot_tools
command -v sqlite3 >/dev/null || {
	[ "${CI:-}" = "true" ] && { echo "1..1"; echo "not ok 1 - sqlite3 not installed (install-deps.sh installs it)"; exit 1; }
	skip_all "sqlite3 not installed (scripts/install-deps.sh installs it)"
}

cd "$TEST_TMP" || exit 1
export XDG_DATA_HOME=$TEST_TMP/xdg HOME=$TEST_TMP/home
DB=$XDG_DATA_HOME/bench/history.db
rows() { sqlite3 "${1:-$DB}" 'SELECT count(*) FROM runs'; }

# -d1: what is checked is the runs' means as stored, listed and compared,
# which a run of one sample has as well as one of two; the three runs are
# independent: side by side (lib.sh, par_start)
par_start a.out "$BENCH" -q -w0 -d1 --json a.json count-local
par_start b.out "$BENCH" -q -w0 -d1 --json b.json count-local
par_start g.out "$BENCH" -q -w0 -d1 --json g.json count-global
par_wait a.out
ok $? "count-local --json: exit 0"
par_wait b.out
ok $? "a second count-local --json: exit 0"
par_wait g.out
ok $? "count-global --json: exit 0"
for k in 6.1.0-57-amd64 6.12.100+deb12-amd64; do
	jq --arg k "$k" '.context.kernel_release = $k' a.json >"a-$k.json"
	jq --arg k "$k" '.context.kernel_release = $k' b.json >"b-$k.json"
done

# add: the default database under $XDG_DATA_HOME, created with its directory
is_exit 0 "history add: exit 0" "$BENCH" history add a.json
like "$TEST_TMP/is_exit.out" '^a.json: added as run 1$' "history add: says the run's id"
assert "history add: the database is \$XDG_DATA_HOME/bench/history.db" test -f "$DB"
is "$(sqlite3 "$DB" 'PRAGMA user_version')" 4 "the database carries schema version 4"
is_exit 0 "the same file again: exit 0" "$BENCH" history add a.json
like "$TEST_TMP/is_exit.out" '^a.json: already in the history as run 1$' "the same file again: not added twice"
is "$(rows)" 1 "one row after adding one file twice"
(unset XDG_DATA_HOME; "$BENCH" history add a.json >/dev/null 2>&1)
assert "without XDG_DATA_HOME: ~/.local/share/bench/history.db" test -f "$HOME/.local/share/bench/history.db"
is_exit 0 "--db FILE: exit 0" "$BENCH" history add --db own.db a.json g.json
is "$(rows own.db)" 2 "--db FILE: both files in it"

# all or none: one bad file and nothing is added
echo '{}' >bad.json
is_exit 2 "add with a bad file among good ones: exit 2" "$BENCH" history add b.json bad.json
is "$(grep -c . "$TEST_TMP/is_exit.err")" 1 "a bad file: one line on stderr"
like "$TEST_TMP/is_exit.err" 'bad.json: schema' "a bad file: named with its field"
is "$(rows)" 1 "a bad file: the good one was not added either"

"$BENCH" history add b.json a-*.json b-*.json g.json >add.out 2>&1
ok $? "history add of six more runs: exit 0"
is "$(rows)" 7 "seven runs stored"

# list and its selection
is_exit 0 "history list: exit 0" "$BENCH" history list
is "$(($(grep -c . "$TEST_TMP/is_exit.out") - 1))" 7 "history list: a header and one line per run"
like "$TEST_TMP/is_exit.out" '^ +id +kernel +build +tag +benchmark +configuration +p +machine' "history list: the columns"
is_exit 0 "list --benchmark count-global: exit 0" "$BENCH" history list --benchmark count-global
is "$(($(grep -c . "$TEST_TMP/is_exit.out") - 1))" 1 "list --benchmark: one run"
is_exit 0 "list --kernel 6.1.0-57-amd64: exit 0" "$BENCH" history list --kernel 6.1.0-57-amd64
is "$(($(grep -c . "$TEST_TMP/is_exit.out") - 1))" 2 "list --kernel: exactly that release (not 6.12)"
machine=$(jq -r '.context.cpu_model' a.json)
is_exit 0 "list --machine (part of the name): exit 0" "$BENCH" history list --machine "${machine:0:5}"
is "$(($(grep -c . "$TEST_TMP/is_exit.out") - 1))" 7 "list --machine: a part of the name selects"

# show: the trend across kernels, in version order
is_exit 2 "show over two benchmarks: exit 2" "$BENCH" history show
like "$TEST_TMP/is_exit.err" 'different configurations: select one' "show over two benchmarks: refused, saying how to select"
is "$(grep -c . "$TEST_TMP/is_exit.err")" 1 "show over two benchmarks: one line"
is_exit 0 "show --benchmark count-local: exit 0" "$BENCH" history show --benchmark count-local
cp "$TEST_TMP/is_exit.out" show.out
diag "$(cat show.out)"
# a row's columns are 2 or more spaces apart (machine names have single spaces);
# the rows are the lines with every column, the legend under them is not
row() { awk -F '  +' -v c="$1" 'NR > 2 && NF >= 11 { print $c }' "${2:-show.out}"; }
is "$(row 1 | tr '\n' ' ')" \
	"6.1.0-57-amd64 6.12.100+deb12-amd64 $(jq -r .context.kernel_release a.json) " \
	"show: one row per kernel, in version order (6.1 before 6.12)"
want=$(jq -s '(.[0].summary.metrics.hits.mean + .[1].summary.metrics.hits.mean) / 2' a.json b.json)
got=$(row 6 | head -1)
assert "show: a kernel's mean is the mean of its runs' means ($got, $want)" \
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g - w < 0.0005 && w - g < 0.0005) }'
like show.out '^count-local default \(1 producers\): hits \(M/s, higher is better\)' "show: what the figures are"
is "$(row 5 | tr '\n' ' ')" "2 2 2 " "show: two runs on each kernel"
is "$(row 8 | head -1)" base "show: the first kernel is the base of the changes"
like show.out '\+0\.00%' "show: the change against the first kernel (the same runs: +0.00%)"
is_exit 0 "show --metric drops: exit 0" "$BENCH" history show --benchmark count-local --metric drops
like "$TEST_TMP/is_exit.out" ': drops \(M/s' "show --metric: that metric"
is_exit 2 "show --metric that no run has: exit 2" "$BENCH" history show --benchmark count-local --metric nope
is_exit 0 "show --like 1: exit 0" "$BENCH" history show --like 1
is_exit 2 "history with an unknown command: exit 2" "$BENCH" history drop
like "$TEST_TMP/is_exit.err" "'drop' is not one; accepted: add, list, show" "an unknown command: named, with what is accepted"
is_exit 2 "list of a database that does not exist: exit 2" "$BENCH" history list --db nothing.db
assert "list of a missing database: nothing created" test ! -e nothing.db

# plot history: the chart of show's trend
is_exit 0 "plot history -o trend.svg: exit 0" "$BENCH" plot history --benchmark count-local -o trend.svg
assert "plot history: a well-formed SVG" xmllint --noout trend.svg
like trend.svg '6\.12\.100\+deb12-amd64' "plot history: the kernels on the axis"
like trend.svg 'hits \(M/s, higher is better\)' "plot history: the metric and its unit on the axis"
is_exit 0 "plot history as text: exit 0" "$BENCH" plot history --benchmark count-local -o -
like "$TEST_TMP/is_exit.out" 'across kernels' "plot history as text: drawn"
is_exit 2 "plot history over two benchmarks: exit 2" "$BENCH" plot history -o x.svg
assert "plot history refused: no picture" test ! -e x.svg
# a history that opens but cannot be read (its metrics table gone): show
# and its chart fail alike, with the one table's status for it
cp "$DB" unreadable.db && sqlite3 unreadable.db 'DROP TABLE metrics'
is_exit 1 "show of a history that cannot be read: exit 1" \
	"$BENCH" history show --db unreadable.db --benchmark count-local
like "$TEST_TMP/is_exit.err" '^history: failed to read the history in unreadable\.db: ' \
	"show of a history that cannot be read: the line says so"
is_exit 1 "plot history of a history that cannot be read: exit 1, as history show" \
	"$BENCH" plot history --db unreadable.db --benchmark count-local -o y.svg
is "$(grep -c . "$TEST_TMP/is_exit.err")" 1 "plot history of a history that cannot be read: one line"
assert "plot history that failed: no picture" test ! -e y.svg

# compare takes a stored run as a side
is_exit 0 "compare history:1 b.json: exit 0" "$BENCH" compare --verbose history:1 b.json
like "$TEST_TMP/is_exit.out" '^hits \(M/s\)' "compare history:1: the metrics compared"
is_exit 0 "compare history:DB:ID: exit 0" "$BENCH" compare "history:own.db:2" g.json
is_exit 2 "compare history:99 (no such run): exit 2" "$BENCH" compare history:99 b.json
is "$(grep -c . "$TEST_TMP/is_exit.err")" 1 "compare history:99: one line"
like "$TEST_TMP/is_exit.err" 'no run 99' "compare history:99: says so"
is_exit 2 "compare history:x: exit 2" "$BENCH" compare history:x b.json

# two writers at once: every run kept
for i in $(seq 1 12); do
	jq --arg k "c$i" '.context.kernel_release = $k' a.json >"c1-$i.json"
	jq --arg k "c$i" '.context.kernel_release = $k' g.json >"c2-$i.json"
done
writer() {	# writer <prefix>: one add per file, each its own transaction
	local f rc=0
	for f in "$1"-*.json; do
		"$BENCH" history add --db conc.db "$f" >/dev/null 2>>"$1.err" || rc=1
	done
	return $rc
}
writer c1 & p1=$!
writer c2 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
is "$r1 $r2" "0 0" "two concurrent writers: every add exits 0"
is "$(rows conc.db)" 24 "two concurrent writers: 24 adds, 24 rows"
is "$(sqlite3 conc.db 'SELECT count(*) FROM metrics')" \
	"$(( 12 * ($(jq '.summary.metrics | length' a.json) + 1) + 12 * ($(jq '.summary.metrics | length' g.json) + 1) ))" \
	"two concurrent writers: every run's metrics stored"

# eight writers at once into a database that does not exist yet: the
# first to take the lock creates it, the others find it created (not a
# half-read one), every run kept; rounds, since it is a race
lost=0
for round in $(seq 1 15); do
	pids=()
	for i in $(seq 1 8); do
		"$BENCH" history add --db "new$round.db" "c1-$i.json" >/dev/null 2>>"new$round.err" &
		pids+=($!)
	done
	rc=0
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	[ "$rc" -eq 0 ] && [ "$(rows "new$round.db")" = 8 ] || lost=$((lost + 1))
done
is "$lost" 0 "eight concurrent adds creating the database, 15 rounds: every add exits 0, 8 rows each"
[ "$lost" -eq 0 ] || diag "$(cat new*.err | sort | uniq -c | head -5)"

# refusals: one line, exit 2, the database byte-identical after
untouched() {	# untouched <description> <db> <stderr regex>
	local what=$1 db=$2 want=$3 cmd
	cp "$db" "$db.before"
	for cmd in "history add --db $db b.json" "history list --db $db" "history show --db $db" \
		   "compare history:$db:1 b.json"; do
		# shellcheck disable=SC2086
		is_exit 2 "$what: $cmd: exit 2" "$BENCH" $cmd
		is "$(grep -c . "$TEST_TMP/is_exit.err")" 1 "$what: $cmd: one line"
	done
	like "$TEST_TMP/is_exit.err" "$want" "$what: $(head -1 "$TEST_TMP/is_exit.err")"
	assert "$what: the database is byte-identical after" cmp -s "$db" "$db.before"
	assert "$what: no journal left" test ! -e "$db-journal"
}
cp "$DB" corrupt.db
# page 2 (of 4096 bytes) is the root of the runs table: its b-tree header goes
dd if=/dev/urandom of=corrupt.db bs=1 seek=4096 count=2048 conv=notrunc 2>/dev/null
untouched "a damaged database" corrupt.db 'the database is damaged \(.*\): refusing to touch it$'
echo "not a database at all, just text long enough to be read as a header............" >text.db
untouched "a text file" text.db 'not a bench history database'
cp "$DB" newer.db
sqlite3 newer.db 'PRAGMA user_version = 5'
untouched "a newer database" newer.db 'schema version 5 is newer than this bench reads \(4\)'
sqlite3 foreign.db 'CREATE TABLE t (x); INSERT INTO t VALUES (1)'
untouched "another program's database" foreign.db 'not a bench history database \(application id 0'

# migration: a version 1 database (runs only) gets its metrics table
sqlite3 v1.db <<SQL
CREATE TABLE runs (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, added TEXT NOT NULL,
  benchmark TEXT NOT NULL, config TEXT NOT NULL, config_key TEXT NOT NULL, kernel TEXT NOT NULL,
  machine TEXT NOT NULL, producers INTEGER NOT NULL, source TEXT NOT NULL, doc TEXT NOT NULL);
CREATE INDEX runs_key ON runs (benchmark, config, kernel, machine);
INSERT INTO runs VALUES (1, 'x', '2026-01-01T00:00:00Z', 'count-local', 'default', '{}',
  'old-kernel', 'old machine', 1, 'a.json', CAST(readfile('a.json') AS TEXT));
PRAGMA application_id = 1651401576;
PRAGMA user_version = 1;
SQL
is_exit 0 "a version 1 database: history list exit 0" "$BENCH" history list --db v1.db
is "$(sqlite3 v1.db 'PRAGMA user_version')" 4 "migrated: schema version 4"
is "$(sqlite3 v1.db 'SELECT build != '"''"' FROM runs WHERE id = 1')" 1 "migrated: the old run's kernel build filled from its document"
like "$TEST_TMP/is_exit.out" "old-kernel .* hits: $(jq '.summary.metrics.hits.mean * 1000 | round / 1000' a.json)" \
	"migrated: the old run listed with its mean, from the metrics filled by the migration"
is "$(rows v1.db)" 1 "migrated: the run kept"
is_exit 0 "migrated: a new run added" "$BENCH" history add --db v1.db b.json
is "$(rows v1.db)" 2 "migrated: both runs"
is "$(sqlite3 v1.db 'SELECT count(DISTINCT config_key) FROM runs')" 1 \
	"migrated: the old run's configuration key recomputed, the new run of it shares it"
# a version 1 database whose stored document is damaged: refused, rolled back
cp v1.db v1bad.db
sqlite3 v1bad.db "DROP TABLE metrics; UPDATE runs SET doc = '{\"schema\": 1}'; PRAGMA user_version = 1"
cp v1bad.db v1bad.before
is_exit 2 "a version 1 database with a damaged run: exit 2" "$BENCH" history list --db v1bad.db
like "$TEST_TMP/is_exit.err" 'the stored document does not load' "a damaged run: the migration says which"
is "$(sqlite3 v1bad.db 'PRAGMA user_version')" 1 "a damaged run: the migration rolled back (still version 1)"
# a stored document that is not JSON, whichever migration meets it (1 -> 2
# the metrics, 2 -> 3 the keys, 3 -> 4 the builds): the one line naming
# the run, exit 2, nothing written
for v in 1 2 3; do
	db=v${v}nojson.db
	sqlite3 "$db" <<SQL
CREATE TABLE runs (id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, added TEXT NOT NULL,
  benchmark TEXT NOT NULL, config TEXT NOT NULL, config_key TEXT NOT NULL, kernel TEXT NOT NULL,
  machine TEXT NOT NULL, producers INTEGER NOT NULL, source TEXT NOT NULL, doc TEXT NOT NULL);
CREATE INDEX runs_key ON runs (benchmark, config, kernel, machine);
INSERT INTO runs VALUES (1, 'x', '2026-01-01T00:00:00Z', 'count-local', 'default', '{}',
  'old-kernel', 'old machine', 1, 'a.json', 'not JSON {');
PRAGMA application_id = 1651401576;
SQL
	if [ "$v" -gt 1 ]; then
		sqlite3 "$db" "CREATE TABLE metrics (run_id INTEGER NOT NULL REFERENCES runs (id),
		  ord INTEGER NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL, n INTEGER NOT NULL,
		  mean REAL, stddev REAL, higher_is_better INTEGER NOT NULL, PRIMARY KEY (run_id, name))"
	fi
	sqlite3 "$db" "PRAGMA user_version = $v"
	untouched "a version $v database whose run 1 is not JSON" "$db" \
		"^history: $db: run 1: the stored document is not JSON\$"
done

# the tag is part of a row's identity: base and patched runs of one build
# are two rows of show, base first, the change of patched against it
jq '.context.tag = "base"' a.json >tag-base-1.json
jq '.context.tag = "base" | .context.start_time = "2026-01-01T00:00:01Z"' b.json >tag-base-2.json
jq '.context.tag = "patched"' a.json >tag-patched-1.json
jq '.context.tag = "patched" | .context.start_time = "2026-01-01T00:00:02Z"' b.json >tag-patched-2.json
is_exit 0 "tagged runs of one build: added" "$BENCH" history add --db tags.db \
	tag-base-1.json tag-base-2.json tag-patched-1.json tag-patched-2.json
is_exit 0 "show of base and patched on one build: exit 0" "$BENCH" history show --db tags.db
is "$(row 3 "$TEST_TMP/is_exit.out" | paste -sd' ')" "base patched" \
	"show: one row per tag (base, then patched), not one merged row"
like "$TEST_TMP/is_exit.out" ' base .* base +- +1,2 +-$' "show: base's row, its own two runs, the base"
like "$TEST_TMP/is_exit.out" ' patched .* [+-][0-9.]+% +(\[[^]]*\]%|-|unbounded) +3,4 +(better|worse|within|undecided)' \
	"show: patched's row, its change against base, interval and verdict"
is_exit 0 "show --json of them: exit 0" "$BENCH" history show --json --db tags.db
is "$(jq -c '[.kernels[] | [.tags, .base, .run_ids]]' "$TEST_TMP/is_exit.out")" \
	'[["base",true,[1,2]],["patched",false,[3,4]]]' "show --json: two rows, one a tag"

# a selection that matches nothing: list and show agree (2), naming what is stored
is_exit 2 "list --config that matches nothing: exit 2" "$BENCH" history list --db tags.db --config overwrite
like "$TEST_TMP/is_exit.err" "^history list: no run in tags.db matches; the configurations stored: count-local --config '[^']*'$" \
	"list: one line listing the configurations stored"
is "$(wc -c <"$TEST_TMP/is_exit.out")" 0 "list: nothing on stdout"
is_exit 2 "show --config that matches nothing: exit 2, as list" "$BENCH" history show --db tags.db --config overwrite
like "$TEST_TMP/is_exit.err" "no run in tags.db matches with a value; the configurations stored: count-local --config '" \
	"show: the same list"
is_exit 2 "list --json that matches nothing: exit 2" "$BENCH" history list --json --db tags.db --benchmark nope
is "$(jq -c '[.command, .exit_status, (.error | test("no run in tags.db matches"))]' "$TEST_TMP/is_exit.out")" \
	'["history list",2,true]' "list --json that matches nothing: the refusal as a JSON error object"

# a stored document damaged in place: compare says so, not "no run"
cp tags.db damaged.db
sqlite3 damaged.db "UPDATE runs SET doc = 'not JSON {' WHERE id = 2"
is_exit 2 "compare history:DB:2 of a damaged document: exit 2" \
	"$BENCH" compare history:damaged.db:1 history:damaged.db:2
like "$TEST_TMP/is_exit.err" "^compare: history:damaged.db:2: run 2's stored document in damaged.db is damaged \\(line 1, column [0-9]+: .*\\): it cannot be read back$" \
	"a damaged document: named as damaged"
! grep -q 'no run 2' "$TEST_TMP/is_exit.err"
ok $? "... not as a run that is not there"

done_testing
