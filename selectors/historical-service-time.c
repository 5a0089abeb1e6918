/*
 * historical-service-time.c: the "historical-service-time" path selector,
 * mirroring drivers/md/dm-ps-historical-service-time.c (docs/kernel-model.md §3).
 *
 * What HST estimates, and how.  For every path it keeps a time-weighted
 * exponential moving average of the service time of completed I/O (hst,
 * 10-bit fixed point, in ns).  A sample's weight depends on its own
 * length: service times are cut into 64 buckets of 2^24 ns (~16.8 ms), a
 * sample in bucket i counts as i+1 elapsed periods and keeps base^(i+1) of
 * the history, and a sample of 63 buckets or more discards the history
 * altogether.  The weights are precomputed at create time with the
 * kernel's integer fixed_power().  A sample is measured from the later of
 * the I/O's start and the path's previous completion, as if requests were
 * submitted one at a time.  The expected service time of a new I/O on a
 * path is (1 + outstanding) * hst, and select_path picks the smallest.
 * Paths whose estimates lie within threshold_multiplier of each other are
 * compared by outstanding count alone.  A path that has completed nothing
 * for valid_count * hst since its last completion is "stale": when idle it
 * is sent a probe request, and when it wins while loaded it only gets an
 * equal share of outstanding requests, since its estimate may be too
 * optimistic.
 *
 * The kernel reads sched_clock()/ktime_get_ns() inside select_path and
 * end_io; here the caller hands `now` in.  Everything else, including the
 * u64/s64 arithmetic and its wrap-arounds, follows the kernel exactly;
 * each copied decision is labelled with the docs/kernel-model.md section it comes
 * from.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/list.h"
#include "sim/sim.h"
#include "keyed.h"
#include "selector.h"

#define HST_MIN_IO		1	/* default repeat_count (never used) */

#define HST_FIXED_SHIFT		10	/* fixed point: 10 fractional bits */
#define HST_FIXED_1		(1ULL << HST_FIXED_SHIFT)	/* 1.0 */
#define HST_FIXED_MAX		(UINT64_MAX >> HST_FIXED_SHIFT)	/* clamp */
#define HST_FIXED_95		972	/* default base weight, ~0.949 */
#define HST_MAX_INFLIGHT	1024	/* outstanding: overflow guard */
#define HST_BUCKET_SHIFT	24	/* bucket width 2^24 ns, ~16.8 ms */
#define HST_WEIGHT_COUNT	64	/* number of weight buckets */

/*
 * How the valid list is held: by list keys (keyed.h).  When every valid
 * path is "plain" (hst_key below) and at most one is idle, or the
 * winner is busy (hst_select_path), the kernel's walk ends at the last
 * path in list order of least (1 + outstanding) * hst: the least cost
 * and, among equals, the greatest key.  That is a minimum, which a scan
 * of two arrays by path number (cost, stale_after) finds in whatever
 * order they hold the paths (hst_least); counts kept as paths change say whether every path
 * is plain.  Otherwise the kernel's walk is run in list order, pair by
 * pair: hst_compare() is not transitive, so its winner can depend on
 * the order.
 */

/* The selector's state (ps->context, zeroed by the core). */
struct selector {
	struct ps_keyed list;		/* the valid list (keyed.h) */
	/* by path number, what hst_least() reads: an invalid path has cost
	 * UINT64_MAX and stale_after UINT64_MAX, and loses to every valid
	 * one that is plain */
	uint64_t *cost;			/* (1 + outstanding) * hst */
	uint64_t *stale;		/* stale_after */
	unsigned nr_zero;		/* valid paths with hst 0 */
	unsigned nr_big;		/* ... with outstanding >= 1024 (or
					   wrapped) */
	unsigned nr_idle;		/* ... with outstanding 0 */
	struct list_head failed_paths;	/* order irrelevant */
	int valid_count;		/* the kernel's count: fail_path()s
					   and reinstate_path()s */
	uint32_t weights[HST_WEIGHT_COUNT]; /* EMA weight per bucket */
	uint32_t threshold_multiplier;	/* "similar" estimate factor */
};

