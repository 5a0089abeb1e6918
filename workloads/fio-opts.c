/*
 * fio-opts.c: fio's job options beyond the scenario's basic ones (block
 * size splits and ranges, thinktime, batching, stonewall, replay, ...),
 * one setter per option, and what happens to every other fio option.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio.h"

#define SHOW		"%.40s"
#define MAX_COUNT	(1U << 20)	/* iodepth-like counts */

/* ---- warnings, once per option name ---- */

static char **warned;		/* names warned about so far */
static unsigned nr_warned;

void fio_warn_reset(void)
{
	unsigned i;

	for (i = 0; i < nr_warned; i++)
		free(warned[i]);
	free(warned);
	warned = NULL;
	nr_warned = 0;
}

/* mpsim_warn(), unless `key` was warned about already. */
static void warn_once(const char *key, const char *where, const char *what)
{
	unsigned i;

	for (i = 0; i < nr_warned; i++)
		if (!strcmp(warned[i], key))
			return;
	warned = xrealloc(warned, (nr_warned + 1) * sizeof(*warned));
	warned[nr_warned++] = xstrdup(key);
	mpsim_warn("%s: %s", where, what);
}

static void warn_ignored(const char *key, const char *where)
{
	char what[ERR_MAX];

	snprintf(what, sizeof(what), "fio option '%.60s' is not modelled, "
		 "ignored", key);
	warn_once(key, where, what);
}

/* ---- value helpers ---- */

static int count(const char *v, unsigned lo, unsigned hi, unsigned *out,
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

/* A bare flag (v NULL) is true, as fio's `stonewall` alone. */
static int flag(const char *v, bool *out, char *err)
{
	if (!v) {
		*out = true;
		return 0;
	}
	return parse_bool(v, out, err);
}

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

static int set_bsrange(struct job_conf *j, const char *v, const char *where,
		       char *err)
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
			r = count(slash, 0, 100, &perc, err);
			if (r)
				return r;
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

static int set_bssplit(struct job_conf *j, const char *v, const char *where,
		       char *err)
{
	return per_direction(j, v, bssplit_dir, err);
}

/* ---- rw ---- */

static const char *const rw_words[] = {
	[RW_READ] = "read", [RW_WRITE] = "write",
	[RW_RANDREAD] = "randread", [RW_RANDWRITE] = "randwrite",
	[RW_RW] = "rw", [RW_RANDRW] = "randrw",
	[RW_TRIM] = "trim", [RW_RANDTRIM] = "randtrim",
	[RW_TRIMWRITE] = "trimwrite", [RW_RANDTRIMWRITE] = "randtrimwrite",
};

/* rw=MODE[:N]; the ":N" offset modifier moves offsets only. */
int fio_set_rw(struct job_conf *j, const char *v, const char *where,
	       char *err)
{
	size_t n = strcspn(v, ":");
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(rw_words); i++)
		if (strlen(rw_words[i]) == n && !strncmp(v, rw_words[i], n))
			break;
	if (i == ARRAY_SIZE(rw_words) && n == 9 && !strncmp(v, "readwrite", 9))
		i = RW_RW;
	if (i == ARRAY_SIZE(rw_words))
		return input_error(err, "'" SHOW "' is not one of read, write, "
				   "trim, randread, randwrite, randtrim, rw "
				   "(readwrite), randrw, trimwrite, "
				   "randtrimwrite", v);
	if (v[n]) {
		char what[ERR_MAX];

		snprintf(what, sizeof(what), "rw=" SHOW ": the offset modifier"
			 " is not modelled, ignored", v);
		warn_once("rw:N", where, what);
	}
	j->rw = (enum rw_mode)i;
	return 0;
}

/* ---- the other modelled options ---- */

static int set_iodepth_batch(struct job_conf *j, const char *v,
			     const char *where, char *err)
{
	return count(v, 0, MAX_COUNT, &j->iodepth_batch, err);
}

static int set_complete_min(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return count(v, 0, MAX_COUNT, &j->iodepth_batch_complete_min, err);
}

