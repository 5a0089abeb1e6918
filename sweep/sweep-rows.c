/*
 * sweep-rows.c: the sweep's output contract: the head of a result file,
 * one block of rows per point (a row per path and a total), and the
 * checker that reads such blocks back for resume and merge.
 */
#include <stdlib.h>
#include <string.h>

#include "selectors/selector.h"
#include "sim/run.h"
#include "sweep.h"
#include "input/table.h"

/*
 * The columns.  ORDER COLUMNS: lead_keys and tail_keys here, the prefix
 * in sweep_row_prefix() and the fields in write_block() go together.
 * The plotting scripts read these names.
 */
static const char *const lead_keys[] = {
	"mpsim_version", "scenario", "point", "seed", "reps", "selector",
	"selector_source", "clock", "mode", "hz", "iodepth", "numjobs", "bs", "rw",
};

enum tail_col {
	T_BEST, T_SHARE, T_SHARE_CI, T_BYTES, T_BYTES_CI, T_BUSY, T_BUSY_CI,
	T_LAT, T_LAT_CI, T_P50, T_P50_CI, T_P99, T_P99_CI, T_P999, T_P999_CI,
	T_IOPS, T_IOPS_CI,
	T_DIR,			/* then per direction (enum fio_ddir): */
	T_DIR_IOPS = 0, T_DIR_LAT = 2, T_DIR_P50 = 4, T_DIR_P99 = 6,
	T_DIR_P999 = 8, T_PER_DIR = 10,
	/* then the run's counts: ios, bw_bytes and errors per path and in
	 * total; failed and no_path of the total alone (as in a run) */
	T_COUNTS = T_DIR + DDIR_NR * T_PER_DIR,
	T_IOS = T_COUNTS, T_BW = T_IOS + 2, T_ERRORS = T_BW + 2,
	T_FAILED = T_ERRORS + 2, T_NO_PATH = T_FAILED + 2,
	NR_TAIL = T_NO_PATH + 2,
};

static const char *const tail_keys[NR_TAIL] = {
	"best", "share_mean", "share_ci95", "bytes_share_mean",
	"bytes_share_ci95", "busy_mean", "busy_ci95", "lat_mean_us_mean",
	"lat_mean_us_ci95", "lat_p50_us_mean", "lat_p50_us_ci95",
	"lat_p99_us_mean", "lat_p99_us_ci95", "lat_p999_us_mean",
	"lat_p999_us_ci95", "iops_mean", "iops_ci95", "read_iops_mean",
	"read_iops_ci95", "read_lat_mean_us_mean", "read_lat_mean_us_ci95",
	"read_lat_p50_us_mean", "read_lat_p50_us_ci95",
	"read_lat_p99_us_mean", "read_lat_p99_us_ci95",
	"read_lat_p999_us_mean", "read_lat_p999_us_ci95", "write_iops_mean",
	"write_iops_ci95", "write_lat_mean_us_mean", "write_lat_mean_us_ci95",
	"write_lat_p50_us_mean", "write_lat_p50_us_ci95",
	"write_lat_p99_us_mean", "write_lat_p99_us_ci95",
	"write_lat_p999_us_mean", "write_lat_p999_us_ci95", "trim_iops_mean",
	"trim_iops_ci95", "trim_lat_mean_us_mean", "trim_lat_mean_us_ci95",
	"trim_lat_p50_us_mean", "trim_lat_p50_us_ci95",
	"trim_lat_p99_us_mean", "trim_lat_p99_us_ci95",
	"trim_lat_p999_us_mean", "trim_lat_p999_us_ci95", "sync_iops_mean",
	"sync_iops_ci95", "sync_lat_mean_us_mean", "sync_lat_mean_us_ci95",
	"sync_lat_p50_us_mean", "sync_lat_p50_us_ci95",
	"sync_lat_p99_us_mean", "sync_lat_p99_us_ci95",
	"sync_lat_p999_us_mean", "sync_lat_p999_us_ci95", "ios_mean",
	"ios_ci95", "bw_bytes_mean", "bw_bytes_ci95", "errors_mean",
	"errors_ci95", "failed_mean", "failed_ci95", "no_path_mean",
	"no_path_ci95",
};

/* ---- writing ---- */

/* Starts field `key` (the first of a row has sep false). */
static void key(FILE *f, enum out_format fmt, const char *k, bool sep)
{
	if (fmt == FMT_CSV) {
		if (sep)
			fputc(',', f);
	} else {
		fputs(sep ? ", " : "{", f);
		json_string(f, k);
		fputs(": ", f);
	}
}

