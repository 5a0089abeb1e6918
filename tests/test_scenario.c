/*
 * test_scenario.c: scenario files, the built-in default, command-line
 * overrides, validation, and a fuzz of the parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>

#include "input/scenario.h"
#include "workloads/fio.h"

/* The smallest text that parses: one path, no job (so the default job). */
#define ONE_PATH	"[path a]\nservice = exp:100us\n"

static void assert_one_line(const char *err)
{
	cr_assert(err[0], "no message");
	cr_assert_null(strchr(err, '\n'), "message on two lines: %s", err);
	cr_assert_lt(strlen(err), ERR_MAX);
}

static void parse_ok(struct scenario *sc, const char *text)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(sc, text, "t.ini", err), 0, "%s", err);
}

/* text must fail with a message that contains want. */
static void parse_bad(const char *text, const char *want)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), -EINVAL,
		     "accepted:\n%s", text);
	assert_one_line(err);
	cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
	/* a failed parse leaves nothing to free */
	cr_assert_null(sc.paths);
	cr_assert_null(sc.jobs);
	cr_assert_eq(sc.nr_paths, 0);
	cr_assert_eq(sc.nr_jobs, 0);
}

static void set_ok(struct scenario *sc, const char *key, const char *value)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_set(sc, key, value, err), 0, "--%s=%s: %s", key,
		     value ? value : "(none)", err);
}

static void set_bad(struct scenario *sc, const char *key, const char *value,
		    const char *want)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_set(sc, key, value, err), -EINVAL,
		     "--%s=%s accepted", key, value ? value : "(none)");
	assert_one_line(err);
	cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
}

static void validate_bad(const struct scenario *sc, const char *want)
{
	char err[ERR_MAX] = "";

	cr_assert_eq(scenario_validate(sc, err), -EINVAL, "validated");
	assert_one_line(err);
	cr_assert(strstr(err, want), "message '%s' lacks '%s'", err, want);
}

/* ---- the built-in default scenario ---- */

Test(scenario, default_scenario_holds_every_value)
{
	static const char *const names[] = {
		"sdd", "sde", "sdf", "sdg", "sdh",
		"sdi", "sdj", "sdk", "sdl", "sdm",
	};
	static const double mean_us[] = {
		100, 100, 100, 275, 500, 500, 950, 950, 100, 100,
	};
	struct scenario sc;
	const struct job_conf *j;
	char err[ERR_MAX] = "";
	unsigned i;

	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s",
		     err);
	cr_assert_str_eq(sc.name, "hst-bio-mpath");
	cr_assert_eq(sc.mode, MODE_BIO);
	cr_assert_str_eq(sc.selector, "historical-service-time");
	cr_assert_str_eq(sc.selector_args, "");
	cr_assert_eq(sc.clock, START_KTIME);
	cr_assert_eq(sc.hz, 250);
	cr_assert_eq(sc.uptime, 3600 * NSEC_PER_SEC);
	cr_assert(sc.queue_if_no_path);

	cr_assert_eq(sc.nr_paths, 10);
	for (i = 0; i < 10; i++) {
		const struct path_conf *p = &sc.paths[i];

		cr_assert_str_eq(p->name, names[i]);
		cr_assert_eq(p->slots, 1, "%s", p->name);
		cr_assert_eq(p->service.kind, DIST_EXP, "%s", p->name);
		cr_assert_float_eq(p->service.mean, mean_us[i] * 1000, 0, "%s",
				   p->name);
		cr_assert_eq(p->latency, 0, "%s", p->name);
		cr_assert_eq(p->bandwidth, 0, "%s", p->name);
		cr_assert(p->request_stats, "%s", p->name);
		cr_assert_str_eq(p->path_args, "", "%s", p->name);
	}

	cr_assert_eq(sc.nr_jobs, 1);
	j = &sc.jobs[0];
	cr_assert_str_eq(j->name, "randwrite");
	cr_assert_eq(j->rw, RW_RANDWRITE);
	cr_assert_eq(j->bs, 4096);
	cr_assert_eq(j->ioengine, IOENGINE_LIBAIO);
	cr_assert_eq(j->iodepth, 64);
	cr_assert_eq(job_iodepth(j), 64);
	cr_assert_eq(j->numjobs, 1);
	cr_assert_eq(j->runtime, 10 * NSEC_PER_SEC);
	cr_assert_eq(j->ramp_time, 1 * NSEC_PER_SEC);
	cr_assert_eq(j->rwmixread, 50);
	cr_assert_eq(j->number_ios, 0);
	cr_assert_float_eq(j->rate_iops, 0.0, 0);
	cr_assert_eq(j->rate_process, RATE_LINEAR);
	cr_assert_eq(j->size, 0);
	cr_assert_not(j->time_based);

	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	scenario_free(&sc);
}

Test(scenario, builtin_list)
{
	struct scenario sc;
	char err[ERR_MAX] = "";
	bool found = false;
	const char *n;
	unsigned i;

	for (i = 0; (n = scenario_builtin_name(i)); i++) {
		cr_assert_lt(i, 1000, "the list does not end");
		cr_assert_not_null(scenario_builtin_text(n), "%s", n);
		found |= !strcmp(n, "hst-bio-mpath");
	}
	cr_assert(found);
	cr_assert_null(scenario_builtin_text("no-such-scenario"));

	cr_assert_eq(scenario_load_builtin(&sc, "no-such", err), -EINVAL);
	assert_one_line(err);
	cr_assert(strstr(err, "unknown scenario 'no-such'"), "%s", err);
	cr_assert(strstr(err, "hst-bio-mpath"), "%s", err);
	cr_assert_null(sc.paths);
}

