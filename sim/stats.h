/*
 * stats.h: what a run measures.  Latencies go into fio's log-linear
 * histogram (stat.h's io_u_plat: FIO_IO_U_PLAT_BITS = 6, 64 buckets per
 * power of two) and a percentile is the value fio prints for it, so a p99
 * of mpsim and one of fio mean the same number: within 1/128 (0.8 %) of
 * the exact value, at a fixed cost per I/O and no per-I/O memory.
 */
#ifndef MPSIM_STATS_H
#define MPSIM_STATS_H

#include <stdint.h>

#include "config.h"
#include "sim.h"

struct series;
struct fio_clone;

#define LAT_SUB_BITS	6			/* fio's FIO_IO_U_PLAT_BITS */
#define LAT_SUB		(1u << LAT_SUB_BITS)
#define LAT_OCTAVES	(64 - LAT_SUB_BITS)	/* covers all of u64 ns */
#define LAT_BUCKETS	((LAT_OCTAVES + 1) * LAT_SUB)

struct lat_hist {
	uint64_t count;			/* samples */
	unsigned __int128 sum;		/* sum of samples, ns: 128 bits, as a
					   million I/Os in flight for hours
					   pass 2^64 ns */
	uint64_t min, max;		/* extremes, ns */
	uint64_t bucket[LAT_BUCKETS];	/* log-linear counts */
};

void lat_reset(struct lat_hist *h);
/* Add every sample of src into dst. */
void lat_merge(struct lat_hist *dst, const struct lat_hist *src);
/* Mean in ns (0 when empty). */
double lat_mean(const struct lat_hist *h);
/* The q-quantile (0 < q <= 1) in ns, as fio's calc_clat_percentiles()
 * gives it: the value fio gives the bucket holding the ceil(q*count)-th
 * smallest sample (lat_bucket_fio).  0 when empty. */
double lat_quantile(const struct lat_hist *h, double q);
/* The same from buckets lo..hi (every sample of count lies there): a
 * histogram's part, or a difference of two states of one histogram
 * (sim/series.c). */
double lat_buckets_quantile(const uint64_t *bucket, unsigned lo, unsigned hi,
			    uint64_t count, double q);

/*
 * Bucket layout, fio's plat_val_to_idx(): values below LAT_SUB are exact
 * (octave 0).  A larger value with its top bit at position p (p >=
 * LAT_SUB_BITS) falls in octave p - LAT_SUB_BITS + 1, sub-bucket = the
 * LAT_SUB_BITS bits below the top bit.  Octave k >= 1 thus spans
 * [2^(k+5), 2^(k+6)) in 64 equal steps of 2^(k-1) (exact in octave 1),
 * and bucket b is fio's index b.  fio's array ends at index
 * LAT_FIO_LAST (29 groups, values to 2^34 ns, 17 s) and counts every
 * longer latency there; mpsim's covers all of u64 for its histograms
 * (--lat_hist) and folds the longer ones into that index only where it
 * reports a percentile.
 */
#define LAT_FIO_LAST	(29 * LAT_SUB - 1)	/* FIO_IO_U_PLAT_NR - 1 */
static inline unsigned lat_bucket(uint64_t ns)
{
	unsigned p, oct;

	if (ns < LAT_SUB)
		return (unsigned)ns;
	p = 63 - (unsigned)__builtin_clzll(ns);
	oct = p - LAT_SUB_BITS + 1;
	return oct * LAT_SUB +
	       (unsigned)((ns >> (p - LAT_SUB_BITS)) & (LAT_SUB - 1));
}

/* Add one sample whose bucket b = lat_bucket(ns) is known (a sample
 * counted in two histograms finds its bucket once). */
static inline void lat_add_at(struct lat_hist *h, uint64_t ns, unsigned b)
{
	h->count++;
	h->sum += ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->bucket[b]++;
}

static inline void lat_add(struct lat_hist *h, uint64_t ns)
{
	lat_add_at(h, ns, lat_bucket(ns));
}

/* The bucket's lowest and highest value (for tests). */
uint64_t lat_bucket_lo(unsigned b);
uint64_t lat_bucket_hi(unsigned b);
/* The value fio prints for its bucket b (plat_idx_to_val()): the value
 * itself where the buckets are exact, else the middle of the bucket's
 * range, an integer; past LAT_FIO_LAST, that of LAT_FIO_LAST. */
uint64_t lat_bucket_fio(unsigned b);

/* One data direction's completions over the measurement window. */
struct ddir_stats {
	uint64_t ios;			/* I/Os completed */
	uint64_t bytes;			/* their bytes */
	struct lat_hist lat;		/* submit-to-completion latency */
};

