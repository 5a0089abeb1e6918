/*
 * scenario-options.c: the option table: every scenario option in one line (its
 * section, its setter, and its value for the option walk), read by the
 * file, the command line and `mpsim list options` (the value helpers the
 * setters share are scenario-value.c's).
 */
#include <stdio.h>
#include <string.h>

#include "workloads/fio.h"
#include "scenario-int.h"
#include "suggest.h"

/* ---- the option table ---- */

#define BW	"--path.sdd.bandwidth=20m"	/* sizes cost time */
#define WD	"--write_delay=1"		/* directions cost apart */
#define SCHED	"--select_clock=sched_clock"
#define FAILS	"--scenario=tests/golden/failover.ini"
#define LOG	"--read_iolog=tests/iolog/fio-randrw-v3.log"
#define IOA	"--scenario=tests/golden/io-affinity.ini"	/* CPUs matter */
#define TOY	"tests/ksrc/dm-ps-toy.c"	/* a kernel-style file */
#define FAILOVER "--path_grouping_policy=failover"
#define ALUA	"--mode=request --hardware_handler=alua --pg_init_time=1ms"
/* two groups of the default scenario's paths (sdd is 8:48 ... sdm 8:192) */
#define TABLE2	"0 2097152 multipath 0 0 2 1 service-time 0 5 1 8:48 1 " \
		"8:64 1 8:80 1 8:96 1 8:112 1 round-robin 0 5 1 8:128 1 " \
		"8:144 1 8:160 1 8:176 1 8:192 1"

