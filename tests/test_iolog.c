/*
 * test_iolog.c: fio I/O logs, versions 2 and 3: parsing, bad logs, and
 * replay (timed, replay_no_stall, waits, scaling, skips, depth).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"
#include "workloads/fio.h"

#define US		NSEC_PER_USEC
#define FIO_LOG		"tests/iolog/fio-randrw-v3.log"
#define V2_LOG		"tests/iolog/v2-mixed.log"
#define V3_LOG		"tests/iolog/v3-timed.log"
/* One path, one slot, a fixed 100 us per I/O. */
#define ONE_PATH \
	"[multipath]\nselector = round-robin\n" \
	"[path a]\nslots = 1\nservice = fixed:100us\n"
/* The same without a slot limit: replayed I/Os never queue. */
#define WIDE_PATH \
	"[multipath]\nselector = round-robin\n" \
	"[path a]\nslots = 0\nservice = fixed:100us\n"

static void load_ok(struct iolog *log, const char *path)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(iolog_load(log, path, err), 0, "%s (run the tests from "
		     "the repository's top)", err);
}

static void parse_bad(const char *text, const char *want)
{
	struct iolog log;
	char err[ERR_MAX] = "";

	cr_assert_eq(iolog_parse(&log, text, "t.log", err), -EINVAL,
		     "accepted:\n%s", text);
	cr_assert_null(strchr(err, '\n'), "two lines: %s", err);
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
	cr_assert_null(log.e);
	cr_assert_eq(log.n, 0);
}

/* Runs base + one job replaying `log` with `opts` ("k=v\n" lines). */
static void replay(const char *base, const char *log, const char *opts,
		   struct run_result *res)
{
	char text[1024], err[ERR_MAX] = "";
	struct scenario sc;

	snprintf(text, sizeof(text), "%s[replay]\nread_iolog=%s\n%s", base,
		 log, opts);
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, res, err), 0, "%s", err);
	scenario_free(&sc);
}

/* ---- parsing ---- */

Test(iolog, version_2_every_action)
{
	struct iolog log;
	sim_ns total = 0;
	size_t i;

	load_ok(&log, V2_LOG);
	cr_assert_eq(log.version, 2);
	cr_assert_eq(log.files, 1);
	cr_assert_eq(log.n, 7, "6 I/Os and a wait");
	cr_assert_eq(log.ios[DDIR_READ], 1);
	cr_assert_eq(log.bytes[DDIR_READ], 8192);
	cr_assert_eq(log.ios[DDIR_WRITE], 2);
	cr_assert_eq(log.bytes[DDIR_WRITE], 8192);
	cr_assert_eq(log.ios[DDIR_TRIM], 1);
	cr_assert_eq(log.bytes[DDIR_TRIM], 65536);
	cr_assert_eq(log.ios[DDIR_SYNC], 2, "sync and datasync");
	cr_assert_eq(log.bytes[DDIR_SYNC], 0);
	cr_assert_eq(log.waits, 1);
	cr_assert_eq(log.e[4].ddir, IOLOG_WAIT);
	cr_assert_eq(log.e[4].delay, 5 * NSEC_PER_MSEC, "ms since the start");
	for (i = 0; i < log.n; i++)
		if (log.e[i].ddir != IOLOG_WAIT)
			total += log.e[i].delay;
	cr_assert_eq(total, 0, "version 2 has no timestamps");
	iolog_free(&log);
}

Test(iolog, version_3_timestamps_become_delays)
{
	static const sim_ns delay_us[] = { 990, 2000, 0, 500, 2500, 0 };
	static const unsigned ddir[] = {
		DDIR_WRITE, DDIR_READ, DDIR_READ, DDIR_TRIM, DDIR_WRITE,
		DDIR_SYNC,
	};
	struct iolog log;
	size_t i;

	load_ok(&log, V3_LOG);
	cr_assert_eq(log.version, 3);
	cr_assert_eq(log.n, 6);
	for (i = 0; i < log.n; i++) {
		cr_assert_eq(log.e[i].ddir, ddir[i], "entry %zu", i);
		/* fio's delay_since_ttime(): none after the stamp 0 of
		 * `add`, so the open at 10 us is not waited for */
		cr_assert_eq(log.e[i].delay, delay_us[i] * US, "entry %zu", i);
	}
	cr_assert_eq(log.bytes[DDIR_TRIM], 1048576);
	cr_assert_eq(log.bytes[DDIR_WRITE], 12288);
	iolog_free(&log);
}

