# SPDX-License-Identifier: GPL-2.0
# Checks a `bench --json` document against schema version 1
# (docs/results-and-json.md, "JSON schema (version 1)").  Prints one line
# per violation; prints nothing when the document conforms.  Usage: jq -r -f tests/schema.jq FILE

def t: type;
def isint: (t == "number") and (. == floor);
def isnum_or_null: (t == "number") or (t == "null");
def isint_or_null: isint or (t == "null");
def isstr_or_null: (t == "string") or (t == "null");
def check(path; cond; what): if (path | cond) then empty else "\(what)" end;
def intarr: (t == "array") and all(.[]; isint);

def stats_ok: (t == "object") and (.n | isint)
	and all(.mean, .stddev, .median, .min, .max, .cv, .ci95; isnum_or_null)
	and (.unit | t == "string") and (.higher_is_better | t == "boolean")
	and ((.resolution == null) or (.resolution | t == "number" and . > 0))
	# the robust summaries (absent in older files)
	and all(.p90, .p99, .q1, .q3, .iqr, .mad; isnum_or_null)
	and ((.tukey == null) or ((.tukey.low_fence | isnum_or_null) and (.tukey.high_fence | isnum_or_null)
		and (.tukey.outliers | t == "array" and all(.[]; (.index | isint) and (.sample | isint_or_null)
			and (.value | t == "number") and (.side == "high" or .side == "low")
			and (.beyond_fence | t == "number" and . > 0) and (.iqrs | isnum_or_null)))));