/* ---- the file format ---- */

Test(scenario, defaults_and_the_default_job)
{
	struct scenario sc;
	const struct path_conf *p;
	const struct job_conf *j;

	parse_ok(&sc, ONE_PATH);
	cr_assert_eq(sc.mode, MODE_BIO);
	cr_assert_str_eq(sc.selector, "historical-service-time");
	cr_assert_eq(sc.clock, START_KTIME);
	cr_assert_eq(sc.hz, 250);
	cr_assert_eq(sc.uptime, 3600 * NSEC_PER_SEC);
	cr_assert_not(sc.queue_if_no_path);
	p = &sc.paths[0];
	cr_assert_eq(p->slots, 1);
	cr_assert(p->request_stats);
	cr_assert_eq(sc.nr_jobs, 1);
	j = &sc.jobs[0];
	cr_assert_str_eq(j->name, "default");
	cr_assert_eq(j->rw, RW_READ);
	cr_assert_eq(j->bs, 4096);
	cr_assert_eq(j->iodepth, 1);
	cr_assert_eq(j->numjobs, 1);
	cr_assert_eq(j->rwmixread, 50);
	/* not fio's psync: depth is honoured unless an engine says not */
	cr_assert_eq(j->ioengine, IOENGINE_LIBAIO);
	cr_assert_eq(job_iodepth(j), 1);
	scenario_free(&sc);
}

Test(scenario, every_key)
{
	struct scenario sc;
	const struct path_conf *p;
	const struct job_conf *j;

	parse_ok(&sc,
		 "[multipath]\n"
		 "mode = request\n"
		 "selector = service-time\n"
		 "selector_args = 972 0\n"
		 "clock = jiffies-aligned\n"
		 "hz = 300\n"
		 "uptime = 100\n"
		 "queue_if_no_path = off\n"
		 "[path 8:48]\n"
		 "slots = 0\n"
		 "service = gamma:1ms,0.5\n"
		 "latency = 2ms\n"
		 "bandwidth = 500M/s\n"
		 "request_stats = no\n"
		 "path_args = 1 2\n"
		 "[mixed]\n"
		 "readwrite = randrw\n"
		 "rwmixwrite = 30\n"
		 "blocksize = 64k\n"
		 "iodepth = 8\n"
		 "numjobs = 3\n"
		 "number_ios = 1k\n"
		 "timeout = 20\n"
		 "ramp_time = 500ms\n"
		 "rate_iops = 1k\n"
		 "rate_process = poisson\n"
		 "ioengine = io_uring\n"
		 "time_based\n"
		 "size = 1g\n"
		 "direct = 1\n"
		 "group_reporting\n"
		 "filename = /dev/dm-0\n"
		 "name = renamed\n");
	cr_assert_eq(sc.mode, MODE_REQUEST);
	cr_assert_str_eq(sc.selector, "service-time");
	cr_assert_str_eq(sc.selector_args, "972 0");
	cr_assert_eq(sc.clock, START_JIFFIES_ALIGNED);
	cr_assert_eq(sc.hz, 300);
	cr_assert_eq(sc.uptime, 100 * NSEC_PER_SEC);
	cr_assert_not(sc.queue_if_no_path);

	p = &sc.paths[0];
	cr_assert_str_eq(p->name, "8:48");
	cr_assert_eq(p->slots, 0);
	cr_assert_eq(p->service.kind, DIST_GAMMA);
	cr_assert_float_eq(p->service.mean, 1e6, 0);
	cr_assert_float_eq(p->service.cv, 0.5, 0);
	cr_assert_eq(p->latency, 2 * NSEC_PER_MSEC);
	cr_assert_eq(p->bandwidth, 500ULL << 20);
	cr_assert_not(p->request_stats);
	cr_assert_str_eq(p->path_args, "1 2");

	cr_assert_eq(sc.nr_jobs, 1);
	j = &sc.jobs[0];
	cr_assert_str_eq(j->name, "renamed");
	cr_assert_eq(j->rw, RW_RANDRW);
	cr_assert_eq(j->rwmixread, 70);
	cr_assert_eq(j->bs, 65536);
	cr_assert_eq(j->iodepth, 8);
	cr_assert_eq(job_iodepth(j), 8);
	cr_assert_eq(j->numjobs, 3);
	cr_assert_eq(j->number_ios, 1024);
	cr_assert_eq(j->runtime, 20 * NSEC_PER_SEC);
	cr_assert_eq(j->ramp_time, 500 * NSEC_PER_MSEC);
	cr_assert_float_eq(j->rate_iops, 1024.0, 0);
	cr_assert_eq(j->rate_process, RATE_POISSON);
	cr_assert_eq(j->ioengine, IOENGINE_IO_URING);
	cr_assert(j->time_based);
	cr_assert_eq(j->size, 1ULL << 30);
	scenario_free(&sc);
}