/* The log fio 3.33 wrote with --write_iolog (tests/iolog/README). */
Test(iolog, a_log_written_by_fio)
{
	struct iolog log;

	load_ok(&log, FIO_LOG);
	cr_assert_eq(log.version, 3);
	cr_assert_eq(log.ios[DDIR_READ], 132);
	cr_assert_eq(log.ios[DDIR_WRITE], 124);
	cr_assert_eq(log.ios[DDIR_SYNC], 10);
	cr_assert_eq(log.bytes[DDIR_READ] + log.bytes[DDIR_WRITE], 1048576);
	cr_assert_eq(log.n, 266);
	iolog_free(&log);
}

Test(iolog, bad_logs_name_file_and_line)
{
	parse_bad("", "t.log:1: empty, not a fio iolog");
	parse_bad("fio version 1 iolog\n", "t.log:1: not a fio iolog");
	parse_bad("rw, 0, 4096\n", "t.log:1: not a fio iolog");
	parse_bad("fio version 3 iolog\n0 f add\n5 f frob 0 1\n",
		  "t.log:3: unknown action 'frob'");
	parse_bad("fio version 3 iolog\n0 f add\n5 f wait 0 1\n",
		  "t.log:3: 'wait' is not allowed in a version 3 log");
	parse_bad("fio version 3 iolog\n0 f add\n5 g read 0 1\n",
		  "t.log:3: I/O on 'g', a file never added");
	parse_bad("fio version 2 iolog\nf open\n",
		  "t.log:2: open of 'f', a file never added");
	parse_bad("fio version 2 iolog\nf add\nf read x 4096\n",
		  "t.log:3: offset 'x' is not a number");
	parse_bad("fio version 2 iolog\nf add\nf read 0 4294967296\n",
		  "t.log:3: length '4294967296' is too large");
	parse_bad("fio version 2 iolog\nf add extra\n",
		  "t.log:2: expected 'FILE ACTION [OFFSET LENGTH]'");
	parse_bad("fio version 3 iolog\nf add\n",
		  "t.log:2: expected 'TIMESTAMP FILE ACTION");
	parse_bad("fio version 3 iolog\n-5 f add\n",
		  "t.log:2: timestamp '-5' is not a number");
	parse_bad("fio version 2 iolog\nf add\nf read 0 4096 9\n",
		  "t.log:3: expected");
}

/* Every gap is a time value (sim.h: at most 1e8 s), file actions' gaps
 * carried on to the next I/O included; so is a gap as scaled. */
Test(iolog, gaps_are_bounded_as_time_values)
{
	static const char ok[] = "fio version 3 iolog\n0 f add\n"
				 "1 f read 0 4096\n"
				 "10000000001 f read 0 4096\n";
	char err[ERR_MAX] = "";
	struct iolog log;

	parse_bad("fio version 3 iolog\n0 f add\n1 f read 0 1\n"
		  "18446744073709551 f read 0 1\n",
		  "t.log:4: a gap of more than 100000000s");
	parse_bad("fio version 3 iolog\n1 f add\n60000000000001 f open\n"
		  "100000000000002 f read 0 1\n",
		  "t.log:4: a gap of more than 100000000s");
	parse_bad("fio version 2 iolog\nf add\nf wait 100000000001 0\n",
		  "t.log:3: wait '100000000001' is longer than");

	/* a gap of 1e4 s: at 1 % of the logged rate 1e6 s, at 0.01 % 1e8 s
	 * (the limit, kept), below that past it */
	cr_assert_eq(iolog_parse(&log, ok, "t.log", err), 0, "%s", err);
	cr_assert_eq(log.max_delay, 10000000000ULL * US);
	cr_assert_eq(iolog_check_scale(&log, 1, "t.log", err), 0, "%s", err);
	iolog_free(&log);
	cr_assert_eq(iolog_parse(&log, "fio version 3 iolog\n0 f add\n"
				 "1 f read 0 1\n1000000000001 f read 0 1\n",
				 "t.log", err), 0, "%s", err);
	cr_assert_eq(iolog_check_scale(&log, 1, "t.log", err), 0, "%s", err);
	iolog_free(&log);
	cr_assert_eq(iolog_parse(&log, "fio version 3 iolog\n0 f add\n"
				 "1 f read 0 1\n1000000000002 f read 0 1\n",
				 "t.log", err), 0, "%s", err);
	cr_assert_eq(iolog_check_scale(&log, 1, "t.log", err), -EINVAL);
	cr_assert(strstr(err, "t.log: replay_time_scale=1 stretches its "
			 "longest gap (1000000000001 us) beyond 100000000s"),
		  "%s", err);
	cr_assert_eq(iolog_check_scale(&log, 2, "t.log", err), 0, "%s", err);
	iolog_free(&log);
}

