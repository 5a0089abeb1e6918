/*
 * run.h: one simulation run from a scenario to a result, and the
 * comparison of several selector/clock columns on one scenario.
 */
#ifndef MPSIM_RUN_H
#define MPSIM_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "input/scenario.h"
#include "stats.h"

/*
 * Run sc with seed; fills res (run_result_free() it).  Returns 0, or
 * -EINVAL with err set when the scenario cannot be built (unknown
 * selector, selector arguments the kernel would reject), or -ERANGE with
 * err set when the run cannot finish (its clock or a drawn service time
 * would pass a limit of sim.h); res is then empty.
 */
int run_scenario(const struct scenario *sc, uint64_t seed,
		 struct run_result *res, char *err);
/* The same, writing the traces tc asks for (NULL: none) as it runs; also
 * returns -EIO with err set when a trace file cannot be written. */
struct trace_conf;
int run_scenario_traced(const struct scenario *sc, uint64_t seed,
			const struct trace_conf *tc, struct run_result *res,
			char *err);

/* The `dmsetup status` and `dmsetup table` lines of sc's device as
 * created, before any I/O (free() *out).  Returns 0 or -EINVAL. */
int run_dmsetup_created(const struct scenario *sc, char **out, char *err);

/*
 * Warn on stderr (mpsim_warn) about what the result leaves out: an empty
 * measured window and why, scripted events the run ended before.  label
 * ("HST (ktime)") prefixes each line, or NULL.
 */
void run_warn(const struct scenario *sc, const struct run_result *r,
	      const char *label);

/* What a run may record beyond its totals; none of it changes them. */
struct run_watch {
	sim_ns interval;	/* --interval: res->series, 0: none */
	bool dmsetup;		/* ... with the device's dmsetup lines at
				   each interval's end (--format=dmsetup) */
	bool progress;		/* the status line on stderr (a terminal) */
	/* ... for a run that is part `part` (from 0) of `parts` of one
	 * command begun at wall time `since` (compare's columns): the line
	 * counts the whole command and names the part; parts 0: one run */
	unsigned part, parts;
	const char *label;
	struct timespec since;
	const struct trace_conf *trace;	/* --trace, --blktrace; NULL: none */
};

/* run_scenario() watched as w says (NULL: not at all). */
int run_scenario_watched(const struct scenario *sc, uint64_t seed,
			 const struct run_watch *w, struct run_result *res,
			 char *err);

/* The capacity share of each path ("Best"): slots / mean cost, normalised;
 * an unbounded path counts as one slot per mean cost. */
void best_shares(const struct scenario *sc, double *best);

#endif
