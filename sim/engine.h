/*
 * engine.h: the simulated world of one run and the objects it moves: I/Os,
 * paths (a device with service slots and a FIFO queue, behind optional
 * layers), the multipath device and the jobs.  sim/run.c builds it from a
 * scenario; sim/loop.c turns the crank.
 *
 * Anatomy of one I/O:
 *   job_submit() ─► mpath_map() ─► select_path ─► stamp start ─► start_io
 *     ─► path_submit() ─► [dm-delay list, sim/delay.c]
 *     ─► path_device_submit() ─► [latency] ─► queue ─► slot: service time
 *     ─► path_done() ─► mpath_end_io() ─► end_io ─► stats ─► job_complete()
 *     ─► (closed loop) job_submit() of the next I/O.
 * The calls between the engine and the workloads (mpath_map, job_complete
 * and the others) are declared in sim/workload.h, and only there.
 * Each step has a trace hook (sim/trace.h) that costs one NULL test when
 * no trace is asked for.
 */
#ifndef MPSIM_ENGINE_H
#define MPSIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "selectors/selector.h"
#include "event.h"
#include "config.h"
#include "sim.h"
#include "stats.h"
#include "trace.h"
#include "workload.h"	/* the calls to and from workloads/ */

struct sim;
struct job;
struct job_flow;
struct dm_delay;
struct delay_cpu;
struct fio_clone;

struct sim_io {
	struct sim_io *next;	/* FIFO link: device queue, mpath queue, pool */
	struct job *job;	/* who submitted it */
	struct sim_path *path;	/* where it was last mapped (the kernel's
				   mpio->pgpath): NULL when fresh, kept
				   while requeued after a path error */
	uint32_t bytes;		/* size */
	bool write;		/* direction: bio_data_dir() is WRITE (a
				   write, a trim or a flush) */
	uint8_t ddir;		/* what it is: enum fio_ddir (a sync is an
				   empty flush) */
	uint8_t osync;		/* an O_SYNC write's flush: enum osync */
	bool reap;		/* waiting for its CPU (sim/cpu.c): a reap of
				   an I/O dm ended, not a device's completion */
	sim_ns submit;		/* the workload asked for it: its latency
				   counts from here */
	sim_ns accepted;	/* dm took it, after its submission's CPU
				   time (sim/cpu.c): the original bio's
				   dm_io->start_time is taken here */
	sim_ns mapped;		/* select_path chose its path */
	sim_ns dispatch;	/* a device slot took it (blk_mq_start_request) */
	uint64_t start_time;	/* what end_io will be given, bio mode */
	uint32_t data_bytes;	/* OSYNC_FLUSH: the write's size and */
	struct sim_path *data_path; /* path, while its flush goes down */
};

/* The two bios of an O_SYNC write on a dm device with a write cache
 * (docs/kernel-model.md §11.2): the data, then an empty preflush. */
enum osync {
	OSYNC_NONE,
	OSYNC_DATA,		/* the write; its flush follows it */
	OSYNC_FLUSH,		/* the flush, sent when the write ended */
};

struct io_fifo {
	struct sim_io *head, *tail;
	unsigned n;
};

static inline void fifo_push(struct io_fifo *f, struct sim_io *io)
{
	io->next = NULL;
	if (f->tail)
		f->tail->next = io;
	else
		f->head = io;
	f->tail = io;
	f->n++;
}

static inline struct sim_io *fifo_pop(struct io_fifo *f)
{
	struct sim_io *io = f->head;

	if (io) {
		f->head = io->next;
		if (!f->head)
			f->tail = NULL;
		f->n--;
	}
	return io;
}

struct priority_group;

