/*
 * clock.h: the kernel's time bases and conversions (docs/kernel-model.md §1), exact
 * to the bit: HZ and jiffies with INITIAL_JIFFIES, jiffies_to_usecs with
 * its 32-bit truncation, msecs_to_jiffies rounding up, sched_clock, and
 * the start-time stamps dm-mpath hands to a selector's end_io.
 *
 * Every conversion in mpsim goes through here; no other file knows what a
 * jiffy is.
 */
#ifndef MPSIM_CLOCK_H
#define MPSIM_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

/* The start-time stamps of docs/kernel-model.md §2.3 (bio-based multipath). */
enum start_clock {
	START_JIFFIES,		/* jiffies_to_nsecs(jiffies at submission):
				   bio-based 5.8-5.18, its own epoch */
	START_JIFFIES_ALIGNED,	/* submission floored to a tick, ktime epoch:
				   granularity without the epoch mismatch */
	START_KTIME,		/* ktime right after selection: 5.19+ */
};

/* Returns true for the HZ values a kernel can be built with here. */
bool hz_valid(unsigned hz);

/* INITIAL_JIFFIES of a 64-bit kernel: 2^32 - 300*HZ. */
uint64_t initial_jiffies(unsigned hz);

/* jiffies_64 at uptime t: INITIAL_JIFFIES + floor(t * HZ / 1e9). */
uint64_t jiffies_at(unsigned hz, sim_ns t);

/* The first uptime at which jiffies_64 reads j (j >= INITIAL_JIFFIES):
 * the instant of that tick edge, ceil((j - INITIAL_JIFFIES) * 1e9 / HZ). */
sim_ns jiffy_edge(unsigned hz, uint64_t j);

/* Uptime t floored to the start of its tick, in the ktime epoch. */
sim_ns tick_floor(unsigned hz, sim_ns t);

/* Length of the tick that starts at or contains t, in ns (3333333 or
 * 3333334 at HZ=300; 1e9/HZ otherwise). */
sim_ns tick_len(unsigned hz, sim_ns t);

/* The kernel's jiffies_to_usecs(): unsigned 32-bit, truncating. */
uint32_t jiffies_to_usecs(unsigned hz, uint64_t j);

/* The kernel's jiffies_to_nsecs(): (u64)jiffies_to_usecs(j) * 1000. */
uint64_t jiffies_to_nsecs(unsigned hz, uint64_t j);

/* The kernel's msecs_to_jiffies(): rounds up; a negative (int)m gives
 * MAX_JIFFY_OFFSET, include/linux/jiffies.h's (LONG_MAX >> 1) - 1. */
uint64_t msecs_to_jiffies(unsigned hz, unsigned int m);
#define MAX_JIFFY_OFFSET	((uint64_t)(INT64_MAX >> 1) - 1)

/* The value dm-mpath passes as end_io's start_time for a bio submitted
 * at `submit` and mapped (selected) at `mapped`, in mode c. */
uint64_t start_stamp(enum start_clock c, unsigned hz, sim_ns submit,
		     sim_ns mapped);

/*
 * start_stamp() of a jiffies clock is the same for every bio submitted
 * in one tick, and many are: the last one is kept with the tick it holds
 * for, [from, to).  Zeroed: empty.
 */
struct stamp_cache {
	sim_ns from, to;	/* the tick's first instant, the next's */
	enum start_clock c;	/* the clock it was computed for */
	uint64_t stamp;
};

/* start_stamp(), through the cache for the jiffies clocks. */
uint64_t start_stamp_cached(struct stamp_cache *sc, enum start_clock c,
			    unsigned hz, sim_ns submit, sim_ns mapped);

/*
 * The scheduler's clock, sched_clock() (docs/kernel-model.md §1.5), which
 * historical-service-time's select_path read in 5.8-5.17 (§3.10) while its
 * end_io stamped stale_after with ktime.  On x86 with a stable TSC it is
 * ns since about boot, not NTP-slewed: ktime plus an offset and a rate
 * error.  Without an arch clock the weak default counts jiffies.
 */
struct sched_clock {
	bool jiffies;		/* the weak default: (jiffies - INITIAL) * TICK */
	int64_t offset;		/* sched_clock - ktime at boot, ns */
	int32_t drift_ppm;	/* its rate error against ktime, ppm */
};

/* sched_clock() at uptime t; never below 0. */
uint64_t sched_clock_at(const struct sched_clock *c, unsigned hz, sim_ns t);

/* Name <-> enum for --clock; returns -EINVAL for an unknown name. */
int start_clock_parse(const char *name, enum start_clock *c);
const char *start_clock_name(enum start_clock c);

#endif
