/*
 * test_sweep.c: sweeps: the value grammar, the confidence intervals, the
 * order of points, byte-identical files whatever -j, resume after a kill
 * or a torn write, and merging the per-point files of --list-runs.
 */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "sweep/sweep.h"

/* ---- helpers ---- */

/* A new empty directory under $TMPDIR (free the name). */
static char *tmp_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *d;

	if (!base || !*base)
		base = "/tmp";
	d = malloc(strlen(base) + 32);
	cr_assert_not_null(d);
	sprintf(d, "%s/mpsim-sweep-XXXXXX", base);
	cr_assert_not_null(mkdtemp(d));
	return d;
}

static void rm_rf(const char *path)
{
	struct dirent *e;
	DIR *d = opendir(path);

	if (d) {
		while ((e = readdir(d))) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = malloc(strlen(path) + strlen(e->d_name) + 2);
			sprintf(p, "%s/%s", path, e->d_name);
			rm_rf(p);
			free(p);
		}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static char *join(const char *dir, const char *name)
{
	char *p = malloc(strlen(dir) + strlen(name) + 2);

	cr_assert_not_null(p);
	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* A file's bytes, NUL-terminated; NULL when it does not exist. */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long sz;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	buf = malloc((size_t)sz + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)sz, f), (size_t)sz);
	buf[sz] = '\0';
	fclose(f);
	if (n)
		*n = (size_t)sz;
	return buf;
}

static void spit(const char *path, const char *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
}

static void assert_same_file(const char *a, const char *b)
{
	size_t na, nb;
	char *x = slurp(a, &na), *y = slurp(b, &nb);

	cr_assert_not_null(x, "%s is missing", a);
	cr_assert_not_null(y, "%s is missing", b);
	cr_assert_eq(na, nb, "%s has %zu bytes, %s %zu", a, na, b, nb);
	cr_assert(!memcmp(x, y, na), "%s and %s differ", a, b);
	free(x);
	free(y);
}

#define MAX_WORDS 64

/* Run a command on words: a list of strings ended by NULL, and a NULL
 * terminated array `more` (may be NULL) appended after them. */
static int call(int (*cmd)(int, char **), const char *const *more, ...)
{
	char *argv[MAX_WORDS];
	const char *w;
	va_list ap;
	int argc = 0;

	va_start(ap, more);
	while ((w = va_arg(ap, const char *)))
		argv[argc++] = (char *)w;
	va_end(ap);
	for (; more && *more; more++)
		argv[argc++] = (char *)*more;
	cr_assert_lt(argc, MAX_WORDS);
	argv[argc] = NULL;
	return cmd(argc, argv);
}

/* A small sweep of the default scenario: 4 points, 3 replications. */
static const char *const small[] = {
	"--iodepth=1,4", "--selector=st,hst", "--runtime=20ms",
	"--ramp_time=2ms", "--reps=3", NULL,
};

/* Rows of the "total" path in a CSV file: one per point. */
static unsigned points_in(const char *buf)
{
	unsigned n = 0;
	const char *p;

	for (p = buf; (p = strstr(p, ",total,")); p++)
		n++;
	return n;
}

/* Stdout of cmd while it runs, via a file in dir. */
static char *capture_stdout(const char *dir, int (*cmd)(int, char **),
			    char **argv, int argc, int *rc)
{
	char *path = join(dir, "stdout.txt"), *out;
	int saved, fd;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	*rc = cmd(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	out = slurp(path, NULL);
	unlink(path);
	free(path);
	return out;
}

/* ---- the value grammar ---- */

static void expect_items(const char *key, const char *value,
			 const char *const *want, unsigned n)
{
	char err[ERR_MAX], **items;
	int got = sweep_values(key, value, sweep_key_numeric(key), &items, err);
	unsigned i;

	cr_assert_eq(got, (int)n, "%s=%s: %d items (%s)", key, value, got,
		     got < 0 ? err : "");
	for (i = 0; i < n; i++)
		cr_assert_str_eq(items[i], want[i], "%s=%s item %u", key, value, i);
	sweep_values_free(items, n);
}

Test(sweep_grammar, lists_and_ranges)
{
	static const char *const list[] = { "4", "1", "16" };
	static const char *const step1[] = { "3", "4", "5", "6" };
	static const char *const geo[] = { "1", "2", "4", "8", "16", "32", "64", "128" };
	static const char *const arith[] = { "1", "5", "9" };
	static const char *const units[] = { "10ms", "20ms", "30ms", "40ms", "50ms" };
	static const char *const kgeo[] = { "4k", "8k", "16k", "32k", "64k" };
	static const char *const mixed[] = { "1", "4", "5", "6", "100" };
	static const char *const geo_stop[] = { "3", "9", "27" };
	static const char *const one[] = { "7" };

	expect_items("iodepth", "4,1,16", list, 3);
	expect_items("iodepth", "3..6", step1, 4);
	expect_items("iodepth", "1..128*2", geo, 8);
	expect_items("depth", "1..10+4", arith, 3);
	expect_items("runtime", "10ms..50ms+10ms", units, 5);
	expect_items("bs", "4k..64k*2", kgeo, 5);
	expect_items("iodepth", "1,4..6,100", mixed, 5);
	expect_items("iodepth", "3..50*3", geo_stop, 3);
	expect_items("iodepth", "7..7", one, 1);
}

Test(sweep_grammar, non_numeric_keys_take_dots_literally)
{
	static const char *const scn[] = { "../a.ini", "b..c.ini" };
	char err[ERR_MAX], **items;

	expect_items("scenario", "../a.ini,b..c.ini", scn, 2);
	/* a bare flag is one value, NULL */
	cr_assert_eq(sweep_values("time_based", NULL, false, &items, err), 1);
	cr_assert_null(items[0]);
	sweep_values_free(items, 1);
}

/* \, is a comma inside a value, \\ a backslash; any other backslash stays
 * as it is (the C strings below double each backslash). */
Test(sweep_grammar, escaped_commas_stay_inside_a_value)
{
	static const char *const dist[] = { "exp:1ms", "lognormal:400us,1.5",
					    "gamma:1ms,0.5" };
	static const char *const bs[] = { "4k,64k", "8k" };
	static const char *const slash[] = { "a\\", "b\\c" };
	char err[ERR_MAX], **items;

	expect_items("path.sdj.service",
		     "exp:1ms,lognormal:400us\\,1.5,gamma:1ms\\,0.5", dist, 3);
	expect_items("bs", "4k\\,64k,8k", bs, 2);
	expect_items("scenario", "a\\\\,b\\c", slash, 2);
	/* an empty item is still refused */
	cr_assert_lt(sweep_values("rw", "read,,write", false, &items, err), 0);
}

Test(sweep_grammar, bad_values_are_refused_naming_the_option)
{
	static const char *const bad[] = {
		"", "1,,2", ",1", "1,", "8..1", "1..8*1", "1..8*0", "1..8+0",
		"a..b", "1..b", "1...8", "1..8*2k", "0..8*2", "4k..1m*2",
		"4k..64k+4", "1..8-1", "1..200000", "99999999999999999999..1",
	};
	char err[ERR_MAX], **items;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		cr_assert_eq(sweep_values("iodepth", bad[i], true, &items, err),
			     -EINVAL, "'%s' accepted", bad[i]);
		cr_assert_null(items);
		cr_assert(!strncmp(err, "--iodepth: ", 11),
			  "'%s': message '%s' does not name the option", bad[i], err);
		cr_assert_null(strchr(err, '\n'));
	}
}

Test(sweep_grammar, too_many_points_is_refused)
{
	struct sweep sw;
	char err[ERR_MAX];
	char *argv[] = { (char *)"sweep", (char *)"--iodepth=1..400",
			 (char *)"--numjobs=1..300", NULL };

	cr_assert_eq(sweep_parse(&sw, 3, argv, err), -EINVAL);
	cr_assert(strstr(err, "--numjobs") && strstr(err, "100000"), "%s", err);
	sweep_free(&sw);
}

Test(sweep_grammar, sweep_options_take_one_value)
{
	static const char *const bad[] = {
		"--seed=1,2", "--reps=2,3", "--reps=0", "--format=table",
		"--iodepth=1 --iodepth=2",
	};
	struct sweep sw;
	char err[ERR_MAX], *argv[4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		char *words = strdup(bad[i]), *sp = strchr(words, ' ');
		int argc = 2;

		argv[0] = (char *)"sweep";
		argv[1] = words;
		if (sp) {
			*sp = '\0';
			argv[argc++] = sp + 1;
		}
		argv[argc] = NULL;
		cr_assert_eq(sweep_parse(&sw, argc, argv, err), -EINVAL,
			     "'%s' accepted", bad[i]);
		sweep_free(&sw);
		free(words);
	}
}

/* The seed rule is run's: one past 2^64-1 is refused with run's line,
 * not capped to 2^64-1 while the head shows the value as typed. */
Test(sweep_grammar, seed_past_2_64_is_refused_as_by_run)
{
	static const char *const seeds[] = {
		"--seed=18446744073709551616", "--seed=99999999999999999999",
		"--seed=-1", "--seed=1.5",
	};
	char err[ERR_MAX], run_err[ERR_MAX];
	struct run_opts o;
	struct sweep sw;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		char *argv[] = { (char *)"sweep", (char *)seeds[i], NULL };

		memset(&o, 0, sizeof(o));
		cr_assert_eq(cli_parse_run(2, argv, &o, NULL, run_err), -EINVAL,
			     "run took %s", seeds[i]);
		cli_free_run(&o);
		cr_assert_eq(sweep_parse(&sw, 2, argv, err), -EINVAL,
			     "sweep took %s (seed %llu)", seeds[i],
			     (unsigned long long)sw.seed);
		cr_assert_str_eq(err, run_err);
		sweep_free(&sw);
	}
	{
		char *argv[] = { (char *)"sweep",
				 (char *)"--seed=18446744073709551615", NULL };

		cr_assert_eq(sweep_parse(&sw, 2, argv, err), 0, "%s", err);
		cr_assert_eq(sw.seed, UINT64_MAX);
		sweep_free(&sw);
	}
}

