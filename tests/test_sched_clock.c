/*
 * test_sched_clock.c: the scheduler's clock of docs/kernel-model.md §1.5 and the
 * 5.8-5.17 historical-service-time that read it in select_path while
 * end_io stamped stale_after with ktime (§3.10): an offset between the two
 * clocks shifts every staleness decision.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "sim/clock.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"

Test(sched_clock, tsc_is_ktime_plus_offset_and_drift)
{
	struct sched_clock c = { false, 0, 0 };

	cr_assert_eq(sched_clock_at(&c, 250, 123456789), 123456789);
	c.offset = 5000;
	cr_assert_eq(sched_clock_at(&c, 250, 1000), 6000);
	/* behind ktime, clamped at 0 near boot */
	c.offset = -5 * (int64_t)NSEC_PER_MSEC;
	cr_assert_eq(sched_clock_at(&c, 250, NSEC_PER_MSEC), 0);
	cr_assert_eq(sched_clock_at(&c, 250, 10 * NSEC_PER_MSEC),
		     5 * NSEC_PER_MSEC);
	/* 100 ppm fast: 360 ms gained over an hour */
	c.offset = 0;
	c.drift_ppm = 100;
	cr_assert_eq(sched_clock_at(&c, 250, 3600 * NSEC_PER_SEC),
		     3600 * NSEC_PER_SEC + 360 * NSEC_PER_MSEC);
	c.drift_ppm = -100;
	cr_assert_eq(sched_clock_at(&c, 250, 3600 * NSEC_PER_SEC),
		     3600 * NSEC_PER_SEC - 360 * NSEC_PER_MSEC);
}

/* The clamps at their edges: 1 ns behind boot reads 0, not 2^64 - 1;
 * 2^64 - 1 ns reads as itself and one more saturates, not wraps to 0. */
Test(sched_clock, tsc_clamped_at_0_and_2_pow_64)
{
	struct sched_clock c = { false, -1, 0 };

	cr_assert_eq(sched_clock_at(&c, 250, 0), 0);
	cr_assert_eq(sched_clock_at(&c, 250, 1), 0);
	cr_assert_eq(sched_clock_at(&c, 250, 2), 1);
	c.offset = 0;
	cr_assert_eq(sched_clock_at(&c, 250, UINT64_MAX), UINT64_MAX);
	c.offset = 1;
	cr_assert_eq(sched_clock_at(&c, 250, UINT64_MAX), UINT64_MAX);
	cr_assert_eq(sched_clock_at(&c, 250, UINT64_MAX - 1), UINT64_MAX);
	cr_assert_eq(sched_clock_at(&c, 250, UINT64_MAX - 2), UINT64_MAX - 1);
}

Test(sched_clock, weak_default_counts_whole_ticks)
{
	struct sched_clock c = { true, 0, 0 };

	/* HZ=250: 4 ms ticks; 9.999 ms is two whole ticks */
	cr_assert_eq(sched_clock_at(&c, 250, 9999999), 8000000);
	cr_assert_eq(sched_clock_at(&c, 250, 0), 0);
	/* HZ=300: NSEC_PER_SEC / HZ = 3333333 ns by integer division, so
	 * after one second (300 ticks) it reads 999999900 ns */
	cr_assert_eq(sched_clock_at(&c, 300, NSEC_PER_SEC), 999999900);
	/* HZ=100: 10 ms ticks */
	cr_assert_eq(sched_clock_at(&c, 100, 3600 * NSEC_PER_SEC + 9999999),
		     3600 * NSEC_PER_SEC);
}

static void load_default(struct scenario *sc, const char *const *kv)
{
	char err[ERR_MAX];

	scenario_init(sc);
	cr_assert_eq(scenario_load_builtin(sc, "hst-bio-mpath", err), 0, "%s", err);
	for (; *kv; kv += 2)
		cr_assert_eq(scenario_set(sc, kv[0], kv[1], err), 0, "%s: %s",
			     kv[0], err);
}

static double share(const struct run_result *r, unsigned p)
{
	return (double)r->path[p].ios / (double)r->total.ios;
}

Test(sched_clock, equal_clocks_change_nothing)
{
	/* sched_clock equal to ktime: the 5.8-5.17 selector decides exactly
	 * as the 5.18+ one does, I/O for I/O */
	static const char *const base[] = {
		"clock", "jiffies", "runtime", "500ms", "ramp_time", "50ms", NULL
	};
	static const char *const sched[] = {
		"clock", "jiffies", "runtime", "500ms", "ramp_time", "50ms",
		"select_clock", "sched_clock", NULL
	};
	struct scenario a, b;
	struct run_result ra, rb;
	char err[ERR_MAX];
	unsigned p;

	load_default(&a, base);
	load_default(&b, sched);
	cr_assert_eq(run_scenario(&a, 5, &ra, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&b, 5, &rb, err), 0, "%s", err);
	for (p = 0; p < ra.nr_paths; p++) {
		cr_assert_eq(ra.path[p].ios, rb.path[p].ios);
		cr_assert_eq(ra.path[p].lat.sum, rb.path[p].lat.sum);
	}
	run_result_free(&ra);
	run_result_free(&rb);
	scenario_free(&a);
	scenario_free(&b);
}

