/*
 * test_delay.c: the dm-delay layer (docs/kernel-model.md §7): the constructor's mode
 * choice and poll interval, msecs_to_jiffies rounding of the expiry, the
 * FIFO list and its overtaking, the timer mode on both wheels (§7.5), the
 * kthread's sleeps, the scenario keys, and the synchronous writer of §7.6
 * falling into step with the tick.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/clock.h"
#include "sim/delay.h"
#include "sim/rng.h"
#include "input/scenario.h"
#include "input/table.h"
#include "sim/run.h"
#include "sim/trace.h"

/* ---- a rig: one path with its layer, driven by hand ---- */

#define RIG_IOS		16

/*
 * A world of one path and no multipath device: the test hands I/Os to
 * path_submit() at chosen instants and pops the events itself, recording
 * when each I/O reached the device (its dispatch stamp; the device has
 * unbounded slots, so that is the instant the layer released it).
 */
struct rig {
	struct scenario sc;
	struct sim s;
	struct run_result res;
	struct sim_io io[RIG_IOS];
	struct sim_io *out[RIG_IOS];	/* in the order they reached the
					   device */
	sim_ns out_t[RIG_IOS];
	unsigned nout;
	sim_ns wakes[64];		/* EV_DELAY_WAKE instants */
	unsigned nwakes;
};

/* The rig with a second path when path2 is not NULL (both with their
 * layers, on the one CPU's timer base in timer mode). */
static void rig_init2(struct rig *r, const char *multipath, const char *path,
		      const char *path2)
{
	char text[1024], err[ERR_MAX] = "";
	struct sim *s = &r->s;
	unsigned i, n = path2 ? 2 : 1;

	memset(r, 0, sizeof(*r));
	snprintf(text, sizeof(text), "[multipath]\n%s\n[path p]\nslots = 0\n"
		 "service = fixed:1us\n%s\n%s%s%s[j]\nnumber_ios = 1\n",
		 multipath, path, path2 ? "[path q]\nslots = 0\n"
		 "service = fixed:1us\n" : "", path2 ? path2 : "",
		 path2 ? "\n" : "");
	cr_assert_eq(scenario_parse(&r->sc, text, "rig", err), 0, "%s", err);
	s->sc = &r->sc;
	s->start = s->now = r->sc.uptime;
	evq_init(&s->q);
	run_result_alloc(&r->res, n);
	s->res = &r->res;
	s->nr_paths = n;
	s->paths = calloc(n, sizeof(*s->paths));
	for (i = 0; i < n; i++) {
		path_setup(&s->paths[i], s, &r->sc.paths[i], i, 1);
		s->paths[i].stats = &r->res.path[i];
	}
	delay_setup(s, 1);
	for (i = 0; i < n; i++)
		cr_assert_not_null(s->paths[i].delay);
}

static void rig_init(struct rig *r, const char *multipath, const char *path)
{
	rig_init2(r, multipath, path, NULL);
}

static void rig_free(struct rig *r)
{
	unsigned i;

	delay_teardown(&r->s);
	for (i = 0; i < r->s.nr_paths; i++)
		path_teardown(&r->s.paths[i]);
	free(r->s.paths);
	evq_free(&r->s.q);
	run_result_free(&r->res);
	scenario_free(&r->sc);
}

static struct dm_delay *rig_dc(struct rig *r)
{
	return r->s.paths[0].delay;
}

/* Hand I/O k to path i at time t (not before the rig's clock). */
static void rig_submit_on(struct rig *r, unsigned i, unsigned k, bool write,
			  sim_ns t)
{
	struct sim_io *io = &r->io[k];

	cr_assert_geq(t, r->s.now);
	r->s.now = t;
	io->write = write;
	io->bytes = 4096;
	io->path = &r->s.paths[i];
	io->submit = t;
	path_submit(&r->s.paths[i], io);
}

/* Hand I/O k to the (first) path at time t. */
static void rig_submit(struct rig *r, unsigned k, bool write, sim_ns t)
{
	rig_submit_on(r, 0, k, write, t);
}

/* Run every event due up to t (all of them for SIM_NEVER). */
static void rig_run(struct rig *r, sim_ns t)
{
	struct sim *s = &r->s;
	struct event e;

	while (s->q.n && s->q.heap[0].time <= t && evq_pop(&s->q, &e)) {
		cr_assert_geq(e.time, s->now);
		s->now = e.time;
		if (e.kind == EV_DELAY_WAKE) {
			if (r->nwakes < 64)
				r->wakes[r->nwakes++] = e.time;
			delay_wake(s, e.obj);
			cr_assert(delay_check(s), "layer invariants broken");
		} else if (e.kind == EV_DEV_DONE) {
			struct sim_io *io = e.obj;

			cr_assert_lt(r->nout, RIG_IOS);
			r->out[r->nout] = io;
			r->out_t[r->nout++] = io->dispatch;
		} else {
			cr_assert_fail("unexpected event %s",
				       ev_kind_name[e.kind]);
		}
	}
}

/*
 * Every path with a delayed class gets its layer and no other path does;
 * the timer-mode ones share the CPU's timer base.  Teardown frees and
 * clears them all, the last path's too.
 */
Test(dm_delay, setup_and_teardown_cover_every_path)
{
	static const char text[] =
		"[path a]\nslots = 0\nservice = fixed:1us\ndelay = 60ms\n"
		"[path b]\nslots = 0\nservice = fixed:1us\n"
		"[path c]\nslots = 0\nservice = fixed:1us\nwrite_delay = 70\n"
		"[j]\nnumber_ios = 1\n";
	char err[ERR_MAX] = "";
	struct run_result res;
	struct scenario sc;
	struct sim s;
	unsigned i;

	memset(&s, 0, sizeof(s));
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	s.sc = &sc;
	s.start = s.now = sc.uptime;
	evq_init(&s.q);
	run_result_alloc(&res, 3);
	s.res = &res;
	s.nr_paths = 3;
	s.paths = calloc(3, sizeof(*s.paths));
	for (i = 0; i < 3; i++) {
		path_setup(&s.paths[i], &s, &sc.paths[i], i, 1);
		s.paths[i].stats = &res.path[i];
	}
	delay_setup(&s, 1);
	cr_assert_not_null(s.paths[0].delay);
	cr_assert_null(s.paths[1].delay, "no class delayed: no layer");
	cr_assert_not_null(s.paths[2].delay);
	cr_assert_not_null(s.delay_cpu);
	cr_assert_eq(s.paths[0].delay->cpu, s.delay_cpu);
	cr_assert_eq(s.paths[2].delay->cpu, s.delay_cpu);
	cr_assert_eq(s.paths[2].delay->path, &s.paths[2]);
	delay_teardown(&s);
	for (i = 0; i < 3; i++)
		cr_assert_null(s.paths[i].delay, "path %u", i);
	cr_assert_null(s.delay_cpu);
	for (i = 0; i < 3; i++)
		path_teardown(&s.paths[i]);
	free(s.paths);
	evq_free(&s.q);
	run_result_free(&res);
	scenario_free(&sc);
}

/* ---- the constructor ---- */
/* ---- the constructor ---- */

static struct delay_conf conf_ms(unsigned rd, unsigned wr)
{
	struct delay_conf c;

