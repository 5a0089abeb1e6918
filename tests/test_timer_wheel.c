/*
 * test_timer_wheel.c: both kernel timer wheels (sim/timer-*.c) against
 * docs/kernel-model.md §8's worked examples and against sorted-list reference models
 * under seeded random schedules; and `mpsim timers` end to end.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>
#include <gsl/gsl_rng.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sim/clock.h"
#include "wheels/timer-wheel.h"
#include "cli/cli.h"

#define S32	(1ULL << 32)

/* ---- firing logs ---- */

struct fire {
	unsigned id;
	uint64_t at;
};

struct log {
	struct fire *v;
	size_t n, cap;
};

static void log_add(struct log *l, unsigned id, uint64_t at)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].id = id;
	l->v[l->n].at = at;
	l->n++;
}

/* For the worked examples: timers carry their id in data. */
static void record(struct tw_timer *t, uint64_t at, void *arg)
{
	log_add(arg, (unsigned)(uintptr_t)t->data, at);
}

static void timers_init(struct tw_timer *t, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		tw_timer_init(&t[i], (void *)(uintptr_t)i);
}

static void check_log(const struct log *l, const unsigned *id,
		      const uint64_t *at, size_t n)
{
	size_t i;

	cr_assert_eq(l->n, n, "%zu firings, expected %zu", l->n, n);
	for (i = 0; i < n; i++) {
		cr_assert_eq(l->v[i].id, id[i], "firing %zu: timer %u, "
			     "expected %u", i, l->v[i].id, id[i]);
		cr_assert_eq(l->v[i].at, at[i], "firing %zu: at %llu, "
			     "expected %llu", i, (unsigned long long)l->v[i].at,
			     (unsigned long long)at[i]);
	}
}

/*
 * A callback must not run the softirq it is called from (timer-wheel.h):
 * tw_run() asserts it, as a bug of the caller.  This one tries.
 */
static void run_again(struct tw_timer *t, uint64_t at, void *arg)
{
	tw_run(arg, at + 1, run_again, arg);
}

static void run_inside_a_callback(enum tw_kind kind)
{
	static struct tw_wheel w;
	struct tw_timer t;

	tw_init(&w, kind, 250, S32);
	timers_init(&t, 1);
	tw_mod_timer(&w, &t, S32 + 10, S32);
	tw_run(&w, S32 + 100, run_again, &w);
}

/* ==== the classic wheel (docs/kernel-model.md §8.1) ==== */

TestSuite(timer_classic);

/* Exact to the tick: expires E fires at the softirq for jiffy E. */
Test(timer_classic, fires_at_expires)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 + 10 };
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(&t, 1);
	t.expires = S32 + 10;
	tw_add_timer(&w, &t, S32);
	cr_assert_eq(tw_run(&w, S32 + 9, record, &l), 10);	/* S..S+9 */
	cr_assert_eq(l.n, 0);
	cr_assert_eq(tw_run(&w, S32 + 10, record, &l), 1);
	check_log(&l, id, at, 1);
	cr_assert_not(tw_timer_pending(&t));
	free(l.v);
}

/*
 * FIFO slots and the cascade at index 0: A (S+300, 300 away) waits in
 * tv2 until the tv1 boundary S+256; B, armed at S+100 for the same jiffy,
 * went straight into tv1 and so precedes A; C, armed after the cascade,
 * comes last.
 */
Test(timer_classic, cascade_at_index_0_keeps_fifo)
{
	static const unsigned id[] = { 1, 0, 2 };
	static const uint64_t at[] = { S32 + 300, S32 + 300, S32 + 300 };
	static struct tw_wheel w;
	struct tw_timer t[3];
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(t, 3);
	t[0].slack = 0;		/* else 300/256 = 1 jiffy of slack: S+301 */
	tw_mod_timer(&w, &t[0], S32 + 300, S32);
	cr_assert_eq(t[0].expires, S32 + 300);
	tw_run(&w, S32 + 100, record, &l);
	tw_mod_timer(&w, &t[1], S32 + 300, S32 + 100);
	tw_run(&w, S32 + 260, record, &l);
	tw_mod_timer(&w, &t[2], S32 + 300, S32 + 260);
	tw_run(&w, S32 + 299, record, &l);
	cr_assert_eq(l.n, 0);
	tw_run(&w, S32 + 300, record, &l);
	check_log(&l, id, at, 3);
	free(l.v);
}

/*
 * apply_slack() with the default slack (-1): nothing under 256 jiffies;
 * otherwise expires + delta/256 with the bits below the highest bit that
 * differs cleared.  Worked by hand in binary:
 *   5000 + 19 = 5019: 5000 ^ 5019 = 0b10011, bit 4 -> 5019 & ~15 = 5008
 *   256 + 1 = 257: differs in bit 0 only -> 257
 *   2^20 + 4096: differs in bit 12 -> 1052672
 *   1000000 + 3906 = 1003906: 0xf4240 ^ 0xf5182 = 0x13c2, bit 12
 *       -> 0xf5000 = 1003520
 * explicit slack 10: 1000 + 10 = 1010: 0x3e8 ^ 0x3f2 = 0x1a, bit 4 -> 1008
 */
Test(timer_classic, apply_slack_examples)
{
	static const struct {
		long slack;
		uint64_t now, expires, want;
	} v[] = {
		{ -1, 1000, 1255, 1255 },
		{ -1, 0, 5000, 5008 },
		{ -1, 0, 256, 257 },
		{ -1, 0, 1ULL << 20, 1052672 },
		{ -1, 0, 1000000, 1003520 },
		{ -1, 2000, 1000, 1000 },	/* already due: unchanged */
		{ 10, 0, 1000, 1008 },
		{ 0, 0, 1000, 1000 },
		{ -1, S32, S32 + 5000, S32 + 5008 },
	};
	static struct tw_wheel w;
	struct tw_timer t;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		tw_init(&w, TW_CLASSIC, 250, v[i].now);
		timers_init(&t, 1);
		t.slack = v[i].slack;
		tw_mod_timer(&w, &t, v[i].expires, v[i].now);
		cr_assert_eq(t.expires, v[i].want, "case %u: %llu", i,
			     (unsigned long long)t.expires);
	}
}

/* mod_timer() to an expiry that slacks to the stored one returns early:
 * 5003 + 19 = 5022 rounds to 5008 too, so A keeps its place before B. */
Test(timer_classic, mod_to_same_slacked_expiry_keeps_place)
{
	static const unsigned id[] = { 0, 1 };
	static const uint64_t at[] = { 5008, 5008 };
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC, 250, 0);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], 5000, 0);
	tw_mod_timer(&w, &t[1], 5000, 0);
	cr_assert_eq(tw_mod_timer(&w, &t[0], 5003, 0), 1);
	cr_assert_eq(t[0].expires, 5008);
	tw_run(&w, 5008, record, &l);
	check_log(&l, id, at, 2);
	free(l.v);
}

/* Pre-4.15 kernels had no timer_reduce(); dm-delay re-armed only for an
 * earlier expiry.  Slack: S+1000 + 3 differs from S+1000 in bits 0-1, so
 * bit 0 is cleared: S+1002; S+500 + 1 differs in bit 0 only: S+501. */
Test(timer_classic, timer_reduce_moves_only_earlier)
{
	static struct tw_wheel w;
	struct tw_timer t;

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(&t, 1);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 1000, S32), 0);
	cr_assert_eq(t.expires, S32 + 1002);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 2000, S32), 1);
	cr_assert_eq(t.expires, S32 + 1002);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 1002, S32), 1);
	cr_assert_eq(t.expires, S32 + 1002);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 500, S32), 1);
	cr_assert_eq(t.expires, S32 + 501);
}

/*
 * A timer exactly 2^14, 2^20 or 2^26 jiffies away goes one level up (tv3,
 * tv4, tv5: the insert table's bounds are exclusive), fires at its expires
 * all the same, and is moved once per level on its way down.  Slack 0
 * keeps expires as asked; S = 2^32; a cascade of tvN re-inserts relative
 * to the timer_jiffies it runs at.
 *   clk S + 300, +2^14: tv3 slot 1 cascades at S + 2^14 (300 left: tv2),
 *     tv2 at S + 2^14 + 256 (44: tv1): 2 moves.
 *   clk S + 2^14 + 300, +2^20: tv4 at S + 2^20 (2^14 + 300: tv3), tv3 at
 *     S + 2^20 + 2^14 (300: tv2), tv2 256 later: 3 moves.
 *   clk S + 2^20 + 2^14 + 300, +2^26: tv5 at S + 2^26, then tv4, tv3, tv2
 *     at + 2^20, + 2^14, + 256: 4 moves.
 * One level lower (tv2, tv3, tv4) the slot is the current one of that
 * level, which cascades a whole turn later: one move less.
 */
