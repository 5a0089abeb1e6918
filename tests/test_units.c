/* test_units.c: sizes, durations, counts, booleans and distributions. */
#include <string.h>

#include <criterion/criterion.h>

#include "input/scenario.h"

/* A failure must come with a one-line, non-empty message. */
static void assert_msg(const char *err)
{
	cr_assert(err[0], "no message");
	cr_assert_null(strchr(err, '\n'), "message on two lines: %s", err);
}

static uint64_t size_ok(const char *s)
{
	char err[ERR_MAX] = "";
	uint64_t v = 0;

	cr_assert_eq(parse_size(s, &v, err), 0, "'%s': %s", s, err);
	return v;
}

static void size_bad(const char *s, const char *why)
{
	char err[ERR_MAX] = "";
	uint64_t v = 77;

	cr_assert_eq(parse_size(s, &v, err), -EINVAL, "'%s' accepted", s);
	cr_assert_eq(v, 77, "'%s' changed the output on failure", s);
	assert_msg(err);
	cr_assert(strstr(err, why), "'%s': '%s' lacks '%s'", s, err, why);
}

static uint64_t count_ok(const char *s)
{
	char err[ERR_MAX] = "";
	uint64_t v = 0;

	cr_assert_eq(parse_uint(s, &v, err), 0, "'%s': %s", s, err);
	return v;
}

static void count_bad(const char *s)
{
	char err[ERR_MAX] = "";
	uint64_t v;

	cr_assert_eq(parse_uint(s, &v, err), -EINVAL, "'%s' accepted", s);
	assert_msg(err);
}

static sim_ns time_ok(const char *s, sim_ns unit)
{
	char err[ERR_MAX] = "";
	sim_ns v = 0;

	cr_assert_eq(parse_duration(s, unit, &v, err), 0, "'%s': %s", s, err);
	return v;
}

static void time_bad(const char *s, sim_ns unit, const char *why)
{
	char err[ERR_MAX] = "";
	sim_ns v;

	cr_assert_eq(parse_duration(s, unit, &v, err), -EINVAL, "'%s' accepted",
		     s);
	assert_msg(err);
	cr_assert(strstr(err, why), "'%s': '%s' lacks '%s'", s, err, why);
}

static struct dist dist_ok(const char *s)
{
	char err[ERR_MAX] = "";
	struct dist d;

	memset(&d, 0, sizeof(d));
	cr_assert_eq(parse_dist(s, &d, err), 0, "'%s': %s", s, err);
	return d;
}

static void dist_bad(const char *s, const char *why)
{
	char err[ERR_MAX] = "";
	struct dist d = { .kind = DIST_GAMMA, .mean = 7 };

	cr_assert_eq(parse_dist(s, &d, err), -EINVAL, "'%s' accepted", s);
	cr_assert_eq(d.kind, DIST_GAMMA, "'%s' changed the output", s);
	cr_assert_float_eq(d.mean, 7.0, 0, "'%s' changed the output", s);
	assert_msg(err);
	cr_assert(strstr(err, why), "'%s': '%s' lacks '%s'", s, err, why);
}

Test(units, sizes_follow_fio_kb_base_1024)
{
	cr_assert_eq(size_ok("4096"), 4096);
	cr_assert_eq(size_ok("4k"), 4096);
	cr_assert_eq(size_ok("4K"), 4096);
	cr_assert_eq(size_ok("4kb"), 4096);
	cr_assert_eq(size_ok("4KB"), 4096);
	cr_assert_eq(size_ok("1M"), 1048576);
	cr_assert_eq(size_ok("1m"), 1048576);
	cr_assert_eq(size_ok("1g"), 1073741824ULL);
	cr_assert_eq(size_ok("1G"), 1073741824ULL);
	cr_assert_eq(size_ok("2t"), 2ULL << 40);
	cr_assert_eq(size_ok("1p"), 1ULL << 50);
	cr_assert_eq(size_ok("512b"), 512);
	cr_assert_eq(size_ok("512B"), 512);
	cr_assert_eq(size_ok("1.5k"), 1536);
	cr_assert_eq(size_ok("0.5m"), 524288);
}

