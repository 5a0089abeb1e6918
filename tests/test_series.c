/*
 * test_series.c: the per-path time series of --interval (sim/series.h).
 * The intervals of a run add up to its totals; recording them changes
 * no result; a closed loop keeps exactly its depth in flight in every
 * interval; the selector's estimate at an interval's end is what the
 * kernel arithmetic predicts.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "report/report.h"
#include "input/table.h"
#include "sim/run.h"
#include "sim/series.h"

static void load(struct scenario *sc, const char *name, const char *const *kv)
{
	char err[ERR_MAX] = "";

	scenario_init(sc);
	if (strchr(name, '/'))
		cr_assert_eq(scenario_load_file(sc, name, err), 0, "%s", err);
	else
		cr_assert_eq(scenario_load_builtin(sc, name, err), 0, "%s", err);
	for (; kv && *kv; kv += 2)
		cr_assert_eq(scenario_set(sc, kv[0], kv[1], err), 0, "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

static void run_watched(const struct scenario *sc, sim_ns interval,
			struct run_result *r)
{
	struct run_watch w = { .interval = interval };
	char err[ERR_MAX] = "";

	cr_assert_eq(run_scenario_watched(sc, 1, interval ? &w : NULL, r, err),
		     0, "%s", err);
}

/* Every per-path figure summed over the intervals is the path's total. */
static void assert_sums(const struct run_result *r)
{
	const struct series *sr = r->series;
	sim_ns len = 0;
	unsigned k, p;

	cr_assert_not_null(sr);
	cr_assert_gt(sr->n, 1);
	for (k = 0; k < sr->n; k++) {
		cr_assert_gt(sr->t_end[k], sr->t_start[k]);
		cr_assert_leq(sr->t_end[k] - sr->t_start[k], sr->interval);
		if (k)
			cr_assert_eq(sr->t_start[k], sr->t_end[k - 1],
				     "intervals follow each other");
		len += sr->t_end[k] - sr->t_start[k];
	}
	cr_assert_eq(len, r->window, "the intervals cover the window");
	for (p = 0; p <= r->nr_paths; p++) {
		const struct path_stats *ps = p < r->nr_paths ? &r->path[p] :
					      &r->total;
		uint64_t ios = 0, bytes = 0, errors = 0, n = 0, sum = 0;
		sim_ns busy = 0;

		for (k = 0; k < sr->n; k++) {
			const struct series_row *w = series_at(sr, k, p);

			ios += w->ios;
			bytes += w->bytes;
			errors += w->errors;
			busy += w->busy;
			n += w->lat_count;
			sum += w->lat_sum;
		}
		cr_assert_eq(ios, ps->ios, "path %u: ios", p);
		cr_assert_eq(bytes, ps->bytes, "path %u: bytes", p);
		cr_assert_eq(errors, ps->errors, "path %u: errors", p);
		cr_assert_eq(n, ps->lat.count, "path %u: latencies", p);
		cr_assert_eq(sum, ps->lat.sum, "path %u: latency sum", p);
		if (p < r->nr_paths)
			cr_assert_eq(busy, ps->busy, "path %u: busy ns", p);
	}
}

Test(series, intervals_add_up_to_the_totals)
{
	/* a ramp, and an interval that does not divide the window */
	static const char *const kv[] = {
		"selector", "hst", "clock", "ktime", "ramp_time", "200ms",
		"runtime", "1s", NULL
	};
	struct scenario sc;
	struct run_result r;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 70 * NSEC_PER_MSEC, &r);
	assert_sums(&r);
	cr_assert_eq(r.series->t_start[0], 200 * NSEC_PER_MSEC,
		     "the series starts with the window, after the ramp");
	cr_assert_eq(r.series->n, 15, "14 whole intervals and a 20 ms one");
	cr_assert_str_eq(r.series->estimate_name, "hst");
	run_result_free(&r);
	scenario_free(&sc);
}

Test(series, add_up_with_failures_and_a_run_that_ends_by_count)
{
	struct scenario sc;
	struct run_result r;

	load(&sc, "tests/golden/failover.ini", NULL);
	run_watched(&sc, 7 * NSEC_PER_MSEC, &r);
	assert_sums(&r);
	cr_assert_gt(r.total.errors, 0, "the scenario's failures error I/O");
	run_result_free(&r);
	scenario_free(&sc);

	static const char *const kv[] = {
		"selector", "ql", "number_ios", "20000", "runtime", "0",
		"ramp_time", "0", NULL
	};
	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 10 * NSEC_PER_MSEC, &r);
	assert_sums(&r);
	cr_assert_str_eq(r.series->estimate_name, "qlen");
	run_result_free(&r);
	scenario_free(&sc);
}

