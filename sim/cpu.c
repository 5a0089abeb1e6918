/*
 * cpu.c: the CPU time an I/O costs (docs/kernel-model.md §11.3).  Each
 * simulated CPU serves two per-I/O costs, charged on the CPU of the job
 * clone that submitted the I/O (workloads/cpus.c):
 *   submit_cpu    fio's submission, the system call, dm's map: the I/O
 *                 reaches the multipath device when its turn on the CPU
 *                 ends;
 *   complete_cpu  the completion interrupt, dm's end_io, fio's reaping:
 *                 a device's completion waits for the CPU behind any
 *                 earlier work (a submission in progress, other
 *                 completions), so the path's in-flight count drops only
 *                 when its turn ends.
 * A device that completes inside submit_bio (`service = sync`: brd,
 * zram) ends the bio in its submitter's context, at once; only the
 * job's reaping then waits for the CPU (cpu_reap).
 *
 * The order is fio's loop: it reaps one I/O (one completion per
 * io_getevents, iodepth_batch_complete_max being _min, 1) and submits
 * the next at once, before it reaps another.  So completions that
 * arrive together (a tick's dm-delay flush) wait in a FIFO, and each
 * reap's submission takes the CPU ahead of the next of them: the k-th
 * waits k-1 reaps and k-1 submissions, not k-1 reaps alone.  In UML at
 * depth 64 over 2 and 20 ms delays, the I/Os a tick returns late are
 * reaped up to a tick after it (fio's latency log: queue-length's slow
 * path at 36-45 ms, where reaps first put it at 26-33).
 *
 * A CPU that sat idle costs more to start again (wake_cpu): the guest
 * slept, and the work that wakes it (fio's loop after its reap, or a
 * submission) runs that much longer.  UML at HZ=100 showed it: one I/O
 * at a time through a 1 ms dm-delay, with the guest asleep until each
 * tick, fio's loop after its reap was 36-112 us longer than the same
 * loop on a CPU never idle, in eleven runs of live-check fitted at
 * mpsim's own start in the tick, and 26-74 us in three fitted at each
 * run's measured start (results/live-6.1-history.md, a CPU that sleeps).  At
 * depth 16 it is the first reap after each tick that pays it, and every
 * reap and submission behind it that it moves.
 *
 * A host may steal stretches of time from a CPU (steal = LEN every GAP:
 * a guest's CPU preempted by its host, what the guest's /proc/stat
 * counts as steal).  The guest's clock and its ticks go on meanwhile, as
 * they are the host's time; only the CPU's work stops, as the host takes
 * the CPU from a guest that has run its share (a stretch comes after
 * every GAP of the CPU's own work, and the work it falls in runs
 * that much longer).  A CPU with nothing to do is not preempted, and
 * loses nothing.
 * UML at HZ=100 showed it: at depth 1, where every I/O costs the same
 * CPU time, one I/O in a thousand took 0.8 to 3.4 ms or more, where the
 * mean was 0.12 to 0.18 ms (the calibration's 99.9th percentile in ten
 * runs; results/live-6.1-history.md, stolen time); and
 * at depth 64 over dm-delays of 2 and 20 ms, such a stall moves where
 * the burst of resubmissions after a flush falls in the ticks, and with
 * it the tick on which dm-delay flushes the next.
 *
 * Cost: nothing with both costs 0 (the default): the calls go straight
 * through and no event is added, so such a run is the run it always was.
 * Otherwise one event per cost; a CPU is one sim_ns, the instant its
 * reserved work ends, a count of its turns whose end is not yet handled,
 * the instant its completion's turn began, and a FIFO of the completions
 * waiting for it.
 */
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "engine.h"
#include "rng.h"

/* One draw of steal's LEN or GAP, in ns (fixed or exp, checked by
 * the scenario's reader), kept within a time value. */
