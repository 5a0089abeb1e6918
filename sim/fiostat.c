/*
 * fiostat.c: fio's per-clone statistics and log lines, as fio's stat.c
 * and io_u.c keep them (fiostat.h).  Nothing here runs unless a run asks
 * for fio's formats or logs: then each completion of the window costs a
 * few additions, a per-I/O log 24 bytes more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fiostat.h"

#define FIO_SAMPLE_MS	500	/* fio's bwavgtime and iopsavgtime */

void fio_stat_init(struct fio_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

void fio_stat_add(struct fio_stat *s, uint64_t v)
{
	double val = (double)v, delta;

	if (v > s->max)
		s->max = v;
	if (v < s->min)
		s->min = v;
	delta = val - s->mean;
	if (delta) {
		s->mean += delta / ((double)s->samples + 1.0);
		s->S += delta * (val - s->mean);
	}
	s->samples++;
}

void fio_stat_sum(struct fio_stat *dst, const struct fio_stat *src, bool pure)
{
	bool first = dst->samples == 0;
	double n1 = (double)dst->samples, n2 = (double)src->samples, delta;

	if (!src->samples)
		return;
	if (first) {
		*dst = *src;
		return;
	}
	if (pure) {
		/* stat.c's sum_stat(.., true): a group's bandwidth at each
		 * sample is the sum of its clones' */
		dst->min += src->min;
		dst->max += src->max;
		dst->samples += src->samples;
		dst->mean += src->mean;
		dst->S += src->S;
		return;
	}
	delta = src->mean - dst->mean;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->mean = (src->mean * n2 + dst->mean * n1) / (n1 + n2);
	dst->S = src->S + dst->S + delta * delta * (n1 * n2) / (n1 + n2);
	dst->samples += src->samples;
}

bool fio_stat_calc(const struct fio_stat *s, uint64_t *min, uint64_t *max,
		   double *mean, double *dev)
{
	double n = (double)s->samples;

	*min = *max = 0;
	*mean = *dev = 0;
	if (!s->samples)
		return false;
	*min = s->min;
	*max = s->max;
	*mean = s->mean;
	*dev = n > 1 ? sqrt(s->S / (n - 1)) : 0;
	return true;
}

uint64_t fio_io_bw(uint64_t bytes, uint64_t lat)
{
	return lat ? bytes * 1000000ULL / lat : 0;
}

void fio_clone_init(struct fio_clone *c, const struct job_conf *conf,
		    unsigned job, unsigned unit, unsigned depth)
{
	unsigned d;
	bool avg = conf->log_avg_msec > 0;

	memset(c, 0, sizeof(*c));
	c->job = job;
	c->unit = unit;
	c->depth = depth;
	c->epoch = UINT64_MAX;
	for (d = 0; d < DDIR_NR; d++)
		fio_stat_init(&c->lat[d]);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		fio_stat_init(&c->bw[d]);
		fio_stat_init(&c->iops[d]);
		fio_stat_init(&c->avg_win[d]);
	}
	/* init.c: a log averaged over log_avg_msec samples at that period
	 * (bw_avg_time = log_avg_msec); without averaging it takes a line
	 * per I/O (per_unit_log) and the samples are those lines */
	c->bw_ms = conf->log_set[FIO_LOG_BW] ?
		conf->log_avg_msec : FIO_SAMPLE_MS;
	c->iops_ms = conf->log_set[FIO_LOG_IOPS] ?
		conf->log_avg_msec : FIO_SAMPLE_MS;
	c->avg_ms = conf->log_set[FIO_LOG_LAT] ? conf->log_avg_msec : 0;
	c->keep_ios = !avg && (conf->log_set[FIO_LOG_BW] ||
			       conf->log_set[FIO_LOG_IOPS] ||
			       conf->log_set[FIO_LOG_LAT]);
}

void fio_clone_epoch(struct fio_clone *c, sim_ns epoch)
{
	if (c->epoch == UINT64_MAX)
		c->epoch = epoch;
}

/* io_u.c's io_u_mark_latency(): bins of ns, us and ms. */
static unsigned lat_bin(uint64_t v)
{
	static const unsigned edge[] = { 2, 4, 10, 20, 50, 100, 250, 500,
					 750, 1000, 2000 };
	unsigned i = 0;

	while (i < sizeof(edge) / sizeof(edge[0]) && v >= edge[i])
		i++;
	return i;
}

static void mark_latency(struct fio_clone *c, uint64_t ns)
{
	if (ns < 1000)
		c->lat_n[lat_bin(ns)]++;
	else if (ns < 1000000)
		c->lat_u[lat_bin(ns / 1000)]++;
	else
		c->lat_m[lat_bin(ns / 1000000)]++;
}

/* Room for one more of n items of size sz in *p (cap *cap). */
static void *grow(void *p, uint64_t *cap, uint64_t n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	while (*cap <= n)
		*cap *= 2;
	return xrealloc(p, *cap * sz);
}

/* Period k of *a (n recorded, room for cap), zeroed up to it. */
static struct fio_period *period_at(struct fio_period **a, uint64_t *n,
				    uint64_t *cap, uint64_t k)
{
	if (k >= *n) {
		*a = grow(*a, cap, k, sizeof(**a));
		memset(*a + *n, 0, (k + 1 - *n) * sizeof(**a));
		*n = k + 1;
	}
	return *a + k;
}

/* stat.c's __add_stat_to_log(): direction d's window, if it holds a
 * sample, as a line at ms (its mean, rounded), and a new window. */
