/*
 * test_pgroup.c: priority groups, failover and failback, against
 * timelines worked by hand.  Every scenario has one job at iodepth 1 and
 * fixed 1 ms service, so the I/Os follow each other and each completion
 * time can be written down: an I/O submitted at t completes at t + 1 ms;
 * a fail errors the I/O in service at once, and it is requeued and
 * mapped again at the same instant (kmultipathd's work runs at once);
 * at the runtime's end the job issues no more, and the I/O then in
 * service completes and counts (fio waits for what it has in flight),
 * the window closing at its completion.  The rules are dm-mpath.c's (6.1) choose_pgpath,
 * __switch_pg, pg_init_all_paths and pg_init_done, and multipathd's
 * failback and no_path_retry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/engine.h"
#include "sim/run.h"
#include "sim/trace.h"
#include "input/scenario.h"
#include "input/table.h"
#include "tests/trace-lines.h"

/* sda (8:0) is ALUA optimized, sdb (8:16) non-optimized: with
 * path_grouping_policy = failover each is a group, sda's first. */
#define TWO_GROUPS \
	"[multipath]\nselector = round-robin\n" \
	"path_grouping_policy = failover\n" \
	"fail = sda at 10500us\nreinstate = sda at 20250us\n"
#define PATHS(runtime) \
	"[path sda]\nprio = optimized\nservice = fixed:1ms\n" \
	"[path sdb]\nprio = non-optimized\nservice = fixed:1ms\n" \
	"[j]\niodepth = 1\nruntime = " runtime "\n"

static void run_text(const char *text, struct run_result *r)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	mpsim_quiet = 1;
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, r, err), 0, "%s", err);
	scenario_free(&sc);
}

/*
 * failback = immediate, bio mode, no handler.
 *   0-10 ms    sda serves I/Os completing at 1, 2, ..., 10 ms: 10.
 *   10 ms      the 11th I/O starts on sda; at 10.5 ms sda fails: it
 *              errors, is requeued and mapped at 10.5 ms: group 1 has
 *              no valid path, so the scan takes group 2, sdb.
 *   10.5-20.5  sdb completes at 11.5, 12.5, ..., 20.5 ms: 10.
 *   20.25 ms   sda is back; multipathd's best group is 1 (prio 50 over
 *              10) and the kernel is on 2: switch_group 1 (next_pg).
 *   20.5 ms    the next I/O maps to next_pg: sda completes at 21.5 ...
 *              30.5 ms: 10 (the one in service at the runtime's end, 30
 *              ms, completes at 30.5 and counts).
 * So sda 20 I/Os and 1 error, sdb 10; the requeued I/O waited from
 * 10 ms to 11.5 ms.
 */
Test(failover, two_groups_fail_over_and_back_immediately)
{
	struct run_result r;

	run_text(TWO_GROUPS "failback = immediate\n" PATHS("30ms"), &r);
	cr_assert_eq(r.path[0].ios, 20);
	cr_assert_eq(r.path[0].errors, 1);
	cr_assert_eq(r.path[1].ios, 10);
	cr_assert_eq(r.path[1].errors, 0);
	cr_assert_eq(r.requeued, 1);
	cr_assert_eq(r.path[1].lat.max, 1500 * NSEC_PER_USEC,
		     "the requeued I/O: 10 ms to 11.5 ms");
	/* at the end group 1 is active again, sda failed once */
	cr_assert_str_eq(r.dmsetup,
		"0 2097152 multipath 2 0 0 0 2 1 A 0 1 0 8:0 A 1 E 0 1 0 8:16 A 0 \n"
		"0 2097152 multipath 3 retain_attached_hw_handler queue_mode bio 0 "
		"2 1 round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:16 1 \n");
	run_result_free(&r);
}

/*
 * failback = manual (multipathd's default): the kernel keeps group 2
 * while it has a path (choose_pgpath: "don't change PG until it has no
 * remaining paths"), so sdb completes at 11.5 ... 30.5 ms: 20; sda only
 * its first 10.  followover fails back like immediate here: sda is the
 * first (the only) path of its group to come back.
 */
Test(failover, manual_failback_stays_on_the_second_group)
{
	struct run_result r;

	run_text(TWO_GROUPS "failback = manual\n" PATHS("30ms"), &r);
	cr_assert_eq(r.path[0].ios, 10);
	cr_assert_eq(r.path[1].ios, 20);
	cr_assert(strstr(r.dmsetup, " 2 2 E 0 1 0 8:0 A 1 A 0 1 0 8:16 A 0 "),
		  "%s", r.dmsetup);
	run_result_free(&r);
	run_text(TWO_GROUPS "failback = followover\n" PATHS("30ms"), &r);
	cr_assert_eq(r.path[0].ios, 20);
	cr_assert_eq(r.path[1].ios, 10);
	run_result_free(&r);
}

/*
 * failback = 1 (seconds): the switch comes 1 s after sda is back, at
 * 1020.25 ms; the I/O then on sdb (from 1019.5 ms) completes at 1020.5,
 * so sdb completes at 11.5 ... 1020.5 ms: 1010 I/Os, and sda its first
 * 10 plus 1021.5 ... 1500.5 ms: 480, 490 in all, in a 1.5 s run.
 */
Test(failover, deferred_failback_waits_its_seconds)
{
	struct run_result r;

	run_text(TWO_GROUPS "failback = 1\n" PATHS("1500ms"), &r);
	cr_assert_eq(r.path[1].ios, 1010);
	cr_assert_eq(r.path[0].ios, 490);
	run_result_free(&r);
}

/*
 * Request mode with the alua handler, pg_init_time 2 ms: every group
 * switch holds I/O until pg_init_done (__switch_pg sets QUEUE_IO and
 * PG_INIT_REQUIRED; the map queues the I/O and starts pg_init).
 *   0 ms       the first I/O switches to group 1: held, sda activated
 *              until 2 ms; it completes at 3 ms; sda completes at 3 ...
 *              10 ms: 8.
 *   10.5 ms    sda fails: its I/O is requeued, the scan switches to
 *              group 2: held until sdb's pg_init is done at 12.5 ms.
 *   12.5-20.5  sdb completes at 13.5 ... 20.5 ms: 8.
 *   20.25 ms   failback: switch_group 1; at 20.5 the next I/O switches,
 *              held until 22.5: sda completes at 23.5 ... 30.5: 8.
 * sda 16, sdb 8; the requeued I/O waited 10 ms to 13.5 ms.  The status
 * shows pg_init_count 1 (one pg_init since the last switch) and
 * queue_io 0; the table the handler.
 */