/* A log holds at most IOLOG_MAX_ENTRIES entries: the line after the last
 * one allowed is refused, naming the limit. */
Test(iolog, entries_are_bounded)
{
	static const char line[] = "f read 0 1\n";
	size_t n = IOLOG_MAX_ENTRIES + 1, ll = sizeof(line) - 1, i;
	static const char head[] = "fio version 2 iolog\nf add\n";
	char *text = malloc(sizeof(head) + n * ll), *p, err[ERR_MAX] = "";
	char want[64];
	struct iolog log;

	cr_assert_not_null(text);
	p = text + sprintf(text, "%s", head);
	for (i = 0; i < n - 1; i++, p += ll)
		memcpy(p, line, ll);
	*p = '\0';
	cr_assert_eq(iolog_parse(&log, text, "t.log", err), 0, "%s", err);
	cr_assert_eq(log.n, IOLOG_MAX_ENTRIES);
	iolog_free(&log);
	memcpy(p, line, ll + 1);
	cr_assert_eq(iolog_parse(&log, text, "t.log", err), -EINVAL);
	snprintf(want, sizeof(want), "t.log:%zu: more than %u entries", n + 2,
		 IOLOG_MAX_ENTRIES);
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
	free(text);
}

Test(iolog, a_bad_log_is_refused_before_the_run)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(&sc, ONE_PATH "[r]\nread_iolog="
				    "tests/iolog/bad-action.log\n", "t.ini",
				    err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "tests/iolog/bad-action.log:4: unknown action "
			 "'frobnicate'"), "%s", err);
	scenario_free(&sc);

	/* a run that cannot read its log fails cleanly */
	cr_assert_eq(scenario_parse(&sc, ONE_PATH "[r]\nread_iolog="
				    "tests/iolog/no-such.log\n", "t.ini",
				    err), 0, "%s", err);
	{
		struct run_result res;

		cr_assert_eq(run_scenario(&sc, 1, &res, err), -EINVAL);
		cr_assert(strstr(err, "no-such.log: No such file"), "%s", err);
	}
	scenario_free(&sc);
}

/* ---- replay ---- */

Test(iolog, replay_of_fios_log_issues_every_entry)
{
	struct run_result res;

	replay(ONE_PATH, FIO_LOG, "ioengine=libaio\niodepth=4\n", &res);
	cr_assert_eq(res.total.ios, 266);
	cr_assert_eq(res.total.bytes, 1048576);
	cr_assert_eq(res.ddir_ios[DDIR_READ], 132);
	cr_assert_eq(res.ddir_ios[DDIR_WRITE], 124);
	cr_assert_eq(res.ddir_ios[DDIR_SYNC], 10);
	cr_assert_eq(res.ddir_bytes[DDIR_READ], 132 * 4096);
	cr_assert_eq(res.ddir_bytes[DDIR_SYNC], 0);
	cr_assert_eq(res.total.errors, 0);
	run_result_free(&res);
}

Test(iolog, version_2_replay_counts_and_wait)
{
	struct run_result res;

	/* four at once, the wait until 5 ms, then the last two */
	replay(WIDE_PATH, V2_LOG, "iodepth=8\n", &res);
	cr_assert_eq(res.total.ios, 6);
	cr_assert_eq(res.ddir_ios[DDIR_READ], 1);
	cr_assert_eq(res.ddir_ios[DDIR_WRITE], 2);
	cr_assert_eq(res.ddir_ios[DDIR_TRIM], 1);
	cr_assert_eq(res.ddir_ios[DDIR_SYNC], 2);
	cr_assert_eq(res.total.bytes, 8192 + 8192 + 65536);
	cr_assert_eq(res.window, 5 * NSEC_PER_MSEC + 100 * US);
	run_result_free(&res);

	/* replay_no_stall skips the wait */
	replay(WIDE_PATH, V2_LOG, "iodepth=8\nreplay_no_stall=1\n", &res);
	cr_assert_eq(res.window, 100 * US);
	run_result_free(&res);
}

