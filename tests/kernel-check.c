/*
 * kernel-check.c: runs kernel selector files (drivers/md/dm-ps-*.c,
 * compiled through kcompat/ as --selector-source does) beside mpsim's
 * built-in selector of the same name, on the same random operation
 * sequences, and stops at the first choice or status word in which they
 * differ.  `make kernel-check` runs it on linux-source-6.1's files.
 *
 * usage: kernel-check [--ops=N] [--seed=S] [--select_clock=sched_clock]
 *                     FILE.c...
 *
 * A sequence is a series of tables: a selector created with random valid
 * arguments (and, now and then, a bad one both must refuse), 1-8 paths
 * added with random per-path arguments on a random machine (1-16 CPUs,
 * 1-4 NUMA nodes, any HZ, a sched_clock off ktime by up to a second and
 * up to 200 ppm, clock steps that are multiples of 1 ns to 16 ms so that
 * estimates sometimes tie), then random operations: select_path on a random CPU
 * with start_io on the choice, end_io of a random I/O in flight with a
 * start stamp of either clock epoch, 0, or one in the future, fail and
 * reinstate, an I/O's end_io a second time (as dm-mpath does for a killed
 * bio), and clock steps from nothing to hours.  One table in 100 runs
 * 300 000 operations, the others 100 to 10 099.  After every
 * operation the status of the paths it touched is compared, and every
 * 64 operations that of every path and of the selector; so is what each
 * operation returns.
 *
 * --select_clock=sched_clock hands the built-in select_path sched_clock()
 * for `now`, as mpsim does for 5.8-5.17's HST, to check a file whose
 * select_path reads sched_clock().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selectors/ksource.h"
#include "selectors/selector.h"
#include "sim/clock.h"

#define KC_MAX_PATHS	8
#define KC_MAX_INFLIGHT	4096

static uint64_t rng_state;

/* splitmix64: small, fast, and the same everywhere */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

struct side {
	const struct ps_type *t;
	struct path_selector ps;
	struct ps_path path[KC_MAX_PATHS];
	struct ps_path *pp[KC_MAX_PATHS];
	bool added[KC_MAX_PATHS];
};

struct inflight {
	unsigned path;
	size_t bytes;
	uint64_t start;
};

struct check {
	const char *file;
	struct side k, m;		/* the kernel's file, mpsim's own */
	struct sched_clock sched;
	bool select_sched;		/* built-in select_path reads sched_clock */
	unsigned npaths;
	bool failed[KC_MAX_PATHS];
	struct inflight io[KC_MAX_INFLIGHT];
	unsigned nio;
	sim_ns now;
	uint64_t grain;			/* this table's clock steps are
					   multiples of it, so that estimates
					   tie now and then */
	uint64_t op, table;
	char what[160];			/* the operation, for the report */
};

static void fail_check(struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void fail_check(struct check *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kernel-check: %s: operation %llu (table %llu, %s, "
		"now %llu ns): ", c->file, (unsigned long long)c->op,
		(unsigned long long)c->table, c->what,
		(unsigned long long)c->now);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- arguments each selector accepts, and now and then one it refuses ---- */

static void word(char *buf, size_t len, unsigned max)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%u", n ? " " : "", below(max + 1));
}

static void selector_args(const char *name, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!below(50)) {
		snprintf(buf, len, "x");	/* both must refuse */
		return;
	}
	if (!strcmp(name, "historical-service-time")) {
		if (below(4)) {
			word(buf, len, 1023);
			if (below(2))
				word(buf, len, below(2) ? 3 : 1000);
		}
	}
}

static void path_args(const char *name, unsigned ncpus, char *buf,
		      size_t len)
{
	buf[0] = '\0';
	if (!below(60)) {
		snprintf(buf, len, below(2) ? "-" : "1 2 3");
		return;
	}
	if (!strcmp(name, "io-affinity")) {
		uint64_t mask = rnd() & ((ncpus >= 64 ? 0 : 1ULL << ncpus) - 1);

		if (!below(20))		/* a CPU beyond the machine */
			mask |= 1ULL << ncpus;
		snprintf(buf, len, "%llx", (unsigned long long)mask);
		return;
	}
	if (below(3))
		return;
	word(buf, len, below(2) ? 1 : 5);
	if (!strcmp(name, "service-time") && below(2))
		word(buf, len, 100);
}