/* One path: what the selector sees (ps) and the device behind it. */
struct sim_path {
	struct ps_path ps;		/* the selector's view; first member */
	struct sim *sim;
	const struct path_conf *conf;
	struct dm_delay *delay;		/* dm-delay layer; NULL: none */
	gsl_rng *rng;			/* service-time stream */
	double ln_mu, ln_sigma;		/* lognormal parameters */
	double g_shape, g_scale;	/* gamma parameters */
	double ns_per_byte;		/* 1e9 / bandwidth, 0 when unlimited */
	unsigned busy;			/* slots in service */
	struct io_fifo queue;		/* waiting for a slot */
	bool failed;			/* failed in the multipath device (the
					   kernel's !pgpath->is_active) */
	bool dead;			/* its device has died (sim/fault.c);
					   a fail_path message fails the path
					   in dm alone, the device works on */
	struct priority_group *pg;	/* its group (pgpath->pg) */
	unsigned fail_count;		/* pgpath->fail_count: fail_path()s */
	struct path_ev *activate;	/* its pg_init work (activate_path) */
	bool activate_pending;		/* ... queued or in the handler */
	uint64_t inflight;		/* start_io'd, not yet end_io'd */
	sim_ns busy_since;		/* when busy last went 0 -> 1 */
	struct path_stats *stats;	/* into the run result */
	uint64_t inflight_t_in;		/* sum of the start_io times, and */
	uint64_t inflight_t_out;	/* of the end_io times (mod 2^64): the
					   integral of inflight from both and
					   now (sim/series.c) */
};

/* What an EV_PATH_EVENT does (sim/fault.c, sim/mpath.c). */
enum path_ev_kind {
	PEV_FAIL,		/* scripted: the path's device dies */
	PEV_REINSTATE,		/* scripted: the device is back */
	PEV_PROCESS_QUEUED,	/* kmultipathd's process_queued_bios work */
	PEV_ACTIVATE,		/* activate_path work: the handler starts */
	PEV_PG_INIT_DONE,	/* ... and calls pg_init_done */
	PEV_MESSAGE,		/* scripted: a dmsetup message */
	PEV_MULTIPATHD,		/* multipathd's failback or no_path_retry */
};

struct path_ev {
	enum path_ev_kind kind;
	struct sim_path *path;	/* PEV_FAIL, PEV_REINSTATE, PEV_ACTIVATE,
				   PEV_PG_INIT_DONE */
	const char *msg;	/* PEV_MESSAGE: its words */
};

/* One priority group (dm-mpath's struct priority_group). */
struct priority_group {
	struct path_selector ps;	/* its own selector instance */
	unsigned pg_num;		/* 1.., table order */
	bool bypassed;			/* disable_group, or TEMP_BUSY */
	struct sim_path **pgpaths;	/* table order */
	unsigned nr_pgpaths;
};

struct mpath {
	struct sim *sim;
	enum mp_mode mode;
	enum start_clock clock;
	unsigned hz;
	bool queue_if_no_path;
	bool select_sched_clock;	/* select_path's now is sched_clock */
	struct sched_clock sched;
	struct stamp_cache stamp;	/* the jiffies start stamp's tick */
	/* priority groups (sim/pgroup.c), as dm-mpath's struct multipath */
	struct priority_group *pgs;	/* table order */
	unsigned nr_pgs;
	struct priority_group *current_pg, *next_pg;
	struct sim_path *current_pgpath;
	bool queue_io;			/* MPATHF_QUEUE_IO */
	bool pg_init_required;		/* MPATHF_PG_INIT_REQUIRED */
	bool pg_init_delay_retry;	/* MPATHF_PG_INIT_DELAY_RETRY */
	unsigned pg_init_count;		/* shown by status */
	unsigned pg_init_in_progress;
	bool hw_handler;		/* a handler: switching needs pg_init */
	unsigned pg_init_delay_msecs;	/* PG_INIT_DELAY_DEFAULT: 2000 */
	sim_ns pg_init_time;		/* the handler's activation time */
	const struct mp_table *table;	/* what it was built from (status);
					   the caller's, for the run */
	struct path_ev *pg_work;	/* two per path: activate, done */
	unsigned cpu;			/* the CPU submitting the I/O being
					   mapped (each group's ps.cpu) */
	struct multipathd *mpd;		/* user space, sim/multipathd.c */
	bool write_cache;		/* QUEUE_FLAG_WC: some path's device is
					   write-back (dm_table_supports_flush) */
	struct io_fifo queued;		/* I/Os waiting for a usable path */
	unsigned nr_valid;		/* paths not failed */
	sim_ns no_path_since;		/* when nr_valid last dropped to 0 */
	struct path_ev work;		/* kmultipathd's queued-bios work */
	bool work_pending;		/* ... is queued (queue_work) */
	bool declined;			/* a selector gave no path while paths
					   were valid: 6.1's __map_bio queues the
					   bio without queue_work, so it waits for
					   the next work run (debug checks only) */
};

