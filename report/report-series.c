/*
 * report-series.c: the time series of a run (sim/series.h) as long-form
 * CSV (--series=FILE) and as a "series" array under each path in JSON.
 * A figure with nothing to measure (the latency of an interval without
 * completions, the share of an interval without I/O) is left empty in
 * CSV and null in JSON, never written as 0.
 */
#include <math.h>

#include "report.h"
#include "sim/series.h"

/* One row's figures, shared by CSV and JSON; NAN where empty. */
struct srow {
	double t0, t1;			/* s after the run's start */
	uint64_t ios, errors;
	double iops, share, busy, inflight, lat_mean, lat_p99, estimate;
};

static void srow_fill(struct srow *w, const struct series *sr, unsigned k,
		      unsigned p)
{
	const struct series_row *r = series_at(sr, k, p);
	const struct series_row *tot = series_at(sr, k, sr->nr_paths);
	double len = (double)(sr->t_end[k] - sr->t_start[k]);

	w->t0 = (double)sr->t_start[k] / 1e9;
	w->t1 = (double)sr->t_end[k] / 1e9;
	w->ios = r->ios;
	w->errors = r->errors;
	w->iops = (double)r->ios * 1e9 / len;
	w->share = tot->ios ? (double)r->ios / (double)tot->ios : NAN;
	w->busy = p < sr->nr_paths ? (double)r->busy / len : NAN;
	w->inflight = (double)r->inflight / len;
	w->lat_mean = r->lat_count ?
		(double)r->lat_sum / (double)r->lat_count / 1e3 : NAN;
	w->lat_p99 = r->lat_count ? r->lat_p99 / 1e3 : NAN;
	w->estimate = r->has_estimate ? r->estimate : NAN;
}

/* v with d decimals, or nothing (CSV) / null (JSON) when it is NAN. */
static void num(FILE *f, int d, double v, bool json)
{
	if (isnan(v))
		fputs(json ? "null" : "", f);
	else
		fprintf(f, "%.*f", d, v);
}

void series_csv_head(FILE *f, const struct provenance *pv)
{
	fprintf(f, "# mpsim %s series: scenario %s, seed %llu%s%s\n",
		MPSIM_VERSION, pv->scenario, (unsigned long long)pv->seed,
		pv->options && *pv->options ? ", options: " : "",
		pv->options ? pv->options : "");
	fputs("selector,clock,interval,t_start_s,t_end_s,path,ios,iops,share,"
	      "busy,inflight_mean,lat_mean_us,lat_p99_us,errors,estimate,"
	      "estimate_name\n", f);
}

void series_csv(FILE *f, const char *selector, const char *clock,
		const struct run_result *r)
{
	const struct series *sr = r->series;
	struct srow w;
	unsigned k, p;

	for (k = 0; k < sr->n; k++)
		for (p = 0; p <= sr->nr_paths; p++) {
			srow_fill(&w, sr, k, p);
			fprintf(f, "%s,%s,%u,%.6f,%.6f,%s,%llu,%.1f,", selector,
				clock, k, w.t0, w.t1, p < sr->nr_paths ?
				r->names[p] : "total",
				(unsigned long long)w.ios, w.iops);
			num(f, 6, w.share, false);
			fputc(',', f);
			num(f, 6, w.busy, false);
			fprintf(f, ",%.4f,", w.inflight);
			num(f, 3, w.lat_mean, false);
			fputc(',', f);
			num(f, 3, w.lat_p99, false);
			fprintf(f, ",%llu,", (unsigned long long)w.errors);
			num(f, 3, w.estimate, false);
			fprintf(f, ",%s\n", isnan(w.estimate) ? "" :
				sr->estimate_name);
		}
}

void series_json_meta(FILE *f, const struct run_result *r)
{
	const struct series *sr = r->series;

	fprintf(f, ",\n \"series\": {\"interval_s\": %.9g, \"estimate\": ",
		(double)sr->interval / 1e9);
	if (sr->estimate_name)
		json_string(f, sr->estimate_name);
	else
		fputs("null", f);
	fputc('}', f);
}

void series_json(FILE *f, const struct run_result *r, unsigned p)
{
	const struct series *sr = r->series;
	struct srow w;
	unsigned k;

	fputs(", \"series\": [", f);
	for (k = 0; k < sr->n; k++) {
		srow_fill(&w, sr, k, p);
		fprintf(f, "%s{\"t_start_s\": %.6f, \"t_end_s\": %.6f, "
			"\"ios\": %llu, \"iops\": %.1f, \"share\": ",
			k ? ",\n    " : "\n    ", w.t0, w.t1,
			(unsigned long long)w.ios, w.iops);
		num(f, 6, w.share, true);
		if (p < sr->nr_paths) {
			fputs(", \"busy\": ", f);
			num(f, 6, w.busy, true);
		}
		fprintf(f, ", \"inflight_mean\": %.4f, \"lat_mean_us\": ",
			w.inflight);
		num(f, 3, w.lat_mean, true);
		fputs(", \"lat_p99_us\": ", f);
		num(f, 3, w.lat_p99, true);
		fprintf(f, ", \"errors\": %llu", (unsigned long long)w.errors);
		if (p < sr->nr_paths) {
			fputs(", \"estimate\": ", f);
			num(f, 3, w.estimate, true);
		}
		fputc('}', f);
	}
	fputc(']', f);
}
