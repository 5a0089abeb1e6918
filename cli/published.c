/*
 * published.c: `mpsim published`, Gabriel Krisman Bertazi's 2022 table
 * (docs/kernel-model.md §6.2) beside mpsim's, cell by cell, with the largest
 * difference per column; what the mail's Best column is, in numbers; the
 * same table on devices that serve in the mail's nominal cost ratio; and
 * (--sensitivity) how far the match moves when each assumption of the
 * model changes.  Markdown only: these are the README's tables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim/run.h"

#define NDISKS	10

/* The mail's columns, in its order. */
enum { COL_ST, COL_HST_ORIG, COL_HST_KTIME, COL_BEST, NCOLS };

/* The compare columns behind them (Best is the model's capacity share). */
#define MODEL_COLUMNS	"st,hst_jiffies,hst_ktime"

static const char *const disks[NDISKS] = {
	"sdd", "sde", "sdf", "sdg", "sdh", "sdi", "sdj", "sdk", "sdl", "sdm",
};

/* The published table, as docs/kernel-model.md §6.2 quotes it. */
static const double mail[NDISKS][NCOLS] = {
	{ 0.17, 0.20, 0.17, 0.18 }, { 0.17, 0.20, 0.17, 0.18 },
	{ 0.17, 0.20, 0.17, 0.18 }, { 0.06, 0.00, 0.06, 0.04 },
	{ 0.03, 0.00, 0.03, 0.02 }, { 0.03, 0.00, 0.03, 0.02 },
	{ 0.02, 0.00, 0.01, 0.01 }, { 0.02, 0.00, 0.01, 0.01 },
	{ 0.17, 0.20, 0.17, 0.18 }, { 0.17, 0.20, 0.17, 0.18 },
};

/* The relative path costs the mail's Best implies if Best is 1/cost
 * normalised (docs/kernel-model.md §6.2, derived there). */
static const double nominal_cost[NDISKS] = {
	1, 1, 1, 4.5, 9, 9, 18, 18, 1, 1,
};

/* One model's table: shares per disk and column, and its IOPS. */
struct model {
	double v[NDISKS][NCOLS];
	double iops[NCOLS - 1];
	double mean_us[NDISKS];		/* the devices' mean service time */
};

static double share(const struct run_result *r, unsigned p)
{
	return r->total.ios ? (double)r->path[p].ios / (double)r->total.ios : 0;
}

/* Runs the three selector columns on sc and fills m.  Returns 0 or
 * -EINVAL (err set). */
static int run_model(const struct scenario *sc, uint64_t seed,
		     struct model *m, char *err)
{
	struct compare_result cr;
	unsigned d, p, c;
	int r;

	r = compare_run(sc, seed, MODEL_COLUMNS, &cr, err);
	if (r)
		return r;
	for (d = 0; d < NDISKS; d++) {
		for (p = 0; p < cr.runs[0].nr_paths; p++)
			if (!strcmp(cr.runs[0].names[p], disks[d]))
				break;
		if (p == cr.runs[0].nr_paths) {
			compare_free(&cr);
			return input_error(err, "published: the scenario has no "
					   "path %s", disks[d]);
		}
		for (c = 0; c < cr.nr_cols; c++)
			m->v[d][c] = share(&cr.runs[c], p);
		m->v[d][COL_BEST] = cr.runs[0].best[p];
		m->mean_us[d] = sc->paths[p].service.mean / 1e3;
	}
	for (c = 0; c < cr.nr_cols; c++)
		m->iops[c] = cr.runs[c].window ?
			(double)cr.runs[c].total.ios * 1e9 /
			(double)cr.runs[c].window : 0;
	compare_free(&cr);
	return 0;
}

/* The largest |model - mail| of column c, and on which disk. */
static double largest(const struct model *m, unsigned c, unsigned *at)
{
	double worst = -1;
	unsigned d;

	for (d = 0; d < NDISKS; d++) {
		double x = fabs(m->v[d][c] - mail[d][c]);

		if (x > worst) {
			worst = x;
			*at = d;
		}
	}
	return worst;
}

static void side_by_side(FILE *f, const struct model *m, const char *label)
{
	static const char *const names[NCOLS] = {
		"ST", "HST (orig)", "HST (ktime)", "Best",
	};
	unsigned d, c, at = 0;

	fputs("| disk |", f);
	for (c = 0; c < NCOLS; c++)
		fprintf(f, " %s, mail | %s |", names[c], label);
	fputs("\n|---|", f);
	for (c = 0; c < NCOLS; c++)
		fputs("--:|--:|", f);
	fputc('\n', f);
	for (d = 0; d < NDISKS; d++) {
		fprintf(f, "| %s |", disks[d]);
		for (c = 0; c < NCOLS; c++)
			fprintf(f, " %.2f | %.2f |", mail[d][c], m->v[d][c]);
		fputc('\n', f);
	}
	fputs("| largest difference |", f);
	for (c = 0; c < NCOLS; c++) {
		double x = largest(m, c, &at);

		fprintf(f, " | %.3f (%s) |", x, disks[at]);
	}
	fprintf(f, "\n| IOPS | | %.0f | | %.0f | | %.0f | | |\n",
		m->iops[COL_ST], m->iops[COL_HST_ORIG], m->iops[COL_HST_KTIME]);
}

