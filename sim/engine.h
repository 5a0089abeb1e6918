/*
 * engine.h: the simulated world of one run and the objects it moves: I/Os,
 * paths (a device with service slots and a FIFO queue, behind optional
 * layers), the multipath device and the jobs.  sim/run.c builds it from a
 * scenario; sim/loop.c turns the crank.
 *
 * Anatomy of one I/O:
 *   job_submit() ─► mpath_map() ─► select_path ─► stamp start ─► start_io
 *     ─► path_submit() ─► [latency] ─► queue ─► slot: service time
 *     ─► path_done() ─► mpath_end_io() ─► end_io ─► stats ─► job_complete()
 *     ─► (closed loop) job_submit() of the next I/O.
 */
#ifndef MPSIM_ENGINE_H
#define MPSIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "../selectors/selector.h"
#include "event.h"
#include "scenario.h"
#include "sim.h"
#include "stats.h"

struct sim;
struct job;

struct sim_io {
	struct sim_io *next;	/* FIFO link: device queue, mpath queue, pool */
	struct job *job;	/* who submitted it */
	struct sim_path *path;	/* where it was mapped, NULL while unmapped */
	uint32_t bytes;		/* size */
	bool write;		/* direction */
	sim_ns submit;		/* the workload handed it to dm (the original
				   bio's dm_io->start_time is taken here) */
	sim_ns mapped;		/* select_path chose its path */
	sim_ns dispatch;	/* a device slot took it (blk_mq_start_request) */
	uint64_t start_time;	/* what end_io will be given, bio mode */
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

/* One path: what the selector sees (ps) and the device behind it. */
struct sim_path {
	struct ps_path ps;		/* the selector's view; first member */
	struct sim *sim;
	const struct path_conf *conf;
	gsl_rng *rng;			/* service-time stream */
	double ln_mu, ln_sigma;		/* lognormal parameters */
	double g_shape, g_scale;	/* gamma parameters */
	double ns_per_byte;		/* 1e9 / bandwidth, 0 when unlimited */
	unsigned busy;			/* slots in service */
	struct io_fifo queue;		/* waiting for a slot */
	bool failed;			/* failed in the multipath device */
	uint64_t inflight;		/* start_io'd, not yet end_io'd */
	sim_ns busy_since;		/* when busy last went 0 -> 1 */
	struct path_stats *stats;	/* into the run result */
};

struct mpath {
	struct sim *sim;
	enum mp_mode mode;
	enum start_clock clock;
	unsigned hz;
	bool hr_timer;			/* selector has PS_USE_HR_TIMER */
	bool queue_if_no_path;
	struct path_selector ps;
	struct io_fifo queued;		/* I/Os waiting for a usable path */
	unsigned nr_valid;		/* paths not failed */
	sim_ns no_path_since;		/* when nr_valid last dropped to 0 */
};

struct job {
	struct sim *sim;
	const struct job_conf *conf;
	unsigned index;			/* clone number across all jobs */
	gsl_rng *rng;			/* direction draws */
	gsl_rng *arr;			/* open-loop arrivals */
	unsigned depth;			/* effective iodepth */
	unsigned inflight;
	unsigned backlog;		/* open loop: arrivals waiting for depth */
	uint64_t issued, completed;
	uint64_t limit;			/* number_ios, or UINT64_MAX */
	sim_ns interval;		/* open loop linear: 1/rate in ns */
	double mean_gap;		/* open loop poisson: mean gap in ns */
	bool open;			/* rate_iops given */
};

struct sim {
	sim_ns now;			/* ktime: ns since boot */
	sim_ns start;			/* uptime when the run began */
	sim_ns stats_from;		/* ramp over: statistics count from here */
	sim_ns end;			/* runtime end, or UINT64_MAX */
	bool measuring;			/* stats_from has passed */
	bool stop;			/* the run is over */
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
};

/* ---- sim/path.c ---- */
void path_setup(struct sim_path *p, struct sim *s, const struct path_conf *c,
		unsigned index, uint64_t seed);
void path_teardown(struct sim_path *p);
/* Hand a mapped I/O to the path's stack. */
void path_submit(struct sim_path *p, struct sim_io *io);
void path_arrive(struct sim_path *p, struct sim_io *io);	/* EV_DEV_ARRIVE */
void path_done(struct sim_path *p, struct sim_io *io);		/* EV_DEV_DONE */
/* Statistics window opens (ramp over) or closes (run over). */
void path_stats_open(struct sim_path *p);
void path_stats_close(struct sim_path *p);

/* ---- sim/mpath.c ---- */
int mpath_setup(struct mpath *m, struct sim *s, char *err);
void mpath_teardown(struct mpath *m);
/* Map an I/O the workload submitted (or one sent down again). */
void mpath_map(struct mpath *m, struct sim_io *io);
/* The path finished the I/O (error != 0: the path failed it). */
void mpath_end_io(struct mpath *m, struct sim_io *io, int error);

/* ---- workloads/job.c ---- */
void job_setup(struct job *j, struct sim *s, const struct job_conf *c,
	       unsigned index, uint64_t seed);
void job_teardown(struct job *j);
void job_start(struct job *j);
void job_arrival(struct job *j);			/* EV_JOB_ARRIVAL */
/* The multipath device is done with io (error: failed to the job). */
void job_complete(struct job *j, struct sim_io *io, int error);

/* ---- sim/loop.c ---- */
void sim_loop(struct sim *s);
struct sim_io *sim_io_get(struct sim *s);
void sim_io_put(struct sim *s, struct sim_io *io);

static inline void sim_schedule(struct sim *s, sim_ns t, enum ev_kind k,
				void *obj)
{
	evq_push(&s->q, t, k, obj);
}

#endif
