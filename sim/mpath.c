/*
 * mpath.c: the multipath device, after drivers/md/dm-mpath.c: the path of
 * every I/O chosen by choose_pgpath (sim/pgroup.c: the current priority
 * group's selector is asked on every I/O, kernel >= 4.6, docs/kernel-model.md §2.2),
 * the start-time stamp each mode gives end_io (§2.3,
 * §3.10), the queue of I/Os that found no usable path
 * (queue_if_no_path), and path failure: fail_path, reinstate_path, and
 * the requeue of failed I/O that kmultipathd maps again.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

/* dm_table_set_restrictions (drivers/md/dm-table.c): the device has a
 * write cache when any device under it has one (dm_table_supports_flush;
 * dm-delay passes its device's on). */
static bool mpath_write_cache(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++)
		if (!sc->paths[i].write_through)
			return true;
	return false;
}

int mpath_setup(struct mpath *m, struct sim *s, const struct mp_table *t,
		char *err)
{
	const struct scenario *sc = s->sc;

	m->sim = s;
	m->mode = sc->mode;
	m->clock = sc->clock;
	m->hz = sc->hz;
	m->queue_if_no_path = sc->queue_if_no_path;
	m->sched = sc->sched;
	m->work.kind = PEV_PROCESS_QUEUED;
	m->write_cache = mpath_write_cache(sc);
	return pg_setup(m, t, err);
}

void mpath_teardown(struct mpath *m)
{
	pg_teardown(m);
}

/*
 * The start time end_io will see for io, in bio mode (request mode stamps
 * at dispatch, see mpath_end_io).  5.19+ stamps ktime_get_ns() right after
 * selection only for a selector with DM_PS_USE_HR_TIMER and otherwise
 * falls back to the jiffies value taken when dm accepted the bio (§2.3).
 */
static uint64_t bio_start_time(struct mpath *m, const struct sim_io *io)
{
	enum start_clock c = m->clock;

	/*
	 * multipath_end_io_bio passes `mpio->start_time_ns ?:
	 * dm_start_time_ns_from_clone(clone)`: a ktime stamp of 0 (a bio
	 * mapped at uptime 0) reads as "unset" and falls back to the jiffies
	 * stamp, as does a selector without DM_PS_USE_HR_TIMER, whose
	 * start_time_ns stays the 0 multipath_init_per_bio_data gave it.
	 */
	if (c == START_KTIME &&
	    (!(io->path->pg->ps.type->features & PS_USE_HR_TIMER) ||
	     !io->mapped))
		c = START_JIFFIES;
	return start_stamp_cached(&m->stamp, c, m->hz, io->accepted,
				  io->mapped);
}

/* The selector's end_io for an I/O last mapped to p, with the start
 * stamp the mode gives it. */
static void ps_end_io(struct mpath *m, struct sim_path *p,
		      const struct sim_io *io, uint64_t start)
{
	struct path_selector *ps = &p->pg->ps;

	if (ps->type->end_io)
		ps->type->end_io(ps, &p->ps, io->bytes, start, m->sim->now);
	p->stats->end_ios++;
}

/* The O_SYNC write's own size and path again, its flush over. */
static void osync_restore(struct sim_io *io)
{
	if (io->osync != OSYNC_FLUSH)
		return;
	io->ddir = DDIR_WRITE;
	io->bytes = io->data_bytes;
	io->path = io->data_path;
	io->osync = OSYNC_NONE;
}

/*
 * DM_MAPIO_KILL: no usable path and queue_if_no_path off.  A fresh bio
 * (mpio->pgpath NULL) is failed by dm core without the target's end_io.
 * A bio mapped before and requeued after a path error still has
 * mpio->pgpath pointing at that old path: process_queued_bios ends it
 * with bio_endio(), so multipath_end_io_bio runs again, calls fail_path
 * on the old path (a no-op, it is failed) and the selector's end_io on it
 * a second time, with the old start stamp (docs/kernel-model.md §2.3).  HST's
 * outstanding then drops below zero and wraps (2^64 - 1 per bio).
 * Request mode kills an unmapped request (dm_kill_unmapped_request):
 * no end_io.
 */
static void mpath_kill(struct mpath *m, struct sim_io *io)
{
	struct sim_path *stale = io->path;

	if (stale && m->mode == MODE_BIO) {
		mpath_fail_path(m, stale);
		ps_end_io(m, stale, io, io->start_time);
		trace_hook(m->sim, trace_io_end(m->sim->tr, io, -EIO));
	}
	io->path = NULL;
	trace_hook(m->sim, trace_io_done(m->sim->tr, io, -EIO));
	osync_restore(io);
	io->osync = OSYNC_NONE;
	job_complete(io->job, io, -EIO);
}