Test(timer_classic, level_bounds_go_one_level_up)
{
	static const struct {
		uint64_t clk, delta, moved;
	} v[] = {
		{ 300, 1ULL << 14, 2 },
		{ (1ULL << 14) + 300, 1ULL << 20, 3 },
		{ (1ULL << 20) + (1ULL << 14) + 300, 1ULL << 26, 4 },
	};
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		uint64_t clk = S32 + v[i].clk, e = clk + v[i].delta;

		tw_init(&w, TW_CLASSIC_SKIP, 250, clk);
		timers_init(&t, 1);
		t.slack = 0;
		tw_mod_timer(&w, &t, e, clk);
		cr_assert_eq(t.expires, e);
		tw_run(&w, e - 1, record, &l);
		cr_assert_eq(l.n, i, "case %u fired early", i);
		tw_run(&w, e, record, &l);
		cr_assert_eq(l.n, i + 1, "case %u", i);
		cr_assert_eq(l.v[i].at, e);
		cr_assert_eq(w.moved, v[i].moved, "case %u: %llu moves", i,
			     (unsigned long long)w.moved);
	}
	free(l.v);
}

/* Beyond tv5's reach (2^32 - 1 jiffies) a timer is pulled in: S + 2^33
 * slacks to S + 2^33 + 2^25, then clamps to S + 0xffffffff. */
Test(timer_classic, tv5_clamp)
{
	static struct tw_wheel w;
	struct tw_timer t;
	uint64_t next;

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(&t, 1);
	tw_mod_timer(&w, &t, S32 + (1ULL << 33), S32);
	cr_assert_eq(t.expires, S32 + 0xffffffffULL);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, (1ULL << 33) - 1);
}

/* With slack 0 (expires as asked): 2^32 - 1 away is within tv5's reach
 * and kept; 2^32 away, one past it, is pulled in to clk + 0xffffffff. */
Test(timer_classic, tv5_clamp_one_past_reach)
{
	static const uint64_t v[][2] = {
		{ 0xffffffffULL, 0xffffffffULL },
		{ 1ULL << 32, 0xffffffffULL },
	};
	static struct tw_wheel w;
	struct tw_timer t;
	uint64_t next;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		tw_init(&w, TW_CLASSIC, 250, S32 + 5);
		timers_init(&t, 1);
		t.slack = 0;
		tw_mod_timer(&w, &t, S32 + 5 + v[i][0], S32 + 5);
		cr_assert_eq(t.expires, S32 + 5 + v[i][1], "case %u", i);
		cr_assert(tw_next_expiry(&w, &next));
		cr_assert_eq(next, S32 + 5 + v[i][1]);
	}
}

/*
 * The same timer through every level with the §8.3 skip: from S = 2^32
 * to 2^33 - 1 it cascades tv5 -> tv4 -> tv3 -> tv2 -> tv1 at 2^33 - 2^26,
 * - 2^20, - 2^14 and - 256.  Every tv1 round before the last is passed in
 * one iteration: (2^32 - 256) / 256 = 2^24 - 1 of them; the last round
 * holds the timer and is walked: 256 iterations.
 */
Test(timer_classic, skip_through_all_levels)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { (1ULL << 33) - 1 };
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC_SKIP, 250, S32);
	timers_init(&t, 1);
	tw_mod_timer(&w, &t, S32 + (1ULL << 33), S32);
	cr_assert_eq(tw_run(&w, (1ULL << 33) - 2, record, &l),
		     (1ULL << 24) - 1 + 255);
	cr_assert_eq(l.n, 0);
	cr_assert_eq(tw_run(&w, (1ULL << 33) - 1, record, &l), 1);
	check_log(&l, id, at, 1);
	free(l.v);
}

/*
 * Wang's case: a lone 20 s timer at HZ=250 (5000 jiffies, slacked to
 * 5008) on an idle CPU.  Without the skip: one iteration per jiffy,
 * S..S+5008 = 5009.  With it: the boundaries S, S+256, ..., S+4608 (19)
 * are passed in one iteration each; at S+4864 tv2 cascades the timer
 * into tv1 and that round is walked, S+4864..S+5008 = 145.  Same firing.
 */
Test(timer_classic, skip_lone_20s_timer)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 + 5008 };
	static struct tw_wheel w, ws;
	struct tw_timer t, ts;
	struct log l = { 0 }, ls = { 0 };
	uint64_t n, ns;

	tw_init(&w, TW_CLASSIC, 250, S32);
	tw_init(&ws, TW_CLASSIC_SKIP, 250, S32);
	timers_init(&t, 1);
	timers_init(&ts, 1);
	tw_mod_timer(&w, &t, S32 + 5000, S32);
	tw_mod_timer(&ws, &ts, S32 + 5000, S32);
	n = tw_run(&w, S32 + 5008, record, &l);
	ns = tw_run(&ws, S32 + 5008, record, &ls);
	check_log(&l, id, at, 1);
	check_log(&ls, id, at, 1);
	cr_assert_eq(n, 5009);
	cr_assert_eq(ns, 19 + 145);
	/* the bound for any start: <= 255 partial + ceil(gap/256) + 256 */
	cr_assert_leq(ns, 255 + (5008 + 255) / 256 + 256);
	cr_assert_geq(ns, 5008 / 256);
	free(l.v);
	free(ls.v);
}

/* catchup_timer_jiffies(): an empty base skips its idle time entirely,
 * and a base emptied by del_timer() jumps to jiffies. */
Test(timer_classic, catchup_on_empty_base)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 + 1000010 };
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(t, 2);
	cr_assert_eq(tw_run(&w, S32 + 1000000, record, &l), 0);
	tw_mod_timer(&w, &t[0], S32 + 1000010, S32 + 1000000);
	cr_assert_eq(tw_run(&w, S32 + 1000010, record, &l), 11);
	check_log(&l, id, at, 1);

	tw_mod_timer(&w, &t[1], S32 + 2000000, S32 + 1000010); /* -> tv3 */
	cr_assert_eq(tw_del_timer(&w, &t[1], S32 + 1500000), 1);
	cr_assert_eq(tw_del_timer(&w, &t[1], S32 + 1500000), 0);
	tw_mod_timer(&w, &t[1], S32 + 1500005, S32 + 1500000);
	cr_assert_eq(tw_run(&w, S32 + 1500005, record, &l), 6);
	free(l.v);
}

/* catchup_timer_jiffies() on a delete: deleting the last timer moves
 * timer_jiffies to jiffies; deleting one of two leaves it. */
Test(timer_classic, delete_of_the_last_timer_catches_up)
{
	static struct tw_wheel w;
	struct tw_timer t[2];

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], S32 + 1000, S32);
	tw_mod_timer(&w, &t[1], S32 + 2000, S32);
	cr_assert_eq(tw_del_timer(&w, &t[0], S32 + 500), 1);
	cr_assert_eq(w.clk, S32);
	cr_assert_eq(tw_del_timer(&w, &t[1], S32 + 600), 1);
	cr_assert_eq(w.clk, S32 + 600);
}

/* __run_timers() on an empty base sets timer_jiffies to jiffies and
 * stops: at once when nothing is queued, and after the last timer ran
 * (A at S+10: 11 iterations, S to S+10, then timer_jiffies = S+50). */
Test(timer_classic, softirq_on_an_empty_base_catches_up)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 + 10 };
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(&t, 1);
	cr_assert_eq(tw_run(&w, S32 + 100, record, &l), 0);
	cr_assert_eq(w.clk, S32 + 100);

	tw_init(&w, TW_CLASSIC, 250, S32);
	tw_mod_timer(&w, &t, S32 + 10, S32);
	cr_assert_eq(tw_run(&w, S32 + 50, record, &l), 11);
	check_log(&l, id, at, 1);
	cr_assert_eq(w.clk, S32 + 50);
	free(l.v);
}

/*
 * The §8.3 skip passes only what is left of the gap: B (S+2000, tv2)
 * keeps the base busy, tv1 is empty, so the softirq at S+254 passes from
 * the boundary S 255 jiffies, to S+255, not the whole round.  A, armed
 * then for S+255, goes into tv1[255] and fires at S+255 as on the wheel
 * without the skip.
 */
Test(timer_classic, skip_stops_one_short_of_the_round)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 + 255 };
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC_SKIP, 250, S32);
	timers_init(t, 2);
	t[1].slack = 0;
	tw_mod_timer(&w, &t[1], S32 + 2000, S32);
	cr_assert_eq(tw_run(&w, S32 + 254, record, &l), 1);
	cr_assert_eq(w.clk, S32 + 255);
	tw_mod_timer(&w, &t[0], S32 + 255, S32 + 254);
	cr_assert_eq(tw_run(&w, S32 + 255, record, &l), 1);
	check_log(&l, id, at, 1);
	free(l.v);
}

Test(timer_classic, run_inside_a_callback_is_a_bug, .signal = SIGABRT,
     .init = cr_redirect_stderr)
{
	run_inside_a_callback(TW_CLASSIC);
}

/* An already expired timer goes into the slot about to run. */
Test(timer_classic, expired_timer_runs_next_slot)
{
	static const unsigned id[] = { 1 };
	static const uint64_t at[] = { S32 + 6 };
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };

	tw_init(&w, TW_CLASSIC, 250, S32);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], S32 + 100, S32);	/* keeps the base busy */
	tw_run(&w, S32 + 5, record, &l);		/* clk is now S+6 */
	tw_mod_timer(&w, &t[1], S32, S32 + 5);
	cr_assert_eq(t[1].expires, S32);
	tw_run(&w, S32 + 6, record, &l);
	check_log(&l, id, at, 1);
	free(l.v);
}