struct job {
	struct sim *sim;
	const struct job_conf *conf;
	unsigned index;			/* clone number across all jobs */
	unsigned cpu;			/* the CPU it submits from (cpus.c) */
	gsl_rng *rng;			/* direction draws */
	gsl_rng *arr;			/* open-loop arrivals */
	unsigned depth;			/* effective iodepth */
	unsigned inflight;
	unsigned backlog;		/* open loop: arrivals waiting for depth */
	uint64_t issued, completed;
	uint64_t limit;			/* number_ios, or UINT64_MAX */
	uint64_t window_limit;		/* with a ramp: the limit, counted from
					   the window's start (fio zeroes its
					   counters when ramp_time ends); limit
					   is UINT64_MAX until then */
	sim_ns interval;		/* open loop linear: 1/rate in ns */
	double mean_gap;		/* open loop poisson: mean gap in ns */
	bool open;			/* rate_iops given */
	uint32_t bs;			/* plain loop: bytes per I/O */
	uint8_t ddir;			/* plain loop: direction unless mixed */
	bool osync;			/* its writes are OSYNC_DATA: sync=1
					   and an engine that flushes after */
	bool mixed;			/* rw/randrw: each I/O draws it */
	uint64_t writes;		/* mixed plain loop: writes drawn */
	struct job_flow *flow;		/* NULL: the plain loop; else the
					   state of workloads/job-flow.c */
	unsigned unit;			/* its report unit (run_result.job) */
	struct path_stats *report;	/* that unit's counters; NULL when
					   the run has one unit */
	sim_ns began;			/* it started issuing; UINT64_MAX:
					   never (a stonewall held it) */
	sim_ns ended;			/* it was done (job_done): fio's
					   runtime for it ends here, at its
					   last completion or at the end of
					   the thinktime sleep or arrival gap
					   the run's end found it in */
	/* fio's drain (workloads/job.c, job_latency) */
	bool draining;			/* it issues no more */
	unsigned own_left;		/* reaps still stamped on their own */
	struct held_lat *held;		/* depth of them; NULL: an engine
					   that does not reap by getevents */
	unsigned nheld;
	struct fio_clone *fio;		/* what fio keeps of it, for fio's
					   formats (sim/fiostat.h); NULL:
					   not asked for */
};

/* A completion fio has not reaped yet: its latency waits for the stamp
 * of the reap that takes it. */
struct held_lat {
	sim_ns submit;
	sim_ns end;			/* its own end, were it reaped alone */
	uint32_t bytes;
	uint8_t ddir;
};

/* The stretches a host steals from one CPU (sim/cpu.c): the CPU's own
 * work left before the next one. */
struct cpu_steal {
	sim_ns left;
	gsl_rng *rng;
};

struct sim {
	sim_ns now;			/* ktime: ns since boot */
	sim_ns start;			/* uptime when the run began */
	sim_ns stats_from;		/* ramp over: statistics count from here */
	sim_ns end;			/* runtime end, or UINT64_MAX */
	bool measuring;			/* stats_from has passed */
	bool stop;			/* the run is over */
	bool draining;			/* runtime over: the jobs' I/Os in
					   flight complete (sim_runtime_over) */
	unsigned jobs_running;		/* clones not yet done: the window
					   closes when the last one is */
	char cut[ERR_MAX];		/* why the run cannot finish (its clock
					   or a draw passed a limit of sim.h);
					   "" while it can */
	struct evq q;
	const struct scenario *sc;
	struct mpath mp;
	struct sim_path *paths;
	unsigned nr_paths;
	struct job *jobs;
	unsigned nr_jobs;
	struct sim_io *pool;		/* free I/Os */
	struct sim_io *io_mem;		/* all I/Os, for freeing */
	uint64_t outstanding;		/* I/Os below the multipath device */
	struct run_result *res;
	struct path_ev *pev;		/* scenario's fail/reinstate events */
	struct delay_cpu *delay_cpu;	/* dm-delay's timer base; NULL: none */
	sim_ns submit_cpu, complete_cpu; /* CPU time per I/O (sim/cpu.c) */
	sim_ns wake_cpu;		/* more for the work an idle CPU takes */
	sim_ns *cpu_free;		/* per CPU: when its queued work ends */
	sim_ns *cpu_reaped;		/* per CPU: when its completion's turn
					   began (fio's reap stamp) */
	struct io_fifo *cpu_wait;	/* per CPU: completions waiting for it */
	unsigned *cpu_turns;		/* per CPU: turns whose end has not yet
					   been handled (one may end now) */
	struct cpu_steal *steal;	/* per CPU: the stretches its host
					   steals (steal=); NULL: none */
	struct tracer *tr;		/* --trace/--blktrace; NULL: none */
	sim_ns mark;			/* the EV_MARK event pending, or
					   UINT64_MAX: none */
	struct series *series;		/* --interval, else NULL */
	struct run_progress *progress;	/* on a terminal, else NULL */
	uint64_t fio_kept;		/* completions kept for fio's per-I/O
					   logs, all clones (FIO_IOS_MAX) */
};