static int set_complete_max(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return count(v, 0, MAX_COUNT, &j->iodepth_batch_complete_max, err);
}

static int set_iodepth_low(struct job_conf *j, const char *v,
			   const char *where, char *err)
{
	return count(v, 0, MAX_COUNT, &j->iodepth_low, err);
}

/* fio: "When the unit is omitted, the value is interpreted in
 * microseconds" (thinktime, thinktime_spin). */
static int set_thinktime(struct job_conf *j, const char *v,
			 const char *where, char *err)
{
	return parse_duration(v, NSEC_PER_USEC, &j->thinktime, err);
}

static int set_thinktime_spin(struct job_conf *j, const char *v,
			      const char *where, char *err)
{
	return parse_duration(v, NSEC_PER_USEC, &j->thinktime_spin, err);
}

/* fio: thinktime_iotime without a unit is in seconds. */
static int set_thinktime_iotime(struct job_conf *j, const char *v,
				const char *where, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &j->thinktime_iotime, err);
}

static int set_thinktime_blocks(struct job_conf *j, const char *v,
				const char *where, char *err)
{
	return count(v, 1, UINT32_MAX / 2, &j->thinktime_blocks, err);
}

static int set_thinktime_type(struct job_conf *j, const char *v,
			      const char *where, char *err)
{
	if (!strcmp(v, "complete"))
		j->thinktime_blocks_type = THINK_COMPLETE;
	else if (!strcmp(v, "issue"))
		j->thinktime_blocks_type = THINK_ISSUE;
	else
		return input_error(err, "'" SHOW "' is not complete or issue",
				   v);
	return 0;
}

static int set_randrepeat(struct job_conf *j, const char *v,
			  const char *where, char *err)
{
	bool b = false;
	int r = flag(v, &b, err);

	if (!r)
		j->randrepeat = b;
	return r;
}

static int set_randseed(struct job_conf *j, const char *v,
			const char *where, char *err)
{
	int r = parse_uint(v, &j->randseed, err);

	if (!r)
		j->randseed_set = true;
	return r;
}

static int set_stonewall(struct job_conf *j, const char *v,
			 const char *where, char *err)
{
	return flag(v, &j->stonewall, err);
}

/* startdelay=irange(time): "5", "5s", "1-10" (each clone draws). */
static int set_startdelay(struct job_conf *j, const char *v,
			  const char *where, char *err)
{
	char lo_s[64];
	size_t n = strcspn(v, "-:");
	sim_ns lo = 0, hi = 0;
	int r;

	if (n >= sizeof(lo_s))
		return input_error(err, "'" SHOW "...' is too long", v);
	memcpy(lo_s, v, n);
	lo_s[n] = '\0';
	r = parse_duration(lo_s, NSEC_PER_SEC, &lo, err);
	if (!r && v[n])
		r = parse_duration(v + n + 1, NSEC_PER_SEC, &hi, err);
	if (r)
		return r;
	if (!v[n])
		hi = lo;
	if (lo > hi) {
		sim_ns t = lo;

		lo = hi;
		hi = t;
	}
	j->startdelay = lo;
	j->startdelay_max = hi;
	return 0;
}

static int set_loops(struct job_conf *j, const char *v, const char *where,
		     char *err)
{
	return count(v, 1, UINT32_MAX / 2, &j->loops, err);
}

static int set_io_size(struct job_conf *j, const char *v, const char *where,
		       char *err)
{
	return parse_bytes(v, &j->io_size, err);
}

static int set_read_iolog(struct job_conf *j, const char *v,
			  const char *where, char *err)
{
	if (!*v)
		return input_error(err, "empty value");
	if (!strcmp(v, "-"))
		return input_error(err, "a log on standard input is not "
				   "supported");
	if (strchr(v, ':'))
		return input_error(err, "a list of logs, one per clone "
				   "('a:b'), is not supported");
	if (strlen(v) >= sizeof(j->read_iolog))
		return input_error(err, "the path is longer than %zu "
				   "characters", sizeof(j->read_iolog) - 1);
	strcpy(j->read_iolog, v);
	return 0;
}

