/*
 * test_fio_job.c: fio job files and options: the reader, block sizes,
 * thinktime, batches, sync engines, stonewall, and whole job files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "sim/rng.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"
#include "workloads/fio.h"
#include "workloads/job.h"

#define US		NSEC_PER_USEC
/* One path, one slot, a fixed 100 us per I/O: closed forms hold. */
#define ONE_PATH \
	"[multipath]\nselector = round-robin\n" \
	"[path a]\nslots = 1\nservice = fixed:100us\n"
/* The same path without a slot limit: I/Os do not queue. */
#define WIDE_PATH \
	"[multipath]\nselector = round-robin\n" \
	"[path a]\nslots = 0\nservice = fixed:100us\n"
#define EXAMPLES	"/usr/share/doc/fio/examples"

static char dir[256];		/* this test's scratch directory */

static void make_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/mpsim-fio-XXXXXX", t && *t ? t : "/tmp");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp");
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *f)
{
	return remove(p);
}

static void remove_dir(void)
{
	if (dir[0])
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	dir[0] = '\0';
}

/* Writes text to dir/name (name may hold a subdirectory); path out. */
static void put(const char *name, const char *text, char *path, size_t n)
{
	char sub[512];
	FILE *f;

	snprintf(path, n, "%s/%s", dir, name);
	snprintf(sub, sizeof(sub), "%s", path);
	*strrchr(sub, '/') = '\0';
	mkdir(sub, 0700);
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void parse_ok(struct scenario *sc, const char *text)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

static void parse_bad(const char *text, const char *want)
{
	struct scenario sc;
	char err[ERR_MAX] = "";
	int r;

	r = scenario_parse(&sc, text, "t.ini", err);
	if (!r) {
		r = scenario_validate(&sc, err);
		scenario_free(&sc);
	}
	cr_assert_eq(r, -EINVAL, "accepted:\n%s", text);
	cr_assert_null(strchr(err, '\n'), "two lines: %s", err);
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
}

/* The jobs of a fio job file over ONE_PATH's path. */
static int load_jobs(struct scenario *sc, const char *base, const char *path,
		     char *err)
{
	char e2[ERR_MAX];
	int r;

	cr_assert_eq(scenario_parse(sc, base, "base.ini", e2), 0, "%s", e2);
	r = scenario_load_jobs(sc, path, err);
	if (!r)
		r = scenario_validate(sc, err);
	if (r)
		scenario_free(sc);
	return r;
}

static void run_ok(const struct scenario *sc, struct run_result *res)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(run_scenario(sc, 1, res, err), 0, "%s", err);
}

/* ---- block sizes ---- */

Test(fio_job, bssplit_parses_like_fio)
{
	struct scenario sc;
	const struct bs_conf *b;

	/* blank percentages share what is left; entries sorted by size */
	parse_ok(&sc, ONE_PATH "[j]\nbssplit = 4k/50:1k/:32k/\nnumber_ios=1\n");
	b = &sc.jobs[0].bsd[DDIR_READ];
	cr_assert_eq(b->nr_split, 3);
	cr_assert_eq(b->split_bs[0], 1024);
	cr_assert_eq(b->split_bs[1], 4096);
	cr_assert_eq(b->split_bs[2], 32768);
	cr_assert_eq(b->split_perc[0], 25);
	cr_assert_eq(b->split_perc[1], 50);
	cr_assert_eq(b->split_perc[2], 25);
	/* one list for every direction */
	cr_assert_eq(sc.jobs[0].bsd[DDIR_TRIM].nr_split, 3);
	scenario_free(&sc);

	/* reads, then writes (and trims) */
	parse_ok(&sc, ONE_PATH "[j]\nbssplit = 2k/50:4k/50,4k/90:8k/10\n"
		 "number_ios=1\n");
	cr_assert_eq(sc.jobs[0].bsd[DDIR_READ].split_bs[0], 2048);
	cr_assert_eq(sc.jobs[0].bsd[DDIR_WRITE].split_perc[0], 90);
	cr_assert_eq(sc.jobs[0].bsd[DDIR_TRIM].split_bs[1], 8192);
	scenario_free(&sc);

	/* what the percentages leave goes to the largest size */
	parse_ok(&sc, ONE_PATH "[j]\nbssplit = 4k/30:8k/30\nnumber_ios=1\n");
	cr_assert_eq(sc.jobs[0].bsd[DDIR_READ].split_perc[1], 70);
	scenario_free(&sc);

	parse_bad(ONE_PATH "[j]\nbssplit = 4k/60:8k/60\n", "more than 100");
	parse_bad(ONE_PATH "[j]\nbssplit = 4q/60\n", "t.ini:7: bssplit:");
	parse_bad(ONE_PATH "[j]\nbssplit = 4k/101\n", "out of range");
}

/* A clone with c's block sizes, drawing from its own stream. */
static void draw_counts(const struct job_conf *c, unsigned d, unsigned n,
			const uint32_t *sizes, unsigned nsizes,
			unsigned *counts)
{
	struct job_flow f;
	struct job j;
	unsigned i, k;

	memset(&f, 0, sizeof(f));
	memset(&j, 0, sizeof(j));
	bs_setup(&f, c);
	j.conf = c;
	j.flow = &f;
	j.rng = rng_stream(7, RNG_WORKLOAD, 0);
	memset(counts, 0, nsizes * sizeof(*counts));
	for (i = 0; i < n; i++) {
		uint32_t bs = bs_draw(&j, d);

		for (k = 0; k < nsizes && sizes[k] != bs; k++)
			;
		cr_assert_lt(k, nsizes, "drew %u bytes", bs);
		counts[k]++;
	}
	gsl_rng_free(j.rng);
	bs_teardown(&f);
}

