/*
 * test_cpu.c: the CPU time of an I/O (sim/cpu.c, docs/kernel-model.md
 * §11) against worked examples and queueing theory, and the device that
 * ends a bio inside submit_bio (service = sync, brd-like): its path never
 * shows a bio in flight to the selector, so service-time and queue-length
 * keep one bio on each slow path, as the kernel does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"
#include "sim/trace.h"

#define MAX_SEEN	4

/* What the selector saw, from the trace's map records: per path (by its
 * position in the scenario) the most bios in flight on it at a choice,
 * and how often it was chosen. */
struct seen {
	char name[MAX_SEEN][16];
	unsigned n;
	uint64_t max_inflight[MAX_SEEN];
	uint64_t chosen[MAX_SEEN];
};

static unsigned seen_index(struct seen *w, const char *name, size_t len)
{
	unsigned i;

	for (i = 0; i < w->n; i++)
		if (strlen(w->name[i]) == len && !strncmp(w->name[i], name, len))
			return i;
	cr_assert_lt(w->n, MAX_SEEN);
	cr_assert_lt(len, sizeof(w->name[0]));
	memcpy(w->name[w->n], name, len);
	w->name[w->n][len] = '\0';
	return w->n++;
}

static void seen_read(struct seen *w, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[4096];

	cr_assert_not_null(f);
	memset(w, 0, sizeof(*w));
	while (fgets(line, sizeof(line), f)) {
		const char *p, *q;

		if (!strstr(line, "\"ev\":\"map\""))
			continue;
		p = strstr(line, "\"path\":\"");
		cr_assert_not_null(p, "%s", line);
		p += 8;
		w->chosen[seen_index(w, p, strcspn(p, "\""))]++;
		p = strstr(line, "\"valid\":[");
		cr_assert_not_null(p, "%s", line);
		while ((p = strstr(p, "{\"path\":\""))) {
			unsigned i;
			unsigned long long n;

			p += 9;
			i = seen_index(w, p, strcspn(p, "\""));
			q = strstr(p, "\"inflight\":");
			cr_assert_not_null(q);
			n = strtoull(q + 11, NULL, 10);
			if (n > w->max_inflight[i])
				w->max_inflight[i] = n;
		}
	}
	fclose(f);
}

/* Run the scenario text with the overrides (key, value pairs, NULL
 * ended); the trace's view into *w when w is given. */
static void run_text(const char *text, struct run_result *res,
		     struct seen *w, ...)
{
	char err[ERR_MAX] = "", file[] = "/tmp/mpsim-test-cpu-XXXXXX";
	struct trace_conf tc = { 0 };
	struct scenario sc;
	const char *k;
	va_list ap;
	int fd;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	va_start(ap, w);
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		cr_assert_eq(scenario_set(&sc, k, v, err), 0, "%s=%s: %s", k,
			     v, err);
	}
	va_end(ap);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	if (!w) {
		cr_assert_eq(run_scenario(&sc, 1, res, err), 0, "%s", err);
		scenario_free(&sc);
		return;
	}
	fd = mkstemp(file);
	cr_assert_geq(fd, 0);
	close(fd);
	tc.file = file;
	tc.until = UINT64_MAX;
	cr_assert_eq(run_scenario_traced(&sc, 1, &tc, res, err), 0, "%s", err);
	seen_read(w, file);
	unlink(file);
	scenario_free(&sc);
}

/* ---- the CPU: submissions and completions in fio's order ---- */

static const char one_path[] =
	"[multipath]\nselector = service-time\n"
	"[path dev]\nservice = sync\n"
	"[job]\nrw = write\nioengine = libaio\niodepth = 1\nruntime = 1s\n";