/* ---- the two sides ---- */

static void side_machine(struct side *s, const struct check *c,
			 unsigned ncpus, unsigned nodes, unsigned hz)
{
	memset(&s->ps, 0, sizeof(s->ps));
	s->ps.nr_cpu_ids = ncpus;
	s->ps.nr_node_ids = nodes;
	s->ps.hz = hz;
	s->ps.sched = &c->sched;
}

static void compare_status(struct check *c, int p)
{
	enum ps_status_type t;
	char a[256], b[256];

	for (t = PS_STATUS_INFO; t <= PS_STATUS_TABLE; t++) {
		struct ps_path *kp = p < 0 ? NULL : &c->k.path[p];
		struct ps_path *mp = p < 0 ? NULL : &c->m.path[p];
		int na = c->k.t->status(&c->k.ps, kp, t, a, sizeof(a));
		int nb = c->m.t->status(&c->m.ps, mp, t, b, sizeof(b));

		if (na != nb || strcmp(a, b))
			fail_check(c, "%s status of %s%d: kernel \"%s\", "
				   "mpsim \"%s\"",
				   t == PS_STATUS_INFO ? "info" : "table",
				   p < 0 ? "the selector" : "path ", p < 0 ? 0 : p,
				   a, b);
	}
}

static void compare_all(struct check *c)
{
	unsigned i;

	compare_status(c, -1);
	for (i = 0; i < c->npaths; i++)
		if (c->k.added[i])
			compare_status(c, (int)i);
}

/* A table: create, add paths; false when both refused the selector. */
static bool table_open(struct check *c)
{
	static const unsigned hzs[] = { 100, 250, 300, 1000 };
	unsigned ncpus = 1 + below(16), nodes = 1 + below(4), i;
	unsigned hz = hzs[below(4)];
	char args[64], ek[ERR_MAX], em[ERR_MAX];
	int rk, rm;

	if (nodes > ncpus)
		nodes = ncpus;
	static const uint64_t grains[] = { 1, 1000, 1ULL << 20, 1ULL << 24 };

	c->grain = grains[below(4)];
	c->sched.jiffies = !below(8);
	c->sched.offset = (int64_t)(rnd() % (2 * NSEC_PER_SEC)) -
			  (int64_t)NSEC_PER_SEC;
	c->sched.drift_ppm = (int32_t)below(401) - 200;
	side_machine(&c->k, c, ncpus, nodes, hz);
	side_machine(&c->m, c, ncpus, nodes, hz);
	selector_args(c->k.t->name, args, sizeof(args));
	snprintf(c->what, sizeof(c->what), "create \"%s\"", args);
	rk = ps_init(&c->k.ps, c->k.t, args, ek);
	rm = ps_init(&c->m.ps, c->m.t, args, em);
	if (!rk != !rm)
		fail_check(c, "kernel %s, mpsim %s", rk ? ek : "accepted",
			   rm ? em : "accepted");
	if (rk)
		return false;

	c->npaths = 1 + below(KC_MAX_PATHS);
	for (i = 0; i < c->npaths; i++) {
		c->k.path[i] = (struct ps_path){ .name = "k", .index = i };
		c->m.path[i] = (struct ps_path){ .name = "m", .index = i };
		path_args(c->k.t->name, ncpus, args, sizeof(args));
		snprintf(c->what, sizeof(c->what), "add path %u \"%s\" (%u CPUs)",
			 i, args, ncpus);
		rk = ps_add_path(&c->k.ps, &c->k.path[i], args, ek);
		rm = ps_add_path(&c->m.ps, &c->m.path[i], args, em);
		if (!rk != !rm)
			fail_check(c, "kernel %s, mpsim %s",
				   rk ? ek : "accepted", rm ? em : "accepted");
		c->k.added[i] = c->m.added[i] = !rk;
		c->failed[i] = false;
	}
	c->nio = 0;
	compare_all(c);
	return true;
}

