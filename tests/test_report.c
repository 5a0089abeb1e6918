/*
 * test_report.c: what a run reports per direction and per job (fio's
 * report units), on paths whose every latency is known in closed form,
 * and the formats that write it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "report/report.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"

#define US	NSEC_PER_USEC
#define MS	NSEC_PER_MSEC

/*
 * No slot limit, so nothing queues: an I/O's latency is its service,
 * 100 us plus its bytes at 64000 KiB/s: a 4 KiB read 162.5 us, a 64 KiB
 * write 1100 us.
 */
#define WIDE_PATH \
	"[multipath]\nselector = round-robin\n" \
	"[path a]\nslots = 0\nservice = fixed:100us\nbandwidth = 64000k\n"

static void run_text(const char *text, struct scenario *sc,
		     struct run_result *res)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(sc, 1, res, err), 0, "%s", err);
}

static char *render(enum out_format fmt, const struct scenario *sc,
		    const struct run_result *res)
{
	struct provenance pv = { .scenario = "t.ini", .seed = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	report_run(f, fmt, &pv, sc, res);
	fclose(f);
	return buf;
}

/* The CSV field named col of the row whose first field is row. */
static void csv_get(const char *csv, const char *row, const char *col,
		    char *out, size_t n)
{
	char *copy = strdup(csv), *line, *save, *hdr = NULL;
	unsigned want = 0, i;

	out[0] = '\0';
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f, *s2, *p;

		if (line[0] == '#')
			continue;
		if (!hdr) {
			hdr = line;
			for (i = 0, p = line; ; i++) {
				size_t l = strcspn(p, ",");

				if (l == strlen(col) && !strncmp(p, col, l))
					break;
				cr_assert(p[l], "no column %s", col);
				p += l + 1;
			}
			want = i;
			continue;
		}
		if (strncmp(line, row, strlen(row)) || line[strlen(row)] != ',')
			continue;
		for (i = 0, f = line; i < want; i++)
			f += strcspn(f, ",") + 1;
		s2 = f + strcspn(f, ",");
		snprintf(out, n, "%.*s", (int)(s2 - f), f);
		free(copy);
		return;
	}
	free(copy);
	cr_assert_fail("no row %s", row);
}

Test(report, directions_apart_with_their_own_latency)
{
	struct scenario sc;
	struct run_result r;
	const struct ddir_stats *rd, *wr;
	char *csv, *table, v[64];

	run_text(WIDE_PATH "[mix]\nrw=randrw\nbs=4k,64k\niodepth=4\n"
		 "runtime=100ms\n", &sc, &r);
	rd = r.total.dir[DDIR_READ];
	wr = r.total.dir[DDIR_WRITE];
	cr_assert(rd && wr);
	/* every read and every write took exactly its service time */
	cr_assert_eq(rd->lat.min, 162500);
	cr_assert_eq(rd->lat.max, 162500);
	cr_assert_eq(wr->lat.min, 1100 * US);
	cr_assert_eq(wr->lat.max, 1100 * US);
	cr_assert_eq(rd->bytes, rd->ios * 4096);
	cr_assert_eq(wr->bytes, wr->ios * 65536);
	cr_assert_eq(rd->ios + wr->ios, r.total.ios);
	cr_assert_null(r.total.dir[DDIR_TRIM], "no trim issued, none held");
	/* the blended mean is the weighted one */
	cr_assert_float_eq(lat_mean(&r.total.lat),
			   (162500.0 * rd->ios + 1100e3 * wr->ios) /
			   (double)r.total.ios, 1e-6);

	csv = render(FMT_CSV, &sc, &r);
	csv_get(csv, "total", "read_lat_mean_us", v, sizeof(v));
	cr_assert_str_eq(v, "162.500");
	/* fio's p99 of 1100 us: the middle of its bucket 1097.7-1114.1 us */
	csv_get(csv, "total", "write_lat_p99_us", v, sizeof(v));
	cr_assert_str_eq(v, "1105.920");
	csv_get(csv, "a", "trim_lat_mean_us", v, sizeof(v));
	cr_assert_str_eq(v, "", "no trims: no latency");
	csv_get(csv, "a", "trim_ios", v, sizeof(v));
	cr_assert_str_eq(v, "0");
	table = render(FMT_TABLE, &sc, &r);
	cr_assert(strstr(table, "| total | read |"), "%s", table);
	cr_assert(strstr(table, "| total | write |"), "%s", table);
	cr_assert_null(strstr(table, "| total | trim |"), "%s", table);
	free(csv);
	free(table);
	run_result_free(&r);
	scenario_free(&sc);
}