/* ---- sim/path.c ---- */
void path_setup(struct sim_path *p, struct sim *s, const struct path_conf *c,
		unsigned index, uint64_t seed);
void path_teardown(struct sim_path *p);
/* Hand a mapped I/O to the path's stack: its layer, else its device. */
void path_submit(struct sim_path *p, struct sim_io *io);
/* Hand an I/O to the device below the layers. */
void path_device_submit(struct sim_path *p, struct sim_io *io);
/* The device dies: every I/O it holds (in transit, queued, in service)
 * ends in error now; they are appended to `errored` in the order the
 * device took them, their pending events cancelled. */
void path_device_fail(struct sim_path *p, struct io_fifo *errored);
void path_arrive(struct sim_path *p, struct sim_io *io);	/* EV_DEV_ARRIVE */
void path_done(struct sim_path *p, struct sim_io *io);		/* EV_DEV_DONE */
/* Statistics window opens (ramp over) or closes (run over). */
void path_stats_open(struct sim_path *p);
void path_stats_close(struct sim_path *p);

/* ---- sim/cpu.c: the CPU time of submission and completion ---- */
void cpu_setup(struct sim *s, uint64_t seed);
void cpu_teardown(struct sim *s);
/* EV_CPU_SUBMIT: the submission's CPU time is over: dm maps the I/O. */
void cpu_submitted(struct sim *s, struct sim_io *io);
/* A device completed io: dm's end_io once the CPU has served the
 * completion (EV_CPU_END_IO), at once when it costs nothing. */
void cpu_end_io(struct sim *s, struct sim_io *io);
/* dm ended io inside its submission (a synchronous device): the job
 * reaps it after the completion's CPU time (EV_CPU_REAP). */
void cpu_reap(struct sim *s, struct sim_io *io);
/* EV_CPU_END_IO and EV_CPU_REAP: the completion's CPU turn is over. */
void cpu_completed(struct sim *s, struct sim_io *io);

/* ---- sim/mpath.c ---- */
int mpath_setup(struct mpath *m, struct sim *s, const struct mp_table *t,
		char *err);
void mpath_teardown(struct mpath *m);
/* The device's status and table lines, `dmsetup status` and `dmsetup
 * table` (sim/dmsetup.c), each ending in a newline; free() it. */
char *mpath_dmsetup(const struct mpath *m);
/* The `now` select_path is handed at this instant. */
sim_ns mpath_select_now(const struct mpath *m);
/* The start time end_io is given for io, in the device's mode. */
uint64_t mpath_end_io_start(const struct mpath *m, const struct sim_io *io);
/* The path finished the I/O (error != 0: the path failed it). */
void mpath_end_io(struct mpath *m, struct sim_io *io, int error);
/* The same for a device that ended it inside its submission: dm's
 * end_io now, the job's completion after cpu_reap. */
void mpath_end_io_sync(struct mpath *m, struct sim_io *io);
/* The job takes an I/O dm has ended; its latency ends now. */
void mpath_io_done(struct mpath *m, struct sim_io *io);
/* EV_CPU_REAP: the same, its latency ended when the reap's CPU turn
 * began (fio's own loop after its reap is outside its latency). */
