/*
 * cli-checks.c: what the command line's options cannot mean on their
 * own: a replay's window, the options compare refuses, and the warnings
 * about options a run leaves with nothing to do, so that no option is
 * accepted and silently ignored (tests/options.sh walks them all).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim/run.h"
#include "input/table.h"

/* Whether the command line gives one of the options named in names. */
bool cli_has(int argc, char **argv, const char *const *names)
{
	int i, used;

	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		const char *const *n;
		char err[ERR_MAX];
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return false;
		for (n = names; *n; n++)
			if (cli_key_is(key, klen, *n))
				return true;
	}
	return false;
}

/*
 * --read_iolog on the command line replays the log in place of the
 * scenario's workload, and fio replays and measures a whole log: the
 * scenario's ramp_time and runtime (the built-in one's 1 s ramp would
 * swallow most logs) are dropped unless the command line gives them too.
 * A job file's (--job) are kept: they are written with its jobs.
 */
void replay_window(int argc, char **argv, struct scenario *sc,
			  bool job_file)
{
	static const char *const log[] = { "read_iolog", NULL };
	static const char *const ramp[] = { "ramp_time", NULL };
	static const char *const run[] = { "runtime", "timeout", NULL };
	bool keep_ramp, keep_run;
	unsigned i;

	if (job_file || !cli_has(argc, argv, log))
		return;
	keep_ramp = cli_has(argc, argv, ramp);
	keep_run = cli_has(argc, argv, run);
	for (i = 0; i < sc->nr_jobs; i++) {
		if (!keep_ramp)
			sc->jobs[i].ramp_time = 0;
		if (!keep_run)
			sc->jobs[i].runtime = 0;
	}
}

/* Whether any path has a dm-delay layer (its timer or kthread runs). */
static bool has_delay(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++) {
		const struct delay_conf *d = &sc->paths[i].delay;

		if (d->read_ms || d->write_ms || d->flush_ms)
			return true;
	}
	return false;
}

/* Whether anything in the run reads jiffies (and so HZ and the uptime's
 * phase against the tick): historical-service-time's bio start stamp
 * when it is not ktime, its select_path on sched_clock, dm-delay, or a
 * kernel file, which might. */
static bool jiffies_read(const struct scenario *sc)
{
	bool hst = table_has_selector(sc, "historical-service-time");

	/* a kernel file may read any clock (selectors/ksource.h) */
	if (sc->selector_source[0])
		return true;
	if (hst && (sc->select_sched_clock ||
		    (sc->mode == MODE_BIO && sc->clock != START_KTIME)))
		return true;
	return has_delay(sc);
}

/* The options of the simulated CPUs (workloads/cpus.c), which only a
 * selector that asks for the submitting CPU reads. */
static const char *const cpus[] = {
	"ncpus", "numa_nodes", "cpus_allowed", "cpumask", NULL
};

/* Whether any job replays a log (the replay_* options act on it). */
static bool has_replay(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++)
		if (sc->jobs[i].read_iolog[0])
			return true;
	return false;
}

/* The options of sched_clock, which only historical-service-time's
 * select_path reads, and only on 5.8-5.17 (select_clock=sched_clock):
 * 5.18+ reads ktime_get_ns() there (docs/kernel-model.md §1.5). */
static const char *const sched[] = {
	"sched_clock", "sched_clock_offset", "sched_clock_drift_ppm", NULL
};

/* The options of dm-delay's timer and kthread (docs/kernel-model.md §7, §8), which
 * act only on a path with a dm-delay layer. */
static const char *const delay_opts[] = {
	"timer_wheel", "workqueue_latency", "expiry", "kthread_poll", NULL
};

/* fio's replay options, which act only on a replayed log. */
static const char *const replay_opts[] = {
	"replay_no_stall", "replay_time_scale", "replay_skip", NULL
};

/* Whether some job sends flushes, which write_cache= acts on (a log may
 * hold syncs: counted as one that does). */
static bool sends_flushes(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *j = &sc->jobs[i];

		if ((j->osync && ioengine_osync_flushes(j->ioengine)) ||
		    j->fsync_blocks || j->fdatasync_blocks || j->read_iolog[0])
			return true;
	}
	return false;
}

static const char *const write_cache[] = { "write_cache", NULL };

/* The first of names the command line gives, for the messages. */
static const char *first_given(int argc, char **argv,
			       const char *const *names)
{
	for (; *names; names++) {
		const char *const one[] = { *names, NULL };

		if (cli_has(argc, argv, one))
			return *names;
	}
	return NULL;
}

/*
 * The options no selector choice brings into play: sched_clock's when
 * select_path reads ktime, dm-delay's with no dm-delay path, the replay
 * options with no log.  hst: historical-service-time runs (in compare,
 * some column runs it).
 */
