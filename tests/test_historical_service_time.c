/*
 * test_historical_service_time.c: the historical-service-time selector
 * against docs/kernel-model.md §3, driving its ops directly with hand-built paths and
 * explicit times.  Every expected number comes from the spec's tables or
 * is worked out by hand in the comment next to it.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selectors/selector.h"
#include "sim/sim.h"

extern const struct ps_type ps_historical_service_time;

#define HST_FX_MAX	64
#define BUCKET		(1ULL << 24)	/* 2^24 ns, one weight bucket */
#define MS		NSEC_PER_MSEC
#define NONE		(-1)

/* One selector instance with n paths named A, B, C, ... */
struct hst_fx {
	struct path_selector ps;
	struct ps_path path[HST_FX_MAX];
	struct ps_path *pp[HST_FX_MAX];
	char name[HST_FX_MAX][12];
	unsigned n;
	char err[ERR_MAX];
};

static void fx_init(struct hst_fx *fx, const char *args, unsigned n)
{
	unsigned i;
	int r;

	cr_assert(n <= HST_FX_MAX);
	memset(fx, 0, sizeof(*fx));
	r = ps_init(&fx->ps, &ps_historical_service_time, args, fx->err);
	cr_assert_eq(r, 0, "ps_init(\"%s\"): %s", args, fx->err);
	for (i = 0; i < n; i++) {
		if (i < 26)
			snprintf(fx->name[i], sizeof(fx->name[i]), "%c",
				 'A' + (int)i);
		else
			snprintf(fx->name[i], sizeof(fx->name[i]), "p%u", i);
		fx->path[i].name = fx->name[i];
		fx->path[i].index = i;
		fx->pp[i] = &fx->path[i];
		r = ps_add_path(&fx->ps, &fx->path[i], "", fx->err);
		cr_assert_eq(r, 0, "add_path %u: %s", i, fx->err);
		fx->n++;
	}
}

static void fx_exit(struct hst_fx *fx)
{
	ps_exit(&fx->ps, fx->pp, fx->n);
}

static void fx_start(struct hst_fx *fx, unsigned i, unsigned k)
{
	while (k--)
		ps_historical_service_time.start_io(&fx->ps, &fx->path[i],
						    4096, 0);
}

static void fx_end(struct hst_fx *fx, unsigned i, uint64_t start, sim_ns now)
{
	ps_historical_service_time.end_io(&fx->ps, &fx->path[i], 4096,
					  start, now);
}

/* One complete I/O on path i: start_io, then end_io at now. */
static void fx_sample(struct hst_fx *fx, unsigned i, uint64_t start,
		      sim_ns now)
{
	fx_start(fx, i, 1);
	fx_end(fx, i, start, now);
}

/* Index of the path select_path returns at now, or NONE. */
static int fx_select(struct hst_fx *fx, sim_ns now)
{
	struct ps_path *p;

	p = ps_historical_service_time.select_path(&fx->ps, 4096, now);
	return p ? (int)p->index : NONE;
}

/* hst, outstanding and stale_after of path i, read from its info status. */
static void fx_info(struct hst_fx *fx, unsigned i, uint64_t *hst,
		    uint64_t *out, uint64_t *stale)
{
	char buf[128];
	int n;

	n = ps_historical_service_time.status(&fx->ps, &fx->path[i],
					      PS_STATUS_INFO, buf, sizeof(buf));
	cr_assert_eq((size_t)n, strlen(buf));
	cr_assert_eq(sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64,
			    hst, out, stale), 3, "info status \"%s\"", buf);
}

static uint64_t fx_hst(struct hst_fx *fx, unsigned i)
{
	uint64_t hst, out, stale;

	fx_info(fx, i, &hst, &out, &stale);
	return hst;
}

static void fx_expect(struct hst_fx *fx, unsigned i, uint64_t hst,
		      uint64_t out, uint64_t stale)
{
	uint64_t h, o, s;

	fx_info(fx, i, &h, &o, &s);
	cr_expect_eq(h, hst, "path %s hst %" PRIu64 ", want %" PRIu64,
		     fx->name[i], h, hst);
	cr_expect_eq(o, out, "path %s outstanding %" PRIu64 ", want %" PRIu64,
		     fx->name[i], o, out);
	cr_expect_eq(s, stale, "path %s stale_after %" PRIu64 ", want %" PRIu64,
		     fx->name[i], s, stale);
}

/* ---- weights and the EMA (§3.4, §3.5, §3.7) ---- */

/* §3.4, base 972: the kernel's iterative fixed_power, weights[63] = 0. */
static const unsigned hst_w972[64] = {
	972, 923, 876, 832, 790, 750, 712, 676,
	642, 609, 578, 549, 522, 495, 470, 446,
	423, 402, 382, 362, 344, 327, 310, 294,
	280, 265, 252, 239, 227, 216, 205, 194,
	184, 175, 166, 158, 150, 142, 135, 128,
	122, 115, 110, 104,  99,  94,  89,  84,
	 80,  76,  72,  69,  65,  62,  59,  56,
	 53,  50,  48,  45,  43,  41,  39,   0,
};

/*
 * A fresh path (hst = 1024) given one sample st in the middle of bucket i
 * ends with (1024*w + st*1024*(1024 - w) + 512) >> 10 = w + st*(1024 - w):
 * the sum before the +512 is a multiple of 1024.  For st > 1 that value
 * pins w exactly.
 */
Test(hst, weight_table_base_972)
{
	struct hst_fx fx;
	unsigned i;

	fx_init(&fx, "", 64);
	for (i = 0; i < 64; i++) {
		uint64_t st = i * BUCKET + BUCKET / 2;

		fx_sample(&fx, i, 0, st);
		cr_expect_eq(fx_hst(&fx, i),
			     hst_w972[i] + st * (1024 - hst_w972[i]),
			     "bucket %u: weight is not %u", i, hst_w972[i]);
	}
	fx_exit(&fx);
}

/* weights[3] is 832 (iterative fixed_power), not pow()'s 831 (§3.4, §9.6). */
Test(hst, weight_entry_3_is_832)
{
	struct hst_fx fx;
	uint64_t st = 3 * BUCKET + 1000;	/* 50332648 ns, bucket 3 */

	fx_init(&fx, "972", 1);
	fx_sample(&fx, 0, 0, st);
	/* 832 + 50332648 * 192 = 9663869248; 831 would give
	 * 831 + 50332648 * 193 = 9714201895 */
	cr_assert_eq(fx_hst(&fx, 0), 9663869248ULL);
	fx_exit(&fx);
}

/* base 0: every weight is 0, so each sample replaces hst by st*1024. */
Test(hst, base_zero_all_weights_zero)
{
	struct hst_fx fx;
	unsigned i;

	fx_init(&fx, "0", 64);
	for (i = 0; i < 64; i++) {
		uint64_t st = i * BUCKET + 12345;

		fx_sample(&fx, i, 0, st);
		cr_expect_eq(fx_hst(&fx, i), st * 1024, "bucket %u", i);
	}
	fx_exit(&fx);
}

/* The §3.7 rows in sequence on one path (one valid path, so
 * stale_after = now + (hst >> 10)). */
Test(hst, ema_vectors)
{
	struct hst_fx fx;

	fx_init(&fx, "", 1);
	fx_sample(&fx, 0, 0, 1000000);			/* st 1 ms */
	fx_expect(&fx, 0, 52000972, 0, 1000000 + 50782);
	fx_sample(&fx, 0, 1000000, 2000000);		/* st 1 ms */
	fx_expect(&fx, 0, 101360298, 0, 2000000 + 98984);
	fx_sample(&fx, 0, 2000000, 7000000);		/* st 5 ms */
	fx_expect(&fx, 0, 356213095, 0, 7000000 + 347864);
	fx_sample(&fx, 0, 7000000, 27000000);		/* st 20 ms, bucket 1 */
	fx_expect(&fx, 0, 2341078796ULL, 0, 27000000 + 2286209);
	fx_sample(&fx, 0, 27000000, 2027000000);	/* st 2 s, bucket 63 */
	fx_expect(&fx, 0, 2048000000000ULL, 0, 2027000000ULL + 2000000000ULL);
	fx_exit(&fx);
}