/* ==== the level wheel (docs/kernel-model.md §8.2) ==== */

TestSuite(timer_levels);

/* Level 0 (delta < 63) fires one tick after expires; the softirq at
 * expires itself has nothing to do. */
Test(timer_levels, level0_fires_at_expires_plus_1)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 + 11 };
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	uint64_t next;

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(&t, 1);
	t.expires = S32 + 10;
	tw_add_timer(&w, &t, S32);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 11);
	cr_assert_eq(tw_run(&w, S32 + 10, record, &l), 0);
	cr_assert_eq(tw_run(&w, S32 + 11, record, &l), 1);
	check_log(&l, id, at, 1);
	cr_assert_not(tw_next_expiry(&w, &next));
	free(l.v);
}

/*
 * Level n rounds up to the next multiple of 8^n above expires:
 * bucket_expiry = ((expires >> 3n) + 1) << 3n, with S = 2^32 aligned.
 *   +62 (level 0) -> +63        +63 (level 1: LVL_START(1)) -> +64
 *   +100 (1) -> 13 * 8 = +104   +503 (1) -> 63 * 8 = +504
 *   +504 (2) -> 8 * 64 = +512   +1000 (2) -> 16 * 64 = +1024
 *   +5000 (3) -> 10 * 512 = +5120 (20 s at HZ=250 fires at 20.48 s)
 *   +40000 (4: >= 32256) -> 10 * 4096 = +40960
 */
Test(timer_levels, level_n_rounds_up_to_8_pow_n)
{
	static const uint64_t v[][2] = {
		{ 62, 63 }, { 63, 64 }, { 100, 104 }, { 503, 504 },
		{ 504, 512 }, { 1000, 1024 }, { 5000, 5120 }, { 40000, 40960 },
	};
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	uint64_t next;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		tw_init(&w, TW_LEVELS, 250, S32);
		timers_init(&t, 1);
		tw_mod_timer(&w, &t, S32 + v[i][0], S32);
		cr_assert(tw_next_expiry(&w, &next));
		cr_assert_eq(next, S32 + v[i][1], "+%llu -> +%llu",
			     (unsigned long long)v[i][0],
			     (unsigned long long)(next - S32));
		/* one jump, however far: empty jiffies are not stepped */
		cr_assert_eq(tw_run(&w, S32 + v[i][1] - 1, record, &l), 0);
		cr_assert_eq(tw_run(&w, S32 + v[i][1], record, &l), 1);
		cr_assert_eq(l.n, i + 1);
		cr_assert_eq(l.v[i].at, S32 + v[i][1]);
	}
	free(l.v);
}

/* Timers are added at a bucket's head: the last one armed runs first. */
Test(timer_levels, lifo_within_a_bucket)
{
	static const unsigned id[] = { 2, 1, 0 };
	static const uint64_t at[] = { S32 + 11, S32 + 11, S32 + 11 };
	static struct tw_wheel w;
	struct tw_timer t[3];
	struct log l = { 0 };
	unsigned i;

	tw_init(&w, TW_LEVELS, 1000, S32);
	timers_init(t, 3);
	for (i = 0; i < 3; i++)
		tw_mod_timer(&w, &t[i], S32 + 10, S32);
	tw_run(&w, S32 + 11, record, &l);
	check_log(&l, id, at, 3);
	free(l.v);
}

/* Re-armed into the bucket it already sits in (+100 and +101 are both
 * bucket 13 of level 1), a timer keeps its place: B still runs first. */
Test(timer_levels, same_bucket_mod_keeps_place)
{
	static const unsigned id[] = { 1, 0 };
	static const uint64_t at[] = { S32 + 104, S32 + 104 };
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], S32 + 100, S32);
	tw_mod_timer(&w, &t[1], S32 + 100, S32);
	cr_assert_eq(tw_mod_timer(&w, &t[0], S32 + 101, S32), 1);
	cr_assert_eq(t[0].expires, S32 + 101);
	tw_run(&w, S32 + 104, record, &l);
	check_log(&l, id, at, 2);
	free(l.v);
}

/*
 * Buckets of two levels collected for one clk run the higher level first.
 * X: +63 from clk S is level 1, bucket expiry S+64.  Y: the same expires
 * armed at S+1 (clk forwarded to S+1) is 62 away, level 0, also S+64.
 */
Test(timer_levels, highest_level_first)
{
	static const unsigned id[] = { 0, 1 };
	static const uint64_t at[] = { S32 + 64, S32 + 64 };
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], S32 + 63, S32);
	tw_mod_timer(&w, &t[1], S32 + 63, S32 + 1);
	cr_assert_eq(w.clk, S32 + 1);
	cr_assert_eq(tw_run(&w, S32 + 64, record, &l), 1);
	check_log(&l, id, at, 2);
	free(l.v);
}

/*
 * Past WHEEL_TIMEOUT_CUTOFF = LVL_START(DEPTH) a timer is pulled in to
 * clk + WHEEL_TIMEOUT_MAX on the last level.
 * HZ=250 (depth 9): cutoff 63 * 8^8 = 1056964608, max = cutoff - 8^8 =
 *   1040187392 = 62 * 2^24 -> bucket (62 + 1) * 2^24 = 1056964608.
 * HZ=100 (depth 8): cutoff 63 * 8^7 = 132120576, max = 62 * 2^21 ->
 *   bucket 63 * 2^21 = 132120576.
 */
Test(timer_levels, cutoff_clamp)
{
	static const struct {
		unsigned hz;
		uint64_t delta, want;
	} v[] = {
		{ 250, 1ULL << 31, 1056964608ULL },
		{ 250, 1056964608ULL, 1056964608ULL },
		{ 1000, 1ULL << 40, 1056964608ULL },
		{ 100, 1ULL << 31, 132120576ULL },
		{ 100, 132120576ULL, 132120576ULL },
		/* just under the cutoff: last level, no clamp:
		 * ((132120575 >> 21) + 1) << 21 = 63 * 2^21 */
		{ 100, 132120575ULL, 132120576ULL },
	};
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	uint64_t next;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		tw_init(&w, TW_LEVELS, v[i].hz, S32);
		timers_init(&t, 1);
		tw_mod_timer(&w, &t, S32 + v[i].delta, S32);
		cr_assert_eq(t.expires, S32 + v[i].delta, "expires is kept");
		cr_assert(tw_next_expiry(&w, &next));
		cr_assert_eq(next, S32 + v[i].want, "case %u: +%llu", i,
			     (unsigned long long)(next - S32));
		cr_assert_eq(tw_run(&w, S32 + v[i].want, record, &l), 1);
		cr_assert_eq(l.n, i + 1);
	}
	free(l.v);
}

/*
 * The cutoff edge from a clk that is not a multiple of the last level's
 * 2^24 (HZ=250, depth 9): clk = S + c, c = 3 * 2^21.  One jiffy under the
 * cutoff is not clamped: (S + c + 63 * 2^24 - 1) >> 24 = 256 + 63, so
 * bucket (256 + 64) * 2^24 = S + 64 * 2^24.  At the cutoff it is pulled in
 * to clk + WHEEL_TIMEOUT_MAX = clk + 62 * 2^24: bucket S + 63 * 2^24, a
 * level-8 unit earlier than the timer one jiffy nearer.  (From an aligned
 * clk both land in S + 63 * 2^24, which hides the edge.)
 */
Test(timer_levels, cutoff_edge_from_unaligned_clk)
{
	static const struct {
		uint64_t delta, want;
	} v[] = {
		{ 1056964607ULL, 64ULL << 24 },
		{ 1056964608ULL, 63ULL << 24 },
		{ 1ULL << 31, 63ULL << 24 },
	};
	const uint64_t clk = S32 + (3ULL << 21);
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	uint64_t next;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		tw_init(&w, TW_LEVELS, 250, clk);
		timers_init(&t, 1);
		tw_mod_timer(&w, &t, clk + v[i].delta, clk);
		cr_assert(tw_next_expiry(&w, &next));
		cr_assert_eq(next, S32 + v[i].want, "case %u: S + %llu", i,
			     (unsigned long long)(next - S32));
		cr_assert_eq(tw_run(&w, S32 + v[i].want - 1, record, &l), 0);
		cr_assert_eq(tw_run(&w, S32 + v[i].want, record, &l), 1);
		cr_assert_eq(l.n, i + 1);
	}
	free(l.v);
}

/* An already expired timer goes into clk's own bucket and fires at clk. */
Test(timer_levels, negative_delta_fires_at_clk)
{
	static const unsigned id[] = { 0 };
	static const uint64_t at[] = { S32 };
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	uint64_t next;

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(&t, 1);
	tw_mod_timer(&w, &t, S32 - 5, S32);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32);
	cr_assert_eq(tw_run(&w, S32, record, &l), 1);
	check_log(&l, id, at, 1);
	free(l.v);
}

/* timer_reduce(): a pending timer only moves earlier (+100 -> +104). */
Test(timer_levels, timer_reduce_moves_only_earlier)
{
	static struct tw_wheel w;
	struct tw_timer t;
	uint64_t next;

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(&t, 1);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 1000, S32), 0);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 2000, S32), 1);
	cr_assert_eq(t.expires, S32 + 1000);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 1024);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 100, S32), 1);
	cr_assert_eq(t.expires, S32 + 100);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 104);
}

