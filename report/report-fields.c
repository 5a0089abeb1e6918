/*
 * report-fields.c: the fields of one run's result for programs, and how
 * CSV and JSON write them.  One list of fields serves both formats, so
 * they cannot drift apart: a CSV column is the JSON key, prefixed with
 * its direction ("read_lat_p99_us" is paths[i].read.lat_p99_us); a row
 * leaves empty the columns that do not apply to it, where JSON has no
 * key.  docs/output.schema.json describes the JSON; README "Output" the
 * fields.
 */
#include <string.h>

#include "report.h"
#include "sim/stats.h"

double report_rate(uint64_t n, sim_ns time)
{
	return time ? (double)n * 1e9 / (double)time : 0;
}

double report_ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* Which rows a field applies to. */
enum {
	R_PATH = 1,		/* one path, whole run */
	R_TOTAL = 2,		/* all paths, whole run */
	R_JOB = 4,		/* one report unit (job or group) */
	R_ALL = R_PATH | R_TOTAL | R_JOB,
};

enum field {
	F_PATH, F_IOS, F_SHARE, F_BYTES_SHARE, F_BUSY, F_BEST, F_LAT_MEAN,
	F_LAT_P50, F_LAT_P99, F_LAT_P999, F_IOPS, F_BW, F_NO_PATH, F_SIM_TIME,
	F_ERRORS, F_REQUEUED, F_FAILED, F_NO_PATH_TIME, F_JOB, F_GROUP,
	F_CLONES, F_RUNTIME, F_BYTES, F_DIRS, NR_FIELDS,
};

/* The order is the CSV's: fields only ever join at the end. */
static const struct {
	const char *key;
	unsigned rows;
} fields[NR_FIELDS] = {
	[F_PATH] = { "path", R_PATH | R_TOTAL },
	[F_IOS] = { "ios", R_ALL },
	[F_SHARE] = { "share", R_PATH | R_TOTAL },
	[F_BYTES_SHARE] = { "bytes_share", R_PATH | R_TOTAL },
	[F_BUSY] = { "busy", R_PATH },
	[F_BEST] = { "best", R_PATH },
	[F_LAT_MEAN] = { "lat_mean_us", R_ALL },
	[F_LAT_P50] = { "lat_p50_us", R_ALL },
	[F_LAT_P99] = { "lat_p99_us", R_ALL },
	[F_LAT_P999] = { "lat_p999_us", R_ALL },
	[F_IOPS] = { "iops", R_ALL },
	[F_BW] = { "bw_bytes", R_ALL },
	[F_NO_PATH] = { "no_path", R_TOTAL },
	[F_SIM_TIME] = { "sim_time_s", R_TOTAL },
	[F_ERRORS] = { "errors", R_PATH | R_TOTAL },
	[F_REQUEUED] = { "requeued", R_TOTAL },
	[F_FAILED] = { "failed", R_TOTAL },
	[F_NO_PATH_TIME] = { "no_path_time_s", R_TOTAL },
	[F_JOB] = { "job", R_JOB },
	[F_GROUP] = { "group", R_JOB },
	[F_CLONES] = { "clones", R_JOB },
	[F_RUNTIME] = { "runtime_s", R_JOB },
	[F_BYTES] = { "bytes", R_ALL },
	[F_DIRS] = { NULL, R_ALL },	/* the directions' objects */
};

/* Every row carries these per direction, in fio's order. */
static const char *const ddir_keys[] = {
	"ios", "bytes", "iops", "bw_bytes", "lat_mean_us", "lat_p50_us",
	"lat_p99_us", "lat_p999_us",
};

/* One row: what it is and the figures it reports. */
struct out_row {
	unsigned kind;			/* R_PATH, R_TOTAL or R_JOB */
	const char *name;		/* path or job name */
	const struct path_stats *st;
	sim_ns time;			/* what its rates are over */
	double best;			/* R_PATH */
	const struct job_report *job;	/* R_JOB */
};

struct out {
	FILE *f;
	enum out_format fmt;
	bool sep;			/* a field was written on this level */
};

/* Start field `k`: a comma between CSV columns, a key in JSON. */
static void put_key(struct out *o, const char *k)
{
	if (o->fmt == FMT_CSV) {
		if (o->sep)
			fputc(',', o->f);
	} else {
		fputs(o->sep ? ", " : "", o->f);
		json_string(o->f, k);
		fputs(": ", o->f);
	}
	o->sep = true;
}

