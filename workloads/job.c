/*
 * job.c: a fio job clone as a workload generator.  Closed loop (fio's
 * libaio at iodepth N): N I/Os in flight, each completion submits the next
 * at once.  Open loop (rate_iops): arrivals evenly spaced
 * (rate_process=linear) or Poisson, submitted while fewer than iodepth are
 * in flight and held back otherwise, as fio's rate limiter does.  A job
 * that needs more of fio (batches, thinktime, stonewall, varying block
 * sizes, replay) runs in workloads/job-flow.c instead, so the plain loop
 * pays nothing for them.
 */
#include <stdint.h>

#include <gsl/gsl_randist.h>

#include "sim/fiostat.h"
#include "sim/rng.h"
#include "job.h"

/* fio's seed for repeatable patterns (FIO_RANDSEED), for randrepeat=1. */
#define FIO_RANDSEED	0xb1899bedULL

/*
 * How many I/Os a job clone issues: fio stops at number_ios, or once it
 * has moved `size` bytes unless time_based keeps it going for runtime;
 * whichever comes first.
 */
static uint64_t job_io_limit(const struct job_conf *c, uint32_t bs)
{
	uint64_t n = UINT64_MAX, bytes = c->io_size ? c->io_size : c->size;

	/* io_size, when given, is the amount (size the region); loops
	 * repeats it */
	if (bytes && !c->time_based) {
		n = (bytes + bs - 1) / bs;
		if (__builtin_mul_overflow(n, (uint64_t)c->loops, &n))
			n = UINT64_MAX;
	}
	if (c->number_ios && c->number_ios < n)
		n = c->number_ios;
	return n;
}

/*
 * The seed of a clone's workload streams: randseed= when given;
 * randrepeat=1 pins fio's own seed, so the draws repeat whatever --seed
 * is (only the service times follow it); otherwise --seed.
 */
static uint64_t job_seed(const struct job_conf *c, uint64_t seed)
{
	if (c->randseed_set)
		return c->randseed;
	return c->randrepeat == 1 ? FIO_RANDSEED : seed;
}

/* The direction of every I/O of a plain job, or `mixed`. */
static void job_dirs(struct job *j, const struct job_conf *c)
{
	switch (c->rw) {
	case RW_READ:
	case RW_RANDREAD:
		j->ddir = DDIR_READ;
		break;
	case RW_WRITE:
	case RW_RANDWRITE:
		j->ddir = DDIR_WRITE;
		break;
	case RW_TRIM:
	case RW_RANDTRIM:
		j->ddir = DDIR_TRIM;
		break;
	default:
		j->mixed = true;	/* rw, randrw (trimwrite: job-flow.c) */
		break;
	}
}

