// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-create: how fast BPF local storage is created, and how
 * many kmalloc() calls a creation costs, for socket or task storage.
 *
 * Each producer makes --batch-size objects, then closes or joins them all,
 * in a loop: sockets (socket(AF_INET6, SOCK_DGRAM, 0)) for socket storage,
 * threads that return at once (pthread_create()) for task storage.  The
 * BPF program on the hook that sees the object born creates one storage
 * for it with BPF_LOCAL_STORAGE_GET_F_CREATE and counts it (or the
 * failure) for the producer that made it; another program counts every
 * kmalloc().  After the run the producers stop between two batches, and
 * the counts must add up: creates + creation errors = objects made.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.h"
#include "cgroup_helpers.h"
#include "kernel_env.h"
#include "producer_counters.h"
#include "bench_local_storage_create.skel.h"
#include "progs/local_storage_create.h"

/* upstream's default; it accepts any positive size */
#define LSC_BATCH_DEFAULT 32
#define LSC_BATCH_MAX 65536
/* descriptors the bench holds besides the producers' sockets */
#define LSC_FD_SLACK 256
/* how long the producers may take to finish their batches when stopped */
#define LSC_SETTLE_SEC 10

enum storage_type { STORAGE_SOCKET, STORAGE_TASK };
static const char *const storage_names[] = {
	[STORAGE_SOCKET] = "socket", [STORAGE_TASK] = "task",
};

/* --socket-hook: where socket storage is created */
enum hook { HOOK_AUTO, HOOK_LSM, HOOK_CGROUP };
static const char *const hook_names[] = {
	[HOOK_AUTO] = "auto", [HOOK_LSM] = "lsm", [HOOK_CGROUP] = "cgroup",
};

/* the program that creates the storage */
enum hook_prog { PROG_LSM, PROG_CGROUP, PROG_FORK };

/* res->aux[] */
enum { AUX_KMALLOCS, AUX_PROD_KMALLOCS };

static struct {
	enum storage_type type;
	long batch;
	enum hook hook;
} args = {
	.type = STORAGE_SOCKET,
	.batch = LSC_BATCH_DEFAULT,
	.hook = HOOK_AUTO,
};

/* one per producer, on its own cache lines; written by that producer only */
struct lsc_producer {
	long objects;		/* sockets or threads made */
	long owner_errs;	/* socket() or pthread_create() failures */
	int in_batch;		/* making a batch: lsc_settle() waits for it */
	int *fds;
	pthread_t *thds;
	bool *made;
} __cacheline_aligned;

/* counts over the whole run, set-up to the check */
struct lsc_counts {
	__u64 creates, create_errs, prod_kmallocs, kmallocs;
	long objects, owner_errs;
};

static struct {
	struct bench_local_storage_create *skel;
	/* identity and counters; producers use only its map fd, never skel */
	struct bench_producers prod;
	/* never freed: producers use them until the process exits */
	struct lsc_producer *prods;
	/* a cgroup v2 of ours for cgroup/sock_create, where the run has none */
	struct bench_cgroup attach_cg;
	enum hook_prog ran;
	bool hook_said;
	/* set: producers stop before their next batch */
	int stop;
	bool settle_failed;
	/* one value per possible CPU: the kmallocs map */
	__u64 *percpu;
	int nr_cpus;
	/* counts of BPF objects that --repeat tore down */
	struct lsc_counts done;
	/* cumulative counts at the previous sample */
	__u64 prev_errs[BENCH_PROD_NR_ERRS], prev_kmallocs;
	/* the check after the run, done once */
	bool checked;
	int check_err;
	struct lsc_counts total;
} ctx;

enum {
	ARG_BATCH_SIZE = 9000,
	ARG_STORAGE_TYPE,
	ARG_HOOK,
};

static const struct argp_option opts[] = {
	{ "batch-size", ARG_BATCH_SIZE, "BATCH_SIZE", 0,
	  "Objects (so storage creations) in each batch, 1..65536 (default 32)" },
	{ "storage-type", ARG_STORAGE_TYPE, "STORAGE_TYPE", 0,
	  "The type of local storage to test: socket (default) or task" },
	{ "socket-hook", ARG_HOOK, "HOOK", 0,
	  "Socket storage's hook: auto (lsm.s/socket_post_create where the kernel runs it, else cgroup/sock_create; default), lsm or cgroup" },
	{},
};

