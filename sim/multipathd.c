/*
 * multipathd.c: what the multipath daemon adds from user space to the
 * kernel's device, with multipath.conf's names: failback (immediate,
 * followover, or N seconds: a switch_group message to the best group
 * once a path is back; manual: never) and no_path_retry N (queue for N
 * checker intervals once the last path is gone, then fail_if_no_path;
 * queueing again when a path returns).  A scripted reinstate stands for
 * the path checker finding the path up at that instant.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

struct multipathd {
	struct path_ev failback;	/* deferred failback due */
	struct path_ev give_up;		/* no_path_retry's end */
	sim_ns failback_due, give_up_due;	/* UINT64_MAX: none */
};

void multipathd_setup(struct mpath *m)
{
	const struct scenario *sc = m->sim->sc;
	struct multipathd *d;

	if (sc->failback == FAILBACK_MANUAL && sc->no_path_retry != NPR_COUNT)
		return;
	d = xcalloc(1, sizeof(*d));
	d->failback.kind = d->give_up.kind = PEV_MULTIPATHD;
	d->failback_due = d->give_up_due = UINT64_MAX;
	m->mpd = d;
}

void multipathd_teardown(struct mpath *m)
{
	free(m->mpd);
	m->mpd = NULL;
}

/*
 * select_path_group(): the group whose usable paths have the highest mean
 * prio (path_group_prio_update), more usable paths breaking a tie; 0 when
 * no group has a usable path.
 */
static unsigned best_pg(const struct mpath *m)
{
	unsigned i, k, best = 0, best_n = 0;
	uint64_t best_prio = 0;

	for (i = 0; i < m->nr_pgs; i++) {
		const struct priority_group *pg = &m->pgs[i];
		uint64_t sum = 0, prio;
		unsigned n = 0;

		for (k = 0; k < pg->nr_pgpaths; k++)
			if (!pg->pgpaths[k]->failed) {
				sum += pg->pgpaths[k]->conf->prio;
				n++;
			}
		if (!n)
			continue;
		prio = sum / n;
		if (!best || prio > best_prio || (prio == best_prio && n > best_n)) {
			best = pg->pg_num;
			best_prio = prio;
			best_n = n;
		}
	}
	return best;
}

/* need_switch_pathgroup() and switch_pathgroup(): switch_group to the
 * best group when the kernel is elsewhere. */
static void failback(struct mpath *m)
{
	unsigned best = best_pg(m);
	unsigned cur = m->next_pg ? m->next_pg->pg_num :
		       m->current_pg ? m->current_pg->pg_num : 0;
	char msg[NAME_MAX_LEN], err[ERR_MAX];

	if (!best || best == cur)
		return;
	snprintf(msg, sizeof(msg), "switch_group %u", best);
	mpath_message(m, msg, false, err);
}

void multipathd_path_up(struct mpath *m, struct sim_path *p)
{
	const struct scenario *sc = m->sim->sc;
	struct multipathd *d = m->mpd;
	unsigned k, up = 0;

	if (!d)
		return;
	if (sc->no_path_retry == NPR_COUNT && m->nr_valid == 1) {
		/* leave_recovery_mode: queue again, stop counting */
		d->give_up_due = UINT64_MAX;
		m->queue_if_no_path = true;
	}
	switch (sc->failback) {
	case FAILBACK_MANUAL:
		break;
	case FAILBACK_IMMEDIATE:
		failback(m);
		break;
	case FAILBACK_FOLLOWOVER:
		/* only when this is the first path of its group back */
		for (k = 0; k < p->pg->nr_pgpaths; k++)
			up += !p->pg->pgpaths[k]->failed;
		if (up == 1)
			failback(m);
		break;
	case FAILBACK_DEFERRED:
		/* every path up restarts the count */
		d->failback_due = m->sim->now + sc->failback_secs * NSEC_PER_SEC;
		sim_schedule(m->sim, d->failback_due, EV_PATH_EVENT,
			     &d->failback);
		break;
	}
}

void multipathd_path_down(struct mpath *m)
{
	const struct scenario *sc = m->sim->sc;
	struct multipathd *d = m->mpd;

	if (!d || sc->no_path_retry != NPR_COUNT)
		return;
	/* enter_recovery_mode: no_path_retry checker intervals */
	d->give_up_due = m->sim->now + sc->npr_count * sc->polling_interval;
	sim_schedule(m->sim, d->give_up_due, EV_PATH_EVENT, &d->give_up);
}

/* A due time that moved on (a later path up) or was cancelled leaves
 * its earlier event stale: it does nothing. */
void multipathd_timer(struct mpath *m, struct path_ev *e)
{
	struct multipathd *d = m->mpd;
	sim_ns now = m->sim->now;

	if (e == &d->failback && now == d->failback_due) {
		d->failback_due = UINT64_MAX;
		failback(m);
	} else if (e == &d->give_up && now == d->give_up_due) {
		d->give_up_due = UINT64_MAX;
		mpath_queue_if_no_path(m, false);
	}
}
