/*
 * report.c: one run's result as a Markdown table (CSV and JSON rows:
 * report/report-fields.c; fio's formats, report_fio(), from
 * report/report-fio*.c), and what every output shares: the provenance
 * line or object (rates and ratios: report/report-fields.c; CSV and JSON
 * quoting: lib/escape.c), and the numbers of the tables for people (fio's
 * bandwidth units, shares that never show as zero, wrapped text).
 */
#include <math.h>
#include <string.h>

#include "report.h"
#include "report-fio.h"
#include "sim/series.h"
#include "input/table.h"

int out_format_parse(const char *s, enum out_format *f)
{
	if (!strcmp(s, "table"))
		*f = FMT_TABLE;
	else if (!strcmp(s, "csv"))
		*f = FMT_CSV;
	else if (!strcmp(s, "json"))
		*f = FMT_JSON;
	else if (!strcmp(s, "dmsetup"))
		*f = FMT_DMSETUP;
	else
		return -EINVAL;
	return 0;
}

/*
 * fio's num2str() with its default of 4 significant figures: divide by
 * 1000 (or 1024) until at most 4 digits are left, then give decimals up
 * to 3 figures, from the remainder of the last division as fio does
 * ("9.78MiB/s", "44.8MiB/s", "228MiB/s", "9997KiB/s").
 */
static void fio_num2str(char *buf, size_t n, uint64_t num, bool pow2,
			const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	const unsigned thousand = pow2 ? 1024 : 1000;
	const char *const *prefix = pow2 ? iec : si;
	unsigned idx = 0, modulo = 0;
	bool divided = false;
	char digits[24], frac[16];
	int len, dec;

	while (snprintf(digits, sizeof(digits), "%llu",
			(unsigned long long)num) > 4 && idx + 1 < ARRAY_SIZE(si)) {
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		divided = true;
		idx++;
	}
	len = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)num);
	dec = 4 - len - 1;
	if (!divided || dec < 1) {
		num += divided && modulo >= thousand / 2;
		snprintf(buf, n, "%llu%s%s", (unsigned long long)num,
			 prefix[idx], unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", dec, (double)modulo / thousand);
	/* 9.999 rounds to "10.0", not fio's "9.00": carry it, one decimal
	 * fewer if the whole part gained a digit */
	if (frac[0] == '1') {
		num++;
		dec = 4 - snprintf(digits, sizeof(digits), "%llu",
				   (unsigned long long)num) - 1;
		snprintf(frac, sizeof(frac), "%.*f", dec > 0 ? dec : 0, 0.0);
	}
	snprintf(buf, n, "%llu%s%s%s%s", (unsigned long long)num,
		 dec > 0 ? "." : "", dec > 0 ? frac + 2 : "", prefix[idx],
		 unit);
}

void human_bw(char *buf, size_t n, double bytes_per_s)
{
	uint64_t b = bytes_per_s > 0 ? (uint64_t)(bytes_per_s + 0.5) : 0;
	char iec[32], si[32];

	/* fio's default kb_base=1024: IEC first, SI in parentheses */
	fio_num2str(iec, sizeof(iec), b, true, "B/s");
	fio_num2str(si, sizeof(si), b, false, "B/s");
	snprintf(buf, n, "%s (%s)", iec, si);
}

void human_iops(char *buf, size_t n, double iops)
{
	/* fio: iops = 1000 * ios / runtime_ms, then num2str(iops, sig_figs,
	 * 1, 0, N2S_NONE) */
	uint64_t i = iops >= 1 && iops < 1e19 ? (uint64_t)iops : 0;

	fio_num2str(buf, n, i, false, "");
}

void human_share(char *buf, size_t n, double v, int decimals)
{
	int d = decimals;

	if (v == 0) {
		snprintf(buf, n, "0");
		return;
	}
	/* below 10^-decimals: decimals down to the first significant
	 * figure (0.009, 0.003, 0.0004) */
	if (v > 0 && v < pow(10, -decimals))
		for (d = decimals + 1; d < 12 && v < 0.5 * pow(10, -d); d++)
			;
	snprintf(buf, n, "%.*f", d, v);
}

void text_wrapped(FILE *f, const char *text, unsigned width)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n"), cut = len;

		if (len > width) {
			/* at the last space that keeps the line within width;
			 * a word longer than a line stands alone */
			for (cut = width; cut > 0 && p[cut] != ' '; cut--)
				;
			if (!cut)
				cut = strcspn(p, " \n");
		}
		fprintf(f, "%.*s\n", (int)cut, p);
		p += cut;
		if (cut == len)
			p += *p == '\n';
		else
			while (*p == ' ')
				p++;
	}
}

static const char *mode_name(enum mp_mode m)
{
	return m == MODE_BIO ? "bio" : "request";
}

