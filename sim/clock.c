/* clock.c: the kernel's jiffies and their conversions to and from
 * simulated ktime, exact to the bit (docs/kernel-model.md §1; contracts in clock.h). */
#include <assert.h>
#include <string.h>

#include "clock.h"

/* 128-bit intermediates: t * HZ overflows 64 bits after about 213 days
 * of uptime at HZ=1000, and (j - INITIAL_JIFFIES) * 1e9 much sooner. */
typedef unsigned __int128 u128;

#define USEC_PER_SEC	1000000ULL
#define MSEC_PER_SEC	1000ULL

bool hz_valid(unsigned hz)
{
	return hz == 100 || hz == 250 || hz == 300 || hz == 1000;
}

/*
 * include/linux/jiffies.h: INITIAL_JIFFIES is the 32-bit value -300*HZ,
 * widened without sign extension, so the low 32 bits wrap five minutes
 * after boot and wrap bugs show up early.  kernel/time/timer.c starts
 * jiffies_64 there on 64-bit kernels as well (docs/kernel-model.md §1.1).
 */
uint64_t initial_jiffies(unsigned hz)
{
	assert(hz_valid(hz));
	return (uint64_t)(uint32_t)(0u - 300u * hz);
}

uint64_t jiffies_at(unsigned hz, sim_ns t)
{
	assert(hz_valid(hz));
	/* the same quotient in 64 bits while t * HZ fits (213 days of
	 * uptime at HZ=1000): a division by a constant is a multiply, a
	 * 128-bit one a library call, and this runs for every bio stamped
	 * with jiffies */
	if (t <= UINT64_MAX / 1000)
		return initial_jiffies(hz) + t * hz / NSEC_PER_SEC;
	return initial_jiffies(hz) + (uint64_t)((u128)t * hz / NSEC_PER_SEC);
}

/* Tick k starts at ceil(k * 1e9 / HZ): at HZ=300 ticks are 3333334,
 * 3333333, 3333333 ns long, repeating every 10 ms.  Saturates for j so
 * far ahead that the instant does not fit in a sim_ns. */
sim_ns jiffy_edge(unsigned hz, uint64_t j)
{
	uint64_t k;
	u128 ns;

	assert(hz_valid(hz));
	if (j <= initial_jiffies(hz))
		return 0;
	k = j - initial_jiffies(hz);
	ns = ((u128)k * NSEC_PER_SEC + hz - 1) / hz;
	return ns > UINT64_MAX ? UINT64_MAX : (sim_ns)ns;
}

sim_ns tick_floor(unsigned hz, sim_ns t)
{
	return jiffy_edge(hz, jiffies_at(hz, t));
}

sim_ns tick_len(unsigned hz, sim_ns t)
{
	uint64_t j = jiffies_at(hz, t);

	return jiffy_edge(hz, j + 1) - jiffy_edge(hz, j);
}

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * kernel/time/time.c jiffies_to_usecs(), 64-bit (docs/kernel-model.md §1.2): when
 * HZ divides 1e6 the product (1e6/HZ) * j, otherwise (j * NUM) / DEN with
 * NUM/DEN = 1e6/HZ reduced (10000/3 at HZ=300).  Both products are
 * unsigned long, so they wrap modulo 2^64 first; the result is then
 * truncated to u32.  That truncation is why jiffies_to_nsecs() wraps
 * every 2^32 us (~71.6 min) and lives in its own epoch (§1.2, §9 item 7).
 */
uint32_t jiffies_to_usecs(unsigned hz, uint64_t j)
{
	unsigned g;

	assert(hz_valid(hz));
	if (USEC_PER_SEC % hz == 0)
		return (uint32_t)(USEC_PER_SEC / hz * j);
	g = gcd(USEC_PER_SEC, hz);
	return (uint32_t)(j * (USEC_PER_SEC / g) / (hz / g));
}

/* include/linux/jiffies.h: the u32 microseconds widened, times 1000. */
uint64_t jiffies_to_nsecs(unsigned hz, uint64_t j)
{
	return (uint64_t)jiffies_to_usecs(hz, j) * NSEC_PER_USEC;
}

