/*
 * run.h: one simulation run from a scenario and its multipath table to a
 * result.  The readers build the table from the scenario and hand it
 * down (input/table.h's run_scenario() and friends do both).
 */
#ifndef MPSIM_RUN_H
#define MPSIM_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config.h"
#include "stats.h"

struct mp_table;
struct run_watch;
struct trace_conf;

/*
 * Run sc, its device built from t (sc's table, sim/mp-table.h), with
 * seed, watched as w says (NULL: not at all); fills res
 * (run_result_free() it).  Returns 0, or -EINVAL with err set when the
 * device cannot be built (selector arguments the kernel would reject),
 * or -ERANGE with err set when the run cannot finish (its clock or a
 * drawn service time would pass a limit of sim.h), or -EIO with err set
 * when a trace file cannot be written; res is then empty.  t is only
 * read, and not kept past the call.
 */
int run_device(const struct scenario *sc, const struct mp_table *t,
	       uint64_t seed, const struct run_watch *w,
	       struct run_result *res, char *err);

/* The `dmsetup status` and `dmsetup table` lines of sc's device, built
 * from t, as created, before any I/O (free() *out).  Returns 0 or
 * -EINVAL. */
int run_device_created(const struct scenario *sc, const struct mp_table *t,
		       char **out, char *err);

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
	sim_ns eta_interval;	/* --eta-interval: its period (wall time),
				   0: progress.h's default */
	/* ... for a run that is part `part` (from 0) of `parts` of one
	 * command begun at wall time `since` (compare's columns): the line
	 * counts the whole command and names the part; parts 0: one run */
	unsigned part, parts;
	const char *label;
	struct timespec since;
	const struct trace_conf *trace;	/* --trace, --blktrace; NULL: none */
	bool fio;		/* keep what fio's formats and logs need:
				   res->clone */
};

/* The capacity share of each path ("Best"): slots / mean cost, normalised;
 * an unbounded path counts as one slot per mean cost. */
void best_shares(const struct scenario *sc, double *best);

#endif