Test(failover, pg_init_holds_io_at_every_switch)
{
	struct run_result r;

	run_text(TWO_GROUPS "failback = immediate\nmode = request\n"
		 "hardware_handler = alua\npg_init_time = 2ms\n" PATHS("30ms"),
		 &r);
	cr_assert_eq(r.path[0].ios, 16);
	cr_assert_eq(r.path[1].ios, 8);
	cr_assert_eq(r.path[1].lat.max, 3500 * NSEC_PER_USEC);
	cr_assert_str_eq(r.dmsetup,
		"0 2097152 multipath 2 0 1 0 2 1 A 0 1 0 8:0 A 1 E 0 1 0 8:16 A 0 \n"
		"0 2097152 multipath 0 1 alua 2 1 round-robin 0 1 1 8:0 1 "
		"round-robin 0 1 1 8:16 1 \n");
	run_result_free(&r);
}

/*
 * A bypassed group (disable_group) is tried only after every other, and
 * then its pg_init waits pg_init_delay_msecs (PG_INIT_DELAY_RETRY).
 * One group, request mode, alua, pg_init_time 0, HZ 1000: the first
 * switch's pg_init is immediate, so sda completes at 1 ... 10 ms; at
 * 10.5 ms disable_group 1 drops the current group; the I/O then in
 * service completes at 11 ms and the next one finds group 1 bypassed in
 * the first pass and takes it in the second: pg_init waits for a
 * delayed work of msecs_to_jiffies(5) = 5 ticks of 1 ms, queued at 11 ms
 * (jiffy J), whose timer the levels wheel fires at its level-0 bucket's
 * expiry, J + 5 + 1 (calc_index): 17 ms.  Then the held I/O completes at
 * 18 ms, and so on to 25 ms, the one in service at the runtime's end:
 * 11 + 8 = 19 in a 24.5 ms runtime.  pg_init_done
 * enables the group again.
 */
Test(failover, a_bypassed_group_waits_pg_init_delay_msecs)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\nmode = request\n"
		 "hz = 1000\nhardware_handler = alua\npg_init_delay_msecs = 5\n"
		 "message = disable_group 1 at 10500us\n"
		 "[path sda]\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nruntime = 24500us\n", &r);
	cr_assert_eq(r.path[0].ios, 19);
	cr_assert(strstr(r.dmsetup, " 1 1 A 0 1 0 8:0 A 0 \n"), "%s",
		  r.dmsetup);
	run_result_free(&r);
	/*
	 * The default delay, 2000 ms, at HZ 250: 500 jiffies, a level-1
	 * timer (64 <= delta < 512), whose bucket is 8 jiffies wide.  At
	 * 11 ms the jiffy J is INITIAL_JIFFIES 4294892296 + 3600 s x 250
	 * + 2 (11 ms is in the third 4 ms tick) = 4295792298; J + 500 =
	 * 4295792798, and calc_index gives ((4295792798 >> 3) + 1) << 3 =
	 * 4295792800 = J + 502: 2 ms + 502 x 4 ms = 2016 ms after the
	 * start, not the 2008 ms of a bare jiffy count.  Then completions
	 * at 2017 ... 2021 ms (the last in service at the runtime's end):
	 * 11 + 5 = 16 in a 2020.5 ms runtime.
	 */
	run_text("[multipath]\nselector = round-robin\nmode = request\n"
		 "hardware_handler = alua\n"
		 "message = disable_group 1 at 10500us\n"
		 "[path sda]\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nruntime = 2020500us\n", &r);
	cr_assert_eq(r.path[0].ios, 16);
	run_result_free(&r);
}

/*
 * no_path_retry = 2, polling_interval = 4 ms: both paths fail at
 * 5.5 ms; the I/O then in service is held (queue_if_no_path) until
 * multipathd gives up 2 intervals later, at 13.5 ms: fail_if_no_path
 * fails it to the job, which ends (fio stops on an error), and the
 * window with it.  With no_path_retry = queue it waits for sdb's return
 * at 20 ms instead and completes at 21 ms.
 */
Test(failover, no_path_retry_gives_up_after_its_intervals)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nno_path_retry = %s\n"
		"polling_interval = 4ms\n"
		"fail = sda at 5500us\nfail = sdb at 5500us\n"
		"reinstate = sdb at 20ms\n"
		"[path sda]\nservice = fixed:1ms\n[path sdb]\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nruntime = 30ms\n";
	char buf[1024];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, "2");
	run_text(buf, &r);
	cr_assert_eq(r.failed, 1);
	cr_assert_eq(r.window, 13500 * NSEC_PER_USEC);
	cr_assert_eq(r.no_path_time, 8 * NSEC_PER_MSEC);
	cr_assert_eq(r.total.ios, 5);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, "queue");
	run_text(buf, &r);
	cr_assert_eq(r.failed, 0);
	cr_assert_eq(r.path[1].lat.max, 16 * NSEC_PER_MSEC,
		     "from 5 ms to 21 ms");
	run_result_free(&r);
}

/*
 * followover against immediate: group 1 is a and c (prio 50), group 2 b
 * (prio 10).  c fails at 4.5 ms (a keeps group 1 going); at 8.5 ms a
 * switch_group 2 message (another node's failover, say) moves the device:
 * the I/O on a from 8 ms completes at 9 ms and the next goes to b, which
 * completes at 10, 11, ... ms.  c comes back at 15.5 ms.
 *   immediate: multipathd switches to group 1 at once; b's I/O from 15 ms
 *              completes at 16 ms, the next goes to group 1: b has 7
 *              (10 ... 16 ms), group 1 the 9 before (1 ... 9 ms) and 14
 *              after (17 ... 30 ms).
 *   followover: c is not the first path of group 1 to come back (a never
 *              left), so the device stays on b: 21 I/Os (10 ... 30 ms),
 *              group 1 its 9.
 * The runtime is 29.5 ms: the I/O then in service completes at 30 ms
 * and counts.
 */
Test(failover, followover_fails_back_only_for_a_groups_first_path)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\n"
		"path_grouping_policy = group_by_prio\nfailback = %s\n"
		"fail = c at 4500us\nmessage = switch_group 2 at 8500us\n"
		"reinstate = c at 15500us\n"
		"[path a]\nprio = 50\nservice = fixed:1ms\n"
		"[path b]\nprio = 10\nservice = fixed:1ms\n"
		"[path c]\nprio = 50\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nruntime = 29500us\n";
	char buf[1024];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, "immediate");
	run_text(buf, &r);
	cr_assert_eq(r.path[1].ios, 7);
	cr_assert_eq(r.path[0].ios + r.path[2].ios, 23);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, "followover");
	run_text(buf, &r);
	cr_assert_eq(r.path[1].ios, 21);
	cr_assert_eq(r.path[0].ios + r.path[2].ios, 9);
	run_result_free(&r);
}

