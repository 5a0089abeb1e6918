/*
 * test_clock.c: sim/clock.c against every test vector of docs/kernel-model.md §1,
 * worked out by hand (or with a calculator) from the kernel arithmetic.
 */
#include <criterion/criterion.h>

#include "sim/clock.h"

static const unsigned all_hz[] = { 100, 250, 300, 1000 };

#define S(x)	((sim_ns)(x) * NSEC_PER_SEC)
#define MS(x)	((sim_ns)(x) * NSEC_PER_MSEC)

TestSuite(clock);

Test(clock, hz_valid_accepts_the_four_kernel_choices)
{
	cr_assert(hz_valid(100));
	cr_assert(hz_valid(250));
	cr_assert(hz_valid(300));
	cr_assert(hz_valid(1000));
	cr_assert_not(hz_valid(0));
	cr_assert_not(hz_valid(24));
	cr_assert_not(hz_valid(200));
	cr_assert_not(hz_valid(1024));
}

/* §1.1: 2^32 - 300*HZ. */
Test(clock, initial_jiffies_table)
{
	cr_assert_eq(initial_jiffies(100), 4294937296ULL);
	cr_assert_eq(initial_jiffies(250), 4294892296ULL);
	cr_assert_eq(initial_jiffies(300), 4294877296ULL);
	cr_assert_eq(initial_jiffies(1000), 4294667296ULL);
	/* jiffies_64 at boot is that value; the low 32 bits wrap at 300 s. */
	cr_assert_eq(jiffies_at(250, 0), 4294892296ULL);
	cr_assert_eq(jiffies_at(250, S(300)), 1ULL << 32);
	cr_assert_eq(jiffies_at(1000, S(300) - 1), (1ULL << 32) - 1);
}

/*
 * jiffies_at() takes t * HZ in 64 bits while it cannot wrap, t at most
 * UINT64_MAX / 1000 = 18446744073709551 ns (213 days), and in 128 bits
 * beyond: the two must meet without a seam.  By hand, floor(t * HZ / 1e9)
 * plus INITIAL_JIFFIES:
 *   HZ=1000: t / 1e6, 18446744073 for t = 18446744073709551 and the next
 *            ns; 18446744073709 for t = 2^64 - 1;
 *   HZ=300:  t * 3 / 1e7 = 5534023222.11 for both.
 * Taking the 64-bit product one ns too far would wrap to 384 ns.
 */
Test(clock, jiffies_at_where_64_bits_end)
{
	const sim_ns t = 18446744073709551ULL;

	cr_assert_eq(jiffies_at(1000, t), 4294667296ULL + 18446744073ULL);
	cr_assert_eq(jiffies_at(1000, t + 1), 4294667296ULL + 18446744073ULL);
	cr_assert_eq(jiffies_at(1000, UINT64_MAX),
		     4294667296ULL + 18446744073709ULL);
	cr_assert_eq(jiffies_at(300, t), 4294877296ULL + 5534023222ULL);
	cr_assert_eq(jiffies_at(300, t + 1), 4294877296ULL + 5534023222ULL);
	/* UINT64_MAX / 999: t * 1000 wraps in 64 bits (to 18465209 ticks) */
	cr_assert_eq(jiffies_at(1000, 18465209282992544ULL),
		     4294667296ULL + 18465209282ULL);
}

/* §1.2 test vectors. */
Test(clock, jiffies_to_nsecs_at_boot_and_after_600s)
{
	cr_assert_eq(jiffies_to_nsecs(100, 4294937296ULL), 3994967296000ULL);
	cr_assert_eq(jiffies_to_nsecs(250, 4294892296ULL), 3994967296000ULL);
	cr_assert_eq(jiffies_to_nsecs(1000, 4294667296ULL), 3994967296000ULL);
	cr_assert_eq(jiffies_to_nsecs(300, 4294877296ULL), 1131655765000ULL);

	cr_assert_eq(jiffies_to_nsecs(100, 4294937296ULL + 600 * 100),
		     300000000000ULL);
	cr_assert_eq(jiffies_to_nsecs(250, 4294892296ULL + 600 * 250),
		     300000000000ULL);
	cr_assert_eq(jiffies_to_nsecs(1000, 4294667296ULL + 600 * 1000),
		     300000000000ULL);
	/* HZ=300: the boot value plus 600 s. */
	cr_assert_eq(jiffies_to_nsecs(300, 4294877296ULL + 600 * 300),
		     1731655765000ULL);
}

