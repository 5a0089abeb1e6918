/*
 * scenario-int.h: what the pieces of the scenario reader share, private
 * to sim/scenario*.c (everyone else includes scenario.h).  The pieces:
 *   scenario.c            the scenario itself: defaults, init, free, copy
 *   scenario-options.c    the option table, and the setters' value helpers
 *   scenario-multipath.c  the setters of [multipath]'s keys
 *   scenario-path.c       the setters of the [path NAME] sections' keys
 *   scenario-job.c        the setters of the fio job keys of the table
 *   scenario-file.c       a scenario's ini text: a file, --job, a built-in
 *   scenario-set.c        the command-line overrides (scenario_set)
 *   scenario-check.c      the final checks (scenario_validate)
 */
#ifndef MPSIM_SCENARIO_INT_H
#define MPSIM_SCENARIO_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"
#include "table.h"

/* The built-in scenarios, generated from workloads/scenarios/ by embed.sh. */
struct builtin_scenario {
	const char *name;
	const char *text;
};
extern const struct builtin_scenario builtin_scenarios[];

#define MAX_FILE	(1024 * 1024)	/* largest scenario file read */
#define MAX_CLONES	4096		/* numjobs of all jobs: fio's
					   --max-jobs default */
#define MAX_INFLIGHT	(1U << 20)	/* I/Os in flight over all clones */
#define MAX_SLOTS	(1U << 20)
#define MAX_RATE_IOPS	1000000000ULL	/* one I/O per ns */
#define MAX_EVENTS	4096		/* fail= and reinstate= lines */
#define SHOW		"%.40s"		/* user text quoted in a message */

/* What a setter may change; only the member its section gives is set. */
struct target {
	struct scenario *sc;		/* [multipath] options */
	struct path_conf *path;		/* [path NAME] options */
	struct job_conf *job;		/* job and [global] options */
	const char *where;		/* "FILE:LINE" or "--KEY", for warnings */
	const char *file;		/* FILE of where; NULL: the command line */
};

/* The setters: one per option, shared by file and command line.  Each
 * sets t's member for its section from v, or says why not in err. */

/* scenario-multipath.c */
/* Refuses a key that the scenario's table line gives (scenario-multipath.c). */
int table_owns(const struct scenario *sc, char *err);

int set_mode(struct target *t, const char *v, char *err);
int set_selector(struct target *t, const char *v, char *err);
int set_selector_source(struct target *t, const char *v, char *err);
int set_selector_args(struct target *t, const char *v, char *err);
int set_clock(struct target *t, const char *v, char *err);
int set_hz(struct target *t, const char *v, char *err);
int set_uptime(struct target *t, const char *v, char *err);
int set_kernel(struct target *t, const char *v, char *err);
int set_select_clock(struct target *t, const char *v, char *err);
int set_sched_clock(struct target *t, const char *v, char *err);
int set_sched_clock_offset(struct target *t, const char *v, char *err);
int set_sched_clock_drift(struct target *t, const char *v, char *err);
int set_queue_if_no_path(struct target *t, const char *v, char *err);
int set_timer_wheel(struct target *t, const char *v, char *err);
int set_workqueue_latency(struct target *t, const char *v, char *err);
int set_submit_cpu(struct target *t, const char *v, char *err);
int set_write_cache(struct target *t, const char *v, char *err);
int set_complete_cpu(struct target *t, const char *v, char *err);
int set_wake_cpu(struct target *t, const char *v, char *err);
int set_steal(struct target *t, const char *v, char *err);
int set_fail(struct target *t, const char *v, char *err);
int set_reinstate(struct target *t, const char *v, char *err);
int set_ncpus(struct target *t, const char *v, char *err);
int set_numa_nodes(struct target *t, const char *v, char *err);

/* scenario-path.c */
int set_slots(struct target *t, const char *v, char *err);
int set_service(struct target *t, const char *v, char *err);
int set_latency(struct target *t, const char *v, char *err);
int set_bandwidth(struct target *t, const char *v, char *err);
int set_request_stats(struct target *t, const char *v, char *err);
int set_path_args(struct target *t, const char *v, char *err);
int set_delay(struct target *t, const char *v, char *err);
int set_read_delay(struct target *t, const char *v, char *err);
int set_write_delay(struct target *t, const char *v, char *err);
int set_flush_delay(struct target *t, const char *v, char *err);
int set_expiry(struct target *t, const char *v, char *err);
int set_kthread_poll(struct target *t, const char *v, char *err);

