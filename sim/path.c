/*
 * path.c: one path's device model: `slots` parallel service slots (0 =
 * unbounded) fed by a FIFO queue, an optional fixed latency in front of
 * the queue, and a service time drawn per I/O from the path's
 * distribution plus a per-byte cost when a bandwidth is given; above it
 * the path's optional dm-delay layer (sim/delay.c).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "delay.h"
#include "engine.h"
#include "rng.h"

void path_setup(struct sim_path *p, struct sim *s, const struct path_conf *c,
		unsigned index, uint64_t seed)
{
	const struct dist *d = &c->service;

	p->ps.name = c->name;
	p->ps.index = index;
	p->sim = s;
	p->conf = c;
	p->rng = rng_stream(seed, RNG_SERVICE, index);
	if (d->kind == DIST_LOGNORMAL) {
		/* mean m, CV c: sigma^2 = ln(1 + c^2), mu = ln m - sigma^2/2 */
		double s2 = log1p(d->cv * d->cv);

		p->ln_sigma = sqrt(s2);
		p->ln_mu = log(d->mean) - s2 / 2;
	} else if (d->kind == DIST_GAMMA) {
		/* mean m, CV c: shape 1/c^2, scale m c^2 */
		p->g_shape = 1.0 / (d->cv * d->cv);
		p->g_scale = d->mean / p->g_shape;
	}
	p->ns_per_byte = c->bandwidth ? 1e9 / (double)c->bandwidth : 0.0;
}

void path_teardown(struct sim_path *p)
{
	gsl_rng_free(p->rng);
	p->rng = NULL;
}

/* One service time in ns, rounded once to the nanosecond. */
static sim_ns path_service(struct sim_path *p, uint32_t bytes)
{
	const struct dist *d = &p->conf->service;
	double x;

	switch (d->kind) {
	case DIST_FIXED:
		x = d->mean;
		break;
	case DIST_EXP:
		x = gsl_ran_exponential(p->rng, d->mean);
		break;
	case DIST_UNIFORM:
		x = gsl_ran_flat(p->rng, d->lo, d->hi);
		break;
	case DIST_LOGNORMAL:
		x = gsl_ran_lognormal(p->rng, p->ln_mu, p->ln_sigma);
		break;
	case DIST_GAMMA:
		x = gsl_ran_gamma(p->rng, p->g_shape, p->g_scale);
		break;
	default:
		abort();
	}
	x += p->ns_per_byte * bytes;
	/* checked before it becomes simulated time (sim.h); !(x <) also
	 * catches a NaN */
	if (__builtin_expect(!(x < (double)SIM_TIME_MAX), 0)) {
		sim_cut(p->sim, "path %s: a service time of %.3g s (with its "
			"per-byte cost) is beyond %llus, the limit of a time "
			"value", p->conf->name, x / 1e9,
			(unsigned long long)(SIM_TIME_MAX / NSEC_PER_SEC));
		return SIM_TIME_MAX;
	}
	return (sim_ns)(x + 0.5);
}

/* A slot takes io now: the kernel's blk_mq_start_request. */
static void path_dispatch(struct sim_path *p, struct sim_io *io)
{
	struct sim *s = p->sim;

	if (!p->busy++)
		p->busy_since = s->now;
	io->dispatch = s->now;
	trace_hook(s, trace_io_dispatch(s->tr, io));
	sim_schedule(s, s->now + path_service(p, io->bytes), EV_DEV_DONE, io);
}

/*
 * `service = sync` (brd, zram): the driver ends the bio inside
 * submit_bio, in its submitter's context, so dm's end_io (the selector's
 * end_io, the in-flight count going down) runs before the submission
 * returns; the device has no queue and is never busy.
 */
static void __attribute__((noinline))
path_sync(struct sim_path *p, struct sim_io *io)
{
	struct sim *s = p->sim;

	io->dispatch = s->now;
	trace_hook(s, trace_io_dispatch(s->tr, io));
	trace_hook(s, trace_io_complete(s->tr, io, 0));
	mpath_end_io_sync(&s->mp, io);
}

/*
 * The one test a path without layers pays per I/O: a pointer that stays
 * NULL, so the branch predicts perfectly.
 */
void path_submit(struct sim_path *p, struct sim_io *io)
{
	if (__builtin_expect(p->delay != NULL, 0)) {
		delay_map(p->delay, io);
		return;
	}
	path_device_submit(p, io);
}