	memset(&c, 0, sizeof(c));
	c.read_ms = rd;
	c.write_ms = wr;
	return c;
}

Test(dm_delay, kthread_below_50ms_timer_from_50ms)
{
	struct delay_conf c = conf_ms(49, 49);

	/* §7.4: kthread iff max_delay < 50 ms */
	cr_assert(delay_use_kthread(&c));
	c = conf_ms(50, 50);
	cr_assert_not(delay_use_kthread(&c));
	/* the maximum over the classes decides (6.10+ computation) */
	c = conf_ms(1, 50);
	cr_assert_not(delay_use_kthread(&c));
	c = conf_ms(50, 1);
	cr_assert_not(delay_use_kthread(&c));
	c = conf_ms(0, 49);
	cr_assert(delay_use_kthread(&c));
	/* a 9-word table's own flush delay counts too */
	c = conf_ms(1, 1);
	c.flush_ms = 50;
	cr_assert(delay_use_kthread(&c), "flush follows write unless given");
	c.flush_given = true;
	cr_assert_not(delay_use_kthread(&c));
}

Test(dm_delay, poll_interval_is_min_1ms_and_eighth_of_min_delay)
{
	static const struct {
		unsigned rd, wr, us;
	} v[] = {
		{ 1, 1, 125 }, { 2, 2, 250 }, { 5, 5, 625 }, { 7, 7, 875 },
		{ 8, 8, 1000 }, { 9, 0, 1000 }, { 12, 12, 1000 },
		{ 49, 49, 1000 }, { 200, 200, 1000 },
		/* min_delay is the smallest non-zero class delay */
		{ 0, 4, 500 }, { 16, 3, 375 }, { 3, 0, 375 },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		struct delay_conf c = conf_ms(v[i].rd, v[i].wr);

		cr_assert_eq(delay_sleep_us(&c), v[i].us, "read %u write %u",
			     v[i].rd, v[i].wr);
	}
}

/* A layer exists when any class is delayed, each class alone too. */
Test(dm_delay, present_when_any_one_class_is_delayed)
{
	struct delay_conf c = conf_ms(0, 0);

	cr_assert_not(delay_present(&c));
	c.flush_ms = 7;
	cr_assert_not(delay_present(&c), "flush follows write unless given");
	c.flush_given = true;
	cr_assert(delay_present(&c), "flush alone");
	c = conf_ms(5, 0);
	cr_assert(delay_present(&c), "read alone");
	c = conf_ms(0, 4);
	c.flush_given = true;
	cr_assert(delay_present(&c), "write alone, flush 0 given");
}

/*
 * max_delay (§7.4) is the largest class delay: a 0 after a large class
 * leaves it alone, and one more than the maximum so far (49 then 50)
 * replaces it.  6.6 (before 70bbeb29fab0) is timer mode at any delay.
 */
Test(dm_delay, max_delay_is_the_largest_class)
{
	struct delay_conf c = conf_ms(60, 0);

	cr_assert_not(delay_use_kthread(&c), "read 60, write 0");
	c = conf_ms(49, 50);
	cr_assert_not(delay_use_kthread(&c), "read 49, write 50");
	c = conf_ms(49, 48);
	cr_assert(delay_use_kthread(&c));
	c = conf_ms(2, 2);
	cr_assert_not(delay_use_kthread_in(&c, 6006));
	cr_assert(delay_use_kthread_in(&c, 6007));
}

/* min_delay (§7.4, 6.16+) is the smallest non-zero class, the flush
 * class's own delay too, and one less than the smallest so far counts. */
Test(dm_delay, poll_interval_from_the_smallest_class_flush_too)
{
	struct delay_conf c = conf_ms(16, 8);

	c.flush_ms = 2;
	c.flush_given = true;
	cr_assert_eq(delay_sleep_us(&c), 250, "flush 2 ms");
	c = conf_ms(5, 4);
	cr_assert_eq(delay_sleep_us(&c), 500, "read 5, write 4");
}

/* Leave v in the stack below the caller's frame, where the next call's
 * locals will be. */
static __attribute__((noinline)) void stack_fill(unsigned v)
{
	volatile unsigned a[1024];
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(a); i++)
		a[i] = v;
}

/*
 * delay_sleep_us() with v in the caller's first callee-saved register
 * (x86-64: rbx), which a callee that saves it keeps in its frame beside
 * its locals.
 */
static __attribute__((noinline)) unsigned
sleep_us_beside(const struct delay_conf *c, unsigned long v)
{
#if defined(__x86_64__)
	register unsigned long keep __asm__("rbx") = v;
	unsigned us;

	__asm__ volatile("" : "+r"(keep));
	us = delay_sleep_us(c);
	__asm__ volatile("" : : "r"(keep));
	return us;
#else
	(void)v;
	return delay_sleep_us(c);
#endif
}

/*
 * min_delay is taken over the three classes and nothing past them: with
 * small numbers left in the stack and in the registers the callee saves
 * beside its array, where a fourth class would be read, 40 ms still
 * sleeps 1 ms.
 */
Test(dm_delay, poll_interval_reads_only_the_three_classes)
{
	struct delay_conf c = conf_ms(40, 40);
	unsigned v;

	for (v = 1; v < 8; v++) {
		stack_fill(v);
		cr_assert_eq(sleep_us_beside(&c, v), 1000, "%u", v);
	}
}

/* ---- the list in kthread mode ---- */

Test(dm_delay, expiry_is_msecs_to_jiffies_rounded_up)
{
	/* docs/kernel-model.md §1.3's table: ms -> jiffies */
	static const unsigned ms[] = { 1, 2, 3, 4, 5, 10, 20, 49 };
	static const struct {
		unsigned hz;
		unsigned j[8];
	} t[] = {
		{ 100, { 1, 1, 1, 1, 1, 1, 2, 5 } },
		{ 250, { 1, 1, 1, 1, 2, 3, 5, 13 } },
		{ 300, { 1, 1, 1, 2, 2, 3, 6, 15 } },
		{ 1000, { 1, 2, 3, 4, 5, 10, 20, 49 } },
	};
	unsigned h, i;

	for (h = 0; h < ARRAY_SIZE(t); h++) {
		for (i = 0; i < ARRAY_SIZE(ms); i++) {
			char mp[64], path[64];
			struct rig r;
			uint64_t j0;
			sim_ns t0;

			snprintf(mp, sizeof(mp), "hz = %u", t[h].hz);
			/* busy polling sees the jiffy change at once */
			snprintf(path, sizeof(path), "write_delay = %u\n"
				 "kthread_poll = busy", ms[i]);
			rig_init(&r, mp, path);
			cr_assert_eq(rig_dc(&r)->delay_jiffies[DELAY_WRITE],
				     t[h].j[i], "HZ %u, %u ms", t[h].hz, ms[i]);
			/* arrive 30% into a tick */
			j0 = jiffies_at(t[h].hz, r.s.now) + 7;
			t0 = jiffy_edge(t[h].hz, j0);
			t0 += tick_len(t[h].hz, t0) * 3 / 10;
			rig_submit(&r, 0, true, t0);
			rig_run(&r, SIM_NEVER);
			cr_assert_eq(r.nout, 1);
			/* released the instant jiffies reaches J + d: the wall
			 * delay is in ((d-1) TICK, d TICK] (§7.5) */
			cr_assert_eq(r.out_t[0],
				     jiffy_edge(t[h].hz, j0 + t[h].j[i]),
				     "HZ %u, %u ms", t[h].hz, ms[i]);
			rig_free(&r);
		}
	}
}

