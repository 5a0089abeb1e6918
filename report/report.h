/*
 * report.h: writing results for people (a Markdown table) and for
 * programs (CSV, JSON).  Every output says what produced it: mpsim's
 * version, the scenario, the options and the seed.
 */
#ifndef MPSIM_REPORT_H
#define MPSIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "input/scenario.h"
#include "lib/escape.h"
#include "sim/stats.h"

enum out_format {
	FMT_TABLE, FMT_CSV, FMT_JSON,
	FMT_DMSETUP,		/* run only: `dmsetup status`, `dmsetup table` */
};

int out_format_parse(const char *s, enum out_format *f);

/* What produced a result. */
struct provenance {
	const char *scenario;	/* built-in name or file path */
	uint64_t seed;
	const char *options;	/* the command line's options, as given */
};

/* One run: per-path rows and a total. */
void report_run(FILE *f, enum out_format fmt, const struct provenance *pv,
		const struct scenario *sc, const struct run_result *r);

/* A comparison column: one run of the scenario with these settings. */
struct compare_col {
	const char *label;	/* "HST (jiffies)" */
	const char *key;	/* machine name: "hst_jiffies" */
	const char *selector;	/* kernel name */
	enum start_clock clock;
	bool spec;		/* one of docs/kernel-model.md §6.2's: "Best" follows */
	bool by_default;	/* in the table unless --columns says */
	const char *what;	/* its line in the table's legend */
};

#define COMPARE_MAX_COLS	8

struct compare_result {
	unsigned nr_cols;
	const struct compare_col *cols[COMPARE_MAX_COLS];
	struct run_result *runs;	/* one per column */
	struct compare_col source;	/* the column of --selector-source */
	char source_label[64];		/* its label: the file's name */
	char source_what[SOURCE_MAX_LEN + 64];	/* its legend */
};

/*
 * Run the columns of the comparison (common random numbers: one seed).
 * columns is a comma list of column keys, "all", or NULL for the default
 * set; an unknown key is -EINVAL with err naming it.
 */
int compare_run(const struct scenario *sc, uint64_t seed, const char *columns,
		struct compare_result *cr, char *err);
/* The same, each column's run watched as w says (run_scenario_watched). */
struct run_watch;
int compare_run_watched(const struct scenario *sc, uint64_t seed,
			const char *columns, const struct run_watch *w,
			struct compare_result *cr, char *err);
void compare_free(struct compare_result *cr);
void report_compare(FILE *f, enum out_format fmt, const struct provenance *pv,
		    const struct scenario *sc, const struct compare_result *cr);

/* ---- the time series of a run (report/report-series.c) ---- */

/* The series file's comment line and header. */
void series_csv_head(FILE *f, const struct provenance *pv);
/* r's series, one row per interval and path plus a "total" row. */
void series_csv(FILE *f, const char *selector, const char *clock,
		const struct run_result *r);
/* JSON: the series' interval and estimate name (a top-level member), and
 * path p's series (nr_paths: the total's) as a member of its object. */
void series_json_meta(FILE *f, const struct run_result *r);
void series_json(FILE *f, const struct run_result *r, unsigned p);

/* ---- the latency histograms of a run (report/report-hist.c) ---- */

void hist_csv_head(FILE *f, const struct provenance *pv);
/* r's histograms: per path, then the total, a row per non-empty bucket. */
void hist_csv(FILE *f, const char *selector, const char *clock,
	      const struct run_result *r);

/* ---- fio's own formats and logs (report/report-fio*.c) ---- */

/* fio's --output-format words, as bits. */
enum {
	FIO_OUT_NORMAL = 1 << 0,	/* fio's text: mpsim's table */
	FIO_OUT_TERSE = 1 << 1,
	FIO_OUT_JSON = 1 << 2,
	FIO_OUT_JSON_PLUS = 1 << 3,	/* json with each latency's bins */
};

/*
 * One run in the fio formats of formats (FIO_OUT_*), in fio's order:
 * terse lines (of terse_version, 2 to 5), then json or json+, then
 * normal.  The run kept what fio's figures need (run_watch.fio).
 */
void report_fio(FILE *f, unsigned formats, unsigned terse_version,
		const struct provenance *pv, const struct scenario *sc,
		const struct run_result *r);

/* One of fio's log files of a run: its name, and once filled its text. */
struct fio_logfile {
	char *name;
	const char *option;		/* the option that asks for it:
					   "write_bw_log" */
	char *text;
	size_t len;
	struct fio_log_src *src;	/* the clones' logs it holds */
	unsigned nsrc;
};

/* The log files sc's jobs ask for (write_*_log=), named as fio names
 * them, texts empty; returns how many (fio_logs_free() them). */
unsigned fio_log_names(const struct scenario *sc, struct fio_logfile **files);
/* Their texts, from r (whose run kept r->clone). */
void fio_logs_fill(struct fio_logfile *files, unsigned n,
		   const struct run_result *r);
void fio_logs_free(struct fio_logfile *files, unsigned n);

/* The {"mpsim": {...}} object that opens a run's or a comparison's JSON:
 * version, command, scenario, seed and the options in effect. */
void json_meta(FILE *f, const char *command, const struct provenance *pv,
	       const struct scenario *sc);
/* n per second over time ns (0 over no time); a over b (0 when b is). */
double report_rate(uint64_t n, sim_ns time);
double report_ratio(uint64_t a, uint64_t b);

/* ---- numbers for people (tables only; CSV and JSON keep raw fields) ---- */

/* bytes/s as fio prints bandwidth: "228MiB/s (240MB/s)". */
void human_bw(char *buf, size_t n, double bytes_per_s);
/* I/Os per second as fio's normal output prints IOPS: the whole number
 * (fio divides integers, so 49.9 is 49), at most 4 digits and a prefix
 * past 9999 ("9997", "12.2k", "1235k"). */
void human_iops(char *buf, size_t n, double iops);
/* A share or fraction with `decimals` decimals, and more where that
 * would show a non-zero value as zero ("0.003"); a true zero is "0". */
void human_share(char *buf, size_t n, double v, int decimals);
/* Write text as lines of at most width columns, broken at spaces. */
void text_wrapped(FILE *f, const char *text, unsigned width);

/* A run's rows for programs (report/report-fields.c): CSV with its column
 * line, or the JSON after json_meta(), to the document's end. */
void report_run_rows(FILE *f, enum out_format fmt, const struct run_result *r);
void report_run_csv_header(FILE *f);

#endif
