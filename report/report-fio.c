/*
 * report-fio.c: one run in fio's terms (report-fio.h): the units as
 * fio's __show_run_stats() sums its threads, the groups' bandwidth, the
 * paths as disk_util's disks, for the writers of fio's formats.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report-fio.h"

/* fio's default percentile_list (options.c) */
static const double fio_default_pct[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95,
	99.99,
};

const struct lat_hist *fio_unit_hist(const struct fio_unit *u, unsigned d)
{
	const struct ddir_stats *ds = u->jr->st.dir[d];

	return ds && ds->lat.count ? &ds->lat : NULL;
}

uint64_t fio_percentile(const struct lat_hist *h, double p)
{
	long double want;
	uint64_t sum = 0;
	unsigned b;

	if (!h || !h->count)
		return 0;
	/* calc_clat_percentiles(): the first bucket whose running sum
	 * reaches p% of the samples, in long double as fio compares */
	want = (long double)p / 100.0 * (long double)h->count;
	for (b = 0; b < LAT_BUCKETS; b++) {
		sum += h->bucket[b];
		if ((long double)sum >= want)
			break;
	}
	return lat_bucket_fio(b < LAT_BUCKETS ? b : LAT_BUCKETS - 1);
}

uint64_t fio_bw_bytes(const struct fio_unit *u, unsigned d)
{
	uint64_t runt = u->runtime_ms[d];

	return runt ? 1000 * u->bytes[d] / runt : 0;
}

double fio_iops(const struct fio_unit *u, unsigned d)
{
	uint64_t runt = u->runtime_ms[d];

	return runt ? 1000.0 * (double)u->ios[d] / (double)runt : 0;
}

void fio_lat_dist(const struct fio_unit *u, const uint64_t *src, unsigned nr,
		  double *dst)
{
	uint64_t total = u->ios[DDIR_READ] + u->ios[DDIR_WRITE] +
			 u->ios[DDIR_TRIM];
	unsigned i;

	for (i = 0; i < nr; i++) {
		dst[i] = total ? (double)src[i] / (double)total * 100.0 : 0;
		/* a bin with any I/O never reads as none */
		if (dst[i] < 0.01 && src[i])
			dst[i] = 0.01;
	}
}

double fio_bw_agg(const struct fio_report *fr, const struct fio_unit *u,
		  unsigned d, double mean)
{
	uint64_t agg = fr->agg[u->jr->group][d];
	double p = 100.0;

	/* convert_agg_kbytes_percent(): fio passes the mean as an int,
	 * its fraction dropped */
	if (agg > 1024) {
		p = trunc(mean) * 100.0 / ((double)agg / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

/* Add clone c to its unit, as fio's sum_thread_stats(). */
static void unit_add(struct fio_unit *u, const struct fio_clone *c)
{
	unsigned d, i;

	for (d = 0; d < DDIR_NR; d++) {
		u->ios[d] += c->ios[d];
		u->bytes[d] += c->bytes[d];
		fio_stat_sum(&u->lat[d], &c->lat[d], false);
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		/* update_runtime(): whole ms, rounded up, of a direction
		 * that moved bytes; a group keeps its longest */
		uint64_t ms = c->bytes[d] ? (c->runtime / 1000 + 999) / 1000 : 0;

		if (ms > u->runtime_ms[d])
			u->runtime_ms[d] = ms;
		fio_stat_sum(&u->bw[d], &c->bw[d], true);
		fio_stat_sum(&u->iops[d], &c->iops[d], true);
	}
	if (c->ran)
		u->total_run_time += (c->end - c->epoch) / NSEC_PER_MSEC;
	for (i = 0; i < FIO_LAT_N_NR; i++)
		u->lat_n[i] += c->lat_n[i];
	for (i = 0; i < FIO_LAT_U_NR; i++)
		u->lat_u[i] += c->lat_u[i];
	for (i = 0; i < FIO_LAT_M_NR; i++)
		u->lat_m[i] += c->lat_m[i];
}

static void disk_build(struct fio_disk *k, const struct run_result *r,
		       unsigned p)
{
	const struct path_stats *st = &r->path[p];
	unsigned __int128 all = 0;
	unsigned d;

	memset(k, 0, sizeof(*k));
	k->name = r->names[p];
	for (d = 0; d < DDIR_NR; d++) {
		const struct ddir_stats *ds = st->dir[d];

		if (!ds)
			continue;
		/* /sys/block/X/stat: reads and writes; the time in queue
		 * adds discards and flushes (part_stat_show()) */
		if (d < 2) {
			k->ios[d] = ds->ios;
			k->ticks[d] = (uint64_t)(ds->lat.sum / NSEC_PER_MSEC);
		}
		all += ds->lat.sum;
	}
	k->in_queue = (uint64_t)(all / NSEC_PER_MSEC);
	k->util = r->window ? 100.0 * (double)st->busy / (double)r->window : 0;
	if (k->util > 100.0)
		k->util = 100.0;
}

void fio_report_build(struct fio_report *fr, const struct provenance *pv,
		      const struct scenario *sc, const struct run_result *r)
{
	unsigned n, d, groups = 0;

	memset(fr, 0, sizeof(*fr));
	fr->sc = sc;
	fr->r = r;
	fr->pv = pv;
	fr->unit = xcalloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*fr->unit));
	for (n = 0; n < r->nr_jobs; n++) {
		struct fio_unit *u = &fr->unit[n];

		u->jr = &r->job[n];
		for (d = 0; d < DDIR_NR; d++)
			fio_stat_init(&u->lat[d]);
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			fio_stat_init(&u->bw[d]);
			fio_stat_init(&u->iops[d]);
		}
		if (u->jr->group + 1 > groups)
			groups = u->jr->group + 1;
	}
	for (n = 0; n < r->nr_clones; n++) {
		const struct fio_clone *c = &r->clone[n];
		struct fio_unit *u = &fr->unit[c->unit];

		if (!u->conf) {
			u->conf = &sc->jobs[c->job];
			u->depth = c->depth;
		}
		unit_add(u, c);
	}
	for (n = 0; n < r->nr_jobs; n++) {
		struct fio_unit *u = &fr->unit[n];

		u->pct = fio_default_pct;
		u->npct = ARRAY_SIZE(fio_default_pct);
		if (u->conf && u->conf->nr_percentiles) {
			u->pct = u->conf->percentile_list;
			u->npct = u->conf->nr_percentiles;
		}
	}
	/* __show_run_stats(): each group's bytes over its longest runtime */
	fr->agg = xcalloc(groups ? groups : 1, sizeof(*fr->agg));
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		unsigned g;

		for (g = 0; g < groups; g++) {
			uint64_t bytes = 0, max_run = 0;

			for (n = 0; n < r->nr_jobs; n++) {
				const struct fio_unit *u = &fr->unit[n];

				if (u->jr->group != g || !u->runtime_ms[d])
					continue;
				bytes += u->bytes[d];
				if (u->runtime_ms[d] > max_run)
					max_run = u->runtime_ms[d];
			}
			fr->agg[g][d] = max_run ? bytes * 1000 / max_run : 0;
		}
	}
	fr->disk = xcalloc(r->nr_paths ? r->nr_paths : 1, sizeof(*fr->disk));
	for (n = 0; n < r->nr_paths; n++)
		disk_build(&fr->disk[n], r, n);
}

void fio_report_free(struct fio_report *fr)
{
	free(fr->unit);
	free(fr->agg);
	free(fr->disk);
	memset(fr, 0, sizeof(*fr));
}
