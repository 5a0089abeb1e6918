/*
 * test_failures.c: scripted path failures (docs/kernel-model.md §2): the scenario
 * events, errors at the failure instant, requeue and re-map, the queue
 * of I/Os with no usable path, reinstatement where each selector puts
 * the path, and the ledger: no I/O lost or counted twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"

static void parse_ok(struct scenario *sc, const char *text)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

static void run_ok(const struct scenario *sc, uint64_t seed,
		   struct run_result *r)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(run_scenario(sc, seed, r, err), 0, "%s", err);
}

/* ---- the scenario events ---- */

Test(path_failures, events_accumulate_in_order_with_their_lines)
{
	static const char text[] =
		"[multipath]\n"
		"fail = b at 2s\n"
		"fail = a at 10ms\n"
		"reinstate = b at 3s\n"
		"fail = b at 500\n"
		"[path a]\nservice = exp:1ms\n[path b]\nservice = exp:1ms\n"
		"[j]\nnumber_ios = 10\n";
	char err[ERR_MAX] = "";
	struct scenario sc, copy;

	parse_ok(&sc, text);
	cr_assert_eq(sc.nr_events, 4, "repeated keys accumulate");
	cr_assert_str_eq(sc.events[0].path, "b");
	cr_assert_eq(sc.events[0].at, 2 * NSEC_PER_SEC);
	cr_assert_eq(sc.events[0].line, 2);
	cr_assert_not(sc.events[0].reinstate);
	cr_assert_str_eq(sc.events[1].path, "a");
	cr_assert_eq(sc.events[1].at, 10 * NSEC_PER_MSEC);
	cr_assert(sc.events[2].reinstate);
	cr_assert_eq(sc.events[3].at, 500 * NSEC_PER_SEC, "bare: seconds");
	cr_assert_eq(sc.events[3].line, 5);
	/* the command line adds more, checked by name at validation */
	cr_assert_eq(scenario_set(&sc, "reinstate", "a at 1s", err), 0, "%s",
		     err);
	cr_assert_eq(sc.nr_events, 5);
	cr_assert_eq(sc.events[4].line, 0);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "fail", "zz at 1s", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "--fail: no [path zz]"), "%s", err);
	/* copies are deep */
	scenario_copy(&copy, &sc);
	cr_assert_neq(copy.events, sc.events);
	cr_assert_eq(copy.nr_events, 6);
	cr_assert_str_eq(copy.events[5].path, "zz");
	scenario_free(&copy);
	scenario_free(&sc);
}

/* text must be refused with a message containing want. */
static void parse_bad(const char *text, const char *want)
{
	char err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), -EINVAL,
		     "accepted: %s", text);
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
	cr_assert_null(strchr(err, '\n'));
	cr_assert_null(sc.events);
}

Test(path_failures, bad_events_name_file_and_line)
{
	parse_bad("[multipath]\n\nfail = c at 1s\n[path a]\n"
		  "service = exp:1ms\n", "t.ini:3: fail: no [path c]");
	parse_bad("[multipath]\nreinstate = a at then\n[path a]\n"
		  "service = exp:1ms\n", "t.ini:2: reinstate:");
	parse_bad("[multipath]\nfail = a\n[path a]\nservice = exp:1ms\n",
		  "t.ini:2: fail: 'a' is not 'PATH at TIME'");
	parse_bad("[multipath]\nfail = a on 1s\n[path a]\nservice = exp:1ms\n",
		  "t.ini:2: fail:");
	parse_bad("[multipath]\nfail = a at -1s\n[path a]\nservice = exp:1ms\n",
		  "t.ini:2: fail:");
	parse_bad("[path a]\nservice = exp:1ms\nfail = a at 1s\n",
		  "t.ini:3: fail: not an option here");
}

/* ---- what a failure does ---- */

Test(path_failures, in_flight_io_errors_at_the_fail_and_is_sent_down_again)
{
	/* round-robin, two I/Os: #1 to a (10 ms of service), #2 to b.  a
	 * dies at 1 ms: #1 ends in error then, not at 10 ms, and is mapped
	 * again to b, keeping its submit time. */
	static const char text[] =
		"[multipath]\nselector = round-robin\nfail = a at 1ms\n"
		"[path a]\nservice = fixed:10ms\n"
		"[path b]\nservice = fixed:100us\n"
		"[j]\niodepth = 2\nnumber_ios = 2\n";
	struct run_result r;
	struct scenario sc;

	parse_ok(&sc, text);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.path[0].ios, 0);
	cr_assert_eq(r.path[0].errors, 1);
	cr_assert_eq(r.path[0].starts, 1);
	cr_assert_eq(r.path[1].ios, 2);
	cr_assert_eq(r.path[1].starts, 2);
	cr_assert_eq(r.requeued, 1);
	cr_assert_eq(r.failed, 0);
	cr_assert_eq(r.total.ios, 2);
	/* #1: errored at 1 ms, re-mapped at once, served 100 us on b */
	cr_assert_eq(r.total.lat.max, 1100000);
	cr_assert_eq(r.window, 1100000, "the run ends at the last I/O");
	cr_assert_eq(r.no_path_time, 0);
	run_result_free(&r);
	scenario_free(&sc);
}