Test(scenario, bare_numbers_per_key)
{
	struct scenario sc;

	/* runtime, ramp_time (fio) and uptime: a bare number is seconds */
	parse_ok(&sc, "[multipath]\nuptime = 7\n" ONE_PATH
		 "[j]\nruntime = 10\nramp_time = 2\n");
	cr_assert_eq(sc.uptime, 7 * NSEC_PER_SEC);
	cr_assert_eq(sc.jobs[0].runtime, 10 * NSEC_PER_SEC);
	cr_assert_eq(sc.jobs[0].ramp_time, 2 * NSEC_PER_SEC);
	scenario_free(&sc);

	/* latency and service times need a unit; bandwidth is bytes */
	parse_bad("[path a]\nservice = exp:100us\nlatency = 5\n",
		  "t.ini:3: latency: '5' needs a time unit");
	parse_bad("[path a]\nservice = exp:100\n", "t.ini:2: service: mean:");
	parse_ok(&sc, "[path a]\nservice = exp:100us\nlatency = 0\n"
		 "bandwidth = 1000\n");
	cr_assert_eq(sc.paths[0].latency, 0);
	cr_assert_eq(sc.paths[0].bandwidth, 1000);
	scenario_free(&sc);
}

Test(scenario, rwmix_and_rw_names)
{
	static const struct {
		const char *v;
		enum rw_mode rw;
	} rws[] = {
		{ "read", RW_READ }, { "write", RW_WRITE },
		{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
		{ "rw", RW_RW }, { "readwrite", RW_RW },
		{ "randrw", RW_RANDRW },
	};
	struct scenario sc;
	char text[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rws); i++) {
		snprintf(text, sizeof(text), ONE_PATH "[j]\nrw=%s\n", rws[i].v);
		parse_ok(&sc, text);
		cr_assert_eq(sc.jobs[0].rw, rws[i].rw, "%s", rws[i].v);
		if (strcmp(rws[i].v, "readwrite"))
			cr_assert_str_eq(rw_name(sc.jobs[0].rw), rws[i].v);
		else
			cr_assert_str_eq(rw_name(sc.jobs[0].rw), "rw");
		scenario_free(&sc);
	}
	parse_ok(&sc, ONE_PATH "[j]\nrwmixread=80\n[k]\nrwmixwrite=80\n");
	cr_assert_eq(sc.jobs[0].rwmixread, 80);
	cr_assert_eq(sc.jobs[1].rwmixread, 20);
	scenario_free(&sc);
	parse_bad(ONE_PATH "[j]\nrw=sideways\n",
		  "t.ini:4: rw: 'sideways' is not one of");
	parse_bad(ONE_PATH "[j]\nrwmixread=101\n", "out of range");
	parse_bad(ONE_PATH "[j]\nrwmixwrite=-1\n", "negative");
}

Test(scenario, ioengines_and_effective_depth)
{
	static const struct {
		const char *name;
		bool sync;
	} engines[] = {
		{ "libaio", false }, { "io_uring", false },
		{ "posixaio", false },
		{ "sync", true }, { "psync", true }, { "pvsync", true },
		{ "pvsync2", true }, { "vsync", true },
	};
	struct scenario sc;
	char text[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++) {
		snprintf(text, sizeof(text),
			 ONE_PATH "[j]\niodepth=32\nioengine=%s\n",
			 engines[i].name);
		parse_ok(&sc, text);
		cr_assert_eq(ioengine_sync(sc.jobs[0].ioengine),
			     engines[i].sync, "%s", engines[i].name);
		cr_assert_eq(job_iodepth(&sc.jobs[0]), engines[i].sync ? 1 : 32,
			     "%s", engines[i].name);
		cr_assert_eq(sc.jobs[0].iodepth, 32);
		cr_assert_str_eq(ioengine_name(sc.jobs[0].ioengine),
				 engines[i].name);
		scenario_free(&sc);
	}
	parse_bad(ONE_PATH "[j]\nioengine=mmap\n",
		  "unsupported ioengine 'mmap'");
	parse_bad(ONE_PATH "[j]\nioengine=external:foo.so\n",
		  "unsupported ioengine");
}

Test(scenario, global_applies_to_the_jobs_after_it)
{
	struct scenario sc;

	parse_ok(&sc, ONE_PATH
		 "[global]\nbs=8k\niodepth=4\nioengine=libaio\n"
		 "[a]\n"
		 "[global]\niodepth=16\n"
		 "[b]\niodepth=2\n"
		 "[c]\n");
	cr_assert_eq(sc.nr_jobs, 3);
	cr_assert_str_eq(sc.jobs[0].name, "a");
	cr_assert_eq(sc.jobs[0].bs, 8192);
	cr_assert_eq(sc.jobs[0].iodepth, 4);
	cr_assert_str_eq(sc.jobs[1].name, "b");
	cr_assert_eq(sc.jobs[1].bs, 8192);
	cr_assert_eq(sc.jobs[1].iodepth, 2);
	cr_assert_str_eq(sc.jobs[2].name, "c");
	cr_assert_eq(sc.jobs[2].iodepth, 16);
	cr_assert_eq(sc.jobs[2].ioengine, IOENGINE_LIBAIO);
	scenario_free(&sc);

	/* a [global] with no job after it shapes the default job */
	parse_ok(&sc, ONE_PATH "[global]\nrw=randwrite\nnumjobs=2\n");
	cr_assert_eq(sc.nr_jobs, 1);
	cr_assert_eq(sc.jobs[0].rw, RW_RANDWRITE);
	cr_assert_eq(sc.jobs[0].numjobs, 2);
	scenario_free(&sc);
}