static void table_close(struct check *c)
{
	unsigned i, n = 0;

	for (i = 0; i < c->npaths; i++)
		if (c->k.added[i]) {
			c->k.pp[n] = &c->k.path[i];
			c->m.pp[n++] = &c->m.path[i];
		}
	ps_exit(&c->k.ps, c->k.pp, n);
	ps_exit(&c->m.ps, c->m.pp, n);
}

/* A path that was added, at random; -1 if none has (state: 0 valid,
 * 1 failed, -1 either). */
static int pick_path(struct check *c, int state)
{
	unsigned i, n = 0, cand[KC_MAX_PATHS];

	for (i = 0; i < c->npaths; i++)
		if (c->k.added[i] && (state < 0 || c->failed[i] == state))
			cand[n++] = i;
	return n ? (int)cand[below(n)] : -1;
}

/* The start stamp end_io will see: either clock's epoch, 0, or later. */
static uint64_t stamp(struct check *c)
{
	unsigned hz = c->k.ps.hz;

	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return c->now + 1 + below(1000000);
	case 2:
	case 3:
		return jiffies_to_nsecs(hz, jiffies_at(hz, c->now));
	case 4:
		return c->now > 5000000 ? c->now - below(5000000) : 0;
	default:
		return c->now;
	}
}

static void op_select(struct check *c)
{
	size_t bytes = 512 * (1 + below(256));
	sim_ns mnow = c->select_sched ?
		sched_clock_at(&c->sched, c->m.ps.hz, c->now) : c->now;
	struct ps_path *a, *b;
	unsigned cpu = below(c->k.ps.nr_cpu_ids);

	c->k.ps.cpu = c->m.ps.cpu = cpu;
	snprintf(c->what, sizeof(c->what), "select_path(%zu) on CPU %u",
		 bytes, cpu);
	a = c->k.t->select_path(&c->k.ps, bytes, c->now);
	b = c->m.t->select_path(&c->m.ps, bytes, mnow);
	if (!a != !b || (a && a->index != b->index))
		fail_check(c, "kernel chose %d, mpsim %d",
			   a ? (int)a->index : -1, b ? (int)b->index : -1);
	if (!a)
		return;
	if (c->failed[a->index])
		fail_check(c, "both chose failed path %u", a->index);
	if (c->k.t->start_io) {
		int rk = c->k.t->start_io(&c->k.ps, a, bytes, c->now);
		int rm = c->m.t->start_io(&c->m.ps, b, bytes, c->now);

		/* dm-mpath ignores it, but it is the kernel's all the same */
		if (rk != rm)
			fail_check(c, "start_io: kernel returned %d, mpsim %d",
				   rk, rm);
		if (c->nio < KC_MAX_INFLIGHT)
			c->io[c->nio++] = (struct inflight){ a->index, bytes,
							     stamp(c) };
	}
	compare_status(c, (int)a->index);
}

static void op_end_io(struct check *c)
{
	unsigned k;
	struct inflight io;
	int rk, rm;

	if (!c->nio || !c->k.t->end_io)
		return;
	k = below(c->nio);
	io = c->io[k];
	/* now and then the I/O stays to end again later: dm-mpath's second
	 * end_io of a requeued bio killed for want of a path (sim/mpath.c
	 * mpath_kill), which takes counts below zero */
	if (below(100))
		c->io[k] = c->io[--c->nio];
	snprintf(c->what, sizeof(c->what), "end_io(path %u, %zu, start %llu)",
		 io.path, io.bytes, (unsigned long long)io.start);
	rk = c->k.t->end_io(&c->k.ps, &c->k.path[io.path], io.bytes,
			    io.start, c->now);
	rm = c->m.t->end_io(&c->m.ps, &c->m.path[io.path], io.bytes,
			    io.start, c->now);
	if (rk != rm)
		fail_check(c, "kernel returned %d, mpsim %d", rk, rm);
	compare_status(c, (int)io.path);
}

