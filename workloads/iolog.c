/*
 * iolog.c: fio's I/O log, versions 2 and 3 (fio's iolog.c), read into a
 * list of timed entries for replay.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/workload.h"	/* job_mean_bytes: the engine calls it */
#include "fio.h"

/*
 * Version 2 lines:  FILE add|open|close
 *                   FILE read|write|trim|sync|datasync|wait OFFSET LENGTH
 * Version 3 lines:  the same, each after a timestamp in microseconds
 * since the run began (fio writes utime_since_now()); `wait` is gone.
 *
 * Timing, as fio's read_iolog() and delay_since_ttime() have it: an
 * entry of a version 3 log is due `ts - previous ts` after the previous
 * line was issued, 0 when the previous timestamp is 0 or larger (fio's
 * rule, kept), and file actions pass their delays on to the next I/O.  A
 * version 2 `wait` holds replay until OFFSET milliseconds after the start
 * (fio's code compares it with mtime_since_genesis(); its HOWTO speaks
 * of microseconds, the code is followed here).
 */

#define SHOW		"%.40s"
#define MAX_FILES	4096		/* files one log may add */
#define MAX_LOG_SIZE	(64u << 20)	/* bytes of a log file */

struct parse {
	struct iolog *log;
	size_t cap;
	char **files;			/* added, for the use check */
	unsigned nr_files;
	uint64_t last_ts;		/* fio's io_log_last_ttime */
	sim_ns carry;			/* delay of file actions since the
					   last I/O entry */
};

