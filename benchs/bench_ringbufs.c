// SPDX-License-Identifier: GPL-2.0
/*
 * rb-libbpf, rb-custom, pb-libbpf, pb-custom: how many records per second
 * a BPF program can hand to one user-space consumer through a BPF ring
 * buffer or per-CPU perf buffers, read with libbpf's consumer or with a
 * hand-written one.  Upstream's benchmarks of the same names and options.
 *
 * Producers call getpgid(); the program (progs/ringbuf_bench.c,
 * progs/perfbuf_bench.c) writes --rb-batch-cnt records per call.  hits
 * are the records the consumer read, drops those the program found no
 * room for.  With --rb-b2b one batch is in flight at a time: the single
 * producer triggers the first, the consumer the next once it has read.
 *
 * Unlike upstream's, the consumer is stopped and joined before teardown
 * (bench.h: bench_consumers_stopping()), so that teardown can free what
 * it reads and a signal ends the run cleanly.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "bench_args.h"
#include "kernel_env.h"
#include "benchs/lib_hook.h"
#include "benchs/lib_skel.h"
#include "producer_counters.h"
#include "ringbuf_bench.skel.h"
#include "perfbuf_bench.skel.h"

/* the kernel's UAPI value (6.19); older headers lack it */
#ifndef BPF_F_RB_OVERWRITE
#define BPF_F_RB_OVERWRITE (1U << 19)
#endif

/*
 * The verifier walks the batch loop once per record, and a walk of more
 * than 8192 branches is refused: 4000 loads in every mode (upstream's
 * script goes to 3000).
 */
#define RB_BATCH_MAX 4000
#define RB_SAMPLE_RATE_MAX 1000000

static struct {
	bool back2back;
	int batch_cnt;
	bool sampled;
	int sample_rate;
	int ringbuf_sz;		/* bytes, one ring buffer */
	bool ringbuf_use_output;
	int perfbuf_sz;		/* pages, per CPU */
	bool overwrite;
	bool bench_producer;
} args = {
	.batch_cnt = 500,
	.sample_rate = 500,
	.ringbuf_sz = 512 * 1024,
	.perfbuf_sz = 128,
};

static enum bench_hook hook_wanted = BENCH_HOOK_AUTO;

/* upstream's keys */
enum {
	ARG_RB_BACK2BACK = 2000,
	ARG_RB_USE_OUTPUT,
	ARG_RB_BATCH_CNT,
	ARG_RB_SAMPLED,
	ARG_RB_SAMPLE_RATE,
	ARG_RB_OVERWRITE,
	ARG_RB_BENCH_PRODUCER,
	ARG_RB_HOOK,
};