/* timer_reduce() one jiffy earlier (diff = 1) moves the timer: level 0,
 * +10 (bucket +11) to +9 (bucket +10); to the same expires it does not. */
Test(timer_levels, timer_reduce_one_jiffy_earlier)
{
	static struct tw_wheel w;
	struct tw_timer t;
	struct log l = { 0 };
	uint64_t next;

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(&t, 1);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 10, S32), 0);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 10, S32), 1);
	cr_assert_eq(tw_timer_reduce(&w, &t, S32 + 9, S32), 1);
	cr_assert_eq(t.expires, S32 + 9);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 10);
	cr_assert_eq(tw_run(&w, S32 + 10, record, &l), 1);
	cr_assert_eq(l.n, 1);
	free(l.v);
}

/*
 * __run_timers() recomputes next_expiry and so clears next_expiry_recalc;
 * the next reader takes next_expiry as it is.  A (+10) is deleted, which
 * sets the flag; the softirq at S+11 finds nothing, and the empty base's
 * next_expiry is clk + 2^30 - 1 = S + 1073741835.  B is armed 2^31 away
 * at S + 2^28: clk is forwarded to S + 2^28, B is clamped to clk +
 * WHEEL_TIMEOUT_MAX, bucket ((S + 2^28 + 62 * 2^24) >> 24) + 1 = 335 *
 * 2^24 = S + 1325400064, later than next_expiry, which stays: the early
 * value is read, and costs one empty iteration before B fires.
 */
Test(timer_levels, run_clears_next_expiry_recalc)
{
	static struct tw_wheel w;
	struct tw_timer t[2];
	struct log l = { 0 };
	uint64_t next;

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], S32 + 10, S32);
	cr_assert_eq(tw_del_timer(&w, &t[0], S32), 1);
	cr_assert_eq(tw_run(&w, S32 + 11, record, &l), 1);
	tw_mod_timer(&w, &t[1], S32 + (1ULL << 28) + (1ULL << 31),
		     S32 + (1ULL << 28));
	cr_assert_eq(w.clk, S32 + (1ULL << 28));
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 1073741835ULL);
	cr_assert_eq(tw_run(&w, S32 + 1325400064ULL, record, &l), 2);
	cr_assert_eq(l.n, 1);
	cr_assert_eq(l.v[0].at, S32 + 1325400064ULL);
	free(l.v);
}

/*
 * get_next_timer_interrupt() recomputes a stale next_expiry once: after
 * it, the flag is clear and the stored value is read again.  A (+10) is
 * deleted; the query finds the base empty, next_expiry = S + 2^30 - 1.
 * B, armed as above from S + 2^28, lands in S + 1325400064, later, so
 * next_expiry stays S + 1073741823 for the next query.
 */
Test(timer_levels, next_expiry_clears_its_recalc)
{
	static struct tw_wheel w;
	struct tw_timer t[2];
	uint64_t next;

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 2);
	tw_mod_timer(&w, &t[0], S32 + 10, S32);
	cr_assert_eq(tw_del_timer(&w, &t[0], S32), 1);
	cr_assert_not(tw_next_expiry(&w, &next));
	tw_mod_timer(&w, &t[1], S32 + (1ULL << 28) + (1ULL << 31),
		     S32 + (1ULL << 28));
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 1073741823ULL);
}

Test(timer_levels, run_inside_a_callback_is_a_bug, .signal = SIGABRT,
     .init = cr_redirect_stderr)
{
	run_inside_a_callback(TW_LEVELS);
}

/*
 * Mainline recomputes next_expiry lazily after a delete, and forwards clk
 * to the stale value: A (+10, expiry +11) is deleted, then C is armed at
 * S+500 for S+563.  clk only reaches S+11, so C is 552 away, level 2,
 * bucket ((563 >> 6) + 1) * 64 = S+576.  Had next_expiry been recomputed
 * first (an idle entry does that), clk would be S+500, C 63 away, level 1,
 * bucket ((563 >> 3) + 1) * 8 = S+568.
 */
Test(timer_levels, lazy_next_expiry_after_delete)
{
	static struct tw_wheel w;
	struct tw_timer t[3];
	uint64_t next;
	struct log l = { 0 };

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 3);
	tw_mod_timer(&w, &t[0], S32 + 10, S32);
	tw_mod_timer(&w, &t[1], S32 + 1000, S32);
	cr_assert_eq(tw_del_timer(&w, &t[0], S32), 1);
	tw_mod_timer(&w, &t[2], S32 + 563, S32 + 500);
	cr_assert_eq(w.clk, S32 + 11);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 576);

	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 3);
	tw_mod_timer(&w, &t[0], S32 + 10, S32);
	tw_mod_timer(&w, &t[1], S32 + 1000, S32);
	tw_del_timer(&w, &t[0], S32);
	cr_assert(tw_next_expiry(&w, &next));		/* recomputes */
	cr_assert_eq(next, S32 + 1024);
	tw_mod_timer(&w, &t[2], S32 + 563, S32 + 500);
	cr_assert(tw_next_expiry(&w, &next));
	cr_assert_eq(next, S32 + 568);

	/* a stale next_expiry costs one empty iteration, nothing fires */
	tw_init(&w, TW_LEVELS, 250, S32);
	timers_init(t, 3);
	tw_mod_timer(&w, &t[0], S32 + 10, S32);
	tw_mod_timer(&w, &t[1], S32 + 1000, S32);
	tw_del_timer(&w, &t[0], S32);
	cr_assert_eq(tw_run(&w, S32 + 11, record, &l), 1);
	cr_assert_eq(l.n, 0);
	cr_assert_eq(tw_run(&w, S32 + 1024, record, &l), 1);
	cr_assert_eq(l.n, 1);
	free(l.v);
}

/* ==== random schedules against reference models ==== */

/*
 * The reference models keep every timer in a flat array and pick the
 * next firing by sorting on what docs/kernel-model.md §8 documents, with none of the
 * wheels' data structures:
 *
 * classic: a timer fires at the first softirq with jiffies >= its expiry
 * (after slack and the tv5 clamp; an already expired one at the
 * timer_jiffies it was armed at).  Slots are FIFO and a cascade appends in
 * list order, tv2 first, so within one jiffy timers run in the order they
 * reached tv1: directly, or by cascade at the tv1 boundary below their
 * expiry, and so on up the levels they came from.  timer_jiffies jumps to
 * jiffies whenever the base is (or becomes) empty.
 *
 * levels: a timer fires when clk reaches bucket_expiry = ((expires >> 3n)
 * + 1) << 3n for its level n (clamped, or clk itself when expired); at
 * one clk the highest level first, latest armed first within a level.
 * clk moves to min(jiffies, next_expiry) on arming and straight to
 * next_expiry in the softirq; next_expiry drops on arming, is left stale
 * by a delete, and is recomputed by each softirq step and by a query.
 */

#define NT	40		/* timers per schedule */
#define MAXD	((1ULL << 30) - 1)	/* mainline NEXT_TIMER_MAX_DELTA */

struct rtimer {
	bool pending;
	uint64_t expires;	/* as the kernel stores it */
	long slack;
	unsigned fired;		/* firings so far: drives re-arming */
	uint64_t seq;		/* arming order */
	/* classic */
	uint64_t fire;		/* the jiffy it fires at */
	uint64_t path_at[5];	/* jiffy it reached tv1, then the level it
				   came from, ... up to where it was armed */
	unsigned path_from[5];	/* the level it came from (0: armed there) */
	unsigned npath;
	/* levels */
	uint64_t bexp;		/* bucket_expiry */
	unsigned lvl, idx;
};

struct ref {
	bool levels;
	unsigned depth;
	uint64_t clk, next, seq, now, iters;
	bool recalc;
	unsigned npending;
	struct rtimer t[NT];
	struct log log;
};

/* Whether timer id re-arms itself at its k-th firing, and how far from
 * now: the same answer for every wheel and model. */
static bool rearm(unsigned id, unsigned k, uint64_t *d)
{
	static const uint64_t deltas[] = {
		1, 2, 7, 62, 63, 64, 200, 255, 256, 257, 511, 4000, 5000,
		16383, 16384, 70000, 1ULL << 20, (1ULL << 20) + 3,
	};
	uint32_t h = id * 2654435761u + k * 40503u + 12345u;

	h ^= h >> 13;
	if (h % 3 == 0)
		return false;
	*d = deltas[(h >> 4) % ARRAY_SIZE(deltas)];
	return true;
}

static bool before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

/* ---- classic reference ---- */

static uint64_t ref_slack(long slack, uint64_t expires, uint64_t now)
{
	uint64_t limit, x;
	int bit;

	if (slack >= 0) {
		limit = expires + (uint64_t)slack;
	} else {
		if ((int64_t)(expires - now) < 256)
			return expires;
		limit = expires + (uint64_t)((int64_t)(expires - now) / 256);
	}
	x = expires ^ limit;
	for (bit = 63; bit >= 0; bit--)
		if (x >> bit & 1)
			break;
	if (bit < 0)
		return expires;
	return limit & ~((1ULL << bit) - 1);
}

