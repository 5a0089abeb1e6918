/*
 * test_call_sequence.c: the calls dm-mpath makes around a selector
 * (docs/kernel-model.md §2.3, §3.10), pinned by replaying the kernel's sequence on a
 * bare selector and comparing its state with what a simulated run left:
 * the second end_io on a stale path after DM_MAPIO_KILL, a ktime start
 * stamp of 0 read as unset, and the clocks of stable releases.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "selectors/selector.h"
#include "sim/clock.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"

extern const struct ps_type ps_historical_service_time;

#define T0	(3600 * NSEC_PER_SEC)	/* the scenarios' default uptime */

/* A bare historical-service-time selector over paths A and B. */
struct replay {
	struct path_selector ps;
	struct ps_path path[2];
	struct ps_path *pp[2];
	unsigned n;
};

static void replay_init(struct replay *k, unsigned n)
{
	static const char *const names[] = { "a", "b" };
	char err[ERR_MAX] = "";
	unsigned i;

	memset(k, 0, sizeof(*k));
	cr_assert_eq(ps_init(&k->ps, &ps_historical_service_time, "", err), 0,
		     "%s", err);
	for (i = 0; i < n; i++) {
		k->path[i].name = names[i];
		k->path[i].index = i;
		k->pp[i] = &k->path[i];
		cr_assert_eq(ps_add_path(&k->ps, &k->path[i], "", err), 0, "%s",
			     err);
	}
	k->n = n;
}

/* select_path + start_io, as __multipath_map_bio; returns the index. */
static unsigned replay_map(struct replay *k, sim_ns now)
{
	struct ps_path *p = ps_historical_service_time.select_path(&k->ps,
								    4096, now);

	cr_assert_not_null(p);
	ps_historical_service_time.start_io(&k->ps, p, 4096, now);
	return p->index;
}

static void replay_end(struct replay *k, unsigned i, uint64_t start,
		       sim_ns now)
{
	ps_historical_service_time.end_io(&k->ps, &k->path[i], 4096, start,
					  now);
}

static void replay_info(struct replay *k, unsigned i, char *buf, size_t n)
{
	ps_historical_service_time.status(&k->ps, &k->path[i], PS_STATUS_INFO,
					  buf, n);
}

static void replay_exit(struct replay *k)
{
	ps_exit(&k->ps, k->pp, k->n);
}

static void run_text(const char *text, struct run_result *r)
{
	char err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, r, err), 0, "%s", err);
	scenario_free(&sc);
}

/*
 * Bio mode, queue_if_no_path off, two paths that die at the same instant
 * with two I/Os in flight each.  The kernel's sequence:
 *   map x4 at T0: a, b, a, b (HST starts like round-robin, §3.9);
 *   T1, a dies: fail_path(a), end_io(a) x2; b is left, so both bios go
 *     on queued_bios for kmultipathd;
 *   T1, b dies: fail_path(b), end_io(b) x2; no path is left, so
 *     multipath_end_io_bio fails both bios;
 *   process_queued_bios: __multipath_map_bio finds no path and returns
 *     DM_MAPIO_KILL; bio_endio() runs multipath_end_io_bio again, whose
 *     mpio->pgpath is still a: end_io(a) x2 more, with the old stamp.
 * a's outstanding ends at 2 - 4 = 2^64 - 2.
 */
Test(call_sequence, kill_after_requeue_calls_end_io_on_the_stale_path_again)
{
	static const char text[] =
		"[multipath]\nselector = hst\nclock = ktime\n"
		"fail = a at 1ms\nfail = b at 1ms\n"
		"[path a]\nservice = fixed:10ms\n"
		"[path b]\nservice = fixed:10ms\n"
		"[j]\niodepth = 4\nnumber_ios = 4\n";
	const sim_ns t1 = T0 + NSEC_PER_MSEC;
	char want[64];
	struct replay k;
	struct run_result r;
	unsigned i;

	replay_init(&k, 2);
	cr_assert_eq(replay_map(&k, T0), 0);
	cr_assert_eq(replay_map(&k, T0), 1);
	cr_assert_eq(replay_map(&k, T0), 0);
	cr_assert_eq(replay_map(&k, T0), 1);
	ps_historical_service_time.fail_path(&k.ps, &k.path[0]);
	replay_end(&k, 0, T0, t1);
	replay_end(&k, 0, T0, t1);
	ps_historical_service_time.fail_path(&k.ps, &k.path[1]);
	replay_end(&k, 1, T0, t1);
	replay_end(&k, 1, T0, t1);
	cr_assert_null(ps_historical_service_time.select_path(&k.ps, 4096, t1));
	replay_end(&k, 0, T0, t1);
	replay_end(&k, 0, T0, t1);

	run_text(text, &r);
	cr_assert_eq(r.path[0].starts, 2);
	cr_assert_eq(r.path[0].end_ios, 4, "two end_io per bio on a");
	cr_assert_eq(r.path[1].starts, 2);
	cr_assert_eq(r.path[1].end_ios, 2, "b's bios failed at once");
	cr_assert_eq(r.failed, 4);
	cr_assert(strstr(r.path[0].ps_info, " 18446744073709551614 "),
		  "a: %s", r.path[0].ps_info);
	for (i = 0; i < 2; i++) {
		replay_info(&k, i, want, sizeof(want));
		cr_assert_str_eq(r.path[i].ps_info, want, "path %u", i);
	}
	run_result_free(&r);
	replay_exit(&k);
}

