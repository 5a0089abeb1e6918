/*
 * test_mpath.c: the multipath device (sim/mpath.c) record by record.
 * Short runs with fixed service times write the decision trace
 * (--trace-format=text) to a temporary file, and the exact records are
 * checked: the map with or without a path, the device's errors, end_io
 * and its start stamp, requeue, the failure to the job, fail_path and
 * reinstate_path; and the O_SYNC write's preflush (its bytes, path and
 * stamp), queue_if_no_path, and the time without a path.  The timelines
 * are worked by hand in each test, after 6.1's drivers/md/dm-mpath.c.
 * The default uptime is 3600 s and jiffies start 300 s behind it
 * (INITIAL_JIFFIES), so a jiffies stamp at the run's start reads
 * 3300000000000 and a ktime stamp 3600000000000.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/run.h"
#include "sim/trace.h"
#include "input/scenario.h"
#include "input/table.h"
#include "tests/plugin-cache.h"
#include "tests/trace-lines.h"

/* ---- errors, requeue, failure to the job ---- */

#define TWO_PATHS_10MS \
	"[path a]\nservice = fixed:10ms\n[path b]\nservice = fixed:10ms\n" \
	"[j]\niodepth = 2\nnumber_ios = 2\nramp_time = 0\n"

/*
 * round-robin, #1 on a and #2 on b at 0.  a dies at 1 ms: fail_path
 * first (the checker, or the device's error on the way up, §2.3), then
 * the device's error, the end_io sample with it, and the requeue; b is
 * left, so #1 goes there at once.  b dies at 1 ms too, in the order
 * given: #2 ends in error and, with queue_if_no_path off and no path
 * left, fails to its job (multipath_end_io_bio: DM_ENDIO_DONE with the
 * error).  kmultipathd then maps the requeued #1: no path, so
 * DM_MAPIO_KILL; its mpio->pgpath is still a, and dm core's bio_endio
 * runs multipath_end_io_bio on a a second time before the job sees the
 * error.  Three end_io calls in all, two of them a's; two completions
 * by the devices (ios_simulated: the kill's is dm's own).
 */
Test(mpath, errors_requeue_and_kill_in_the_trace)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nqueue_if_no_path = 0\n"
		"fail = a at 1ms\nfail = b at 1ms\n" TWO_PATHS_10MS;
	static const char *const want[] = {
		"0.001000000 fail_path path=a valid=1",
		"0.001000000 complete io=1 path=a error=-5 service_ns=1000000",
		"0.001000000 end_io io=1 path=a error=-5 start=3300000000000 "
		"now=3600001000000",
		"0.001000000 requeue io=1 from=a",
		"0.001000000 fail_path path=b valid=0",
		"0.001000000 complete io=2 path=b error=-5 service_ns=1000000",
		"0.001000000 end_io io=2 path=b error=-5 start=3300000000000 "
		"now=3600001000000",
		"0.001000000 done io=2 error=-5 latency_ns=1000000",
		"0.001000000 map io=1 now=3600001000000 path=- then=failed",
		"0.001000000 end_io io=1 path=a error=-5 start=3300000000000 "
		"now=3600001000000",
		"0.001000000 done io=1 error=-5 latency_ns=1000000",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, " end_io "), 3);
	cr_assert_eq(trace_count(t, " done "), 2);
	cr_assert_eq(trace_count(t, " requeue "), 1);
	cr_assert_eq(r.ios_simulated, 2, "the devices' completions");
	cr_assert_eq(r.path[0].end_ios, 2);
	cr_assert_eq(r.path[1].end_ios, 1);
	cr_assert_eq(r.failed, 2);
	cr_assert_eq(r.requeued, 1);
	cr_assert_eq(r.no_path, 1);
	run_result_free(&r);
	free(t);
}

/*
 * The same with one path dying and coming back: #1 on a is requeued to
 * b at 1 ms and completes there at 11 ms after #2 (b serves one at a
 * time); a is reinstated at 5 ms, valid again beside b.
 */
Test(mpath, reinstate_in_the_trace)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\n"
		"fail = a at 1ms\nreinstate = a at 5ms\n" TWO_PATHS_10MS;
	static const char *const want[] = {
		"0.001000000 fail_path path=a valid=1",
		"0.001000000 requeue io=1 from=a",
		"0.001000000 map io=1 now=3600001000000 path=b | b: inflight=1",
		"0.005000000 reinstate_path path=a valid=2",
		"0.010000000 done io=2 error=0 latency_ns=10000000",
		"0.020000000 done io=1 error=0 latency_ns=20000000",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(r.ios_simulated, 3);
	run_result_free(&r);
	free(t);
}

