/*
 * fio.h: fio's own formats as mpsim reads them: job files, the job options
 * beyond the basic ones, every other fio option's fate, and I/O logs.
 */
#ifndef MPSIM_FIO_H
#define MPSIM_FIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/ini.h"
#include "sim/config.h"

/* ---- workloads/fio-read.c: the job-file reader ---- */

#define FIO_INCLUDE_DEPTH	16	/* nested include files */
#define FIO_INCLUDE_MAX		256	/* include lines one read follows */
#define FIO_TEXT_MAX		(4u << 20) /* bytes of all the files read */

/*
 * Reads fio job-file text as ini_parse() does (ini.h) and hands each
 * line to fn, after fio's own steps:
 *  - `include FILE` reads FILE in place, relative to the directory of
 *    the file that names it; an included file holds options only (no
 *    [section], as fio says), nests at most FIO_INCLUDE_DEPTH deep and
 *    may not include itself, directly or not; one read follows at most
 *    FIO_INCLUDE_MAX includes and FIO_TEXT_MAX bytes in all (ten
 *    includes per file nine deep would otherwise be 10^9 reads);
 *  - option values are expanded by fio_expand().
 * Each line's `origin` is the file it came from.  origin names the text
 * (a path: includes are found beside it).  Returns 0, or -EINVAL with
 * err = "FILE:LINE: why" naming the innermost file.
 */
int fio_read_text(const char *text, const char *origin, ini_handler fn,
		  void *ctx, char *err);
/* The same for a file on disk (at most 1 MiB, text). */
int fio_read_file(const char *path, ini_handler fn, void *ctx, char *err);

/*
 * A value as fio expands it: ${VAR} becomes the environment variable
 * (empty when unset, as fio does); $pagesize, $mb_memory and $ncpus
 * become this machine's page size, memory in MiB and online CPUs; then a
 * value that is an arithmetic expression ("8*$ncpus", "(1+3)k") is
 * evaluated (fio_expr_eval), its unit suffix kept.  *out is malloc'd.
 * Returns 0 or -EINVAL with err set.
 */
int fio_expand(const char *v, char **out, char *err);

/* ---- workloads/fio-expr.c: fio's integer arithmetic ---- */

/*
 * Evaluates an expression of 64-bit signed integers with fio's operators
 * + - * / % ^ (power) and parentheses, from s up to the first character
 * that cannot continue it (*end points there).  Returns 0, or -EINVAL
 * with err set (division by zero, overflow, syntax).
 */
int fio_expr_eval(const char *s, int64_t *out, const char **end, char *err);

/* ---- workloads/fio-opts.c: the job options ---- */

/*
 * A job option scenario-options.c's table does not hold (key is any other
 * name; value NULL for a bare `thread`):
 *  - fio options mpsim models (bssplit, thinktime, stonewall, ...): set;
 *  - fio options with no meaning in a simulation of the I/O stream
 *    (norandommap, write_hist_log, log_offset, ...): a warning on stderr,
 *    once per option name ("fio option 'X' is not modelled, ignored"),
 *    where names the place ("job.fio:12", "--thread");
 *  - fio options that would change what the run means and that mpsim
 *    cannot model (verify, zonemode=zbd, rate in bytes, ...): refused.
 * Returns 0, -EINVAL with err = "KEY: why", or -ENOENT for a name that is
 * not a fio option (the caller's "unknown option").
 */
int fio_job_option(struct job_conf *j, const char *key, const char *value,
		   const char *where, char *err);

/* rw=MODE[:N], the modes with trims; the ":N" offset modifier is warned
 * about and ignored (scenario-job.c's rw= calls it). */
int fio_set_rw(struct job_conf *j, const char *v, const char *where,
	       char *err);

/* ---- workloads/cpus.c: the CPU each clone submits from ---- */

/* fio's cpus_allowed= ("0,5,8-15") and cpumask= (34: CPUs 1 and 5). */
int fio_set_cpus_allowed(struct job_conf *j, const char *v, char *err);
int fio_set_cpumask(struct job_conf *j, const char *v, char *err);
/* The job's CPUs all lie below the machine's ncpus. */
int fio_check_cpus(const struct job_conf *j, unsigned ncpus, char *err);
/* The CPU clone (numbered across all jobs) submits from (cpus.c). */
unsigned job_cpu(const struct job_conf *j, unsigned clone, unsigned ncpus);

/* ---- workloads/fio-bs.c: block sizes per direction ---- */

