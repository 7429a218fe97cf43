// SPDX-License-Identifier: GPL-2.0
/*
 * lpm-trie-{noop,baseline,lookup,insert,update,delete,free}: the speed of
 * the BPF LPM trie's operations, as upstream's bench_lpm_trie_map.c
 * measures them.  The trie holds keys 0..nr_entries-1, so no branch of it
 * is partly filled: its worst case.
 *
 * Each producer runs the BPF program (progs/lpm_trie_bench.c) through
 * BPF_PROG_TEST_RUN in a loop; one run does LPM_NR_LOOPS operations and
 * times them in BPF.  noop and baseline measure the harness and the key
 * generation, which lookup and update include.  insert and delete change
 * the trie: at the end of a pass over all keys the producer empties or
 * refills it, and their rates count only the time spent inside BPF, so
 * the refill is left out.  free creates, fills and closes tries; the time
 * the kernel takes to free one is taken in BPF on the workqueue
 * tracepoints around the freeing work.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "kernel_env.h"
#include "producer_counters.h"
/* before the skeleton: its .bss names struct lpm_shared_line */
#include "progs/lpm_trie_bench.h"
#include "lpm_trie_bench.skel.h"

/* how one operation is measured and printed */
struct lpm_op_desc {
	const char *name;		/* lpm-trie-NAME */
	enum lpm_op op;
	bool filled;			/* set-up fills the trie */
	/* passes change the trie: one producer, sequential keys, rate from BPF's time */
	bool passes;
	char rate_prefix;		/* M or K ops/s */
	double rate_div;
	const char *lat_unit;		/* ns or ms per op */
	double lat_div;
};

static const struct lpm_op_desc lpm_ops[] = {
	{ "noop", LPM_OP_NOOP, false, false, 'M', 1e6, "ns", 1 },
	{ "baseline", LPM_OP_BASELINE, false, false, 'M', 1e6, "ns", 1 },
	{ "lookup", LPM_OP_LOOKUP, true, false, 'M', 1e6, "ns", 1 },
	{ "insert", LPM_OP_INSERT, false, true, 'M', 1e6, "ns", 1 },
	{ "update", LPM_OP_UPDATE, true, false, 'M', 1e6, "ns", 1 },
	{ "delete", LPM_OP_DELETE, true, true, 'M', 1e6, "ns", 1 },
	{ "free", LPM_OP_FREE, false, true, 'K', 1e3, "ms", 1e6 },
};

static struct {
	long nr_entries;	/* 0: not given; upstream has no default either */
	long prefixlen;
	bool random;
	bool inline_loop;	/* the operation a constant: the verifier inlines bpf_loop() */
	bool own_cursor;	/* a key cursor per producer, not upstream's shared one */
} args = {
	.prefixlen = LPM_MAX_PREFIX_LEN,
};

enum {
	ARG_NR_ENTRIES = 9000,
	ARG_PREFIX_LEN,
	ARG_RANDOM,
	ARG_INLINE_LOOP,
	ARG_OWN_CURSOR,
};

static const struct argp_option opts[] = {
	{ "nr_entries", ARG_NR_ENTRIES, "NR_ENTRIES", 0,
	  "Number of unique entries in the LPM trie, 1..100000000 (required)" },
	{ "prefix_len", ARG_PREFIX_LEN, "PREFIX_LEN", 0,
	  "Number of prefix bits to use in the LPM trie, 1..32 (default 32)" },
	{ "random", ARG_RANDOM, NULL, 0,
	  "Access random keys during op (noop, baseline, lookup and update)" },
	{ "inline-loop", ARG_INLINE_LOOP, NULL, 0,
	  "Let the verifier inline bpf_loop() (the operation a constant): no callback "
	  "call per operation, unlike upstream's program (default: as upstream's)" },
	{ "own-cursor", ARG_OWN_CURSOR, NULL, 0,
	  "Each producer walks its own sequence of keys (default: one cursor all "
	  "producers write, as upstream's)" },
	{},
};