/* The result is u32 microseconds: the product is cut to 32 bits. */
Test(clock, jiffies_to_usecs_truncates_to_32_bits)
{
	/* 4000 * (2^32 - 1) mod 2^32 = 2^32 - 4000 */
	cr_assert_eq(jiffies_to_usecs(250, (1ULL << 32) - 1), 4294963296U);
	cr_assert_eq(jiffies_to_usecs(250, 1ULL << 32), 0U);
	cr_assert_eq(jiffies_to_usecs(1000, (1ULL << 32) + 1), 1000U);
	cr_assert_eq(jiffies_to_usecs(100, 7), 70000U);
	/* HZ=300 floors j * 10000 / 3: 1 -> 3333, 2 -> 6666, 3 -> 10000 */
	cr_assert_eq(jiffies_to_usecs(300, 1), 3333U);
	cr_assert_eq(jiffies_to_usecs(300, 2), 6666U);
	cr_assert_eq(jiffies_to_usecs(300, 3), 10000U);
	cr_assert_eq(jiffies_to_nsecs(300, 2), 6666000ULL);
}

/* §1.2: the value wraps every 2^32 us: at 300 s and again 4294.967296 s
 * later (HZ=1000 ticks are whole ms, so the jump shows at 4594.968 s). */
Test(clock, jiffies_to_nsecs_wraps_every_2_pow_32_us)
{
	cr_assert_eq(jiffies_to_nsecs(1000, jiffies_at(1000, MS(299999))),
		     4294966296000ULL);
	cr_assert_eq(jiffies_to_nsecs(1000, jiffies_at(1000, S(300))), 0ULL);
	cr_assert_eq(jiffies_to_nsecs(1000, jiffies_at(1000, MS(4594967))),
		     4294967000000ULL);
	cr_assert_eq(jiffies_to_nsecs(1000,
				      jiffies_at(1000, MS(4594968) - 1)),
		     4294967000000ULL);
	cr_assert_eq(jiffies_to_nsecs(1000, jiffies_at(1000, MS(4594968))),
		     704000ULL);
	/* HZ=100: one tick before 300 s is 2^32 - 10000 us. */
	cr_assert_eq(jiffies_to_nsecs(100, jiffies_at(100, MS(299990))),
		     4294957296000ULL);
	cr_assert_eq(jiffies_to_nsecs(100, jiffies_at(100, S(300))), 0ULL);
}

/* §1.3, the whole table. */
Test(clock, msecs_to_jiffies_table)
{
	static const unsigned ms[] = { 1, 2, 3, 4, 5, 10, 20, 49, 50 };
	static const uint64_t want[4][9] = {
		{ 1, 1, 1, 1, 1, 1, 2, 5, 5 },		/* 100 */
		{ 1, 1, 1, 1, 2, 3, 5, 13, 13 },	/* 250 */
		{ 1, 1, 1, 2, 2, 3, 6, 15, 15 },	/* 300 */
		{ 1, 2, 3, 4, 5, 10, 20, 49, 50 },	/* 1000 */
	};
	unsigned h, i;

	for (h = 0; h < 4; h++)
		for (i = 0; i < ARRAY_SIZE(ms); i++)
			cr_assert_eq(msecs_to_jiffies(all_hz[h], ms[i]),
				     want[h][i], "HZ=%u %u ms", all_hz[h],
				     ms[i]);
}

Test(clock, msecs_to_jiffies_edges)
{
	unsigned h;

	for (h = 0; h < 4; h++) {
		cr_assert_eq(msecs_to_jiffies(all_hz[h], 0), 0ULL);
		/* negative as int: infinite, (LONG_MAX >> 1) - 1 */
		cr_assert_eq(msecs_to_jiffies(all_hz[h], 0x80000000U),
			     4611686018427387902ULL);
		cr_assert_eq(msecs_to_jiffies(all_hz[h], 0xffffffffU),
			     4611686018427387902ULL);
	}
	/* the largest non-negative int still rounds up */
	cr_assert_eq(msecs_to_jiffies(100, 2147483647U), 214748365ULL);
	cr_assert_eq(msecs_to_jiffies(300, 2147483647U), 644245095ULL);
	cr_assert_eq(msecs_to_jiffies(1000, 2147483647U), 2147483647ULL);
	/* HZ=300 exact multiples do not round: 10 ms -> 3, 1000 ms -> 300 */
	cr_assert_eq(msecs_to_jiffies(300, 1000), 300ULL);
	cr_assert_eq(msecs_to_jiffies(300, 11), 4ULL);
}