/*
 * include/linux/jiffies.h msecs_to_jiffies() (docs/kernel-model.md §1.3, §9 item
 * 16): a negative (int)m means "forever"; otherwise round up, so 1 ms is
 * one tick even at HZ=100.  When HZ divides 1000 the kernel adds
 * 1000/HZ - 1 and divides.  At HZ=300 it multiplies by 2576980378, adds
 * 7730941132 and shifts right by 33 (timeconst.bc's MSEC_TO_HZ_*32);
 * that equals ceil(3m/10) for every m below 2^31, which we compute
 * directly.
 */
uint64_t msecs_to_jiffies(unsigned hz, unsigned int m)
{
	uint64_t per;

	assert(hz_valid(hz));
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	if (MSEC_PER_SEC % hz == 0) {
		per = MSEC_PER_SEC / hz;
		return ((uint64_t)m + per - 1) / per;
	}
	return ((uint64_t)m * hz + MSEC_PER_SEC - 1) / MSEC_PER_SEC;
}

/*
 * docs/kernel-model.md §2.3: what end_io receives as start_time in bio mode.
 * jiffies: drivers/md/dm.c dm_start_time_ns_from_clone() converts the
 * jiffies sampled when DM accepted the bio (v5.8-v5.18, docs/kernel-model.md §2.3);
 * jiffies-aligned: the same tick granularity without the epoch; ktime:
 * ktime_get_ns() right after selection (v5.19+, DM_PS_USE_HR_TIMER, §2.4).
 */
uint64_t start_stamp(enum start_clock c, unsigned hz, sim_ns submit,
		     sim_ns mapped)
{
	switch (c) {
	case START_JIFFIES:
		return jiffies_to_nsecs(hz, jiffies_at(hz, submit));
	case START_JIFFIES_ALIGNED:
		return tick_floor(hz, submit);
	case START_KTIME:
		return mapped;
	}
	assert(0 && "unknown start clock");
	return mapped;
}

uint64_t start_stamp_cached(struct stamp_cache *sc, enum start_clock c,
			    unsigned hz, sim_ns submit, sim_ns mapped)
{
	uint64_t j = 0;		/* 0: the empty tick [0, 0) until set */

	if (c == START_KTIME)
		return mapped;
	if (c == sc->c && submit >= sc->from && submit < sc->to)
		return sc->stamp;
	/* jiffies_at() reads j from the tick's edge to the next one's */
	j = jiffies_at(hz, submit);
	sc->from = jiffy_edge(hz, j);
	sc->to = jiffy_edge(hz, j + 1);
	sc->c = c;
	sc->stamp = start_stamp(c, hz, submit, mapped);
	return sc->stamp;
}

uint64_t sched_clock_at(const struct sched_clock *c, unsigned hz, sim_ns t)
{
	__int128 v;

	/* kernel/sched/clock.c's weak sched_clock(): whole ticks since boot,
	 * NSEC_PER_SEC / HZ each (3333333 ns at HZ=300, integer division) */
	if (c->jiffies)
		return (jiffies_at(hz, t) - initial_jiffies(hz)) *
		       (NSEC_PER_SEC / hz);
	v = (__int128)t + c->offset + (__int128)t * c->drift_ppm / 1000000;
	if (v < 0)
		return 0;
	return v > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* ORDER: enum start_clock.  The NULL ends the walk of the names, which
 * no count can then take one past the table. */
static const char *const start_clock_names[] = {
	[START_JIFFIES] = "jiffies",
	[START_JIFFIES_ALIGNED] = "jiffies-aligned",
	[START_KTIME] = "ktime",
	NULL,
};

int start_clock_parse(const char *name, enum start_clock *c)
{
	unsigned i;

	for (i = 0; start_clock_names[i]; i++) {
		if (!strcmp(name, start_clock_names[i])) {
			*c = (enum start_clock)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *start_clock_name(enum start_clock c)
{
	if ((unsigned)c > START_KTIME)
		return "?";
	return start_clock_names[c];
}