Test(scenario, comments_spacing_and_line_ends)
{
	struct scenario sc;

	parse_ok(&sc,
		 "; a comment\r\n"
		 "# another\r\n"
		 "   \r\n"
		 "  [multipath]  ; trailing comment, as fio cuts it\r\n"
		 "hz=1000\r\n"
		 "\tselector =  queue-length   # so is this\r\n"
		 "[ path   sdb ]\r\n"
		 "service=fixed:1ms\r\n"
		 "[j]\n"
		 "bs =4k;\n"
		 "iodepth= 3");
	cr_assert_eq(sc.hz, 1000);
	cr_assert_str_eq(sc.selector, "queue-length");
	cr_assert_str_eq(sc.paths[0].name, "sdb");
	cr_assert_eq(sc.paths[0].service.kind, DIST_FIXED);
	cr_assert_eq(sc.jobs[0].bs, 4096);
	cr_assert_eq(sc.jobs[0].iodepth, 3);
	scenario_free(&sc);
}

Test(scenario, empty_text_parses_but_does_not_validate)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	parse_ok(&sc, "");
	cr_assert_eq(sc.nr_paths, 0);
	cr_assert_eq(sc.nr_jobs, 1);
	validate_bad(&sc, "t.ini: no paths");
	scenario_free(&sc);

	parse_ok(&sc, "; only a comment\n\n");
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	scenario_free(&sc);
}

/* ---- errors name the file, the line and what was wrong ---- */

Test(scenario, errors_name_file_and_line)
{
	parse_bad("[multipath]\nhz = 250\n\n; x\nhz = 251\n",
		  "t.ini:5: hz: HZ '251' is not one a kernel is built with");
	parse_bad("[multipath]\nbogus = 1\n",
		  "t.ini:2: unknown option 'bogus'");
	parse_bad("[multipath]\ndepth = 1\n",
		  "t.ini:2: unknown option 'depth'");
	parse_bad("[multipath]\niodepth = 1\n",
		  "t.ini:2: iodepth: not an option here (it belongs in a job "
		  "section or [global])");
	parse_bad("[j]\nselector = st\n",
		  "t.ini:2: selector: not an option here (it belongs in "
		  "[multipath])");
	parse_bad("[j]\nslots = 2\n", "belongs in [path NAME]");
	parse_bad("hz = 250\n",
		  "t.ini:1: option 'hz' outside of any [section]");
	parse_bad("\n\n[multipath\n",
		  "t.ini:3: a section header without its ']'");
	parse_bad("[multipath] x\n", "t.ini:1: text after a section header");
	parse_bad("[]\n", "t.ini:1: empty section name");
	parse_bad("[a[b]\n", "stray bracket");
	parse_bad("[multipath]\n= 4\n", "t.ini:2: option without a name");
	parse_bad("[multipath]\nclock = bogus\n",
		  "t.ini:2: clock: unknown clock 'bogus'");
	parse_bad("[multipath]\nmode = dm\n",
		  "t.ini:2: mode: unknown mode 'dm'");
	parse_bad("[multipath]\nselector\n",
		  "t.ini:2: selector: needs a value");
	parse_bad("[multipath]\nselector =\n",
		  "t.ini:2: selector: empty value");
	parse_bad("[multipath]\nqueue_if_no_path = maybe\n", "not a boolean");
	parse_bad("[multipath]\nuptime = -1\n", "uptime: '-1' is negative");
	parse_bad("[multipath]\nhz = 99999999999999999999\n", "too large");
}

Test(scenario, errors_in_built_in_text_name_the_scenario)
{
	struct scenario sc;
	char err[ERR_MAX];

	cr_assert_eq(scenario_parse(&sc, "[x]\nbs = 0\n", "hst-bio-mpath", err),
		     -EINVAL);
	cr_assert(strstr(err, "hst-bio-mpath:2: bs: a size must be at least 1"),
		  "%s", err);
}

Test(scenario, sections)
{
	parse_bad("[multipath]\n[multipath]\n",
		  "t.ini:2: duplicate section [multipath]");
	parse_bad(ONE_PATH "[path a]\nservice = exp:1ms\n",
		  "t.ini:3: duplicate section [path a]");
	parse_bad("[path]\n", "t.ini:1: a path section needs a name");
	parse_bad("[path   ]\n", "a path section needs a name");
	parse_bad("[path a b]\n", "may hold only letters");
	parse_bad("[path abcdefghijabcdefghijabcdefghijab]\n",
		  "longer than 31");
	parse_bad(ONE_PATH "[j]\n[j]\n", "t.ini:4: duplicate job section [j]");
	parse_bad(ONE_PATH "[j]\n[k]\nname = j\n",
		  "t.ini:5: name: another job is already named 'j'");
	parse_bad(ONE_PATH "[global]\nname = x\n", "not an option of [global]");
	parse_bad(ONE_PATH "[abcdefghijabcdefghijabcdefghijabc]\n",
		  "longer than 31");
	parse_bad("\n[path a]\nslots = 2\n\n[path b]\nservice = exp:1ms\n",
		  "t.ini:2: [path a] has no service=");
}

