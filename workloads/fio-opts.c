/*
 * fio-opts.c: fio's job options beyond the scenario's basic ones, one
 * setter each, and what becomes of every other fio option.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
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

/* A bare flag (v NULL) is true, as fio's `stonewall` alone. */
static int flag(const char *v, bool *out, char *err)
{
	if (!v) {
		*out = true;
		return 0;
	}
	return parse_bool(v, out, err);
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
	return parse_count(v, 0, MAX_COUNT, &j->iodepth_batch, err);
}

static int set_complete_min(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return parse_count(v, 0, MAX_COUNT, &j->iodepth_batch_complete_min, err);
}

static int set_complete_max(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return parse_count(v, 0, MAX_COUNT, &j->iodepth_batch_complete_max, err);
}

static int set_iodepth_low(struct job_conf *j, const char *v,
			   const char *where, char *err)
{
	return parse_count(v, 0, MAX_COUNT, &j->iodepth_low, err);
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
	return parse_count(v, 1, UINT32_MAX / 2, &j->thinktime_blocks, err);
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
	return parse_count(v, 1, UINT32_MAX / 2, &j->loops, err);
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
	return parse_count(v, 1, 1000000, &j->replay_time_scale, err);
}

/* replay_skip=read,write,trim,sync */
static int set_replay_skip(struct job_conf *j, const char *v,
			   const char *where, char *err)
{
	unsigned skip = 0, i;
	const char *p = v;

	while (*p) {
		size_t n = strcspn(p, ",");

		for (i = 0; i < DDIR_NR; i++)
			if (strlen(fio_ddir_name(i)) == n &&
			    !strncmp(p, fio_ddir_name(i), n))
				break;
		if (i == DDIR_NR)
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
	if (!strcmp(v, "offload"))
		warn_once("io_submit_mode", where, "io_submit_mode=offload: "
			  "submission threads are not modelled (either mode "
			  "submits at the arrival times), no change");
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

/* Report each group's clones as one unit, as fio (sim/run.c). */
static int set_group_reporting(struct job_conf *j, const char *v,
			       const char *where, char *err)
{
	return flag(v, &j->group_reporting, err);
}

/* A new reporting group without a stonewall, as fio's new_group. */
static int set_new_group(struct job_conf *j, const char *v,
			 const char *where, char *err)
{
	return flag(v, &j->new_group, err);
}

/* Checked, then ignored: a simulated device has no files. */
static int set_filename(struct job_conf *j, const char *v, const char *where,
			char *err)
{
	return *v ? 0 : input_error(err, "empty value");
}

static int set_bsrange(struct job_conf *j, const char *v, const char *where,
		       char *err)
{
	return fio_set_bsrange(j, v, err);
}

static int set_bssplit(struct job_conf *j, const char *v, const char *where,
		       char *err)
{
	return fio_set_bssplit(j, v, err);
}

static int set_cpus_allowed(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return fio_set_cpus_allowed(j, v, err);
}

static int set_cpumask(struct job_conf *j, const char *v, const char *where,
		       char *err)
{
	return fio_set_cpumask(j, v, err);
}

/* sync=: fio's O_SYNC (1, sync) and O_DSYNC (dsync), which a block
 * device treats alike (iocb_is_dsync, block/fops.c); 0 or none: off.
 * What a write then sends is the block layer's (sim/mpath.c,
 * docs/kernel-model.md §11.2). */
static int set_sync(struct job_conf *j, const char *v, const char *where,
		    char *err)
{
	if (!v || !strcmp(v, "sync") || !strcmp(v, "dsync")) {
		j->osync = true;
		return 0;
	}
	if (!strcmp(v, "none")) {
		j->osync = false;
		return 0;
	}
	if (parse_bool(v, &j->osync, err))
		return input_error(err, "'" SHOW "' is not 0, 1, none, sync or "
				   "dsync", v);
	return 0;
}

/* fsync=N, fdatasync=N: a sync after every N writes (fio's
 * get_rw_ddir); a block device's fsync and fdatasync are one flush. */
static int set_fsync(struct job_conf *j, const char *v, const char *where,
		     char *err)
{
	return parse_count(v, 0, UINT32_MAX, &j->fsync_blocks, err);
}

static int set_fdatasync(struct job_conf *j, const char *v,
			 const char *where, char *err)
{
	return parse_count(v, 0, UINT32_MAX, &j->fdatasync_blocks, err);
}

/* write_bw_log[=PREFIX], write_iops_log, write_lat_log: fio's logs of
 * the job (report/report-fio-log.c); bare or empty, the job's name is
 * the prefix, as fio's make_log_name(). */
static int set_log(struct job_conf *j, enum fio_log l, const char *v,
		   char *err)
{
	if (v && strlen(v) >= sizeof(j->log_prefix[l]))
		return input_error(err, "the prefix is longer than %zu "
				   "characters", sizeof(j->log_prefix[l]) - 1);
	snprintf(j->log_prefix[l], sizeof(j->log_prefix[l]), "%s",
		 v ? v : "");
	j->log_set[l] = true;
	return 0;
}

static int set_bw_log(struct job_conf *j, const char *v, const char *where,
		      char *err)
{
	return set_log(j, FIO_LOG_BW, v, err);
}

static int set_iops_log(struct job_conf *j, const char *v, const char *where,
			char *err)
{
	return set_log(j, FIO_LOG_IOPS, v, err);
}

static int set_lat_log(struct job_conf *j, const char *v, const char *where,
		       char *err)
{
	return set_log(j, FIO_LOG_LAT, v, err);
}

/* fio's log_avg_msec, an int of milliseconds (0: a line per I/O). */
static int set_log_avg_msec(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return parse_count(v, 0, 100000000, &j->log_avg_msec, err);
}

static int set_per_job_logs(struct job_conf *j, const char *v,
			    const char *where, char *err)
{
	return flag(v, &j->per_job_logs, err);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * percentile_list=P[:P...]: fio's list of at most FIO_PCT_MAX
 * percentiles, each above 0 and at most 100 (fio ends its list at a 0,
 * so a 0 would silently drop those after it: refused), sorted as fio
 * sorts it (calc_clat_percentiles).
 */
static int set_percentile_list(struct job_conf *j, const char *v,
			       const char *where, char *err)
{
	double p[FIO_PCT_MAX];
	unsigned n = 0;
	const char *s = v;

	do {
		char word[64], *end;
		size_t len = strcspn(s, ":");

		if (n == FIO_PCT_MAX)
			return input_error(err, "more than %u percentiles "
					   "(fio's limit)", FIO_PCT_MAX);
		if (!len || len >= sizeof(word))
			return input_error(err, "'" SHOW "' is not a list of "
					   "percentiles, as 50:99:99.9", v);
		memcpy(word, s, len);
		word[len] = '\0';
		p[n] = strtod(word, &end);
		if (*end || !(p[n] > 0 && p[n] <= 100))
			return input_error(err, "'" SHOW "' is not a "
					   "percentile above 0 and at most 100",
					   word);
		n++;
		s += len;
	} while (*s++ == ':');
	qsort(p, n, sizeof(p[0]), cmp_double);
	memcpy(j->percentile_list, p, n * sizeof(p[0]));
	j->nr_percentiles = n;
	return 0;
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
	/* the option walk's value and the options it needs (scenario-options.c) */
	const char *walk, *with;
	const char *arg, *help;	/* the value's form and one line of help */
};

#define BW	"--path.sdd.bandwidth=20m"
#define THINK	"--thinktime=100us"
#define LOG	"--read_iolog=tests/iolog/fio-randrw-v3.log"
#define IOA	"--scenario=tests/golden/io-affinity.ini"	/* CPUs matter */
#define RATE	"--rate_iops=20000"			/* open loop */
#define MIX	"--rw=randrw --write_delay=1"	/* draws matter */
#define TWO	"--job=tests/jobs/rate-trim.fio"
/* accepted and changing nothing by design, as fio's own report would
 * not change either: the walk checks they are documented as such */
#define BY_DESIGN	"-"

/* A new option is one line here; aliases share their setter. */
static const struct fio_opt fio_opts[] = {
	{ "bssplit", 0, set_bssplit, "4k/50:64k/50", BW,
	  "SPLIT",
	  "block sizes with their shares, fio's 4k/50:64k/50 (a direction "
	  "each after a comma)" },
	{ "blocksize_range", 0, set_bsrange, "4k-64k", BW,
	  "LO-HI",
	  "fio's alias of --bsrange" },
	{ "bsrange", 0, set_bsrange, "4k-64k", BW,
	  "LO-HI",
	  "block sizes drawn between LO and HI, in steps of the minimum" },
	{ "iodepth_batch_submit", 0, set_iodepth_batch, "16", RATE,
	  "N",
	  "I/Os submitted together once N are ready (default 1)" },
	{ "iodepth_batch", 0, set_iodepth_batch, "16", RATE,
	  "N",
	  "fio's alias of --iodepth_batch_submit" },
	{ "iodepth_batch_complete_min", 0, set_complete_min, "16", "",
	  "N",
	  "completions reaped together, at least (default 1)" },
	{ "iodepth_batch_complete", 0, set_complete_min, "16", "",
	  "N",
	  "fio's alias of --iodepth_batch_complete_min" },
	{ "iodepth_batch_complete_max", 0, set_complete_max, "32",
	  "--iodepth_batch_complete_min=8 --iodepth=16 " RATE,
	  "N",
	  "completions reaped together, at most (default iodepth)" },
	{ "iodepth_low", 0, set_iodepth_low, "8", "",
	  "N",
	  "refill the queue only once it drains to N (default iodepth)" },
	{ "thinktime", 0, set_thinktime, "100us", "",
	  "DURATION",
	  "a pause between I/Os (default 0)" },
	{ "thinktime_spin", 0, set_thinktime_spin, "50us", THINK,
	  "DURATION",
	  "the part of the pause spent on the CPU" },
	{ "thinktime_blocks", 0, set_thinktime_blocks, "8", THINK,
	  "N",
	  "I/Os between pauses (default 1)" },
	{ "thinktime_blocks_type", 0, set_thinktime_type, "issue",
	  THINK " --thinktime_blocks=8",
	  "complete|issue",
	  "whether thinktime_blocks counts completions or submissions "
	  "(default complete)" },
	{ "thinktime_iotime", 0, set_thinktime_iotime, "1ms", THINK,
	  "DURATION",
	  "pause after this long of I/O instead of after blocks" },
	{ "randrepeat", FO_FLAG, set_randrepeat, "1", MIX,
	  "[0|1]",
	  "the same random offsets and draws on each run (default 1 in job "
	  "files)" },
	{ "randseed", 0, set_randseed, "7", MIX,
	  "N",
	  "the seed of the job's random draws" },
	{ "stonewall", FO_FLAG, set_stonewall, "1", TWO,
	  "[0|1]",
	  "wait for the jobs before this one to finish" },
	{ "wait_for_previous", FO_FLAG, set_stonewall, "1", TWO,
	  "[0|1]",
	  "fio's alias of --stonewall" },
	{ "startdelay", 0, set_startdelay, "10ms", "",
	  "DURATION",
	  "the job starts this long after the run" },
	{ "loops", 0, set_loops, "2", "--size=1m",
	  "N",
	  "repeat the job's size this many times (default 1)" },
	{ "io_size", 0, set_io_size, "1m", "",
	  "SIZE",
	  "bytes the job moves in all (default size)" },
	{ "io_limit", 0, set_io_size, "1m", "",
	  "SIZE",
	  "fio's alias of --io_size" },
	{ "read_iolog", 0, set_read_iolog, "tests/iolog/fio-randrw-v3.log",
	  "",
	  "FILE",
	  "replay a fio I/O log (version 2 or 3), timed" },
	{ "replay_no_stall", FO_FLAG, set_replay_no_stall, "1", LOG,
	  "[0|1]",
	  "replay the log as fast as it goes, not at its times" },
	{ "replay_time_scale", 0, set_replay_time_scale, "50", LOG,
	  "PCT",
	  "replay at this % of the log's times (default 100)" },
	{ "replay_skip", 0, set_replay_skip, "write", LOG,
	  "read,write,trim,sync",
	  "leave these directions out of the replay" },
	{ "io_submit_mode", 0, set_io_submit_mode, "offload",
	  "--rate_iops=1000",
	  "inline|offload",
	  "offload: submission by a separate thread, as fio's" },
	{ "sync", FO_FLAG, set_sync, "1", "--ioengine=psync --rw=write",
	  "[0|1|sync|dsync|none]",
	  "O_SYNC writes: each write followed by a flush" },
	{ "fsync", 0, set_fsync, "4", "--rw=write",
	  "N",
	  "a flush after every N writes (default 0: none)" },
	{ "fdatasync", 0, set_fdatasync, "4", "--rw=write",
	  "N",
	  "a flush after every N writes, as fsync (default 0)" },
	{ "direct", FO_FLAG, set_direct, "0", "",
	  "[0|1]",
	  "O_DIRECT (default 1); 0 is warned about and run as direct: "
	  "there is no page cache" },
	{ "buffered", FO_FLAG, set_buffered, "1", "",
	  "[0|1]",
	  "the opposite of direct; 1 is warned about and run as direct" },
	/* they group the run's job table as fio's report (README Output);
	 * the figures, and compare and sweep, which list no jobs, stay */
	{ "group_reporting", FO_FLAG, set_group_reporting, BY_DESIGN, "",
	  "[0|1]",
	  "a run's job table: one line per group of jobs, not per clone" },
	{ "new_group", FO_FLAG, set_new_group, BY_DESIGN, "",
	  "[0|1]",
	  "start a new reporting group with this job" },
	/* there are no files */
	{ "filename", 0, set_filename, BY_DESIGN, "",
	  "NAME",
	  "accepted; there are no files (changes nothing)" },
	/* the CPUs a clone submits from (cpus.c), for io-affinity */
	{ "cpus_allowed", 0, set_cpus_allowed, "2", IOA,
	  "LIST",
	  "the CPUs a job's clones submit from, as 0-3,8 (for io-affinity)" },
	{ "cpumask", 0, set_cpumask, "4", IOA,
	  "MASK",
	  "the CPUs a job's clones submit from, as a bit mask" },
	/* fio's percentiles, in fio's formats (--output-format) */
	{ "percentile_list", 0, set_percentile_list, "50:99.5",
	  "--output-format=json",
	  "P:P...",
	  "the latency percentiles of fio's formats (--output-format=json, "
	  "json+, terse; default fio's 17, 1 to 99.99)" },
	/* side files, beside the figures: they never change them */
	{ "write_bw_log", FO_FLAG, set_bw_log, BY_DESIGN, "",
	  "[PREFIX]",
	  "fio's bandwidth log, PREFIX_bw.N.log (default PREFIX: the job's "
	  "name)" },
	{ "write_iops_log", FO_FLAG, set_iops_log, BY_DESIGN, "",
	  "[PREFIX]",
	  "fio's IOPS log, PREFIX_iops.N.log" },
	{ "write_lat_log", FO_FLAG, set_lat_log, BY_DESIGN, "",
	  "[PREFIX]",
	  "fio's latency logs, PREFIX_lat.N.log, _clat and _slat" },
	{ "log_avg_msec", 0, set_log_avg_msec, BY_DESIGN, "",
	  "MSEC",
	  "fio's logs average over MSEC milliseconds (default 0: a line per "
	  "I/O)" },
	{ "per_job_logs", FO_FLAG, set_per_job_logs, BY_DESIGN, "",
	  "[0|1]",
	  "fio's log names carry the job clone's number, .N (default 1)" },
};

void fio_list_options(FILE *f)
{
	const struct fio_opt *o;

	for (o = fio_opts; o < fio_opts + ARRAY_SIZE(fio_opts); o++)
		fprintf(f, "%s\t%s\t%s\n", o->key, o->walk, o->with);
}

const char *fio_option_doc(unsigned i, const char **arg, const char **help,
			   const char **walk, const char **with)
{
	const struct fio_opt *o;

	if (i >= ARRAY_SIZE(fio_opts))
		return NULL;
	o = &fio_opts[i];
	*arg = o->arg;
	*help = o->help;
	*walk = o->walk;
	*with = o->with;
	return o->key;
}

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
	j->per_job_logs = true;
}

/* fio's own defaults where mpsim's scenarios differ (scenario.c). */
void fio_file_defaults(struct job_conf *j)
{
	j->ioengine = IOENGINE_PSYNC;
	j->randrepeat = 1;
}

/* Whether some path's device has a volatile write cache: then so has
 * the dm device over them (dm_table_supports_flush: any one), and
 * flushes go down. */
static bool any_write_back(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++)
		if (!sc->paths[i].write_through)
			return true;
	return false;
}

void fio_warn_jobs(const struct scenario *sc)
{
	bool later = false;
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *j = &sc->jobs[i];
		char what[ERR_MAX];

		if (!j->osync || j->rw == RW_READ || j->rw == RW_RANDREAD ||
		    j->rw == RW_TRIM || j->rw == RW_RANDTRIM)
			continue;
		if (!any_write_back(sc))
			snprintf(what, sizeof(what), "job %.40s: sync changes "
				 "nothing: no path device has a write cache "
				 "(write_cache = through), so the block layer "
				 "sends no flush", j->name);
		else if (!ioengine_osync_flushes(j->ioengine))
			snprintf(what, sizeof(what), "job %.40s: sync changes "
				 "nothing with ioengine=%s: an asynchronous "
				 "O_SYNC direct write is one FUA write, with no "
				 "flush after it", j->name,
				 ioengine_name(j->ioengine));
		else
			continue;
		warn_once("sync", sc->name, what);
	}

	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *j = &sc->jobs[i];
		char what[ERR_MAX];

		/* fio spins thinktime_spin of the stall and sleeps the
		 * rest: a spin holds no simulated CPU (sim/cpu.c charges
		 * submissions and completions only), so the stall is the
		 * same */
		if (j->thinktime_spin && j->thinktime_spin <= j->thinktime) {
			snprintf(what, sizeof(what), "job %.40s: "
				 "thinktime_spin changes nothing (a spin holds "
				 "no simulated CPU: the stall is thinktime, "
				 "spun or slept)", j->name);
			warn_once("thinktime_spin", sc->name, what);
		}
		/* fio: the first job has nothing above it to wait for */
		if (!i && j->stonewall && sc->nr_jobs == 1) {
			snprintf(what, sizeof(what), "job %.40s: stonewall "
				 "changes nothing: it is the only job, with "
				 "none before it to wait for", j->name);
			warn_once("stonewall", sc->name, what);
		}
		later |= i && j->stonewall;
		if (!j->ramp_time || !(later || j->startdelay_max))
			continue;
		snprintf(what, sizeof(what), "job %.40s: its ramp_time is "
			 "measured (it starts after the run's statistics "
			 "window opens; mpsim measures one window)", j->name);
		warn_once("ramp_time", sc->name, what);
	}
}

