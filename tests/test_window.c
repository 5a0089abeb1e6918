/*
 * test_window.c: the measured window and what fio counts in it.  The
 * window closes when the last job finishes (not at the nominal runtime
 * end); number_ios and size count from the end of ramp_time; a replayed
 * log is measured whole; Little's law holds for closed loops however they
 * end; Best costs a path at the run's mean I/O size.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cli/cli.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"

/* One path, one slot, exactly 100 us an I/O: times are known exactly. */
#define FIXED_PATH \
	"[multipath]\nselector = round-robin\n" \
	"[path a]\nslots = 1\nservice = fixed:100us\n"

static void run_text(const char *text, struct run_result *res)
{
	char err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, res, err), 0, "%s", err);
	scenario_free(&sc);
}

static double iops(const struct run_result *r)
{
	return r->window ? (double)r->total.ios * 1e9 / (double)r->window : 0;
}

/* ---- the window closes with the last job ---- */

Test(window, closes_when_the_last_job_finishes)
{
	struct run_result r;

	/* 1000 I/Os back to back at 100 us: 100 ms, though runtime says
	 * 10 s; 10 000 IOPS, the path busy all of it */
	run_text(FIXED_PATH "[j]\nnumber_ios=1000\nruntime=10s\n", &r);
	cr_assert_eq(r.total.ios, 1000);
	cr_assert_eq(r.window, 100 * NSEC_PER_MSEC);
	cr_assert_float_eq(iops(&r), 10000.0, 1e-9);
	cr_assert_eq(r.path[0].busy, r.window);
	run_result_free(&r);

	/* the slower of two jobs closes it: 300 I/Os at depth 1 each,
	 * sharing the one slot, end at 600 x 100 us */
	run_text(FIXED_PATH "[j]\nnumber_ios=300\nruntime=10s\n"
		 "[k]\nnumber_ios=200\nruntime=10s\n", &r);
	cr_assert_eq(r.total.ios, 500);
	cr_assert_eq(r.window, 50 * NSEC_PER_MSEC);
	run_result_free(&r);
}

Test(window, size_ends_the_window_too)
{
	struct run_result r;

	/* 4 MiB of 4 KiB I/Os: 1024 of them, 102.4 ms */
	run_text(FIXED_PATH "[j]\nsize=4m\nbs=4k\nruntime=10s\n", &r);
	cr_assert_eq(r.total.ios, 1024);
	cr_assert_eq(r.window, 1024 * 100 * NSEC_PER_USEC);
	run_result_free(&r);
}

Test(window, runtime_still_ends_a_longer_job)
{
	struct run_result r;

	run_text(FIXED_PATH "[j]\nnumber_ios=100000\nruntime=20ms\n", &r);
	/* 100 us each at depth 1: the 200th completion is due at the very
	 * instant the runtime ends, and it counts, as the one in flight
	 * then would; the job issues no more */
	cr_assert_eq(r.window, 20 * NSEC_PER_MSEC);
	cr_assert_eq(r.total.ios, 200);
	run_result_free(&r);
	/* ... and 50 us later, the 201st is in flight then: it completes
	 * and counts, and the window runs to its completion, as fio's
	 * runtime does */
	run_text(FIXED_PATH "[j]\nnumber_ios=100000\nruntime=20050us\n", &r);
	cr_assert_eq(r.total.ios, 201);
	cr_assert_eq(r.window, 20100 * NSEC_PER_USEC);
	run_result_free(&r);
}

/*
 * When the runtime ends with every I/O still in flight held by the
 * multipath device for want of any usable path (queue_if_no_path), the
 * kernel would hold them until a path comes back, and fio would wait; the
 * run ends there, and they are left queued, in no figure.  Both paths
 * (one slot each, 1 ms an I/O) fail at 5 ms and come back at 50 ms,
 * after the 20 ms runtime: those returns never run.  Two clones at depth
 * 2 complete 2 I/Os a ms until then, 8, and the 4 in flight at 5 ms are
 * held; one at depth 1 completes 4 (1 ... 4 ms) and one is held.
 */