void json_meta(FILE *f, const char *command, const struct provenance *pv,
	       const struct scenario *sc)
{
	char sel[256];

	table_selectors(sc, sel, sizeof(sel));
	fputs("{\"mpsim\": {\"version\": ", f);
	json_string(f, MPSIM_VERSION);
	fprintf(f, ", \"command\": \"%s\", \"scenario\": ", command);
	json_string(f, pv->scenario);
	fprintf(f, ", \"seed\": %llu, \"options\": {\"mode\": \"%s\", "
		"\"selector\": ", (unsigned long long)pv->seed,
		mode_name(sc->mode));
	json_string(f, sel);
	/* a selector compiled from a file names the file (ksource.h) */
	if (sc->selector_source[0]) {
		fputs(", \"selector_source\": ", f);
		json_string(f, sc->selector_source);
	}
	fputs(", \"selector_args\": ", f);
	json_string(f, sc->selector_args);
	if (sc->table) {
		fputs(", \"table\": ", f);
		json_string(f, sc->table);
	}
	fprintf(f, ", \"clock\": \"%s\", \"hz\": %u, \"uptime_s\": %.9g, "
		"\"queue_if_no_path\": %s, \"select_clock\": \"%s\", "
		"\"sched_clock\": \"%s\", \"sched_clock_offset_ns\": %lld, "
		"\"sched_clock_drift_ppm\": %d, \"command_line\": ",
		start_clock_name(sc->clock), sc->hz, (double)sc->uptime / 1e9,
		sc->queue_if_no_path ? "true" : "false",
		sc->select_sched_clock ? "sched_clock" : "ktime",
		sc->sched.jiffies ? "jiffies" : "tsc",
		(long long)sc->sched.offset, (int)sc->sched.drift_ppm);
	json_string(f, pv->options ? pv->options : "");
	fputs("}}", f);
}

static void header_line(FILE *f, const char *lead,
			const struct provenance *pv, const struct scenario *sc)
{
	/* a selector compiled from a file names the file (ksource.h); a
	 * table names every group's */
	char sel[256];

	table_selectors(sc, sel, sizeof(sel));
	/* the uptime decides where the jiffies epoch lies against ktime,
	 * and with it what historical-service-time's jiffies stamp does */
	fprintf(f, "%smpsim %s: scenario %s, selector %s%s%s, clock %s, "
		"mode %s, HZ %u, uptime %.9g s, %sseed %llu%s%s\n", lead,
		MPSIM_VERSION, pv->scenario, sel,
		sc->selector_source[0] ? " from " : "", sc->selector_source,
		start_clock_name(sc->clock), mode_name(sc->mode),
		sc->hz, (double)sc->uptime / 1e9,
		sc->select_sched_clock ? "select_clock sched_clock, " : "",
		(unsigned long long)pv->seed,
		pv->options && *pv->options ? ", options: " : "",
		pv->options ? pv->options : "");
}

/*
 * A scenario with scripted path failures reports what they did: errors
 * per path, then requeues and the time without a usable path, after the
 * figures every run has (so columns only ever appear at the end).
 */
static bool show_faults(const struct scenario *sc)
{
	return sc->nr_events > 0;
}

/*
 * Latencies are in µs, or in ms when every one the table shows is at
 * least 1000 µs: fio's rule for a latency line (usec_to_msec()), one
 * unit for the whole table so that a column reads down evenly.
 */
struct lat_unit {
	const char *name;	/* "µs", "ms" */
	double ns;		/* ns per unit */
	int decimals;
};

static const struct lat_unit lat_us = { "µs", 1e3, 1 };
static const struct lat_unit lat_ms = { "ms", 1e6, 2 };

/* The smallest latency cell of h (mean or median), or +inf. */
static double lat_low(const struct lat_hist *h)
{
	double m, q;

	if (!h || !h->count)
		return INFINITY;
	m = lat_mean(h);
	q = lat_quantile(h, 0.50);
	return m < q ? m : q;
}

static double stats_low(const struct path_stats *st)
{
	double low = lat_low(&st->lat);
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		if (st->dir[d] && lat_low(&st->dir[d]->lat) < low)
			low = lat_low(&st->dir[d]->lat);
	return low;
}

static const struct lat_unit *run_lat_unit(const struct run_result *r)
{
	double low = stats_low(&r->total);
	unsigned i;

	for (i = 0; i < r->nr_paths; i++)
		if (stats_low(&r->path[i]) < low)
			low = stats_low(&r->path[i]);
	for (i = 0; i < r->nr_jobs; i++)
		if (stats_low(&r->job[i].st) < low)
			low = stats_low(&r->job[i].st);
	return isfinite(low) && low >= 1e6 ? &lat_ms : &lat_us;
}