/* §8.1's insert table: tv1..tv5 for a distance from timer_jiffies. */
static unsigned ref_tv(uint64_t idx)
{
	if ((int64_t)idx < 0 || idx < 256)
		return 1;
	if (idx < 1ULL << 14)
		return 2;
	if (idx < 1ULL << 20)
		return 3;
	if (idx < 1ULL << 26)
		return 4;
	return 5;
}

static void ref_classic_place(struct ref *r, struct rtimer *t)
{
	uint64_t idx = t->expires - r->clk, at[5];
	unsigned tv, from[5], n = 0, i;

	if (ref_tv(idx) == 5 && idx > 0xffffffffULL)
		t->expires = r->clk + 0xffffffffULL;
	t->fire = (int64_t)idx < 0 ? r->clk : t->expires;
	tv = ref_tv(idx);
	at[0] = r->clk;
	from[0] = 0;
	while (tv > 1) {
		/* cascaded when timer_jiffies reaches the start of its slot */
		uint64_t gran = 1ULL << (8 + 6 * (tv - 2));
		uint64_t b = t->expires & ~(gran - 1);

		n++;
		at[n] = b;
		from[n] = tv;
		tv = ref_tv(t->expires - b);
	}
	t->npath = n + 1;
	for (i = 0; i <= n; i++) {
		t->path_at[i] = at[n - i];
		t->path_from[i] = from[n - i];
	}
	t->seq = ++r->seq;
}

/* Returns < 0 if a runs before b. */
static int ref_classic_cmp(const struct rtimer *a, const struct rtimer *b)
{
	unsigned i;

	if (a->fire != b->fire)
		return before(a->fire, b->fire) ? -1 : 1;
	for (i = 0; i < a->npath && i < b->npath; i++) {
		if (a->path_at[i] != b->path_at[i])
			return before(a->path_at[i], b->path_at[i]) ? -1 : 1;
		if (a->path_from[i] != b->path_from[i])
			return a->path_from[i] < b->path_from[i] ? -1 : 1;
	}
	return a->seq < b->seq ? -1 : 1;
}

static void ref_classic_detach(struct ref *r, struct rtimer *t, uint64_t now)
{
	t->pending = false;
	if (!--r->npending)
		r->clk = now;
}

static int ref_classic_mod(struct ref *r, unsigned id, uint64_t expires,
			   uint64_t now, bool reduce)
{
	struct rtimer *t = &r->t[id];
	int was = t->pending;

	if (reduce && t->pending && !before(expires, t->expires))
		return was;
	expires = ref_slack(t->slack, expires, now);
	if (t->pending && t->expires == expires)
		return was;
	if (t->pending)
		ref_classic_detach(r, t, now);
	if (!r->npending++)
		r->clk = now;
	t->pending = true;
	t->expires = expires;
	ref_classic_place(r, t);
	return was;
}

static int ref_classic_earliest(const struct ref *r)
{
	int best = -1;
	unsigned i;

	for (i = 0; i < NT; i++)
		if (r->t[i].pending &&
		    (best < 0 || ref_classic_cmp(&r->t[i], &r->t[best]) < 0))
			best = (int)i;
	return best;
}

static int ref_mod(struct ref *r, unsigned id, uint64_t expires,
		   uint64_t now, bool reduce);

static void ref_fire(struct ref *r, unsigned id, uint64_t at)
{
	uint64_t d;

	log_add(&r->log, id, at);
	if (rearm(id, r->t[id].fired++, &d))
		ref_mod(r, id, r->now + d, r->now, false);
}

/* Counts the iterations of the jiffy-by-jiffy loop: every jiffy from
 * timer_jiffies to the last one walked. */
static void ref_classic_run(struct ref *r, uint64_t now)
{
	uint64_t n = 0;
	int best;

	r->now = now;
	while (!before(now, r->clk)) {
		uint64_t c = r->clk, f;

		if (!r->npending) {
			r->clk = now;
			break;
		}
		best = ref_classic_earliest(r);
		f = r->t[best].fire;
		cr_assert(!before(f, c), "a timer was left behind");
		if (before(now, f)) {
			n += now - c + 1;
			r->clk = now + 1;
			break;
		}
		n += f - c + 1;
		r->clk = f + 1;
		while ((best = ref_classic_earliest(r)) >= 0 &&
		       r->t[best].fire == f) {
			r->t[best].pending = false;
			r->npending--;
			ref_fire(r, (unsigned)best, f);
		}
	}
	r->iters = n;
}

static bool ref_classic_next(const struct ref *r, uint64_t *next)
{
	int best = ref_classic_earliest(r);

	if (best < 0)
		return false;
	*next = r->t[best].fire;
	return true;
}

/* ---- levels reference ---- */

static uint64_t pow8(unsigned n)
{
	return 1ULL << (3 * n);
}

static unsigned ref_lvl_calc(const struct ref *r, uint64_t expires,
			     uint64_t *bexp, unsigned *lvl)
{
	uint64_t delta = expires - r->clk, e;
	unsigned n;

	if ((int64_t)delta < 0) {
		*bexp = r->clk;
		*lvl = 0;
		return (unsigned)(r->clk % 64);
	}
	for (n = 0; n + 1 < r->depth && delta >= 63 * pow8(n); n++)
		;
	if (delta >= 63 * pow8(r->depth - 1))
		expires = r->clk + 63 * pow8(r->depth - 1) -
			  pow8(r->depth - 1);
	e = expires / pow8(n) + 1;
	*bexp = e * pow8(n);
	*lvl = n;
	return n * 64 + (unsigned)(e % 64);
}

static uint64_t ref_lvl_exact_next(const struct ref *r)
{
	uint64_t next = r->clk + MAXD;
	unsigned i;

	for (i = 0; i < NT; i++)
		if (r->t[i].pending && before(r->t[i].bexp, next))
			next = r->t[i].bexp;
	return next;
}

static void ref_lvl_forward(struct ref *r, uint64_t now)
{
	if (!before(r->clk, now))
		return;
	r->clk = before(now, r->next) ? now : r->next;
}

static void ref_lvl_detach(struct ref *r, struct rtimer *t)
{
	unsigned i;
	bool alone = true;

	t->pending = false;
	r->npending--;
	for (i = 0; i < NT; i++)
		if (r->t[i].pending && r->t[i].idx == t->idx)
			alone = false;
	if (alone)
		r->recalc = true;
}

static int ref_lvl_mod(struct ref *r, unsigned id, uint64_t expires,
		       uint64_t now, bool reduce)
{
	struct rtimer *t = &r->t[id];
	int was = t->pending;
	uint64_t b;
	unsigned lvl, idx;

	if (t->pending) {
		int64_t diff = (int64_t)(t->expires - expires);

		if (!diff || (reduce && diff <= 0))
			return was;
		ref_lvl_forward(r, now);
		idx = ref_lvl_calc(r, expires, &b, &lvl);
		if (idx == t->idx) {
			t->expires = expires;
			return was;
		}
		ref_lvl_detach(r, t);
	} else {
		ref_lvl_forward(r, now);
		idx = ref_lvl_calc(r, expires, &b, &lvl);
	}
	t->expires = expires;
	t->pending = true;
	t->idx = idx;
	t->bexp = b;
	t->lvl = lvl;
	t->seq = ++r->seq;
	r->npending++;
	if (before(b, r->next)) {
		r->next = b;
		r->recalc = false;
	}
	return was;
}

/* Higher level first, then the later armed. */
static bool ref_lvl_runs_before(const struct rtimer *a, const struct rtimer *b)
{
	if (a->lvl != b->lvl)
		return a->lvl > b->lvl;
	return a->seq > b->seq;
}

static void ref_lvl_run(struct ref *r, uint64_t now)
{
	unsigned batch[NT], nb, i, j;
	uint64_t n = 0, at;

	r->now = now;
	while (!before(now, r->clk) && !before(now, r->next)) {
		n++;
		r->clk = r->next;
		nb = 0;
		for (i = 0; i < NT; i++)
			if (r->t[i].pending && r->t[i].bexp == r->clk)
				batch[nb++] = i;
		for (i = 1; i < nb; i++)	/* insertion sort */
			for (j = i; j > 0 && ref_lvl_runs_before(
					&r->t[batch[j]], &r->t[batch[j - 1]]);
			     j--) {
				unsigned x = batch[j];

				batch[j] = batch[j - 1];
				batch[j - 1] = x;
			}
		for (i = 0; i < nb; i++) {
			r->t[batch[i]].pending = false;
			r->npending--;
		}
		at = r->clk++;
		r->next = ref_lvl_exact_next(r);
		r->recalc = false;
		/* a callback re-arming may forward clk: `at` stays */
		for (i = 0; i < nb; i++)
			ref_fire(r, batch[i], at);
	}
	r->iters = n;
}

static bool ref_lvl_next(struct ref *r, uint64_t *next)
{
	if (r->recalc) {
		r->next = ref_lvl_exact_next(r);
		r->recalc = false;
	}
	if (!r->npending)
		return false;
	*next = r->next;
	return true;
}

/* ---- the two models behind one face ---- */

static void ref_init(struct ref *r, bool levels, unsigned hz, uint64_t start)
{
	memset(r, 0, sizeof(*r));
	r->levels = levels;
	r->depth = hz > 100 ? 9 : 8;
	r->clk = start;
	r->next = start + MAXD;
	for (unsigned i = 0; i < NT; i++)
		r->t[i].slack = -1;
}