/* Per-path state (path->ps_ctx, zeroed by the core). */
struct path_info {
	struct ps_node node;		/* valid, number (its place in the
					   arrays hst_least() reads), list
					   key */
	struct list_head list;		/* on failed_paths when !valid */
	unsigned counted;		/* what nr_zero, nr_big and nr_idle
					   count of it (HST_C_*) */
	struct ps_path *path;		/* the framework's path */
	unsigned repeat_count;		/* stored, never used (§2.5) */
	uint64_t historical_service_time; /* EMA, fixed point ns */
	uint64_t stale_after;		/* stale when idle after this */
	uint64_t last_finish;		/* ns of the latest completion */
	uint64_t outstanding;		/* start_io - end_io, may wrap */
	/* Not in the kernel: what the latest end_io charged, kept only so
	 * that status(PS_STATUS_TRACE) can show the sample and its weight
	 * (two stores to a line end_io writes anyway). */
	uint64_t last_service;		/* the service time charged, ns */
	uint32_t last_weight;		/* the EMA weight it was given */
};

#define hst_of(n)	container_of(n, struct path_info, node)

/*
 * x^n for x in fixed point with frac_bits fractional bits, by repeated
 * squaring, rounding half up after every multiply.  This is the kernel's
 * iterative algorithm and must stay so: its intermediate roundings give
 * 832 for 972^4, where exact rounding gives 831 (§3.4, §9.6).
 */
static uint64_t fixed_power(uint64_t x, unsigned frac_bits, unsigned n)
{
	uint64_t result = 1ULL << frac_bits;
	uint64_t half = 1ULL << (frac_bits - 1);

	if (n) {
		for (;;) {
			if (n & 1)
				result = (result * x + half) >> frac_bits;
			n >>= 1;
			if (!n)
				break;
			x = (x * x + half) >> frac_bits;
		}
	}
	return result;
}

/*
 * One EMA step: last * w + next * (1 - w), fixed point, rounded half up
 * (§3.5).  last and next are at most HST_FIXED_MAX and weight at most
 * HST_FIXED_1, so the u64 sum cannot overflow.
 */
static uint64_t fixed_ema(uint64_t last, uint64_t next, uint64_t weight)
{
	last *= weight;
	last += next * (HST_FIXED_1 - weight);
	last += 1ULL << (HST_FIXED_SHIFT - 1);
	return last >> HST_FIXED_SHIFT;
}

/* The weight of a sample of delta ns: bucket min(delta >> 24, 63) (§3.5). */
static uint64_t hst_weight(const struct selector *s, uint64_t delta)
{
	uint64_t bucket = delta >> HST_BUCKET_SHIFT;

	if (bucket > HST_WEIGHT_COUNT - 1)
		bucket = HST_WEIGHT_COUNT - 1;
	return s->weights[bucket];
}

/*
 * weights[i] = base^(i+1) for i < 63, weights[63] = 0, so that a sample
 * of 63 buckets or more wipes the history (§3.4).
 */
static void hst_set_weights(struct selector *s, unsigned base)
{
	unsigned i;

	for (i = 0; i < HST_WEIGHT_COUNT - 1; i++)
		s->weights[i] = (uint32_t)fixed_power(base, HST_FIXED_SHIFT,
						      i + 1);
	s->weights[HST_WEIGHT_COUNT - 1] = 0;
}

/* What nr_zero, nr_big and nr_idle count of a valid path. */
#define HST_C_ZERO	1	/* hst 0 */
#define HST_C_BIG	2	/* outstanding >= HST_MAX_INFLIGHT */
#define HST_C_IDLE	4	/* outstanding 0 */

/* After a change of pi (its counts, estimate, freshness or validity):
 * what hst_least() reads of it, and the counts. */
static void hst_update(struct selector *s, struct path_info *pi)
{
	uint64_t out = pi->outstanding;
	unsigned c = 0, was = pi->counted, nr = pi->node.nr;

	s->cost[nr] = UINT64_MAX;
	s->stale[nr] = UINT64_MAX;
	if (pi->node.valid) {
		c = (pi->historical_service_time ? 0 : HST_C_ZERO) |
		    (out >= HST_MAX_INFLIGHT ? HST_C_BIG : 0) |
		    (out ? 0 : HST_C_IDLE);
		s->cost[nr] = (1 + out) * pi->historical_service_time;
		s->stale[nr] = pi->stale_after;
	}
	/* no test of c != was: idleness changes about every other I/O */
	s->nr_zero += !!(c & HST_C_ZERO) - !!(was & HST_C_ZERO);
	s->nr_big += !!(c & HST_C_BIG) - !!(was & HST_C_BIG);
	s->nr_idle += !!(c & HST_C_IDLE) - !!(was & HST_C_IDLE);
	pi->counted = c;
}

