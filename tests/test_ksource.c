/*
 * test_ksource.c: --selector-source's plugin machinery, on selector files
 * written for these tests in the kernel's style (tests/ksrc/): the build
 * and its cache, the clocks and CPU the plugin sees, %*pb and DMEMIT
 * through kcompat/, the kernel's error strings, and refusals.
 * (linux-source-6.1's own files are checked by `make kernel-check`.)
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "selectors/ksource.h"
#include "selectors/selector.h"
#include "report/report.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"
#include "sim/clock.h"
#include "sim/stats.h"
#include "tests/plugin-cache.h"

#define TOY	"tests/ksrc/dm-ps-toy.c"

static char cache[64];
static char err[ERR_MAX];

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

/* Plugins are built in a cache of the test's own, removed after it. */
static void ks_init(void)
{
	mpsim_quiet = 1;
	snprintf(cache, sizeof(cache), "/tmp/mpsim-ksrc-test-XXXXXX");
	cr_assert_not_null(mkdtemp(cache));
	setenv("XDG_CACHE_HOME", cache, 1);
}

static void ks_fini(void)
{
	nftw(cache, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(ksource, .init = ks_init, .fini = ks_fini);

/*
 * The tests that are not about the build or its cache but need a plugin
 * share one cache, made by the runner before the tests and removed
 * after them (each test runs in a process of its own): the toy is
 * compiled once for them, not once each (about a second of CPU each).
 * The tests of the cache keep their own, fresh.  Two tests building the
 * same plugin at once is what the cache allows for (the build is
 * renamed into place).
 */
#define SHARED_ENV "MPSIM_KSRC_TEST_SHARED"
static char shared[64];

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	snprintf(shared, sizeof(shared), "/tmp/mpsim-ksrc-shared-XXXXXX");
	if (mkdtemp(shared))
		setenv(SHARED_ENV, shared, 1);
	else
		shared[0] = '\0';
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	if (shared[0])
		nftw(shared, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The shared cache, for a test's .init (after the suite's). */
void test_plugin_cache(void)
{
	const char *dir = getenv(SHARED_ENV);

	cr_assert(dir && *dir, "no shared plugin cache");
	setenv("XDG_CACHE_HOME", dir, 1);
}

static void ks_shared_quiet(void)
{
	test_plugin_cache();
	cr_redirect_stderr();
}

Test(ksource, loads_and_caches)
{
	const struct ps_type *t = ps_source_load(TOY, err);
	char dir[4096];

	cr_assert_not_null(t, "%s", err);
	cr_assert_str_eq(t->name, "toy");
	cr_assert_str_eq(t->kernel_file, TOY);
	/* DM_PS_USE_HR_TIMER carried over; the file reads its own clocks */
	cr_assert_eq(t->features, PS_USE_HR_TIMER | PS_READS_CLOCKS);
	cr_assert_eq(t->table_args, 1);
	cr_assert_eq(t->info_args, 5);
	cr_assert_eq(ps_source_load(TOY, err), t, "loaded once per process");
	cr_assert_eq(ps_source_cache_dir(dir, err), 0, "%s", err);
	cr_assert(!strncmp(dir, cache, strlen(cache)), "%s", dir);
	cr_assert_eq(ps_type_of("toy", TOY, err), t);
	cr_assert_eq(ps_type_of("rr", "", err), ps_find("round-robin"));
}

/* The cache is a directory of ours alone: one readable by others is made
 * mode 0700; one others can write, or a link, is refused. */
Test(ksource, the_cache_is_ours_alone)
{
	char mp[128];
	struct stat st;

	snprintf(mp, sizeof(mp), "%s/mpsim", cache);
	cr_assert_eq(mkdir(mp, 0700), 0);
	cr_assert_eq(chmod(mp, 0755), 0);
	cr_assert_not_null(ps_source_load(TOY, err), "%s", err);
	cr_assert_eq(stat(mp, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0700);
}

Test(ksource, a_cache_others_can_write_or_a_link_is_refused)
{
	char mp[128], other[128];

	snprintf(mp, sizeof(mp), "%s/mpsim", cache);
	cr_assert_eq(mkdir(mp, 0700), 0);
	cr_assert_eq(chmod(mp, 0777), 0);
	cr_assert_null(ps_source_load(TOY, err));
	cr_assert(strstr(err, "the plugin cache is writable by others"), "%s",
		  err);
	cr_assert_eq(rmdir(mp), 0);
	snprintf(other, sizeof(other), "%s/elsewhere", cache);
	cr_assert_eq(mkdir(other, 0700), 0);
	cr_assert_eq(symlink("elsewhere", mp), 0);
	cr_assert_null(ps_source_load(TOY, err));
	cr_assert(strstr(err, "the plugin cache is a symbolic link"), "%s",
		  err);
}

/* A cache in a directory others can write is refused before anything
 * is made there. */
Test(ksource, a_cache_below_a_shared_directory_is_refused_unmade)
{
	char open_dir[128], xdg[160];
	struct stat st;

	snprintf(open_dir, sizeof(open_dir), "%s/open", cache);
	cr_assert_eq(mkdir(open_dir, 0700), 0);
	cr_assert_eq(chmod(open_dir, 0777), 0);
	snprintf(xdg, sizeof(xdg), "%s/xdg", open_dir);
	setenv("XDG_CACHE_HOME", xdg, 1);
	cr_assert_null(ps_source_load(TOY, err));
	cr_assert(strstr(err, "can be written by others and is not sticky"),
		  "%s", err);
	cr_assert_neq(lstat(xdg, &st), 0, "%s was made", xdg);
}

/*
 * The plugin's ktime_get_ns() is the `now` it is handed, sched_clock()
 * the scenario's model at now (ktime + 1000 ns here), jiffies those of
 * HZ=1000 (INITIAL_JIFFIES 2^32 - 300000, plus 5000 ticks in 5 s), and
 * get_cpu() the submitting CPU.
 */
Test(ksource, plugin_reads_the_simulated_clocks_and_cpu, .init = test_plugin_cache)
{
	const struct ps_type *t = ps_source_load(TOY, err);
	struct sched_clock sched = { .offset = 1000 };
	struct path_selector ps = { .nr_cpu_ids = 40, .hz = 1000,
				    .sched = &sched, .cpu = 3 };
	struct ps_path p = { .name = "sda" }, *pp = &p;
	char buf[128];

	cr_assert_not_null(t, "%s", err);
	cr_assert_eq(ps_init(&ps, t, "", err), 0, "%s", err);
	cr_assert_eq(ps_add_path(&ps, &p, "1,3", err), 0, "%s", err);
	cr_assert_eq(t->select_path(&ps, 4096, 5 * NSEC_PER_SEC), &p);
	t->end_io(&ps, &p, 4096, 777, 6 * NSEC_PER_SEC);
	t->status(&ps, &p, PS_STATUS_INFO, buf, sizeof(buf));
	cr_assert_str_eq(buf, "5000000000 5000001000 4294672296 3 777 ");
	/* %*pb of a 40-bit mask: 2 digits, then a full chunk */
	t->status(&ps, &p, PS_STATUS_TABLE, buf, sizeof(buf));
	cr_assert_str_eq(buf, "01,00000003 ");
	t->status(&ps, NULL, PS_STATUS_INFO, buf, sizeof(buf));
	cr_assert_str_eq(buf, "1 ");
	/* DMEMIT stops at maxlen, as scnprintf does */
	cr_assert_eq(t->status(&ps, &p, PS_STATUS_TABLE, buf, 5), 4);
	cr_assert_str_eq(buf, "01,0");
	t->fail_path(&ps, &p);
	cr_assert_null(t->select_path(&ps, 4096, 7 * NSEC_PER_SEC));
	cr_assert_eq(t->reinstate_path(&ps, &p), 0);
	cr_assert_eq(t->select_path(&ps, 4096, 8 * NSEC_PER_SEC), &p);
	ps_exit(&ps, &pp, 1);
}

Test(ksource, kernel_errors_reach_the_message, .init = test_plugin_cache)
{
	const struct ps_type *t = ps_source_load(TOY, err);
	struct path_selector ps = { .nr_cpu_ids = 4 };
	struct ps_path p = { .name = "sda" };

	cr_assert_not_null(t, "%s", err);
	cr_assert_eq(ps_init(&ps, t, "1 2", err), -EINVAL);
	cr_assert_str_eq(err, "toy ps: path selector constructor failed");
	cr_assert_eq(ps_init(&ps, t, "", err), 0, "%s", err);
	cr_assert_eq(ps_add_path(&ps, &p, "", err), -EINVAL);
	cr_assert_str_eq(err, "toy ps: want one cpumask");
	/* CPU 4 of 4: the kernel's cpumask_parse refuses it */
	cr_assert_eq(ps_add_path(&ps, &p, "10", err), -EINVAL);
	cr_assert_str_eq(err, "toy ps: invalid cpumask");
	ps_exit(&ps, NULL, 0);
}

/* (the compiler's messages on stderr are captured, not shown) */
Test(ksource, refusals, .init = ks_shared_quiet)
{
	cr_assert_null(ps_source_load("tests/ksrc/no-such-file.c", err));
	cr_assert(strstr(err, "tests/ksrc/no-such-file.c: No such file"),
		  "%s", err);
	/* a directory is no source file (a FIFO blocked the reader) */
	cr_assert_null(ps_source_load("tests/ksrc", err));
	cr_assert(strstr(err, "tests/ksrc: a directory, not a C source file"),
		  "%s", err);
	cr_assert_null(ps_source_load("tests/ksrc/dm-ps-broken.c", err));
	cr_assert(strstr(err, "the compiler (cc) failed"), "%s", err);
	cr_assert_null(ps_source_load("tests/ksrc/dm-ps-nothing.c", err));
	cr_assert(strstr(err, "no module_init()"), "%s", err);
	cr_assert_null(ps_type_of("nonesuch", "", err));
	cr_assert(strstr(err, "unknown selector 'nonesuch'"), "%s", err);
}

/* The toy's first valid path takes every I/O of a run, and the option
 * names the selector by the name its file registers. */
Test(ksource, runs_as_the_scenarios_selector, .init = test_plugin_cache)
{
	static const char text[] =
		"[multipath]\nncpus = 2\n"
		"[path a]\nservice = fixed:100us\npath_args = 1\n"
		"[path b]\nservice = fixed:100us\npath_args = 2\n"
		"[j]\nnumjobs = 2\nnumber_ios = 100\niodepth = 2\n";
	struct run_result r;
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "selector-source", TOY, err), 0,
		     "%s", err);
	cr_assert_str_eq(sc.selector, "toy");
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &r, err), 0, "%s", err);
	cr_assert_eq(r.path[0].ios, 200);
	cr_assert_eq(r.path[1].ios, 0);
	run_result_free(&r);
	/* --selector afterwards replaces the file */
	cr_assert_eq(scenario_set(&sc, "selector", "rr", err), 0, "%s", err);
	cr_assert_str_eq(sc.selector_source, "");
	scenario_free(&sc);
}