Test(sweep_grammar, bad_points_exit_2_and_write_nothing,
     .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *out = join(dir, "never.csv"), *o;
	static const char *const cases[][2] = {
		{ "--iodepth=1,0", "--iodepth" },
		{ "--selector=st,nosuch", "--selector" },
		{ "--iodepth=1..4*x", "--iodepth" },
	};
	size_t i;

	o = malloc(strlen(out) + 16);
	sprintf(o, "--output=%s", out);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		cr_assert_eq(call(cmd_sweep, NULL, "sweep", cases[i][0],
				  "--runtime=20ms", o, NULL), EXIT_BAD_INPUT);
	cr_assert_null(slurp(out, NULL), "a refused sweep wrote its output");
	free(o);
	free(out);
	rm_rf(dir);
	free(dir);
}

/* ---- points ---- */

Test(sweep_points, last_option_varies_fastest)
{
	char *argv[] = { (char *)"sweep", (char *)"--iodepth=1,2,8",
			 (char *)"--selector=st,hst", NULL };
	static const unsigned depth[] = { 1, 1, 2, 2, 8, 8 };
	static const char *const sel[] = {
		"service-time", "historical-service-time",
		"service-time", "historical-service-time",
		"service-time", "historical-service-time",
	};
	char err[ERR_MAX];
	struct run_opts o;
	struct sweep sw;
	uint64_t k;

	cr_assert_eq(sweep_parse(&sw, 3, argv, err), 0, "%s", err);
	cr_assert_eq(sw.nr_points, 6);
	for (k = 0; k < 6; k++) {
		cr_assert_eq(sweep_point_opts(&sw, k, &o, err), 0, "%s", err);
		cr_assert_eq(o.sc.jobs[0].iodepth, depth[k]);
		cr_assert_str_eq(o.sc.selector, sel[k]);
		cli_free_run(&o);
	}
	sweep_free(&sw);
}

Test(sweep_points, replication_seeds_depend_on_seed_and_index_only)
{
	cr_assert_eq(sweep_rep_seed(42, 0), 42);
	cr_assert_eq(sweep_rep_seed(42, 3), sweep_rep_seed(42, 3));
	cr_assert_neq(sweep_rep_seed(42, 1), sweep_rep_seed(42, 2));
	cr_assert_neq(sweep_rep_seed(42, 1), sweep_rep_seed(43, 1));
}