/*
 * §1.2 [derived]: for HZ 100/250/1000 the stamp is
 * ((tick-floored uptime in us - 300,000,000) mod 2^32) * 1000 ns: ahead of
 * ktime for the first 300 s, at least 300 s behind afterwards.
 */
Test(clock, jiffies_epoch_before_and_after_300s)
{
	static const struct {
		unsigned t_s;
		uint64_t ns;
	} v[] = {
		{ 1, 3995967296000ULL },	/* 2^32 us - 299 s */
		{ 299, 4293967296000ULL },
		{ 300, 0 },
		{ 301, 1000000000ULL },
		{ 400, 100000000000ULL },
		{ 4594, 4294000000000ULL },
	};
	unsigned h, i;

	for (h = 0; h < 4; h++) {
		unsigned hz = all_hz[h];

		if (hz == 300)
			continue;
		for (i = 0; i < ARRAY_SIZE(v); i++) {
			uint64_t got = jiffies_to_nsecs(hz,
						jiffies_at(hz, S(v[i].t_s)));

			cr_assert_eq(got, v[i].ns, "HZ=%u t=%us", hz, v[i].t_s);
			if (v[i].t_s < 300)
				cr_assert_gt(got, S(v[i].t_s));
			else
				cr_assert_geq(S(v[i].t_s) - got, S(300));
		}
	}
}

/* The same formula at every tick-aligned and mid-tick instant of a
 * 3-hour walk with an odd step (all three wraps included). */
Test(clock, jiffies_epoch_formula_over_three_hours)
{
	static const unsigned hzs[] = { 100, 250, 1000 };
	unsigned h;

	for (h = 0; h < ARRAY_SIZE(hzs); h++) {
		uint64_t tick_us = 1000000 / hzs[h];
		sim_ns t;

		for (t = 0; t < S(3 * 3600); t += 7300123457ULL) {
			uint64_t us = t / 1000 / tick_us * tick_us;
			uint64_t want = ((us + (1ULL << 32) * 2 - 300000000ULL)
					 % (1ULL << 32)) * 1000;

			cr_assert_eq(jiffies_to_nsecs(hzs[h],
						      jiffies_at(hzs[h], t)),
				     want, "HZ=%u t=%llu", hzs[h],
				     (unsigned long long)t);
		}
	}
}

/* HZ=300 starts at 1131.655765 s and stays ahead until its wrap at
 * tick 948994 (3163.313333334 s). */
Test(clock, jiffies_epoch_hz300)
{
	cr_assert_eq(jiffies_to_nsecs(300, jiffies_at(300, S(1))),
		     1132655765000ULL);
	cr_assert_eq(jiffies_to_nsecs(300, jiffies_at(300, S(3163))),
		     4294655765000ULL);
	cr_assert_eq(jiffies_to_nsecs(300, jiffies_at(300, 3163313333333ULL)),
		     4294965765000ULL);
	cr_assert_gt(4294965765000ULL, 3163313333333ULL);	/* still ahead */
	cr_assert_eq(jiffies_to_nsecs(300, jiffies_at(300, 3163313333334ULL)),
		     1802000ULL);
	cr_assert_eq(jiffies_to_nsecs(300, jiffies_at(300, S(3164))),
		     688469000ULL);
}

Test(clock, jiffies_at_does_not_overflow)
{
	/* 2^63 ns at 1000 Hz: 2^63 / 1e6 ticks, far past 64-bit t * HZ */
	cr_assert_eq(jiffies_at(1000, 1ULL << 63),
		     4294667296ULL + 9223372036854ULL);
	cr_assert_eq(jiffies_at(300, UINT64_MAX),
		     4294877296ULL + 5534023222112ULL);
}

/* Tick edges: ceil(k * 1e9 / HZ); HZ=300 ticks are 3333334, 3333333,
 * 3333333 ns. */
