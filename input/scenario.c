/*
 * scenario.c: a scenario from its ini text (the README's "Scenario
 * files"), from a file or built in, then changed by command-line
 * overrides, then checked.  This file holds the scenario itself (defaults, init, free, copy) and the
 * names of fio's modes; the readers and checks are the other
 * scenario-*.c files (scenario-int.h says which is which).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/fio.h"
#include "scenario-int.h"

/* ---- defaults ---- */

void scenario_init(struct scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->mode = MODE_BIO;
	strcpy(sc->selector, "historical-service-time");
	sc->clock = START_KTIME;
	sc->hz = 250;
	sc->uptime = 3600 * NSEC_PER_SEC;
	sc->queue_if_no_path = false;
	sc->timer_wheel = WHEEL_LEVELS;
	sc->workqueue_latency = 0;
	sc->ncpus = 1;
	sc->numa_nodes = 1;
	sc->pg_init_delay_msecs = PG_INIT_DELAY_DEFAULT;
	sc->polling_interval = 5 * NSEC_PER_SEC;
}

/*
 * fio's defaults for a job (fio HOWTO: rw=read, bs=4k, iodepth=1, ...),
 * but for the engine: fio's default, psync, would cap every job that does
 * not name an engine at depth 1, and queue depth is what mpsim studies.
 */
void job_defaults(struct job_conf *j)
{
	memset(j, 0, sizeof(*j));
	j->rw = RW_READ;
	j->rwmixread = 50;
	j->bs = 4096;
	j->iodepth = 1;
	j->numjobs = 1;
	j->rate_process = RATE_LINEAR;
	j->ioengine = IOENGINE_LIBAIO;
	fio_opts_defaults(j);
}

void path_defaults(struct path_conf *p)
{
	memset(p, 0, sizeof(*p));
	p->slots = 1;
	p->service.kind = DIST_FIXED;
	p->request_stats = true;
	p->prio = 1;
}

void scenario_free(struct scenario *sc)
{
	free(sc->paths);
	free(sc->jobs);
	free(sc->events);
	free(sc->table);
	sc->table = NULL;
	sc->paths = NULL;
	sc->jobs = NULL;
	sc->events = NULL;
	sc->nr_paths = 0;
	sc->nr_jobs = 0;
	sc->nr_events = 0;
}

void scenario_copy(struct scenario *dst, const struct scenario *src)
{
	size_t np = src->nr_paths * sizeof(*src->paths);
	size_t nj = src->nr_jobs * sizeof(*src->jobs);
	size_t ne = src->nr_events * sizeof(*src->events);

	*dst = *src;
	dst->paths = np ? memcpy(xmalloc(np), src->paths, np) : NULL;
	dst->jobs = nj ? memcpy(xmalloc(nj), src->jobs, nj) : NULL;
	dst->events = ne ? memcpy(xmalloc(ne), src->events, ne) : NULL;
	dst->table = src->table ? xstrdup(src->table) : NULL;
}

struct path_conf *add_path(struct scenario *sc)
{
	struct path_conf *p;

	sc->paths = xrealloc(sc->paths, (sc->nr_paths + 1) * sizeof(*p));
	p = &sc->paths[sc->nr_paths++];
	path_defaults(p);
	return p;
}

/*
 * A new job from tmpl.  cap, when given, is the room sc->jobs has and
 * grows by doubling (the file's job sections: one realloc each would copy
 * them all every time, quadratic under an allocator that cannot grow in
 * place); without it sc->jobs is sized exactly.
 */
struct job_conf *add_job(struct scenario *sc, unsigned *cap,
			 const struct job_conf *tmpl, const char *name)
{
	unsigned room = cap ? *cap : sc->nr_jobs;
	struct job_conf *j;

	if (sc->nr_jobs == room) {
		room = cap ? (room ? 2 * room : 16) : room + 1;
		sc->jobs = xrealloc(sc->jobs, room * sizeof(*j));
		if (cap)
			*cap = room;
	}
	j = &sc->jobs[sc->nr_jobs++];
	*j = *tmpl;
	snprintf(j->name, sizeof(j->name), "%s", name);
	return j;
}

/* fio's default job, for a scenario without job sections. */
void add_default_job(struct scenario *sc, const struct job_conf *tmpl)
{
	struct job_conf d;

	if (!tmpl) {
		job_defaults(&d);
		tmpl = &d;
	}
	add_job(sc, NULL, tmpl, "default");
}