Test(window, runtime_leaves_io_held_without_a_path)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nqueue_if_no_path = 1\n"
		"fail = a at 5ms\nfail = b at 5ms\n"
		"reinstate = a at 50ms\nreinstate = b at 50ms\n"
		"[path a]\nservice = fixed:1ms\n[path b]\nservice = fixed:1ms\n"
		"[j]\niodepth = %u\nnumjobs = %u\nruntime = 20ms\n";
	char buf[512];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, 2, 2);
	run_text(buf, &r);
	cr_assert_eq(r.window, 20 * NSEC_PER_MSEC);
	cr_assert_eq(r.left_queued, 4);
	cr_assert_eq(r.late_events, 2);
	cr_assert_eq(r.total.ios, 8);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, 1, 1);
	run_text(buf, &r);
	cr_assert_eq(r.window, 20 * NSEC_PER_MSEC);
	cr_assert_eq(r.left_queued, 1);
	cr_assert_eq(r.late_events, 2);
	cr_assert_eq(r.total.ios, 4);
	run_result_free(&r);
}

/*
 * The same with fio's drain begun: libaio at depth 4 over two slots of
 * 1 ms when the 20.5 ms runtime ends.  The reap fio waits in then (21 ms)
 * is stamped on its own, the other completion at 21 ms is held for the
 * last one; both paths fail at 21.5 ms, and the two in service are held
 * by the device for good.  The run ends there, and the held completion
 * still counts in the job's row, at its own end, as in the total.
 */
Test(window, a_drain_cut_short_still_counts_what_it_held)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\nqueue_if_no_path = 1\n"
		 "fail = a at 21500us\nfail = b at 21500us\n"
		 "[path a]\nservice = fixed:1ms\n[path b]\nservice = fixed:1ms\n"
		 "[j]\nioengine = libaio\niodepth = 4\nruntime = 20500us\n", &r);
	cr_assert_eq(r.left_queued, 2);
	cr_assert_eq(r.job[0].st.ios, r.total.ios);
	cr_assert_float_eq(lat_mean(&r.job[0].st.lat), lat_mean(&r.total.lat), 1e-6);
	run_result_free(&r);
}

/*
 * An open loop at the runtime's end: arrivals every 10 ms (rate_iops=100,
 * the first at 10 ms) of 100 us each are done by 20.1 ms, so at 25 ms
 * nothing is in flight and the run ends there, before the next arrival.  One that arrives every
 * 50 us (rate_iops=20000) on a path that serves one each 100 us has a
 * backlog of arrivals waiting to issue: they complete at 150, 250, ...
 * us, and the one in service at 10 ms completes at 10.05 ms and counts,
 * the 100th; none of the waiting ones is issued.
 */
Test(window, runtime_ends_an_open_loop)
{
	struct run_result r;

	run_text(FIXED_PATH "[j]\nrate_iops=100\nruntime=25ms\n", &r);
	cr_assert_eq(r.window, 25 * NSEC_PER_MSEC);
	cr_assert_eq(r.total.ios, 2);
	run_result_free(&r);
	/* the same with sizes drawn (fio's queue, workloads/job-flow.c) */
	run_text(FIXED_PATH "[j]\nrate_iops=100\nbsrange=4k-8k\n"
		 "runtime=25ms\n", &r);
	cr_assert_eq(r.window, 25 * NSEC_PER_MSEC);
	cr_assert_eq(r.total.ios, 2);
	run_result_free(&r);
	run_text(FIXED_PATH "[j]\nrate_iops=20000\nruntime=10ms\n", &r);
	cr_assert_eq(r.total.ios, 100);
	cr_assert_eq(r.window, 10050 * NSEC_PER_USEC);
	run_result_free(&r);
}

/*
 * A job's own runtime (its IOPS in the report's job rows) ends where
 * fio's does: at its last completion, or at the end of the thinktime
 * sleep the runtime's end found it in (fio 3.33 sleeps it whole: a job of
 * runtime=1 and thinktime=5s per I/O reports 1 I/O in 5000 ms), or at
 * the runtime's end for an open loop between arrivals.  Not at its last
 * completion: that gave the sleeping job 10000 IOPS for its one I/O.
 */