Test(path_failures, held_without_a_path_then_mapped_on_reinstate)
{
	/* one path, slot busy 1 ms per I/O, 3 I/Os in flight; it dies at
	 * 0.5 ms and comes back at 5 ms.  With queue_if_no_path the three
	 * are held and served from 5 ms on; without it they fail to the job,
	 * which ends (fio's continue_on_error=none). */
	static const char text[] =
		"[multipath]\nselector = queue-length\n"
		"fail = a at 500us\nreinstate = a at 5ms\n"
		"[path a]\nservice = fixed:1ms\n"
		"[j]\niodepth = 3\nnumber_ios = 3\n";
	char err[ERR_MAX] = "";
	struct run_result r;
	struct scenario sc;

	parse_ok(&sc, text);
	cr_assert_eq(scenario_set(&sc, "queue_if_no_path", "1", err), 0);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.total.ios, 3);
	cr_assert_eq(r.total.errors, 3);
	cr_assert_eq(r.requeued, 3);
	cr_assert_eq(r.failed, 0);
	cr_assert_eq(r.no_path_time, 4500000);
	cr_assert_eq(r.total.lat.min, 6000000);
	cr_assert_eq(r.total.lat.max, 8000000);
	cr_assert_eq(r.left_queued, 0);
	run_result_free(&r);

	cr_assert_eq(scenario_set(&sc, "queue_if_no_path", "0", err), 0);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.total.ios, 0);
	cr_assert_eq(r.total.errors, 3);
	cr_assert_eq(r.requeued, 0);
	cr_assert_eq(r.failed, 3);
	cr_assert_eq(r.issued, 3);
	/* the reinstate after the workload ended does not stretch the run */
	cr_assert_eq(r.window, 500000);
	run_result_free(&r);
	scenario_free(&sc);
}

Test(path_failures, new_io_without_a_path_fails_or_waits)
{
	/* the only path is dead from the start */
	static const char text[] =
		"[multipath]\nselector = service-time\nfail = a at 0\n"
		"[path a]\nservice = fixed:1ms\n"
		"[j]\niodepth = 4\nnumber_ios = 40\n";
	char err[ERR_MAX] = "";
	struct run_result r;
	struct scenario sc;

	parse_ok(&sc, text);
	run_ok(&sc, 1, &r);
	/* every job fails its first I/O and stops: what fio does */
	cr_assert_eq(r.issued, 1);
	cr_assert_eq(r.failed, 1);
	cr_assert_eq(r.no_path, 1);
	cr_assert_eq(r.path[0].starts, 0, "no I/O starts on a failed path");
	run_result_free(&r);

	/* queue_if_no_path: held for good, and still accounted */
	cr_assert_eq(scenario_set(&sc, "queue_if_no_path", "on", err), 0);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.issued, 4);
	cr_assert_eq(r.no_path, 4);
	cr_assert_eq(r.left_queued, 4);
	cr_assert_eq(r.failed + r.total.ios, 0);
	run_result_free(&r);
	scenario_free(&sc);
}

Test(path_failures, reinstated_path_goes_where_the_selector_puts_it)
{
	/* two paths, 1 ms each, one I/O at a time: a is dead until 10.5 ms,
	 * so I/Os 0..10 go to b.  From I/O 11 on the two alternate, and
	 * who goes first is the reinstate position (§5, §9.11):
	 * round-robin puts a at the head (a first), queue-length at the
	 * tail (b first).  With 20 I/Os, 9 are left to share. */
	static const char text[] =
		"[multipath]\nfail = a at 0\nreinstate = a at 10500us\n"
		"[path a]\nservice = fixed:1ms\n[path b]\nservice = fixed:1ms\n"
		"[j]\nnumber_ios = 20\n";
	char err[ERR_MAX] = "";
	struct run_result r;
	struct scenario sc;

	parse_ok(&sc, text);
	cr_assert_eq(scenario_set(&sc, "selector", "round-robin", err), 0);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.path[0].ios, 5, "rr: a takes I/Os 11, 13, ..., 19");
	cr_assert_eq(r.path[1].ios, 15);
	run_result_free(&r);
	cr_assert_eq(scenario_set(&sc, "selector", "queue-length", err), 0);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.path[0].ios, 4, "ql: a takes I/Os 12, 14, 16, 18");
	cr_assert_eq(r.path[1].ios, 16);
	run_result_free(&r);
	scenario_free(&sc);
}