/*
 * --uptime=0 --clock=ktime --selector=hst: the first bio is mapped at
 * ktime 0, so start_time_ns is 0, which multipath_end_io_bio reads as
 * unset (`mpio->start_time_ns ?: dm_start_time_ns_from_clone(clone)`):
 * end_io gets the jiffies stamp of INITIAL_JIFFIES instead,
 * 3 994 967 296 000 ns at HZ 250 (docs/kernel-model.md §1.2's test vector), which
 * is after now, so st = 0.
 */
Test(call_sequence, ktime_stamp_0_falls_back_to_the_jiffies_stamp)
{
	static const char text[] =
		"[multipath]\nselector = hst\nclock = ktime\nhz = 250\n"
		"uptime = 0\n"
		"[path a]\nservice = fixed:1ms\n"
		"[j]\nnumber_ios = 1\n";
	char want[64], passed_through[64];
	struct replay k;
	struct run_result r;

	cr_assert_eq(jiffies_to_nsecs(250, initial_jiffies(250)),
		     3994967296000ULL);
	replay_init(&k, 1);
	cr_assert_eq(replay_map(&k, 0), 0);
	replay_end(&k, 0, 3994967296000ULL, NSEC_PER_MSEC);
	replay_info(&k, 0, want, sizeof(want));
	replay_exit(&k);
	/* what passing the 0 through would have left: st = 1 ms */
	replay_init(&k, 1);
	cr_assert_eq(replay_map(&k, 0), 0);
	replay_end(&k, 0, 0, NSEC_PER_MSEC);
	replay_info(&k, 0, passed_through, sizeof(passed_through));
	replay_exit(&k);
	cr_assert_str_neq(want, passed_through);

	run_text(text, &r);
	cr_assert_eq(r.total.ios, 1);
	cr_assert_str_eq(r.path[0].ps_info, want);
	run_result_free(&r);
}

/* A later mapping takes the stamp afresh: only the first bio, mapped at
 * ktime 0, falls back.  Two bios one after the other on one path at
 * uptime 0: the second is mapped at 1 ms and passes its ktime. */
Test(call_sequence, only_a_zero_stamp_falls_back)
{
	static const char text[] =
		"[multipath]\nselector = hst\nclock = ktime\nhz = 250\n"
		"uptime = 0\n"
		"[path a]\nservice = fixed:1ms\n"
		"[j]\nnumber_ios = 2\n";
	char want[64];
	struct replay k;
	struct run_result r;

	replay_init(&k, 1);
	cr_assert_eq(replay_map(&k, 0), 0);
	replay_end(&k, 0, 3994967296000ULL, NSEC_PER_MSEC);
	cr_assert_eq(replay_map(&k, NSEC_PER_MSEC), 0);
	replay_end(&k, 0, NSEC_PER_MSEC, 2 * NSEC_PER_MSEC);
	replay_info(&k, 0, want, sizeof(want));
	replay_exit(&k);

	run_text(text, &r);
	cr_assert_eq(r.total.ios, 2);
	cr_assert_str_eq(r.path[0].ps_info, want);
	run_result_free(&r);
}

/*
 * --kernel=X.Y.Z: ce40426fdc3c reached 5.10.112, 5.15.35 and 5.17.4
 * (the stable announcements and review mails); trees that had ended by
 * April 2022 (5.16) never got it; a bare X.Y is the X.Y.0 release.
 */