static int hst_create(struct path_selector *ps, int argc, char **argv,
		      char *error)
{
	struct selector *s = ps->context;
	unsigned base_weight = HST_FIXED_95;
	unsigned threshold_multiplier = 0;

	/*
	 * Arguments: [<base_weight> [<threshold_multiplier>]]  (§3.2)
	 *   <base_weight>: EMA base weight in [0, 1024), 10-bit fixed
	 *	point; 0 ignores all history.  Default HST_FIXED_95 (972).
	 *   <threshold_multiplier>: paths whose estimates differ by no more
	 *	than this factor are compared by outstanding count only.
	 *	Default 0.
	 */
	if (argc > 2)
		return input_error(error,
			"historical-service-time ps: incorrect number of arguments");

	if (argc > 0 && (ps_parse_uint(argv[0], &base_weight) ||
			 base_weight >= HST_FIXED_1))
		return input_error(error,
			"historical-service-time ps: invalid base weight '%s' "
			"(want 0-1023)", argv[0]);

	if (argc > 1 && ps_parse_uint(argv[1], &threshold_multiplier))
		return input_error(error,
			"historical-service-time ps: "
			"invalid threshold multiplier '%s'", argv[1]);

	INIT_LIST_HEAD(&s->failed_paths);
	s->valid_count = 0;
	hst_set_weights(s, base_weight);
	s->threshold_multiplier = threshold_multiplier;
	return 0;
}

static void hst_destroy(struct path_selector *ps)
{
	struct selector *s = ps->context;

	ps_keyed_free(&s->list);
	free(s->cost);
	free(s->stale);
}

static int hst_add_path(struct path_selector *ps, struct ps_path *path,
			int argc, char **argv, char *error)
{
	struct selector *s = ps->context;
	struct path_info *pi = path->ps_ctx;
	unsigned repeat_count = HST_MIN_IO;

	/*
	 * Arguments: [<repeat_count>]  (§3.2)
	 *   <repeat_count>: I/Os before switching path.  Stored and never
	 *	used, as in the kernel (§2.5).  Default HST_MIN_IO (1).
	 */
	if (argc > 1)
		return input_error(error,
			"historical-service-time ps: incorrect number of arguments");

	if (argc > 0 && ps_parse_uint(argv[0], &repeat_count))
		return input_error(error,
			"historical-service-time ps: invalid repeat count '%s'",
			argv[0]);
	/* not the kernel's: the numbering's bound (a scenario has far
	 * fewer paths, input/scenario.h) */
	if (!ps_keyed_add(&s->list, &pi->node))
		return input_error(error, "historical-service-time ps: more "
				   "than %u paths", PS_KEYED_MAX);

	pi->path = path;
	pi->repeat_count = repeat_count;
	pi->historical_service_time = HST_FIXED_1;	/* 1 ns (§3.3) */
	pi->outstanding = 0;
	pi->stale_after = 0;	/* never completed: stale when idle (§9.3) */
	pi->last_finish = 0;

	s->cost = xrealloc(s->cost, s->list.cap * sizeof(*s->cost));
	s->stale = xrealloc(s->stale, s->list.cap * sizeof(*s->stale));
	/* Table order becomes list order (§2.1, §3.3). */
	ps_keyed_valid(&s->list, &pi->node, true);
	ps_keyed_tail(&s->list, &pi->node);
	hst_update(s, pi);
	s->valid_count++;
	return 0;
}

/* A failed path goes to the head of the failed list (§3.3). */
static void hst_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct selector *s = ps->context;
	struct path_info *pi = path->ps_ctx;

	if (!ps_keyed_valid(&s->list, &pi->node, false))
		list_del(&pi->list);
	list_add(&pi->list, &s->failed_paths);
	hst_update(s, pi);
	s->valid_count--;
}