Test(window, a_jobs_runtime_ends_where_fio_ends_it)
{
	struct run_result r;

	run_text(FIXED_PATH "[j]\nthinktime=5s\nthinktime_blocks=1\n"
		 "runtime=1s\n", &r);
	cr_assert_eq(r.total.ios, 1);
	cr_assert_eq(r.window, 5 * NSEC_PER_SEC + 100 * NSEC_PER_USEC);
	cr_assert_eq(r.job[0].runtime, r.window);
	run_result_free(&r);
	/* two units, each its own: the sleeper's runtime is its sleep's */
	run_text(FIXED_PATH "[a]\nthinktime=5s\nthinktime_blocks=1\n"
		 "runtime=1s\n[b]\nnumber_ios=3\n", &r);
	cr_assert_eq(r.nr_jobs, 2);
	cr_assert_eq(r.job[0].runtime, r.window);
	/* b's three, behind a's first on the one slot: 100 to 400 us */
	cr_assert_eq(r.job[1].runtime, 400 * NSEC_PER_USEC);
	run_result_free(&r);
	/* an open loop between arrivals when the runtime ends */
	run_text(FIXED_PATH "[j]\nrate_iops=100\nruntime=25ms\n", &r);
	cr_assert_eq(r.job[0].runtime, 25 * NSEC_PER_MSEC);
	run_result_free(&r);
	/* and one that ends by count, at its last completion (its second
	 * arrival's, 100 us after it), as the window does */
	run_text(FIXED_PATH "[j]\nrate_iops=100\nnumber_ios=2\n", &r);
	cr_assert_gt(r.window, 100 * NSEC_PER_USEC);
	cr_assert_eq(r.job[0].runtime, r.window);
	run_result_free(&r);
}

/* ---- fio's stamps: its drain reaps what is left with one call ---- */

Test(window, fios_drain_stamps_the_last_completion)
{
	struct run_result r;

	/* four at once on one slot of 100 us: they complete at 100, 200,
	 * 300 and 400 us.  fio waits in a reap on its full queue and
	 * stamps the first at 100; number_ios is then reached, and
	 * do_io()'s drain reaps the other three with one getevents,
	 * stamped at 400: the job's mean is (100 + 3 x 400) / 4 */
	run_text(FIXED_PATH "[j]\nioengine=libaio\niodepth=4\nnumber_ios=4\n", &r);
	cr_assert_eq(r.job[0].st.ios, 4);
	cr_assert_float_eq(lat_mean(&r.job[0].st.lat), 325e3, 1e-6);
	cr_assert_eq(r.job[0].st.lat.max, 400 * NSEC_PER_USEC);
	/* the path and the device see each end at its own time */
	cr_assert_float_eq(lat_mean(&r.total.lat), 250e3, 1e-6);
	run_result_free(&r);
	/* the flow's loop (iodepth_low=2): fio reaps one at a time down to
	 * two in flight (100 and 200 us), finds number_ios reached at its
	 * top, and drains the last two with one call, at 400 */
	run_text(FIXED_PATH "[j]\nioengine=libaio\niodepth=4\niodepth_low=2\n"
		 "number_ios=4\n", &r);
	cr_assert_float_eq(lat_mean(&r.job[0].st.lat), 275e3, 1e-6);
	run_result_free(&r);
	/* a synchronous engine reaps each in its own call: its own stamp */
	run_text(FIXED_PATH "[j]\nioengine=psync\nnumber_ios=4\n", &r);
	cr_assert_float_eq(lat_mean(&r.job[0].st.lat), lat_mean(&r.total.lat), 1e-6);
	run_result_free(&r);
	/* the runtime's end, with three in flight on the one slot: the
	 * reap fio waits in then is stamped on its own, the next is held
	 * for the last, 100 us later: the job's latencies add 100 us to
	 * the device's */
	run_text(FIXED_PATH "[j]\nioengine=libaio\niodepth=3\nruntime=1s\n", &r);
	cr_assert_eq(r.job[0].st.ios, r.total.ios);
	cr_assert_gt(lat_mean(&r.job[0].st.lat), lat_mean(&r.total.lat));
	cr_assert_float_eq(lat_mean(&r.job[0].st.lat) * (double)r.job[0].st.ios -
			   lat_mean(&r.total.lat) * (double)r.total.ios,
			   100e3, 1e-3);
	run_result_free(&r);
}

