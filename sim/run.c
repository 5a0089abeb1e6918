/* run.c: build the world of one run from a scenario, run it, measure it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "engine.h"
#include "fiostat.h"
#include "progress.h"
#include "run.h"
#include "series.h"

/*
 * The mean size of one I/O of the run, over every job's sizes.
 *
 * Assumption: each job's share of the run's I/Os is its share of
 * numjobs x iodepth (closed loop: by Little's law a clone completes
 * iodepth / mean latency I/Os per second, so at a common latency the
 * shares follow the depths), or of numjobs x rate_iops when every job
 * is open loop.  Jobs of different latencies, stonewall phases or
 * thinktime move the real shares away from these; Best is then an
 * estimate.  A replayed log contributes the mean size of the entries it
 * replays (replay_skip honoured).
 */
static double run_mean_bytes(const struct scenario *sc)
{
	bool open = true;
	double sum = 0, w = 0;
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++)
		open &= sc->jobs[i].rate_iops > 0;
	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *c = &sc->jobs[i];
		double wj = (double)c->numjobs *
			    (open ? c->rate_iops : (double)job_iodepth(c));
		double mean;

		if (job_mean_bytes(c, &mean))
			continue;	/* refused when the run builds */
		sum += wj * mean;
		w += wj;
	}
	return w > 0 ? sum / w : 0;
}

static unsigned sync_paths(const struct scenario *sc)
{
	unsigned i, n = 0;

	for (i = 0; i < sc->nr_paths; i++)
		n += sc->paths[i].service.kind == DIST_SYNC;
	return n;
}

void best_shares(const struct scenario *sc, double *best)
{
	double sum = 0, bytes = run_mean_bytes(sc);
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++) {
		const struct path_conf *c = &sc->paths[i];
		/* the mean cost of one I/O: service plus the per-byte cost
		 * of the run's mean size (the cost is linear in the size,
		 * so the mean of the costs is the cost of the mean) */
		double cost = c->service.mean;
		unsigned k = c->slots ? c->slots : 1;

		/* a device that ends a bio inside submit_bio costs nothing
		 * of its own: k/c is unbounded, and such paths share the
		 * capacity (the limit of k/c as c goes to 0) */
		if (sync_paths(sc)) {
			best[i] = c->service.kind == DIST_SYNC;
			sum += best[i];
			continue;
		}

		if (c->bandwidth)
			cost += 1e9 * bytes / (double)c->bandwidth;
		best[i] = cost > 0 ? k / cost : 0;
		sum += best[i];
	}
	for (i = 0; i < sc->nr_paths; i++)
		best[i] = sum > 0 ? best[i] / sum : 0;
}

/*
 * fio's report units (__show_run_stats): clones in job order; a clone
 * joins the unit before it when it has group_reporting and the same
 * groupid, which (add_job) goes up at each job section after the first
 * with stonewall or new_group.  Returns the number of units; unit[n] is
 * clone n's.
 */
static unsigned job_units(const struct sim *s, unsigned *unit,
			  unsigned *groupid)
{
	const struct job_conf *prev = NULL;
	unsigned n, g = 0, last_g = 0, u = 0;

	for (n = 0; n < s->nr_jobs; n++) {
		const struct job_conf *c = s->jobs[n].conf;

		if (prev && c != prev && (c->stonewall || c->new_group))
			g++;
		if (n && !(c->group_reporting && g == last_g))
			u++;
		unit[n] = u;
		groupid[n] = g;
		last_g = g;
		prev = c;
	}
	return s->nr_jobs ? u + 1 : 0;
}

static void job_units_setup(struct sim *s, struct run_result *res)
{
	unsigned *unit = xcalloc(s->nr_jobs + 1, sizeof(*unit));
	unsigned *gid = xcalloc(s->nr_jobs + 1, sizeof(*gid));
	unsigned n, nr = job_units(s, unit, gid);

	run_result_jobs(res, nr);
	for (n = 0; n < s->nr_jobs; n++) {
		struct job_report *jr = &res->job[unit[n]];

		if (!jr->clones++) {
			snprintf(jr->name, sizeof(jr->name), "%s",
				 s->jobs[n].conf->name);
			jr->group = gid[n];
		}
		s->jobs[n].unit = unit[n];
		/* fio's figures, each completion at fio's stamp: the same as
		 * the paths' but in fio's drain (workloads/job.c) */
		s->jobs[n].report = &jr->st;
	}
	free(unit);
	free(gid);
}

