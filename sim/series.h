/*
 * series.h: per-path time series of one run (--interval).  The measured
 * window is cut into intervals of a fixed length from the moment it
 * opens (the last one may be shorter); for each interval and path the
 * run records what the totals record for the whole window, so that the
 * intervals of a run add up to its totals exactly:
 *
 *   ios, bytes, errors   completions in the interval
 *   busy                 ns with at least one I/O in service (iostat %util)
 *   inflight             integral of the path's start_io'd, not yet
 *                        end_io'd count over the interval, in I/O x ns
 *                        (its mean in flight times the interval's length)
 *   lat_count, lat_sum   latencies of the completions (ns), and their p99
 *   estimate             what the selector ranks the path by, read at the
 *                        interval's end (the first word of its trace status; hst for HST)
 *
 * Nothing here runs per I/O.  Every figure is the difference of a
 * cumulative counter between two interval boundaries (sim/series.c),
 * read at an EV_MARK event (sim/loop.c).  The engine keeps them all
 * anyway but the in-flight sums, two adds per I/O.
 */
#ifndef MPSIM_SERIES_H
#define MPSIM_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"
#include "stats.h"

/* One path, or the total, in one interval. */
struct series_row {
	uint64_t ios, bytes, errors;
	uint64_t lat_count, lat_sum;	/* latencies, ns */
	double lat_p99;			/* ns; 0 when lat_count is 0 */
	sim_ns busy;			/* ns in service (paths only) */
	uint64_t inflight;		/* I/O x ns in flight */
	double estimate;		/* the selector's, at the end */
	bool has_estimate;
};

/* The recorded series of a run (run_result.series). */
struct series {
	sim_ns interval;		/* the length asked for */
	unsigned nr_paths;		/* rows per interval: paths + total */
	const char *estimate_name;	/* "hst", NULL: the selector compares
					   none (round-robin) */
	char estimate_key[32];		/* ... its storage */
	unsigned n;			/* intervals recorded */
	unsigned cap;
	sim_ns *t_start, *t_end;	/* bounds, ns after the run's start */
	struct series_row *rows;	/* n x (nr_paths + 1), total last */

	/* while the run goes on (sim/series.c) */
	sim_ns open_at;			/* absolute start of the open interval */
	sim_ns next;			/* absolute end of the open interval */
	struct series_mark *prev;	/* per path: counters at open_at */
	uint64_t *hist;			/* the total's latency buckets of the
					   interval being closed, else 0 */
	uint64_t *phist;		/* ... and one path's */

	/* --format=dmsetup: the device's status and table lines at the end
	 * of each interval, each pair after a "# T s" line (T after the
	 * run's start); NULL when not asked for */
	char *dmsetup;
	size_t dmsetup_len;
	bool want_dmsetup;
	bool ends_at_run_end;		/* the last interval closed when the
					   run ended: its pair may be the
					   run's end's */
};

/* Most rows a run records, intervals x (paths + 1): each is a struct
 * series_row in memory (80 bytes, 800 MB in all) and a line of some 150
 * bytes in --series.  A series longer than this is refused up front
 * when the run's length is known (series_check), else stops there with
 * a warning. */
#define SERIES_MAX_ROWS		10000000u

struct sim;

/* The most intervals a series of nr_paths paths records. */
unsigned series_max_intervals(unsigned nr_paths);

/* -EINVAL with err set when interval would cut a run of known length
 * and nr_paths paths into more than SERIES_MAX_ROWS rows. */
int series_check(sim_ns interval, sim_ns window, unsigned nr_paths,
		 char *err);

/* The window opens: the first interval starts now (sim_stats_open). */
void series_open(struct sim *s);
/* Close every interval that ends at or before t (EV_MARK at t). */
void series_advance(struct sim *s, sim_ns t);
/* The run is over: close the last, perhaps shorter, interval at now.
 * Called before the paths close their statistics. */
void series_close(struct sim *s);

struct series *series_new(sim_ns interval, unsigned nr_paths);
void series_free(struct series *sr);

/* Row p (nr_paths: the total) of interval k. */
static inline const struct series_row *series_at(const struct series *sr,
						 unsigned k, unsigned p)
{
	return &sr->rows[(uint64_t)k * (sr->nr_paths + 1) + p];
}

#endif