/* count of n draws with probability p: within 5 standard deviations */
static void assert_share(unsigned count, unsigned n, double p,
			 const char *what)
{
	double sd = sqrt(n * p * (1 - p));

	cr_assert(fabs(count - n * p) <= 5 * sd + 1e-9,
		  "%s: %u of %u, expected %.0f +- %.0f", what, count, n,
		  n * p, 5 * sd);
}

Test(fio_job, bssplit_proportions_within_statistical_bounds)
{
	static const uint32_t sizes[] = { 4096, 16384, 65536 };
	struct scenario sc;
	struct run_result res;
	unsigned counts[3], n = 200000;
	double mean;

	parse_ok(&sc, WIDE_PATH "[j]\nrw=randread\nbssplit=4k/50:64k/30:16k/20"
		 "\nnumber_ios=20000\niodepth=4\n");
	draw_counts(&sc.jobs[0], DDIR_READ, n, sizes, 3, counts);
	assert_share(counts[0], n, 0.5, "4k");
	assert_share(counts[1], n, 0.2, "16k");
	assert_share(counts[2], n, 0.3, "64k");

	/* a whole run moves the mean of the split */
	run_ok(&sc, &res);
	cr_assert_eq(res.ddir_ios[DDIR_READ], 20000);
	mean = (double)res.ddir_bytes[DDIR_READ] / 20000;
	/* E = 24985.6 bytes, sd of one draw 25345: 5 sd of the mean */
	cr_assert(fabs(mean - 24985.6) < 5 * 25345 / sqrt(20000),
		  "mean %f", mean);
	cr_assert_eq(res.total.bytes, res.ddir_bytes[DDIR_READ]);
	run_result_free(&res);
	scenario_free(&sc);
}