Test(scenario, job_values_out_of_range)
{
	parse_bad(ONE_PATH "[j]\niodepth = 0\n",
		  "t.ini:4: iodepth: '0' is out of range");
	parse_bad(ONE_PATH "[j]\niodepth = -1\n", "negative");
	parse_bad(ONE_PATH "[j]\niodepth = 1048577\n", "out of range");
	parse_bad(ONE_PATH "[j]\nnumjobs = 0\n", "out of range");
	parse_bad(ONE_PATH "[j]\nbs = 0\n", "at least 1 byte");
	parse_bad(ONE_PATH "[j]\nbs = 4g\n", "larger than 4 GiB");
	parse_bad(ONE_PATH "[j]\nbs = 4k,8k,16k,32k\n", "more than three");
	parse_bad(ONE_PATH "[j]\nbs = 4x\n", "unknown size unit");
	parse_bad(ONE_PATH "[j]\nnumber_ios = 18446744073709551616\n",
		  "too large");
	parse_bad(ONE_PATH "[j]\nruntime = 10y\n", "unknown time unit");
	parse_bad(ONE_PATH "[j]\nrate_iops = 2g\n", "more than one I/O per ns");
	parse_bad(ONE_PATH "[j]\nrate_process = bursty\n",
		  "not linear or poisson");
	parse_bad(ONE_PATH "[j]\ntime_based = 2\n", "not a boolean");
	parse_bad(ONE_PATH "[j]\nfilename =\n", "empty value");
	parse_bad("[path a]\nslots = 2000000\n", "out of range");
	parse_bad("[path a]\nservice = exp:1us\nbandwidth = 5q/s\n",
		  "unknown size unit");
}

/* ---- command-line overrides ---- */

Test(scenario, overrides_set_every_job)
{
	struct scenario sc;

	parse_ok(&sc, ONE_PATH "[a]\niodepth=2\n[b]\niodepth=4\nbs=8k\n");
	set_ok(&sc, "iodepth", "16");
	cr_assert_eq(sc.jobs[0].iodepth, 16);
	cr_assert_eq(sc.jobs[1].iodepth, 16);
	set_ok(&sc, "depth", " 32 ");
	cr_assert_eq(sc.jobs[0].iodepth, 32);
	cr_assert_eq(sc.jobs[1].iodepth, 32);
	set_ok(&sc, "bs", "64k");
	cr_assert_eq(sc.jobs[0].bs, 65536);
	cr_assert_eq(sc.jobs[1].bs, 65536);
	set_ok(&sc, "readwrite", "randrw");
	cr_assert_eq(sc.jobs[1].rw, RW_RANDRW);
	set_ok(&sc, "time_based", NULL);
	cr_assert(sc.jobs[0].time_based);
	set_ok(&sc, "runtime", "3");
	cr_assert_eq(sc.jobs[1].runtime, 3 * NSEC_PER_SEC);
	set_ok(&sc, "number_ios", "1m");
	cr_assert_eq(sc.jobs[0].number_ios, 1048576);
	scenario_free(&sc);
}

Test(scenario, overrides_set_multipath_values)
{
	struct scenario sc;

	parse_ok(&sc, ONE_PATH);
	set_ok(&sc, "selector", "service-time");
	cr_assert_str_eq(sc.selector, "service-time");
	set_ok(&sc, "selector_args", "");
	cr_assert_str_eq(sc.selector_args, "");
	set_ok(&sc, "clock", "jiffies");
	cr_assert_eq(sc.clock, START_JIFFIES);
	set_ok(&sc, "hz", "1000");
	cr_assert_eq(sc.hz, 1000);
	set_ok(&sc, "mode", "request");
	cr_assert_eq(sc.mode, MODE_REQUEST);
	set_ok(&sc, "uptime", "1h");
	cr_assert_eq(sc.uptime, 3600 * NSEC_PER_SEC);
	set_ok(&sc, "queue_if_no_path", "yes");
	cr_assert(sc.queue_if_no_path);
	scenario_free(&sc);
}

Test(scenario, bad_overrides_name_the_option)
{
	struct scenario sc;

	parse_ok(&sc, ONE_PATH "[j]\niodepth = 8\n");
	set_bad(&sc, "clock", "bogus", "--clock: unknown clock 'bogus'");
	cr_assert_eq(sc.clock, START_KTIME);
	set_bad(&sc, "iodepth", "0", "--iodepth: '0' is out of range");
	set_bad(&sc, "depth", "x", "--depth: 'x' is not a number");
	cr_assert_eq(sc.jobs[0].iodepth, 8);
	set_bad(&sc, "hz", "251", "--hz: HZ '251'");
	set_bad(&sc, "bogus", "1", "unknown option --bogus");
	set_bad(&sc, "name", "x", "unknown option --name");
	set_bad(&sc, "slots", "2", "--slots: a [path] option");
	set_bad(&sc, "bs", NULL, "--bs: needs a value");
	set_bad(&sc, "selector", "a\nb", "--selector:");
	set_bad(&sc, "x\ny", "1", "unknown option --x\\ny");
	scenario_free(&sc);
}

Test(scenario, override_before_any_job_makes_the_default_job)
{
	struct scenario sc;

	scenario_init(&sc);
	set_ok(&sc, "iodepth", "4");
	cr_assert_eq(sc.nr_jobs, 1);
	cr_assert_eq(sc.jobs[0].iodepth, 4);
	cr_assert_eq(sc.jobs[0].bs, 4096);
	scenario_free(&sc);
}