/* Best, in numbers: the mail's column is 1/cost normalised over the
 * nominal costs; mpsim's is slots / mean service normalised, and its
 * means are (cost + 1) x 50 us. */
static void best_explained(FILE *f, const struct model *cal)
{
	double inv = 0, inv1 = 0;
	unsigned d;

	for (d = 0; d < NDISKS; d++) {
		inv += 1 / nominal_cost[d];
		inv1 += 1 / (nominal_cost[d] + 1);
	}
	fputs("| disk | nominal cost | 1/cost, normalised | Best, mail | "
	      "mean service, us | (cost + 1) x 50 us | 1/(cost + 1), "
	      "normalised | Best, mpsim |\n"
	      "|---|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (d = 0; d < NDISKS; d++)
		fprintf(f, "| %s | %g | %.3f | %.2f | %.0f | %.0f | %.3f | "
			"%.3f |\n", disks[d], nominal_cost[d],
			1 / nominal_cost[d] / inv, mail[d][COL_BEST],
			cal->mean_us[d], (nominal_cost[d] + 1) * 50,
			1 / (nominal_cost[d] + 1) / inv1,
			cal->v[d][COL_BEST]);
}

static int published_tables(FILE *f, uint64_t seed, char *err)
{
	struct scenario sc;
	struct model cal, nom;
	int r;

	scenario_init(&sc);
	r = scenario_load_builtin(&sc, "hst-bio-mpath", err);
	if (!r)
		r = run_model(&sc, seed, &cal, err);
	scenario_free(&sc);
	if (r)
		return r;
	scenario_init(&sc);
	r = scenario_load_builtin(&sc, "hst-bio-mpath-nominal", err);
	if (!r)
		r = run_model(&sc, seed, &nom, err);
	scenario_free(&sc);
	if (r)
		return r;

	/* its title first, then what produced it, as every output says */
	fprintf(f, "## The 2022 historical-service-time table beside "
		"mpsim's\n\nmpsim %s: published, seed %llu\n\n", MPSIM_VERSION,
		(unsigned long long)seed);
	fputs("The 2022 mail's table (docs/kernel-model.md §6.2) beside mpsim's, on the "
	      "calibrated devices (built-in hst-bio-mpath: exponential "
	      "service, means 100, 275, 500 and 950 us).  mpsim's HST (orig) "
	      "is HST (jiffies), the bio start stamp of 5.8-5.18.\n\n", f);
	side_by_side(f, &cal, "mpsim");
	fputs("\nBest, in numbers.  The mail's Best is 1/cost normalised over "
	      "nominal costs 1 : 4.5 : 9 : 18; mpsim's is each device's "
	      "capacity share.  The calibrated means are (cost + 1) x 50 us, "
	      "a base cost every path shares, which the nominal Best leaves "
	      "out.\n\n", f);
	best_explained(f, &cal);
	fputs("\nThe same table on devices that serve in the nominal ratio "
	      "(built-in hst-bio-mpath-nominal: means 100, 450, 900 and "
	      "1800 us), whose capacity share is the mail's Best.\n\n", f);
	side_by_side(f, &nom, "nominal");
	return 0;
}

/* ---- --sensitivity ---- */

struct assumption {
	const char *what;	/* the assumption */
	const char *value;	/* this variant's value, as shown */
	const char *key;	/* scenario_set key, or "service" */
	const char *set;	/* its value; for "service": kind and CV */
	bool calibrated;	/* the built-in scenario's own value */
};

static const struct assumption variants[] = {
	{ "service distribution", "exponential", "service", "exp", true },
	{ "service distribution", "fixed", "service", "fixed", false },
	{ "service distribution", "lognormal, CV 0.5", "service",
	  "lognormal,0.5", false },
	{ "service distribution", "gamma, CV 2", "service", "gamma,2",
	  false },
	{ "iodepth", "16", "iodepth", "16", false },
	{ "iodepth", "32", "iodepth", "32", false },
	{ "iodepth", "64", "iodepth", "64", true },
	{ "iodepth", "128", "iodepth", "128", false },
	{ "HZ", "100", "hz", "100", false },
	{ "HZ", "250", "hz", "250", true },
	{ "HZ", "300", "hz", "300", false },
	{ "HZ", "1000", "hz", "1000", false },
	{ "uptime", "60 s", "uptime", "60s", false },
	{ "uptime", "600 s", "uptime", "600s", false },
	{ "uptime", "3600 s", "uptime", "3600s", true },
	{ "uptime", "86400 s", "uptime", "86400s", false },
};

/* Every path's service keeps its mean and takes the kind of `set`
 * ("fixed", or "lognormal,0.5": a kind and its CV). */
static int set_service(struct scenario *sc, const char *set, char *err)
{
	const char *comma = strchr(set, ',');
	int kind_len = comma ? (int)(comma - set) : (int)strlen(set);
	unsigned p;

	for (p = 0; p < sc->nr_paths; p++) {
		char key[64], val[96];
		int r;

		snprintf(val, sizeof(val), "%.*s:%.0fns%s%s", kind_len, set,
			 sc->paths[p].service.mean, comma ? "," : "",
			 comma ? comma + 1 : "");
		snprintf(key, sizeof(key), "path.%s.service",
			 sc->paths[p].name);
		r = scenario_set(sc, key, val, err);
		if (r)
			return r;
	}
	return 0;
}

static int sensitivity(FILE *f, uint64_t seed, char *err)
{
	unsigned i, c, at = 0;

	fprintf(f, "## How far the 2022 table's match moves with the model's "
		"assumptions\n\nmpsim %s: published --sensitivity, seed %llu"
		"\n\n", MPSIM_VERSION, (unsigned long long)seed);
	fputs("How far mpsim's table moves from the mail's when one "
	      "assumption of the calibrated model changes (the others stay "
	      "as built in).  Each cell is the largest |mpsim - mail| over "
	      "the ten disks, and the disk.\n\n"
	      "| assumption | value | ST | HST (orig) | HST (ktime) | Best |\n"
	      "|---|---|--:|--:|--:|--:|\n", f);
	for (i = 0; i < ARRAY_SIZE(variants); i++) {
		const struct assumption *a = &variants[i];
		struct scenario sc;
		struct model m;
		int r;

		scenario_init(&sc);
		r = scenario_load_builtin(&sc, "hst-bio-mpath", err);
		if (!r)
			r = !strcmp(a->key, "service") ?
			    set_service(&sc, a->set, err) :
			    scenario_set(&sc, a->key, a->set, err);
		if (!r)
			r = scenario_validate(&sc, err);
		if (!r)
			r = run_model(&sc, seed, &m, err);
		scenario_free(&sc);
		if (r)
			return r;
		fprintf(f, "| %s | %s%s |", a->what, a->value,
			a->calibrated ? " (calibrated)" : "");
		for (c = 0; c < NCOLS; c++) {
			double x = largest(&m, c, &at);

			fprintf(f, " %.3f (%s) |", x, disks[at]);
		}
		fputc('\n', f);
	}
	return 0;
}

static const char usage[] =
"usage: mpsim published [--seed=N] [--sensitivity]\n"
"\n"
"The 2022 historical-service-time table (Krisman, docs/kernel-model.md §6.2) beside\n"
"mpsim's, with the largest difference per column, what the Best column\n"
"is in numbers, and the table on devices in the mail's nominal cost\n"
"ratio.  --sensitivity: the largest difference when one assumption of the\n"
"model (service distribution, iodepth, HZ, uptime) changes.  Markdown.\n"
"\n"
"examples:\n"
"  mpsim published\n"
"  mpsim published --sensitivity --seed=2\n";

void help_published(FILE *f)
{
	fputs(usage, f);
	ref_options(f, CMD_PUBLISHED, REF_OTHER);
}

int cmd_published(int argc, char **argv)
{
	char err[ERR_MAX];
	uint64_t seed = 1;
	bool sens = false;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i, r;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			help_published(stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--sensitivity")) {
			sens = true;
		} else if (!strncmp(a, "--seed=", 7)) {
			if (cli_parse_seed(a + 7, &seed, err)) {
				mpsim_error("%s", err);
				return EXIT_BAD_INPUT;
			}
		} else {
			char m[80];

			ref_closest(a + strspn(a, "-"), CMD_PUBLISHED, m,
				    sizeof(m));
			mpsim_error("published: unknown option '%.40s' "
				    "%s", a, *m ? m + 1 :
				    "(--seed=N, --sensitivity)");
			return EXIT_BAD_INPUT;
		}
	}
	/* written to memory first: a failure prints nothing on stdout */
	f = open_memstream(&buf, &len);
	if (!f) {
		perror("mpsim: open_memstream");
		abort();
	}
	r = sens ? sensitivity(f, seed, err) : published_tables(f, seed, err);
	fclose(f);
	if (r) {
		free(buf);
		mpsim_error("%s", err);
		return EXIT_BAD_INPUT;
	}
	return cli_emit(buf, len);
}