/*
 * Request mode hands end_io the clone's dispatch stamp, 0 on a queue
 * that keeps no block statistics (docs/kernel-model.md §2.3); bio mode
 * hands it the stamp dm took at map time, whatever the queue keeps.
 * HST, two paths of exactly 1 ms, depth 1, 100 ms: the first I/O goes
 * to sda (equal zero estimates, the first path), and in request mode
 * sda, which keeps no statistics, ends it with a start of 0, so its
 * service time is the whole uptime since boot: every later choice is
 * sdb's, 99 of the 100 I/Os (the last in service at 100 ms, where the
 * runtime ends, counts).  In bio mode the same table alternates.
 */
Test(failover, request_mode_end_io_start_from_the_queue_stats)
{
	struct run_result r;

	run_text("[multipath]\nselector = historical-service-time\n"
		 "mode = request\nhz = 1000\n"
		 "[path sda]\nservice = fixed:1ms\nrequest_stats = off\n"
		 "[path sdb]\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nruntime = 100ms\n", &r);
	cr_assert_eq(r.path[0].ios, 1);
	cr_assert_eq(r.path[1].ios, 99);
	run_result_free(&r);
	run_text("[multipath]\nselector = historical-service-time\n"
		 "mode = bio\nhz = 1000\n"
		 "[path sda]\nservice = fixed:1ms\n"
		 "[path sdb]\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nruntime = 100ms\n", &r);
	cr_assert_eq(r.path[0].ios, 50);
	cr_assert_eq(r.path[1].ios, 50);
	run_result_free(&r);
}

/*
 * The words of a scripted message as dm-mpath's multipath_message takes
 * them, checked when the run starts: a group by its number, 1 to the
 * number of groups (switch_pg_num, bypass_pg_num: "invalid PG number"),
 * a path by its device or its name, "/dev/" allowed before either
 * (dm_get_device: "error getting device"); queue_if_no_path and
 * fail_if_no_path take no word.  Three groups: sda, sdb, c (failover
 * grouping, equal priorities: table order).
 */
static int message_run(const char *msg, char *err)
{
	char text[1024];
	struct run_result r;
	struct scenario sc;
	int ret;

	mpsim_quiet = 1;
	snprintf(text, sizeof(text), "[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\nmessage = %s at 1s\n"
		 "[path sda]\nservice = fixed:1ms\n"
		 "[path sdb]\nservice = fixed:1ms\n"
		 "[path c]\nservice = fixed:1ms\n"
		 "[j]\nnumber_ios = 2\n", msg);
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	ret = run_scenario(&sc, 1, &r, err);
	if (!ret)
		run_result_free(&r);
	scenario_free(&sc);
	return ret;
}

Test(failover, message_words_name_a_group_or_a_path)
{
	static const char *const good[] = {
		"switch_group 1", "switch_group 3", "disable_group 3",
		"enable_group 1", "fail_path sda", "fail_path /dev/sda",
		"fail_path 8:16", "reinstate_path 8:16", "fail_path c",
		"reinstate_path /dev/c", "queue_if_no_path", "fail_if_no_path",
	};
	static const struct {
		const char *msg, *want;
	} bad[] = {
		{ "switch_group 0", "invalid PG number (the table has 3 groups)" },
		{ "switch_group 4", "invalid PG number" },
		{ "disable_group 4", "invalid PG number" },
		{ "enable_group x", "invalid PG number" },
		{ "fail_path sdd", "error getting device" },
		{ "fail_path /dev/", "error getting device" },
		{ "reinstate_path /devxc", "error getting device" },
		{ "fail_path 8:32", "error getting device" },
	};
	char err[ERR_MAX];
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		err[0] = '\0';
		cr_assert_eq(message_run(good[i], err), 0, "%s: %s", good[i],
			     err);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		cr_assert_eq(message_run(bad[i].msg, err), -EINVAL, "%s",
			     bad[i].msg);
		cr_assert(strstr(err, bad[i].want), "%s: %s", bad[i].msg, err);
		cr_assert(strstr(err, bad[i].msg), "%s: %s", bad[i].msg, err);
	}
}

/*
 * The table decides queue_if_no_path (docs/timing.md): the device starts
 * with the features its table gives, whatever no_path_retry set before
 * the run.  sda dies at 5.5 ms with its 6th I/O in service: without the
 * feature that I/O fails (fio stops on the error); with it, held.
 */
Test(failover, the_table_decides_queue_if_no_path)
{
	static const char text[] =
		"[multipath]\ntable = 0 2097152 multipath %s 0 1 1 "
		"round-robin 0 1 1 8:0 1\nno_path_retry = %s\n"
		"fail = sda at 5500us\n[path sda]\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nruntime = 10ms\n";
	char buf[512];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, "0", "queue");
	run_text(buf, &r);
	cr_assert_eq(r.failed, 1, "no queue_if_no_path in the table");
	cr_assert_eq(r.requeued, 0);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, "1 queue_if_no_path", "fail");
	run_text(buf, &r);
	cr_assert_eq(r.failed, 0, "queue_if_no_path in the table");
	cr_assert_eq(r.requeued, 1);
	run_result_free(&r);
}

/*
 * A path the group's selector refuses is named with the selector's own
 * reason; io-affinity, whose every path needs a cpumask, says how to
 * give one only when path_args is empty, not when the mask is bad.
 */
static void refused_path(const char *selector, const char *args,
			 const char *want, const char *unwanted)
{
	char text[512], err[ERR_MAX] = "";
	struct run_result r;
	struct scenario sc;
	int ret;

	mpsim_quiet = 1;
	snprintf(text, sizeof(text), "[multipath]\nselector = %s\n"
		 "[path sda]\nservice = fixed:1ms\n%s%s%s"
		 "[j]\nnumber_ios = 1\n", selector, args ? "path_args = " : "",
		 args ? args : "", args ? "\n" : "");
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	ret = scenario_validate(&sc, err);
	if (!ret) {
		ret = run_scenario(&sc, 1, &r, err);
		if (!ret)
			run_result_free(&r);
	}
	cr_assert_eq(ret, -EINVAL, "%s %s", selector, args ? args : "");
	cr_assert(strstr(err, want), "%s", err);
	if (unwanted)
		cr_assert_null(strstr(err, unwanted), "%s", err);
	scenario_free(&sc);
}