/* ---- validation ---- */

Test(scenario, validate)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	mpsim_quiet = 1;
	parse_ok(&sc, ONE_PATH "[j]\nruntime = 1s\n");
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);

	sc.hz = 123;
	validate_bad(&sc, "t.ini: HZ 123");
	sc.hz = 250;
	sc.jobs[0].iodepth = 0;
	validate_bad(&sc, "t.ini: job j: iodepth 0");
	sc.jobs[0].iodepth = 1;
	sc.jobs[0].numjobs = 0;
	validate_bad(&sc, "numjobs is 0");
	sc.jobs[0].numjobs = 1;
	sc.jobs[0].bs = 0;
	validate_bad(&sc, "bs 0");
	sc.jobs[0].bs = 4096;
	sc.jobs[0].runtime = 0;
	validate_bad(&sc, "t.ini: job j: never ends");
	sc.jobs[0].number_ios = 100;
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	sc.jobs[0].number_ios = 0;
	sc.jobs[0].size = 1 << 20;
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	sc.jobs[0].time_based = true;
	validate_bad(&sc, "never ends");
	sc.jobs[0].runtime = NSEC_PER_SEC;
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);

	/* a synchronous engine caps depth at 1: a warning, not an error */
	sc.jobs[0].ioengine = IOENGINE_PSYNC;
	sc.jobs[0].iodepth = 64;
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(job_iodepth(&sc.jobs[0]), 1);

	sc.jobs[0].ioengine = IOENGINE_LIBAIO;
	sc.jobs[0].iodepth = 1048577;
	validate_bad(&sc, "iodepth 1048577 is out of range");
	sc.jobs[0].iodepth = 65536;
	sc.jobs[0].numjobs = 32;
	validate_bad(&sc, "I/Os in flight");
	sc.jobs[0].iodepth = 1;
	sc.jobs[0].numjobs = 4097;
	validate_bad(&sc, "job clones");
	scenario_free(&sc);
}

Test(scenario, zero_paths_fail_validate)
{
	struct scenario sc;

	parse_ok(&sc, "[multipath]\nselector = st\n[j]\nruntime=1\n");
	cr_assert_eq(sc.nr_paths, 0);
	validate_bad(&sc, "no paths");
	scenario_free(&sc);
}

/* ---- copy, free, files ---- */

Test(scenario, copy_is_deep)
{
	struct scenario a, b;
	char err[ERR_MAX];

	cr_assert_eq(scenario_load_builtin(&a, "hst-bio-mpath", err), 0);
	scenario_copy(&b, &a);
	cr_assert_eq(b.nr_paths, a.nr_paths);
	cr_assert_eq(b.nr_jobs, a.nr_jobs);
	cr_assert_neq(b.paths, a.paths);
	cr_assert_neq(b.jobs, a.jobs);
	b.paths[0].slots = 9;
	b.jobs[0].iodepth = 9;
	strcpy(b.selector, "round-robin");
	cr_assert_eq(a.paths[0].slots, 1);
	cr_assert_eq(a.jobs[0].iodepth, 64);
	cr_assert_str_eq(a.selector, "historical-service-time");
	cr_assert_str_eq(b.paths[9].name, "sdm");
	scenario_free(&a);
	scenario_free(&a);
	cr_assert_null(a.paths);
	cr_assert_eq(a.nr_paths, 0);
	cr_assert_eq(b.paths[0].slots, 9);
	scenario_free(&b);
}

/* A path where an I/O takes no time would stop the clock of a closed loop
 * for good: refused unless a latency or a dm-delay on every class makes
 * each I/O take time. */
Test(scenario, a_path_where_io_takes_no_time_is_refused)
{
	struct scenario sc;
	char err[ERR_MAX] = "";

	parse_ok(&sc, "[path a]\nservice = fixed:0\n[j]\nruntime = 1s\n");
	validate_bad(&sc, "t.ini: [path a]: an I/O would take no time");
	sc.paths[0].latency = 1;
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	sc.paths[0].latency = 0;
	set_ok(&sc, "read_delay", "1ms");
	validate_bad(&sc, "an I/O would take no time");	/* writes pass */
	set_ok(&sc, "delay", "1ms");
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	scenario_free(&sc);

	parse_ok(&sc, "[path a]\nservice = uniform:0,0\n[j]\nruntime = 1s\n");
	validate_bad(&sc, "an I/O would take no time");
	scenario_free(&sc);
	parse_ok(&sc, "[path a]\nservice = uniform:0,1ns\n[j]\nruntime = 1s\n");
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	scenario_free(&sc);
}

/* Writes n bytes to a new temporary file; returns its name (free it). */
static char *temp_file(const void *data, size_t n)
{
	const char *dir = getenv("TMPDIR");
	char *name;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	name = malloc(strlen(dir) + 32);
	cr_assert_not_null(name);
	sprintf(name, "%s/mpsim-test-XXXXXX", dir);
	fd = mkstemp(name);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, data, n), (ssize_t)n);
	close(fd);
	return name;
}