/* Round half up: st = 0 twice from 1024 gives 972 (995328+512 >> 10)
 * and then 923 (972*972 = 944784, +512 >> 10), not 922. */
Test(hst, ema_rounds_half_up)
{
	struct hst_fx fx;

	fx_init(&fx, "", 1);
	fx_sample(&fx, 0, 1000, 1000);
	cr_assert_eq(fx_hst(&fx, 0), 972);
	fx_sample(&fx, 0, 2000, 2000);
	cr_assert_eq(fx_hst(&fx, 0), 923);
	fx_exit(&fx);
}

/*
 * st = 63*2^24 ns is bucket 63, weight 0: history is wiped and hst is
 * st*1024.  One ns less is bucket 62, weight 39, and keeps history:
 * (52000972*39 + 1056964607*1024*985 + 512) >> 10 = 1041112118401.
 */
Test(hst, bucket_63_boundary)
{
	struct hst_fx fx;
	const uint64_t b63 = 63 * BUCKET;	/* 1056964608 ns */

	fx_init(&fx, "972 5", 3);
	fx_sample(&fx, 0, 0, 1000000);
	fx_sample(&fx, 1, 0, 1000000);
	cr_assert_eq(fx_hst(&fx, 0), 52000972);
	cr_assert_eq(fx_hst(&fx, 1), 52000972);

	fx_sample(&fx, 0, 1000000, 1000000 + b63);
	cr_expect_eq(fx_hst(&fx, 0), 1082331758592ULL);	/* b63 * 1024 */

	fx_sample(&fx, 1, 1000000, 1000000 + b63 - 1);
	cr_expect_eq(fx_hst(&fx, 1), 1041112118401ULL);

	/* bucket 64 and beyond clamp to 63 (the threshold word 5 would
	 * show up as a weight if the lookup ran past the table) */
	fx_sample(&fx, 2, 0, 64 * BUCKET + 1000);
	cr_expect_eq(fx_hst(&fx, 2), (64 * BUCKET + 1000) * 1024);
	fx_exit(&fx);
}

/*
 * The sample is clamped to HST_FIXED_MAX = 2^54 - 1 from st = 2^44 on,
 * and st*1024 wraps for st >= 2^54 (u64, as in the kernel): st = 2^54 + 5
 * gives a sample of 5*1024.  base 0 makes hst the sample itself.
 */
Test(hst, sample_clamp_and_wrap)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 0, 1ULL << 44);
	/* hst 2^54 - 1; two valid paths: stale = 2^44 + 2*(2^44 - 1) */
	fx_expect(&fx, 0, 18014398509481983ULL, 0, 52776558133246ULL);

	fx_sample(&fx, 1, 0, (1ULL << 54) + 5);
	fx_expect(&fx, 1, 5120, 0, (1ULL << 54) + 5 + 2 * 5);
	fx_exit(&fx);
}

/* ---- end_io timing (§3.6) ---- */

/*
 * Serial-submission clamp: a (start 0) completes at 1 ms; b started at
 * 100 ns but is charged from 1 ms, so st = 0.5 ms, not 1.4999 ms:
 * (52000972*972 + 500000*1024*52 + 512) >> 10 = 75360298 (unclamped it
 * would be 127355098).  stale = 1500000 + (75360298 >> 10 = 73594).
 */
Test(hst, serial_submission_clamp)
{
	struct hst_fx fx;

	fx_init(&fx, "", 1);
	fx_start(&fx, 0, 2);
	fx_end(&fx, 0, 0, 1000000);
	fx_expect(&fx, 0, 52000972, 1, 1000000 + 50782);
	fx_end(&fx, 0, 100, 1500000);
	fx_expect(&fx, 0, 75360298, 0, 1500000 + 73594);
	fx_exit(&fx);
}

/*
 * time_after64 is modular: a start 2^63 + 1 ns "after" last_finish is
 * before it as s64, so it is clamped to last_finish (st = 1000 ns, base 0
 * gives hst 1024000).  A plain u64 compare would give st = 0.
 */
Test(hst, serial_clamp_is_modular)
{
	struct hst_fx fx;
	const uint64_t lf = 1000000;

	fx_init(&fx, "0", 1);
	fx_sample(&fx, 0, 0, lf);
	fx_sample(&fx, 0, lf + (1ULL << 63) + 1, lf + 1000);
	fx_expect(&fx, 0, 1024000, 0, lf + 1000 + 1000);
	fx_exit(&fx);
}

/*
 * time_before64 is modular too.  Only a clock that runs backwards shows
 * it: last_finish 1000, then start 2^63 + 500 (start - last_finish is
 * 2^63 - 500 > 0 as s64, so it is kept) and now 100.
 * (s64)(100 - start) = 2^63 - 400 >= 0, so st = 2^63 - 400 rather than
 * 0; bucket 63, and st*1024 wraps to 2^64 - 409600, clamped to 2^54 - 1.
 * stale = 100 + (2^44 - 1).
 */
Test(hst, time_before_is_modular)
{
	struct hst_fx fx;

	fx_init(&fx, "", 1);
	fx_sample(&fx, 0, 0, 1000);
	fx_sample(&fx, 0, (1ULL << 63) + 500, 100);
	fx_expect(&fx, 0, 18014398509481983ULL, 0, 100 + 17592186044415ULL);
	fx_exit(&fx);
}

/*
 * Both modular tests one nanosecond from equality, base 0 (hst = st *
 * 1024): an I/O that started 1 ns before the last completion (at 1 ms)
 * and ends at 2 ms is charged from 1 ms: st 1 ms, not 1 ms + 1 ns.  One
 * that starts 1 ns after the now it completes at is charged 0, not
 * now - start wrapped to 2^64 - 1.
 */
Test(hst, time_after_one_ns_either_way)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 1);
	fx_sample(&fx, 0, 0, MS);
	fx_sample(&fx, 0, MS - 1, 2 * MS);
	fx_expect(&fx, 0, 1024000000, 0, 3 * MS);
	fx_sample(&fx, 0, 3 * MS + 1, 3 * MS);
	fx_expect(&fx, 0, 0, 0, 3 * MS);
	fx_exit(&fx);
}

/* start_io of no path changes nothing and returns 0, as every start_io. */
Test(hst, start_io_without_a_path)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 1);
	cr_expect_eq(ps_historical_service_time.start_io(&fx.ps, NULL, 4096,
							  0), 0);
	fx_expect(&fx, 0, 1024, 0, 0);
	fx_exit(&fx);
}

/*
 * A start stamp in the jiffies epoch, ahead of ktime (§1.2: j2ns of
 * INITIAL_JIFFIES is 3994967296000 ns) gives st = 0 at now = 5 s: hst
 * goes 1024 -> 972, last_finish = now, stale = now + (972 >> 10 = 0).
 */
Test(hst, start_ahead_of_now_is_zero)
{
	struct hst_fx fx;
	const sim_ns now = 5 * NSEC_PER_SEC;

	fx_init(&fx, "", 1);
	fx_sample(&fx, 0, 3994967296000ULL, now);
	fx_expect(&fx, 0, 972, 0, now);
	fx_exit(&fx);
}

/*
 * stale_after = last_finish + valid_count * (hst >> 10), with the
 * valid_count at completion time.  base 0 makes hst >> 10 equal st.
 */
Test(hst, stale_after_follows_valid_count)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 3);
	fx_sample(&fx, 0, 0, 1000000);			/* 3 valid */
	fx_expect(&fx, 0, 1024000000, 0, 1000000 + 3 * 1000000);

	ps_historical_service_time.fail_path(&fx.ps, &fx.path[2]);
	fx_sample(&fx, 0, 2000000, 2500000);		/* 2 valid */
	fx_expect(&fx, 0, 512000000, 0, 2500000 + 2 * 500000);

	cr_assert_eq(ps_historical_service_time.reinstate_path(&fx.ps,
							       &fx.path[2]), 0);
	fx_sample(&fx, 0, 3000000, 3200000);		/* 3 valid */
	fx_expect(&fx, 0, 204800000, 0, 3200000 + 3 * 200000);
	fx_exit(&fx);
}