Test(cpu, a_cpu_bound_closed_loop_makes_one_over_s_plus_c)
{
	struct run_result res;

	/* depth 1, a device that ends each bio inside submit_bio: each I/O
	 * is 3 us of submission, then 2 us of fio's loop after its reap,
	 * then the next: the rate is 1/(s + c) = 200000 IOPS, and the
	 * latency s, as fio's loop is outside fio's latency (§11.3).  The
	 * runtime ends at 1 s, where the 200000th I/O completes: it counts,
	 * as one still in flight then would (fio waits for it). */
	run_text(one_path, &res, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", NULL);
	cr_assert_eq(res.total.lat.min, 3000);
	cr_assert_eq(res.total.lat.max, 3000);
	cr_assert_eq(res.total.ios, 200000);
	run_result_free(&res);
	/* s alone and c alone make the same rate */
	run_text(one_path, &res, NULL, "submit_cpu", "5us", NULL);
	cr_assert_eq(res.total.lat.min, 5000);
	cr_assert_eq(res.total.ios, 200000);
	run_result_free(&res);
	run_text(one_path, &res, NULL, "complete_cpu", "5us", NULL);
	cr_assert_eq(res.total.lat.max, 0);
	cr_assert_eq(res.total.ios, 200000);
	run_result_free(&res);
}

/*
 * The worked example of §11.3: a psync read through dm-delay's 60 ms on
 * Linux 6.1 at HZ=100 over a device that ends bios in submit_bio.  The
 * first I/O reaches dm at 550 us, in tick 0: its timer is due at tick
 * 0 + 6 and fires a tick later (the wheel rounds a level-0 expiry up,
 * §8.2), at 70 ms, where fio reaps it: 70 ms.  fio's loop (400 us) and the
 * next submission (550 us) end in tick 7, so each later I/O fires at a
 * tick 70 ms after its predecessor, and its latency, from fio's stamp
 * 400 us after that tick, is 70 ms - 400 us = 69.6 ms: the loop outside
 * fio's latency moves the stamp, not the tick.  28 I/Os end in 2 s, and
 * the 29th, in flight then, at 2030 ms (its stamp at 2030.4 ms, where
 * the window closes).
 */
Test(cpu, fios_loop_after_a_reap_is_outside_the_latency_of_a_delayed_read)
{
	static const char delayed[] =
		"[multipath]\nkernel = 6.1\nhz = 100\n"
		"[path d]\nservice = sync\ndelay = 60\n"
		"[job]\nrw = randread\nioengine = psync\nruntime = 2s\n";
	struct run_result res;

	run_text(delayed, &res, NULL, "submit_cpu", "550us", "complete_cpu",
		 "400us", NULL);
	cr_assert_eq(res.total.lat.max, 70000000);
	cr_assert_eq(res.total.lat.min, 69600000);
	cr_assert_eq(res.total.ios, 29);
	cr_assert_eq(res.window, 2030400000);
	run_result_free(&res);
	/* without CPU time every I/O is submitted on a tick: 70 ms each */
	run_text(delayed, &res, NULL, NULL);
	cr_assert_eq(res.total.lat.min, 70000000);
	cr_assert_eq(res.total.lat.max, 70000000);
	run_result_free(&res);
}

/* Depth 4 through a 10 ms dm-delay on 6.1 at HZ=100 (two ticks: the
 * levels wheel's extra one), 8 I/Os; the tests below set the CPU times
 * and change the depth or add a group. */
#define TICKED	"[multipath]\nkernel = 6.1\nhz = 100\n" \
		"[path d]\nservice = sync\ndelay = 10\n" \
		"[job]\nrw = randread\nioengine = libaio\niodepth = 4\n" \
		"number_ios = 8\n"

/*
 * fio's loop reaps one I/O and submits the next before it reaps another
 * (sim/cpu.c).  Depth 4 through a 10 ms dm-delay on 6.1 at HZ=100, s = c
 * = 10 us, 8 I/Os: the first four, stamped as fio gets to each (0, 10,
 * 20 and 30 us) and mapped at 10-40 us, all end on the tick at 20 ms,
 * and their reaps begin at 20.000, 20.020, 20.040 and 20.060 ms, each
 * after the last one's reap and submission: 20.00, 20.01, 20.02 and
 * 20.03 ms (reaps alone would begin them at 20.000 to 20.030, 20 ms
 * each).  The next four, stamped at each reap's end and mapped 10 us
 * later, end on the tick at 40 ms; no submission follows their reaps
 * (number_ios), which begin at 40.000 to 40.030 ms: 19.99, 19.98, 19.97
 * and 19.96 ms.
 */
Test(cpu, a_ticks_completions_are_reaped_each_after_the_last_ones_submission)
{
	struct run_result res;

	run_text(TICKED, &res, NULL, "submit_cpu", "10us", "complete_cpu",
		 "10us", NULL);
	cr_assert_eq(res.total.ios, 8);
	cr_assert_eq(res.total.lat.max, 20030000);
	cr_assert_eq(res.total.lat.min, 19960000);
	cr_assert_float_eq(lat_mean(&res.total.lat), 19995000.0, 1e-6);
	run_result_free(&res);
}

/*
 * The same stamps on the way fio's batched queue takes (workloads/
 * job-flow.c: here a second stonewall group puts the job on it): a
 * batch of one I/O, the default, is stamped when its own submission
 * begins, so the first group's first burst of four is 20.00 to 20.03 ms
 * as above, and nothing in it is longer.  Stamping them all when the
 * burst was asked for would make the fourth 20.06 ms.
 */
Test(cpu, a_batch_is_stamped_when_its_submission_begins)
{
	static const char groups[] = TICKED
		"[job2]\nstonewall = 1\nrw = randread\nioengine = libaio\n"
		"iodepth = 4\nnumber_ios = 8\n";
	struct run_result res;

	run_text(groups, &res, NULL, "submit_cpu", "10us", "complete_cpu",
		 "10us", NULL);
	cr_assert_eq(res.nr_jobs, 2);
	cr_assert_eq(res.job[0].st.ios, 8);
	cr_assert_eq(res.job[0].st.lat.max, 20030000);
	cr_assert_eq(res.job[0].st.lat.min, 19960000);
	run_result_free(&res);
}

/*
 * The same order when a completion comes at the very instant a reap's
 * turn ends, before that turn's end is handled.  Depth 2, s = c = 10
 * us, one slot of 10 us, 3 I/Os: I/O 1 leaves the device at 20 us and
 * its end_io turn runs 20-30; I/O 2, stamped at 10 when its submission
 * began, leaves the device at 30.  fio submits I/O 3 first (30-40) and
 * only then reaps I/O 2 (40-50): 30, 40 and, for I/O 3 (device 40-50,
 * its turn 50-60), 30 us.  Taking I/O 2's turn at 30 because the CPU's
 * reserved time had ended would give 30 us to every one.
 */
Test(cpu, a_completion_at_a_turns_end_waits_for_the_reaps_submission)
{
	struct run_result res;

	run_text(one_path, &res, NULL, "submit_cpu", "10us", "complete_cpu",
		 "10us", "iodepth", "2", "path.dev.service", "fixed:10us",
		 "number_ios", "3", NULL);
	cr_assert_eq(res.total.ios, 3);
	cr_assert_eq(res.total.lat.min, 30000);
	cr_assert_eq(res.total.lat.max, 40000);
	run_result_free(&res);
}

/*
 * A CPU that sat idle costs wake_cpu more to start again (sim/cpu.c).
 * Depth 2 through a 10 ms dm-delay on 6.1 at HZ=100, s = c = 10 us,
 * wake_cpu = 100 us, 4 I/Os.  I/Os 1 and 2, stamped at 0 and 10 us (the
 * CPU has just started: not idle), are mapped at 10 and 20 us and end on
 * the tick at 20 ms.  The CPU has been idle since 20 us, so I/O 1's
 * reap, stamped at 20.000, takes 110 us; I/O 3 is stamped at its end
 * (20.110) and submitted by 20.120; I/O 2's reap then begins on a busy
 * CPU and costs 10 us: 20.110 ms.  I/O 4 is stamped at 20.130.  Both end
 * on the tick at 40 ms, where I/O 3's reap wakes the CPU again (40.000,
 * 19.890 ms) and I/O 4's follows it at 40.110 (19.980 ms).  Without
 * wake_cpu the second reap of a tick would begin at 20.020 (20.010 ms).
 */
Test(cpu, the_work_that_finds_the_cpu_idle_pays_wake_cpu)
{
	struct run_result res;

	run_text(TICKED, &res, NULL, "submit_cpu", "10us", "complete_cpu",
		 "10us", "wake_cpu", "100us", "iodepth", "2", "number_ios", "4",
		 NULL);
	cr_assert_eq(res.total.ios, 4);
	cr_assert_eq(res.total.lat.max, 20110000);
	cr_assert_eq(res.total.lat.min, 19890000);
	cr_assert_float_eq(lat_mean(&res.total.lat), 19995000.0, 1e-6);
	run_result_free(&res);
	run_text(TICKED, &res, NULL, "submit_cpu", "10us", "complete_cpu",
		 "10us", "iodepth", "2", "number_ios", "4", NULL);
	cr_assert_eq(res.total.lat.max, 20010000);
	run_result_free(&res);
}

/*
 * One I/O at a time through a delay, every reap finds the CPU idle: a
 * loop of c with wake_cpu w runs as a loop of c + w does.  live-check's
 * wake calibration measures the longer loop that way and hands mpsim w
 * (live/live.py, wake_cpu), so the two must agree to the nanosecond.
 */
Test(cpu, one_io_at_a_time_through_a_delay_pays_wake_cpu_on_every_reap)
{
	static const char delayed[] =
		"[multipath]\nkernel = 6.1\nhz = 100\n"
		"[path d]\nservice = sync\ndelay = 2\n"
		"[job]\nrw = randread\nioengine = libaio\niodepth = 1\n"
		"runtime = 2s\n";
	struct run_result a, b;

	run_text(delayed, &a, NULL, "submit_cpu", "120us", "complete_cpu",
		 "400us", NULL);
	run_text(delayed, &b, NULL, "submit_cpu", "120us", "complete_cpu",
		 "150us", "wake_cpu", "250us", NULL);
	cr_assert_eq(a.total.ios, b.total.ios);
	cr_assert_eq(a.total.lat.min, b.total.lat.min);
	cr_assert_eq(a.total.lat.max, b.total.lat.max);
	cr_assert(a.total.lat.sum == b.total.lat.sum);
	cr_assert_eq(a.window, b.window);
	cr_assert_lt(a.total.lat.min, 20000000, "the loop moves the stamp");
	run_result_free(&a);
	run_result_free(&b);
}

Test(cpu, a_cpu_that_never_idles_never_pays_wake_cpu)
{
	struct run_result a, b;

	/* depth 16 on a device of 0: the CPU is never idle after the
	 * first submission, which is at its start */
	run_text(one_path, &a, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "iodepth", "16", NULL);
	run_text(one_path, &b, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "iodepth", "16", "wake_cpu", "1ms", NULL);
	cr_assert_eq(a.total.ios, b.total.ios);
	cr_assert(a.total.lat.sum == b.total.lat.sum);
	cr_assert_eq(a.total.lat.max, b.total.lat.max);
	run_result_free(&a);
	run_result_free(&b);
}

Test(cpu, wake_cpu_without_a_cpu_time_is_refused)
{
	char err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, one_path, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "wake_cpu", "100us", err), 0, "%s", err);
	cr_assert_neq(scenario_validate(&sc, err), 0);
	cr_assert_not_null(strstr(err, "wake_cpu needs submit_cpu or "
				  "complete_cpu"), "%s", err);
	scenario_free(&sc);
}

