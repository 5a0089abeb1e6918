/*
 * units.c: turns the value strings of scenario files and options into
 * numbers: sizes, durations, counts, booleans and service distributions,
 * with fio's suffixes (grammar and choices in scenario.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scenario.h"

/* Longest piece of a bad value quoted back in a message. */
#define SHOW	"%.40s"

/* Formats a one-line message into err and returns -EINVAL. */
static int bad(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, ERR_MAX, fmt, ap);
	va_end(ap);
	one_line(err);
	return -EINVAL;
}

/* ---- decimal numbers with a unit ---- */

/* A number as written: whole part, then up to 9 decimals as frac/div. */
struct num {
	uint64_t whole;
	uint64_t frac;		/* the decimals as an integer */
	uint64_t div;		/* 10^(number of decimals) */
	const char *unit;	/* what follows the digits */
};

#define MAX_DECIMALS	9

/* Reads the digits of s.  Returns 0 or -EINVAL with err set. */
static int read_num(const char *s, struct num *n, char *err)
{
	const char *p = s;
	unsigned nd = 0;

	n->whole = 0;
	n->frac = 0;
	n->div = 1;
	if (!*s)
		return bad(err, "empty value");
	if (*s == '-')
		return bad(err, "'" SHOW "' is negative", s);
	if (!isdigit((unsigned char)*p))
		return bad(err, "'" SHOW "' is not a number", s);
	for (; isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(n->whole, 10, &n->whole) ||
		    __builtin_add_overflow(n->whole, (uint64_t)(*p - '0'),
					   &n->whole))
			return bad(err, "'" SHOW "' is too large", s);
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return bad(err, "'" SHOW "' is not a number", s);
		for (; isdigit((unsigned char)*p); p++) {
			if (++nd > MAX_DECIMALS)
				return bad(err, "'" SHOW "' has more than %d "
					   "decimals", s, MAX_DECIMALS);
			n->frac = n->frac * 10 + (uint64_t)(*p - '0');
			n->div *= 10;
		}
	}
	n->unit = p;
	return 0;
}

/*
 * *out = n * unit exactly.  Returns 0, -ERANGE when it does not fit in
 * 64 bits, -EDOM when the decimals leave a fraction of the base unit.
 */
static int scale(const struct num *n, uint64_t unit, uint64_t *out)
{
	uint64_t q = unit / n->div, rem = unit % n->div;
	uint64_t v, f;

	/* frac * unit / div = frac * q + frac * rem / div; frac, rem < 1e9 */
	if ((n->frac * rem) % n->div)
		return -EDOM;
	if (__builtin_mul_overflow(n->whole, unit, &v) ||
	    __builtin_mul_overflow(n->frac, q, &f) ||
	    __builtin_add_overflow(v, f, &v) ||
	    __builtin_add_overflow(v, n->frac * rem / n->div, &v))
		return -ERANGE;
	*out = v;
	return 0;
}

static int scaled(const char *s, const struct num *n, uint64_t unit,
		  const char *what, uint64_t *out, char *err)
{
	switch (scale(n, unit, out)) {
	case 0:
		return 0;
	case -EDOM:
		return bad(err, "'" SHOW "' is not a whole number of %s", s,
			   what);
	default:
		return bad(err, "'" SHOW "' is too large", s);
	}
}

/*
 * fio's multipliers for data (parse.c __get_mult_bytes, kb_base=1024, the
 * default): k m g t p and kb mb gb tb pb are powers of 1024; kib mib gib
 * tib pib are powers of 1000 (the fio HOWTO, kb_base: the prefixes are
 * the opposite of SI and IEC, kept for old job files).
 * Case does not matter.  A bare "b" means bytes when bytes is set, and
 * counts (bytes unset) take only the one-letter forms.  Returns 0 for an
 * unknown unit.
 */
static uint64_t data_unit(const char *u, bool bytes)
{
	static const char pow_letters[] = "kmgtp";
	const char *l;
	uint64_t m = 1, base;
	int i;

	if (!*u)
		return 1;
	if (bytes && !strcasecmp(u, "b"))
		return 1;
	l = strchr(pow_letters, tolower((unsigned char)*u));
	if (!l)
		return 0;
	if (!u[1])
		base = 1024;
	else if (bytes && !strcasecmp(u + 1, "b"))
		base = 1024;
	else if (bytes && !strcasecmp(u + 1, "ib"))
		base = 1000;
	else
		return 0;
	for (i = 0; i <= l - pow_letters; i++)
		m *= base;
	return m;
}

