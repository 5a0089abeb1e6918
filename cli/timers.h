/*
 * timers.h: the `mpsim timers` experiment (docs/kernel-model.md §8.1, §8.3): a
 * NOHZ-idle CPU whose only timer recurs every period, driven through each
 * timer wheel; what one catch-up does and what it costs.  Shared by
 * cli/timers-run.c (the runs), cli/timers-cmd.c (options and the
 * per-catch-up outputs) and cli/timers-mail.c (--mail).
 */
#ifndef MPSIM_TIMERS_H
#define MPSIM_TIMERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "sim/sim.h"
#include "wheels/timer-wheel.h"

/* The classic wheel walks every jiffy of the run; the output has a row
 * per expiry. */
#define MAX_RUNTIME	(7 * 86400 * NSEC_PER_SEC)
#define MAX_CATCHUPS	100000

enum which { WHICH_CLASSIC, WHICH_LEVELS, WHICH_ALL };

/*
 * What one catch-up costs, per operation, in ns.  The defaults are
 * assumptions, not measurements (README, "The timer wheel experiment"):
 * a splice and a cascade of an empty or one-timer slot are a few L1-hot
 * list operations; the iteration cost and the fixed cost of a softirq
 * (entry, the watchdog's callback, exit) are then fitted so that the
 * classic wheel at HZ 1000 gives the midpoints of Wang's figures (144.5
 * us before, 14 us after; the mail does not state its HZ).
 */
struct cost_model {
	double softirq;		/* per catch-up */
	double iteration;	/* per loop iteration */
	double splice;		/* per slot or bucket spliced off to run */
	double cascade;		/* per cascade() call, its moves included */
};

#define COST_SOFTIRQ_NS		11400.0
#define COST_ITERATION_NS	5.6
#define COST_SPLICE_NS		1.0
#define COST_CASCADE_NS		5.0

struct timers_opts {
	sim_ns period, runtime;
	unsigned hz;
	enum which which;
	enum out_format format;
	struct cost_model cost;
	bool mail;		/* --mail: the summary beside the mail */
	bool hz_set, which_set, format_set;
};

/* One wake-up of the CPU: the softirq run at the timer's expiry. */
struct catchup {
	uint64_t jiffies;	/* jiffies_64 when it ran */
	uint64_t iterations;	/* loop iterations it took */
	uint64_t cascades;	/* classic: cascade() calls */
	uint64_t moved;		/* classic: timers they re-inserted */
	uint64_t splices;	/* slots or buckets spliced off to run */
	unsigned fired;		/* timers it fired */
};

/* The catch-up's time under the cost model, in us. */
double catchup_us(const struct cost_model *m, const struct catchup *c);

/* One wheel variant driven through the whole run. */
struct variant {
	enum tw_kind kind;
	const char *name;	/* column and row label */
	struct tw_wheel w;
	struct tw_timer t;	/* the CPU's only timer */
	uint64_t now;		/* jiffies of the catch-up in progress */
	uint64_t period;	/* in jiffies */
	struct catchup *c;
	unsigned nc, cap;
	uint64_t *fired_at;	/* the jiffy of every firing, in order */
	unsigned nfired;
	uint64_t iterations;	/* all catch-ups */
};

/* Every variant of one run: both classic ones first, when present. */
struct timers_run {
	struct variant v[3];
	unsigned nv;
	uint64_t start, period;
	bool same;
};

/* Every variant `which` names at HZ hz.  Returns 0, or -EINVAL (a period
 * too short for the runtime) with err set. */
int run_wheels(const struct timers_opts *o, unsigned hz, enum which which,
	       struct timers_run *r, char *err);
void run_free(struct timers_run *r);

/* Both classic variants must fire the same timer at the same jiffies.
 * Returns 0, or -1 with what differs in msg. */
int same_firings(const struct variant *a, const struct variant *b,
		 char *msg);

/* --mail: the figures per softirq at HZ 100, 250 and 1000 beside Wang's.
 * Returns 0, 1 if the classic variants disagree, -EINVAL (err set). */
int out_mail(FILE *f, const struct timers_opts *o, char *err);

#endif
