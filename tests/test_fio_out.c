/*
 * test_fio_out.c: fio's own formats and logs, piece by piece: fio's
 * io_stat (Welford, summed as a group), its percentiles over the
 * histogram, the averaged latency window and the bandwidth periods of a
 * clone at hand-picked times, --output-format's words, percentile_list,
 * the log files' names, and a run's fio JSON and terse lines against the
 * run's own figures.  Debian's fio tools read the whole in
 * tests/fio-tools.sh.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cli/cli.h"
#include "input/scenario.h"
#include "input/scenario-int.h"
#include "input/table.h"
#include "report/report-fio.h"
#include "sim/fiostat.h"
#include "sim/run.h"
#include "workloads/fio.h"

#define MS	NSEC_PER_MSEC

Test(fio_out, stat_is_fios_welford)
{
	struct fio_stat s;
	uint64_t min, max;
	double mean, dev;

	fio_stat_init(&s);
	cr_assert(!fio_stat_calc(&s, &min, &max, &mean, &dev));
	cr_assert(min == 0 && max == 0 && mean == 0 && dev == 0);
	fio_stat_add(&s, 100);
	fio_stat_add(&s, 200);
	fio_stat_add(&s, 300);
	fio_stat_add(&s, 400);
	cr_assert(fio_stat_calc(&s, &min, &max, &mean, &dev));
	cr_assert_eq(min, 100);
	cr_assert_eq(max, 400);
	cr_assert_float_eq(mean, 250.0, 1e-9);
	/* the sample deviation, n - 1, as calc_lat() */
	cr_assert_float_eq(dev, sqrt(50000.0 / 3), 1e-9);
}

Test(fio_out, stat_sums_as_fio)
{
	struct fio_stat a, b, all, pure;
	uint64_t i, min, max;
	double mean, dev, m2, d2;

	fio_stat_init(&a);
	fio_stat_init(&b);
	fio_stat_init(&all);
	for (i = 1; i <= 10; i++) {
		fio_stat_add(i % 2 ? &a : &b, i * i);
		fio_stat_add(&all, i * i);
	}
	/* latencies: the merged samples */
	fio_stat_sum(&a, &b, false);
	fio_stat_calc(&a, &min, &max, &mean, &dev);
	fio_stat_calc(&all, &min, &max, &m2, &d2);
	cr_assert_eq(a.samples, 10);
	cr_assert_eq(min, 1);
	cr_assert_eq(max, 100);
	cr_assert_float_eq(mean, m2, 1e-9);
	cr_assert_float_eq(dev, d2, 1e-9);
	/* bandwidth of a group: the clones' figures added (sum_stat's
	 * pure sum) */
	fio_stat_init(&pure);
	fio_stat_init(&b);
	fio_stat_add(&b, 10);
	fio_stat_add(&b, 30);
	fio_stat_sum(&pure, &b, true);
	fio_stat_sum(&pure, &b, true);
	cr_assert_eq(pure.min, 20);
	cr_assert_eq(pure.max, 60);
	cr_assert_float_eq(pure.mean, 40.0, 1e-9);
	cr_assert_eq(pure.samples, 4);
}

/* fio's percentile is mpsim's, over any histogram. */
Test(fio_out, percentiles_are_the_histograms)
{
	static const double p[] = { 1, 10, 50, 90, 99, 99.5, 99.9, 99.99,
				    100 };
	static struct lat_hist h;
	uint64_t seed = 12345, i;
	unsigned k;

	lat_reset(&h);
	cr_assert_eq(fio_percentile(&h, 50), 0);
	for (i = 0; i < 5000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		lat_add(&h, (seed >> 33) % 5000000);
	}
	for (k = 0; k < sizeof(p) / sizeof(p[0]); k++)
		cr_assert_eq((double)fio_percentile(&h, p[k]),
			     lat_quantile(&h, p[k] / 100), "p%g", p[k]);
	/* two samples: the 50th is the first (1 of 2 reaches 50 %) */
	lat_reset(&h);
	lat_add(&h, 10);
	lat_add(&h, 20);
	cr_assert_eq(fio_percentile(&h, 50), 10);
	cr_assert_eq(fio_percentile(&h, 50.1), 20);
}

