/*
 * run-warn.c: what a finished run says on stderr about its own figures,
 * so that none is silently empty or cut short: an empty measured window
 * (and why), scripted path events the run ended before.
 */
#include <stdbool.h>
#include <stdio.h>

#include "sim/run.h"
#include "sim/workload.h"

void run_warn(const struct scenario *sc, const struct run_result *r,
	      const char *label)
{
	const char *sep = label && *label ? ": " : "";
	sim_ns ramp_ns, runtime;
	double ramp;

	/* the longest ramp_time, and the run's runtime (0: none) */
	job_window(sc, &ramp_ns, &runtime);
	ramp = (double)ramp_ns / 1e9;

	if (!label)
		label = "";
	if (!r->total.ios) {
		if (!r->window && ramp > 0)
			mpsim_warn("%s%snothing was measured: every job "
				   "finished inside ramp_time (%.3f s), "
				   "before the measured window opened "
				   "(shorten --ramp_time, or give the jobs "
				   "more to do)", label, sep, ramp);
		else if (r->failed || r->left_queued)
			mpsim_warn("%s%snothing was measured: no I/O "
				   "completed in the window (%llu failed to "
				   "their jobs, %llu still held for a usable "
				   "path or a group's pg_init at the end; see "
				   "--fail, --reinstate, --queue_if_no_path, "
				   "--pg_init_time)", label,
				   sep, (unsigned long long)r->failed,
				   (unsigned long long)r->left_queued);
		else
			mpsim_warn("%s%snothing was measured: no I/O "
				   "completed in the %.3f s window (lengthen "
				   "--runtime)", label, sep,
				   (double)r->window / 1e9);
	} else if (r->left_queued) {
		mpsim_warn("%s%s%llu I/O%s still held for a usable path when "
			   "the run ended (queue_if_no_path, no path left): "
			   "in no figure, as fio would still wait for them",
			   label, sep, (unsigned long long)r->left_queued,
			   r->left_queued == 1 ? " was" : "s were");
	}
	if (r->late_events) {
		/* ended by its runtime: that instant, the same in every
		 * column of a compare, not the drain's end */
		bool by_runtime = runtime && r->window >= runtime;

		mpsim_warn("%s%s%u scripted fail/reinstate event%s never "
			   "ran: the run ended first, %s%.3f s after its start "
			   "%s; they change nothing", label, sep,
			   r->late_events, r->late_events == 1 ? "" : "s",
			   by_runtime ? "its runtime over " : "",
			   by_runtime ? (double)(ramp_ns + runtime) / 1e9 :
					ramp + (double)r->window / 1e9,
			   by_runtime ? "(and the I/Os then in flight done)" :
					"(its last job finished)");
	}
}