Test(sweep_points, swept_options_get_columns_in_order)
{
	char *argv[] = { (char *)"sweep", (char *)"--ramp_time=1ms,2ms",
			 (char *)"--depth=1,2", (char *)"--runtime=20ms",
			 (char *)"--selector_args=0 0,1 0", NULL };
	char err[ERR_MAX];
	struct sweep sw;

	cr_assert_eq(sweep_parse(&sw, 5, argv, err), 0, "%s", err);
	cr_assert_eq(sweep_prepare(&sw, err), 0, "%s", err);
	/* depth is the iodepth column; a single --runtime is no column */
	cr_assert(strstr(sw.head, ",bs,rw,ramp_time,selector_args,path,best,"),
		  "%s", sw.head);
	cr_assert(strstr(sw.head, "# mpsim " MPSIM_VERSION " sweep: "
			 "--ramp_time=1ms,2ms --depth=1,2 --runtime=20ms "
			 "--selector_args='0 0,1 0' # inputs: mpsim="), "%s",
		  sw.head);
	cr_assert(strstr(sw.pt[3].prefix, ",2,1,4096,randwrite,1ms,1 0,"),
		  "%s", sw.pt[3].prefix);
	sweep_free(&sw);
}

/* ---- a selector's own lists ---- */

Test(sweep_grammar, selector_items_and_their_own_lists)
{
	struct sweep_axis *ax;
	unsigned na;
	char **names, err[ERR_MAX];
	int n;

	n = sweep_selector_values("st,hst:clock=jiffies,ktime:hz=100,1000,ql",
				  &names, &ax, &na, err);
	cr_assert_eq(n, 3, "%s", err);
	cr_assert_str_eq(names[0], "st");
	cr_assert_str_eq(names[1], "hst");
	cr_assert_str_eq(names[2], "ql");
	cr_assert_eq(na, 2);
	cr_assert_eq(ax[0].sel, 1);
	cr_assert_str_eq(ax[0].key, "clock");
	cr_assert_str_eq(ax[0].list, "jiffies,ktime");
	cr_assert_eq(ax[1].sel, 1);
	cr_assert_str_eq(ax[1].key, "hz");
	cr_assert_str_eq(ax[1].list, "100,1000");
	sweep_values_free(names, (unsigned)n);
	for (n = 0; n < (int)na; n++) {
		free(ax[n].key);
		free(ax[n].list);
	}
	free(ax);
	/* a value may hold ':' and an escaped comma */
	n = sweep_selector_values("st:path.sdj.service=exp:1ms,"
				  "lognormal:1ms\\,1.5,hst", &names, &ax, &na,
				  err);
	cr_assert_eq(n, 2, "%s", err);
	cr_assert_eq(na, 1);
	cr_assert_str_eq(ax[0].list, "exp:1ms,lognormal:1ms\\,1.5");
	sweep_values_free(names, (unsigned)n);
	free(ax[0].key);
	free(ax[0].list);
	free(ax);
}

Test(sweep_grammar, bad_selector_items_name_the_item)
{
	static const char *const bad[][2] = {
		{ "st,hst:clock", "'hst:clock': a selector's own values are NAME:KEY=LIST" },
		{ "hst:clock=", "no values for clock" },
		{ "hst:clock=ktime:clock=jiffies", "gives clock twice" },
		{ "st,service-time", "service-time given twice" },
		{ "st,,hst", "empty item" },
	};
	struct sweep_axis *ax;
	unsigned na, i;
	char **names, err[ERR_MAX];

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		cr_assert_eq(sweep_selector_values(bad[i][0], &names, &ax, &na,
						   err), -EINVAL,
			     "'%s' accepted", bad[i][0]);
		cr_assert(strstr(err, bad[i][1]) && !strncmp(err, "--selector: ", 12),
			  "'%s': '%s'", bad[i][0], err);
		cr_assert_null(names);
		cr_assert_null(ax);
	}
}

/* --selector=st,hst:clock=jiffies,ktime: service-time runs once per
 * depth, with no --clock, and historical-service-time at each clock. */
Test(sweep_points, a_selector_s_own_list_runs_no_point_twice)
{
	char *argv[] = { (char *)"sweep", (char *)"--iodepth=1,8",
			 (char *)"--selector=st,hst:clock=jiffies,ktime", NULL };
	static const char *const want[] = {
		"1 service-time -", "1 historical-service-time jiffies",
		"1 historical-service-time ktime", "8 service-time -",
		"8 historical-service-time jiffies",
		"8 historical-service-time ktime",
	};
	char err[ERR_MAX], got[128], desc[160];
	struct run_opts o;
	struct sweep sw;
	uint64_t k;

	cr_assert_eq(sweep_parse(&sw, 3, argv, err), 0, "%s", err);
	cr_assert_eq(sw.nr_points, 6);
	/* clock varies right after --selector */
	cr_assert_eq(sw.nr_opt, 3);
	cr_assert_str_eq(sw.opt[2].key, "clock");
	for (k = 0; k < 6; k++) {
		const char *c = sweep_point_value(&sw, 2, k);

		cr_assert_eq(sweep_point_opts(&sw, k, &o, err), 0, "%s", err);
		snprintf(got, sizeof(got), "%u %s %s", o.sc.jobs[0].iodepth,
			 o.sc.selector, c == sweep_unset ? "-" : c);
		cr_assert_str_eq(got, want[k]);
		cli_free_run(&o);
	}
	sweep_point_desc(&sw, 3, desc, sizeof(desc));
	cr_assert_str_eq(desc, "sweep point 3 (--iodepth=8 --selector=st)");
	sweep_point_desc(&sw, 4, desc, sizeof(desc));
	cr_assert_str_eq(desc, "sweep point 4 (--iodepth=8 --selector=hst "
			 "--clock=jiffies)");
	sweep_free(&sw);
}

/* An option given for all and by one selector: the others take it as
 * given, that selector its own values; a swept option a selector alone
 * gives has a column, empty for the others. */