/* A reinstated path goes to the tail of the valid list (§3.3, §9.11). */
static int hst_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct selector *s = ps->context;
	struct path_info *pi = path->ps_ctx;

	if (!ps_keyed_valid(&s->list, &pi->node, true))
		list_del(&pi->list);
	ps_keyed_tail(&s->list, &pi->node);
	hst_update(s, pi);
	s->valid_count++;
	return 0;
}

/*
 * Compare the expected service time of a new I/O on pi1 and on pi2 at
 * time now (§3.8).
 *
 * Returns:
 * < 0 : pi1 is better
 * 0   : no difference between pi1 and pi2
 * > 0 : pi2 is better
 *
 * out and stale are held as s64 and hst as u64, as in the kernel: the
 * only signed decision is the overflow guard's `out >= 1024`, and the
 * stale < now tests convert stale back to u64.  Differences are taken in
 * u64 and converted, which is the kernel's wrapping signed arithmetic
 * (-fno-strict-overflow) without C's undefined behaviour.
 */
static int64_t hst_compare(const struct path_info *pi1,
			   const struct path_info *pi2, uint64_t now,
			   const struct selector *s)
{
	uint64_t hst1 = pi1->historical_service_time;
	uint64_t hst2 = pi2->historical_service_time;
	int64_t out1 = (int64_t)pi1->outstanding;
	int64_t out2 = (int64_t)pi2->outstanding;
	int64_t stale1 = (int64_t)pi1->stale_after;
	int64_t stale2 = (int64_t)pi2->stale_after;
	int64_t out_diff = (int64_t)((uint64_t)out1 - (uint64_t)out2);
	int over_threshold, pi2_better;

	/*
	 * Case 1: estimates too similar, compare outstanding only.  The
	 * test is `larger > T * smaller` (u64 product), so with T = 0 only
	 * two zero estimates count as similar and with T = 1 only exactly
	 * equal ones: the kernel comment's "1 or 0 has no effect" does not
	 * hold at equality (§3.8 step 1, §9.2) — kept because the kernel
	 * does it.
	 */
	if (hst1 > hst2)
		over_threshold = hst1 > s->threshold_multiplier * hst2;
	else
		over_threshold = hst2 > s->threshold_multiplier * hst1;

	if (!over_threshold)
		return out_diff;

	/*
	 * Case 2: an idle stale path gets a probe; of two idle paths the
	 * one stale for longer wins.  The result [out2==0]*stale1 -
	 * [out1==0]*stale2 is 0, a tie, when the other path's stale_after
	 * is 0, i.e. it never completed an I/O (§3.8 step 2, §9.3) — kept
	 * because the kernel does it.
	 */
	if ((!out1 && (uint64_t)stale1 < now) ||
	    (!out2 && (uint64_t)stale2 < now) ||
	    (!out1 && !out2))
		return (int64_t)((out2 ? 0 : (uint64_t)stale1) -
				 (out1 ? 0 : (uint64_t)stale2));

	/* Case 3: expected service time (1 + out) * hst (§3.8 step 3). */
	if (out1 == out2) {
		pi2_better = hst1 > hst2;
	} else {
		/*
		 * Overflow guard: from 1024 outstanding on either path, drop
		 * the fractional bits of both estimates (signed test, as the
		 * kernel's) (§3.8 step 3) — kept because the kernel does it.
		 */
		if (out1 >= HST_MAX_INFLIGHT || out2 >= HST_MAX_INFLIGHT) {
			hst1 >>= HST_FIXED_SHIFT;
			hst2 >>= HST_FIXED_SHIFT;
		}
		pi2_better = (1 + (uint64_t)out1) * hst1 >
			     (1 + (uint64_t)out2) * hst2;
	}

	/*
	 * Case 4: a stale winner only gets an equal share of outstanding
	 * I/O.  An exactly equal estimate falls to pi1 and returns -1, so
	 * in select_path the later list entry (the most recently used path)
	 * wins such ties, contrary to the kernel comment's "least preferred
	 * in case of ties" (§3.8 step 4, §3.9, §9.1) — kept because the
	 * kernel does it.
	 */
	if (pi2_better) {
		if ((uint64_t)stale2 < now)
			return out_diff;
		return 1;
	}
	if ((uint64_t)stale1 < now)
		return out_diff;
	return -1;
}

