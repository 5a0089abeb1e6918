/*
 * fio-out.c: what the commands do with fio's own formats and logs: the
 * words of --output-format, the log files a run's jobs ask for (checked
 * before the run; cli.c writes them whole after it), and the warnings
 * for fio options that have nothing to do.  The formats themselves are
 * report/report-fio*.c's.  It calls nothing else of cli/ (cli.c and
 * cli-checks.c call it).
 */
#include <string.h>

#include "cli.h"
#include "lib/safe-file.h"
#include "sim/fiostat.h"

int fio_out_parse(const char *v, unsigned *formats, char *err)
{
	/* init.c's parse_output_format(): minimal and csv are terse */
	static const struct {
		const char *word;
		unsigned bits;
	} words[] = {
		{ "normal", FIO_OUT_NORMAL },
		{ "terse", FIO_OUT_TERSE },
		{ "minimal", FIO_OUT_TERSE },
		{ "csv", FIO_OUT_TERSE },
		{ "json", FIO_OUT_JSON },
		{ "json+", FIO_OUT_JSON | FIO_OUT_JSON_PLUS },
	};
	const char *p = v ? v : "";
	unsigned f = 0, i;

	do {
		size_t n = strcspn(p, ",");

		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (strlen(words[i].word) == n &&
			    !strncmp(p, words[i].word, n))
				break;
		if (i == ARRAY_SIZE(words))
			return input_error(err, "--output-format: '%.*s' is not "
					   "normal, terse, json or json+ (fio's "
					   "formats, comma-separated; mpsim's "
					   "own: --format)", (int)(n > 40 ? 40 :
					   n), p);
		f |= words[i].bits;
		p += n;
	} while (*p++ == ',');
	*formats = f;
	return 0;
}

bool fio_logs_wanted(const struct scenario *sc)
{
	unsigned i, l;

	for (i = 0; i < sc->nr_jobs; i++)
		for (l = 0; l < FIO_LOG_NR; l++)
			if (sc->jobs[i].log_set[l])
				return true;
	return false;
}

int fio_logs_check(const struct scenario *sc, char *err)
{
	struct fio_logfile *files;
	unsigned n = fio_log_names(sc, &files), i;
	char why[ERR_MAX];
	int r = 0;

	for (i = 0; i < n && !r; i++)
		if (safe_check(files[i].name, why))
			r = input_error(err, "%s: %s", files[i].option, why);
	fio_logs_free(files, n);
	return r;
}

/* The first job that gives a percentile list, or NULL. */
static const struct job_conf *pct_job(const struct scenario *sc)
{
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++)
		if (sc->jobs[i].nr_percentiles)
			return &sc->jobs[i];
	return NULL;
}

void fio_out_warn(const struct scenario *sc, unsigned fio_out,
		  bool terse_version, const struct run_result *r)
{
	const struct job_conf *j = pct_job(sc);
	bool cut = false;
	unsigned i;

	if (!(fio_out & FIO_OUT_TERSE) && terse_version)
		mpsim_warn("--terse-version changes nothing without fio's terse "
			   "lines (--minimal or --output-format=terse)");

	if (j && !(fio_out & ~(unsigned)FIO_OUT_NORMAL))
		mpsim_warn("job %.40s: percentile_list changes nothing in "
			   "mpsim's formats (they give p50, p99 and p99.9); "
			   "fio's show it: --output-format=json, json+ or "
			   "terse", j->name);
	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *c = &sc->jobs[i];

		if (c->log_avg_msec && !c->log_set[FIO_LOG_BW] &&
		    !c->log_set[FIO_LOG_IOPS] && !c->log_set[FIO_LOG_LAT]) {
			mpsim_warn("job %.40s: log_avg_msec changes nothing "
				   "without a log to average (write_bw_log, "
				   "write_iops_log, write_lat_log)", c->name);
			break;
		}
	}
	for (i = 0; r && i < r->nr_clones; i++)
		cut |= r->clone[i].cut;
	if (cut)
		mpsim_warn("fio's logs and samples stop early: a log of a line "
			   "per I/O keeps at most %u I/Os over the run, and a "
			   "clone at most %u sample periods (give log_avg_msec, "
			   "or a shorter run)", FIO_IOS_MAX, FIO_PERIODS_MAX);
}

void fio_out_warn_many(const struct scenario *sc, const char *cmd)
{
	if (fio_logs_wanted(sc))
		mpsim_warn("%s writes none of fio's logs (write_bw_log, "
			   "write_iops_log, write_lat_log): they follow one "
			   "run (mpsim run)", cmd);
	if (pct_job(sc))
		mpsim_warn("%s: percentile_list changes nothing: fio's "
			   "formats, which show it, are one run's (mpsim run "
			   "--output-format=json)", cmd);
}