static void conf_logs(struct job_conf *c, unsigned avg, bool lat, bool bw)
{
	memset(c, 0, sizeof(*c));
	c->log_set[FIO_LOG_LAT] = lat;
	c->log_set[FIO_LOG_BW] = bw;
	c->log_avg_msec = avg;
	c->per_job_logs = true;
}

/* stat.c's add_log_sample() with avg_msec: a window closes at the first
 * sample at or past avg_last + avg_msec, that sample in it, at its time;
 * the last window at the clone's end (finalize_logs). */
Test(fio_out, averaged_latency_window)
{
	static const struct { uint64_t ms, lat; } in[] = {
		{ 10, 100 }, { 50, 200 }, { 120, 300 },	/* closes at 120 */
		{ 150, 400 }, { 210, 600 },		/* since 100: 210 */
		{ 230, 701 },				/* open at the end */
	};
	struct job_conf c;
	struct fio_clone fc;
	uint64_t kept = 0;
	unsigned i;

	conf_logs(&c, 100, true, false);
	fio_clone_init(&fc, &c, 0, 0, 1);
	fio_clone_epoch(&fc, 1000 * MS);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		fio_clone_add(&fc, 1000 * MS + in[i].ms * MS + 5, in[i].lat,
			      4096, DDIR_READ, &kept);
	fio_clone_close(&fc, 1000 * MS + 260 * MS, 260 * MS);
	cr_assert_eq(fc.navg, 3);
	cr_assert_eq(fc.avg[0].t_ms, 120);
	cr_assert_eq(fc.avg[0].value, 200);
	cr_assert_eq(fc.avg[1].t_ms, 210);
	cr_assert_eq(fc.avg[1].value, 500);
	cr_assert_eq(fc.avg[2].t_ms, 260);
	cr_assert_eq(fc.avg[2].value, 701);
	cr_assert_eq(fc.nio, 0, "an averaged log keeps no I/O");
	cr_assert_eq(kept, 0);
	fio_clone_free(&fc);
}

struct got {
	uint64_t t[8], v[8];
	unsigned d[8], n;
};

static void collect(void *ctx, uint64_t t_ms, uint64_t value, unsigned ddir)
{
	struct got *g = ctx;

	g->t[g->n] = t_ms;
	g->v[g->n] = value;
	g->d[g->n++] = ddir;
}

/* __add_samples(): a sample per period that ended while the clone ran,
 * per direction that moved data in it, KiB/s and I/Os per second. */
Test(fio_out, bandwidth_periods)
{
	struct job_conf c;
	struct fio_clone fc;
	struct got bw = { .n = 0 }, iops = { .n = 0 };
	uint64_t kept = 0;

	conf_logs(&c, 100, false, true);
	fio_clone_init(&fc, &c, 0, 0, 1);
	cr_assert_eq(fc.bw_ms, 100);
	cr_assert_eq(fc.iops_ms, 500, "no iops log: fio's iopsavgtime");
	fio_clone_epoch(&fc, 0);
	fio_clone_add(&fc, 10 * MS, 1000, 4096, DDIR_READ, &kept);
	fio_clone_add(&fc, 20 * MS, 1000, 4096, DDIR_READ, &kept);
	fio_clone_add(&fc, 30 * MS, 1000, 8192, DDIR_WRITE, &kept);
	fio_clone_add(&fc, 150 * MS, 1000, 4096, DDIR_READ, &kept);
	fio_clone_add(&fc, 240 * MS, 1000, 4096, DDIR_READ, &kept);
	fc.ran = true;
	fio_clone_close(&fc, 250 * MS, 250 * MS);
	fio_clone_periods(&fc, true, collect, &bw);
	cr_assert_eq(bw.n, 3, "the period ending at 300 ms is past the end");
	cr_assert(bw.t[0] == 100 && bw.d[0] == DDIR_READ && bw.v[0] == 80);
	cr_assert(bw.t[1] == 100 && bw.d[1] == DDIR_WRITE && bw.v[1] == 80);
	cr_assert(bw.t[2] == 200 && bw.d[2] == DDIR_READ && bw.v[2] == 40);
	/* the JSON's bw samples are these */
	cr_assert_eq(fc.bw[DDIR_READ].samples, 2);
	cr_assert_eq(fc.bw[DDIR_READ].min, 40);
	cr_assert_eq(fc.bw[DDIR_WRITE].samples, 1);
	/* IOPS at 500 ms: none ended before 250 ms */
	fio_clone_periods(&fc, false, collect, &iops);
	cr_assert_eq(iops.n, 0);
	cr_assert_eq(fc.iops[DDIR_READ].samples, 0);
	/* io_u_lat: 1000 ns is the first µs bin */
	cr_assert_eq(fc.lat_u[0], 5);
	fio_clone_free(&fc);
}