Test(path_failures, bios_held_in_dm_delay_meet_the_dead_device)
{
	/* a sits behind a 40 ms dm-delay; it dies at 20 ms with the bios
	 * still on the delay list.  They are released at about 40 ms into
	 * the dead device, end in error then, and go to b. */
	static const char text[] =
		"[multipath]\nselector = round-robin\nhz = 1000\n"
		"fail = a at 20ms\n"
		"[path a]\nservice = fixed:100us\nslots = 0\ndelay = 40ms\n"
		"[path b]\nservice = fixed:100us\nslots = 0\n"
		"[j]\nrw = write\niodepth = 2\nnumber_ios = 2\n";
	struct run_result r;
	struct scenario sc;

	parse_ok(&sc, text);
	run_ok(&sc, 1, &r);
	cr_assert_eq(r.path[0].errors, 1);
	cr_assert_eq(r.path[0].ios, 0);
	cr_assert_eq(r.path[1].ios, 2);
	cr_assert_eq(r.requeued, 1);
	/* released at the first poll after jiffies reached J + 40: no
	 * earlier than 39 ms, within a tick and a poll after 40 ms */
	cr_assert_geq(r.total.lat.max, 39000000 + 100000);
	cr_assert_leq(r.total.lat.max, 41250000 + 100000);
	run_result_free(&r);
	scenario_free(&sc);
}

/* ---- the ledger ---- */

/* By value: Criterion runs each parameter in its own process. */
struct ledger_case {
	char selector[32];
	char mode[8];
	char queue[2];
};

ParameterizedTestParameters(path_failures, no_io_lost_or_counted_twice)
{
	static struct ledger_case c[] = {
		{ "round-robin", "bio", "1" },
		{ "round-robin", "request", "0" },
		{ "queue-length", "bio", "0" },
		{ "queue-length", "request", "1" },
		{ "service-time", "bio", "1" },
		{ "service-time", "request", "0" },
		{ "historical-service-time", "bio", "0" },
		{ "historical-service-time", "request", "1" },
	};

	return cr_make_param_array(struct ledger_case, c, ARRAY_SIZE(c));
}

ParameterizedTest(struct ledger_case *c, path_failures,
		  no_io_lost_or_counted_twice)
{
	/* Failures in service, in device queues, in transit (latency), in
	 * a dm-delay list, and a stretch with no usable path; three jobs
	 * with a fixed number of I/Os each, no ramp (so every count covers
	 * the whole run). */
	static const char text[] =
		"[multipath]\nhz = 250\n"
		"fail = a at 3ms\nfail = b at 7ms\nfail = d at 8ms\n"
		"fail = c at 9ms\nreinstate = a at 12ms\n"
		"reinstate = c at 15ms\nreinstate = b at 15ms\n"
		"reinstate = d at 30ms\nfail = a at 40ms\n"
		"[path a]\nservice = exp:100us\nlatency = 30us\n"
		"[path b]\nservice = exp:300us\nslots = 2\ndelay = 3ms\n"
		"[path c]\nservice = gamma:200us,0.5\n"
		"[path d]\nservice = exp:1ms\nslots = 0\nlatency = 50us\n"
		"[j]\nrw = randrw\niodepth = 16\nnumjobs = 3\n"
		"number_ios = 400\n";
	char err[ERR_MAX] = "";
	struct run_result r;
	struct scenario sc;
	uint64_t seed, ends;
	unsigned i;

	parse_ok(&sc, text);
	cr_assert_eq(scenario_set(&sc, "selector", c->selector, err), 0);
	cr_assert_eq(scenario_set(&sc, "mode", c->mode, err), 0);
	cr_assert_eq(scenario_set(&sc, "queue_if_no_path", c->queue, err), 0);
	/* request-based multipath cannot stack on dm-delay (bio-based) */
	if (!strcmp(c->mode, "request"))
		cr_assert_eq(scenario_set(&sc, "delay", "0", err), 0);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	for (seed = 1; seed <= 3; seed++) {
		run_ok(&sc, seed, &r);
		/* every I/O the jobs issued completed once, failed to its job
		 * once, or is still held or in flight */
		cr_assert_eq(r.issued, r.total.ios + r.failed + r.left_queued +
			     r.left_inflight, "%s %s queue %s seed %llu",
			     c->selector, c->mode, c->queue,
			     (unsigned long long)seed);
		/* every start_io met exactly one end_io, ok or error */
		ends = 0;
		for (i = 0; i < r.nr_paths; i++)
			ends += r.path[i].ios + r.path[i].errors;
		cr_assert_eq(r.total.starts, ends + r.left_inflight);
		/* an error is requeued or fails to the job, never both */
		cr_assert_leq(r.requeued, r.total.errors);
		cr_assert_leq(r.total.errors - r.requeued, r.failed);
		cr_assert_gt(r.total.errors, 0, "the failures did something");
		if (*c->queue == '1') {
			cr_assert_eq(r.failed, 0);
			cr_assert_eq(r.requeued, r.total.errors);
			cr_assert_eq(r.issued, 1200, "all jobs ran to the end");
			cr_assert_eq(r.total.ios, 1200);
			cr_assert_gt(r.no_path_time, 0);
		}
		run_result_free(&r);
	}
	scenario_free(&sc);
}
