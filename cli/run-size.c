/*
 * run-size.c: what a run will cost, said before it starts, terminal or
 * not: the I/Os it will simulate (an upper estimate from the scenario)
 * and the wall time they take at mpsim's bench rate, and the size of a
 * trace that --trace-max will cut.  A typo such as --runtime=100000000s
 * otherwise runs for years in silence.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input/table.h"
#include "sim/run.h"
#include "sim/trace.h"
#include "sim/workload.h"

/*
 * Simulated I/Os per second of wall time: the slowest `mpsim bench` row
 * of the README (historical-service-time on bench-large, 5.46 M),
 * rounded down, so that the time said is rarely too short.
 */
#define RUN_RATE	5e6
/* A run estimated to take longer than this says so first. */
#define RUN_NOTE_SECONDS	30

/* Bytes per followed I/O: a decision trace's records (submit, map with
 * each valid path's words, dispatch, complete, end_io, done), and
 * blktrace's (Q, A, Q, G, I, D, C on a path and C on dm-0), as measured
 * on the default scenario and rounded up. */
#define TRACE_BYTES_IO		400
#define TRACE_BYTES_PATH	200
#define BLKT_BYTES_IO		480

/* --trace-max, or no bound. */
static uint64_t tc_max(const struct trace_conf *tc)
{
	return tc && tc->max_bytes ? tc->max_bytes : UINT64_MAX;
}

/* The mean cost of one I/O on path c (service and per-byte, as the
 * Best column takes it) and the least time it spends there. */
static double path_cost(const struct path_conf *c, double bytes)
{
	double cost = c->service.mean;

	if (c->bandwidth)
		cost += 1e9 * bytes / (double)c->bandwidth;
	return cost;
}

static double mean_bytes(const struct scenario *sc)
{
	double sum = 0;
	unsigned i, n = 0;

	for (i = 0; i < sc->nr_jobs; i++, n++)
		sum += (double)sc->jobs[i].bs;
	return n ? sum / n : 4096;
}

double run_estimate_ios(const struct scenario *sc)
{
	double bytes = mean_bytes(sc), cap = 0, fastest = INFINITY;
	double rate = 0, depth = 0, count = 0, window;
	bool unbounded = false, counted = true;
	sim_ns ramp, runtime;
	unsigned i;

	/* the device completes at most sum(slots / cost) I/Os a second; a
	 * closed loop at most its depth over the fastest path's time */
	for (i = 0; i < sc->nr_paths; i++) {
		const struct path_conf *c = &sc->paths[i];
		double cost = path_cost(c, bytes);

		if (cost <= 0)
			continue;
		if (c->slots)
			cap += c->slots / cost * 1e9;
		else
			unbounded = true;
		if (cost + (double)c->latency < fastest)
			fastest = cost + (double)c->latency;
	}
	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *j = &sc->jobs[i];

		if (j->rate_iops > 0)
			rate += j->rate_iops * j->numjobs;
		else
			depth += (double)job_iodepth(j) * j->numjobs;
		if (j->number_ios)
			count += (double)j->number_ios * j->numjobs;
		else if (j->size && !j->time_based && j->bs)
			count += (double)(j->io_size ? j->io_size : j->size) /
				 (double)j->bs * (j->loops ? j->loops : 1) *
				 j->numjobs;
		else
			counted = false;	/* a replay, or time alone */
	}
	if (fastest < INFINITY && fastest > 0)
		rate += depth / fastest * 1e9;
	if (!unbounded && cap < rate)
		rate = cap;
	job_window(sc, &ramp, &runtime);
	window = runtime ? (double)(ramp + runtime) / 1e9 : INFINITY;
	if (counted && count < rate * window)
		return count;
	return isfinite(rate * window) ? rate * window : 0;
}