Test(fio_job, per_direction_block_sizes)
{
	struct scenario sc;
	struct run_result res;

	parse_ok(&sc, WIDE_PATH "[j]\nrw=randrw\nbs=4k,64k\n"
		 "number_ios=2000\niodepth=8\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.ddir_ios[DDIR_READ] + res.ddir_ios[DDIR_WRITE], 2000);
	cr_assert_gt(res.ddir_ios[DDIR_READ], 800);
	cr_assert_gt(res.ddir_ios[DDIR_WRITE], 800);
	cr_assert_eq(res.ddir_bytes[DDIR_READ], 4096 * res.ddir_ios[DDIR_READ]);
	cr_assert_eq(res.ddir_bytes[DDIR_WRITE],
		     65536 * res.ddir_ios[DDIR_WRITE]);
	run_result_free(&res);
	scenario_free(&sc);

	/* "bs=,8k," : the default for reads and trims, 8k for writes */
	parse_ok(&sc, ONE_PATH "[j]\nbs=,8k,\nnumber_ios=1\n");
	cr_assert_eq(sc.jobs[0].bsd[DDIR_READ].min, 4096);
	cr_assert_eq(sc.jobs[0].bsd[DDIR_WRITE].min, 8192);
	cr_assert_eq(sc.jobs[0].bsd[DDIR_TRIM].min, 4096);
	scenario_free(&sc);
}

Test(fio_job, bsrange_draws_multiples_of_the_minimum)
{
	static const uint32_t sizes[] = { 4096, 8192, 12288, 16384 };
	struct scenario sc;
	unsigned counts[4], n = 100000, i;

	parse_ok(&sc, ONE_PATH "[j]\nbsrange=16k-4k\nnumber_ios=1\n");
	cr_assert_eq(sc.jobs[0].bsd[DDIR_READ].min, 4096);
	cr_assert_eq(sc.jobs[0].bsd[DDIR_READ].max, 16384);
	draw_counts(&sc.jobs[0], DDIR_READ, n, sizes, 4, counts);
	for (i = 0; i < 4; i++)
		assert_share(counts[i], n, 0.25, "bsrange");
	scenario_free(&sc);
	parse_bad(ONE_PATH "[j]\nbsrange=4k\n", "not a range");
}

/* ---- thinktime ---- */

/* psync (depth 1), one path of fixed service S: IOPS = 1/(S + T). */
Test(fio_job, thinktime_closed_form_at_depth_1)
{
	struct scenario sc;
	struct run_result res;
	double iops;

	parse_ok(&sc, ONE_PATH "[j]\nioengine=psync\nthinktime=400\n"
		 "thinktime_blocks=1\nnumber_ios=1000\n");
	cr_assert_eq(sc.jobs[0].thinktime, 400 * US, "bare thinktime is us");
	run_ok(&sc, &res);
	cr_assert_eq(res.total.ios, 1000);
	cr_assert_eq(res.window, 1000 * 500 * US);
	iops = res.total.ios / (res.window / 1e9);
	cr_assert_float_eq(iops, 1.0 / (100e-6 + 400e-6), 1e-6);
	run_result_free(&res);
	scenario_free(&sc);

	/* every 4 blocks: 4 S + T per 4 I/Os */
	parse_ok(&sc, ONE_PATH "[j]\nioengine=psync\nthinktime=400us\n"
		 "thinktime_blocks=4\nnumber_ios=1000\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.window, 250 * (4 * 100 + 400) * US);
	run_result_free(&res);
	scenario_free(&sc);

	/* thinktime_iotime alone: a stall after each 1 ms of I/O */
	parse_ok(&sc, ONE_PATH "[j]\nioengine=psync\nthinktime=400us\n"
		 "thinktime_iotime=1ms\nnumber_ios=20\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.window, 2 * 1400 * US);
	run_result_free(&res);
	scenario_free(&sc);

	/* thinktime_spin is part of the stall, not added to it */
	parse_ok(&sc, ONE_PATH "[j]\nioengine=psync\nthinktime=400us\n"
		 "thinktime_spin=100us\nnumber_ios=10\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.window, 10 * 500 * US);
	run_result_free(&res);
	scenario_free(&sc);
}

/* fio: thinktime_blocks=1 "effectively caps the queue depth" at 1. */
Test(fio_job, thinktime_caps_the_queue_depth)
{
	struct scenario sc;
	struct run_result res;

	parse_ok(&sc, ONE_PATH "[j]\nioengine=libaio\niodepth=4\n"
		 "thinktime=400us\nnumber_ios=14\n");
	run_ok(&sc, &res);
	/* the first 4 drain (4 S), a stall, then one I/O per S + T */
	cr_assert_eq(res.window, (4 * 100 + 400 + 10 * 500) * US);
	run_result_free(&res);
	scenario_free(&sc);
	parse_bad(ONE_PATH "[j]\nthinktime=1ms\nrate_iops=100\nnumber_ios=9\n",
		  "thinktime with rate_iops");
}

/* ---- engines and batches ---- */

Test(fio_job, sync_engines_run_at_depth_1)
{
	static const char *const engines[] = {
		"sync", "psync", "vsync", "pvsync", "pvsync2",
	};
	struct scenario sc;
	struct run_result res;
	char text[512];
	unsigned i;

	mpsim_quiet = 1;	/* the "capped at 1" note */
	for (i = 0; i < ARRAY_SIZE(engines); i++) {
		snprintf(text, sizeof(text), WIDE_PATH "[j]\nioengine=%s\n"
			 "iodepth=32\nnumber_ios=64\n", engines[i]);
		parse_ok(&sc, text);
		cr_assert_eq(job_iodepth(&sc.jobs[0]), 1, "%s", engines[i]);
		run_ok(&sc, &res);
		cr_assert_eq(res.window, 64 * 100 * US, "%s", engines[i]);
		run_result_free(&res);
		scenario_free(&sc);
	}
	/* libaio and io_uring keep 32 in flight: two rounds */
	parse_ok(&sc, WIDE_PATH "[j]\nioengine=io_uring\niodepth=32\n"
		 "number_ios=64\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.window, 2 * 100 * US);
	run_result_free(&res);
	scenario_free(&sc);
}

Test(fio_job, batch_complete_min_reaps_in_batches)
{
	struct scenario sc;
	struct run_result res;

	/* reaped one by one: the second four wait 4 S each */
	parse_ok(&sc, ONE_PATH "[j]\niodepth=4\nnumber_ios=8\n");
	run_ok(&sc, &res);
	cr_assert_float_eq(lat_mean(&res.total.lat), 325 * US, 1e-6);
	run_result_free(&res);
	scenario_free(&sc);

	/* reaped four at a time: the second four go together at 4 S */
	parse_ok(&sc, ONE_PATH "[j]\niodepth=4\niodepth_batch_complete_min=4"
		 "\nnumber_ios=8\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.total.ios, 8);
	cr_assert_eq(res.window, 800 * US);
	cr_assert_float_eq(lat_mean(&res.total.lat), 250 * US, 1e-6);
	run_result_free(&res);
	scenario_free(&sc);

	/* iodepth_low=1: once full, the queue drains to 1 before refilling */
	parse_ok(&sc, ONE_PATH "[j]\niodepth=4\niodepth_low=1\nnumber_ios=8\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.window, 800 * US);
	cr_assert_float_eq(lat_mean(&res.total.lat), 262.5 * US, 1e-6);
	run_result_free(&res);
	scenario_free(&sc);
}

Test(fio_job, batch_submit_holds_io_until_the_batch_is_full)
{
	struct scenario sc;
	struct run_result res;

	/* 1000 arrivals/s; the device sees them four at a time */
	parse_ok(&sc, WIDE_PATH "[j]\nrate_iops=1000\niodepth=8\n"
		 "iodepth_batch_submit=4\nnumber_ios=8\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.total.ios, 8);
	/* two batches, each busy for one service time */
	cr_assert_eq(res.path[0].busy, 2 * 100 * US);
	cr_assert_eq(res.window, 8000 * US + 100 * US);
	run_result_free(&res);
	scenario_free(&sc);

	parse_ok(&sc, WIDE_PATH "[j]\nrate_iops=1000\niodepth=8\n"
		 "number_ios=8\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.path[0].busy, 8 * 100 * US);
	run_result_free(&res);
	scenario_free(&sc);
}

/* ---- stonewall ---- */

Test(fio_job, stonewall_runs_jobs_in_sequence)
{
	struct scenario sc;
	struct run_result res;
	const char *jobs = "[w]\nioengine=psync\nrw=write\nruntime=10ms\n"
			   "time_based\n[r]\nioengine=psync\nrw=read\n"
			   "runtime=10ms\ntime_based\n";
	char text[1024];

	/* together: they share the one slot for 10 ms */
	snprintf(text, sizeof(text), ONE_PATH "%s", jobs);
	parse_ok(&sc, text);
	run_ok(&sc, &res);
	cr_assert_leq(res.total.ios, 101);
	cr_assert_float_eq(lat_mean(&res.total.lat), 200 * US, 3 * US);
	run_result_free(&res);
	scenario_free(&sc);

	/* stonewall: the reads start when the writes are done */
	snprintf(text, sizeof(text), ONE_PATH "%s", jobs);
	strcpy(strstr(text, "rw=read"), "rw=read\nstonewall\nruntime=10ms\n"
	       "time_based\n");
	parse_ok(&sc, text);
	cr_assert(sc.jobs[1].stonewall);
	run_ok(&sc, &res);
	cr_assert_eq(res.ddir_ios[DDIR_WRITE], 100);
	cr_assert_eq(res.ddir_ios[DDIR_READ], 100);
	/* never together: every I/O has the slot to itself */
	cr_assert_eq(res.total.lat.max, 100 * US);
	cr_assert_eq(res.window, 20 * NSEC_PER_MSEC);
	run_result_free(&res);
	scenario_free(&sc);
}

Test(fio_job, stonewall_groups_and_startdelay)
{
	struct scenario sc;
	struct run_result res;

	/* three groups of two: 3 x (2 x 10 I/Os of 100 us on one slot) */
	parse_ok(&sc, ONE_PATH "[global]\nioengine=psync\nnumber_ios=10\n"
		 "[a]\n[b]\n[c]\nstonewall\n[d]\n[e]\nwait_for_previous\n[f]\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.total.ios, 60);
	cr_assert_eq(res.window, 6 * 1000 * US);
	run_result_free(&res);
	scenario_free(&sc);

	/* startdelay moves the start; a bare number is seconds */
	parse_ok(&sc, ONE_PATH "[j]\nioengine=psync\nnumber_ios=10\n"
		 "startdelay=0.5\n");
	cr_assert_eq(sc.jobs[0].startdelay, NSEC_PER_SEC / 2);
	run_ok(&sc, &res);
	cr_assert_eq(res.window, NSEC_PER_SEC / 2 + 1000 * US);
	run_result_free(&res);
	scenario_free(&sc);
}

/* ---- the job-file reader ---- */

Test(fio_job, include_and_variables, .fini = remove_dir)
{
	char main_path[512], p[512], err[ERR_MAX] = "";
	struct scenario sc;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);

	make_dir();
	setenv("MPSIM_TEST_RW", "randwrite", 1);
	unsetenv("MPSIM_TEST_UNSET");
	put("inc/common.fio", "; shared settings\nioengine=libaio\n"
	    "include ../depth.fio\n", p, sizeof(p));
	put("depth.fio", "iodepth=(2*8)\n", p, sizeof(p));
	put("main.fio",
	    "[global]\ninclude inc/common.fio\nrw=${MPSIM_TEST_RW}\n"
	    "number_ios=4*$ncpus\n"
	    "[j]\nbs=(2*$pagesize)\nnumjobs=1\n"
	    "description=${MPSIM_TEST_UNSET}x\n", main_path,
	    sizeof(main_path));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, main_path, err), 0, "%s", err);
	cr_assert_eq(sc.nr_jobs, 1);
	cr_assert_eq(sc.jobs[0].ioengine, IOENGINE_LIBAIO);
	cr_assert_eq(sc.jobs[0].iodepth, 16);
	cr_assert_eq(sc.jobs[0].rw, RW_RANDWRITE);
	cr_assert_eq(sc.jobs[0].number_ios, (uint64_t)(4 * ncpus));
	cr_assert_eq(sc.jobs[0].bs, (uint64_t)(2 * page));
	cr_assert_eq(sc.nr_paths, 1, "the scenario keeps its paths");
	scenario_free(&sc);

	/* an included file that includes its includer */
	put("loop-a.fio", "include loop-b.fio\n", p, sizeof(p));
	put("loop-b.fio", "include loop-a.fio\n", p, sizeof(p));
	put("loop.fio", "[j]\ninclude loop-a.fio\n", main_path,
	    sizeof(main_path));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, main_path, err), -EINVAL);
	cr_assert(strstr(err, "loop-b.fio:1: include loop-a.fio: a loop"),
		  "%s", err);

	/* sections do not belong in an included file */
	put("sect.inc", "iodepth=2\n[other]\n", p, sizeof(p));
	put("sect.fio", "[j]\ninclude sect.inc\n", main_path,
	    sizeof(main_path));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, main_path, err), -EINVAL);
	cr_assert(strstr(err, "sect.inc:2: an included file holds options "
			 "only"), "%s", err);

	/* a missing include names the including line */
	put("miss.fio", "[j]\n\ninclude nowhere.fio\n", main_path,
	    sizeof(main_path));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, main_path, err), -EINVAL);
	cr_assert(strstr(err, "miss.fio:3: ") && strstr(err, "nowhere.fio"),
		  "%s", err);
}

Test(fio_job, include_depth_is_bounded, .fini = remove_dir)
{
	char p[512], name[32], text[64], err[ERR_MAX] = "";
	struct scenario sc;
	unsigned i;

	make_dir();
	for (i = 0; i <= FIO_INCLUDE_DEPTH + 1; i++) {
		snprintf(name, sizeof(name), "d%u.fio", i);
		snprintf(text, sizeof(text), "include d%u.fio\n", i + 1);
		put(name, text, p, sizeof(p));
	}
	put("top.fio", "[j]\ninclude d0.fio\n", p, sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), -EINVAL);
	cr_assert(strstr(err, "nested more than 16 deep"), "%s", err);
}

