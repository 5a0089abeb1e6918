/*
 * compare.c: the comparison table of kernel.md §6.2.  The scenario runs
 * once per column with the same seed, so every column sees the same
 * service times on each path (common random numbers), and the table lists
 * each path's share of I/Os per column next to its capacity share.
 */
#include <stdlib.h>
#include <string.h>

#include "../selectors/selector.h"
#include "report.h"
#include "run.h"

/* The §6.2 columns first (ST, HST with the jiffies stamp of bio-based
 * 5.8-5.18, HST with the ktime stamp of 5.19+), then the what-if that
 * separates tick granularity from the epoch mismatch, then the two
 * simpler selectors for reference. */
static const struct compare_col default_cols[] = {
	{ "ST", "st", "service-time", START_KTIME },
	{ "HST (jiffies)", "hst_jiffies", "historical-service-time", START_JIFFIES },
	{ "HST (ktime)", "hst_ktime", "historical-service-time", START_KTIME },
	{ "HST (jiffies-aligned)", "hst_jiffies_aligned",
	  "historical-service-time", START_JIFFIES_ALIGNED },
	{ "QL", "ql", "queue-length", START_KTIME },
	{ "RR", "rr", "round-robin", START_KTIME },
};

/* Columns up to and including this one come before "Best". */
#define COLS_BEFORE_BEST	3

int compare_run(const struct scenario *sc, uint64_t seed,
		struct compare_result *cr, char *err)
{
	unsigned i;
	int r;

	memset(cr, 0, sizeof(*cr));
	cr->cols = default_cols;
	cr->runs = xcalloc(ARRAY_SIZE(default_cols), sizeof(*cr->runs));
	for (i = 0; i < ARRAY_SIZE(default_cols); i++) {
		const struct compare_col *c = &default_cols[i];
		const struct ps_type *own;
		struct scenario col;

		scenario_copy(&col, sc);
		snprintf(col.selector, sizeof(col.selector), "%s", c->selector);
		col.clock = c->clock;
		/* the scenario's selector_args belong to its own selector */
		own = ps_find(sc->selector);
		if (!own || strcmp(own->name, c->selector))
			col.selector_args[0] = '\0';
		r = run_scenario(&col, seed, &cr->runs[i], err);
		scenario_free(&col);
		if (r) {
			compare_free(cr);
			return r;
		}
		cr->nr_cols++;
	}
	return 0;
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
	return r->total.ios ? (double)r->path[p].ios / (double)r->total.ios : 0;
}

static void compare_table(FILE *f, const struct provenance *pv,
			  const struct scenario *sc,
			  const struct compare_result *cr)
{
	const struct run_result *r0 = &cr->runs[0];
	unsigned i, c;

	fprintf(f, "mpsim %s: scenario %s, mode %s, HZ %u, uptime %.0f s, "
		"seed %llu%s%s\n\n", MPSIM_VERSION, pv->scenario,
		sc->mode == MODE_BIO ? "bio" : "request", sc->hz,
		(double)sc->uptime / 1e9, (unsigned long long)pv->seed,
		pv->options && *pv->options ? ", options: " : "",
		pv->options ? pv->options : "");
	fputs("| disk |", f);
	for (c = 0; c < cr->nr_cols; c++) {
		fprintf(f, " %s |", cr->cols[c].label);
		if (c + 1 == COLS_BEFORE_BEST)
			fputs(" Best |", f);
	}
	fputs("\n|---|", f);
	for (c = 0; c <= cr->nr_cols; c++)
		fputs("--:|", f);
	fputc('\n', f);
	for (i = 0; i < r0->nr_paths; i++) {
		fprintf(f, "| %s |", r0->names[i]);
		for (c = 0; c < cr->nr_cols; c++) {
			fprintf(f, " %.2f |", share(&cr->runs[c], i));
			if (c + 1 == COLS_BEFORE_BEST)
				fprintf(f, " %.2f |", r0->best[i]);
		}
		fputc('\n', f);
	}
	fputs("| IOPS |", f);
	for (c = 0; c < cr->nr_cols; c++) {
		const struct run_result *r = &cr->runs[c];

		fprintf(f, " %.0f |", r->window ?
			(double)r->total.ios * 1e9 / (double)r->window : 0);
		if (c + 1 == COLS_BEFORE_BEST)
			fputs(" |", f);
	}
	fputs("\n\nShare of I/Os per path. ST: service-time. "
	      "HST (jiffies): historical-service-time with the bio start stamp "
	      "of 5.8-5.18, jiffies_to_nsecs(jiffies), its own epoch. "
	      "HST (ktime): the ktime stamp of 5.19+. Best: capacity share, "
	      "slots / mean cost, normalised. "
	      "HST (jiffies-aligned): the stamp floored to a tick in the ktime "
	      "epoch (granularity without the epoch mismatch). "
	      "QL: queue-length. RR: round-robin.\n", f);
}

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
	fputs("path,column,selector,clock,share,best\n", f);
	for (i = 0; i < r0->nr_paths; i++)
		for (c = 0; c < cr->nr_cols; c++)
			fprintf(f, "%s,%s,%s,%s,%.6f,%.6f\n", r0->names[i],
				cr->cols[c].key, cr->cols[c].selector,
				start_clock_name(cr->cols[c].clock),
				share(&cr->runs[c], i), r0->best[i]);
}

static void compare_json(FILE *f, const struct provenance *pv,
			 const struct scenario *sc,
			 const struct compare_result *cr)
{
	const struct run_result *r0 = &cr->runs[0];
	unsigned i, c;

	fputs("{\"mpsim\": {\"version\": ", f);
	json_string(f, MPSIM_VERSION);
	fputs(", \"scenario\": ", f);
	json_string(f, pv->scenario);
	fprintf(f, ", \"seed\": %llu, \"options\": ",
		(unsigned long long)pv->seed);
	json_string(f, pv->options ? pv->options : "");
	fputs("},\n \"columns\": [", f);
	for (c = 0; c < cr->nr_cols; c++) {
		fprintf(f, "%s{\"key\": \"%s\", \"label\": ", c ? ", " : "",
			cr->cols[c].key);
		json_string(f, cr->cols[c].label);
		fprintf(f, ", \"selector\": \"%s\", \"clock\": \"%s\"}",
			cr->cols[c].selector,
			start_clock_name(cr->cols[c].clock));
	}
	fputs("],\n \"paths\": [", f);
	for (i = 0; i < r0->nr_paths; i++) {
		fputs(i ? ",\n  {\"path\": " : "\n  {\"path\": ", f);
		json_string(f, r0->names[i]);
		fprintf(f, ", \"best\": %.6f, \"share\": {", r0->best[i]);
		for (c = 0; c < cr->nr_cols; c++)
			fprintf(f, "%s\"%s\": %.6f", c ? ", " : "",
				cr->cols[c].key, share(&cr->runs[c], i));
		fputs("}}", f);
	}
	fputs("]}\n", f);
}

void report_compare(FILE *f, enum out_format fmt, const struct provenance *pv,
		    const struct scenario *sc, const struct compare_result *cr)
{
	switch (fmt) {
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
