/* timers-mail.c: `mpsim timers --mail`, the catch-up per softirq in the
 * terms of Wenbo Wang's mail (docs/kernel-model.md §8.3), beside its figures. */
#include <stdio.h>

#include "timers.h"

/* The mail's figures (docs/kernel-model.md §8.3), one run_timer_softirq() after a
 * 20 s idle sleep, in us; its HZ is not stated. */
#define MAIL_BEFORE_LO	124.0
#define MAIL_BEFORE_HI	165.0
#define MAIL_AFTER_LO	8.0
#define MAIL_AFTER_HI	20.0

struct spread {
	double lo, hi, mean;
};

/* Min, max and mean over a variant's catch-ups of one figure. */
static struct spread spread_of(const struct variant *v,
			       const struct cost_model *m, int what)
{
	struct spread s = { 0, 0, 0 };
	unsigned i;

	for (i = 0; i < v->nc; i++) {
		const struct catchup *c = &v->c[i];
		double x = what == 0 ? (double)c->iterations :
			   what == 1 ? (double)c->cascades :
			   what == 2 ? (double)c->splices : catchup_us(m, c);

		if (!i || x < s.lo)
			s.lo = x;
		if (!i || x > s.hi)
			s.hi = x;
		s.mean += x;
	}
	if (v->nc)
		s.mean /= v->nc;
	return s;
}

/* " lo–hi |" (or " lo |"), with prec decimals. */
static void print_spread(FILE *f, struct spread s, int prec)
{
	fprintf(f, " %.*f", prec, s.lo);
	if (s.hi != s.lo)
		fprintf(f, "–%.*f", prec, s.hi);
	fputs(" |", f);
}

int out_mail(FILE *f, const struct timers_opts *o, char *err)
{
	static const unsigned hzs[] = { 100, 250, 1000 };
	struct timers_run r[ARRAY_SIZE(hzs)];
	unsigned h, k;
	int rc = 0;

	for (h = 0; h < ARRAY_SIZE(hzs); h++) {
		rc = run_wheels(o, hzs[h], WHICH_ALL, &r[h], err);
		if (rc) {
			while (h--)
				run_free(&r[h]);
			return rc;
		}
		r[h].same = !same_firings(&r[h].v[0], &r[h].v[1], err);
		if (!r[h].same)
			rc = 1;
	}
	fprintf(f, "mpsim %s: timers --mail: one timer every %.9g s for "
		"%.9g s from boot, per catch-up (one run_timer_softirq)\n",
		MPSIM_VERSION, (double)o->period / 1e9,
		(double)o->runtime / 1e9);
	fprintf(f, "cost model, ns: %.6g per softirq, %.6g per iteration, "
		"%.6g per splice, %.6g per cascade\n\n", o->cost.softirq,
		o->cost.iteration, o->cost.splice, o->cost.cascade);
	fputs("| HZ | wheel | iterations | cascades | splices | time, us |"
	      "\n|--:|---|--:|--:|--:|--:|\n", f);
	for (h = 0; h < ARRAY_SIZE(hzs); h++) {
		for (k = 0; k < r[h].nv; k++) {
			const struct variant *v = &r[h].v[k];

			fprintf(f, "| %u | %s |", hzs[h], v->name);
			print_spread(f, spread_of(v, &o->cost, 0), 0);
			print_spread(f, spread_of(v, &o->cost, 1), 0);
			print_spread(f, spread_of(v, &o->cost, 2), 0);
			print_spread(f, spread_of(v, &o->cost, 3), 1);
			fputc('\n', f);
		}
	}
	fputs("\n| HZ | before (classic), us | after (classic+skip), us | "
	      "before / after | levels, us | classic / levels |\n"
	      "|---|--:|--:|--:|--:|--:|\n", f);
	for (h = 0; h < ARRAY_SIZE(hzs); h++) {
		struct spread b = spread_of(&r[h].v[0], &o->cost, 3);
		struct spread a = spread_of(&r[h].v[1], &o->cost, 3);
		struct spread l = spread_of(&r[h].v[2], &o->cost, 3);

		fprintf(f, "| %u |", hzs[h]);
		print_spread(f, b, 1);
		print_spread(f, a, 1);
		fprintf(f, " %.1f |", a.mean > 0 ? b.mean / a.mean : 0);
		print_spread(f, l, 1);
		fprintf(f, " %.1f |\n", l.mean > 0 ? b.mean / l.mean : 0);
	}
	fprintf(f, "| the mail (HZ not stated) | %.0f–%.0f | %.0f–%.0f | "
		"%.1f (%.1f–%.1f) | | |\n", MAIL_BEFORE_LO, MAIL_BEFORE_HI,
		MAIL_AFTER_LO, MAIL_AFTER_HI,
		(MAIL_BEFORE_LO + MAIL_BEFORE_HI) /
		(MAIL_AFTER_LO + MAIL_AFTER_HI),
		MAIL_BEFORE_LO / MAIL_AFTER_HI, MAIL_BEFORE_HI / MAIL_AFTER_LO);
	fputs("\nbefore / after and classic / levels: ratios of the mean "
	      "times; the mail's: of its midpoints (its range).\n", f);
	for (h = 0; h < ARRAY_SIZE(hzs); h++)
		if (!r[h].same)
			fprintf(f, "HZ %u: classic and classic+skip DIFFER\n",
				hzs[h]);
	for (h = 0; h < ARRAY_SIZE(hzs); h++)
		run_free(&r[h]);
	return rc;
}