/* Ten includes per file nine levels deep were 10^9 file reads: the chain
 * guard bounds depth, not fan-out.  The count of includes and the text
 * of one read are bounded. */
Test(fio_job, include_fan_out_is_bounded, .fini = remove_dir, .timeout = 30)
{
	char p[512], name[32], text[256], err[ERR_MAX] = "", *big;
	struct scenario sc;
	unsigned i, k;

	make_dir();
	for (i = 0; i < 9; i++) {
		size_t n = 0;

		for (k = 0; k < 10; k++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "include f%u.fio\n", i + 1);
		snprintf(name, sizeof(name), "f%u.fio", i);
		put(name, text, p, sizeof(p));
	}
	put("f9.fio", "iodepth=2\n", p, sizeof(p));
	put("fan.fio", "[j]\nnumber_ios=1\ninclude f0.fio\n", p, sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), -EINVAL);
	cr_assert(strstr(err, "include: more than 256 includes in all"),
		  "%s", err);

	/* 4 MiB of text in all: five includes of a 1 MiB file pass it */
	big = malloc((1u << 20) + 1);
	cr_assert_not_null(big);
	memset(big, '\n', 1u << 20);
	big[1u << 20] = '\0';
	put("blank.fio", big, p, sizeof(p));
	free(big);
	put("four.fio", "[j]\nnumber_ios=1\ninclude blank.fio\ninclude "
	    "blank.fio\ninclude blank.fio\n", p, sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), 0, "%s", err);
	scenario_free(&sc);
	put("five.fio", "[j]\nnumber_ios=1\ninclude blank.fio\ninclude "
	    "blank.fio\ninclude blank.fio\ninclude blank.fio\n", p,
	    sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), -EINVAL);
	cr_assert(strstr(err, "five.fio:6: include blank.fio: more than 4 MiB "
			 "of text in all"), "%s", err);
}

