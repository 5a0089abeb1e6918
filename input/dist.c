/*
 * dist.c: a path's service-time distribution as a scenario writes it
 * ("exp:100us", "lognormal:100us,0.5"): the kinds the engine draws from
 * (sim/config.h's struct dist), their times read as the configuration's
 * time values (parse_duration).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

/* Longest piece of a bad value quoted back in a message. */
#define SHOW	"%.40s"

/* A one-line message into err, -EINVAL (lib/util.h). */
#define bad input_error_line

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
