/*
 * scenario.h: one simulated experiment, as read from a scenario file (an
 * ini file in the style of fio job files, design.md §5b) and then
 * overridden from the command line.  A struct scenario is plain data: the
 * run (sim/run.c) builds the simulation from it and never changes it.
 *
 * Units inside: times in ns, sizes in bytes, rates per second.
 */
#ifndef MPSIM_SCENARIO_H
#define MPSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "sim.h"

#define NAME_MAX_LEN	32
#define ARGS_MAX_LEN	128

enum mp_mode {
	MODE_BIO,		/* bio-based dm-mpath: stamps as --clock says */
	MODE_REQUEST,		/* request-based: stamps at device dispatch */
};

enum dist_kind {
	DIST_FIXED,		/* fixed:MEAN */
	DIST_EXP,		/* exp:MEAN */
	DIST_UNIFORM,		/* uniform:LO,HI */
	DIST_LOGNORMAL,		/* lognormal:MEAN,CV */
	DIST_GAMMA,		/* gamma:MEAN,CV */
};

/* A service-time distribution, all times in ns. */
struct dist {
	enum dist_kind kind;
	double mean;		/* mean in ns (uniform: (lo+hi)/2) */
	double lo, hi;		/* uniform bounds in ns */
	double cv;		/* coefficient of variation (lognormal, gamma) */
};

/* One [path NAME] section. */
struct path_conf {
	char name[NAME_MAX_LEN];	/* section name, e.g. "sdd" */
	unsigned slots;			/* parallel service slots; 0 = unbounded */
	struct dist service;		/* per-I/O service time */
	sim_ns latency;			/* fixed delay in front of the queue */
	uint64_t bandwidth;		/* bytes/s added as per-byte cost; 0 = none */
	bool request_stats;		/* queue keeps block stats (QUEUE_FLAG_STATS):
					   request mode stamps dispatch, else 0 */
	char path_args[ARGS_MAX_LEN];	/* per-path selector args, kernel words */
};

enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW,
};

enum rate_process {
	RATE_LINEAR,		/* fio's default: evenly spaced arrivals */
	RATE_POISSON,		/* exponential inter-arrival times */
};

/* One fio job section ([global] values are folded into every job). */
struct job_conf {
	char name[NAME_MAX_LEN];
	enum rw_mode rw;		/* rw= / readwrite= */
	unsigned rwmixread;		/* % reads for rw/randrw; default 50 */
	uint64_t bs;			/* bytes per I/O; default 4096 */
	unsigned iodepth;		/* I/Os in flight per job; default 1 */
	unsigned numjobs;		/* clones of this job; default 1 */
	uint64_t number_ios;		/* I/Os per job clone; 0 = no limit */
	sim_ns runtime;			/* 0 = no limit */
	sim_ns ramp_time;		/* excluded from statistics */
	double rate_iops;		/* open loop when > 0 (per job clone) */
	enum rate_process rate_process;
};

struct scenario {
	char name[64];			/* built-in name or file path */

	/* [multipath] */
	enum mp_mode mode;
	char selector[NAME_MAX_LEN];	/* kernel name or alias */
	char selector_args[ARGS_MAX_LEN]; /* table words without the count */
	enum start_clock clock;
	unsigned hz;
	sim_ns uptime;			/* uptime when the run starts */
	bool queue_if_no_path;

	struct path_conf *paths;
	unsigned nr_paths;
	struct job_conf *jobs;
	unsigned nr_jobs;
};

/* Defaults: bio mode, historical-service-time, ktime, HZ=250, 3600 s. */
void scenario_init(struct scenario *sc);
void scenario_free(struct scenario *sc);
/* Deep copy (the comparison table runs one copy per column). */
void scenario_copy(struct scenario *dst, const struct scenario *src);

/*
 * Read a scenario from ini text.  `origin` names the text in messages
 * ("my.ini" gives "my.ini:12: ..."). Returns 0 or -EINVAL with err set.
 */
int scenario_parse(struct scenario *sc, const char *text, const char *origin,
		   char *err);

/* Read a scenario file from disk (missing/unreadable -> -EINVAL). */
int scenario_load_file(struct scenario *sc, const char *path, char *err);

/* Load a built-in scenario by name ("hst-bio-mpath"). */
int scenario_load_builtin(struct scenario *sc, const char *name, char *err);

/*
 * Apply one command-line override (`--key=value`, key without dashes):
 * multipath keys set the [multipath] value, fio keys set it in every job.
 * Returns 0, or -EINVAL naming the option.
 */
int scenario_set(struct scenario *sc, const char *key, const char *value,
		 char *err);

/* Final checks once overrides are in (zero paths, no jobs, ...). */
int scenario_validate(const struct scenario *sc, char *err);

/* ---- unit parsing, shared with the command line ---- */

/* Sizes: "4096", "4k", "1M", "2g" (fio: k = 1024). >= 1. */
int parse_size(const char *s, uint64_t *out, char *err);
/* Durations: "100us", "2ms", "10s", "1m", "5ns"; a bare number is taken
 * in default_unit ns (0: a bare number is an error). */
int parse_duration(const char *s, sim_ns default_unit, sim_ns *out, char *err);
/* Unsigned integers with optional k/m suffix for counts ("1m" I/Os). */
int parse_uint(const char *s, uint64_t *out, char *err);
/* Distributions: "exp:100us", "uniform:50us,150us", "gamma:100us,0.5". */
int parse_dist(const char *s, struct dist *d, char *err);
/* The built-in scenario names, NULL-terminated. */
extern const char *const scenario_builtin_names[];
const char *scenario_builtin_text(const char *name);

#endif
