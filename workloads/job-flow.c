/*
 * job-flow.c: a job clone beyond job.c's plain loop: fio's batched queue,
 * thinktime, stonewall groups, startdelay, varying sizes, trims, replay.
 */
#include <assert.h>
#include <stdlib.h>

#include "job.h"

/*
 * fio's do_io() loop, which this follows: take the next I/O (waiting for
 * its rate or log time), queue it; submit the batch once it holds
 * iodepth_batch_submit I/Os or the queue is full; when full, reap at
 * least iodepth_batch_complete_min completions (at most _max at a time)
 * and go on reaping down to iodepth_low; then, after every read, write or
 * trim, check thinktime: once thinktime_blocks are counted, wait for
 * everything in flight (io_u_quiesce) and stall.  The queue's slots are
 * the I/Os queued, in flight and completed but not reaped.  CPU time is
 * zero, so everything a step does happens at one instant.
 *
 * flow_progress() runs the state machine of job.h after every event the
 * job sees; it is re-entered when a submission completes at once (no
 * usable path), so it loops instead of recursing.
 */

enum make {
	MADE,			/* an I/O went into the batch */
	NOT_YET,		/* its rate or log time has not come */
	EXHAUSTED,		/* the job issues no more */
};

static void flow_progress(struct job *j);
static void flow_commit(struct job *j);

bool job_staged(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++)
		if ((i && sc->jobs[i].stonewall) || sc->jobs[i].startdelay_max)
			return true;
	return false;
}

/* fio's fixups (fixup_options) of the batch options, at depth d. */
static void flow_queue_conf(struct job_flow *f, const struct job_conf *c,
			    unsigned d)
{
	f->batch_n = c->iodepth_batch;
	if (!f->batch_n || f->batch_n > d)
		f->batch_n = d;
	f->low = c->iodepth_low;
	if (!f->low || f->low > d)
		f->low = d;
	f->cmin = c->iodepth_batch_complete_min ? c->iodepth_batch_complete_min
						: 1;
	f->cmax = c->iodepth_batch_complete_max;
	if (f->cmax < f->cmin)
		f->cmax = f->cmin;
}

bool flow_needed(const struct sim *s, const struct job_conf *c)
{
	struct job_flow f;
	unsigned d = job_iodepth(c);

	flow_queue_conf(&f, c, d);
	return job_staged(s->sc) || !bs_fixed(c) || c->thinktime ||
	       c->read_iolog[0] || c->rw == RW_TRIMWRITE ||
	       c->rw == RW_RANDTRIMWRITE || f.batch_n > 1 ||
	       c->fsync_blocks || c->fdatasync_blocks ||
	       (f.cmin > 1 && d > 1) || f.low < d;
}

