/*
 * test_human.c: the numbers of the tables for people: bandwidth and IOPS
 * as fio's num2str() prints them (4 significant figures), shares that
 * never show a non-zero value as zero, text wrapped to a terminal's width.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "report/report.h"

static const char *bw(double b)
{
	static char buf[64];

	human_bw(buf, sizeof(buf), b);
	return buf;
}

/* fio's own lines: "BW=228MiB/s (240MB/s)" for the default run's
 * 239583642 B/s (233968 KiB is 228 MiB and 496 KiB: rounded, no room for
 * a decimal), "BW=9997KiB/s (10.2MB/s)", "BW=9.78MiB/s (10.2MB/s)",
 * "BW=44.8MiB/s (47.0MB/s)". */
Test(human, bandwidth_as_fio_prints_it)
{
	cr_assert_str_eq(bw(239583642), "228MiB/s (240MB/s)");
	cr_assert_str_eq(bw(9997.0 * 1024 + 100), "9997KiB/s (10.2MB/s)");
	cr_assert_str_eq(bw(10255000), "9.78MiB/s (10.3MB/s)");
	cr_assert_str_eq(bw(47000000), "44.8MiB/s (47.0MB/s)");
	cr_assert_str_eq(bw(0), "0B/s (0B/s)");
	cr_assert_str_eq(bw(4096), "4096B/s (4096B/s)");
	/* a remainder that rounds up to a whole unit carries into it:
	 * 10239 KiB is 9 MiB and 1023 KiB, 10.0MiB (fio prints "9.00");
	 * 99999 kB is 100MB */
	cr_assert_str_eq(bw(10239.0 * 1024 + 600), "10.0MiB/s (10.5MB/s)");
	cr_assert_str_eq(bw(99999000), "95.4MiB/s (100MB/s)");
}

static const char *iops(double v)
{
	static char buf[32];

	human_iops(buf, sizeof(buf), v);
	return buf;
}

/* fio 3.33's lines for jobs of 123 I/Os in 2.503 s, 8 in 2.501 s, 1851
 * in 1.501 s and 18509 in 1.512 s: "IOPS=49", "IOPS=3", "IOPS=1233",
 * "IOPS=12.2k" (the whole number, 1000 * ios / runtime_ms, through
 * num2str), where its JSON has 49.14..., 3.19..., 1233.8... */
Test(human, iops_as_fio_prints_it)
{
	cr_assert_str_eq(iops(123 / 2.503), "49");
	cr_assert_str_eq(iops(8 / 2.501), "3");
	cr_assert_str_eq(iops(1851 / 1.501), "1233");
	cr_assert_str_eq(iops(18509 / 1.512), "12.2k");
	cr_assert_str_eq(iops(9999.9), "9999");
	cr_assert_str_eq(iops(59730.1), "59.7k");
	cr_assert_str_eq(iops(49980), "50.0k", "carried as bandwidth is");
	cr_assert_str_eq(iops(1234567), "1235k", "fio: \"IOPS=1235k\"");
	cr_assert_str_eq(iops(0.5), "0");
	cr_assert_str_eq(iops(0), "0");
}

static const char *sh(double v, int decimals)
{
	static char buf[32];

	human_share(buf, sizeof(buf), v, decimals);
	return buf;
}

Test(human, a_share_that_is_not_zero_never_prints_as_zero)
{
	cr_assert_str_eq(sh(0.17, 2), "0.17");
	cr_assert_str_eq(sh(0.01, 2), "0.01");
	cr_assert_str_eq(sh(0.0093, 2), "0.009");
	cr_assert_str_eq(sh(0.003, 2), "0.003");
	cr_assert_str_eq(sh(0.00042, 2), "0.0004");
	cr_assert_str_eq(sh(1e-9, 2), "0.000000001");
	cr_assert_str_eq(sh(0, 2), "0", "a true zero");
	cr_assert_str_eq(sh(1, 3), "1.000");
	cr_assert_str_eq(sh(0.0003, 3), "0.0003");
}

Test(human, text_wrapped_at_spaces)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	text_wrapped(f, "aaa bbb ccc dddddddddddd e", 8);
	text_wrapped(f, "one\n\ntwo", 8);
	fclose(f);
	cr_assert_str_eq(buf, "aaa bbb\nccc\ndddddddddddd\ne\none\n\ntwo\n");
	free(buf);
}
