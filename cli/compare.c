/*
 * compare.c: the comparison table of docs/kernel-model.md §6.2.  The scenario runs
 * once per column with the same seed, so every column sees the same
 * service times on each path (common random numbers), and the table lists
 * each path's share of I/Os per column next to its capacity share.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "selectors/ksource.h"
#include "selectors/selector.h"
#include "cli.h"
#include "report/report.h"
#include "input/table.h"
#include "sim/run.h"

/*
 * The §6.2 columns first (ST, HST with the jiffies stamp of bio-based
 * 5.8-5.18, HST with the ktime stamp of 5.19+), then the two simpler
 * selectors for reference.  HST (jiffies-aligned), the what-if that
 * separates tick granularity from the epoch mismatch, is left out of the
 * default table: its dynamics are sticky, so its shares vary across seeds
 * by more than the table's two decimals (standard deviation up to 0.009
 * on the default scenario); --columns=all shows it.
 */
static const struct compare_col all_cols[] = {
	{ "ST", "st", "service-time", START_KTIME, true, true,
	  "service-time" },
	{ "HST (jiffies)", "hst_jiffies", "historical-service-time",
	  START_JIFFIES, true, true,
	  "historical-service-time with the bio start stamp of 5.8-5.18, "
	  "jiffies_to_nsecs(jiffies), its own epoch" },
	{ "HST (ktime)", "hst_ktime", "historical-service-time",
	  START_KTIME, true, true, "the ktime stamp of 5.19+" },
	{ "HST (jiffies-aligned)", "hst_jiffies_aligned",
	  "historical-service-time", START_JIFFIES_ALIGNED, false, false,
	  "the stamp floored to a tick in the ktime epoch (granularity "
	  "without the epoch mismatch)" },
	{ "QL", "ql", "queue-length", START_KTIME, false, true,
	  "queue-length" },
	{ "RR", "rr", "round-robin", START_KTIME, false, true,
	  "round-robin" },
};

/*
 * The column of a kernel source file (--selector-source): its selector,
 * with the scenario's own clock and arguments, labelled by the file's
 * name.  It joins the default and "all" columns, and is "source" in a
 * --columns list.
 */
static int source_col(const struct scenario *sc, struct compare_result *cr,
		      char *err)
{
	const char *base = strrchr(sc->selector_source, '/');

	if (!sc->selector_source[0])
		return input_error(err, "--columns: 'source' needs "
				   "--selector-source=FILE");
	base = base ? base + 1 : sc->selector_source;
	snprintf(cr->source_label, sizeof(cr->source_label), "%.63s", base);
	snprintf(cr->source_what, sizeof(cr->source_what),
		 "%s compiled from %s, clock %s", sc->selector,
		 sc->selector_source, start_clock_name(sc->clock));
	cr->source = (struct compare_col){
		.label = cr->source_label, .key = "source",
		.selector = sc->selector, .clock = sc->clock,
		.what = cr->source_what,
	};
	cr->cols[cr->nr_cols++] = &cr->source;
	return 0;
}

static int compare_pick(const struct scenario *sc, const char *columns,
			struct compare_result *cr, char *err)
{
	char buf[256], *tok, *save;
	unsigned i;

	if (!columns || !strcmp(columns, "all")) {
		for (i = 0; i < ARRAY_SIZE(all_cols); i++)
			if (columns || all_cols[i].by_default)
				cr->cols[cr->nr_cols++] = &all_cols[i];
		return sc->selector_source[0] ? source_col(sc, cr, err) : 0;
	}
	if (strlen(columns) >= sizeof(buf))
		return input_error(err, "--columns: too long");
	strcpy(buf, columns);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "source")) {
			if (cr->nr_cols == COMPARE_MAX_COLS)
				return input_error(err, "--columns: more than %d "
						   "columns", COMPARE_MAX_COLS);
			if (source_col(sc, cr, err))
				return -EINVAL;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(all_cols); i++)
			if (!strcmp(tok, all_cols[i].key))
				break;
		if (i == ARRAY_SIZE(all_cols))
			return input_error(err, "--columns: unknown column '%.40s' "
					   "(st, hst_jiffies, hst_ktime, "
					   "hst_jiffies_aligned, ql, rr, source, all)",
					   tok);
		if (cr->nr_cols == COMPARE_MAX_COLS)
			return input_error(err, "--columns: more than %d columns",
					   COMPARE_MAX_COLS);
		cr->cols[cr->nr_cols++] = &all_cols[i];
	}
	if (!cr->nr_cols)
		return input_error(err, "--columns: name at least one column");
	return 0;
}

unsigned compare_nr_cols(const struct scenario *sc, const char *columns)
{
	struct compare_result cr;
	char err[ERR_MAX];

	memset(&cr, 0, sizeof(cr));
	return compare_pick(sc, columns, &cr, err) || !cr.nr_cols ? 1 :
	       cr.nr_cols;
}