Test(fio_job, expressions_and_keywords, .timeout = 10)
{
	char *v = NULL, err[ERR_MAX] = "";
	char want[64];

	cr_assert_eq(fio_expand("(1+3)k", &v, err), 0, "%s", err);
	cr_assert_str_eq(v, "4k");
	free(v);
	cr_assert_eq(fio_expand("(2^10*(3-1))", &v, err), 0, "%s", err);
	cr_assert_str_eq(v, "2048");
	free(v);
	cr_assert_eq(fio_expand("4k-8k", &v, err), 0, "%s", err);
	cr_assert_str_eq(v, "4k-8k", "no keyword, no parenthesis: as is");
	free(v);
	snprintf(want, sizeof(want), "%ld", 3 * sysconf(_SC_NPROCESSORS_ONLN));
	cr_assert_eq(fio_expand("3*$ncpus", &v, err), 0, "%s", err);
	cr_assert_str_eq(v, want);
	free(v);
	/* one pass: a value of 100 000 keywords does not cost its length
	 * squared */
	{
		size_t n = 100000, i;
		char *many = malloc(n * 6 + 1), num[32];

		cr_assert_not_null(many);
		for (i = 0; i < n; i++)
			memcpy(many + 6 * i, "$ncpus", 6);
		many[6 * n] = '\0';
		cr_assert_eq(fio_expand(many, &v, err), 0, "%s", err);
		snprintf(num, sizeof(num), "%ld",
			 sysconf(_SC_NPROCESSORS_ONLN));
		cr_assert_eq(strlen(v), n * strlen(num));
		cr_assert_eq(strncmp(v, num, strlen(num)), 0);
		free(v);
		free(many);
	}
	cr_assert_eq(fio_expand("(1/0)", &v, err), -EINVAL);
	cr_assert(strstr(err, "division by zero"), "%s", err);
	cr_assert_eq(fio_expand("(1+", &v, err), -EINVAL);
}

/*
 * fio's arithmetic (exp/expression-parser.y): precedence from low to high
 * + -, * /, ^ (right to left), %, unary minus; an integer power multiplies
 * the base x times, a negative one truncates pow() to an integer.  The
 * values follow from those rules, worked by hand.
 */
Test(fio_job, arithmetic_as_fio_evaluates_it)
{
	static const struct {
		const char *s;
		int64_t v;
	} ok[] = {
		{ "(-1)^3", -1 },	/* was 1: the loop stopped at 1 */
		{ "(-1)^4", 1 },
		{ "(-1)^-3", -1 },	/* pow(-1, -3) */
		{ "(-2)^3", -8 },
		{ "-2^2", 4 },		/* the sign binds tightest */
		{ "2^-1", 0 },		/* (long long)0.5 */
		{ "1^-5", 1 },
		{ "0^0", 1 },
		{ "0^3", 0 },
		{ "2^3^2", 512 },	/* right to left */
		{ "2*7%4", 6 },		/* % above *: 2*(7%4) */
		{ "2^3%2", 2 },		/* % above ^: 2^(3%2) */
		{ "8%3^2", 4 },		/* (8%3)^2 */
		{ "7%-3", 1 },
		{ "-7%3", -1 },
		{ "10-2-3", 5 },
		{ "100/10/5", 2 },
		{ "2*3+4*5", 26 },
		{ "-(3-5)*2", 4 },
		{ "0x10*2", 32 },
		{ "2^62", 4611686018427387904 },
	};
	static const struct {
		const char *s, *why;
	} bad[] = {
		{ "0^-1", "0 to a negative power" },
		{ "+3", "no unary plus" },
		{ "2^63", "overflow" },
		{ "(-2)^64", "overflow" },
		{ "5%0", "division by zero" },
		{ "5/0", "division by zero" },
		{ "9223372036854775807+1", "overflow" },
	};
	char err[ERR_MAX];
	const char *end;
	int64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		err[0] = '\0';
		cr_assert_eq(fio_expr_eval(ok[i].s, &v, &end, err), 0, "%s: %s",
			     ok[i].s, err);
		cr_assert_eq(v, ok[i].v, "%s = %lld, want %lld", ok[i].s,
			     (long long)v, (long long)ok[i].v);
		cr_assert_eq(*end, '\0', "%s", ok[i].s);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(fio_expr_eval(bad[i].s, &v, &end, err), -EINVAL,
			     "%s accepted", bad[i].s);
		cr_assert(strstr(err, bad[i].why), "%s: '%s' lacks '%s'",
			  bad[i].s, err, bad[i].why);
	}
}

