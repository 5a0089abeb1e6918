/* timer-levels.c: the non-cascading timer wheel of v4.8+ (Gleixner, July
 * 2016; mainline kernel/time/timer.c; docs/kernel-model.md §8.2). */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "timer-wheel.h"

/*
 * LVL_DEPTH levels of 64 buckets; level n counts in units of 8^n jiffies
 * and takes the timers 63*8^(n-1) to 63*8^n - 1 jiffies from base->clk.
 * A timer never moves: it waits in its bucket until base->clk reaches the
 * bucket's expiry, its expires rounded up to the level's granularity and
 * always later than expires (level 0: expires + 1).  That rounding is the
 * implicit slack (up to 12.5%) that replaced apply_slack().  Buckets are
 * LIFO.  The softirq jumps base->clk straight to the next expiry, so idle
 * jiffies cost nothing.
 */

#define LVL_CLK_SHIFT	3
#define LVL_CLK_MASK	((1U << LVL_CLK_SHIFT) - 1)
#define LVL_MASK	(TW_LVL_SIZE - 1)
#define LVL_SHIFT(n)	((n) * LVL_CLK_SHIFT)
#define LVL_GRAN(n)	(1ULL << LVL_SHIFT(n))
/* First delta that level n (n >= 1) takes: 63 * 8^(n-1). */
#define LVL_START(n)	((uint64_t)(TW_LVL_SIZE - 1) << LVL_SHIFT((n) - 1))

/* Mainline's horizon for an empty base: next_expiry = clk + this. */
#define NEXT_TIMER_MAX_DELTA	((1ULL << 30) - 1)

static uint64_t timeout_cutoff(const struct tw_wheel *w)
{
	return LVL_START(w->depth);		/* WHEEL_TIMEOUT_CUTOFF */
}

static uint64_t timeout_max(const struct tw_wheel *w)
{
	/* WHEEL_TIMEOUT_MAX */
	return timeout_cutoff(w) - LVL_GRAN(w->depth - 1);
}

/*
 * calc_index(): the bucket of level lvl for expires, rounded up so the
 * timer cannot fire early: a timer armed just before a tick edge, or
 * truncated to a coarse level, still waits its full delta (tglx, 2020).
 * Written as (expires >> 3n) + 1 since 5.19; 4.8 wrote (expires + 8^n)
 * >> 3n, the same number.
 */
static unsigned calc_index(uint64_t expires, unsigned lvl,
			   uint64_t *bucket_expiry)
{
	expires = (expires >> LVL_SHIFT(lvl)) + 1;
	*bucket_expiry = expires << LVL_SHIFT(lvl);
	return lvl * TW_LVL_SIZE + (unsigned)(expires & LVL_MASK);
}

/*
 * calc_wheel_index(): level n for LVL_START(n) <= delta < LVL_START(n+1),
 * the last level for the rest.  An already expired timer (negative
 * delta) goes into the bucket of clk itself; one beyond the wheel's reach
 * is pulled in to clk + WHEEL_TIMEOUT_MAX (its own expires is left as
 * asked).
 */
static unsigned calc_wheel_index(const struct tw_wheel *w, uint64_t expires,
				 uint64_t clk, uint64_t *bucket_expiry)
{
	uint64_t delta = expires - clk;
	unsigned lvl;

	for (lvl = 0; lvl + 1 < w->depth; lvl++)
		if (delta < LVL_START(lvl + 1))
			return calc_index(expires, lvl, bucket_expiry);
	if ((int64_t)delta < 0) {
		*bucket_expiry = clk;
		return (unsigned)(clk & LVL_MASK);
	}
	if (delta >= timeout_cutoff(w))
		expires = clk + timeout_max(w);
	return calc_index(expires, w->depth - 1, bucket_expiry);
}

static void set_pending(struct tw_wheel *w, unsigned idx)
{
	w->pending_map[idx / TW_LVL_SIZE] |= 1ULL << (idx % TW_LVL_SIZE);
}