/* A new option is one line here.  Aliases share their option's setter. */
static const struct option options[] = {
	{ "mode", SEC_MULTIPATH, 0, set_mode, "request",
	  "--path.sdd.request_stats=0",
	  "bio|request",
	  "bio-based or request-based multipath (default bio)" },
	{ "selector", SEC_MULTIPATH, 0, set_selector, "st", "",
	  "NAME",
	  "path selector: round-robin|rr, queue-length|ql, service-time|st, "
	  "historical-service-time|hst, io-affinity|ioa (mpsim list "
	  "selectors)" },
	{ "selector_args", SEC_MULTIPATH, 0, set_selector_args, "1 0", "",
	  "'W ...'",
	  "the selector's table words without the count, as dmsetup table "
	  "has them (e.g. '972 0' for hst)" },
	{ "selector_source", SEC_MULTIPATH, 0, set_selector_source, TOY, IOA,
	  "FILE",
	  "a kernel dm-ps-*.c, compiled and run as the selector (compare: a "
	  "'source' column too)" },
	{ "selector-source", SEC_MULTIPATH, OPT_CLI, set_selector_source, TOY,
	  IOA,
	  "FILE",
	  "the same as --selector_source" },
	{ "clock", SEC_MULTIPATH, 0, set_clock, "jiffies", "",
	  "jiffies|jiffies-aligned|ktime",
	  "the bio start stamp hst's end_io reads: jiffies (5.8-5.18), ktime "
	  "(5.19+), jiffies-aligned (a what-if); run and sweep" },
	{ "hz", SEC_MULTIPATH, 0, set_hz, "100", "--delay=1",
	  "100|250|300|1000",
	  "the kernel's HZ, the tick jiffies count in (default 250)" },
	{ "uptime", SEC_MULTIPATH, 0, set_uptime, "1001ms", "--delay=1",
	  "DURATION",
	  "uptime when the run starts (default 3600s; a bare number is "
	  "seconds)" },
	{ "queue_if_no_path", SEC_MULTIPATH, 0, set_queue_if_no_path, "0",
	  FAILS,
	  "0|1",
	  "hold I/O that finds no usable path (1) or fail it (0; default 0)" },
	{ "kernel", SEC_MULTIPATH, 0, set_kernel, "5.10", "",
	  "X.Y[.Z]",
	  "the clocks and the dm-delay of that release (5.10, 5.10.112, "
	  "5.19, 6.7, ...); run and sweep" },
	{ "select_clock", SEC_MULTIPATH, 0, set_select_clock, "sched_clock",
	  "--sched_clock_offset=3ms",
	  "ktime|sched_clock",
	  "the clock hst's select_path reads (default ktime)" },
	{ "sched_clock", SEC_MULTIPATH, 0, set_sched_clock, "jiffies", SCHED,
	  "tsc|jiffies",
	  "what sched_clock() counts: the TSC, or jiffies on a machine "
	  "without one (default tsc)" },
	{ "sched_clock_offset", SEC_MULTIPATH, 0, set_sched_clock_offset,
	  "3ms", SCHED,
	  "[-]DURATION",
	  "sched_clock's distance from ktime (default 0)" },
	{ "sched_clock_drift_ppm", SEC_MULTIPATH, 0, set_sched_clock_drift,
	  "100000", SCHED,
	  "[-]N",
	  "sched_clock's rate against ktime, in parts per million (default 0)" },
	{ "timer_wheel", SEC_MULTIPATH, 0, set_timer_wheel, "classic",
	  "--delay=60 --runtime=1s",
	  "levels|classic",
	  "the timer wheel of dm-delay's timer: levels (v4.8+, default) or "
	  "classic (<= v4.7)" },
	{ "workqueue_latency", SEC_MULTIPATH, 0, set_workqueue_latency, "1ms",
	  "--delay=60 --runtime=1s",
	  "DURATION",
	  "delay before dm-delay's work item runs after its timer (default 0)" },
	{ "submit_cpu", SEC_MULTIPATH, 0, set_submit_cpu, "20us", "",
	  "DURATION",
	  "CPU time of each I/O's submission, on its job's CPU (default 0: "
	  "none)" },
	{ "complete_cpu", SEC_MULTIPATH, 0, set_complete_cpu, "20us", "",
	  "DURATION",
	  "CPU time of each I/O's completion, on its job's CPU (default 0: "
	  "none)" },
	{ "wake_cpu", SEC_MULTIPATH, 0, set_wake_cpu, "250us",
	  "--submit_cpu=20us --complete_cpu=100us --delay=1",
	  "DURATION",
	  "more CPU time for the work that finds its CPU idle (the loop "
	  "after a sleep; default 0: none)" },
	{ "steal", SEC_MULTIPATH, 0, set_steal, "exp:4ms every exp:50ms",
	  "--submit_cpu=100us --complete_cpu=100us",
	  "'LEN every GAP'",
	  "a stretch of time the host steals from a CPU, stopping its work, "
	  "after every GAP of the CPU's own work; each fixed:T or exp:MEAN "
	  "(a guest's CPU preempted; default 0: none)" },
	{ "ncpus", SEC_MULTIPATH, 0, set_ncpus, "8", IOA,
	  "N",
	  "the simulated CPUs, for io-affinity and cpus_allowed (default 1)" },
	{ "numa_nodes", SEC_MULTIPATH, 0, set_numa_nodes, "2", IOA,
	  "N",
	  "NUMA nodes the CPUs are split into (default 1)" },
	{ "fail", SEC_MULTIPATH, 0, set_fail, "sdd at 20ms", "",
	  "'PATH at TIME'",
	  "fail a path at a time after the run's start (repeatable)" },
	{ "reinstate", SEC_MULTIPATH, 0, set_reinstate, "sdd at 30ms",
	  "--fail='sdd at 20ms'",
	  "'PATH at TIME'",
	  "reinstate a failed path at a time (repeatable)" },
	{ "message", SEC_MULTIPATH, 0, set_message, "switch_group 2 at 20ms",
	  FAILOVER,
	  "'MSG at TIME'",
	  "a scripted dmsetup message: switch_group N, disable_group N, "
	  "enable_group N, fail_path, reinstate_path" },
	{ "table", SEC_MULTIPATH, 0, set_table, TABLE2, "",
	  "'0 SECTORS multipath ...'",
	  "the whole target as dmsetup table prints it: features, hardware "
	  "handler, groups, selectors, paths" },
	{ "hardware_handler", SEC_MULTIPATH, 0, set_hardware_handler, "alua",
	  "--mode=request --pg_init_time=1ms",
	  "NAME",
	  "the hardware handler (alua), whose pg_init switches the active "
	  "group (default none)" },
	{ "pg_init_retries", SEC_MULTIPATH, 0, set_pg_init_retries, "5",
	  "--format=dmsetup",
	  "N",
	  "pg_init retries before a path fails, 1-50 (default: none)" },
	{ "pg_init_delay_msecs", SEC_MULTIPATH, 0, set_pg_init_delay_msecs,
	  "10", ALUA " --message='disable_group 1 at 20ms'",
	  "N",
	  "delay before a retried pg_init, in ms (default: the kernel's 2000)" },
	{ "pg_init_time", SEC_MULTIPATH, 0, set_pg_init_time, "1ms",
	  "--mode=request --hardware_handler=alua",
	  "DURATION",
	  "how long the handler's pg_init takes (default 0)" },
	{ "path_grouping_policy", SEC_MULTIPATH, 0, set_pg_policy, "failover",
	  "",
	  "multibus|failover|group_by_prio",
	  "multipathd's grouping of the paths into priority groups (default "
	  "multibus)" },
	{ "failback", SEC_MULTIPATH, 0, set_failback, "immediate",
	  FAILOVER " --fail='sdd at 20ms' --reinstate='sdd at 40ms'",
	  "immediate|manual|followover|N",
	  "multipathd's return to a better group: at once, never, after "
	  "another host, or after N s (default manual)" },
	{ "no_path_retry", SEC_MULTIPATH, 0, set_no_path_retry, "fail",
	  FAILS,
	  "queue|fail|N",
	  "multipathd's queueing when every path is down: forever, never, or "
	  "N polling intervals (default: queue_if_no_path decides)" },
	{ "polling_interval", SEC_MULTIPATH, 0, set_polling_interval, "5ms",
	  FAILS " --no_path_retry=1 --polling_interval=40ms",
	  "DURATION",
	  "multipathd's path checker interval (default 5s)" },

	{ "slots", SEC_PATH, 0, set_slots, "4", "",
	  "N",
	  "a path's parallel service slots; 0: unbounded (default 1)" },
	{ "service", SEC_PATH, 0, set_service, "exp:1ms", "",
	  "DIST",
	  "a path's service time: exp:MEAN, fixed:T, uniform:LO,HI, "
	  "lognormal:MEAN,CV, gamma:MEAN,CV, or sync" },
	{ "latency", SEC_PATH, 0, set_latency, "1ms", "",
	  "DURATION",
	  "a fixed delay in front of a path's queue (default 0)" },
	{ "bandwidth", SEC_PATH, 0, set_bandwidth, "20m", "",
	  "SIZE",
	  "bytes per second a path moves, added as a per-byte cost (default "
	  "0: none)" },
	{ "request_stats", SEC_PATH, 0, set_request_stats, "0",
	  "--mode=request",
	  "0|1",
	  "request mode: whether the path's queue keeps block statistics (a "
	  "start stamp; default 1)" },
	{ "path_args", SEC_PATH, 0, set_path_args, "1 10", "--selector=st",
	  "'W ...'",
	  "the path's selector words (rr, ql, st: repeat_count and relative "
	  "throughput; io-affinity: a cpumask)" },
	{ "dev", SEC_PATH, 0, set_dev, "8:1", "--format=dmsetup",
	  "MAJ:MIN",
	  "the path's device number in dmsetup tables and status (default: "
	  "the SCSI disk number of an sdX name, else the name)" },
	{ "prio", SEC_PATH, 0, set_prio, "optimized",
	  "--path_grouping_policy=group_by_prio",
	  "N|optimized|non-optimized",
	  "the path's priority, for group_by_prio (default 1)" },
	{ "delay", SEC_PATH, OPT_EVERY_PATH, set_delay, "1", "",
	  "MS",
	  "dm-delay in front of every path: the delay of reads, writes and "
	  "flushes in ms" },
	{ "read_delay", SEC_PATH, OPT_EVERY_PATH, set_read_delay, "1",
	  "--rw=randrw",
	  "MS",
	  "dm-delay: the delay of reads, in ms" },
	{ "write_delay", SEC_PATH, OPT_EVERY_PATH, set_write_delay, "1", "",
	  "MS",
	  "dm-delay: the delay of writes, in ms" },
	{ "flush_delay", SEC_PATH, OPT_EVERY_PATH, set_flush_delay, "1", LOG,
	  "MS",
	  "dm-delay: the delay of flushes, in ms" },
	{ "expiry", SEC_PATH, OPT_EVERY_PATH, set_expiry, "ns", "--delay=1",
	  "jiffies|ns",
	  "dm-delay's expiry: in jiffies (timer mode) or in ns (6.7+ kthread)" },
	{ "kthread_poll", SEC_PATH, OPT_EVERY_PATH, set_kthread_poll, "busy",
	  "--delay=1",
	  "mainline|busy",
	  "dm-delay's kthread: mainline's sleep between polls, or the busy "
	  "loop of 6.7-6.15" },
	{ "write_cache", SEC_PATH, OPT_EVERY_PATH, set_write_cache, "through",
	  LOG,
	  "back|through",
	  "a path's device cache: back (flushes reach it) or through (they "
	  "end at once)" },

	{ "rw", SEC_JOB, 0, set_rw, "randread", WD,
	  "MODE",
	  "fio's rw: read, write, randread, randwrite, rw, randrw, trim, "
	  "randtrim, trimwrite, randtrimwrite (default read)" },
	{ "readwrite", SEC_JOB, 0, set_rw, "randread", WD,
	  "MODE",
	  "fio's alias of --rw" },
	{ "rwmixread", SEC_JOB, 0, set_rwmixread, "90", "--rw=randrw " WD,
	  "PCT",
	  "the reads' share of rw and randrw, in % (default 50)" },
	{ "rwmixwrite", SEC_JOB, 0, set_rwmixwrite, "90", "--rw=randrw " WD,
	  "PCT",
	  "the writes' share of rw and randrw, in % (default 50)" },
	{ "bs", SEC_JOB, 0, set_bs, "64k", BW,
	  "SIZE",
	  "block size, 1024-based units (default 4k)" },
	{ "blocksize", SEC_JOB, 0, set_bs, "64k", BW,
	  "SIZE",
	  "fio's alias of --bs" },
	{ "iodepth", SEC_JOB, 0, set_iodepth, "8", "",
	  "N",
	  "I/Os in flight per job clone (default 1, as fio's)" },
	{ "depth", SEC_JOB, OPT_CLI, set_iodepth, "8", "",
	  "N",
	  "alias of --iodepth" },
	{ "numjobs", SEC_JOB, 0, set_numjobs, "2", "",
	  "N",
	  "clones of each job (default 1)" },
	{ "number_ios", SEC_JOB, 0, set_number_ios, "1000", "",
	  "N",
	  "I/Os per job clone, counted from the end of ramp_time (default "
	  "unlimited)" },
	{ "runtime", SEC_JOB, 0, set_runtime, "50ms", "",
	  "DURATION",
	  "how long each job issues after ramp_time; what it has in "
	  "flight then completes and counts, as in fio (a bare number is "
	  "seconds)" },
	{ "timeout", SEC_JOB, 0, set_runtime, "50ms", "",
	  "DURATION",
	  "fio's alias of --runtime" },
	{ "ramp_time", SEC_JOB, 0, set_ramp_time, "30ms", "",
	  "DURATION",
	  "warm-up left out of the figures (default 0)" },
	{ "rate_iops", SEC_JOB, 0, set_rate_iops, "1000", "",
	  "N",
	  "open loop: arrivals per second per job clone (default: closed "
	  "loop)" },
	{ "rate_process", SEC_JOB, 0, set_rate_process, "poisson",
	  "--rate_iops=1000",
	  "linear|poisson",
	  "open-loop spacing of the arrivals (default linear)" },
	{ "ioengine", SEC_JOB, 0, set_ioengine, "psync", "",
	  "NAME",
	  "fio's engine: libaio, io_uring, posixaio honour iodepth; sync, "
	  "psync, pvsync, pvsync2, vsync run at depth 1 (default libaio)" },
	{ "time_based", SEC_JOB, OPT_FLAG, set_time_based, "1", "--size=1m",
	  "[0|1]",
	  "run for runtime even when size is done" },
	{ "size", SEC_JOB, 0, set_size, "1m", "",
	  "SIZE",
	  "bytes per job clone before it stops, unless time_based (default "
	  "unlimited)" },
	/* files only: never on the command line, so not walked */
	{ "name", SEC_JOB, OPT_FILE | OPT_JOB_ONLY, set_name, NULL, NULL,
	  "NAME",
	  "a job's name" },
};