/*
 * Counters over the measurement window, of one path, of all paths, or of
 * one job (fio's report unit).  A completion is counted once, in dir[] of
 * its direction (enum fio_ddir), whose histogram is allocated at the
 * direction's first I/O: a read-only run holds one histogram per path,
 * not four.  ios, bytes and lat, over every direction, are summed from
 * dir[] when the window closes (stats_close()).
 */
struct path_stats {
	uint64_t ios;			/* I/Os completed on this path */
	uint64_t bytes;			/* their bytes */
	uint64_t errors;		/* completed in error */
	uint64_t starts;		/* start_io calls, whole run (ramp too) */
	uint64_t end_ios;		/* the selector's end_io calls, whole run:
				   one per start_io, or two (mpath.c) */
	char ps_info[64];		/* the selector's info status at the end */
	sim_ns busy;			/* time with >= 1 I/O in service */
	struct lat_hist lat;		/* submit-to-completion latency */
	struct ddir_stats *dir[DDIR_NR]; /* per direction; NULL: none yet */
};

/* The direction's counters, allocated at its first I/O (cold). */
struct ddir_stats *ddir_stats_new(struct path_stats *ps, unsigned d);

/* Count one completion of `bytes` and latency `lat` ns (its bucket b)
 * in direction d: the per-I/O cost is that of one histogram, as with no
 * split. */
static inline void stats_add(struct path_stats *ps, unsigned d,
			     uint32_t bytes, uint64_t lat, unsigned b)
{
	struct ddir_stats *ds = ps->dir[d];

	if (__builtin_expect(ds == NULL, 0))
		ds = ddir_stats_new(ps, d);
	ds->ios++;
	ds->bytes += bytes;
	lat_add_at(&ds->lat, lat, b);
}

/* Sum dir[] into ios, bytes and lat (once, when the window closes). */
void stats_close(struct path_stats *ps);
/* Add src's every direction into dst (both closed or both open). */
void stats_merge(struct path_stats *dst, const struct path_stats *src);
/* ps zeroed (xcalloc), as every path_stats is: the empty counters. */
void stats_init(struct path_stats *ps);
void stats_free(struct path_stats *ps);

/*
 * One report unit, as fio's: a job clone, or with group_reporting the
 * clones of a stonewall/new_group group (fio's __show_run_stats starts a
 * new unit at each job without group_reporting or with another groupid).
 */
struct job_report {
	char name[NAME_MAX_LEN];	/* its first job's name */
	unsigned group;			/* fio's groupid */
	unsigned clones;		/* job clones reported together */
	sim_ns runtime;			/* its measured time: from the window's
					   start (or its own, later) to its
					   end (or the window's); with several
					   clones the longest, as fio's */
	struct path_stats st;		/* its completions (busy, errors and
					   starts unused) */
};

/* The measured result of one run (sim/run.c fills it). */
struct run_result {
	unsigned nr_paths;
	char (*names)[32];		/* path names, table order */
	double *best;			/* capacity share per path */
	struct path_stats *path;	/* per path */
	struct path_stats total;	/* all paths (busy unused) */
	struct job_report *job;		/* per report unit */
	unsigned nr_jobs;
	uint64_t no_path;		/* I/Os that found no usable path */
	uint64_t requeued;		/* I/Os sent down again after an error */
	uint64_t failed;		/* I/Os completed to the workload in error */
	sim_ns no_path_time;		/* time with no usable path */
	sim_ns window;			/* measured time (after ramp), ns */
	sim_ns elapsed;			/* the whole run, ramp and all, ns */
	uint64_t events;		/* events the loop handled */
	uint64_t ios_simulated;		/* all completions incl. ramp */
	uint64_t issued;		/* I/Os the jobs submitted, whole run */
	uint64_t ddir_ios[4];		/* ... per direction (enum fio_ddir) */
	uint64_t ddir_bytes[4];		/* ... their bytes */
	uint64_t left_queued;		/* held for a usable path or pg_init
					   at the end */
	uint64_t left_inflight;		/* below the multipath device at the end */
	unsigned late_events;		/* scripted fail/reinstate events the
					   run ended before */
	struct series *series;		/* --interval's, else NULL */
	char *dmsetup;			/* `dmsetup status` and `dmsetup table`
					   lines at the run's end */
	struct fio_clone *clone;	/* per job clone, what fio keeps of it
					   (sim/fiostat.h), when run_watch.fio
					   asks; else NULL */
	unsigned nr_clones;
};

void run_result_alloc(struct run_result *r, unsigned nr_paths);
/* Room for n report units (run_scenario sets them up). */
void run_result_jobs(struct run_result *r, unsigned n);
void run_result_free(struct run_result *r);

#endif