/* Each unit's measured time: per clone from the later of its start and
 * the window's to its end (or the window's), the longest of its clones
 * (fio's sum_thread_stats keeps the largest runtime). */
static void job_units_close(struct sim *s, struct run_result *res)
{
	unsigned n;

	for (n = 0; n < s->nr_jobs; n++)
		job_held_flush(&s->jobs[n]);
	for (n = 0; n < res->nr_jobs; n++)
		stats_close(&res->job[n].st);
	for (n = 0; n < s->nr_jobs; n++) {
		const struct job *j = &s->jobs[n];
		struct job_report *jr = &res->job[j->unit];
		sim_ns from = j->began > s->stats_from ? j->began : s->stats_from;
		sim_ns to = job_done(j) ? j->ended : s->now;

		if (j->began != UINT64_MAX && to > from && to - from > jr->runtime)
			jr->runtime = to - from;
		if (!j->fio)
			continue;
		j->fio->ran = j->began != UINT64_MAX;
		fio_clone_epoch(j->fio, j->fio->ran ? from : to);
		fio_clone_close(j->fio, to, j->fio->ran && to > from ?
				to - from : 0);
	}
}

/* What fio keeps of each clone, for fio's formats and logs: clone n of
 * job section `job`. */
static void fio_clones_setup(struct sim *s, struct run_result *res)
{
	const struct scenario *sc = s->sc;
	unsigned i, k, n = 0;

	res->clone = xcalloc(s->nr_jobs, sizeof(*res->clone));
	res->nr_clones = s->nr_jobs;
	for (i = 0; i < sc->nr_jobs; i++)
		for (k = 0; k < sc->jobs[i].numjobs; k++, n++) {
			fio_clone_init(&res->clone[n], &sc->jobs[i], i,
				       s->jobs[n].unit, s->jobs[n].depth);
			s->jobs[n].fio = &res->clone[n];
		}
}

static void sim_free(struct sim *s)
{
	unsigned i;

	mpath_teardown(&s->mp);
	fault_teardown(s);
	delay_teardown(s);
	cpu_teardown(s);
	for (i = 0; i < s->nr_paths; i++)
		path_teardown(&s->paths[i]);
	for (i = 0; i < s->nr_jobs; i++)
		job_teardown(&s->jobs[i]);
	free(s->paths);
	free(s->jobs);
	free(s->io_mem);
	evq_free(&s->q);
}

int run_device(const struct scenario *sc, const struct mp_table *t,
	       uint64_t seed, const struct run_watch *w,
	       struct run_result *res, char *err)
{
	const struct trace_conf *tc = w ? w->trace : NULL;
	struct run_progress pg = { 0 };
	struct sim s;
	uint64_t nr_io = 0;
	sim_ns runtime = 0, ramp = 0;
	unsigned i, k, n;
	int r;

	memset(&s, 0, sizeof(s));
	run_result_alloc(res, sc->nr_paths);
	s.sc = sc;
	s.res = res;
	s.start = s.now = sc->uptime;
	s.mark = UINT64_MAX;
	evq_init(&s.q);

	s.nr_paths = sc->nr_paths;
	s.paths = xcalloc(s.nr_paths, sizeof(*s.paths));
	for (i = 0; i < s.nr_paths; i++) {
		path_setup(&s.paths[i], &s, &sc->paths[i], i, seed);
		s.paths[i].stats = &res->path[i];
		snprintf(res->names[i], sizeof(res->names[i]), "%s",
			 sc->paths[i].name);
	}
	best_shares(sc, res->best);
	delay_setup(&s, seed);
	cpu_setup(&s, seed);

	/* fio runs ramp_time first and then runtime on top of it; the
	 * jobs' limits wait for the ramp's end (job_window_open) */
	job_window(sc, &ramp, &runtime);
	s.stats_from = s.start + ramp;
	s.end = runtime ? s.stats_from + runtime : UINT64_MAX;

	/* numjobs clones of every job; stream indices follow clone order */
	for (i = 0; i < sc->nr_jobs; i++)
		s.nr_jobs += sc->jobs[i].numjobs;
	s.jobs = xcalloc(s.nr_jobs, sizeof(*s.jobs));
	for (i = 0, n = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *c = &sc->jobs[i];

		for (k = 0; k < c->numjobs; k++, n++) {
			r = job_setup(&s.jobs[n], &s, c, n, seed, err);
			if (r) {
				sim_free(&s);
				run_result_free(res);
				return r;
			}
			nr_io += s.jobs[n].depth;
		}
	}
	job_units_setup(&s, res);
	if (w && w->fio)
		fio_clones_setup(&s, res);
	if (w && w->interval) {
		r = series_check(w->interval, runtime, s.nr_paths, err);
		if (r) {
			sim_free(&s);
			run_result_free(res);
			return r;
		}
	}
	s.io_mem = xcalloc(nr_io, sizeof(*s.io_mem));
	for (i = 0; i < nr_io; i++)
		sim_io_put(&s, &s.io_mem[i]);