/* "4 min", "3.2 h", "38 years". */
static void duration_name(double s, char *buf, size_t size)
{
	if (s < 120)
		snprintf(buf, size, "%.0f s", s);
	else if (s < 7200)
		snprintf(buf, size, "%.0f min", s / 60);
	else if (s < 3 * 86400)
		snprintf(buf, size, "%.1f h", s / 3600);
	else if (s < 730 * 86400)
		snprintf(buf, size, "%.0f days", s / 86400);
	else
		snprintf(buf, size, "%.3g years", s / (365.25 * 86400));
}

/* "1.4 GB" */
static void bytes_name(double b, char *buf, size_t size)
{
	if (b < 1e9)
		snprintf(buf, size, "%.0f MB", b / 1e6);
	else
		snprintf(buf, size, "%.3g GB", b / 1e9);
}

/* The I/Os a trace follows: those submitted in [from, until) of the
 * run's ios, at most --trace-count. */
static double traced_ios(const struct scenario *sc, const struct trace_conf *tc,
			 double ios)
{
	sim_ns ramp, runtime;
	double w, from, until;

	job_window(sc, &ramp, &runtime);
	w = (double)(ramp + runtime);
	from = tc->from_set ? (double)tc->from : (double)ramp;
	until = tc->until < UINT64_MAX ? (double)tc->until : w;
	if (runtime && w > 0) {
		if (until > w)
			until = w;
		ios *= until > from ? (until - from) / w : 0;
	}
	if (tc->count && (double)tc->count < ios)
		ios = (double)tc->count;
	return ios;
}

void run_size_note_sweep(double ios, unsigned workers)
{
	double secs = ios / RUN_RATE / (workers ? workers : 1);
	char what[48];

	if (secs <= RUN_NOTE_SECONDS)
		return;
	duration_name(secs, what, sizeof(what));
	mpsim_warn("this sweep simulates about %.2g I/Os, about %s at %g M "
		   "I/Os a second %s %u worker%s", ios, what, RUN_RATE / 1e6,
		   workers > 1 ? "on each of" : "on", workers,
		   workers > 1 ? "s" : "");
}

int run_size_note(const struct scenario *sc, unsigned runs,
		  const struct trace_conf *tc, char *err)
{
	double ios = run_estimate_ios(sc) * runs, secs = ios / RUN_RATE;
	double tbytes = 0, bbytes = 0;
	char what[48], lim[48], *out = NULL;
	int r;

	if (tc && tc->max_bytes) {
		double t = traced_ios(sc, tc, run_estimate_ios(sc));

		if (tc->file)
			tbytes = t * (TRACE_BYTES_IO +
				      TRACE_BYTES_PATH * (double)sc->nr_paths);
		if (tc->blktrace)
			bbytes = t * BLKT_BYTES_IO;
	}
	if (secs <= RUN_NOTE_SECONDS && tbytes <= (double)tc_max(tc) &&
	    bbytes <= (double)tc_max(tc))
		return 0;
	/* said before the run, so the input must be good first: the device
	 * is built as the run would build it (its selector's arguments) */
	r = run_dmsetup_created(sc, &out, err);
	free(out);
	if (r)
		return r;
	mpsim_warn_release(true);
	if (secs > RUN_NOTE_SECONDS) {
		duration_name(secs, what, sizeof(what));
		mpsim_warn("this run simulates about %.2g I/Os, about %s at %g "
			   "M I/Os a second (give --runtime or --number_ios "
			   "to bound it)", ios, what, RUN_RATE / 1e6);
	}
	snprintf(lim, sizeof(lim), "%llu bytes",
		 (unsigned long long)tc_max(tc));
	if (tbytes > (double)tc_max(tc)) {
		bytes_name(tbytes, what, sizeof(what));
		mpsim_warn("--trace would write about %s; no new I/O is "
			   "followed once it holds %s (--trace-max)", what, lim);
	}
	if (bbytes > (double)tc_max(tc)) {
		bytes_name(bbytes, what, sizeof(what));
		mpsim_warn("--blktrace would write about %s; no new I/O is "
			   "followed once its files hold %s (--trace-max)",
			   what, lim);
	}
	return 0;
}