Test(failover, refused_path_args_named_with_the_reason)
{
	refused_path("io-affinity", NULL, "[path sda] path_args: io-affinity "
		     "ps: invalid number of arguments (io-affinity takes a "
		     "cpumask per path", NULL);
	refused_path("io-affinity", "zz", "[path sda] path_args: io-affinity "
		     "ps: invalid cpumask 'zz'", "takes a cpumask");
	refused_path("round-robin", "x", "[path sda] path_args: round-robin "
		     "ps: invalid repeat count", "takes a cpumask");
}

/*
 * switch_group enables every group (switch_pg_num clears each bypassed
 * flag), the first and the last alike: a group disabled before the
 * switch shows E (enabled) in the status after it, not D.
 */
Test(failover, switch_group_enables_every_group)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\n"
		 "message = disable_group 2 at 2500us\n"
		 "message = switch_group 1 at 4500us\n" PATHS("10ms"), &r);
	cr_assert(strstr(r.dmsetup, " 2 1 A 0 1 0 8:0 A 0 E 0 1 0 8:16 A 0 "),
		  "%s", r.dmsetup);
	run_result_free(&r);
	run_text("[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\n"
		 "message = disable_group 1 at 2500us\n"
		 "message = switch_group 2 at 4500us\n" PATHS("10ms"), &r);
	cr_assert(strstr(r.dmsetup, " 2 2 E 0 1 0 8:0 A 0 A 0 1 0 8:16 A 0 "),
		  "%s", r.dmsetup);
	run_result_free(&r);
}

/*
 * switch_group to the group in use still switches (switch_pg_num clears
 * current_pg, so the next map's __switch_pg runs): with the alua handler
 * the group's pg_init holds I/O again.  Request mode, pg_init_time 2 ms:
 * the first I/O is held for the first pg_init (0-2 ms), so sda completes
 * at 3, 4, ... ms: 8 by 10 ms, the last the one in service at the end
 * of a 9.5 ms runtime.  With switch_group 1 at 5.5 ms, the I/O mapped
 * at 6 ms is held for a second pg_init until 8 ms and completes at 9 ms,
 * the next at 10 ms: 3, 4, 5, 6, 9 and 10 ms, 6.
 */
Test(failover, switch_group_to_the_current_group_inits_it_again)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nmode = request\n"
		"hardware_handler = alua\npg_init_time = 2ms\n%s"
		"[path sda]\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nruntime = 9500us\n";
	char buf[512];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, "");
	run_text(buf, &r);
	cr_assert_eq(r.path[0].ios, 8);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, "message = switch_group 1 at 5500us\n");
	run_text(buf, &r);
	cr_assert_eq(r.path[0].ios, 6);
	run_result_free(&r);
}

/*
 * Each group's selector is built for the scenario's machine: io-affinity
 * falls back to the first usable path of the submitting CPU's NUMA node
 * (§5.3).  4 CPUs in 2 nodes (CPUs 0-1, 2-3): a serves CPU 0, b CPU 2;
 * I/O from CPU 3, which has no path, goes to b, its node's; in one node
 * it would go to a, the machine's first.
 */
Test(failover, selectors_see_the_machines_numa_nodes)
{
	static const char text[] =
		"[multipath]\nselector = io-affinity\nncpus = 4\n"
		"numa_nodes = %u\n"
		"[path a]\nservice = fixed:100us\npath_args = 1\n"
		"[path b]\nservice = fixed:100us\npath_args = 4\n"
		"[j]\nnumber_ios = 10\ncpus_allowed = 3\n";
	char buf[512];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, 2);
	run_text(buf, &r);
	cr_assert_eq(r.path[1].ios, 10);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, 1);
	run_text(buf, &r);
	cr_assert_eq(r.path[0].ios, 10);
	run_result_free(&r);
}

/*
 * The table's initial group (multipath_ctr's next_pg) takes the first
 * I/O, before the scan in table order would: group 2 here, sdb's, which
 * completes at 1 ... 6 ms, the last in service at the runtime's end.
 */
Test(failover, the_tables_initial_group_is_used_first)
{
	static const char text[] =
		"[multipath]\ntable = 0 2097152 multipath 0 0 2 %u "
		"round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:16 1\n"
		PATHS("5500us");
	char buf[512];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, 2);
	run_text(buf, &r);
	cr_assert_eq(r.path[0].ios, 0);
	cr_assert_eq(r.path[1].ios, 6);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, 1);
	run_text(buf, &r);
	cr_assert_eq(r.path[0].ios, 6);
	run_result_free(&r);
}

/*
 * select_clock = ktime (the default, 5.18+): select_path reads ktime, so
 * the sched clock's offset changes no choice of HST's; with sched_clock
 * (5.8-5.17) a clock 50 ms ahead turns paths stale early and the slow
 * ones, starved by the jiffies stamps, are probed (§3.10).
 */
Test(failover, ktime_selection_ignores_the_sched_clock)
{
	char err[ERR_MAX] = "";
	struct run_result a, b, c;
	struct scenario sc;
	unsigned i, differ = 0;

	mpsim_quiet = 1;
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_set(&sc, "clock", "jiffies", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "runtime", "100ms", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "ramp_time", "0", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &a, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "sched_clock_offset", "50ms", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &b, err), 0, "%s", err);
	/* and with select_clock = sched_clock it does */
	cr_assert_eq(scenario_set(&sc, "select_clock", "sched_clock", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &c, err), 0, "%s", err);
	for (i = 0; i < a.nr_paths; i++) {
		cr_assert_eq(a.path[i].ios, b.path[i].ios, "%s", a.names[i]);
		differ += a.path[i].ios != c.path[i].ios;
	}
	cr_assert(differ, "select_clock = sched_clock: the offset shifts "
		  "staleness");
	run_result_free(&a);
	run_result_free(&b);
	run_result_free(&c);
	scenario_free(&sc);
}

/* A hardware handler is one the kernel has, in the short form as in a
 * table (scsi_dh_attach: "error attaching hardware handler"). */