Test(dm_delay, later_short_delay_overtakes_and_due_entries_keep_list_order)
{
	struct rig r;
	uint64_t j0;
	sim_ns t0;

	rig_init(&r, "hz = 1000", "read_delay = 20ms\nwrite_delay = 2ms\n"
		 "kthread_poll = busy");
	j0 = jiffies_at(1000, r.s.now) + 1;
	t0 = jiffy_edge(1000, j0) + 100;
	rig_submit(&r, 0, false, t0);		/* read, due J + 20 */
	rig_submit(&r, 1, true, t0 + 1000);	/* write, due J + 2 */
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 2);
	cr_assert_eq(r.out[0], &r.io[1], "the later write overtakes");
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 2));
	cr_assert_eq(r.out[1], &r.io[0]);
	cr_assert_eq(r.out_t[1], jiffy_edge(1000, j0 + 20));

	/* a read due at J + 20 and a write queued later, due at the same
	 * jiffy: one flush takes both, in list (arrival) order */
	r.nout = 0;
	j0 = jiffies_at(1000, r.s.now) + 1;
	rig_submit(&r, 2, false, jiffy_edge(1000, j0) + 5);
	rig_submit(&r, 3, true, jiffy_edge(1000, j0 + 18) + 5);
	rig_submit(&r, 4, true, jiffy_edge(1000, j0 + 18) + 6);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 3);
	cr_assert_eq(r.out[0], &r.io[2]);
	cr_assert_eq(r.out[1], &r.io[3]);
	cr_assert_eq(r.out[2], &r.io[4]);
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 20));
	cr_assert_eq(r.out_t[2], jiffy_edge(1000, j0 + 20));
	cr_assert_eq(rig_dc(&r)->nr, 0);
	rig_free(&r);
}

/*
 * After a flush the poll is re-armed for the earliest entry left, not the
 * first on the list: C (write, 2 ms), then A (read, 9 ms) and B (flush,
 * 7 ms) queued behind it; A is ahead of B on the list, B is due first.
 * One wake per due instant (a pending earlier poll covers a later bio).
 */
Test(dm_delay, rearmed_for_the_earliest_left_not_the_first)
{
	struct rig r;
	uint64_t j0;

	rig_init(&r, "hz = 1000", "read_delay = 9ms\nwrite_delay = 2ms\n"
		 "flush_delay = 7ms\nkthread_poll = busy");
	j0 = jiffies_at(1000, r.s.now) + 1;
	rig_submit(&r, 0, true, jiffy_edge(1000, j0) + 5);	/* C: J + 2 */
	rig_submit(&r, 1, false, jiffy_edge(1000, j0) + 6);	/* A: J + 9 */
	r.io[2].ddir = DDIR_SYNC;
	rig_submit(&r, 2, true, jiffy_edge(1000, j0) + 7);	/* B: J + 7 */
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 3);
	cr_assert_eq(r.out[0], &r.io[0]);
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 2));
	cr_assert_eq(r.out[1], &r.io[2]);
	cr_assert_eq(r.out_t[1], jiffy_edge(1000, j0 + 7));
	cr_assert_eq(r.out[2], &r.io[1]);
	cr_assert_eq(r.out_t[2], jiffy_edge(1000, j0 + 9));
	cr_assert_eq(r.nwakes, 3);
	cr_assert_eq(r.wakes[0], jiffy_edge(1000, j0 + 2));
	cr_assert_eq(r.wakes[1], jiffy_edge(1000, j0 + 7));
	cr_assert_eq(r.wakes[2], jiffy_edge(1000, j0 + 9));
	cr_assert_eq(rig_dc(&r)->delayed, 3);
	/* released entries are kept for the next bios: no allocation per
	 * bio once the list has had its largest length */
	cr_assert_not_null(rig_dc(&r)->spare);
	rig_free(&r);
}

/*
 * §7.6's ns expiry with a busy kthread: each entry is released at its
 * own nanosecond.  Entries due 1 ns apart, the later one ahead on the
 * list, are released 1 ns apart; a poll that finds one due 1 ns early
 * leaves it; a bio due at the instant of the pending poll adds no poll.
 */
Test(dm_delay, ns_expiry_busy_poll_releases_at_the_ns)
{
	struct rig r;
	sim_ns t0, t1;

	rig_init(&r, "hz = 1000", "read_delay = 9ms\nwrite_delay = 2ms\n"
		 "flush_delay = 8ms\nexpiry = ns\nkthread_poll = busy");
	cr_assert(rig_dc(&r)->ns_expiry);
	t0 = r.s.now + 1000;
	rig_submit(&r, 0, true, t0);			/* C: t0 + 2 ms */
	rig_submit(&r, 1, false, t0 + 1);		/* A: t0 + 9 ms + 1 */
	r.io[2].ddir = DDIR_SYNC;
	rig_submit(&r, 2, true, t0 + 1000000);		/* B: t0 + 9 ms */
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 3);
	cr_assert_eq(r.out[0], &r.io[0]);
	cr_assert_eq(r.out_t[0], t0 + 2000000);
	cr_assert_eq(r.out[1], &r.io[2]);
	cr_assert_eq(r.out_t[1], t0 + 9000000);
	cr_assert_eq(r.out[2], &r.io[1]);
	cr_assert_eq(r.out_t[2], t0 + 9000001);
	cr_assert_eq(r.nwakes, 3);

	/* A (read) queued first, B due 1 ns before it: the pending poll
	 * moves 1 ns earlier; D (write) due at that same ns adds no poll */
	r.nout = r.nwakes = 0;
	t1 = r.s.now + 1000;
	rig_submit(&r, 3, false, t1);			/* A: t1 + 9 ms */
	r.io[4].ddir = DDIR_SYNC;
	rig_submit(&r, 4, true, t1 + 1000000 - 1);	/* B: t1 + 9 ms - 1 */
	rig_submit(&r, 5, true, t1 + 7000000 - 1);	/* D: t1 + 9 ms - 1 */
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 3);
	cr_assert_eq(r.out[0], &r.io[4]);
	cr_assert_eq(r.out[1], &r.io[5]);
	cr_assert_eq(r.out_t[1], t1 + 9000000 - 1);
	cr_assert_eq(r.out[2], &r.io[3]);
	cr_assert_eq(r.out_t[2], t1 + 9000000);
	cr_assert_eq(r.wakes[0], t1 + 9000000 - 1);
	cr_assert_eq(rig_dc(&r)->polls, 5, "3 polls, then 2");
	rig_free(&r);
}

Test(dm_delay, zero_delay_class_passes_straight_through)
{
	struct rig r;

	rig_init(&r, "hz = 250", "read_delay = 0\nwrite_delay = 10ms");
	rig_submit(&r, 0, false, r.s.now + 123);
	cr_assert_eq(rig_dc(&r)->nr, 0, "a read is not delayed");
	rig_submit(&r, 1, true, r.s.now + 1);
	cr_assert_eq(rig_dc(&r)->nr, 1);
	cr_assert_eq(rig_dc(&r)->ops[DELAY_WRITE], 1);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 2);
	cr_assert_eq(r.out[0], &r.io[0]);
	rig_free(&r);
}