Test(sched_clock, a_clock_ahead_makes_starved_paths_stale)
{
	/*
	 * HST (jiffies) starves the slow paths because their stale_after,
	 * last_finish + 10 x 300 s, lies about 3000 s ahead of ktime.  A
	 * sched_clock an hour ahead passes every stale_after, so the stale
	 * probe sends the idle slow paths I/O again.
	 */
	static const char *const ktime[] = {
		"clock", "jiffies", "runtime", "1s", "ramp_time", "100ms", NULL
	};
	static const char *const ahead[] = {
		"clock", "jiffies", "runtime", "1s", "ramp_time", "100ms",
		"select_clock", "sched_clock", "sched_clock_offset", "3600s",
		NULL
	};
	struct scenario a, b;
	struct run_result ra, rb;
	char err[ERR_MAX];
	unsigned sdj = 6;

	load_default(&a, ktime);
	load_default(&b, ahead);
	cr_assert_str_eq(a.paths[sdj].name, "sdj");
	cr_assert_eq(run_scenario(&a, 1, &ra, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&b, 1, &rb, err), 0, "%s", err);
	cr_expect_lt(share(&ra, sdj), 0.001, "ktime: sdj %.4f", share(&ra, sdj));
	cr_expect_gt(share(&rb, sdj), 0.005, "ahead: sdj %.4f", share(&rb, sdj));
	run_result_free(&ra);
	run_result_free(&rb);
	scenario_free(&a);
	scenario_free(&b);
}

Test(sched_clock, options_are_checked)
{
	struct scenario sc;
	char err[ERR_MAX];

	scenario_init(&sc);
	cr_assert_eq(scenario_set(&sc, "sched_clock_offset", "-2ms", err), 0, "%s", err);
	cr_assert_eq(sc.sched.offset, -2000000);
	cr_assert_eq(scenario_set(&sc, "sched_clock_drift_ppm", "-250", err), 0, "%s", err);
	cr_assert_eq(sc.sched.drift_ppm, -250);
	cr_assert_eq(scenario_set(&sc, "sched_clock", "jiffies", err), 0, "%s", err);
	cr_assert(sc.sched.jiffies);
	cr_assert_eq(scenario_set(&sc, "select_clock", "sundial", err), -EINVAL);
	cr_assert(strstr(err, "sundial"));
	cr_assert_eq(scenario_set(&sc, "sched_clock_offset", "2 parsecs", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "sched_clock_drift_ppm", "1000001", err), -EINVAL);
	scenario_free(&sc);
}

Test(sched_clock, kernel_version_sets_the_clocks)
{
	static const struct {
		const char *version;
		enum start_clock clock;
		bool sched;
	} want[] = {
		{ "5.8", START_JIFFIES, true },		/* HST merged */
		{ "5.10.200", START_JIFFIES, false },	/* stable backport */
		{ "5.17", START_JIFFIES, true },
		{ "5.18", START_JIFFIES, false },	/* ce40426fdc3c */
		{ "5.19", START_KTIME, false },		/* c06dfd124d46 */
		{ "6.1", START_KTIME, false },
		{ "4.19", START_JIFFIES, true },
	};
	struct scenario sc;
	char err[ERR_MAX];
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		scenario_init(&sc);
		cr_assert_eq(scenario_set(&sc, "kernel", want[i].version, err),
			     0, "%s: %s", want[i].version, err);
		cr_expect_eq(sc.clock, want[i].clock, "%s", want[i].version);
		cr_expect_eq(sc.select_sched_clock, want[i].sched, "%s",
			     want[i].version);
		scenario_free(&sc);
	}
	scenario_init(&sc);
	/* a later option still overrides what the version set */
	cr_assert_eq(scenario_set(&sc, "kernel", "5.10", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "clock", "ktime", err), 0, "%s", err);
	cr_assert_eq(sc.clock, START_KTIME);
	/* before 4.11 the selectors honoured repeat_count: refused */
	cr_assert_eq(scenario_set(&sc, "kernel", "4.10", err), -EINVAL);
	cr_assert(strstr(err, "4.11"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "v5.10", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "kernel", "5", err), -EINVAL);
	scenario_free(&sc);
}

Test(sched_clock, hst_is_refused_on_kernels_before_5_8)
{
	struct scenario sc;
	char err[ERR_MAX];

	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.4", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "5.8"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "selector", "st", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	scenario_free(&sc);
}