void scenario_list_options(FILE *f)
{
	const struct option *o;

	for (o = options; o < options + ARRAY_SIZE(options); o++) {
		if (o->flags & OPT_FILE)
			continue;
		fprintf(f, "%s%s\t%s\t%s\n",
			o->sect == SEC_PATH && !(o->flags & OPT_EVERY_PATH) ?
			"path.NAME." : "", o->key, o->walk, o->with);
	}
	fio_list_options(f);
}

void scenario_options_doc(opt_doc_fn *fn, void *ctx)
{
	const struct option *o;
	struct opt_doc d;
	char name[64];
	unsigned i;

	for (o = options; o < options + ARRAY_SIZE(options); o++) {
		if (o->flags & OPT_FILE)
			continue;
		snprintf(name, sizeof(name), "%s%s",
			 o->sect == SEC_PATH && !(o->flags & OPT_EVERY_PATH) ?
			 "path.NAME." : "", o->key);
		d.name = name;
		d.arg = o->arg;
		d.help = o->help;
		d.walk = o->walk;
		d.with = o->with;
		d.sect = o->sect;
		fn(&d, ctx);
	}
	for (i = 0; (d.name = fio_option_doc(i, &d.arg, &d.help, &d.walk,
					     &d.with)); i++) {
		d.sect = SEC_JOB;
		fn(&d, ctx);
	}
}