Test(sweep_points, a_selector_s_own_list_replaces_the_common_one,
     .init = cr_redirect_stderr)
{
	char *argv[] = { (char *)"sweep", (char *)"--clock=jiffies-aligned",
			 (char *)"--selector=rr,hst:clock=jiffies,ktime:uptime=60s,1h",
			 (char *)"--runtime=20ms", NULL };
	char err[ERR_MAX];
	struct sweep sw;

	cr_assert_eq(sweep_parse(&sw, 4, argv, err), 0, "%s", err);
	/* clock: jiffies-aligned for rr; jiffies, ktime x 2 uptimes for hst */
	cr_assert_eq(sw.nr_points, 5);
	cr_assert_eq(sweep_prepare(&sw, err), 0, "%s", err);
	cr_assert(strstr(sw.head, ",rw,uptime,path,"), "%s", sw.head);
	cr_assert(strstr(sw.pt[0].prefix, "round-robin,,jiffies-aligned,") &&
		  strstr(sw.pt[0].prefix, "randwrite,,"), "%s", sw.pt[0].prefix);
	cr_assert(strstr(sw.pt[1].prefix, "historical-service-time,,jiffies,") &&
		  strstr(sw.pt[1].prefix, "randwrite,60s,"), "%s", sw.pt[1].prefix);
	cr_assert(strstr(sw.pt[4].prefix, "historical-service-time,,ktime,") &&
		  strstr(sw.pt[4].prefix, "randwrite,1h,"), "%s", sw.pt[4].prefix);
	sweep_free(&sw);
}

Test(sweep_points, a_selector_s_own_option_is_a_run_option)
{
	static const char *const bad[][2] = {
		{ "--selector=st,hst:reps=2", "hst:reps: an option of the sweep itself" },
		{ "--selector=st,hst:selector=ql", "cannot name a selector" },
		{ "--selector=st,hst:hz=100..x", "--selector: hst: --hz: " },
	};
	char err[ERR_MAX], *argv[3];
	struct sweep sw;
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		argv[0] = (char *)"sweep";
		argv[1] = (char *)bad[i][0];
		argv[2] = NULL;
		err[0] = '\0';
		if (!sweep_parse(&sw, 2, argv, err))
			cr_assert_eq(sweep_prepare(&sw, err), -EINVAL,
				     "'%s' accepted", bad[i][0]);
		cr_assert(strstr(err, bad[i][1]), "'%s': '%s'", bad[i][0], err);
		sweep_free(&sw);
	}
}

/* ---- confidence intervals ---- */

Test(sweep_ci, student_t_half_widths)
{
	double x10[10], two[2] = { 1, 3 }, same[4] = { 2, 2, 2, 2 };
	double mean = -1, half = -1;
	unsigned i;

	for (i = 0; i < 10; i++)
		x10[i] = i + 1;
	/* t(0.975, 9) = 2.262157; sd(1..10) = 3.0276504 */
	cr_assert_eq(ci95(x10, 10, &mean, &half), 10);
	cr_assert_float_eq(mean, 5.5, 1e-12);
	cr_assert_float_eq(half, 2.262157 * 3.0276504 / sqrt(10), 1e-5);
	/* t(0.975, 1) = 12.7062; sd = sqrt(2), sqrt(n) = sqrt(2) */
	cr_assert_eq(ci95(two, 2, &mean, &half), 2);
	cr_assert_float_eq(mean, 2, 1e-12);
	cr_assert_float_eq(half, 12.7062, 1e-4);
	cr_assert_eq(ci95(same, 4, &mean, &half), 4);
	cr_assert_float_eq(half, 0, 1e-12);
	/* one value: a mean and no interval; none: neither */
	half = -1;
	cr_assert_eq(ci95(two, 1, &mean, &half), 1);
	cr_assert_float_eq(mean, 1, 1e-12);
	cr_assert_float_eq(half, -1, 0);
	mean = -1;
	cr_assert_eq(ci95(two, 0, &mean, &half), 0);
	cr_assert_float_eq(mean, -1, 0);
}

/* ---- running ---- */

/* The start of the file of `small`: the output contract. */
static const char small_start[] =
	"# mpsim " MPSIM_VERSION " sweep: --iodepth=1,4 --selector=st,hst "
	"--runtime=20ms --ramp_time=2ms --reps=3 # inputs: mpsim=";
/* then the build's hash, and: */
static const char small_rest[] =
	"\nmpsim_version,scenario,point,seed,reps,selector,selector_source,clock,"
	"mode,hz,iodepth,"
	"numjobs,bs,rw,path,best,share_mean,share_ci95,bytes_share_mean,"
	"bytes_share_ci95,busy_mean,busy_ci95,lat_mean_us_mean,lat_mean_us_ci95,"
	"lat_p50_us_mean,lat_p50_us_ci95,lat_p99_us_mean,lat_p99_us_ci95,"
	"lat_p999_us_mean,lat_p999_us_ci95,iops_mean,iops_ci95,"
	"read_iops_mean,read_iops_ci95,read_lat_mean_us_mean,read_lat_mean_us_ci95,"
	"read_lat_p50_us_mean,read_lat_p50_us_ci95,read_lat_p99_us_mean,"
	"read_lat_p99_us_ci95,read_lat_p999_us_mean,read_lat_p999_us_ci95,"
	"write_iops_mean,write_iops_ci95,write_lat_mean_us_mean,write_lat_mean_us_ci95,"
	"write_lat_p50_us_mean,write_lat_p50_us_ci95,write_lat_p99_us_mean,"
	"write_lat_p99_us_ci95,write_lat_p999_us_mean,write_lat_p999_us_ci95,"
	"trim_iops_mean,trim_iops_ci95,trim_lat_mean_us_mean,trim_lat_mean_us_ci95,"
	"trim_lat_p50_us_mean,trim_lat_p50_us_ci95,trim_lat_p99_us_mean,"
	"trim_lat_p99_us_ci95,trim_lat_p999_us_mean,trim_lat_p999_us_ci95,"
	"sync_iops_mean,sync_iops_ci95,sync_lat_mean_us_mean,sync_lat_mean_us_ci95,"
	"sync_lat_p50_us_mean,sync_lat_p50_us_ci95,sync_lat_p99_us_mean,"
	"sync_lat_p99_us_ci95,sync_lat_p999_us_mean,sync_lat_p999_us_ci95,"
	"ios_mean,ios_ci95,bw_bytes_mean,bw_bytes_ci95,errors_mean,errors_ci95,"
	"failed_mean,failed_ci95,no_path_mean,no_path_ci95,checksum\n"
	MPSIM_VERSION ",hst-bio-mpath,0,1,3,service-time,,ktime,bio,250,1,1,4096,"
	"randwrite,sdd,0.167387,";