Test(units, iec_suffixes_are_powers_of_1000_as_in_fio)
{
	/* fio HOWTO, kb_base=1024: "1 MB: 1000000, 1mi, 1000ki" */
	cr_assert_eq(size_ok("4kib"), 4000);
	cr_assert_eq(size_ok("4KiB"), 4000);
	cr_assert_eq(size_ok("1MiB"), 1000000);
	cr_assert_eq(size_ok("1gib"), 1000000000ULL);
}

Test(units, bad_sizes)
{
	size_bad("", "empty");
	size_bad("k", "not a number");
	size_bad("-4k", "negative");
	size_bad("4q", "unknown size unit");
	size_bad("4kk", "unknown size unit");
	size_bad("4ki", "unknown size unit");
	size_bad("4 k", "unknown size unit");
	size_bad("4k ", "unknown size unit");
	size_bad("1.5", "whole number");
	size_bad("1.", "not a number");
	size_bad(".5k", "not a number");
	size_bad("1.0000000001k", "decimals");
	size_bad("0", "at least 1");
	size_bad("0k", "at least 1");
	size_bad("18446744073709551616", "too large");
	size_bad("99999999999999999999999", "too large");
	size_bad("16777216t", "too large");
	size_bad("16385p", "too large");
	size_bad("0x1000", "unknown size unit");
}