/*
 * What hst_compare() reduces to for most pairs, so that the walk need
 * not run all of it per path.  A path is "plain" at now when
 * threshold_multiplier is 0, its estimate is not 0, its outstanding
 * count is below HST_MAX_INFLIGHT (not wrapped) and it is not stale.
 * For two plain paths that are not both idle, hst_compare() returns -1
 * exactly when cost1 <= cost2, with cost = (1 + outstanding) * hst, and 1
 * otherwise:
 *  - case 1: with T = 0 the estimates are "similar" only when both are
 *    0, and neither is;
 *  - case 2 needs an idle stale path, or two idle paths;
 *  - case 3: the guard does not fire below 1024, the products cannot
 *    overflow ((1 + 1023) * hst <= 2^10 * HST_FIXED_MAX < 2^64), and with
 *    equal counts comparing the products is comparing the estimates;
 *  - case 4: neither path is stale, so pi2_better gives 1 and else -1.
 * Every other pair is handed to hst_compare().
 */
struct hst_key {
	uint64_t cost;		/* (1 + outstanding) * hst, when plain */
	bool plain;
	bool idle;		/* outstanding == 0 */
};

static inline struct hst_key hst_key_of(const struct path_info *pi,
					uint64_t now, bool t0)
{
	uint64_t out = pi->outstanding, hst = pi->historical_service_time;
	struct hst_key k;

	k.plain = t0 && hst && out < HST_MAX_INFLIGHT &&
		  !(pi->stale_after < now);
	k.idle = !out;
	k.cost = (1 + out) * hst;
	return k;
}

/*
 * The path of least cost and, of equal costs, greatest list key, and the
 * least stale_after of the valid paths (*min_stale): one pass over the
 * arrays in path-number order.  The fold keeps only the cost to beat and
 * whether it was met twice (tie); a tie, which needs two equal products
 * of 64 bits, is settled by a second pass over the paths of that cost.
 */
static struct path_info *hst_least(const struct selector *s,
				   uint64_t *min_stale)
{
	const uint64_t *cost = s->cost, *stale = s->stale;
	uint64_t bc = cost[0], ms = stale[0];
	unsigned i, n = s->list.nr_paths, b = 0;
	bool tie = false;

	for (i = 1; i < n; i++) {
		uint64_t c = cost[i], st = stale[i];

		bool lt = c < bc, eq = c == bc;

		/* bitwise: a branch would mispredict on the coin tosses */
		tie = (tie & !lt) | eq;
		b = lt ? i : b;
		bc = lt ? c : bc;
		ms = st < ms ? st : ms;
	}
	if (__builtin_expect(tie, 0))
		for (i = 0; i < n; i++)
			if (cost[i] == bc && s->list.paths[i]->valid &&
			    s->list.paths[i]->ord > s->list.paths[b]->ord)
				b = i;
	*min_stale = ms;
	return hst_of(s->list.paths[b]);
}

/*
 * The walk when every path is plain and two or more are idle: each pair
 * is decided by the keys, by stale_after when both paths are idle
 * (hst_compare() case 2 returns stale1 - stale2: with T = 0 and both
 * estimates positive they are not "similar", and neither path is stale)
 * and by cost otherwise (as in hst_key).  The best path's values are
 * kept in registers and chosen without branches.  v is in list order.
 */
static struct path_info *hst_plain_walk(struct ps_node *const *v,
					unsigned n)
{
	const struct path_info *pi = hst_of(v[0]);
	uint64_t bcost = (1 + pi->outstanding) * pi->historical_service_time;
	uint64_t bstale = pi->stale_after;
	bool bidle = !pi->outstanding;
	unsigned i, b = 0;

	for (i = 1; i < n; i++) {
		uint64_t out, st, c;
		bool idle, better;

		pi = hst_of(v[i]);
		out = pi->outstanding;
		st = pi->stale_after;
		c = (1 + out) * pi->historical_service_time;
		idle = !out;
		better = (idle & bidle) ? (int64_t)(st - bstale) < 0 :
					  c <= bcost;
		b = better ? i : b;
		bcost = better ? c : bcost;
		bstale = better ? st : bstale;
		bidle = better ? idle : bidle;
	}
	return hst_of(v[b]);
}