/* The four latency headers, with their unit. */
static void table_lat_heads(FILE *f, const struct lat_unit *u)
{
	fprintf(f, " mean lat (%s) | p50 lat (%s) | p99 lat (%s) | "
		"p99.9 lat (%s) |", u->name, u->name, u->name, u->name);
}

/* The four latency cells of a table row: a dash when nothing completed
 * (no latency, not 0). */
static void table_lats(FILE *f, const struct lat_hist *h,
		       const struct lat_unit *u)
{
	if (!h || !h->count) {
		fputs(" - | - | - | - |", f);
		return;
	}
	fprintf(f, " %.*f | %.*f | %.*f | %.*f |", u->decimals,
		lat_mean(h) / u->ns, u->decimals, lat_quantile(h, 0.50) / u->ns,
		u->decimals, lat_quantile(h, 0.99) / u->ns, u->decimals,
		lat_quantile(h, 0.999) / u->ns);
}

/* The directions the run's jobs issued or completed, as a mask. */
static unsigned run_ddirs(const struct run_result *r)
{
	unsigned d, m = 0;

	for (d = 0; d < DDIR_NR; d++)
		if (r->ddir_ios[d] || r->total.dir[d])
			m |= 1U << d;
	return m;
}

/* One direction's cells: I/Os, IOPS, bandwidth and the latencies. */
static void table_ddir(FILE *f, const struct path_stats *st, unsigned d,
		       sim_ns time, const struct lat_unit *u)
{
	const struct ddir_stats *ds = st->dir[d];
	uint64_t ios = ds ? ds->ios : 0, bytes = ds ? ds->bytes : 0;
	char bw[64], iops[32];

	human_bw(bw, sizeof(bw), report_rate(bytes, time));
	human_iops(iops, sizeof(iops), report_rate(ios, time));
	fprintf(f, " %s | %llu | %s | %s |", fio_ddir_name(d),
		(unsigned long long)ios, iops, bw);
	table_lats(f, ds ? &ds->lat : NULL, u);
	fputc('\n', f);
}

/* fio reports read, write and trim apart: so does a run that mixes
 * them, per path and in total. */