static void str_field(FILE *f, enum out_format fmt, const char *k,
		      const char *v, bool sep)
{
	key(f, fmt, k, sep);
	if (fmt == FMT_CSV)
		csv_field(f, v ? v : "");
	else if (v)
		json_string(f, v);
	else
		fputs("null", f);
}

static void num_field(FILE *f, enum out_format fmt, const char *k,
		      unsigned long long v)
{
	key(f, fmt, k, true);
	fprintf(f, "%llu", v);
}

static char *memstream_done(FILE *f, char **buf)
{
	if (fclose(f)) {
		perror("mpsim: sweep");
		abort();
	}
	return *buf;
}

static FILE *memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f) {
		perror("mpsim: sweep");
		abort();
	}
	return f;
}

/* 16 hex digits: how a hash is written in a file. */
#define HASH_FMT	"%016llx"

/* n hex digits at p? */
static bool hex_ok(const char *p, const char *end, size_t n)
{
	if (end - p < (long)n)
		return false;
	while (n--) {
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
		p++;
	}
	return true;
}

void sweep_head(struct sweep *sw)
{
	size_t len = 0, wl;
	char *buf = NULL, *q, *w, hex[17];
	FILE *f = memstream(&buf, &len);
	unsigned i;

	/* the inputs' hashes close the first line: a shell comment after the
	 * command (CSV), an object after the options (JSON) */
	if (sw->format == FMT_CSV) {
		fprintf(f, "# mpsim %s sweep:%s%s # inputs:", MPSIM_VERSION,
			*sw->cmdline ? " " : "", sw->cmdline);
		for (i = 0; i < sw->nr_in; i++) {
			q = xmalloc(strlen(sw->in[i].key) + 18);
			sprintf(q, "%s=" HASH_FMT, sw->in[i].key,
				(unsigned long long)sw->in[i].hash);
			w = NULL;
			wl = 0;
			shell_quote(&w, &wl, q);
			fprintf(f, " %s", w);
			free(w);
			free(q);
		}
		fputc('\n', f);
		for (i = 0; i < ARRAY_SIZE(lead_keys); i++)
			fprintf(f, "%s%s", i ? "," : "", lead_keys[i]);
		for (i = 0; i < sw->nr_opt; i++)
			if (sw->opt[i].column)
				fprintf(f, ",%s", sw->opt[i].key);
		fputs(",path", f);
		for (i = 0; i < NR_TAIL; i++)
			fprintf(f, ",%s", tail_keys[i]);
		fputs(",checksum\n", f);
	} else {
		fputs("{\"mpsim\": {\"version\": ", f);
		json_string(f, MPSIM_VERSION);
		fputs(", \"sweep\": ", f);
		json_string(f, sw->cmdline);
		fputs(", \"inputs\": {", f);
		for (i = 0; i < sw->nr_in; i++) {
			snprintf(hex, sizeof(hex), HASH_FMT,
				 (unsigned long long)sw->in[i].hash);
			if (i)
				fputs(", ", f);
			json_string(f, sw->in[i].key);
			fputs(": ", f);
			json_string(f, hex);
		}
		fputs("}}}\n", f);
	}
	sw->head = memstream_done(f, &buf);
	sw->head_len = len;
}

/*
 * The one block size every job's every direction issues, or 0 when a
 * bssplit, a bsrange or per-direction sizes make it several: the bs
 * column is then empty (the swept split has a column of its own), never
 * the one size bs would have been.
 */
static uint64_t one_bs(const struct scenario *sc)
{
	unsigned i, d;

	for (i = 0; i < sc->nr_jobs; i++)
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct bs_conf *b = &sc->jobs[i].bsd[d];

			if (b->nr_split || b->min != b->max ||
			    b->min != sc->jobs[0].bs)
				return 0;
		}
	return sc->nr_jobs ? sc->jobs[0].bs : 0;
}