Test(sweep_run, file_does_not_depend_on_jobs)
{
	char *dir = tmp_dir(), *a = join(dir, "j1.csv"), *b = join(dir, "j2.csv");
	char *c = join(dir, "j3.csv"), oa[512], ob[512], oc[512], *buf;
	char hex[17];
	unsigned nl = 0;
	const char *p;

	snprintf(oa, sizeof(oa), "--output=%s", a);
	snprintf(ob, sizeof(ob), "--output=%s", b);
	snprintf(oc, sizeof(oc), "--output=%s", c);
	cr_assert_eq(call(cmd_sweep, small, "sweep", oa, "-j", "1", NULL), 0);
	cr_assert_eq(call(cmd_sweep, small, "sweep", ob, "-j2", NULL), 0);
	cr_assert_eq(call(cmd_sweep, small, "sweep", oc, "--jobs=3", NULL), 0);
	assert_same_file(a, b);
	assert_same_file(a, c);
	buf = slurp(a, NULL);
	/* comment, header, 4 points x (10 paths + total) */
	for (p = buf; *p; p++)
		nl += *p == '\n';
	cr_assert_eq(nl, 2 + 4 * 11);
	cr_assert_eq(points_in(buf), 4);
	snprintf(hex, sizeof(hex), "%016llx",
		 (unsigned long long)inputs_build_hash());
	cr_assert(!strncmp(buf, small_start, strlen(small_start)), "%.600s", buf);
	cr_assert(!strncmp(buf + strlen(small_start), hex, 16), "%.600s", buf);
	cr_assert(!strncmp(buf + strlen(small_start) + 16, small_rest,
			   strlen(small_rest)), "%.600s", buf);
	/* point 3 is iodepth 4 with hst: the last option varies fastest */
	cr_assert(strstr(buf, ",3,1,3,historical-service-time,,ktime,bio,250,4,"));
	free(buf);
	free(a);
	free(b);
	free(c);
	rm_rf(dir);
	free(dir);
}

Test(sweep_run, one_replication_leaves_the_intervals_empty)
{
	char *dir = tmp_dir(), *a = join(dir, "r1.csv"), *j = join(dir, "r1.json");
	char oa[512], oj[512], *buf, *row;
	int pos;
	static const char *const one[] = {
		"--selector=st", "--runtime=20ms", "--ramp_time=2ms", NULL,
	};

	snprintf(oa, sizeof(oa), "--output=%s", a);
	snprintf(oj, sizeof(oj), "--output=%s", j);
	cr_assert_eq(call(cmd_sweep, one, "sweep", oa, NULL), 0);
	cr_assert_eq(call(cmd_sweep, one, "sweep", oj, "--format=json", NULL), 0);
	buf = slurp(a, NULL);
	/* sdd: best, share, (empty ci), bytes_share, (empty ci), busy, the
	 * latency's mean, p50, p99 and p99.9 ... */
	row = strstr(buf, ",sdd,");
	cr_assert_not_null(row);
	pos = -1;
	sscanf(row, ",sdd,%*[0-9.],%*[0-9.],,%*[0-9.],,%*[0-9.],,%*[0-9.],,"
	       "%*[0-9.],,%*[0-9.],,%*[0-9.],,,%n", &pos);
	cr_assert_gt(pos, 0, "%.200s", row);
	row += pos;
	pos = -1;
	/* then per direction: no reads, writes with their latency, no trims
	 * and no syncs; iops empty on a path's row */
	sscanf(row, ",,,,,,,,,,,,,%*[0-9.],,%*[0-9.],,%*[0-9.],,%*[0-9.],"
	       ",,,,,,,,,,,,,,,,,,,,%n", &pos);
	cr_assert_gt(pos, 0, "%.200s", row);
	row += pos;
	pos = -1;
	/* then the run's counts: ios, bw_bytes and errors with empty
	 * intervals; failed and no_path are the total row's alone */
	sscanf(row, ",%*[0-9.],,%*[0-9.],,%*[0-9.],,,,,,%n", &pos);
	cr_assert_gt(pos, 0, "%.200s", row);
	cr_assert_eq(row[pos], '\n', "per-path rows leave iops, failed, "
		     "no_path and the checksum empty");
	row = strstr(buf, ",total,,,,,,,,");
	cr_assert_not_null(row, "total rows leave best, share and busy empty");
	free(buf);
	buf = slurp(j, NULL);
	cr_assert(!strncmp(buf, "{\"mpsim\": {\"version\": \"" MPSIM_VERSION
			   "\", \"sweep\": \"--format=json --selector=st "
			   "--runtime=20ms --ramp_time=2ms\", \"inputs\": "
			   "{\"mpsim\": \"", 120), "%.200s", buf);
	cr_assert(strstr(buf, "\"share_ci95\": null"));
	cr_assert(strstr(buf, "\"path\": \"total\", \"best\": null"));
	cr_assert(strstr(buf, "\"iops_ci95\": null, \"read_iops_mean\": "));
	/* no syncs: no latency, and one replication: no interval */
	cr_assert(strstr(buf, "\"sync_lat_p999_us_mean\": null, "
			 "\"sync_lat_p999_us_ci95\": null, \"ios_mean\": "));
	/* a path's row: failed and no_path are the total's alone */
	cr_assert(strstr(buf, "\"failed_mean\": null, \"failed_ci95\": null, "
			 "\"no_path_mean\": null, \"no_path_ci95\": null, "
			 "\"checksum\": null}\n"));
	free(buf);
	free(a);
	free(j);
	rm_rf(dir);
	free(dir);
}

