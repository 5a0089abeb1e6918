/*
 * report-hist.c: the latency histograms of a run (--lat_hist=FILE) as
 * long-form CSV, for latency CDF figures: per path and in total, one row
 * per non-empty bucket, with the bucket's bounds in µs, its count and the
 * fraction of the path's latencies below its upper bound (the empirical
 * CDF there).  ddir is "all" for every direction together; a run that
 * mixes directions adds each direction's rows (fio's read, write, trim,
 * sync).  The buckets are stats.h's merged HIST_MERGE to one: 16
 * per power of two (each at most 1/16 of its lower bound wide), enough
 * for a figure at an eighth of the size.
 */
#include "report.h"

#define HIST_MERGE	4

void hist_csv_head(FILE *f, const struct provenance *pv)
{
	fprintf(f, "# mpsim %s lat_hist: scenario %s, seed %llu%s%s\n",
		MPSIM_VERSION, pv->scenario, (unsigned long long)pv->seed,
		pv->options && *pv->options ? ", options: " : "",
		pv->options ? pv->options : "");
	fputs("selector,clock,path,ddir,lat_lo_us,lat_hi_us,count,cdf\n", f);
}

static void hist_rows(FILE *f, const char *selector, const char *clock,
		      const char *path, const char *ddir,
		      const struct lat_hist *h)
{
	uint64_t seen = 0, n;
	unsigned b, i, hi;

	if (!h->count)
		return;
	hi = lat_bucket(h->max);
	/* LAT_SUB is a multiple of HIST_MERGE: a group stays in an octave */
	for (b = lat_bucket(h->min) / HIST_MERGE * HIST_MERGE; b <= hi;
	     b += HIST_MERGE) {
		for (n = 0, i = 0; i < HIST_MERGE; i++)
			n += h->bucket[b + i];
		if (!n)
			continue;
		seen += n;
		fprintf(f, "%s,%s,%s,%s,%.3f,%.3f,%llu,%.6f\n", selector,
			clock, path, ddir, (double)lat_bucket_lo(b) / 1e3,
			(double)(lat_bucket_hi(b + HIST_MERGE - 1) + 1) / 1e3,
			(unsigned long long)n, (double)seen / (double)h->count);
	}
}

/* A path's (or the total's) rows: all directions, then each, when the
 * run mixes them. */
static void hist_path(FILE *f, const char *selector, const char *clock,
		      const char *path, const struct path_stats *st,
		      bool mixed)
{
	unsigned d;

	hist_rows(f, selector, clock, path, "all", &st->lat);
	for (d = 0; mixed && d < DDIR_NR; d++)
		if (st->dir[d])
			hist_rows(f, selector, clock, path, fio_ddir_name(d),
				  &st->dir[d]->lat);
}

void hist_csv(FILE *f, const char *selector, const char *clock,
	      const struct run_result *r)
{
	unsigned p, d, dirs = 0;

	for (d = 0; d < DDIR_NR; d++)
		dirs += r->total.dir[d] && r->total.dir[d]->ios;
	for (p = 0; p < r->nr_paths; p++)
		hist_path(f, selector, clock, r->names[p], &r->path[p],
			  dirs > 1);
	hist_path(f, selector, clock, "total", &r->total, dirs > 1);
}