/*
 * The clock select_path reads: ktime_get_ns() since 5.18; before that HST
 * read sched_clock() here while end_io stamped stale_after with ktime, so
 * an offset between them shifts every staleness decision (§3.10, commit
 * ce40426fdc3c).
 */
static inline sim_ns select_now(const struct mpath *m)
{
	const struct sim *s = m->sim;

	return m->select_sched_clock ?
		sched_clock_at(&m->sched, m->hz, s->now) : s->now;
}

sim_ns mpath_select_now(const struct mpath *m)
{
	return select_now(m);
}

/*
 * __map_bio / multipath_clone_and_map beyond the common case: the cached
 * path serves only while I/O is queued for pg_init, else choose_pgpath
 * (current_tried: the current group's selector was already asked, and
 * had nothing).  No usable path queues or fails the I/O (§2.2); a group
 * being initialised holds it until pg_init_done maps it again.  Returns
 * the path, or NULL when the I/O was held or failed here.
 */
static struct sim_path *__attribute__((noinline))
map_slow(struct mpath *m, struct sim_io *io, sim_ns now, bool current_tried)
{
	struct sim *s = m->sim;
	struct sim_path *p = m->current_pgpath;

	if (current_tried) {
		/* what choose_pgpath does after the current group: with no
		 * valid path its first step's outcome, else the scan */
		p = m->nr_valid ? choose_pgpath_scan(m, io->bytes, now) :
				  choose_pgpath(m, io->bytes, now);
	} else if (!m->queue_io || !p) {
		p = choose_pgpath(m, io->bytes, now);
	}
	/* a path chosen while its group is initialised holds the I/O */
	trace_hook(s, trace_io_map(s->tr, io, m->queue_io ||
				   m->pg_init_required ? NULL : p));
	if (!p) {
		if (s->measuring)
			s->res->no_path++;
		if (m->queue_if_no_path) {
			fifo_push(&m->queued, io);
			m->declined = m->nr_valid != 0;
		} else {
			mpath_kill(m, io);
		}
		return NULL;
	}
	if (m->queue_io || m->pg_init_required) {
		fifo_push(&m->queued, io);
		pg_init_all_paths(m);
		return NULL;
	}
	return p;
}

void mpath_map(struct mpath *m, struct sim_io *io)
{
	struct sim *s = m->sim;
	/* NULL unless the current group's selector answers below */
	struct sim_path *p = NULL;

	/*
	 * choose_pgpath() in line for the common case: no I/O held for
	 * pg_init, a current group, no switch_group pending.  The current
	 * group's selector is asked (every I/O, kernel >= 4.6) and its
	 * choice changes nothing else; with no valid path at all it has
	 * none either, and map_slow() takes over from there.
	 */
	struct priority_group *pg = m->current_pg;
	sim_ns now = select_now(m);

	m->cpu = io->job->cpu;		/* the submitter's get_cpu() */
	if (__builtin_expect(!m->queue_io && pg && !m->next_pg, 1)) {
		pg->ps.cpu = m->cpu;
		p = (struct sim_path *)pg->ps.type->select_path(&pg->ps,
								io->bytes, now);
	}
	if (__builtin_expect(!p, 0)) {
		p = map_slow(m, io, now, pg && !m->queue_io && !m->next_pg);
		if (!p)
			return;
	} else {
		trace_hook(s, trace_io_map(s->tr, io, p));
	}
	if (p->failed) {
		fprintf(stderr, "mpsim: bug: selector %s chose failed path %s\n",
			p->pg->ps.type->name, p->conf->name);
		abort();
	}
	io->path = p;
	io->mapped = s->now;
	/* a clone not yet started by the driver has io_start_time_ns 0, which
	 * is what end_io sees if the path errors it while still queued */
	io->dispatch = 0;
	if (m->mode == MODE_BIO)
		io->start_time = bio_start_time(m, io);
	if (p->pg->ps.type->start_io)
		p->pg->ps.type->start_io(&p->pg->ps, &p->ps, io->bytes, s->now);
	p->stats->starts++;
	p->inflight++;
	p->inflight_t_in += s->now;
	s->outstanding++;
	path_submit(p, io);
}

/* ---- path failure ---- */

