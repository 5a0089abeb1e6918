/*
 * cli.c: option handling shared by the commands, and the commands that
 * run a scenario (run, compare) or describe what is built in (list).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../selectors/ksource.h"
#include "../selectors/selector.h"
#include "cli.h"
#include "run.h"
#include "trace.h"

#define DEFAULT_SCENARIO	"hst-bio-mpath"

void cli_usage(FILE *f)
{
	fputs(
"usage: mpsim [COMMAND] [--option=value ...]\n"
"\n"
"Simulates Linux dm-multipath path selection over paths of unequal cost.\n"
"\n"
"commands:\n"
"  (none)            no options: the comparison table of the default scenario\n"
"                    with options: one run, per-path results\n"
"  run               one run, per-path results\n"
"  compare           every selector/clock column on one scenario\n"
"  sweep             batch runs over lists and ranges of option values, with\n"
"                    replications and confidence intervals (mpsim sweep --help)\n"
"  merge             join per-point sweep files (mpsim merge --help)\n"
"  list selectors|scenarios|options\n"
"  bench             simulated I/Os per second of wall time, per selector\n"
"  timers            the kernel timer-wheel catch-up experiment\n"
"  published         the 2022 HST table beside mpsim's (--sensitivity)\n"
"\n"
"options of run and compare:\n"
"  --scenario=FILE|NAME   scenario file (ini) or built-in name\n"
"                         (default " DEFAULT_SCENARIO ")\n"
"  --seed=N               random seed (default 1); same seed, same output\n"
"  --format=table|csv|json\n"
"  --selector=NAME        round-robin|rr, queue-length|ql, service-time|st,\n"
"                         historical-service-time|hst, io-affinity|ioa\n"
"  --selector-source=FILE a kernel dm-ps-*.c, compiled and run as the selector\n"
"                         (compare: also a 'source' column)\n"
"  --ncpus=N --numa_nodes=N   the simulated CPUs, for io-affinity (fio's\n"
"                         cpus_allowed/cpumask pin a job's clones)\n"
"  --selector_args='W..'  the selector's table arguments (e.g. '972 0')\n"
"  --clock=jiffies|jiffies-aligned|ktime   bio-mode start stamp\n"
"  --mode=bio|request     --hz=100|250|300|1000   --uptime=3600s\n"
"  --queue_if_no_path=0|1\n"
"  --kernel=X.Y[.Z]       the clocks of that release (5.10: jiffies stamp and\n"
"                         sched_clock in select_path; 5.10.112: ktime there;\n"
"                         5.19+: ktime for both)\n"
"  --select_clock=ktime|sched_clock   what select_path reads (5.18+ | 5.8-5.17)\n"
"  --sched_clock=tsc|jiffies --sched_clock_offset=[-]DURATION\n"
"  --sched_clock_drift_ppm=[-]N\n"
"  --path.NAME.KEY=VALUE  one path's value (--path.sdj.service=exp:2ms)\n"
"  --delay=MS             dm-delay on every path (or --read_delay,\n"
"                         --write_delay, --flush_delay), --expiry=jiffies|ns,\n"
"                         --kthread_poll=mainline|busy\n"
"  --timer_wheel=levels|classic   --workqueue_latency=DURATION\n"
"  --fail='PATH at TIME'  --reinstate='PATH at TIME'   scripted path events\n"
"  --interval=DURATION    per-path time series: long-form CSV with\n"
"                         --series=FILE, or under each path with --format=json\n"
"  --lat_hist=FILE        the latency histograms as CSV, for CDF figures\n"
"  fio options, applied to every job: --iodepth (--depth), --numjobs, --bs,\n"
"  --rw, --rwmixread, --number_ios, --runtime, --ramp_time, --rate_iops,\n"
"  --rate_process=linear|poisson, --ioengine, and any fio job option\n"
"  (--bssplit, --thinktime, --iodepth_batch_submit, ...; see README)\n"
"  --job=FILE.fio         the jobs of a fio job file replace the scenario's\n"
"  --read_iolog=FILE      replay a fio I/O log (version 2 or 3), timed;\n"
"                         --replay_no_stall: as fast as the depth allows\n"
"  run only: --trace=FILE  the decision trace (--trace-format=json|text);\n"
"  --blktrace=DIR         blktrace's files, for blkparse and btt; both bounded\n"
"                         by --trace-from=, --trace-until=, --trace-count=N\n"
"  sizes take k/m/g (1024-based), durations ns/us/ms/s/m/h.\n"
"\n"
"example: mpsim --selector=hst --clock=ktime --iodepth=32\n"
"exit status: 0 ok, 1 failed, 2 bad input\n", f);
}

int cli_option(int argc, char **argv, int i, const char **key, size_t *klen,
	       const char **value, char *err)
{
	const char *a = argv[i], *eq;

	if (strncmp(a, "--", 2) || !a[2])
		return input_error(err, "unexpected argument '%s' (options are --key=value)", a);
	a += 2;
	eq = strchr(a, '=');
	*key = a;
	if (eq) {
		*klen = (size_t)(eq - a);
		*value = eq + 1;
		return 1;
	}
	*klen = strlen(a);
	if (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
		*value = argv[i + 1];
		return 2;
	}
	*value = NULL;			/* a flag: --time_based */
	return 1;
}