/* index of arg in names[], or -1 */
static int name_index(const char *const *names, int n, const char *arg)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

static error_t lsc_parse_arg(int key, char *arg, struct argp_state *state)
{
	int i;

	switch (key) {
	case ARG_BATCH_SIZE:
		if (parse_long(arg, 1, LSC_BATCH_MAX, &args.batch)) {
			fprintf(stderr, "invalid batch size '%s': expected an integer in 1..%d\n",
				arg, LSC_BATCH_MAX);
			return EINVAL;
		}
		break;
	case ARG_STORAGE_TYPE:
		i = name_index(storage_names, ARRAY_SIZE(storage_names), arg);
		if (i < 0) {
			fprintf(stderr, "invalid storage type '%s': expected socket or task\n", arg);
			return EINVAL;
		}
		args.type = i;
		break;
	case ARG_HOOK:
		i = name_index(hook_names, ARRAY_SIZE(hook_names), arg);
		if (i < 0) {
			fprintf(stderr, "invalid socket hook '%s': expected auto, lsm or cgroup\n", arg);
			return EINVAL;
		}
		args.hook = i;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bench_local_storage_create_argp = {
	.options = opts,
	.parser = lsc_parse_arg,
};

/*
 * Every producer keeps a whole batch of sockets open: make room for them
 * within the hard limit, or refuse before anything is created.
 */
static int lsc_fd_room(void)
{
	rlim_t need = (rlim_t)env.producer_cnt * args.batch + LSC_FD_SLACK;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return bench_failed(-errno, "read RLIMIT_NOFILE");
	if (rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		fprintf(stderr, "invalid batch size %ld: %d producers x %ld sockets need %llu open files, more than the hard RLIMIT_NOFILE of %llu\n",
			args.batch, env.producer_cnt, args.batch, (unsigned long long)need,
			(unsigned long long)rl.rlim_max);
		return -EINVAL;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return bench_failed(-errno, "raise RLIMIT_NOFILE to %llu", (unsigned long long)need);
	return 0;
}

/* runs before anything is created, so refusing here leaves nothing behind */
static int lsc_validate(void)
{
	if (args.type == STORAGE_TASK && args.hook != HOOK_AUTO) {
		fprintf(stderr, "invalid socket hook '%s' for --storage-type task: --socket-hook applies to socket storage (task storage is created on tp_btf/sched_process_fork)\n",
			hook_names[args.hook]);
		return -EINVAL;
	}
	return args.type == STORAGE_SOCKET ? lsc_fd_room() : 0;
}

static struct bpf_program *hook_program(struct bench_local_storage_create *skel, enum hook_prog p)
{
	switch (p) {
	case PROG_LSM:
		return skel->progs.lsc_socket_post_create;
	case PROG_CGROUP:
		return skel->progs.lsc_sock_create;
	default:
		return skel->progs.lsc_sched_process_fork;
	}
}

/* "lsm.s/socket_post_create", say: the section name without libbpf's '?' */
static const char *hook_target(enum hook_prog p)
{
	static const char *const sec[] = {
		[PROG_LSM] = "lsm.s/socket_post_create",
		[PROG_CGROUP] = "cgroup/sock_create",
		[PROG_FORK] = "tp_btf/sched_process_fork",
	};

	return sec[p];
}

/* ---- the producers' side: batches, and stopping between two ---- */

static void make_sockets(struct lsc_producer *p)
{
	long i;

	for (i = 0; i < args.batch; i++) {
		p->fds[i] = socket(AF_INET6, SOCK_DGRAM, 0);
		if (p->fds[i] < 0)
			p->owner_errs++;
		else
			p->objects++;
	}
	for (i = 0; i < args.batch; i++)
		if (p->fds[i] >= 0)
			close(p->fds[i]);
}

static void *lsc_child(void *arg)
{
	return arg;
}

static void make_threads(struct lsc_producer *p)
{
	long i;

	for (i = 0; i < args.batch; i++) {
		p->made[i] = !pthread_create(&p->thds[i], NULL, lsc_child, NULL);
		if (p->made[i])
			p->objects++;
		else
			p->owner_errs++;
	}
	for (i = 0; i < args.batch; i++)
		if (p->made[i])
			pthread_join(p->thds[i], NULL);
}

/*
 * A producer announces its batch, then looks at stop; lsc_settle() sets
 * stop, then looks at every in_batch.  Both sequentially consistent: at
 * least one of the two sees the other's store, so no batch starts unseen.
 */
static bool batch_begin(struct lsc_producer *p)
{
	__atomic_store_n(&p->in_batch, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&ctx.stop, __ATOMIC_SEQ_CST))
		return true;
	__atomic_store_n(&p->in_batch, 0, __ATOMIC_RELEASE);
	return false;
}

static void *lsc_producer(void *arg)
{
	struct timespec pause = { .tv_nsec = 1000 * 1000 };
	long idx = (long)arg;
	struct lsc_producer *p = &ctx.prods[idx];

	if (bench_producer_register(&ctx.prod, idx))
		return NULL;
	for (;;) {
		if (!batch_begin(p)) {
			nanosleep(&pause, NULL);
			continue;
		}
		if (args.type == STORAGE_SOCKET)
			make_sockets(p);
		else
			make_threads(p);
		__atomic_store_n(&p->in_batch, 0, __ATOMIC_RELEASE);
	}
	return NULL;
}

static long now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* stop the producers between two batches: 0, or -ETIMEDOUT */
static int lsc_settle(void)
{
	struct timespec pause = { .tv_nsec = 100 * 1000 };
	long deadline = now_sec() + LSC_SETTLE_SEC;
	int i;

	__atomic_store_n(&ctx.stop, 1, __ATOMIC_SEQ_CST);
	for (i = 0; ctx.prods && i < env.producer_cnt; i++) {
		while (__atomic_load_n(&ctx.prods[i].in_batch, __ATOMIC_SEQ_CST)) {
			if (now_sec() > deadline)
				return -ETIMEDOUT;
			nanosleep(&pause, NULL);
		}
	}
	return 0;
}

static int alloc_producers(void)
{
	int i;

	if (ctx.prods)
		return 0;
	ctx.prods = aligned_alloc(BENCH_CACHELINE, env.producer_cnt * sizeof(*ctx.prods));
	if (!ctx.prods)
		return bench_failed(-ENOMEM, "allocate producer state");
	memset(ctx.prods, 0, env.producer_cnt * sizeof(*ctx.prods));
	for (i = 0; i < env.producer_cnt; i++) {
		struct lsc_producer *p = &ctx.prods[i];

		if (args.type == STORAGE_SOCKET) {
			p->fds = calloc(args.batch, sizeof(*p->fds));
		} else {
			p->thds = calloc(args.batch, sizeof(*p->thds));
			p->made = calloc(args.batch, sizeof(*p->made));
		}
		if (!(p->fds || (p->thds && p->made)))
			return bench_failed(-ENOMEM, "allocate batch of producer #%d", i);
	}
	return 0;
}

/* ---- the BPF side: counts ---- */

static int read_kmallocs(__u64 *sum)
{
	__u32 zero = 0;
	int cpu;

	if (bpf_map_lookup_elem(bpf_map__fd(ctx.skel->maps.kmallocs), &zero, ctx.percpu))
		return -errno;
	for (*sum = 0, cpu = 0; cpu < ctx.nr_cpus; cpu++)
		*sum += ctx.percpu[cpu];
	return 0;
}

/* what the current BPF object counted since its set-up */
static void bpf_counts(struct lsc_counts *c)
{
	__u64 errs[BENCH_PROD_NR_ERRS];
	int i;

	memset(c, 0, sizeof(*c));
	if (!ctx.skel || !ctx.prod.counters)
		return;
	for (i = 0; i < ctx.prod.nr; i++)
		c->creates += __atomic_load_n(&ctx.prod.counters[i].hits, __ATOMIC_RELAXED);
	bench_producers_errs(&ctx.prod, errs);
	c->create_errs = errs[LSC_CREATE_ERRS];
	c->prod_kmallocs = errs[LSC_PROD_KMALLOCS];
	if (read_kmallocs(&c->kmallocs))
		c->kmallocs = 0;
}

static void add_counts(struct lsc_counts *to, const struct lsc_counts *c)
{
	to->creates += c->creates;
	to->create_errs += c->create_errs;
	to->prod_kmallocs += c->prod_kmallocs;
	to->kmallocs += c->kmallocs;
}

/* the whole run's counts; the producers must be stopped */
static void total_counts(struct lsc_counts *t)
{
	struct lsc_counts now;
	int i;

	bpf_counts(&now);
	*t = ctx.done;
	add_counts(t, &now);
	for (i = 0; i < env.producer_cnt; i++) {
		t->objects += ctx.prods[i].objects;
		t->owner_errs += ctx.prods[i].owner_errs;
	}
}

/*
 * Every object a producer made passed the hook once: one storage created
 * or one counted failure.  Anything else means the program missed objects
 * (or saw others), and every rate printed would be wrong.
 */
static int lsc_check_counts(void)
{
	const char *what = args.type == STORAGE_SOCKET ? "sockets" : "threads";
	struct lsc_counts *t = &ctx.total;

	if (ctx.checked)
		return ctx.check_err;
	ctx.checked = true;
	if (ctx.settle_failed || lsc_settle()) {
		fprintf(stderr, "local-storage-create: the producers did not finish a batch within %d s: the counts cannot be checked\n",
			LSC_SETTLE_SEC);
		return ctx.check_err = -ETIMEDOUT;
	}
	total_counts(t);
	if (t->creates + t->create_errs != (__u64)t->objects) {
		fprintf(stderr, "local-storage-create: counts disagree: the BPF program counted %llu creates and %llu creation errors, but the producers made %ld %s (creates + errors must equal the objects made): the results are invalid\n",
			(unsigned long long)t->creates, (unsigned long long)t->create_errs,
			t->objects, what);
		return ctx.check_err = -EIO;
	}
	return 0;
}

/* ---- set-up and teardown ---- */

/* one object made by this thread, which is no producer: does the hook run? */
static int probe_hook(char *msg, size_t msg_sz)
{
	__u64 before = __atomic_load_n(&ctx.skel->bss->probe_hits, __ATOMIC_RELAXED);
	pthread_t thd;
	int fd, err;

	if (args.type == STORAGE_SOCKET) {
		fd = socket(AF_INET6, SOCK_DGRAM, 0);
		if (fd < 0) {
			err = -errno;
			snprintf(msg, msg_sz, "failed to create a probe socket (AF_INET6, SOCK_DGRAM): %s",
				 strerror(-err));
			return err;
		}
		close(fd);
	} else {
		err = -pthread_create(&thd, NULL, lsc_child, NULL);
		if (err) {
			snprintf(msg, msg_sz, "failed to create a probe thread: %s", strerror(-err));
			return err;
		}
		pthread_join(thd, NULL);
	}
	if (__atomic_load_n(&ctx.skel->bss->probe_hits, __ATOMIC_RELAXED) != before)
		return 0;
	snprintf(msg, msg_sz, "%s attached but did not run for a %s of ours%s", hook_target(ctx.ran),
		 args.type == STORAGE_SOCKET ? "socket" : "thread",
		 ctx.ran == PROG_LSM ? " (the BPF LSM is not active: lsm= on the kernel command line must list bpf)" : "");
	return -ENOENT;
}

/*
 * cgroup/sock_create runs for sockets made in a cgroup v2 directory: the
 * run's own where its memory cgroup is v2, else one made for the purpose.
 */
static int attach_to_cgroup(struct bpf_program *prog, char *msg, size_t msg_sz)
{
	const char *dir = bench_run_cgroup_v2();
	struct bpf_link *link;
	int fd, err;

	if (!dir) {
		err = cg_setup_self_v2(&ctx.attach_cg, "bench-local-storage-create-attach");
		if (err) {
			snprintf(msg, msg_sz, "%.400s", ctx.attach_cg.why);
			return err;
		}
		dir = ctx.attach_cg.path;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(msg, msg_sz, "failed to open cgroup %.300s: %s", dir, strerror(-err));
		return err;
	}
	link = bpf_program__attach_cgroup(prog, fd);
	err = link ? 0 : -errno;
	close(fd);
	if (err) {
		snprintf(msg, msg_sz, "failed to attach cgroup/sock_create to %.300s: %s", dir,
			 strerror(-err));
		return err;
	}
	ctx.skel->links.lsc_sock_create = link;
	return 0;
}

static int attach_progs(struct bpf_program *prog, char *msg, size_t msg_sz)
{
	struct bpf_link **link = ctx.ran == PROG_LSM ? &ctx.skel->links.lsc_socket_post_create :
				 &ctx.skel->links.lsc_sched_process_fork;
	int err;

	ctx.skel->links.lsc_kmalloc = bpf_program__attach(ctx.skel->progs.lsc_kmalloc);
	if (!ctx.skel->links.lsc_kmalloc) {
		err = -errno;
		snprintf(msg, msg_sz, "failed to attach raw_tp/kmalloc: %s", strerror(-err));
		return err;
	}
	if (ctx.ran == PROG_CGROUP)
		return attach_to_cgroup(prog, msg, msg_sz);
	*link = bpf_program__attach(prog);
	if (!*link) {
		err = -errno;
		snprintf(msg, msg_sz, "failed to attach %s: %s", hook_target(ctx.ran),
			 strerror(-err));
		return err;
	}
	return 0;
}

static void close_bpf(void)
{
	bench_producers_close(&ctx.prod);
	/* detaches and unloads the programs; the maps go with their last user */
	bench_local_storage_create__destroy(ctx.skel);
	ctx.skel = NULL;
	cg_destroy(&ctx.attach_cg);
}

/*
 * Open, load and attach with one hook's program, and see it run; on
 * failure, msg says what failed and the caller closes.
 */
static int load_and_attach(enum hook_prog p, char *msg, size_t msg_sz)
{
	struct bpf_program *prog;
	int err;

	ctx.ran = p;
	/* the producers are told apart by their ids in our pid namespace */
	if (p == PROG_CGROUP &&
	    libbpf_probe_bpf_helper(BPF_PROG_TYPE_CGROUP_SOCK, BPF_FUNC_get_ns_current_pid_tgid,
				    NULL) <= 0) {
		snprintf(msg, msg_sz, "this kernel's cgroup/sock_create programs may not call bpf_get_ns_current_pid_tgid() (Linux 6.10 and later allow it), which tells the producers apart");
		return -EOPNOTSUPP;
	}
	ctx.skel = bench_local_storage_create__open();
	if (!ctx.skel) {
		err = -errno;
		snprintf(msg, msg_sz, "failed to open the local-storage-create BPF object: %s",
			 strerror(-err));
		return err;
	}
	err = bench_producers_prepare(&ctx.prod, &ctx.skel->rodata->bench_ids,
				      ctx.skel->maps.bench_producers,
				      ctx.skel->maps.bench_prod_counters, env.producer_cnt);
	if (err)
		return err;
	ctx.skel->rodata->lat_enabled = env.latency;
	prog = hook_program(ctx.skel, p);
	/* only the storage map the hook uses is created (and charged) */
	err = bpf_program__set_autoload(prog, true);
	if (!err)
		err = bpf_map__set_autocreate(ctx.skel->maps.sk_storage_map, p != PROG_FORK);
	if (!err)
		err = bpf_map__set_autocreate(ctx.skel->maps.task_storage_map, p == PROG_FORK);
	if (!err)
		err = bpf_map__set_autocreate(ctx.skel->maps.lat_hist, env.latency);
	if (err) {
		snprintf(msg, msg_sz, "failed to select %s: %s", hook_target(p), strerror(-err));
		return err;
	}
	err = bench_local_storage_create__load(ctx.skel);
	if (err) {
		snprintf(msg, msg_sz, "failed to load local-storage-create's BPF program on %s: %s",
			 hook_target(p), strerror(-err));
		return err;
	}
	err = bench_producers_open(&ctx.prod, ctx.skel->maps.bench_producers,
				   ctx.skel->maps.bench_prod_counters);
	if (!err)
		err = attach_progs(prog, msg, msg_sz);
	if (!err)
		err = probe_hook(msg, msg_sz);
	return err;
}

/* the socket hooks: upstream's where it runs, else (or by --socket-hook) the cgroup's */
static int load_socket_hook(char *why, size_t why_sz)
{
	char lsm_why[512] = "--socket-hook cgroup", msg[512];
	int err;

	if (args.hook != HOOK_CGROUP) {
		/* libbpf's multi-line account of a refused program is ours to summarise */
		libbpf_mute(args.hook == HOOK_AUTO);
		bench_failed_into(lsm_why, sizeof(lsm_why));
		err = load_and_attach(PROG_LSM, lsm_why, sizeof(lsm_why));
		bench_failed_into(NULL, 0);
		libbpf_mute(false);
		if (!err || args.hook == HOOK_LSM) {
			snprintf(why, why_sz, "%s", lsm_why);
			return err;
		}
		close_bpf();
	}
	bench_failed_into(msg, sizeof(msg));
	err = load_and_attach(PROG_CGROUP, msg, sizeof(msg));
	bench_failed_into(NULL, 0);
	if (!err)
		snprintf(why, why_sz, "%s", lsm_why);
	else if (args.hook == HOOK_AUTO)
		snprintf(why, why_sz, "no socket hook runs here: %s: %s; %s: %s",
			 hook_target(PROG_LSM), lsm_why, hook_target(PROG_CGROUP), msg);
	else
		snprintf(why, why_sz, "%s", msg);
	return err;
}

/* one line, even with -q: which hook ran changes what is measured */
static void say_hook(const char *why)
{
	if (ctx.hook_said)
		return;
	ctx.hook_said = true;
	if (ctx.ran == PROG_CGROUP && args.hook == HOOK_AUTO)
		fprintf(stderr, "hook: %s (%s unavailable: %s)\n", hook_target(ctx.ran),
			hook_target(PROG_LSM), why);
	else if (ctx.ran == PROG_CGROUP)
		fprintf(stderr, "hook: %s (%s)\n", hook_target(ctx.ran), why);
	else
		fprintf(stderr, "hook: %s\n", hook_target(ctx.ran));
}

static int lsc_setup(void)
{
	char why[1200] = "";
	int err;

	err = alloc_producers();
	if (err)
		return err;
	if (!ctx.percpu) {
		ctx.nr_cpus = libbpf_num_possible_cpus();
		if (ctx.nr_cpus <= 0)
			return bench_failed(ctx.nr_cpus ? ctx.nr_cpus : -EINVAL, "count possible CPUs");
		ctx.percpu = calloc(ctx.nr_cpus, sizeof(*ctx.percpu));
		if (!ctx.percpu)
			return bench_failed(-ENOMEM, "allocate per-CPU counts");
	}
	if (args.type == STORAGE_TASK) {
		bench_failed_into(why, sizeof(why));
		err = load_and_attach(PROG_FORK, why, sizeof(why));
		bench_failed_into(NULL, 0);
	} else {
		err = load_socket_hook(why, sizeof(why));
	}
	if (err) {
		fprintf(stderr, "local-storage-create: %s\n", why);
		return err;
	}
	say_hook(why);
	if (env.latency) {
		/* one storage creation per trigger */
		err = bench_latency_register(bpf_map__fd(ctx.skel->maps.lat_hist), 1);
		if (err)
			return err;
	}
	/* the set-up's kmallocs belong to no sample */
	memset(ctx.prev_errs, 0, sizeof(ctx.prev_errs));
	err = read_kmallocs(&ctx.prev_kmallocs);
	if (err)
		return bench_failed(err, "read the kmalloc counts");
	/* a --repeat's new object: the producers go on */
	__atomic_store_n(&ctx.stop, 0, __ATOMIC_SEQ_CST);
	return 0;
}

/*
 * Between two --repeat's the producers stop first, so that no object is
 * made while no program sees it; then the counts are kept and the BPF
 * objects (and an attach cgroup of ours) go.
 */
static void lsc_teardown(void)
{
	struct lsc_counts c;

	if (ctx.prods && !ctx.settle_failed && lsc_settle())
		ctx.settle_failed = true;
	bpf_counts(&c);
	add_counts(&ctx.done, &c);
	close_bpf();
}

static int lsc_measure(struct bench_res *res)
{
	__u64 errs[BENCH_PROD_NR_ERRS], kmallocs;
	int err;

	bench_producers_collect(&ctx.prod, res);
	bench_producers_errs(&ctx.prod, errs);
	err = read_kmallocs(&kmallocs);
	if (err)
		return bench_failed(err, "read the kmalloc counts");
	res->fails = (long)(errs[LSC_CREATE_ERRS] - ctx.prev_errs[LSC_CREATE_ERRS]);
	res->aux[AUX_PROD_KMALLOCS] = (long)(errs[LSC_PROD_KMALLOCS] -
					     ctx.prev_errs[LSC_PROD_KMALLOCS]);
	res->aux[AUX_KMALLOCS] = (long)(kmallocs - ctx.prev_kmallocs);
	memcpy(ctx.prev_errs, errs, sizeof(errs));
	ctx.prev_kmallocs = kmallocs;
	return 0;
}

/* ---- metrics and reports ---- */

static double m_creates(const struct bench_res *r)
{
	return rate_per_sec(r->hits, r->delta_ns) / 1e3;
}

static double m_creates_per_prod(const struct bench_res *r)
{
	return m_creates(r) / env.producer_cnt;
}

static double m_create_errors(const struct bench_res *r)
{
	return rate_per_sec(r->fails, r->delta_ns);
}

/* upstream's: every kmalloc() on the machine in the sample, per create */
static double m_kmallocs_per_create(const struct bench_res *r)
{
	return r->hits ? (double)r->aux[AUX_KMALLOCS] / r->hits : NAN;
}

/* those made while a producer thread was current */
static double m_prod_kmallocs_per_create(const struct bench_res *r)
{
	return r->hits ? (double)r->aux[AUX_PROD_KMALLOCS] / r->hits : NAN;
}

/* memory is the runner's: every BENCH_NEEDS_MEMCG benchmark has it */
static const struct bench_metric lsc_metrics[] = {
	{ "creates", "k/s", true, m_creates },
	{ "creates_per_prod", "k/s", true, m_creates_per_prod },
	{ "create_errors", "1/s", false, m_create_errors },
	{ "kmallocs_per_create", "kmallocs/create", false, m_kmallocs_per_create },
	{ "producer_kmallocs_per_create", "kmallocs/create", false, m_prod_kmallocs_per_create },
	{},
};

static void lsc_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double creates = m_creates(res);

	printf("Iter %3d (%7.3lfus): ", iter, (delta_ns - 1000000000) / 1000.0);
	printf("creates %8.3lfk/s (%7.3lfk/prod), ", creates, creates / env.producer_cnt);
	printf("%3.2lf kmallocs/create\n", m_kmallocs_per_create(res));
}

static int lsc_report_final(struct bench_res res[], int res_cnt)
{
	long creates = 0, kmallocs = 0;
	struct stats st;
	int i, err;

	err = lsc_check_counts();
	if (err)
		return err;
	metric_stats(&lsc_metrics[0], res, res_cnt, &st);
	/* kmallocs/create over the samples: a ratio of sums, as upstream's */
	for (i = 0; i < res_cnt; i++) {
		creates += res[i].hits;
		kmallocs += res[i].aux[AUX_KMALLOCS];
	}
	printf("Summary: creates %8.3lf \u00B1 %5.3lfk/s (%7.3lfk/prod), ", st.mean, st.stddev,
	       st.mean / env.producer_cnt);
	printf("%4.2lf kmallocs/create\n", creates ? (double)kmallocs / creates : NAN);
	/* upstream's line, counted over the whole run */
	if (ctx.total.owner_errs || ctx.total.create_errs)
		printf("%s() errors %ld create_errs %llu\n",
		       args.type == STORAGE_SOCKET ? "socket" : "pthread_create",
		       ctx.total.owner_errs, (unsigned long long)ctx.total.create_errs);
	return 0;
}

static void lsc_describe_opts(struct bench_opts_out *out)
{
	bench_opt_str(out, "storage_type", storage_names[args.type]);
	bench_opt_int(out, "batch_size", args.batch);
	/* the hook that ran: runs on different hooks are different configurations */
	bench_opt_str(out, "hook", hook_target(ctx.ran));
}

static void lsc_describe_counts(struct bench_opts_out *out)
{
	const struct lsc_counts *t = &ctx.total;

	bench_opt_int(out, "objects", t->objects);
	bench_opt_int(out, "object_errors", t->owner_errs);
	bench_opt_int(out, "creates", t->creates);
	bench_opt_int(out, "create_errors", t->create_errs);
	bench_opt_int(out, "kmallocs", t->kmallocs);
	bench_opt_int(out, "producer_kmallocs", t->prod_kmallocs);
}

const struct bench bench_local_storage_create = {
	.name = "local-storage-create",
	.desc = "BPF socket or task local storage creations per second and kmallocs per create",
	.argp = &bench_local_storage_create_argp,
	/* raw_tp, tp_btf, lsm and cgroup programs: no tracefs */
	.needs = BENCH_NEEDS_BPF | BENCH_NEEDS_MEMCG,
	.caps = BENCH_CAP_REPEAT_FRESH,
	.ext.validate = lsc_validate,
	.ext.setup = lsc_setup,
	.producer_thread = lsc_producer,
	.ext.measure = lsc_measure,
	.report_progress = lsc_report_progress,
	.ext.report_final = lsc_report_final,
	.teardown = lsc_teardown,
	.metrics = lsc_metrics,
	.describe_opts = lsc_describe_opts,
	.describe_counts = lsc_describe_counts,
	.prod_rate_unit = "k/s",
	.prod_rate_scale = 1e3,
	.counted_by = BENCH_COUNTED_BY_BPF,
	.latency = true,
};