/* Returns whether the timer was pending, as mod_timer() does. */
static int ref_mod(struct ref *r, unsigned id, uint64_t expires,
		   uint64_t now, bool reduce)
{
	return r->levels ? ref_lvl_mod(r, id, expires, now, reduce) :
			   ref_classic_mod(r, id, expires, now, reduce);
}

static int ref_del(struct ref *r, unsigned id, uint64_t now)
{
	struct rtimer *t = &r->t[id];

	if (!t->pending)
		return 0;
	if (r->levels)
		ref_lvl_detach(r, t);
	else
		ref_classic_detach(r, t, now);
	return 1;
}

static void ref_run(struct ref *r, uint64_t now)
{
	if (r->levels)
		ref_lvl_run(r, now);
	else
		ref_classic_run(r, now);
}

static bool ref_next(struct ref *r, uint64_t *next)
{
	return r->levels ? ref_lvl_next(r, next) : ref_classic_next(r, next);
}

/* ---- the wheels under test ---- */

struct side {
	struct tw_wheel w;
	struct tw_timer t[NT];
	unsigned fired[NT];
	struct log log;
	uint64_t now;
	struct ref *ref;	/* the model it must match */
	bool active;
};

static void side_fire(struct tw_timer *t, uint64_t at, void *arg)
{
	struct side *s = arg;
	unsigned id = (unsigned)(t - s->t);
	uint64_t d;

	log_add(&s->log, id, at);
	if (rearm(id, s->fired[id]++, &d))
		tw_mod_timer(&s->w, t, s->now + d, s->now);
}

struct rig {
	struct side side[3];	/* ORDER: classic, classic+skip, levels */
	uint64_t now;
	size_t checked[3];	/* firings compared so far, per side */
	gsl_rng *rng;
	unsigned long seed;
	unsigned step;
};

static uint64_t pick(gsl_rng *rng, uint64_t lo, uint64_t hi)
{
	return lo + (uint64_t)(gsl_rng_uniform(rng) * (double)(hi - lo));
}

/* Distances from now: due, near, each level's range, beyond the wheels. */
static uint64_t rand_delta(gsl_rng *rng)
{
	unsigned r = (unsigned)gsl_rng_uniform_int(rng, 100);

	if (r < 25)
		return pick(rng, 0, 70);
	if (r < 40)
		return (uint64_t)0 - pick(rng, 1, 50);	/* already due */
	if (r < 60)
		return pick(rng, 60, 600);
	if (r < 78)
		return pick(rng, 500, 20000);
	if (r < 92)
		return pick(rng, 20000, 1ULL << 21);
	if (r < 98)
		return pick(rng, 1ULL << 21, 1ULL << 28);
	return pick(rng, 1ULL << 28, 1ULL << 34);
}

/* Softirq gaps, including long idle ones. */
static uint64_t rand_gap(gsl_rng *rng)
{
	unsigned r = (unsigned)gsl_rng_uniform_int(rng, 100);

	if (r < 35)
		return pick(rng, 0, 8);
	if (r < 65)
		return pick(rng, 8, 300);
	if (r < 85)
		return pick(rng, 300, 5000);
	if (r < 97)
		return pick(rng, 5000, 100000);
	return pick(rng, 100000, 1ULL << 20);
}

static void rig_compare(struct rig *g)
{
	unsigned k, i;

	for (k = 0; k < 3; k++) {
		struct side *s = &g->side[k];
		const struct log *want = &s->ref->log;

		if (!s->active)
			continue;
		cr_assert_eq(s->log.n, want->n, "seed %lu step %u wheel %u: "
			     "%zu firings, model %zu", g->seed, g->step, k,
			     s->log.n, want->n);
		for (; g->checked[k] < s->log.n; g->checked[k]++) {
			size_t j = g->checked[k];

			cr_assert(s->log.v[j].id == want->v[j].id &&
				  s->log.v[j].at == want->v[j].at,
				  "seed %lu step %u wheel %u firing %zu: "
				  "timer %u at %llu, model timer %u at %llu",
				  g->seed, g->step, k, j, s->log.v[j].id,
				  (unsigned long long)s->log.v[j].at,
				  want->v[j].id,
				  (unsigned long long)want->v[j].at);
		}
		for (i = 0; i < NT; i++) {
			const struct rtimer *rt = &s->ref->t[i];

			cr_assert_eq(tw_timer_pending(&s->t[i]), rt->pending,
				     "seed %lu step %u wheel %u timer %u "
				     "pending", g->seed, g->step, k, i);
			if (rt->pending)
				cr_assert_eq(s->t[i].expires, rt->expires,
					     "seed %lu step %u wheel %u timer "
					     "%u expires", g->seed, g->step, k,
					     i);
		}
	}
}

static void rig_run(struct rig *g, uint64_t now)
{
	uint64_t it[3] = { 0 };
	unsigned k;

	g->now = now;
	for (k = 0; k < 3; k++) {
		struct side *s = &g->side[k];

		if (!s->active)
			continue;
		s->now = now;
		it[k] = tw_run(&s->w, now, side_fire, s);
		ref_run(s->ref, now);
	}
	rig_compare(g);
	if (g->side[0].active) {
		cr_assert_eq(it[0], g->side[0].ref->iters, "seed %lu step %u: "
			     "classic iterations", g->seed, g->step);
		cr_assert_leq(it[1], it[0]);
	}
	cr_assert_eq(it[2], g->side[2].ref->iters, "seed %lu step %u: levels "
		     "iterations", g->seed, g->step);
}

/* NOHZ idle: sleep until the earliest next expiry (checked against the
 * models) and run there.  Returns false when nothing is queued or the
 * jump is too long for the jiffy-by-jiffy wheel. */
static bool rig_sleep(struct rig *g, uint64_t max_jump)
{
	uint64_t next, want, wake = 0;
	bool any = false, has;
	unsigned k;

	for (k = 0; k < 3; k++) {
		struct side *s = &g->side[k];

		if (!s->active)
			continue;
		has = tw_next_expiry(&s->w, &next);
		cr_assert_eq(has, ref_next(s->ref, &want),
			     "seed %lu step %u wheel %u: next expiry exists",
			     g->seed, g->step, k);
		if (!has)
			continue;
		cr_assert_eq(next, want, "seed %lu step %u wheel %u: next "
			     "expiry %llu, model %llu", g->seed, g->step, k,
			     (unsigned long long)next,
			     (unsigned long long)want);
		if (!any || before(next, wake))
			wake = next;
		any = true;
	}
	if (!any)
		return false;
	if (before(wake, g->now))	/* overdue: run now */
		wake = g->now;
	if (wake - g->now > max_jump)
		return false;
	rig_run(g, wake);
	return true;
}

static void rig_op(struct rig *g)
{
	unsigned r = (unsigned)gsl_rng_uniform_int(g->rng, 100);
	unsigned id = (unsigned)gsl_rng_uniform_int(g->rng, NT), k;
	uint64_t e = g->now + rand_delta(g->rng);
	int want;

	if (r < 45) {			/* mod_timer or timer_reduce */
		bool reduce = r >= 33;

		/* the same expiry, or one or two jiffies off: mostly the
		 * bucket the timer already sits in */
		if (r < 8 && g->side[2].ref->t[id].pending)
			e = g->side[2].ref->t[id].expires + (r % 5) - 2;
		for (k = 0; k < 3; k++) {
			struct side *s = &g->side[k];
			int ret;

			if (!s->active)
				continue;
			want = ref_mod(s->ref, id, e, g->now, reduce);
			ret = reduce ? tw_timer_reduce(&s->w, &s->t[id], e,
						       g->now) :
				       tw_mod_timer(&s->w, &s->t[id], e,
						    g->now);
			cr_assert_eq(ret, want, "seed %lu step %u wheel %u: "
				     "return", g->seed, g->step, k);
		}
	} else if (r < 53) {		/* del_timer */
		for (k = 0; k < 3; k++) {
			struct side *s = &g->side[k];

			if (!s->active)
				continue;
			want = ref_del(s->ref, id, g->now);
			cr_assert_eq(tw_del_timer(&s->w, &s->t[id], g->now),
				     want);
		}
	} else if (r < 56) {		/* set_timer_slack (classic only) */
		static const long sl[] = { -1, 0, 5, 100, 3000 };
		long v = sl[gsl_rng_uniform_int(g->rng, ARRAY_SIZE(sl))];

		for (k = 0; k < 3; k++) {
			g->side[k].t[id].slack = v;
			g->side[k].ref->t[id].slack = v;
		}
	} else if (r < 66) {		/* NOHZ idle until the next expiry */
		if (!rig_sleep(g, g->side[0].active ? 1ULL << 22 : ~0ULL))
			rig_run(g, g->now + rand_gap(g->rng));
	} else {			/* the softirq after a random gap */
		rig_run(g, g->now + rand_gap(g->rng));
	}
	rig_compare(g);
}

/* One schedule: `steps` random operations on all three wheels, each
 * checked against its model after every step, then a drain. */