/*
 * A path error with no path left and queue_if_no_path off fails the I/O
 * to its job (no requeue): one path, two I/Os in its queue, dead at
 * 500 us.
 */
Test(mpath, error_without_a_path_fails_to_the_job)
{
	static const char text[] =
		"[multipath]\nselector = queue-length\nqueue_if_no_path = 0\n"
		"fail = a at 500us\n"
		"[path a]\nservice = fixed:1ms\n"
		"[j]\niodepth = 2\nnumber_ios = 2\nramp_time = 0\n";
	static const char *const want[] = {
		"0.000500000 fail_path path=a valid=0",
		"0.000500000 complete io=1 path=a error=-5 service_ns=500000",
		"0.000500000 done io=1 error=-5 latency_ns=500000",
		"0.000500000 complete io=2 path=a error=-5",
		"0.000500000 done io=2 error=-5 latency_ns=500000",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, " requeue "), 0);
	cr_assert_eq(r.failed, 2);
	cr_assert_eq(r.ios_simulated, 2);
	run_result_free(&r);
	free(t);
}

/* ---- the start stamp end_io is given ---- */

/*
 * Request mode: a clone's io_start_time_ns is set when the driver starts
 * it (blk_mq_start_request, with QUEUE_FLAG_STATS) and is 0 before.  #1
 * starts on a at 0; a dies at 1 ms and #1, requeued, waits in b's queue
 * behind #2; b dies at 2 ms: #2 ends with its dispatch stamp, #1, never
 * started on b, with 0 (not a's stamp of 0 ms).  a is back at 3 ms.
 */
Test(mpath, request_mode_start_of_a_clone_never_started)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nmode = request\n"
		"queue_if_no_path = 1\n"
		"fail = a at 1ms\nfail = b at 2ms\nreinstate = a at 3ms\n"
		TWO_PATHS_10MS;
	static const char *const want[] = {
		"0.001000000 end_io io=1 path=a error=-5 start=3600000000000 "
		"now=3600001000000",
		"0.001000000 map io=1 now=3600001000000 path=b | b: inflight=1",
		"0.001000000 arrive io=1 path=b busy=1 queued=1",
		"0.002000000 end_io io=2 path=b error=-5 start=3600000000000 "
		"now=3600002000000",
		"0.002000000 complete io=1 path=b error=-5",
		"0.002000000 end_io io=1 path=b error=-5 start=0 "
		"now=3600002000000",
		"0.003000000 reinstate_path path=a valid=1",
		NULL
	};
	trace_expect(text, NULL, want);
}

/*
 * Request mode on a queue without block statistics: every end_io is
 * given 0, the io_start_time_ns blk_mq never set.
 */
Test(mpath, request_mode_without_stats_gives_0)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nmode = request\n"
		"[path a]\nservice = fixed:1ms\nrequest_stats = off\n"
		"[j]\niodepth = 1\nnumber_ios = 3\nramp_time = 0\n";
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	cr_assert(trace_find_line(t, NULL, "0.001000000 end_io io=1 path=a error=0 "
			    "start=0 now=3600001000000"), "%s", t);
	cr_assert_eq(trace_count(t, " start=0 "), 3);
	run_result_free(&r);
	free(t);
}

/*
 * Bio mode, clock ktime (5.19+): only a selector with DM_PS_USE_HR_TIMER
 * (historical-service-time) gets the ktime stamp taken after select_path;
 * service-time's start_time_ns stays 0 and end_io falls back to the
 * jiffies stamp of the original bio (dm_start_time_ns_from_clone), so
 * its end_io records read as under clock=jiffies.
 */
