/*
 * trace.c: the tracer behind the engine's hooks (sim/trace.h).  It picks
 * the I/Os to follow (submitted within --trace-from/--trace-until, at
 * most --trace-count of them), gives each an id and a sector, and hands
 * every step to the decision trace (lib/trace-log.c) and to blktrace's
 * files (lib/blktrace.c).  An I/O is followed whole, from submit to done,
 * or not at all, so that blkparse and btt see complete I/Os.
 *
 * blktrace's view of the stack: the multipath device is dm-0 (253,0) and
 * path i is the SCSI disk (8, 16*i), sd's numbering.  dm-0 records Q when
 * the workload submits a bio and C when dm completes it; each mapping
 * records, on the chosen path, the remap A from dm-0 (same sector: a
 * multipath target does not move sectors) and its Q; the path's device
 * records G and I when the I/O reaches its queue (after any dm-delay hold
 * and transport latency), D when a slot takes it and C when it ends.
 * So btt's D2C on a path is the device's service time and Q2C on dm-0 the
 * latency the workload sees.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "trace.h"
#include "lib/trace-out.h"

#define DM_MAJOR	253	/* device-mapper's usual dynamic major */
#define SCSI_DISK0_MAJOR 8

struct trace_io {
	uint64_t id;		/* 1, 2, ... in submit order; 0: not traced */
	uint64_t sector;	/* where blktrace places it */
	bool live;		/* mapped since dm took it, not yet done: a
				   map is a submission when this is false */
	bool arrived;		/* reached the device since its last map */
};

struct tracer {
	struct sim *s;
	struct trace_conf c;
	struct trace_log *log;	/* NULL: no decision trace */
	struct blkt *blk;	/* NULL: no blktrace */
	struct trace_io *io;	/* per I/O of s->io_mem */
	uint64_t ios;		/* I/Os followed so far */
	bool full;		/* --trace-max reached: no new I/O followed */
	sim_ns full_at;		/* ... since then, after the run began */
	uint64_t next_sector;
	uint32_t dm_dev;
	unsigned dm;		/* blktrace index of dm-0: after the paths */
	char words[1024];	/* one status(PS_STATUS_TRACE) */
};

/* blktrace's directions are fio's, in fio's order */
_Static_assert(DDIR_READ == (int)BLKT_DDIR_READ && DDIR_WRITE == (int)BLKT_DDIR_WRITE &&
	       DDIR_TRIM == (int)BLKT_DDIR_TRIM && DDIR_SYNC == (int)BLKT_DDIR_SYNC,
	       "enum blkt_ddir is enum fio_ddir");

static const char *const ddir_names[] = { "read", "write", "trim", "sync" };

static sim_ns rel(const struct tracer *t)
{
	return t->s->now - t->s->start;
}

static bool in_window(const struct tracer *t)
{
	sim_ns r = rel(t);

	return r >= t->c.from && r < t->c.until;
}

static struct trace_io *tio(const struct tracer *t, const struct sim_io *io)
{
	return &t->io[io - t->s->io_mem];
}

static unsigned path_index(const struct sim_path *p)
{
	return p->ps.index;
}

static uint32_t pid_of(const struct sim_io *io)
{
	return io->job->index + 1;
}

/* The trace words of path's selector (its group's), or with p NULL those
 * of the current group's selector itself (the first group's before one
 * is chosen). */
static const char *status_words(struct tracer *t, const struct sim_path *p)
{
	struct mpath *m = &t->s->mp;
	struct path_selector *ps = p ? &p->pg->ps : m->current_pg ?
				   &m->current_pg->ps : &m->pgs[0].ps;

	t->words[0] = '\0';
	ps->type->status(ps, p ? (struct ps_path *)&p->ps : NULL,
			 PS_STATUS_TRACE, t->words, sizeof(t->words));
	return t->words;
}

static void log_io(struct tracer *t, const char *ev, const struct sim_io *io)
{
	tlog_begin(t->log, rel(t), ev);
	tlog_u64(t->log, "io", tio(t, io)->id);
}

/* A blktrace record of io on device d. */
static void blk_io(struct tracer *t, unsigned d, enum blkt_act act,
		   const struct sim_io *io, int error)
{
	blkt_event(t->blk, d, rel(t), act, io->ddir, tio(t, io)->sector,
		   io->bytes, pid_of(io), error);
}