Test(fio_job, unmodelled_options_warned_once, .init = cr_redirect_stderr)
{
	struct scenario sc;
	char line[512];
	unsigned norandom = 0, cpus = 0, quiet = 0, n = 0;
	FILE *f;

	mpsim_quiet = 0;
	fio_warn_reset();
	parse_ok(&sc, ONE_PATH "[global]\nnorandommap\nnumber_ios=1\n"
		 "description=quiet\n[a]\nnorandommap\ncpuload=10\n"
		 "[b]\nnorandommap=1\ncpuload=20\nverify=0\n");
	scenario_free(&sc);
	fflush(stderr);
	f = cr_get_redirected_stderr();
	while (fgets(line, sizeof(line), f)) {
		n++;
		norandom += !!strstr(line, "t.ini:7: fio option 'norandommap' "
				     "is not modelled, ignored");
		cpus += !!strstr(line, "t.ini:12: fio option 'cpuload' "
				 "is not modelled, ignored");
		quiet += !!strstr(line, "description") || !!strstr(line, "verify");
	}
	cr_assert_eq(norandom, 1, "norandommap warned %u times", norandom);
	cr_assert_eq(cpus, 1);
	cr_assert_eq(quiet, 0);
	cr_assert_eq(n, 2, "%u lines on stderr", n);
}

Test(fio_job, options_that_change_the_meaning_are_refused)
{
	parse_bad(ONE_PATH "[j]\nverify=md5\n",
		  "t.ini:7: verify: data verification is not modelled");
	parse_bad(ONE_PATH "[j]\n\nrate=1m\n", "t.ini:8: rate: a rate in "
		  "bytes/s is not modelled");
	parse_bad(ONE_PATH "[j]\nzonemode=zbd\n", "zonemode=zbd");
	parse_bad(ONE_PATH "[j]\nwait_for=x\n", "wait_for");
	parse_bad(ONE_PATH "[j]\nexitall\n", "exitall");
	parse_bad(ONE_PATH "[j]\nkb_base=1000\n", "kb_base");
	parse_bad(ONE_PATH "[j]\nbogus_option=1\n", "unknown option");
	parse_bad(ONE_PATH "[j]\nread_iolog=-\n", "standard input");
}

Test(fio_job, command_line_options)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	mpsim_quiet = 1;
	parse_ok(&sc, ONE_PATH "[j]\nnumber_ios=1\n[k]\nnumber_ios=1\n");
	cr_assert_eq(scenario_set(&sc, "thinktime", "1ms", err), 0, "%s", err);
	cr_assert_eq(sc.jobs[1].thinktime, NSEC_PER_MSEC);
	cr_assert_eq(scenario_set(&sc, "stonewall", "1", err), 0, "%s", err);
	cr_assert(sc.jobs[0].stonewall && sc.jobs[1].stonewall);
	cr_assert_eq(scenario_set(&sc, "norandommap", "1", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "verify", "crc32c", err), -EINVAL);
	cr_assert_str_eq(err, "--verify: data verification is not modelled");
	cr_assert_eq(scenario_set(&sc, "frobnicate", "1", err), -EINVAL);
	cr_assert(strstr(err, "unknown option --frobnicate"), "%s", err);
	scenario_free(&sc);
}

Test(fio_job, trims_and_trimwrite)
{
	struct scenario sc;
	struct run_result res;

	parse_ok(&sc, WIDE_PATH "[t]\nrw=randtrim\nbs=64k\nnumber_ios=10\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.ddir_ios[DDIR_TRIM], 10);
	cr_assert_eq(res.ddir_bytes[DDIR_TRIM], 10 * 65536);
	run_result_free(&res);
	scenario_free(&sc);

	/* every block trimmed, then written: size moves twice */
	parse_ok(&sc, WIDE_PATH "[t]\nrw=trimwrite\nbsrange=4k-64k\n"
		 "size=1m\n");
	run_ok(&sc, &res);
	cr_assert_eq(res.ddir_ios[DDIR_TRIM], res.ddir_ios[DDIR_WRITE]);
	cr_assert_eq(res.ddir_bytes[DDIR_TRIM], res.ddir_bytes[DDIR_WRITE]);
	cr_assert_geq(res.ddir_bytes[DDIR_TRIM], 1024 * 1024);
	cr_assert_lt(res.ddir_bytes[DDIR_TRIM], 1024 * 1024 + 65536);
	run_result_free(&res);
	scenario_free(&sc);
}

Test(fio_job, randrepeat_and_randseed_fix_the_draws)
{
	struct scenario sc;
	struct run_result a, b;
	char err[ERR_MAX] = "";

	/* randrepeat=1: the same reads and writes whatever --seed */
	parse_ok(&sc, WIDE_PATH "[j]\nrw=randrw\nrandrepeat=1\n"
		 "number_ios=1000\n");
	cr_assert_eq(run_scenario(&sc, 1, &a, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 2, &b, err), 0, "%s", err);
	cr_assert_eq(a.ddir_ios[DDIR_WRITE], b.ddir_ios[DDIR_WRITE]);
	run_result_free(&a);
	run_result_free(&b);
	scenario_free(&sc);

	/* unset (a scenario's default): the draws follow --seed */
	parse_ok(&sc, WIDE_PATH "[j]\nrw=randrw\nnumber_ios=1000\n");
	cr_assert_eq(run_scenario(&sc, 1, &a, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 2, &b, err), 0, "%s", err);
	cr_assert_neq(a.ddir_ios[DDIR_WRITE], b.ddir_ios[DDIR_WRITE]);
	run_result_free(&a);
	run_result_free(&b);
	scenario_free(&sc);
}

Test(fio_job, job_file_defaults_are_fios, .fini = remove_dir)
{
	char p[512], err[ERR_MAX] = "";
	struct scenario sc;

	make_dir();
	put("d.fio", "[global]\nname=ignored\n[only]\nnumber_ios=1\n", p,
	    sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), 0, "%s", err);
	cr_assert_str_eq(sc.jobs[0].name, "only");
	cr_assert_eq(sc.jobs[0].ioengine, IOENGINE_PSYNC);
	cr_assert_eq(sc.jobs[0].randrepeat, 1);
	scenario_free(&sc);

	put("p.fio", "[path x]\nservice=fixed:1ms\n", p, sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), -EINVAL);
	cr_assert(strstr(err, "p.fio:1: [path x] belongs in a scenario"),
		  "%s", err);
	put("g.fio", "[global]\nbs=8k\n", p, sizeof(p));
	cr_assert_eq(load_jobs(&sc, ONE_PATH, p, err), -EINVAL);
	cr_assert(strstr(err, "no job section"), "%s", err);
}