Test(mpath, ktime_stamp_only_for_hr_timer_selectors)
{
	static const char text[] =
		"[multipath]\nselector = service-time\nhz = 250\n"
		"[path a]\nservice = fixed:1500us\n[path b]\nservice = fixed:1ms\n"
		"[j]\niodepth = 2\nnumber_ios = 8\nramp_time = 0\n";
	static const char *const kt[] = { "clock", "ktime", NULL };
	static const char *const jf[] = { "clock", "jiffies", NULL };
	static const char *const hst[] = { "clock", "ktime", "selector",
					   "historical-service-time", NULL };
	struct run_result r;
	char *a = trace_run(text, kt, &r), *b, *pa, *pb;

	run_result_free(&r);
	b = trace_run(text, jf, &r);
	run_result_free(&r);
	/* past the run record, which names the clock */
	pa = strchr(a, '\n');
	pb = strchr(b, '\n');
	cr_assert(pa && pb);
	cr_assert_str_eq(pa, pb);
	cr_assert_eq(trace_count(a, " start=33"), 8, "%s", a);
	cr_assert_eq(trace_count(a, " start=36"), 0);
	free(a);
	free(b);
	/* historical-service-time: the ktime of its mapping */
	a = trace_run(text, hst, &r);
	cr_assert_eq(trace_count(a, " start=36"), 8, "%s", a);
	cr_assert_eq(trace_count(a, " start=33"), 0);
	run_result_free(&r);
	free(a);
}

/* ---- O_SYNC on a write-back device ---- */

/*
 * psync, sync=1, round-robin over a (1 ms) and b (2 ms), both write-back,
 * HZ 1000, clock jiffies.  Each write goes to a; when it ends,
 * generic_write_sync's blkdev_issue_flush sends an empty REQ_PREFLUSH
 * bio, a new bio that dm accepts then (its own jiffies stamp) and
 * round-robin maps to b, 0 bytes.  fio sees one write of 4096 bytes on
 * a, 3 ms long; no sync is counted anywhere.
 */
Test(mpath, osync_write_then_its_preflush)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\nclock = jiffies\n"
		"hz = 1000\n"
		"[path a]\nservice = fixed:1ms\n[path b]\nservice = fixed:2ms\n"
		"[j]\nrw = write\nioengine = psync\nsync = 1\nnumber_ios = 2\n"
		"ramp_time = 0\n";
	static const char *const want[] = {
		"0.000000000 submit io=1 job=0 dir=write bytes=4096",
		"0.000000000 map io=1 now=3600000000000 path=a | a: inflight=0 "
		"| b: inflight=0",
		"0.001000000 end_io io=1 path=a error=0 start=3300000000000 "
		"now=3600001000000",
		"0.001000000 done io=1 error=0 latency_ns=1000000",
		"0.001000000 submit io=2 job=0 dir=sync bytes=0",
		"0.001000000 map io=2 now=3600001000000 path=b | a: inflight=0 "
		"| b: inflight=0",
		"0.003000000 end_io io=2 path=b error=0 start=3300001000000 "
		"now=3600003000000",
		"0.003000000 submit io=3 job=0 dir=write bytes=4096",
		"0.004000000 submit io=4 job=0 dir=sync bytes=0",
		"0.006000000 end_io io=4 path=b error=0 start=3300004000000 "
		"now=3600006000000",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);
	unsigned d;

	trace_in_order(t, want);
	cr_assert_eq(r.total.ios, 2);
	cr_assert_eq(r.total.bytes, 8192);
	cr_assert_eq(r.total.lat.min, 3 * NSEC_PER_MSEC);
	cr_assert_eq(r.total.lat.max, 3 * NSEC_PER_MSEC);
	cr_assert_eq(r.path[0].ios, 2);
	cr_assert_eq(r.path[0].bytes, 8192);
	cr_assert_eq(r.path[1].ios, 0);
	cr_assert_eq(r.path[1].bytes, 0);
	cr_assert(r.path[0].dir[DDIR_WRITE]);
	cr_assert_eq(r.path[0].dir[DDIR_WRITE]->ios, 2);
	cr_assert_eq(r.path[0].dir[DDIR_WRITE]->bytes, 8192);
	for (d = 0; d < DDIR_NR; d++) {
		cr_assert_null(r.path[1].dir[d]);
		if (d != DDIR_WRITE)
			cr_assert_null(r.path[0].dir[d]);
	}
	cr_assert_eq(r.path[0].starts, 2);
	cr_assert_eq(r.path[1].starts, 2, "the flushes");
	run_result_free(&r);
	free(t);
}

/* ---- the time without a usable path ---- */