static const struct argp_option opts[] = {
	{ "rb-b2b", ARG_RB_BACK2BACK, NULL, 0,
	  "Back-to-back mode: one batch in flight, the consumer triggers the next" },
	{ "rb-use-output", ARG_RB_USE_OUTPUT, NULL, 0,
	  "Use bpf_ringbuf_output() instead of bpf_ringbuf_reserve()" },
	{ "rb-batch-cnt", ARG_RB_BATCH_CNT, "CNT", 0,
	  "Records per trigger, 1..4000 (default 500)" },
	{ "rb-sampled", ARG_RB_SAMPLED, NULL, 0, "Notification sampling" },
	{ "rb-sample-rate", ARG_RB_SAMPLE_RATE, "RATE", 0,
	  "Notify once per RATE records, 1..1000000 (default 500)" },
	{ "rb-overwrite", ARG_RB_OVERWRITE, NULL, 0,
	  "Overwrite mode (kernel 6.19 or later; with --rb-bench-producer)" },
	{ "rb-bench-producer", ARG_RB_BENCH_PRODUCER, NULL, 0,
	  "Benchmark the producer alone, no consumer (rb-libbpf, -c0)" },
	{ "hook", ARG_RB_HOOK, "HOOK", 0, BENCH_HOOK_HELP },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	long v;

	switch (key) {
	case ARG_RB_BACK2BACK:
		args.back2back = true;
		break;
	case ARG_RB_USE_OUTPUT:
		args.ringbuf_use_output = true;
		break;
	case ARG_RB_BATCH_CNT:
		if (parse_long(arg, 1, RB_BATCH_MAX, &v))
			return bench_args_bad_value("--rb-batch-cnt", arg, "an integer in 1..%d",
						    RB_BATCH_MAX);
		args.batch_cnt = v;
		break;
	case ARG_RB_SAMPLED:
		args.sampled = true;
		break;
	case ARG_RB_SAMPLE_RATE:
		if (parse_long(arg, 1, RB_SAMPLE_RATE_MAX, &v))
			return bench_args_bad_value("--rb-sample-rate", arg, "an integer in 1..%d",
						    RB_SAMPLE_RATE_MAX);
		args.sample_rate = v;
		break;
	case ARG_RB_OVERWRITE:
		args.overwrite = true;
		break;
	case ARG_RB_BENCH_PRODUCER:
		args.bench_producer = true;
		break;
	case ARG_RB_HOOK:
		return bench_hook_parse(arg, &hook_wanted);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp bench_ringbufs_argp = {
	.options = opts,
	.parser = parse_arg,
};

/* records the consumer read: written by the consumer alone */
static struct counter buf_hits;

static struct {
	struct ringbuf_bench *rb_skel;
	struct perfbuf_bench *pb_skel;
	bool perfbuf;			/* pb-*: which skeleton load() opens */
	struct bench_producers prod;	/* the ids of our process, for the program */
	enum bench_hook hook;		/* the one that ran */
	struct ring_buffer *ringbuf;	/* rb-libbpf */
	struct perf_buffer *perfbuf_lb;	/* pb-libbpf, pb-custom */
	/* rb-custom: the ring as mapped, and an epoll set of its own */
	__u64 *consumer_pos;
	__u64 *producer_pos;
	void *data;
	size_t data_map_len;
	/* rb-custom, pb-custom */
	int epoll_fd;
	/* pb-custom: each CPU's mapped buffer (header page, then data) */
	void **pb_bases;
	size_t pb_data_sz;
	int pb_cnt;
} ctx = {
	.epoll_fd = -1,
};

static void trigger(void)
{
	syscall(__NR_getpgid, 0);
}

static bool is_perfbuf(void)
{
	return !strncmp(env.bench_name, "pb-", 3);
}

/* upstream's checks and messages, one line each, exit 1 */
static int validate(void)
{
	const char *msg = NULL;

	if (args.bench_producer && strcmp(env.bench_name, "rb-libbpf"))
		msg = "--rb-bench-producer only works with rb-libbpf";
	else if (args.overwrite && !args.bench_producer)
		msg = "overwrite mode only works with --rb-bench-producer for now";
	else if (args.bench_producer && env.consumer_cnt)
		msg = "no consumer is needed for --rb-bench-producer (use -c0)";
	else if (args.bench_producer && args.back2back)
		msg = "back-to-back mode makes no sense for --rb-bench-producer";
	else if (args.bench_producer && args.sampled)
		msg = "sampling mode makes no sense for --rb-bench-producer";
	else if (!args.bench_producer && env.consumer_cnt != 1)
		msg = "benchmarks without --rb-bench-producer require exactly one consumer (-c1)";
	else if (args.back2back && env.producer_cnt > 1)
		msg = "back-to-back mode makes sense only for single-producer case (-p1)";
	if (msg) {
		fprintf(stderr, "%s: %s\n", env.bench_name, msg);
		return -EINVAL;
	}
	/* upstream refuses it also without --rb-sampled: the script passes a rate */
	if (is_perfbuf() && args.sample_rate > args.batch_cnt) {
		fprintf(stderr, "%s: sample rate %d is too high for given batch count %d (--rb-sample-rate at most --rb-batch-cnt)\n",
			env.bench_name, args.sample_rate, args.batch_cnt);
		return -EINVAL;
	}
	return 0;
}

/* ---- loading, on fentry or the tracepoint ---- */

static struct bpf_program *hook_prog(enum bench_hook hook)
{
	if (ctx.perfbuf)
		return hook == BENCH_HOOK_FENTRY ? ctx.pb_skel->progs.bench_perfbuf :
						   ctx.pb_skel->progs.bench_perfbuf_tp;
	return hook == BENCH_HOOK_FENTRY ? ctx.rb_skel->progs.bench_ringbuf :
					   ctx.rb_skel->progs.bench_ringbuf_tp;
}

/* the ring buffer's object, opened and set up to load */
static int open_ringbuf_skel(struct bench_skel *sk)
{
	struct bpf_map *rb;
	int err;

	ctx.rb_skel = ringbuf_bench__open();
	if (!ctx.rb_skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	ctx.rb_skel->rodata->batch_cnt = args.batch_cnt;
	ctx.rb_skel->rodata->use_output = args.ringbuf_use_output;
	ctx.rb_skel->rodata->bench_producer = args.bench_producer;
	/* a record and its header take 16 bytes */
	if (args.sampled)
		ctx.rb_skel->rodata->wakeup_data_size = (long)args.sample_rate * 16;
	rb = ctx.rb_skel->maps.ringbuf;
	err = bpf_map__set_max_entries(rb, args.ringbuf_sz);
	if (!err && args.overwrite)
		err = bpf_map__set_map_flags(rb, bpf_map__map_flags(rb) | BPF_F_RB_OVERWRITE);
	if (err)
		return bench_failed(err, "size the ring buffer");
	*sk = BENCH_SKEL(ctx.rb_skel, &ctx.prod);
	return 0;
}

static int open_perfbuf_skel(struct bench_skel *sk)
{
	ctx.pb_skel = perfbuf_bench__open();
	if (!ctx.pb_skel)
		return bench_failed(-errno, "open %s's BPF object", env.bench_name);
	ctx.pb_skel->rodata->batch_cnt = args.batch_cnt;
	*sk = BENCH_SKEL(ctx.pb_skel, &ctx.prod);
	return 0;
}

static int load_and_attach(enum bench_hook hook)
{
	struct bench_skel sk;
	int err;

	err = ctx.perfbuf ? open_perfbuf_skel(&sk) : open_ringbuf_skel(&sk);
	if (err)
		return err;
	sk.prog = hook_prog(hook);
	err = bench_skel_prepare(&sk);
	if (!err)
		err = bench_skel_load(&sk);
	if (!err)
		err = bench_skel_attach(&sk);
	return err;
}

static void unload(void)
{
	bench_producers_close(&ctx.prod);
	perfbuf_bench__destroy(ctx.pb_skel);
	ctx.pb_skel = NULL;
	ringbuf_bench__destroy(ctx.rb_skel);
	ctx.rb_skel = NULL;
}

static const struct bench_hook_ops hook_ops = {
	.load = load_and_attach,
	.unload = unload,
	.prog = hook_prog,
};

/*
 * --rb-overwrite on a kernel without the mode: one line saying so, rather
 * than libbpf's account of a map it could not create
 */
static int check_overwrite_mode(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = BPF_F_RB_OVERWRITE);
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "rb_overwrite", 0, 0, getpagesize(), &o);
	if (fd < 0) {
		fd = -errno;
		fprintf(stderr, "%s: --rb-overwrite: this kernel has no overwrite mode for ring buffers (BPF_F_RB_OVERWRITE, Linux 6.19 and later): %s\n",
			env.bench_name, strerror(-fd));
		return fd;
	}
	close(fd);
	return 0;
}

static int load(void)
{
	int err;

	ctx.perfbuf = is_perfbuf();
	if (args.overwrite) {
		err = check_overwrite_mode();
		if (err)
			return err;
	}
	return bench_hook_load(hook_wanted, &hook_ops, &ctx.hook, true);
}

/* ---- rb-libbpf ---- */

static int rb_count_record(void *unused, void *data, size_t len)
{
	(void)unused, (void)data, (void)len;
	atomic_inc(&buf_hits.value);
	return 0;
}

static int rb_libbpf_setup(void)
{
	int err = load();

	if (err || args.bench_producer)
		return err;
	ctx.ringbuf = ring_buffer__new(bpf_map__fd(ctx.rb_skel->maps.ringbuf), rb_count_record,
				       NULL, NULL);
	if (!ctx.ringbuf)
		return bench_failed(-errno, "create the ring buffer's consumer");
	return 0;
}

static void *rb_libbpf_consumer(void *input)
{
	int err;

	(void)input;
	while (!bench_consumers_stopping()) {
		err = ring_buffer__poll(ctx.ringbuf, BENCH_CONSUMER_WAIT_MS);
		if (err < 0) {
			bench_producer_fail(err, "failed to poll the ring buffer: %s",
					    strerror(-err));
			return NULL;
		}
		if (args.back2back)
			trigger();
	}
	return NULL;
}

/* ---- rb-custom: upstream's hand-written reader of the ring's layout ---- */

/* a record's length word: bits the kernel sets while it writes or discards */
#define RB_BUSY_BIT (1U << 31)
#define RB_DISCARD_BIT (1U << 30)
#define RB_HDR_SZ 8

/* from a record's length word to the next record: header, data, 8-byte alignment */
static __u64 rb_record_span(__u32 len)
{
	len &= ~(RB_BUSY_BIT | RB_DISCARD_BIT);
	return (len + RB_HDR_SZ + 7) / 8 * 8;
}

static int rb_custom_setup(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	size_t page = getpagesize();
	int err, fd;
	void *m;

	err = load();
	if (err)
		return err;
	fd = bpf_map__fd(ctx.rb_skel->maps.ringbuf);
	ctx.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (ctx.epoll_fd < 0)
		return bench_failed(-errno, "create an epoll instance");
	/* the consumer's page is writable: we advance consumer_pos there */
	m = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return bench_failed(-errno, "map the ring buffer's consumer page");
	ctx.consumer_pos = m;
	/* the producer's page, then the data mapped twice so no record wraps */
	ctx.data_map_len = page + 2 * (size_t)args.ringbuf_sz;
	m = mmap(NULL, ctx.data_map_len, PROT_READ, MAP_SHARED, fd, page);
	if (m == MAP_FAILED)
		return bench_failed(-errno, "map the ring buffer's data pages");
	ctx.producer_pos = m;
	ctx.data = (char *)m + page;
	if (epoll_ctl(ctx.epoll_fd, EPOLL_CTL_ADD, fd, &ev))
		return bench_failed(-errno, "add the ring buffer to the epoll set");
	return 0;
}

static void rb_custom_process(void)
{
	__u64 cons, prod, mask = args.ringbuf_sz - 1;
	bool got;
	__u32 len;

	cons = __atomic_load_n(ctx.consumer_pos, __ATOMIC_ACQUIRE);
	do {
		got = false;
		prod = __atomic_load_n(ctx.producer_pos, __ATOMIC_ACQUIRE);
		while (cons < prod) {
			len = __atomic_load_n((__u32 *)((char *)ctx.data + (cons & mask)),
					      __ATOMIC_ACQUIRE);
			/* not committed yet: the next wake-up brings it */
			if (len & RB_BUSY_BIT)
				return;
			got = true;
			cons += rb_record_span(len);
			atomic_inc(&buf_hits.value);
		}
		if (got)
			__atomic_store_n(ctx.consumer_pos, cons, __ATOMIC_RELEASE);
	} while (got);
}

static void *rb_custom_consumer(void *input)
{
	struct epoll_event ev;
	int cnt;

	(void)input;
	while (!bench_consumers_stopping()) {
		if (args.back2back)
			trigger();
		cnt = epoll_wait(ctx.epoll_fd, &ev, 1, BENCH_CONSUMER_WAIT_MS);
		if (cnt < 0) {
			bench_producer_fail(-errno, "failed to wait for the ring buffer: %s",
					    strerror(errno));
			return NULL;
		}
		if (cnt > 0)
			rb_custom_process();
	}
	return NULL;
}

/* ---- pb-libbpf ---- */

static enum bpf_perf_event_ret pb_count_event(void *unused, int cpu,
					      struct perf_event_header *e)
{
	(void)unused, (void)cpu;
	if (e->type == PERF_RECORD_SAMPLE)
		atomic_inc(&buf_hits.value);
	else if (e->type != PERF_RECORD_LOST)
		return LIBBPF_PERF_EVENT_ERROR;
	return LIBBPF_PERF_EVENT_CONT;
}

static int pb_libbpf_setup(void)
{
	/* upstream's: each CPU's samples, a wake-up per sample or per --rb-sample-rate */
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = args.sampled ? args.sample_rate : 1,
		.wakeup_events = args.sampled ? args.sample_rate : 1,
	};
	int err = load();

	if (err)
		return err;
	ctx.perfbuf_lb = perf_buffer__new_raw(bpf_map__fd(ctx.pb_skel->maps.perfbuf),
					      args.perfbuf_sz, &attr, pb_count_event, NULL, NULL);
	if (!ctx.perfbuf_lb)
		return bench_failed(-errno, "create the perf buffers");
	return 0;
}