static bool test_and_clear_pending(struct tw_wheel *w, unsigned idx)
{
	uint64_t bit = 1ULL << (idx % TW_LVL_SIZE);
	bool was = w->pending_map[idx / TW_LVL_SIZE] & bit;

	w->pending_map[idx / TW_LVL_SIZE] &= ~bit;
	return was;
}

/* enqueue_timer(): at the head of its bucket (hlist_add_head: LIFO); a
 * new earliest bucket lowers next_expiry, which is then exact again. */
static void enqueue_timer(struct tw_wheel *w, struct tw_timer *t,
			  unsigned idx, uint64_t bucket_expiry)
{
	list_add(&t->entry, &w->v.vectors[idx]);
	set_pending(w, idx);
	t->idx = idx;
	w->nr_timers++;
	if (tw_before(bucket_expiry, w->next_expiry)) {
		w->next_expiry = bucket_expiry;
		w->next_expiry_recalc = false;
	}
}

/* detach_if_pending(): emptying a bucket clears its bit but leaves
 * next_expiry as it was (possibly early) for the next softirq or idle
 * entry to recompute. */
static int detach_if_pending(struct tw_wheel *w, struct tw_timer *t)
{
	struct list_head *bucket = &w->v.vectors[t->idx];

	if (!tw_timer_pending(t))
		return 0;
	if (t->entry.next == bucket && t->entry.prev == bucket) {
		test_and_clear_pending(w, t->idx);
		w->next_expiry_recalc = true;
	}
	list_del(&t->entry);
	w->nr_timers--;
	return 1;
}

/*
 * forward_timer_base(): before computing a delta, bring clk up to now,
 * but never past next_expiry (a bucket not yet run must not be
 * overtaken).  Mainline forwards unconditionally; 4.8-5.x did so only
 * for an idle base and gaps of 2+ jiffies.
 */
static void forward_timer_base(struct tw_wheel *w, uint64_t now)
{
	if (!tw_after(now, w->clk))
		return;
	if (tw_after(w->next_expiry, now))
		w->clk = now;
	else
		w->clk = w->next_expiry;
}

/*
 * __mod_timer() with and without MOD_TIMER_REDUCE.  A pending timer
 * re-armed to the same expires, or (reduce) to a later one, is left
 * alone; one whose new expiry lands in the bucket it already sits in
 * keeps its place in the bucket and only has expires updated.
 */
static int levels_mod(struct tw_wheel *w, struct tw_timer *t,
		      uint64_t expires, uint64_t now, bool reduce)
{
	uint64_t bucket_expiry = 0;
	unsigned idx = UINT_MAX;
	int ret;

	if (tw_timer_pending(t)) {
		int64_t diff = (int64_t)(t->expires - expires);

		if (!diff)
			return 1;
		if (reduce && diff <= 0)
			return 1;
		forward_timer_base(w, now);
		idx = calc_wheel_index(w, expires, w->clk, &bucket_expiry);
		if (idx == t->idx) {
			t->expires = expires;
			return 1;
		}
	} else {
		forward_timer_base(w, now);
	}
	ret = detach_if_pending(w, t);
	t->expires = expires;
	if (idx == UINT_MAX)
		idx = calc_wheel_index(w, expires, w->clk, &bucket_expiry);
	enqueue_timer(w, t, idx, bucket_expiry);
	return ret;
}

static int levels_del(struct tw_wheel *w, struct tw_timer *t, uint64_t now)
{
	return detach_if_pending(w, t);
}

/* Distance from bucket `from` to the next non-empty bucket of level lvl,
 * wrapping around; -1 if the level is empty. */
static int next_pending_bucket(const struct tw_wheel *w, unsigned lvl,
			       unsigned from)
{
	uint64_t m = w->pending_map[lvl];

	if (!m)
		return -1;
	if (from)
		m = (m >> from) | (m << (TW_LVL_SIZE - from));
	return __builtin_ctzll(m);
}

/*
 * __next_timer_interrupt(): the earliest bucket_expiry, from the bitmap.
 * Level n's clock is clk / 8^n rounded up (a partly elapsed unit of
 * level n has no bucket left to run); its first pending bucket from
 * there gives that level's next expiry.  Empty: clk + 2^30 - 1.
 */