/* end_io after fail_path still updates the (failed) path, with the
 * reduced valid_count (§9.14). */
Test(hst, end_io_on_failed_path)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 3);
	fx_start(&fx, 1, 1);
	ps_historical_service_time.fail_path(&fx.ps, &fx.path[1]);
	fx_end(&fx, 1, 4000000, 4100000);
	fx_expect(&fx, 1, 102400000, 0, 4100000 + 2 * 100000);
	fx_exit(&fx);
}

/* start_io counts I/Os, whatever their size. */
Test(hst, start_io_ignores_bytes)
{
	struct hst_fx fx;

	fx_init(&fx, "", 1);
	ps_historical_service_time.start_io(&fx.ps, &fx.path[0], 0, 0);
	ps_historical_service_time.start_io(&fx.ps, &fx.path[0], 1 << 20, 0);
	fx_expect(&fx, 0, 1024, 2, 0);
	fx_exit(&fx);
}

/* ---- list order, fail and reinstate (§3.3, §3.9) ---- */

/*
 * While every path is idle with stale_after 0, every compare is the
 * both-idle branch returning 0, so select_path returns the head and
 * moves it to the tail: n selects read the list and restore it.
 */
static void fx_expect_order(struct hst_fx *fx, const int *want, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		cr_expect_eq(fx_select(fx, 1000), want[i], "position %u", i);
}

Test(hst, list_order_fail_reinstate)
{
	struct hst_fx fx;
	static const int abc[] = { 0, 1, 2 };
	static const int ac[] = { 0, 2, 0 };
	static const int acb[] = { 0, 2, 1 };

	fx_init(&fx, "", 3);
	fx_expect_order(&fx, abc, 3);
	ps_historical_service_time.fail_path(&fx.ps, &fx.path[1]);
	fx_expect_order(&fx, ac, 3);	/* A, C, A again: B never */
	/* after three selects over two paths the list is C, A */
	cr_assert_eq(fx_select(&fx, 1000), 2);		/* now A, C */
	ps_historical_service_time.reinstate_path(&fx.ps, &fx.path[1]);
	fx_expect_order(&fx, acb, 3);	/* B back at the tail */
	fx_exit(&fx);
}

/*
 * The list order is held in keys renumbered every ~65 000 selections
 * (selectors/historical-service-time.c): the order must survive it.
 * Five fresh paths, all idle with stale_after 0: every pair ties
 * (hst_compare case 2 gives 0 - 0), so each select takes the head and
 * moves it to the tail.  B failed and reinstated gives A C D E B, and
 * 200 000 selections, three renumberings, cycle in that order.
 */
Test(hst, list_order_survives_many_selections)
{
	struct hst_fx fx;
	static const int want[] = { 0, 2, 3, 4, 1 };
	unsigned i;

	fx_init(&fx, "", 5);
	ps_historical_service_time.fail_path(&fx.ps, &fx.path[1]);
	ps_historical_service_time.reinstate_path(&fx.ps, &fx.path[1]);
	for (i = 0; i < 200000; i++)
		cr_assert_eq(fx_select(&fx, 1000), want[i % 5],
			     "selection %u", i);
	fx_exit(&fx);
}

/*
 * Two idle paths, and the path of least cost busy: the walk's answer is
 * that path, which the tree gives without the walk.  Base 0 (hst = the
 * last sample), every sample finished at 2 ms: A and B took 1 ms, C
 * 100 us, D 200 us; stale_after = 2 ms + 4 * sample, none stale at
 * 2.1 ms.  C has 3 I/Os in flight (cost 4 * 100 us), D 2 (3 * 200 us),
 * A and B none (1 ms each).  The walk: A; B ties A on stale_after (both
 * idle: stale1 - stale2 = 0), A stays; C by cost, 400 us <= 1 ms; D
 * 600 us is not <= 400 us.  C.
 */
Test(hst, two_idle_least_cost_busy)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 4);
	fx_sample(&fx, 0, 1 * MS, 2 * MS);
	fx_sample(&fx, 1, 1 * MS, 2 * MS);
	fx_sample(&fx, 2, 1900000, 2 * MS);
	fx_sample(&fx, 3, 1800000, 2 * MS);
	fx_start(&fx, 2, 3);
	fx_start(&fx, 3, 2);
	cr_assert_eq(fx_select(&fx, 2100000), 2);
	fx_exit(&fx);
}

Test(hst, no_valid_path_is_null)
{
	struct hst_fx fx;

	fx_init(&fx, "", 0);
	cr_assert_eq(fx_select(&fx, 1000), NONE);
	fx_exit(&fx);

	fx_init(&fx, "", 2);
	ps_historical_service_time.fail_path(&fx.ps, &fx.path[0]);
	ps_historical_service_time.fail_path(&fx.ps, &fx.path[1]);
	cr_assert_eq(fx_select(&fx, 1000), NONE);
	ps_historical_service_time.reinstate_path(&fx.ps, &fx.path[1]);
	cr_assert_eq(fx_select(&fx, 1000), 1);
	fx_exit(&fx);
}

/*
 * §3.9 worked example: A, B, C fresh.  Select 1: all ties, A (list
 * B, C, A).  Select 2: B vs C ties, A vs B is "B idle and stale",
 * 1*0 - 0*0 = 0, so B.  Select 3: C by the same rule.  Select 4: all have
 * one I/O and stale 0: equal estimates, stale1 < now, out1 - out2 = 0,
 * so the head A.  Select 5: list B, C, A with A at 2: B.  Select 6: C.
 */
Test(hst, startup_like_round_robin)
{
	struct hst_fx fx;
	static const int want[] = { 0, 1, 2, 0, 1, 2 };
	unsigned i;

	fx_init(&fx, "", 3);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		int p = fx_select(&fx, 1000 + i);

		cr_assert_eq(p, want[i], "select %u chose %d", i + 1, p);
		fx_start(&fx, (unsigned)p, 1);
	}
	fx_exit(&fx);
}

/* ---- hst_compare, branch by branch, through select_path (§3.8) ---- */

/*
 * Two paths with equal hst 1024000000 (base 0, st 1 ms), one I/O each,
 * not stale (stale_after = 1 ms + 2 * 1 ms = 3 ms, select at 2 ms).
 * T = 1: not over the threshold, out1 - out2 = 0, keep A.
 * T = 0: over (hst > 0), equal estimate, not stale: -1, B (§9.2).
 */
static int equal_hst_pair(const char *args)
{
	struct hst_fx fx;
	int p;

	fx_init(&fx, args, 2);
	fx_sample(&fx, 0, 0, 1000000);
	fx_sample(&fx, 1, 0, 1000000);
	fx_start(&fx, 0, 1);
	fx_start(&fx, 1, 1);
	p = fx_select(&fx, 2000000);
	fx_exit(&fx);
	return p;
}

Test(hst, threshold_0_vs_1_at_equal_hst)
{
	cr_expect_eq(equal_hst_pair("0 1"), 0);
	cr_expect_eq(equal_hst_pair("0 0"), 1);
}

/* T = 0 is "not over" only when both hst are 0 (st = 0 with base 0):
 * then out1 - out2 = 0 keeps A. */
Test(hst, threshold_0_both_zero_hst)
{
	struct hst_fx fx;

	fx_init(&fx, "0 0", 2);
	fx_sample(&fx, 0, 500, 500);
	fx_sample(&fx, 1, 500, 500);
	cr_assert_eq(fx_hst(&fx, 0), 0);
	fx_start(&fx, 0, 1);
	fx_start(&fx, 1, 1);
	cr_expect_eq(fx_select(&fx, 1000), 0);
	fx_exit(&fx);
}

/*
 * The same with both paths still fresh, which the selection must not
 * take for paths it may rank by cost: hst 0 gives stale_after = the
 * completion itself (500 ns), not stale at 500 ns.  Every cost is 0, yet
 * the kernel compares outstanding counts: B - A = 2 - 1 > 0 keeps A with
 * one I/O; with the counts the other way round B, with one, wins.
 */