static error_t lpm_parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARG_NR_ENTRIES:
		if (parse_long(arg, 1, LPM_MAX_ENTRIES, &args.nr_entries))
			return bench_args_bad_value("--nr_entries", arg, "an integer in 1..%d",
						    LPM_MAX_ENTRIES);
		break;
	case ARG_PREFIX_LEN:
		if (parse_long(arg, 1, LPM_MAX_PREFIX_LEN, &args.prefixlen))
			return bench_args_bad_value("--prefix_len", arg,
						    "an integer in 1..%d (the key's bits)",
						    LPM_MAX_PREFIX_LEN);
		break;
	case ARG_RANDOM:
		args.random = true;
		break;
	case ARG_INLINE_LOOP:
		args.inline_loop = true;
		break;
	case ARG_OWN_CURSOR:
		args.own_cursor = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp lpm_argp = {
	.options = opts,
	.parser = lpm_parse_arg,
};

static struct {
	const struct lpm_op_desc *op;
	struct lpm_trie_bench *skel;
	struct bench_producers prod;
	struct lpm_prod_stats *stats;	/* the mmap()ed lpm_stats map */
	size_t stats_len;
	__u64 prev_busy_ns, prev_fails;	/* summed over producers at the previous sample */
	/* operations and failures of the objects of earlier repeats */
	__u64 old_ops, old_fails;
	/*
	 * Producers run the program holding it for reading; set-up and
	 * teardown publish and withdraw the fds holding it for writing, so
	 * no producer uses an fd that teardown closed (--repeat).
	 */
	pthread_rwlock_t lock;
	int prog_fd, trie_fd;		/* -1 while there is no object */
	/* the kernel has batch updates and deletes for LPM tries */
	bool batch_ops;
	/* every key, and a value each, for filling and emptying tries */
	struct lpm_trie_key *keys;
	__u32 *vals;
	char free_name[16];
	/* lpm-trie-free: offsets of struct bpf_map's work, map_type and name */
	__u64 map_off[3];
} ctx = {
	.prog_fd = -1,
	.trie_fd = -1,
};

static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

/* writers first: two producers that always hold it must not starve set-up */
static void init_lock(void)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&ctx.lock, &attr);
	pthread_rwlockattr_destroy(&attr);
}

static const struct lpm_op_desc *find_op(const char *bench_name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lpm_ops); i++)
		if (!strcmp(bench_name + strlen("lpm-trie-"), lpm_ops[i].name))
			return &lpm_ops[i];
	return NULL;
}

