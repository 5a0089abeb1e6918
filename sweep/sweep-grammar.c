/*
 * sweep-grammar.c: the values a sweep option takes: comma lists (with
 * \, for a comma inside a value) and ranges of whole numbers (A..B,
 * A..B+S, A..B*F), expanded into items; and --selector's items, which
 * may give a selector lists of its own (hst:clock=jiffies,ktime).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selectors/selector.h"
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

/* ---- --selector's items and their own lists ---- */

/* The items of a comma list as written, escapes kept (so that a list cut
 * from them reads as it was given), into *raw; returns the count. */
static unsigned raw_items(const char *value, char ***raw)
{
	const char *s = value, *start = value;
	unsigned n = 0;

	*raw = NULL;
	for (;; s++) {
		if (*s == '\\' && (s[1] == ',' || s[1] == '\\')) {
			s++;
			continue;
		}
		if (*s && *s != ',')
			continue;
		push(raw, &n, xstrndup(start, (size_t)(s - start)));
		if (!*s)
			return n;
		start = s + 1;
	}
}

/* Does s start with KEY= (an option name, then "=")?  Returns the
 * length of KEY, or 0. */
static size_t key_at(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || (s[n] && strchr("_.-", s[n])))
		n++;
	return s[n] == '=' ? n : 0;
}

/* Where the selector's name in item ends: at a ":" that a KEY= follows,
 * or at the end. */
static size_t name_len(const char *item)
{
	const char *c;

	for (c = strchr(item, ':'); c; c = strchr(c + 1, ':'))
		if (key_at(c + 1))
			return (size_t)(c - item);
	return strlen(item);
}

static void axes_free(struct sweep_axis *a, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		free(a[i].key);
		free(a[i].list);
	}
	free(a);
}

/* The selector s's lists from rest, "KEY=LIST[:KEY=LIST...]" (rest is
 * what follows "NAME:"), appended to *a. */
static int add_axes(const char *item, const char *rest, unsigned s,
		    struct sweep_axis **a, unsigned *n, char *err)
{
	const char *p = rest, *end;
	size_t kl;
	unsigned i;

	while (*p) {
		kl = key_at(p);
		if (!kl)
			return input_error(err, "--selector: '%s': a selector's "
					   "own values are NAME:KEY=LIST, as in "
					   "hst:clock=jiffies,ktime", item);
		for (end = strchr(p + kl + 1, ':'); end && !key_at(end + 1);
		     end = strchr(end + 1, ':'))
			;
		if (!end)
			end = p + strlen(p);
		for (i = 0; i < *n; i++)
			if ((*a)[i].sel == s && strlen((*a)[i].key) == kl &&
			    !strncmp((*a)[i].key, p, kl))
				return input_error(err, "--selector: '%s' gives "
						   "%.*s twice", item, (int)kl, p);
		if (end == p + kl + 1)
			return input_error(err, "--selector: '%s': no values "
					   "for %.*s", item, (int)kl, p);
		*a = xrealloc(*a, (*n + 1) * sizeof(**a));
		(*a)[*n].sel = s;
		(*a)[*n].key = xstrndup(p, kl);
		(*a)[*n].list = xstrndup(p + kl + 1, (size_t)(end - p - kl - 1));
		(*n)++;
		p = *end ? end + 1 : end;
	}
	return 0;
}

int sweep_selector_values(const char *value, char ***names,
			  struct sweep_axis **axes, unsigned *nr_axes,
			  char *err)
{
	char **raw, *name, *last = NULL;
	unsigned nr, i, j, n = 0;
	size_t nl;
	int r = 0;

	*names = NULL;
	*axes = NULL;
	*nr_axes = 0;
	if (!value || !*value)
		return input_error(err, "--selector: needs a selector");
	nr = raw_items(value, &raw);
	for (i = 0; i < nr && !r; i++) {
		nl = name_len(raw[i]);
		name = xstrndup(raw[i], nl);
		/* a list runs on over the commas, up to the next selector;
		 * ":KEY=" starts the same selector's next list */
		if (last && !ps_find(name)) {
			size_t ll = strlen(last);

			last = xrealloc(last, ll + nl + 2);
			last[ll] = ',';
			memcpy(last + ll + 1, raw[i], nl);
			last[ll + 1 + nl] = '\0';
			(*axes)[*nr_axes - 1].list = last;
			free(name);
			if (raw[i][nl]) {
				r = add_axes(raw[i], raw[i] + nl + 1,
					     (*axes)[*nr_axes - 1].sel, axes,
					     nr_axes, err);
				if (!r)
					last = (*axes)[*nr_axes - 1].list;
			}
			continue;
		}
		if (strchr(name, ':') && !ps_find(name)) {
			char *head = xstrndup(name, strcspn(name, ":"));

			if (ps_find(head))
				r = input_error(err, "--selector: '%s': a "
						"selector's own values are "
						"NAME:KEY=LIST, as in "
						"hst:clock=jiffies,ktime", raw[i]);
			free(head);
			if (r) {
				free(name);
				break;
			}
		}
		if (!*name) {
			r = input_error(err, "--selector: empty item in list '%s'",
					value);
			free(name);
			break;
		}
		for (j = 0; j < n; j++)
			if (!strcmp((*names)[j], name) ||
			    (ps_find(name) && ps_find(name) == ps_find((*names)[j])))
				break;
		if (j < n) {
			r = input_error(err, "--selector: %s given twice (%s "
					"and %s): a selector's values go in one "
					"item, %s:KEY=LIST", name, (*names)[j],
					name, name);
			free(name);
			break;
		}
		push(names, &n, name);
		last = NULL;
		if (raw[i][nl]) {
			r = add_axes(raw[i], raw[i] + nl + 1, n - 1, axes,
				     nr_axes, err);
			if (!r)
				last = (*axes)[*nr_axes - 1].list;
		}
	}
	sweep_values_free(raw, nr);
	if (r) {
		sweep_values_free(*names, n);
		axes_free(*axes, *nr_axes);
		*names = NULL;
		*axes = NULL;
		*nr_axes = 0;
		return r;
	}
	return (int)n;
}