Test(failover, hardware_handler_is_one_the_kernel_has)
{
	char err[ERR_MAX] = "";
	struct scenario sc;

	mpsim_quiet = 1;
	cr_assert_eq(scenario_parse(&sc, "[multipath]\nmode = request\n"
				    PATHS("1ms"), "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "hardware_handler", "x", err), -EINVAL);
	cr_assert(strstr(err, "'x' is not a hardware handler the kernel has"),
		  "%s", err);
	cr_assert_str_eq(sc.hw_handler, "");
	cr_assert_eq(scenario_set(&sc, "hardware_handler", "Alua", err),
		     -EINVAL);
	cr_assert_eq(scenario_set(&sc, "hardware_handler", "rdac", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_set(&sc, "hardware_handler", "", err), 0, "%s",
		     err);
	cr_assert_str_eq(sc.hw_handler, "");
	scenario_free(&sc);
}

/*
 * A group switch while a pg_init is in progress asks for another
 * (__switch_pg sets PG_INIT_REQUIRED; pg_init_done then initialises the
 * new group before it releases the I/O).  Request mode, alua, pg_init
 * 2 ms: j's first I/O switches to group 1 at 0 (sda's pg_init to 2 ms);
 * switch_group 2 at 1 ms; k's first I/O, at 1.5 ms, switches to group 2
 * and is held too.  At 2 ms the done asks for sdb's pg_init, to 4 ms:
 * both I/Os go to sdb then, and j's first completes at 5 ms, not 3 ms.
 */
Test(failover, a_switch_during_pg_init_inits_the_new_group)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\nmode = request\n"
		 "hardware_handler = alua\npg_init_time = 2ms\n"
		 "message = switch_group 2 at 1ms\n"
		 "[path sda]\nprio = optimized\nservice = fixed:1ms\n"
		 "[path sdb]\nprio = non-optimized\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nruntime = 7ms\n"
		 "[k]\niodepth = 1\nstartdelay = 1500us\nruntime = 5500us\n",
		 &r);
	cr_assert_eq(r.path[0].ios, 0);
	cr_assert_eq(r.path[1].ios, 4);
	cr_assert_geq(r.path[1].lat.max, 5 * NSEC_PER_MSEC);
	cr_assert_lt(r.path[1].lat.max, 5100 * NSEC_PER_USEC);
	run_result_free(&r);
}

/*
 * The scan's switch back to an earlier group: on group 2 (sda failed at
 * 10.5 ms, back at 20.25 ms, failback manual), sdb fails at 25.5 ms; the
 * scan takes group 1 and the device switches to it: the status shows
 * group 1 active (A) and group 2 enabled (E) with its path failed.
 * sda completes at 1 ... 10 ms and, after sdb's I/O in service fails
 * and is requeued at 25.5 ms, at 26.5 ... 30.5 ms (the last in service
 * at the runtime's end): 15; sdb at 11.5 ... 24.5 ms: 14.
 */
Test(failover, the_scan_switches_back_to_an_earlier_group)
{
	struct run_result r;

	run_text(TWO_GROUPS "failback = manual\nfail = sdb at 25500us\n"
		 PATHS("30ms"), &r);
	cr_assert_eq(r.path[0].ios, 15);
	cr_assert_eq(r.path[1].ios, 14);
	cr_assert(strstr(r.dmsetup, "multipath 2 0 0 0 2 1 A 0 1 0 8:0 A 1 "
			 "E 0 1 0 8:16 F 1 \n"), "%s", r.dmsetup);
	run_result_free(&r);
}

/*
 * choose_pgpath's scan asks each group's selector once a pass: the
 * groups not bypassed, then the bypassed ones.  io-affinity counts every
 * ask from a CPU that has no path of its own (map_misses, its status
 * info).  Group 1 is a (CPU 0), failed at the start; group 2, b (CPU 1),
 * disabled; the job runs on CPU 1.  The first I/O asks group 1 as the
 * table's initial group, then once in the first pass, then takes group
 * 2 in the second: 2 misses, and group 2 serves every later I/O.
 */
Test(failover, the_scan_asks_each_group_once_a_pass)
{
	struct run_result r;

	run_text("[multipath]\nselector = io-affinity\nncpus = 2\n"
		 "path_grouping_policy = failover\nfail = a at 0\n"
		 "message = disable_group 2 at 0\n"
		 "[path a]\nprio = optimized\nservice = fixed:1ms\n"
		 "path_args = 1\n"
		 "[path b]\nprio = non-optimized\nservice = fixed:1ms\n"
		 "path_args = 2\n"
		 "[j]\niodepth = 1\nnumber_ios = 5\ncpus_allowed = 1\n", &r);
	cr_assert_eq(r.path[1].ios, 5);
	cr_assert(strstr(r.dmsetup, " 2 2 E 0 1 1 a F 1 2 D 0 1 1 b A 0 0 \n"),
		  "%s", r.dmsetup);
	run_result_free(&r);
}

/*
 * With no valid path choose_pgpath clears MPATHF_QUEUE_IO, which
 * alloc_multipath_stage2 set: the status's first feature word is 0 while
 * the I/O waits for a path (queue_if_no_path), and the path's return
 * maps it at once: sda, dead from the start, back at 5 ms, completes the
 * first I/O at 6 ms.
 */
Test(failover, no_valid_path_clears_queue_io)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nqueue_if_no_path = 1\n"
		"fail = sda at 0\n%s[path sda]\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nnumber_ios = 3\n%s";
	char buf[512];
	struct run_result r;

	snprintf(buf, sizeof(buf), text, "", "runtime = 2ms\n");
	run_text(buf, &r);
	cr_assert(strstr(r.dmsetup, "0 2097152 multipath 2 0 0 0 1 1 E 0 1 0 "
			 "8:0 F 1 \n"), "%s", r.dmsetup);
	run_result_free(&r);
	snprintf(buf, sizeof(buf), text, "reinstate = sda at 5ms\n", "");
	run_text(buf, &r);
	cr_assert_eq(r.path[0].ios, 3);
	cr_assert_eq(r.path[0].lat.max, 6 * NSEC_PER_MSEC);
	run_result_free(&r);
}

/*
 * A bypassed group's pg_init waits its delayed work to the nanosecond:
 * HZ=1000, classic wheel, pg_init_delay_msecs = 1.  The I/O mapped 1 ns
 * before a tick edge (service 999999 ns: the second I/O at 999999 ns,
 * after disable_group 1 at 0.5 ms) queues the work for the next jiffy,
 * whose edge is 1 ns later: it is held that 1 ns, and its latency is
 * exactly 1 ms.
 */
