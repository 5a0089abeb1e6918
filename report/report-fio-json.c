/*
 * report-fio-json.c: a run as fio 3.33's --output-format=json and json+
 * (stat.c's show_thread_status_json, add_ddir_status_json and
 * json_array_add_disk_util; json.c's layout: two spaces a level,
 * "key" : value, floats as %f), so that fio's tools and the scripts
 * written for fio's JSON read it.  Beside fio's keys, an "mpsim" object
 * says what produced it.  The keys mpsim cannot fill hold 0, as fio's
 * for a figure it did not measure (docs/outputs.md lists them).
 */
#include <string.h>

#include "report-fio.h"

/* ---- fio's JSON layout ---- */

struct fj {
	FILE *f;
	unsigned depth;			/* containers open */
	unsigned count[16];		/* members written in each */
};

static void fj_indent(struct fj *j, unsigned level)
{
	while (level--)
		fputs("  ", j->f);
}

/* The start of a member: the comma, the indent, and its key if any. */
static void fj_member(struct fj *j, const char *key)
{
	if (j->count[j->depth]++)
		fputs(",\n", j->f);
	fj_indent(j, j->depth);
	if (key)
		fprintf(j->f, "\"%s\" : ", key);
}

static void fj_open(struct fj *j, const char *key, char brace)
{
	if (j->depth)
		fj_member(j, key);
	fprintf(j->f, "%c\n", brace);
	j->count[++j->depth] = 0;
}

static void fj_close(struct fj *j, char brace)
{
	fputc('\n', j->f);
	fj_indent(j, --j->depth);
	fputc(brace, j->f);
}