static int set_replay_no_stall(struct job_conf *j, const char *v,
			       const char *where, char *err)
{
	return flag(v, &j->replay_no_stall, err);
}

static int set_replay_time_scale(struct job_conf *j, const char *v,
				 const char *where, char *err)
{
	return count(v, 1, 1000000, &j->replay_time_scale, err);
}

/* replay_skip=read,write,trim,sync */
static int set_replay_skip(struct job_conf *j, const char *v,
			   const char *where, char *err)
{
	static const char *const names[] = {
		[DDIR_READ] = "read", [DDIR_WRITE] = "write",
		[DDIR_TRIM] = "trim", [DDIR_SYNC] = "sync",
	};
	unsigned skip = 0, i;
	const char *p = v;

	while (*p) {
		size_t n = strcspn(p, ",");

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (strlen(names[i]) == n && !strncmp(p, names[i], n))
				break;
		if (i == ARRAY_SIZE(names))
			return input_error(err, "'" SHOW "' is not a list of "
					   "read, write, trim, sync", v);
		skip |= 1U << i;
		p += n + (p[n] == ',');
	}
	j->replay_skip = skip;
	return 0;
}

/* mpsim's rate_iops submits at the arrival times whatever the mode, as
 * fio's offload mode does; both values are accepted. */
static int set_io_submit_mode(struct job_conf *j, const char *v,
			      const char *where, char *err)
{
	if (strcmp(v, "inline") && strcmp(v, "offload"))
		return input_error(err, "'" SHOW "' is not inline or offload",
				   v);
	return 0;
}

/* No page cache is modelled: every I/O is simulated as direct. */
static void page_cache(bool cached, const char *key, const char *where)
{
	char what[ERR_MAX];

	if (!cached)
		return;
	snprintf(what, sizeof(what), "%s: buffered I/O is not modelled (no "
		 "page cache), simulated as direct", key);
	warn_once("direct", where, what);
}

static int set_direct(struct job_conf *j, const char *v, const char *where,
		      char *err)
{
	bool b = true;
	int r = flag(v, &b, err);

	if (!r)
		page_cache(!b, "direct=0", where);
	return r;
}

static int set_buffered(struct job_conf *j, const char *v, const char *where,
			char *err)
{
	bool b = false;
	int r = flag(v, &b, err);

	if (!r)
		page_cache(b, "buffered=1", where);
	return r;
}

/* Checked, then ignored: mpsim always reports the jobs together. */
static int set_group_reporting(struct job_conf *j, const char *v,
			       const char *where, char *err)
{
	bool b;

	return flag(v, &b, err);
}

/* Checked, then ignored: a simulated device has no files. */
static int set_filename(struct job_conf *j, const char *v, const char *where,
			char *err)
{
	return *v ? 0 : input_error(err, "empty value");
}

/* ---- the table ---- */

enum {
	FO_FLAG = 1,		/* may be given bare: `stonewall` */
};

struct fio_opt {
	const char *key;
	unsigned flags;
	int (*set)(struct job_conf *j, const char *v, const char *where,
		   char *err);
};

