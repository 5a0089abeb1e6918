/* stats.c: latency histograms and the run result's storage. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fiostat.h"
#include "series.h"
#include "stats.h"

uint64_t lat_bucket_lo(unsigned b)
{
	unsigned oct = b / LAT_SUB, sub = b % LAT_SUB;

	if (!oct)
		return sub;
	return ((uint64_t)LAT_SUB + sub) << (oct - 1);
}

uint64_t lat_bucket_hi(unsigned b)
{
	unsigned oct = b / LAT_SUB;

	if (!oct)
		return lat_bucket_lo(b);
	return lat_bucket_lo(b) + ((uint64_t)1 << (oct - 1)) - 1;
}

uint64_t lat_bucket_fio(unsigned b)
{
	if (b > LAT_FIO_LAST)
		b = LAT_FIO_LAST;
	if (b < 2 * LAT_SUB)
		return b;
	/* lo + half a step: fio's base + (k + 0.5) << error_bits */
	return lat_bucket_lo(b) + ((uint64_t)1 << (b / LAT_SUB - 2));
}

void lat_reset(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void lat_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	unsigned b;

	if (!src->count)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (b = 0; b < LAT_BUCKETS; b++)
		if (src->bucket[b])
			dst->bucket[b] += src->bucket[b];
}

double lat_mean(const struct lat_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double lat_quantile(const struct lat_hist *h, double q)
{
	return lat_buckets_quantile(h->bucket, 0, LAT_BUCKETS - 1, h->count, q);
}

double lat_buckets_quantile(const uint64_t *bucket, unsigned lo, unsigned hi,
			    uint64_t count, double q)
{
	uint64_t rank, seen = 0;
	unsigned b;

	if (!count)
		return 0.0;
	rank = (uint64_t)ceil(q * (double)count);
	if (rank < 1)
		rank = 1;
	if (rank > count)
		rank = count;
	for (b = lo; b < hi; b++) {
		seen += bucket[b];
		if (seen >= rank)
			break;
	}
	/* fio's value, not clamped to [min, max]: fio prints a p99 above
	 * the largest latency when the bucket's middle lies above it */
	return (double)lat_bucket_fio(b);
}

/*
 * Histograms start from zeroed allocations and are written only where a
 * sample lands (lat_merge skips empty buckets too), so the pages of the
 * octaves no latency reaches are never touched: a histogram costs the
 * memory of the few octaves its latencies span, not its 59 KiB.
 */
struct ddir_stats *ddir_stats_new(struct path_stats *ps, unsigned d)
{
	struct ddir_stats *ds = xcalloc(1, sizeof(*ds));

	ds->lat.min = UINT64_MAX;
	ps->dir[d] = ds;
	return ds;
}

void stats_init(struct path_stats *ps)
{
	ps->lat.min = UINT64_MAX;
}

void stats_free(struct path_stats *ps)
{
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		free(ps->dir[d]);
	memset(ps->dir, 0, sizeof(ps->dir));
}

void stats_close(struct path_stats *ps)
{
	unsigned d;

	for (d = 0; d < DDIR_NR; d++) {
		const struct ddir_stats *ds = ps->dir[d];

		if (!ds)
			continue;
		ps->ios += ds->ios;
		ps->bytes += ds->bytes;
		lat_merge(&ps->lat, &ds->lat);
	}
}

void stats_merge(struct path_stats *dst, const struct path_stats *src)
{
	unsigned d;

	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->errors += src->errors;
	dst->starts += src->starts;
	lat_merge(&dst->lat, &src->lat);
	for (d = 0; d < DDIR_NR; d++) {
		const struct ddir_stats *s = src->dir[d];
		struct ddir_stats *t;

		if (!s)
			continue;
		t = dst->dir[d] ? dst->dir[d] : ddir_stats_new(dst, d);
		t->ios += s->ios;
		t->bytes += s->bytes;
		lat_merge(&t->lat, &s->lat);
	}
}

void run_result_alloc(struct run_result *r, unsigned nr_paths)
{
	unsigned i;

	memset(r, 0, sizeof(*r));
	r->nr_paths = nr_paths;
	r->names = xcalloc(nr_paths, sizeof(*r->names));
	r->best = xcalloc(nr_paths, sizeof(*r->best));
	r->path = xcalloc(nr_paths, sizeof(*r->path));
	for (i = 0; i < nr_paths; i++)
		stats_init(&r->path[i]);
	stats_init(&r->total);
}

void run_result_jobs(struct run_result *r, unsigned n)
{
	unsigned i;

	r->job = xcalloc(n, sizeof(*r->job));
	r->nr_jobs = n;
	for (i = 0; i < n; i++)
		stats_init(&r->job[i].st);
}

void run_result_free(struct run_result *r)
{
	unsigned i;

	for (i = 0; i < r->nr_paths; i++)
		stats_free(&r->path[i]);
	for (i = 0; i < r->nr_jobs; i++)
		stats_free(&r->job[i].st);
	stats_free(&r->total);
	series_free(r->series);
	for (i = 0; i < r->nr_clones; i++)
		fio_clone_free(&r->clone[i]);
	free(r->clone);
	free(r->names);
	free(r->best);
	free(r->path);
	free(r->job);
	free(r->dmsetup);
	memset(r, 0, sizeof(*r));
}