Test(hst, zero_estimates_fresh_by_outstanding)
{
	struct hst_fx fx;
	unsigned a;

	for (a = 1; a <= 2; a++) {
		fx_init(&fx, "0", 2);
		fx_sample(&fx, 0, 500, 500);
		fx_sample(&fx, 1, 500, 500);
		fx_expect(&fx, 0, 0, 0, 500);
		fx_start(&fx, 0, a);
		fx_start(&fx, 1, 3 - a);
		cr_expect_eq(fx_select(&fx, 500), a == 1 ? 0 : 1,
			     "A with %u I/Os", a);
		fx_exit(&fx);
	}
}

/*
 * T = 2: A (hst 2048000000, one I/O, fresh until 6 ms) and B (hst
 * 1024000000, two I/Os, fresh until 3 ms), selected at 2.5 ms.
 * Estimates: A (1+1)*2048000000 > B (1+2)*1024000000, so B is better.
 * 2048000000 > 2 * 1024000000 is false: within the threshold, only
 * outstanding counts and A, with fewer, wins.  With T = 1 the estimates
 * decide: B.  With T = 2 and A one ns slower (hst 2048001024) A is over
 * the threshold: B.  The same in either list order, so both branches of
 * the `larger > T * smaller` test are seen.
 */
static int threshold_pair(const char *args, uint64_t st_a, unsigned a)
{
	struct hst_fx fx;
	unsigned b = 1 - a;
	int p;

	fx_init(&fx, args, 2);
	fx_sample(&fx, a, 0, st_a);
	fx_sample(&fx, b, 0, 1000000);
	fx_start(&fx, a, 1);
	fx_start(&fx, b, 2);
	p = fx_select(&fx, 2500000);
	fx_exit(&fx);
	return p;
}

Test(hst, threshold_2_compares_outstanding)
{
	unsigned a;

	for (a = 0; a < 2; a++) {
		cr_expect_eq(threshold_pair("0 2", 2000000, a), (int)a);
		cr_expect_eq(threshold_pair("0 1", 2000000, a), (int)(1 - a));
		cr_expect_eq(threshold_pair("0 2", 2000001, a), (int)(1 - a));
	}
}

/*
 * Both idle: stale1 - stale2, the older stale_after wins; equal ties keep
 * the earlier.  Default base, two valid paths:
 *   st 1 ms:   hst 52000972 (>> 10 = 50782), stale = 1000000 + 101564
 *   st 0.5 ms: hst 972 + 500000*52 = 26000972 (>> 10 = 25391),
 *              stale = 500000 + 50782 = 550782
 */
Test(hst, both_idle_older_stale_wins)
{
	struct hst_fx fx;

	fx_init(&fx, "", 2);
	fx_sample(&fx, 0, 0, 1000000);
	fx_sample(&fx, 1, 0, 500000);
	fx_expect(&fx, 0, 52000972, 0, 1101564);
	fx_expect(&fx, 1, 26000972, 0, 550782);
	cr_expect_eq(fx_select(&fx, 600000), 1);	/* A fresh, B stale */
	fx_exit(&fx);

	fx_init(&fx, "", 2);
	fx_sample(&fx, 0, 0, 500000);
	fx_sample(&fx, 1, 0, 1000000);
	cr_expect_eq(fx_select(&fx, 2000000), 0);	/* both stale */
	fx_exit(&fx);

	/*
	 * Both idle and both fresh: still the stale_after difference, even
	 * against the better estimate.  A: st 5 ms, hst 972 + 5000000*52 =
	 * 260000972 (>> 10 = 253907), stale 5000000 + 507814 = 5507814.
	 * B: st 0.5 ms ending at 5.5 ms, stale 5500000 + 50782 = 5550782.
	 * At 5500001 neither is stale; B's hst is the smaller, but
	 * 5550782 - 5507814 > 0 keeps A.
	 */
	fx_init(&fx, "", 2);
	fx_sample(&fx, 0, 0, 5000000);
	fx_sample(&fx, 1, 5000000, 5500000);
	fx_expect(&fx, 0, 260000972, 0, 5507814);
	fx_expect(&fx, 1, 26000972, 0, 5550782);
	cr_expect_eq(fx_select(&fx, 5500001), 0);
	fx_exit(&fx);

	/* both never completed: 0 - 0, a tie, the head */
	fx_init(&fx, "", 2);
	cr_expect_eq(fx_select(&fx, 2000000), 0);
	fx_exit(&fx);
}

/*
 * Only one idle and stale (§9.3): B idle, stale since 1101564; A has one
 * I/O.  compare(B, A) = [outA==0]*staleB - [outB==0]*staleA = -staleA.
 * A never completed (stale 0): 0, a tie, and busy A is kept.  A completed
 * once (stale 1101564): -1101564, B.
 */
Test(hst, one_idle_stale_zero_ties)
{
	struct hst_fx fx;

	fx_init(&fx, "", 2);
	fx_sample(&fx, 1, 0, 1000000);
	fx_start(&fx, 0, 1);
	cr_expect_eq(fx_select(&fx, 2000000), 0);
	fx_exit(&fx);

	fx_init(&fx, "", 2);
	fx_sample(&fx, 0, 0, 1000000);
	fx_sample(&fx, 1, 0, 1000000);
	fx_start(&fx, 0, 1);
	cr_expect_eq(fx_select(&fx, 2000000), 1);
	fx_exit(&fx);
}

/*
 * An idle stale path gets a probe (§3.8 step 2).  base 0, two paths.
 * A: st 10 ms ending at 10 ms, hst 10240000000, stale 10 + 2*10 = 30 ms,
 * idle.  B: st 1 ms ending at b_end, stale b_end + 2 ms, one I/O.  B's
 * estimate (1+1)*1024000000 is the better.
 *   B ends at 11 ms, select at 12 ms: A is fresh, the estimates decide: B.
 *   B ends at 30 ms, select at 31 ms: A is idle and stale: A, whichever
 *   compare side it is on (+staleB keeps A as best; -staleB makes A
 *   replace B).
 *   B ends at 11 ms, select at 31 ms: both stale, only A idle: still A.
 *   The busy path's own stale_after (13 ms) is not subtracted: 13 - 30
 *   would have chosen B.
 */
static int probe_pair(unsigned a, sim_ns b_end, sim_ns now)
{
	struct hst_fx fx;
	unsigned b = 1 - a;
	int p;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, a, 0, 10 * MS);
	fx_sample(&fx, b, b_end - MS, b_end);
	fx_expect(&fx, a, 10240000000ULL, 0, 30 * MS);
	fx_expect(&fx, b, 1024000000, 0, b_end + 2 * MS);
	fx_start(&fx, b, 1);
	p = fx_select(&fx, now);
	fx_exit(&fx);
	return p;
}

Test(hst, idle_stale_path_gets_probe)
{
	unsigned a;

	for (a = 0; a < 2; a++) {
		cr_expect_eq(probe_pair(a, 11 * MS, 12 * MS), (int)(1 - a));
		cr_expect_eq(probe_pair(a, 30 * MS, 31 * MS), (int)a);
		cr_expect_eq(probe_pair(a, 11 * MS, 31 * MS), (int)a);
	}
}

/* The probe at its boundary: A's stale_after is 30 ms, so A is stale
 * one ns later (probed whichever side of the compare it is on) and not
 * at 30 ms itself (B's estimate wins). */
Test(hst, idle_stale_probe_at_the_ns)
{
	unsigned a;

	for (a = 0; a < 2; a++) {
		cr_expect_eq(probe_pair(a, 30 * MS, 30 * MS), (int)(1 - a));
		cr_expect_eq(probe_pair(a, 30 * MS, 30 * MS + 1), (int)a);
	}
}

/*
 * Blocks of the size the selector's per-path arrays start at (8 paths,
 * 64 bytes) filled with 0xff and freed, so that the next allocations of
 * that size are likely to get memory that is not zero back (malloc
 * reuses freed blocks of a size first): a path's entries must come from
 * its own state, not from what the heap held.
 */
static void dirty_heap(void)
{
	void *b[32];
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(b); i++) {
		b[i] = malloc(8 * sizeof(uint64_t));
		cr_assert(b[i]);
		memset(b[i], 0xff, 8 * sizeof(uint64_t));
	}
	for (i = 0; i < ARRAY_SIZE(b); i++)
		free(b[i]);
}