/* A new option is one line here; aliases share their setter. */
static const struct fio_opt fio_opts[] = {
	{ "bssplit", 0, set_bssplit },
	{ "blocksize_range", 0, set_bsrange },
	{ "bsrange", 0, set_bsrange },
	{ "iodepth_batch_submit", 0, set_iodepth_batch },
	{ "iodepth_batch", 0, set_iodepth_batch },
	{ "iodepth_batch_complete_min", 0, set_complete_min },
	{ "iodepth_batch_complete", 0, set_complete_min },
	{ "iodepth_batch_complete_max", 0, set_complete_max },
	{ "iodepth_low", 0, set_iodepth_low },
	{ "thinktime", 0, set_thinktime },
	{ "thinktime_spin", 0, set_thinktime_spin },
	{ "thinktime_blocks", 0, set_thinktime_blocks },
	{ "thinktime_blocks_type", 0, set_thinktime_type },
	{ "thinktime_iotime", 0, set_thinktime_iotime },
	{ "randrepeat", FO_FLAG, set_randrepeat },
	{ "randseed", 0, set_randseed },
	{ "stonewall", FO_FLAG, set_stonewall },
	{ "wait_for_previous", FO_FLAG, set_stonewall },
	{ "startdelay", 0, set_startdelay },
	{ "loops", 0, set_loops },
	{ "io_size", 0, set_io_size },
	{ "io_limit", 0, set_io_size },
	{ "read_iolog", 0, set_read_iolog },
	{ "replay_no_stall", FO_FLAG, set_replay_no_stall },
	{ "replay_time_scale", 0, set_replay_time_scale },
	{ "replay_skip", 0, set_replay_skip },
	{ "io_submit_mode", 0, set_io_submit_mode },
	{ "direct", FO_FLAG, set_direct },
	{ "buffered", FO_FLAG, set_buffered },
	{ "group_reporting", FO_FLAG, set_group_reporting },
	{ "filename", 0, set_filename },
};

int fio_job_option(struct job_conf *j, const char *key, const char *value,
		   const char *where, char *err)
{
	const struct fio_opt *o;
	const char *why = NULL;
	char msg[ERR_MAX];

	for (o = fio_opts; o < fio_opts + ARRAY_SIZE(fio_opts); o++) {
		if (strcmp(key, o->key))
			continue;
		if (!value && !(o->flags & FO_FLAG))
			return input_error(err, SHOW ": needs a value", key);
		if (o->set(j, value, where, msg))
			return input_error(err, SHOW ": %s", key, msg);
		return 0;
	}
	switch (fio_classify(key, value, &why)) {
	case FIO_NOT_FIO:
		return -ENOENT;
	case FIO_QUIET:
		return 0;
	case FIO_WARN:
		warn_ignored(key, where);
		return 0;
	default:
		return input_error(err, SHOW ": %s", key, why);
	}
}

/* ---- defaults and checks ---- */

void fio_opts_defaults(struct job_conf *j)
{
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		j->bsd[d].min = j->bsd[d].max = (uint32_t)j->bs;
		j->bsd[d].nr_split = 0;
	}
	j->iodepth_batch = 1;
	j->iodepth_batch_complete_min = 1;
	j->randrepeat = -1;
	j->loops = 1;
	j->replay_time_scale = 100;
	j->thinktime_blocks_type = THINK_COMPLETE;
}

/* fio's own defaults where mpsim's scenarios differ (scenario.c). */
void fio_file_defaults(struct job_conf *j)
{
	j->ioengine = IOENGINE_PSYNC;
	j->randrepeat = 1;
}

bool fio_job_bounded(const struct job_conf *j)
{
	return j->number_ios || j->read_iolog[0] ||
	       ((j->size || j->io_size) && !j->time_based);
}

int fio_validate_job(const struct job_conf *j, char *err)
{
	if (j->thinktime && j->rate_iops > 0)
		return input_error(err, "thinktime with rate_iops is not "
				   "modelled");
	if (j->read_iolog[0] && j->rate_iops > 0)
		return input_error(err, "rate_iops with read_iolog is not "
				   "modelled (the log sets the pace)");
	if (j->iodepth_batch_complete_max &&
	    j->iodepth_batch_complete_max < j->iodepth_batch_complete_min)
		return input_error(err, "iodepth_batch_complete_max %u is "
				   "below iodepth_batch_complete_min %u",
				   j->iodepth_batch_complete_max,
				   j->iodepth_batch_complete_min);
	if (j->read_iolog[0]) {
		struct iolog log;
		int r = iolog_load(&log, j->read_iolog, err);

		if (r)
			return r;
		r = log.n ? 0 : input_error(err, "%s: no I/O to replay",
					    j->read_iolog);
		iolog_free(&log);
		return r;
	}
	return 0;
}