/*
 * bs ("4k", "4k,64k", ",8k,": reads, then writes, then trims; a value
 * applies to the directions after it, an empty one is fio's 4k), bsrange
 * ("4k-64k", a range per direction) and bssplit ("4k/60:64k/40", a split
 * per direction).  Each returns 0 or -EINVAL with err set.
 */
int fio_set_bs(struct job_conf *j, const char *v, char *err);
int fio_set_bsrange(struct job_conf *j, const char *v, char *err);
int fio_set_bssplit(struct job_conf *j, const char *v, char *err);

/* The defaults of the options above (scenario.c's job_defaults calls it);
 * fio_file_defaults() adds fio's own engine and randrepeat, for job files
 * read with --job. */
void fio_opts_defaults(struct job_conf *j);
void fio_file_defaults(struct job_conf *j);

/* The checks of a job that only these options need ("thinktime with
 * rate_iops"); a message without the job's name.  0 or -EINVAL.  The
 * entries of the job's I/O log are added to *log_entries: a run holds
 * one copy of each job section's log, at most IOLOG_MAX_ENTRIES in all. */
int fio_validate_job(const struct job_conf *j, uint64_t *log_entries,
		     char *err);

/* Warnings about the jobs together (a ramp_time of a job that starts
 * after a stonewall or a startdelay is measured, not excluded). */
void fio_warn_jobs(const struct scenario *sc);
/* The options of fio's table, as scenario_list_options() lists them. */
void fio_list_options(FILE *f);
/* The i-th option of fio's table, with its value's form, one line of
 * help and the option walk's value and needs; NULL past the end. */
const char *fio_option_doc(unsigned i, const char **arg, const char **help,
			   const char **walk, const char **with);

/* True when the job ends without runtime: size, number_ios or a log. */
bool fio_job_bounded(const struct job_conf *j);

/* Forget which options were warned about (tests read several files). */
void fio_warn_reset(void);

/* ---- workloads/fio-names.c: every fio option, by class ---- */

enum fio_class {
	FIO_NOT_FIO,		/* not an option of fio 3.33 */
	FIO_QUIET,		/* names, files, reporting: no effect, no word */
	FIO_WARN,		/* no effect here; warned about once */
	FIO_REFUSE,		/* cannot be modelled: an error */
};

/*
 * How mpsim treats fio option `key` with `value` (NULL: given bare).  For
 * FIO_REFUSE, *why says why ("data verification is not modelled").
 */
enum fio_class fio_classify(const char *key, const char *value,
			    const char **why);
/* The i-th option name of fio 3.33 (i = 0, 1, ...), NULL past the last. */
const char *fio_name(unsigned i);

/* ---- workloads/iolog.c: fio's I/O log, versions 2 and 3 ---- */

#define IOLOG_WAIT	DDIR_NR		/* a v2 `wait` entry */

struct iolog_entry {
	uint8_t ddir;		/* enum fio_ddir, or IOLOG_WAIT */
	uint32_t len;		/* bytes (0 for a sync) */
	sim_ns delay;		/* v3: since the previous entry was due, as
				   fio's delay_since_ttime() counts it; v2
				   wait: until this long after the start */
};

/* The most entries (I/Os and waits) one log may hold: 64 MiB in memory. */
#define IOLOG_MAX_ENTRIES	(1u << 22)

struct iolog {
	unsigned version;		/* 2 or 3 */
	struct iolog_entry *e;		/* I/Os and waits, in log order */
	size_t n;
	uint64_t ios[DDIR_NR];		/* entries per direction */
	uint64_t bytes[DDIR_NR];	/* their bytes */
	uint64_t waits;			/* v2 wait entries */
	unsigned files;			/* files added */
	sim_ns max_delay;		/* the longest entry delay */
};

/*
 * Reads a log as fio's read_iolog() does, but strictly: a line fio would
 * skip with a message (an unknown action, a malformed line, `wait` in
 * version 3, I/O on a file never added) is an error here.  origin names
 * the text in messages.  Returns 0, or -EINVAL with err =
 * "ORIGIN:LINE: why" and log left empty.
 */
int iolog_parse(struct iolog *log, const char *text, const char *origin,
		char *err);
/* The same from a file (err = "PATH: ..." when it cannot be read). */
int iolog_load(struct iolog *log, const char *path, char *err);
void iolog_free(struct iolog *log);
/*
 * replay_time_scale=pct stretches every delay of the log by 100/pct: 0,
 * or -EINVAL with err set when its longest delay would so pass
 * SIM_TIME_MAX (path names the log in the message).
 */
int iolog_check_scale(const struct iolog *log, unsigned pct, const char *path,
		      char *err);

#endif