static void *pb_libbpf_consumer(void *input)
{
	int err;

	(void)input;
	while (!bench_consumers_stopping()) {
		err = perf_buffer__poll(ctx.perfbuf_lb, BENCH_CONSUMER_WAIT_MS);
		if (err < 0) {
			bench_producer_fail(err, "failed to poll the perf buffers: %s",
					    strerror(-err));
			return NULL;
		}
		if (args.back2back)
			trigger();
	}
	return NULL;
}

/* ---- pb-custom: upstream's hand-written reader of each CPU's buffer ---- */

/* libbpf's buffers, through its public calls, in an epoll set of ours */
static int pb_custom_setup(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	size_t sz;
	int err, i;

	err = pb_libbpf_setup();
	if (err)
		return err;
	ctx.pb_cnt = perf_buffer__buffer_cnt(ctx.perfbuf_lb);
	ctx.pb_bases = calloc(ctx.pb_cnt, sizeof(*ctx.pb_bases));
	if (!ctx.pb_bases)
		return bench_failed(-ENOMEM, "allocate the perf buffers' table");
	ctx.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (ctx.epoll_fd < 0)
		return bench_failed(-errno, "create an epoll instance");
	for (i = 0; i < ctx.pb_cnt; i++) {
		err = perf_buffer__buffer(ctx.perfbuf_lb, i, &ctx.pb_bases[i], &sz);
		if (err)
			return bench_failed(err, "find perf buffer #%d", i);
		ctx.pb_data_sz = sz;
		ev.data.u32 = i;
		if (epoll_ctl(ctx.epoll_fd, EPOLL_CTL_ADD, perf_buffer__buffer_fd(ctx.perfbuf_lb, i),
			      &ev))
			return bench_failed(-errno, "add perf buffer #%d to the epoll set", i);
	}
	return 0;
}