/* queue_work(kmultipathd, &m->process_queued_bios): once until it runs. */
void mpath_kick(struct mpath *m)
{
	struct sim *s = m->sim;

	if (m->work_pending)
		return;
	m->work_pending = true;
	sim_schedule(s, s->now, EV_PATH_EVENT, &m->work);
}

/* Add the time without a usable path that falls in the measured window,
 * from no_path_since to now. */
static void no_path_account(struct mpath *m)
{
	struct sim *s = m->sim;
	sim_ns from = m->no_path_since;

	if (from < s->stats_from)
		from = s->stats_from;
	if (s->measuring && s->now > from)
		s->res->no_path_time += s->now - from;
}

/*
 * An I/O the path ended in error, after fail_path and end_io.  Bio mode
 * (multipath_end_io_bio) puts it on the queued list for kmultipathd to
 * map again unless no path is left and queue_if_no_path is off; request
 * mode (multipath_end_io) makes the same decision and requeues the
 * request, which is mapped again at once: both are a requeue here.  The
 * I/O keeps its submit time, so a bio's jiffies stamp stays the original
 * bio's (§2.3).
 */
static void mpath_io_error(struct mpath *m, struct sim_io *io)
{
	struct sim *s = m->sim;
	struct sim_path *p = io->path;

	if (s->measuring)
		p->stats->errors++;
	if (!m->nr_valid && !m->queue_if_no_path) {
		io->path = NULL;
		trace_hook(s, trace_io_done(s->tr, io, -EIO));
		osync_restore(io);
		io->osync = OSYNC_NONE;
		job_complete(io->job, io, -EIO);
		return;
	}
	/* io->path stays: it is mpio->pgpath until a new mapping (see
	 * mpath_kill) */
	if (s->measuring)
		s->res->requeued++;
	trace_hook(s, trace_io_requeue(s->tr, io, p));
	fifo_push(&m->queued, io);
	/* __multipath_queue_bio: the work waits while pg_init holds I/O */
	if (!m->queue_io)
		mpath_kick(m);
}

/* fail_path(): the selector takes the path off its valid list (§3.3,
 * §5: each selector's own list moves). */
void mpath_fail_path(struct mpath *m, struct sim_path *p)
{
	struct sim *s = m->sim;

	if (p->failed)
		return;
	p->pg->ps.type->fail_path(&p->pg->ps, &p->ps);
	p->failed = true;
	p->fail_count++;
	if (p == m->current_pgpath)
		m->current_pgpath = NULL;
	if (!--m->nr_valid) {
		m->no_path_since = s->now;
		multipathd_path_down(m);
	}
	trace_hook(s, trace_path_event(s->tr, p, TRACE_FAIL));
}

/*
 * reinstate_path(): the selector puts the path back where its kernel
 * code does (round-robin at the head, the others at the tail, §5, §9.11);
 * the first usable path after none has kmultipathd map the held I/O.
 */
void mpath_reinstate_path(struct mpath *m, struct sim_path *p)
{
	struct sim *s = m->sim;
	struct path_selector *ps = &p->pg->ps;

	if (!p->failed)
		return;
	if (ps->type->reinstate_path &&
	    ps->type->reinstate_path(ps, &p->ps))
		return;		/* the kernel leaves the path failed */
	p->failed = false;
	if (!m->nr_valid++) {
		m->current_pgpath = NULL;
		no_path_account(m);
		mpath_kick(m);
	} else if (m->hw_handler && m->current_pg == p->pg) {
		/* a path back in the active group is activated alone */
		pg_activate_queue(m, p, 0);
	}
	trace_hook(s, trace_path_event(s->tr, p, TRACE_REINSTATE));
	multipathd_path_up(m, p);
}

/*
 * queue_if_no_path(m, on): off fails what is held at once (kmultipathd
 * maps it again and, with no path, kills it).
 */
void mpath_queue_if_no_path(struct mpath *m, bool on)
{
	m->queue_if_no_path = on;
	if (!on)
		mpath_kick(m);
}

/*
 * process_queued_bios(): every I/O held when the work starts is mapped
 * again, in FIFO order.  With no usable path and queue_if_no_path on
 * they stay held (mapping them would only queue them again); with it off
 * each fails to its job in mpath_map().
 */
void mpath_process_queued(struct mpath *m)
{
	unsigned n = m->queued.n;

	m->work_pending = false;
	m->declined = false;
	while (n-- && (m->nr_valid || !m->queue_if_no_path))
		mpath_map(m, fifo_pop(&m->queued));
}