static sim_ns steal_draw(const struct dist *d, gsl_rng *r)
{
	double x = d->kind == DIST_EXP ? gsl_ran_exponential(r, d->mean) : d->mean;

	return x < (double)SIM_TIME_MAX ? (sim_ns)(x + 0.5) : SIM_TIME_MAX;
}

/* When work of `cost` ns that begins at t on CPU c ends: each time the
 * CPU has worked GAP of its own (drawn anew each time), the host steals
 * a stretch of LEN, which stops the work in progress that long.  A GAP
 * that runs out as work ends is taken at the next work's start. */
static sim_ns steal_ends(struct sim *s, unsigned c, sim_ns t, sim_ns cost)
{
	const struct scenario *sc = s->sc;
	struct cpu_steal *st;

	if (__builtin_expect(!s->steal, 1))
		return t + cost;
	st = &s->steal[c];
	while (cost > st->left && t <= SIM_CLOCK_MAX) {
		t += st->left + steal_draw(&sc->steal_cpu, st->rng);
		cost -= st->left;
		st->left = steal_draw(&sc->steal_gap, st->rng);
	}
	/* past the clock's limit the run stops: nothing is left to take */
	st->left = cost > st->left ? 0 : st->left - cost;
	return t + cost;
}

/* The instant work asked for now on CPU c begins: when the work queued
 * before it ends, or now. */
static sim_ns cpu_begins(const struct sim *s, unsigned c)
{
	return s->cpu_free[c] > s->now ? s->cpu_free[c] : s->now;
}

/*
 * The instant work of `cost` ns asked for now on CPU c ends: after all
 * the work queued before it, FIFO.  Queued work never starts past the
 * clock's limit (sim.h): there the loop stops the run at the first such
 * event, and adding more to it could wrap, so it is not added.
 */
static sim_ns cpu_take(struct sim *s, unsigned c, sim_ns cost)
{
	sim_ns start = cpu_begins(s, c);

	/* the CPU has been idle since its last work ended: this work wakes
	 * it (a turn that ends at this very instant leaves it busy) */
	if (s->now > s->cpu_free[c])
		cost += s->wake_cpu;
	if (start <= SIM_CLOCK_MAX)
		s->cpu_free[c] = steal_ends(s, c, start, cost);
	return s->cpu_free[c];
}

void cpu_setup(struct sim *s, uint64_t seed)
{
	const struct scenario *sc = s->sc;
	size_t n = sc->ncpus ? sc->ncpus : 1, c;

	s->submit_cpu = sc->submit_cpu;
	s->complete_cpu = sc->complete_cpu;
	s->wake_cpu = sc->wake_cpu;
	s->cpu_free = xcalloc(n, sizeof(*s->cpu_free));
	s->cpu_reaped = xcalloc(n, sizeof(*s->cpu_reaped));
	s->cpu_wait = xcalloc(n, sizeof(*s->cpu_wait));
	s->cpu_turns = xcalloc(n, sizeof(*s->cpu_turns));
	/* the run starts on CPUs that fio's own set-up kept busy, at the
	 * scenario's uptime: its first work does not wake them */
	for (c = 0; c < n; c++)
		s->cpu_free[c] = s->now;
	if (sc->steal_cpu.mean > 0) {
		s->steal = xcalloc(n, sizeof(*s->steal));
		for (c = 0; c < n; c++) {
			s->steal[c].rng = rng_stream(seed, RNG_STEAL, (unsigned)c);
			s->steal[c].left = steal_draw(&sc->steal_gap,
						      s->steal[c].rng);
		}
	}
}

void cpu_teardown(struct sim *s)
{
	free(s->cpu_free);
	free(s->cpu_reaped);
	free(s->cpu_wait);
	free(s->cpu_turns);
	if (s->steal) {
		size_t n = s->sc->ncpus ? s->sc->ncpus : 1, c;

		for (c = 0; c < n; c++)
			gsl_rng_free(s->steal[c].rng);
		free(s->steal);
		s->steal = NULL;
	}
	s->cpu_free = NULL;
	s->cpu_reaped = NULL;
	s->cpu_wait = NULL;
	s->cpu_turns = NULL;
}

