/*
 * replay.c: when a replaying job clone may issue its log's next entry
 * (fio's iolog_delay(): each delay counts from the previous issue).
 */
#include "job.h"

/*
 * A replay held back by its depth does not catch up, as in fio;
 * replay_no_stall drops the delays, replay_time_scale scales them
 * (percent of the logged rate), replay_skip drops whole directions (with
 * their delays, as fio's read_iolog() does).
 */

/* An entry's delay at the job's replay_time_scale. */
static sim_ns scaled(const struct job_conf *c, sim_ns d)
{
	if (c->replay_time_scale == 100)
		return d;
	return (sim_ns)((double)d * 100.0 / c->replay_time_scale + 0.5);
}

bool replay_next(struct job *j, const struct iolog_entry **out, sim_ns *due)
{
	const struct job_conf *c = j->conf;
	struct job_flow *f = j->flow;
	sim_ns now = j->sim->now, at;

	while (f->next < f->log->n) {
		const struct iolog_entry *e = &f->log->e[f->next];

		if (e->ddir == IOLOG_WAIT) {
			/* version 2: hold until `delay` after the start */
			at = f->start + scaled(c, e->delay);
			if (!c->replay_no_stall && now < at) {
				*due = at;
				return false;
			}
			f->next++;
			continue;
		}
		if (c->replay_skip & 1U << e->ddir) {
			f->next++;
			continue;
		}
		at = c->replay_no_stall ? now : f->last_issue + scaled(c, e->delay);
		if (now < at) {
			*due = at;
			return false;
		}
		*out = e;
		return true;
	}
	*due = UINT64_MAX;
	return false;
}

void replay_issued(struct job *j, const struct iolog_entry *e)
{
	j->flow->next++;
	j->flow->last_issue = j->sim->now;
}
