/* report.c: one run's result as a Markdown table, CSV or JSON. */
#include <string.h>

#include "report.h"

int out_format_parse(const char *s, enum out_format *f)
{
	if (!strcmp(s, "table"))
		*f = FMT_TABLE;
	else if (!strcmp(s, "csv"))
		*f = FMT_CSV;
	else if (!strcmp(s, "json"))
		*f = FMT_JSON;
	else
		return -EINVAL;
	return 0;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *mode_name(enum mp_mode m)
{
	return m == MODE_BIO ? "bio" : "request";
}

/* The figures of one row, shared by the three formats. */
struct row {
	const char *name;
	uint64_t ios;
	double share, bytes_share, busy, best;
	double mean, p50, p99, p999;		/* us */
};

static void row_fill(struct row *w, const char *name,
		     const struct path_stats *ps, const struct run_result *r,
		     double best)
{
	double win = (double)r->window;

	w->name = name;
	w->ios = ps->ios;
	w->share = r->total.ios ? (double)ps->ios / (double)r->total.ios : 0;
	w->bytes_share = r->total.bytes ?
		(double)ps->bytes / (double)r->total.bytes : 0;
	w->busy = win > 0 ? (double)ps->busy / win : 0;
	w->best = best;
	w->mean = lat_mean(&ps->lat) / 1e3;
	w->p50 = lat_quantile(&ps->lat, 0.50) / 1e3;
	w->p99 = lat_quantile(&ps->lat, 0.99) / 1e3;
	w->p999 = lat_quantile(&ps->lat, 0.999) / 1e3;
}

static double per_sec(uint64_t n, sim_ns window)
{
	return window ? (double)n * 1e9 / (double)window : 0;
}

static void header_line(FILE *f, const char *lead,
			const struct provenance *pv, const struct scenario *sc)
{
	fprintf(f, "%smpsim %s: scenario %s, selector %s, clock %s, mode %s, "
		"HZ %u, %sseed %llu%s%s\n", lead, MPSIM_VERSION, pv->scenario,
		sc->selector, start_clock_name(sc->clock), mode_name(sc->mode),
		sc->hz, sc->select_sched_clock ? "select_clock sched_clock, " : "",
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

static const struct path_stats *row_stats(const struct run_result *r,
					  unsigned i)
{
	return i < r->nr_paths ? &r->path[i] : &r->total;
}

static void run_table(FILE *f, const struct provenance *pv,
		      const struct scenario *sc, const struct run_result *r)
{
	bool faults = show_faults(sc);
	struct row w;
	unsigned i;

	header_line(f, "", pv, sc);
	fputs("\n| path | ios | share | bytes_share | busy | best | "
	      "lat_mean_us | lat_p50_us | lat_p99_us | lat_p999_us |", f);
	fputs(faults ? " errors |\n" : "\n", f);
	fputs("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|", f);
	fputs(faults ? "--:|\n" : "\n", f);
	for (i = 0; i <= r->nr_paths; i++) {
		if (i < r->nr_paths)
			row_fill(&w, r->names[i], &r->path[i], r, r->best[i]);
		else
			row_fill(&w, "total", &r->total, r, 1.0);
		fprintf(f, "| %s | %llu | %.3f | %.3f | ", w.name,
			(unsigned long long)w.ios, w.share, w.bytes_share);
		if (i < r->nr_paths)
			fprintf(f, "%.3f | %.3f | ", w.busy, w.best);
		else
			fputs("| | ", f);
		fprintf(f, "%.1f | %.1f | %.1f | %.1f |",
			w.mean, w.p50, w.p99, w.p999);
		if (faults)
			fprintf(f, " %llu |", (unsigned long long)
				row_stats(r, i)->errors);
		fputc('\n', f);
	}
	fprintf(f, "\niops %.0f, bw_bytes %.0f B/s, no_path %llu, failed %llu, "
		"sim_time_s %.3f", per_sec(r->total.ios, r->window),
		per_sec(r->total.bytes, r->window),
		(unsigned long long)r->no_path, (unsigned long long)r->failed,
		(double)r->window / 1e9);
	if (faults)
		fprintf(f, ", errors %llu, requeued %llu, no_path_time_s %.6f",
			(unsigned long long)r->total.errors,
			(unsigned long long)r->requeued,
			(double)r->no_path_time / 1e9);
	fputc('\n', f);
}

static void run_csv(FILE *f, const struct provenance *pv,
		    const struct scenario *sc, const struct run_result *r)
{
	bool faults = show_faults(sc);
	struct row w;
	unsigned i;

	header_line(f, "# ", pv, sc);
	fputs("path,ios,share,bytes_share,busy,best,lat_mean_us,lat_p50_us,"
	      "lat_p99_us,lat_p999_us,iops,bw_bytes,no_path,sim_time_s", f);
	fputs(faults ? ",errors,requeued,failed,no_path_time_s\n" : "\n", f);
	for (i = 0; i <= r->nr_paths; i++) {
		if (i < r->nr_paths)
			row_fill(&w, r->names[i], &r->path[i], r, r->best[i]);
		else
			row_fill(&w, "total", &r->total, r, 1.0);
		fprintf(f, "%s,%llu,%.6f,%.6f,", w.name,
			(unsigned long long)w.ios, w.share, w.bytes_share);
		/* busy and best are per-path figures */
		if (i < r->nr_paths)
			fprintf(f, "%.6f,%.6f,", w.busy, w.best);
		else
			fputs(",,", f);
		fprintf(f, "%.3f,%.3f,%.3f,%.3f,", w.mean, w.p50, w.p99,
			w.p999);
		if (i < r->nr_paths)
			fputs(",,,", f);
		else
			fprintf(f, "%.3f,%.1f,%llu,%.6f",
				per_sec(r->total.ios, r->window),
				per_sec(r->total.bytes, r->window),
				(unsigned long long)r->no_path,
				(double)r->window / 1e9);
		if (faults && i < r->nr_paths)
			fprintf(f, ",%llu,,,", (unsigned long long)
				r->path[i].errors);
		else if (faults)
			fprintf(f, ",%llu,%llu,%llu,%.6f",
				(unsigned long long)r->total.errors,
				(unsigned long long)r->requeued,
				(unsigned long long)r->failed,
				(double)r->no_path_time / 1e9);
		fputc('\n', f);
	}
}

/* The {"mpsim": {...}} object that opens every JSON document. */
static void json_meta(FILE *f, const struct provenance *pv,
		      const struct scenario *sc)
{
	fputs("{\"mpsim\": {\"version\": ", f);
	json_string(f, MPSIM_VERSION);
	fputs(", \"scenario\": ", f);
	json_string(f, pv->scenario);
	fprintf(f, ", \"seed\": %llu, \"options\": {\"mode\": \"%s\", "
		"\"selector\": ", (unsigned long long)pv->seed,
		mode_name(sc->mode));
	json_string(f, sc->selector);
	fputs(", \"selector_args\": ", f);
	json_string(f, sc->selector_args);
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

static void json_row(FILE *f, const struct row *w, bool path)
{
	fputs("{\"path\": ", f);
	json_string(f, w->name);
	fprintf(f, ", \"ios\": %llu, \"share\": %.6f, \"bytes_share\": %.6f, ",
		(unsigned long long)w->ios, w->share, w->bytes_share);
	if (path)
		fprintf(f, "\"busy\": %.6f, \"best\": %.6f, ", w->busy, w->best);
	fprintf(f, "\"lat_mean_us\": %.3f, \"lat_p50_us\": %.3f, "
		"\"lat_p99_us\": %.3f, \"lat_p999_us\": %.3f", w->mean, w->p50,
		w->p99, w->p999);
}

static void run_json(FILE *f, const struct provenance *pv,
		     const struct scenario *sc, const struct run_result *r)
{
	struct row w;
	unsigned i;

	json_meta(f, pv, sc);
	fputs(",\n \"paths\": [", f);
	for (i = 0; i < r->nr_paths; i++) {
		row_fill(&w, r->names[i], &r->path[i], r, r->best[i]);
		fputs(i ? ",\n  " : "\n  ", f);
		json_row(f, &w, true);
		if (show_faults(sc))
			fprintf(f, ", \"errors\": %llu",
				(unsigned long long)r->path[i].errors);
		fputc('}', f);
	}
	row_fill(&w, "total", &r->total, r, 1.0);
	fputs("],\n \"total\": ", f);
	json_row(f, &w, false);
	fprintf(f, ", \"iops\": %.3f, \"bw_bytes\": %.1f, \"no_path\": %llu, "
		"\"failed\": %llu, \"sim_time_s\": %.6f",
		per_sec(r->total.ios, r->window),
		per_sec(r->total.bytes, r->window),
		(unsigned long long)r->no_path, (unsigned long long)r->failed,
		(double)r->window / 1e9);
	if (show_faults(sc))
		fprintf(f, ", \"errors\": %llu, \"requeued\": %llu, "
			"\"no_path_time_s\": %.6f",
			(unsigned long long)r->total.errors,
			(unsigned long long)r->requeued,
			(double)r->no_path_time / 1e9);
	fputs("}}\n", f);
}

void report_run(FILE *f, enum out_format fmt, const struct provenance *pv,
		const struct scenario *sc, const struct run_result *r)
{
	switch (fmt) {
	case FMT_TABLE:
		run_table(f, pv, sc, r);
		break;
	case FMT_CSV:
		run_csv(f, pv, sc, r);
		break;
	case FMT_JSON:
		run_json(f, pv, sc, r);
		break;
	}
}
