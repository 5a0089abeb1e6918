/* timers-run.c: the runs of `mpsim timers`: one timer re-armed every
 * period on each wheel, each catch-up counted (cli/timers.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock.h"
#include "timers.h"

/* The catch-up's time under the cost model, in us. */
double catchup_us(const struct cost_model *m, const struct catchup *c)
{
	return (m->softirq + m->iteration * (double)c->iterations +
		m->splice * (double)c->splices +
		m->cascade * (double)c->cascades) / 1000.0;
}

/* ORDER: enum tw_kind. */
static const char *const kind_names[] = {
	[TW_CLASSIC] = "classic",
	[TW_CLASSIC_SKIP] = "classic+skip",
	[TW_LEVELS] = "levels",
};

/* The timer's function: note the firing, re-arm one period from now (the
 * jiffies the softirq runs at), as a periodic watchdog does. */
static void on_expiry(struct tw_timer *t, uint64_t at, void *arg)
{
	struct variant *v = arg;

	if (v->nfired < v->cap)
		v->fired_at[v->nfired] = at;
	v->nfired++;
	tw_mod_timer(&v->w, t, v->now + v->period, v->now);
}

static void simulate(struct variant *v, unsigned hz, uint64_t start,
		     uint64_t end)
{
	uint64_t next;

	tw_init(&v->w, v->kind, hz, start);
	tw_timer_init(&v->t, v);
	v->t.expires = start + v->period;
	tw_add_timer(&v->w, &v->t, start);
	while (v->nc < v->cap && tw_next_expiry(&v->w, &next) &&
	       !tw_after(next, end)) {
		struct catchup *c = &v->c[v->nc++];
		unsigned before = v->nfired;
		uint64_t cascades = v->w.cascades, moved = v->w.moved;
		uint64_t splices = v->w.splices;

		v->now = next;
		c->jiffies = next;
		c->iterations = tw_run(&v->w, next, on_expiry, v);
		c->cascades = v->w.cascades - cascades;
		c->moved = v->w.moved - moved;
		c->splices = v->w.splices - splices;
		c->fired = v->nfired - before;
		v->iterations += c->iterations;
	}
}

int same_firings(const struct variant *a, const struct variant *b,
			char *msg)
{
	unsigned i;

	if (a->nfired != b->nfired) {
		snprintf(msg, ERR_MAX, "%s fired %u times, %s %u times",
			 a->name, a->nfired, b->name, b->nfired);
		return -1;
	}
	for (i = 0; i < a->nfired && i < a->cap; i++) {
		if (a->fired_at[i] == b->fired_at[i])
			continue;
		snprintf(msg, ERR_MAX, "firing %u: %s at jiffies %llu, %s at "
			 "%llu", i + 1, a->name,
			 (unsigned long long)a->fired_at[i], b->name,
			 (unsigned long long)b->fired_at[i]);
		return -1;
	}
	return 0;
}

void run_free(struct timers_run *r)
{
	unsigned k;

	for (k = 0; k < r->nv; k++) {
		free(r->v[k].c);
		free(r->v[k].fired_at);
	}
}

int run_wheels(const struct timers_opts *o, unsigned hz,
		      enum which which, struct timers_run *r, char *err)
{
	uint64_t end;
	unsigned k, cap;

	r->nv = 0;
	r->same = true;
	r->start = initial_jiffies(hz);
	end = jiffies_at(hz, o->runtime);
	/* msecs_to_jiffies()'s rounding up, at ns resolution */
	r->period = o->period / NSEC_PER_SEC * hz +
		    (o->period % NSEC_PER_SEC * hz + NSEC_PER_SEC - 1) /
		    NSEC_PER_SEC;
	if ((end - r->start) / r->period > MAX_CATCHUPS)
		return input_error(err, "--period: too short for --runtime "
				   "(at most %u expiries per run)",
				   MAX_CATCHUPS);
	cap = (unsigned)((end - r->start) / r->period) + 2;

	if (which != WHICH_LEVELS) {
		r->v[r->nv++].kind = TW_CLASSIC;
		r->v[r->nv++].kind = TW_CLASSIC_SKIP;
	}
	if (which != WHICH_CLASSIC)
		r->v[r->nv++].kind = TW_LEVELS;
	for (k = 0; k < r->nv; k++) {
		struct variant *v = &r->v[k];

		v->name = kind_names[v->kind];
		v->period = r->period;
		v->cap = cap;
		v->nc = v->nfired = 0;
		v->iterations = 0;
		v->c = xcalloc(cap, sizeof(*v->c));
		v->fired_at = xcalloc(cap, sizeof(*v->fired_at));
		simulate(v, hz, r->start, end);
	}
	return 0;
}
