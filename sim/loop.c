/*
 * loop.c: the event loop.  Pop the earliest event, move the clock to it,
 * hand it to its owner; repeat until the queue is empty or the run is
 * over.  Cost per event: one heap pop plus what the handler does (a
 * closed-loop I/O is two events at most: arrival after a latency, and
 * completion).  Events a handler schedules for the current instant run
 * after every event already queued for it (event.h), never before.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "delay.h"
#include "engine.h"
#include "progress.h"
#include "series.h"

struct sim_io *sim_io_get(struct sim *s)
{
	struct sim_io *io = s->pool;

	/* The pool holds one I/O per unit of iodepth (sim/run.c), and no
	 * job exceeds its depth. */
	assert(io);
	s->pool = io->next;
	return io;
}

void sim_io_put(struct sim *s, struct sim_io *io)
{
	io->next = s->pool;
	s->pool = io;
}

#ifdef MPSIM_DEBUG
/* The invariants of sim.h §5, after every event. */
static int sim_check(const struct sim *s, sim_ns before)
{
	uint64_t sum = 0;
	unsigned i, valid = 0;

	if (s->now < before)
		return 0;
	for (i = 0; i < s->nr_paths; i++) {
		const struct sim_path *p = &s->paths[i];

		sum += p->inflight;
		if (p->conf->slots && p->busy > p->conf->slots)
			return 0;
		/* a dead device holds nothing: it errored all at the fail */
		if (p->dead && (p->busy || p->queue.n))
			return 0;
		valid += !p->failed;
	}
	if (valid != s->mp.nr_valid)
		return 0;
	/* I/Os wait for a path only while there is none, until
	 * kmultipathd's work maps them again, while pg_init runs, or after
	 * a selector gave none though paths were valid */
	if (s->mp.queued.n && s->mp.nr_valid && !s->mp.work_pending &&
	    !(s->mp.queue_io && s->mp.pg_init_in_progress) &&
	    !s->mp.declined)
		return 0;
	return sum == s->outstanding && delay_check(s);
}
#endif

void sim_cut(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	s->stop = true;
	if (s->cut[0])
		return;			/* the first reason stands */
	va_start(ap, fmt);
	vsnprintf(s->cut, sizeof(s->cut), fmt, ap);
	va_end(ap);
}

void sim_stats_open(struct sim *s)
{
	unsigned i;

	s->measuring = true;
	for (i = 0; i < s->nr_paths; i++)
		path_stats_open(&s->paths[i]);
	for (i = 0; i < s->nr_jobs; i++)
		job_window_open(&s->jobs[i]);
	series_open(s);
}

/*
 * The runtime is over.  fio stops issuing and then waits for every I/O it
 * has in flight (do_io()'s io_u_queued_complete()); those complete and
 * count, and the job's runtime runs to the last of them (thread_main()
 * takes it after do_io() returns): a psync job through two ticks of
 * dm-delay made 101 I/Os in 2.015 s of a 2 s runtime on 6.1, not 100 in 2.
 * The run ends when every clone has drained (sim_job_done).
 */
void sim_runtime_over(struct sim *s)
{
	unsigned i;

	s->draining = true;
	for (i = 0; i < s->nr_jobs && !s->stop; i++)
		job_runtime_over(&s->jobs[i]);
	/* sim_loop runs sim_drain_check() after this event, as after
	 * every one while draining */
}

/*
 * While draining: the I/Os still in flight are all held by the multipath
 * device with no path to send them to.  The kernel holds them until a path
 * comes back (queue_if_no_path), and fio would wait as long; the run ends
 * here instead, and they are reported as left queued.
 */
void sim_drain_check(struct sim *s)
{
	uint64_t inflight = 0;
	unsigned i;

	if (s->stop || s->mp.nr_valid || s->mp.queued.n == 0)
		return;
	for (i = 0; i < s->nr_jobs; i++)
		inflight += s->jobs[i].inflight;
	if (inflight == s->mp.queued.n)
		s->stop = true;
}