/* The device takes io: a free slot serves it, else it waits.  Inline
 * in path_device_submit, the common way in, as the hot path wants. */
static inline __attribute__((always_inline)) void
device_take(struct sim_path *p, struct sim_io *io)
{
	unsigned slots = p->conf->slots;

	/* a flush reaching a device without a write cache is ended by
	 * its submit_bio_noacct, at once (block/blk-core.c, §11.2) */
	if (__builtin_expect(p->conf->service.kind == DIST_SYNC ||
			     (io->ddir == DDIR_SYNC && p->conf->write_through),
			     0)) {
		path_sync(p, io);
		return;
	}
	if (!slots || p->busy < slots) {
		path_dispatch(p, io);
		return;
	}
	fifo_push(&p->queue, io);
	/* last, so that this leaf needs no frame: the trace of an I/O a
	 * free slot takes at once is written by the dispatch hook */
	trace_hook(p->sim, trace_io_arrive(p->sim->tr, io));
}

void path_device_submit(struct sim_path *p, struct sim_io *io)
{
	struct sim *s = p->sim;

	if (p->conf->latency)
		sim_schedule(s, s->now + p->conf->latency, EV_DEV_ARRIVE, io);
	else
		device_take(p, io);
}

void path_arrive(struct sim_path *p, struct sim_io *io)
{
	device_take(p, io);
}

static void path_busy_account(struct sim_path *p)
{
	struct sim *s = p->sim;

	if (s->measuring)
		p->stats->busy += s->now - p->busy_since;
}

void path_done(struct sim_path *p, struct sim_io *io)
{
	struct sim_io *next;

	if (!--p->busy)
		path_busy_account(p);
	next = fifo_pop(&p->queue);
	if (next)
		path_dispatch(p, next);
	cpu_end_io(p->sim, io);
}

void path_stats_open(struct sim_path *p)
{
	if (p->busy)
		p->busy_since = p->sim->now;
}

void path_stats_close(struct sim_path *p)
{
	if (p->busy) {
		path_busy_account(p);
		p->busy_since = p->sim->now;
	}
}

/* ---- device failure ---- */

/* The device's I/Os with a pending event: in service or in transit. */
struct held {
	struct sim_path *p;
	struct event *ev;		/* the cancelled events */
	unsigned n, cap;
};

static int held_match(const struct event *e, void *arg)
{
	struct held *h = arg;

	if (e->kind != EV_DEV_DONE && e->kind != EV_DEV_ARRIVE)
		return 0;
	if (((const struct sim_io *)e->obj)->path != h->p)
		return 0;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->ev = xrealloc(h->ev, h->cap * sizeof(*h->ev));
	}
	h->ev[h->n++] = *e;
	return 1;
}

/* Return <0 if a was scheduled before b: dispatch (or submit) order. */
static int held_cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void held_take(struct held *h, enum ev_kind kind,
		      struct io_fifo *errored)
{
	unsigned i;

	for (i = 0; i < h->n; i++) {
		struct sim_io *io = h->ev[i].obj;

		if (h->ev[i].kind != kind)
			continue;
		fifo_push(errored, io);
	}
}

/*
 * The device errors everything it holds at once, as a transport that
 * loses its link returns every outstanding command with an error (the
 * SCSI midlayer after fast_io_fail_tmo): dm-mpath then sees the errors
 * at the failure instant, not whenever each command would have finished.
 * The order is the device's: the I/Os in service by dispatch, then its
 * queue, then those still on their way to it (`latency`).
 */
void path_device_fail(struct sim_path *p, struct io_fifo *errored)
{
	struct sim *s = p->sim;
	struct held h = { .p = p };
	struct sim_io *io;

	evq_remove_if(&s->q, held_match, &h);
	if (h.n)
		qsort(h.ev, h.n, sizeof(*h.ev), held_cmp);
	held_take(&h, EV_DEV_DONE, errored);
	/* queued and in-transit I/O never started here: io->dispatch is
	 * still the 0 mpath_map() gave it, as a clone's io_start_time_ns */
	while ((io = fifo_pop(&p->queue)))
		fifo_push(errored, io);
	held_take(&h, EV_DEV_ARRIVE, errored);
	free(h.ev);
	if (p->busy) {
		path_busy_account(p);
		p->busy = 0;
	}
}