/* A record of io's step on path p. */
static void log_io_on(struct tracer *t, const char *ev, const struct sim_io *io,
		      const struct sim_path *p)
{
	log_io(t, ev, io);
	tlog_str(t->log, "path", p->conf->name);
}

static void log_run(struct tracer *t)
{
	const struct sim *s = t->s;
	const struct scenario *sc = s->sc;

	tlog_begin(t->log, 0, "run");
	tlog_str(t->log, "selector", sc->selector);
	/* a table of several priority groups: each group's selector, in
	 * table order (selector is the first's) */
	if (s->mp.nr_pgs > 1) {
		size_t len = 0, cap = 0;
		char *groups = NULL;
		unsigned i;

		for (i = 0; i < s->mp.nr_pgs; i++) {
			const char *name = s->mp.pgs[i].ps.type->name;
			size_t need = len + strlen(name) + 2;

			if (need > cap) {
				cap = 2 * need;
				groups = xrealloc(groups, cap);
			}
			len += (size_t)sprintf(groups + len, "%s%s",
					       i ? "," : "", name);
		}
		tlog_str(t->log, "groups", groups);
		free(groups);
	}
	tlog_str(t->log, "clock", start_clock_name(sc->clock));
	tlog_str(t->log, "mode", sc->mode == MODE_BIO ? "bio" : "request");
	tlog_u64(t->log, "hz", sc->hz);
	tlog_u64(t->log, "uptime_ns", s->start);
	tlog_u64(t->log, "paths", s->nr_paths);
	tlog_words(t->log, status_words(t, NULL));
	tlog_end(t->log);
}

static int blk_open(struct tracer *t, char *err)
{
	const struct sim *s = t->s;
	unsigned n = s->nr_paths + 1, i;
	const char **names = xcalloc(n, sizeof(*names));
	uint32_t *devs = xcalloc(n, sizeof(*devs));
	int r;

	for (i = 0; i < s->nr_paths; i++) {
		names[i] = s->paths[i].conf->name;
		devs[i] = BLKT_MKDEV(SCSI_DISK0_MAJOR, 16 * i);
		if (!strcmp(names[i], "dm-0")) {
			free(names);
			free(devs);
			return input_error(err, "--blktrace: path 'dm-0' has the "
					   "multipath device's name");
		}
	}
	t->dm = s->nr_paths;
	t->dm_dev = BLKT_MKDEV(DM_MAJOR, 0);
	names[t->dm] = "dm-0";
	devs[t->dm] = t->dm_dev;
	r = blkt_open(t->c.blktrace, n, names, devs, &t->blk, err);
	free(names);
	free(devs);
	if (r)
		return r;
	/* each job clone is a process, pid index + 1, named as fio names
	 * its job threads */
	for (i = 0; i < s->nr_jobs; i++)
		blkt_process(t->blk, s->jobs[i].index + 1,
			     s->jobs[i].conf->name);
	return 0;
}

int tracer_open(struct sim *s, const struct trace_conf *c, unsigned nr_io,
		char *err)
{
	struct tracer *t = xcalloc(1, sizeof(*t));
	int r;

	t->s = s;
	t->c = *c;
	/* by default the I/Os of the measured window, whose figures the
	 * trace's counts are to match: the ramp is left out unless
	 * --trace-from asks for it (--trace-from=0: the whole run) */
	if (!c->from_set)
		t->c.from = s->stats_from - s->start;
	t->io = xcalloc(nr_io, sizeof(*t->io));
	if (c->blktrace) {
		r = blk_open(t, err);
		if (r) {
			free(t->io);
			free(t);
			return r;
		}
	}
	if (c->file) {
		r = tlog_open(c->file, c->text, &t->log, err);
		if (r) {
			char why[ERR_MAX];

			snprintf(why, sizeof(why), "%s", err);
			if (t->blk)
				blkt_close(t->blk, false, err);
			snprintf(err, ERR_MAX, "%s", why);
			free(t->io);
			free(t);
			return r;
		}
		log_run(t);
	}
	s->tr = t;
	return 0;
}