Test(clock, jiffy_edge_and_tick_len)
{
	cr_assert_eq(jiffy_edge(300, 4294877296ULL), 0ULL);
	cr_assert_eq(jiffy_edge(300, 4294877296ULL + 1), 3333334ULL);
	cr_assert_eq(jiffy_edge(300, 4294877296ULL + 2), 6666667ULL);
	cr_assert_eq(jiffy_edge(300, 4294877296ULL + 3), 10000000ULL);
	cr_assert_eq(jiffy_edge(300, 4294877296ULL + 948994), 3163313333334ULL);
	cr_assert_eq(jiffy_edge(250, 4294892296ULL + 7), 28000000ULL);
	cr_assert_eq(jiffy_edge(100, 4294937296ULL), 0ULL);

	cr_assert_eq(tick_len(300, 0), 3333334ULL);
	cr_assert_eq(tick_len(300, 3333333), 3333334ULL);
	cr_assert_eq(tick_len(300, 3333334), 3333333ULL);
	cr_assert_eq(tick_len(300, 6666667), 3333333ULL);
	cr_assert_eq(tick_len(300, 9999999), 3333333ULL);
	cr_assert_eq(tick_len(300, 10000000), 3333334ULL);
	cr_assert_eq(tick_len(100, S(5)), 10000000ULL);
	cr_assert_eq(tick_len(250, 123456789), 4000000ULL);
	cr_assert_eq(tick_len(1000, 1), 1000000ULL);

	cr_assert_eq(tick_floor(300, 5000000), 3333334ULL);
	cr_assert_eq(tick_floor(300, 6666666), 3333334ULL);
	cr_assert_eq(tick_floor(300, 6666667), 6666667ULL);
	cr_assert_eq(tick_floor(250, 123456789), 120000000ULL);
	cr_assert_eq(tick_floor(1000, S(7)), S(7));
}

/* jiffy_edge() saturates where the edge no longer fits a sim_ns: the
 * last tick that fits (k = 18446744073709 at HZ=1000, 5534023222112 at
 * HZ=300), the next, and j = 2^64 - 1. */
Test(clock, jiffy_edge_saturates)
{
	unsigned h;

	cr_assert_eq(jiffy_edge(1000, 4294667296ULL + 18446744073709ULL),
		     18446744073709000000ULL);
	cr_assert_eq(jiffy_edge(1000, 4294667296ULL + 18446744073710ULL),
		     UINT64_MAX);
	cr_assert_eq(jiffy_edge(300, 4294877296ULL + 5534023222112ULL),
		     18446744073706666667ULL);
	cr_assert_eq(jiffy_edge(300, 4294877296ULL + 5534023222113ULL),
		     UINT64_MAX);
	for (h = 0; h < 4; h++)
		cr_assert_eq(jiffy_edge(all_hz[h], UINT64_MAX), UINT64_MAX,
			     "HZ=%u", all_hz[h]);
}

/* jiffy_edge() is the exact inverse: the edge reads j, an ns earlier
 * reads j - 1. */
Test(clock, jiffies_at_jiffy_edge_round_trip)
{
	static const uint64_t k[] = {
		0, 1, 2, 3, 4, 5, 299, 300, 301, 1000, 75000, 948994,
		1000003, 1ULL << 32, (1ULL << 40) + 7, 1844674407370ULL,
	};
	unsigned h, i;

	for (h = 0; h < 4; h++) {
		unsigned hz = all_hz[h];

		for (i = 0; i < ARRAY_SIZE(k); i++) {
			uint64_t j = initial_jiffies(hz) + k[i];
			sim_ns e = jiffy_edge(hz, j);

			cr_assert_eq(jiffies_at(hz, e), j, "HZ=%u k=%llu", hz,
				     (unsigned long long)k[i]);
			if (k[i])
				cr_assert_eq(jiffies_at(hz, e - 1), j - 1,
					     "HZ=%u k=%llu", hz,
					     (unsigned long long)k[i]);
			cr_assert_eq(tick_floor(hz, e), e);
		}
	}
	/* and from the time side, including HZ=300's uneven ticks */
	for (h = 0; h < 4; h++) {
		sim_ns t;

		for (t = 0; t < 50000000; t += 999983) {
			sim_ns f = tick_floor(all_hz[h], t);

			cr_assert_leq(f, t);
			cr_assert_gt(f + tick_len(all_hz[h], t), t);
			cr_assert_eq(jiffies_at(all_hz[h], f),
				     jiffies_at(all_hz[h], t));
		}
	}
}

/* docs/kernel-model.md §2.3: HZ=250, a bio submitted at 3600.0055 s (tick 900001
 * after boot) and mapped 20 us later. */
