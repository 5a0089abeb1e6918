/*
 * config.h: the configuration a run is built from (struct scenario and
 * the structs it holds: paths, jobs, dm-delay layers, path events), as
 * plain data.  The readers of input/ fill it from a scenario file and the
 * command line (input/scenario.h); the engine (sim/run.c) builds the
 * simulation from it and never changes it.
 *
 * Units inside: times in ns, sizes in bytes, rates per second.
 */
#ifndef MPSIM_CONFIG_H
#define MPSIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/cpumask.h"
#include "clock.h"
#include "sim.h"

#define NAME_MAX_LEN	32
/* Selector and per-path argument words: room for an io-affinity mask of
 * every one of PS_MAX_CPUS CPUs as the kernel prints it, 8 hex digits a
 * comma apart (287 characters for 1024 CPUs), and more. */
#define ARGS_MAX_LEN	512
#define SOURCE_MAX_LEN	1024
#define SCENARIO_MAX_PATHS	256	/* [path] sections of a scenario */

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
	DIST_SYNC,		/* sync: ends inside submit_bio (brd, zram);
				   a path's service only, not parse_dist's */
};

/* A service-time distribution, all times in ns. */
struct dist {
	enum dist_kind kind;
	double mean;		/* mean in ns (uniform: (lo+hi)/2) */
	double lo, hi;		/* uniform bounds in ns */
	double cv;		/* coefficient of variation: the parameter of
				   lognormal and gamma, filled for every kind */
};

/* dm-delay's due time for a delayed bio (docs/kernel-model.md §7.2, §7.6). */
enum delay_expiry {
	EXPIRY_JIFFIES,		/* jiffies + msecs_to_jiffies(ms): mainline */
	EXPIRY_NS,		/* ktime + ms: §7.6's patch, kthread mode */
};

/* How dm-delay's kthread waits between polls (docs/kernel-model.md §7.4). */
enum delay_poll {
	POLL_SLEEP,		/* 6.16+: fsleep(min(1 ms, min_delay/8)) */
	POLL_BUSY,		/* 6.7-6.15: a cond_resched() loop */
};

/*
 * A dm-delay target stacked over a path's device (docs/kernel-model.md §7), in the
 * table's terms: whole milliseconds per class, 0 = pass straight through.
 * All three 0: no layer at all.
 */
struct delay_conf {
	unsigned read_ms;		/* read class: all but writes */
	unsigned write_ms;		/* write class */
	unsigned flush_ms;		/* flush class: follows write_ms, as the
					   6-word table has it, unless set */
	bool flush_given;		/* flush_delay= set (9-word table) */
	enum delay_expiry expiry;
	enum delay_poll poll;		/* kthread_poll= */
	bool poll_given;		/* ... set (checked against kernel=) */
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
	char dev[16];			/* dev = MAJ:MIN, how a table names it;
					   "" none */
	unsigned prio;			/* multipathd's path priority (ALUA:
					   50 optimized, 10 non-optimized);
					   default 1, the const prioritizer */
	struct delay_conf delay;	/* dm-delay layer over the device */
	bool write_through;		/* write_cache = through: no volatile
					   cache (QUEUE_FLAG_WC clear, brd);
					   default back (loop, most disks) */
};

/* The wheel dm-delay's timer mode arms its timer on (docs/kernel-model.md §8). */
enum timer_wheel {
	WHEEL_LEVELS,		/* v4.8+ non-cascading wheel */
	WHEEL_CLASSIC,		/* <= v4.7 cascading wheel */
};

/*
 * A scripted `fail = PATH at TIME` or `reinstate = PATH at TIME` of
 * [multipath].  These accumulate (every line is one event) instead of
 * keeping the last value as every other option does.
 */
struct path_event {
	char path[NAME_MAX_LEN];	/* the path's name ("" for a message) */
	char msg[NAME_MAX_LEN];		/* `message = WORDS at TIME`: the
					   dmsetup message's words, else "" */
	sim_ns at;			/* after the run's start (uptime) */
	bool reinstate;			/* else fail */
	unsigned line;			/* line in the scenario file; 0: given
					   on the command line */
};

enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW,
	RW_TRIM, RW_RANDTRIM, RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

/*
 * fio's data directions, in fio's order (its enum fio_ddir): what an I/O
 * does, and the index of fio's per-direction options ("bs=4k,64k" is 4k
 * reads, 64k writes and trims).  A sync is a flush: no data, written.
 */
enum fio_ddir {
	DDIR_READ, DDIR_WRITE, DDIR_TRIM, DDIR_SYNC, DDIR_NR,
};
#define DDIR_RWDIR_CNT	3		/* directions with block sizes */

#define BSSPLIT_MAX	64		/* fio's bssplit entries per direction */
#define FIO_PCT_MAX	20		/* fio's FIO_IO_U_LIST_MAX_LEN */
#define FIO_LOG_PREFIX_MAX 256		/* longest write_*_log= prefix */

/* fio's per-interval logs of a job (write_bw_log= ...). */
enum fio_log {
	FIO_LOG_BW,		/* PREFIX_bw.N.log */
	FIO_LOG_IOPS,		/* PREFIX_iops.N.log */
	FIO_LOG_LAT,		/* PREFIX_lat, _clat and _slat.N.log */
	FIO_LOG_NR,
};
#define IOLOG_PATH_MAX	1024		/* longest read_iolog= path */

/*
 * The block sizes of one direction: a fixed size (min == max), a range
 * (bsrange: multiples of min up to max), or a weighted split (bssplit,
 * nr_split > 0, percentages adding up to 100).
 */
struct bs_conf {
	uint32_t min, max;		/* bytes */
	unsigned nr_split;		/* bssplit entries; 0: none */
	uint32_t split_bs[BSSPLIT_MAX];	/* their sizes, ascending (fio sorts) */
	uint8_t split_perc[BSSPLIT_MAX];	/* their percentages */
};

/* What thinktime_blocks counts (fio's thinktime_blocks_type). */
enum think_type {
	THINK_COMPLETE,		/* completed I/Os (fio's default) */
	THINK_ISSUE,		/* issued I/Os */
};

enum rate_process {
	RATE_LINEAR,		/* fio's default: evenly spaced arrivals */
	RATE_POISSON,		/* exponential inter-arrival times */
};

/*
 * fio's I/O engines that mpsim accepts.  The asynchronous ones keep
 * iodepth I/Os in flight; the synchronous ones have one I/O in flight
 * whatever iodepth says (fio: "queue depth will be capped at 1").
 */
enum ioengine {
	IOENGINE_PSYNC,		/* fio's default on Linux */
	IOENGINE_SYNC,
	IOENGINE_PVSYNC,
	IOENGINE_PVSYNC2,
	IOENGINE_VSYNC,
	IOENGINE_LIBAIO,
	IOENGINE_IO_URING,
	IOENGINE_POSIXAIO,
};

/*
 * One fio job section ([global] values are folded into every job defined
 * after them, as fio does).  Options accepted without a field, because
 * they change nothing in a simulation: direct (no page cache is
 * modelled), filename (there are no files).
 */
struct job_conf {
	char name[NAME_MAX_LEN];	/* section name, or name= */
	enum rw_mode rw;		/* rw= / readwrite= */
	unsigned rwmixread;		/* % reads for rw/randrw; default 50 */
	uint64_t bs;			/* bytes per I/O; default 4096 */
	unsigned iodepth;		/* iodepth= as given; default 1 (in
					   effect: job_iodepth()) */
	unsigned numjobs;		/* clones of this job; default 1 */
	uint64_t number_ios;		/* I/Os per job clone; 0 = no limit */
	sim_ns runtime;			/* 0 = no limit; fio counts it after
					   ramp_time (the ramp adds to it) */
	sim_ns ramp_time;		/* excluded from statistics */
	double rate_iops;		/* open loop when > 0 (per job clone) */
	enum rate_process rate_process;
	enum ioengine ioengine;		/* default libaio (fio's is psync) */
	uint64_t size;			/* bytes per clone before the job ends,
					   unless time_based; 0 = no limit */
	bool time_based;		/* run for runtime even once size is
					   done */