	r = mpath_setup(&s.mp, &s, t, err);
	if (!r && tc)
		r = tracer_open(&s, tc, (unsigned)nr_io, err);
	if (r) {
		sim_free(&s);
		run_result_free(res);
		return r;
	}

	if (w && w->interval) {
		res->series = series_new(w->interval, s.nr_paths);
		res->series->want_dmsetup = w->dmsetup;
		s.series = res->series;
	}
	if (w && w->progress) {
		pg.part = w->part;
		pg.parts = w->parts;
		pg.label = w->label;
		pg.t0 = w->since;
		pg.every = (double)w->eta_interval / 1e9;
		progress_start(&s, &pg);
	}
	if (ramp)
		sim_schedule(&s, s.stats_from, EV_RAMP_END, NULL);
	if (runtime)
		sim_schedule(&s, s.end, EV_RUN_END, NULL);
	/* without a ramp, the jobs' first I/Os are measured too (an I/O
	 * that finds no path at once counts) */
	if (!ramp)
		sim_stats_open(&s);
	fault_setup(&s);
	for (i = 0; i < s.nr_jobs; i++)
		job_start(&s.jobs[i]);
	sim_loop(&s);
	if (s.cut[0]) {
		snprintf(err, ERR_MAX, "the run cannot finish: %.200s", s.cut);
		progress_end(&s);	/* the error has a line of its own */
		sim_free(&s);
		run_result_free(res);
		return -ERANGE;
	}
	res->late_events = fault_pending(&s);
	progress_end(&s);
	series_close(&s);
	mpath_stats_close(&s.mp);
	for (i = 0; i < s.nr_jobs; i++)
		res->issued += s.jobs[i].issued;
	res->left_queued = s.mp.queued.n;
	res->left_inflight = s.outstanding;

	/* Close the window when the last job finished (its last
	 * completion; after the runtime, the last of those it had in
	 * flight then), as fio's runtime ends. */
	for (i = 0; i < s.nr_paths; i++) {
		path_stats_close(&s.paths[i]);
		stats_close(&res->path[i]);
		stats_merge(&res->total, &res->path[i]);
	}
	res->window = s.now > s.stats_from ? s.now - s.stats_from : 0;
	res->elapsed = s.now - s.start;
	/* the selector's own counters, as `dmsetup status` would show them */
	for (i = 0; i < s.nr_paths; i++) {
		struct path_selector *ps = &s.paths[i].pg->ps;

		if (ps->type->status)
			ps->type->status(ps, &s.paths[i].ps, PS_STATUS_INFO,
					 res->path[i].ps_info,
					 sizeof(res->path[i].ps_info));
	}
	/* and the whole device, for --format=dmsetup */
	res->dmsetup = mpath_dmsetup(&s.mp);
	job_units_close(&s, res);
	r = tracer_close(&s, true, err);
	sim_free(&s);
	if (r)
		run_result_free(res);
	return r;
}

/*
 * The device as `dmsetup create` leaves it, before any I/O: built from
 * sc's table with its paths, nothing run.
 */
int run_device_created(const struct scenario *sc, const struct mp_table *t,
		       char **out, char *err)
{
	struct run_result res;
	struct sim s;
	unsigned i;
	int r;

	memset(&s, 0, sizeof(s));
	run_result_alloc(&res, sc->nr_paths);
	s.sc = sc;
	s.res = &res;
	s.start = s.now = sc->uptime;
	evq_init(&s.q);
	s.nr_paths = sc->nr_paths;
	s.paths = xcalloc(s.nr_paths, sizeof(*s.paths));
	for (i = 0; i < s.nr_paths; i++) {
		path_setup(&s.paths[i], &s, &sc->paths[i], i, 0);
		s.paths[i].stats = &res.path[i];
	}
	r = mpath_setup(&s.mp, &s, t, err);
	if (!r)
		*out = mpath_dmsetup(&s.mp);
	sim_free(&s);
	run_result_free(&res);
	return r;
}