/* ---- fio's counters start again when the ramp ends ---- */

Test(window, number_ios_counts_after_the_ramp)
{
	struct run_result r;

	/* fio's reset_all_stats() at the ramp's end: number_ios=1000 is
	 * 1000 measured I/Os however many the ramp did */
	run_text(FIXED_PATH "[j]\nnumber_ios=1000\nramp_time=30050us\n"
		 "runtime=10s\n", &r);
	cr_assert_eq(r.total.ios, 1000);
	/* the I/O in flight at the ramp's end completes 50 us into the
	 * window and counts; 999 more follow */
	cr_assert_eq(r.window, 50 * NSEC_PER_USEC + 999 * 100 * NSEC_PER_USEC);
	run_result_free(&r);

	/* a ramp longer than the job's I/O would take: still 1000 */
	run_text(FIXED_PATH "[j]\nnumber_ios=1000\nramp_time=1s\n"
		 "runtime=10s\n", &r);
	cr_assert_eq(r.total.ios, 1000);
	run_result_free(&r);

	/* at depth 8 the 8 in flight when the ramp ends count towards N
	 * (as fio's exceeds_number_ios() adds io_u_in_flight) */
	run_text(FIXED_PATH "[j]\nnumber_ios=1000\niodepth=8\n"
		 "ramp_time=1s\nruntime=10s\n", &r);
	cr_assert_eq(r.total.ios, 1000);
	run_result_free(&r);
}

Test(window, size_counts_after_the_ramp)
{
	struct run_result r;

	run_text(FIXED_PATH "[j]\nsize=4m\nramp_time=50ms\nruntime=10s\n",
		 &r);
	cr_assert_eq(r.total.ios, 1024);
	cr_assert_eq(r.total.bytes, 4u << 20);
	run_result_free(&r);

	/* the same through job-flow.c (a block-size range) */
	run_text(FIXED_PATH "[j]\nsize=4m\nbsrange=4k-4k\nthinktime=1us\n"
		 "ramp_time=50ms\nruntime=10s\n", &r);
	cr_assert_eq(r.total.bytes, 4u << 20);
	run_result_free(&r);
}

/* ---- replay ---- */

/* `mpsim run ARGS...` as the command line parses it. */
static void cli_run(const char *const *args, struct run_opts *o,
		    struct run_result *r)
{
	char *argv[16], err[ERR_MAX] = "";
	int argc = 0;

	argv[argc++] = (char *)"run";
	while (*args)
		argv[argc++] = (char *)*args++;
	cr_assert_eq(cli_parse_run(argc, argv, o, NULL, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&o->sc, o->seed, r, err), 0, "%s", err);
}

Test(window, a_replay_measures_the_whole_log)
{
	/* fio 3.33's own log: 132 reads, 124 writes, 10 syncs */
	static const char *const plain[] = {
		"--read_iolog=tests/iolog/fio-randrw-v3.log", NULL };
	static const char *const ramp[] = {
		"--read_iolog=tests/iolog/fio-randrw-v3.log",
		"--ramp_time=5ms", NULL };
	struct run_opts o;
	struct run_result r;

	/* the built-in scenario's 1 s ramp would swallow the 18 ms log */
	cli_run(plain, &o, &r);
	cr_assert_eq(o.sc.jobs[0].ramp_time, 0);
	cr_assert_eq(o.sc.jobs[0].runtime, 0);
	cr_assert_eq(r.total.ios, 266);
	cr_assert_gt(r.window, 0);
	run_result_free(&r);
	cli_free_run(&o);

	/* a ramp asked for is kept */
	cli_run(ramp, &o, &r);
	cr_assert_eq(o.sc.jobs[0].ramp_time, 5 * NSEC_PER_MSEC);
	cr_assert_lt(r.total.ios, 266);
	run_result_free(&r);
	cli_free_run(&o);
}

