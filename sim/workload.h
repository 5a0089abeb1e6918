/*
 * workload.h: the one interface between the engine (sim/) and the
 * workloads (workloads/: fio's job clones, their I/O patterns, replay).
 * Each side calls the other only through what is declared here.
 *
 * Engine -> workload (defined in workloads/job.c, job-flow.c, bs.c):
 *   sim/run.c    builds and ends the clones: job_setup, job_start,
 *                job_teardown, job_done; the statistics window of the
 *                run, job_window; the mean I/O size, bs_mean
 *   sim/loop.c   the jobs' events: job_arrival (EV_JOB_ARRIVAL),
 *                job_wake (EV_JOB_WAKE); the ramp's end, job_window_open;
 *                the runtime's end, job_runtime_over
 *   sim/mpath.c  the multipath device is done with an I/O: job_complete
 *
 * Workload -> engine (defined in sim/cpu.c, sim/loop.c):
 *   sim_submit             submit an I/O to the multipath device
 *   sim_submit_begins      when a submission asked for now would begin
 *   sim_io_get, sim_io_put take an I/O from the run's pool, give it back
 *   sim_job_done           a clone has issued all and has none in flight
 *   sim_schedule           a job's own timers (engine.h: inline, as every
 *                          event of the engine is pushed)
 * The objects both sides read (struct sim, struct job, struct sim_io)
 * are engine.h's.
 */
#ifndef MPSIM_WORKLOAD_H
#define MPSIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct job;
struct job_conf;
struct mpath;
struct scenario;
struct sim;
struct sim_io;

/* ---- engine -> workload: workloads/job.c ---- */
/* Returns 0, or -EINVAL with err set (a log that cannot be read). */
int job_setup(struct job *j, struct sim *s, const struct job_conf *c,
	      unsigned index, uint64_t seed, char *err);
void job_teardown(struct job *j);
void job_start(struct job *j);
void job_arrival(struct job *j);			/* EV_JOB_ARRIVAL */
/* The multipath device is done with io (error: failed to the job). */
void job_complete(struct job *j, struct sim_io *io, int error);
/* io, a success, ended its latency at `end` (lat_bucket b) for its path
 * and the device; the job's report counts it at fio's stamp. */
void job_latency(struct job *j, const struct sim_io *io, sim_ns end,
		 unsigned b);
/* The run is over: what job_latency still holds is counted. */
void job_held_flush(struct job *j);
/* The ramp is over: the clone's number_ios/size limit counts from now
 * (the I/Os still in flight count towards it, as fio's in its
 * exceeds_number_ios()). */
void job_window_open(struct job *j);
/* Whether the clone has issued all it will and has nothing in flight. */
bool job_done(const struct job *j);
/* The run's runtime is over: the clone issues no more; what it has in
 * flight still completes and counts (fio's do_io() stops at
 * runtime_exceeded() and then waits for its io_us in flight), and it is
 * done (sim_job_done) when the last has. */
void job_runtime_over(struct job *j);

/* ---- engine -> workload: workloads/job-flow.c ---- */
/* A job's own timer (EV_JOB_WAKE): thinktime or startdelay over, a
 * replayed I/O due. */
void job_wake(struct job *j);
/*
 * The run's statistics window: its ramp (the longest ramp_time) and its
 * runtime (the longest; 0: none).  With stonewall groups or start delays
 * each job keeps its own runtime instead, so there is no common end, and
 * the ramp is that of the jobs that start at once.
 */
void job_window(const struct scenario *sc, sim_ns *ramp, sim_ns *runtime);

/* ---- engine -> workload: workloads/bs.c ---- */
/* The mean size of the job's I/Os (rw mix, bs, bsrange, bssplit). */
double bs_mean(const struct job_conf *c);
/* ---- engine -> workload: workloads/iolog.c ---- */
/* The mean size of the job's I/Os as it runs them: its replayed log's
 * (the directions replay_skip leaves) for read_iolog=, else bs_mean();
 * -EINVAL when the log cannot be read (the run refuses it when built). */
int job_mean_bytes(const struct job_conf *c, double *mean);

/* ---- workload -> engine: sim/cpu.c, sim/mpath.c ---- */
/* Submit an I/O: dm maps it after the submission's CPU time. */
void sim_submit(struct sim *s, struct sim_io *io);
/* When a submission asked for now on CPU c would begin: after the work
 * queued there before it (submit_cpu), else now. */
sim_ns sim_submit_begins(const struct sim *s, unsigned c);
/* Map an I/O (the workload's, or one sent down again). */
void mpath_map(struct mpath *m, struct sim_io *io);

/* ---- workload -> engine: sim/loop.c ---- */
/* A job clone issued its last I/O and has none in flight.  Once every
 * clone is so the run is over: the window closes at this instant, as
 * fio's runtime ends when its last job does. */
void sim_job_done(struct sim *s);
struct sim_io *sim_io_get(struct sim *s);
void sim_io_put(struct sim *s, struct sim_io *io);

#endif
