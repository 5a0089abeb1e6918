/*
 * fiostat.h: what fio keeps of each job clone beyond its histograms, for
 * fio's own formats (--output-format=json, json+, terse) and per-interval
 * logs (write_bw_log=, write_iops_log=, write_lat_log=): stat.c's io_stat
 * per direction (min, max and Welford's running mean and S, as its
 * add_stat_sample), io_u_lat's latency bins, the bytes and I/Os of each
 * bandwidth and IOPS sample period, and the log lines fio makes as I/Os
 * complete.  Recorded only when a run asks for it (run_watch.fio); the
 * report (report/report-fio*.c) turns it into fio's figures and lines.
 *
 * Times are fio's: milliseconds since the clone's epoch, which is when
 * its statistics start (the window's opening after ramp_time, or the
 * clone's own start if later: fio's reset_all_stats() and thread start).
 */
#ifndef MPSIM_FIOSTAT_H
#define MPSIM_FIOSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "sim.h"

/* fio's io_stat (stat.h): samples and their running moments. */
struct fio_stat {
	uint64_t min, max;		/* min UINT64_MAX when empty */
	uint64_t samples;
	double mean, S;			/* Welford: S / (samples - 1) is the
					   variance */
};

/* Add v as stat.c's add_stat_sample() does. */
void fio_stat_add(struct fio_stat *s, uint64_t v);
/* Add src to dst as stat.c's sum_stat(): pure sums the figures (fio's
 * bandwidth and IOPS of a group's clones), else merges the samples. */
void fio_stat_sum(struct fio_stat *dst, const struct fio_stat *src,
		  bool pure);
/* fio's calc_lat(): min, max, mean and the standard deviation (n - 1);
 * false (all 0) when there is no sample. */
bool fio_stat_calc(const struct fio_stat *s, uint64_t *min, uint64_t *max,
		   double *mean, double *dev);
void fio_stat_init(struct fio_stat *s);

/* One completion, kept when a log has a line per I/O (log_avg_msec=0). */
struct fio_io {
	sim_ns end;			/* fio's stamp of it, absolute */
	uint64_t lat;			/* ns */
	uint32_t bytes;
	uint8_t ddir;
};

/* A log line made while the run goes (an averaged latency window). */
struct fio_line {
	uint64_t t_ms;			/* since the clone's epoch */
	uint64_t value;
	uint8_t ddir;
};

/* A sample period's completions, per read, write and trim. */
struct fio_period {
	uint64_t v[DDIR_RWDIR_CNT];	/* bytes (bandwidth) or I/Os (IOPS) */
};

#define FIO_LAT_N_NR	10		/* fio's FIO_IO_U_LAT_N_NR ... */
#define FIO_LAT_U_NR	10
#define FIO_LAT_M_NR	12
/* Periods one clone records at most (70 minutes at 1 ms, 24 bytes
 * each), and the completions kept for per-I/O logs at most, over the
 * whole run (24 bytes each): past them, fio_clone.cut says so. */
#define FIO_PERIODS_MAX	(1u << 22)
#define FIO_IOS_MAX	(1u << 24)

/* One job clone, as fio's thread_stat before its report sums units. */
struct fio_clone {
	unsigned job;			/* its job section (scenario.jobs) */
	unsigned unit;			/* its report unit (run_result.job) */
	unsigned depth;			/* the iodepth it runs at */
	bool ran;			/* it started (a stonewall may hold
					   one back for ever) */
	sim_ns epoch;			/* fio's td->epoch, absolute */
	sim_ns end;			/* when fio would end it: its runtime's
					   end (run.c's job_units_close) */
	sim_ns runtime;			/* its measured time, ns */
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	struct fio_stat lat[DDIR_NR];	/* clat (slat is not modelled, so
					   lat is the same) per direction */
	struct fio_stat bw[DDIR_RWDIR_CNT], iops[DDIR_RWDIR_CNT];
					/* fio's bw_stat, iops_stat samples:
					   filled by fio_clone_close() */
	uint64_t lat_n[FIO_LAT_N_NR], lat_u[FIO_LAT_U_NR],
		 lat_m[FIO_LAT_M_NR];	/* io_u_lat: read, write and trim
					   completions by latency */

	/* the per-I/O logs' lines (bw, iops, lat: log_avg_msec=0) */
	bool keep_ios;
	struct fio_io *io;
	uint64_t nio, capio;

	/* the averaged latency log (log_avg_msec > 0): its lines, and each
	   direction's open window, as fio's add_log_sample() */
	unsigned avg_ms;		/* log_avg_msec; 0: none averaged */
	struct fio_line *avg;
	uint64_t navg, capavg;
	struct fio_stat avg_win[DDIR_RWDIR_CNT];
	uint64_t avg_last[DDIR_RWDIR_CNT];

	/* bandwidth and IOPS per sample period: bw_avg_time and
	   iops_avg_time (500 ms), or log_avg_msec for an averaged log;
	   0 when that log has a line per I/O instead */
	unsigned bw_ms, iops_ms;
	struct fio_period *bwp, *iopsp;
	uint64_t nbwp, niopsp;		/* periods recorded */
	uint64_t capbwp, capiopsp;
	bool cut;			/* a limit above stopped the records */
};

/* Set up clone c of job conf (unit u, depth) for what fio keeps. */
void fio_clone_init(struct fio_clone *c, const struct job_conf *conf,
		    unsigned job, unsigned unit, unsigned depth);
/* The clone's epoch (its statistics start), at its first completion at
 * the latest. */
void fio_clone_epoch(struct fio_clone *c, sim_ns epoch);
/*
 * A completion of bytes in direction ddir, latency lat ns, stamped end
 * (absolute): counted as fio counts it in io_completed() and its logs.
 * *kept counts the completions kept over the run (FIO_IOS_MAX).
 */
void fio_clone_add(struct fio_clone *c, sim_ns end, uint64_t lat,
		   uint32_t bytes, unsigned ddir, uint64_t *kept);
/* The clone is over at end (its runtime, ns): the last averaged
 * windows are written, as fio's finalize_logs(), and the bandwidth and
 * IOPS samples are taken. */
void fio_clone_close(struct fio_clone *c, sim_ns end, sim_ns runtime);
void fio_clone_free(struct fio_clone *c);

/* The periodic samples of c's bandwidth (bw) or IOPS: each period that
 * ended while the clone ran, each direction with completions in it, as
 * fio's __add_samples(): time (ms), value (KiB/s or I/Os per second),
 * direction.  fn is called in time order. */
typedef void fio_sample_fn(void *ctx, uint64_t t_ms, uint64_t value,
			   unsigned ddir);
void fio_clone_periods(const struct fio_clone *c, bool bw, fio_sample_fn *fn,
		       void *ctx);
/* fio's per-I/O bandwidth sample: bytes * 10^6 / latency (ns). */
uint64_t fio_io_bw(uint64_t bytes, uint64_t lat);

#endif