Test(report, one_direction_no_split_and_one_histogram)
{
	struct scenario sc;
	struct run_result r;
	char *table;

	run_text(WIDE_PATH "[r]\nrw=randread\niodepth=2\nruntime=10ms\n",
		 &sc, &r);
	cr_assert_not_null(r.path[0].dir[DDIR_READ]);
	cr_assert_null(r.path[0].dir[DDIR_WRITE]);
	cr_assert_null(r.path[0].dir[DDIR_TRIM]);
	cr_assert_null(r.path[0].dir[DDIR_SYNC]);
	table = render(FMT_TABLE, &sc, &r);
	cr_assert_null(strstr(table, "| ddir |"), "%s", table);
	free(table);
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * Stonewall phases are fio's groups, each its own unit with its rates
 * over its own runtime: at depth 1, 9 writes of 1100 us back to back,
 * then 40 reads of 162.5 us (closed forms, no simulation needed).
 */
Test(report, stonewall_phases_are_units_with_their_own_runtime)
{
	struct scenario sc;
	struct run_result r;
	const struct job_report *w, *rd;

	run_text(WIDE_PATH
		 "[w]\nioengine=psync\nrw=write\nbs=64k\nnumber_ios=9\n"
		 "[r]\nstonewall\nioengine=psync\nrw=read\nnumber_ios=40\n",
		 &sc, &r);
	cr_assert_eq(r.nr_jobs, 2);
	w = &r.job[0];
	rd = &r.job[1];
	cr_assert_str_eq(w->name, "w");
	cr_assert_str_eq(rd->name, "r");
	cr_assert_eq(w->group, 0);
	cr_assert_eq(rd->group, 1);
	cr_assert_eq(w->st.ios, 9);
	cr_assert_eq(w->runtime, 9 * 1100 * US);
	cr_assert_eq(rd->st.ios, 40);
	cr_assert_eq(rd->runtime, 40 * 162500);
	cr_assert_null(w->st.dir[DDIR_READ]);
	cr_assert_null(rd->st.dir[DDIR_WRITE]);
	cr_assert_eq(rd->st.dir[DDIR_READ]->lat.max, 162500);
	/* the whole run is the total, as before */
	cr_assert_eq(r.total.ios, 49);
	run_result_free(&r);
	scenario_free(&sc);
}

Test(report, group_reporting_and_new_group)
{
	struct scenario sc;
	struct run_result r;
	uint64_t sum = 0;
	unsigned i;

	/* numjobs clones are units of their own, as fio's */
	run_text(WIDE_PATH "[c]\nrw=read\nnumjobs=3\nnumber_ios=10\n",
		 &sc, &r);
	cr_assert_eq(r.nr_jobs, 3);
	for (i = 0; i < 3; i++) {
		cr_assert_eq(r.job[i].clones, 1);
		cr_assert_eq(r.job[i].st.ios, 10);
		sum += r.job[i].st.ios;
	}
	cr_assert_eq(sum, r.total.ios);
	run_result_free(&r);
	scenario_free(&sc);

	/* group_reporting: one unit per group; new_group starts one */
	run_text(WIDE_PATH "[global]\ngroup_reporting\n"
		 "[a]\nrw=read\nnumjobs=2\nnumber_ios=10\n"
		 "[b]\nrw=read\nnumber_ios=5\n"
		 "[c]\nnew_group\nrw=write\nbs=64k\nnumber_ios=7\n",
		 &sc, &r);
	cr_assert_eq(r.nr_jobs, 2);
	cr_assert_str_eq(r.job[0].name, "a");
	cr_assert_eq(r.job[0].clones, 3);
	cr_assert_eq(r.job[0].st.ios, 25);
	cr_assert_eq(r.job[1].group, 1);
	cr_assert_eq(r.job[1].st.ios, 7);
	/* side by side with the group's reads, the writes take 7 x 1100 us */
	cr_assert_eq(r.job[1].runtime, 7 * 1100 * US);
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * Little's law per unit: two closed-loop jobs of different depths side
 * by side, each unit's iops x mean latency is its own depth.
 */
Test(report, littles_law_per_unit)
{
	struct scenario sc;
	struct run_result r;
	unsigned i;

	run_text("[multipath]\nselector = round-robin\n"
		 "[path a]\nslots = 2\nservice = exp:100us\n"
		 "[path b]\nslots = 1\nservice = exp:300us\n"
		 "[d2]\nrw=randread\niodepth=2\nruntime=2s\n"
		 "[d6]\nrw=randwrite\niodepth=6\nruntime=2s\n", &sc, &r);
	cr_assert_eq(r.nr_jobs, 2);
	for (i = 0; i < 2; i++) {
		const struct job_report *j = &r.job[i];
		double iops = (double)j->st.ios * 1e9 / (double)j->runtime;
		double l = iops * lat_mean(&j->st.lat) / 1e9;

		cr_assert_float_eq(l, i ? 6.0 : 2.0, 0.01 * (i ? 6 : 2),
				   "unit %s: %f in flight", j->name, l);
	}
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * fio's own ssd-test.fio (Debian's fio-examples): four stonewall phases
 * are four units, groups 0 to 3, each of the one direction it issues;
 * the run's total holds them all.
 */
Test(report, ssd_test_fio_phases)
{
	static const char *const names[] = {
		"seq-read", "rand-read", "seq-write", "rand-write",
	};
	static const unsigned dirs[] = {
		DDIR_READ, DDIR_READ, DDIR_WRITE, DDIR_WRITE,
	};
	struct scenario sc;
	struct run_result r;
	char err[ERR_MAX] = "";
	uint64_t sum = 0;
	unsigned i;

	cr_assert_eq(scenario_parse(&sc, WIDE_PATH, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_load_jobs(&sc, "/usr/share/doc/fio/examples/"
					"ssd-test.fio", err), 0, "%s", err);
	/* 10 ms per phase instead of a minute */
	cr_assert_eq(scenario_set(&sc, "runtime", "10ms", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &r, err), 0, "%s", err);
	cr_assert_eq(r.nr_jobs, 4);
	for (i = 0; i < 4; i++) {
		const struct job_report *j = &r.job[i];

		cr_assert_str_eq(j->name, names[i]);
		cr_assert_eq(j->group, i);
		cr_assert_eq(j->st.ios, j->st.dir[dirs[i]]->ios,
			     "%s issues one direction", j->name);
		/* every 4 KiB I/O takes 162.5 us: 10 ms of issuing, then
		 * the last ones drain */
		cr_assert_geq(j->runtime, 10 * MS);
		cr_assert_lt(j->runtime, 10 * MS + 200 * US);
		sum += j->st.ios;
	}
	cr_assert_eq(r.job[0].st.dir[DDIR_READ]->lat.max, 162500);
	cr_assert_eq(sum, r.total.ios);
	run_result_free(&r);
	scenario_free(&sc);
}

/* ---- the tables are for people ---- */

/* The line of text that starts with `start`, copied into out. */
static void line_of(const char *text, const char *start, char *out, size_t n)
{
	const char *p = strstr(text, start);

	cr_assert_not_null(p, "no line %s in:\n%s", start, text);
	snprintf(out, n, "%.*s", (int)strcspn(p, "\n"), p);
}

/*
 * Bandwidth as fio prints it, IEC then SI: writes of 64 KiB that take
 * 1100 us each at depth 1 complete 10 in 11 ms (the 10th, in flight
 * when the 10.5 ms runtime ends, completes and counts, and the window
 * runs to it), 10 * 65536 / 0.011 = 59578182 B/s: 58182 KiB/s is 56 MiB/s
 * and 838 KiB, 56.8MiB/s; 59578 kB/s is 59 MB/s and 578 kB, 59.6MB/s.
 */
Test(report, bandwidth_has_fio_units)
{
	struct scenario sc;
	struct run_result r;
	char *table, line[256];

	run_text(WIDE_PATH "[w]\nrw=write\nbs=64k\niodepth=1\n"
		 "ioengine=psync\nruntime=10500us\n", &sc, &r);
	cr_assert_eq(r.total.ios, 10);
	cr_assert_eq(r.window, 11 * MS);
	table = render(FMT_TABLE, &sc, &r);
	line_of(table, "IOPS ", line, sizeof(line));
	cr_assert(strstr(line, "bandwidth 56.8MiB/s (59.6MB/s)"), "%s", line);
	free(table);
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * Latencies carry their unit: µs, or ms when every one the table shows
 * is 1 ms or more (fio's rule): 64 KiB writes of exactly 1100 us are
 * 1.10 ms; 4 KiB reads of 162.5 us beside them bring the table to µs.
 */
Test(report, latencies_have_a_unit)
{
	struct scenario sc;
	struct run_result r;
	char *table, line[256];

	run_text(WIDE_PATH "[w]\nrw=write\nbs=64k\niodepth=1\n"
		 "runtime=10ms\n", &sc, &r);
	table = render(FMT_TABLE, &sc, &r);
	cr_assert(strstr(table, "| mean lat (ms) | p50 lat (ms) | p99 lat (ms) "
			 "| p99.9 lat (ms) |"), "%s", table);
	line_of(table, "| a |", line, sizeof(line));
	/* the mean exact, the percentiles fio's (1105.920 us) */
	cr_assert(strstr(line, "| 1.10 | 1.11 | 1.11 | 1.11 |"), "%s", line);
	free(table);
	run_result_free(&r);
	scenario_free(&sc);

	run_text(WIDE_PATH "[mix]\nrw=randrw\nbs=4k,64k\niodepth=4\n"
		 "runtime=10ms\n", &sc, &r);
	table = render(FMT_TABLE, &sc, &r);
	cr_assert(strstr(table, "| p99.9 lat (µs) |"), "%s", table);
	line_of(table, "| total | read |", line, sizeof(line));
	cr_assert(strstr(line, "| 162.5 | 162.8 | 162.8 | 162.8 |"), "%s", line);
	line_of(table, "| total | write |", line, sizeof(line));
	cr_assert(strstr(line, "| 1100.0 | 1105.9 | 1105.9 | 1105.9 |"), "%s",
		  line);
	free(table);
	run_result_free(&r);
	scenario_free(&sc);
}

/* A comparison of one column over three paths with 997, 3 and 0 of 1000
 * I/Os: the 0.003 share shows, the empty path is 0. */
Test(report, a_small_share_is_not_zero)
{
	static const struct compare_col col = {
		.label = "X", .key = "x", .selector = "round-robin",
		.clock = START_KTIME, .spec = true, .by_default = true,
		.what = "x",
	};
	static const uint64_t ios[3] = { 997, 3, 0 };
	struct compare_result cr = { .nr_cols = 1, .cols = { &col } };
	struct provenance pv = { .scenario = "t.ini", .seed = 1 };
	struct run_result r = { 0 };
	struct scenario sc;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	unsigned i;

	scenario_init(&sc);
	run_result_alloc(&r, 3);
	for (i = 0; i < 3; i++) {
		snprintf(r.names[i], sizeof(r.names[i]), "%c", 'a' + i);
		r.path[i].ios = ios[i];
		r.best[i] = (double)ios[i] / 1000;
	}
	r.total.ios = 1000;
	r.window = NSEC_PER_SEC;
	cr.runs = &r;
	f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	report_compare(f, FMT_TABLE, &pv, &sc, &cr);
	fclose(f);
	cr_assert(strstr(buf, "| a | 1.00 | 1.00 |\n"), "%s", buf);
	cr_assert(strstr(buf, "| b | 0.003 | 0.003 |\n"), "%s", buf);
	cr_assert(strstr(buf, "| c | 0 | 0 |\n"), "%s", buf);
	cr_assert(strstr(buf, "| path | X | Best |\n"),
		  "the word for a path is run's: %s", buf);
	free(buf);
	run_result_free(&r);
	scenario_free(&sc);
}

/* Every line of a comparison's legend fits an 80-column terminal, with
 * every column and the request-mode note in it. */
Test(report, the_compare_legend_fits_80_columns)
{
	struct provenance pv = { .scenario = "t.ini", .seed = 1 };
	struct compare_result cr;
	struct scenario sc;
	char err[ERR_MAX] = "", *buf = NULL, *p;
	size_t len = 0;
	unsigned lines = 0;
	FILE *f;

	cr_assert_eq(scenario_parse(&sc, "[multipath]\nmode = request\n"
				    "selector = round-robin\n"
				    "[path a]\nservice = fixed:100us\n"
				    "[path b]\nservice = fixed:300us\n"
				    "[job]\nrw=randread\niodepth=4\n"
				    "runtime=10ms\n", "t.ini", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(compare_run(&sc, 1, "all", &cr, err), 0, "%s", err);
	f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	report_compare(f, FMT_TABLE, &pv, &sc, &cr);
	fclose(f);
	p = strstr(buf, "\nShare of I/Os per path.");
	cr_assert_not_null(p, "%s", buf);
	cr_assert(strstr(p, "dispatch"), "the request-mode note: %s", p);
	for (p++; *p; p += strcspn(p, "\n") + 1, lines++)
		cr_assert_leq(strcspn(p, "\n"), 80, "%.*s",
			      (int)strcspn(p, "\n"), p);
	cr_assert_gt(lines, 3, "%s", buf);
	free(buf);
	compare_free(&cr);
	scenario_free(&sc);
}