/*
 * The kernel's walk: the valid list head to tail, keep the best by
 * hst_compare (a later path replaces best only when strictly better),
 * and move the winner to the tail (§3.9).  `now` stands for the kernel's
 * sched_clock() (5.8-5.17) or ktime_get_ns() (5.18+); the caller chooses
 * which.  Let every valid path be plain, and R be the last path in list
 * order of the least cost c (hst_least).  The walk ends at R
 *  - when at most one path is idle: every pair it meets is decided by
 *    cost (hst_key), and the walk is the minimum;
 *  - or when R is busy: R meets the best so far by cost (R is not idle),
 *    and c is not more than its cost, so R takes over; after R every
 *    path costs more than c, and meets R by cost too, so R stays.
 * Otherwise the walk is run in list order: by the keys alone when every
 * path is plain (hst_plain_walk), else the pairs that hst_key decides
 * are decided by it and the others by hst_compare().  Every pair gets
 * the answer hst_compare() would give, hence the same winner.
 */
static struct ps_path *hst_select_path(struct path_selector *ps,
				       size_t nr_bytes, sim_ns now)
{
	struct selector *s = ps->context;
	bool t0 = !s->threshold_multiplier;
	struct path_info *best;
	struct hst_key bk;
	unsigned i, b;
	/* set below; were they not, false and 0 would only take the full walk */
	bool all_plain = false;
	uint64_t min_stale = 0;
	struct ps_node *const *v;

	if (!s->list.nr_valid)
		return NULL;
	best = hst_least(s, &min_stale);
	all_plain = t0 && !s->nr_zero && !s->nr_big && !(min_stale < now);
	if (all_plain && (s->nr_idle < 2 || best->outstanding))
		goto found;
	ps_keyed_in_order(&s->list);
	v = s->list.order;
	if (all_plain) {
		best = hst_plain_walk(v, s->list.nr_valid);
		goto found;
	}

	/* otherwise the walk, pair by pair, in list order */
	b = 0;
	bk = hst_key_of(hst_of(v[0]), now, t0);
	for (i = 1; i < s->list.nr_valid; i++) {
		struct hst_key k = hst_key_of(hst_of(v[i]), now, t0);
		bool better;

		if (k.plain && bk.plain && !(k.idle && bk.idle))
			better = k.cost <= bk.cost;
		else
			better = hst_compare(hst_of(v[i]), hst_of(v[b]), now,
					     s) < 0;
		if (better) {
			b = i;
			bk = k;
		}
	}
	best = hst_of(v[b]);

found:
	/* Move the last used path to the tail (§3.9, §9.1). */
	ps_keyed_tail(&s->list, &best->node);
	return best->path;
}

/* One more I/O in flight; nr_bytes plays no part in HST (§3.6). */
static int hst_start_io(struct path_selector *ps, struct ps_path *path,
			size_t nr_bytes, sim_ns now)
{
	struct path_info *pi;

	if (!path)
		return 0;
	pi = path->ps_ctx;
	pi->outstanding++;
	hst_update(ps->context, pi);
	return 0;
}

/* The kernel's time_after64(a, b): a is later than b, modulo 2^64. */
static inline int hst_time_after64(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) < 0;
}

/* The kernel's time_before64(a, b): time_after64(b, a). */
static inline int hst_time_before64(uint64_t a, uint64_t b)
{
	return hst_time_after64(b, a);
}

/*
 * The service time of the I/O completing at now that started at
 * start_time (§3.6 steps 2-4).  Records now as the path's last finish.
 */
static uint64_t path_service_time(struct path_info *pi, uint64_t start_time,
				  uint64_t now)
{
	/*
	 * Pretend serial submission: an I/O that started before the
	 * path's previous completion is charged only from that completion
	 * (§3.6 step 2, §9.4) — kept because the kernel does it.
	 */
	if (hst_time_after64(pi->last_finish, start_time))
		start_time = pi->last_finish;

	pi->last_finish = now;

	/*
	 * A start "after" now counts as 0: this is what a jiffies-epoch
	 * start ahead of ktime gives (§3.6 step 4, §3.11).
	 */
	if (hst_time_before64(now, start_time))
		return 0;
	return now - start_time;
}