Test(dm_delay, a_sync_is_delayed_as_a_flush)
{
	struct rig r;

	/* 9-word table: read 3 ms, write 5 ms, flush 9 ms at HZ=1000 */
	rig_init(&r, "hz = 1000", "read_delay = 3ms\nwrite_delay = 5ms\n"
		 "flush_delay = 9ms\nkthread_poll = busy");
	r.io[0].ddir = DDIR_SYNC;
	rig_submit(&r, 0, true, jiffy_edge(1000, jiffies_at(1000, r.s.now)
					       + 1));
	r.io[1].ddir = DDIR_TRIM;
	rig_submit(&r, 1, true, r.s.now);
	r.io[2].ddir = DDIR_READ;
	rig_submit(&r, 2, false, r.s.now);
	cr_assert_eq(rig_dc(&r)->ops[DELAY_FLUSH], 1);
	cr_assert_eq(rig_dc(&r)->ops[DELAY_WRITE], 1, "a trim is a write");
	cr_assert_eq(rig_dc(&r)->ops[DELAY_READ], 1);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 3);
	cr_assert_eq(r.out[0], &r.io[2]);
	cr_assert_eq(r.out_t[0] - r.io[2].submit, 3000000);
	cr_assert_eq(r.out[1], &r.io[1]);
	cr_assert_eq(r.out_t[1] - r.io[1].submit, 5000000);
	cr_assert_eq(r.out[2], &r.io[0]);
	cr_assert_eq(r.out_t[2] - r.io[0].submit, 9000000);
	rig_free(&r);
}

Test(dm_delay, sleeping_kthread_polls_every_interval_with_bounded_slack)
{
	struct rig r;
	unsigned i;

	/* 2 ms: worker_sleep_us 250, usleep_range(250, 312) */
	rig_init(&r, "hz = 1000", "delay = 2ms\nexpiry = ns");
	rig_submit(&r, 0, true, r.s.now + 77);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 1);
	cr_assert_geq(r.nwakes, 7);
	/* the idle worker wakes at the arrival and sleeps its interval */
	cr_assert_geq(r.wakes[0] - r.io[0].submit, 250000);
	cr_assert_leq(r.wakes[0] - r.io[0].submit, 312000);
	for (i = 1; i < r.nwakes; i++) {
		sim_ns d = r.wakes[i] - r.wakes[i - 1];

		cr_assert(d >= 250000 && d <= 312000, "poll gap %llu ns",
			  (unsigned long long)d);
	}
	/* ns expiry (§7.6): released at the first poll at or after
	 * submit + 2 ms, so within one poll interval of it */
	cr_assert_geq(r.out_t[0], r.io[0].submit + 2000000);
	cr_assert_lt(r.out_t[0], r.io[0].submit + 2000000 + 312000);
	cr_assert_eq(r.out_t[0], r.wakes[r.nwakes - 1]);
	/* the list is empty: the worker sleeps until woken again */
	cr_assert_eq(rig_dc(&r)->wake_at, SIM_NEVER);
	rig_free(&r);
}

/*
 * usleep_range(us, us + us / 4) (§7.4): each sleep is the interval plus a
 * slack uniform over 0 .. us / 4 microseconds, both ends included, in
 * ns, drawn from the layer's own stream (path 0's, of the rig's seed 1)
 * in the order the sleeps are taken.
 */
Test(dm_delay, sleeping_kthread_slack_is_uniform_to_a_quarter_inclusive)
{
	/* delay, worker_sleep_us, the slack's largest ns */
	static const unsigned v[][3] = {
		{ 3, 375, 93000 }, { 1, 125, 31000 }, { 20, 1000, 250000 },
	};
	unsigned i, k;

	for (k = 0; k < ARRAY_SIZE(v); k++) {
		gsl_rng *g = rng_stream(1, RNG_LAYER, 0);
		char path[64];
		struct rig r;

		snprintf(path, sizeof(path), "delay = %ums\nexpiry = ns",
			 v[k][0]);
		rig_init(&r, "hz = 250", path);
		cr_assert_eq(rig_dc(&r)->sleep_us, v[k][1]);
		rig_submit(&r, 0, true, r.s.now + 5);
		rig_run(&r, SIM_NEVER);
		cr_assert_eq(r.nout, 1);
		cr_assert_geq(r.nwakes, 5);
		for (i = 0; i < r.nwakes && i < 64; i++) {
			sim_ns from = i ? r.wakes[i - 1] : r.io[0].submit;

			cr_assert_eq(r.wakes[i] - from, v[k][1] * 1000ULL +
				     gsl_rng_uniform_int(g, v[k][2] + 1),
				     "%u ms, sleep %u", v[k][0], i);
		}
		gsl_rng_free(g);
		rig_free(&r);
	}
}

Test(dm_delay, ns_expiry_is_not_used_in_timer_mode)
{
	struct rig r;

	rig_init(&r, "hz = 100", "delay = 60ms\nexpiry = ns");
	cr_assert_not(rig_dc(&r)->kthread);
	cr_assert_not(rig_dc(&r)->ns_expiry,
		      "§7.6 keeps timer mode's jiffies");
	rig_free(&r);
}

/* ---- timer mode (§7.3, §7.5) ---- */

/* One write through a timer-mode target; returns its release instant
 * and the jiffy it arrived in. */
static sim_ns timer_one(const char *wheel, unsigned hz, unsigned ms,
			const char *wq, uint64_t *j0)
{
	char mp[128], path[64];
	struct rig r;
	sim_ns t0, out;

	snprintf(mp, sizeof(mp), "hz = %u\ntimer_wheel = %s\n"
		 "workqueue_latency = %s", hz, wheel, wq);
	snprintf(path, sizeof(path), "write_delay = %u", ms);
	rig_init(&r, mp, path);
	cr_assert_not(rig_dc(&r)->kthread);
	*j0 = jiffies_at(hz, r.s.now) + 3;
	t0 = jiffy_edge(hz, *j0) + tick_len(hz, jiffy_edge(hz, *j0)) / 2;
	rig_submit(&r, 0, true, t0);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 1);
	out = r.out_t[0];
	rig_free(&r);
	return out;
}

Test(dm_delay, timer_mode_fires_one_tick_late_on_the_levels_wheel)
{
	uint64_t j0;
	sim_ns t;

	/* d = 50 < 63: level 0, bucket_expiry = J + d + 1 (§7.5, §8.2) */
	t = timer_one("levels", 1000, 50, "0", &j0);
	cr_assert_eq(t, jiffy_edge(1000, j0 + 51));
	/* HZ=100: 60 ms is d = 6 ticks; fires at J + 7 */
	t = timer_one("levels", 100, 60, "0", &j0);
	cr_assert_eq(t, jiffy_edge(100, j0 + 7));
	/* the work runs after the workqueue's latency */
	t = timer_one("levels", 1000, 50, "7us", &j0);
	cr_assert_eq(t, jiffy_edge(1000, j0 + 51) + 7000);
	/* d = 100 >= 63: level 1, rounded up to the next multiple of 8
	 * above J + d */
	t = timer_one("levels", 1000, 100, "0", &j0);
	cr_assert_eq(t, jiffy_edge(1000, (((j0 + 100) >> 3) + 1) << 3));
}

