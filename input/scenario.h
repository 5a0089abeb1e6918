/*
 * scenario.h: one simulated experiment, as read from a scenario file (an
 * ini file in the style of fio job files; the README's "Scenario
 * files") and then overridden from the command line: the readers of the
 * plain data sim/config.h declares, which the run (sim/run.c) builds the
 * simulation from and never changes.
 *
 * Units inside: times in ns, sizes in bytes, rates per second.
 */
#ifndef MPSIM_SCENARIO_H
#define MPSIM_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/units.h"
#include "sim/config.h"	/* the types, which the engine runs on */

/*
 * Defaults: bio mode, historical-service-time, ktime, HZ=250, 3600 s,
 * queue_if_no_path off, the levels timer wheel, no workqueue latency; no
 * paths, no jobs and no path events.
 */
void scenario_init(struct scenario *sc);
/* Frees the paths, jobs and path events and leaves sc empty (safe to
 * call twice). */
void scenario_free(struct scenario *sc);
/* Deep copy (the comparison table runs one copy per column). */
void scenario_copy(struct scenario *dst, const struct scenario *src);

/*
 * Read a scenario from ini text.  `origin` names the text in messages
 * ("my.ini" gives "my.ini:12: ...") and becomes sc->name.  sc is
 * initialised here (it must hold no allocations).  Text without job
 * sections gets one job, "default", with the [global] values; an option
 * given twice keeps its last value (as in fio), except fail= and
 * reinstate=, which accumulate.  A path event naming no [path] section
 * is an error at its line.  Returns 0, or -EINVAL with err set and sc
 * left empty.
 */
int scenario_parse(struct scenario *sc, const char *text, const char *origin,
		   char *err);

/* Read a scenario file from disk: at most 1 MiB of text (missing,
 * unreadable, too large or binary -> -EINVAL). */
int scenario_load_file(struct scenario *sc, const char *path, char *err);

/*
 * Replace sc's jobs with those of a fio job file (--job=FILE.fio): fio's
 * format and defaults (ioengine=psync, randrepeat=1), job sections and
 * [global] only.  sc keeps its [multipath] and paths.  Returns 0, or
 * -EINVAL with err = "FILE:LINE: ..." and sc unchanged.
 */
int scenario_load_jobs(struct scenario *sc, const char *path, char *err);
/* The same from fio job text (the jobs of fio's command line, --name);
 * origin names it in messages. */
int scenario_load_job_text(struct scenario *sc, const char *text,
			   const char *origin, char *err);
/* Whether a command-line key is a job option (fio's or mpsim's) rather
 * than a [multipath] or [path] one: fio's --name gives it to one job. */
bool scenario_key_is_job(const char *key);

/* The jobs of fio job-file text as scenario_load_jobs() reads them from a
 * file: a scenario holding jobs only (sc initialised here). */
int scenario_parse_fio(struct scenario *sc, const char *text,
		       const char *origin, char *err);

/* Load a built-in scenario by name ("hst-bio-mpath"). */
int scenario_load_builtin(struct scenario *sc, const char *name, char *err);

/*
 * Apply one command-line override (`--key=value`, key without dashes;
 * value NULL for a bare `--time_based`): multipath keys set the
 * [multipath] value, fio keys set it in every job (adding the default
 * job first when there is none).  `depth` is accepted for `iodepth`.
 * The values go through the same code as the file's.  [path] options
 * are refused (they differ per path), but for the dm-delay ones, which
 * are set on every path.  Returns 0, or -EINVAL with a
 * message that names --key ("--clock: unknown clock 'x' ...").
 */
int scenario_set(struct scenario *sc, const char *key, const char *value,
		 char *err);

/*
 * Final checks once overrides are in (zero paths, no jobs, HZ, a job that
 * never ends, ...).  Warns, as fio does, when a synchronous ioengine caps
 * an iodepth above 1.
 */
int scenario_validate(const struct scenario *sc, char *err);

/* An unknown selector, said where it was given ("--selector", or
 * "FILE:LINE: selector") with the closest name or alias: -EINVAL. */
int selector_unknown(const char *where, const char *key, const char *name,
		     char *err);


/*
 * ---- values, shared with the command line ----
 *
 * Sizes, counts and booleans are lib/units.h's, times sim/config.h's
 * parse_duration (lib/units.h's parse_ns within a time value's limit).
 */

/* Distributions, times with a unit, CV > 0: "fixed:1ms", "exp:100us",
 * "uniform:50us,150us", "lognormal:100us,0.5", "gamma:100us,0.5".
 * Fills mean, lo/hi (uniform; fixed: both = mean) and cv for every kind
 * (fixed 0, exp 1, uniform its own). */
int parse_dist(const char *s, struct dist *d, char *err);

/*
 * Every option the command line takes into a scenario (this file's table
 * and fio's, workloads/fio-opts.c), one line each: name (a [path] one as
 * path.NAME.KEY), a value that changes the built-in scenario's result or
 * is warned about, and the options that value needs ("" for none),
 * tab-separated.  For the option walk, tests/options.sh.
 */
void scenario_list_options(FILE *f);

/* One option of the scenario's and fio's tables, for the reference
 * (--help, list options, the man page; cli/reference.c). */
struct opt_doc {
	const char *name;	/* without dashes: "hz", "path.NAME.slots" */
	const char *arg;	/* the value's form ("N", "ktime|jiffies") */
	const char *help;	/* one line: what it sets, units, default */
	const char *walk, *with;	/* the option walk's value and needs */
	unsigned sect;		/* 1 [multipath], 2 [path], 4 a job */
};
typedef void opt_doc_fn(const struct opt_doc *d, void *ctx);
/* fn for every option of the command line the tables hold, in order. */
void scenario_options_doc(opt_doc_fn *fn, void *ctx);

/* The i-th built-in scenario's name (i = 0, 1, ...), NULL past the last. */
const char *scenario_builtin_name(unsigned i);
/* A built-in scenario's ini text, NULL for an unknown name. */
const char *scenario_builtin_text(const char *name);

#endif