Test(sweep_run, stdout_gets_the_same_bytes)
{
	char *dir = tmp_dir(), *a = join(dir, "f.csv"), *buf, *out;
	char oa[512], *argv[MAX_WORDS];
	int argc = 0, rc;
	size_t i;

	snprintf(oa, sizeof(oa), "--output=%s", a);
	cr_assert_eq(call(cmd_sweep, small, "sweep", oa, NULL), 0);
	argv[argc++] = (char *)"sweep";
	for (i = 0; small[i]; i++)
		argv[argc++] = (char *)small[i];
	argv[argc] = NULL;
	out = capture_stdout(dir, cmd_sweep, argv, argc, &rc);
	cr_assert_eq(rc, 0);
	buf = slurp(a, NULL);
	cr_assert_str_eq(out, buf);
	free(out);
	free(buf);
	free(a);
	rm_rf(dir);
	free(dir);
}

/* ---- resume ---- */

/* The reference file of `small` in dir, and its blocks' offsets. */
static char *reference(const char *dir, size_t *n)
{
	char *ref = join(dir, "ref.csv"), o[512], *buf;

	snprintf(o, sizeof(o), "--output=%s", ref);
	cr_assert_eq(call(cmd_sweep, small, "sweep", o, "-j", "2", NULL), 0);
	buf = slurp(ref, n);
	free(ref);
	return buf;
}

/* Offset of the block of point k (the first row that starts it). */
static size_t block_at(const char *buf, unsigned k)
{
	char needle[64];
	const char *p;

	snprintf(needle, sizeof(needle), "\n" MPSIM_VERSION ",hst-bio-mpath,%u,", k);
	p = strstr(buf, needle);
	cr_assert_not_null(p);
	return (size_t)(p - buf) + 1;
}

/* A CSV block's checksum (the total row's last field) made to match its
 * rows again, as if mpsim had written them. */
static void reseal(char *blk, size_t len)
{
	char *sum = blk + len - 17, hex[17];

	cr_assert_eq(sum[-1], ',');
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)
		 fnv1a64(blk, (size_t)(sum - blk), FNV1A64_INIT));
	memcpy(sum, hex, 16);
}

static int resweep(const char *out)
{
	char o[512];

	snprintf(o, sizeof(o), "--output=%s", out);
	return call(cmd_sweep, small, "sweep", o, "-j", "2", NULL);
}

Test(sweep_resume, torn_tails_are_dropped_and_redone,
     .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *ref = join(dir, "ref.csv");
	char *out = join(dir, "out.csv"), *buf, *junk;
	size_t n, b2, cuts[6];
	unsigned i;

	buf = reference(dir, &n);
	b2 = block_at(buf, 2);
	cuts[0] = 0;			/* empty file */
	cuts[1] = 17;			/* inside the comment line */
	cuts[2] = block_at(buf, 0) - 5;	/* inside the column header */
	cuts[3] = b2;			/* between blocks */
	cuts[4] = b2 + 40;		/* inside a row */
	cuts[5] = b2 + (block_at(buf, 3) - b2) / 2;	/* inside a block */
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		spit(out, buf, cuts[i]);
		cr_assert_eq(resweep(out), 0, "cut at %zu", cuts[i]);
		assert_same_file(out, ref);
	}
	/* power loss can leave zeros after the last complete write */
	junk = calloc(1, b2 + 500);
	memcpy(junk, buf, b2 + 100);
	spit(out, junk, b2 + 500);
	cr_assert_eq(resweep(out), 0);
	assert_same_file(out, ref);
	free(junk);
	free(buf);
	free(ref);
	free(out);
	rm_rf(dir);
	free(dir);
}

Test(sweep_resume, only_missing_points_run_and_order_is_restored,
     .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *out = join(dir, "out.csv"), *buf, *got, *mix;
	size_t n, b[5], len = 0, i, digit;

	buf = reference(dir, &n);
	for (i = 0; i < 4; i++)
		b[i] = block_at(buf, (unsigned)i);
	b[4] = n;
	/* head, then points 3, 1, 0 in that order (2 missing); point 1's
	 * first "best" altered and its checksum made to match, so a rerun
	 * of it would show */
	mix = malloc(n);
	memcpy(mix, buf, b[0]);
	len = b[0];
	memcpy(mix + len, buf + b[3], b[4] - b[3]);
	len += b[4] - b[3];
	memcpy(mix + len, buf + b[1], b[2] - b[1]);
	digit = len + (size_t)(strstr(buf + b[1], ",sdd,0.") - (buf + b[1])) + 7;
	mix[digit] = mix[digit] == '9' ? '8' : '9';
	reseal(mix + len, b[2] - b[1]);
	len += b[2] - b[1];
	memcpy(mix + len, buf + b[0], b[1] - b[0]);
	len += b[1] - b[0];
	spit(out, mix, len);

	cr_assert_eq(resweep(out), 0);
	got = slurp(out, &n);
	/* the sorted file, with point 1 as it was on disk */
	cr_assert_eq(n, b[4]);
	cr_assert(!memcmp(got, buf, b[1]));
	cr_assert(!memcmp(got + b[1], mix + b[0] + (b[4] - b[3]), b[2] - b[1]));
	cr_assert(!memcmp(got + b[2], buf + b[2], b[4] - b[2]));
	free(got);
	free(mix);
	free(buf);
	free(out);
	rm_rf(dir);
	free(dir);
}

Test(sweep_resume, a_changed_point_is_refused, .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *out = join(dir, "out.csv"), *buf, *got;
	size_t n, at[2], i, digit;

	buf = reference(dir, &n);
	/* one digit of point 1 (in the middle) or of point 3 (the last) */
	at[0] = block_at(buf, 1);
	at[1] = block_at(buf, 3);
	for (i = 0; i < 2; i++) {
		digit = at[i] + (size_t)(strstr(buf + at[i], ",sdd,0.") -
					 (buf + at[i])) + 7;
		buf[digit] = buf[digit] == '9' ? '8' : '9';
		spit(out, buf, n);
		cr_assert_eq(resweep(out), EXIT_BAD_INPUT, "point %s",
			     i ? "3" : "1");
		got = slurp(out, NULL);
		cr_assert(!memcmp(got, buf, n), "a refused file was changed");
		free(got);
		buf[digit] = buf[digit] == '9' ? '8' : '9';
	}
	free(buf);
	free(out);
	rm_rf(dir);
	free(dir);
}