/* bit offset of member name in struct or union t, anonymous members searched too */
static int member_bits(const struct btf *btf, const struct btf_type *t, const char *name,
		       __u32 *bits)
{
	const struct btf_member *m = btf_members(t);
	const struct btf_type *mt;
	const char *n;
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		n = btf__name_by_offset(btf, m->name_off);
		if (n && *n) {
			if (strcmp(n, name))
				continue;
			*bits = btf_member_bit_offset(t, i);
			return 0;
		}
		mt = btf__type_by_id(btf, m->type);
		if (mt && btf_is_composite(mt) && !member_bits(btf, mt, name, bits)) {
			*bits += btf_member_bit_offset(t, i);
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * lpm-trie-free reads three fields of the kernel's struct bpf_map; their
 * offsets come from its BTF, here rather than by CO-RE in the program so
 * that the other operations never make libbpf parse it.  Called from
 * validate(), before the run joins its memory cgroup: the parse (about
 * 11 MiB) is the harness's memory, not the trie's.
 */
static int find_map_offsets(void)
{
	static const char *const fields[] = { "work", "map_type", "name" };
	const struct btf_type *t;
	struct btf *btf;
	int id, i, err = 0;
	__u32 bits;

	btf = btf__load_vmlinux_btf();
	if (!btf)
		return bench_failed(-errno, "load the kernel's BTF");
	id = btf__find_by_name_kind(btf, "bpf_map", BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	for (i = 0; i < 3 && !err; i++) {
		err = t ? member_bits(btf, t, fields[i], &bits) : -ENOENT;
		if (err)
			bench_failed(err, "find struct bpf_map's %s in the kernel's BTF", fields[i]);
		ctx.map_off[i] = bits / 8;
	}
	btf__free(btf);
	return err;
}

/* runs before anything is created, so refusing here leaves nothing behind */
static int lpm_validate(void)
{
	bool free_op;

	ctx.op = find_op(env.bench_name);
	if (!ctx.op)
		return bench_failed(-EINVAL, "find the operation of %s", env.bench_name);
	free_op = ctx.op->op == LPM_OP_FREE;
	if (!args.nr_entries) {
		fprintf(stderr, "%s: missing --nr_entries: the number of keys in the trie, 1..%d\n",
			env.bench_name, LPM_MAX_ENTRIES);
		return -EINVAL;
	}
	if ((1L << args.prefixlen) < args.nr_entries) {
		fprintf(stderr, "invalid --prefix_len %ld for --nr_entries %ld: %ld bits tell at most %ld keys apart\n",
			args.prefixlen, args.nr_entries, args.prefixlen, 1L << args.prefixlen);
		return -EINVAL;
	}
	if (ctx.op->passes && env.producer_cnt != 1) {
		fprintf(stderr, "%s requires a single producer (got -p %d): %s\n", env.bench_name,
			env.producer_cnt, free_op ? "the kernel workers that free the tries cannot tell producers apart" :
			"its passes over the keys change the trie");
		return -EINVAL;
	}
	if (ctx.op->passes && args.random) {
		fprintf(stderr, "%s does not support --random: %s\n", env.bench_name,
			free_op ? "its tries are filled with every key" : "its passes go over every key once");
		return -EINVAL;
	}
	if (free_op && args.inline_loop) {
		fprintf(stderr, "lpm-trie-free does not support --inline-loop: it runs no bpf_loop()\n");
		return -EINVAL;
	}
	return free_op ? find_map_offsets() : 0;
}

/* the keys of a full trie; made once, producers use them for good */
static int make_keys(void)
{
	long i;

	if (ctx.keys)
		return 0;
	ctx.keys = calloc(args.nr_entries, sizeof(*ctx.keys));
	ctx.vals = calloc(args.nr_entries, sizeof(*ctx.vals));
	if (!ctx.keys || !ctx.vals)
		return bench_failed(-ENOMEM, "allocate %ld trie keys", args.nr_entries);
	for (i = 0; i < args.nr_entries; i++) {
		ctx.keys[i].prefixlen = args.prefixlen;
		ctx.keys[i].data = i;
		ctx.vals[i] = 1;
	}
	return 0;
}

/* a trie that should be empty holds no key */
static int trie_check_empty(int fd)
{
	struct lpm_trie_key key;

	if (!bpf_map_get_next_key(fd, NULL, &key))
		return -ENOTEMPTY;
	return errno == ENOENT ? 0 : -errno;
}

/*
 * Fill an empty trie with every key.  It must be empty first: a key a
 * delete pass left behind is an error, not a key overwritten (batches
 * take only BPF_ANY).  Returns 0 or a negative errno, with the keys
 * added in *done.
 */
static int trie_fill(int fd, __u32 *done)
{
	LIBBPF_OPTS(bpf_map_batch_opts, bopts);
	__u32 i;
	int err;

	*done = 0;
	err = trie_check_empty(fd);
	if (err)
		return err;
	if (ctx.batch_ops) {
		*done = args.nr_entries;
		if (bpf_map_update_batch(fd, ctx.keys, ctx.vals, done, &bopts))
			return -errno;
		return *done == args.nr_entries ? 0 : -EIO;
	}
	for (i = 0; i < args.nr_entries; i++) {
		*done = i;
		if (bpf_map_update_elem(fd, &ctx.keys[i], &ctx.vals[i], BPF_NOEXIST))
			return -errno;
	}
	*done = i;
	return 0;
}

/* delete every key from a full trie; a missing key is an error */
static int trie_empty(int fd, __u32 *done)
{
	LIBBPF_OPTS(bpf_map_batch_opts, bopts);
	__u32 i;

	if (ctx.batch_ops) {
		*done = args.nr_entries;
		if (bpf_map_delete_batch(fd, ctx.keys, done, &bopts))
			return -errno;
		if (*done != args.nr_entries)
			return -EIO;
	} else {
		for (i = 0; i < args.nr_entries; i++) {
			*done = i;
			if (bpf_map_delete_elem(fd, &ctx.keys[i]))
				return -errno;
		}
		*done = i;
	}
	/* and no other key was added */
	return trie_check_empty(fd);
}

/*
 * Batch operations on LPM tries are recent (upstream's benchmark came with
 * them); without them a trie is filled one key per syscall, which changes
 * only how long a refill takes, never the time measured.  Asked with an
 * empty batch, which does nothing where they exist.
 */
static void probe_batch_ops(int fd)
{
	LIBBPF_OPTS(bpf_map_batch_opts, bopts);
	__u32 count = 0;

	ctx.batch_ops = !bpf_map_update_batch(fd, ctx.keys, ctx.vals, &count, &bopts);
	if (!ctx.batch_ops)
		fprintf(stderr, "%s: this kernel has no batch updates for LPM tries (%s): tries are filled one key per syscall, outside the timed work\n",
			env.bench_name, strerror(errno));
}

/* a map name no other process uses, the same for every repeat of this run */
static void make_free_name(struct lpm_trie_bench *skel)
{
	unsigned int r = 0;

	if (!ctx.free_name[0]) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = getpid() ^ (unsigned int)time(NULL);
		snprintf(ctx.free_name, sizeof(ctx.free_name), "lpmfree_%07x", r & 0xfffffff);
	}
	memcpy((void *)skel->rodata->free_name, ctx.free_name, sizeof(ctx.free_name));
}

/* constants, map sizes and programs, before load */
static int configure(struct lpm_trie_bench *skel)
{
	bool free_op = ctx.op->op == LPM_OP_FREE;
	int err;

	skel->rodata->inline_loop = args.inline_loop;
	skel->rodata->own_cursor = args.own_cursor;
	skel->rodata->op_const = ctx.op->op;
	skel->bss->op_rt = ctx.op->op;
	skel->rodata->nr_entries = args.nr_entries;
	skel->rodata->prefixlen = args.prefixlen;
	skel->rodata->random_keys = args.random;
	/* upstream's layout: what each operation reads, in its cursor's line */
	skel->bss->shared_line.nr_entries = args.nr_entries;
	skel->bss->shared_line.prefixlen = args.prefixlen;
	skel->bss->shared_line.random = args.random;
	skel->rodata->nr_producers = env.producer_cnt;
	skel->rodata->lat_enabled = env.latency;
	/* without --latency the histogram is not charged to the run's memory */
	err = bpf_map__set_autocreate(skel->maps.lat_hist, env.latency);
	if (!err)
		err = bpf_map__set_autocreate(skel->maps.free_started, free_op);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.lpm_stats, env.producer_cnt);
	if (!err && free_op)
		err = bpf_program__set_autoload(skel->progs.lpm_free_start, true);
	if (!err && free_op)
		err = bpf_program__set_autoload(skel->progs.lpm_free_end, true);
	if (!err && !free_op)
		err = bpf_program__set_autoload(skel->progs.lpm_run_batch, true);
	if (err)
		return bench_failed(err, "configure the %s BPF object", env.bench_name);
	if (free_op) {
		make_free_name(skel);
		skel->rodata->map_work_off = ctx.map_off[0];
		skel->rodata->map_type_off = ctx.map_off[1];
		skel->rodata->map_name_off = ctx.map_off[2];
	}
	return 0;
}

static int map_stats(struct lpm_trie_bench *skel)
{
	void *m;

	ctx.stats_len = (size_t)env.producer_cnt * sizeof(*ctx.stats);
	m = mmap(NULL, ctx.stats_len, PROT_READ, MAP_SHARED, bpf_map__fd(skel->maps.lpm_stats), 0);
	if (m == MAP_FAILED)
		return bench_failed(-errno, "map the %s statistics", env.bench_name);
	ctx.stats = m;
	return 0;
}

/* the trie the measured operations start from: empty, or holding every key */
static int prepare_trie(struct lpm_trie_bench *skel)
{
	int fd = bpf_map__fd(skel->maps.trie_map), err;
	__u32 done;

	probe_batch_ops(fd);
	if (!ctx.op->filled)
		return 0;
	err = trie_fill(fd, &done);
	if (err)
		return bench_failed(err, "fill the trie (%u of %ld keys added)", done, args.nr_entries);
	return 0;
}

/* what the kernel must have, asked before load so that a refusal is one line */
static int check_kernel(bool free_op)
{
	if (libbpf_probe_bpf_map_type(BPF_MAP_TYPE_LPM_TRIE, NULL) != 1) {
		fprintf(stderr, "%s: this kernel has no LPM trie maps (BPF_MAP_TYPE_LPM_TRIE)\n",
			env.bench_name);
		return -EOPNOTSUPP;
	}
	if (!free_op && libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_loop, NULL) != 1) {
		fprintf(stderr, "%s: this kernel has no bpf_loop() for XDP programs (Linux 5.17 and later have it)\n",
			env.bench_name);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int lpm_setup(void)
{
	bool free_op = ctx.op->op == LPM_OP_FREE;
	struct lpm_trie_bench *skel;
	int err;

	pthread_once(&lock_once, init_lock);
	/* again for each --repeat: the new object's counters start at 0 */
	ctx.prev_busy_ns = ctx.prev_fails = 0;
	err = check_kernel(free_op);
	if (!err)
		err = make_keys();
	if (err)
		return err;
	ctx.skel = skel = lpm_trie_bench__open();
	if (!skel)
		return bench_failed(-errno, "open the %s BPF object", env.bench_name);
	err = bench_producers_prepare(&ctx.prod, &skel->rodata->bench_ids,
				      skel->maps.bench_producers, skel->maps.bench_prod_counters,
				      env.producer_cnt);
	if (err)
		return err;
	err = configure(skel);
	if (err)
		return err;
	err = lpm_trie_bench__load(skel);
	if (err)
		return bench_failed(err, "load the %s BPF program", env.bench_name);
	err = bench_producers_open(&ctx.prod, skel->maps.bench_producers,
				   skel->maps.bench_prod_counters);
	if (err)
		return err;
	err = map_stats(skel);
	/* lpm-trie-free's tries are the producer's own, but they are filled alike */
	if (!err)
		err = prepare_trie(skel);
	if (err)
		return err;
	if (free_op) {
		/* libbpf's account of a missing tracepoint is ours to give in one line */
		libbpf_mute(true);
		err = lpm_trie_bench__attach(skel);
		libbpf_mute(false);
		if (err)
			return bench_failed(err, "attach lpm-trie-free's programs to the workqueue_execute_start/end raw tracepoints");
		/* one line, even with -q: what is timed differs from upstream's hook */
		fprintf(stderr, "lpm-trie-free: the freeing work is timed on the workqueue_execute_start/end raw tracepoints (upstream: fentry/fexit on bpf_map_free_deferred, which needs BPF trampolines)\n");
	}
	if (env.latency) {
		err = bench_latency_register(bpf_map__fd(skel->maps.lat_hist),
					     free_op ? 1 : LPM_NR_LOOPS);
		if (err)
			return err;
	}
	pthread_rwlock_wrlock(&ctx.lock);
	if (!free_op) {
		ctx.prog_fd = bpf_program__fd(skel->progs.lpm_run_batch);
		ctx.trie_fd = bpf_map__fd(skel->maps.trie_map);
	}
	pthread_rwlock_unlock(&ctx.lock);
	return 0;
}

/* operations and failures of the current object, summed over producers */
static void object_counts(__u64 *ops, __u64 *fails)
{
	int i;

	*ops = *fails = 0;
	for (i = 0; ctx.stats && ctx.prod.counters && i < env.producer_cnt; i++) {
		*ops += __atomic_load_n(&ctx.prod.counters[i].hits, __ATOMIC_RELAXED);
		*fails += __atomic_load_n(&ctx.stats[i].fails, __ATOMIC_RELAXED);
	}
}

/* before an object goes (--repeat): its failures still count */
static void add_old_counts(void)
{
	__u64 ops, fails;

	object_counts(&ops, &fails);
	ctx.old_ops += ops;
	ctx.old_fails += fails;
}

/* called once per setup(), also after a failed one; producers may be running */
static void lpm_teardown(void)
{
	pthread_once(&lock_once, init_lock);
	pthread_rwlock_wrlock(&ctx.lock);
	ctx.prog_fd = -1;
	ctx.trie_fd = -1;
	pthread_rwlock_unlock(&ctx.lock);
	add_old_counts();
	bench_producers_close(&ctx.prod);
	if (ctx.stats)
		munmap(ctx.stats, ctx.stats_len);
	ctx.stats = NULL;
	lpm_trie_bench__destroy(ctx.skel);
	ctx.skel = NULL;
}

/* a pass is complete: empty the trie (insert) or refill it (delete) */
static int reinit_trie(int fd)
{
	bool insert = ctx.op->op == LPM_OP_INSERT;
	__u32 done;
	int err;

	err = insert ? trie_empty(fd, &done) : trie_fill(fd, &done);
	if (err)
		bench_producer_fail(err, "%s: failed to %s the trie after a full pass (%u of %ld keys %s): %s",
				    env.bench_name, insert ? "empty" : "refill", done, args.nr_entries,
				    insert ? "found" : "added", strerror(-err));
	return err;
}

/* one run of the program; 0, 1 to wait for the next object, or a negative errno */
static int run_batch(struct bpf_test_run_opts *opts)
{
	int err = 0;

	pthread_rwlock_rdlock(&ctx.lock);
	if (ctx.prog_fd < 0) {
		pthread_rwlock_unlock(&ctx.lock);
		return 1;
	}
	if (bpf_prog_test_run_opts(ctx.prog_fd, opts)) {
		err = -errno;
		bench_producer_fail(err, "%s: failed to run the BPF program: %s", env.bench_name,
				    strerror(-err));
	} else if (opts->retval == LPM_BENCH_REINIT_MAP) {
		err = reinit_trie(ctx.trie_fd);
	} else if (opts->retval != LPM_BENCH_SUCCESS) {
		err = -EPROTO;
		bench_producer_fail(err, "%s: the BPF program returned %d", env.bench_name,
				    (int)opts->retval);
	}
	pthread_rwlock_unlock(&ctx.lock);
	return err;
}

static void *lpm_producer(void *arg)
{
	struct lpm_trie_packet pkt = { .producer = (long)arg };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = &pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	int ret;

	/*
	 * No bench_producer_register(): the program runs only when we run
	 * it, and the packet says who we are.
	 */
	for (;;) {
		ret = run_batch(&opts);
		if (ret < 0)
			return NULL;
		if (ret)
			usleep(1000);	/* between two repeats' objects */
	}
	return NULL;
}

/* create, fill and close tries: the kernel frees each in a work item */
static void *lpm_free_producer(void *arg)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_flags = BPF_F_NO_PREALLOC);
	__u32 done;
	int fd, err;

	for (;;) {
		fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, ctx.free_name, sizeof(struct lpm_trie_key),
				    sizeof(__u32), LPM_MAX_ENTRIES, &mopts);
		if (fd < 0) {
			err = -errno;
			bench_producer_fail(err, "lpm-trie-free: failed to create a trie: %s",
					    strerror(-err));
			return NULL;
		}
		err = trie_fill(fd, &done);
		close(fd);
		if (err) {
			bench_producer_fail(err, "lpm-trie-free: failed to fill a trie (%u of %ld keys added): %s",
					    done, args.nr_entries, strerror(-err));
			return NULL;
		}
	}
	return NULL;
}