void cli_warn_unread(int argc, char **argv, const struct scenario *sc,
		     bool hst)
{
	static const char *const select_clock[] = { "select_clock", NULL };
	const char *given;

	given = first_given(argc, argv, sched);
	if (given && !sc->selector_source[0] &&
	    (!sc->select_sched_clock || !hst))
		mpsim_warn("--%s changes nothing here: select_path reads "
			   "ktime (sched_clock is read only by "
			   "historical-service-time with "
			   "--select_clock=sched_clock, 5.8-5.17)", given);
	/* sched_clock at tsc, no offset, no drift is ktime itself */
	if (cli_has(argc, argv, select_clock) && sc->select_sched_clock &&
	    !sc->selector_source[0] && !sc->sched.jiffies &&
	    !sc->sched.offset && !sc->sched.drift_ppm)
		mpsim_warn("--select_clock=sched_clock changes nothing here: "
			   "sched_clock is tsc with no offset and no drift, "
			   "which reads as ktime (give --sched_clock_offset, "
			   "--sched_clock_drift_ppm or --sched_clock=jiffies)");
	given = first_given(argc, argv, delay_opts);
	if (given && !has_delay(sc))
		mpsim_warn("--%s changes nothing here: no dm-delay path "
			   "(give --delay, --read_delay, --write_delay or "
			   "--flush_delay)", given);
	if (cli_has(argc, argv, write_cache) && !sends_flushes(sc))
		mpsim_warn("--write_cache changes nothing here: no job sends a "
			   "flush (give --sync=1 with a synchronous ioengine, "
			   "--fsync=N, --fdatasync=N, or a log with syncs)");
	given = first_given(argc, argv, replay_opts);
	if (given && !has_replay(sc))
		mpsim_warn("--%s changes nothing here: no read_iolog (the "
			   "replay options act on a replayed log)", given);
}

void cli_warn_inert(int argc, char **argv, const struct scenario *sc)
{
	static const char *const clock[] = { "clock", NULL };
	static const char *const hz[] = { "hz", NULL };
	static const char *const uptime[] = { "uptime", NULL };
	/* a sweep's points differ in the value, not in the cause: the
	 * option alone, so that the cause is said once for all its points */
	bool swept = cli_cmd == CMD_SWEEP;
	char hz_val[16];

	snprintf(hz_val, sizeof(hz_val), "=%u", sc->hz);
	/* a sweep may cross modes and clocks: warned, not refused */
	if (cli_has(argc, argv, clock)) {
		if (sc->mode == MODE_REQUEST)
			mpsim_warn("--clock%s%s does not apply in request mode: "
				   "a request is stamped when the driver "
				   "starts it (io_start_time_ns), whatever the "
				   "bio clock", swept ? "" : "=",
				   swept ? "" : start_clock_name(sc->clock));
		else if (!table_has_selector(sc, "historical-service-time") &&
			 !sc->selector_source[0])
			mpsim_warn("--clock%s%s changes nothing: %s does not "
				   "read the bio start stamp (only "
				   "historical-service-time does%s)",
				   swept ? "" : "=",
				   swept ? "" : start_clock_name(sc->clock),
				   sc->selector, swept ? "; a sweep gives it "
				   "clocks of its own with --selector=...,"
				   "hst:clock=LIST" : "");
	}
	/* only io-affinity (or a kernel file, which might) asks which CPU
	 * submits (workloads/cpus.c), and the CPU time of an I/O is
	 * charged there (sim/cpu.c) */
	if (cli_has(argc, argv, cpus) && !sc->selector_source[0] &&
	    strcmp(sc->selector, "io-affinity") && !sc->submit_cpu &&
	    !sc->complete_cpu)
		mpsim_warn("the CPU options (ncpus, numa_nodes, cpus_allowed, "
			   "cpumask) change nothing here: %s does not look at "
			   "the submitting CPU (only io-affinity does) and no "
			   "I/O costs CPU time (submit_cpu, complete_cpu)",
			   sc->selector);
	cli_warn_unread(argc, argv, sc,
			!strcmp(sc->selector, "historical-service-time"));
	/* a job file's fio logs and percentiles: a sweep writes neither */
	if (swept)
		fio_out_warn_many(sc, "sweep");
	if (!jiffies_read(sc)) {
		if (cli_has(argc, argv, hz))
			mpsim_warn("--hz%s changes nothing here: nothing reads "
				   "jiffies (no jiffies stamp for "
				   "historical-service-time, no dm-delay)",
				   swept ? "" : hz_val);
		if (cli_has(argc, argv, uptime))
			mpsim_warn("--uptime changes nothing here: every clock "
				   "read is ktime, which the uptime only "
				   "shifts (no jiffies stamp, no dm-delay)");
	}
}

/*
 * The options that follow one run: a trace (its file, format and bounds)
 * and, for a sweep, a series and a latency histogram too.  compare and
 * sweep run many; they refuse these with the reason, not as unknown.
 */