/* ---- Little's law: L = lambda W for closed loops ---- */

/*
 * A closed loop keeps numjobs x iodepth I/Os in flight, so iops x mean
 * latency must give that back.  The 1 % allowed covers the window's
 * edges: the last iodepth I/Os draining (whatever ends the job, its
 * runtime too: fio waits for them), and the I/Os in flight at the ramp's
 * end, whose latency began before it; the runs are long enough for
 * those edges to stay under it (a 300 ms runtime gave 1.1-1.3 %).  Runs ended by number_ios
 * or size use one clone: two clones may end far apart (service-time
 * keeps sending a clone's next I/O to the path its last one freed, so
 * one clone holds the fast paths), and the in-flight count then really
 * is lower for the rest of the window; runtime ends both at once.
 */
static void little(const struct scenario *sc, const struct run_result *r,
		   const char *what)
{
	double l = iops(r) * lat_mean(&r->total.lat) / 1e9;
	double want = (double)sc->jobs[0].iodepth * sc->jobs[0].numjobs;

	cr_assert_gt(r->total.ios, 0, "%s: nothing measured", what);
	cr_assert(fabs(l / want - 1) < 0.01, "%s: iops x lat = %.4f, not %g",
		  what, l, want);
}

static const char *const endings[][4] = {
	/* option, value, iodepth, numjobs */
	{ "number_ios", "60000", "8", "1" },
	{ "size", "240m", "8", "1" },
	{ "runtime", "600ms", "4", "2" },
};