static bool key_is(const char *key, size_t klen, const char *name)
{
	return strlen(name) == klen && !strncmp(key, name, klen);
}

static int load_scenario(struct run_opts *o, const char *name, char *err)
{
	if (!strchr(name, '/') && scenario_builtin_text(name)) {
		snprintf(o->scenario_name, sizeof(o->scenario_name), "%s", name);
		return scenario_load_builtin(&o->sc, name, err);
	}
	snprintf(o->scenario_name, sizeof(o->scenario_name), "%s", name);
	return scenario_load_file(&o->sc, name, err);
}

static char *join_args(int argc, char **argv)
{
	size_t n = 1;
	char *s;
	int i;

	for (i = 1; i < argc; i++)
		n += strlen(argv[i]) + 1;
	s = xcalloc(1, n);
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cli_parse_run(int argc, char **argv, struct run_opts *o,
		  const char *const *extra_ok, char *err)
{
	const char *scn = DEFAULT_SCENARIO, *job = NULL;
	const struct ps_type *t;
	int i, used, r;

	memset(o, 0, sizeof(*o));
	scenario_init(&o->sc);
	o->seed = 1;
	o->format = FMT_TABLE;
	/* --scenario first: the other options override its values */
	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return used;
		if (key_is(key, klen, "scenario")) {
			if (!val || !*val)
				return input_error(err, "--scenario: needs a file or built-in name");
			scn = val;
		}
		if (key_is(key, klen, "job")) {
			if (!val || !*val)
				return input_error(err, "--job: needs a fio job file");
			if (job)
				return input_error(err, "--job: given twice (one job file; include others)");
			job = val;
		}
	}
	r = load_scenario(o, scn, err);
	if (r)
		return r;
	/* --job next: its jobs replace the scenario's, options follow */
	if (job) {
		r = scenario_load_jobs(&o->sc, job, err);
		if (r)
			return r;
	}
	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		char name[64];
		size_t klen;
		uint64_t v;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (klen >= sizeof(name))
			return input_error(err, "unknown option --%.40s...", key);
		memcpy(name, key, klen);
		name[klen] = '\0';
		if (!strcmp(name, "scenario") || !strcmp(name, "job"))
			continue;
		if (extra_ok) {
			const char *const *e;

			for (e = extra_ok; *e && strcmp(*e, name); e++)
				;
			if (*e)
				continue;
		}
		if (!strcmp(name, "seed")) {
			if (!val || parse_uint(val, &v, err))
				return input_error(err, "--seed: '%s' is not an unsigned integer",
						   val ? val : "");
			o->seed = v;
		} else if (!strcmp(name, "format")) {
			if (!val || out_format_parse(val, &o->format))
				return input_error(err, "--format: '%s' is not table, csv or json",
						   val ? val : "");
		} else {
			r = scenario_set(&o->sc, name, val ? val : "1", err);
			if (r)
				return r;
		}
	}
	replay_window(argc, argv, &o->sc, job != NULL);
	r = scenario_validate(&o->sc, err);
	if (r)
		return r;
	t = ps_type_of(o->sc.selector, o->sc.selector_source, err);
	if (!t)
		return input_error(err, "--selector: unknown selector '%s' (see: mpsim list selectors)",
				   o->sc.selector);
	/* a kernel file reads the clock it names (selectors/ksource.h) */
	if ((t->features & PS_READS_CLOCKS) && o->sc.select_sched_clock)
		mpsim_warn("select_clock=sched_clock does not apply to %s, "
			   "which reads the clock it names itself",
			   o->sc.selector_source);
	/* results name the kernel's selector, whatever alias was typed */
	snprintf(o->sc.selector, sizeof(o->sc.selector), "%s", t->name);
	o->options = join_args(argc, argv);
	return 0;
}

void cli_free_run(struct run_opts *o)
{
	scenario_free(&o->sc);
	free(o->options);
	o->options = NULL;
}

int cli_emit(char *buf, size_t len)
{
	int rc = EXIT_OK;

	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		perror("mpsim: writing output");
		rc = EXIT_FAILED;
	}
	free(buf);
	return rc;
}

static int bad_input(const char *err)
{
	mpsim_error("%s", err);
	return EXIT_BAD_INPUT;
}