/* A number with fio's data unit: a size (bytes) or a count. */
static int parse_data(const char *s, bool bytes, uint64_t *out, char *err)
{
	struct num n;
	uint64_t unit;
	int r;

	r = read_num(s, &n, err);
	if (r)
		return r;
	unit = data_unit(n.unit, bytes);
	if (!unit)
		return bytes ?
			bad(err, "unknown size unit in '" SHOW "' (use k, m, "
			    "g, t, p: powers of 1024 as in fio)", s) :
			bad(err, "unknown suffix in '" SHOW "' (counts take "
			    "k, m, g: powers of 1024 as in fio)", s);
	return scaled(s, &n, unit, bytes ? "bytes" : "units", out, err);
}

int parse_bytes(const char *s, uint64_t *out, char *err)
{
	return parse_data(s, true, out, err);
}

int parse_size(const char *s, uint64_t *out, char *err)
{
	uint64_t v = 0;
	int r;

	r = parse_bytes(s, &v, err);
	if (r)
		return r;
	if (!v)
		return bad(err, "a size must be at least 1 byte");
	*out = v;
	return 0;
}

int parse_uint(const char *s, uint64_t *out, char *err)
{
	return parse_data(s, false, out, err);
}

/*
 * fio's time suffixes (parse.c get_mult_time: us/usec, ms/msec, s, m =
 * minutes, h, d; case does not matter), plus ns and the spellings sec and
 * min.  fio takes an unknown suffix as microseconds; here it is an error.
 */
static const struct {
	const char *name;
	sim_ns ns;
} time_units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC }, { "usec", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC }, { "msec", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC },
};

int parse_duration(const char *s, sim_ns default_unit, sim_ns *out, char *err)
{
	struct num n;
	sim_ns unit = 0;
	size_t i;
	int r;

	r = read_num(s, &n, err);
	if (r)
		return r;
	if (!*n.unit) {
		if (!n.whole && !n.frac) {
			*out = 0;
			return 0;
		}
		if (!default_unit)
			return bad(err, "'" SHOW "' needs a time unit (ns, "
				   "us, ms, s, m, h)", s);
		unit = default_unit;
	}
	for (i = 0; !unit && i < ARRAY_SIZE(time_units); i++)
		if (!strcasecmp(n.unit, time_units[i].name))
			unit = time_units[i].ns;
	if (!unit)
		return bad(err, "unknown time unit in '" SHOW "' (use ns, us, "
			   "ms, s, m, h)", s);
	r = scaled(s, &n, unit, "ns", out, err);
	if (!r && *out > SIM_TIME_MAX)
		return bad(err, "'" SHOW "' is longer than %llus, the limit "
			   "of a time value", s,
			   (unsigned long long)(SIM_TIME_MAX / NSEC_PER_SEC));
	return r;
}

int parse_bool(const char *s, bool *out, char *err)
{
	static const char *const yes[] = { "1", "on", "true", "yes" };
	static const char *const no[] = { "0", "off", "false", "no" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return bad(err, "'" SHOW "' is not a boolean (use 1/0, on/off, "
		   "true/false, yes/no)", s);
}

/* ---- service-time distributions ---- */

/* The distribution kinds by name, and how many arguments each takes. */
static const struct {
	const char *name;
	enum dist_kind kind;
	unsigned nargs;
	const char *usage;
} dist_kinds[] = {
	{ "fixed", DIST_FIXED, 1, "fixed:MEAN" },
	{ "exp", DIST_EXP, 1, "exp:MEAN" },
	{ "exponential", DIST_EXP, 1, "exponential:MEAN" },
	{ "uniform", DIST_UNIFORM, 2, "uniform:LO,HI" },
	{ "lognormal", DIST_LOGNORMAL, 2, "lognormal:MEAN,CV" },
	{ "gamma", DIST_GAMMA, 2, "gamma:MEAN,CV" },
};

/* A time argument of a distribution, in ns; a unit is required. */
static int dist_time(const char *s, const char *what, double *out, char *err)
{
	char why[ERR_MAX];
	sim_ns t;

	if (parse_duration(s, 0, &t, why))
		return bad(err, "%s: %s", what, why);
	*out = (double)t;
	return 0;
}

/*
 * The CV of lognormal and gamma.  Beyond [CV_MIN, CV_MAX] the parameters
 * stop being finite numbers: gamma's shape 1/CV^2 is infinite at CV
 * 1e-200, 0 at 1e300, lognormal's sigma^2 = ln(1 + CV^2) infinite at
 * 1e200; and long before that nearly every draw is 0 or past the limit
 * of a time value.
 */
#define CV_MIN	1e-6
#define CV_MAX	100.0

static int dist_cv(const char *s, double *out, char *err)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (!*s || *end || !isfinite(v) || isspace((unsigned char)*s))
		return bad(err, "CV '" SHOW "' is not a number", s);
	if (v <= 0)
		return bad(err, "CV '" SHOW "' must be greater than 0", s);
	if (v < CV_MIN || v > CV_MAX)
		return bad(err, "CV '" SHOW "' is outside %g to %g, where "
			   "draws stay finite", s, CV_MIN, CV_MAX);
	*out = v;
	return 0;
}