void mpath_io_reaped(struct mpath *m, struct sim_io *io, sim_ns at);
/* fail_path() and reinstate_path() (dm-mpath's, docs/kernel-model.md §2); no-ops
 * on a path already in that state. */
void mpath_fail_path(struct mpath *m, struct sim_path *p);
void mpath_reinstate_path(struct mpath *m, struct sim_path *p);
/* kmultipathd's process_queued_bios: re-map the held I/Os in FIFO
 * order (PEV_PROCESS_QUEUED). */
void mpath_process_queued(struct mpath *m);
/* The run is over: close the no-usable-path interval still open. */
void mpath_stats_close(struct mpath *m);

/* ---- sim/pgroup.c: priority groups, pg_init and messages ---- */
int pg_setup(struct mpath *m, const struct mp_table *t, char *err);
void pg_teardown(struct mpath *m);
/* choose_pgpath(): the path for nr_bytes, NULL when none is usable. */
struct sim_path *choose_pgpath(struct mpath *m, size_t nr_bytes, sim_ns now);
/* Its last step, once the current group has none: every group in table
 * order, bypassed ones last. */
struct sim_path *choose_pgpath_scan(struct mpath *m, size_t nr_bytes,
				    sim_ns now);
/* pg_init_all_paths(): activate the current group's usable paths. */
void pg_init_all_paths(struct mpath *m);
/* The work of an activation: scsi_dh_activate starts (PEV_ACTIVATE), its
 * pg_init_done runs (PEV_PG_INIT_DONE). */
void pg_activate(struct mpath *m, struct sim_path *p);
/* queue_delayed_work(kmpath_handlerd, &p->activate_path, ...) to run at
 * `at` (now if earlier): counts in pg_init_in_progress unless already
 * queued. */
void pg_activate_queue(struct mpath *m, struct sim_path *p, sim_ns at);
void pg_init_done(struct mpath *m, struct sim_path *p);
/* A dmsetup message; returns 0, or -EINVAL as multipath_message would
 * (with err set: the run is refused before it starts when checked). */
int mpath_message(struct mpath *m, const char *words, bool check, char *err);
/* queue_if_no_path(): on or off; off fails what is held. */
void mpath_queue_if_no_path(struct mpath *m, bool on);
/* process_queued_io_list(): kmultipathd maps the held I/O again. */
void mpath_kick(struct mpath *m);

/* ---- sim/multipathd.c: what user space adds ---- */
void multipathd_setup(struct mpath *m);
void multipathd_teardown(struct mpath *m);
/* A path came back or went: failback and no_path_retry react. */
void multipathd_path_up(struct mpath *m, struct sim_path *p);
void multipathd_path_down(struct mpath *m);
void multipathd_timer(struct mpath *m, struct path_ev *e);

/* ---- sim/fault.c ---- */
/* Schedule the scenario's fail/reinstate events (those at 0 run now). */
void fault_setup(struct sim *s);
void fault_teardown(struct sim *s);
/* The scripted events that never ran (the run ended first). */
unsigned fault_pending(struct sim *s);
void path_event(struct sim *s, struct path_ev *e);	/* EV_PATH_EVENT */

/* ---- sim/loop.c ---- */
void sim_loop(struct sim *s);
/* The statistics window opens (at the start, or when the ramp ends). */
void sim_stats_open(struct sim *s);
/* The runtime is over (EV_RUN_END): the jobs drain; and, while they do,
 * whether only I/Os held for want of a path are left (the run ends). */
void sim_runtime_over(struct sim *s);
void sim_drain_check(struct sim *s);
/* Have an EV_MARK at t (interval boundaries, the progress line) unless
 * one is due no later. */
void sim_mark_at(struct sim *s, sim_ns t);
/* The run cannot finish (a limit of sim.h is passed): it stops, and
 * run_scenario() fails with this message. */
void sim_cut(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void sim_schedule(struct sim *s, sim_ns t, enum ev_kind k,
				void *obj)
{
	evq_push(&s->q, t, k, obj);
}

#endif