/* no_path_time of the one-path scenario with these events. */
static sim_ns no_path_time(const char *events, const char *ramp,
			   const char *uptime)
{
	char text[512];
	struct run_result r;
	sim_ns t;

	snprintf(text, sizeof(text),
		 "[multipath]\nselector = round-robin\nqueue_if_no_path = 1\n"
		 "uptime = %s\n%s"
		 "[path a]\nservice = fixed:1ms\n"
		 "[j]\niodepth = 1\nnumber_ios = 10\nramp_time = %s\n",
		 uptime, events, ramp);
	trace_plain(text, NULL, &r);
	cr_assert_eq(r.failed, 0);
	t = r.no_path_time;
	run_result_free(&r);
	return t;
}

/*
 * Counted from the failure to the reinstate, inside the measured window
 * only: a stretch of 1 ns counts 1 ns; one that began before the ramp's
 * end counts from there, even one that began 1 ns before it or at the
 * run's very first instant (uptime 0).
 */
Test(mpath, no_path_time_at_its_edges)
{
	cr_assert_eq(no_path_time("fail = a at 1500us\n"
				  "reinstate = a at 1500001ns\n", "0", "3600s"),
		     1);
	cr_assert_eq(no_path_time("fail = a at 1500us\n"
				  "reinstate = a at 3500us\n", "0", "3600s"),
		     2 * NSEC_PER_MSEC);
	cr_assert_eq(no_path_time("fail = a at 999999ns\n"
				  "reinstate = a at 3ms\n", "1ms", "3600s"),
		     2 * NSEC_PER_MSEC);
	cr_assert_eq(no_path_time("fail = a at 0\nreinstate = a at 3ms\n",
				  "1ms", "0"), 2 * NSEC_PER_MSEC);
	cr_assert_eq(no_path_time("fail = a at 0\nreinstate = a at 3ms\n",
				  "1ms", "3600s"), 2 * NSEC_PER_MSEC);
}

/* ---- priority groups and pg_init (request mode: the handler's) ---- */

#define ALUA "mode = request\nselector = round-robin\n" \
	"hardware_handler = alua\nfailback = manual\n"
#define SDA_SDB_SDC(pb, pc) \
	"[path sda]\nprio = optimized\nservice = fixed:1ms\n" \
	"[path sdb]\nprio = " pb "\nservice = fixed:1ms\n" \
	"[path sdc]\nprio = " pc "\nservice = fixed:1ms\n"

/*
 * Three groups of one path each, alua, pg_init 2 ms, two I/Os at a time.
 * The device starts with MPATHF_QUEUE_IO (alloc_multipath_stage2) and
 * the first map switches to group 1 (__switch_pg: PG_INIT_REQUIRED and
 * QUEUE_IO with a handler): #1 and #2 are both held, #2 too although
 * pg_init_all_paths has cleared PG_INIT_REQUIRED by then (QUEUE_IO
 * alone holds it), until pg_init_done at 2 ms.  At 10.5 ms sda dies with
 * #9 in service and #10 queued: two errors, two queue_work calls on
 * process_queued_bios, which runs once (queue_work on a pending work is
 * a no-op): #9 and #10 are mapped once each, held for group 2's pg_init,
 * and go to sdb at 12.5 ms.
 */
Test(mpath, pg_init_holds_io_and_the_work_runs_once)
{
	static const char text[] =
		"[multipath]\n" ALUA "path_grouping_policy = failover\n"
		"pg_init_time = 2ms\nfail = sda at 10500us\n"
		SDA_SDB_SDC("non-optimized", "non-optimized")
		"[j]\niodepth = 2\nruntime = 15ms\nramp_time = 0\n";
	static const char *const want[] = {
		"0.000000000 map io=1 now=3600000000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.000000000 map io=2 now=3600000000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.002000000 map io=1 now=3600002000000 path=sda | sda: "
		"inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.002000000 map io=2 now=3600002000000 path=sda | sda: "
		"inflight=1 | sdb: inflight=0 | sdc: inflight=0",
		"0.010500000 requeue io=9 from=sda",
		"0.010500000 requeue io=10 from=sda",
		"0.010500000 map io=9 now=3600010500000 path=- then=held for "
		"pg_init | sdb: inflight=0 | sdc: inflight=0",
		"0.010500000 map io=10 now=3600010500000 path=- then=held for "
		"pg_init | sdb: inflight=0 | sdc: inflight=0",
		"0.012500000 map io=9 now=3600012500000 path=sdb | sdb: "
		"inflight=0 | sdc: inflight=0",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, "\n0.000000000 map "), 2);
	cr_assert_eq(trace_count(t, "\n0.010500000 map "), 2);
	run_result_free(&r);
	free(t);
}