static uint64_t next_timer_interrupt(const struct tw_wheel *w)
{
	uint64_t next = w->clk + NEXT_TIMER_MAX_DELTA, clk = w->clk;
	unsigned lvl;

	for (lvl = 0; lvl < w->depth; lvl++) {
		int pos = next_pending_bucket(w, lvl, clk & LVL_MASK);
		bool partial = clk & LVL_CLK_MASK;

		if (pos >= 0) {
			uint64_t e = (clk + (uint64_t)pos) << LVL_SHIFT(lvl);

			if (tw_before(e, next))
				next = e;
		}
		clk = (clk >> LVL_CLK_SHIFT) + partial;
	}
	return next;
}

/*
 * collect_expired_timers(): clk jumps to next_expiry; take level 0's
 * bucket for clk, and level n's only while the lower 3n bits of clk are
 * zero.  Returns how many buckets were taken, lowest level first.
 */
static unsigned collect_expired_timers(struct tw_wheel *w,
				       struct list_head *heads)
{
	uint64_t clk = w->clk = w->next_expiry;
	unsigned lvl, levels = 0;

	for (lvl = 0; lvl < w->depth; lvl++) {
		unsigned idx = lvl * TW_LVL_SIZE + (unsigned)(clk & LVL_MASK);

		if (test_and_clear_pending(w, idx)) {
			list_replace_init(&w->v.vectors[idx], &heads[levels++]);
			w->splices++;
		}
		if (clk & LVL_CLK_MASK)
			break;
		clk >>= LVL_CLK_SHIFT;
	}
	return levels;
}

/*
 * __run_timers(): while jiffies has reached both clk and next_expiry,
 * collect the buckets of next_expiry, step clk one past it (so a timer
 * re-armed for "now" lands in a later bucket rather than looping),
 * recompute next_expiry, and run the collected timers: the highest
 * level's bucket first, each bucket from its head.  One iteration per
 * expiry actually reached, whatever the gap.
 */
static uint64_t levels_run(struct tw_wheel *w, uint64_t now, tw_fn *fn,
			   void *arg)
{
	struct list_head heads[TW_LVL_DEPTH_MAX];
	uint64_t n = 0, at;
	unsigned levels;

	assert(!w->running);
	w->running = true;
	while (tw_after_eq(now, w->clk) && tw_after_eq(now, w->next_expiry)) {
		n++;
		levels = collect_expired_timers(w, heads);
		at = w->clk++;
		w->next_expiry = next_timer_interrupt(w);
		w->next_expiry_recalc = false;
		while (levels--) {
			struct list_head *h = &heads[levels];

			while (!list_empty(h)) {
				struct tw_timer *t = list_first_entry(h,
							struct tw_timer, entry);

				list_del(&t->entry);
				w->nr_timers--;
				fn(t, at, arg);
			}
		}
	}
	w->running = false;
	w->iterations += n;
	return n;
}

/* get_next_timer_interrupt(): recompute a stale next_expiry first. */
static bool levels_next_expiry(struct tw_wheel *w, uint64_t *next)
{
	if (w->next_expiry_recalc) {
		w->next_expiry = next_timer_interrupt(w);
		w->next_expiry_recalc = false;
	}
	if (!w->nr_timers)
		return false;
	*next = w->next_expiry;
	return true;
}

static const struct tw_ops levels_ops = {
	.mod = levels_mod,
	.del = levels_del,
	.run = levels_run,
	.next_expiry = levels_next_expiry,
};

void tw_levels_init(struct tw_wheel *w, unsigned hz, uint64_t start)
{
	unsigned i;

	/* counts, flags and pending_map 0; the lists below */
	memset(w, 0, offsetof(struct tw_wheel, v));
	w->ops = &levels_ops;
	w->kind = TW_LEVELS;
	w->clk = start;
	w->depth = hz > 100 ? TW_LVL_DEPTH_MAX : TW_LVL_DEPTH_MAX - 1;
	w->next_expiry = start + NEXT_TIMER_MAX_DELTA;
	for (i = 0; i < TW_LVL_DEPTH_MAX * TW_LVL_SIZE; i++)
		INIT_LIST_HEAD(&w->v.vectors[i]);
}