static void run_schedule(unsigned long seed, uint64_t start, unsigned hz,
			 unsigned steps)
{
	struct rig *g = xcalloc(1, sizeof(*g));
	struct ref *rc = xcalloc(1, sizeof(*rc));
	struct ref *rc2 = xcalloc(1, sizeof(*rc2));
	struct ref *rl = xcalloc(1, sizeof(*rl));
	unsigned k, i;

	g->seed = seed;
	g->now = start;
	g->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(g->rng, seed);
	ref_init(rc, false, hz, start);
	ref_init(rc2, false, hz, start);
	ref_init(rl, true, hz, start);
	tw_init(&g->side[0].w, TW_CLASSIC, hz, start);
	tw_init(&g->side[1].w, TW_CLASSIC_SKIP, hz, start);
	tw_init(&g->side[2].w, TW_LEVELS, hz, start);
	g->side[0].ref = rc;
	g->side[1].ref = rc2;
	g->side[2].ref = rl;
	for (k = 0; k < 3; k++) {
		g->side[k].active = true;
		for (i = 0; i < NT; i++)
			tw_timer_init(&g->side[k].t[i], NULL);
	}

	for (g->step = 0; g->step < steps; g->step++)
		rig_op(g);

	/* Drain what is left by sleeping from expiry to expiry, without the
	 * jiffy-by-jiffy wheel: tv5 timers are up to 2^32 jiffies out. */
	g->side[0].active = false;
	for (i = 0; i < 400 && rig_sleep(g, ~0ULL); i++, g->step++)
		;
	cr_assert_gt(g->side[1].log.n, steps / 8, "the schedule fired");
	cr_assert_eq(g->side[1].log.n, rc2->log.n);

	for (k = 0; k < 3; k++)
		free(g->side[k].log.v);
	free(rc->log.v);
	free(rc2->log.v);
	free(rl->log.v);
	gsl_rng_free(g->rng);
	free(rc);
	free(rc2);
	free(rl);
	free(g);
}

TestSuite(timer_wheel_random);

/* INITIAL_JIFFIES at HZ=250: every level wraps to index 0 at 2^32,
 * 75000 jiffies in. */
Test(timer_wheel_random, boot_hz250)
{
	run_schedule(1, 4294892296ULL, 250, 2500);
}

Test(timer_wheel_random, just_before_2_pow_32_hz1000)
{
	run_schedule(2, S32 - 300, 1000, 2500);
}

/* HZ=100: an 8-level wheel. */
Test(timer_wheel_random, far_jiffies_hz100)
{
	run_schedule(3, (1ULL << 38) - 70000, 100, 2500);
}

Test(timer_wheel_random, small_jiffies_hz300)
{
	run_schedule(4, 12345, 300, 2500);
}

/* ==== mpsim timers ==== */

static int call_timers(int n, const char *const *words)
{
	char *argv[16];
	int i;

	for (i = 0; i < n; i++)
		argv[i] = (char *)words[i];
	argv[n] = NULL;
	return cmd_timers(n, argv);
}

TestSuite(timers_cmd);

/*
 * HZ=250, boot at INITIAL_JIFFIES j0 = 4294892296 = 0xfffedb08, period
 * 5000 jiffies, runtime 60 s (end j0 + 15000).
 * classic: j0 + 5000 = 0xfffeee90 slacks by 19: 0xfffeeea3, bit 5
 *   differs -> 0xfffeeea0 = j0 + 5016 (20.064 s).  Iterations: j0 ..
 *   j0+5016 (5017) plus one more for the jiffy re-armed into the emptied
 *   base (catchup resets timer_jiffies to jiffies) = 5018.  Re-armed from
 *   there: +5008 (0xffff0230, 40.096 s), 5009 iterations.
 * skip: 1st: 248 jiffies to 0xfffedc00, 18 boundaries skipped up to
 *   0xfffeed00, the round 0xfffeee00..ee a0 walked (161), + 1 = 428;
 *   2nd: 0xfffeeea1..0xfffeeeff (95), 19 skipped (0xfffeef00..0xffff0100),
 *   0xffff0200..0230 (49), + 1 = 164.
 * Cascades: one tv2 slot per tv1 boundary, skipped or walked; the 1st
 *   catch-up crosses 0xfffedc00..0xfffeee00 (19), the 2nd
 *   0xfffeef00..0xffff0200 (20), and at 0xffff0000 tv2's index is 0, so
 *   tv3 cascades too: 21.  Each time the timer waits in tv2 and moves
 *   once.  Splices: one per walked iteration: classic all of them; skip
 *   248 + 161 + 1 = 410 and 95 + 49 + 1 = 145.
 * Time, default costs (11400 per softirq, 5.6 per iteration, 1 per
 *   splice, 5 per cascade, ns): classic 11400 + 5.6 * 5018 + 5018 + 95 =
 *   44613.8 and 11400 + 5.6 * 5009 + 5009 + 105 = 44564.4; skip 11400 +
 *   5.6 * 428 + 410 + 95 = 14301.8 and 11400 + 5.6 * 164 + 145 + 105 =
 *   12568.4.
 */
Test(timers_cmd, classic_csv, .init = cr_redirect_stdout)
{
	static const char *const argv[] = {
		"timers", "--period=20s", "--runtime", "60s", "--wheel=classic",
		"--format=csv",
	};

	cr_assert_eq(call_timers(6, argv), 0);
	fflush(stdout);
	cr_assert_stdout_eq_str(
"# mpsim " MPSIM_VERSION ": timers, one timer every 20 s (5000 jiffies) for "
"60 s at HZ 250 from boot (jiffies 4294892296), wheel classic\n"
"# cost model, ns: 11400 per softirq, 5.6 per iteration, 1 per splice, "
"5 per cascade\n"
"wheel,catchup,jiffies,uptime_ns,iterations,cascades,moved,splices,fired,"
"time_us\n"
"classic,1,4294897312,20064000000,5018,19,1,5018,1,44.614\n"
"classic,2,4294902320,40096000000,5009,21,1,5009,1,44.564\n"
"classic,total,,,10027,40,2,10027,2,\n"
"classic+skip,1,4294897312,20064000000,428,19,1,410,1,14.302\n"
"classic+skip,2,4294902320,40096000000,164,21,1,145,1,12.568\n"
"classic+skip,total,,,592,40,2,555,2,\n"
"# classic and classic+skip fired the same 2 timers at the same jiffies; "
"the skip took 592 of 10027 iterations (5.9%)\n");
}

/*
 * levels: j0 + 5000 is level 3 (4032 <= 5000 < 32256): bucket
 * ((0xfffeee90 >> 9) + 1) << 9 = 0xfffeef00 = j0 + 5368 (21.472 s); from
 * that multiple of 512, +5000 -> +5120 (41.952 s).  One iteration each,
 * one bucket spliced, no cascade: 11400 + 5.6 + 1 ns = 11.4 us.
 */
Test(timers_cmd, levels_table, .init = cr_redirect_stdout)
{
	static const char *const argv[] = {
		"timers", "--runtime=45s", "--wheel=levels",
	};

	cr_assert_eq(call_timers(3, argv), 0);
	fflush(stdout);
	cr_assert_stdout_eq_str(
"mpsim " MPSIM_VERSION ": timers, one timer every 20 s (5000 jiffies) for "
"45 s at HZ 250 from boot (jiffies 4294892296), wheel levels\n"
"cost model, ns: 11400 per softirq, 5.6 per iteration, 1 per splice, "
"5 per cascade\n"
"\n"
"| catch-up | levels at s | levels iterations | cascades | splices | us |\n"
"|--:|--:|--:|--:|--:|--:|\n"
"| 1 | 21.472 | 1 | 0 | 1 | 11.4 |\n"
"| 2 | 41.952 | 1 | 0 | 1 | 11.4 |\n"
"| total | 2 fired | 2 | 0 | 2 | |\n");
}

/*
 * The default: 600 s (150000 jiffies) of a 20 s timer at HZ=250.
 * classic: fires at +5016, then every 5008: 5016 + 28 * 5008 = 145240 is
 *   the 29th, the 30th would be past 150000.  Iterations 5018 + 28 * 5009
 *   = 145270.
 * levels: +5368, then every 5120: 5368 + 28 * 5120 = 148728, 29 firings,
 *   one iteration each.
 */
Test(timers_cmd, default_json_agrees, .init = cr_redirect_stdout)
{
	static const char *const argv[] = { "timers", "--format=json" };
	char buf[65536];
	FILE *f;
	size_t n;

	cr_assert_eq(call_timers(2, argv), 0);
	fflush(stdout);
	f = cr_get_redirected_stdout();
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	cr_assert(strstr(buf, "\"same_firings\": true"));
	/* 29 firings: 5016 + 28 * 5008 = 145240 jiffies <= 150000 < + 5008 */
	cr_assert(strstr(buf, "{\"wheel\": \"classic\", \"fired\": 29, "
			 "\"iterations\": 145270,"));
	cr_assert(strstr(buf, "{\"wheel\": \"levels\", \"fired\": 29, "
			 "\"iterations\": 29,"));
}

/* Arrays, not pointers: each test runs in a fresh copy of the binary. */
struct bad_opt {
	char arg[24];
	char msg[96];
};