Test(iolog, timed_replay_honours_the_timestamps)
{
	struct run_result res;

	/* never held by depth: the last entry goes at 5990 us */
	replay(WIDE_PATH, V3_LOG, "iodepth=8\n", &res);
	cr_assert_eq(res.total.ios, 6);
	cr_assert_eq(res.window, (5990 + 100) * US);
	cr_assert_eq(res.total.lat.max, 100 * US, "nothing queued");
	run_result_free(&res);

	/* at 200 % of the logged rate the gaps halve */
	replay(WIDE_PATH, V3_LOG, "iodepth=8\nreplay_time_scale=200\n", &res);
	cr_assert_eq(res.window, (2995 + 100) * US);
	run_result_free(&res);
}

/*
 * psync: one in flight.  fio counts each delay from the previous issue
 * and never catches up: write at 990, reads at 2990 and (held) 3090,
 * trim at 3590, write at 6090, sync (held) at 6190, done at 6290.
 */
Test(iolog, timed_replay_held_by_its_depth_does_not_catch_up)
{
	struct run_result res;

	replay(ONE_PATH, V3_LOG, "ioengine=psync\n", &res);
	cr_assert_eq(res.total.ios, 6);
	cr_assert_eq(res.window, 6290 * US);
	run_result_free(&res);
}

Test(iolog, replay_no_stall_goes_as_fast_as_the_depth_allows)
{
	struct run_result res;

	replay(ONE_PATH, V3_LOG, "ioengine=psync\nreplay_no_stall=1\n", &res);
	cr_assert_eq(res.window, 6 * 100 * US);
	run_result_free(&res);

	/* depth 2 on a path that never queues: three rounds */
	replay(WIDE_PATH, V3_LOG, "iodepth=2\nreplay_no_stall\n", &res);
	cr_assert_eq(res.window, 3 * 100 * US);
	run_result_free(&res);

	/* fio's own log, every entry back to back on the one slot */
	replay(ONE_PATH, FIO_LOG, "iodepth=16\nreplay_no_stall=1\n", &res);
	cr_assert_eq(res.window, 266 * 100 * US);
	run_result_free(&res);
}

Test(iolog, replay_skip_and_number_ios)
{
	struct run_result res;

	replay(WIDE_PATH, FIO_LOG, "iodepth=8\nreplay_skip=write,sync\n",
	       &res);
	cr_assert_eq(res.total.ios, 132);
	cr_assert_eq(res.ddir_ios[DDIR_WRITE], 0);
	run_result_free(&res);

	replay(WIDE_PATH, FIO_LOG, "iodepth=8\nnumber_ios=50\n", &res);
	cr_assert_eq(res.total.ios, 50);
	run_result_free(&res);
}

Test(iolog, every_clone_replays_the_whole_log)
{
	struct run_result res;

	replay(WIDE_PATH, V3_LOG, "iodepth=8\nnumjobs=3\n", &res);
	cr_assert_eq(res.total.ios, 18);
	cr_assert_eq(res.ddir_ios[DDIR_TRIM], 3);
	run_result_free(&res);
}

Test(iolog, command_line_replay)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(&sc, ONE_PATH "[a]\nnumber_ios=1\n",
				    "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "read_iolog", FIO_LOG, err), 0, "%s",
		     err);
	cr_assert_eq(scenario_set(&sc, "replay_no_stall", "1", err), 0, "%s",
		     err);
	cr_assert_str_eq(sc.jobs[0].read_iolog, FIO_LOG);
	cr_assert(sc.jobs[0].replay_no_stall);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "read_iolog", "a.log:b.log", err),
		     -EINVAL);
	cr_assert(strstr(err, "--read_iolog: a list of logs"), "%s", err);
	scenario_free(&sc);
}
