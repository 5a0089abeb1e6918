/*
 * fio-bs.c: fio's block-size options, per direction: bs, bsrange
 * (blocksize_range) and bssplit, as fio's parser reads them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "fio.h"

#define SHOW		"%.40s"

/* One block size: at least 1 byte, at most a request's 32-bit count. */
static int one_bs(const char *v, uint32_t *out, char *err)
{
	uint64_t bs = 0;
	int r;

	r = parse_size(v, &bs, err);
	if (r)
		return r;
	if (bs > UINT32_MAX)
		return input_error(err, "'" SHOW "' is larger than 4 GiB - 1",
				   v);
	*out = (uint32_t)bs;
	return 0;
}

/*
 * fio's per-direction values: "A" is A for reads, writes and trims;
 * "A,B" is A for reads, B for writes and trims; "A,B," leaves trims at
 * the default, and an empty field is the default (the HOWTO's bs=).
 * Calls fn(j, dir, field) for each direction, field NULL for "default".
 */
typedef int (*dir_fn)(struct job_conf *j, unsigned dir, const char *field,
		      char *err);

static int per_direction(struct job_conf *j, const char *v, dir_fn fn,
			 char *err)
{
	char buf[1024], *f[DDIR_RWDIR_CNT] = { NULL }, *p;
	unsigned n = 0, d;
	int r;

	if (strlen(v) >= sizeof(buf))
		return input_error(err, "'" SHOW "...' is too long", v);
	strcpy(buf, v);
	for (p = buf; n < DDIR_RWDIR_CNT; n++) {
		f[n] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (p)
		return input_error(err, "'" SHOW "' has more than three "
				   "values (reads, writes, trims)", v);
	n++;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		/* the last value given applies to the directions after it */
		const char *field = d < n ? f[d] : f[n - 1];

		r = fn(j, d, *field ? field : NULL, err);
		if (r)
			return r;
	}
	return 0;
}

/* ---- block sizes ---- */

static void set_bs_fixed(struct job_conf *j, unsigned d, uint32_t bs)
{
	j->bsd[d].min = j->bsd[d].max = bs;
	if (d == DDIR_READ)
		j->bs = bs;
}

static int bs_dir(struct job_conf *j, unsigned d, const char *field,
		  char *err)
{
	uint32_t bs = 4096;	/* fio's default */
	int r;

	if (field) {
		r = one_bs(field, &bs, err);
		if (r)
			return r;
	}
	set_bs_fixed(j, d, bs);
	return 0;
}

int fio_set_bs(struct job_conf *j, const char *v, char *err)
{
	return per_direction(j, v, bs_dir, err);
}

/* bsrange: "LO-HI" or "LO:HI"; fio swaps a reversed pair. */
static int bsrange_dir(struct job_conf *j, unsigned d, const char *field,
		       char *err)
{
	char lo_s[64], *hi_s;
	uint32_t lo = 0, hi = 0;
	size_t n;
	int r;

	if (!field) {
		set_bs_fixed(j, d, 4096);
		return 0;
	}
	n = strcspn(field, "-:");
	if (!field[n] || n >= sizeof(lo_s))
		return input_error(err, "'" SHOW "' is not a range LO-HI",
				   field);
	memcpy(lo_s, field, n);
	lo_s[n] = '\0';
	hi_s = (char *)field + n + 1;
	r = one_bs(lo_s, &lo, err);
	if (!r)
		r = one_bs(hi_s, &hi, err);
	if (r)
		return r;
	if (lo > hi) {
		uint32_t t = lo;

		lo = hi;
		hi = t;
	}
	j->bsd[d].min = lo;
	j->bsd[d].max = hi;
	if (d == DDIR_READ)
		j->bs = lo;
	return 0;
}

int fio_set_bsrange(struct job_conf *j, const char *v, char *err)
{
	char buf[1024], *p;

	if (strlen(v) >= sizeof(buf))
		return input_error(err, "'" SHOW "...' is too long", v);
	/* fio's irange takes '/' between ranges as well as ',' */
	strcpy(buf, v);
	for (p = buf; *p; p++)
		if (*p == '/')
			*p = ',';
	return per_direction(j, buf, bsrange_dir, err);
}

static int cmp_split(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * bssplit for one direction: "BS/PERC:BS/PERC...".  As fio's
 * bssplit_ddir(): an empty percentage shares what the others leave;
 * more than 100 in all is an error; the entries are sorted by size; and
 * what is left below 100 falls to the largest size (fio's draw takes the
 * last entry when the percentages run out).
 */
static int bssplit_dir(struct job_conf *j, unsigned d, const char *field,
		       char *err)
{
	struct bs_conf *c = &j->bsd[d];
	uint64_t ent[BSSPLIT_MAX];	/* bs << 8 | perc, 0xff: not given */
	char buf[1024], *p, *save = NULL;
	unsigned n = 0, i, sum = 0, missing = 0;
	int r;

	if (!field) {
		c->nr_split = 0;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", field);
	for (p = strtok_r(buf, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(p, '/');
		unsigned perc = 0xff;
		uint32_t bs = 0;

		if (n == BSSPLIT_MAX)
			return input_error(err, "more than %d block sizes",
					   BSSPLIT_MAX);
		if (slash)
			*slash++ = '\0';
		r = one_bs(p, &bs, err);
		if (r)
			return r;
		if (slash && *slash) {
			uint64_t pc = 0;

			r = parse_uint(slash, &pc, err);
			if (r)
				return r;
			if (pc > 100)
				return input_error(err, "'" SHOW "' is out of "
						   "range (0 to 100)", slash);
			perc = (unsigned)pc;
			sum += perc;
		} else {
			missing++;
		}
		ent[n++] = (uint64_t)bs << 8 | perc;
	}
	if (!n)
		return input_error(err, "'" SHOW "' is not BS/PERCENT:...",
				   field);
	if (sum > 100)
		return input_error(err, "'" SHOW "': the percentages add up to "
				   "%u, more than 100", field, sum);
	qsort(ent, n, sizeof(ent[0]), cmp_split);
	for (i = 0; i < n; i++) {
		unsigned perc = ent[i] & 0xff;

		if (perc == 0xff)
			perc = (100 - sum) / missing;
		c->split_bs[i] = (uint32_t)(ent[i] >> 8);
		c->split_perc[i] = (uint8_t)perc;
	}
	/* what rounding or the user left over goes to the largest size */
	for (i = 0, sum = 0; i < n; i++)
		sum += c->split_perc[i];
	c->split_perc[n - 1] = (uint8_t)(c->split_perc[n - 1] + 100 - sum);
	c->nr_split = n;
	return 0;
}

int fio_set_bssplit(struct job_conf *j, const char *v, char *err)
{
	return per_direction(j, v, bssplit_dir, err);
}