/*
 * A path added after the others have history is idle and never
 * completed (stale_after 0, §9.3), so stale, and gets the probe.  base
 * 0, A and B one sample of 1 ms each: hst 1024000000, stale 1 + 2 * 1 =
 * 3 ms; A then has one I/O.  C is added; at 2 ms the walk meets A, then
 * B (idle, half A's cost: B), then C: both idle, stale_C - stale_B = 0 -
 * 3 ms < 0, C.  With C's entries left as the heap had them (not zero),
 * the shortcut would see no stale path and one idle one, and take B by
 * cost.
 */
Test(hst, added_path_is_stale_and_probed)
{
	struct hst_fx fx;
	int r;

	dirty_heap();
	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 0, MS);
	fx_sample(&fx, 1, 0, MS);
	fx_start(&fx, 0, 1);
	snprintf(fx.name[2], sizeof(fx.name[2]), "C");
	fx.path[2].name = fx.name[2];
	fx.path[2].index = 2;
	fx.pp[2] = &fx.path[2];
	r = ps_add_path(&fx.ps, &fx.path[2], "", fx.err);
	cr_assert_eq(r, 0, "add_path C: %s", fx.err);
	fx.n++;
	fx_expect(&fx, 1, 1024000000, 0, 3 * MS);
	fx_expect(&fx, 2, 1024, 0, 0);
	cr_expect_eq(fx_select(&fx, 2 * MS), 2);
	fx_exit(&fx);
}

/*
 * Case 1's `larger > T * smaller` at the unit: base 819, T = 2.  One
 * sample of st ns from hst 1024 gives (1024 * 819 + st * 1024 * 205 +
 * 512) >> 10 = 819 + 205 * st: A (6 ns) 2049, B (1 ns) 1024, and 2049 >
 * 2 * 1024 by one, so the estimates are not "similar" and decide:
 * (1 + 1) * 2049 = 4098 for A with one I/O against (1 + 2) * 1024 = 3072
 * for B with two, B.  Both complete at 100 ns, stale_after 100 + 2 *
 * (hst >> 10): 104 and 102, fresh at 100.  Were they similar, A, with
 * fewer I/Os, would win.  In either list order (both branches of the
 * larger/smaller test).
 */
Test(hst, threshold_exceeded_by_one)
{
	struct hst_fx fx;
	unsigned a;

	for (a = 0; a < 2; a++) {
		fx_init(&fx, "819 2", 2);
		fx_sample(&fx, a, 94, 100);
		fx_sample(&fx, 1 - a, 99, 100);
		fx_expect(&fx, a, 2049, 0, 104);
		fx_expect(&fx, 1 - a, 1024, 0, 102);
		fx_start(&fx, a, 1);
		fx_start(&fx, 1 - a, 2);
		cr_expect_eq(fx_select(&fx, 100), (int)(1 - a), "A at %u", a);
		fx_exit(&fx);
	}
}

/*
 * Case 2's difference when a stale_after is 0 or 1, where the sign is
 * all that matters (base 0, two paths, selected at 4 ms):
 *  - B busy, stale_after 1 (a 0 ns I/O done at 1 ns: hst 0, 1 + 2 * 0),
 *    then A idle and never completed (stale 0): compare(A, B) = 0 - 1,
 *    A;
 *  - A idle, stale since 3 ms (1 ms I/O done at 1 ms), then B busy and
 *    never completed: compare(B, A) = [outA==0]*0 - 0 = 0, a tie, A stays.
 */
Test(hst, stale_difference_at_0_and_1)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 1, 1);
	fx_expect(&fx, 0, 0, 0, 1);
	fx_start(&fx, 0, 1);
	cr_expect_eq(fx_select(&fx, 4 * MS), 1);
	fx_exit(&fx);

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 0, 1 * MS);
	fx_expect(&fx, 0, 1024000000, 0, 3 * MS);
	fx_start(&fx, 1, 1);
	cr_expect_eq(fx_select(&fx, 4 * MS), 0);
	fx_exit(&fx);
}

/*
 * Overflow guard (§3.8 step 3).  base 0, two paths.  A: st = 17575022936080
 * = ceil(2^54 / 1025), hst = st*1024 = 17996823486545920, 1024 I/Os.
 * B: st 1 ms, hst 1024000000, one I/O.  Neither stale at the select.
 * With the guard (A has >= 1024): 2 * 1000000 > 1025 * 17575022936080 is
 * false, B is better and fresh: -1, B.  Without it 1025 * hst wraps to
 * 16384 < 2 * 1024000000 and A would win.
 */
static int overflow_pair(unsigned a)
{
	struct hst_fx fx;
	const uint64_t st_a = 17575022936080ULL;
	unsigned b = 1 - a;
	int p;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, a, 0, st_a);
	fx_sample(&fx, b, st_a, st_a + 1000000);
	fx_expect(&fx, a, 17996823486545920ULL, 0, 3 * st_a);
	fx_start(&fx, a, 1024);
	fx_start(&fx, b, 1);
	p = fx_select(&fx, st_a + 2000000);
	fx_exit(&fx);
	return p;
}

/*
 * The guard does not fire at 1023 outstanding.  base 972, T = 1 (so the
 * kernel's walk runs): one sample from hst 1024 gives 972 + 52 * st.
 * A: st 20 ns, hst 2012, 1023 I/Os; B: st 30 us, hst 1560972, idle; both
 * done at 100 us, fresh until 100002 and 103048 ns.  Unguarded, A costs
 * 1024 * 2012 = 2060288 against B's 1560972: B.  Guarded (fractions
 * dropped), 1024 * 1 against 1524 would have made it A.
 */
Test(hst, overflow_guard_not_at_1023)
{
	struct hst_fx fx;
	unsigned a;

	for (a = 0; a < 2; a++) {
		fx_init(&fx, "972 1", 2);
		fx_sample(&fx, a, 99980, 100000);
		fx_sample(&fx, 1 - a, 70000, 100000);
		fx_expect(&fx, a, 2012, 0, 100002);
		fx_expect(&fx, 1 - a, 1560972, 0, 103048);
		fx_start(&fx, a, 1023);
		cr_expect_eq(fx_select(&fx, 100000), (int)(1 - a), "A at %u", a);
		fx_exit(&fx);
	}
}

Test(hst, overflow_guard_at_1024_outstanding)
{
	/* A first (pi2 in the compare), then A second (pi1): B both times */
	cr_expect_eq(overflow_pair(0), 1);
	cr_expect_eq(overflow_pair(1), 0);
}

/*
 * A stale winner only gets equal usage (§3.8 step 4).  base 0, two
 * paths: X sampled with st 1 s (stale_after 1 s + 2 s = 3 s), then Y
 * with st 1 ms (stale_after 1.001 s + 2 ms = 1.003 s).  Y has two I/Os,
 * X one.  (1+1)*1024000000000 > (1+2)*1024000000: Y's estimate is better.
 *   at 1.002 s Y is fresh: Y wins outright;
 *   at 1.004 s Y is stale: out1 - out2 decides and X, with fewer, wins.
 * Y at list position 0 exercises pi2_better (Y is best, X is pi);
 * Y at position 1 exercises "pi1 better".
 */
static int stale_winner(unsigned y, sim_ns now)
{
	struct hst_fx fx;
	unsigned x = 1 - y;
	int p;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, x, 0, NSEC_PER_SEC);
	fx_sample(&fx, y, NSEC_PER_SEC, NSEC_PER_SEC + MS);
	fx_expect(&fx, y, 1024000000, 0, NSEC_PER_SEC + 3 * MS);
	fx_start(&fx, y, 2);
	fx_start(&fx, x, 1);
	p = fx_select(&fx, now);
	fx_exit(&fx);
	return p;
}

Test(hst, stale_winner_limited_pi2_better)
{
	/* compare(X, Y): pi2_better; fresh +1 keeps Y; stale 1 - 2 < 0: X */
	cr_expect_eq(stale_winner(0, NSEC_PER_SEC + 2 * MS), 0);
	cr_expect_eq(stale_winner(0, NSEC_PER_SEC + 4 * MS), 1);
}

