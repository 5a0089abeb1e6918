/*
 * job.h: what the job clone's files in workloads/ share: the state of a
 * job beyond the plain loop, its block-size draws and replay cursor.
 */
#ifndef MPSIM_JOB_H
#define MPSIM_JOB_H

#include <gsl/gsl_randist.h>

#include "sim/engine.h"	/* the engine's objects: struct sim, job, sim_io */
#include "sim/workload.h"	/* the calls to and from the engine */
#include "fio.h"

/*
 * A flowing job's states (workloads/job-flow.c):
 *
 *   WAIT_GROUP ──previous stonewall group done──► DELAY ──startdelay──►
 *   RUN ◄──thinktime over── THINK ◄──in flight drained── QUIESCE ◄─┐
 *    │   └──────────────thinktime_blocks reached────────────────────┘
 *    └──nothing more to issue (limit, runtime, log end)──► DRAIN ──► DONE
 */
enum flow_state {
	FLOW_WAIT_GROUP,	/* a stonewall holds it back */
	FLOW_DELAY,		/* startdelay running */
	FLOW_RUN,		/* issuing */
	FLOW_QUIESCE,		/* thinktime due: waiting for in flight */
	FLOW_THINK,		/* thinking */
	FLOW_DRAIN,		/* issues no more: waiting for in flight */
	FLOW_DONE,
};

struct job_flow {
	enum flow_state state;
	unsigned group;			/* stonewall group, 0 first */
	bool staged;			/* the run has stonewall or startdelay
					   groups: this job keeps its own end */
	sim_ns start;			/* when it began issuing */
	sim_ns end;			/* runtime over: issue no more */
	sim_ns timer;			/* the EV_JOB_WAKE it waits for, or
					   UINT64_MAX */
	bool in_progress;		/* flow_progress() is running */
	bool again;			/* ... and must run once more */

	/* what it issues */
	gsl_ran_discrete_t *split[DDIR_RWDIR_CNT]; /* bssplit draws */
	uint64_t byte_limit;		/* size/io_size x loops, or max */
	uint64_t window_bytes;		/* ... counted from the window's start
					   (job_window_open) */
	uint64_t bytes_issued;
	uint64_t bytes_done;		/* completed */
	bool trim_next;			/* trimwrite: the trim half is next */
	uint32_t last_bs;		/* trimwrite: the trim's size */
	bool check;			/* a thinktime check is due (fio checks
					   after each read, write or trim) */

	/* fio's queue: pending + inflight + unreaped <= depth */
	struct io_fifo batch;		/* made, not committed (batch) */
	unsigned unreaped;		/* completed, not reaped */
	bool reaping;			/* full: reaping down to low */
	bool lazy;			/* reap only when full (batch
					   complete_min > 1 or iodepth_low) */
	unsigned batch_n;		/* iodepth_batch_submit in effect */
	unsigned cmin, cmax, low;	/* complete_min/_max, iodepth_low */
	uint64_t reaped;		/* fio's io_blocks */

	/* thinktime */
	uint64_t think_last;		/* counter at the last stall */
	sim_ns think_since;		/* end of the last stall */

	/* replay */
	struct iolog *log;		/* NULL: generated I/O */
	bool log_owner;			/* this clone frees it */
	size_t next;			/* next entry */
	sim_ns last_issue;		/* when the previous entry went */

	/* fsync=N, fdatasync=N */
	uint64_t writes;		/* writes issued */
	uint64_t synced;		/* ... when the last sync was issued */
	bool fsync_inflight;		/* a sync is out: issue nothing */

	/* per direction, issued over the whole run */
	uint64_t ddir_ios[DDIR_NR];
	uint64_t ddir_bytes[DDIR_NR];
};

/* ---- workloads/job-arrival.c ---- */
/* Open loop: schedule the clone's next arrival, if any is left. */
void job_next_arrival(struct job *j);
/* With a ramp, the limit (j->limit, set) waits for the window's start:
 * kept in window_limit, unlimited until then (returns true then). */
bool job_limit_after_ramp(struct job *j);

/* ---- workloads/job-flow.c ---- */
/* True when the scenario has stonewall groups or start delays: then
 * every job keeps its own runtime and there is no common end. */
bool job_staged(const struct scenario *sc);
int flow_setup(struct job *j, char *err);
void flow_teardown(struct job *j);
void flow_start(struct job *j);
void flow_complete(struct job *j, struct sim_io *io);
void flow_arrival(struct job *j);
void flow_window_open(struct job *j);
void flow_runtime_over(struct job *j);
/* Whether the flow issues no more and waits for what it has in flight
 * (DRAIN): fio's drain (job_latency). */
bool flow_draining(const struct job *j);
/* True when a clone of c cannot run the plain loop. */
bool flow_needed(const struct sim *s, const struct job_conf *c);

/* ---- workloads/bs.c ---- */
/* The bssplit tables of a clone (NULL where a direction has none). */
void bs_setup(struct job_flow *f, const struct job_conf *c);
void bs_teardown(struct job_flow *f);
/* The size of the next I/O of direction d (< DDIR_RWDIR_CNT). */
uint32_t bs_draw(const struct job *j, unsigned d);
/* The one size every direction the job uses has, or 0 when it varies. */
uint32_t bs_fixed(const struct job_conf *c);

/* ---- workloads/replay.c ---- */
/* Log entries due now; returns true with *e set when one may be issued,
 * else false and, when one is coming, *due its time (else UINT64_MAX). */
bool replay_next(struct job *j, const struct iolog_entry **e, sim_ns *due);
void replay_issued(struct job *j, const struct iolog_entry *e);

#endif
