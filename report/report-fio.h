/*
 * report-fio.h: a run's result in fio's terms, shared by the writers of
 * fio's formats (report/report-fio-json.c, report-fio-terse.c) and logs
 * (report-fio-log.c): each report unit as fio's thread_stat after
 * sum_thread_stats(), each reporting group as its group_run_stats, each
 * path as a disk of disk_util, every figure in fio's arithmetic.
 */
#ifndef MPSIM_REPORT_FIO_H
#define MPSIM_REPORT_FIO_H

#include <stdint.h>
#include <stdio.h>

#include "report.h"
#include "sim/fiostat.h"

#define FIO_VERSION	"fio-3.33"	/* the fio whose formats these are */

/* One report unit: a clone, or a group's clones with group_reporting. */
struct fio_unit {
	const struct job_report *jr;	/* mpsim's unit: name, group, the
					   latency histograms */
	const struct job_conf *conf;	/* its first clone's job */
	unsigned depth;			/* ... and that clone's iodepth */
	uint64_t ios[DDIR_NR], bytes[DDIR_NR];
	uint64_t runtime_ms[DDIR_RWDIR_CNT]; /* fio's runtime[]: per
					   direction that moved bytes */
	uint64_t total_run_time;	/* ms, summed over the clones */
	struct fio_stat lat[DDIR_NR], bw[DDIR_RWDIR_CNT],
			iops[DDIR_RWDIR_CNT];
	uint64_t lat_n[FIO_LAT_N_NR], lat_u[FIO_LAT_U_NR],
		 lat_m[FIO_LAT_M_NR];
	const double *pct;		/* its percentile list, ascending */
	unsigned npct;
};

/* One path as fio's disk_util entry (/sys/block/NAME/stat). */
struct fio_disk {
	const char *name;
	uint64_t ios[2], ticks[2];	/* read, write: I/Os, ms of latency */
	uint64_t in_queue;		/* ms of latency, every direction */
	double util;			/* % of the window busy, at most 100 */
};

struct fio_report {
	const struct scenario *sc;
	const struct run_result *r;
	const struct provenance *pv;
	struct fio_unit *unit;		/* r->nr_jobs of them */
	uint64_t (*agg)[DDIR_RWDIR_CNT]; /* per group: fio's rs->agg, B/s */
	struct fio_disk *disk;		/* r->nr_paths of them */
};

/* The figures of r (whose run kept r->clone); fio_report_free() them. */
void fio_report_build(struct fio_report *fr, const struct provenance *pv,
		      const struct scenario *sc, const struct run_result *r);
void fio_report_free(struct fio_report *fr);

/* Unit u's latency histogram of direction d (NULL: none). */
const struct lat_hist *fio_unit_hist(const struct fio_unit *u, unsigned d);
/* The value fio gives percentile p (of 100) of h: calc_clat_percentiles(). */
uint64_t fio_percentile(const struct lat_hist *h, double p);
/* fio's bandwidth (bytes/s), KiB/s and IOPS of unit u in direction d:
 * the integer arithmetic of add_ddir_status_json(). */
uint64_t fio_bw_bytes(const struct fio_unit *u, unsigned d);
double fio_iops(const struct fio_unit *u, unsigned d);
/* stat_calc_lat(): the share (%) of the unit's read, write and trim
 * completions in each bin of src (nr bins). */
void fio_lat_dist(const struct fio_unit *u, const uint64_t *src, unsigned nr,
		  double *dst);
/* A group's bandwidth (rs->agg) as fio's bw_agg: mean's share of it, %. */
double fio_bw_agg(const struct fio_report *fr, const struct fio_unit *u,
		  unsigned d, double mean);

void fio_json(FILE *f, const struct fio_report *fr, bool plus);
void fio_terse(FILE *f, const struct fio_report *fr, unsigned version);

#endif
