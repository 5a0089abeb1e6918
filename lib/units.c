/*
 * units.c: turns value strings into numbers: sizes, durations, counts and
 * booleans, with fio's suffixes (grammar and choices in units.h).  The
 * limits and kinds a scenario adds on top (a time value's limit,
 * service distributions) are the configuration's (sim/config.c) and the
 * readers' (input/dist.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"
#include "util.h"

/* Longest piece of a bad value quoted back in a message. */
#define SHOW	"%.40s"

/* A one-line message into err, -EINVAL (lib/util.h). */
#define bad input_error_line

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
#define US	1000ULL
#define MS	(1000 * US)
#define SEC	(1000 * MS)

static const struct {
	const char *name;
	uint64_t ns;
} time_units[] = {
	{ "ns", 1 },
	{ "us", US }, { "usec", US },
	{ "ms", MS }, { "msec", MS },
	{ "s", SEC }, { "sec", SEC },
	{ "m", 60 * SEC }, { "min", 60 * SEC },
	{ "h", 3600 * SEC },
	{ "d", 86400 * SEC },
};

int parse_ns(const char *s, uint64_t default_unit, uint64_t *out, char *err)
{
	struct num n;
	uint64_t unit = 0;
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
	return scaled(s, &n, unit, "ns", out, err);
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