Test(units, bytes_allow_zero_and_the_top_of_u64)
{
	char err[ERR_MAX];
	uint64_t v = 1;

	cr_assert_eq(parse_bytes("0", &v, err), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(parse_bytes("18446744073709551615", &v, err), 0);
	cr_assert_eq(v, UINT64_MAX);
	cr_assert_eq(parse_bytes("16777215t", &v, err), 0);
	cr_assert_eq(v, 16777215ULL << 40);
	cr_assert_eq(parse_bytes("-0", &v, err), -EINVAL);
}

Test(units, counts_take_fio_int_suffixes)
{
	/* fio parses number_ios as an int with kb_base=1024: 1k = 1024 */
	cr_assert_eq(count_ok("0"), 0);
	cr_assert_eq(count_ok("1000"), 1000);
	cr_assert_eq(count_ok("1k"), 1024);
	cr_assert_eq(count_ok("1K"), 1024);
	cr_assert_eq(count_ok("2m"), 2097152);
	cr_assert_eq(count_ok("1g"), 1073741824ULL);
	cr_assert_eq(count_ok("1.5k"), 1536);
	cr_assert_eq(count_ok("18446744073709551615"), UINT64_MAX);
	count_bad("");
	count_bad("1kb");
	count_bad("1b");
	count_bad("1kib");
	count_bad("-1");
	count_bad("+1");
	count_bad("abc");
	count_bad("1.5");
	count_bad("18446744073709551616");
	count_bad("17179869184g");
}

Test(units, durations)
{
	cr_assert_eq(time_ok("5ns", 0), 5);
	cr_assert_eq(time_ok("100us", 0), 100000);
	cr_assert_eq(time_ok("100usec", 0), 100000);
	cr_assert_eq(time_ok("2ms", 0), 2000000);
	cr_assert_eq(time_ok("2msec", 0), 2000000);
	cr_assert_eq(time_ok("2MS", 0), 2000000);
	cr_assert_eq(time_ok("10s", 0), 10000000000ULL);
	cr_assert_eq(time_ok("10sec", 0), 10000000000ULL);
	cr_assert_eq(time_ok("1m", 0), 60000000000ULL);
	cr_assert_eq(time_ok("1min", 0), 60000000000ULL);
	cr_assert_eq(time_ok("1h", 0), 3600000000000ULL);
	cr_assert_eq(time_ok("1d", 0), 86400000000000ULL);
	cr_assert_eq(time_ok("1.5ms", 0), 1500000);
	cr_assert_eq(time_ok("0.000000001s", 0), 1);
	/* the limit of a time value (sim.h): 1e8 s */
	cr_assert_eq(time_ok("100000000s", 0), SIM_TIME_MAX);
	cr_assert_eq(time_ok("1157d", 0), 1157ULL * 86400000000000ULL);
}

Test(units, bare_durations_take_the_default_unit)
{
	cr_assert_eq(time_ok("10", NSEC_PER_SEC), 10000000000ULL);
	cr_assert_eq(time_ok("10", NSEC_PER_USEC), 10000);
	cr_assert_eq(time_ok("2.5", NSEC_PER_SEC), 2500000000ULL);
	cr_assert_eq(time_ok("0", 0), 0);
	cr_assert_eq(time_ok("0.0", 0), 0);
	time_bad("10", 0, "needs a time unit");
}

Test(units, bad_durations)
{
	time_bad("", NSEC_PER_SEC, "empty");
	time_bad("s", NSEC_PER_SEC, "not a number");
	time_bad("-1s", NSEC_PER_SEC, "negative");
	time_bad("10x", NSEC_PER_SEC, "unknown time unit");
	time_bad("10 s", NSEC_PER_SEC, "unknown time unit");
	time_bad("1.5ns", NSEC_PER_SEC, "whole number of ns");
	/* past 1e8 s a sum of times could wrap the clock (sim.h) */
	time_bad("100000000.000000001s", NSEC_PER_SEC, "the limit of a time value");
	time_bad("1158d", NSEC_PER_SEC, "the limit of a time value");
	time_bad("213503d", NSEC_PER_SEC, "the limit of a time value");
	time_bad("213504d", NSEC_PER_SEC, "too large");
	time_bad("18446744073709551615s", NSEC_PER_SEC, "too large");
	time_bad("18446744073709551616", NSEC_PER_SEC, "too large");
}

Test(units, booleans)
{
	static const char *const yes[] = {
		"1", "on", "true", "yes", "ON", "Yes",
	};
	static const char *const no[] = {
		"0", "off", "false", "no", "OFF", "No",
	};
	char err[ERR_MAX];
	size_t i;
	bool b;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		cr_assert_eq(parse_bool(yes[i], &b, err), 0, "%s", yes[i]);
		cr_assert(b, "%s", yes[i]);
		cr_assert_eq(parse_bool(no[i], &b, err), 0, "%s", no[i]);
		cr_assert_not(b, "%s", no[i]);
	}
	cr_assert_eq(parse_bool("2", &b, err), -EINVAL);
	cr_assert_eq(parse_bool("", &b, err), -EINVAL);
	cr_assert_eq(parse_bool("yess", &b, err), -EINVAL);
	assert_msg(err);
}

