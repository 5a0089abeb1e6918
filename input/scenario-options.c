/*
 * scenario-options.c: the option table: every scenario option in one line (its
 * section, its setter, and its value for the option walk), read by the
 * file, the command line and `mpsim list options`; and the value helpers
 * the setters share.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/fio.h"
#include "scenario-int.h"

/* ---- value helpers for the setters ---- */

/* A string that must fit in a field of `size` bytes. */
int set_string(const char *v, char *field, size_t size, bool empty_ok,
	       char *err)
{
	size_t n = strlen(v);

	if (!n && !empty_ok)
		return input_error(err, "empty value");
	if (n >= size)
		return input_error(err, "'" SHOW "...' is longer than %zu "
				   "characters", v, size - 1);
	memcpy(field, v, n + 1);
	return 0;
}

/* Index of v in names[0..n), or -1. */
int lookup(const char *v, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(v, names[i]))
			return (int)i;
	return -1;
}

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
	  "--path.sdd.request_stats=0" },
	{ "selector", SEC_MULTIPATH, 0, set_selector, "st", "" },
	{ "selector_args", SEC_MULTIPATH, 0, set_selector_args, "1 0", "" },
	{ "selector_source", SEC_MULTIPATH, 0, set_selector_source, TOY, IOA },
	{ "selector-source", SEC_MULTIPATH, OPT_CLI, set_selector_source, TOY,
	  IOA },
	{ "clock", SEC_MULTIPATH, 0, set_clock, "jiffies", "" },
	{ "hz", SEC_MULTIPATH, 0, set_hz, "100", "--delay=1" },
	{ "uptime", SEC_MULTIPATH, 0, set_uptime, "1001ms", "--delay=1" },
	{ "queue_if_no_path", SEC_MULTIPATH, 0, set_queue_if_no_path, "0",
	  FAILS },
	{ "kernel", SEC_MULTIPATH, 0, set_kernel, "5.10", "" },
	{ "select_clock", SEC_MULTIPATH, 0, set_select_clock, "sched_clock",
	  "--sched_clock_offset=3ms" },
	{ "sched_clock", SEC_MULTIPATH, 0, set_sched_clock, "jiffies", SCHED },
	{ "sched_clock_offset", SEC_MULTIPATH, 0, set_sched_clock_offset,
	  "3ms", SCHED },
	{ "sched_clock_drift_ppm", SEC_MULTIPATH, 0, set_sched_clock_drift,
	  "100000", SCHED },
	{ "timer_wheel", SEC_MULTIPATH, 0, set_timer_wheel, "classic",
	  "--delay=60 --runtime=1s" },
	{ "workqueue_latency", SEC_MULTIPATH, 0, set_workqueue_latency, "1ms",
	  "--delay=60 --runtime=1s" },
	{ "submit_cpu", SEC_MULTIPATH, 0, set_submit_cpu, "20us", "" },
	{ "complete_cpu", SEC_MULTIPATH, 0, set_complete_cpu, "20us", "" },
	{ "ncpus", SEC_MULTIPATH, 0, set_ncpus, "8", IOA },
	{ "numa_nodes", SEC_MULTIPATH, 0, set_numa_nodes, "2", IOA },
	{ "fail", SEC_MULTIPATH, 0, set_fail, "sdd at 20ms", "" },
	{ "reinstate", SEC_MULTIPATH, 0, set_reinstate, "sdd at 30ms",
	  "--fail='sdd at 20ms'" },
	{ "message", SEC_MULTIPATH, 0, set_message, "switch_group 2 at 20ms",
	  FAILOVER },
	{ "table", SEC_MULTIPATH, 0, set_table, TABLE2, "" },
	{ "hardware_handler", SEC_MULTIPATH, 0, set_hardware_handler, "alua",
	  "--mode=request --pg_init_time=1ms" },
	{ "pg_init_retries", SEC_MULTIPATH, 0, set_pg_init_retries, "5",
	  "--format=dmsetup" },
	{ "pg_init_delay_msecs", SEC_MULTIPATH, 0, set_pg_init_delay_msecs,
	  "10", ALUA " --message='disable_group 1 at 20ms'" },
	{ "pg_init_time", SEC_MULTIPATH, 0, set_pg_init_time, "1ms",
	  "--mode=request --hardware_handler=alua" },
	{ "path_grouping_policy", SEC_MULTIPATH, 0, set_pg_policy, "failover",
	  "" },
	{ "failback", SEC_MULTIPATH, 0, set_failback, "immediate",
	  FAILOVER " --fail='sdd at 20ms' --reinstate='sdd at 40ms'" },
	{ "no_path_retry", SEC_MULTIPATH, 0, set_no_path_retry, "fail",
	  FAILS },
	{ "polling_interval", SEC_MULTIPATH, 0, set_polling_interval, "5ms",
	  FAILS " --no_path_retry=1 --polling_interval=40ms" },

	{ "slots", SEC_PATH, 0, set_slots, "4", "" },
	{ "service", SEC_PATH, 0, set_service, "exp:1ms", "" },
	{ "latency", SEC_PATH, 0, set_latency, "1ms", "" },
	{ "bandwidth", SEC_PATH, 0, set_bandwidth, "20m", "" },
	{ "request_stats", SEC_PATH, 0, set_request_stats, "0",
	  "--mode=request" },
	{ "path_args", SEC_PATH, 0, set_path_args, "1 10", "--selector=st" },
	{ "dev", SEC_PATH, 0, set_dev, "8:1", "--format=dmsetup" },
	{ "prio", SEC_PATH, 0, set_prio, "optimized",
	  "--path_grouping_policy=group_by_prio" },
	{ "delay", SEC_PATH, OPT_EVERY_PATH, set_delay, "1", "" },
	{ "read_delay", SEC_PATH, OPT_EVERY_PATH, set_read_delay, "1",
	  "--rw=randrw" },
	{ "write_delay", SEC_PATH, OPT_EVERY_PATH, set_write_delay, "1", "" },
	{ "flush_delay", SEC_PATH, OPT_EVERY_PATH, set_flush_delay, "1", LOG },
	{ "expiry", SEC_PATH, OPT_EVERY_PATH, set_expiry, "ns", "--delay=1" },
	{ "kthread_poll", SEC_PATH, OPT_EVERY_PATH, set_kthread_poll, "busy",
	  "--delay=1" },
	{ "write_cache", SEC_PATH, OPT_EVERY_PATH, set_write_cache, "through",
	  LOG },

	{ "rw", SEC_JOB, 0, set_rw, "randread", WD },
	{ "readwrite", SEC_JOB, 0, set_rw, "randread", WD },
	{ "rwmixread", SEC_JOB, 0, set_rwmixread, "90", "--rw=randrw " WD },
	{ "rwmixwrite", SEC_JOB, 0, set_rwmixwrite, "90", "--rw=randrw " WD },
	{ "bs", SEC_JOB, 0, set_bs, "64k", BW },
	{ "blocksize", SEC_JOB, 0, set_bs, "64k", BW },
	{ "iodepth", SEC_JOB, 0, set_iodepth, "8", "" },
	{ "depth", SEC_JOB, OPT_CLI, set_iodepth, "8", "" },
	{ "numjobs", SEC_JOB, 0, set_numjobs, "2", "" },
	{ "number_ios", SEC_JOB, 0, set_number_ios, "1000", "" },
	{ "runtime", SEC_JOB, 0, set_runtime, "50ms", "" },
	{ "timeout", SEC_JOB, 0, set_runtime, "50ms", "" },
	{ "ramp_time", SEC_JOB, 0, set_ramp_time, "30ms", "" },
	{ "rate_iops", SEC_JOB, 0, set_rate_iops, "1000", "" },
	{ "rate_process", SEC_JOB, 0, set_rate_process, "poisson",
	  "--rate_iops=1000" },
	{ "ioengine", SEC_JOB, 0, set_ioengine, "psync", "" },
	{ "time_based", SEC_JOB, OPT_FLAG, set_time_based, "1", "--size=1m" },
	{ "size", SEC_JOB, 0, set_size, "1m", "" },
	/* files only: never on the command line, so not walked */
	{ "name", SEC_JOB, OPT_FILE | OPT_JOB_ONLY, set_name, NULL, NULL },
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