. as $d |
[
	check(.schema; . == "bench-result"; "schema is not \"bench-result\""),
	check(.schema_version; . == 1; "schema_version is not 1"),
	check(.benchmark; t == "string"; "benchmark is not a string"),
	check(.options.runner; t == "object"; "options.runner missing"),
	(["duration_sec", "warmup_sec", "producers", "consumers"][] as $k |
		check(.options.runner[$k]; isint; "options.runner.\($k) not an integer")),
	check(.options.runner.affinity; t == "boolean"; "options.runner.affinity not boolean"),
	check(.options.runner.prod_affinity; intarr; "options.runner.prod_affinity not [int]"),
	check(.options.runner.cons_affinity; intarr; "options.runner.cons_affinity not [int]"),
	check(.options.benchmark; t == "object"; "options.benchmark not an object"),
	check(.context; t == "object"; "context missing"),
	check(.context.kernel_release; t == "string"; "context.kernel_release not a string"),
	check(.context.cpu_model; isstr_or_null; "context.cpu_model not string/null"),
	check(.context.online_cpus; isstr_or_null; "context.online_cpus not string/null"),
	check(.context.nr_online_cpus; isint; "context.nr_online_cpus not an integer"),
	check(.context.allowed_cpus; intarr and length > 0; "context.allowed_cpus not a non-empty [int]"),
	check(.context.producer_cpus; (t == "array") and length == $d.options.runner.producers
		and all(.[]; isint_or_null); "context.producer_cpus not one int/null per producer"),
	check(.context.consumer_cpus; (t == "array") and length == $d.options.runner.consumers
		and all(.[]; isint_or_null); "context.consumer_cpus not one int/null per consumer"),
	(["bpf_jit_enable", "bpf_jit_harden", "bpf_jit_kallsyms", "bpf_jit_limit"][] as $k |
		check(.context.sysctl[$k]; isint_or_null; "context.sysctl.\($k) not int/null")),
	# the kernel build and the run's time and tag (absent in older files, always written now)
	check(.context.kernel_version; isstr_or_null; "context.kernel_version not string/null"),
	check(.context.kernel_build_id; (t == "null") or (t == "string" and test("^([0-9a-f]{2}){1,64}$"));
		"context.kernel_build_id not lower-case hex/null"),
	check(.context.kernel_cmdline; isstr_or_null; "context.kernel_cmdline not string/null"),
	(["start_time", "end_time"][] as $k |
		check(.context[$k]; t == "string" and test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$");
			"context.\($k) not a UTC ISO 8601 time (YYYY-MM-DDTHH:MM:SSZ)")),
	check(.context; .start_time <= .end_time; "context.start_time after context.end_time"),
	check(.context.tag; isstr_or_null; "context.tag not string/null"),
	check(.context.libbpf_version; t == "string"; "context.libbpf_version not a string"),
	check(.context.bench_version; t == "string"; "context.bench_version not a string"),
	check(.context.command_line; (t == "array") and length > 0 and all(.[]; t == "string");
		"context.command_line not [string]"),
	check(.context.hypervisor; . as $h | ["none", "kvm", "tcg", "other", "unknown"] | index([$h]);
		"context.hypervisor not none/kvm/tcg/other/unknown"),
	check(.context.hypervisor_evidence; t == "string" and length > 0;
		"context.hypervisor_evidence not a non-empty string"),
	check(.context.cgroup_mode; . as $m | (t == "null") or (["v1", "v2", "hybrid", "none"] | index([$m]));
		"context.cgroup_mode not v1/v2/hybrid/none/null"),
	check(.memory_source; (t == "null") or ((.cgroup | . == "v1" or . == "v2")
		and (.current_file | isstr_or_null) and (.peak_file | isstr_or_null));
		"memory_source not null or {cgroup v1/v2, current_file, peak_file}"),
	# the memory breakdown (absent in older files): a source per field, each a metric
	check(.memory_source.fields; (. == null) or ((t == "object")
		and all(.[]; (.file | t == "string") and (.key | isstr_or_null))
		and all(keys[]; test("^memory_[a-z]+$")));
		"memory_source.fields not {memory_NAME: {file, key}}"),
	# the fields memory_stat sums (absent in older files), each a field; memory_stat with them only
	check(.memory_source.stat_parts; (. == null) or ((t == "array")
		and all(.[]; t == "string" and ($d.memory_source.fields[.] | t == "object"))
		and ((length > 0) == ($d.memory_source.fields.memory_stat != null)));
		"memory_source.stat_parts not [a field of memory_source.fields], or not there with memory_stat"),
	(.memory_source.fields // {} | keys[] as $k |
		check($d.summary.metrics[$k]; stats_ok and .unit == "MiB";
			"memory_source.fields.\($k) has no summary.metrics.\($k) in MiB")),
	(.summary.metrics // {} | keys[] | select(test("^memory_")) as $k |
		check($d.memory_source.fields[$k]; t == "object";
			"summary.metrics.\($k) has no source in memory_source.fields")),
	check(.samples; t == "array"; "samples not an array"),
	(.samples | to_entries[] | .key as $i | .value |
		check(.iter; . == $i; "samples[\($i)].iter is not \($i)"),
		check(.warmup; t == "boolean"; "samples[\($i)].warmup not boolean"),
		check(.interval_ns; isint and . > 0; "samples[\($i)].interval_ns not a positive integer"),
		check(.counters; (t == "object") and (.hits | isint) and (.drops | isint)
			and (.fails | isint) and (.mem_bytes | isint_or_null)
			and ((.prod_hits == null) or (.prod_hits | intarr and length == $d.options.runner.producers))
			and ((.mem_stat_bytes == null) or ((.mem_stat_bytes | t == "object")
				and all(.mem_stat_bytes[]; isint_or_null)
				and (.mem_stat_bytes | keys) == ($d.memory_source.fields // {} | keys)));
			"samples[\($i)].counters malformed"),
		check(.metrics; (t == "object") and all(.[]; isnum_or_null); "samples[\($i)].metrics malformed"),
		check(.repeat; (. == null) or (isint and . >= 0 and . < ($d.options.runner.repeat // 1));
			"samples[\($i)].repeat not an integer in 0..repeat-1"),
		check(.warmup; . == ($i < $d.options.runner.warmup_sec * ($d.options.runner.repeat // 1));
			"samples[\($i)].warmup flag wrong")),
	check(.options.runner.repeat; (. == null) or (isint and . >= 1); "options.runner.repeat not a positive integer"),
	check(.options.runner.zero_seed; (. == null) or (t == "boolean"); "options.runner.zero_seed not boolean"),
	check(.samples | map(select(.warmup | not)) | length;
		. == $d.options.runner.duration_sec * ($d.options.runner.repeat // 1);
		"measured sample count differs from duration_sec x repeat"),
	check(.summary.metrics; (t == "object") and length > 0 and all(.[]; stats_ok);
		"summary.metrics malformed"),
	check(.summary.metrics | keys; . as $k | ($d.samples[0].metrics // {} | keys) - $k == [];
		"a sample metric is missing from summary.metrics"),
	(.summary.metrics | to_entries[] | select(.key as $k | $d.samples[0].metrics // {} | has($k) | not) |
		.key as $k | .value.n as $n |
		check(.value.values; (t == "array") and all(.[]; isnum_or_null) and length == $n;
			"summary.metrics.\($k) is in no sample, so needs its own \"values\" (n of them)")),
	check(.summary.fails; isint; "summary.fails not an integer"),
	check(.summary.peak_memory_bytes; isint_or_null; "summary.peak_memory_bytes not int/null"),
	check(.summary.peak_memory_mib; isnum_or_null; "summary.peak_memory_mib not number/null"),
	check(.summary.peak_memory_resolution_mib; isnum_or_null; "summary.peak_memory_resolution_mib not number/null"),
	check(.per_producer; (t == "null") or ((.unit | t == "string")
		and (.producers | t == "array" and length == $d.options.runner.producers
			and all(.[]; (.producer | isint) and (.cpu | isint_or_null)
				and (.count | isint) and (.rate | isnum_or_null)))
		and (.total_rate | isnum_or_null)
		and all(.fairness.min, .fairness.max, .fairness.max_over_min, .fairness.jain_index; isnum_or_null));
		"per_producer malformed"),
	check(.warnings; (t == "array") and all(.[]; t == "string"); "warnings not [string]"),
	# contention (absent in files written before it existed)
	check(.validity; (t == "null") or ((.valid | t == "boolean")
		and (if .valid then .reason == null else .reason | t == "string" end)
		and (.min_cpu_share | isnum_or_null)
		and (.prod_cpu_share | t == "array" and length == $d.options.runner.producers
			and all(.[]; isnum_or_null))
		and ((.note | t == "null" or t == "string") or (has("note") | not))
		and ((has("fair_cpu_share") | not) or (.fair_cpu_share | t == "array"
			and length == $d.options.runner.producers
			and all(.[]; (t == "null") or (t == "number" and . > 0 and . <= 1))))); "validity malformed"),
	(.samples | to_entries[] | .key as $i | .value |
		check(.contention; (t == "null") or (
			(.prod_cpu_share | t == "array" and length == $d.options.runner.producers
				and all(.[]; (t == "null") or (t == "number" and . >= 0)))
			and (.prod_nivcsw | t == "array" and length == $d.options.runner.producers
				and all(.[]; (t == "null") or (isint and . >= 0)))
			and (.steal_share | isnum_or_null));
			"samples[\($i)].contention malformed")),
	check(.counts; (. == null) or ((t == "object") and all(.[]; isint and . >= 0));
		"counts not {NAME: non-negative integer}"),
	# --latency only
	check(.latency; (t == "null") or ((.clock | t == "string") and (.unit == "ns")
		and (.ops_per_trigger | isint) and (.triggers | isint) and (.overflow | isint)
		and (.overflow_from_ns | isint)
		and (.timer_pair_ns | (.median | isnum_or_null) and (.min | isnum_or_null)
			and (.rounds | isint) and (.subtracted | t == "boolean"))
		and all(.per_trigger, .per_op; all(.p50, .p90, .p99, .p99_9, .max; isnum_or_null))
		and (.buckets | t == "array" and all(.[]; (.lo_ns | isint) and (.hi_ns | isint_or_null)
			and (.count | isint and . > 0))));
		"latency malformed"),
	# the machine's speed beside the batches (absent in older files)
	check(.latency.reference; (. == null) or ((.steps | isint and . > 0) and (.every | isint and . > 0)
		and (.samples | isint and . >= 0) and (.p50_ns | isnum_or_null)
		and ((.p50_ns == null) == (.samples == 0))
		and (.buckets | t == "array" and all(.[]; (.lo_ns | isint) and (.hi_ns | isint_or_null)
			and (.count | isint and . > 0)))
		and ([.buckets[].count] | add // 0) == .samples);
		"latency.reference malformed"),
	(.samples | to_entries[] | .key as $i | .value |
		check(.contention.reference_ns; isnum_or_null and ((. == null) or (. > 0));
			"samples[\($i)].contention.reference_ns not a positive number/null"),
		check(.contention // {} | has("reference_ns"); (. == false) or ($d.latency != null);
			"samples[\($i)].contention.reference_ns without a latency block")),
	check(.samples | map(select(.counters.latency_triggers != null)) | length;
		. == 0 or . == ($d.samples | length); "latency_triggers in some samples only"),
	check(if $d.latency then $d.samples | all(.[]; (.counters.latency_triggers | isint) and (.counters.latency_edge_triggers | isint)) else true end;
		. == true; "latency run without latency_triggers in every sample")
] | .[]