char *sweep_row_prefix(const struct sweep *sw, uint64_t k,
		       const struct run_opts *o)
{
	const struct scenario *sc = &o->sc;
	const struct job_conf *j = &sc->jobs[0];
	enum out_format fmt = sw->format;
	size_t len = 0;
	char *buf = NULL;
	FILE *f = memstream(&buf, &len);
	char sel[256];
	unsigned i;

	str_field(f, fmt, "mpsim_version", MPSIM_VERSION, false);
	str_field(f, fmt, "scenario", o->scenario_name, true);
	num_field(f, fmt, "point", k);
	num_field(f, fmt, "seed", sw->seed);
	num_field(f, fmt, "reps", sw->reps);
	/* the kernel's name, whatever alias was typed (a source file's
	 * selector is named as its file registers it; a table's groups
	 * each by theirs) */
	if (sc->table)
		table_selectors(sc, sel, sizeof(sel));
	else
		snprintf(sel, sizeof(sel), "%s", sc->selector_source[0] ?
			 sc->selector : ps_find(sc->selector)->name);
	str_field(f, fmt, "selector", sel, true);
	/* the kernel file that ran as the selector, named as given (run
	 * JSON's selector_source); none: empty */
	str_field(f, fmt, "selector_source", sc->selector_source[0] ?
		  sc->selector_source : NULL, true);
	str_field(f, fmt, "clock", start_clock_name(sc->clock), true);
	str_field(f, fmt, "mode", sc->mode == MODE_BIO ? "bio" : "request", true);
	num_field(f, fmt, "hz", sc->hz);
	num_field(f, fmt, "iodepth", j->iodepth);
	num_field(f, fmt, "numjobs", j->numjobs);
	if (one_bs(sc))
		num_field(f, fmt, "bs", one_bs(sc));
	else
		str_field(f, fmt, "bs", NULL, true);
	str_field(f, fmt, "rw", rw_name(j->rw), true);
	/* the value of every other swept option at k, as given (empty, or
	 * null, where the point does not give it) */
	for (i = 0; i < sw->nr_opt; i++)
		if (sw->opt[i].column) {
			const char *v = sweep_point_value(sw, i, k);

			str_field(f, fmt, sw->opt[i].key,
				  v == sweep_unset ? NULL : v, true);
		}
	key(f, fmt, "path", true);
	return memstream_done(f, &buf);
}

/* The measures kept per replication, per path and for the total; then
 * iops, latency and its percentiles per direction. */
enum measure {
	M_SHARE, M_BYTES, M_BUSY, M_LAT, M_P50, M_P99, M_P999, M_IOPS,
	M_DIR, M_DIR_IOPS = 0, M_DIR_LAT = 1, M_DIR_P50 = 2, M_DIR_P99 = 3,
	M_DIR_P999 = 4, M_PER_DIR = 5,
	M_IOS = M_DIR + DDIR_NR * M_PER_DIR, M_BW, M_ERRORS, M_FAILED,
	M_NO_PATH,
	NR_M,
};

/* Replication values: x[(row * NR_M + m) * reps + i], n[row * NR_M + m]
 * of them (latency only from replications where the row had I/Os). */
struct samples {
	double *x;
	size_t *n;
	unsigned reps;
};

static void sample(struct samples *s, unsigned row, enum measure m, double v)
{
	size_t c = (size_t)row * NR_M + m;

	s->x[c * s->reps + s->n[c]++] = v;
}

/* A row's latency figures from h, when it had I/O (none otherwise:
 * no latency is not a latency of 0): the mean at m, then p50, p99 and
 * p99.9 (the run's percentiles: lat_quantile). */
static void take_lat(struct samples *s, unsigned row, enum measure m,
		     const struct lat_hist *h)
{
	if (h && h->count) {
		sample(s, row, m, lat_mean(h) / 1e3);
		sample(s, row, m + 1, lat_quantile(h, 0.50) / 1e3);
		sample(s, row, m + 2, lat_quantile(h, 0.99) / 1e3);
		sample(s, row, m + 3, lat_quantile(h, 0.999) / 1e3);
	}
}

static void take(struct samples *s, const struct run_result *r)
{
	const struct path_stats *ps;
	unsigned p, d;

	for (p = 0; p <= r->nr_paths; p++) {
		ps = p < r->nr_paths ? &r->path[p] : &r->total;
		if (p < r->nr_paths) {
			sample(s, p, M_SHARE, report_ratio(ps->ios, r->total.ios));
			sample(s, p, M_BYTES,
			       report_ratio(ps->bytes, r->total.bytes));
			sample(s, p, M_BUSY, report_ratio(ps->busy, r->window));
		} else {
			sample(s, p, M_IOPS,
			       report_ratio(ps->ios, r->window) * 1e9);
			sample(s, p, M_FAILED, (double)r->failed);
			sample(s, p, M_NO_PATH, (double)r->no_path);
		}
		sample(s, p, M_IOS, (double)ps->ios);
		sample(s, p, M_BW, report_ratio(ps->bytes, r->window) * 1e9);
		sample(s, p, M_ERRORS, (double)ps->errors);
		take_lat(s, p, M_LAT, &ps->lat);
		for (d = 0; d < DDIR_NR; d++) {
			const struct ddir_stats *ds = ps->dir[d];
			unsigned m = M_DIR + d * M_PER_DIR;

			if (p == r->nr_paths)
				sample(s, p, m + M_DIR_IOPS, report_ratio(
					ds ? ds->ios : 0, r->window) * 1e9);
			take_lat(s, p, m + M_DIR_LAT, ds ? &ds->lat : NULL);
		}
	}
}