/*
 * Fold the completion into the path's estimate and renew its freshness
 * (§3.6).  Called for failed I/O too, after fail_path, so the path may be
 * on the failed list: it is updated all the same, as the kernel does
 * (§9.14).
 */
static int hst_end_io(struct path_selector *ps, struct ps_path *path,
		      size_t nr_bytes, uint64_t start_time, sim_ns now)
{
	struct selector *s = ps->context;
	struct path_info *pi = path->ps_ctx;
	uint64_t st, sample, weight;

	st = path_service_time(pi, start_time, now);
	pi->outstanding--;

	/* st * 1024 wraps (u64) only for st >= 2^54 ns, as in the kernel. */
	sample = st * HST_FIXED_1;
	if (sample > HST_FIXED_MAX)
		sample = HST_FIXED_MAX;
	weight = hst_weight(s, st);
	pi->historical_service_time = fixed_ema(pi->historical_service_time,
						sample, weight);
	pi->last_service = st;
	pi->last_weight = (uint32_t)weight;

	/*
	 * Fresh for valid_count estimated service times from now; the
	 * current valid_count of this selector is used, so fail/reinstate
	 * rescale later completions at once (§3.6 step 7, §9.13).
	 */
	pi->stale_after = pi->last_finish +
		(uint64_t)s->valid_count *
		(pi->historical_service_time >> HST_FIXED_SHIFT);
	hst_update(s, pi);
	return 0;
}

/*
 * Status words as the kernel's DMEMIT prints them, each followed by a
 * space (§3.2): "2 <weights[0]> <threshold_multiplier> " for the selector,
 * "0 " per path in a table, "<hst> <outstanding> <stale_after> " per path
 * in info.  The trace words name every value hst_compare() reads and
 * what the latest end_io charged.  Returns the characters written,
 * truncated like scnprintf.
 */
static int hst_status(struct path_selector *ps, struct ps_path *path,
		      enum ps_status_type type, char *result, size_t maxlen)
{
	struct selector *s = ps->context;
	struct path_info *pi;
	int n;

	if (!path && type == PS_STATUS_TRACE) {
		n = snprintf(result, maxlen, "valid_count=%d "
			     "threshold_multiplier=%u ", s->valid_count,
			     s->threshold_multiplier);
	} else if (!path) {
		n = snprintf(result, maxlen, "2 %u %u ", s->weights[0],
			     s->threshold_multiplier);
	} else if (type == PS_STATUS_TRACE) {
		pi = path->ps_ctx;
		n = snprintf(result, maxlen, "hst=%llu outstanding=%llu "
			     "stale_after=%llu last_finish=%llu "
			     "last_service=%llu last_weight=%u ",
			     (unsigned long long)pi->historical_service_time,
			     (unsigned long long)pi->outstanding,
			     (unsigned long long)pi->stale_after,
			     (unsigned long long)pi->last_finish,
			     (unsigned long long)pi->last_service,
			     pi->last_weight);
	} else if (type == PS_STATUS_INFO) {
		pi = path->ps_ctx;
		n = snprintf(result, maxlen, "%llu %llu %llu ",
			     (unsigned long long)pi->historical_service_time,
			     (unsigned long long)pi->outstanding,
			     (unsigned long long)pi->stale_after);
	} else {
		n = snprintf(result, maxlen, "0 ");
	}

	return ps_emitted(n, maxlen);
}

const struct ps_type ps_historical_service_time = {
	.name		= "historical-service-time",
	.alias		= "hst",
	.kernel_file	= "drivers/md/dm-ps-historical-service-time.c",
	.features	= PS_USE_HR_TIMER,
	.table_args	= 1,
	.info_args	= 3,
	.ctx_size	= sizeof(struct selector),
	.path_size	= sizeof(struct path_info),
	.create		= hst_create,
	.destroy	= hst_destroy,
	.add_path	= hst_add_path,
	.fail_path	= hst_fail_path,
	.reinstate_path	= hst_reinstate_path,
	.select_path	= hst_select_path,
	.start_io	= hst_start_io,
	.end_io		= hst_end_io,
	.status		= hst_status,
};