static void pb_custom_process(void *base)
{
	struct perf_event_mmap_page *hdr = base;
	char *data = (char *)base + getpagesize();
	__u64 mask = ctx.pb_data_sz - 1, head, tail;
	struct perf_event_header *e;

	head = __atomic_load_n(&hdr->data_head, __ATOMIC_ACQUIRE);
	tail = hdr->data_tail;
	while (tail != head) {
		e = (struct perf_event_header *)(data + (tail & mask));
		if (e->type == PERF_RECORD_SAMPLE)
			atomic_inc(&buf_hits.value);
		tail += e->size;
	}
	__atomic_store_n(&hdr->data_tail, tail, __ATOMIC_RELEASE);
}

static void *pb_custom_consumer(void *input)
{
	struct epoll_event *evs;
	int cnt, i;

	(void)input;
	evs = calloc(ctx.pb_cnt, sizeof(*evs));
	if (!evs) {
		bench_producer_fail(-ENOMEM, "failed to allocate the consumer's events: %s",
				    strerror(ENOMEM));
		return NULL;
	}
	while (!bench_consumers_stopping()) {
		if (args.back2back)
			trigger();
		cnt = epoll_wait(ctx.epoll_fd, evs, ctx.pb_cnt, BENCH_CONSUMER_WAIT_MS);
		if (cnt < 0) {
			bench_producer_fail(-errno, "failed to wait for the perf buffers: %s",
					    strerror(errno));
			break;
		}
		for (i = 0; i < cnt; i++)
			pb_custom_process(ctx.pb_bases[evs[i].data.u32]);
	}
	free(evs);
	return NULL;
}