static int lpm_measure(struct bench_res *res)
{
	__u64 busy = 0, fails = 0;
	int i;

	bench_producers_collect(&ctx.prod, res);
	for (i = 0; i < env.producer_cnt; i++) {
		busy += __atomic_load_n(&ctx.stats[i].busy_ns, __ATOMIC_RELAXED);
		fails += __atomic_load_n(&ctx.stats[i].fails, __ATOMIC_RELAXED);
	}
	res->duration_ns = busy - ctx.prev_busy_ns;
	res->fails = (long)(fails - ctx.prev_fails);
	ctx.prev_busy_ns = busy;
	ctx.prev_fails = fails;
	return 0;
}

/*
 * Rates.  noop, baseline, lookup and update: operations per second of the
 * sample (upstream's ops_report_*, normalised by the measured interval),
 * harness included.  insert, delete and free: operations per second spent
 * inside the timed work (upstream's frac_second_report_*), so emptying,
 * refilling or creating tries is left out.
 */
static double m_throughput(const struct bench_res *r)
{
	if (!ctx.op->passes)
		return rate_per_sec(r->hits, r->delta_ns) / ctx.op->rate_div;
	if (!r->hits || !r->duration_ns)
		return NAN;
	return rate_per_sec(r->hits, (long)r->duration_ns) / ctx.op->rate_div;
}