Test(failover, a_delayed_pg_init_waits_to_the_ns)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\nmode = request\n"
		 "hz = 1000\ntimer_wheel = classic\nhardware_handler = alua\n"
		 "pg_init_delay_msecs = 1\nmessage = disable_group 1 at 500us\n"
		 "[path sda]\nservice = fixed:999999ns\n"
		 "[j]\niodepth = 1\nnumber_ios = 2\n", &r);
	cr_assert_eq(r.path[0].ios, 2);
	cr_assert_eq(r.path[0].lat.min, 999999);
	cr_assert_eq(r.path[0].lat.max, 1000000);
	run_result_free(&r);
}

/*
 * A pg_init asked for a group that is no longer current releases the
 * held I/O: j's first I/O switches to group 1 at 0 (pg_init to 2 ms);
 * switch_group 2 at 0.5 ms; k's I/O at 1 ms switches to group 2, which
 * asks for another pg_init; disable_group 2 at 1.5 ms leaves no current
 * group.  At 2 ms the done finds none to initialise (__pg_init_all_paths
 * returns 0) and releases the I/O: the scan takes group 1 again, whose
 * pg_init holds it to 4 ms; j's first completes at 5 ms, sda 7 in 10 ms.
 */
Test(failover, a_pg_init_without_a_current_group_releases_the_io)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\nmode = request\n"
		 "hardware_handler = alua\npg_init_time = 2ms\n"
		 "message = switch_group 2 at 500us\n"
		 "message = disable_group 2 at 1500us\n"
		 "[path sda]\nprio = optimized\nservice = fixed:1ms\n"
		 "[path sdb]\nprio = non-optimized\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nruntime = 10ms\n"
		 "[k]\niodepth = 1\nstartdelay = 1ms\nruntime = 9ms\n", &r);
	cr_assert_eq(r.path[0].ios, 7);
	cr_assert_eq(r.path[1].ios, 0);
	cr_assert_geq(r.path[0].lat.max, 5 * NSEC_PER_MSEC);
	cr_assert_lt(r.path[0].lat.max, 5100 * NSEC_PER_USEC);
	run_result_free(&r);
}

/*
 * fail_path and reinstate_path messages move the device as a path's
 * failure and return do, but the device itself works on: the I/O in
 * service on sda at 10.5 ms completes there at 11 ms (no error), sdb
 * serves 11 ... 20 ms (10), and sda, back at 20.25 ms, the rest: 20,
 * the last completing at 30 ms, where the runtime ends.
 */
Test(failover, fail_and_reinstate_path_messages)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\nfailback = immediate\n"
		 "message = fail_path sda at 10500us\n"
		 "message = reinstate_path /dev/sda at 20250us\n" PATHS("30ms"),
		 &r);
	cr_assert_eq(r.path[0].ios, 20);
	cr_assert_eq(r.path[0].errors, 0);
	cr_assert_eq(r.path[1].ios, 10);
	run_result_free(&r);
}

/*
 * A fail_path message fails the path in dm alone: the dm-delay target
 * below it works on, and the bio it holds goes down to the device when
 * its delay is over and completes without error (6.1's fail_path()
 * touches only the pgpath).  Only a device that dies errors what dm-delay
 * releases to it.
 */
Test(failover, fail_path_message_leaves_the_delay_below_working)
{
	struct run_result r;

	run_text("[multipath]\nselector = round-robin\n"
		 "path_grouping_policy = failover\n"
		 "message = fail_path sda at 5ms\n"
		 "[path sda]\nprio = optimized\nservice = fixed:1ms\n"
		 "delay = 20ms\n"
		 "[path sdb]\nprio = non-optimized\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nnumber_ios = 1\nramp_time = 0\n", &r);
	cr_assert_eq(r.path[0].errors, 0);
	cr_assert_eq(r.path[0].ios, 1);
	cr_assert_eq(r.path[1].ios, 0);
	run_result_free(&r);
}

/* ---- pgroup: choose_pgpath and pg_init record by record ---- */


#define PG_ALUA "mode = request\nselector = round-robin\n" \
	"hardware_handler = alua\nfailback = manual\n"
#define PG_THREE(pb, pc) \
	"[path sda]\nprio = optimized\nservice = fixed:1ms\n" \
	"[path sdb]\nprio = " pb "\nservice = fixed:1ms\n" \
	"[path sdc]\nprio = " pc "\nservice = fixed:1ms\n"

/*
 * I/O held for a pg_init waits on the path the switch chose
 * (current_pgpath): only the first map after the switch asks the
 * selector.  Group 1 is sda and sdb (round-robin), group 2 sdc; alua,
 * pg_init 2 ms, two I/Os at a time.  At 0 #1 switches to group 1,
 * round-robin gives sda and moves it behind sdb; #2 is held on sda
 * without asking again.  At 2 ms both are mapped afresh: #1 to sdb, #2
 * to sda.  Had #2 asked too (sdb), they would go to sda then sdb.
 */
Test(pgroup, held_io_waits_on_the_path_of_the_switch)
{
	static const char text[] =
		"[multipath]\n" PG_ALUA "path_grouping_policy = group_by_prio\n"
		"pg_init_time = 2ms\n" PG_THREE("optimized", "non-optimized")
		"[j]\niodepth = 2\nnumber_ios = 2\nramp_time = 0\n";
	static const char *const want[] = {
		"0.000000000 map io=1 now=3600000000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.000000000 map io=2 now=3600000000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.002000000 map io=1 now=3600002000000 path=sdb | sda: "
		"inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.002000000 map io=2 now=3600002000000 path=sda | sda: "
		"inflight=0 | sdb: inflight=1 | sdc: inflight=0",
		NULL
	};
	trace_expect(text, NULL, want);
}

/*
 * With no valid path choose_pgpath drops the current group, so the
 * path's return switches to its group again, and with a handler that
 * is a pg_init.  One path, alua, pg_init 2 ms, queue_if_no_path: j's #1
 * is held to 2 ms and completes at 3 ms; sda dies at 3.5 ms with #2 in
 * service, which is requeued.  k's I/O (#3) at 4 ms finds no valid
 * path: queued, the group dropped.  sda is back at 5 ms: #2 and #3
 * switch to group 1 again, are held for its pg_init to 7 ms, and
 * complete at 8 and 9 ms, not at 6 and 7.
 */