Test(scenario, load_file)
{
	static const char text[] = ONE_PATH "[j]\niodepth = 7\nbs = 4k oops\n";
	struct scenario sc;
	char err[ERR_MAX] = "", want[ERR_MAX + 64];
	char *name;

	name = temp_file(ONE_PATH, strlen(ONE_PATH));
	cr_assert_eq(scenario_load_file(&sc, name, err), 0, "%s", err);
	cr_assert_eq(sc.nr_paths, 1);
	cr_assert_eq(strncmp(sc.name, name, sizeof(sc.name) - 1), 0);
	scenario_free(&sc);
	unlink(name);
	free(name);

	name = temp_file(text, strlen(text));
	cr_assert_eq(scenario_load_file(&sc, name, err), -EINVAL);
	snprintf(want, sizeof(want), "%s:5: bs: unknown size unit", name);
	cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
	unlink(name);
	free(name);

	cr_assert_eq(scenario_load_file(&sc, "no/such/dir/x.ini", err),
		     -EINVAL);
	cr_assert_str_eq(err, "no/such/dir/x.ini: No such file or directory");
	cr_assert_eq(scenario_load_file(&sc, ".", err), -EINVAL);
	assert_one_line(err);
	cr_assert(strstr(err, ".: "), "%s", err);
}

Test(scenario, load_file_refuses_binary_and_huge_files)
{
	static const char nul[] = "[path a]\0service = exp:1us\n";
	struct scenario sc;
	char err[ERR_MAX] = "";
	size_t n = 1024 * 1024 + 1;
	char *big, *name;

	name = temp_file(nul, sizeof(nul) - 1);
	cr_assert_eq(scenario_load_file(&sc, name, err), -EINVAL);
	cr_assert(strstr(err, "NUL bytes"), "%s", err);
	unlink(name);
	free(name);

	big = malloc(n);
	cr_assert_not_null(big);
	memset(big, '\n', n);
	name = temp_file(big, n);
	cr_assert_eq(scenario_load_file(&sc, name, err), -EINVAL);
	cr_assert(strstr(err, "larger than 1 MiB"), "%s", err);
	unlink(name);
	free(name);

	/* exactly 1 MiB of blank lines is a (pathless) scenario */
	name = temp_file(big, n - 1);
	cr_assert_eq(scenario_load_file(&sc, name, err), 0, "%s", err);
	scenario_free(&sc);
	unlink(name);
	free(name);
	free(big);
}

/* ---- hostile input ---- */

Test(scenario, very_long_lines)
{
	size_t n = 200000;
	char *text = malloc(n + 64);
	struct scenario sc;
	char err[ERR_MAX] = "";

	cr_assert_not_null(text);
	strcpy(text, "[multipath]\nselector = ");
	memset(text + strlen(text), 'x', n);
	strcpy(text + 23 + n, "\n");
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), -EINVAL);
	assert_one_line(err);
	cr_assert(strstr(err, "t.ini:2: selector:"), "%s", err);

	memset(text, '[', n);
	text[n] = '\0';
	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), -EINVAL);
	assert_one_line(err);
	free(text);
}

/* Limits are checked as they are reached: 40 000 job sections took 23 s
 * of quadratic name checks before the clone limit refused them. */
Test(scenario, counts_are_refused_as_they_are_reached, .timeout = 10)
{
	size_t n = 40000, i, len = 0, cap = n * 32 + 64;
	char *text = malloc(cap);

	cr_assert_not_null(text);
	len += (size_t)sprintf(text, ONE_PATH);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"[j%zu]\nnumber_ios=1\n", i);
	/* two lines per path, two per job: section 4097 is on line 8195 */
	parse_bad(text, "t.ini:8195: more than 4096 job sections");

	len = (size_t)sprintf(text, ONE_PATH "[multipath]\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"fail = a at %zums\n", i);
	parse_bad(text, "t.ini:4100: fail: more than 4096 fail= and "
		  "reinstate= events");
	free(text);
}

/* What one run allocates is bounded: 35 000 paths took 2.2 GB for one run
 * (a 59 KiB latency histogram each) and about 10 GB for a comparison. */
Test(scenario, paths_are_bounded)
{
	size_t n = 300, i, len = 0, cap = n * 48 + 64;
	char *text = malloc(cap);
	struct scenario sc;

	cr_assert_not_null(text);
	for (i = 0; i < SCENARIO_MAX_PATHS; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"[path p%zu]\nservice = exp:1ms\n", i);
	parse_ok(&sc, text);
	cr_assert_eq(sc.nr_paths, 256);
	scenario_free(&sc);
	for (; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"[path p%zu]\nservice = exp:1ms\n", i);
	parse_bad(text, "t.ini:513: more than 256 paths, the limit of a "
		  "scenario");
	free(text);
}

/* Each job section's I/O log is a copy in the run: 4 Mi entries in all. */
Test(scenario, log_entries_of_a_run_are_bounded, .timeout = 60)
{
	size_t n = (IOLOG_MAX_ENTRIES >> 4) + 1, ll = 11, i, len;
	char *log = malloc(32 + n * ll), *name, *text, err[ERR_MAX] = "";
	struct scenario sc;

	cr_assert_not_null(log);
	len = (size_t)sprintf(log, "fio version 2 iolog\nf add\n");
	for (i = 0; i < n; i++, len += ll)
		memcpy(log + len, "f read 0 1\n", ll);
	name = temp_file(log, len);
	free(log);
	text = malloc(strlen(name) * 17 + 512);
	cr_assert_not_null(text);
	len = (size_t)sprintf(text, ONE_PATH);
	/* 15 sections: 15/16 of the limit and a little more, accepted */
	for (i = 0; i < 15; i++)
		len += (size_t)sprintf(text + len, "[j%zu]\nread_iolog=%s\n",
				       i, name);
	parse_ok(&sc, text);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	scenario_free(&sc);
	sprintf(text + len, "[j15]\nread_iolog=%s\n", name);
	parse_ok(&sc, text);
	validate_bad(&sc, "job j15: ");
	validate_bad(&sc, ": the I/O logs of all jobs hold more than 4194304 "
		     "entries, the limit of a run");
	scenario_free(&sc);
	unlink(name);
	free(name);
	free(text);
}

