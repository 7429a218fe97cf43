# SPDX-License-Identifier: GPL-2.0
# Checks one object a command printed with --json against the types of
# docs/results-and-json.md, "JSON of the commands": the envelope, then the
# command's own keys, or a refusal's error object.  Prints one line per
# violation, nothing when it conforms.  Usage: jq -r -f tests/cli_shape.jq FILE
# (tests/cli_json_shape.t also checks that every key is named there.)

def t: type;
def isint: (t == "number") and (. == floor);
def isstr: t == "string";
def isnum_or_null: (t == "number") or (t == "null");
def check(path; cond; what): if (path | cond) then empty else "\(what)" end;

def error_ok: [
	check(keys; . == (["command", "error", "exit_status", "schema", "schema_version"]);
		"an error object holds exactly schema, schema_version, command, error, exit_status"),
	check(.error; isstr and length > 0; "error is not a message"),
	check(.exit_status; isint and . > 0 and . < 256; "exit_status is not a failing status")
];

def list_ok: [
	check(.benchmarks; t == "array" and length > 0 and all(.[]; (.name | isstr)
		and (.description | isstr) and (.alias == null or (.alias | isstr)));
		"benchmarks is not a list of {name, description, alias}"),
	check(.commands; t == "array" and length > 0 and all(.[]; (.name | isstr) and (.description | isstr));
		"commands is not a list of {name, description}")
];

def config_ok: [
	check(.configs; t == "array" and length > 0 and all(.[]; (.file | isstr) and (.benchmark | isstr)
		and (.label | isstr) and (.slug | isstr) and (.config | t == "object"));
		"configs is not a list of {file, benchmark, label, slug, config}")
];

def compare_ok: [
	check(.base; t == "array" and all(.[]; isstr); "base is not a list of files"),
	check(.new; t == "array" and all(.[]; isstr); "new is not a list of files"),
	check(.benchmark; isstr; "benchmark is not a string"),
	check(.rows; t == "array" and all(.[]; t == "object"); "rows is not a list of objects"),
	check(.worse; t == "boolean"; "worse is not a boolean"),
	check(.emulated_timings; t == "boolean"; "emulated_timings is not a boolean"),
	check(.exit_status; . == 0 or . == 1; "exit_status is not 0 or 1")
];

def history_list_ok: [
	check(.runs; t == "array" and all(.[]; (.id | isint) and (.benchmark | isstr)
		and (.config | t == "object") and (.n | isint)); "runs is not a list of runs")
];

def history_show_ok: [
	check(.benchmark; isstr; "benchmark is not a string"),
	check(.emulated_timings; t == "boolean"; "emulated_timings is not a boolean"),
	check(.kernels; t == "array" and all(.[]; (.kernel | isstr) and (.runs | isint)
		and (.run_ids | t == "array")); "kernels is not a list of kernels"),
	check(.kernels; all(.[]; (.ci95_pct | t == "array" and length == 2
		and all(.[]; isnum_or_null)) and (.p | isnum_or_null)
		and (.verdict == null or (.verdict | IN("better", "worse", "within", "undecided", "n/a")))
		and (.base == (.verdict == null))); "a kernel's interval, p or verdict is not compare's shape")
];

def ab_ok: [
	check(.a; t == "object"; "a is not an object"),
	check(.b; t == "object"; "b is not an object"),
	check(.verdict; . == "better" or . == "worse" or . == "within" or . == "undecided";
		"verdict is not better, worse, within or undecided"),
	check(.interval_pct; t == "array" and length == 2 and all(.[]; isnum_or_null);
		"interval_pct is not [lo, hi]"),
	check(.blocks; isint; "blocks is not a count"),
	check(.dir; isstr; "dir is not a string")
];

[
	check(.schema; . == "bench-cli"; "schema is not \"bench-cli\""),
	check(.schema_version; . == 1; "schema_version is not 1"),
	check(.command; isstr; "command is not a string"),
	(if has("error") then error_ok[]
	 elif .command == "list" then list_ok[]
	 elif .command == "config" then config_ok[]
	 elif .command == "compare" then compare_ok[]
	 elif .command == "history list" then history_list_ok[]
	 elif .command == "history show" then history_show_ok[]
	 elif .command == "ab" then ab_ok[]
	 else "command \(.command) prints no JSON but an error object" end)
] | .[]
