/*
 * job-arrival.c: what a job clone's two loops share, the plain one
 * (job.c) and fio's fuller one (job-flow.c): the open loop's next
 * arrival, and the I/O limit that waits for the ramp's end.
 */
#include <stdint.h>

#include <gsl/gsl_randist.h>

#include "job.h"

bool job_limit_after_ramp(struct job *j)
{
	const struct sim *s = j->sim;

	j->window_limit = j->limit;
	if (s->measuring || s->stats_from <= s->start)
		return false;
	j->limit = UINT64_MAX;
	return true;
}

void job_next_arrival(struct job *j)
{
	struct sim *s = j->sim;
	sim_ns gap;

	if (j->issued + j->backlog >= j->limit)
		return;
	if (j->conf->rate_process == RATE_POISSON)
		gap = (sim_ns)(gsl_ran_exponential(j->arr, j->mean_gap) + 0.5);
	else
		gap = j->interval;
	sim_schedule(s, s->now + gap, EV_JOB_ARRIVAL, j);
}