Test(pgroup, a_path_back_after_none_inits_its_group_again)
{
	static const char text[] =
		"[multipath]\n" PG_ALUA "queue_if_no_path = 1\n"
		"pg_init_time = 2ms\nfail = sda at 3500us\n"
		"reinstate = sda at 5ms\n"
		"[path sda]\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nnumber_ios = 2\nramp_time = 0\n"
		"[k]\niodepth = 1\nnumber_ios = 1\nstartdelay = 4ms\n"
		"ramp_time = 0\n";
	static const char *const want[] = {
		"0.003500000 fail_path path=sda valid=0",
		"0.004000000 map io=3 now=3600004000000 path=- then=queued",
		"0.005000000 reinstate_path path=sda valid=1",
		"0.005000000 map io=2 now=3600005000000 path=- then=held for "
		"pg_init | sda: inflight=0",
		"0.005000000 map io=3 now=3600005000000 path=- then=held for "
		"pg_init | sda: inflight=0",
		"0.007000000 map io=2 now=3600007000000 path=sda | sda: "
		"inflight=0",
		"0.008000000 done io=2 error=0 latency_ns=5000000",
		"0.009000000 done io=3 error=0 latency_ns=5000000",
		NULL
	};
	trace_expect(text, NULL, want);
}

/*
 * While its pg_init runs, the current group keeps the device even when
 * the path in use dies and an earlier group has a path: choose_pgpath
 * asks the current group before the scan.  Group 1 is sda, group 2 sdb
 * and sdc; alua, pg_init 2 ms.  #1 is held to 2 ms, #2 runs 3-4 ms;
 * switch_group 2 at 3.5 ms: j's #3 at 4 ms switches to group 2 (sdb,
 * current_pgpath), held; sdb and sdc are activated to 6 ms.  sdb dies
 * at 5 ms (current_pgpath cleared).  k's first I/O (#4), at 5.5 ms,
 * asks group 2 (sdc) and is held, no switch; at 6 ms both go to sdc.
 * Had the scan been asked, group 1 (sda) would take them after another
 * pg_init, at 8 ms.
 */
Test(pgroup, the_current_group_is_asked_during_its_pg_init)
{
	static const char text[] =
		"[multipath]\n" PG_ALUA "path_grouping_policy = group_by_prio\n"
		"pg_init_time = 2ms\nmessage = switch_group 2 at 3500us\n"
		"fail = sdb at 5ms\n"
		PG_THREE("non-optimized", "non-optimized")
		"[j]\niodepth = 1\nruntime = 9ms\nramp_time = 0\n"
		"[k]\niodepth = 1\nstartdelay = 5500us\nruntime = 3500us\n"
		"ramp_time = 0\n";
	static const char *const want[] = {
		"0.004000000 map io=3 now=3600004000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.005000000 fail_path path=sdb valid=2",
		"0.006000000 map io=3 now=3600006000000 path=sdc | sda: "
		"inflight=0 | sdc: inflight=0",
		"0.006000000 map io=4 now=3600006000000 path=sdc | sda: "
		"inflight=0 | sdc: inflight=1",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, " path=sda | "), 2, "#1 and #2 only");
	run_result_free(&r);
	free(t);
}

/*
 * A bypassed group's delayed pg_init (pg_init_delay_msecs = 5, HZ 1000,
 * pg_init_time 2 ms), sda and sdb in one group: disable_group 1 at
 * 10.5 ms; the I/O then in service completes at 11 ms and the next one
 * takes group 1 in the scan's second pass: the activations are queued
 * for 17 ms (failover/a_bypassed_group_waits_pg_init_delay_msecs works
 * the delay out).  sdb dies at 12 ms, before its work runs: at 17 ms it
 * answers at once, offlined (pg_init_done), and sda two ms later: the
 * held I/O goes to sda at 19 ms, not at 17 ms (the last answer releases
 * it) and not never.  (I/O #10, after nine of 1 ms and the first
 * pg_init.)
 */
#define PG_DELAYED(events, runtime) \
	"[multipath]\n" PG_ALUA "path_grouping_policy = multibus\n" \
	"hz = 1000\npg_init_delay_msecs = 5\npg_init_time = 2ms\n" \
	"message = disable_group 1 at 10500us\n" events \
	"[path sda]\nservice = fixed:1ms\n[path sdb]\nservice = fixed:1ms\n" \
	"[j]\niodepth = 1\nruntime = " runtime "\nramp_time = 0\n"

Test(pgroup, a_path_dying_before_its_delayed_activation)
{
	static const char text[] = PG_DELAYED("fail = sdb at 12ms\n", "25ms");
	static const char *const want[] = {
		"0.011000000 map io=10 now=3600011000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0",
		"0.012000000 fail_path path=sdb valid=1",
		"0.019000000 map io=10 now=3600019000000 path=sda | sda: "
		"inflight=0",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, "\n0.017000000 map "), 0);
	run_result_free(&r);
	free(t);
}

/*
 * The same with sdb back at 13 ms, while its delayed work still waits:
 * reinstate_path queues sdb's activation again, which queue_work leaves
 * as it is (already pending), so nothing answers before 17 ms + 2 ms:
 * the I/O held since 11 ms is mapped at 19 ms, past the runtime's end
 * (15.5 ms; it was in flight then, and the job waits for it).  A second
 * activation queued at 13 ms would answer at 15 ms and release it then.
 */
Test(pgroup, a_reinstate_while_the_activation_waits_queues_nothing)
{
	static const char text[] = PG_DELAYED("fail = sdb at 12ms\n"
					      "reinstate = sdb at 13ms\n",
					      "15500us");
	static const char *const want[] = {
		"0.011000000 map io=10 now=3600011000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0",
		"0.013000000 reinstate_path path=sdb valid=2",
		"0.019000000 map io=10 now=3600019000000 path=sdb | sda: "
		"inflight=0 | sdb: inflight=0",
		"0.020000000 done io=10 error=0 latency_ns=9000000",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, "\n0.015000000 map "), 0);
	cr_assert_eq(trace_count(t, " map io=10 "), 2, "held, then at 19 ms");
	run_result_free(&r);
	free(t);
}

/*
 * A path that dies during its activation drops the group only if it is
 * the path in use (pg_init_done): another path of the group dying there
 * keeps it.  The table puts sda alone in group 1 and sdb and sdc in
 * group 2, in the order given; alua, pg_init 2 ms.  #1 is held to 2 ms,
 * #2 runs 3-4 ms; sda dies at 4.5 ms with #3 in service: the scan takes
 * group 2, whose first path in the table round-robin gives (the path in
 * use); both are activated to 6.5 ms.  The other dies at 5 ms; its
 * answer (offlined) keeps the group, and #3 goes to the path in use at
 * 6.5 ms, not after a second pg_init at 8.5 ms.  Both orders, so that
 * the path that dies is the one after the path in use among the
 * device's paths, and the one before it.
 */
