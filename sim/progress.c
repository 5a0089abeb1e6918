/*
 * progress.c: the status line of progress.h, in fio's shape:
 *     mpsim: [45.5%][sim 5.00/11.00 s][59.7k IOPS][eta 00m:06s]
 * and for a part of a command (compare's columns), the part first:
 *     mpsim: [2/5 HST (jiffies)][27.3%][sim 5.00 s][49.9k IOPS][eta 00m:20s]
 * The done fraction is the simulated time over the run's length when it
 * has one (runtime), else the I/Os issued over the jobs' number_ios;
 * IOPS are the simulated ones since the last line.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "progress.h"

/* The line appears after two intervals of wall time, then refreshes
 * every interval: a run too short to need one never flashes it. */
#define PROGRESS_AFTER	2

static double wall_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void progress_start(struct sim *s, struct run_progress *pg)
{
	if (!pg->parts)
		clock_gettime(CLOCK_MONOTONIC, &pg->t0);
	if (!(pg->every > 0))
		pg->every = PROGRESS_EVERY_S;
	pg->next = s->now + PROGRESS_STEP;
	pg->last_at = s->now;
	s->progress = pg;
	sim_mark_at(s, pg->next);
}

/* The fraction of the run done, or -1 when it has no known length. */
static double done_fraction(const struct sim *s)
{
	uint64_t issued = 0, limit = 0;
	unsigned i;

	if (s->end != UINT64_MAX)
		return (double)(s->now - s->start) / (double)(s->end - s->start);
	for (i = 0; i < s->nr_jobs; i++) {
		if (s->jobs[i].limit == UINT64_MAX)
			return -1;
		issued += s->jobs[i].issued;
		limit += s->jobs[i].limit;
	}
	return limit ? (double)issued / (double)limit : -1;
}

/* A line never wraps on an 80-column terminal (a wrapped line cannot
 * be rewritten in place): a part's label is cut to fit. */
#define PROGRESS_WIDTH	79

static void progress_show(struct sim *s, struct run_progress *pg, double wall)
{
	double f = done_fraction(s), iops = 0;
	char pct[16] = "--.-%", eta[24] = "--m:--s", tail[96], line[200];
	sim_ns dt = s->now - pg->last_at;

	if (dt)
		iops = (double)(s->res->ios_simulated - pg->last_ios) * 1e9 /
		       (double)dt;
	/* a part of a command: the done fraction and eta are the whole's */
	if (pg->parts)
		f = f < 0 ? -1 : (pg->part + f) / pg->parts;
	if (f > 0) {
		unsigned long left = (unsigned long)(wall * (1 - f) / f + 0.5);

		snprintf(pct, sizeof(pct), "%.1f%%", 100 * f);
		snprintf(eta, sizeof(eta), "%02lum:%02lus", left / 60,
			 left % 60);
	}
	snprintf(tail, sizeof(tail), "[%s][sim %.2f s][%.1fk IOPS][eta %s]",
		 pct, (double)(s->now - s->start) / 1e9, iops / 1e3, eta);
	if (pg->parts) {
		int head = snprintf(NULL, 0, "mpsim: [%u/%u ]", pg->part + 1,
				    pg->parts);
		int room = PROGRESS_WIDTH - head - (int)strlen(tail);

		snprintf(line, sizeof(line), "mpsim: [%u/%u %.*s]%s",
			 pg->part + 1, pg->parts, room > 0 ? room : 0,
			 pg->label, tail);
	} else {
		snprintf(line, sizeof(line), "mpsim: %s", tail);
	}
	fprintf(stderr, "\r%-*s", PROGRESS_WIDTH, line);
	fflush(stderr);
	pg->shown = true;
	pg->shown_at = wall;
	pg->last_at = s->now;
	pg->last_ios = s->res->ios_simulated;
}

void progress_tick(struct sim *s, sim_ns t)
{
	struct run_progress *pg = s->progress;
	double wall = wall_since(&pg->t0);

	pg->next = t + PROGRESS_STEP;
	if (wall < PROGRESS_AFTER * pg->every ||
	    (pg->shown && wall - pg->shown_at < pg->every))
		return;
	progress_show(s, pg, wall);
}

void progress_end(struct sim *s)
{
	struct run_progress *pg = s->progress;

	if (pg && pg->shown) {
		fprintf(stderr, "\r%-*s\r", PROGRESS_WIDTH, "");
		fflush(stderr);
	}
	s->progress = NULL;
}
