/*
 * fault.c: the scenario's scripted path failures (`fail = PATH at TIME`,
 * `reinstate = PATH at TIME`), the simulator's fault injection.  A fail
 * kills the path's device and tells the multipath device; a reinstate
 * brings both back.  What the multipath device then does is sim/mpath.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

void fault_setup(struct sim *s)
{
	const struct scenario *sc = s->sc;
	unsigned i, k;

	if (!sc->nr_events)
		return;
	s->pev = xcalloc(sc->nr_events, sizeof(*s->pev));
	for (i = 0; i < sc->nr_events; i++) {
		const struct path_event *e = &sc->events[i];
		struct path_ev *pe = &s->pev[i];

		/* scenario_parse/scenario_validate checked the name */
		for (k = 0; !e->msg[0] && strcmp(s->paths[k].conf->name,
						  e->path); k++)
			;
		pe->kind = e->reinstate ? PEV_REINSTATE : PEV_FAIL;
		pe->path = &s->paths[k];
		if (e->msg[0]) {
			pe->kind = PEV_MESSAGE;
			pe->path = NULL;
			pe->msg = e->msg;
		}
		/* Events due together run in the order they were given;
		 * those at 0 before the jobs' first I/O. */
		if (e->at)
			sim_schedule(s, s->start + e->at, EV_PATH_EVENT, pe);
		else
			path_event(s, pe);
	}
}

void fault_teardown(struct sim *s)
{
	free(s->pev);
	s->pev = NULL;
}

static int scripted_match(const struct event *e, void *arg)
{
	const struct sim *s = arg;
	const struct path_ev *pe = e->obj;

	return e->kind == EV_PATH_EVENT && pe >= s->pev &&
	       pe < s->pev + s->sc->nr_events;
}

/*
 * Counted once the loop is over, so the hot path pays nothing.  The run
 * ends when its last job does (sim_job_done) or at its runtime; an
 * event still queued then changed nothing, and the user is told.
 */
unsigned fault_pending(struct sim *s)
{
	if (!s->pev)
		return 0;
	return evq_remove_if(&s->q, scripted_match, s);
}

/*
 * The path's device dies.  The multipath device is told at once (as
 * multipathd's checker or an `fail_path` message would), then sees the
 * device's errors: every I/O the device held ends in error, after
 * fail_path, each with its end_io, and is requeued or failed (mpath.c).
 * I/Os still held in the path's dm-delay layer stay there; they meet the
 * dead device when they are released (sim/delay.c).
 */
static void path_fail(struct sim *s, struct sim_path *p)
{
	struct io_fifo errored = { NULL, NULL, 0 };
	struct sim_io *io;

	mpath_fail_path(&s->mp, p);
	p->dead = true;
	path_device_fail(p, &errored);
	while ((io = fifo_pop(&errored)))
		mpath_end_io(&s->mp, io, -EIO);
}

void path_event(struct sim *s, struct path_ev *e)
{
	switch (e->kind) {
	case PEV_FAIL:
		path_fail(s, e->path);
		break;
	case PEV_REINSTATE:
		e->path->dead = false;		/* the device is back */
		mpath_reinstate_path(&s->mp, e->path);
		break;
	case PEV_PROCESS_QUEUED:
		mpath_process_queued(&s->mp);
		break;
	case PEV_ACTIVATE:
		pg_activate(&s->mp, e->path);
		break;
	case PEV_PG_INIT_DONE:
		pg_init_done(&s->mp, e->path);
		break;
	case PEV_MESSAGE: {
		char err[ERR_MAX];

		/* checked when the run was built (pg_setup) */
		mpath_message(&s->mp, e->msg, false, err);
		break;
	}
	case PEV_MULTIPATHD:
		multipathd_timer(&s->mp, e);
		break;
	}
}