/* A log of a line per I/O keeps each, and samples bandwidth per I/O. */
Test(fio_out, per_io_samples)
{
	struct job_conf c;
	struct fio_clone fc;
	uint64_t kept = 0;

	conf_logs(&c, 0, true, true);
	fio_clone_init(&fc, &c, 0, 0, 1);
	cr_assert(fc.keep_ios && !fc.bw_ms && fc.iops_ms == 500);
	fio_clone_epoch(&fc, 0);
	fio_clone_add(&fc, 1 * MS, 2000, 4096, DDIR_WRITE, &kept);
	fio_clone_add(&fc, 2 * MS, 0, 4096, DDIR_WRITE, &kept);
	fio_clone_add(&fc, 3 * MS, 500, 0, DDIR_SYNC, &kept);
	fc.ran = true;
	fio_clone_close(&fc, 3 * MS, 3 * MS);
	cr_assert_eq(fc.nio, 2, "a sync is not logged");
	cr_assert_eq(kept, 2);
	cr_assert_eq(fc.bw[DDIR_WRITE].samples, 2);
	cr_assert_eq(fc.bw[DDIR_WRITE].max, 4096ULL * 1000000 / 2000);
	cr_assert_eq(fc.bw[DDIR_WRITE].min, 0, "no time: fio's rate 0");
	cr_assert_eq(fc.ios[DDIR_SYNC], 1);
	cr_assert_eq(fc.lat[DDIR_SYNC].samples, 1);
	fio_clone_free(&fc);
}

Test(fio_out, output_format_words)
{
	char err[ERR_MAX];
	unsigned f = 0;

	cr_assert_eq(fio_out_parse("json+,terse", &f, err), 0);
	cr_assert_eq(f, FIO_OUT_JSON | FIO_OUT_JSON_PLUS | FIO_OUT_TERSE);
	cr_assert_eq(fio_out_parse("csv", &f, err), 0);
	cr_assert_eq(f, FIO_OUT_TERSE, "fio's csv is its terse");
	cr_assert_eq(fio_out_parse("normal", &f, err), 0);
	cr_assert_eq(f, FIO_OUT_NORMAL);
	cr_assert_eq(fio_out_parse("json,xml", &f, err), -EINVAL);
	cr_assert_not_null(strstr(err, "'xml'"), "%s", err);
	cr_assert_eq(fio_out_parse("", &f, err), -EINVAL);
}