/*
 * sda alone in group 1, sdb and sdc in group 2, alua, pg_init 2 ms.  sda
 * dies at 10.5 ms: the three I/Os are requeued, the scan takes group 2
 * and round-robin's choice there, sdb, becomes current_pgpath
 * (__switch_pg); they are held for its pg_init.  sdb dies at 11.5 ms,
 * while it is being initialised: fail_path clears current_pgpath, so
 * when sdb's activation answers "offlined" at 12.5 ms, pg_init_done
 * finds it is not the current path and keeps group 2 (only the path in
 * use drops the group).  sdc's activation has succeeded: the held I/O
 * goes to sdc at 12.5 ms, not after a second pg_init.
 */
Test(mpath, current_path_dying_in_its_pg_init_keeps_the_group)
{
	static const char text[] =
		"[multipath]\n" ALUA "path_grouping_policy = group_by_prio\n"
		"pg_init_time = 2ms\n"
		"fail = sda at 10500us\nfail = sdb at 11500us\n"
		SDA_SDB_SDC("non-optimized", "non-optimized")
		"[j]\niodepth = 3\nruntime = 15ms\nramp_time = 0\n";
	static const char *const want[] = {
		"0.010500000 fail_path path=sda valid=2",
		"0.010500000 map io=9 now=3600010500000 path=- then=held for "
		"pg_init | sdb: inflight=0 | sdc: inflight=0",
		"0.011500000 fail_path path=sdb valid=1",
		"0.012500000 map io=9 now=3600012500000 path=sdc | sdc: "
		"inflight=0",
		"0.012500000 map io=10 now=3600012500000 path=sdc | sdc: "
		"inflight=1",
		"0.012500000 map io=11 now=3600012500000 path=sdc | sdc: "
		"inflight=2",
		NULL
	};
	trace_expect(text, NULL, want);
}

/*
 * One group per path, alua, pg_init 1 ms, two I/Os at a time; dmsetup
 * message switch_group 2 at 3.5 ms.  The next I/O mapped (#5, at 4 ms)
 * goes to choose_pgpath, which takes next_pg first: group 2, held for
 * its pg_init; at 5 ms #5 and #6 go to sdb, and stay on group 2.
 */
Test(mpath, switch_group_takes_the_next_io)
{
	static const char text[] =
		"[multipath]\n" ALUA "path_grouping_policy = failover\n"
		"pg_init_time = 1ms\nmessage = switch_group 2 at 3500us\n"
		SDA_SDB_SDC("non-optimized", "non-optimized")
		"[j]\niodepth = 2\nruntime = 8ms\nramp_time = 0\n";
	static const char *const want[] = {
		"0.004000000 map io=5 now=3600004000000 path=- then=held for "
		"pg_init | sda: inflight=1 | sdb: inflight=0 | sdc: inflight=0",
		"0.005000000 map io=5 now=3600005000000 path=sdb | sda: "
		"inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.005000000 map io=6 now=3600005000000 path=sdb | sda: "
		"inflight=0 | sdb: inflight=1 | sdc: inflight=0",
		NULL
	};
	struct run_result r;
	char *t = trace_run(text, NULL, &r);

	trace_in_order(t, want);
	cr_assert_eq(trace_count(t, "path=sda | "), 4, "#1 to #4 only");
	run_result_free(&r);
	free(t);
}

/*
 * sda and sdb in group 1, sdc in group 2, alua, pg_init 2 ms, one I/O
 * at a time.  sdb dies at 3.5 ms and is reinstated at 6 ms: a path back
 * in the current group is activated alone (reinstate_path queues its
 * activate_path work: pg_init_in_progress until 8 ms).  switch_group 2
 * at 7 ms: #6 at 7 ms switches and is held; pg_init_all_paths does
 * nothing while sdb's activation runs, pg_init_done at 8 ms then starts
 * group 2's (PG_INIT_REQUIRED), which ends at 10 ms: #6 goes to sdc at
 * 10 ms, not 9.
 */