/* compare: the file is one more column, labelled with its name, with the
 * scenario's clock; the built-in columns run their own selectors. */
Test(ksource, compare_column, .init = test_plugin_cache)
{
	static const char text[] =
		"[multipath]\nncpus = 2\n"
		"[path a]\nservice = fixed:100us\npath_args = 1\n"
		"[path b]\nservice = fixed:100us\npath_args = 2\n"
		"[j]\nnumjobs = 2\nnumber_ios = 100\niodepth = 2\n";
	struct compare_result cr;
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "selector-source", TOY, err), 0,
		     "%s", err);
	cr_assert_eq(compare_run(&sc, 1, "rr,source", &cr, err), 0, "%s", err);
	cr_assert_eq(cr.nr_cols, 2);
	cr_assert_str_eq(cr.cols[1]->key, "source");
	cr_assert_str_eq(cr.cols[1]->label, "dm-ps-toy.c");
	cr_assert_str_eq(cr.cols[1]->selector, "toy");
	/* round-robin alternates; the toy takes the first path only */
	cr_assert_eq(cr.runs[0].path[0].ios, 100);
	cr_assert_eq(cr.runs[1].path[0].ios, 200);
	cr_assert_eq(cr.runs[1].path[1].ios, 0);
	compare_free(&cr);
	scenario_free(&sc);
	/* without a file there is no source column */
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(compare_run(&sc, 1, "source", &cr, err), -EINVAL);
	cr_assert(strstr(err, "'source' needs --selector-source"), "%s", err);
	scenario_free(&sc);
}

