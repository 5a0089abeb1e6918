/*
 * cli.c: option handling shared by the commands (the words themselves:
 * cli/option.c), and the commands that run a scenario (run, compare) or
 * describe what is built in (list).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "selectors/ksource.h"
#include "selectors/selector.h"
#include "cli.h"
#include "input/suggest.h"
#include "input/table.h"
#include "sim/run.h"
#include "lib/md-align.h"
#include "lib/safe-file.h"
#include "sim/trace.h"

#define DEFAULT_SCENARIO	"hst-bio-mpath"

const char *mpsim_argv0;

/* The options the commands read themselves; the others go to the scenario. */
static const char *const cli_keys[] = {
	"scenario", "job", "seed", "format", "output", "output-format",
	"columns", "name", "minimal", "terse-version",
};

static bool cli_key_is_job(const char *key)
{
	return !str_in_list(key, cli_keys, ARRAY_SIZE(cli_keys)) &&
	       scenario_key_is_job(key);
}

/*
 * A built-in name, else a file.  A name with no '/' that is no file is
 * taken for a mistyped built-in name: the message lists the built-ins.
 */
static int load_scenario(struct run_opts *o, const char *name, char *err)
{
	char list[ERR_MAX / 2] = "";
	const char *n;
	size_t used = 0;
	unsigned k;

	snprintf(o->scenario_name, sizeof(o->scenario_name), "%s", name);
	if (scenario_builtin_text(name) && !strchr(name, '/'))
		return scenario_load_builtin(&o->sc, name, err);
	if (strchr(name, '/') || !access(name, F_OK) || errno != ENOENT)
		return scenario_load_file(&o->sc, name, err);
	for (n = name; *n; n++)
		if ((unsigned char)*n < ' ')
			return input_error(err, "--scenario: no file of that "
					   "name (it holds a control character)");
	for (k = 0; (n = scenario_builtin_name(k)); k++) {
		if (used + strlen(n) + 3 > sizeof(list))
			break;
		used += (size_t)sprintf(list + used, "%s%s", k ? ", " : "", n);
	}
	return input_error(err, "--scenario: no file '%.60s', nor a built-in "
			   "scenario of that name (built in: %s)", name, list);
}

/* Whether name is one of a command's own options (NULL-ended list). */
static bool in_extra(const char *const *extra_ok, const char *name)
{
	for (; extra_ok && *extra_ok; extra_ok++)
		if (!strcmp(*extra_ok, name))
			return true;
	return false;
}

/*
 * fio's command-line jobs: every --name=NAME starts a job, the job
 * options after it are its own, those before the first --name are
 * [global] (fio's rule).  They become fio job text, read as a job file
 * is (fio's defaults), and replace the scenario's jobs.  *text is NULL
 * when there is no --name.
 */