Test(fio_out, percentile_list)
{
	struct job_conf j;
	char err[ERR_MAX];

	job_defaults(&j);
	cr_assert_eq(fio_job_option(&j, "percentile_list", "99.9:50:1", "t",
				    err), 0);
	cr_assert_eq(j.nr_percentiles, 3);
	cr_assert(j.percentile_list[0] == 1 && j.percentile_list[1] == 50 &&
		  j.percentile_list[2] == 99.9, "sorted, as fio sorts it");
	cr_assert_eq(fio_job_option(&j, "percentile_list", "50:0", "t", err),
		     -EINVAL);
	cr_assert_eq(fio_job_option(&j, "percentile_list", "100.5", "t", err),
		     -EINVAL);
	cr_assert_eq(fio_job_option(&j, "percentile_list", "50::99", "t",
				    err), -EINVAL);
	cr_assert_eq(fio_job_option(&j, "percentile_list",
				    "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:"
				    "17:18:19:20:21", "t", err), -EINVAL);
	cr_assert_eq(j.nr_percentiles, 3, "a refused list leaves it");
}

/* init.c's gen_log_name(): PREFIX_TYPE.N.log, N the clone over every
 * job from 1, the job's name without a prefix; lat, slat, clat, bw,
 * iops; per_job_logs=0 drops the number and clones share the file. */
Test(fio_out, log_names)
{
	static const char *const want[] = {
		"a_lat.1.log", "a_slat.1.log", "a_clat.1.log",
		"a_lat.2.log", "a_slat.2.log", "a_clat.2.log",
		"p_bw.log", "d/q_iops.5.log",
	};
	struct scenario sc;
	struct fio_logfile *files;
	char err[ERR_MAX];
	unsigned n, i;

	scenario_init(&sc);
	cr_assert_eq(scenario_parse_fio(&sc, "[a]\nnumjobs=2\nwrite_lat_log\n"
					"[b]\nnumjobs=2\nwrite_bw_log=p\n"
					"per_job_logs=0\n"
					"[c]\nwrite_iops_log=d/q\n", "t.fio",
					err), 0, "%s", err);
	n = fio_log_names(&sc, &files);
	cr_assert_eq(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++)
		cr_assert_str_eq(files[i].name, want[i]);
	cr_assert_eq(files[6].nsrc, 2, "both clones of b in p_bw.log");
	cr_assert_str_eq(files[6].option, "write_bw_log");
	fio_logs_free(files, n);
	scenario_free(&sc);
}

/* A run's fio JSON and terse against the run's own figures. */
Test(fio_out, run_in_fios_terms, .timeout = 60)
{
	struct run_watch w = { .fio = true };
	struct provenance pv = { "t", 1, "" };
	struct run_result r;
	struct scenario sc;
	char err[ERR_MAX], *buf = NULL, *p;
	size_t len = 0;
	unsigned long long ios;
	FILE *f;

	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0);
	cr_assert_eq(scenario_set(&sc, "runtime", "100ms", err), 0);
	cr_assert_eq(scenario_set(&sc, "ramp_time", "0", err), 0);
	cr_assert_eq(run_scenario_watched(&sc, 1, &w, &r, err), 0, "%s", err);
	cr_assert_eq(r.nr_clones, 1);
	cr_assert_eq(r.clone[0].ios[DDIR_WRITE], r.total.ios);
	f = open_memstream(&buf, &len);
	report_fio(f, FIO_OUT_TERSE | FIO_OUT_JSON, 3, &pv, &sc, &r);
	fclose(f);
	/* terse first: version 3, fio's version, the job, its group */
	cr_assert_eq(strncmp(buf, "3;fio-3.33;randwrite;0;0;", 25), 0, "%.60s",
		     buf);
	p = strstr(buf, "\n{\n  \"fio version\" : \"fio-3.33\",\n");
	cr_assert_not_null(p);
	p = strstr(p, "\"write\" : {");
	cr_assert_not_null(p);
	p = strstr(p, "\"total_ios\" : ");
	cr_assert_not_null(p);
	ios = strtoull(p + 14, NULL, 10);
	cr_assert_eq(ios, r.total.ios);
	cr_assert_not_null(strstr(buf, "\"name\" : \"sdm\""));
	cr_assert_null(strstr(buf, "\"bins\""), "bins are json+'s");
	free(buf);
	run_result_free(&r);
	scenario_free(&sc);
}
