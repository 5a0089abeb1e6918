/* timer-wheel.h: the kernel's two timer wheels (docs/kernel-model.md §8) as a
 * library, and the `mpsim timers` experiment built on them. */
#ifndef MPSIM_TIMER_WHEEL_H
#define MPSIM_TIMER_WHEEL_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/list.h"

/*
 * Three kinds share one interface:
 *   TW_CLASSIC       the cascading wheel of v4.7 and earlier
 *                    (kernel/timer.c, kernel/time/timer.c): exact-tick
 *                    firing, FIFO slots, one jiffy per catch-up iteration;
 *   TW_CLASSIC_SKIP  the same code with the large-gap skip of §8.3
 *                    (tv1_cnt): same firings, fewer iterations;
 *   TW_LEVELS        the non-cascading wheel of v4.8+ (mainline
 *                    kernel/time/timer.c): fires at bucket_expiry > expires,
 *                    LIFO buckets, jumps straight to the next expiry.
 *
 * Rules, as the kernel's:
 * - The caller owns every struct tw_timer; the wheel links it through
 *   t->entry and never allocates.  A timer is pending while it is linked.
 * - Nothing reads a clock: every call that the kernel makes against
 *   `jiffies` takes `now` (jiffies_64) from the caller.
 * - tw_run() is the timer softirq: it fires every due timer in the
 *   kernel's order and returns how many loop iterations that took.  The
 *   callback may re-arm or delete the timer it is given (it is no longer
 *   pending then), and arm or delete others; it must not call tw_run().
 *   On the classic wheel a callback that re-arms the only timer for a
 *   jiffy not after `now` runs again within the same call, as the kernel
 *   spins until the next tick; re-arm for now + 1 or later.
 * - All jiffies comparisons wrap as the kernel's time_after() does.
 */
enum tw_kind {
	TW_CLASSIC,		/* <= v4.7 cascading wheel */
	TW_CLASSIC_SKIP,	/* the same, with the §8.3 tv1_cnt skip */
	TW_LEVELS,		/* v4.8+ non-cascading wheel */
};

struct tw_timer {
	struct list_head entry;	/* slot or bucket link; empty: not pending */
	uint64_t expires;	/* jiffies; classic: after apply_slack() and
				   the tv5 clamp, as the kernel stores it */
	long slack;		/* classic: -1 default (delta/256 once delta
				   >= 256), >= 0 as set_timer_slack() */
	unsigned idx;		/* levels: bucket it sits in (timer_get_idx) */
	void *data;		/* the caller's */
};

/* Called for each expired timer; `at` is the wheel jiffy being processed
 * (classic: the slot's jiffy, levels: the bucket's expiry). */
typedef void tw_fn(struct tw_timer *t, uint64_t at, void *arg);

struct tw_wheel;

/* What differs between the two wheels; one const table per file. */
struct tw_ops {
	/* mod_timer(), or timer_reduce() when reduce: arm t for expires.
	 * Returns 1 if t was pending, else 0. */
	int (*mod)(struct tw_wheel *w, struct tw_timer *t, uint64_t expires,
		   uint64_t now, bool reduce);
	/* del_timer(): returns 1 if t was pending, else 0. */
	int (*del)(struct tw_wheel *w, struct tw_timer *t, uint64_t now);
	uint64_t (*run)(struct tw_wheel *w, uint64_t now, tw_fn *fn,
			void *arg);
	bool (*next_expiry)(struct tw_wheel *w, uint64_t *next);
};

#define TVR_SIZE	256	/* classic tv1 slots (TVR_BITS 8) */
#define TVN_SIZE	64	/* classic tv2..tv5 slots (TVN_BITS 6) */
#define TW_LVL_SIZE	64	/* levels: buckets per level */
#define TW_LVL_DEPTH_MAX 9	/* levels: LVL_DEPTH when HZ > 100 */

/* One per-CPU timer base.  Caller-allocated; set up with tw_init(). */
struct tw_wheel {
	const struct tw_ops *ops;
	enum tw_kind kind;
	uint64_t clk;		/* classic: timer_jiffies, next jiffy to
				   run; levels: base->clk */
	unsigned long nr_timers; /* timers queued (classic: all_timers) */
	uint64_t iterations;	/* catch-up loop iterations, all runs */
	/* What those iterations did, in the terms of Wang's mail (§8.3),
	 * all runs: */
	uint64_t cascades;	/* classic: cascade() calls, one tv2..tv5
				   slot each (empty ones too) */
	uint64_t moved;		/* classic: timers a cascade re-inserted */
	uint64_t splices;	/* slots (classic tv1) or buckets (levels)
				   spliced off to be run */
	bool running;		/* inside tw_run() */