static void put_num(struct out *o, const char *k, int prec, double v)
{
	put_key(o, k);
	fprintf(o->f, "%.*f", prec, v);
}

static void put_count(struct out *o, const char *k, uint64_t v)
{
	put_key(o, k);
	fprintf(o->f, "%llu", (unsigned long long)v);
}

/* No value: an empty CSV column, JSON's null. */
static void put_null(struct out *o, const char *k)
{
	put_key(o, k);
	if (o->fmt == FMT_JSON)
		fputs("null", o->f);
}

/* A latency figure: none (null) when nothing completed, never 0. */
static void put_lat(struct out *o, const char *k, const struct lat_hist *h,
		    double q)
{
	if (!h || !h->count) {
		put_null(o, k);
		return;
	}
	put_num(o, k, 3, (q ? lat_quantile(h, q) : lat_mean(h)) / 1e3);
}

static void put_lats(struct out *o, const char *const *k,
		     const struct lat_hist *h)
{
	put_lat(o, k[0], h, 0);
	put_lat(o, k[1], h, 0.50);
	put_lat(o, k[2], h, 0.99);
	put_lat(o, k[3], h, 0.999);
}

/* A CSV cell that does not apply: a comma alone. */
static void put_empty(struct out *o, unsigned n)
{
	while (n--)
		put_key(o, "");
}

static void put_dirs(struct out *o, const struct out_row *w)
{
	unsigned d;

	for (d = 0; d < DDIR_NR; d++) {
		const struct ddir_stats *ds = w->st->dir[d];
		uint64_t ios = ds ? ds->ios : 0, bytes = ds ? ds->bytes : 0;
		bool csv = o->fmt == FMT_CSV;
		char k[ARRAY_SIZE(ddir_keys)][32];
		const char *kp[ARRAY_SIZE(ddir_keys)];
		unsigned i;

		for (i = 0; i < ARRAY_SIZE(ddir_keys); i++) {
			snprintf(k[i], sizeof(k[i]), "%s%s%s",
				 csv ? fio_ddir_name(d) : "", csv ? "_" : "",
				 ddir_keys[i]);
			kp[i] = k[i];
		}
		if (!csv) {
			put_key(o, fio_ddir_name(d));
			fputc('{', o->f);
			o->sep = false;
		}
		put_count(o, kp[0], ios);
		put_count(o, kp[1], bytes);
		put_num(o, kp[2], 3, report_rate(ios, w->time));
		put_num(o, kp[3], 1, report_rate(bytes, w->time));
		put_lats(o, kp + 4, ds ? &ds->lat : NULL);
		if (!csv) {
			fputc('}', o->f);
			o->sep = true;
		}
	}
}

static void put_field(struct out *o, enum field fl, const struct out_row *w,
		      const struct run_result *r)
{
	const char *k = fields[fl].key;
	const struct path_stats *st = w->st;

	if (!(fields[fl].rows & w->kind)) {
		if (o->fmt == FMT_CSV)
			put_empty(o, fl == F_DIRS ?
				  DDIR_NR * ARRAY_SIZE(ddir_keys) : 1);
		return;
	}
	switch (fl) {
	case F_PATH:
	case F_JOB:
		put_key(o, k);
		if (o->fmt == FMT_CSV)
			csv_field(o->f, w->name);
		else
			json_string(o->f, w->name);
		break;
	case F_IOS:
		put_count(o, k, st->ios);
		break;
	case F_SHARE:
		put_num(o, k, 6, report_ratio(st->ios, r->total.ios));
		break;
	case F_BYTES_SHARE:
		put_num(o, k, 6, report_ratio(st->bytes, r->total.bytes));
		break;
	case F_BUSY:
		put_num(o, k, 6, report_ratio(st->busy, r->window));
		break;
	case F_BEST:
		put_num(o, k, 6, w->best);
		break;
	case F_LAT_MEAN:
		put_lat(o, k, &st->lat, 0);
		break;
	case F_LAT_P50:
		put_lat(o, k, &st->lat, 0.50);
		break;
	case F_LAT_P99:
		put_lat(o, k, &st->lat, 0.99);
		break;
	case F_LAT_P999:
		put_lat(o, k, &st->lat, 0.999);
		break;
	case F_IOPS:
		put_num(o, k, 3, report_rate(st->ios, w->time));
		break;
	case F_BW:
		put_num(o, k, 1, report_rate(st->bytes, w->time));
		break;
	case F_NO_PATH:
		put_count(o, k, r->no_path);
		break;
	case F_SIM_TIME:
	case F_RUNTIME:
		put_num(o, k, 6, (double)w->time / 1e9);
		break;
	case F_ERRORS:
		put_count(o, k, st->errors);
		break;
	case F_REQUEUED:
		put_count(o, k, r->requeued);
		break;
	case F_FAILED:
		put_count(o, k, r->failed);
		break;
	case F_NO_PATH_TIME:
		put_num(o, k, 6, (double)r->no_path_time / 1e9);
		break;
	case F_GROUP:
		put_count(o, k, w->job->group);
		break;
	case F_CLONES:
		put_count(o, k, w->job->clones);
		break;
	case F_BYTES:
		put_count(o, k, st->bytes);
		break;
	case F_DIRS:
		put_dirs(o, w);
		break;
	case NR_FIELDS:
		break;
	}
}