Test(mpath, reinstated_path_in_the_current_group_is_activated)
{
	static const char text[] =
		"[multipath]\n" ALUA "path_grouping_policy = group_by_prio\n"
		"pg_init_time = 2ms\n"
		"fail = sdb at 3500us\nreinstate = sdb at 6ms\n"
		"message = switch_group 2 at 7ms\n"
		SDA_SDB_SDC("optimized", "non-optimized")
		"[j]\niodepth = 1\nruntime = 12ms\nramp_time = 0\n";
	static const char *const want[] = {
		"0.006000000 reinstate_path path=sdb valid=3",
		"0.007000000 map io=6 now=3600007000000 path=- then=held for "
		"pg_init | sda: inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		"0.010000000 map io=6 now=3600010000000 path=sdc | sda: "
		"inflight=0 | sdb: inflight=0 | sdc: inflight=0",
		NULL
	};
	trace_expect(text, NULL, want);
}

/* ---- a selector that breaks the contract ---- */

/*
 * A selector (here a kernel-style file that ignores fail_path) that
 * returns a failed path is a bug: the run stops there with a one-line
 * "mpsim: bug:" message and SIGABRT, and no I/O goes to the dead path.
 * The run is made in a child, so that the abort can be seen.  The
 * plugins of these tests are built in the tests' shared cache
 * (plugin-cache.h).
 */
Test(mpath, selector_choosing_a_failed_path_stops_the_run,
     .init = test_plugin_cache)
{
	static const char text[] =
		"[multipath]\nfail = a at 500us\n"
		"[path a]\nservice = fixed:1ms\n[path b]\nservice = fixed:1ms\n"
		"[j]\niodepth = 1\nnumber_ios = 4\nramp_time = 0\n";
	static const char *const opts[] = {
		"selector-source", "tests/ksrc/dm-ps-stale.c", NULL
	};
	char dir[] = "/tmp/mpsim-mpath-XXXXXX", log[64], cmd[96], msg[256] = "";
	struct run_result r;
	int status;
	pid_t pid;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/stderr", dir);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (fd < 0 || dup2(fd, 2) != 2)
			_exit(3);
		trace_plain(text, opts, &r);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	f = fopen(log, "r");
	cr_assert(f);
	cr_assert(fgets(msg, sizeof(msg), f));
	fclose(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "status %#x, stderr: %s", status, msg);
	cr_assert_str_eq(msg, "mpsim: bug: selector stale chose failed path a\n");
}

/*
 * The kill of a requeued bio runs multipath_end_io_bio on its old path
 * again, and that calls fail_path on it (the error is retryable): a
 * no-op when the path is still failed, but the path may have been
 * reinstated meanwhile if no selector then offered a path.  With "once"
 * (its first select_path answers a, every later one NULL) and one path
 * a, queue_if_no_path on: #1 goes to a at 0; a dies at 1 ms and #1 is
 * held; a is back at 2 ms, #1 is mapped again, finds no path and is held
 * again; fail_if_no_path at 3 ms has it mapped once more and killed:
 * fail_path takes a, valid, out (valid=0), then end_io on a a second
 * time, and #1 fails to its job.
 */
Test(mpath, kill_fails_the_old_path_again_if_it_came_back,
     .init = test_plugin_cache)
{
	static const char text[] =
		"[multipath]\nqueue_if_no_path = 1\n"
		"fail = a at 1ms\nreinstate = a at 2ms\n"
		"message = fail_if_no_path at 3ms\n"
		"[path a]\nservice = fixed:10ms\n"
		"[j]\niodepth = 1\nnumber_ios = 1\nramp_time = 0\n";
	static const char *const want[] = {
		"0.001000000 fail_path path=a valid=0",
		"0.001000000 requeue io=1 from=a",
		"0.002000000 reinstate_path path=a valid=1",
		"0.002000000 map io=1 now=3600002000000 path=- then=queued "
		"| a: inflight=0",
		"0.003000000 map io=1 now=3600003000000 path=- then=failed "
		"| a: inflight=0",
		"0.003000000 fail_path path=a valid=0",
		"0.003000000 end_io io=1 path=a error=-5 start=3300000000000 "
		"now=3600003000000",
		"0.003000000 done io=1 error=-5 latency_ns=3000000",
		NULL
	};
	static const char *const opts[] = {
		"selector-source", "tests/ksrc/dm-ps-once.c", NULL
	};
	struct run_result r;
	char *t = trace_run(text, opts, &r);

	trace_in_order(t, want);
	/* dmsetup status: a failed, fail_count 2 */
	cr_assert(strstr(r.dmsetup, " a F 2 \n"), "%s", r.dmsetup);
	cr_assert_eq(r.failed, 1);
	run_result_free(&r);
	free(t);
}
