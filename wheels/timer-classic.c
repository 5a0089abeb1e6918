/* timer-classic.c: the cascading timer wheel of v4.7 and earlier
 * (kernel/timer.c, then kernel/time/timer.c; docs/kernel-model.md §8.1), with the
 * large-gap skip of §8.3 as an option of the same loop. */
#include <stddef.h>
#include <string.h>

#include "timer-wheel.h"

/*
 * tv1 holds 256 one-jiffy slots; tv2..tv5 hold 64 slots of 2^8, 2^14,
 * 2^20 and 2^26 jiffies.  A timer goes into the level its distance from
 * timer_jiffies selects and is re-inserted lower down (cascaded) when
 * timer_jiffies reaches the start of its slot; so it fires exactly at
 * the softirq that processes jiffy `expires`.  Slots are FIFO lists.  The
 * softirq walks timer_jiffies up to jiffies one jiffy per iteration: a
 * NOHZ-idle gap of g jiffies costs g iterations, the cost §8.3 removes.
 */

#define TVR_BITS	8
#define TVN_BITS	6
#define TVR_MASK	(TVR_SIZE - 1)
#define TVN_MASK	(TVN_SIZE - 1)
#define MAX_TVAL	0xffffffffULL	/* tv5's reach on 64-bit */

/* The slot of tv(n + 2) that jiffy j falls in; for timer_jiffies this
 * is the kernel's INDEX(n). */
static unsigned tvn_index(uint64_t j, unsigned n)
{
	return (j >> (TVR_BITS + n * TVN_BITS)) & TVN_MASK;
}

/*
 * apply_slack() (v2.6.36-v4.7, called by mod_timer and add_timer): with
 * the default slack of -1 a timer at least 256 jiffies away may be
 * deferred by delta/256 (0.39%), and with an explicit slack by that many
 * jiffies; the deadline is then rounded down at the highest bit in which
 * it differs from expires, so that timers due at nearby jiffies collapse
 * onto one and the CPU wakes less often.
 */
static uint64_t apply_slack(const struct tw_timer *t, uint64_t expires,
			    uint64_t now)
{
	uint64_t limit, mask;
	int bit;

	if (t->slack >= 0) {
		limit = expires + (uint64_t)t->slack;
	} else {
		int64_t delta = (int64_t)(expires - now);

		if (delta < 256)
			return expires;
		limit = expires + (uint64_t)(delta / 256);
	}
	mask = expires ^ limit;
	if (!mask)
		return expires;
	bit = 63 - __builtin_clzll(mask);
	return limit & ~((1ULL << bit) - 1);
}

/*
 * __internal_add_timer(): the insert table of docs/kernel-model.md §8.1, relative to
 * timer_jiffies.  A timer already due goes into the slot about to run;
 * one beyond tv5's reach is pulled in to timer_jiffies + MAX_TVAL (and
 * its expires changed to match).  Every placement into tv1 counts in
 * tv1_cnt, which only the §8.3 skip reads.
 */
static void __internal_add_timer(struct tw_wheel *w, struct tw_timer *t)
{
	uint64_t idx = t->expires - w->clk;
	struct list_head *vec;

	if (idx < TVR_SIZE) {
		vec = &w->v.c.tv1[t->expires & TVR_MASK];
		w->tv1_cnt++;
	} else if (idx < 1ULL << (TVR_BITS + TVN_BITS)) {
		vec = &w->v.c.tvn[0][tvn_index(t->expires, 0)];
	} else if (idx < 1ULL << (TVR_BITS + 2 * TVN_BITS)) {
		vec = &w->v.c.tvn[1][tvn_index(t->expires, 1)];
	} else if (idx < 1ULL << (TVR_BITS + 3 * TVN_BITS)) {
		vec = &w->v.c.tvn[2][tvn_index(t->expires, 2)];
	} else if ((int64_t)idx < 0) {
		vec = &w->v.c.tv1[w->clk & TVR_MASK];
		w->tv1_cnt++;
	} else {
		if (idx > MAX_TVAL) {
			idx = MAX_TVAL;
			t->expires = w->clk + idx;
		}
		vec = &w->v.c.tvn[3][tvn_index(t->expires, 3)];
	}
	list_add_tail(&t->entry, vec);
}

/*
 * internal_add_timer(): catchup_timer_jiffies() (v3.19+, docs/kernel-model.md
 * §8.1) first moves an empty base's timer_jiffies to jiffies, so the next
 * catch-up does not walk the idle time.  This also applies to a callback
 * re-arming the only timer: the one just fired is no longer counted, so
 * timer_jiffies goes back from `at` + 1 to `now`.
 */
static void internal_add_timer(struct tw_wheel *w, struct tw_timer *t,
			       uint64_t now)
{
	if (!w->nr_timers++)
		w->clk = now;
	__internal_add_timer(w, t);
}

/* The "newly emptied list" half of catchup_timer_jiffies(). */
static int detach_if_pending(struct tw_wheel *w, struct tw_timer *t,
			     uint64_t now)
{
	if (!tw_timer_pending(t))
		return 0;
	list_del(&t->entry);
	if (!--w->nr_timers)
		w->clk = now;
	return 1;
}

/*
 * mod_timer() and add_timer(): slack first, then the "re-armed to the
 * same expiry" early return, then unlink and insert at the tail of the
 * new slot.  timer_reduce() did not exist before v4.15; the reduce flag
 * gives what its users wrote on these kernels (dm-delay: re-arm only if
 * not pending or the new expiry is before the stored one).
 */