/* ---- whole job files ---- */

/*
 * Every job file fio's Debian package ships (fio-examples) and what
 * mpsim does with it: NULL, it loads; else the one-line reason it is
 * refused, as a piece of the message.
 */
static const struct {
	const char *file;
	const char *refused;
} examples[] = {
	{ "1mbs_clients.fio", ":6: rate: a rate in bytes/s is not modelled" },
	{ "aio-read.fio", NULL },
	{ "backwards-read.fio", NULL },
	{ "basic-verify.fio", ":9: verify: data verification" },
	{ "butterfly.fio", ":11: flow: flow control between jobs" },
	{ "cmdprio-bssplit.fio", "job cmdprio: never ends" },
	{ "cmdprio-percentage.fio", "job randread: never ends" },
	{ "cpp_null.fio", ":6: ioengine: unsupported ioengine 'cpp_null'" },
	{ "cpuio.fio", ":2: ioengine: unsupported ioengine 'cpuio'" },
	{ "cross-stripe-verify.fio", ":14: verify: data verification" },
	{ "dedupe-global.fio", NULL },
	{ "dev-dax.fio", ":3: ioengine: unsupported ioengine 'dev-dax'" },
	{ "dfs.fio", ":2: ioengine: unsupported ioengine 'dfs'" },
	{ "disk-zone-profile.fio", "job disk-zone-profile: never ends" },
	{ "e4defrag.fio", ":2: ioengine: unsupported ioengine 'e4defrag'" },
	{ "e4defrag2.fio", ":6: ioengine: unsupported ioengine 'e4defrag'" },
	{ "enospc-pressure.fio", ":20: exitall: exitall" },
	{ "exec.fio", ":6: ioengine: unsupported ioengine 'exec'" },
	{ "exitwhat.fio", ":15: exitall: exitall" },
	{ "falloc.fio", ":2: ioengine: unsupported ioengine 'falloc'" },
	{ "filecreate-ioengine.fio", ":15: ioengine: unsupported ioengine "
	  "'filecreate'" },
	{ "filedelete-ioengine.fio", ":8: ioengine: unsupported ioengine "
	  "'filedelete'" },
	{ "filestat-ioengine.fio", ":7: ioengine: unsupported ioengine "
	  "'filestat'" },
	{ "fio-rand-RW.fio", NULL },
	{ "fio-rand-read.fio", NULL },
	{ "fio-rand-write.fio", NULL },
	{ "fio-seq-RW.fio", NULL },
	{ "fio-seq-read.fio", NULL },
	{ "fio-seq-write.fio", NULL },
	{ "fixed-rate-submission.fio", NULL },
	{ "flow.fio", ":19: flow: flow control between jobs" },
	{ "fsx.fio", NULL },
	{ "ftruncate.fio", ":4: ioengine: unsupported ioengine 'ftruncate'" },
	{ "gfapi.fio", ":4: ioengine: unsupported ioengine 'gfapi'" },
	{ "gpudirect-rdmaio-client.fio", ":3: ioengine: unsupported ioengine "
	  "'rdma'" },
	{ "gpudirect-rdmaio-server.fio", ":3: ioengine: unsupported ioengine "
	  "'rdma'" },
	{ "http-s3-crypto.fio", ":9: ioengine: unsupported ioengine 'http'" },
	{ "http-s3-storage-class.fio", ":9: ioengine: unsupported ioengine "
	  "'http'" },
	{ "http-s3.fio", ":7: ioengine: unsupported ioengine 'http'" },
	{ "http-swift.fio", ":2: ioengine: unsupported ioengine 'http'" },
	{ "http-webdav.fio", ":2: ioengine: unsupported ioengine 'http'" },
	{ "ime.fio", ":26: ioengine: unsupported ioengine 'ime_psync'" },
	{ "iometer-file-access-server.fio", NULL },
	{ "jesd219.fio", "job JESD219: never ends" },
	{ "latency-profile.fio", ":14: latency_target: latency_target" },
	{ "libcufile-cufile.fio", ":10: ioengine: unsupported ioengine "
	  "'libcufile'" },
	{ "libcufile-posix.fio", ":10: ioengine: unsupported ioengine "
	  "'libcufile'" },
	{ "libhdfs.fio", ":6: ioengine: unsupported ioengine 'libhdfs'" },
	{ "libiscsi.fio", ":2: ioengine: unsupported ioengine 'libiscsi'" },
	{ "libpmem.fio", ":4: ioengine: unsupported ioengine 'libpmem'" },
	{ "librpma_apm-client.fio", ":4: ioengine: unsupported ioengine "
	  "'librpma_apm_client'" },
	{ "librpma_apm-server.fio", ":4: ioengine: unsupported ioengine "
	  "'librpma_apm_server'" },
	{ "librpma_gpspm-client.fio", ":4: ioengine: unsupported ioengine "
	  "'librpma_gpspm_client'" },
	{ "librpma_gpspm-server.fio", ":4: ioengine: unsupported ioengine "
	  "'librpma_gpspm_server'" },
	{ "libzbc-rand-write.fio", ":9: zonemode: zoned block devices" },
	{ "libzbc-seq-read.fio", ":11: zonemode: zoned block devices" },
	{ "mtd.fio", ":4: ioengine: unsupported ioengine 'mtd'" },
	{ "nbd.fio", ":15: ioengine: unsupported ioengine 'nbd'" },
	{ "netio.fio", ":3: ioengine: unsupported ioengine 'net'" },
	{ "netio_multicast.fio", ":3: ioengine: unsupported ioengine 'net'" },
	{ "nfs.fio", ":5: ioengine: unsupported ioengine 'nfs'" },
	{ "null.fio", ":6: ioengine: unsupported ioengine 'null'" },
	{ "numa.fio", NULL },
	{ "pmemblk.fio", ":3: ioengine: unsupported ioengine 'pmemblk'" },
	{ "poisson-rate-submission.fio", NULL },
	{ "rados.fio", ":14: ioengine: unsupported ioengine 'rados'" },
	{ "rand-zones.fio", NULL },
	{ "rbd.fio", ":14: ioengine: unsupported ioengine 'rbd'" },
	{ "rdmaio-client.fio", ":3: ioengine: unsupported ioengine 'rdma'" },
	{ "rdmaio-server.fio", ":3: ioengine: unsupported ioengine 'rdma'" },
	{ "sg_verify-fail.fio", ":24: ioengine: unsupported ioengine 'sg'" },
	{ "sg_verify.fio", ":27: ioengine: unsupported ioengine 'sg'" },
	{ "sg_write_same_ndob.fio", ":24: ioengine: unsupported ioengine "
	  "'sg'" },
	{ "ssd-steadystate.fio", "job sequential-fill: never ends" },
	{ "ssd-test.fio", NULL },
	{ "steadystate.fio", ":20: ss: steady-state detection" },
	{ "surface-scan.fio", ":8: verify: data verification" },
	{ "tiobench-example.fio", NULL },
	{ "uring-cmd-ng.fio", ":5: ioengine: unsupported ioengine "
	  "'io_uring_cmd'" },
	{ "uring-cmd-zoned.fio", ":12: ioengine: unsupported ioengine "
	  "'io_uring_cmd'" },
	{ "waitfor.fio", ":15: wait_for: wait_for is not modelled" },
	{ "xnvme-compare.fio", ":70: rw: '' is not one of" },
	{ "xnvme-zoned.fio", ":59: zonemode: zoned block devices" },
	{ "zbd-rand-write.fio", ":9: zonemode: zoned block devices" },
	{ "zbd-seq-read.fio", ":10: zonemode: zoned block devices" },
	{ "zipf.fio", ":5: ioengine: unsupported ioengine 'null'" },
};