/*
 * Stolen time, a worked example: depth 1 on a device of 0, s = 3 us and
 * c = 2 us, the host taking 10 us after every 91 us of the CPU's work
 * (steal = fixed:10us every fixed:91us).  The I/Os run 0-5, 5-10, ...
 * until the stretch at 91 us stops the submission begun at 90 until
 * 103: its latency is 13 us, the others' 3.  The CPU works 91 us in
 * every 101, so a second holds 1e6 * 91/101 / 5 = 180198 I/Os, give or
 * take the one cut where the runtime ends.
 */
Test(cpu, a_stolen_stretch_stops_the_cpus_work)
{
	struct run_result res;

	run_text(one_path, &res, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "steal", "fixed:10us every fixed:91us", NULL);
	cr_assert_eq(res.total.lat.min, 3000);
	cr_assert_eq(res.total.lat.max, 13000);
	cr_assert_geq(res.total.ios, 180197);
	cr_assert_leq(res.total.ios, 180199);
	run_result_free(&res);
}

/*
 * Stolen stretches of exp:1ms every exp:9ms (a Poisson process in the
 * CPU's time) take 1/(1 + 9) of a CPU that never idles: a closed loop of
 * s + c = 50 us makes 0.9 * 20000 = 18000 IOPS.  Over 10 s about 1000
 * stretches: the stolen share's sd is about 0.004 (sqrt(0.81 + 0.81) ms
 * per stretch over 10 ms * sqrt(1000)), 0.45 % of the rate; the bound is
 * four sd.
 */
