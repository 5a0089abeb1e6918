/*
 * mpath.c: the multipath device, after drivers/md/dm-mpath.c: one priority
 * group whose selector is asked for a path on every I/O (kernel >= 4.6,
 * kernel.md §2.2), the start-time stamp each mode gives end_io (§2.3,
 * §3.10), and the queue of I/Os that found no usable path
 * (queue_if_no_path).
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

int mpath_setup(struct mpath *m, struct sim *s, char *err)
{
	const struct scenario *sc = s->sc;
	const struct ps_type *t = ps_find(sc->selector);
	unsigned i;
	int r;

	m->sim = s;
	m->mode = sc->mode;
	m->clock = sc->clock;
	m->hz = sc->hz;
	m->queue_if_no_path = sc->queue_if_no_path;
	if (!t)
		return input_error(err, "unknown selector '%s' (see: mpsim list selectors)",
				   sc->selector);
	m->hr_timer = t->features & PS_USE_HR_TIMER;
	r = ps_init(&m->ps, t, sc->selector_args, err);
	if (r)
		return r;
	/* Paths are handed to the selector in table order (§2.1). */
	for (i = 0; i < s->nr_paths; i++) {
		struct sim_path *p = &s->paths[i];

		r = ps_add_path(&m->ps, &p->ps, p->conf->path_args, err);
		if (r) {
			char why[ERR_MAX];

			snprintf(why, sizeof(why), "%s", err);
			/* the paths added so far are freed by mpath_teardown */
			return input_error(err, "[path %s] path_args: %s", p->conf->name, why);
		}
	}
	m->nr_valid = s->nr_paths;
	return 0;
}

void mpath_teardown(struct mpath *m)
{
	struct sim *s = m->sim;
	struct ps_path **pp;
	unsigned i, n = 0;

	if (!m->ps.type)
		return;
	pp = xcalloc(s->nr_paths, sizeof(*pp));
	for (i = 0; i < s->nr_paths; i++)
		if (s->paths[i].ps.ps_ctx)
			pp[n++] = &s->paths[i].ps;
	ps_exit(&m->ps, pp, n);
	free(pp);
}

/*
 * The start time end_io will see for io, in bio mode (request mode stamps
 * at dispatch, see mpath_end_io).  5.19+ stamps ktime_get_ns() right after
 * selection only for a selector with DM_PS_USE_HR_TIMER and otherwise
 * falls back to the jiffies value taken when dm accepted the bio (§2.3).
 */
static uint64_t bio_start_time(const struct mpath *m, const struct sim_io *io)
{
	enum start_clock c = m->clock;

	if (c == START_KTIME && !m->hr_timer)
		c = START_JIFFIES;
	return start_stamp(c, m->hz, io->submit, io->mapped);
}

void mpath_map(struct mpath *m, struct sim_io *io)
{
	struct sim *s = m->sim;
	struct ps_path *pp;
	struct sim_path *p;

	pp = m->ps.type->select_path(&m->ps, io->bytes, s->now);
	if (!pp) {
		/* No usable path is not an error: queue or fail (§2.2). */
		if (s->measuring)
			s->res->no_path++;
		if (m->queue_if_no_path) {
			fifo_push(&m->queued, io);
		} else {
			io->path = NULL;
			job_complete(io->job, io, -EIO);
		}
		return;
	}
	p = (struct sim_path *)pp;
	if (p->failed) {
		fprintf(stderr, "mpsim: bug: selector %s chose failed path %s\n",
			m->ps.type->name, p->conf->name);
		abort();
	}
	io->path = p;
	io->mapped = s->now;
	if (m->mode == MODE_BIO)
		io->start_time = bio_start_time(m, io);
	if (m->ps.type->start_io)
		m->ps.type->start_io(&m->ps, pp, io->bytes, s->now);
	p->inflight++;
	s->outstanding++;
	path_submit(p, io);
}

void mpath_end_io(struct mpath *m, struct sim_io *io, int error)
{
	struct sim *s = m->sim;
	struct sim_path *p = io->path;
	uint64_t start = io->start_time;

	/*
	 * Request mode: the clone's io_start_time_ns is the driver's dispatch
	 * stamp, and stays 0 when the path's queue keeps no block statistics
	 * (QUEUE_FLAG_STATS, §2.3).
	 */
	if (m->mode == MODE_REQUEST)
		start = p->conf->request_stats ? io->dispatch : 0;
	if (m->ps.type->end_io)
		m->ps.type->end_io(&m->ps, &p->ps, io->bytes, start, s->now);
	p->inflight--;
	s->outstanding--;
	if (s->measuring) {
		struct path_stats *ps = p->stats;
		uint64_t lat = s->now - io->submit;

		ps->ios++;
		ps->bytes += io->bytes;
		lat_add(&ps->lat, lat);
		if (error)
			ps->errors++;
	}
	s->res->ios_simulated++;
	job_complete(io->job, io, error);
}