static double m_throughput_per_prod(const struct bench_res *r)
{
	return m_throughput(r) / env.producer_cnt;
}

/* per producer and operation, in the unit of the Summary's latency */
static double m_latency(const struct bench_res *r)
{
	if (!r->hits)
		return NAN;
	if (!ctx.op->passes)
		return env.producer_cnt * (double)r->delta_ns / r->hits;
	return (double)r->duration_ns / r->hits / ctx.op->lat_div / env.producer_cnt;
}

/* time per operation inside BPF, harness left out (the same as latency where that is timed) */
static double m_bpf_ns_per_op(const struct bench_res *r)
{
	return r->hits ? (double)r->duration_ns / r->hits : NAN;
}

static double m_failures(const struct bench_res *r)
{
	return rate_per_sec(r->fails, r->delta_ns);
}

#define LPM_METRICS(rate_unit, lat_unit)						\
	{ "throughput", rate_unit, true, m_throughput },				\
	{ "throughput_per_prod", rate_unit, true, m_throughput_per_prod },		\
	{ "latency", lat_unit, false, m_latency },					\
	{ "bpf_ns_per_op", "ns", false, m_bpf_ns_per_op },				\
	{ "failures", "1/s", false, m_failures },					\
	{}

/* memory is the runner's: every BENCH_NEEDS_MEMCG benchmark has it */
static const struct bench_metric lpm_metrics[] = { LPM_METRICS("M/s", "ns") };
static const struct bench_metric lpm_free_metrics[] = { LPM_METRICS("K/s", "ms") };