Test(cpu, stolen_time_takes_its_share_of_a_busy_cpu)
{
	struct run_result a;

	run_text(one_path, &a, NULL, "submit_cpu", "30us", "complete_cpu",
		 "20us", "steal", "exp:1ms every exp:9ms", "runtime", "10s",
		 NULL);
	cr_assert_float_eq((double)a.total.ios / 10.0, 18000.0, 18000.0 * 0.018,
			   "%llu I/Os", (unsigned long long)a.total.ios);
	/* a stretch drawn past a millisecond stops a submission */
	cr_assert_gt(a.total.lat.max, 1000000);
	run_result_free(&a);
}

static const char timed_path[] =
	"[multipath]\n[path dev]\nservice = fixed:10us\n"
	"[job]\nrw = read\nruntime = 10ms\n";

Test(cpu, stolen_time_is_refused_without_a_cpu_time_or_in_another_form)
{
	static const char *const bad[][2] = {
		{ "exp:1ms", "use 'LEN every GAP'" },
		{ "lognormal:1ms,0.5 every exp:9ms", "use fixed:T or exp:MEAN" },
		{ "exp:1ms every fixed:0", "the time must be above 0" },
		{ "exp:1ms every", "use 'LEN every GAP'" },
	};
	char err[ERR_MAX] = "";
	struct scenario sc;
	size_t i;

	cr_assert_eq(scenario_parse(&sc, one_path, "t.ini", err), 0, "%s", err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_neq(scenario_set(&sc, "steal", bad[i][0], err), 0, "%s", bad[i][0]);
		cr_assert_not_null(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
	}
	scenario_free(&sc);
	/* a stretch stops the CPU's work: with no CPU time there is none */
	cr_assert_eq(scenario_parse(&sc, timed_path, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "steal", "exp:1ms every exp:9ms", err),
		     0, "%s", err);
	cr_assert_neq(scenario_validate(&sc, err), 0);
	cr_assert_not_null(strstr(err, "steal needs submit_cpu or "
				  "complete_cpu"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "steal", "0", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	scenario_free(&sc);
}

Test(cpu, a_path_of_service_d_at_depth_1_makes_one_over_s_plus_d_plus_c)
{
	struct run_result res;

	/* 1/(s + D + c): 3 + 10 + 2 = 15 us an I/O */
	run_text(one_path, &res, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "path.dev.service", "fixed:10us", NULL);
	cr_assert_eq(res.total.lat.min, 15000);
	cr_assert_eq(res.total.lat.max, 15000);
	cr_assert_eq(res.total.ios, 66667, "1 s / 15 us, and the one in "
		     "flight at 1 s, done at 1.000005 s");
	cr_assert_eq(res.window, 1000005000);
	run_result_free(&res);
}

Test(cpu, a_saturated_cpu_keeps_its_rate_and_littles_law_holds)
{
	struct run_result res;
	double mean;

	/* depth 16 on one CPU with a device of 0: the CPU is the bottleneck,
	 * the rate stays 1/(s + c), and by Little's law each I/O spends
	 * N / X = 16 x 5 us = 80 us from its stamp to the next stamp of its
	 * slot; fio's loop (c) after the reap is outside its latency: 78 us.
	 * The 16 in flight when the runtime ends complete after it, sooner
	 * (no submission comes between them any more), and count: every
	 * latency is 78 us but those 16, none longer */
	run_text(one_path, &res, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "iodepth", "16", "ramp_time", "10ms", NULL);
	mean = lat_mean(&res.total.lat);
	cr_assert_eq(res.total.ios, 200016, "1 s of 5 us each, and 16");
	cr_assert_eq(res.total.lat.max, 78000);
	cr_assert_leq(mean, 78000.0);
	cr_assert_geq(mean, 78000.0 - 16.0 * (78000.0 - (double)res.total.lat.min) /
		      (double)res.total.ios, "mean %.3f ns", mean);
	run_result_free(&res);
	/* two clones on two CPUs: each its own server, twice the rate */
	run_text(one_path, &res, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "ncpus", "2", "numjobs", "2", NULL);
	cr_assert_eq(res.total.ios, 2 * 200000);
	run_result_free(&res);
	/* ... and two clones on one CPU share it: 1 s of 5 us each, give
	 * or take the one each clone has in flight at the end */
	run_text(one_path, &res, NULL, "submit_cpu", "3us", "complete_cpu",
		 "2us", "numjobs", "2", NULL);
	cr_assert_geq(res.total.ios, 199999);
	cr_assert_leq(res.total.ios, 200002);
	run_result_free(&res);
}

Test(cpu, a_completion_waits_behind_a_submission)
{
	struct run_result res;
	struct seen w;

	/*
	 * depth 2, s = c = 10 us, a 1 us device.  Both first submissions
	 * queue on the CPU: I/O 1 is mapped at 10 us, done by the device at
	 * 11 us, but its completion waits behind I/O 2's submission (10 to
	 * 20 us) and ends at 30 us: the selector, choosing for I/O 2 at
	 * 20 us, sees I/O 1 still in flight.  I/O 1's latency is 30 us, and
	 * with the CPU always busy the rate is 1/(s + c) = 50000 IOPS.
	 * At the 10 ms end no submission follows a reap: the two I/Os left
	 * take their turns at 10000 and 10010 us, and the last ends at
	 * 10020 (fio's loop: each reap's submission went before the next
	 * reap until then).
	 */
	run_text(one_path, &res, &w, "submit_cpu", "10us", "complete_cpu",
		 "10us", "iodepth", "2", "path.dev.service", "fixed:1us",
		 "runtime", "10ms", NULL);
	cr_assert_eq(w.n, 1);
	cr_assert_eq(w.max_inflight[0], 1);
	cr_assert_eq(res.total.lat.min, 30000);
	cr_assert_eq(res.total.ios, 501, "10 ms / 20 us, the 500th at that "
		     "instant, and the one still in flight then");
	cr_assert_eq(res.window, 10020000);
	run_result_free(&res);
}

/* ---- a device that ends bios in its submitter's context ---- */

static const char brd_and_slow[] =
	"[multipath]\nhz = 100\nsubmit_cpu = 5us\ncomplete_cpu = 5us\n"
	"[path brd]\nservice = sync\n"
	"[path slow1]\nservice = sync\ndelay = 10ms\n"
	"[path slow2]\nservice = sync\ndelay = 20ms\n"
	"[job]\nrw = randwrite\nioengine = libaio\niodepth = 64\n"
	"runtime = 300ms\n";

Test(sync_device, slow_paths_keep_one_bio_each_at_depth_64)
{
	static const char *const sel[] = { "service-time", "queue-length" };
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(sel); i++) {
		struct run_result res;
		struct seen w;

		run_text(brd_and_slow, &res, &w, "selector", sel[i], NULL);
		cr_assert_eq(w.n, 3);
		/* the selector never sees a bio in flight on brd: it ended
		 * inside its own submission */
		cr_assert_eq(w.max_inflight[0], 0, "%s: brd", sel[i]);
		/* so a slow path is chosen only while it has none (brd has
		 * 0 too, and the list order puts the slow path first): one
		 * bio at a time on each */
		cr_assert_eq(w.max_inflight[1], 1, "%s: slow1", sel[i]);
		cr_assert_eq(w.max_inflight[2], 1, "%s: slow2", sel[i]);
		/* one bio per 10 ms and per 20 ms (the kthread releases at
		 * the tick after the due jiffy: 1 and 2 ticks at HZ=100) */
		cr_assert_geq(w.chosen[1], 29, "%s", sel[i]);
		cr_assert_leq(w.chosen[1], 31, "%s", sel[i]);
		cr_assert_geq(w.chosen[2], 14, "%s", sel[i]);
		cr_assert_leq(w.chosen[2], 16, "%s", sel[i]);
		run_result_free(&res);
	}
}

Test(sync_device, a_1us_device_lets_bios_pile_up_on_the_slow_paths)
{
	struct run_result res;
	struct seen w;

	/* the same table with brd replaced by a 1 us queue: its bios are
	 * in flight when the next choice comes, so the slow paths win
	 * choices while they hold bios already */
	run_text(brd_and_slow, &res, &w, "selector", "service-time",
		 "path.brd.service", "fixed:1us", NULL);
	cr_assert_gt(w.max_inflight[0], 0);
	cr_assert_gt(w.max_inflight[1], 1, "slow1 %llu",
		     (unsigned long long)w.max_inflight[1]);
	run_result_free(&res);
}

Test(sync_device, needs_cpu_time_or_a_delay_on_every_class)
{
	static const char text[] =
		"[path brd]\nservice = sync\n[j]\nnumber_ios = 1\n";
	char err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "service = sync ends an I/O"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "delay", "1ms", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "delay", "0", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "complete_cpu", "1us", err), 0, "%s",
		     err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	/* brd is bio-based: request-based multipath cannot stack on it */
	cr_assert_eq(scenario_set(&sc, "mode", "request", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "bio-based device (brd, zram)"), "%s", err);
	scenario_free(&sc);
}