static void little_scenario(struct scenario *sc, unsigned e, bool ramp)
{
	char err[ERR_MAX] = "";

	scenario_init(sc);
	cr_assert_eq(scenario_load_builtin(sc, "hst-bio-mpath", err), 0, "%s",
		     err);
	cr_assert_eq(scenario_set(sc, "iodepth", endings[e][2], err), 0, "%s",
		     err);
	cr_assert_eq(scenario_set(sc, "numjobs", endings[e][3], err), 0, "%s",
		     err);
	cr_assert_eq(scenario_set(sc, "ramp_time", ramp ? "50ms" : "0", err),
		     0, "%s", err);
	/* the built-in runtime (10 s) outlasts the bounded endings */
	cr_assert_eq(scenario_set(sc, endings[e][0], endings[e][1], err), 0,
		     "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

Test(little, run)
{
	unsigned e, ramp, seed;
	char what[96];

	for (e = 0; e < ARRAY_SIZE(endings); e++)
		for (ramp = 0; ramp < 2; ramp++)
			for (seed = 1; seed <= 3; seed++) {
				struct scenario sc;
				struct run_result r;
				char err[ERR_MAX] = "";

				little_scenario(&sc, e, ramp);
				cr_assert_eq(run_scenario(&sc, seed, &r, err),
					     0, "%s", err);
				snprintf(what, sizeof(what), "run %s=%s%s "
					 "seed %u", endings[e][0],
					 endings[e][1],
					 ramp ? " ramp_time=50ms" : "", seed);
				little(&sc, &r, what);
				if (e < 2)	/* bounded: ended before 10 s */
					cr_assert_lt(r.window,
						     5 * NSEC_PER_SEC, "%s",
						     what);
				run_result_free(&r);
				scenario_free(&sc);
			}
}

Test(little, compare)
{
	unsigned e, ramp, c;
	char what[96];

	for (e = 0; e < ARRAY_SIZE(endings); e++)
		for (ramp = 0; ramp < 2; ramp++) {
			struct compare_result cr;
			struct scenario sc;
			char err[ERR_MAX] = "";

			little_scenario(&sc, e, ramp);
			cr_assert_eq(compare_run(&sc, 1, "all", &cr, err), 0,
				     "%s", err);
			for (c = 0; c < cr.nr_cols; c++) {
				snprintf(what, sizeof(what), "compare %s %s=%s%s",
					 cr.cols[c]->key, endings[e][0],
					 endings[e][1],
					 ramp ? " ramp_time=50ms" : "");
				little(&sc, &cr.runs[c], what);
			}
			compare_free(&cr);
			scenario_free(&sc);
		}
}

/* ---- Best with mixed sizes ---- */

/* Best of path 0 against 100 us + mean bytes at 100 MiB/s, with the
 * other path a plain 100 us. */
static void best_mean(const char *job, double mean_bytes)
{
	char text[512], err[ERR_MAX] = "";
	struct scenario sc;
	double best[2], a, b;

	snprintf(text, sizeof(text),
		 "[multipath]\nselector = service-time\n"
		 "[path a]\nslots = 1\nservice = fixed:100us\n"
		 "bandwidth = 100m\n"
		 "[path b]\nslots = 1\nservice = fixed:100us\n%s", job);
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	best_shares(&sc, best);
	a = 1 / (100e-6 + mean_bytes / (100.0 * 1048576));
	b = 1 / 100e-6;
	cr_assert_float_eq(best[0], a / (a + b), 1e-9, "%s: best %f", job,
			   best[0]);
	scenario_free(&sc);
}

Test(best, mean_cost_over_every_size)
{
	best_mean("[j]\nbs=4k\nnumber_ios=1\n", 4096);
	best_mean("[j]\nbssplit=4k/50:64k/50\nnumber_ios=1\n",
		  (4096 + 65536) / 2.0);
	/* 4k, 8k, 12k, 16k evenly */
	best_mean("[j]\nbsrange=4k-16k\nnumber_ios=1\n", 10240);
	/* reads 4k, writes 64k, 75 % reads */
	best_mean("[j]\nrw=randrw\nrwmixread=75\nbs=4k,64k\nnumber_ios=1\n",
		  0.75 * 4096 + 0.25 * 65536);
	/* two jobs weighted by numjobs x iodepth: 1 x 1 of 4k, 3 x 1 of
	 * 64k (a closed loop's share of I/Os at a common latency) */
	best_mean("[j]\nbs=4k\nnumber_ios=1\n"
		  "[k]\nbs=64k\nnumjobs=3\nnumber_ios=1\n",
		  (4096 + 3 * 65536) / 4.0);
}

Test(best, the_issues_example)
{
	/* --path.sdd.bandwidth=100M --bssplit=4k/50:64k/50 on the built-in
	 * scenario: the mean cost, about 0.044, not the 4k one (0.126) */
	static const char *const args[] = { "--path.sdd.bandwidth=100M",
		"--bssplit=4k/50:64k/50", NULL };
	struct run_opts o;
	char *argv[4], err[ERR_MAX] = "";
	double best[10];
	int argc = 0;

	argv[argc++] = (char *)"run";
	argv[argc++] = (char *)args[0];
	argv[argc++] = (char *)args[1];
	cr_assert_eq(cli_parse_run(argc, argv, &o, NULL, err), 0, "%s", err);
	best_shares(&o.sc, best);
	cr_assert(best[0] > 0.040 && best[0] < 0.048, "best[sdd] %f",
		  best[0]);
	cli_free_run(&o);
}

/* ---- events the run ended before ---- */

Test(window, late_events_are_counted)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\nfail = a at 5s\n"
		 "[path a]\nslots = 1\nservice = fixed:100us\n"
		 "[j]\nnumber_ios=100\nruntime=10s\n", &r);
	cr_assert_eq(r.total.ios, 100);
	cr_assert_eq(r.late_events, 1);
	run_result_free(&r);

	run_text("[multipath]\nselector = round-robin\nfail = a at 5ms\n"
		 "reinstate = a at 6ms\nqueue_if_no_path = 1\n"
		 "[path a]\nslots = 1\nservice = fixed:100us\n"
		 "[j]\nnumber_ios=100\nruntime=10s\n", &r);
	cr_assert_eq(r.late_events, 0);
	run_result_free(&r);
}