ParameterizedTestParameters(timers_cmd, bad_option)
{
	static struct bad_opt v[] = {
		{ "--hz=123", "mpsim: --hz: '123' is not 100, 250, 300 or "
		  "1000\n" },
		{ "--wheel=new", "mpsim: --wheel: 'new' is not classic, levels "
		  "or all\n" },
		{ "--format=xml", "mpsim: --format: 'xml' is not table, csv or "
		  "json\n" },
		{ "--period=0", "mpsim: --period: must be more than 0\n" },
		{ "--period=5xs", "mpsim: --period: unknown time unit in '5xs' "
		  "(use ns, us, ms, s, m, h)\n" },
		{ "--runtime=8d", "mpsim: --runtime: must be more than 0 and at "
		  "most 7d\n" },
		{ "--period=4ms", "mpsim: --period: too short for --runtime (at "
		  "most 100000 expiries per run)\n" },
		{ "--bogus=1", "mpsim: timers: unknown option '--bogus'\n" },
		{ "stray", "mpsim: timers: unexpected argument 'stray' "
		  "(options are --key=value)\n" },
		{ "--hz", "mpsim: --hz: missing value\n" },
		{ "--cost-splice=-1ns", "mpsim: --cost-splice: '-1ns' is not "
		  "a time of 0 to 1s (say 7ns or 11.6us)\n" },
		{ "--cost-iteration=7", "mpsim: --cost-iteration: '7' is not "
		  "a time of 0 to 1s (say 7ns or 11.6us)\n" },
		{ "--cost-wait=1ns", "mpsim: timers: unknown option "
		  "'--cost-wait'\n" },
	};

	return cr_make_param_array(struct bad_opt, v, ARRAY_SIZE(v));
}

static void redirect_both(void)
{
	cr_redirect_stdout();
	cr_redirect_stderr();
}

/* Bad input: one line on stderr naming the option, status 2, no output. */
ParameterizedTest(struct bad_opt *p, timers_cmd, bad_option,
		  .init = redirect_both)
{
	const char *argv[] = { "timers", p->arg };

	cr_assert_eq(call_timers(2, argv), 2, "%s", p->arg);
	fflush(stdout);
	fflush(stderr);
	cr_assert_stdout_eq_str("");
	cr_assert_stderr_eq_str(p->msg);
}

/* --mail covers every HZ and wheel itself: --hz, --wheel, --format are
 * refused with it, not ignored. */
Test(timers_cmd, mail_refuses_what_it_sets, .init = redirect_both)
{
	static const char *const argv[] = { "timers", "--mail", "--hz=250" };

	cr_assert_eq(call_timers(3, argv), 2);
	fflush(stdout);
	fflush(stderr);
	cr_assert_stdout_eq_str("");
	cr_assert_stderr_eq_str("mpsim: timers --mail covers HZ 100, 250 and "
				"1000 and every wheel, as a table: drop "
				"--hz\n");
}

/*
 * --mail with a cost of 1 us per iteration and nothing else: each
 * catch-up's time is its iteration count in us.  The level wheel takes
 * one iteration per catch-up at every HZ (1.0 us); the classic wheel at
 * HZ 100 with a 20 s period: apply_slack allows 2000/256 = 7 more and
 * rounds down at the highest bit that differs, which here gives +4 each
 * time (j0 = 0xffff8ad0: +2000 = 0xffff92a0, limit 0xffff92a7, bit 2:
 * 0xffff92a4; then 0xffff9a74 -> 0xffff9a78, 0xffffa248 -> 0xffffa24c).
 * The first catch-up walks j0..j0+2004 (2005) plus the re-armed jiffy,
 * 2006; each later one 2004 jiffies from the re-armed one, 2005.  The
 * mail's line:
 * midpoints 144.5 / 14 = 10.3, range 124/20 = 6.2 to 165/8 = 20.6.
 */
Test(timers_cmd, mail_per_softirq, .init = cr_redirect_stdout)
{
	static const char *const argv[] = {
		"timers", "--mail", "--cost-softirq=0ns", "--cost-iteration=1us",
		"--cost-splice=0ns", "--cost-cascade=0ns",
	};
	char buf[8192];
	size_t n;
	FILE *f;

	cr_assert_eq(call_timers(6, argv), 0);
	fflush(stdout);
	f = cr_get_redirected_stdout();
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	cr_assert(strstr(buf, "| 100 | levels | 1 | 0 | 1 | 1.0 |\n"), "%s",
		  buf);
	cr_assert(strstr(buf, "| 250 | levels | 1 | 0 | 1 | 1.0 |\n"));
	cr_assert(strstr(buf, "| 1000 | levels | 1 | 0 | 1 | 1.0 |\n"));
	cr_assert(strstr(buf, "| the mail (HZ not stated) | 124–165 | 8–20 | "
			 "10.3 (6.2–20.6) | | |\n"));
	cr_assert(strstr(buf, "| 100 | classic | 2005–2006 |"), "%s", buf);
}

Test(timers_cmd, help, .init = cr_redirect_stdout)
{
	static const char *const argv[] = { "timers", "--help" };
	char buf[2048];
	size_t n;

	cr_assert_eq(call_timers(2, argv), 0);
	fflush(stdout);
	n = fread(buf, 1, sizeof(buf) - 1, cr_get_redirected_stdout());
	buf[n] = 0;
	cr_assert(!strncmp(buf, "usage: mpsim timers ", 20));
	cr_assert(strstr(buf, "--wheel=classic|levels|all"));
}

/*
 * The catch-up in the terms of Wang's mail (§8.3): loop iterations,
 * cascades (tv2..tv5 slots cascaded, empty ones too), timers moved by
 * them, and slots or buckets spliced off to run, for one worked example
 * derived by hand.  One timer, explicit slack 0 (apply_slack leaves it
 * alone), armed at clk 0 for jiffy 1000; the softirq runs once at 1000
 * (or, on the level wheel, at the bucket's expiry).
 *
 * Classic: 1000 - 0 >= 256, so the timer sits in tv2[1000 >> 8 = 3].
 * The walk steps clk 0..1000: 1001 iterations, each splicing its tv1
 * slot.  At the tv1 boundaries: clk 0 cascades tv2[0], tv3[0], tv4[0],
 * tv5[0] (each index 0, so the next level goes too): 4; clk 256, 512,
 * 768 cascade tv2[1], tv2[2], tv2[3] and stop (index != 0): 3 more, 7 in
 * all.  Only tv2[3] holds the timer: 1 moved, into tv1[1000 & 255].
 *
 * With the skip: tv1_cnt is 0 (nothing went into tv1), so the boundaries
 * 0, 256 and 512 each pass their round in one iteration without a
 * splice; at 768 the cascade puts the timer in tv1 (tv1_cnt 1), so that
 * round is walked: 768..1000, 233 iterations and splices.  3 + 233 = 236
 * iterations; the same 7 cascades and 1 move.
 *
 * Levels: delta 1000 is in level 2 (LVL_START(2) = 504 <= 1000 < 4032),
 * granularity 64: bucket expiry ((1000 >> 6) + 1) << 6 = 1024.  Run at
 * 1024: one iteration, one bucket spliced, no cascade.
 */
Test(timer_wheels, catchup_counts_worked_example)
{
	static const struct {
		enum tw_kind kind;
		uint64_t run_at, iterations, cascades, moved, splices;
	} want[] = {
		{ TW_CLASSIC, 1000, 1001, 7, 1, 1001 },
		{ TW_CLASSIC_SKIP, 1000, 236, 7, 1, 233 },
		{ TW_LEVELS, 1024, 1, 0, 0, 1 },
	};
	static struct tw_wheel w;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct tw_timer t;
		struct log l = { 0 };

		tw_init(&w, want[i].kind, 1000, 0);
		timers_init(&t, 1);
		t.slack = 0;
		tw_mod_timer(&w, &t, 1000, 0);
		cr_assert_eq(tw_run(&w, want[i].run_at, record, &l),
			     want[i].iterations, "kind %u", i);
		cr_assert_eq(l.n, 1, "kind %u: fired once", i);
		cr_assert_eq(w.iterations, want[i].iterations, "kind %u", i);
		cr_assert_eq(w.cascades, want[i].cascades, "kind %u", i);
		cr_assert_eq(w.moved, want[i].moved, "kind %u", i);
		cr_assert_eq(w.splices, want[i].splices, "kind %u", i);
		free(l.v);
	}
}

/*
 * tw_init(): an empty wheel whose clock reads start (the kernel's base
 * clk is jiffies when the CPU's base is set up), and a softirq with
 * nothing due leaves it there on the levels wheel; the classic wheel's
 * catch-up moves an empty base's timer_jiffies to now.
 */
Test(timer_wheels, init_clock_reads_start)
{
	static const enum tw_kind kind[] = { TW_CLASSIC, TW_CLASSIC_SKIP,
					     TW_LEVELS };
	static struct tw_wheel w;
	struct log l = { 0 };
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(kind); i++) {
		tw_init(&w, kind[i], 250, S32 + 7);
		cr_assert_eq(w.clk, S32 + 7, "kind %u", i);
		cr_assert_eq(tw_run(&w, S32 + 7, record, &l), 0);
		cr_assert_eq(w.clk, S32 + 7, "kind %u", i);
	}
	cr_assert_eq(l.n, 0);
}