/*
 * Write len bytes of buf to path whole or not at all: into path.tmp,
 * then rename()d over path.  Returns an exit code.
 */
static int write_whole(const char *what, const char *path, const char *buf,
		       size_t len)
{
	size_t n = strlen(path) + sizeof(".tmp");
	char *tmp = xmalloc(n);
	FILE *f;
	int ok;

	snprintf(tmp, n, "%s.tmp", path);
	f = fopen(tmp, "w");
	ok = f && fwrite(buf, 1, len, f) == len;
	if (f && fclose(f))
		ok = 0;
	if (ok && rename(tmp, path))
		ok = 0;
	if (!ok) {
		fprintf(stderr, "mpsim: %s: cannot write %s: %s\n", what, path,
			strerror(errno));
		remove(tmp);
	}
	free(tmp);
	return ok ? EXIT_OK : EXIT_FAILED;
}

/* a and b (NULL-terminated lists) in one list; free() it. */
static const char **opt_lists(const char *const *a, const char *const *b)
{
	size_t na = 0, nb = 0;
	const char **l;

	while (a[na])
		na++;
	while (b[nb])
		nb++;
	l = xcalloc(na + nb + 1, sizeof(*l));
	memcpy(l, a, na * sizeof(*l));
	memcpy(l + na, b, nb * sizeof(*l));
	return l;
}

/* The options run and compare handle themselves, beside the run's. */
struct run_extra {
	const char *columns;		/* compare --columns */
	const char *series;		/* --series=FILE */
	const char *lat_hist;		/* --lat_hist=FILE */
	struct run_watch watch;		/* --interval, the progress line */
};

static int extra_parse(int argc, char **argv, bool compare, enum out_format fmt,
		       struct run_extra *x, char *err)
{
	const char *interval = NULL;
	int i, used;

	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return 0;	/* cli_parse_run has said what is wrong */
		if (compare && key_is(key, klen, "columns"))
			x->columns = val ? val : "";
		else if (key_is(key, klen, "interval"))
			interval = val ? val : "";
		else if (key_is(key, klen, "series"))
			x->series = val ? val : "";
		else if (key_is(key, klen, "lat_hist"))
			x->lat_hist = val ? val : "";
	}
	if (x->lat_hist && !*x->lat_hist)
		return input_error(err, "--lat_hist: needs a file name");
	if (x->series && !*x->series)
		return input_error(err, "--series: needs a file name");
	if (x->series && !interval)
		return input_error(err, "--series: needs --interval=DURATION");
	if (!interval)
		return 0;
	if (parse_duration(interval, NSEC_PER_SEC, &x->watch.interval, err))
		return input_error(err, "--interval: '%s' is not a duration",
				   interval);
	if (!x->watch.interval)
		return input_error(err, "--interval: must be longer than 0");
	/* the series goes where it has room: a file, or under each path in
	 * a run's JSON */
	if (!x->series && (compare || fmt != FMT_JSON))
		return input_error(err, "--interval: write the series with "
				   "--series=FILE%s", compare ? "" :
				   " or --format=json");
	return 0;
}

/* What a CSV side file holds: its head, and the rows of one run. */
typedef void csv_head_fn(FILE *f, const struct provenance *pv);
typedef void csv_rows_fn(FILE *f, const char *selector, const char *clock,
			 const struct run_result *r);

/* A side file of the run, or of each comparison column, written whole. */
static int side_file(const char *what, const char *file, csv_head_fn *head,
		     csv_rows_fn *rows, const struct provenance *pv,
		     const struct scenario *sc, const struct run_result *res,
		     const struct compare_result *cr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	unsigned c;
	int rc;

	if (!mem) {
		perror("mpsim");
		abort();
	}
	head(mem, pv);
	if (res)
		rows(mem, sc->selector, start_clock_name(sc->clock), res);
	for (c = 0; cr && c < cr->nr_cols; c++)
		rows(mem, cr->cols[c]->selector,
		     start_clock_name(cr->cols[c]->clock), &cr->runs[c]);
	fclose(mem);
	rc = write_whole(what, file, buf, len);
	free(buf);
	return rc;
}

/*
 * One run or one comparison.  Output is built in memory and written only
 * when complete, so bad input found late (selector arguments are checked
 * when the run builds its selector) never leaves half a table on stdout.
 */