Test(hst, stale_winner_limited_pi1_better)
{
	/* compare(Y, X): pi1 better; fresh -1 takes Y; stale 2 - 1 > 0: X */
	cr_expect_eq(stale_winner(1, NSEC_PER_SEC + 2 * MS), 1);
	cr_expect_eq(stale_winner(1, NSEC_PER_SEC + 4 * MS), 0);
}

/*
 * The stale test at its boundary: a path is stale when stale_after < now,
 * so Y of stale_winner(), stale_after 1.003 s, is still fresh at
 * exactly 1.003 s (Y wins outright) and stale one nanosecond later (X,
 * with fewer I/Os, wins).  Both paths are busy, so the selection takes
 * the shortcut for paths that are all fresh whenever it believes that
 * of them: the nanosecond is where believing it too long shows.
 */
Test(hst, stale_one_ns_before_select)
{
	cr_expect_eq(stale_winner(0, NSEC_PER_SEC + 3 * MS), 0);
	cr_expect_eq(stale_winner(0, NSEC_PER_SEC + 3 * MS + 1), 1);
	cr_expect_eq(stale_winner(1, NSEC_PER_SEC + 3 * MS), 1);
	cr_expect_eq(stale_winner(1, NSEC_PER_SEC + 3 * MS + 1), 0);
}

/*
 * The least stale_after is Y's, one nanosecond below X's, and Y comes
 * second in path order.  base 0, valid_count 2:
 *   X: st 300 ms ending at 403 ms + 1 ns: hst 307200000000, stale_after
 *      403 ms + 1 + 2 * 300 ms = 1.003 s + 1 ns; one I/O;
 *   Y: stale_winner()'s, stale_after 1.003 s; two I/Os.
 * Y's cost (1+2)*1024000000 is far below X's (1+1)*307200000000.  At
 * 1.003 s both are fresh: Y.  At 1.003 s + 1 Y is stale and X is not:
 * compare(Y, X) has Y better but stale, out 2 - 1 > 0, X.  Believing the
 * least stale_after to be X's would take the shortcut to Y.
 */
Test(hst, least_stale_one_ns_below_another)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 103 * MS + 1, 403 * MS + 1);
	fx_sample(&fx, 1, NSEC_PER_SEC, NSEC_PER_SEC + MS);
	fx_expect(&fx, 0, 307200000000ULL, 0, NSEC_PER_SEC + 3 * MS + 1);
	fx_expect(&fx, 1, 1024000000, 0, NSEC_PER_SEC + 3 * MS);
	fx_start(&fx, 1, 2);
	fx_start(&fx, 0, 1);
	cr_expect_eq(fx_select(&fx, NSEC_PER_SEC + 3 * MS + 1), 0);
	fx_exit(&fx);

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 103 * MS + 1, 403 * MS + 1);
	fx_sample(&fx, 1, NSEC_PER_SEC, NSEC_PER_SEC + MS);
	fx_start(&fx, 1, 2);
	fx_start(&fx, 0, 1);
	cr_expect_eq(fx_select(&fx, NSEC_PER_SEC + 3 * MS), 1);
	fx_exit(&fx);
}

/*
 * Two paths of equal cost, one busy and one idle, the later in list
 * order wins (compare returns -1 for "pi1 not worse"), as jiffies-
 * quantised estimates make common.  base 0 (hst = the last sample), three
 * paths, valid_count 3, all fresh at 10 ms:
 *   A: st 1 ms ending at 10 ms, one I/O: cost 2 * 1024000000, stale 13 ms
 *   B: st 2 ms ending at 10 ms, idle:    cost 1 * 2048000000, stale 16 ms
 *   C: st 3 ms ending at 3 ms, idle:     cost 1 * 3072000000, stale 12 ms
 * The kernel's walk: A; B against A, not both idle, by cost: B's is not
 * more than A's, B (pi2_better false, B fresh: -1).  C against B, both
 * idle: stale_after 12 ms - 16 ms < 0, C.  Had A kept the tie, C would
 * meet A by cost, 3072000000 > 2048000000, and A would stay.
 */
Test(hst, plain_walk_equal_cost_later_wins)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 3);
	fx_sample(&fx, 2, 0, 3 * MS);
	fx_sample(&fx, 0, 9 * MS, 10 * MS);
	fx_sample(&fx, 1, 8 * MS, 10 * MS);
	fx_start(&fx, 0, 1);
	fx_expect(&fx, 0, 1024000000, 1, 13 * MS);
	fx_expect(&fx, 1, 2048000000, 0, 16 * MS);
	fx_expect(&fx, 2, 3072000000ULL, 0, 12 * MS);
	cr_expect_eq(fx_select(&fx, 10 * MS), 2);
	fx_exit(&fx);
}

/*
 * Two idle paths of one stale_after: the earlier in list order keeps
 * best.  base 0, two paths, valid_count 2; A and B each one I/O of 2 ms
 * ending at 10 ms: hst 2048000000, stale_after 10 + 2 * 2 = 14 ms, both
 * idle and fresh at 10 ms.  The kernel's walk: A; B against A, both idle,
 * case 2 returns stale1 - stale2 = 0, not < 0, so A stays.  A moves to
 * the tail, and the next selection is B the same way.  End B's I/O one
 * nanosecond earlier (the same 2 ms) and its stale_after is 14 ms - 1:
 * stale1 - stale2 = -1 < 0, B wins at once, and again from the head.
 */
Test(hst, plain_walk_equal_stale_earlier_wins)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 8 * MS, 10 * MS);
	fx_sample(&fx, 1, 8 * MS, 10 * MS);
	fx_expect(&fx, 0, 2048000000, 0, 14 * MS);
	fx_expect(&fx, 1, 2048000000, 0, 14 * MS);
	cr_expect_eq(fx_select(&fx, 10 * MS), 0);
	cr_expect_eq(fx_select(&fx, 10 * MS), 1);
	cr_expect_eq(fx_select(&fx, 10 * MS), 0);
	fx_exit(&fx);

	fx_init(&fx, "0", 2);
	fx_sample(&fx, 0, 8 * MS, 10 * MS);
	fx_sample(&fx, 1, 8 * MS - 1, 10 * MS - 1);
	fx_expect(&fx, 1, 2048000000, 0, 14 * MS - 1);
	cr_expect_eq(fx_select(&fx, 10 * MS), 1);
	cr_expect_eq(fx_select(&fx, 10 * MS), 1);
	fx_exit(&fx);
}

/*
 * The walk over plain paths (two idle, the least cost idle) where a
 * cost is one more than the best's.  base 1 (weight 1 for samples
 * below 2^24 ns), T = 0, three paths, valid_count 3.  A sample of st ns
 * makes hst (hst * 1 + st * 1024 * 1023 + 512) >> 10, from 1024 (§3.3):
 * st * 1023 + 1 for the first, st * 1023 + (hst + 512) / 1024 after:
 *   P: st 1 ns, then 1 ms ending at 20 ms: hst 1024, then 1 + 1023000000;
 *      one I/O: cost 2046000002; stale 20 ms + 3 * 999023 = 22997069;
 *   Q: st 3 ns, then 2 ms ending at 20 ms: hst 3070, then 3 + 2046000000;
 *      idle: cost 2046000003, one more than P's; stale 20 ms + 3 *
 *      1998046 = 25994138;
 *   R: st 1.9 ms ending at 21 ms: hst 1943700001, idle, the least cost;
 *      stale 21 ms + 3 * 1898144 = 26694432, after Q's.
 * At 21 ms all are fresh.  The kernel's walk: P; Q against P by cost,
 * more: P; R against P by cost, less: R.  Had Q taken over (at one
 * more, or P's cost counted higher, or Q's lower, or Q and P compared by
 * stale_after), R would meet Q with both idle, and Q's stale_after is
 * earlier: Q (or P) would stay.
 */
