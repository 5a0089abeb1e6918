/*
 * test_table.c: the multipath table line read as the kernel's
 * multipath_ctr reads it (dm-mpath.c, 6.1: parse_features,
 * parse_hw_handler, parse_priority_group, parse_path, with their
 * ti->error strings), the short form grouped as multipathd groups it, and
 * `dmsetup table` / `dmsetup status` lines held against the worked
 * examples of the kernel's documentation
 * (Documentation/admin-guide/device-mapper/dm-service-time.rst and
 * dm-queue-length.rst) and multipath_status.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "sim/run.h"
#include "sim/series.h"
#include "input/scenario.h"
#include "input/table.h"

/* Two paths named as the sd driver numbers them: sda is 8:0, sdb 8:16. */
#define SDA_SDB	"[path sda]\nservice = exp:1ms\n[path sdb]\nservice = exp:1ms\n" \
		"[j]\nnumber_ios = 10\n"

static void scenario_with_table(struct scenario *sc, const char *table,
				const char *paths)
{
	char text[4096], err[ERR_MAX] = "";

	mpsim_quiet = 1;
	snprintf(text, sizeof(text), "[multipath]\ntable = %s\n%s", table,
		 paths);
	cr_assert_eq(scenario_parse(sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

/* The device's two lines as created, before any I/O. */
static char *created(const char *table, const char *paths)
{
	struct scenario sc;
	char err[ERR_MAX] = "", *out = NULL;

	scenario_with_table(&sc, table, paths);
	cr_assert_eq(run_dmsetup_created(&sc, &out, err), 0, "%s", err);
	scenario_free(&sc);
	return out;
}

/*
 * dm-service-time.rst's example, as 6.1 prints it.  Two differences from
 * the document, both read in the 6.1 source: the per-path repeat_count
 * 128 is printed as 1 (service-time forces it to 1 since 4.11, docs/kernel-model.md
 * §2.5), and the status's first feature word, MPATHF_QUEUE_IO, is 1
 * until the first I/O, since alloc_multipath_stage2 sets it
 * unconditionally (the document predates that).  Every word the kernel
 * emits is followed by a space, the last one too.
 */
Test(dmsetup, service_time_documentation_example)
{
	char *out = created("0 10 multipath 0 0 1 1 service-time 0 2 2 "
			    "8:0 128 1 8:16 128 4", SDA_SDB);

	/* the document: "0 10 multipath 2 0 0 0 1 1 E 0 2 2 8:0 A 0 0 1
	 * 8:16 A 0 0 4" and "0 10 multipath 0 0 1 1 service-time 0 2 2
	 * 8:0 128 1 8:16 128 4" */
	cr_assert_str_eq(out,
		"0 10 multipath 2 1 0 0 1 1 E 0 2 2 8:0 A 0 0 1 8:16 A 0 0 4 \n"
		"0 10 multipath 0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 4 \n");
	free(out);
	out = created("0 10 multipath 0 0 1 1 service-time 0 2 2 8:0 128 2 "
		      "8:16 128 8", SDA_SDB);
	cr_assert_str_eq(out,
		"0 10 multipath 2 1 0 0 1 1 E 0 2 2 8:0 A 0 0 2 8:16 A 0 0 8 \n"
		"0 10 multipath 0 0 1 1 service-time 0 2 2 8:0 1 2 8:16 1 8 \n");
	free(out);
}

/* dm-queue-length.rst's: "0 10 multipath 2 0 0 0 1 1 E 0 2 1 8:0 A 0 0
 * 8:16 A 0 0" (the same two differences). */
Test(dmsetup, queue_length_documentation_example)
{
	char *out = created("0 10 multipath 0 0 1 1 queue-length 0 2 1 8:0 128 "
			    "8:16 128", SDA_SDB);

	cr_assert_str_eq(out,
		"0 10 multipath 2 1 0 0 1 1 E 0 2 1 8:0 A 0 0 8:16 A 0 0 \n"
		"0 10 multipath 0 0 1 1 queue-length 0 2 1 8:0 1 8:16 1 \n");
	free(out);
}

/*
 * The line: two groups, service-time then HST.  HST's selector
 * words are "2 <base weight> <threshold>", its table words per path
 * always "0", its info "<hst> <outstanding> <stale_after>" with hst
 * starting at HST_FIXED_1 = 1024 (docs/kernel-model.md §3.2, §3.3).  pg_num is the
 * initial group (next_pg) until a path is chosen.
 */
Test(dmsetup, two_groups_with_their_own_selectors)
{
	char *out = created("0 2097152 multipath 1 queue_if_no_path 0 2 1 "
			    "service-time 0 2 2 8:48 1 1 8:64 1 1 "
			    "historical-service-time 2 972 0 1 1 8:80 1",
			    "[path a]\ndev = 8:48\nservice = exp:1ms\n"
			    "[path b]\ndev = 8:64\nservice = exp:1ms\n"
			    "[path sdf]\nservice = exp:1ms\n"
			    "[j]\nnumber_ios = 10\n");

	cr_assert_str_eq(out,
		"0 2097152 multipath 2 1 0 0 2 1 E 0 2 2 8:48 A 0 0 1 "
		"8:64 A 0 0 1 E 2 972 0 1 3 8:80 A 0 1024 0 0 \n"
		"0 2097152 multipath 1 queue_if_no_path 0 2 1 service-time 0 "
		"2 2 8:48 1 1 8:64 1 1 historical-service-time 2 972 0 1 1 "
		"8:80 0 \n");
	free(out);
}

/*
 * Features as multipath_status counts them: queue_if_no_path 1,
 * pg_init_retries 2, pg_init_delay_msecs 2, retain_attached_hw_handler 1,
 * queue_mode bio 2; bio mode always retains the attached handler
 * (alloc_multipath_stage2) and skips a handler given in the table; a
 * handler prints as "1 NAME" in the table and "0" in the status.
 */
Test(dmsetup, features_and_handler_as_the_kernel_counts_them)
{
	char *out = created("0 8 multipath 2 queue_mode bio 1 alua 1 1 "
			    "round-robin 0 2 0 8:0 8:16", SDA_SDB);

	cr_assert_str_eq(out,
		"0 8 multipath 2 1 0 0 1 1 E 0 2 0 8:0 A 0 8:16 A 0 \n"
		"0 8 multipath 3 retain_attached_hw_handler queue_mode bio 0 1 1 "
		"round-robin 0 2 1 8:0 1 8:16 1 \n");
	free(out);
	out = created("0 8 multipath 7 QUEUE_IF_NO_PATH pg_init_retries 3 "
		      "pg_init_delay_msecs 0 queue_mode mq 1 alua 1 1 "
		      "round-robin 0 2 0 8:0 8:16", SDA_SDB);
	cr_assert_str_eq(out,
		"0 8 multipath 2 1 0 0 1 1 E 0 2 0 8:0 A 0 8:16 A 0 \n"
		"0 8 multipath 5 queue_if_no_path pg_init_retries 3 "
		"pg_init_delay_msecs 0 1 alua 1 1 round-robin 0 2 1 8:0 1 "
		"8:16 1 \n");
	free(out);
}

/* A line the kernel refuses is refused with its ti->error. */
static void table_bad(const char *line, const char *paths, const char *want)
{
	struct scenario sc;
	char text[4096], err[ERR_MAX] = "";
	int r;

	mpsim_quiet = 1;
	snprintf(text, sizeof(text), "[multipath]\ntable = %s\n%s", line,
		 paths);
	r = scenario_parse(&sc, text, "t.ini", err);
	if (!r) {
		r = scenario_validate(&sc, err);
		scenario_free(&sc);
	}
	cr_assert_eq(r, -EINVAL, "accepted: %s", line);
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
	cr_assert_null(strchr(err, '\n'));
}

Test(table, the_kernels_errors)
{
	table_bad("0 10 multipath 9", SDA_SDB,
		  "t.ini:2: table: invalid number of feature args (word 4 '9')");
	table_bad("2 queue_if_no_path", SDA_SDB,
		  "invalid number of feature args (word 1 '2')");
	table_bad("1 queue_if_no_path", SDA_SDB,
		  "invalid number of hardware handler args (at the end of the line)");
	table_bad("1 frobnicate 0 1 1 round-robin 0 1 0 8:0", SDA_SDB,
		  "Unrecognised multipath feature request (word 2 'frobnicate')");
	table_bad("2 pg_init_retries 51 0 1 1 round-robin 0 1 0 8:0", SDA_SDB,
		  "pg_init_retries must be between 1 and 50 (word 3 '51')");
	table_bad("2 pg_init_delay_msecs 60001 0 1 1 round-robin 0 1 0 8:0",
		  SDA_SDB, "pg_init_delay_msecs must be between 0 and 60000");
	/* a feature wanting a value, given none, is unrecognised */
	table_bad("1 pg_init_retries 0 1 1 round-robin 0 1 0 8:0", SDA_SDB,
		  "Unrecognised multipath feature request");
	table_bad("2 queue_mode foo 0 1 1 round-robin 0 1 0 8:0", SDA_SDB,
		  "Unknown 'queue_mode' requested (word 3 'foo')");
	table_bad("0 1 nope 1 1 round-robin 0 1 0 8:0", SDA_SDB,
		  "error attaching hardware handler (word 3 'nope')");
	table_bad("0 0 1 0 round-robin 0 1 0 8:0", SDA_SDB,
		  "invalid initial priority group");
	table_bad("0 0 0 1", SDA_SDB, "invalid initial priority group");
	table_bad("0 0 2 1 round-robin 0 2 0 8:0 8:16", SDA_SDB,
		  "priority group count mismatch");
	table_bad("0 0 1 1 round-robin 0 1 0 8:0 round-robin 0 1 0 8:16",
		  SDA_SDB, "priority group count mismatch");
	table_bad("0 0 1 1 frob 0 1 0 8:0", SDA_SDB,
		  "unknown path selector type (word 5 'frob')");
	/* mpsim's aliases are not kernel names */
	table_bad("0 0 1 1 hst 0 1 0 8:0", SDA_SDB, "unknown path selector type");
	table_bad("0 0 1 1 round-robin 5 1 0 8:0", SDA_SDB,
		  "invalid number of path selector args (word 6 '5')");
	table_bad("0 0 1 1 round-robin 0 0 0", SDA_SDB,
		  "invalid number of paths (word 7 '0')");
	table_bad("0 0 1 1 round-robin 0 1 1025 8:0", SDA_SDB,
		  "invalid number of selector args");
	table_bad("0 0 1 1 round-robin 0 2 1 8:0 1 8:16", SDA_SDB,
		  "not enough path parameters (word 11 '8:16')");
	table_bad("0 0 1 1 round-robin", SDA_SDB,
		  "not enough priority group arguments");
	table_bad("0 0 1 1 round-robin 0 1 0 8:99", SDA_SDB,
		  "error getting device: no [path] section has dev = 8:99");
	table_bad("0 0 1 1 round-robin 0 2 0 8:0 sda", SDA_SDB,
		  "already in the table");
	table_bad("0 0 1 1 round-robin 0 1 0 8:0", SDA_SDB,
		  "t.ini: table: [path sdb] is in no priority group of the table");
	table_bad("x 10 multipath 0 0 0 0", SDA_SDB, "invalid start sector");
}

/* The selectors read their words when the device is built, as the
 * kernel's constructors do; the refusal names the path. */
Test(table, selector_words_are_the_selectors_to_refuse)
{
	struct scenario sc;
	char err[ERR_MAX] = "", *out = NULL;

	scenario_with_table(&sc, "0 0 1 1 round-robin 0 2 1 8:0 x 8:16 1",
			    SDA_SDB);
	cr_assert_eq(run_dmsetup_created(&sc, &out, err), -EINVAL);
	cr_assert(strstr(err, "[path sda] path_args: round-robin"), "%s", err);
	cr_assert_null(out);
	scenario_free(&sc);
	scenario_with_table(&sc, "0 0 1 1 historical-service-time 1 1024 2 0 "
			    "8:0 8:16", SDA_SDB);
	cr_assert_eq(run_dmsetup_created(&sc, &out, err), -EINVAL);
	cr_assert(strstr(err, "historical-service-time"), "%s", err);
	scenario_free(&sc);
}

/* Devices bind by dev = MAJ:MIN, by the sd numbers of an sdX name, or by
 * name (with or without /dev/); "NAME:" before the line is dmsetup's. */
Test(table, devices_bind_by_number_or_name)
{
	struct scenario sc;
	struct mp_table t;
	char err[ERR_MAX] = "";

	scenario_with_table(&sc, "mpatha: 0 10 multipath 0 0 2 2 round-robin 0 "
			    "1 0 /dev/sdb round-robin 0 2 0 8:0 65:0",
			    "[path sda]\nservice = exp:1ms\n"
			    "[path sdb]\nservice = exp:1ms\n"
			    "[path sdq]\nservice = exp:1ms\n"
			    "[j]\nnumber_ios = 10\n");
	cr_assert_eq(mp_table_from_scenario(&t, &sc, err), 0, "%s", err);
	cr_assert_eq(t.nr_pgs, 2);
	cr_assert_eq(t.next_pg_num, 2);
	cr_assert_eq(t.pgs[0].paths[0].path, 1, "/dev/sdb");
	cr_assert_eq(t.pgs[1].paths[0].path, 0, "8:0 is sda");
	cr_assert_eq(t.pgs[1].paths[1].path, 2, "65:0 is sdq, the 17th disk");
	cr_assert_not(t.bio, "no queue_mode: request-based");
	cr_assert_eq(sc.mode, MODE_REQUEST, "the table sets the mode");
	mp_table_free(&t);
	scenario_free(&sc);
}

/* After a table, the keys it gives are refused. */
Test(table, keys_the_table_gives_are_refused_after_it)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	scenario_with_table(&sc, "0 0 1 1 round-robin 0 2 0 8:0 8:16", SDA_SDB);
	cr_assert_str_eq(sc.selector, "round-robin");
	cr_assert_eq(scenario_set(&sc, "selector", "st", err), -EINVAL);
	cr_assert(strstr(err, "--selector: the table line gives it"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "queue_if_no_path", "1", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "mode", "bio", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "path_grouping_policy", "failover",
				  err), -EINVAL);
	scenario_free(&sc);
}

/*
 * multipathd's grouping of the short form: failover one path per group,
 * group_by_prio one group per prio, both sorted by descending prio with
 * equal ones in the paths' order; multibus one group in the paths' order.
 */
Test(table, path_grouping_policies)
{
	static const char text[] =
		"[multipath]\nselector = st\nmode = request\n"
		"[path a]\nservice = exp:1ms\nprio = non-optimized\n"
		"[path b]\nservice = exp:1ms\nprio = optimized\n"
		"[path c]\nservice = exp:1ms\nprio = 10\n"
		"[path d]\nservice = exp:1ms\nprio = 50\n"
		"[j]\nnumber_ios = 10\n";
	struct scenario sc;
	struct mp_table t;
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(sc.paths[1].prio, 50, "ALUA optimized is 50");
	cr_assert_eq(sc.paths[0].prio, 10, "ALUA non-optimized is 10");
	cr_assert_eq(mp_table_from_scenario(&t, &sc, err), 0, "%s", err);
	cr_assert_eq(t.nr_pgs, 1);
	cr_assert_eq(t.pgs[0].nr_paths, 4);
	cr_assert_eq(t.pgs[0].paths[0].path, 0);
	cr_assert_str_eq(t.pgs[0].selector, "service-time", "kernel name");
	mp_table_free(&t);

	cr_assert_eq(scenario_set(&sc, "path_grouping_policy", "group_by_prio",
				  err), 0, "%s", err);
	cr_assert_eq(mp_table_from_scenario(&t, &sc, err), 0, "%s", err);
	cr_assert_eq(t.nr_pgs, 2);
	cr_assert_eq(t.next_pg_num, 1);
	cr_assert_eq(t.pgs[0].nr_paths, 2);
	cr_assert_eq(t.pgs[0].paths[0].path, 1);
	cr_assert_eq(t.pgs[0].paths[1].path, 3);
	cr_assert_eq(t.pgs[1].paths[0].path, 0);
	cr_assert_eq(t.pgs[1].paths[1].path, 2);
	mp_table_free(&t);

	cr_assert_eq(scenario_set(&sc, "path_grouping_policy", "failover",
				  err), 0, "%s", err);
	cr_assert_eq(mp_table_from_scenario(&t, &sc, err), 0, "%s", err);
	cr_assert_eq(t.nr_pgs, 4);
	cr_assert_eq(t.pgs[0].paths[0].path, 1);
	cr_assert_eq(t.pgs[1].paths[0].path, 3);
	cr_assert_eq(t.pgs[2].paths[0].path, 0);
	cr_assert_eq(t.pgs[3].paths[0].path, 2);
	mp_table_free(&t);
	scenario_free(&sc);
}

/*
 * A disabled group shows D (bypass_pg), whatever else it is; a switch
 * that waits for pg_init shows QUEUE_IO 1 and the pg_init count.  Two
 * groups, request mode, alua with a 1 s pg_init: the run's first I/O
 * switches to group 1 and starts its pg_init, which is still running
 * at 10 ms (the status of the first 10 ms interval); disable_group 2 at
 * 5 ms marks group 2, and bypass_pg drops the current group whichever
 * group it disables (current_pg = NULL), so group 1 shows E and pg_num
 * falls back to 1.  The runtime ends at 10 ms with the I/O still held,
 * and the job waits for it: once pg_init is done, at 1 s, it completes
 * on sda, and the status at the end shows group 1 in use.
 */
Test(dmsetup, disabled_groups_and_pg_init_in_the_status)
{
	static const char at_10ms[] = "# 0.010000 s\n"
		"0 2097152 multipath 2 1 1 0 2 1 E 0 1 0 8:0 A 0 D 0 1 0 8:16 A 0 \n"
		"0 2097152 multipath 0 1 alua 2 1 round-robin 0 1 1 8:0 1 "
		"round-robin 0 1 1 8:16 1 \n# ";
	struct run_watch w = { .interval = 10 * NSEC_PER_MSEC, .dmsetup = true };
	struct scenario sc;
	struct run_result r;
	char err[ERR_MAX] = "";

	mpsim_quiet = 1;
	cr_assert_eq(scenario_parse(&sc,
		"[multipath]\nselector = round-robin\nmode = request\n"
		"path_grouping_policy = failover\nhardware_handler = alua\n"
		"pg_init_time = 1s\nmessage = disable_group 2 at 5ms\n"
		SDA_SDB "runtime = 10ms\n", "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario_watched(&sc, 1, &w, &r, err), 0, "%s", err);
	cr_assert(r.series && r.series->dmsetup);
	cr_assert_eq(strncmp(r.series->dmsetup, at_10ms, strlen(at_10ms)), 0,
		     "%s", r.series->dmsetup);
	cr_assert_eq(r.path[0].ios, 1, "the held I/O, after pg_init");
	cr_assert(strstr(r.dmsetup, " 2 1 A 0 1 0 8:0 A 0 D 0 1 0 8:16 A 0 \n"),
		  "%s", r.dmsetup);
	run_result_free(&r);
	scenario_free(&sc);
}

/*
 * The table and the short form build the same device: one group of
 * service-time over sda and sdb in bio mode with queue_if_no_path,
 * written both ways, gives the same run, I/O for I/O.
 */
Test(table, a_table_and_its_short_form_run_alike)
{
	static const char paths[] =
		"[path sda]\nservice = exp:100us\n"
		"[path sdb]\nservice = exp:300us\nslots = 2\n"
		"[j]\nrw = randread\niodepth = 16\nruntime = 200ms\n";
	struct scenario a, b;
	struct run_result ra, rb;
	char text[2048], err[ERR_MAX] = "";
	unsigned i;

	scenario_with_table(&a, "0 2097152 multipath 3 queue_if_no_path "
			    "queue_mode bio 0 1 1 service-time 0 2 2 8:0 1 1 "
			    "8:16 1 3", paths);
	snprintf(text, sizeof(text), "[multipath]\nmode = bio\n"
		 "queue_if_no_path = 1\nselector = st\n%s", paths);
	cr_assert_eq(scenario_parse(&b, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&b, "path.sdb.path_args", "1 3", err), 0,
		     "%s", err);
	cr_assert_eq(run_scenario(&a, 3, &ra, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&b, 3, &rb, err), 0, "%s", err);
	cr_assert_gt(ra.total.ios, 1000);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(ra.path[i].ios, rb.path[i].ios);
		cr_assert_eq(ra.path[i].lat.sum, rb.path[i].lat.sum);
	}
	cr_assert_str_eq(ra.dmsetup, rb.dmsetup);
	run_result_free(&ra);
	run_result_free(&rb);
	scenario_free(&a);
	scenario_free(&b);
}

/*
 * Where the reader follows the kernel in small ways: kstrtouint takes a
 * leading '+' and refuses a number past its type (-ERANGE, never
 * saturated); dm_split_args splits at isspace(), \v \f \r included, and
 * takes "\ " as a quoted space; dm_table_add_target refuses a first
 * target that does not start at sector 0 ("Gap in table"), a length of
 * 0 and a range past LLONG_MAX >> 9; a target type other than multipath
 * is said to be one.
 */
Test(table, the_kernels_words_and_numbers)
{
	struct mp_table t;
	char err[ERR_MAX] = "";

	cr_assert_eq(mp_table_parse(&t, "+0 +10 multipath +0 +0 +1 +1 "
				    "round-robin +0 +2 +0 8:0 8:16", NULL,
				    err), 0, "%s", err);
	cr_assert_eq(t.len, 10);
	cr_assert_eq(t.nr_pgs, 1);
	cr_assert_eq(t.pgs[0].nr_paths, 2);
	mp_table_free(&t);
	cr_assert_eq(mp_table_parse(&t, "0\v10\fmultipath\r0 0 1 1\t"
				    "round-robin 0 2 0 8:0 8:16", NULL, err),
		     0, "%s", err);
	cr_assert_eq(t.len, 10);
	cr_assert_eq(t.pgs[0].nr_paths, 2);
	mp_table_free(&t);
	/* a backslash quotes the next character: "8\:0" is the word 8:0 */
	cr_assert_eq(mp_table_parse(&t, "0 0 1 1 round-robin 0 1 0 8\\:0",
				    NULL, err), 0, "%s", err);
	mp_table_free(&t);
	table_bad("8 10 multipath 0 0 1 1 round-robin 0 2 0 8:0 8:16", SDA_SDB,
		  "Gap in table");
	table_bad("0 0 multipath 0 0 1 1 round-robin 0 2 0 8:0 8:16", SDA_SDB,
		  "zero-length target (word 2 '0')");
	table_bad("0 18446744073709551616 multipath 0 0 1 1 round-robin 0 2 0 "
		  "8:0 8:16", SDA_SDB, "invalid length: past 2^64-1");
	table_bad("18446744073709551616 10 multipath 0 0 1 1 round-robin 0 2 0 "
		  "8:0 8:16", SDA_SDB, "invalid start sector: past 2^64-1");
	table_bad("0 18446744073709551615 multipath 0 0 1 1 round-robin 0 2 0 "
		  "8:0 8:16", SDA_SDB, "too large device");
	/* 2^64 + 1 features is not 2^64 - 1 of them, nor 1 */
	table_bad("18446744073709551617 queue_if_no_path 0 1 1 round-robin 0 2 "
		  "0 8:0 8:16", SDA_SDB,
		  "invalid number of feature args (word 1 '18446744073709551617')");
	table_bad("0 4294967297 1 1 round-robin 0 2 0 8:0 8:16", SDA_SDB,
		  "invalid number of hardware handler args");
	table_bad("-0 0 1 1 round-robin 0 2 0 8:0 8:16", SDA_SDB,
		  "invalid number of feature args");
	table_bad("0 5 linear /dev/sda 0", SDA_SDB,
		  "a linear target: mpsim models the multipath target alone "
		  "(word 3 'linear')");
	table_bad("0 5 zero", SDA_SDB, "a zero target: mpsim models the "
		  "multipath target alone");
	/* a third word that is no target type is the line's own: a bare
	 * line names a hardware handler there */
	table_bad("0 5 frob 0 0 1 1 round-robin 0 2 0 8:0 8:16", SDA_SDB,
		  "error attaching hardware handler (word 3 'frob')");
}

/* The table mpsim prints for a device of 100 paths reads back as the
 * same device: no line length limit stands in the way. */
Test(table, a_long_printed_table_reads_back)
{
	size_t cap = 1 << 16, n = 0;
	char *text = malloc(cap), *again = malloc(cap), err[ERR_MAX] = "";
	char *out = NULL, *out2 = NULL, *line;
	struct scenario sc;
	unsigned i;

	mpsim_quiet = 1;
	n += (size_t)snprintf(text + n, cap - n, "[multipath]\nmode = request\n"
			      "selector = service-time\n");
	for (i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, cap - n, "[path p%u]\ndev = "
				      "%u:%u\nservice = exp:1ms\n", i, 8 + i,
				      16 * i);
	n += (size_t)snprintf(text + n, cap - n, "[j]\nnumber_ios = 10\n");
	cr_assert_lt(n, cap - 1);
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_dmsetup_created(&sc, &out, err), 0, "%s", err);
	scenario_free(&sc);
	line = strchr(out, '\n') + 1;		/* the table, after the status */
	cr_assert_gt(strlen(line), 1100, "%zu", strlen(line));
	snprintf(again, cap, "[multipath]\ntable = %.*s\n%s",
		 (int)strcspn(line, "\n"), line, strstr(text, "[path p0]"));
	cr_assert_eq(scenario_parse(&sc, again, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_dmsetup_created(&sc, &out2, err), 0, "%s", err);
	cr_assert_str_eq(out2, out);
	scenario_free(&sc);
	free(out);
	free(out2);
	free(text);
	free(again);
}

/* An io-affinity mask for CPU 508, the kernel's 8-digit chunks a comma
 * apart: 143 characters of per-path arguments. */
Test(table, an_io_affinity_mask_past_cpu_507)
{
	char table[512], err[ERR_MAX] = "", *out = NULL, mask[160] = "10000000";
	struct scenario sc;
	unsigned i;

	for (i = 0; i < 15; i++)
		strcat(mask, ",00000000");
	snprintf(table, sizeof(table), "0 10 multipath 0 0 1 1 io-affinity 0 "
		 "2 1 8:0 1 8:16 %s", mask);
	scenario_with_table(&sc, table, "ncpus = 1024\n" SDA_SDB);
	cr_assert_eq(run_dmsetup_created(&sc, &out, err), 0, "%s", err);
	cr_assert(strstr(out, mask), "%s", out);
	scenario_free(&sc);
	free(out);
}