Test(dm_delay, timer_mode_fires_on_time_on_the_classic_wheel)
{
	uint64_t j0;
	sim_ns t;

	/* the <= 4.7 wheel fires at J + d exactly (§7.5, §8.1) */
	t = timer_one("classic", 1000, 50, "0", &j0);
	cr_assert_eq(t, jiffy_edge(1000, j0 + 50));
	t = timer_one("classic", 100, 60, "0", &j0);
	cr_assert_eq(t, jiffy_edge(100, j0 + 6));
	t = timer_one("classic", 1000, 100, "0", &j0);
	cr_assert_eq(t, jiffy_edge(1000, j0 + 100));
}

Test(dm_delay, timer_is_reduced_for_an_earlier_entry_and_rearmed_after)
{
	struct rig r;
	uint64_t j0;

	rig_init(&r, "hz = 1000\ntimer_wheel = classic",
		 "read_delay = 100ms\nwrite_delay = 60ms");
	j0 = jiffies_at(1000, r.s.now) + 2;
	/* a read due at J + 100, then a write due at J + 60 */
	rig_submit(&r, 0, false, jiffy_edge(1000, j0) + 10);
	cr_assert_eq(rig_dc(&r)->timer.expires, j0 + 100);
	rig_submit(&r, 1, true, jiffy_edge(1000, j0) + 20);
	cr_assert_eq(rig_dc(&r)->timer.expires, j0 + 60, "timer_reduce");
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 2);
	cr_assert_eq(r.out[0], &r.io[1]);
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 60));
	/* the work re-armed the timer for the read left on the list */
	cr_assert_eq(r.out[1], &r.io[0]);
	cr_assert_eq(r.out_t[1], jiffy_edge(1000, j0 + 100));
	rig_free(&r);
}

/* A pending timer reduced by one jiffy fires that jiffy earlier: the
 * softirq follows the wheel's new next expiry. */
Test(dm_delay, timer_reduced_by_one_jiffy_fires_a_jiffy_earlier)
{
	struct rig r;
	uint64_t j0;

	rig_init(&r, "hz = 1000\ntimer_wheel = classic",
		 "read_delay = 61ms\nwrite_delay = 60ms");
	j0 = jiffies_at(1000, r.s.now) + 2;
	rig_submit(&r, 0, false, jiffy_edge(1000, j0) + 10);	/* J + 61 */
	rig_submit(&r, 1, true, jiffy_edge(1000, j0) + 20);	/* J + 60 */
	cr_assert_eq(rig_dc(&r)->timer.expires, j0 + 60);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 2);
	cr_assert_eq(r.out[0], &r.io[1]);
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 60));
	cr_assert_eq(r.out_t[1], jiffy_edge(1000, j0 + 61));
	cr_assert_eq(rig_dc(&r)->cpu->softirqs, 2, "one softirq a timer");
	rig_free(&r);
}

/*
 * Two timer-mode targets share the CPU's timer base: after the softirq
 * that fires the first one's timer, the second's, still pending, gets
 * its own softirq at its jiffy.
 */
Test(dm_delay, two_targets_share_the_cpus_timer_base)
{
	struct rig r;
	uint64_t j0;

	rig_init2(&r, "hz = 1000\ntimer_wheel = classic", "write_delay = 60ms",
		  "write_delay = 90ms");
	cr_assert_eq(rig_dc(&r)->cpu, r.s.paths[1].delay->cpu);
	j0 = jiffies_at(1000, r.s.now) + 2;
	rig_submit_on(&r, 1, 0, true, jiffy_edge(1000, j0) + 10); /* J + 90 */
	rig_submit_on(&r, 0, 1, true, jiffy_edge(1000, j0) + 20); /* J + 60 */
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 2);
	cr_assert_eq(r.out[0], &r.io[1]);
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 60));
	cr_assert_eq(r.out[1], &r.io[0]);
	cr_assert_eq(r.out_t[1], jiffy_edge(1000, j0 + 90));
	rig_free(&r);
}

/* A released entry is taken again by the next bio, not a new one. */
Test(dm_delay, the_next_bio_takes_a_released_entry)
{
	struct delay_entry *e;
	struct rig r;

	rig_init(&r, "hz = 1000", "write_delay = 2ms\nkthread_poll = busy");
	rig_submit(&r, 0, true, r.s.now + 10);
	rig_run(&r, SIM_NEVER);
	e = rig_dc(&r)->spare;
	cr_assert_not_null(e);
	cr_assert_null(e->next);
	rig_submit(&r, 1, true, r.s.now + 10);
	cr_assert_null(rig_dc(&r)->spare);
	cr_assert_eq(rig_dc(&r)->head, e);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 2);
	rig_free(&r);
}

/*
 * --trace records each bio dm-delay holds ("delay_hold", docs/outputs.md)
 * with the expiry the list keeps: jiffies + msecs_to_jiffies(2) at
 * HZ=1000 for the first, submitted as the run starts.
 */
Test(dm_delay, trace_records_each_hold_with_its_expiry)
{
	static const char text[] =
		"[multipath]\nhz = 1000\n[path sda]\nservice = fixed:50us\n"
		"delay = 2ms\n[j]\nnumber_ios = 3\nrw = write\n";
	char dir[] = "/tmp/mpsim-delay-XXXXXX", file[64], line[512],
	     err[ERR_MAX] = "", want[64];
	struct run_result res;
	struct trace_conf tc;
	struct scenario sc;
	unsigned holds = 0;
	FILE *f;

	cr_assert(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/t.jsonl", dir);
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	memset(&tc, 0, sizeof(tc));
	tc.file = file;
	tc.until = UINT64_MAX;
	cr_assert_eq(run_scenario_traced(&sc, 1, &tc, &res, err), 0, "%s",
		     err);
	snprintf(want, sizeof(want), "\"expires\":%llu}",
		 (unsigned long long)(jiffies_at(1000, sc.uptime) + 2));
	f = fopen(file, "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\"ev\":\"delay_hold\"")) {
			if (!holds)
				cr_assert(strstr(line, want), "%s", line);
			holds++;
		}
	fclose(f);
	cr_assert_eq(holds, 3);
	cr_assert_eq(unlink(file), 0);
	cr_assert_eq(rmdir(dir), 0);
	run_result_free(&res);
	scenario_free(&sc);
}

/* Timer mode re-arms for the earliest entry left after a flush (the
 * work's queue_timeout(next)), not for the first on the list. */