/* Field `col` and its CI column col + 1 from the samples of (row, m). */
static void put_ci(FILE *f, enum out_format fmt, enum tail_col col, int prec,
		   const struct samples *s, unsigned row, enum measure m)
{
	size_t c = (size_t)row * NR_M + m;
	double mean = 0, half = 0;
	size_t n = ci95(s->x + c * s->reps, s->n[c], &mean, &half);

	key(f, fmt, tail_keys[col], true);
	if (n >= 1)
		fprintf(f, "%.*f", prec, mean);
	else if (fmt == FMT_JSON)
		fputs("null", f);
	key(f, fmt, tail_keys[col + 1], true);
	if (n >= 2)
		fprintf(f, "%.*f", prec, half);
	else if (fmt == FMT_JSON)
		fputs("null", f);
}

static void put_empty(FILE *f, enum out_format fmt, enum tail_col from,
		      enum tail_col to)
{
	unsigned c;

	for (c = from; c <= to; c++) {
		key(f, fmt, tail_keys[c], true);
		if (fmt == FMT_JSON)
			fputs("null", f);
	}
}

static void write_block(FILE *f, const struct sweep *sw, uint64_t k,
			const struct sweep_paths *paths, const double *best,
			const struct samples *s)
{
	enum out_format fmt = sw->format;
	const char *prefix = sw->pt[k].prefix;
	unsigned p, d, nr = paths->nr;

	for (p = 0; p <= nr; p++) {
		fputs(prefix, f);
		if (fmt == FMT_CSV)
			csv_field(f, p < nr ? paths->name[p] : "total");
		else
			json_string(f, p < nr ? paths->name[p] : "total");
		if (p < nr) {
			key(f, fmt, tail_keys[T_BEST], true);
			fprintf(f, "%.6f", best[p]);
			put_ci(f, fmt, T_SHARE, 6, s, p, M_SHARE);
			put_ci(f, fmt, T_BYTES, 6, s, p, M_BYTES);
			put_ci(f, fmt, T_BUSY, 6, s, p, M_BUSY);
		} else {
			put_empty(f, fmt, T_BEST, T_BUSY_CI);
		}
		put_ci(f, fmt, T_LAT, 3, s, p, M_LAT);
		put_ci(f, fmt, T_P50, 3, s, p, M_P50);
		put_ci(f, fmt, T_P99, 3, s, p, M_P99);
		put_ci(f, fmt, T_P999, 3, s, p, M_P999);
		if (p < nr)
			put_empty(f, fmt, T_IOPS, T_IOPS_CI);
		else
			put_ci(f, fmt, T_IOPS, 3, s, p, M_IOPS);
		for (d = 0; d < DDIR_NR; d++) {
			enum tail_col t = T_DIR + d * T_PER_DIR;
			enum measure m = M_DIR + d * M_PER_DIR;

			/* iops, as the run's, is the total's alone */
			if (p < nr)
				put_empty(f, fmt, t + T_DIR_IOPS,
					  t + T_DIR_IOPS + 1);
			else
				put_ci(f, fmt, t + T_DIR_IOPS, 3, s, p,
				       m + M_DIR_IOPS);
			put_ci(f, fmt, t + T_DIR_LAT, 3, s, p, m + M_DIR_LAT);
			put_ci(f, fmt, t + T_DIR_P50, 3, s, p, m + M_DIR_P50);
			put_ci(f, fmt, t + T_DIR_P99, 3, s, p, m + M_DIR_P99);
			put_ci(f, fmt, t + T_DIR_P999, 3, s, p, m + M_DIR_P999);
		}
		put_ci(f, fmt, T_IOS, 3, s, p, M_IOS);
		put_ci(f, fmt, T_BW, 1, s, p, M_BW);
		put_ci(f, fmt, T_ERRORS, 3, s, p, M_ERRORS);
		if (p < nr) {
			put_empty(f, fmt, T_FAILED, T_NO_PATH + 1);
		} else {
			put_ci(f, fmt, T_FAILED, 3, s, p, M_FAILED);
			put_ci(f, fmt, T_NO_PATH, 3, s, p, M_NO_PATH);
		}
		/* the checksum is the total row's: sweep_run_point() ends it */
		key(f, fmt, "checksum", true);
		if (p < nr)
			fputs(fmt == FMT_CSV ? "\n" : "null}\n", f);
	}
}

/* The block's checksum closes its total row: FNV-1a 64 of every byte
 * of the block before it (blk[0..len), the memstream behind f). */