/* ---- common ---- */

static void *producer(void *input)
{
	(void)input;
	if (args.back2back) {
		/* the first batch; the consumer triggers every next one */
		trigger();
		for (;;)
			pause();
	}
	for (;;)
		trigger();
	return NULL;
}

static long *dropped_counter(void)
{
	return ctx.perfbuf ? &ctx.pb_skel->bss->dropped : &ctx.rb_skel->bss->dropped;
}

static int measure(struct bench_res *res)
{
	if (args.bench_producer)
		res->hits = atomic_swap(&ctx.rb_skel->bss->hits, 0);
	else
		res->hits = atomic_swap(&buf_hits.value, 0);
	res->drops = atomic_swap(dropped_counter(), 0);
	return 0;
}

static void teardown(void)
{
	/* the program first: no more records */
	if (ctx.rb_skel)
		ringbuf_bench__detach(ctx.rb_skel);
	if (ctx.pb_skel)
		perfbuf_bench__detach(ctx.pb_skel);
	/* a consumer that would not stop may still read these (bench.h) */
	if (bench_consumers_joined()) {
		ring_buffer__free(ctx.ringbuf);
		ctx.ringbuf = NULL;
		perf_buffer__free(ctx.perfbuf_lb);
		ctx.perfbuf_lb = NULL;
		if (ctx.producer_pos)
			munmap(ctx.producer_pos, ctx.data_map_len);
		ctx.producer_pos = NULL;
		if (ctx.consumer_pos)
			munmap(ctx.consumer_pos, getpagesize());
		ctx.consumer_pos = NULL;
		free(ctx.pb_bases);
		ctx.pb_bases = NULL;
		if (ctx.epoll_fd >= 0)
			close(ctx.epoll_fd);
		ctx.epoll_fd = -1;
	}
	unload();
}

