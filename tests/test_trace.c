/*
 * test_trace.c: a trace only watches.  A run that writes --trace and
 * --blktrace gives the very result of the same run without them (every
 * counter and every latency bucket), for each selector, with path
 * failures, requeues and dm-delay holds in the run so that every hook
 * fires; and the trace files are there afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"
#include "sim/trace.h"

static void set_ok(struct scenario *sc, const char *key, const char *val)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_set(sc, key, val, err), 0, "%s=%s: %s", key,
		     val, err);
}

static void same_stats(const struct path_stats *a, const struct path_stats *b,
		       const char *what)
{
	cr_assert_eq(a->ios, b->ios, "%s: ios", what);
	cr_assert_eq(a->bytes, b->bytes, "%s: bytes", what);
	cr_assert_eq(a->errors, b->errors, "%s: errors", what);
	cr_assert_eq(a->starts, b->starts, "%s: starts", what);
	cr_assert_eq(a->busy, b->busy, "%s: busy", what);
	cr_assert_eq(memcmp(&a->lat, &b->lat, sizeof(a->lat)), 0,
		     "%s: latency histogram", what);
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* by index: a test instance runs in a process of its own, where the
 * parent's pointers mean nothing */
static const char *const selectors[] = { "rr", "ql", "st", "hst" };

ParameterizedTestParameters(trace, changes_no_result)
{
	static unsigned sel[] = { 0, 1, 2, 3 };

	return cr_make_param_array(unsigned, sel, ARRAY_SIZE(sel));
}

ParameterizedTest(unsigned *sel, trace, changes_no_result)
{
	char dir[] = "/tmp/mpsim-trace-XXXXXX", file[64], blk[64], err[ERR_MAX];
	struct run_result plain, traced;
	struct trace_conf tc;
	struct scenario sc;
	unsigned i;

	cr_assert(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/t.jsonl", dir);
	snprintf(blk, sizeof(blk), "%s/blk", dir);
	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s",
		     err);
	set_ok(&sc, "selector", selectors[*sel]);
	set_ok(&sc, "clock", "jiffies");
	set_ok(&sc, "ramp_time", "0");
	set_ok(&sc, "runtime", "40ms");
	set_ok(&sc, "delay", "1");
	set_ok(&sc, "fail", "sdd at 10ms");
	set_ok(&sc, "reinstate", "sdd at 20ms");
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);

	memset(&tc, 0, sizeof(tc));
	tc.file = file;
	tc.blktrace = blk;
	tc.until = UINT64_MAX;
	cr_assert_eq(run_scenario(&sc, 7, &plain, err), 0, "%s", err);
	cr_assert_eq(run_scenario_traced(&sc, 7, &tc, &traced, err), 0, "%s",
		     err);

	cr_assert_gt(plain.requeued, 0, "the failure requeued nothing");
	for (i = 0; i < plain.nr_paths; i++)
		same_stats(&plain.path[i], &traced.path[i], plain.names[i]);
	same_stats(&plain.total, &traced.total, "total");
	cr_assert_eq(plain.no_path, traced.no_path);
	cr_assert_eq(plain.requeued, traced.requeued);
	cr_assert_eq(plain.failed, traced.failed);
	cr_assert_eq(plain.window, traced.window);
	cr_assert_eq(plain.events, traced.events);
	cr_assert_eq(plain.ios_simulated, traced.ios_simulated);
	cr_assert_eq(plain.issued, traced.issued);

	/* the outputs are in place, and no temporary is left */
	cr_assert_gt(file_size(file), 0);
	{
		char p[96];

		snprintf(p, sizeof(p), "%s/dm-0.blktrace.0", blk);
		cr_assert_gt(file_size(p), 0);
		snprintf(p, sizeof(p), "%s/sdd.blktrace.0", blk);
		cr_assert_gt(file_size(p), 0);
		snprintf(p, sizeof(p), "%s/sdd.blktrace.0.tmp", blk);
		cr_assert_eq(file_size(p), -1);
		snprintf(p, sizeof(p), "%s.tmp", file);
		cr_assert_eq(file_size(p), -1);
	}
	run_result_free(&plain);
	run_result_free(&traced);
	scenario_free(&sc);
	{
		char cmd[96];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		cr_assert_eq(system(cmd), 0);
	}
}

/* A trace that cannot be written fails the run and leaves nothing. */
Test(trace, unwritable_file_fails_the_run)
{
	char err[ERR_MAX] = "";
	struct run_result res;
	struct trace_conf tc;
	struct scenario sc;

	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s",
		     err);
	set_ok(&sc, "runtime", "1ms");
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	memset(&tc, 0, sizeof(tc));
	tc.file = "/nonexistent-dir/t.jsonl";
	tc.until = UINT64_MAX;
	cr_assert_eq(run_scenario_traced(&sc, 1, &tc, &res, err), -EIO);
	cr_assert(strstr(err, "--trace: cannot create"), "%s", err);
	scenario_free(&sc);
}