Test(call_sequence, stable_releases_have_the_clocks_they_shipped)
{
	static const struct {
		const char *version;
		bool sched;
	} want[] = {
		{ "5.10", true }, { "5.10.111", true }, { "5.10.112", false },
		{ "5.10.200", false }, { "5.15.34", true }, { "5.15.35", false },
		{ "5.16.20", true }, { "5.17.3", true }, { "5.17.4", false },
		{ "5.14.21", true }, { "5.18.1", false }, { "6.1.55", false },
	};
	struct scenario sc;
	char err[ERR_MAX];
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		scenario_init(&sc);
		cr_assert_eq(scenario_set(&sc, "kernel", want[i].version, err),
			     0, "%s: %s", want[i].version, err);
		cr_expect_eq(sc.select_sched_clock, want[i].sched, "%s",
			     want[i].version);
		/* the bio start stamp stays jiffies before 5.19 */
		cr_expect_eq(sc.clock, strncmp(want[i].version, "6.", 2) ?
			     START_JIFFIES : START_KTIME, "%s",
			     want[i].version);
		scenario_free(&sc);
	}
	scenario_init(&sc);
	cr_assert_eq(scenario_set(&sc, "kernel", "7.0", err), -EINVAL);
	cr_assert(strstr(err, "6.x"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.10.x", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.10.1.2", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.10.", err), -EINVAL);
	scenario_free(&sc);
}

/*
 * A sublevel past the last release mpsim knows of in its series (5.17.y
 * ended with 5.17.15, "Linux 5.17.15" of 2022-06-14; 5.15.y is open, its
 * newest known 5.15.173) is warned about, naming that release, and still
 * accepted; a release that exists is not.
 */
Test(call_sequence, unknown_stable_releases_warned, .init = cr_redirect_stderr)
{
	struct scenario sc;
	char err[ERR_MAX], line[512];
	unsigned k15 = 0, k17 = 0, n = 0;
	FILE *f;

	mpsim_quiet = 0;
	scenario_init(&sc);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.15.999", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.17.16", err), 0, "%s", err);
	cr_assert_not(sc.select_sched_clock);	/* past 5.17.4's backport */
	cr_assert_eq(scenario_set(&sc, "kernel", "5.17.15", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.15.173", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "kernel", "5.17", err), 0, "%s", err);
	scenario_free(&sc);
	fflush(stderr);
	f = cr_get_redirected_stderr();
	while (fgets(line, sizeof(line), f)) {
		n++;
		k15 += !!strstr(line, "kernel 5.15.999: the last 5.15 release "
				"mpsim knows of is 5.15.173");
		k17 += !!strstr(line, "kernel 5.17.16: the last 5.17 release "
				"mpsim knows of is 5.17.15");
	}
	cr_assert_eq(k15, 1);
	cr_assert_eq(k17, 1);
	cr_assert_eq(n, 2, "%u lines on stderr", n);
}

/*
 * ... and later choices differ.  The same failure (at 0.5 ms, before
 * anything completes), both paths back at 2 ms (tail of the valid list,
 * a first), then a second job from 5 ms: ten I/Os one at a time, 1 ms
 * each, each selected at the previous one's completion.  The replay runs
 * the kernel's sequence for those ten and counts where they went; a
 * replay without the second end_io (a's outstanding 0 rather than
 * 2^64 - 2) sends them elsewhere.
 */
static void later_choices(bool second_end_io, unsigned ios[2],
			  char info[2][64])
{
	const sim_ns t1 = T0 + 500 * NSEC_PER_USEC;
	struct replay k;
	unsigned i;

	replay_init(&k, 2);
	for (i = 0; i < 4; i++)
		replay_map(&k, T0);
	ps_historical_service_time.fail_path(&k.ps, &k.path[0]);
	replay_end(&k, 0, T0, t1);
	replay_end(&k, 0, T0, t1);
	ps_historical_service_time.fail_path(&k.ps, &k.path[1]);
	replay_end(&k, 1, T0, t1);
	replay_end(&k, 1, T0, t1);
	if (second_end_io) {
		replay_end(&k, 0, T0, t1);
		replay_end(&k, 0, T0, t1);
	}
	ps_historical_service_time.reinstate_path(&k.ps, &k.path[0]);
	ps_historical_service_time.reinstate_path(&k.ps, &k.path[1]);
	ios[0] = ios[1] = 0;
	for (i = 0; i < 10; i++) {
		sim_ns now = T0 + (5 + i) * NSEC_PER_MSEC;
		unsigned p = replay_map(&k, now);

		replay_end(&k, p, now, now + NSEC_PER_MSEC);
		ios[p]++;
	}
	for (i = 0; i < 2; i++)
		replay_info(&k, i, info[i], sizeof(info[i]));
	replay_exit(&k);
}

Test(call_sequence, the_second_end_io_changes_later_choices)
{
	static const char text[] =
		"[multipath]\nselector = hst\nclock = ktime\n"
		"fail = a at 500us\nfail = b at 500us\n"
		"reinstate = a at 2ms\nreinstate = b at 2ms\n"
		"[path a]\nservice = fixed:1ms\n"
		"[path b]\nservice = fixed:1ms\n"
		"[j1]\niodepth = 4\nnumber_ios = 4\n"
		"[j2]\nstartdelay = 5ms\nnumber_ios = 10\n";
	unsigned kernel[2], without[2];
	char info[2][64], info_without[2][64];
	struct run_result r;
	unsigned i;

	later_choices(true, kernel, info);
	later_choices(false, without, info_without);
	cr_assert_neq(kernel[0], without[0], "the choices differ");

	run_text(text, &r);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(r.path[i].ios, kernel[i], "path %u", i);
		cr_assert_str_eq(r.path[i].ps_info, info[i], "path %u", i);
	}
	run_result_free(&r);
}