static void describe_opts(struct bench_opts_out *out)
{
	bench_opt_bool(out, "rb_b2b", args.back2back);
	bench_opt_int(out, "rb_batch_cnt", args.batch_cnt);
	bench_opt_bool(out, "rb_sampled", args.sampled);
	bench_opt_int(out, "rb_sample_rate", args.sample_rate);
	if (!is_perfbuf()) {
		bench_opt_bool(out, "rb_use_output", args.ringbuf_use_output);
		bench_opt_bool(out, "rb_overwrite", args.overwrite);
		bench_opt_bool(out, "rb_bench_producer", args.bench_producer);
		bench_opt_int(out, "ringbuf_sz", args.ringbuf_sz);
	} else {
		bench_opt_int(out, "perfbuf_sz", args.perfbuf_sz);
	}
	/* the hook that ran: runs on different hooks are different configurations */
	bench_opt_str(out, "hook", bench_hook_names[ctx.hook]);
}

#define RINGBUFS_BENCH(NAME, DESC, SETUP, CONSUMER)				\
	{									\
		.name = NAME,							\
		.desc = DESC,							\
		.argp = &bench_ringbufs_argp,					\
		.needs = BENCH_NEEDS_BPF_TRACING,				\
		/* producers only loop on getpgid(): parked before a detach */	\
		.caps = BENCH_CAP_PARK_THREADS,					\
		.ext.validate = validate,						\
		.ext.setup = SETUP,							\
		.producer_thread = producer,					\
		.consumer_thread = CONSUMER,					\
		.ext.measure = measure,						\
		.report_progress = hits_drops_report_progress,			\
		.report_final = hits_drops_report_final,			\
		.teardown = teardown,						\
		.metrics = hits_drops_metrics,					\
		.describe_opts = describe_opts,					\
		.counted_by = BENCH_COUNTED_BY_CONSUMER,			\
	}

const struct bench bench_rb_libbpf = RINGBUFS_BENCH("rb-libbpf",
	"BPF ring buffer records per second, read by libbpf's ring_buffer__poll()",
	rb_libbpf_setup, rb_libbpf_consumer);
const struct bench bench_rb_custom = RINGBUFS_BENCH("rb-custom",
	"BPF ring buffer records per second, read by a hand-written consumer",
	rb_custom_setup, rb_custom_consumer);
const struct bench bench_pb_libbpf = RINGBUFS_BENCH("pb-libbpf",
	"perf buffer samples per second, read by libbpf's perf_buffer__poll()",
	pb_libbpf_setup, pb_libbpf_consumer);
const struct bench bench_pb_custom = RINGBUFS_BENCH("pb-custom",
	"perf buffer samples per second, read by a hand-written consumer",
	pb_custom_setup, pb_custom_consumer);