int parse_dist(const char *s, struct dist *d, char *err)
{
	char buf[ARGS_MAX_LEN], *args, *arg[2], *comma;
	const char *usage = NULL;
	struct dist r = { 0 };
	unsigned i, nargs = 0;
	int e;

	if (strlen(s) >= sizeof(buf))
		return bad(err, "distribution '" SHOW "...' is too long", s);
	strcpy(buf, s);
	args = strchr(buf, ':');
	if (!args)
		return bad(err, "'" SHOW "' is not a distribution (use "
			   "exp:MEAN, fixed:MEAN, uniform:LO,HI, "
			   "lognormal:MEAN,CV or gamma:MEAN,CV)", s);
	*args++ = '\0';
	for (i = 0; i < ARRAY_SIZE(dist_kinds); i++) {
		if (!strcmp(str_trim(buf), dist_kinds[i].name)) {
			r.kind = dist_kinds[i].kind;
			nargs = dist_kinds[i].nargs;
			usage = dist_kinds[i].usage;
			break;
		}
	}
	if (!usage)
		return bad(err, "unknown distribution '" SHOW "' (use exp, "
			   "fixed, uniform, lognormal or gamma)", buf);

	comma = strchr(args, ',');
	if (comma)
		*comma++ = '\0';
	arg[0] = str_trim(args);
	arg[1] = comma ? str_trim(comma) : NULL;
	if (!*arg[0] || (nargs == 2 && (!arg[1] || !*arg[1])) ||
	    (nargs == 1 && arg[1]) || (arg[1] && strchr(arg[1], ',')))
		return bad(err, "'" SHOW "': expected %s", s, usage);

	switch (r.kind) {
	case DIST_FIXED:
		e = dist_time(arg[0], "mean", &r.mean, err);
		if (e)
			return e;
		r.lo = r.hi = r.mean;
		r.cv = 0;
		break;
	case DIST_EXP:
		e = dist_time(arg[0], "mean", &r.mean, err);
		if (e)
			return e;
		if (r.mean <= 0)
			return bad(err, "an exponential mean must be greater "
				   "than 0");
		r.cv = 1;
		break;
	case DIST_UNIFORM:
		e = dist_time(arg[0], "low bound", &r.lo, err);
		if (!e)
			e = dist_time(arg[1], "high bound", &r.hi, err);
		if (e)
			return e;
		if (r.lo > r.hi)
			return bad(err, "uniform: low bound " SHOW " is above "
				   "high bound " SHOW, arg[0], arg[1]);
		r.mean = (r.lo + r.hi) / 2;
		/* the CV of U(lo, hi): (hi - lo) / (sqrt(3) (hi + lo)) */
		if (r.mean > 0)
			r.cv = (r.hi - r.lo) / (sqrt(3.0) * (r.hi + r.lo));
		break;
	case DIST_LOGNORMAL:
	case DIST_GAMMA:
		e = dist_time(arg[0], "mean", &r.mean, err);
		if (!e)
			e = dist_cv(arg[1], &r.cv, err);
		if (e)
			return e;
		if (r.mean <= 0)
			return bad(err, "%s: the mean must be greater than 0",
				   buf);
		break;
	case DIST_SYNC:		/* not a distribution: set_service's */
		break;
	}
	*d = r;
	return 0;
}

int parse_count(const char *v, unsigned lo, unsigned hi, unsigned *out,
		char *err)
{
	uint64_t n = 0;
	int r;

	r = parse_uint(v, &n, err);
	if (r)
		return r;
	if (n < lo || n > hi)
		return input_error(err, "'" SHOW "' is out of range (%u to %u)",
				   v, lo, hi);
	*out = (unsigned)n;
	return 0;
}
