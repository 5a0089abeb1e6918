/*
 * report.c: one run's result as a Markdown table (CSV and JSON rows:
 * report/report-fields.c), and what every output shares: the provenance
 * line or object (rates and ratios: report/report-fields.c; CSV and JSON
 * quoting: lib/escape.c).
 */
#include <string.h>

#include "report.h"
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
	fprintf(f, "%smpsim %s: scenario %s, selector %s%s%s, clock %s, "
		"mode %s, HZ %u, %sseed %llu%s%s\n", lead, MPSIM_VERSION,
		pv->scenario, sel,
		sc->selector_source[0] ? " from " : "", sc->selector_source,
		start_clock_name(sc->clock), mode_name(sc->mode),
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

/* The four latency cells of a table row: a dash when nothing completed
 * (no latency, not 0). */
static void table_lats(FILE *f, const struct lat_hist *h)
{
	if (!h || !h->count) {
		fputs(" - | - | - | - |", f);
		return;
	}
	fprintf(f, " %.1f | %.1f | %.1f | %.1f |", lat_mean(h) / 1e3,
		lat_quantile(h, 0.50) / 1e3, lat_quantile(h, 0.99) / 1e3,
		lat_quantile(h, 0.999) / 1e3);
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

/* One direction's cells: ios, iops, bw_bytes and the latencies. */
static void table_ddir(FILE *f, const struct path_stats *st, unsigned d,
		       sim_ns time)
{
	const struct ddir_stats *ds = st->dir[d];
	uint64_t ios = ds ? ds->ios : 0, bytes = ds ? ds->bytes : 0;

	fprintf(f, " %s | %llu | %.0f | %.0f |", fio_ddir_name(d),
		(unsigned long long)ios, report_rate(ios, time),
		report_rate(bytes, time));
	table_lats(f, ds ? &ds->lat : NULL);
	fputc('\n', f);
}

/* fio reports read, write and trim apart: so does a run that mixes
 * them, per path and in total. */
static void table_split(FILE *f, const struct run_result *r, unsigned dirs)
{
	unsigned i, d;

	fputs("\n| path | ddir | ios | iops | bw_bytes | lat_mean_us | "
	      "lat_p50_us | lat_p99_us | lat_p999_us |\n"
	      "|---|---|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (i = 0; i <= r->nr_paths; i++)
		for (d = 0; d < DDIR_NR; d++) {
			if (!(dirs & 1U << d))
				continue;
			fprintf(f, "| %s |", i < r->nr_paths ? r->names[i] :
				"total");
			table_ddir(f, i < r->nr_paths ? &r->path[i] : &r->total,
				   d, r->window);
		}
}

static void table_job_row(FILE *f, const struct job_report *j,
			  const char *ddir, uint64_t ios, uint64_t bytes,
			  const struct lat_hist *lat)
{
	fprintf(f, "| %s | %u | %u | %s | %llu | %.0f | %.0f |", j->name,
		j->group, j->clones, ddir, (unsigned long long)ios,
		report_rate(ios, j->runtime), report_rate(bytes, j->runtime));
	table_lats(f, lat);
	fprintf(f, " %.3f |\n", (double)j->runtime / 1e9);
}

/* Each report unit (job, or group with group_reporting), as fio's: all
 * its directions, then each when the run mixes them (a run of one
 * direction names it). */
static void table_jobs(FILE *f, const struct run_result *r, unsigned dirs)
{
	bool mixed = dirs & (dirs - 1);
	unsigned u, d;

	fputs("\n| job | group | clones | ddir | ios | iops | bw_bytes | "
	      "lat_mean_us | lat_p50_us | lat_p99_us | lat_p999_us | "
	      "runtime_s |\n"
	      "|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (u = 0; u < r->nr_jobs; u++) {
		const struct job_report *j = &r->job[u];

		table_job_row(f, j, mixed || !dirs ? "all" :
			      fio_ddir_name((unsigned)__builtin_ctz(dirs)),
			      j->st.ios, j->st.bytes, &j->st.lat);
		for (d = 0; mixed && d < DDIR_NR; d++) {
			const struct ddir_stats *ds = j->st.dir[d];

			if (dirs & 1U << d)
				table_job_row(f, j, fio_ddir_name(d),
					      ds ? ds->ios : 0,
					      ds ? ds->bytes : 0,
					      ds ? &ds->lat : NULL);
		}
	}
}

static void run_table(FILE *f, const struct provenance *pv,
		      const struct scenario *sc, const struct run_result *r)
{
	bool faults = show_faults(sc);
	unsigned i, dirs = run_ddirs(r);

	header_line(f, "", pv, sc);
	fputs("\n| path | ios | share | bytes_share | busy | best | "
	      "lat_mean_us | lat_p50_us | lat_p99_us | lat_p999_us |", f);
	fputs(faults ? " errors |\n" : "\n", f);
	fputs("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|", f);
	fputs(faults ? "--:|\n" : "\n", f);
	for (i = 0; i <= r->nr_paths; i++) {
		const struct path_stats *st = i < r->nr_paths ? &r->path[i] :
			&r->total;

		fprintf(f, "| %s | %llu | %.3f | %.3f | ",
			i < r->nr_paths ? r->names[i] : "total",
			(unsigned long long)st->ios,
			report_ratio(st->ios, r->total.ios),
			report_ratio(st->bytes, r->total.bytes));
		if (i < r->nr_paths)
			fprintf(f, "%.3f | %.3f |",
				report_ratio(st->busy, r->window), r->best[i]);
		else
			fputs("| |", f);
		table_lats(f, &st->lat);
		if (faults)
			fprintf(f, " %llu |", (unsigned long long)st->errors);
		fputc('\n', f);
	}
	if (dirs & (dirs - 1))
		table_split(f, r, dirs);
	if (r->nr_jobs > 1)
		table_jobs(f, r, dirs);
	fprintf(f, "\niops %.0f, bw_bytes %.0f B/s, no_path %llu, failed %llu, "
		"sim_time_s %.3f", report_rate(r->total.ios, r->window),
		report_rate(r->total.bytes, r->window),
		(unsigned long long)r->no_path, (unsigned long long)r->failed,
		(double)r->window / 1e9);
	if (faults)
		fprintf(f, ", errors %llu, requeued %llu, no_path_time_s %.6f",
			(unsigned long long)r->total.errors,
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