Test(clock, start_stamp_modes)
{
	sim_ns submit = 3600005500000ULL, mapped = 3600005520000ULL;

	/* (900001 * 4000 us - 300 s) -> 3300.004 s, its own epoch */
	cr_assert_eq(start_stamp(START_JIFFIES, 250, submit, mapped),
		     3300004000000ULL);
	cr_assert_eq(start_stamp(START_JIFFIES_ALIGNED, 250, submit, mapped),
		     3600004000000ULL);
	cr_assert_eq(start_stamp(START_KTIME, 250, submit, mapped), mapped);

	/* first tick of HZ=300: ahead by the boot value */
	cr_assert_eq(start_stamp(START_JIFFIES, 300, MS(5), MS(6)),
		     1131659098000ULL);
	cr_assert_eq(start_stamp(START_JIFFIES_ALIGNED, 300, MS(5), MS(6)),
		     3333334ULL);
	cr_assert_eq(start_stamp(START_KTIME, 300, MS(5), MS(6)), MS(6));
}

Test(clock, start_clock_names)
{
	static const char *const names[] = {
		"jiffies", "jiffies-aligned", "ktime",
	};
	static const enum start_clock want[] = {
		START_JIFFIES, START_JIFFIES_ALIGNED, START_KTIME,
	};
	enum start_clock c;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		cr_assert_eq(start_clock_parse(names[i], &c), 0);
		cr_assert_eq(c, want[i]);
		cr_assert_str_eq(start_clock_name(want[i]), names[i]);
	}
	/* one past the table, and far past it */
	cr_assert_str_eq(start_clock_name((enum start_clock)3), "?");
	cr_assert_str_eq(start_clock_name((enum start_clock)-1), "?");
	c = START_KTIME;
	cr_assert_eq(start_clock_parse("hrtimer", &c), -EINVAL);
	cr_assert_eq(start_clock_parse("", &c), -EINVAL);
	cr_assert_eq(start_clock_parse("Jiffies", &c), -EINVAL);
	cr_assert_eq(start_clock_parse("jiffies-", &c), -EINVAL);
	cr_assert_eq(c, START_KTIME, "a failed parse leaves *c alone");
}

/*
 * start_stamp_cached() gives start_stamp()'s value for every submit: at a
 * tick's first and last nanosecond, across its edges forward and back,
 * when the clock changes within one tick, and for ktime (never cached).
 * HZ=300's uneven ticks included.
 */
Test(clock, start_stamp_cached_at_the_tick_edges)
{
	static const enum start_clock modes[] = {
		START_JIFFIES, START_JIFFIES_ALIGNED, START_KTIME,
	};
	unsigned h, m, i, k;

	for (h = 0; h < 4; h++) {
		unsigned hz = all_hz[h];
		struct stamp_cache sc = { 0 };

		for (m = 0; m < ARRAY_SIZE(modes); m++)
			for (k = 0; k < 4; k++) {
				uint64_t j = initial_jiffies(hz) + 300 * hz + k;
				sim_ns e = jiffy_edge(hz, j);
				sim_ns n = jiffy_edge(hz, j + 1);
				const sim_ns at[] = {
					e, e + 1, n - 1, n, n - 1, e, e - 1,
					e, n + 1, e - 1, n,
				};

				for (i = 0; i < ARRAY_SIZE(at); i++)
					cr_assert_eq(start_stamp_cached(&sc,
						modes[m], hz, at[i], at[i] + 20000),
						start_stamp(modes[m], hz, at[i],
							    at[i] + 20000),
						"HZ=%u mode %u at %llu", hz, m,
						(unsigned long long)at[i]);
			}
		/* the other jiffies clock within one tick, and back */
		for (i = 0; i < 4; i++) {
			enum start_clock c = i % 2 ? START_JIFFIES_ALIGNED :
						     START_JIFFIES;
			sim_ns t = S(400) + i;

			cr_assert_eq(start_stamp_cached(&sc, c, hz, t, t),
				     start_stamp(c, hz, t, t), "HZ=%u %u", hz, i);
		}
		/* the last instant, after another tick of the same clock
		 * (the last above) was cached */
		cr_assert_eq(start_stamp_cached(&sc, START_JIFFIES_ALIGNED, hz,
						UINT64_MAX, UINT64_MAX),
			     start_stamp(START_JIFFIES_ALIGNED, hz, UINT64_MAX,
					 UINT64_MAX), "HZ=%u", hz);
	}
}