/* scenario-job.c */
int set_rw(struct target *t, const char *v, char *err);
int set_rwmixread(struct target *t, const char *v, char *err);
int set_rwmixwrite(struct target *t, const char *v, char *err);
int set_bs(struct target *t, const char *v, char *err);
int set_iodepth(struct target *t, const char *v, char *err);
int set_numjobs(struct target *t, const char *v, char *err);
int set_number_ios(struct target *t, const char *v, char *err);
int set_runtime(struct target *t, const char *v, char *err);
int set_ramp_time(struct target *t, const char *v, char *err);
int set_rate_iops(struct target *t, const char *v, char *err);
int set_rate_process(struct target *t, const char *v, char *err);
int set_ioengine(struct target *t, const char *v, char *err);
int set_time_based(struct target *t, const char *v, char *err);
int set_size(struct target *t, const char *v, char *err);
int set_name(struct target *t, const char *v, char *err);
int set_message(struct target *t, const char *v, char *err);
int set_table(struct target *t, const char *v, char *err);
int set_hardware_handler(struct target *t, const char *v, char *err);
int set_pg_init_retries(struct target *t, const char *v, char *err);
int set_pg_init_delay_msecs(struct target *t, const char *v, char *err);
int set_pg_init_time(struct target *t, const char *v, char *err);
int set_pg_policy(struct target *t, const char *v, char *err);
int set_failback(struct target *t, const char *v, char *err);
int set_no_path_retry(struct target *t, const char *v, char *err);
int set_polling_interval(struct target *t, const char *v, char *err);
int set_dev(struct target *t, const char *v, char *err);
int set_prio(struct target *t, const char *v, char *err);

/* ---- the option table (scenario-options.c) ---- */

enum {
	SEC_MULTIPATH = 1,
	SEC_PATH = 2,
	SEC_JOB = 4,		/* a job section or [global] */
};

enum {
	OPT_FLAG = 1,		/* may be given without a value */
	OPT_FILE = 2,		/* scenario files only, not the command line */
	OPT_CLI = 4,		/* command line only */
	OPT_JOB_ONLY = 8,	/* a job section, not [global] */
	OPT_EVERY_PATH = 16,	/* a [path] option the command line sets on
				   every path */
};

struct option {
	const char *key;
	unsigned sect;		/* SEC_* the option belongs to */
	unsigned flags;		/* OPT_* */
	int (*set)(struct target *t, const char *v, char *err);
	/* For the option walk (tests/options.sh, `mpsim list options`): a
	 * value that changes the built-in scenario's result, or has mpsim
	 * warn or refuse, once the options of `with` are given too. */
	const char *walk, *with;
	/* For the reference (--help, list options, the man page): the
	 * value's form ("NAME", "jiffies|ktime") and one line of help. */
	const char *arg, *help;
};

/* The option called key, skipping those with any of the flags `not`. */
const struct option *find_option(const char *key, unsigned not);
/* The option of a scenario file (fio's too) key was likely meant to be,
 * or NULL. */
const char *suggest_option(const char *key);
const char *section_label(unsigned sect);
/* Runs o's setter; a failure reads "KEY: why" (prefix is "" or "--"). */
int apply(const struct option *o, struct target *t, const char *prefix,
	  const char *key, const char *value, char *err);

/* ---- the setters' value helpers (scenario-value.c) ---- */
/* A string that must fit in a field of `size` bytes. */
int set_string(const char *v, char *field, size_t size, bool empty_ok,
	       char *err);
/* Index of v in names[0..n), or -1. */
int lookup(const char *v, const char *const *names, size_t n);

/* ---- the scenario (scenario.c) ---- */

void job_defaults(struct job_conf *j);
void path_defaults(struct path_conf *p);
struct path_conf *add_path(struct scenario *sc);
struct job_conf *add_job(struct scenario *sc, unsigned *cap,
			 const struct job_conf *tmpl, const char *name);
/* fio's default job, for a scenario without job sections. */
void add_default_job(struct scenario *sc, const struct job_conf *tmpl);

/* scenario-job.c: a job's name= (also a job section's header) */
int check_job_name(const char *v, char *err);
/* scenario-file.c: each fail=/reinstate= names a path of the scenario */
int check_events(const struct scenario *sc, char *err);

#endif