static void op_fail(struct check *c)
{
	int p = pick_path(c, 0);

	if (p < 0)
		return;
	snprintf(c->what, sizeof(c->what), "fail_path(%d)", p);
	c->k.t->fail_path(&c->k.ps, &c->k.path[p]);
	c->m.t->fail_path(&c->m.ps, &c->m.path[p]);
	c->failed[p] = true;
	compare_status(c, p);
}

static void op_reinstate(struct check *c)
{
	int p = pick_path(c, 1), rk, rm;

	if (p < 0)
		return;
	snprintf(c->what, sizeof(c->what), "reinstate_path(%d)", p);
	rk = c->k.t->reinstate_path(&c->k.ps, &c->k.path[p]);
	rm = c->m.t->reinstate_path(&c->m.ps, &c->m.path[p]);
	if (rk != rm)
		fail_check(c, "kernel returned %d, mpsim %d", rk, rm);
	if (!rk)
		c->failed[p] = false;
	compare_status(c, p);
}

static void op_clock(struct check *c)
{
	static const uint64_t scale[] = {
		1000, 1000000, 100000000, 10 * NSEC_PER_SEC, 1ULL << 42,
	};
	static const unsigned weight[] = { 40, 30, 20, 9, 1 };
	unsigned r = below(100), i = 0;

	while (r >= weight[i]) {
		r -= weight[i];
		i++;
	}
	c->now += rnd() % scale[i] / c->grain * c->grain;
}

/* One file: returns after ops operations without a difference. */
static void check_file(const char *file, uint64_t ops, bool select_sched)
{
	static struct check c;
	char err[ERR_MAX];

	memset(&c, 0, sizeof(c));
	c.file = file;
	c.select_sched = select_sched;
	c.k.t = ps_source_load(file, err);
	if (!c.k.t) {
		fprintf(stderr, "kernel-check: %s\n", err);
		exit(2);
	}
	c.m.t = ps_find(c.k.t->name);
	if (!c.m.t) {
		fprintf(stderr, "kernel-check: %s: mpsim has no selector "
			"called %s\n", file, c.k.t->name);
		exit(2);
	}
	c.now = rnd() % (3600 * NSEC_PER_SEC);
	while (c.op < ops) {
		uint64_t end;

		c.table++;
		if (!table_open(&c)) {
			c.op++;
			continue;
		}
		/* one table in 100 is long: 135 000 selections or so, past
		 * the ~65 000 after which service-time renumbers its list
		 * keys (selectors/service-time.c) */
		end = c.op + (c.table % 100 == 1 ? 300000 : 100 + below(10000));
		while (c.op < end) {
			unsigned r = below(100);

			c.op++;
			if (r < 45)
				op_select(&c);
			else if (r < 75)
				op_end_io(&c);
			else if (r < 78)
				op_fail(&c);
			else if (r < 81)
				op_reinstate(&c);
			else
				op_clock(&c);
			if (!(c.op % 64))
				compare_all(&c);
		}
		compare_all(&c);
		table_close(&c);
	}
	printf("kernel-check: %s: %s agrees with mpsim's over %llu "
	       "operations in %llu tables\n", file, c.k.t->name,
	       (unsigned long long)c.op, (unsigned long long)c.table);
}

int main(int argc, char **argv)
{
	uint64_t ops = 1000000, seed = 1;
	bool select_sched = false;
	int i, files = 0;

	mpsim_quiet = 1;	/* both sides warn alike; not the point here */
	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--ops=", 6))
			ops = strtoull(argv[i] + 6, NULL, 10);
		else if (!strncmp(argv[i], "--seed=", 7))
			seed = strtoull(argv[i] + 7, NULL, 10);
		else if (!strcmp(argv[i], "--select_clock=sched_clock"))
			select_sched = true;
		else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: kernel-check [--ops=N] "
				"[--seed=S] [--select_clock=sched_clock] "
				"FILE.c...\n");
			return 2;
		}
	}
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		rng_state = seed;
		check_file(argv[i], ops, select_sched);
		files++;
	}
	if (!files) {
		fprintf(stderr, "kernel-check: name at least one file\n");
		return 2;
	}
	return 0;
}