/* A scenario of two paths, sdb's mean service time `mean`. */
static void scenario_file(const char *path, const char *mean)
{
	char text[256];

	snprintf(text, sizeof(text), "[multipath]\nselector = service-time\n"
		 "[path sda]\nservice = exp:100us\n"
		 "[path sdb]\nservice = exp:%s\n", mean);
	spit(path, text, strlen(text));
}

Test(sweep_resume, a_changed_input_is_refused_and_named,
     .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *out = join(dir, "out.csv"), *scn = join(dir, "s.ini");
	char o[512], so[512], err[ERR_MAX], *buf, *got;
	struct sweep_block *b;
	struct sweep sw;
	size_t n, valid;
	char *argv[] = { (char *)"sweep", so, (char *)"--iodepth=1,2",
			 (char *)"--runtime=20ms", NULL };

	snprintf(o, sizeof(o), "--output=%s", out);
	snprintf(so, sizeof(so), "--scenario=%s", scn);
	scenario_file(scn, "200us");
	cr_assert_eq(call(cmd_sweep, NULL, "sweep", so, "--iodepth=1,2",
			  "--runtime=20ms", "--point=0", o, NULL), 0);
	buf = slurp(out, &n);
	cr_assert(strstr(buf, " scenario:"), "%.300s", buf);
	/* the scenario edited: the file's first point is of the old one */
	scenario_file(scn, "300us");
	cr_assert_eq(call(cmd_sweep, NULL, "sweep", so, "--iodepth=1,2",
			  "--runtime=20ms", o, NULL), EXIT_BAD_INPUT);
	got = slurp(out, NULL);
	cr_assert(!strcmp(got, buf), "a refused file was changed");
	free(got);
	cr_assert_eq(sweep_parse(&sw, 4, argv, err), 0, "%s", err);
	cr_assert_eq(sweep_prepare(&sw, err), 0, "%s", err);
	cr_assert_eq(sweep_scan(&sw, out, buf, n, &b, &valid, err), -EINVAL);
	cr_assert(strstr(err, "scenario ") && strstr(err, "s.ini has changed"),
		  "%s", err);
	sweep_free(&sw);
	/* and back as it was: the sweep goes on */
	scenario_file(scn, "200us");
	cr_assert_eq(call(cmd_sweep, NULL, "sweep", so, "--iodepth=1,2",
			  "--runtime=20ms", o, NULL), 0);
	free(buf);
	buf = slurp(out, NULL);
	cr_assert_eq(points_in(buf), 2);
	free(buf);
	free(scn);
	free(out);
	rm_rf(dir);
	free(dir);
}

Test(sweep_resume, other_sweeps_files_are_refused, .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *out = join(dir, "out.csv"), *buf, *got;
	char o[512];
	size_t n, i;
	static const char *const others[] = {
		"# mpsim 0.0.1 sweep: --iodepth=1,4 --selector=st,hst --runtime=20ms --ramp_time=2ms --reps=3\n",
		"# mpsim " MPSIM_VERSION " sweep: --iodepth=1,4\n",
		"path,ios,share\nsdd,1,1\n",
	};

	snprintf(o, sizeof(o), "--output=%s", out);
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		spit(out, others[i], strlen(others[i]));
		cr_assert_eq(call(cmd_sweep, small, "sweep", o, NULL),
			     EXIT_BAD_INPUT, "case %zu", i);
		got = slurp(out, &n);
		cr_assert_str_eq(got, others[i], "a refused file was changed");
		free(got);
	}
	/* the same sweep with --format=json is another file */
	buf = reference(dir, &n);
	spit(out, buf, n);
	cr_assert_eq(call(cmd_sweep, small, "sweep", o, "--format=json", NULL),
		     EXIT_BAD_INPUT);
	free(buf);
	free(out);
	rm_rf(dir);
	free(dir);
}

/* A sweep slow enough to be killed part-way: 8 points of ~10 s simulated. */
static const char *const slow[] = {
	"--selector=st,hst,ql,rr", "--clock=jiffies,ktime", "--iodepth=16",
	"--runtime=10s", "--ramp_time=10ms", NULL,
};

Test(sweep_resume, killed_sweep_resumes_to_the_uninterrupted_file,
     .init = cr_redirect_stderr, .timeout = 120)
{
	char *dir = tmp_dir(), *ref = join(dir, "ref.csv"), *out = join(dir, "out.csv");
	char oref[512], oout[512], *buf;
	struct timespec ms = { 0, 1000 * 1000 };
	unsigned waited, on_disk = 0;
	int st;
	pid_t pid;

	snprintf(oref, sizeof(oref), "--output=%s", ref);
	snprintf(oout, sizeof(oout), "--output=%s", out);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid)
		_exit(call(cmd_sweep, slow, "sweep", oout, "-j", "1", NULL));
	/* SIGKILL as soon as the first point is on disk */
	for (waited = 0; waited < 60000 && !on_disk; waited++) {
		nanosleep(&ms, NULL);
		buf = slurp(out, NULL);
		on_disk = buf ? points_in(buf) : 0;
		free(buf);
	}
	kill(pid, SIGKILL);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFSIGNALED(st), "the sweep finished before it was killed");
	buf = slurp(out, NULL);
	on_disk = points_in(buf);
	free(buf);
	cr_assert(on_disk >= 1 && on_disk < 8, "%u points on disk", on_disk);

	cr_assert_eq(call(cmd_sweep, slow, "sweep", oout, "-j", "2", NULL), 0);
	cr_assert_eq(call(cmd_sweep, slow, "sweep", oref, "-j", "2", NULL), 0);
	assert_same_file(out, ref);
	free(ref);
	free(out);
	rm_rf(dir);
	free(dir);
}

/* ---- beyond one machine ---- */

/* Run every command --list-runs prints for `small` (output in dir);
 * returns the number of commands. */