	/* fio's further options, workloads/fio-opts.c; meanings in README */
	struct bs_conf bsd[DDIR_RWDIR_CNT]; /* bs/bsrange/bssplit per direction
					   (bs above is bsd[DDIR_READ].min) */
	sim_ns thinktime;		/* stall after thinktime_blocks I/Os */
	sim_ns thinktime_spin;		/* ... of which spent spinning */
	sim_ns thinktime_iotime;	/* or after this much I/O time */
	unsigned thinktime_blocks;	/* 0: not given (fio's default 1) */
	enum think_type thinktime_blocks_type;
	unsigned iodepth_batch;		/* iodepth_batch_submit; default 1, 0:
					   iodepth */
	unsigned iodepth_batch_complete_min; /* default 1 */
	unsigned iodepth_batch_complete_max; /* 0: = _min */
	unsigned iodepth_low;		/* refill below this; 0: iodepth */
	int randrepeat;			/* -1 unset (draws follow --seed), 0, 1 */
	bool randseed_set;		/* randseed= given */
	uint64_t randseed;
	bool stonewall;			/* start once every job above is done */
	bool new_group;			/* a new reporting group (fio's
					   groupid), as stonewall starts one */
	bool group_reporting;		/* report the group's clones as one */
	sim_ns startdelay, startdelay_max; /* start after; a range draws */
	unsigned loops;			/* size-bounded job repeated; default 1 */
	uint64_t io_size;		/* bytes to move; 0: size */
	char read_iolog[IOLOG_PATH_MAX]; /* replayed fio iolog; "": none */
	bool replay_no_stall;		/* ignore the log's timing */
	unsigned replay_time_scale;	/* % of the logged rate; default 100 */
	unsigned replay_skip;		/* 1 << fio_ddir not replayed */
	bool osync;			/* sync=1|sync|dsync: O_SYNC writes */
	unsigned fsync_blocks;		/* fsync=N: a sync after every N
					   writes; 0 none */
	unsigned fdatasync_blocks;	/* fdatasync=N: the same */
	struct ps_cpumask cpus;		/* cpus_allowed= / cpumask= */
	bool cpus_set;			/* ... given; else every CPU */

	/* what fio writes of the job (report/report-fio*.c) */
	char log_prefix[FIO_LOG_NR][FIO_LOG_PREFIX_MAX]; /* write_bw_log=,
					   write_iops_log=, write_lat_log=
					   (enum fio_log); "" with the flag
					   below: the job's name */
	bool log_set[FIO_LOG_NR];	/* ... given */
	unsigned log_avg_msec;		/* 0: a log line per I/O */
	bool per_job_logs;		/* PREFIX_bw.N.log (default), else
					   PREFIX_bw.log */
	double percentile_list[FIO_PCT_MAX]; /* ascending; nr_percentiles
					   0: fio's default list */
	unsigned nr_percentiles;
};

/* multipathd's path_grouping_policy (multipath.conf(5)). */
enum pg_policy {
	PGP_MULTIBUS,		/* all paths in one group (mpsim's default) */
	PGP_FAILOVER,		/* one path per group */
	PGP_GROUP_BY_PRIO,	/* one group per prio value */
};

/* multipathd's failback (multipath.conf(5)). */
enum failback {
	FAILBACK_MANUAL,	/* never switch back (multipathd's default) */
	FAILBACK_IMMEDIATE,	/* switch to the best group once it has a path */
	FAILBACK_FOLLOWOVER,	/* ... only when its first path comes back */
	FAILBACK_DEFERRED,	/* ... failback_secs after a path comes back */
};

/* multipathd's no_path_retry (multipath.conf(5)). */
enum no_path_retry {
	NPR_UNSET,		/* the table's queue_if_no_path decides */
	NPR_QUEUE,		/* queue for ever */
	NPR_FAIL,		/* fail at once */
	NPR_COUNT,		/* queue for npr_count checker intervals */
};

struct scenario {
	char name[64];			/* built-in name or file path */