static void lpm_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double rate = m_throughput(res);
	char p = ctx.op->rate_prefix;

	bench_print_iter_prefix(iter, delta_ns);
	if (isnan(rate))
		printf("hits      n/a (no operation finished in this interval)\n");
	else if (!ctx.op->passes)
		printf("hits %8.3lfM/s (%7.3lfM/prod)\n", rate, rate / env.producer_cnt);
	else
		printf("hits %8.3lf%c/s (%7.3lf%c/prod)\n", rate, p, rate / env.producer_cnt, p);
}

/* every operation must find its key or add it: a failed one is cheap and would look fast */
static int check_failures(void)
{
	__u64 fails, ops;

	object_counts(&ops, &fails);
	ops += ctx.old_ops;
	fails += ctx.old_fails;
	if (!fails)
		return 0;
	fprintf(stderr, "%s: %llu of %llu operations failed (a key %s): the results are invalid\n",
		env.bench_name, (unsigned long long)fails, (unsigned long long)ops,
		ctx.op->op == LPM_OP_INSERT ? "already in the trie" : "missing from the trie");
	return -EIO;
}

static int lpm_report_final(struct bench_res res[], int res_cnt)
{
	const struct bench_metric *m = ctx.op->op == LPM_OP_FREE ? lpm_free_metrics : lpm_metrics;
	char p = ctx.op->rate_prefix;
	struct stats rate, lat;
	int err;

	err = check_failures();
	if (err)
		return err;
	metric_stats(&m[0], res, res_cnt, &rate);
	if (!ctx.op->passes) {
		/* upstream's ops_report_final: latency from the mean rate */
		printf("Summary: throughput %8.3lf \u00B1 %5.3lf M ops/s (%7.3lfM ops/prod), ",
		       rate.mean, rate.stddev, rate.mean / env.producer_cnt);
		printf("latency %8.3lf ns/op\n", 1000.0 / rate.mean * env.producer_cnt);
		return 0;
	}
	/* upstream's frac_second_report_final: latency is the mean of the samples' */
	metric_stats(&m[2], res, res_cnt, &lat);
	printf("Summary: throughput %8.3lf \u00B1 %5.3lf %c ops/s (%7.3lf%c ops/prod), ",
	       rate.mean, rate.stddev, p, rate.mean / env.producer_cnt, p);
	printf("latency %8.3lf %s/op\n", lat.mean, ctx.op->lat_unit);
	return 0;
}