static void table_split(FILE *f, const struct run_result *r, unsigned dirs,
			const struct lat_unit *u)
{
	unsigned i, d;

	fputs("\n| path | ddir | I/Os | IOPS | bandwidth |", f);
	table_lat_heads(f, u);
	fputs("\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (i = 0; i <= r->nr_paths; i++)
		for (d = 0; d < DDIR_NR; d++) {
			if (!(dirs & 1U << d))
				continue;
			fprintf(f, "| %s |", i < r->nr_paths ? r->names[i] :
				"total");
			table_ddir(f, i < r->nr_paths ? &r->path[i] : &r->total,
				   d, r->window, u);
		}
}

static void table_job_row(FILE *f, const struct job_report *j,
			  const char *ddir, uint64_t ios, uint64_t bytes,
			  const struct lat_hist *lat, const struct lat_unit *u)
{
	char bw[64], iops[32];

	human_bw(bw, sizeof(bw), report_rate(bytes, j->runtime));
	human_iops(iops, sizeof(iops), report_rate(ios, j->runtime));
	fprintf(f, "| %s | %u | %u | %s | %llu | %s | %s |", j->name,
		j->group, j->clones, ddir, (unsigned long long)ios, iops, bw);
	table_lats(f, lat, u);
	fprintf(f, " %.3f |\n", (double)j->runtime / 1e9);
}

/* Each report unit (job, or group with group_reporting), as fio's: all
 * its directions, then each when the run mixes them (a run of one
 * direction names it). */
static void table_jobs(FILE *f, const struct run_result *r, unsigned dirs,
		       const struct lat_unit *u)
{
	bool mixed = dirs & (dirs - 1);
	unsigned n, d;

	fputs("\n| job | group | clones | ddir | I/Os | IOPS | bandwidth |", f);
	table_lat_heads(f, u);
	fputs(" runtime (s) |\n"
	      "|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (n = 0; n < r->nr_jobs; n++) {
		const struct job_report *j = &r->job[n];

		table_job_row(f, j, mixed || !dirs ? "all" :
			      fio_ddir_name((unsigned)__builtin_ctz(dirs)),
			      j->st.ios, j->st.bytes, &j->st.lat, u);
		for (d = 0; mixed && d < DDIR_NR; d++) {
			const struct ddir_stats *ds = j->st.dir[d];

			if (dirs & 1U << d)
				table_job_row(f, j, fio_ddir_name(d),
					      ds ? ds->ios : 0,
					      ds ? ds->bytes : 0,
					      ds ? &ds->lat : NULL, u);
		}
	}
}

static void run_table(FILE *f, const struct provenance *pv,
		      const struct scenario *sc, const struct run_result *r)
{
	const struct lat_unit *u = run_lat_unit(r);
	bool faults = show_faults(sc);
	unsigned i, dirs = run_ddirs(r);
	char bw[64], iops[32], v[4][32];

	header_line(f, "", pv, sc);
	fputs("\n| path | I/Os | share | bytes share | busy | best |", f);
	table_lat_heads(f, u);
	fputs(faults ? " errors |\n" : "\n", f);
	fputs("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|", f);
	fputs(faults ? "--:|\n" : "\n", f);
	for (i = 0; i <= r->nr_paths; i++) {
		const struct path_stats *st = i < r->nr_paths ? &r->path[i] :
			&r->total;

		human_share(v[0], sizeof(v[0]),
			    report_ratio(st->ios, r->total.ios), 3);
		human_share(v[1], sizeof(v[1]),
			    report_ratio(st->bytes, r->total.bytes), 3);
		fprintf(f, "| %s | %llu | %s | %s | ",
			i < r->nr_paths ? r->names[i] : "total",
			(unsigned long long)st->ios, v[0], v[1]);
		if (i < r->nr_paths) {
			human_share(v[2], sizeof(v[2]),
				    report_ratio(st->busy, r->window), 3);
			human_share(v[3], sizeof(v[3]), r->best[i], 3);
			fprintf(f, "%s | %s |", v[2], v[3]);
		} else {
			fputs("| |", f);
		}
		table_lats(f, &st->lat, u);
		if (faults)
			fprintf(f, " %llu |", (unsigned long long)st->errors);
		fputc('\n', f);
	}
	if (dirs & (dirs - 1))
		table_split(f, r, dirs, u);
	if (r->nr_jobs > 1)
		table_jobs(f, r, dirs, u);
	human_bw(bw, sizeof(bw), report_rate(r->total.bytes, r->window));
	human_iops(iops, sizeof(iops), report_rate(r->total.ios, r->window));
	fprintf(f, "\nIOPS %s, bandwidth %s, no path %llu, failed %llu, "
		"simulated %.3f s", iops, bw,
		(unsigned long long)r->no_path, (unsigned long long)r->failed,
		(double)r->window / 1e9);
	if (faults)
		fprintf(f, ", errors %llu, requeued %llu, without a path "
			"%.6f s", (unsigned long long)r->total.errors,
			(unsigned long long)r->requeued,
			(double)r->no_path_time / 1e9);
	fputc('\n', f);
}

/* The last interval closed when the run ended, with the device as the
 * run's end leaves it: its status/table pair is printed once. */
static bool dmsetup_same_end(const struct series *sr, const char *end)
{
	const char *last = sr->dmsetup, *p;

	if (!sr->ends_at_run_end)
		return false;
	/* the pair after the last "# T s" line (no status or table line
	 * begins with '#') */
	for (p = sr->dmsetup; (p = strstr(p, "\n#")); p++)
		last = p + 1;
	last = strchr(last, '\n');
	return last && !strcmp(last + 1, end);
}

void report_run(FILE *f, enum out_format fmt, const struct provenance *pv,
		const struct scenario *sc, const struct run_result *r)
{
	switch (fmt) {
	case FMT_TABLE:
		run_table(f, pv, sc, r);
		break;
	case FMT_CSV:
		header_line(f, "# ", pv, sc);
		report_run_rows(f, fmt, r);
		break;
	case FMT_JSON:
		json_meta(f, "run", pv, sc);
		report_run_rows(f, fmt, r);
		break;
	case FMT_DMSETUP:
		/* the device alone, as dmsetup prints it: status, then table;
		 * with --interval after each interval's, the run's end last */
		if (r->series && r->series->dmsetup) {
			fputs(r->series->dmsetup, f);
			if (dmsetup_same_end(r->series, r->dmsetup))
				break;
			fputs("# the run's end\n", f);
		}
		fputs(r->dmsetup, f);
		break;
	}
}

void report_fio(FILE *f, unsigned formats, unsigned terse_version,
		const struct provenance *pv, const struct scenario *sc,
		const struct run_result *r)
{
	struct fio_report fr;

	fio_report_build(&fr, pv, sc, r);
	/* fio's buffers, printed in this order (__FIO_OUTPUT_*) */
	if (formats & FIO_OUT_TERSE)
		fio_terse(f, &fr, terse_version);
	if (formats & (FIO_OUT_JSON | FIO_OUT_JSON_PLUS))
		fio_json(f, &fr, formats & FIO_OUT_JSON_PLUS);
	if (formats & FIO_OUT_NORMAL)
		run_table(f, pv, sc, r);
	fio_report_free(&fr);
}