/* One row: CSV in column order; JSON an object, its name first. */
static void put_row(struct out *o, const struct out_row *w,
		    const struct run_result *r)
{
	enum field name = w->kind == R_JOB ? F_JOB : F_PATH;
	unsigned fl;

	o->sep = false;
	if (o->fmt == FMT_JSON) {
		fputc('{', o->f);
		put_field(o, name, w, r);
	}
	for (fl = 0; fl < NR_FIELDS; fl++)
		if (o->fmt == FMT_CSV || fl != name)
			put_field(o, fl, w, r);
	/* --interval's series, under each path and the total */
	if (o->fmt == FMT_JSON && r->series && w->kind != R_JOB)
		series_json(o->f, r, w->kind == R_PATH ?
			    (unsigned)(w->st - r->path) : r->nr_paths);
	fputs(o->fmt == FMT_JSON ? "}" : "\n", o->f);
}

static void row_path(struct out_row *w, const struct run_result *r,
		     unsigned i)
{
	memset(w, 0, sizeof(*w));
	w->kind = R_PATH;
	w->name = r->names[i];
	w->st = &r->path[i];
	w->time = r->window;
	w->best = r->best[i];
}

static void row_total(struct out_row *w, const struct run_result *r)
{
	memset(w, 0, sizeof(*w));
	w->kind = R_TOTAL;
	w->name = "total";
	w->st = &r->total;
	w->time = r->window;
}

static void row_job(struct out_row *w, const struct run_result *r,
		    unsigned u)
{
	memset(w, 0, sizeof(*w));
	w->kind = R_JOB;
	w->job = &r->job[u];
	w->name = w->job->name;
	w->st = &w->job->st;
	w->time = w->job->runtime;
}

void report_run_csv_header(FILE *f)
{
	unsigned fl, d, i;

	for (fl = 0; fl < F_DIRS; fl++)
		fprintf(f, "%s%s", fl ? "," : "", fields[fl].key);
	for (d = 0; d < DDIR_NR; d++)
		for (i = 0; i < ARRAY_SIZE(ddir_keys); i++)
			fprintf(f, ",%s_%s", fio_ddir_name(d), ddir_keys[i]);
	fputc('\n', f);
}

void report_run_rows(FILE *f, enum out_format fmt, const struct run_result *r)
{
	struct out o = { .f = f, .fmt = fmt };
	struct out_row w;
	unsigned i;

	if (fmt == FMT_CSV) {
		report_run_csv_header(f);
		for (i = 0; i < r->nr_paths; i++) {
			row_path(&w, r, i);
			put_row(&o, &w, r);
		}
		row_total(&w, r);
		put_row(&o, &w, r);
		for (i = 0; i < r->nr_jobs; i++) {
			row_job(&w, r, i);
			put_row(&o, &w, r);
		}
		return;
	}
	if (r->series)
		series_json_meta(f, r);
	fputs(",\n \"paths\": [", f);
	for (i = 0; i < r->nr_paths; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		row_path(&w, r, i);
		put_row(&o, &w, r);
	}
	fputs("],\n \"total\": ", f);
	row_total(&w, r);
	put_row(&o, &w, r);
	fputs(",\n \"jobs\": [", f);
	for (i = 0; i < r->nr_jobs; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		row_job(&w, r, i);
		put_row(&o, &w, r);
	}
	fputs("]}\n", f);
}