Test(dm_delay, timer_rearmed_for_the_earliest_left_not_the_first)
{
	struct rig r;
	uint64_t j0;

	rig_init(&r, "hz = 1000\ntimer_wheel = classic",
		 "read_delay = 90ms\nwrite_delay = 60ms\nflush_delay = 80ms");
	cr_assert_not(rig_dc(&r)->kthread);
	j0 = jiffies_at(1000, r.s.now) + 2;
	rig_submit(&r, 0, true, jiffy_edge(1000, j0) + 10);	/* J + 60 */
	rig_submit(&r, 1, false, jiffy_edge(1000, j0) + 20);	/* J + 90 */
	r.io[2].ddir = DDIR_SYNC;
	rig_submit(&r, 2, true, jiffy_edge(1000, j0) + 30);	/* J + 80 */
	cr_assert_eq(rig_dc(&r)->timer.expires, j0 + 60);
	rig_run(&r, SIM_NEVER);
	cr_assert_eq(r.nout, 3);
	cr_assert_eq(r.out[0], &r.io[0]);
	cr_assert_eq(r.out_t[0], jiffy_edge(1000, j0 + 60));
	cr_assert_eq(r.out[1], &r.io[2]);
	cr_assert_eq(r.out_t[1], jiffy_edge(1000, j0 + 80));
	cr_assert_eq(r.out[2], &r.io[1]);
	cr_assert_eq(r.out_t[2], jiffy_edge(1000, j0 + 90));
	rig_free(&r);
}

/* ---- the invariants (delay_check) ---- */

/* delay_check() of the rig's world: 1 when the invariants hold. */
static int rig_check(struct rig *r)
{
	return delay_check(&r->s);
}

/*
 * Each invariant delay_check() holds, broken alone on a layer that keeps
 * the others, is reported: an entry of another path, the count, the
 * per-class counts, the tail, a kthread with entries and no poll
 * pending, a sleeping one idle with a poll pending, a timer-mode list
 * that nothing will flush, a pending timer without its softirq.
 */
Test(dm_delay, check_reports_each_broken_invariant)
{
	struct sim_path other;
	struct dm_delay *dc;
	struct rig r;
	sim_ns was;

	/* a busy kthread holding two writes */
	rig_init(&r, "hz = 1000", "write_delay = 5ms\nkthread_poll = busy");
	dc = rig_dc(&r);
	rig_submit(&r, 0, true, r.s.now + 10);
	rig_submit(&r, 1, true, r.s.now + 10);
	cr_assert(rig_check(&r));
	r.io[1].path = &other;
	cr_assert_not(rig_check(&r), "an entry of another path");
	r.io[1].path = &r.s.paths[0];
	dc->nr++;
	cr_assert_not(rig_check(&r), "nr");
	dc->nr--;
	dc->ops[DELAY_WRITE]++;
	cr_assert_not(rig_check(&r), "ops");
	dc->ops[DELAY_WRITE]--;
	dc->tail = dc->head;
	cr_assert_not(rig_check(&r), "tail");
	dc->tail = dc->head->next;
	was = dc->wake_at;
	dc->wake_at = SIM_NEVER;
	cr_assert_not(rig_check(&r), "busy kthread with entries, no poll");
	dc->wake_at = was;
	cr_assert(rig_check(&r));
	rig_run(&r, SIM_NEVER);
	cr_assert(rig_check(&r));
	rig_free(&r);

	/* a sleeping kthread, idle: no poll may be pending */
	rig_init(&r, "hz = 1000", "write_delay = 5ms");
	dc = rig_dc(&r);
	cr_assert(rig_check(&r));
	dc->wake_at = r.s.now + 1;
	cr_assert_not(rig_check(&r), "idle sleeper with a poll pending");
	dc->wake_at = SIM_NEVER;
	rig_submit(&r, 0, true, r.s.now + 10);
	cr_assert(rig_check(&r));
	was = dc->wake_at;
	dc->wake_at = SIM_NEVER;
	cr_assert_not(rig_check(&r), "sleeper with entries, no poll");
	dc->wake_at = was;
	rig_run(&r, SIM_NEVER);
	rig_free(&r);

	/* timer mode: a list with neither the timer nor the work pending,
	 * and a pending timer whose softirq is not scheduled */
	rig_init(&r, "hz = 1000", "write_delay = 60ms");
	dc = rig_dc(&r);
	rig_submit(&r, 0, true, r.s.now + 10);
	cr_assert(rig_check(&r));
	was = dc->cpu->softirq_at;
	dc->cpu->softirq_at = SIM_NEVER;
	cr_assert_not(rig_check(&r), "a pending timer without a softirq");
	dc->cpu->softirq_at = was;
	cr_assert(rig_check(&r));
	tw_del_timer(&dc->cpu->wheel, &dc->timer,
		     jiffies_at(1000, r.s.now));
	cr_assert_not(rig_check(&r), "held, and nothing to flush it");
	dc->work_pending = true;
	cr_assert(rig_check(&r), "the work will flush it");
	dc->work_pending = false;
	rig_free(&r);
}

/* ---- scenario keys ---- */

Test(dm_delay, scenario_keys_follow_the_table)
{
	static const char text[] =
		"[path a]\nservice = exp:1ms\ndelay = 5ms\nwrite_delay = 7\n"
		"[path b]\nservice = exp:1ms\nflush_delay = 9ms\n"
		"write_delay = 3ms\nexpiry = ns\nkthread_poll = busy\n"
		"[path c]\nservice = exp:1ms\n[j]\nnumber_ios = 1\n";
	char err[ERR_MAX] = "";
	unsigned ms[DELAY_NR_CLASSES];
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	/* delay= is the 3-word table; a bare number is ms; flush follows
	 * write unless given its own */
	delay_class_ms(&sc.paths[0].delay, ms);
	cr_assert_eq(ms[DELAY_READ], 5);
	cr_assert_eq(ms[DELAY_WRITE], 7);
	cr_assert_eq(ms[DELAY_FLUSH], 7);
	delay_class_ms(&sc.paths[1].delay, ms);
	cr_assert_eq(ms[DELAY_READ], 0);
	cr_assert_eq(ms[DELAY_WRITE], 3);
	cr_assert_eq(ms[DELAY_FLUSH], 9);
	cr_assert_eq(sc.paths[1].delay.expiry, EXPIRY_NS);
	cr_assert_eq(sc.paths[1].delay.poll, POLL_BUSY);
	cr_assert_not(delay_present(&sc.paths[2].delay));
	/* the command line sets every path */
	cr_assert_eq(scenario_set(&sc, "delay", "2ms", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "expiry", "jiffies", err), 0, "%s", err);
	cr_assert_eq(sc.paths[2].delay.write_ms, 2);
	cr_assert_eq(sc.paths[1].delay.expiry, EXPIRY_JIFFIES);
	cr_assert_eq(scenario_set(&sc, "timer_wheel", "classic", err), 0);
	cr_assert_eq(sc.timer_wheel, WHEEL_CLASSIC);
	/* dm-delay's table has whole milliseconds only */
	cr_assert_eq(scenario_set(&sc, "delay", "1.5ms", err), -EINVAL);
	cr_assert(strstr(err, "whole number of milliseconds"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "read_delay", "999us", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "expiry", "ktime", err), -EINVAL);
	/* dm-delay is bio-based: request-based multipath cannot stack on it */
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "mode", "request", err), 0);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "[path a] has a dm-delay layer"), "%s", err);
	scenario_free(&sc);
}

/* ---- the synchronous writer of §7.6 ---- */