static void other_path_dies_in_pg_init(const char *order, const char *dies,
				       const char *used)
{
	static const char text[] =
		"[multipath]\nmode = request\npg_init_time = 2ms\n"
		"table = 0 2097152 multipath 0 1 alua 2 1 round-robin 0 1 1 "
		"8:0 1 round-robin 0 2 1 %s\n"
		"fail = sda at 4500us\nfail = %s at 5ms\n"
		PG_THREE("non-optimized", "non-optimized")
		"[j]\niodepth = 1\nruntime = 9ms\nramp_time = 0\n";
	char buf[1024], line[256];
	struct run_result r;
	char *t;

	snprintf(buf, sizeof(buf), text, order, dies);
	t = trace_run(buf, NULL, &r);
	snprintf(line, sizeof(line), "0.006500000 map io=3 now=3600006500000 "
		 "path=%s | %s: inflight=0", used, used);
	cr_assert(trace_find_line(t, t, line), "%s: no '%s' in\n%s", order,
		  line, t);
	run_result_free(&r);
	free(t);
}

Test(pgroup, a_path_not_in_use_dying_in_pg_init_keeps_the_group)
{
	other_path_dies_in_pg_init("8:16 1 8:32 1", "sdc", "sdb");
	other_path_dies_in_pg_init("8:32 1 8:16 1", "sdb", "sdc");
}

/*
 * PG_INIT_DELAY_RETRY lasts one pg_init: the one that pg_init_done
 * starts for a group switched to meanwhile runs at once.  sda in group
 * 1, sdb in group 2, alua, HZ 1000, pg_init_delay_msecs 5, pg_init_time
 * 0.  Both groups disabled at 10.5 ms: j's I/O at 11 ms (#12, the first
 * pg_init took no time) finds
 * group 1 in the scan's second pass, whose activation waits to 17 ms.
 * switch_group 2 at 12 ms; k's I/O at 13 ms (#13) switches to group 2
 * and is held (the pg_init it asks for waits for the one running).  At
 * 17 ms sda answers, pg_init_done starts group 2's pg_init with no
 * delay, sdb answers at once, and both I/Os go to sdb at 17 ms, not
 * 6 ms later.
 */
Test(pgroup, a_pg_init_after_a_delayed_one_is_not_delayed)
{
	static const char text[] =
		"[multipath]\n" PG_ALUA "path_grouping_policy = failover\n"
		"hz = 1000\npg_init_delay_msecs = 5\npg_init_time = 0\n"
		"message = disable_group 1 at 10500us\n"
		"message = disable_group 2 at 10500us\n"
		"message = switch_group 2 at 12ms\n"
		"[path sda]\nprio = optimized\nservice = fixed:1ms\n"
		"[path sdb]\nprio = non-optimized\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nruntime = 20ms\nramp_time = 0\n"
		"[k]\niodepth = 1\nstartdelay = 13ms\nruntime = 7ms\n"
		"ramp_time = 0\n";
	static const char *const want[] = {
		"0.011000000 map io=12 now=3600011000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0",
		"0.013000000 map io=13 now=3600013000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0",
		"0.017000000 map io=12 now=3600017000000 path=sdb | sda: "
		"inflight=0 | sdb: inflight=0",
		"0.017000000 map io=13 now=3600017000000 path=sdb | sda: "
		"inflight=0 | sdb: inflight=1",
		NULL
	};
	trace_expect(text, NULL, want);
}

/*
 * disable_group (bypass_pg) forgets the path in use as well as the
 * group, so an I/O mapped during a pg_init chooses again.  sda in group
 * 1, sdb in group 2, alua, pg_init 2 ms: j's #1 switches to group 1 at
 * 0, held to 2 ms.  disable_group 2 at 1 ms; k's I/O (#2) at 1.5 ms
 * chooses (the scan: group 1 again, a switch, so PG_INIT_REQUIRED) and
 * is held; at 2 ms the answer starts group 1's second pg_init, to
 * 4 ms, with no map at 2 ms; both go to sda at 4 ms.  With the path in
 * use kept, #2 would wait on it without a switch, and both would be
 * mapped at 2 ms, switch then and wait again.
 */
Test(pgroup, disable_group_during_pg_init_chooses_again)
{
	static const char text[] =
		"[multipath]\n" PG_ALUA "path_grouping_policy = failover\n"
		"pg_init_time = 2ms\nmessage = disable_group 2 at 1ms\n"
		"[path sda]\nprio = optimized\nservice = fixed:1ms\n"
		"[path sdb]\nprio = non-optimized\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nruntime = 6ms\nramp_time = 0\n"
		"[k]\niodepth = 1\nstartdelay = 1500us\nruntime = 4500us\n"
		"ramp_time = 0\n";
	static const char *const want[] = {
		"0.001500000 map io=2 now=3600001500000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0",
		"0.004000000 map io=1 now=3600004000000 path=sda | sda: "
		"inflight=0 | sdb: inflight=0",
		"0.004000000 map io=2 now=3600004000000 path=sda | sda: "
		"inflight=1 | sdb: inflight=0",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, "\n0.002000000 map "), 0, "%s", t);
	run_result_free(&r);
	free(t);
}

/*
 * switch_group enables every group and writes nothing past the last:
 * the groups end where an unreadable page starts (a write there
 * faults).  The message is taken (0) whether checked or run.
 */
Test(pgroup, switch_group_stays_inside_the_groups)
{
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static struct sim s;
	struct mpath m;
	char err[ERR_MAX] = "";

	cr_assert_neq(mem, MAP_FAILED);
	cr_assert_eq(mprotect(mem + page, (size_t)page, PROT_NONE), 0);
	memset(&m, 0, sizeof(m));
	m.sim = &s;
	m.nr_pgs = 2;
	m.pgs = (struct priority_group *)(mem + page) - 2;
	memset(m.pgs, 0, 2 * sizeof(*m.pgs));
	m.pgs[0].pg_num = 1;
	m.pgs[0].bypassed = true;
	m.pgs[1].pg_num = 2;
	m.pgs[1].bypassed = true;
	cr_assert_eq(mpath_message(&m, "switch_group 2", true, err), 0, "%s",
		     err);
	cr_assert(m.pgs[0].bypassed && !m.next_pg, "checked only");
	cr_assert_eq(mpath_message(&m, "switch_group 2", false, err), 0, "%s",
		     err);
	cr_assert(!m.pgs[0].bypassed && !m.pgs[1].bypassed);
	cr_assert_eq(m.next_pg, &m.pgs[1]);
	cr_assert_eq(munmap(mem, 2 * (size_t)page), 0);
}