/*
 * A kernel file run as a group's selector reads the scenario's clocks:
 * the toy's info status gives the ktime, sched_clock() and jiffies of its
 * last select_path, here the run's one I/O at its start: jiffies at the
 * scenario's HZ, sched_clock() of its sched clock (5 us ahead of ktime).
 */
Test(ksource, a_groups_selector_reads_the_scenarios_hz_and_sched_clock)
{
	static const char text[] =
		"[multipath]\nncpus = 2\nhz = %u\nsched_clock_offset = 5us\n"
		"[path a]\nservice = fixed:100us\npath_args = 1\n"
		"[j]\nnumber_ios = 1\n";
	static const unsigned hz[] = { 1000, 100 };
	char buf[256], want[128];
	struct run_result r;
	struct scenario sc;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(hz); i++) {
		snprintf(buf, sizeof(buf), text, hz[i]);
		cr_assert_eq(scenario_parse(&sc, buf, "t.ini", err), 0, "%s",
			     err);
		cr_assert_eq(scenario_set(&sc, "selector-source", TOY, err), 0,
			     "%s", err);
		cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
		cr_assert_eq(run_scenario(&sc, 1, &r, err), 0, "%s", err);
		snprintf(want, sizeof(want), " %llu %llu %llu 0 ",
			 (unsigned long long)sc.uptime,
			 (unsigned long long)sched_clock_at(&sc.sched, hz[i],
							    sc.uptime),
			 (unsigned long long)jiffies_at(hz[i], sc.uptime));
		cr_assert(strstr(r.dmsetup, want), "HZ %u: want '%s' in %s",
			  hz[i], want, r.dmsetup);
		run_result_free(&r);
		scenario_free(&sc);
	}
}