	/* classic */
	bool skip;		/* TW_CLASSIC_SKIP */
	unsigned long tv1_cnt;	/* §8.3: timers put in tv1 since the last
				   processed tv1 boundary */

	/* levels */
	unsigned depth;		/* LVL_DEPTH: 9 if HZ > 100, else 8 */
	uint64_t next_expiry;	/* earliest bucket_expiry, or clk + 2^30
				   - 1 when empty; may be early after a
				   delete (next_expiry_recalc) */
	bool next_expiry_recalc; /* a bucket emptied by a delete */
	uint64_t pending_map[TW_LVL_DEPTH_MAX]; /* bit: bucket not empty */

	union {
		struct {
			struct list_head tv1[TVR_SIZE];
			struct list_head tvn[4][TVN_SIZE];	/* tv2..tv5 */
		} c;
		struct list_head vectors[TW_LVL_DEPTH_MAX * TW_LVL_SIZE];
	} v;
};

/* timer-classic.c and timer-levels.c */
void tw_classic_init(struct tw_wheel *w, bool skip, uint64_t start);
void tw_levels_init(struct tw_wheel *w, unsigned hz, uint64_t start);

static inline bool tw_after(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) < 0;
}

static inline bool tw_after_eq(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) >= 0;
}

static inline bool tw_before(uint64_t a, uint64_t b)
{
	return tw_after(b, a);
}

/* An empty wheel whose clock reads start (jiffies_64); hz only matters to
 * the levels wheel (its depth). */
static inline void tw_init(struct tw_wheel *w, enum tw_kind kind, unsigned hz,
			   uint64_t start)
{
	if (kind == TW_LEVELS)
		tw_levels_init(w, hz, start);
	else
		tw_classic_init(w, kind == TW_CLASSIC_SKIP, start);
}

/* timer_setup(): not pending, default slack. */
static inline void tw_timer_init(struct tw_timer *t, void *data)
{
	INIT_LIST_HEAD(&t->entry);
	t->expires = 0;
	t->slack = -1;
	t->idx = 0;
	t->data = data;
}

static inline bool tw_timer_pending(const struct tw_timer *t)
{
	return !list_empty(&t->entry);
}

/* add_timer(): arm a timer that is not pending for t->expires. */
static inline void tw_add_timer(struct tw_wheel *w, struct tw_timer *t,
				uint64_t now)
{
	assert(!tw_timer_pending(t));
	w->ops->mod(w, t, t->expires, now, false);
}

/* mod_timer(): (re)arm for expires; returns 1 if it was pending. */
static inline int tw_mod_timer(struct tw_wheel *w, struct tw_timer *t,
			       uint64_t expires, uint64_t now)
{
	return w->ops->mod(w, t, expires, now, false);
}

/* timer_reduce(): like mod_timer, but a pending timer only ever moves
 * earlier (dm-delay arms its single timer this way, docs/kernel-model.md §7.3).  The
 * classic wheel predates it (v4.15): there it is what dm-delay wrote
 * instead, mod_timer() unless pending and not earlier. */
static inline int tw_timer_reduce(struct tw_wheel *w, struct tw_timer *t,
				  uint64_t expires, uint64_t now)
{
	return w->ops->mod(w, t, expires, now, true);
}

/* del_timer(): returns 1 if it was pending. */
static inline int tw_del_timer(struct tw_wheel *w, struct tw_timer *t,
			       uint64_t now)
{
	return w->ops->del(w, t, now);
}

/* The timer softirq at jiffies `now`: fires every due timer through fn,
 * returns the loop iterations it took (0: nothing was due). */
static inline uint64_t tw_run(struct tw_wheel *w, uint64_t now, tw_fn *fn,
			      void *arg)
{
	return w->ops->run(w, now, fn, arg);
}

/* The jiffy at which the next tw_run() has work: what a NOHZ-idle CPU
 * programs its wake-up for.  Returns false when no timer is queued. */
static inline bool tw_next_expiry(struct tw_wheel *w, uint64_t *next)
{
	return w->ops->next_expiry(w, next);
}

#endif
