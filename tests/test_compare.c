/*
 * test_compare.c: the headline result.  The built-in scenario (ten paths
 * of unequal cost, bio-based, HZ=250, 3600 s uptime, randwrite at depth
 * 64) must reproduce the shape of docs/kernel-model.md §6.2: with the 5.8-5.18
 * jiffies start stamp HST starves the five slower paths and splits the
 * I/O evenly over the five fast ones; ST and HST with the ktime stamp
 * give every path a share close to its capacity.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "report/report.h"
#include "sim/run.h"

static struct compare_result cr;
static struct scenario sc;

static void setup(void)
{
	char err[ERR_MAX];

	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s", err);
	cr_assert_eq(compare_run(&sc, 1, NULL, &cr, err), 0, "%s", err);
}

static void teardown(void)
{
	compare_free(&cr);
	scenario_free(&sc);
}

static const struct run_result *column(const char *key)
{
	unsigned c;

	for (c = 0; c < cr.nr_cols; c++)
		if (!strcmp(cr.cols[c]->key, key))
			return &cr.runs[c];
	cr_assert_fail("no column %s", key);
	return NULL;
}

static double share(const struct run_result *r, unsigned p)
{
	return (double)r->path[p].ios / (double)r->total.ios;
}

/* Paths whose mean service time is 100 us: sdd sde sdf sdl sdm. */
static bool fast(const struct run_result *r, unsigned p)
{
	return sc.paths[p].service.mean == 100000.0;
}

Test(compare, hst_jiffies_starves_the_slow_paths, .init = setup,
     .fini = teardown)
{
	const struct run_result *r = column("hst_jiffies");
	unsigned p;

	cr_assert_eq(r->nr_paths, 10);
	for (p = 0; p < r->nr_paths; p++) {
		if (fast(r, p))
			cr_expect(fabs(share(r, p) - 0.20) < 0.005,
				  "%s: %.4f, want 0.20", r->names[p], share(r, p));
		else
			cr_expect(share(r, p) < 0.005, "%s: %.4f, want ~0",
				  r->names[p], share(r, p));
	}
}

Test(compare, st_and_hst_ktime_follow_capacity, .init = setup,
     .fini = teardown)
{
	static const char *const keys[] = { "st", "hst_ktime" };
	unsigned k, p;

	for (k = 0; k < 2; k++) {
		const struct run_result *r = column(keys[k]);

		for (p = 0; p < r->nr_paths; p++)
			cr_expect(fabs(share(r, p) - r->best[p]) < 0.01,
				  "%s %s: %.4f vs best %.4f", keys[k],
				  r->names[p], share(r, p), r->best[p]);
	}
}

Test(compare, best_is_the_capacity_share, .init = setup, .fini = teardown)
{
	/* 1/c summed: 5/100 + 1/275 + 2/500 + 2/950 per us */
	double sum = 5 / 100.0 + 1 / 275.0 + 2 / 500.0 + 2 / 950.0;
	const struct run_result *r = column("st");

	cr_assert_float_eq(r->best[0], (1 / 100.0) / sum, 1e-12);
	cr_assert_float_eq(r->best[3], (1 / 275.0) / sum, 1e-12);
	cr_assert_float_eq(r->best[6], (1 / 950.0) / sum, 1e-12);
}

Test(compare, round_robin_is_bound_by_the_slowest_path, .init = setup,
     .fini = teardown)
{
	/* Round-robin gives each of the ten paths a tenth of the I/O, so the
	 * slowest (950 us) saturates first: X <= 10 / 950 us = 10526 IOPS.
	 * At depth 64 it runs close to that bound. */
	const struct run_result *rr = column("rr");
	double x = (double)rr->total.ios * 1e9 / (double)rr->window;
	double bound = 10 / 950e-6;

	cr_assert_leq(x, bound * 1.01, "RR %.0f IOPS above %.0f", x, bound);
	cr_assert_geq(x, bound * 0.9, "RR %.0f IOPS far below %.0f", x, bound);
}

Test(compare, columns_can_be_chosen)
{
	struct compare_result c2;
	struct scenario s2;
	char err[ERR_MAX];

	scenario_init(&s2);
	cr_assert_eq(scenario_load_builtin(&s2, "hst-bio-mpath", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&s2, "runtime", "20ms", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&s2, "ramp_time", "0", err), 0, "%s", err);
	/* the default table leaves out the sticky jiffies-aligned what-if */
	cr_assert_eq(compare_run(&s2, 1, NULL, &c2, err), 0, "%s", err);
	cr_assert_eq(c2.nr_cols, 5);
	compare_free(&c2);
	cr_assert_eq(compare_run(&s2, 1, "all", &c2, err), 0, "%s", err);
	cr_assert_eq(c2.nr_cols, 6);
	cr_assert_str_eq(c2.cols[3]->key, "hst_jiffies_aligned");
	compare_free(&c2);
	cr_assert_eq(compare_run(&s2, 1, "rr,st", &c2, err), 0, "%s", err);
	cr_assert_eq(c2.nr_cols, 2);
	cr_assert_str_eq(c2.cols[0]->key, "rr");
	compare_free(&c2);
	cr_assert_eq(compare_run(&s2, 1, "st,nope", &c2, err), -EINVAL);
	cr_assert(strstr(err, "nope"), "%s", err);
	scenario_free(&s2);
}