Test(hst, plain_walk_cost_one_more_loses)
{
	struct hst_fx fx;

	fx_init(&fx, "1", 3);
	fx_sample(&fx, 0, 0, 1);
	fx_sample(&fx, 1, 0, 3);
	cr_expect_eq(fx_hst(&fx, 0), 1024);
	cr_expect_eq(fx_hst(&fx, 1), 3070);
	fx_sample(&fx, 0, 19 * MS, 20 * MS);
	fx_sample(&fx, 1, 18 * MS, 20 * MS);
	fx_sample(&fx, 2, 19100000, 21 * MS);
	fx_start(&fx, 0, 1);
	fx_expect(&fx, 0, 1023000001, 1, 22997069);
	fx_expect(&fx, 1, 2046000003, 0, 25994138);
	fx_expect(&fx, 2, 1943700001, 0, 26694432);
	cr_expect_eq(fx_select(&fx, 21 * MS), 2);
	fx_exit(&fx);
}

/*
 * The walk keeps the best path's cost and stale_after as it goes.  base
 * 0 (hst = st * 1024, stale_after = end + valid_count * st), T = 0.
 * Costs in units of 1024 * 1 ms:
 *  1. four paths, all ending at 100 ms, valid_count 4:
 *     A st 5 ms, one I/O: cost 10; B st 4 ms, idle: cost 4, stale 116 ms;
 *     C st 4 ms, one I/O: cost 8; D st 50 ms, idle: cost 50, stale 300 ms.
 *     Walk: A; B (4 <= 10): B; C against B, 8 > 4: B; D against B, both
 *     idle, later stale: B.  Measured against A's cost still, C would
 *     take over, and D (busy C, cost 50 > 8) would not.
 *  2. three idle paths, valid_count 3: A st 10 ms ending at 230 ms, stale
 *     260 ms; B st 4 ms ending at 230 ms, stale 242 ms, the least cost; C
 *     st 50 ms ending at 100 ms, stale 250 ms.  Walk: A; B, earlier stale:
 *     B; C against B, later stale: B.  Measured against A's stale_after
 *     still, C would take over.
 */
Test(hst, plain_walk_keeps_the_best_values)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 4);
	fx_sample(&fx, 0, 95 * MS, 100 * MS);
	fx_sample(&fx, 1, 96 * MS, 100 * MS);
	fx_sample(&fx, 2, 96 * MS, 100 * MS);
	fx_sample(&fx, 3, 50 * MS, 100 * MS);
	fx_start(&fx, 0, 1);
	fx_start(&fx, 2, 1);
	fx_expect(&fx, 1, 4096000000ULL, 0, 116 * MS);
	fx_expect(&fx, 3, 51200000000ULL, 0, 300 * MS);
	cr_expect_eq(fx_select(&fx, 100 * MS), 1);
	fx_exit(&fx);

	fx_init(&fx, "0", 3);
	fx_sample(&fx, 2, 50 * MS, 100 * MS);
	fx_sample(&fx, 0, 220 * MS, 230 * MS);
	fx_sample(&fx, 1, 226 * MS, 230 * MS);
	fx_expect(&fx, 0, 10240000000ULL, 0, 260 * MS);
	fx_expect(&fx, 1, 4096000000ULL, 0, 242 * MS);
	fx_expect(&fx, 2, 51200000000ULL, 0, 250 * MS);
	cr_expect_eq(fx_select(&fx, 230 * MS), 1);
	fx_exit(&fx);
}

/*
 * The walk pair by pair (a stale path S, busy, last in list order, makes
 * not every path plain), where the plain pairs before it are decided by
 * cost.  S loses to each of them: its cost is higher and theirs are fresh
 * (compare returns 1, or S stale with more I/Os returns out1 - out2 > 0).
 *  1. base 0, A and B st 1 ms ending at 10 ms, one I/O each: equal costs
 *     2 * 1024000000; S st 1 ms ending at 1 ms (stale after 4 ms), five
 *     I/Os.  At 10 ms: B against A, equal cost, B (the later wins ties).
 *  2. base 1 (as in plain_walk_cost_one_more_loses): P one I/O, cost
 *     2046000002; Q idle, cost 2046000003, one more; S st 1 ms ending at
 *     1 ms, hst 1023000001, stale after 3997069 ns, five I/Os.  At 21 ms:
 *     Q against P, more: P.
 *  3. base 0, valid_count 4, ending at 100 ms, in units of 1024 * 1 ms:
 *     A st 5 ms, one I/O: cost 10; B st 2 ms, one I/O: cost 4; C st 6 ms,
 *     idle: cost 6; S st 1 ms ending at 1 ms, five I/Os.  B against A:
 *     B; C against B, 6 > 4: B (against A's cost still, C).  S against C
 *     would be (1+5)*1 > (1+0)*6 false, S stale: 5 - 0 > 0, C.
 */
Test(hst, walk_by_keys_beside_a_stale_path)
{
	struct hst_fx fx;

	fx_init(&fx, "0", 3);
	fx_sample(&fx, 2, 0, MS);
	fx_sample(&fx, 0, 9 * MS, 10 * MS);
	fx_sample(&fx, 1, 9 * MS, 10 * MS);
	fx_start(&fx, 0, 1);
	fx_start(&fx, 1, 1);
	fx_start(&fx, 2, 5);
	fx_expect(&fx, 2, 1024000000, 5, 4 * MS);
	cr_expect_eq(fx_select(&fx, 10 * MS), 1);
	fx_exit(&fx);

	fx_init(&fx, "1", 3);
	fx_sample(&fx, 2, 0, MS);
	fx_sample(&fx, 0, 0, 1);
	fx_sample(&fx, 1, 0, 3);
	fx_sample(&fx, 0, 19 * MS, 20 * MS);
	fx_sample(&fx, 1, 18 * MS, 20 * MS);
	fx_start(&fx, 0, 1);
	fx_start(&fx, 2, 5);
	fx_expect(&fx, 0, 1023000001, 1, 22997069);
	fx_expect(&fx, 1, 2046000003, 0, 25994138);
	fx_expect(&fx, 2, 1023000001, 5, 3997069);
	cr_expect_eq(fx_select(&fx, 21 * MS), 0);
	fx_exit(&fx);

	fx_init(&fx, "0", 4);
	fx_sample(&fx, 3, 0, MS);
	fx_sample(&fx, 0, 95 * MS, 100 * MS);
	fx_sample(&fx, 1, 98 * MS, 100 * MS);
	fx_sample(&fx, 2, 94 * MS, 100 * MS);
	fx_start(&fx, 0, 1);
	fx_start(&fx, 1, 1);
	fx_start(&fx, 3, 5);
	fx_expect(&fx, 3, 1024000000, 5, 5 * MS);
	cr_expect_eq(fx_select(&fx, 100 * MS), 1);
	fx_exit(&fx);
}

/*
 * Equal estimates return -1 (§3.9, §9.1): four paths with the same hst
 * (base 0, st 1 ms), one I/O each, fresh until 5 ms, T = 0.  Each later
 * path replaces best, so the LAST in list order, D, wins; D stays at the
 * tail and wins again.  Give D a second I/O and C, now last among the
 * equal ones, wins.
 */
Test(hst, equal_estimate_last_wins)
{
	struct hst_fx fx;
	unsigned i;

	fx_init(&fx, "0", 4);
	for (i = 0; i < 4; i++) {
		fx_sample(&fx, i, 0, 1000000);
		fx_start(&fx, i, 1);
	}
	fx_expect(&fx, 0, 1024000000, 1, 1000000 + 4 * 1000000);
	cr_expect_eq(fx_select(&fx, 2000000), 3);
	cr_expect_eq(fx_select(&fx, 2000000), 3);
	fx_start(&fx, 3, 1);
	cr_expect_eq(fx_select(&fx, 2000000), 2);
	fx_exit(&fx);
}

/* ---- arguments (§3.2) ---- */

static void expect_bad_create(const char *args)
{
	struct path_selector ps;
	char err[ERR_MAX] = "";

	memset(&ps, 0, sizeof(ps));
	cr_expect_eq(ps_init(&ps, &ps_historical_service_time, args, err),
		     -EINVAL, "args \"%s\" accepted", args);
	cr_expect(strstr(err, "historical-service-time ps: ") == err,
		  "args \"%s\": message \"%s\"", args, err);
}