	/* [multipath] */
	enum mp_mode mode;
	char selector[NAME_MAX_LEN];	/* kernel name or alias */
	char selector_args[ARGS_MAX_LEN]; /* table words without the count */
	char selector_source[SOURCE_MAX_LEN]; /* a kernel file run as the
					   selector (ksource.h); "": none */
	enum start_clock clock;
	unsigned hz;
	sim_ns uptime;			/* uptime when the run starts */
	bool queue_if_no_path;
	unsigned kernel;		/* kernel= as major*1000+minor, 0 unset */
	bool select_sched_clock;	/* select_path reads sched_clock (HST
					   5.8-5.17), not ktime (5.18+) */
	struct sched_clock sched;	/* that clock, relative to ktime */
	sim_ns submit_cpu;		/* CPU time of a submission (sim/cpu.c) */
	sim_ns complete_cpu;		/* ... and of a completion; 0: none */
	sim_ns wake_cpu;		/* ... more for work on an idle CPU */
	struct dist steal_cpu;		/* steal=: a stretch its host steals
					   from a CPU (fixed or exp); mean 0:
					   none */
	struct dist steal_gap;		/* ... after each of these of the
					   CPU's own work */
	enum timer_wheel timer_wheel;	/* dm-delay timer mode's wheel */
	sim_ns workqueue_latency;	/* kdelayd: work queued to work run */
	unsigned ncpus;			/* simulated CPUs (nr_cpu_ids) */
	unsigned numa_nodes;		/* NUMA nodes they are split over */
	/* the target's table (input/table.h): a dmsetup line of any
	   length (allocated; scenario_copy and scenario_free own it), NULL
	   for the short form above; then mode, queue_if_no_path and
	   selector are the table's */
	char *table;
	char hw_handler[NAME_MAX_LEN];	/* short form's hardware_handler */
	unsigned pg_init_retries;	/* short form's features; 0 none */
	unsigned pg_init_delay_msecs;	/* PG_INIT_DELAY_DEFAULT: none */
	sim_ns pg_init_time;		/* the handler's activation of a path
					   (scsi_dh_activate to pg_init_done) */
	/* multipathd (sim/multipathd.c) */
	enum pg_policy pg_policy;
	enum failback failback;
	unsigned failback_secs;		/* FAILBACK_DEFERRED */
	enum no_path_retry no_path_retry;
	unsigned npr_count;		/* NPR_COUNT */
	sim_ns polling_interval;	/* multipathd's checker tick (5 s) */
	struct path_event *events;	/* fail=/reinstate=/message=, in
					   given order */
	unsigned nr_events;

	struct path_conf *paths;
	unsigned nr_paths;
	struct job_conf *jobs;
	unsigned nr_jobs;
};

/* ---- the names and rules of the data, sim/config.c ---- */

/* The iodepth a job runs at: 1 for a synchronous ioengine, else iodepth. */
unsigned job_iodepth(const struct job_conf *j);
/* True for fio's synchronous engines (sync, psync, vsync, pvsync, pvsync2). */
bool ioengine_sync(enum ioengine e);
/* True when an O_SYNC write of engine e is followed by a flush: the
 * engine writes with a synchronous kiocb (the sync engines, and posixaio,
 * whose threads call pwrite), so blkdev_write_iter runs
 * generic_write_sync after it; libaio and io_uring do not (block/fops.c). */
bool ioengine_osync_flushes(enum ioengine e);
/* A time value of the configuration: lib/units.h's parse_ns (the same
 * grammar: "100us", "2ms", "10s"; a bare number in default_unit ns, only
 * a bare 0 with default_unit 0), and at most SIM_TIME_MAX.  0 or -EINVAL
 * with err set. */
int parse_duration(const char *s, sim_ns default_unit, sim_ns *out, char *err);
/* fio's names, for reports: "libaio", "randwrite". */
const char *ioengine_name(enum ioengine e);
const char *rw_name(enum rw_mode rw);
/* fio's direction names (its JSON's keys): "read", "write", "trim", "sync". */
const char *fio_ddir_name(unsigned d);
/* fio's ioengine names, indexed by enum ioengine (the readers look
   names up in it). */
extern const char *const ioengine_names[IOENGINE_POSIXAIO + 1];

#endif
