/*
 * series.c: recording the time series of series.h.  At each interval
 * boundary every per-path figure is read as the difference of a
 * cumulative counter between this boundary and the previous one, so the
 * intervals add up to the window's totals by construction:
 *
 *   ios, bytes, errors   path_stats, counted while measuring;
 *   busy                 path_stats.busy plus the busy period still open;
 *   in flight            A(t) = sum(end_io times) + t * inflight(t)
 *                        - sum(start_io times) is the integral of the
 *                        in-flight count from 0 to t (each I/O adds its
 *                        time in flight up to t); A(t2) - A(t1) is exact
 *                        in u64 arithmetic modulo 2^64 since the true
 *                        difference is far below 2^64;
 *   latency              the path's histogram less its state at the
 *                        previous boundary, over the buckets in use.
 */
#include <stdlib.h>
#include <string.h>

#include "selectors/selector.h"

#include "engine.h"
#include "series.h"

/* A path's cumulative counters at the open interval's start; lat[d]:
 * direction d's histogram then, once the direction has had I/O. */
struct series_mark {
	uint64_t ios, bytes, errors;
	sim_ns busy;
	uint64_t inflight;
	struct lat_hist *lat[DDIR_NR];
};

unsigned series_max_intervals(unsigned nr_paths)
{
	return SERIES_MAX_ROWS / (nr_paths + 1);
}

int series_check(sim_ns interval, sim_ns window, unsigned nr_paths,
		 char *err)
{
	uint64_t n;

	if (!interval)
		return input_error(err, "--interval: must be longer than 0");
	n = window / interval + (window % interval != 0);
	if (window && n > series_max_intervals(nr_paths))
		return input_error(err, "--interval: %llu ns cuts the run into "
				   "%llu intervals of %u rows (%u paths and the "
				   "total), %.3g rows in all, past the limit of "
				   "%u rows (some %u MB); give a longer one",
				   (unsigned long long)interval,
				   (unsigned long long)n, nr_paths + 1, nr_paths,
				   (double)n * (nr_paths + 1), SERIES_MAX_ROWS,
				   (unsigned)(SERIES_MAX_ROWS *
					      sizeof(struct series_row) / 1000000));
	return 0;
}

struct series *series_new(sim_ns interval, unsigned nr_paths)
{
	struct series *sr = xcalloc(1, sizeof(*sr));

	sr->interval = interval;
	sr->nr_paths = nr_paths;
	sr->prev = xcalloc(nr_paths, sizeof(*sr->prev));
	sr->hist = xcalloc(LAT_BUCKETS, sizeof(*sr->hist));
	sr->phist = xcalloc(LAT_BUCKETS, sizeof(*sr->phist));
	sr->next = UINT64_MAX;
	return sr;
}

void series_free(struct series *sr)
{
	unsigned i, d;

	if (!sr)
		return;
	for (i = 0; i < sr->nr_paths; i++)
		for (d = 0; d < DDIR_NR; d++)
			free(sr->prev[i].lat[d]);
	free(sr->prev);
	free(sr->dmsetup);
	free(sr->hist);
	free(sr->phist);
	free(sr->t_start);
	free(sr->t_end);
	free(sr->rows);
	free(sr);
}

static sim_ns cum_busy(const struct sim_path *p, sim_ns t)
{
	return p->stats->busy + (p->busy ? t - p->busy_since : 0);
}

static uint64_t cum_inflight(const struct sim_path *p, sim_ns t)
{
	return p->inflight_t_out + t * p->inflight - p->inflight_t_in;
}

/* Completions and their bytes so far: the directions' counters (the
 * path's own are summed from them when the window closes). */
static void cum_ios(const struct sim_path *p, uint64_t *ios, uint64_t *bytes)
{
	unsigned d;

	*ios = *bytes = 0;
	for (d = 0; d < DDIR_NR; d++)
		if (p->stats->dir[d]) {
			*ios += p->stats->dir[d]->ios;
			*bytes += p->stats->dir[d]->bytes;
		}
}

static void mark_take(struct series_mark *m, const struct sim_path *p,
		      sim_ns t)
{
	unsigned d;

	cum_ios(p, &m->ios, &m->bytes);
	m->errors = p->stats->errors;
	m->busy = cum_busy(p, t);
	m->inflight = cum_inflight(p, t);
	for (d = 0; d < DDIR_NR; d++)
		if (p->stats->dir[d]) {
			if (!m->lat[d])
				m->lat[d] = xmalloc(sizeof(*m->lat[d]));
			*m->lat[d] = p->stats->dir[d]->lat;
		}
}