Test(hst, bad_selector_args)
{
	expect_bad_create("1 2 3");
	expect_bad_create("1024");
	expect_bad_create("5000");
	expect_bad_create("abc");
	expect_bad_create("97x");
	expect_bad_create("-1");
	expect_bad_create("+5");
	expect_bad_create("0x10");
	expect_bad_create("972 x");
	expect_bad_create("972 -1");
	expect_bad_create("972 4294967296");
}

/* The message names the word that was refused, not its neighbour. */
static void expect_bad_word(const char *args, const char *word)
{
	struct path_selector ps;
	char err[ERR_MAX] = "";

	memset(&ps, 0, sizeof(ps));
	cr_expect_eq(ps_init(&ps, &ps_historical_service_time, args, err),
		     -EINVAL, "args \"%s\" accepted", args);
	cr_expect(strstr(err, word) != NULL, "args \"%s\": message \"%s\" "
		  "does not name %s", args, err, word);
}

Test(hst, bad_selector_args_named)
{
	expect_bad_word("97x 5", "'97x'");
	expect_bad_word("1024", "'1024'");
	expect_bad_word("972 x", "'x'");
	expect_bad_word("5 6x", "'6x'");
}

static void expect_status(struct hst_fx *fx, struct ps_path *path,
			  enum ps_status_type type, const char *want)
{
	char buf[128];
	int n;

	n = ps_historical_service_time.status(&fx->ps, path, type, buf,
					      sizeof(buf));
	cr_expect_str_eq(buf, want);
	cr_expect_eq(n, (int)strlen(want));
}

Test(hst, good_selector_args)
{
	struct hst_fx fx;

	fx_init(&fx, "1023", 0);
	expect_status(&fx, NULL, PS_STATUS_TABLE, "2 1023 0 ");
	fx_exit(&fx);
	fx_init(&fx, "0 4294967295", 0);
	expect_status(&fx, NULL, PS_STATUS_TABLE, "2 0 4294967295 ");
	fx_exit(&fx);
	fx_init(&fx, "0512 3", 0);
	expect_status(&fx, NULL, PS_STATUS_INFO, "2 512 3 ");
	fx_exit(&fx);
}

static void expect_bad_path(const char *args)
{
	struct hst_fx fx;
	struct ps_path p = { .name = "X", .index = 1 };
	struct ps_path *pp[] = { NULL, &p };

	fx_init(&fx, "", 1);
	fx.err[0] = '\0';
	cr_expect_eq(ps_add_path(&fx.ps, &p, args, fx.err), -EINVAL,
		     "path args \"%s\" accepted", args);
	cr_expect(strstr(fx.err, "historical-service-time ps: ") == fx.err,
		  "path args \"%s\": message \"%s\"", args, fx.err);
	/* a single bad word is named in the message */
	if (!strchr(args, ' '))
		cr_expect(strstr(fx.err, args) != NULL,
			  "path args \"%s\": message \"%s\"", args, fx.err);
	/* the rejected path never joined the list: A is chosen every time */
	cr_expect_eq(fx_select(&fx, 1000), 0);
	cr_expect_eq(fx_select(&fx, 1000), 0);
	/* free p's block too if the core left it allocated */
	pp[0] = &fx.path[0];
	ps_exit(&fx.ps, pp, p.ps_ctx ? 2 : 1);
}

Test(hst, bad_path_args)
{
	expect_bad_path("1 2");
	expect_bad_path("x");
	expect_bad_path("-1");
}

/* repeat_count is accepted and stored; it changes nothing visible. */
Test(hst, repeat_count_stored_only)
{
	struct hst_fx fx;

	fx_init(&fx, "", 1);
	fx.path[1].name = "B";
	fx.path[1].index = 1;
	fx.pp[1] = &fx.path[1];
	cr_assert_eq(ps_add_path(&fx.ps, &fx.path[1], "7", fx.err), 0, "%s",
		     fx.err);
	fx.n = 2;
	fx.path[2].name = "C";
	fx.path[2].index = 2;
	fx.pp[2] = &fx.path[2];
	cr_assert_eq(ps_add_path(&fx.ps, &fx.path[2], "0", fx.err), 0, "%s",
		     fx.err);
	fx.n = 3;
	expect_status(&fx, &fx.path[1], PS_STATUS_TABLE, "0 ");
	expect_status(&fx, &fx.path[1], PS_STATUS_INFO, "1024 0 0 ");
	/* with repeat counts 1, 7 and 0 the start-up rotation is unchanged */
	cr_expect_eq(fx_select(&fx, 1000), 0);
	fx_start(&fx, 0, 1);
	cr_expect_eq(fx_select(&fx, 1000), 1);
	fx_start(&fx, 1, 1);
	cr_expect_eq(fx_select(&fx, 1000), 2);
	fx_exit(&fx);
}

/* ---- status (§3.2) ---- */

Test(hst, status_strings)
{
	struct hst_fx fx;
	char buf[4];

	fx_init(&fx, "", 2);
	expect_status(&fx, NULL, PS_STATUS_TABLE, "2 972 0 ");
	expect_status(&fx, NULL, PS_STATUS_INFO, "2 972 0 ");
	expect_status(&fx, &fx.path[0], PS_STATUS_TABLE, "0 ");
	expect_status(&fx, &fx.path[0], PS_STATUS_INFO, "1024 0 0 ");

	/* an end_io without start_io wraps outstanding: printed as u64 */
	fx_end(&fx, 1, 0, 1000000);
	expect_status(&fx, &fx.path[1], PS_STATUS_INFO,
		      "52000972 18446744073709551615 1101564 ");

	/* truncated like scnprintf: 3 characters and the NUL */
	cr_expect_eq(ps_historical_service_time.status(&fx.ps, NULL,
			PS_STATUS_TABLE, buf, sizeof(buf)), 3);
	cr_expect_str_eq(buf, "2 9");
	fx_exit(&fx);
}

/* The trace words name what hst_compare() reads and what end_io charged:
 * §3.7's rows, st 1 ms (bucket 0, weight 972) then 20 ms after a
 * completion at 1 ms that the serial clamp moves the start to (bucket 1,
 * weight 923: (52000972 * 923 + 20000000 * 1024 * 101 + 512) >> 10 =
 * 2066871970), with two valid paths so stale_after = now + 2 * hst >> 10. */
Test(hst, trace_status)
{
	struct hst_fx fx;

	fx_init(&fx, "972 3", 2);
	expect_status(&fx, NULL, PS_STATUS_TRACE,
		      "valid_count=2 threshold_multiplier=3 ");
	expect_status(&fx, &fx.path[0], PS_STATUS_TRACE,
		      "hst=1024 outstanding=0 stale_after=0 last_finish=0 "
		      "last_service=0 last_weight=0 ");
	fx_start(&fx, 0, 2);
	fx_end(&fx, 0, 0, 1000000);
	expect_status(&fx, &fx.path[0], PS_STATUS_TRACE,
		      "hst=52000972 outstanding=1 stale_after=1101564 "
		      "last_finish=1000000 last_service=1000000 last_weight=972 ");
	/* started at 0, but charged from the last finish (§3.6 step 2) */
	fx_end(&fx, 0, 0, 21000000);
	cr_assert_eq(hst_w972[1], 923);
	expect_status(&fx, &fx.path[0], PS_STATUS_TRACE,
		      "hst=2066871970 outstanding=0 stale_after=25036858 "
		      "last_finish=21000000 last_service=20000000 "
		      "last_weight=923 ");
	fx_exit(&fx);
}

Test(hst, type_fields)
{
	const struct ps_type *t = &ps_historical_service_time;

	cr_expect_str_eq(t->name, "historical-service-time");
	cr_expect_str_eq(t->alias, "hst");
	cr_expect_str_eq(t->kernel_file,
			 "drivers/md/dm-ps-historical-service-time.c");
	cr_expect_eq(t->features, PS_USE_HR_TIMER);
	cr_expect_eq(t->table_args, 1);
	cr_expect_eq(t->info_args, 3);
	cr_expect(t->ctx_size > 0 && t->path_size > 0);
}