static const struct {
	const char *key, *why;
	bool series;		/* compare takes it (one file per column) */
} one_run[] = {
	{ "trace", "a trace follows one run (mpsim run --trace=FILE)", false },
	{ "trace-format", "a trace follows one run (mpsim run --trace=FILE)", false },
	{ "trace-from", "a trace follows one run (mpsim run --trace=FILE)", false },
	{ "trace-until", "a trace follows one run (mpsim run --trace=FILE)", false },
	{ "trace-count", "a trace follows one run (mpsim run --trace=FILE)", false },
	{ "trace-max", "a trace follows one run (mpsim run --trace=FILE)", false },
	{ "blktrace", "a trace follows one run (mpsim run --blktrace=DIR)", false },
	{ "interval", "a series follows one run (mpsim run "
	  "--interval=DURATION)", true },
	{ "series", "a series follows one run (mpsim run --series=FILE)", true },
	{ "lat_hist", "a latency histogram follows one run (mpsim run "
	  "--lat_hist=FILE)", true },
	/* fio's formats and logs: one run's */
	{ "minimal", "fio's terse lines are one run's (mpsim run "
	  "--minimal)", false },
	{ "terse-version", "fio's terse lines are one run's (mpsim run "
	  "--minimal)", false },
	{ "percentile_list", "fio's formats, which show it, are one run's "
	  "(mpsim run --output-format=json)", false },
	{ "write_bw_log", "fio's logs follow one run (mpsim run "
	  "--write_bw_log=PREFIX)", false },
	{ "write_iops_log", "fio's logs follow one run (mpsim run "
	  "--write_iops_log=PREFIX)", false },
	{ "write_lat_log", "fio's logs follow one run (mpsim run "
	  "--write_lat_log=PREFIX)", false },
	{ "log_avg_msec", "fio's logs follow one run (mpsim run "
	  "--write_bw_log=PREFIX)", false },
	{ "per_job_logs", "fio's logs follow one run (mpsim run "
	  "--write_bw_log=PREFIX)", false },
};

int one_run_refuse(const char *cmd, bool series, int argc, char **argv,
		   char *err)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(one_run); i++) {
		const char *const one[] = { one_run[i].key, NULL };

		if ((series || !one_run[i].series) && cli_has(argc, argv, one))
			return input_error(err, "%s: --%s: %s", cmd,
					   one_run[i].key, one_run[i].why);
	}
	return 0;
}

/*
 * Options compare cannot honour: each column sets its own selector and
 * bio clock, so --selector, --clock and --kernel (which sets the clocks,
 * and for 5.8-5.17 says HST's ktime stamp did not exist) would be
 * accepted and mean nothing.  They are refused; `mpsim run` takes them,
 * as it takes a trace.
 */
int compare_refuse(int argc, char **argv, char *err)
{
	static const struct {
		const char *key, *why;
	} no[] = {
		{ "selector", "every column runs its own selector (pick "
		  "columns with --columns; one selector: mpsim run)" },
		{ "clock", "every column sets its own bio clock (pick columns "
		  "with --columns; one clock: mpsim run)" },
		{ "kernel", "the columns set the clocks a kernel would pin (one "
		  "kernel: mpsim run --kernel=X.Y)" },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(no); i++) {
		const char *const one[] = { no[i].key, NULL };

		if (cli_has(argc, argv, one))
			return input_error(err, "compare: --%s: %s", no[i].key,
					   no[i].why);
	}
	return one_run_refuse("compare", false, argc, argv, err);
}

void compare_warn_cpus(int argc, char **argv, const struct compare_result *cr)
{
	unsigned c;

	if (!cli_has(argc, argv, cpus))
		return;
	for (c = 0; c < cr->nr_cols; c++)
		if (cr->cols[c] == &cr->source ||
		    !strcmp(cr->cols[c]->selector, "io-affinity"))
			return;
	mpsim_warn("compare: the CPU options (ncpus, numa_nodes, "
		   "cpus_allowed, cpumask) change nothing: no column looks at "
		   "the submitting CPU (only io-affinity does, as a "
		   "--selector-source column)");
}

/*
 * Each column's warnings (run_warn), and the one that only the table as
 * a whole shows: request mode stamps at dispatch, so the HST columns
 * that differ only in the bio clock are the same run.
 */
void compare_warn(const struct scenario *sc,
			 const struct compare_result *cr)
{
	unsigned c, hst = 0;

	/* a cause met in many columns is said once, with their number */
	for (c = 0; c < cr->nr_cols; c++) {
		char label[80];

		snprintf(label, sizeof(label), "column %s", cr->cols[c]->label);
		mpsim_warn_round(c, cr->nr_cols, "columns", label);
		run_warn(sc, &cr->runs[c], NULL);
		hst += !strcmp(cr->cols[c]->selector, "historical-service-time");
	}
	mpsim_warn_round(cr->nr_cols, cr->nr_cols, "columns", NULL);
	if (sc->mode == MODE_REQUEST && hst > 1)
		mpsim_warn("compare: in request mode the HST columns are the "
			   "same run: a request is stamped at dispatch, and "
			   "the bio clock they differ in does not apply");
}