void series_open(struct sim *s)
{
	struct series *sr = s->series;
	unsigned i;

	if (!sr)
		return;
	for (i = 0; i < s->nr_paths; i++)
		mark_take(&sr->prev[i], &s->paths[i], s->now);
	sr->open_at = s->now;
	sr->next = s->now + sr->interval;
	sim_mark_at(s, sr->next);
}

/*
 * The latencies now gained since then (then: the same histogram at the
 * previous boundary, or NULL before its first I/O), added into acc over
 * the buckets in use (lo..hi widened to them), their count and sum into
 * row.  Then becomes now, over those buckets only.
 */
static void lat_gain(struct lat_hist **thenp, const struct lat_hist *now,
		     uint64_t *acc, unsigned *lo, unsigned *hi,
		     struct series_row *row)
{
	struct lat_hist *then = *thenp;
	unsigned a, b, i;

	if (!then) {
		then = *thenp = xcalloc(1, sizeof(*then));
		then->min = UINT64_MAX;
	}
	if (now->count == then->count)
		return;
	row->lat_count += now->count - then->count;
	row->lat_sum += now->sum - then->sum;
	a = lat_bucket(now->min);
	b = lat_bucket(now->max);
	for (i = a; i <= b; i++)
		acc[i] += now->bucket[i] - then->bucket[i];
	memcpy(&then->bucket[a], &now->bucket[a],
	       (b - a + 1) * sizeof(now->bucket[0]));
	then->count = now->count;
	then->sum = now->sum;
	then->min = now->min;
	then->max = now->max;
	if (a < *lo)
		*lo = a;
	if (b > *hi)
		*hi = b;
}

static struct series_row *row_new(struct series *sr, sim_ns from, sim_ns to,
				  sim_ns start)
{
	unsigned per = sr->nr_paths + 1;

	if (sr->n == sr->cap) {
		sr->cap = sr->cap ? 2 * sr->cap : 64;
		sr->t_start = xrealloc(sr->t_start,
				       sr->cap * sizeof(*sr->t_start));
		sr->t_end = xrealloc(sr->t_end, sr->cap * sizeof(*sr->t_end));
		sr->rows = xrealloc(sr->rows,
				    (uint64_t)sr->cap * per * sizeof(*sr->rows));
	}
	sr->t_start[sr->n] = from - start;
	sr->t_end[sr->n] = to - start;
	memset(&sr->rows[(uint64_t)sr->n * per], 0, per * sizeof(*sr->rows));
	return &sr->rows[(uint64_t)sr->n++ * per];
}

/*
 * Path p's latencies of the interval: the directions' gains summed in
 * sr->phist, their p99, then added into the total's sr->hist (its range
 * widened to tlo..thi) and sr->phist cleared again.
 */
static void path_lat(struct series *sr, struct series_mark *m,
		     const struct sim_path *p, struct series_row *r,
		     unsigned *tlo, unsigned *thi)
{
	unsigned d, i, lo = LAT_BUCKETS, hi = 0;

	for (d = 0; d < DDIR_NR; d++) {
		const struct ddir_stats *ds = p->stats->dir[d];

		if (!ds || !ds->lat.count)
			continue;
		lat_gain(&m->lat[d], &ds->lat, sr->phist, &lo, &hi, r);
	}
	if (!r->lat_count)
		return;		/* nothing gained: phist untouched */
	r->lat_p99 = lat_buckets_quantile(sr->phist, lo, hi, r->lat_count,
					  0.99);
	for (i = lo; i <= hi; i++) {
		sr->hist[i] += sr->phist[i];
		sr->phist[i] = 0;
	}
	if (lo < *tlo)
		*tlo = lo;
	if (hi > *thi)
		*thi = hi;
}

/*
 * The selector's estimate of path: the first word of its trace status,
 * "key=integer", the value its select_path compares first (hst for HST,
 * in_flight_size for ST, qlen for QL), read through the one status
 * function of the contract; its key names the series' estimate.  False
 * when the selector compares none (round-robin).
 */