bool fio_job_bounded(const struct job_conf *j)
{
	return j->number_ios || j->read_iolog[0] ||
	       ((j->size || j->io_size) && !j->time_based);
}

/* The log's I/Os that replay_skip (1 << fio_ddir per direction) keeps. */
static uint64_t replay_left(const struct iolog *log, unsigned skip)
{
	uint64_t n = 0;
	unsigned d;

	for (d = 0; d < DDIR_NR; d++)
		if (!(skip & 1U << d))
			n += log->ios[d];
	return n;
}

int fio_validate_job(const struct job_conf *j, uint64_t *log_entries,
		     char *err)
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
		if (!r && replay_left(&log, j->replay_skip) == 0)
			r = input_error(err, "%s: replay_skip leaves none of "
					"its %llu I/Os to replay", j->read_iolog,
					(unsigned long long)replay_left(&log, 0));
		if (!r && !j->replay_no_stall)
			r = iolog_check_scale(&log, j->replay_time_scale,
					      j->read_iolog, err);
		*log_entries += log.n;
		if (!r && *log_entries > IOLOG_MAX_ENTRIES)
			r = input_error(err, "%s: the I/O logs of all jobs hold "
					"more than %u entries, the limit of a "
					"run", j->read_iolog,
					IOLOG_MAX_ENTRIES);
		iolog_free(&log);
		return r;
	}
	return 0;
}