static int is_fio_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".fio");
}

Test(fio_job, every_example_of_fios_debian_package)
{
	struct dirent **list;
	char path[512], err[ERR_MAX];
	struct scenario sc;
	int n, i;
	size_t k;

	n = scandir(EXAMPLES, &list, is_fio_file, alphasort);
	cr_assert_geq(n, 0, EXAMPLES " is missing: apt-get install "
		      "fio-examples (.ci/deps does)");
	mpsim_quiet = 1;
	/* the variables some examples use, unset as on a clean machine */
	unsetenv("FIO_RW");
	unsetenv("FIO_IODEPTH");
	unsetenv("FIO_BS");
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		for (k = 0; k < ARRAY_SIZE(examples); k++)
			if (!strcmp(examples[k].file, name))
				break;
		cr_assert_lt(k, ARRAY_SIZE(examples), "%s: a new example: say "
			     "what mpsim does with it", name);
		snprintf(path, sizeof(path), EXAMPLES "/%s", name);
		err[0] = '\0';
		if (!examples[k].refused) {
			cr_assert_eq(load_jobs(&sc, ONE_PATH, path, err), 0,
				     "%s: %s", name, err);
			scenario_free(&sc);
		} else {
			cr_assert_eq(load_jobs(&sc, ONE_PATH, path, err),
				     -EINVAL, "%s loaded", name);
			cr_assert_null(strchr(err, '\n'), "%s", err);
			cr_assert(strstr(err, examples[k].refused),
				  "%s: '%s' lacks '%s'", name, err,
				  examples[k].refused);
		}
		free(list[i]);
	}
	free(list);
	cr_assert_eq((size_t)n, ARRAY_SIZE(examples), "%d examples, %zu known",
		     n, ARRAY_SIZE(examples));
}

/* tests/jobs/: job files in fio's style that must load and run. */
Test(fio_job, every_job_file_of_tests_jobs)
{
	struct dirent **list;
	char path[512], err[ERR_MAX];
	struct scenario sc;
	struct run_result res;
	int n, i;

	n = scandir("tests/jobs", &list, is_fio_file, alphasort);
	cr_assert_gt(n, 4, "tests/jobs (run from the repository's top)");
	mpsim_quiet = 1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "tests/jobs/%s", list[i]->d_name);
		err[0] = '\0';
		cr_assert_eq(load_jobs(&sc, WIDE_PATH, path, err), 0, "%s: %s",
			     path, err);
		cr_assert_eq(run_scenario(&sc, 1, &res, err), 0, "%s: %s",
			     path, err);
		cr_assert_gt(res.total.ios, 0, "%s", path);
		run_result_free(&res);
		scenario_free(&sc);
		free(list[i]);
	}
	free(list);
}