static void avg_flush(struct fio_clone *c, unsigned d, uint64_t ms)
{
	struct fio_stat *w = &c->avg_win[d];
	struct fio_line *l;

	if (!w->samples)
		return;
	c->avg = grow(c->avg, &c->capavg, c->navg, sizeof(*c->avg));
	l = &c->avg[c->navg++];
	l->t_ms = ms;
	l->value = (uint64_t)(w->mean + 0.50);
	l->ddir = (uint8_t)d;
	fio_stat_init(w);
}

/* A sample in the averaged latency log: stat.c's add_log_sample() with
 * avg_msec, for an inline log (no slack): the window closes at the
 * first sample avg_msec past its start, that sample in it. */
static void avg_add(struct fio_clone *c, uint64_t ms, uint64_t lat,
		    unsigned d)
{
	fio_stat_add(&c->avg_win[d], lat);
	if (ms < c->avg_last[d] || ms - c->avg_last[d] < c->avg_ms)
		return;
	avg_flush(c, d, ms);
	c->avg_last[d] = ms - ms % c->avg_ms;
}

void fio_clone_add(struct fio_clone *c, sim_ns end, uint64_t lat,
		   uint32_t bytes, unsigned ddir, uint64_t *kept)
{
	uint64_t ms;

	c->ios[ddir]++;
	c->bytes[ddir] += bytes;
	fio_stat_add(&c->lat[ddir], lat);
	/* a sync is counted in its own stat alone (io_completed()) */
	if (ddir >= DDIR_RWDIR_CNT)
		return;
	mark_latency(c, lat);
	ms = end > c->epoch ? (end - c->epoch) / NSEC_PER_MSEC : 0;
	if (c->avg_ms)
		avg_add(c, ms, lat, ddir);
	if (c->keep_ios && !c->cut) {
		struct fio_io *io;

		if (*kept >= FIO_IOS_MAX) {
			c->cut = true;
		} else {
			c->io = grow(c->io, &c->capio, c->nio, sizeof(*c->io));
			io = &c->io[c->nio++];
			io->end = end;
			io->lat = lat;
			io->bytes = bytes;
			io->ddir = (uint8_t)ddir;
			++*kept;
		}
	}
	if (c->bw_ms || c->iops_ms) {
		uint64_t since = end - c->epoch;
		uint64_t kb = c->bw_ms ? since / (c->bw_ms * NSEC_PER_MSEC) : 0;
		uint64_t ki = c->iops_ms ?
			since / (c->iops_ms * NSEC_PER_MSEC) : 0;

		if (kb >= FIO_PERIODS_MAX || ki >= FIO_PERIODS_MAX) {
			c->cut = true;
			return;
		}
		if (c->bw_ms)
			period_at(&c->bwp, &c->nbwp, &c->capbwp,
				  kb)->v[ddir] += bytes;
		if (c->iops_ms)
			period_at(&c->iopsp, &c->niopsp, &c->capiopsp,
				  ki)->v[ddir]++;
	}
}

void fio_clone_periods(const struct fio_clone *c, bool bw, fio_sample_fn *fn,
		       void *ctx)
{
	const struct fio_period *p = bw ? c->bwp : c->iopsp;
	uint64_t n = bw ? c->nbwp : c->niopsp, k;
	unsigned ms = bw ? c->bw_ms : c->iops_ms, d;

	if (!ms || !c->ran)
		return;
	/* the sample at the end of period k, taken while the clone runs
	 * (calc_log_samples() skips a job that is not running), over the
	 * period's ms: KiB/s for bandwidth, I/Os per second */
	for (k = 0; k < n; k++) {
		uint64_t t_ms = (k + 1) * ms;

		if (c->epoch + t_ms * NSEC_PER_MSEC >= c->end)
			break;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t delta = p[k].v[d];

			if (!delta)
				continue;
			fn(ctx, t_ms, bw ? delta * 1000 / ms / 1024 :
			   delta * 1000 / ms, d);
		}
	}
}

static void stat_sample(void *ctx, uint64_t t_ms, uint64_t value,
			unsigned ddir)
{
	struct fio_stat *s = ctx;

	fio_stat_add(&s[ddir], value);
}

void fio_clone_close(struct fio_clone *c, sim_ns end, sim_ns runtime)
{
	uint64_t i, ms;
	unsigned d;

	c->end = end;
	c->runtime = runtime;
	if (c->epoch == UINT64_MAX)
		c->epoch = end;
	/* finalize_logs(): each direction's open window, at the end */
	ms = end > c->epoch ? (end - c->epoch) / NSEC_PER_MSEC : 0;
	for (d = 0; c->avg_ms && d < DDIR_RWDIR_CNT; d++)
		avg_flush(c, d, ms);
	/* fio's bw_stat and iops_stat: the periods' samples, or with a log
	 * of a line per I/O, each I/O's (add_bw_sample, add_iops_sample) */
	fio_clone_periods(c, true, stat_sample, c->bw);
	fio_clone_periods(c, false, stat_sample, c->iops);
	for (i = 0; i < c->nio; i++) {
		const struct fio_io *io = &c->io[i];

		if (!c->bw_ms)
			fio_stat_add(&c->bw[io->ddir],
				     fio_io_bw(io->bytes, io->lat));
		if (!c->iops_ms)
			fio_stat_add(&c->iops[io->ddir], 1);
	}
}

void fio_clone_free(struct fio_clone *c)
{
	free(c->io);
	free(c->avg);
	free(c->bwp);
	free(c->iopsp);
	c->io = NULL;
	c->avg = NULL;
	c->bwp = c->iopsp = NULL;
}