/*
 * submit_bio_noacct() on the dm device (block/blk-core.c): a flush to a
 * device without a write cache is ended here, before dm sees it (a sync
 * of fsync=, fdatasync= or a log, when every path is write_cache =
 * through; docs/kernel-model.md §11.2).  It reaches no path, so no
 * path's figures count it.
 */
static void blk_submit(struct sim *s, struct sim_io *io)
{
	io->accepted = s->now;
	if (__builtin_expect(io->ddir == DDIR_SYNC && !s->mp.write_cache, 0)) {
		job_complete(io->job, io, 0);
		return;
	}
	mpath_map(&s->mp, io);
}

/* A submission without CPU time takes no turn: it begins now. */
sim_ns sim_submit_begins(const struct sim *s, unsigned c)
{
	return s->submit_cpu ? cpu_begins(s, c) : s->now;
}

void sim_submit(struct sim *s, struct sim_io *io)
{
	if (__builtin_expect(!s->submit_cpu, 1)) {
		blk_submit(s, io);
		return;
	}
	s->cpu_turns[io->job->cpu]++;
	sim_schedule(s, cpu_take(s, io->job->cpu, s->submit_cpu),
		     EV_CPU_SUBMIT, io);
}

/* io's completion takes CPU c, which is free now: its turn ends
 * complete_cpu later (and wake_cpu more if the CPU was idle). */
static void cpu_turn(struct sim *s, unsigned c, struct sim_io *io)
{
	s->cpu_turns[c]++;
	s->cpu_reaped[c] = s->now;
	sim_schedule(s, cpu_take(s, c, s->complete_cpu),
		     io->reap ? EV_CPU_REAP : EV_CPU_END_IO, io);
}

/* A turn on CPU c has been handled: the first completion waiting takes
 * the CPU, unless the turn reserved work of its own (the submission fio
 * makes right after a reap), which goes first; its end calls this
 * again.  The CPU counts as busy until a turn's end is handled, not
 * only until its instant: a completion that comes at that instant,
 * before the reap's event, must not slip in before the reap's
 * submission. */
static void cpu_next(struct sim *s, unsigned c)
{
	if (s->cpu_wait[c].n && !s->cpu_turns[c])
		cpu_turn(s, c, fifo_pop(&s->cpu_wait[c]));
}

/* A completion asks for its job's CPU: now if the CPU is free and none
 * waits before it, else at the end of the FIFO. */
static void cpu_complete(struct sim *s, struct sim_io *io, bool reap)
{
	unsigned c = io->job->cpu;

	io->reap = reap;
	if (!s->cpu_turns[c] && !s->cpu_wait[c].n)
		cpu_turn(s, c, io);
	else
		fifo_push(&s->cpu_wait[c], io);
}

void cpu_submitted(struct sim *s, struct sim_io *io)
{
	unsigned c = io->job->cpu;

	s->cpu_turns[c]--;
	blk_submit(s, io);
	cpu_next(s, c);
}

void cpu_end_io(struct sim *s, struct sim_io *io)
{
	if (__builtin_expect(!s->complete_cpu, 1)) {
		mpath_end_io(&s->mp, io, 0);
		return;
	}
	cpu_complete(s, io, false);
}

/* A completion dm already ended (a synchronous device): the job reaps
 * it after its turn on the CPU, and never inside the submission that
 * ended it (an event, even at cost 0, so a closed loop does not recurse
 * into its next submission). */
void cpu_reap(struct sim *s, struct sim_io *io)
{
	cpu_complete(s, io, true);
}

void cpu_completed(struct sim *s, struct sim_io *io)
{
	unsigned c = io->job->cpu;

	s->cpu_turns[c]--;
	if (io->reap)
		mpath_io_reaped(&s->mp, io, s->cpu_reaped[c]);
	else
		mpath_end_io(&s->mp, io, 0);
	cpu_next(s, c);
}