static void end_block(FILE *f, enum out_format fmt, char **blk, size_t *len)
{
	unsigned long long h;

	if (fmt == FMT_JSON)
		fputc('"', f);
	if (fflush(f)) {
		perror("mpsim: sweep");
		abort();
	}
	h = fnv1a64(*blk, *len, FNV1A64_INIT);
	fprintf(f, fmt == FMT_CSV ? HASH_FMT "\n" : HASH_FMT "\"}\n", h);
}

int sweep_run_point(const struct sweep *sw, uint64_t k, char **blk,
		    size_t *len, uint32_t *notes, char *err)
{
	struct samples s = { .reps = sw->reps };
	struct run_result res;
	struct run_opts o;
	double *best;
	unsigned r, rows;
	FILE *f;
	int rc;

	*notes = 0;
	rc = sweep_point_opts(sw, k, &o, err);
	if (rc)
		return rc;
	rows = o.sc.nr_paths + 1;
	s.x = xcalloc((size_t)rows * NR_M * sw->reps, sizeof(*s.x));
	s.n = xcalloc((size_t)rows * NR_M, sizeof(*s.n));
	best = xcalloc(rows, sizeof(*best));
	best_shares(&o.sc, best);
	for (r = 0; r < sw->reps; r++) {
		rc = run_scenario(&o.sc, sweep_rep_seed(sw->seed, r), &res, err);
		if (rc)
			goto out;
		take(&s, &res);
		if (!res.total.ios)
			*notes |= SWEEP_NOTE_EMPTY;
		if (res.late_events)
			*notes |= SWEEP_NOTE_LATE_EVENTS;
		run_result_free(&res);
	}
	*blk = NULL;
	f = memstream(blk, len);
	write_block(f, sw, k, sw->pt[k].paths, best, &s);
	end_block(f, sw->format, blk, len);
	memstream_done(f, blk);
out:
	free(best);
	free(s.x);
	free(s.n);
	cli_free_run(&o);
	return rc;
}

/* ---- reading back ---- */

/* Where " # inputs:" starts in a CSV first line's options [p, end):
 * the first "#" that begins a word outside quotes (shell_quote() quotes
 * a word that starts with one); end when there is none. */
static const char *inputs_mark(const char *p, const char *end)
{
	const char *s = p;
	bool quoted = false;

	for (; p < end; p++) {
		if (quoted) {
			quoted = *p != '\'';
		} else if (*p == '\'') {
			quoted = true;
		} else if (*p == '\\' && p + 1 < end) {
			p++;
		} else if (*p == '#' && (p == s || p[-1] == ' ') &&
			   end - p >= 9 && !strncmp(p, "# inputs:", 9)) {
			return p;
		}
	}
	return end;
}

/* A JSON string's text from p (just past its opening quote) to its
 * closing quote, json_string()'s escapes undone (\" \\ and \u00XX),
 * into out (room for end - p + 1 bytes); returns the byte past the
 * closing quote, or NULL. */
static const char *json_unstring(const char *p, const char *end, char *out)
{
	size_t ol = 0;
	char c;

	for (; p < end && *p != '"'; p++) {
		c = *p;
		if (c == '\\' && p + 1 < end && p[1] == 'u' && end - p > 5) {
			c = (char)strtol((char[]){ p[4], p[5], 0 }, NULL, 16);
			p += 5;
		} else if (c == '\\' && p + 1 < end) {
			c = *++p;
		}
		out[ol++] = c;
	}
	out[ol] = '\0';
	return p < end ? p + 1 : NULL;
}

int sweep_head_parse(const char *buf, size_t n, char *version, size_t vsize,
		     char **cmdline)
{
	const char *end = memchr(buf, '\n', n), *p, *v, *m;
	static const char csv[] = "# mpsim ", json[] = "{\"mpsim\": {\"version\": \"";

	if (!end)
		return -EINVAL;
	*cmdline = NULL;
	if (!strncmp(buf, csv, sizeof(csv) - 1)) {
		v = buf + sizeof(csv) - 1;
		p = memchr(v, ' ', (size_t)(end - v));
		if (!p || (size_t)(p - v) >= vsize ||
		    strncmp(p, " sweep:", 7))
			return -EINVAL;
		memcpy(version, v, (size_t)(p - v));
		version[p - v] = '\0';
		p += 7;
		if (p < end && *p == ' ')
			p++;
		m = inputs_mark(p, end);
		if (m > p && m < end)
			m--;		/* the space before "# inputs:" */
		*cmdline = xmalloc((size_t)(m - p) + 1);
		memcpy(*cmdline, p, (size_t)(m - p));
		(*cmdline)[m - p] = '\0';
		return 0;
	}
	if (strncmp(buf, json, sizeof(json) - 1))
		return -EINVAL;
	v = buf + sizeof(json) - 1;
	p = memchr(v, '"', (size_t)(end - v));
	if (!p || (size_t)(p - v) >= vsize)
		return -EINVAL;
	memcpy(version, v, (size_t)(p - v));
	version[p - v] = '\0';
	if (strncmp(p, "\", \"sweep\": \"", 13))
		return -EINVAL;
	*cmdline = xmalloc((size_t)(end - p));
	p = json_unstring(p + 13, end, *cmdline);
	/* then "}} (a file of an mpsim before input hashes), or the
	 * inputs' object */
	if (!p || !((end - p == 2 && !memcmp(p, "}}", 2)) ||
		    (end - p > 15 && !memcmp(p, ", \"inputs\": {", 13) &&
		     !memcmp(end - 3, "}}}", 3)))) {
		free(*cmdline);
		*cmdline = NULL;
		return -EINVAL;
	}
	return 0;
}