int job_setup(struct job *j, struct sim *s, const struct job_conf *c,
	      unsigned index, uint64_t seed, char *err)
{
	uint64_t wseed = job_seed(c, seed);

	j->sim = s;
	j->conf = c;
	j->index = index;
	j->cpu = job_cpu(c, index, s->sc->ncpus);
	j->rng = rng_stream(wseed, RNG_WORKLOAD, index);
	j->arr = rng_stream(wseed, RNG_ARRIVAL, index);
	j->depth = job_iodepth(c);
	j->began = UINT64_MAX;
	j->open = c->rate_iops > 0;
	if (j->open) {
		j->mean_gap = 1e9 / c->rate_iops;
		j->interval = (sim_ns)(j->mean_gap + 0.5);
		if (!j->interval)
			j->interval = 1;
	}
	job_dirs(j, c);
	/* sync=1: a write then a flush where the engine's kiocb is
	 * synchronous (the engine sends the flush only to a dm device with
	 * a write cache, §11.2) */
	j->osync = c->osync && ioengine_osync_flushes(c->ioengine);
	s->jobs_running++;
	/* an engine that reaps by getevents, below its depth: fio's drain
	 * can hold all but one of its completions (job_latency) */
	if (!ioengine_sync(c->ioengine) && j->depth > 1)
		j->held = xcalloc(j->depth, sizeof(*j->held));
	if (flow_needed(s, c))
		return flow_setup(j, err);
	j->bs = bs_fixed(c);
	j->limit = job_io_limit(c, j->bs);
	job_limit_after_ramp(j);
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * fio's reset_all_stats() at the end of ramp_time zeroes io_blocks and
 * io_bytes, which exceeds_number_ios() and keep_running() compare with
 * number_ios and size: the limits count from the window's start.  The
 * I/Os in flight then complete inside the window, so they count (fio's
 * test adds io_u_in_flight): the window measures exactly number_ios.  A
 * clone that ended in the ramp (an error) stays ended.
 */
void job_window_open(struct job *j)
{
	if (j->limit != UINT64_MAX)
		return;
	j->limit = sat_add(j->window_limit, j->completed);
	if (j->flow)
		flow_window_open(j);
}

/* Adds what the clone issued, per direction, to the run's result. */
static void job_account(struct job *j)
{
	struct run_result *res = j->sim->res;
	uint64_t w = j->mixed ? j->writes : 0;
	unsigned d = j->mixed ? DDIR_READ : j->ddir;

	res->ddir_ios[d] += j->issued - w;
	res->ddir_bytes[d] += (j->issued - w) * j->bs;
	res->ddir_ios[DDIR_WRITE] += w;
	res->ddir_bytes[DDIR_WRITE] += w * j->bs;
}

void job_teardown(struct job *j)
{
	free(j->held);
	if (j->flow)
		flow_teardown(j);
	else if (j->sim)
		job_account(j);
	gsl_rng_free(j->rng);
	gsl_rng_free(j->arr);
}

/* A completion counted in the job's report at fio's stamp `end`, and in
 * what fio keeps of the clone for its own formats, when asked for. */
static void job_count(struct job *j, unsigned ddir, uint32_t bytes,
		      uint64_t lat, unsigned b, sim_ns end)
{
	struct sim *s = j->sim;

	stats_add(j->report, ddir, bytes, lat, b);
	if (__builtin_expect(j->fio != NULL, 0)) {
		fio_clone_epoch(j->fio, j->began > s->stats_from ? j->began :
				s->stats_from);
		fio_clone_add(j->fio, end, lat, bytes, ddir, &s->fio_kept);
	}
}

/*
 * fio stamps a completion when it reaps it: io_u_queued_complete() reads
 * the clock once (init_icd) for all that one io_getevents returned.
 * While issuing, fio reaps one at a time here (iodepth_batch_complete_max
 * of 1, its default), each as it completes.  Once it issues no more,
 * do_io() reaps everything still in flight with one
 * io_u_queued_complete(td, cur_depth): those completions all end their
 * latency at the stamp of the last, in fio's lat, clat and percentiles.
 * When fio's loop stops on a full queue, the reap it is waiting in comes
 * first, stamped on its own: the loop checks its runtime and limits only
 * after it (own_left).  The job's report counts them so; its paths and
 * the device count each at its own end, as blktrace's Q2C does.
 */
static void held_count(struct job *j, sim_ns end, bool own)
{
	unsigned i;

	for (i = 0; i < j->nheld; i++) {
		const struct held_lat *h = &j->held[i];
		sim_ns at = own ? h->end : end;
		uint64_t lat = at - h->submit;

		job_count(j, h->ddir, h->bytes, lat, lat_bucket(lat), at);
	}
	j->nheld = 0;
}

void job_latency(struct job *j, const struct sim_io *io, sim_ns end,
		 unsigned b)
{
	/* the flow's loop found its end at its top, after its last reap */
	if (__builtin_expect(j->flow != NULL, 0) && j->held && !j->draining &&
	    flow_draining(j)) {
		j->draining = true;
		j->own_left = 0;
	}
	if (__builtin_expect(j->draining, 0)) {
		/* held: never more than fio's queue holds */
		if (!j->own_left && j->inflight > 1 && j->nheld < j->depth) {
			struct held_lat *h = &j->held[j->nheld++];

			h->submit = io->submit;
			h->end = end;
			h->bytes = io->bytes;
			h->ddir = io->ddir;
			return;
		}
		if (j->own_left)
			j->own_left--;
	}
	/* its own stamp: the path's sample, bucket and all */
	job_count(j, io->ddir, io->bytes, end - io->submit, b, end);
	held_count(j, end, false);
}

/* The run ended before fio's drain could (I/Os left held with no path,
 * which fio would wait for): what the job holds counts at its own ends. */
void job_held_flush(struct job *j)
{
	held_count(j, 0, true);
}

/* The plain loop issues no more (its limit, its runtime): fio's loop
 * leaves for its drain after the reap it is waiting in, if its queue is
 * full. */
static void job_stop_issuing(struct job *j)
{
	if (!j->held || j->draining)
		return;
	j->draining = true;
	j->own_left = j->inflight >= j->depth;
}

/* A plain job's next direction: rw and randrw draw, rwmixread percent
 * of the I/Os are reads. */
static unsigned job_ddir(struct job *j)
{
	if (!j->mixed)
		return j->ddir;
	if (gsl_rng_uniform_int(j->rng, 100) >= j->conf->rwmixread) {
		j->writes++;
		return DDIR_WRITE;
	}
	return DDIR_READ;
}

static void job_submit(struct job *j)
{
	struct sim *s = j->sim;
	struct sim_io *io = sim_io_get(s);

	io->job = j;
	io->path = NULL;
	io->bytes = j->bs;
	io->ddir = (uint8_t)job_ddir(j);
	io->write = io->ddir != DDIR_READ;
	io->osync = j->osync && io->ddir == DDIR_WRITE ? OSYNC_DATA :
		    OSYNC_NONE;
	/* fio stamps an I/O (get_io_u) just before its io_submit, one I/O
	 * after another: of a burst asked for at once (the first iodepth
	 * I/Os of a job), each is stamped when the submissions before it on
	 * its CPU are done, not when the burst began.  After a reap the
	 * CPU is free, and the stamp is now. */
	io->submit = sim_submit_begins(s, j->cpu);
	j->issued++;
	j->inflight++;
	if (j->issued >= j->limit)
		job_stop_issuing(j);
	sim_submit(s, io);
}

void job_start(struct job *j)
{
	unsigned i;

	if (j->flow) {
		flow_start(j);
		return;
	}
	j->began = j->sim->now;
	if (j->open) {
		job_next_arrival(j);
		return;
	}
	for (i = 0; i < j->depth && j->issued < j->limit; i++)
		job_submit(j);
}

void job_arrival(struct job *j)
{
	if (j->flow) {
		flow_arrival(j);
		return;
	}
	if (j->issued >= j->limit)
		return;			/* ended by an error meanwhile */
	if (j->inflight < j->depth)
		job_submit(j);
	else
		j->backlog++;
	job_next_arrival(j);
}

void job_complete(struct job *j, struct sim_io *io, int error)
{
	struct sim *s = j->sim;

	if (error) {
		if (s->measuring)
			s->res->failed++;
		/* fio's continue_on_error=none: an I/O error ends the job
		 * (the I/Os it has in flight still complete) */
		j->limit = j->issued;
		j->backlog = 0;
	}
	if (j->flow) {
		flow_complete(j, io);
		return;
	}
	sim_io_put(s, io);
	j->inflight--;
	j->completed++;
	if (j->open) {
		if (j->backlog) {
			j->backlog--;
			job_submit(j);
		} else if (!j->inflight && j->issued >= j->limit) {
			j->ended = s->now;
			sim_job_done(s);
		}
	} else if (j->issued < j->limit) {
		job_submit(j);
	} else if (!j->inflight) {
		j->ended = s->now;
		sim_job_done(s);
	}
}

void job_runtime_over(struct job *j)
{
	if (job_done(j))
		return;
	if (j->flow) {
		flow_runtime_over(j);
		return;
	}
	j->limit = j->issued;
	job_stop_issuing(j);
	/* an open loop's arrivals still waiting are never issued */
	j->backlog = 0;
	/* an open loop between arrivals is done now, its runtime whole */
	if (!j->inflight) {
		j->ended = j->sim->now;
		sim_job_done(j->sim);
	}
}

bool job_done(const struct job *j)
{
	if (j->flow)
		return j->flow->state == FLOW_DONE;
	return j->began != UINT64_MAX && j->issued >= j->limit &&
	       !j->inflight && !j->backlog;
}