Test(series, recording_changes_no_result)
{
	static const char *const kv[] = {
		"selector", "st", "runtime", "500ms", NULL
	};
	struct scenario sc;
	struct run_result a, b;
	unsigned p;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 0, &a);
	run_watched(&sc, 3 * NSEC_PER_MSEC, &b);
	cr_assert_null(a.series);
	cr_assert_eq(a.window, b.window);
	cr_assert_eq(a.ios_simulated, b.ios_simulated);
	for (p = 0; p < a.nr_paths; p++) {
		cr_assert_eq(a.path[p].ios, b.path[p].ios);
		cr_assert_eq(a.path[p].busy, b.path[p].busy);
		cr_assert_eq(a.path[p].lat.sum, b.path[p].lat.sum);
		cr_assert_eq(a.path[p].lat.max, b.path[p].lat.max);
	}
	run_result_free(&a);
	run_result_free(&b);
	scenario_free(&sc);
}

/*
 * A closed loop at depth 64 resubmits at the instant it completes, and
 * maps at once (no path fails): 64 I/Os are in flight at every moment
 * of the runtime, so the in-flight integral of every interval up to its
 * end is 64 x its length, and the paths' mean in flight add up to 64.
 * After it the job drains: fewer, and none at the end.
 */
Test(series, a_closed_loop_keeps_its_depth_in_flight)
{
	static const char *const kv[] = {
		"selector", "hst", "clock", "jiffies", "runtime", "300ms", NULL
	};
	struct scenario sc;
	struct run_result r;
	const struct series *sr;
	sim_ns end;
	unsigned k;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 13 * NSEC_PER_MSEC, &r);
	sr = r.series;
	end = sc.jobs[0].ramp_time + 300 * NSEC_PER_MSEC;
	cr_assert_gt(sr->t_end[sr->n - 1], end);
	for (k = 0; k < sr->n; k++)
		if (sr->t_end[k] <= end)
			cr_assert_eq(series_at(sr, k, sr->nr_paths)->inflight,
				     64 * (sr->t_end[k] - sr->t_start[k]),
				     "interval %u", k);
		else
			cr_assert_lt(series_at(sr, k, sr->nr_paths)->inflight,
				     64 * (sr->t_end[k] - sr->t_start[k]),
				     "interval %u", k);
	run_result_free(&r);
	scenario_free(&sc);
}

/* One interval over the whole window: its p99 is the run's. */
Test(series, a_single_interval_has_the_runs_percentile)
{
	static const char *const kv[] = {
		"selector", "st", "runtime", "200ms", NULL
	};
	struct scenario sc;
	struct run_result r;
	unsigned p;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 10 * NSEC_PER_SEC, &r);
	cr_assert_eq(r.series->n, 1);
	for (p = 0; p < r.nr_paths; p++)
		cr_assert_float_eq(series_at(r.series, 0, p)->lat_p99,
				   lat_quantile(&r.path[p].lat, 0.99), 1e-9);
	cr_assert_float_eq(series_at(r.series, 0, r.nr_paths)->lat_p99,
			   lat_quantile(&r.total.lat, 0.99), 1e-9);
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * HST (jiffies) at 3600 s of uptime and HZ=250: a path's first sample is
 * the 300 s by which the jiffies epoch lags ktime (README), weighted 0,
 * so its hst becomes about 3e8 us; only paths that complete hundreds of
 * I/Os decay back towards their service time.  At the end of the first
 * 100 ms the five slow paths still hold an estimate above 1e7 us (each
 * 0.949 decay needs a completion) and the fast ones are below 1 ms.  The
 * trace status gives hst as the kernel keeps it, ns x 1024.
 */
Test(series, hst_jiffies_estimate_after_the_first_interval)
{
	static const char *const kv[] = {
		"selector", "hst", "clock", "jiffies", "ramp_time", "0",
		"runtime", "200ms", NULL
	};
	static const char *const slow[] = { "sdg", "sdh", "sdi", "sdj", "sdk" };
	struct scenario sc;
	struct run_result r;
	unsigned p, i;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 100 * NSEC_PER_MSEC, &r);
	for (p = 0; p < r.nr_paths; p++) {
		const struct series_row *w = series_at(r.series, 0, p);
		bool is_slow = false;

		for (i = 0; i < 5; i++)
			is_slow |= !strcmp(r.names[p], slow[i]);
		cr_assert(w->has_estimate);
		if (is_slow)
			cr_assert_gt(w->estimate, 1e7 * 1e3 * 1024, "%s",
				     r.names[p]);
		else
			cr_assert_lt(w->estimate, 1e3 * 1e3 * 1024, "%s",
				     r.names[p]);
	}
	run_result_free(&r);
	scenario_free(&sc);
}

Test(series, too_many_intervals_are_refused)
{
	static const char *const kv[] = { "runtime", "10s", NULL };
	struct scenario sc;
	struct run_result r;
	struct run_watch w = { .interval = 1000 };
	char err[ERR_MAX] = "";

	load(&sc, "hst-bio-mpath", kv);
	cr_assert_eq(run_scenario_watched(&sc, 1, &w, &r, err), -EINVAL);
	cr_assert(strstr(err, "--interval"), "%s", err);
	scenario_free(&sc);
}