void sweep_inputs_free(struct input_file *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(in[i].key);
	free(in);
}

/* Adds KEY=HEX (k[0..kl) and its hash) to *in; false if it is none. */
static bool input_add(struct input_file **in, size_t *n, const char *k,
		      size_t kl, const char *hex)
{
	char d[17];

	if (!kl || !hex_ok(hex, hex + 16, 16))
		return false;
	memcpy(d, hex, 16);
	d[16] = '\0';
	*in = xrealloc(*in, (*n + 1) * sizeof(**in));
	(*in)[*n].key = xmalloc(kl + 1);
	memcpy((*in)[*n].key, k, kl);
	(*in)[*n].key[kl] = '\0';
	(*in)[*n].hash = strtoull(d, NULL, 16);
	(*n)++;
	return true;
}

long sweep_head_inputs(const char *buf, size_t n, struct input_file **in)
{
	const char *end = memchr(buf, '\n', n), *p, *m;
	char **w = NULL, *line, *key, *hex;
	size_t nr = 0;
	int nw, i;
	bool ok = true;

	*in = NULL;
	if (!end)
		return -EINVAL;
	if (buf[0] == '#') {
		m = inputs_mark(buf + 2, end);
		if (m == end)
			return 0;	/* a file of an mpsim before them */
		line = xmalloc((size_t)(end - m));
		memcpy(line, m + 9, (size_t)(end - m) - 9);
		line[end - m - 9] = '\0';
		nw = shell_split(line, &w);
		free(line);
		if (nw < 0)
			return -EINVAL;
		for (i = 0; i < nw; i++) {
			hex = strrchr(w[i], '=');
			ok = ok && hex && strlen(hex + 1) == 16 &&
			     input_add(in, &nr, w[i], (size_t)(hex - w[i]),
				       hex + 1);
			free(w[i]);
		}
		free(w);
	} else {
		for (p = buf; end - p >= 13 &&
			      memcmp(p, ", \"inputs\": {", 13); p++)
			;
		if (end - p < 13)
			return 0;	/* a file of an mpsim before them */
		key = xmalloc((size_t)(end - p) + 1);
		hex = xmalloc((size_t)(end - p) + 1);
		for (p += 13; ok && p < end && *p == '"';) {
			p = json_unstring(p + 1, end, key);
			ok = p && end - p > 4 && !memcmp(p, ": \"", 3);
			if (ok)
				p = json_unstring(p + 3, end, hex);
			ok = ok && p && strlen(hex) == 16 &&
			     input_add(in, &nr, key, strlen(key), hex);
			if (ok && end - p > 2 && !memcmp(p, ", ", 2))
				p += 2;
		}
		free(key);
		free(hex);
	}
	if (!ok) {
		sweep_inputs_free(*in, nr);
		*in = NULL;
		return -EINVAL;
	}
	return (long)nr;
}

/* "scenario x.ini" for the key "scenario:x.ini"; "the mpsim build". */
static void input_name(const char *key, char *buf, size_t size)
{
	const char *c = strchr(key, ':');

	if (!c)
		snprintf(buf, size, "the %s build", key);
	else
		snprintf(buf, size, "%.*s %s", (int)(c - key), key, c + 1);
}