int compare_run(const struct scenario *sc, uint64_t seed, const char *columns,
		struct compare_result *cr, char *err)
{
	return compare_run_watched(sc, seed, columns, NULL, cr, err);
}

int compare_run_watched(const struct scenario *sc, uint64_t seed,
			const char *columns, const struct run_watch *w,
			struct compare_result *cr, char *err)
{
	struct run_watch part = { 0 };
	unsigned i, n;
	int r;

	memset(cr, 0, sizeof(*cr));
	/* a column is a selector; a table line fixes each group's */
	if (sc->table)
		return input_error(err, "compare: the table line names each "
				   "group's selector, and a column would "
				   "change it (use mpsim run, or the short "
				   "form: selector = and path_grouping_policy "
				   "=)");
	r = compare_pick(sc, columns, cr, err);
	if (r) {
		memset(cr, 0, sizeof(*cr));
		return r;
	}
	n = cr->nr_cols;
	cr->nr_cols = 0;
	cr->runs = xcalloc(n, sizeof(*cr->runs));
	/* one progress line for the whole comparison, column by column */
	if (w) {
		part = *w;
		part.parts = n;
		clock_gettime(CLOCK_MONOTONIC, &part.since);
	}
	for (i = 0; i < n; i++) {
		const struct compare_col *c = cr->cols[i];
		const struct ps_type *own;
		struct scenario col;

		scenario_copy(&col, sc);
		/* the scenario's selector_args belong to its own selector */
		own = ps_type_of(sc->selector, sc->selector_source, err);
		if (c != &cr->source) {
			snprintf(col.selector, sizeof(col.selector), "%s",
				 c->selector);
			col.selector_source[0] = '\0';
			if (!own || strcmp(own->name, c->selector))
				col.selector_args[0] = '\0';
		}
		col.clock = c->clock;
		part.part = i;
		part.label = c->label;
		r = run_scenario_watched(&col, seed, w ? &part : NULL,
					 &cr->runs[i], err);
		scenario_free(&col);
		if (r) {
			compare_free(cr);
			return r;
		}
		cr->nr_cols++;
	}
	return 0;
}

/* "Best" stands after the last §6.2 column shown, or first if none is. */
static int best_after(const struct compare_result *cr)
{
	int c, at = -1;

	for (c = 0; c < (int)cr->nr_cols; c++)
		if (cr->cols[c]->spec)
			at = c;
	return at;
}

void compare_free(struct compare_result *cr)
{
	unsigned i;

	for (i = 0; i < cr->nr_cols; i++)
		run_result_free(&cr->runs[i]);
	free(cr->runs);
	memset(cr, 0, sizeof(*cr));
}

static double share(const struct run_result *r, unsigned p)
{
	return report_ratio(r->path[p].ios, r->total.ios);
}

static double iops(const struct run_result *r)
{
	return report_rate(r->total.ios, r->window);
}

/* The path's utilization: the fraction of the window it had an I/O in
 * service (iostat's %util). */
static double busy(const struct run_result *r, unsigned p)
{
	return report_ratio(r->path[p].busy, r->window);
}

/* A share cell: two decimals, more for a share under 0.01 (0.003), 0
 * for none. */
static void share_cell(FILE *f, double v)
{
	char buf[32];

	human_share(buf, sizeof(buf), v, 2);
	fprintf(f, " %s |", buf);
}

/* The legend under the table, wrapped to a terminal's width. */
#define LEGEND_WIDTH	78

static void compare_legend(FILE *f, const struct scenario *sc,
			   const struct compare_result *cr, int at)
{
	static const char best[] = " Best: capacity share, slots / mean cost, "
				   "normalised.";
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	unsigned i, c;

	if (!m) {
		perror("mpsim");
		abort();
	}
	fputs("Share of I/Os per path.", m);
	for (c = 0; c < cr->nr_cols; c++) {
		fprintf(m, " %s: %s.", cr->cols[c]->label, cr->cols[c]->what);
		if ((int)c == at)
			fputs(best, m);
	}
	if (at < 0)
		fputs(best, m);
	for (i = 0, c = 0; c < cr->nr_cols; c++)
		i += !strcmp(cr->cols[c]->selector, "historical-service-time");
	if (sc->mode == MODE_REQUEST && i > 1)
		fputs(" In request mode the HST columns are one run: a request "
		      "is stamped at dispatch, whatever the bio clock.", m);
	fclose(m);
	text_wrapped(f, text, LEGEND_WIDTH);
	free(text);
}