Test(units, distributions)
{
	struct dist d;

	d = dist_ok("exp:100us");
	cr_assert_eq(d.kind, DIST_EXP);
	cr_assert_float_eq(d.mean, 100000.0, 0);
	cr_assert_float_eq(d.cv, 1.0, 0);

	d = dist_ok("exponential:2ms");
	cr_assert_eq(d.kind, DIST_EXP);
	cr_assert_float_eq(d.mean, 2e6, 0);

	d = dist_ok("fixed:1ms");
	cr_assert_eq(d.kind, DIST_FIXED);
	cr_assert_float_eq(d.mean, 1e6, 0);
	cr_assert_float_eq(d.lo, 1e6, 0);
	cr_assert_float_eq(d.hi, 1e6, 0);
	cr_assert_float_eq(d.cv, 0.0, 0);

	d = dist_ok("fixed:0");
	cr_assert_float_eq(d.mean, 0.0, 0);

	d = dist_ok("uniform:50us,150us");
	cr_assert_eq(d.kind, DIST_UNIFORM);
	cr_assert_float_eq(d.lo, 50000.0, 0);
	cr_assert_float_eq(d.hi, 150000.0, 0);
	cr_assert_float_eq(d.mean, 100000.0, 0);
	/* (hi - lo) / (sqrt(3) (hi + lo)) = 1 / (2 sqrt 3) */
	cr_assert_float_eq(d.cv, 0.28867513459481287, 1e-12);

	d = dist_ok("uniform:100us,100us");
	cr_assert_float_eq(d.cv, 0.0, 0);

	d = dist_ok("lognormal:100us,0.5");
	cr_assert_eq(d.kind, DIST_LOGNORMAL);
	cr_assert_float_eq(d.mean, 100000.0, 0);
	cr_assert_float_eq(d.cv, 0.5, 0);

	cr_assert_float_eq(dist_ok("gamma:1ms,1e-6").cv, 1e-6, 0);
	cr_assert_float_eq(dist_ok("lognormal:1ms,100").cv, 100.0, 0);

	d = dist_ok("gamma: 1.5ms , 2 ");
	cr_assert_eq(d.kind, DIST_GAMMA);
	cr_assert_float_eq(d.mean, 1.5e6, 0);
	cr_assert_float_eq(d.cv, 2.0, 0);
}

Test(units, bad_distributions)
{
	dist_bad("", "not a distribution");
	dist_bad("exp", "not a distribution");
	dist_bad("100us", "not a distribution");
	dist_bad("exp:", "expected exp:MEAN");
	dist_bad("exp:100us,3", "expected exp:MEAN");
	dist_bad("exp:100", "needs a time unit");
	dist_bad("exp:0us", "greater than 0");
	dist_bad("exp:-1us", "negative");
	dist_bad("fixed:1ms,2ms", "expected fixed:MEAN");
	dist_bad("lognormal:100us", "expected lognormal:MEAN,CV");
	dist_bad("lognormal:100us,", "expected lognormal:MEAN,CV");
	dist_bad("lognormal:,0.5", "expected lognormal:MEAN,CV");
	dist_bad("lognormal:100us,0", "greater than 0");
	dist_bad("lognormal:100us,nan", "not a number");
	dist_bad("lognormal:100us,inf", "not a number");
	dist_bad("lognormal:0us,0.5", "greater than 0");
	dist_bad("gamma:100us,-1", "greater than 0");
	dist_bad("gamma:100us,abc", "not a number");
	dist_bad("gamma:100us,0.5x", "not a number");
	dist_bad("uniform:150us,50us", "above high bound");
	dist_bad("uniform:1us,2us,3us", "expected uniform:LO,HI");
	dist_bad("uniform:1us", "expected uniform:LO,HI");
	dist_bad("weibull:1ms", "unknown distribution");
	dist_bad("EXP:1ms", "unknown distribution");
	/* parameters whose draws are not finite: gamma's shape 1/CV^2 is
	 * infinite or 0, lognormal's sigma infinite */
	dist_bad("gamma:1ms,1e-200", "where draws stay finite");
	dist_bad("gamma:1ms,1e300", "where draws stay finite");
	dist_bad("lognormal:1ms,1e200", "where draws stay finite");
	dist_bad("lognormal:1ms,100.001", "where draws stay finite");
	dist_bad("fixed:18446744073709551615ns", "the limit of a time value");
}

Test(units, long_and_binary_values_give_one_line_messages)
{
	char err[ERR_MAX];
	char big[4096];
	uint64_t v;
	struct dist d;

	memset(big, '7', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cr_assert_eq(parse_size(big, &v, err), -EINVAL);
	assert_msg(err);
	cr_assert_lt(strlen(err), ERR_MAX);
	cr_assert_eq(parse_dist(big, &d, err), -EINVAL);
	assert_msg(err);
	cr_assert_eq(parse_duration("1\n2s", NSEC_PER_SEC, &v, err), -EINVAL);
	assert_msg(err);
	cr_assert_eq(parse_dist("exp:1\nms", &d, err), -EINVAL);
	assert_msg(err);
}