/* Parses text; it may fail, but only with -EINVAL and a one-line message. */
static void survive(const char *text, size_t *accepted)
{
	struct scenario sc, copy;
	char err[ERR_MAX];
	int r;

	err[0] = '\0';
	r = scenario_parse(&sc, text, "fuzz", err);
	cr_assert(r == 0 || r == -EINVAL, "returned %d", r);
	if (r) {
		assert_one_line(err);
		cr_assert_eq(strncmp(err, "fuzz:", 5), 0, "%s", err);
		cr_assert_null(sc.paths);
		return;
	}
	++*accepted;
	cr_assert_geq(sc.nr_jobs, 1);
	if (scenario_validate(&sc, err))
		assert_one_line(err);
	scenario_copy(&copy, &sc);
	scenario_free(&copy);
	scenario_free(&sc);
}

Test(scenario, fuzz_random_bytes)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t accepted = 0, len, i, k;
	char buf[512];

	gsl_rng_set(rng, 20220401);
	for (i = 0; i < 3000; i++) {
		len = gsl_rng_uniform_int(rng, sizeof(buf));
		for (k = 0; k < len; k++)
			buf[k] = (char)(1 + gsl_rng_uniform_int(rng, 255));
		buf[len] = '\0';
		survive(buf, &accepted);
	}
	/* nearly all junk is refused; blank-ish strings are not */
	cr_assert_lt(accepted, 3000);
	gsl_rng_free(rng);
}

Test(scenario, fuzz_mutated_default)
{
	static const char alphabet[] = "[]=;#:,.\n\r\t 0123456789kmgKMGusnhx-+"
				       "abcdefghijklmnopqrstuvwxyz_\x01\xff";
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const char *orig = scenario_builtin_text("hst-bio-mpath");
	size_t n, accepted = 0, i, m, at, len, del;
	char *buf;

	mpsim_quiet = 1;
	cr_assert_not_null(orig);
	n = strlen(orig);
	buf = malloc(2 * n + 64);
	cr_assert_not_null(buf);
	gsl_rng_set(rng, 5190);
	for (i = 0; i < 4000; i++) {
		memcpy(buf, orig, n + 1);
		len = n;
		for (m = 1 + gsl_rng_uniform_int(rng, 4); m; m--) {
			at = gsl_rng_uniform_int(rng, len + 1);
			switch (gsl_rng_uniform_int(rng, 4)) {
			case 0:		/* replace a byte */
				if (at < len)
					buf[at] = alphabet[gsl_rng_uniform_int(
						rng, sizeof(alphabet) - 1)];
				break;
			case 1:		/* insert a byte */
				memmove(buf + at + 1, buf + at, len - at + 1);
				buf[at] = alphabet[gsl_rng_uniform_int(
					rng, sizeof(alphabet) - 1)];
				len++;
				break;
			case 2:		/* delete up to 8 bytes */
				del = 1 + gsl_rng_uniform_int(rng, 8);
				if (at + del > len)
					del = len - at;
				memmove(buf + at, buf + at + del,
					len - at - del + 1);
				len -= del;
				break;
			default:	/* cut the text short */
				buf[at] = '\0';
				len = at;
				break;
			}
		}
		survive(buf, &accepted);
	}
	/* the mutations leave both good and bad scenarios */
	cr_assert_gt(accepted, 0);
	cr_assert_lt(accepted, 4000);
	free(buf);
	gsl_rng_free(rng);
}

Test(scenario, one_path_is_overridden_by_name)
{
	char err[ERR_MAX];
	struct scenario sc;

	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "path.sdj.service", "fixed:2ms", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_set(&sc, "path.sdk.slots", "4", err), 0, "%s", err);
	/* sdj is the seventh path; only it changed */
	cr_assert_str_eq(sc.paths[6].name, "sdj");
	cr_assert_eq(sc.paths[6].service.kind, DIST_FIXED);
	cr_assert_float_eq(sc.paths[6].service.mean, 2e6, 1e-9);
	cr_assert_eq(sc.paths[7].slots, 4);
	cr_assert_eq(sc.paths[5].service.kind, DIST_EXP);
	cr_assert_eq(sc.paths[8].slots, 1);
	/* and what is wrong is named */
	cr_assert_eq(scenario_set(&sc, "path.sdz.slots", "2", err), -EINVAL);
	cr_assert(strstr(err, "sdz"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "path.sdj.iodepth", "2", err), -EINVAL);
	cr_assert(strstr(err, "not a [path] option"), "%s", err);
	cr_assert_eq(scenario_set(&sc, "path.sdj", "2", err), -EINVAL);
	cr_assert_eq(scenario_set(&sc, "path.sdj.slots", "-1", err), -EINVAL);
	scenario_free(&sc);
}