static int classic_mod(struct tw_wheel *w, struct tw_timer *t,
		       uint64_t expires, uint64_t now, bool reduce)
{
	int ret;

	if (reduce && tw_timer_pending(t) && !tw_before(expires, t->expires))
		return 1;
	expires = apply_slack(t, expires, now);
	if (tw_timer_pending(t) && t->expires == expires)
		return 1;
	ret = detach_if_pending(w, t, now);
	t->expires = expires;
	internal_add_timer(w, t, now);
	return ret;
}

static int classic_del(struct tw_wheel *w, struct tw_timer *t, uint64_t now)
{
	return detach_if_pending(w, t, now);
}

/* cascade(): re-insert every timer of tvN[index] (N = n + 2) in list
 * order; returns index, so the caller goes one level further up only
 * when this level also wrapped to 0. */
static unsigned cascade(struct tw_wheel *w, unsigned n, unsigned index)
{
	struct list_head moving;
	struct tw_timer *t, *tmp;

	w->cascades++;
	list_replace_init(&w->v.c.tvn[n][index], &moving);
	list_for_each_entry_safe(t, tmp, &moving, entry) {
		list_del(&t->entry);
		__internal_add_timer(w, t);
		w->moved++;
	}
	return index;
}

/*
 * __run_timers(): one iteration per jiffy from timer_jiffies to `now`.
 * At a tv1 boundary (index 0) tv2's slot cascades, then tv3's only if
 * tv2's index was 0 too, and so on.  Then timer_jiffies advances and
 * tv1[index] runs in list order.  Once the base is empty the walk stops
 * and timer_jiffies jumps to jiffies (catchup_timer_jiffies(), for an
 * empty and for a newly emptied list); a callback re-arming the last
 * timer sets it back to jiffies too (internal_add_timer), which costs
 * one more iteration over the jiffy just run.
 *
 * With the §8.3 skip, at a boundary after the cascade: if nothing was put
 * into tv1 since the last processed boundary, tv1 is empty (every entry
 * it held was due within the round already walked), so the whole round,
 * or what is left of the gap, is passed in one iteration.  Otherwise
 * tv1_cnt restarts and the round is walked jiffy by jiffy.  Boundaries
 * are still visited one by one, so cascades and firings are unchanged.
 */
static uint64_t classic_run(struct tw_wheel *w, uint64_t now, tw_fn *fn,
			    void *arg)
{
	struct list_head work;
	struct tw_timer *t;
	uint64_t n = 0, at;
	unsigned index;

	assert(!w->running);
	w->running = true;
	while (tw_after_eq(now, w->clk)) {
		if (!w->nr_timers) {
			w->clk = now;	/* catchup_timer_jiffies() */
			break;
		}
		n++;
		index = w->clk & TVR_MASK;
		if (!index && !cascade(w, 0, tvn_index(w->clk, 0)) &&
		    !cascade(w, 1, tvn_index(w->clk, 1)) &&
		    !cascade(w, 2, tvn_index(w->clk, 2)))
			cascade(w, 3, tvn_index(w->clk, 3));
		if (w->skip && !index) {
			if (!w->tv1_cnt) {
				uint64_t left = now - w->clk + 1;

				w->clk += left < TVR_SIZE - index ?
					  left : TVR_SIZE - index;
				continue;
			}
			w->tv1_cnt = 0;
		}
		at = w->clk++;
		w->splices++;
		list_replace_init(&w->v.c.tv1[index], &work);
		while (!list_empty(&work)) {
			t = list_first_entry(&work, struct tw_timer, entry);
			list_del(&t->entry);
			w->nr_timers--;
			fn(t, at, arg);
		}
	}
	w->running = false;
	w->iterations += n;
	return n;
}

/* Earliest firing jiffy among the timers of one slot list. */
static void slot_earliest(const struct tw_wheel *w, const struct list_head *h,
			  bool *found, uint64_t *best)
{
	const struct tw_timer *t;

	list_for_each_entry(t, h, entry) {
		uint64_t e = tw_before(t->expires, w->clk) ? w->clk : t->expires;

		if (!*found || tw_before(e, *best))
			*best = e;
		*found = true;
	}
}

/* The earliest jiffy holding a timer (a due one fires at timer_jiffies):
 * the kernel's next_timer, found here by walking every slot. */
static bool classic_next_expiry(struct tw_wheel *w, uint64_t *next)
{
	bool found = false;
	uint64_t best = 0;
	unsigned i, n;

	for (i = 0; i < TVR_SIZE; i++)
		slot_earliest(w, &w->v.c.tv1[i], &found, &best);
	for (n = 0; n < 4; n++)
		for (i = 0; i < TVN_SIZE; i++)
			slot_earliest(w, &w->v.c.tvn[n][i], &found, &best);
	if (found)
		*next = best;
	return found;
}

static const struct tw_ops classic_ops = {
	.mod = classic_mod,
	.del = classic_del,
	.run = classic_run,
	.next_expiry = classic_next_expiry,
};

void tw_classic_init(struct tw_wheel *w, bool skip, uint64_t start)
{
	unsigned i, n;

	/* counts and flags 0; the lists below */
	memset(w, 0, offsetof(struct tw_wheel, v));
	w->ops = &classic_ops;
	w->kind = skip ? TW_CLASSIC_SKIP : TW_CLASSIC;
	w->clk = start;
	w->skip = skip;
	for (i = 0; i < TVR_SIZE; i++)
		INIT_LIST_HEAD(&w->v.c.tv1[i]);
	for (n = 0; n < 4; n++)
		for (i = 0; i < TVN_SIZE; i++)
			INIT_LIST_HEAD(&w->v.c.tvn[n][i]);
}