bool sweep_inputs_differ(const struct sweep *sw, const struct input_file *fin,
			 size_t nf, char *why)
{
	char name[ERR_MAX];
	size_t i, j;

	for (i = 0; i < sw->nr_in; i++) {
		for (j = 0; j < nf && strcmp(fin[j].key, sw->in[i].key); j++)
			;
		input_name(sw->in[i].key, name, sizeof(name));
		if (j == nf) {
			snprintf(why, ERR_MAX, "%s is an input now and was "
				 "not then", name);
			return true;
		}
		if (fin[j].hash != sw->in[i].hash) {
			snprintf(why, ERR_MAX, "%s has changed since (FNV-1a "
				 HASH_FMT " then, " HASH_FMT " now)", name,
				 (unsigned long long)fin[j].hash,
				 (unsigned long long)sw->in[i].hash);
			return true;
		}
	}
	for (j = 0; j < nf; j++) {
		for (i = 0; i < sw->nr_in && strcmp(fin[j].key, sw->in[i].key);
		     i++)
			;
		if (i == sw->nr_in) {
			input_name(fin[j].key, name, sizeof(name));
			snprintf(why, ERR_MAX, "%s was an input then and is "
				 "not now", name);
			return true;
		}
	}
	return false;
}

/* Past the CSV field at p and its comma. */
static const char *csv_skip(const char *p, const char *end)
{
	if (p < end && *p == '"') {
		for (p++; p < end; p++) {
			if (*p != '"')
				continue;
			if (p + 1 < end && p[1] == '"')
				p++;
			else
				break;
		}
	}
	while (p < end && *p != ',')
		p++;
	return p < end ? p + 1 : end;
}

/* The point number of a row, or -1 when the line is not a row. */
static long long line_point(enum out_format fmt, const char *p,
			    const char *end)
{
	static const char pk[] = "\"point\": ";
	long long k = -1;

	if (fmt == FMT_JSON) {
		/* strings escape every quote, so the first match is the key */
		for (; end - p >= (long)sizeof(pk) - 1; p++)
			if (!memcmp(p, pk, sizeof(pk) - 1))
				break;
		if (end - p < (long)sizeof(pk) - 1)
			return -1;
		p += sizeof(pk) - 1;
	} else {
		/* past mpsim_version and scenario (which may be quoted) */
		p = csv_skip(csv_skip(p, end), end);
	}
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (k > (long long)SWEEP_MAX_POINTS)
			return -1;
		k = (k < 0 ? 0 : k * 10) + (*p - '0');
	}
	return p < end && *p == ',' ? k : -1;
}

/* A number as write_block() prints it: digits, a point, digits. */
static const char *number(const char *p, const char *end)
{
	const char *d = p;

	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == d || p >= end || *p != '.')
		return NULL;
	d = ++p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p == d ? NULL : p;
}

/*
 * Does [p, end) hold the fields after a path, and the row's end?  A
 * path's row has no checksum; the total's has one, and *sum is where
 * its digits start.
 */
static bool tail_ok(enum out_format fmt, const char *p, const char *end,
		    bool total, const char **sum)
{
	unsigned c;

	for (c = 0; c < NR_TAIL; c++) {
		if (fmt == FMT_CSV) {
			if (p >= end || *p++ != ',')
				return false;
			if (*p == ',' || *p == '\n')
				continue;
		} else {
			size_t kl = strlen(tail_keys[c]);

			if (end - p < (long)kl + 6 || strncmp(p, ", \"", 3) ||
			    strncmp(p + 3, tail_keys[c], kl) ||
			    strncmp(p + 3 + kl, "\": ", 3))
				return false;
			p += kl + 6;
			if (end - p >= 4 && !strncmp(p, "null", 4)) {
				p += 4;
				continue;
			}
		}
		p = number(p, end);
		if (!p)
			return false;
	}
	if (fmt == FMT_CSV) {
		if (p >= end || *p++ != ',')
			return false;
	} else {
		if (end - p < 14 || strncmp(p, ", \"checksum\": ", 14))
			return false;
		p += 14;
		if (!total) {
			if (end - p < 5 || strncmp(p, "null}", 5))
				return false;
			p += 5;
		} else if (p >= end || *p++ != '"') {
			return false;
		}
	}
	if (total) {
		if (!hex_ok(p, end, 16))
			return false;
		*sum = p;
		p += 16;
		if (fmt == FMT_JSON && (end - p < 2 || strncmp(p, "\"}", 2)))
			return false;
		p += fmt == FMT_JSON ? 2 : 0;
	}
	return p + 1 == end && *p == '\n';
}

/* Is [p, p+n) one complete block of point k?  Returns its length or 0;
 * *bad_sum says a complete block does not match its checksum. */