/*
 * A selector may give no path while its group has valid ones (stingy
 * gives one to its first select_path only).  choose_pgpath then scans
 * the groups once a pass, not bypassed then bypassed, and forgets the
 * current group when it finds nothing, so the next map scans again
 * without asking that group first.  Two valid paths, queue_if_no_path:
 * j's I/O at 0 takes a (1 select); k's at 5 ms asks the current group,
 * then the scan's one pass (2 more), and is held; l's at 6 ms, with no
 * current group, only the scan's (1): 4 in all, and the group is not
 * the active one (E).
 */
Test(ksource, a_selector_without_a_path_for_a_valid_group)
{
	static const char text[] =
		"[multipath]\nqueue_if_no_path = 1\n"
		"[path a]\nservice = fixed:1ms\n[path b]\nservice = fixed:1ms\n"
		"[j]\nnumber_ios = 1\n"
		"[k]\nnumber_ios = 1\nstartdelay = 5ms\n"
		"[l]\nnumber_ios = 1\nstartdelay = 6ms\n";
	struct run_result r;
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "selector-source",
				  "tests/ksrc/dm-ps-stingy.c", err), 0, "%s",
		     err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &r, err), 0, "%s", err);
	cr_assert_eq(r.path[0].ios, 1);
	cr_assert(strstr(r.dmsetup, " 1 1 E 4 2 0 a A 0 b A 0 \n"), "%s",
		  r.dmsetup);
	run_result_free(&r);
	scenario_free(&sc);
}
