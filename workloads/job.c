/*
 * job.c: a fio job clone as a workload generator.  Closed loop (fio's
 * libaio at iodepth N): N I/Os in flight, each completion submits the next
 * at once.  Open loop (rate_iops): arrivals evenly spaced
 * (rate_process=linear) or Poisson, submitted while fewer than iodepth are
 * in flight and held back otherwise, as fio's rate limiter does.
 */
#include <stdint.h>

#include <gsl/gsl_randist.h>

#include "../sim/engine.h"
#include "../sim/rng.h"

/*
 * How many I/Os a job clone issues: fio stops at number_ios, or once it
 * has moved `size` bytes unless time_based keeps it going for runtime;
 * whichever comes first.
 */
static uint64_t job_io_limit(const struct job_conf *c)
{
	uint64_t n = UINT64_MAX;

	if (c->size && !c->time_based)
		n = (c->size + c->bs - 1) / c->bs;
	if (c->number_ios && c->number_ios < n)
		n = c->number_ios;
	return n;
}

void job_setup(struct job *j, struct sim *s, const struct job_conf *c,
	       unsigned index, uint64_t seed)
{
	j->sim = s;
	j->conf = c;
	j->index = index;
	j->rng = rng_stream(seed, RNG_WORKLOAD, index);
	j->arr = rng_stream(seed, RNG_ARRIVAL, index);
	j->depth = job_iodepth(c);
	j->limit = job_io_limit(c);
	j->open = c->rate_iops > 0;
	if (j->open) {
		j->mean_gap = 1e9 / c->rate_iops;
		j->interval = (sim_ns)(j->mean_gap + 0.5);
		if (!j->interval)
			j->interval = 1;
	}
}

void job_teardown(struct job *j)
{
	gsl_rng_free(j->rng);
	gsl_rng_free(j->arr);
}

static bool job_is_write(struct job *j)
{
	switch (j->conf->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return false;
	case RW_WRITE:
	case RW_RANDWRITE:
		return true;
	default:
		/* rw, randrw: rwmixread percent of the I/Os are reads */
		return gsl_rng_uniform_int(j->rng, 100) >= j->conf->rwmixread;
	}
}

static void job_submit(struct job *j)
{
	struct sim *s = j->sim;
	struct sim_io *io = sim_io_get(s);

	io->job = j;
	io->path = NULL;
	io->bytes = (uint32_t)j->conf->bs;
	io->write = job_is_write(j);
	io->submit = s->now;
	j->issued++;
	j->inflight++;
	mpath_map(&s->mp, io);
}

static void job_next_arrival(struct job *j)
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

void job_start(struct job *j)
{
	unsigned i;

	if (j->open) {
		job_next_arrival(j);
		return;
	}
	for (i = 0; i < j->depth && j->issued < j->limit; i++)
		job_submit(j);
}

void job_arrival(struct job *j)
{
	if (j->inflight < j->depth)
		job_submit(j);
	else
		j->backlog++;
	job_next_arrival(j);
}

void job_complete(struct job *j, struct sim_io *io, int error)
{
	struct sim *s = j->sim;

	if (error && s->measuring)
		s->res->failed++;
	sim_io_put(s, io);
	j->inflight--;
	j->completed++;
	if (j->open) {
		if (j->backlog) {
			j->backlog--;
			job_submit(j);
		}
	} else if (j->issued < j->limit) {
		job_submit(j);
	}
}