static size_t block_ok(const struct sweep *sw, uint64_t k, const char *p,
		       size_t n, bool *bad_sum)
{
	const struct sweep_point *pt = &sw->pt[k];
	size_t pl = strlen(pt->prefix), nl, off = 0;
	const char *sum = NULL;
	unsigned long long h;
	char hex[17];
	unsigned i;

	*bad_sum = false;
	for (i = 0; i <= pt->paths->nr; i++) {
		const char *line = p + off, *end, *name;

		end = memchr(line, '\n', n - off);
		if (!end)
			return 0;
		end++;
		name = i < pt->paths->nr ? pt->paths->name[i] : "total";
		nl = strlen(name);
		if ((size_t)(end - line) < pl + nl + 2 ||
		    memcmp(line, pt->prefix, pl))
			return 0;
		line += pl;
		if (sw->format == FMT_JSON) {
			if (*line != '"' || memcmp(line + 1, name, nl) ||
			    line[nl + 1] != '"')
				return 0;
			line += nl + 2;
		} else {
			if (memcmp(line, name, nl))
				return 0;
			line += nl;
		}
		if (!tail_ok(sw->format, line, end, i == pt->paths->nr, &sum))
			return 0;
		off = (size_t)(end - p);
	}
	memcpy(hex, sum, 16);
	hex[16] = '\0';
	h = strtoull(hex, NULL, 16);
	*bad_sum = h != fnv1a64(p, (size_t)(sum - p), FNV1A64_INIT);
	return off;
}

/* What to say about a file that is not one of this sweep's. */
static int foreign(const struct sweep *sw, const char *name, const char *buf,
		   size_t n, char *err)
{
	char version[32], *cmd, why[ERR_MAX];
	struct input_file *in;
	long nin;
	int r;

	if (sweep_head_parse(buf, n, version, sizeof(version), &cmd))
		return input_error(err, "%s: not a result file of this sweep; "
				   "move it away or choose another --output",
				   name);
	nin = sweep_head_inputs(buf, n, &in);
	if (strcmp(version, MPSIM_VERSION))
		r = input_error(err, "%s: written by mpsim %s, this is mpsim %s; "
				"move it away or choose another --output", name,
				version, MPSIM_VERSION);
	else if (strcmp(cmd, sw->cmdline))
		r = input_error(err, "%s: holds another sweep (%.80s%s); move it "
				"away or choose another --output", name, cmd,
				strlen(cmd) > 80 ? "..." : "");
	else if (nin >= 0 && sweep_inputs_differ(sw, in, (size_t)nin, why))
		r = input_error(err, "%s: written from other inputs: %s; move "
				"it away or choose another --output", name, why);
	else
		r = input_error(err, "%s: not a result file of this sweep (its "
				"head differs); move it away or choose another "
				"--output", name);
	if (nin > 0)
		sweep_inputs_free(in, (size_t)nin);
	free(cmd);
	return r;
}

long sweep_scan(const struct sweep *sw, const char *name, const char *buf,
		size_t n, struct sweep_block **blocks, size_t *valid_end,
		char *err)
{
	uint8_t *seen = NULL;
	size_t pos, nb = 0, bl;
	bool bad_sum;
	long long k;

	*blocks = NULL;
	*valid_end = 0;
	if (n < sw->head_len || memcmp(buf, sw->head, sw->head_len)) {
		/* empty, or a head torn while it was written: start afresh */
		if (n < sw->head_len && !memcmp(buf, sw->head, n))
			return 0;
		return foreign(sw, name, buf, n, err);
	}
	seen = xcalloc(sw->nr_points, 1);
	for (pos = sw->head_len; pos < n; pos += bl) {
		const char *eol = memchr(buf + pos, '\n', n - pos);

		k = eol ? line_point(sw->format, buf + pos, eol) : -1;
		if (k < 0 || (uint64_t)k >= sw->nr_points)
			break;
		if (!sw->selected[k]) {
			free(seen);
			free(*blocks);
			*blocks = NULL;
			return input_error(err, "%s: holds point %lld, which this "
					   "command does not run", name, k);
		}
		if (seen[k]) {
			free(seen);
			free(*blocks);
			*blocks = NULL;
			return input_error(err, "%s: holds point %lld twice", name, k);
		}
		bl = block_ok(sw, (uint64_t)k, buf + pos, n - pos, &bad_sum);
		if (!bl)
			break;
		if (bad_sum) {
			/* rows edited (or damaged) after they were written:
			 * keeping them would mix them into the results, and
			 * dropping them would lose what the user meant */
			free(seen);
			free(*blocks);
			*blocks = NULL;
			return input_error(err, "%s: point %lld does not match "
					   "its checksum (its rows changed after "
					   "they were written); delete its rows "
					   "to run it again", name, k);
		}
		seen[k] = 1;
		*blocks = xrealloc(*blocks, (nb + 1) * sizeof(**blocks));
		(*blocks)[nb].point = (uint64_t)k;
		(*blocks)[nb].off = pos;
		(*blocks)[nb].len = bl;
		nb++;
	}
	free(seen);
	*valid_end = pos;
	return (long)nb;
}