/* Splits s (modified) into at most max white-space separated words. */
static unsigned split_words(char *s, char **w, unsigned max)
{
	unsigned n = 0;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		w[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* An unsigned decimal of at most `max`, fio's %llu / %u. */
static int number(const char *s, uint64_t max, uint64_t *out,
		  const char *what, char *err)
{
	uint64_t v = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return input_error(err, "%s '" SHOW "' is not a number", what,
				   s);
	for (; isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v) ||
		    v > max)
			return input_error(err, "%s '" SHOW "' is too large",
					   what, s);
	if (*p)
		return input_error(err, "%s '" SHOW "' is not a number", what,
				   s);
	*out = v;
	return 0;
}

/*
 * Where name is, or would go, in the sorted file list: a binary search,
 * since every I/O line looks its file up (a linear search made a log of
 * millions of lines over thousands of files quadratic).  *found says
 * whether it is there.
 */
static unsigned find_file(const struct parse *ps, const char *name,
			  bool *found)
{
	unsigned lo = 0, hi = ps->nr_files;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = strcmp(ps->files[mid], name);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static bool file_known(const struct parse *ps, const char *name)
{
	bool found;

	find_file(ps, name, &found);
	return found;
}

static int file_action(struct parse *ps, const char *name, const char *act,
		       char *err)
{
	if (!strcmp(act, "add")) {
		bool found;
		unsigned at = find_file(ps, name, &found);

		if (found)
			return 0;
		if (ps->nr_files == MAX_FILES)
			return input_error(err, "more than %d files",
					   MAX_FILES);
		ps->files = xrealloc(ps->files, (ps->nr_files + 1) *
				     sizeof(*ps->files));
		memmove(ps->files + at + 1, ps->files + at,
			(ps->nr_files - at) * sizeof(*ps->files));
		ps->files[at] = xstrdup(name);
		ps->nr_files++;
		return 0;
	}
	if (strcmp(act, "open") && strcmp(act, "close"))
		return input_error(err, "unknown file action '" SHOW "' (add, "
				   "open, close; or an I/O with offset and "
				   "length)", act);
	if (!file_known(ps, name))
		return input_error(err, "%s of '" SHOW "', a file never "
				   "added", act, name);
	return 0;
}

static void add_entry(struct parse *ps, unsigned ddir, uint32_t len,
		      sim_ns delay)
{
	struct iolog *log = ps->log;
	struct iolog_entry *e;

	assert(log->n < IOLOG_MAX_ENTRIES);
	if (log->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 256;
		log->e = xrealloc(log->e, ps->cap * sizeof(*log->e));
	}
	e = &log->e[log->n++];
	e->ddir = (uint8_t)ddir;
	e->len = len;
	e->delay = delay;
	if (delay > log->max_delay)
		log->max_delay = delay;
	if (ddir == IOLOG_WAIT) {
		log->waits++;
	} else {
		log->ios[ddir]++;
		log->bytes[ddir] += len;
	}
}

/* The direction fio's read_iolog() gives an action, or -1. */
static int io_action(const char *act)
{
	static const struct {
		const char *name;
		int ddir;
	} acts[] = {
		{ "read", DDIR_READ }, { "write", DDIR_WRITE },
		{ "trim", DDIR_TRIM }, { "sync", DDIR_SYNC },
		{ "datasync", DDIR_SYNC }, { "wait", IOLOG_WAIT },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(acts); i++)
		if (!strcmp(act, acts[i].name))
			return acts[i].ddir;
	return -1;
}

static int parse_line(struct parse *ps, char *line, char *err)
{
	unsigned v3 = ps->log->version == 3, n;
	char *w[6];
	uint64_t ts = 0, off = 0, len = 0;
	sim_ns delay = 0;
	int ddir, r;

	n = split_words(line, w, 5);
	if (!n)
		return 0;
	if (n > 5 || n < 2 + v3 || (n != 2 + v3 && n != 4 + v3))
		return input_error(err, "expected '%sFILE ACTION [OFFSET "
				   "LENGTH]'", v3 ? "TIMESTAMP " : "");
	if (v3) {
		r = number(w[0], UINT64_MAX / NSEC_PER_USEC, &ts, "timestamp",
			   err);
		if (r)
			return r;
		/* fio's delay_since_ttime(): none after a 0 or later stamp */
		if (ps->last_ts && ts >= ps->last_ts)
			delay = (ts - ps->last_ts) * NSEC_PER_USEC;
		ps->last_ts = ts;
	}
	/* every delay a simulated time (sim.h): a file action's delay is
	 * carried on to the next I/O, so the sum is what must fit */
	if (delay > SIM_TIME_MAX - ps->carry)
		return input_error(err, "a gap of more than %llus before this "
				   "entry (the limit of a time value)",
				   (unsigned long long)(SIM_TIME_MAX /
							NSEC_PER_SEC));
	if (n == 2 + v3) {
		r = file_action(ps, w[v3], w[v3 + 1], err);
		if (!r)
			ps->carry += delay;
		return r;
	}

	if (ps->log->n == IOLOG_MAX_ENTRIES)
		return input_error(err, "more than %u entries, the limit of a "
				   "log", IOLOG_MAX_ENTRIES);
	ddir = io_action(w[v3 + 1]);
	if (ddir < 0)
		return input_error(err, "unknown action '" SHOW "' (read, "
				   "write, trim, sync, datasync%s)",
				   w[v3 + 1], v3 ? "" : ", wait");
	if (ddir == IOLOG_WAIT && v3)
		return input_error(err, "'wait' is not allowed in a version 3 "
				   "log (timestamps time it)");
	r = number(w[v3 + 2], UINT64_MAX, &off, "offset", err);
	if (!r)
		r = number(w[v3 + 3], UINT32_MAX, &len, "length", err);
	if (r)
		return r;
	if (ddir == IOLOG_WAIT) {
		if (off > SIM_TIME_MAX / NSEC_PER_MSEC)
			return input_error(err, "wait '" SHOW "' is longer than "
					   "%llu ms (the limit of a time value)",
					   w[2], (unsigned long long)
					   (SIM_TIME_MAX / NSEC_PER_MSEC));
		add_entry(ps, IOLOG_WAIT, 0, off * NSEC_PER_MSEC);
		return 0;
	}
	if (!file_known(ps, w[v3]))
		return input_error(err, "I/O on '" SHOW "', a file never added",
				   w[v3]);
	add_entry(ps, (unsigned)ddir, (uint32_t)len, ps->carry + delay);
	ps->carry = 0;
	return 0;
}

int iolog_parse(struct iolog *log, const char *text, const char *origin,
		char *err)
{
	struct parse ps = { .log = log };
	char why[ERR_MAX], *buf = NULL;
	const char *p = text;
	unsigned line = 0, i;
	size_t cap = 0;
	int r = 0;

	memset(log, 0, sizeof(*log));
	while (!r && next_line(&p, &buf, &cap)) {
		line++;
		if (line > 1) {
			r = parse_line(&ps, buf, why);
		} else if (!strncmp(buf, "fio version 2 iolog", 19)) {
			log->version = 2;
		} else if (!strncmp(buf, "fio version 3 iolog", 19)) {
			log->version = 3;
		} else {
			r = input_error(why, "not a fio iolog (the first line "
					"must be 'fio version 2 iolog' or 'fio "
					"version 3 iolog')");
		}
	}
	if (!r && !line) {
		line = 1;
		r = input_error(why, "empty, not a fio iolog");
	}
	log->files = ps.nr_files;
	for (i = 0; i < ps.nr_files; i++)
		free(ps.files[i]);
	free(ps.files);
	free(buf);
	if (r) {
		char *c;

		input_error(err, "%s:%u: %s", origin, line, why);
		for (c = err; *c; c++)
			if (iscntrl((unsigned char)*c))
				*c = '?';
		iolog_free(log);
	}
	return r;
}

int iolog_load(struct iolog *log, const char *path, char *err)
{
	char *text;
	size_t n;
	int r;

	memset(log, 0, sizeof(*log));
	r = read_text_file(path, MAX_LOG_SIZE, "fio iolog", &text, &n, err);
	if (r)
		return r;
	r = iolog_parse(log, text, path, err);
	free(text);
	return r;
}

int iolog_check_scale(const struct iolog *log, unsigned pct, const char *path,
		      char *err)
{
	/* replay.c scales each delay in double and rounds it to a sim_ns:
	 * bounded so, the product stays a time value and far below the
	 * 2^64 where the conversion would overflow */
	if ((unsigned __int128)log->max_delay * 100 >
	    (unsigned __int128)SIM_TIME_MAX * pct)
		return input_error(err, "%s: replay_time_scale=%u stretches "
				   "its longest gap (%llu us) beyond %llus, "
				   "the limit of a time value", path, pct,
				   (unsigned long long)(log->max_delay /
							NSEC_PER_USEC),
				   (unsigned long long)(SIM_TIME_MAX /
							NSEC_PER_SEC));
	return 0;
}

void iolog_free(struct iolog *log)
{
	free(log->e);
	memset(log, 0, sizeof(*log));
}

int job_mean_bytes(const struct job_conf *c, double *mean)
{
	struct iolog log;
	char err[ERR_MAX];
	uint64_t n = 0, bytes = 0;
	unsigned d;

	if (!c->read_iolog[0]) {
		*mean = bs_mean(c);
		return 0;
	}
	if (iolog_load(&log, c->read_iolog, err))
		return -EINVAL;
	for (d = 0; d < DDIR_NR; d++) {
		if (c->replay_skip & 1U << d)
			continue;
		n += log.ios[d];
		bytes += log.bytes[d];
	}
	iolog_free(&log);
	*mean = n ? (double)bytes / (double)n : 0;
	return 0;
}