/* Mean write latency (ns) of the built-in dm-delay-sync scenario. */
static double sync_mean(const char *hz, const char *delay, const char *expiry,
			double *min)
{
	char err[ERR_MAX] = "";
	struct run_result res;
	struct scenario sc;
	double mean;

	cr_assert_eq(scenario_load_builtin(&sc, "dm-delay-sync", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_set(&sc, "hz", hz, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "delay", delay, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "expiry", expiry, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "runtime", "2s", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &res, err), 0, "%s", err);
	cr_assert_gt(res.total.ios, 100);
	mean = lat_mean(&res.total.lat);
	if (min)
		*min = (double)res.total.lat.min;
	run_result_free(&res);
	scenario_free(&sc);
	return mean;
}

Test(dm_delay_sync, jiffies_expiry_locks_the_writer_to_the_tick)
{
	/* HZ=100, 2 ms: d = 1 tick.  Kthread mode releases a bio at the
	 * first poll after jiffies reaches J + 1 (§7.5), so every write is
	 * released in the tick after the one it was submitted in; the next
	 * one is submitted a poll lag plus the 50 us service later, in that
	 * same tick, and so on.  Each write thus lasts one tick give or take
	 * the poll lag (at most 250 us + 25 %) and the service. */
	const double tick = 10e6, poll = 312500, svc = 50000;
	double m = sync_mean("100", "2ms", "jiffies", NULL);

	cr_assert(m >= tick - poll - svc && m <= tick + poll + svc,
		  "mean %.0f ns", m);
	/* at HZ=1000 the same 2 ms are 2 ticks, and that is all it costs */
	m = sync_mean("1000", "2ms", "jiffies", NULL);
	cr_assert(m >= 2e6 - 1e6 && m <= 2e6 + poll + svc, "mean %.0f ns", m);
}

Test(dm_delay_sync, ns_expiry_costs_the_delay_plus_the_poll)
{
	/* §7.6: due at submit + 2 ms, released at the first poll after
	 * that: at most one poll interval (250 us + 25 % slack) late */
	const double d = 2e6, poll = 312500, svc = 50000;
	double min, m;

	m = sync_mean("100", "2ms", "ns", &min);
	cr_assert(m >= d + svc && m <= d + poll + svc, "mean %.0f ns", m);
	cr_assert_geq(min, d + svc);
	/* and HZ no longer matters */
	cr_assert_float_eq(sync_mean("1000", "2ms", "ns", NULL), m, 1e-9);
}

/* ---- the dm-delay of the release kernel= names (§7.3, §7.4) ---- */

Test(dm_delay, kernel_picks_the_mode_of_its_release)
{
	struct delay_conf c = conf_ms(2, 2);

	/* §7.3: before 6.7 the timer and kdelayd are the only mode */
	cr_assert_not(delay_use_kthread_in(&c, 6001));
	cr_assert_not(delay_use_kthread_in(&c, 4011));
	cr_assert(delay_use_kthread_in(&c, 6007));
	cr_assert(delay_use_kthread_in(&c, 6010));
	cr_assert(delay_use_kthread_in(&c, 0), "mainline");
	/* 6.7-6.9 left the 9-word table's write delay out of max_delay */
	c = conf_ms(1, 60);
	c.flush_ms = 1;
	c.flush_given = true;
	cr_assert(delay_use_kthread_in(&c, 6007));
	cr_assert(delay_use_kthread_in(&c, 6009));
	cr_assert_not(delay_use_kthread_in(&c, 6010));
	cr_assert_not(delay_use_kthread_in(&c, 0));
	/* ... which the 6-word table cannot show: flush follows write */
	c.flush_given = false;
	cr_assert_not(delay_use_kthread_in(&c, 6007));
	/* 6.7-6.15 busy-poll whatever kthread_poll says; 6.16+ sleep */
	c.poll = POLL_SLEEP;
	cr_assert(delay_busy_poll_in(&c, 6007));
	cr_assert(delay_busy_poll_in(&c, 6015));
	cr_assert_not(delay_busy_poll_in(&c, 6016));
	cr_assert_not(delay_busy_poll_in(&c, 0));
	c.poll = POLL_BUSY;
	cr_assert(delay_busy_poll_in(&c, 0));
}

/* The dm-delay-sync scenario (psync 4k writes, a 50 us device) through
 * `delay` on kernel `kernel` (NULL: none given) at HZ=100: latencies. */
static void sync_lat(const char *kernel, const char *delay, uint64_t *min,
		     uint64_t *max, uint64_t *ios)
{
	char err[ERR_MAX] = "";
	struct run_result res;
	struct scenario sc;

	cr_assert_eq(scenario_load_builtin(&sc, "dm-delay-sync", err), 0,
		     "%s", err);
	if (kernel)
		cr_assert_eq(scenario_set(&sc, "kernel", kernel, err), 0, "%s",
			     err);
	cr_assert_eq(scenario_set(&sc, "delay", delay, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "runtime", "2s", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "ramp_time", "100ms", err), 0, "%s",
		     err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &res, err), 0, "%s", err);
	*min = res.total.lat.min;
	*max = res.total.lat.max;
	*ios = res.total.ios;
	run_result_free(&res);
	scenario_free(&sc);
}

Test(dm_delay_sync, kernel_6_1_takes_one_tick_more_in_timer_mode)
{
	uint64_t min, max, ios;

	/*
	 * HZ=100, 2 ms: d = msecs_to_jiffies(2) = 1 (§1.3).  6.1 has the
	 * timer only (§7.3); on the levels wheel a timer for J + d fires
	 * when jiffies reaches J + d + 1 (§8.2, §7.5).  A write submitted
	 * at phase p of tick J is released at the edge of tick J + 2 and
	 * completes 50 us later, at phase 50 us: the next write is
	 * submitted there, so each write after the first takes 2 ticks -
	 * 50 us + 50 us = 20 ms exactly (the first, at phase 0: 20.05 ms,
	 * before the window).  They complete at 100.05, 120.05, ... ms
	 * after the start: 100 in the 2 s after the 100 ms ramp, and the
	 * one in flight when the runtime ends, at 2100.05 ms.
	 */
	sync_lat("6.1", "2ms", &min, &max, &ios);
	cr_assert_eq(min, 20 * NSEC_PER_MSEC);
	cr_assert_eq(max, 20 * NSEC_PER_MSEC);
	cr_assert_eq(ios, 101, "2 s (after the ramp) / 20 ms, and the last");
	/* 20 ms: d = 2, fired at J + 3: 30 ms */
	sync_lat("6.1", "20ms", &min, &max, &ios);
	cr_assert_eq(min, 30 * NSEC_PER_MSEC);
	cr_assert_eq(max, 30 * NSEC_PER_MSEC);
	/* 6.10's busy kthread releases the bio the instant jiffies reaches
	 * J + d: one tick for 2 ms, half the 6.1 figure */
	sync_lat("6.10", "2ms", &min, &max, &ios);
	cr_assert_eq(min, 10 * NSEC_PER_MSEC);
	cr_assert_eq(max, 10 * NSEC_PER_MSEC);
	/* 50 ms and more is timer mode in every release alike */
	sync_lat("6.1", "50ms", &min, &max, &ios);
	cr_assert_eq(min, 60 * NSEC_PER_MSEC);
	sync_lat("6.10", "50ms", &min, &max, &ios);
	cr_assert_eq(min, 60 * NSEC_PER_MSEC);
}