static void compare_table(FILE *f, const struct provenance *pv,
			  const struct scenario *sc,
			  const struct compare_result *cr)
{
	const struct run_result *r0 = &cr->runs[0];
	int at = best_after(cr);
	unsigned i, c;

	fprintf(f, "mpsim %s: scenario %s, mode %s, HZ %u, uptime %.0f s, "
		"seed %llu%s%s\n\n", MPSIM_VERSION, pv->scenario,
		sc->mode == MODE_BIO ? "bio" : "request", sc->hz,
		(double)sc->uptime / 1e9, (unsigned long long)pv->seed,
		pv->options && *pv->options ? ", options: " : "",
		pv->options ? pv->options : "");
	/* "path", as run's table says */
	fputs("| path |", f);
	if (at < 0)
		fputs(" Best |", f);
	for (c = 0; c < cr->nr_cols; c++) {
		fprintf(f, " %s |", cr->cols[c]->label);
		if ((int)c == at)
			fputs(" Best |", f);
	}
	fputs("\n|---|", f);
	for (c = 0; c <= cr->nr_cols; c++)
		fputs("--:|", f);
	fputc('\n', f);
	for (i = 0; i < r0->nr_paths; i++) {
		fprintf(f, "| %s |", r0->names[i]);
		if (at < 0)
			share_cell(f, r0->best[i]);
		for (c = 0; c < cr->nr_cols; c++) {
			share_cell(f, share(&cr->runs[c], i));
			if ((int)c == at)
				share_cell(f, r0->best[i]);
		}
		fputc('\n', f);
	}
	fputs("| IOPS |", f);
	if (at < 0)
		fputs(" |", f);
	for (c = 0; c < cr->nr_cols; c++) {
		char s[32];

		human_iops(s, sizeof(s), iops(&cr->runs[c]));
		fprintf(f, " %s |", s);
		if ((int)c == at)
			fputs(" |", f);
	}
	fputs("\n\n", f);
	compare_legend(f, sc, cr, at);
}

/* CSV: a row per path and column, then per column a total row with
 * the IOPS the table's last row shows. */
static void compare_csv(FILE *f, const struct provenance *pv,
			const struct scenario *sc,
			const struct compare_result *cr)
{
	const struct run_result *r0 = &cr->runs[0];
	unsigned i, c;

	fprintf(f, "# mpsim %s: scenario %s, seed %llu%s%s\n", MPSIM_VERSION,
		pv->scenario, (unsigned long long)pv->seed,
		pv->options && *pv->options ? ", options: " : "",
		pv->options ? pv->options : "");
	fputs("path,column,selector,clock,share,best,iops,busy\n", f);
	for (i = 0; i <= r0->nr_paths; i++)
		for (c = 0; c < cr->nr_cols; c++) {
			csv_field(f, i < r0->nr_paths ? r0->names[i] : "total");
			fprintf(f, ",%s,%s,%s,", cr->cols[c]->key,
				cr->cols[c]->selector,
				start_clock_name(cr->cols[c]->clock));
			if (i < r0->nr_paths)
				fprintf(f, "%.6f,%.6f,,%.6f\n",
					share(&cr->runs[c], i), r0->best[i],
					busy(&cr->runs[c], i));
			else
				fprintf(f, "%.6f,,%.3f,\n", 1.0,
					iops(&cr->runs[c]));
		}
}

static void compare_json(FILE *f, const struct provenance *pv,
			 const struct scenario *sc,
			 const struct compare_result *cr)
{
	const struct run_result *r0 = &cr->runs[0];
	unsigned i, c;

	json_meta(f, "compare", pv, sc);
	fputs(",\n \"columns\": [", f);
	for (c = 0; c < cr->nr_cols; c++) {
		fprintf(f, "%s{\"key\": \"%s\", \"label\": ", c ? ",\n  " : "\n  ",
			cr->cols[c]->key);
		json_string(f, cr->cols[c]->label);
		fprintf(f, ", \"selector\": \"%s\", \"clock\": \"%s\", "
			"\"iops\": %.3f}", cr->cols[c]->selector,
			start_clock_name(cr->cols[c]->clock),
			iops(&cr->runs[c]));
	}
	fputs("],\n \"paths\": [", f);
	for (i = 0; i < r0->nr_paths; i++) {
		fputs(i ? ",\n  {\"path\": " : "\n  {\"path\": ", f);
		json_string(f, r0->names[i]);
		fprintf(f, ", \"best\": %.6f, \"share\": {", r0->best[i]);
		for (c = 0; c < cr->nr_cols; c++)
			fprintf(f, "%s\"%s\": %.6f", c ? ", " : "",
				cr->cols[c]->key, share(&cr->runs[c], i));
		fputs("}, \"busy\": {", f);
		for (c = 0; c < cr->nr_cols; c++)
			fprintf(f, "%s\"%s\": %.6f", c ? ", " : "",
				cr->cols[c]->key, busy(&cr->runs[c], i));
		fputs("}}", f);
	}
	fputs("]}\n", f);
}

void report_compare(FILE *f, enum out_format fmt, const struct provenance *pv,
		    const struct scenario *sc, const struct compare_result *cr)
{
	switch (fmt) {
	case FMT_DMSETUP:	/* refused on the command line */
		assert(0);
		break;
	case FMT_TABLE:
		compare_table(f, pv, sc, cr);
		break;
	case FMT_CSV:
		compare_csv(f, pv, sc, cr);
		break;
	case FMT_JSON:
		compare_json(f, pv, sc, cr);
		break;
	}
}