int tracer_close(struct sim *s, bool ok, char *err)
{
	struct tracer *t = s->tr;
	char spare[ERR_MAX];	/* the second error, when there is a first */
	int r = 0, r2;

	if (!t)
		return 0;
	/* an empty trace says so, as an empty measurement does */
	if (ok && !t->ios)
		mpsim_warn("%s followed no I/O: none was submitted in the "
			   "window of --trace-from and --trace-until",
			   t->log ? "--trace" : "--blktrace");
	if (ok && t->full)
		mpsim_warn("%s: stopped following new I/Os at %.3f s, its "
			   "files past %llu bytes (--trace-max): %llu I/Os "
			   "followed", t->log ? "--trace" : "--blktrace",
			   (double)t->full_at / 1e9,
			   (unsigned long long)t->c.max_bytes,
			   (unsigned long long)t->ios);
	if (t->log)
		r = tlog_close(t->log, ok, err);
	if (t->blk) {
		r2 = blkt_close(t->blk, ok && !r, r ? spare : err);
		if (!r)
			r = r2;
	}
	free(t->io);
	free(t);
	s->tr = NULL;
	return r;
}

/* ---- the hooks ---- */

/* Have the files reached --trace-max?  (I/Os already followed are
 * followed to their end: the files may pass it by their records.) */
static bool trace_full(struct tracer *t)
{
	if (!t->full && t->c.max_bytes &&
	    ((t->log && tlog_bytes(t->log) >= t->c.max_bytes) ||
	     (t->blk && blkt_bytes(t->blk) >= t->c.max_bytes))) {
		t->full = true;
		t->full_at = rel(t);
	}
	return t->full;
}

/* dm took io from the workload: follow it or not. */
static void io_submit(struct tracer *t, const struct sim_io *io)
{
	struct trace_io *ti = tio(t, io);

	ti->live = true;
	ti->id = 0;
	if (!in_window(t) || (t->c.count && t->ios >= t->c.count) ||
	    trace_full(t))
		return;
	ti->id = ++t->ios;
	ti->sector = t->next_sector;
	/* each I/O its own sectors, so btt never pairs two of them; an
	 * empty flush still takes one */
	t->next_sector += io->bytes ? (io->bytes + 511) / 512 : 1;
	if (t->log) {
		log_io(t, "submit", io);
		tlog_u64(t->log, "job", io->job->index);
		tlog_str(t->log, "dir", ddir_names[io->ddir]);
		tlog_u64(t->log, "bytes", io->bytes);
		tlog_end(t->log);
	}
	if (t->blk)
		blk_io(t, t->dm, BLKT_QUEUE, io, 0);
}

/*
 * What select_path compared: the selector's words for every valid path
 * (select_path itself changes none of them; start_io has not run yet),
 * the engine's in-flight count beside them, and the `now` it was handed.
 */
void trace_io_map(struct tracer *t, const struct sim_io *io,
		  const struct sim_path *chosen)
{
	struct trace_io *ti = tio(t, io);
	const struct sim *s = t->s;
	unsigned i;

	if (!ti->live)
		io_submit(t, io);
	ti->arrived = false;
	if (!ti->id)
		return;
	if (t->log) {
		log_io(t, "map", io);
		tlog_u64(t->log, "now", mpath_select_now(&s->mp));
		tlog_str(t->log, "path", chosen ? chosen->conf->name : NULL);
		if (!chosen)
			tlog_str(t->log, "then", s->mp.queue_io &&
				 s->mp.current_pgpath ? "held for pg_init" :
				 s->mp.queue_if_no_path ? "queued" : "failed");
		tlog_words(t->log, status_words(t, NULL));
		tlog_list_begin(t->log, "valid");
		for (i = 0; i < s->nr_paths; i++) {
			const struct sim_path *p = &s->paths[i];

			if (p->failed)
				continue;
			tlog_item_begin(t->log, p->conf->name);
			tlog_u64(t->log, "inflight", p->inflight);
			tlog_words(t->log, status_words(t, p));
			tlog_item_end(t->log);
		}
		tlog_list_end(t->log);
		tlog_end(t->log);
	}
	if (t->blk && chosen) {
		unsigned d = path_index(chosen);

		blkt_remap(t->blk, d, rel(t), io->ddir, ti->sector, io->bytes,
			   pid_of(io), t->dm_dev, ti->sector);
		blk_io(t, d, BLKT_QUEUE, io, 0);
	}
}