Test(dm_delay, kernel_refuses_what_its_release_lacks)
{
	static const char text[] =
		"[multipath]\nkernel = %s\n%s\n[path a]\nservice = exp:1ms\n"
		"delay = 5ms\n%s\n[j]\nnumber_ios = 1\n";
	static const struct {
		const char *kernel, *mp, *path, *err;	/* err NULL: valid */
	} cases[] = {
		{ "6.1", "timer_wheel = classic", "", "levels wheel" },
		{ "6.10", "", "kthread_poll = mainline", "busy-polls" },
		{ "6.16", "", "kthread_poll = busy", "sleeps between polls" },
		{ "6.10", "", "kthread_poll = busy", NULL },
		{ "6.16", "", "kthread_poll = mainline", NULL },
		{ "6.10", "", "expiry = ns", NULL },	/* a patch on it */
		{ "6.1", "", "expiry = ns", NULL },	/* warned */
		{ "6.1", "", "kthread_poll = busy", NULL },	/* warned */
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[512], err[ERR_MAX] = "";
		struct scenario sc;
		int r;

		snprintf(buf, sizeof(buf), text, cases[i].kernel, cases[i].mp,
			 cases[i].path);
		cr_assert_eq(scenario_parse(&sc, buf, "t.ini", err), 0, "%s",
			     err);
		r = scenario_validate(&sc, err);
		if (cases[i].err) {
			cr_assert_eq(r, -EINVAL, "case %u", i);
			cr_assert(strstr(err, cases[i].err), "%s", err);
		} else {
			cr_assert_eq(r, 0, "case %u: %s", i, err);
		}
		scenario_free(&sc);
	}
}

/* ---- O_SYNC and fsync through the block layer (§11.2) ---- */

/* Latency extremes of the dm-delay-sync writer with the overrides
 * (key, value pairs, NULL ended) on kernel 6.1, HZ=100; per-direction
 * I/O counts of its one path into ios[] (NULL: not wanted). */
static void osync_lat(uint64_t *min, uint64_t *max, uint64_t *ios, ...)
{
	char err[ERR_MAX] = "";
	struct run_result res;
	struct scenario sc;
	const char *k;
	va_list ap;
	unsigned d;

	cr_assert_eq(scenario_load_builtin(&sc, "dm-delay-sync", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "6.1", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "runtime", "2s", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "ramp_time", "100ms", err), 0, "%s",
		     err);
	va_start(ap, ios);
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		cr_assert_eq(scenario_set(&sc, k, v, err), 0, "%s: %s", k, err);
	}
	va_end(ap);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &res, err), 0, "%s", err);
	if (min)
		*min = res.total.lat.min;
	if (max)
		*max = res.total.lat.max;
	for (d = 0; ios && d < DDIR_NR; d++)
		ios[d] = res.path[0].dir[d] ? res.path[0].dir[d]->ios : 0;
	run_result_free(&res);
	scenario_free(&sc);
}

Test(write_cache, an_osync_write_on_a_write_back_device_is_delayed_twice)
{
	uint64_t min, max;

	/* 6.1, HZ=100, 2 ms: the data write takes two ticks (20 ms, see
	 * kernel_6_1_takes_one_tick_more_in_timer_mode); when it ends,
	 * generic_write_sync sends the empty preflush, which dm-delay holds
	 * in its flush class for two ticks more: 40 ms */
	osync_lat(&min, &max, NULL, "ioengine", "psync", "sync", "1", NULL);
	cr_assert_eq(min, 40 * NSEC_PER_MSEC);
	cr_assert_eq(max, 40 * NSEC_PER_MSEC);
	/* the flush has its own class: 2 ms for the data, 20 ms (3 ticks)
	 * for the flush, the 9-word table */
	osync_lat(&min, &max, NULL, "sync", "1", "flush_delay", "20ms", NULL);
	cr_assert_eq(min, 50 * NSEC_PER_MSEC);
	cr_assert_eq(max, 50 * NSEC_PER_MSEC);
	/* write-through (brd): the block layer ends the flush before dm
	 * sees it, and strips the FUA: the delay once */
	osync_lat(&min, &max, NULL, "sync", "1", "write_cache", "through",
		  NULL);
	cr_assert_eq(min, 20 * NSEC_PER_MSEC);
	cr_assert_eq(max, 20 * NSEC_PER_MSEC);
	/* libaio: an asynchronous O_SYNC write is one FUA bio, no flush */
	osync_lat(&min, &max, NULL, "sync", "1", "ioengine", "libaio", NULL);
	cr_assert_eq(min, 20 * NSEC_PER_MSEC);
	/* without sync=1 the write-back device changes nothing */
	osync_lat(&min, &max, NULL, NULL);
	cr_assert_eq(max, 20 * NSEC_PER_MSEC);
}

Test(write_cache, fsync_sends_a_flush_after_every_n_writes_where_cached)
{
	uint64_t ios[DDIR_NR];

	/* fsync=2: write, write, sync, ...; each 20 ms on 6.1, one at a
	 * time: 2 s / 20 ms = 100 bios and the one in flight when the
	 * runtime ends, two writes to a sync */
	osync_lat(NULL, NULL, ios, "fsync", "2", NULL);
	cr_assert_eq(ios[DDIR_WRITE] + ios[DDIR_SYNC], 101);
	/* any stretch of w, w, s, w, w, s ...: 2 syncs a write more or less
	 * (here it starts and ends on a sync: 67 writes, 34 syncs) */
	cr_assert_geq(ios[DDIR_WRITE] + 2, 2 * ios[DDIR_SYNC]);
	cr_assert_leq(ios[DDIR_WRITE], 2 * ios[DDIR_SYNC] + 2);
	cr_assert_geq(ios[DDIR_SYNC], 33);
	/* fdatasync is the same flush on a block device */
	osync_lat(NULL, NULL, ios, "fdatasync", "2", NULL);
	cr_assert_eq(ios[DDIR_WRITE] + ios[DDIR_SYNC], 101);
	/* write-through: every sync ends in the block layer, at once,
	 * and never reaches the path: the writes go on as without it */
	osync_lat(NULL, NULL, ios, "fsync", "2", "write_cache", "through",
		  NULL);
	cr_assert_eq(ios[DDIR_SYNC], 0);
	cr_assert_eq(ios[DDIR_WRITE], 101);
}

Test(write_cache, keys_and_values)
{
	static const char text[] =
		"[path a]\nservice = exp:1ms\nwrite_cache = through\n"
		"[path b]\nservice = exp:1ms\n[j]\nnumber_ios = 1\nsync = dsync\n"
		"fsync = 8\n";
	char err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert(sc.paths[0].write_through);
	cr_assert_not(sc.paths[1].write_through, "back by default");
	cr_assert(sc.jobs[0].osync);
	cr_assert_eq(sc.jobs[0].fsync_blocks, 8);
	cr_assert_eq(scenario_set(&sc, "write_cache", "back", err), 0);
	cr_assert_not(sc.paths[0].write_through);
	cr_assert_eq(scenario_set(&sc, "write_cache", "none", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "sync", "none", err), 0, "%s", err);
	cr_assert_not(sc.jobs[0].osync);
	cr_assert_eq(scenario_set(&sc, "sync", "maybe", err), -EINVAL);
	scenario_free(&sc);
}