void sim_job_done(struct sim *s)
{
	assert(s->jobs_running);
	if (!--s->jobs_running)
		s->stop = true;
}

static int mark_match(const struct event *e, void *arg)
{
	return e->kind == EV_MARK;
}

/* At most one EV_MARK is ever queued, so that a mark found alone in the
 * queue is known to be past the run's last event (sim_loop). */
void sim_mark_at(struct sim *s, sim_ns t)
{
	if (t >= s->mark)
		return;
	if (s->mark != UINT64_MAX)
		evq_remove_if(&s->q, mark_match, NULL);	/* rare: O(n) */
	s->mark = t;
	sim_schedule(s, t, EV_MARK, NULL);
}

/*
 * EV_MARK: close the intervals that end now and look at the wall clock,
 * then ask for the next mark.  Marks cost the loop nothing when neither
 * is on, and change no result when they are: they move no other event
 * and are not counted.  A mark with nothing left after it is past the
 * run's last event and does nothing (the loop leaves the clock where the
 * run ended).
 */
static void sim_mark(struct sim *s, sim_ns t)
{
	sim_ns next = UINT64_MAX;

	assert(t == s->mark);
	s->mark = UINT64_MAX;
	if (s->series) {
		series_advance(s, t);
		next = s->series->next;
	}
	if (s->progress) {
		if (t >= s->progress->next)
			progress_tick(s, t);
		if (s->progress->next < next)
			next = s->progress->next;
	}
	if (next != UINT64_MAX)
		sim_mark_at(s, next);
}

void sim_loop(struct sim *s)
{
	struct event e;
	uint64_t n = 0;

	if (s->stats_from == s->now && !s->measuring)
		sim_stats_open(s);
	while (!s->stop && evq_pop(&s->q, &e)) {
		sim_ns before = s->now;

		/* the clock never passes its limit, so that no sum can wrap
		 * (sim.h); a run still going there cannot finish */
		if (__builtin_expect(e.time > SIM_CLOCK_MAX, 0)) {
			sim_cut(s, "its clock would pass %llu ns (about %llu "
				"years of uptime), the limit of simulated time",
				(unsigned long long)SIM_CLOCK_MAX,
				(unsigned long long)(SIM_CLOCK_MAX /
						     NSEC_PER_SEC / 31557600));
			break;
		}
		s->now = e.time;
		n++;
		switch (e.kind) {
		case EV_DEV_DONE: {
			struct sim_io *io = e.obj;

			/* traced before path_done's slot takes the next */
			trace_hook(s, trace_io_complete(s->tr, io, 0));
			path_done(io->path, io);
			break;
		}
		case EV_DEV_ARRIVE: {
			struct sim_io *io = e.obj;

			path_arrive(io->path, io);
			break;
		}
		case EV_JOB_ARRIVAL:
			job_arrival(e.obj);
			break;
		case EV_JOB_WAKE:
			job_wake(e.obj);
			break;
		case EV_RAMP_END:
			sim_stats_open(s);
			break;
		case EV_RUN_END:
			sim_runtime_over(s);
			break;
		case EV_PATH_EVENT:
			path_event(s, e.obj);
			break;
		case EV_DELAY_WAKE:
			delay_wake(s, e.obj);
			break;
		case EV_CPU_SUBMIT:
			cpu_submitted(s, e.obj);
			break;
		case EV_CPU_END_IO:
		case EV_CPU_REAP:
			cpu_completed(s, e.obj);
			break;
		case EV_MARK:
			n--;
			/* the last event: the run ended before it */
			if (!s->q.n) {
				s->now = before;
				break;
			}
			sim_mark(s, e.time);
			break;
		default:
			abort();
		}
#ifdef MPSIM_DEBUG
		assert(sim_check(s, before));
#endif
		if (__builtin_expect(s->draining, 0))
			sim_drain_check(s);
	}
	s->res->events += n;
}