static int run_or_compare(int argc, char **argv, bool compare)
{
	char err[ERR_MAX], *buf = NULL;
	struct compare_result cr;
	struct provenance pv;
	struct run_result res;
	struct run_extra x = { 0 };
	struct run_opts o;
	size_t len = 0;
	FILE *mem;
	int r, rc = EXIT_OK;

	static const char *const own_opts[] = {
		"interval", "series", "lat_hist", NULL
	};
	static const char *const compare_opts[] = {
		"columns", "interval", "series", "lat_hist", NULL
	};
	const char **run_opts;
	struct trace_conf tc;
	bool traced;

	/* the trace options belong to run alone */
	memset(&tc, 0, sizeof(tc));
	if (!compare && trace_conf_parse(argc, argv, &tc, err))
		return bad_input(err);
	run_opts = opt_lists(own_opts, trace_option_names);
	/* o is freed below whichever check fails */
	memset(&o, 0, sizeof(o));
	r = compare ? compare_refuse(argc, argv, err) : 0;
	if (!r)
		r = cli_parse_run(argc, argv, &o,
				  compare ? compare_opts :
				  (const char *const *)run_opts, err);
	free(run_opts);
	if (!r)
		r = extra_parse(argc, argv, compare, o.format, &x, err);
	if (r) {
		cli_free_run(&o);
		return bad_input(err);
	}
	traced = !compare && (tc.file || tc.blktrace);
	x.watch.trace = traced ? &tc : NULL;
	/* a single run shows fio's status line on a terminal */
	x.watch.progress = !compare && isatty(STDERR_FILENO);
	if (compare)
		r = compare_run_watched(&o.sc, o.seed, x.columns, &x.watch,
					&cr, err);
	else
		r = run_scenario_watched(&o.sc, o.seed, &x.watch, &res, err);
	if (r) {
		mpsim_error("%s: %s", o.scenario_name, err);
		cli_free_run(&o);
		/* a trace that could not be written (-EIO) or a run that
		 * cannot finish (-ERANGE) is a failed run */
		return r == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED;
	}
	if (compare) {
		compare_warn(&o.sc, &cr);
		compare_warn_cpus(argc, argv, &cr);
	} else {
		cli_warn_inert(argc, argv, &o.sc);
		run_warn(&o.sc, &res, NULL);
	}
	pv.scenario = o.scenario_name;
	pv.seed = o.seed;
	pv.options = o.options;
	if (x.series)
		rc = side_file("--series", x.series, series_csv_head,
			       series_csv, &pv, &o.sc, compare ? NULL : &res,
			       compare ? &cr : NULL);
	if (x.lat_hist && rc == EXIT_OK)
		rc = side_file("--lat_hist", x.lat_hist, hist_csv_head,
			       hist_csv, &pv, &o.sc, compare ? NULL : &res,
			       compare ? &cr : NULL);
	mem = open_memstream(&buf, &len);
	if (!mem) {
		perror("mpsim");
		abort();
	}
	if (compare) {
		report_compare(mem, o.format, &pv, &o.sc, &cr);
		compare_free(&cr);
	} else {
		report_run(mem, o.format, &pv, &o.sc, &res);
		run_result_free(&res);
	}
	fclose(mem);
	cli_free_run(&o);
	if (rc != EXIT_OK) {
		free(buf);
		return rc;
	}
	return cli_emit(buf, len);
}

int cmd_run(int argc, char **argv)
{
	return run_or_compare(argc, argv, false);
}

int cmd_compare(int argc, char **argv)
{
	return run_or_compare(argc, argv, true);
}

int cmd_list(int argc, char **argv)
{
	unsigned i;

	if (argc == 2 && !strcmp(argv[1], "selectors")) {
		for (i = 0; i < ps_nr_types; i++)
			printf("%-24s %-4s %s\n", ps_types[i]->name,
			       ps_types[i]->alias, ps_types[i]->kernel_file);
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "options")) {
		/* the command line's own, then the scenario's and fio's
		 * (same columns: name, walk value, options it needs) */
		static const char *const own[][3] = {
			{ "scenario", "dm-delay-sync", "" },
			{ "job", "tests/jobs/batch.fio", "" },
			{ "seed", "2", "" },
			{ "format", "json", "" },
			{ "columns", "st", "" },	/* compare only */
			/* run only; they write beside the figures, by design
			 * never change them (tests/trace.sh) */
			{ "trace", "-", "" },
			{ "trace-format", "-", "" },
			{ "trace-from", "-", "" },
			{ "trace-until", "-", "" },
			{ "trace-count", "-", "" },
			{ "blktrace", "-", "" },
			{ "interval", "10ms", "--format=json" },
			/* a side file each, stdout as it was */
			{ "series", "-", "" },
			{ "lat_hist", "-", "" },
		};

		for (i = 0; i < ARRAY_SIZE(own); i++)
			printf("%s\t%s\t%s\n", own[i][0], own[i][1],
			       own[i][2]);
		scenario_list_options(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "scenarios")) {
		for (i = 0; scenario_builtin_name(i); i++)
			printf("%s\n", scenario_builtin_name(i));
		return EXIT_OK;
	}
	mpsim_error("list: say 'selectors', 'scenarios' or 'options'");
	return EXIT_BAD_INPUT;
}
