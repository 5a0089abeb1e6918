/*
 * test_published.c: `mpsim published`, the 2022 table (docs/kernel-model.md §6.2)
 * beside mpsim's.  The Best arithmetic is checked against values worked
 * out by hand; the reproduction against the mail's own rounding.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "cli/cli.h"

static char *published(const char *arg)
{
	static char out[16384];
	char *argv[3] = { (char *)"published", (char *)arg, NULL };
	size_t n;
	FILE *f;

	cr_assert_eq(cmd_published(arg ? 2 : 1, argv), 0);
	fflush(stdout);
	f = cr_get_redirected_stdout();
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	return out;
}

/*
 * Nominal costs 1 : 4.5 : 9 : 18 over five, one, two and two disks:
 * sum of 1/cost = 5 + 1/4.5 + 2/9 + 2/18 = 5.5556, so 1/cost normalised
 * is 0.180, 0.040, 0.020, 0.010: the mail's Best.  The calibrated means
 * are (cost + 1) x 50 us = 100, 275, 500, 950; sum of 1/(cost + 1) =
 * 2.5 + 1/5.5 + 2/10 + 2/19 = 2.9871, so 0.167, 0.061, 0.033, 0.018, the
 * capacity share of those devices.
 */
static void best_in_numbers(const char *out)
{
	cr_assert(strstr(out, "| sdd | 1 | 0.180 | 0.18 | 100 | 100 | 0.167 "
			 "| 0.167 |\n"), "%s", out);
	cr_assert(strstr(out, "| sdg | 4.5 | 0.040 | 0.04 | 275 | 275 | 0.061 "
			 "| 0.061 |\n"));
	cr_assert(strstr(out, "| sdh | 9 | 0.020 | 0.02 | 500 | 500 | 0.033 "
			 "| 0.033 |\n"));
	cr_assert(strstr(out, "| sdk | 18 | 0.010 | 0.01 | 950 | 950 | 0.018 "
			 "| 0.018 |\n"));
}

/* The largest difference of each selector column, read back from the
 * "largest difference" row of the n-th table. */
static void largest_row(const char *out, unsigned nth, double v[4])
{
	const char *p = out;
	unsigned i;

	for (i = 0; i <= nth; i++) {
		p = strstr(p, "| largest difference |");
		cr_assert_not_null(p, "table %u", nth);
		p += 1;
	}
	cr_assert_eq(sscanf(p, " largest difference | | %lf (%*[a-z]) | | %lf "
			    "(%*[a-z]) | | %lf (%*[a-z]) | | %lf", &v[0], &v[1],
			    &v[2], &v[3]), 4, "%.200s", p);
}

/*
 * The calibrated model reproduces the mail's ST and both HST columns
 * within the mail's own rounding (±0.005) and the seeds' spread (about
 * ±0.0012, README); its Best differs on sdg by 0.061 - 0.04.  The
 * nominal devices reproduce the mail's Best (to its rounding) but not
 * its ST: sdg's ST there is about 0.04, the mail printed 0.06.
 */
Test(published, calibrated_and_nominal, .init = cr_redirect_stdout)
{
	const char *out = published(NULL);
	double cal[4], nom[4];

	best_in_numbers(out);
	largest_row(out, 0, cal);
	largest_row(out, 1, nom);
	cr_expect_lt(cal[0], 0.0062, "ST");
	cr_expect_lt(cal[1], 0.0062, "HST (orig)");
	cr_expect_lt(cal[2], 0.0062, "HST (ktime)");
	cr_expect(fabs(cal[3] - 0.021) < 0.001, "Best: %f", cal[3]);
	cr_expect_lt(nom[3], 0.005, "nominal Best is the mail's");
	cr_expect_gt(nom[0], 0.0062, "nominal ST departs from the mail's");
}

Test(published, bad_option, .init = cr_redirect_stderr)
{
	char *argv[] = { (char *)"published", (char *)"--seeds=2", NULL };

	cr_assert_eq(cmd_published(2, argv), 2);
	fflush(stderr);
	cr_assert_stderr_eq_str("mpsim: published: unknown option "
				"'--seeds=2' (--seed=N, --sensitivity)\n");
}