void mpath_stats_close(struct mpath *m)
{
	if (!m->nr_valid)
		no_path_account(m);
}

/*
 * The start time end_io is given.  Request mode: the clone's
 * io_start_time_ns is the driver's dispatch stamp, and stays 0 when the
 * path's queue keeps no block statistics (QUEUE_FLAG_STATS, §2.3).
 */
static inline uint64_t end_io_start(const struct mpath *m,
				    const struct sim_io *io)
{
	if (m->mode == MODE_REQUEST)
		return io->path->conf->request_stats ? io->dispatch : 0;
	return io->start_time;
}

uint64_t mpath_end_io_start(const struct mpath *m, const struct sim_io *io)
{
	return end_io_start(m, io);
}

/* dm's end of io: fail_path on an error, the selector's end_io, the
 * in-flight counts; an error goes on to be requeued or failed here.
 * Returns true when io succeeded, for its job to take. */
static inline bool end_io_dm(struct mpath *m, struct sim_io *io, int error)
{
	struct sim *s = m->sim;
	struct sim_path *p = io->path;
	uint64_t start = end_io_start(m, io);

	/* A path error fails the path before end_io (§2.3, §9.14). */
	if (__builtin_expect(error != 0, 0)) {
		trace_hook(s, trace_io_complete(s->tr, io, error));
		mpath_fail_path(m, p);
	}
	ps_end_io(m, p, io, start);
	/* the end_io sample, and for a success dm's completion (below) */
	trace_hook(s, trace_io_end(s->tr, io, error));
	p->inflight--;
	p->inflight_t_out += s->now;
	s->outstanding--;
	s->res->ios_simulated++;
	if (__builtin_expect(error != 0, 0)) {
		mpath_io_error(m, io);
		return false;
	}
	return true;
}

void mpath_end_io(struct mpath *m, struct sim_io *io, int error)
{
	if (end_io_dm(m, io, error))
		mpath_io_done(m, io);
}

void mpath_end_io_sync(struct mpath *m, struct sim_io *io)
{
	if (end_io_dm(m, io, 0))
		cpu_reap(m->sim, io);
}

/*
 * An O_SYNC write's data has ended: blkdev_write_iter's
 * generic_write_sync() now calls blkdev_fsync, whose blkdev_issue_flush
 * sends an empty REQ_PREFLUSH write through dm (block/fops.c,
 * include/linux/fs.h; docs/kernel-model.md §11.2).  dm-mpath maps it as
 * any bio (select_path with 0 bytes), dm-delay holds it in its flush
 * class, and the write's latency runs until it ends.  Its submission is
 * charged no CPU time of its own.
 */
static void osync_flush(struct mpath *m, struct sim_io *io)
{
	io->osync = OSYNC_FLUSH;
	io->data_bytes = io->bytes;
	io->data_path = io->path;
	io->ddir = DDIR_SYNC;
	io->bytes = 0;
	io->accepted = m->sim->now;
	mpath_map(m, io);
}

/* The job's completion of a successful I/O, and its statistics: the
 * latency runs from the job's request to `end`. */
static void io_done(struct mpath *m, struct sim_io *io, sim_ns end)
{
	struct sim *s = m->sim;
	struct sim_path *p;

	if (__builtin_expect(io->osync != OSYNC_NONE, 0)) {
		/* without a write cache, submit_bio_noacct ends the
		 * flush before dm sees it: the write is done */
		if (io->osync == OSYNC_DATA && m->write_cache) {
			osync_flush(m, io);
			return;
		}
		osync_restore(io);
		io->osync = OSYNC_NONE;
	}
	p = io->path;

	if (s->measuring) {
		uint64_t lat = end - io->submit;
		unsigned b = lat_bucket(lat);

		stats_add(p->stats, io->ddir, io->bytes, lat, b);
		job_latency(io->job, io, end, b);
	}
	job_complete(io->job, io, 0);
}

void mpath_io_done(struct mpath *m, struct sim_io *io)
{
	io_done(m, io, m->sim->now);
}

/* A synchronous device's completion that the job reaped (sim/cpu.c):
 * fio stamps its reap when its turn on the CPU begins (at), and the
 * turn, complete_cpu long (and wake_cpu more after an idle CPU), is
 * fio's own loop up to its next submission's stamp, outside the latency
 * as it is outside fio's (docs/kernel-model.md §11.3). */
void mpath_io_reaped(struct mpath *m, struct sim_io *io, sim_ns at)
{
	io_done(m, io, at);
}
