/*
 * path.c: one path's device model: `slots` parallel service slots (0 =
 * unbounded) fed by a FIFO queue, an optional fixed latency in front of
 * the queue, and a service time drawn per I/O from the path's
 * distribution plus a per-byte cost when a bandwidth is given.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

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
	return (sim_ns)(x + 0.5);
}

/* A slot takes io now: the kernel's blk_mq_start_request. */
static void path_dispatch(struct sim_path *p, struct sim_io *io)
{
	struct sim *s = p->sim;

	if (!p->busy++)
		p->busy_since = s->now;
	io->dispatch = s->now;
	sim_schedule(s, s->now + path_service(p, io->bytes), EV_DEV_DONE, io);
}

void path_submit(struct sim_path *p, struct sim_io *io)
{
	struct sim *s = p->sim;

	if (p->conf->latency)
		sim_schedule(s, s->now + p->conf->latency, EV_DEV_ARRIVE, io);
	else
		path_arrive(p, io);
}

void path_arrive(struct sim_path *p, struct sim_io *io)
{
	unsigned slots = p->conf->slots;

	if (!slots || p->busy < slots)
		path_dispatch(p, io);
	else
		fifo_push(&p->queue, io);
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
	mpath_end_io(&p->sim->mp, io, 0);
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
