/*
 * stats.h: what a run measures.  Latencies go into log-linear histograms
 * (fio's "plat" buckets, HdrHistogram's layout): 2^LAT_SUB_BITS buckets per
 * power of two, so any percentile is within 1/2^LAT_SUB_BITS (0.8 %) of
 * the exact value at a fixed cost per I/O and no per-I/O memory.
 */
#ifndef MPSIM_STATS_H
#define MPSIM_STATS_H

#include <stdint.h>

#include "sim.h"

#define LAT_SUB_BITS	7			/* 128 buckets per octave */
#define LAT_SUB		(1u << LAT_SUB_BITS)
#define LAT_OCTAVES	(64 - LAT_SUB_BITS)	/* covers all of u64 ns */
#define LAT_BUCKETS	((LAT_OCTAVES + 1) * LAT_SUB)

struct lat_hist {
	uint64_t count;			/* samples */
	uint64_t sum;			/* sum of samples, ns */
	uint64_t min, max;		/* extremes, ns */
	uint64_t bucket[LAT_BUCKETS];	/* log-linear counts */
};

void lat_reset(struct lat_hist *h);
void lat_add(struct lat_hist *h, uint64_t ns);
/* Add every sample of src into dst. */
void lat_merge(struct lat_hist *dst, const struct lat_hist *src);
/* Mean in ns (0 when empty). */
double lat_mean(const struct lat_hist *h);
/* The q-quantile (0 < q <= 1) in ns: the representative value of the
 * bucket holding the ceil(q*count)-th smallest sample, clamped to
 * [min, max].  0 when empty. */
double lat_quantile(const struct lat_hist *h, double q);

/* Bucket index and the bucket's lowest and highest value (for tests). */
unsigned lat_bucket(uint64_t ns);
uint64_t lat_bucket_lo(unsigned b);
uint64_t lat_bucket_hi(unsigned b);

/* Per-path counters over the measurement window. */
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
};

/* The measured result of one run (sim/run.c fills it). */
struct run_result {
	unsigned nr_paths;
	char (*names)[32];		/* path names, table order */
	double *best;			/* capacity share per path */
	struct path_stats *path;	/* per path */
	struct path_stats total;	/* all paths (busy unused) */
	uint64_t no_path;		/* I/Os that found no usable path */
	uint64_t requeued;		/* I/Os sent down again after an error */
	uint64_t failed;		/* I/Os completed to the workload in error */
	sim_ns no_path_time;		/* time with no usable path */
	sim_ns window;			/* measured time (after ramp), ns */
	uint64_t events;		/* events the loop handled */
	uint64_t ios_simulated;		/* all completions incl. ramp */
	uint64_t issued;		/* I/Os the jobs submitted, whole run */
	uint64_t ddir_ios[4];		/* ... per direction (enum fio_ddir) */
	uint64_t ddir_bytes[4];		/* ... their bytes */
	uint64_t left_queued;		/* held for a usable path at the end */
	uint64_t left_inflight;		/* below the multipath device at the end */
	unsigned late_events;		/* scripted fail/reinstate events the
					   run ended before */
};

void run_result_alloc(struct run_result *r, unsigned nr_paths);
void run_result_free(struct run_result *r);

#endif