/* The stonewall group of job section c: the stonewalls up to it. */
static unsigned flow_group(const struct scenario *sc, const struct job_conf *c)
{
	unsigned i, g = 0;

	for (i = 1; i <= (unsigned)(c - sc->jobs); i++)
		g += sc->jobs[i].stonewall;
	return g;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

int flow_setup(struct job *j, char *err)
{
	const struct job_conf *c = j->conf;
	struct sim *s = j->sim;
	struct job_flow *f = xcalloc(1, sizeof(*f));
	uint64_t bytes = c->io_size ? c->io_size : c->size;
	unsigned twice = c->rw == RW_TRIMWRITE || c->rw == RW_RANDTRIMWRITE;
	int r;

	j->flow = f;
	f->timer = UINT64_MAX;
	f->end = UINT64_MAX;
	f->staged = job_staged(s->sc);
	f->group = flow_group(s->sc, c);
	f->trim_next = true;
	flow_queue_conf(f, c, j->depth);
	/* fio: trimwrite trims and then writes every block: twice the I/O */
	f->byte_limit = UINT64_MAX;
	if (bytes && !c->time_based && !c->read_iolog[0])
		f->byte_limit = sat_mul(sat_mul(bytes, c->loops), 1 + twice);
	j->limit = c->number_ios ? sat_mul(c->number_ios, 1 + twice)
				 : UINT64_MAX;
	f->window_bytes = f->byte_limit;
	if (job_limit_after_ramp(j))
		f->byte_limit = UINT64_MAX;
	bs_setup(f, c);
	if (!c->read_iolog[0])
		return 0;
	/* the clones of one job section share its log */
	if (j->index && s->jobs[j->index - 1].conf == c) {
		f->log = s->jobs[j->index - 1].flow->log;
		return 0;
	}
	f->log = xcalloc(1, sizeof(*f->log));
	f->log_owner = true;
	r = iolog_load(f->log, c->read_iolog, err);
	/* checked again: the file may have changed since the validation */
	if (!r && !c->replay_no_stall)
		r = iolog_check_scale(f->log, c->replay_time_scale,
				      c->read_iolog, err);
	return r;
}

void flow_teardown(struct job *j)
{
	struct job_flow *f = j->flow;
	struct run_result *res = j->sim->res;
	unsigned d;

	for (d = 0; d < DDIR_NR; d++) {
		res->ddir_ios[d] += f->ddir_ios[d];
		res->ddir_bytes[d] += f->ddir_bytes[d];
	}
	bs_teardown(f);
	if (f->log_owner) {
		iolog_free(f->log);
		free(f->log);
	}
	free(f);
	j->flow = NULL;
}

/* Wakes the job at `at` (EV_JOB_WAKE); an older wake is then ignored. */
static void flow_timer(struct job *j, sim_ns at)
{
	struct job_flow *f = j->flow;

	if (f->timer == at)
		return;
	f->timer = at;
	sim_schedule(j->sim, at, EV_JOB_WAKE, j);
}

static unsigned flow_busy(const struct job *j)
{
	const struct job_flow *f = j->flow;

	return f->batch.n + j->inflight + f->unreaped;
}

/* ---- starting: stonewall groups and startdelay ---- */

static void flow_begin(struct job *j)
{
	const struct job_conf *c = j->conf;
	struct job_flow *f = j->flow;
	sim_ns now = j->sim->now;

	f->state = FLOW_RUN;
	f->start = f->last_issue = f->think_since = j->began = now;
	/* fio counts a job's runtime after its own ramp_time */
	if (f->staged && c->runtime)
		f->end = now + c->ramp_time + c->runtime;
	if (j->open)
		job_next_arrival(j);
	flow_progress(j);
}

/* The job's group may start: startdelay first (a range draws). */
static void flow_enter(struct job *j)
{
	const struct job_conf *c = j->conf;
	sim_ns d = c->startdelay;

	if (c->startdelay_max > c->startdelay)
		d += (sim_ns)(gsl_rng_uniform(j->rng) *
			      (double)(c->startdelay_max - c->startdelay));
	if (!d) {
		flow_begin(j);
		return;
	}
	j->flow->state = FLOW_DELAY;
	flow_timer(j, j->sim->now + d);
}

void flow_start(struct job *j)
{
	if (j->flow->group) {
		j->flow->state = FLOW_WAIT_GROUP;
		return;
	}
	flow_enter(j);
}

/* j is done: once its whole group is, the next group starts. */
static void flow_group_done(struct job *j)
{
	struct sim *s = j->sim;
	unsigned g = j->flow->group, i;

	for (i = 0; i < s->nr_jobs; i++) {
		const struct job_flow *o = s->jobs[i].flow;

		if (o && o->group == g && o->state != FLOW_DONE)
			return;
	}
	for (i = 0; i < s->nr_jobs; i++) {
		struct job *o = &s->jobs[i];

		if (o->flow && o->flow->group == g + 1 &&
		    o->flow->state == FLOW_WAIT_GROUP)
			flow_enter(o);
	}
}

/* ---- issuing ---- */

static unsigned flow_ddir(struct job *j)
{
	struct job_flow *f = j->flow;

	if (j->conf->rw == RW_TRIMWRITE || j->conf->rw == RW_RANDTRIMWRITE) {
		f->trim_next = !f->trim_next;
		return f->trim_next ? DDIR_WRITE : DDIR_TRIM;
	}
	if (!j->mixed)
		return j->ddir;
	return gsl_rng_uniform_int(j->rng, 100) >= j->conf->rwmixread ?
	       DDIR_WRITE : DDIR_READ;
}

/*
 * fio's get_rw_ddir(): after every fsync=N (fdatasync=N) writes, and
 * right after a write, the next I/O is a sync; it does not count as an
 * I/O of number_ios or size (fio's io_blocks hold reads, writes and
 * trims).  While it is in flight the job issues nothing (fio is inside
 * fsync()).
 */
static bool flow_fsync_due(struct job *j)
{
	const struct job_conf *c = j->conf;
	struct job_flow *f = j->flow;

	if (f->fsync_inflight)
		return true;
	if (!f->writes || f->synced == f->writes)
		return false;
	return (c->fsync_blocks && !(f->writes % c->fsync_blocks)) ||
	       (c->fdatasync_blocks && !(f->writes % c->fdatasync_blocks));
}

/* The job's next I/O into the batch, if it may go now. */
static enum make flow_make(struct job *j)
{
	struct job_flow *f = j->flow;
	struct sim *s = j->sim;
	const struct iolog_entry *e = NULL;
	struct sim_io *io;
	unsigned ddir;
	uint32_t bytes;
	sim_ns due;
	bool fsync = false;

	/* trimwrite ends after a write, never between the halves */
	if ((j->issued >= j->limit || f->bytes_issued >= f->byte_limit ||
	     s->now >= f->end) && f->trim_next)
		return EXHAUSTED;
	if (f->log) {
		if (!replay_next(j, &e, &due)) {
			if (due == UINT64_MAX)
				return EXHAUSTED;
			flow_timer(j, due);
			return NOT_YET;
		}
		ddir = e->ddir;
		bytes = e->len;
		replay_issued(j, e);
	} else if (flow_fsync_due(j)) {
		if (f->fsync_inflight)
			return NOT_YET;	/* its completion runs the flow */
		ddir = DDIR_SYNC;
		bytes = 0;
		fsync = true;
	} else {
		if (j->open && !j->backlog)
			return NOT_YET;
		if (j->open)
			j->backlog--;
		ddir = flow_ddir(j);
		/* trimwrite writes the block it has just trimmed */
		if (ddir == DDIR_WRITE && (j->conf->rw == RW_TRIMWRITE ||
					   j->conf->rw == RW_RANDTRIMWRITE))
			bytes = f->last_bs;
		else
			bytes = bs_draw(j, ddir);
		f->last_bs = bytes;
	}
	io = sim_io_get(s);
	io->job = j;
	io->path = NULL;
	io->bytes = bytes;
	io->ddir = (uint8_t)ddir;
	io->write = ddir != DDIR_READ;
	io->osync = j->osync && ddir == DDIR_WRITE ? OSYNC_DATA : OSYNC_NONE;
	if (fsync) {
		/* fio waits in fsync(): nothing more until it returns */
		f->fsync_inflight = true;
		f->ddir_ios[ddir]++;
		fifo_push(&f->batch, io);
		flow_commit(j);
		return MADE;
	}
	if (ddir == DDIR_WRITE)
		f->writes++;
	j->issued++;
	f->bytes_issued += bytes;
	f->ddir_ios[ddir]++;
	f->ddir_bytes[ddir] += bytes;
	/* fio checks thinktime after reads, writes and trims */
	f->check = ddir != DDIR_SYNC;
	fifo_push(&f->batch, io);
	return MADE;
}

/* Submits the batch: the I/Os reach the multipath device now, after
 * their CPU time.  fio stamps a batch's I/Os as it prepares them, just
 * before their one io_submit: when the submissions queued before them on
 * the job's CPU are done (the first batches of a job, one I/O each by
 * default, are asked for at one instant; job.c's plain loop alike). */
static void flow_commit(struct job *j)
{
	struct job_flow *f = j->flow;
	struct sim *s = j->sim;
	sim_ns at = sim_submit_begins(s, j->cpu);
	struct sim_io *io;

	while ((io = fifo_pop(&f->batch))) {
		io->submit = at;
		j->inflight++;
		sim_submit(s, io);
	}
}

/*
 * fio's wait_for_completions(): with the queue full, reap at least
 * min(complete_min, depth in use) completions, at most complete_max at a
 * time, and go on until no more than iodepth_low are in use.
 */
static void flow_reap(struct job *j)
{
	struct job_flow *f = j->flow;

	while (f->reaping || flow_busy(j) >= j->depth) {
		unsigned busy = flow_busy(j), min, n;

		if (!busy) {
			f->reaping = false;
			return;
		}
		min = f->cmin < busy ? f->cmin : busy;
		if (f->unreaped < min) {
			f->reaping = true;
			return;
		}
		n = f->unreaped < f->cmax ? f->unreaped : f->cmax;
		f->unreaped -= n;
		f->reaped += n;
		f->reaping = flow_busy(j) > f->low;
	}
}

/* fio's handle_thinktime(): is a stall due?  Records the count if so. */
static bool flow_think_due(struct job *j)
{
	const struct job_conf *c = j->conf;
	struct job_flow *f = j->flow;
	unsigned blocks = c->thinktime_blocks ? c->thinktime_blocks : 1;
	uint64_t b;
	bool stall = false;

	if (!c->thinktime)
		return false;
	b = c->thinktime_blocks_type == THINK_ISSUE ? j->issued : f->reaped;
	if (c->thinktime_iotime) {
		if (j->sim->now - f->think_since >= c->thinktime_iotime)
			stall = true;
		else if (!c->thinktime_blocks)
			return false;
	}
	if (b >= f->think_last + blocks)
		stall = true;
	if (stall)
		f->think_last = b;
	return stall;
}

/* RUN: reap, check thinktime, issue, until the job must wait. */
static void flow_run(struct job *j)
{
	struct job_flow *f = j->flow;

	for (;;) {
		flow_reap(j);
		if (f->check && !f->reaping && flow_busy(j) < j->depth) {
			f->check = false;
			if (flow_think_due(j)) {
				f->state = FLOW_QUIESCE;
				f->again = true;
				return;
			}
		}
		if (f->reaping || flow_busy(j) >= j->depth)
			return;
		switch (flow_make(j)) {
		case NOT_YET:
			return;
		case EXHAUSTED:
			f->state = FLOW_DRAIN;
			f->again = true;
			return;
		case MADE:
			break;
		}
		if (f->batch.n >= f->batch_n || flow_busy(j) >= j->depth)
			flow_commit(j);
	}
}

/* QUIESCE and DRAIN: submit what is queued and wait for all of it. */
static bool flow_drained(struct job *j)
{
	struct job_flow *f = j->flow;

	flow_commit(j);
	f->reaped += f->unreaped;
	f->unreaped = 0;
	f->reaping = false;
	return !j->inflight && !f->batch.n;
}

static void flow_step(struct job *j)
{
	const struct job_conf *c = j->conf;
	struct job_flow *f = j->flow;

	switch (f->state) {
	case FLOW_RUN:
		flow_run(j);
		break;
	case FLOW_QUIESCE:
		if (!flow_drained(j))
			break;
		/* fio spins thinktime_spin of it, sleeps the rest */
		f->state = FLOW_THINK;
		flow_timer(j, j->sim->now + (c->thinktime > c->thinktime_spin ?
					     c->thinktime : c->thinktime_spin));
		break;
	case FLOW_DRAIN:
		if (!flow_drained(j))
			break;
		f->state = FLOW_DONE;
		/* fio's runtime for it ends here: after its last
		 * completion, and after a thinktime sleep the run's end
		 * came in (fio 3.33 sleeps it whole) */
		j->ended = j->sim->now;
		/* as the plain loop leaves a job that is done */
		j->limit = j->issued;
		j->backlog = 0;
		flow_group_done(j);
		sim_job_done(j->sim);
		break;
	default:
		break;
	}
}

static void flow_progress(struct job *j)
{
	struct job_flow *f = j->flow;

	if (f->in_progress) {
		f->again = true;
		return;
	}
	f->in_progress = true;
	do {
		f->again = false;
		flow_step(j);
	} while (f->again);
	f->in_progress = false;
}

void flow_complete(struct job *j, struct sim_io *io)
{
	if (j->flow->fsync_inflight && io->ddir == DDIR_SYNC) {
		j->flow->fsync_inflight = false;
		j->flow->synced = j->flow->writes;
		sim_io_put(j->sim, io);
		j->inflight--;
		flow_progress(j);
		return;
	}
	j->flow->bytes_done += io->bytes;
	sim_io_put(j->sim, io);
	j->inflight--;
	j->completed++;
	j->flow->unreaped++;
	flow_progress(j);
}

/* size/io_size count from the window's start too (job_window_open). */
void flow_window_open(struct job *j)
{
	struct job_flow *f = j->flow;

	if (f->window_bytes != UINT64_MAX)
		f->byte_limit = f->window_bytes > UINT64_MAX - f->bytes_done ?
				UINT64_MAX : f->window_bytes + f->bytes_done;
}

/*
 * The run's runtime is over.  The run has no stonewall and no startdelay
 * (those give each job its own end: job_staged), so every job began at
 * its start.  One that runs stops issuing at once and drains (flow_make
 * finds its end passed); one asleep in thinktime or a rate's wait finds
 * it over when it wakes, as fio does after its sleep.
 */
void flow_runtime_over(struct job *j)
{
	assert(!j->flow->staged);
	j->flow->end = j->sim->now;
	flow_progress(j);
}

bool flow_draining(const struct job *j)
{
	return j->flow->state == FLOW_DRAIN;
}

void flow_arrival(struct job *j)
{
	if (j->flow->state != FLOW_RUN)
		return;
	j->backlog++;
	job_next_arrival(j);
	flow_progress(j);
}

void job_wake(struct job *j)
{
	struct job_flow *f = j->flow;

	if (!f || f->timer != j->sim->now)
		return;
	f->timer = UINT64_MAX;
	switch (f->state) {
	case FLOW_DELAY:
		flow_begin(j);
		break;
	case FLOW_THINK:
		f->state = FLOW_RUN;
		f->think_since = j->sim->now;
		flow_progress(j);
		break;
	default:
		flow_progress(j);
		break;
	}
}

void job_window(const struct scenario *sc, sim_ns *ramp, sim_ns *runtime)
{
	bool staged = job_staged(sc);
	unsigned i;

	*ramp = *runtime = 0;
	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *c = &sc->jobs[i];

		if (c->runtime > *runtime && !staged)
			*runtime = c->runtime;
		/* a job that starts later ramps inside the window */
		if (staged && (flow_group(sc, c) || c->startdelay_max))
			continue;
		if (c->ramp_time > *ramp)
			*ramp = c->ramp_time;
	}
}