const char *suggest_option(const char *key)
{
	const struct option *o;
	const char *best = NULL, *a, *h, *w, *x, *n;
	unsigned d = ~0U, i;

	for (o = options; o < options + ARRAY_SIZE(options); o++)
		if (!(o->flags & OPT_CLI))
			suggest_try(key, o->key, &best, &d);
	for (i = 0; (n = fio_option_doc(i, &a, &h, &w, &x)); i++)
		suggest_try(key, n, &best, &d);
	return best;
}

/* The option called key, skipping those with any of the flags `not`. */
const struct option *find_option(const char *key, unsigned not)
{
	const struct option *o;

	for (o = options; o < options + ARRAY_SIZE(options); o++)
		if (!strcmp(key, o->key) && !(o->flags & not))
			return o;
	return NULL;
}

const char *section_label(unsigned sect)
{
	switch (sect) {
	case SEC_MULTIPATH:
		return "[multipath]";
	case SEC_PATH:
		return "[path NAME]";
	default:
		return "a job section or [global]";
	}
}

/* Runs o's setter; a failure reads "KEY: why" (prefix is "" or "--"). */
int apply(const struct option *o, struct target *t, const char *prefix,
	  const char *key, const char *value, char *err)
{
	char why[ERR_MAX];

	if (!value && !(o->flags & OPT_FLAG))
		return input_error(err, "%s" SHOW ": needs a value", prefix,
				   key);
	if (o->set(t, value, why))
		return input_error(err, "%s" SHOW ": %s", prefix, key, why);
	return 0;
}