static int cli_jobs_text(int argc, char **argv, const char *const *extra_ok,
			 char **text, char *err)
{
	char *t = NULL;
	size_t n = 0;
	bool named = false;
	int i, used;
	FILE *f;

	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return used;
		if (cli_key_is(key, klen, "name"))
			named = true;
	}
	*text = NULL;
	if (!named)
		return 0;
	f = open_memstream(&t, &n);
	if (!f) {
		perror("mpsim");
		abort();
	}
	fputs("[global]\n", f);
	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		char name[64];
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (klen >= sizeof(name))
			continue;	/* cli_parse_run says what is wrong */
		memcpy(name, key, klen);
		name[klen] = '\0';
		if (cli_one_line(name, klen, val, err)) {
			fclose(f);
			free(t);
			return -EINVAL;
		}
		if (!strcmp(name, "name") &&
		    (!val || !*val || strpbrk(val, "[]"))) {
			fclose(f);
			free(t);
			return input_error(err, "--name: '%.40s' is not a job "
					   "name", val ? val : "");
		}
		if (!strcmp(name, "name"))
			fprintf(f, "[%s]\n", val);
		else if (cli_key_is_job(name) && !in_extra(extra_ok, name))
			fprintf(f, "%s%s%s\n", !strcmp(name, "depth") ?
				"iodepth" : name, val ? "=" : "",
				val ? val : "");
	}
	fclose(f);
	*text = t;
	return 0;
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
	char *jobs_text = NULL;
	bool named;
	int i, used, r;
	char why[ERR_MAX];

	memset(o, 0, sizeof(*o));
	scenario_init(&o->sc);
	o->seed = 1;
	o->format = FMT_TABLE;
	o->terse_version = 3;
	/* --scenario first: the other options override its values */
	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return used;
		if (cli_one_line(key, klen, val, err))
			return -EINVAL;
		if (cli_key_is(key, klen, "scenario")) {
			if (!val || !*val)
				return input_error(err, "--scenario: needs a file or built-in name");
			scn = val;
		}
		if (cli_key_is(key, klen, "job")) {
			if (!val || !*val)
				return input_error(err, "--job: needs a fio job file");
			if (job)
				return input_error(err, "--job: given twice (one job file; include others)");
			job = val;
		}
	}
	r = cli_jobs_text(argc, argv, extra_ok, &jobs_text, err);
	if (r)
		return r;
	if (jobs_text && job) {
		free(jobs_text);
		return input_error(err, "--name: jobs come from --job=%.40s or "
				   "from --name, not both", job);
	}
	named = jobs_text != NULL;
	r = load_scenario(o, scn, err);
	if (r) {
		free(jobs_text);
		return r;
	}
	/* --job or --name next: their jobs replace the scenario's, and
	 * the multipath and path options follow */
	if (job)
		r = scenario_load_jobs(&o->sc, job, err);
	if (jobs_text)
		r = scenario_load_job_text(&o->sc, jobs_text, "--name", err);
	free(jobs_text);
	if (r)
		return r;
	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		char name[64];
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (klen >= sizeof(name))
			return input_error(err, "unknown option --%.40s...", key);
		memcpy(name, key, klen);
		name[klen] = '\0';
		if (!strcmp(name, "scenario") || !strcmp(name, "job") ||
		    !strcmp(name, "name"))
			continue;
		if (named && cli_key_is_job(name))
			continue;	/* in the --name jobs */
		if (in_extra(extra_ok, name))
			continue;
		if (!strcmp(name, "seed")) {
			if (cli_parse_seed(val, &o->seed, err))
				return -EINVAL;
		} else if (!strcmp(name, "format")) {
			static const char *const formats[] = {
				"table", "csv", "json", "dmsetup"
			};
			const char *m = val ? suggest_word(val, formats,
					ARRAY_SIZE(formats)) : NULL;

			if (!val || out_format_parse(val, &o->format))
				return input_error(err, "--format: '%s' is not table, csv, json or dmsetup%s%s%s",
						   val ? val : "",
						   m ? " (did you mean " : "",
						   m ? m : "", m ? "?)" : "");
			o->fio_out = 0;		/* the last one given wins */
		} else if (!strcmp(name, "output-format")) {
			if (fio_out_parse(val, &o->fio_out, err))
				return -EINVAL;
			/* normal alone is mpsim's table, as --format=table */
			o->format = FMT_TABLE;
			if (o->fio_out == FIO_OUT_NORMAL)
				o->fio_out = 0;
		} else if (!strcmp(name, "minimal")) {
			bool on = true;

			/* fio's --minimal: terse output, and nothing else */
			if (val && parse_bool(val, &on, why))
				return input_error(err, "--minimal: %s", why);
			if (on) {
				o->format = FMT_TABLE;
				o->fio_out = FIO_OUT_TERSE;
			}
		} else if (!strcmp(name, "terse-version")) {
			uint64_t v;

			if (!val || parse_uint(val, &v, why) || v < 2 || v > 5)
				return input_error(err, "--terse-version: '%s' is "
						   "not 2, 3, 4 or 5 (fio's terse "
						   "versions)", val ? val : "");
			o->terse_version = (unsigned)v;
		} else if (!strcmp(name, "output")) {
			if (!val || !*val)
				return input_error(err, "--output: needs a file name");
			/* the finished file is renamed over the path: what
			 * safe-file.h refuses is bad input found now */
			r = safe_check(val, why);
			if (r)
				return input_error(err, "--output: %.200s", why);
			o->output = val;
		} else {
			r = scenario_set(&o->sc, name, val ? val : "1", err);
			/* which command it is, or what was meant */
			if (r && (!strncmp(err, "unknown option --", 17) ||
				  strstr(err, "' is not a [path] option")))
				return ref_unknown_option(name, cli_cmd ?
							  cli_cmd : CMD_RUN,
							  err);
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
		return selector_unknown(NULL, "selector", o->sc.selector, err);
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

int cli_parse_seed(const char *val, uint64_t *seed, char *err)
{
	char why[ERR_MAX];

	if (!val || parse_uint(val, seed, why))
		return input_error(err, "--seed: '%s' is not a whole number "
				   "from 0 to 2^64-1", val ? val : "");
	return 0;
}

int cli_emit(char *buf, size_t len)
{
	int rc = EXIT_OK;

	/* on a terminal, a table's columns line up (padded, still
	 * Markdown); a file or a pipe gets the text as it is, byte for
	 * byte the same for the same options */
	if (isatty(STDOUT_FILENO)) {
		char *a = md_align(buf, len, &len);

		free(buf);
		buf = a;
	}
	if (fwrite(buf, 1, len, stdout) != len || fflush(stdout)) {
		perror("mpsim: writing output");
		rc = EXIT_FAILED;
	}
	free(buf);
	return rc;
}

/*
 * Write len bytes of buf to path whole or not at all (safe_create(): a
 * temporary beside it, synced, renamed over it; standard output when
 * path names it).  what names the output in the error.  Returns an exit
 * code: 2 for what safe-file.h refuses, 1 when the write fails.
 */
static int write_whole(const char *what, const char *path, const char *buf,
		       size_t len)
{
	struct safe_file sf;
	char err[ERR_MAX];
	int r = safe_create(&sf, path, 0, err);

	if (r) {
		mpsim_error("%s: %s", what, err);
		return r == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED;
	}
	if (write_full(sf.fd, buf, len, -1)) {
		mpsim_error("%s: cannot write %s: %s", what, path,
			    strerror(errno));
		safe_abort(&sf);
		return EXIT_FAILED;
	}
	if (safe_commit(&sf, err)) {
		mpsim_error("%s: %s", what, err);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

int cli_emit_to(const char *path, char *buf, size_t len)
{
	int rc;

	if (!path)
		return cli_emit(buf, len);
	rc = write_whole("--output", path, buf, len);
	free(buf);
	return rc;
}

static int bad_input(const char *err)
{
	mpsim_error("%s", err);
	return EXIT_BAD_INPUT;
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
	const char *interval = NULL, *eta = NULL;
	char why[ERR_MAX];
	int i, used;

	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return 0;	/* cli_parse_run has said what is wrong */
		if (compare && cli_key_is(key, klen, "columns"))
			x->columns = val ? val : "";
		else if (cli_key_is(key, klen, "interval"))
			interval = val ? val : "";
		else if (cli_key_is(key, klen, "series"))
			x->series = val ? val : "";
		else if (cli_key_is(key, klen, "lat_hist"))
			x->lat_hist = val ? val : "";
		else if (cli_key_is(key, klen, "eta-interval"))
			eta = val ? val : "";
	}
	if (eta && parse_duration(eta, NSEC_PER_SEC, &x->watch.eta_interval,
				  why))
		return input_error(err, "--eta-interval: %s", why);
	if (eta && !x->watch.eta_interval)
		return input_error(err, "--eta-interval: must be longer than 0");
	if (x->lat_hist && !*x->lat_hist)
		return input_error(err, "--lat_hist: needs a file name");
	if (x->series && !*x->series)
		return input_error(err, "--series: needs a file name");
	/* each is renamed over its path when complete, as --output is */
	if (x->lat_hist && safe_check(x->lat_hist, err))
		return -EINVAL;
	if (x->series && safe_check(x->series, err))
		return -EINVAL;
	if (x->series && !interval)
		return input_error(err, "--series: needs --interval=DURATION");
	if (!interval)
		return 0;
	if (parse_duration(interval, NSEC_PER_SEC, &x->watch.interval, why))
		return input_error(err, "--interval: %s", why);
	if (!x->watch.interval)
		return input_error(err, "--interval: must be longer than 0");
	/* the series goes where it has room: a file, or under each path in
	 * a run's JSON */
	if (!x->series && (compare || (fmt != FMT_JSON && fmt != FMT_DMSETUP)))
		return input_error(err, "--interval: write the series with "
				   "--series=FILE%s", compare ? "" :
				   " or --format=json");
	return 0;
}

/* fio's logs of the run (fio_logs_check() passed them), each file
 * written whole; an exit code. */
static int fio_logs_write(const struct scenario *sc,
			  const struct run_result *r)
{
	struct fio_logfile *files;
	unsigned n = fio_log_names(sc, &files), i;
	int rc = EXIT_OK;

	fio_logs_fill(files, n, r);
	for (i = 0; i < n && rc == EXIT_OK; i++)
		rc = write_whole(files[i].option, files[i].name, files[i].text,
				 files[i].len);
	fio_logs_free(files, n);
	return rc;
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

	static const char *const terse_version[] = { "terse-version", NULL };
	static const char *const own_opts[] = {
		"interval", "series", "lat_hist", "eta-interval", NULL
	};
	static const char *const compare_opts[] = {
		"columns", "interval", "series", "lat_hist", "eta-interval", NULL
	};
	const char **run_opts;
	const char *output;
	struct trace_conf tc;
	bool traced;

	cli_cmd = compare ? CMD_COMPARE : CMD_RUN;
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
	/* one device's lines: compare runs several */
	if (!r && compare && o.format == FMT_DMSETUP)
		r = input_error(err, "--format=dmsetup: one run's device (use "
				"mpsim run, not compare)");
	/* fio's formats are those of a run: a comparison has none */
	if (!r && compare && (o.fio_out & ~(unsigned)FIO_OUT_NORMAL))
		r = input_error(err, "compare: --output-format: fio's json, "
				"json+ and terse are one run's (mpsim run); "
				"compare writes --format=table, csv or json");
	/* fio's logs: each file they name may be written */
	if (!r && !compare)
		r = fio_logs_check(&o.sc, err);
	if (r) {
		cli_free_run(&o);
		return bad_input(err);
	}
	traced = !compare && (tc.file || tc.blktrace);
	x.watch.trace = traced ? &tc : NULL;
	/* what fio's formats and logs need of each job clone */
	x.watch.fio = !compare && (o.fio_out || fio_logs_wanted(&o.sc));
	/* a run of hours, or a trace past its cap, says so first */
	r = run_size_note(&o.sc, compare ? compare_nr_cols(&o.sc, x.columns) :
			  1, x.watch.trace, err);
	if (r) {
		mpsim_error("%s: %s", o.scenario_name, err);
		cli_free_run(&o);
		return EXIT_BAD_INPUT;
	}
	/* fio's status line on a terminal; a comparison's counts its
	 * columns (compare_run_watched) */
	x.watch.progress = isatty(STDERR_FILENO);
	x.watch.dmsetup = !compare && o.format == FMT_DMSETUP;
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
		cli_warn_unread(argc, argv, &o.sc, true);
		fio_out_warn_many(&o.sc, "compare");
	} else {
		cli_warn_inert(argc, argv, &o.sc);
		run_warn(&o.sc, &res, NULL);
		fio_out_warn(&o.sc, o.fio_out, cli_has(argc, argv,
			     terse_version), &res);
	}
	mpsim_warn_release(true);	/* the input is good: its warnings */
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
	if (!compare && rc == EXIT_OK)
		rc = fio_logs_write(&o.sc, &res);
	mem = open_memstream(&buf, &len);
	if (!mem) {
		perror("mpsim");
		abort();
	}
	if (compare) {
		report_compare(mem, o.format, &pv, &o.sc, &cr);
		compare_free(&cr);
	} else {
		if (o.fio_out)
			report_fio(mem, o.fio_out, o.terse_version, &pv, &o.sc,
				   &res);
		else
			report_run(mem, o.format, &pv, &o.sc, &res);
		run_result_free(&res);
	}
	fclose(mem);
	output = o.output;
	cli_free_run(&o);
	if (rc != EXIT_OK) {
		free(buf);
		return rc;
	}
	return cli_emit_to(output, buf, len);
}

int cmd_run(int argc, char **argv)
{
	return run_or_compare(argc, argv, false);
}

int cmd_compare(int argc, char **argv)
{
	return run_or_compare(argc, argv, true);
}

/*
 * A built-in scenario's summary: the first sentence of its opening
 * comment ("; NAME: what it is ..."), whole, on one line, without the
 * comment marks and the name.  The sentence ends at a full stop before
 * a space, at a blank comment line, or where the comment ends.
 */
static char *scenario_summary(const char *text)
{
	char *out = xstrdup(""), *stop;
	size_t len = 0;
	const char *p = text;

	while (*p == ';' || *p == '#') {
		const char *end = strchr(p, '\n'), *q = p;

		if (!end)
			end = p + strlen(p);
		while (q < end && (*q == ';' || *q == '#' || *q == ' '))
			q++;
		if (q == end)
			break;		/* a blank comment line ends it */
		out = xrealloc(out, len + (size_t)(end - q) + 2);
		if (len)
			out[len++] = ' ';
		memcpy(out + len, q, (size_t)(end - q));
		len += (size_t)(end - q);
		out[len] = '\0';
		p = *end ? end + 1 : end;
	}
	stop = strstr(out, ". ");
	if (stop)
		stop[1] = '\0';
	stop = strstr(out, ": ");
	if (stop && stop == out + strcspn(out, " :"))
		memmove(out, stop + 2, strlen(stop + 2) + 1);
	return out;
}

int cmd_list(int argc, char **argv)
{
	const char *name;
	unsigned i;

	if (argc == 2 && !strcmp(argv[1], "selectors")) {
		for (i = 0; i < ps_nr_types; i++)
			printf("%-24s %-4s %s\n", ps_types[i]->name,
			       ps_types[i]->alias, ps_types[i]->kernel_file);
		return EXIT_OK;
	}
	/* what each option does, or the walk's or the man page's form */
	if (argc >= 2 && !strcmp(argv[1], "options")) {
		const char *format = NULL;
		int j;

		for (j = 2; j < argc; j++)
			if (!strncmp(argv[j], "--format=", 9))
				format = argv[j] + 9;
			else if (!strcmp(argv[j], "--format") && j + 1 < argc)
				format = argv[++j];
			else
				break;
		if (j == argc)
			return ref_list_options(format);
		mpsim_error("list options: '%.40s' is not --format=table, walk "
			    "or man", argv[j]);
		return EXIT_BAD_INPUT;
	}
	if (argc == 2 && !strcmp(argv[1], "scenarios")) {
		int w = 0;

		for (i = 0; (name = scenario_builtin_name(i)); i++)
			if ((int)strlen(name) > w)
				w = (int)strlen(name);
		for (i = 0; (name = scenario_builtin_name(i)); i++) {
			char *line = scenario_summary(scenario_builtin_text(name));

			printf("%-*s  %s\n", w, name, line);
			free(line);
		}
		return EXIT_OK;
	}
	/* the paths of a scenario, as its options resolve them (bash
	 * completion offers them after --path.) */
	if (argc >= 2 && !strcmp(argv[1], "paths")) {
		struct run_opts o;
		char err[ERR_MAX];

		if (cli_parse_run(argc - 1, argv + 1, &o, NULL, err)) {
			mpsim_error("list paths: %s", err);
			return EXIT_BAD_INPUT;
		}
		for (i = 0; i < o.sc.nr_paths; i++)
			printf("%s\n", o.sc.paths[i].name);
		cli_free_run(&o);
		return EXIT_OK;
	}
	mpsim_error("list: say 'selectors', 'scenarios', 'paths' or 'options'");
	return EXIT_BAD_INPUT;
}