void trace_io_hold(struct tracer *t, const struct sim_io *io,
		   const struct sim_path *p, uint64_t expires)
{
	if (!tio(t, io)->id || !t->log)
		return;
	log_io_on(t, "delay_hold", io, p);
	tlog_u64(t->log, "expires", expires);
	tlog_end(t->log);
}

/* io reached its device: to wait in its queue (the hook, after the
 * push), or taken by a free slot at once (from trace_io_dispatch). */
void trace_io_arrive(struct tracer *t, const struct sim_io *io)
{
	struct trace_io *ti = tio(t, io);
	const struct sim_path *p = io->path;

	ti->arrived = true;
	if (!ti->id)
		return;
	if (t->log) {
		log_io_on(t, "arrive", io, p);
		tlog_u64(t->log, "busy", p->busy);
		tlog_u64(t->log, "queued", p->queue.n);
		tlog_end(t->log);
	}
	if (t->blk) {
		blk_io(t, path_index(p), BLKT_GETRQ, io, 0);
		blk_io(t, path_index(p), BLKT_INSERT, io, 0);
	}
}

void trace_io_dispatch(struct tracer *t, const struct sim_io *io)
{
	const struct trace_io *ti = tio(t, io);
	const struct sim_path *p = io->path;

	if (!ti->arrived)
		trace_io_arrive(t, io);
	if (!ti->id)
		return;
	if (t->log) {
		log_io_on(t, "dispatch", io, p);
		tlog_u64(t->log, "busy", p->busy);
		tlog_u64(t->log, "slots", p->conf->slots);
		tlog_u64(t->log, "waited_ns", t->s->now - io->mapped);
		tlog_end(t->log);
	}
	if (t->blk)
		blk_io(t, path_index(p), BLKT_ISSUE, io, 0);
}

/* The device's completion (an error: the path failed it). */
void trace_io_complete(struct tracer *t, const struct sim_io *io, int error)
{
	const struct trace_io *ti = tio(t, io);
	const struct sim_path *p = io->path;

	if (!ti->id)
		return;
	if (t->log) {
		log_io_on(t, "complete", io, p);
		tlog_i64(t->log, "error", error);
		if (io->dispatch)
			tlog_u64(t->log, "service_ns",
				 t->s->now - io->dispatch);
		tlog_end(t->log);
	}
	if (t->blk)
		blk_io(t, path_index(p), BLKT_COMPLETE, io, error);
}

/* The end_io sample: the start stamp the selector was given, and its
 * words after it folded the sample in; then, for a success, dm's
 * completion to the workload, which follows at once. */
void trace_io_end(struct tracer *t, const struct sim_io *io, int error)
{
	const struct trace_io *ti = tio(t, io);
	const struct sim_path *p = io->path;

	if (ti->id && t->log) {
		log_io_on(t, "end_io", io, p);
		tlog_i64(t->log, "error", error);
		tlog_u64(t->log, "start", mpath_end_io_start(&t->s->mp, io));
		tlog_u64(t->log, "now", t->s->now);
		tlog_words(t->log, status_words(t, p));
		tlog_end(t->log);
	}
	if (!error)
		trace_io_done(t, io, 0);
}

void trace_io_requeue(struct tracer *t, const struct sim_io *io,
		      const struct sim_path *from)
{
	if (!tio(t, io)->id || !t->log)
		return;
	log_io(t, "requeue", io);
	tlog_str(t->log, "from", from->conf->name);
	tlog_end(t->log);
}

void trace_io_done(struct tracer *t, const struct sim_io *io, int error)
{
	struct trace_io *ti = tio(t, io);

	ti->live = false;
	if (!ti->id)
		return;
	if (t->log) {
		log_io(t, "done", io);
		tlog_i64(t->log, "error", error);
		tlog_u64(t->log, "latency_ns", t->s->now - io->submit);
		tlog_end(t->log);
	}
	if (t->blk)
		blk_io(t, t->dm, BLKT_COMPLETE, io, error);
}

void trace_path_event(struct tracer *t, const struct sim_path *p,
		      enum trace_path_kind kind)
{
	if (!t->log || !in_window(t))
		return;
	tlog_begin(t->log, rel(t),
		   kind == TRACE_FAIL ? "fail_path" : "reinstate_path");
	tlog_str(t->log, "path", p->conf->name);
	tlog_u64(t->log, "valid", t->s->mp.nr_valid);
	tlog_end(t->log);
}
