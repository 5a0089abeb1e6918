/*
 * test_percentile.c: a percentile of mpsim is the number fio prints for
 * the same latencies.  fio itself writes a run's histogram (its
 * write_hist_log, the io_u_plat buckets) beside the percentiles it
 * reports; mpsim's quantile over those very buckets must give each of
 * them to the nanosecond.  Then worked examples of fio's bucket values
 * from a live run's output, and the end of fio's array at 2^34 ns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/stats.h"

/* fio's default percentile list (options.c, percentile_list), and the
 * key of each in its JSON output */
static const double fio_pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90,
				  95, 99, 99.5, 99.9, 99.95, 99.99 };
#define NPCT (sizeof(fio_pct) / sizeof(fio_pct[0]))

/* The value of "%.6f" key pct in fio's JSON, or -1. */
static long long json_pct(const char *json, double pct)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), "\"%.6f\" : ", pct);
	p = strstr(json, key);
	return p ? atoll(p + strlen(key)) : -1;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

Test(percentile, fio_percentiles_from_fios_own_histogram, .timeout = 60)
{
	static uint64_t bucket[LAT_BUCKETS];
	char dir[] = "/tmp/mpsim-pct.XXXXXX", cmd[1024], path[512], *json, *line;
	unsigned long long total = 0;
	size_t cap = 0;
	FILE *f;
	unsigned i;

	cr_assert_not_null(mkdtemp(dir));
	/* reads of a cached file: latencies from about a microsecond to
	 * milliseconds, over some forty buckets.  fio writes the histogram
	 * when a sample lands log_hist_msec after the last line, and not at
	 * the end: the think time before the last I/O makes that I/O write
	 * out every sample. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && fio --name=x --ioengine=psync --rw=randread "
		 "--filename=f --size=4m --bs=4k --number_ios=1000 "
		 "--thinktime=30ms --thinktime_blocks=999 "
		 "--write_hist_log=h --log_hist_msec=20 --output-format=json "
		 "--output=o.json >/dev/null 2>&1", dir);
	cr_assert_eq(system(cmd), 0, "fio failed: %s", cmd);

	/* each line: msec, ddir, bs, then fio's 1856 bucket counts of that
	 * interval; the intervals add up to the run */
	snprintf(path, sizeof(path), "%s/h_clat_hist.1.log", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	line = NULL;
	while (getline(&line, &cap, f) > 0) {
		char *tok = strtok(line, ",");

		for (i = 0; tok; tok = strtok(NULL, ","), i++)
			if (i >= 3) {
				cr_assert_leq(i - 3, LAT_FIO_LAST);
				bucket[i - 3] += strtoull(tok, NULL, 10);
				total += strtoull(tok, NULL, 10);
			}
		cr_assert_eq(i, 3 + LAT_FIO_LAST + 1, "a line of %u fields", i);
	}
	free(line);
	fclose(f);
	snprintf(path, sizeof(path), "%s/o.json", dir);
	json = slurp(path);
	cr_assert_gt(total, 100);
	{
		const char *ios = strstr(json, "\"total_ios\" : ");

		cr_assert_not_null(ios);
		cr_assert_eq(strtoull(ios + 14, NULL, 10), total,
			     "the histogram log holds %llu I/Os", total);
	}
	for (i = 0; i < NPCT; i++) {
		long long want = json_pct(json, fio_pct[i]);
		double got = lat_buckets_quantile(bucket, 0, LAT_BUCKETS - 1,
						  total, fio_pct[i] / 100.0);

		cr_assert_geq(want, 0, "no %.6f in fio's JSON", fio_pct[i]);
		cr_assert_eq((long long)got, want, "p%g: mpsim %.1f, fio %lld",
			     fio_pct[i], got, want);
		cr_assert_eq(got, (double)(long long)got);
	}
	free(json);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

/* p99s fio printed in a run of the live check (UML, HZ=100): every I/O of
 * a phase through the same dm-delay tick lands in one bucket, and fio
 * prints the middle of its range, as mpsim now does. */
Test(percentile, values_fio_printed)
{
	static const struct { uint64_t ns, fio; } ex[] = {
		{ 29400000, 29491200 },		/* 29491.2 us */
		{ 20500000, 20578304 },		/* 20578.3 us */
		{ 70500000, 70778880 },		/* 70778.9 us */
		{ 100, 100 },			/* exact below 128 ns */
		{ 127, 127 },
		{ 128, 129 },			/* steps of 2: 128..129 */
		{ 131, 131 },			/* 130..131 */
	};
	static struct lat_hist h;
	unsigned i, j;

	for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		lat_reset(&h);
		for (j = 0; j < 100; j++)
			lat_add(&h, ex[i].ns);
		cr_assert_eq(lat_quantile(&h, 0.99), (double)ex[i].fio,
			     "%llu ns: %.1f, fio %llu",
			     (unsigned long long)ex[i].ns, lat_quantile(&h, 0.99),
			     (unsigned long long)ex[i].fio);
	}
}

/* fio's array ends at 2^34 ns: a longer latency is counted in its last
 * bucket, whose value is 2^33 + 63.5 * 2^27 ns (17.1 s). */
Test(percentile, past_fios_last_bucket)
{
	static struct lat_hist h;

	lat_reset(&h);
	lat_add(&h, 30000000000ULL);		/* 30 s */
	cr_assert_eq(lat_quantile(&h, 0.99), 17112760320.0);
	cr_assert_eq(lat_bucket_fio(LAT_FIO_LAST), 17112760320ULL);
	cr_assert_eq(lat_bucket_fio(LAT_BUCKETS - 1), 17112760320ULL);
	/* the last bucket fio keeps for itself is still the value's own */
	lat_reset(&h);
	lat_add(&h, (1ULL << 34) - 1);
	cr_assert_eq(lat_bucket(h.max), LAT_FIO_LAST);
	cr_assert_eq(lat_quantile(&h, 0.5), 17112760320.0);
	lat_reset(&h);
	lat_add(&h, 1ULL << 33);
	cr_assert_eq(lat_quantile(&h, 0.5), (double)((1ULL << 33) + (1ULL << 26)));
}