static void fj_int(struct fj *j, const char *key, uint64_t v)
{
	fj_member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

static void fj_float(struct fj *j, const char *key, double v)
{
	fj_member(j, key);
	fprintf(j->f, "%f", v);
}

static void fj_str(struct fj *j, const char *key, const char *s)
{
	fj_member(j, key);
	json_string(j->f, s);
}

/* ---- the parts ---- */

/* add_ddir_lat_json(): one latency's figures, its percentiles when it
 * has samples, and with json+ its histogram's bins. */
static void lat_json(struct fj *j, const char *key, const struct fio_unit *u,
		     const struct fio_stat *st, const struct lat_hist *h,
		     bool pct, bool plus)
{
	uint64_t min, max;
	double mean, dev;
	char k[64];
	unsigned i, b;

	fio_stat_calc(st, &min, &max, &mean, &dev);
	fj_open(j, key, '{');
	fj_int(j, "min", min);
	fj_int(j, "max", max);
	fj_float(j, "mean", mean);
	fj_float(j, "stddev", dev);
	fj_int(j, "N", st->samples);
	if (pct && st->samples && h) {
		fj_open(j, "percentile", '{');
		for (i = 0; i < u->npct; i++) {
			snprintf(k, sizeof(k), "%f", u->pct[i]);
			fj_int(j, k, fio_percentile(h, u->pct[i]));
		}
		fj_close(j, '}');
		if (plus) {
			/* fio's io_u_plat: its last bucket holds every
			 * longer latency */
			fj_open(j, "bins", '{');
			for (b = 0; b <= LAT_FIO_LAST; b++) {
				uint64_t n = h->bucket[b];

				if (b == LAT_FIO_LAST)
					for (i = b + 1; i < LAT_BUCKETS; i++)
						n += h->bucket[i];
				if (!n)
					continue;
				snprintf(k, sizeof(k), "%llu", (unsigned long long)
					 lat_bucket_fio(b));
				fj_int(j, k, n);
			}
			fj_close(j, '}');
		}
	}
	fj_close(j, '}');
}

static const struct fio_stat no_stat = { .min = UINT64_MAX };

/* add_ddir_status_json() for read, write and trim. */
static void ddir_json(struct fj *j, const struct fio_report *fr,
		      const struct fio_unit *u, unsigned d, bool plus)
{
	const struct lat_hist *h = fio_unit_hist(u, d);
	uint64_t bw = fio_bw_bytes(u, d), min, max;
	double mean, dev, agg = 0;

	fj_open(j, fio_ddir_name(d), '{');
	fj_int(j, "io_bytes", u->bytes[d]);
	fj_int(j, "io_kbytes", u->bytes[d] >> 10);
	fj_int(j, "bw_bytes", bw);
	fj_int(j, "bw", bw / 1024);
	fj_float(j, "iops", fio_iops(u, d));
	fj_int(j, "runtime", u->runtime_ms[d]);
	fj_int(j, "total_ios", u->ios[d]);
	fj_int(j, "short_ios", 0);
	fj_int(j, "drop_ios", 0);
	/* no submission latency: clat is the whole, as lat is */
	lat_json(j, "slat_ns", u, &no_stat, NULL, false, false);
	lat_json(j, "clat_ns", u, &u->lat[d], h, true, plus);
	lat_json(j, "lat_ns", u, &u->lat[d], h, false, false);
	if (fio_stat_calc(&u->bw[d], &min, &max, &mean, &dev))
		agg = fio_bw_agg(fr, u, d, mean);
	fj_int(j, "bw_min", min);
	fj_int(j, "bw_max", max);
	fj_float(j, "bw_agg", agg);
	fj_float(j, "bw_mean", mean);
	fj_float(j, "bw_dev", dev);
	fj_int(j, "bw_samples", u->bw[d].samples);
	fio_stat_calc(&u->iops[d], &min, &max, &mean, &dev);
	fj_int(j, "iops_min", min);
	fj_int(j, "iops_max", max);
	fj_float(j, "iops_mean", mean);
	fj_float(j, "iops_stddev", dev);
	fj_int(j, "iops_samples", u->iops[d].samples);
	fj_close(j, '}');
}

/* The distribution objects fio fills from its io_u_map and io_u_lat. */
static void dist_json(struct fj *j, const char *key, const char *const *name,
		      const double *v, unsigned n)
{
	unsigned i;

	fj_open(j, key, '{');
	for (i = 0; i < n; i++)
		fj_float(j, name[i], v ? v[i] : 0);
	fj_close(j, '}');
}

static bool bs_one(const struct job_conf *c)
{
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (c->bsd[d].nr_split || c->bsd[d].min != c->bsd[d].max ||
		    c->bsd[d].min != c->bs)
			return false;
	return true;
}

/* The job's options as mpsim resolved them (fio lists those given). */
static void options_json(struct fj *j, const struct fio_unit *u)
{
	const struct job_conf *c = u->conf;
	char v[64];

	fj_open(j, "job options", '{');
	fj_str(j, "name", u->jr->name);
	if (c) {
		fj_str(j, "rw", rw_name(c->rw));
		/* one block size for every direction */
		if (bs_one(c)) {
			snprintf(v, sizeof(v), "%llu", (unsigned long long)c->bs);
			fj_str(j, "bs", v);
		}
		fj_str(j, "ioengine", ioengine_name(c->ioengine));
		snprintf(v, sizeof(v), "%u", c->iodepth);
		fj_str(j, "iodepth", v);
		if (c->numjobs > 1) {
			snprintf(v, sizeof(v), "%u", c->numjobs);
			fj_str(j, "numjobs", v);
		}
	}
	fj_close(j, '}');
}

static void job_json(struct fj *j, const struct fio_report *fr,
		     const struct fio_unit *u, bool plus)
{
	static const char *const depth[] = { "1", "2", "4", "8", "16", "32",
					     ">=64" };
	static const char *const sub[] = { "0", "4", "8", "16", "32", "64",
					   ">=64" };
	static const char *const ranges[] = { "2", "4", "10", "20", "50",
		"100", "250", "500", "750", "1000", "2000", ">=2000" };
	const struct lat_hist *sh = fio_unit_hist(u, DDIR_SYNC);
	double dist[FIO_LAT_M_NR];
	unsigned d;

	fj_open(j, NULL, '{');
	fj_str(j, "jobname", u->jr->name);
	fj_int(j, "groupid", u->jr->group);
	fj_int(j, "error", 0);
	fj_int(j, "eta", 0);
	fj_int(j, "elapsed", (fr->r->elapsed + NSEC_PER_SEC - 1) /
	       NSEC_PER_SEC);
	options_json(j, u);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		ddir_json(j, fr, u, d, plus);
	fj_open(j, "sync", '{');
	fj_int(j, "total_ios", u->ios[DDIR_SYNC]);
	lat_json(j, "lat_ns", u, &u->lat[DDIR_SYNC], sh, true, plus);
	fj_close(j, '}');
	fj_int(j, "job_runtime", u->total_run_time);
	fj_float(j, "usr_cpu", 0);
	fj_float(j, "sys_cpu", 0);
	fj_int(j, "ctx", 0);
	fj_int(j, "majf", 0);
	fj_int(j, "minf", 0);
	dist_json(j, "iodepth_level", depth, NULL, 7);
	dist_json(j, "iodepth_submit", sub, NULL, 7);
	dist_json(j, "iodepth_complete", sub, NULL, 7);
	fio_lat_dist(u, u->lat_n, FIO_LAT_N_NR, dist);
	dist_json(j, "latency_ns", ranges, dist, FIO_LAT_N_NR);
	fio_lat_dist(u, u->lat_u, FIO_LAT_U_NR, dist);
	dist_json(j, "latency_us", ranges, dist, FIO_LAT_U_NR);
	fio_lat_dist(u, u->lat_m, FIO_LAT_M_NR, dist);
	dist_json(j, "latency_ms", ranges, dist, FIO_LAT_M_NR);
	/* fio 3.33 sets latency_depth to the job's depth for every job */
	fj_int(j, "latency_depth", u->depth);
	fj_int(j, "latency_target", 0);
	fj_float(j, "latency_percentile", 100.0);
	fj_int(j, "latency_window", 0);
	fj_close(j, '}');
}

/* What produced it: the "mpsim" object of mpsim's own JSON. */
static void mpsim_json(struct fj *j, const struct fio_report *fr)
{
	const struct scenario *sc = fr->sc;
	const struct provenance *pv = fr->pv;

	fj_open(j, "mpsim", '{');
	fj_str(j, "version", MPSIM_VERSION);
	fj_str(j, "scenario", pv->scenario);
	fj_int(j, "seed", pv->seed);
	fj_str(j, "selector", sc->selector);
	fj_str(j, "clock", start_clock_name(sc->clock));
	fj_str(j, "mode", sc->mode == MODE_BIO ? "bio" : "request");
	fj_int(j, "hz", sc->hz);
	fj_str(j, "command_line", pv->options ? pv->options : "");
	fj_close(j, '}');
}

void fio_json(FILE *f, const struct fio_report *fr, bool plus)
{
	struct fj j = { .f = f };
	const struct run_result *r = fr->r;
	unsigned i;

	fj_open(&j, NULL, '{');
	fj_str(&j, "fio version", FIO_VERSION);
	/* a simulated run has no date: the epoch keeps the output the same
	 * for the same options and seed */
	fj_int(&j, "timestamp", 0);
	fj_int(&j, "timestamp_ms", 0);
	fj_str(&j, "time", "Thu Jan  1 00:00:00 1970");
	mpsim_json(&j, fr);
	fj_open(&j, "jobs", '[');
	for (i = 0; i < r->nr_jobs; i++)
		job_json(&j, fr, &fr->unit[i], plus);
	fj_close(&j, ']');
	fj_open(&j, "disk_util", '[');
	for (i = 0; i < r->nr_paths; i++) {
		const struct fio_disk *k = &fr->disk[i];

		fj_open(&j, NULL, '{');
		fj_str(&j, "name", k->name);
		fj_int(&j, "read_ios", k->ios[0]);
		fj_int(&j, "write_ios", k->ios[1]);
		fj_int(&j, "read_merges", 0);
		fj_int(&j, "write_merges", 0);
		fj_int(&j, "read_ticks", k->ticks[0]);
		fj_int(&j, "write_ticks", k->ticks[1]);
		fj_int(&j, "in_queue", k->in_queue);
		fj_float(&j, "util", k->util);
		fj_close(&j, '}');
	}
	fj_close(&j, ']');
	fj_close(&j, '}');
	fputc('\n', f);
}