static void lpm_describe_opts(struct bench_opts_out *out)
{
	bench_opt_int(out, "nr_entries", args.nr_entries);
	bench_opt_int(out, "prefix_len", args.prefixlen);
	bench_opt_bool(out, "random", args.random);
	bench_opt_bool(out, "inline_loop", args.inline_loop);
	bench_opt_bool(out, "own_cursor", args.own_cursor);
}

#define LPM_TRIE_BENCH(NAME, DESC, PRODUCER, METRICS)					\
const struct bench bench_lpm_trie_##NAME = {						\
	.name = "lpm-trie-" #NAME,							\
	.desc = DESC,									\
	.argp = &lpm_argp,								\
	.needs = BENCH_NEEDS_BPF | BENCH_NEEDS_MEMCG,					\
	.caps = BENCH_CAP_REPEAT_FRESH,							\
	.ext.validate = lpm_validate,							\
	.ext.setup = lpm_setup,								\
	.producer_thread = PRODUCER,							\
	.ext.measure = lpm_measure,								\
	.report_progress = lpm_report_progress,						\
	.ext.report_final = lpm_report_final,						\
	.teardown = lpm_teardown,							\
	.metrics = METRICS,								\
	.describe_opts = lpm_describe_opts,						\
	.counted_by = BENCH_COUNTED_BY_BPF,						\
	.latency = true,								\
}

LPM_TRIE_BENCH(noop, "LPM trie: the harness alone (BPF_PROG_TEST_RUN, bpf_loop), for lookup and update",
	       lpm_producer, lpm_metrics);
LPM_TRIE_BENCH(baseline, "LPM trie: the harness and key generation, for lookup and update",
	       lpm_producer, lpm_metrics);
LPM_TRIE_BENCH(lookup, "LPM trie: lookups of existing keys in a full trie", lpm_producer,
	       lpm_metrics);
LPM_TRIE_BENCH(insert, "LPM trie: inserts of new keys into an empty trie (time in BPF only)",
	       lpm_producer, lpm_metrics);
LPM_TRIE_BENCH(update, "LPM trie: updates of existing keys in a full trie", lpm_producer,
	       lpm_metrics);
LPM_TRIE_BENCH(delete, "LPM trie: deletes of existing keys from a full trie (time in BPF only)",
	       lpm_producer, lpm_metrics);
LPM_TRIE_BENCH(free, "LPM trie: the kernel freeing a full trie (time of the freeing work only)",
	       lpm_free_producer, lpm_free_metrics);