static unsigned run_listed(const char *dir, const char *const *opts)
{
	char *argv[MAX_WORDS], o[512], *listing, *line, *save;
	unsigned nr = 0;
	int argc = 0, rc, n, i;
	size_t k;

	snprintf(o, sizeof(o), "--output=%s/m.csv", dir);
	argv[argc++] = (char *)"sweep";
	for (k = 0; opts[k]; k++)
		argv[argc++] = (char *)opts[k];
	argv[argc++] = o;
	argv[argc++] = (char *)"--list-runs";
	argv[argc] = NULL;
	listing = capture_stdout(dir, cmd_sweep, argv, argc, &rc);
	cr_assert_eq(rc, 0);
	for (line = strtok_r(listing, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char **w;

		n = shell_split(line, &w);
		cr_assert_gt(n, 2);
		cr_assert_str_eq(w[0], "mpsim");
		cr_assert_str_eq(w[1], "sweep");
		cr_assert_eq(cmd_sweep(n - 1, w + 1), 0, "%s", line);
		for (i = 0; i < n; i++)
			free(w[i]);
		free(w);
		nr++;
	}
	free(listing);
	return nr;
}

static int merge_glob(const char *pattern, const char *output,
		      const char *extra)
{
	char *argv[MAX_WORDS], o[512];
	int argc = 0, rc;
	glob_t g;
	size_t i;

	snprintf(o, sizeof(o), "--output=%s", output);
	argv[argc++] = (char *)"merge";
	argv[argc++] = o;
	cr_assert_eq(glob(pattern, 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc && argc < MAX_WORDS - 2; i++)
		argv[argc++] = g.gl_pathv[i];
	if (extra)
		argv[argc++] = (char *)extra;
	argv[argc] = NULL;
	rc = cmd_merge(argc, argv);
	globfree(&g);
	return rc;
}

Test(sweep_merge, per_point_runs_merge_into_the_local_file)
{
	char *dir = tmp_dir(), *ref = join(dir, "ref.csv");
	char *merged = join(dir, "merged.csv"), *pat = join(dir, "m.points/*.csv");
	char *p0 = join(dir, "m.points/point-0.csv"), *buf;
	size_t n;

	free(reference(dir, &n));
	cr_assert_eq(run_listed(dir, small), 4);
	buf = slurp(p0, NULL);
	cr_assert_not_null(buf, "no m.points/point-0.csv");
	cr_assert_eq(points_in(buf), 1);
	free(buf);
	cr_assert_eq(merge_glob(pat, merged, NULL), 0);
	assert_same_file(merged, ref);
	free(p0);
	free(pat);
	free(merged);
	free(ref);
	rm_rf(dir);
	free(dir);
}

Test(sweep_merge, point_selection_and_partial_merges, .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *ref = join(dir, "ref.csv"), *part = join(dir, "p.csv");
	char *merged = join(dir, "merged.csv"), op[512], om[512], *buf;
	size_t n;

	free(reference(dir, &n));
	/* points 1 and 3 only: a valid partial file */
	snprintf(op, sizeof(op), "--output=%s", part);
	cr_assert_eq(call(cmd_sweep, small, "sweep", op, "--point=1,3", NULL), 0);
	buf = slurp(part, NULL);
	cr_assert_eq(points_in(buf), 2);
	free(buf);
	/* merging it alone: written, but short of points (exit 1) */
	cr_assert_eq(merge_glob(part, merged, NULL), EXIT_FAILED);
	/* the local sweep finishes a partial merge */
	snprintf(om, sizeof(om), "--output=%s", merged);
	cr_assert_eq(call(cmd_sweep, small, "sweep", om, NULL), 0);
	assert_same_file(merged, ref);
	/* a --point file refuses points it does not run */
	cr_assert_eq(call(cmd_sweep, small, "sweep", om, "--point=0", NULL),
		     EXIT_BAD_INPUT);
	free(merged);
	free(part);
	free(ref);
	rm_rf(dir);
	free(dir);
}

Test(sweep_merge, other_versions_and_scenarios_are_refused,
     .init = cr_redirect_stderr)
{
	char *dir = tmp_dir(), *merged = join(dir, "merged.csv");
	char *pat = join(dir, "m.points/*.csv"), *p0 = join(dir, "m.points/point-0.csv");
	char *old = join(dir, "old.csv"), *other = join(dir, "other.csv");
	char *buf, *v, *scn, oo[512], so[512], pt[32];
	unsigned i;
	size_t n;

	cr_assert_eq(run_listed(dir, small), 4);
	/* the same point from another version of mpsim */
	buf = slurp(p0, &n);
	v = strstr(buf, MPSIM_VERSION);
	cr_assert_not_null(v);
	v[0] = v[0] == '9' ? '8' : '9';
	spit(old, buf, n);
	free(buf);
	cr_assert_eq(merge_glob(pat, merged, old), EXIT_BAD_INPUT);
	cr_assert_null(slurp(merged, NULL));
	/* the same options on another scenario */
	snprintf(oo, sizeof(oo), "--output=%s", other);
	cr_assert_eq(call(cmd_sweep, small, "sweep", "--scenario=bench-large",
			  oo, "--point=0", NULL), 0);
	cr_assert_eq(merge_glob(pat, merged, other), EXIT_BAD_INPUT);
	cr_assert_null(slurp(merged, NULL));
	/* the same options on an edited scenario file */
	scn = join(dir, "s.ini");
	scenario_file(scn, "200us");
	snprintf(so, sizeof(so), "--scenario=%s", scn);
	for (i = 0; i < 2; i++) {
		snprintf(oo, sizeof(oo), "--output=%s/s%u.csv", dir, i);
		snprintf(pt, sizeof(pt), "--point=%u", i);
		cr_assert_eq(call(cmd_sweep, NULL, "sweep", so,
				  "--iodepth=1,2", "--runtime=20ms", oo, pt,
				  NULL), 0);
		if (!i)
			scenario_file(scn, "300us");
	}
	snprintf(oo, sizeof(oo), "%s/s*.csv", dir);
	cr_assert_eq(merge_glob(oo, merged, NULL), EXIT_BAD_INPUT);
	cr_assert_null(slurp(merged, NULL));
	free(scn);
	/* not a sweep file at all */
	spit(other, "hello\n", 6);
	cr_assert_eq(merge_glob(pat, merged, other), EXIT_BAD_INPUT);
	free(old);
	free(other);
	free(p0);
	free(pat);
	free(merged);
	rm_rf(dir);
	free(dir);
}