/* --lat_hist: per path, the buckets' counts add up to the path's I/Os,
 * the bounds rise, and the CDF ends at 1. */
Test(series, latency_histogram_file_counts_every_io)
{
	static const char *const kv[] = {
		"selector", "hst", "clock", "ktime", "runtime", "300ms", NULL
	};
	struct provenance pv = { .scenario = "hst-bio-mpath", .seed = 1 };
	struct scenario sc;
	struct run_result r;
	char *buf = NULL, *line, *save;
	size_t len = 0;
	FILE *f;
	unsigned p, lines = 0;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 0, &r);
	f = open_memstream(&buf, &len);
	hist_csv_head(f, &pv);
	hist_csv(f, "historical-service-time", "ktime", &r);
	fclose(f);
	for (p = 0; p <= r.nr_paths; p++) {
		const char *name = p < r.nr_paths ? r.names[p] : "total";
		uint64_t ios = p < r.nr_paths ? r.path[p].ios : r.total.ios;
		unsigned long long n, sum = 0;
		double lo, hi, cdf = 0, last_hi = 0;
		char *copy = strdup(buf), path[32];

		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (sscanf(line, "historical-service-time,ktime,%31[^,],"
				   "all,%lf,%lf,%llu,%lf", path, &lo, &hi, &n,
				   &cdf) != 5 || strcmp(path, name))
				continue;
			cr_assert_gt(hi, lo);
			cr_assert_geq(lo, last_hi, "%s: buckets rise", name);
			last_hi = hi;
			sum += n;
			lines++;
		}
		free(copy);
		cr_assert_eq(sum, ios, "%s", name);
		cr_assert_float_eq(cdf, 1.0, 1e-9, "%s", name);
	}
	cr_assert_gt(lines, 11 * 20, "many buckets per path");
	free(buf);
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * A run that ends when its jobs are done (number_ios, no runtime) ends
 * at its last completion with or without marks in the queue, and the
 * progress line's marks (every simulated ms) give way to the series'
 * when the window opens: the window, and every figure, stay the same.
 */
Test(series, marks_never_stretch_a_run_that_ends_by_count)
{
	static const char *const kv[] = {
		"selector", "hst", "clock", "ktime", "number_ios", "30000",
		"runtime", "0", "ramp_time", "300ms", NULL
	};
	struct run_watch w = { .interval = 100 * NSEC_PER_USEC,
			       .progress = true };
	struct scenario sc;
	struct run_result a, b;
	char err[ERR_MAX] = "";
	unsigned p;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 0, &a);
	cr_assert_eq(run_scenario_watched(&sc, 1, &w, &b, err), 0, "%s", err);
	cr_assert_gt(a.window, 0);
	cr_assert_eq(a.window, b.window, "the run ends at its last completion");
	cr_assert_eq(a.events, b.events, "marks are not counted");
	for (p = 0; p < a.nr_paths; p++) {
		cr_assert_eq(a.path[p].ios, b.path[p].ios);
		cr_assert_eq(a.path[p].busy, b.path[p].busy);
	}
	assert_sums(&b);
	run_result_free(&a);
	run_result_free(&b);
	scenario_free(&sc);
}

/* --lat_hist of a run that mixes reads and writes: each direction's rows
 * count that direction's I/Os, and together the path's. */
Test(series, latency_histogram_file_splits_mixed_directions)
{
	static const char *const kv[] = {
		"selector", "st", "rw", "randrw", "runtime", "200ms", NULL
	};
	struct provenance pv = { .scenario = "hst-bio-mpath", .seed = 1 };
	struct scenario sc;
	struct run_result r;
	unsigned long long n, per[3] = { 0, 0, 0 };
	char *buf = NULL, *line, *save, dir[8];
	double lo, hi, cdf;
	size_t len = 0;
	FILE *f;

	load(&sc, "hst-bio-mpath", kv);
	run_watched(&sc, 0, &r);
	f = open_memstream(&buf, &len);
	hist_csv_head(f, &pv);
	hist_csv(f, "service-time", "ktime", &r);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "service-time,ktime,sdd,%7[^,],%lf,%lf,%llu,%lf",
			   dir, &lo, &hi, &n, &cdf) != 5)
			continue;
		per[!strcmp(dir, "all") ? 0 : !strcmp(dir, "read") ? 1 : 2] += n;
	}
	cr_assert_not_null(r.path[0].dir[DDIR_READ]);
	cr_assert_not_null(r.path[0].dir[DDIR_WRITE]);
	cr_assert_eq(per[1], r.path[0].dir[DDIR_READ]->ios);
	cr_assert_eq(per[2], r.path[0].dir[DDIR_WRITE]->ios);
	cr_assert_eq(per[0], r.path[0].ios);
	cr_assert_eq(per[0], per[1] + per[2]);
	free(buf);
	run_result_free(&r);
	scenario_free(&sc);
}