static bool estimate(struct series *sr, struct path_selector *ps,
		     struct ps_path *path, double *v)
{
	char buf[256], *eq, *sp, *end;
	size_t klen;

	if (!ps->type->status)
		return false;
	buf[0] = '\0';
	ps->type->status(ps, path, PS_STATUS_TRACE, buf, sizeof(buf));
	eq = strchr(buf, '=');
	sp = strchr(buf, ' ');
	klen = eq ? (size_t)(eq - buf) : 0;
	if (!klen || klen >= sizeof(sr->estimate_key) || (sp && sp < eq))
		return false;
	*v = strtod(eq + 1, &end);
	if (end == eq + 1)
		return false;
	memcpy(sr->estimate_key, buf, klen);
	sr->estimate_key[klen] = '\0';
	sr->estimate_name = sr->estimate_key;
	return true;
}

/* Close the open interval at t (no event between it and t has run). */
static void interval_close(struct sim *s, sim_ns t)
{
	struct series *sr = s->series;
	struct series_row *rows, *tot;
	unsigned i, lo = LAT_BUCKETS, hi = 0;

	if (sr->n >= series_max_intervals(sr->nr_paths)) {
		mpsim_warn("--interval: the series stops after %u intervals "
			   "of %u paths (%u rows, the limit), at %.6f s; give "
			   "a longer interval",
			   series_max_intervals(sr->nr_paths), sr->nr_paths,
			   series_max_intervals(sr->nr_paths) *
			   (sr->nr_paths + 1),
			   (double)(sr->open_at - s->start) / 1e9);
		sr->next = UINT64_MAX;
		return;
	}
	if (sr->want_dmsetup) {
		char *lines = mpath_dmsetup(&s->mp), head[48];
		size_t hl = (size_t)snprintf(head, sizeof(head), "# %.6f s\n",
					     (double)(t - s->start) / 1e9);
		size_t ll = strlen(lines);

		sr->dmsetup = xrealloc(sr->dmsetup, sr->dmsetup_len + hl + ll + 1);
		memcpy(sr->dmsetup + sr->dmsetup_len, head, hl);
		memcpy(sr->dmsetup + sr->dmsetup_len + hl, lines, ll + 1);
		sr->dmsetup_len += hl + ll;
		free(lines);
	}
	rows = row_new(sr, sr->open_at, t, s->start);
	tot = &rows[s->nr_paths];
	for (i = 0; i < s->nr_paths; i++) {
		const struct sim_path *p = &s->paths[i];
		struct series_mark *m = &sr->prev[i];
		struct series_row *r = &rows[i];
		sim_ns busy = cum_busy(p, t);
		uint64_t infl = cum_inflight(p, t), ios, bytes;

		cum_ios(p, &ios, &bytes);
		r->ios = ios - m->ios;
		r->bytes = bytes - m->bytes;
		r->errors = p->stats->errors - m->errors;
		r->busy = busy - m->busy;
		r->inflight = infl - m->inflight;
		m->ios = ios;
		m->bytes = bytes;
		m->errors = p->stats->errors;
		m->busy = busy;
		m->inflight = infl;
		path_lat(sr, m, p, r, &lo, &hi);
		r->has_estimate = estimate(sr, &p->pg->ps, (struct ps_path *)p,
					   &r->estimate);
		tot->ios += r->ios;
		tot->bytes += r->bytes;
		tot->errors += r->errors;
		tot->inflight += r->inflight;
		tot->lat_count += r->lat_count;
		tot->lat_sum += r->lat_sum;
	}
	if (tot->lat_count) {
		tot->lat_p99 = lat_buckets_quantile(sr->hist, lo, hi,
						    tot->lat_count, 0.99);
		memset(&sr->hist[lo], 0, (hi - lo + 1) * sizeof(sr->hist[0]));
	}
	sr->open_at = t;
}

void series_advance(struct sim *s, sim_ns t)
{
	struct series *sr = s->series;

	while (t >= sr->next) {
		interval_close(s, sr->next);
		if (sr->next != UINT64_MAX)
			sr->next += sr->interval;
	}
}

void series_close(struct sim *s)
{
	struct series *sr = s->series;

	if (!sr || !s->measuring)
		return;
	if (s->now > sr->open_at && sr->next != UINT64_MAX)
		interval_close(s, s->now);
	sr->ends_at_run_end = s->now == sr->open_at;
	sr->next = UINT64_MAX;
}
