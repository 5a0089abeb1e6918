/*
 * sweep-grammar.c: the values a sweep option takes: comma lists (with
 * \, for a comma inside a value) and ranges of whole numbers (A..B,
 * A..B+S, A..B*F), expanded into items.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* The run options whose values are numbers, so that ".." is a range. */
static const char *const numeric_keys[] = {
	"hz", "uptime", "rwmixread", "rwmixwrite", "bs", "blocksize",
	"iodepth", "depth", "numjobs", "number_ios", "runtime", "timeout",
	"ramp_time", "rate_iops", "size", "point",
};

bool sweep_key_numeric(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(numeric_keys); i++)
		if (!strcmp(key, numeric_keys[i]))
			return true;
	return false;
}

/* One end or step of a range: whole number, then an optional unit. */
struct term {
	uint64_t n;
	char unit[8];
};

/* Parse digits and letters from *s; advances *s.  Returns 0 or -1. */
static int term_parse(const char **s, struct term *t)
{
	const char *p = *s;
	size_t u = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (t->n = 0; isdigit((unsigned char)*p); p++) {
		if (t->n > (UINT64_MAX - 9) / 10)
			return -1;
		t->n = t->n * 10 + (uint64_t)(*p - '0');
	}
	for (; isalpha((unsigned char)*p); p++) {
		if (u + 1 >= sizeof(t->unit))
			return -1;
		t->unit[u++] = *p;
	}
	t->unit[u] = '\0';
	*s = p;
	return 0;
}

/* A parsed range: a, a+step, ... <= b, or a, a*factor, ... <= b. */
struct range {
	struct term a, b;
	uint64_t step;		/* 0 for a geometric range */
	uint64_t factor;	/* 0 for an arithmetic range */
	uint64_t count;		/* items it expands to (capped) */
};

/*
 * Parse "A..B", "A..B+S" or "A..B*F" into r.  Returns 0, or -EINVAL with
 * err naming --key and the item.
 */
static int range_parse(const char *key, const char *item, struct range *r,
		       char *err)
{
	const char *p = item;
	struct term s;
	uint64_t v;

	memset(r, 0, sizeof(*r));
	if (term_parse(&p, &r->a) || strncmp(p, "..", 2))
		goto bad;
	p += 2;
	if (term_parse(&p, &r->b))
		goto bad;
	if (strcmp(r->a.unit, r->b.unit))
		return input_error(err, "--%s: range '%s' mixes units ('%s' and '%s')",
				   key, item, r->a.unit, r->b.unit);
	if (*p == '+') {
		p++;
		if (term_parse(&p, &s) || *p)
			goto bad;
		if (strcmp(s.unit, r->a.unit))
			return input_error(err, "--%s: range '%s': the step must be "
					   "in the unit of its ends ('%s')",
					   key, item, r->a.unit);
		if (!s.n)
			return input_error(err, "--%s: range '%s' has a step of 0",
					   key, item);
		r->step = s.n;
	} else if (*p == '*') {
		p++;
		if (term_parse(&p, &s) || *p || s.unit[0])
			goto bad;
		if (s.n < 2)
			return input_error(err, "--%s: range '%s' needs a factor of "
					   "at least 2", key, item);
		r->factor = s.n;
	} else if (*p) {
		goto bad;
	} else {
		r->step = 1;
	}
	if (r->b.n < r->a.n)
		return input_error(err, "--%s: range '%s' runs backwards (%llu > %llu)",
				   key, item, (unsigned long long)r->a.n,
				   (unsigned long long)r->b.n);
	if (r->factor && !r->a.n)
		return input_error(err, "--%s: geometric range '%s' must start "
				   "at 1 or more", key, item);
	if (r->step) {
		r->count = (r->b.n - r->a.n) / r->step + 1;
	} else {
		/* stops before a multiplication could overflow */
		for (v = r->a.n, r->count = 1;
		     v <= r->b.n / r->factor && v * r->factor <= r->b.n;
		     v *= r->factor)
			r->count++;
	}
	if (r->count > SWEEP_MAX_POINTS)
		return input_error(err, "--%s: range '%s' has more than %d values",
				   key, item, SWEEP_MAX_POINTS);
	return 0;
bad:
	return input_error(err, "--%s: '%s' is not a range of whole numbers "
			   "(A..B, A..B+STEP or A..B*FACTOR, e.g. 1..128*2)",
			   key, item);
}

static char *term_format(uint64_t n, const char *unit)
{
	char buf[48];

	snprintf(buf, sizeof(buf), "%llu%s", (unsigned long long)n, unit);
	return xstrdup(buf);
}

/* Append to the list of items, which doubles when its count reaches a
 * power of two: a range of SWEEP_MAX_POINTS items is linear work whatever
 * realloc() does (one more item at a time is quadratic under ASan's
 * allocator, which never grows in place). */
static void push(char ***items, unsigned *n, char *s)
{
	if (!(*n & (*n - 1)))
		*items = xrealloc(*items, (*n ? 2 * *n : 1) * sizeof(**items));
	(*items)[(*n)++] = s;
}

void sweep_values_free(char **items, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

/*
 * The next item of a comma list from *p: up to an unescaped comma, with
 * \, read as a comma and \\ as a backslash, so that a value that
 * holds commas (lognormal:400us,1.5) can be one item.  Advances *p past
 * the comma; *more says whether one followed.
 */
static char *next_item(const char **p, bool *more)
{
	const char *s = *p;
	char *item = xmalloc(strlen(s) + 1);
	size_t n = 0;

	for (; *s && *s != ','; s++) {
		if (*s == '\\' && (s[1] == ',' || s[1] == '\\'))
			s++;
		item[n++] = *s;
	}
	item[n] = '\0';
	*more = *s == ',';
	*p = *more ? s + 1 : s;
	return item;
}

int sweep_values(const char *key, const char *value, bool numeric,
		 char ***items, char *err)
{
	const char *p;
	char *item = NULL;
	unsigned n = 0;
	bool more;
	int r = -EINVAL;

	*items = NULL;
	if (!value) {
		push(items, &n, NULL);
		return 1;
	}
	if (!*value)
		return input_error(err, "--%s: empty value", key);
	for (p = value, more = true; more; ) {
		struct range rg;
		uint64_t v;

		item = next_item(&p, &more);
		if (!*item) {
			r = input_error(err, "--%s: empty item in list '%s'",
					key, value);
			goto fail;
		}
		if (!numeric || !strstr(item, "..")) {
			push(items, &n, item);
			item = NULL;
		} else {
			if (range_parse(key, item, &rg, err))
				goto fail;
			if (n + rg.count > SWEEP_MAX_POINTS)
				goto too_many;
			for (v = rg.a.n;; ) {
				push(items, &n, term_format(v, rg.a.unit));
				if (rg.step ? rg.b.n - v < rg.step :
				    v > rg.b.n / rg.factor ||
				    v * rg.factor > rg.b.n)
					break;
				v = rg.step ? v + rg.step : v * rg.factor;
			}
			free(item);
			item = NULL;
		}
		if (n > SWEEP_MAX_POINTS)
			goto too_many;
	}
	return (int)n;
too_many:
	r = input_error(err, "--%s: more than %d values", key, SWEEP_MAX_POINTS);
fail:
	free(item);
	sweep_values_free(*items, n);
	*items = NULL;
	return r;
}
