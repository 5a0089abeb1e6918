/* timers-cmd.c: `mpsim timers`, the catch-up cost of the kernel timer
 * wheels on a NOHZ-idle CPU whose only timer recurs every --period
 * (docs/kernel-model.md §8.1 and §8.3: Wenbo Wang's 20 s watchdog case). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim/clock.h"
#include "input/scenario.h"
#include "wheels/timer-wheel.h"
#include "timers.h"

static const char usage[] =
"usage: mpsim timers [--period=20s] [--runtime=600s] [--hz=250]\n"
"                    [--wheel=classic|levels|all] [--format=table|csv|json]\n"
"                    [--cost-softirq=T] [--cost-iteration=T]\n"
"                    [--cost-splice=T] [--cost-cascade=T] [--mail]\n"
"\n"
"A NOHZ-idle CPU whose only timer re-arms itself every --period: at each\n"
"expiry the CPU wakes and the timer softirq catches up.  Counts the\n"
"catch-up loop iterations of the <= v4.7 cascading wheel without and with\n"
"the large-gap skip (tv1_cnt), and of the v4.8+ level wheel, and checks\n"
"that both classic variants fire the same timers at the same jiffies.\n"
"Each catch-up is also counted in the terms of Wang's mail: cascades, list\n"
"splices, and the time they take under a per-operation cost model (T: a\n"
"time such as 7ns or 11.6us; defaults in the README).  --mail prints,\n"
"for HZ 100, 250 and 1000 and every wheel, the figures per softirq and\n"
"the before/after ratio beside the mail's (124-165 us before, 8-20 us\n"
"after); it takes no --hz, --wheel or --format.\n"
"\n"
"examples:\n"
"  mpsim timers\n"
"  mpsim timers --hz=1000 --period=5s --wheel=classic --format=csv\n"
"  mpsim timers --mail\n"
"\n"
"exit status: 0 ok, 1 the classic variants disagree, 2 bad input\n";

void help_timers(FILE *f)
{
	fputs(usage, f);
	ref_options(f, CMD_TIMERS, REF_OTHER);
}

/* ---- options ---- */

static const char *const which_names[] = {	/* ORDER: enum which */
	[WHICH_CLASSIC] = "classic",
	[WHICH_LEVELS] = "levels",
	[WHICH_ALL] = "all",
};

/* A cost: a decimal number of ns, us or ms, 0 to 1 s.  Returns 0 or -1. */
static int parse_cost(const char *val, double *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 } };
	char *end;
	double x;
	unsigned i;

	if (!((*val >= '0' && *val <= '9') || *val == '.'))
		return -1;
	x = strtod(val, &end);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(end, units[i].unit)) {
			x *= units[i].ns;
			if (!(x >= 0 && x <= 1e9))
				return -1;
			*ns = x;
			return 0;
		}
	}
	return -1;
}

/* One option, its value already split off.  Returns 0 or -EINVAL. */
static int set_opt(struct timers_opts *o, const char *key, const char *val,
		   char *err)
{
	char why[ERR_MAX];
	uint64_t u;
	unsigned i;

	if (!strncmp(key, "cost-", 5)) {
		double *slot = !strcmp(key, "cost-softirq") ? &o->cost.softirq :
			       !strcmp(key, "cost-iteration") ?
			       &o->cost.iteration :
			       !strcmp(key, "cost-splice") ? &o->cost.splice :
			       !strcmp(key, "cost-cascade") ? &o->cost.cascade :
			       NULL;
		char m[80];

		if (!slot)
			return input_error(err, "timers: unknown option "
					   "'--%.40s'%s", key,
					   ref_closest(key, CMD_TIMERS, m,
						       sizeof(m)));
		if (parse_cost(val, slot))
			return input_error(err, "--%s: '%.40s' is not a time "
					   "of 0 to 1s (say 7ns or 11.6us)",
					   key, val);
	} else if (!strcmp(key, "period")) {
		if (parse_duration(val, NSEC_PER_SEC, &o->period, why))
			return input_error(err, "--period: %s", why);
		if (!o->period)
			return input_error(err, "--period: must be more than 0");
	} else if (!strcmp(key, "runtime")) {
		if (parse_duration(val, NSEC_PER_SEC, &o->runtime, why))
			return input_error(err, "--runtime: %s", why);
		if (!o->runtime || o->runtime > MAX_RUNTIME)
			return input_error(err, "--runtime: must be more than 0 "
					   "and at most 7d");
	} else if (!strcmp(key, "hz")) {
		if (parse_uint(val, &u, why))
			return input_error(err, "--hz: %s", why);
		if (u > 1000 || !hz_valid((unsigned)u))
			return input_error(err, "--hz: '%.40s' is not 100, 250, "
					   "300 or 1000", val);
		o->hz = (unsigned)u;
		o->hz_set = true;
	} else if (!strcmp(key, "mail")) {
		if (strcmp(val, "1") && strcmp(val, "0"))
			return input_error(err, "--mail: '%.40s' is not 0 or 1",
					   val);
		o->mail = !strcmp(val, "1");
	} else if (!strcmp(key, "wheel")) {
		for (i = 0; i < ARRAY_SIZE(which_names); i++)
			if (!strcmp(val, which_names[i]))
				break;
		if (i == ARRAY_SIZE(which_names))
			return input_error(err, "--wheel: '%.40s' is not "
					   "classic, levels or all", val);
		o->which = (enum which)i;
		o->which_set = true;
	} else if (!strcmp(key, "format")) {
		if (out_format_parse(val, &o->format) ||
		    o->format == FMT_DMSETUP)
			return input_error(err, "--format: '%.40s' is not "
					   "table, csv or json", val);
		o->format_set = true;
	} else {
		char m[80];

		return input_error(err, "timers: unknown option '--%.40s'%s",
				   key, ref_closest(key, CMD_TIMERS, m,
						    sizeof(m)));
	}
	return 0;
}

/* `--key=value` or `--key value`, as the other commands take them. */
static int parse_opts(int argc, char **argv, struct timers_opts *o,
		      bool *help, char *err)
{
	char key[32];
	int i;

	o->period = 20 * NSEC_PER_SEC;
	o->runtime = 600 * NSEC_PER_SEC;
	o->hz = 250;
	o->which = WHICH_ALL;
	o->format = FMT_TABLE;
	o->cost.softirq = COST_SOFTIRQ_NS;
	o->cost.iteration = COST_ITERATION_NS;
	o->cost.splice = COST_SPLICE_NS;
	o->cost.cascade = COST_CASCADE_NS;
	o->mail = o->hz_set = o->which_set = o->format_set = false;
	*help = false;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val, *eq;
		size_t klen;
		int r;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*help = true;
			return 0;
		}
		if (strncmp(a, "--", 2) || !a[2])
			return input_error(err, "timers: unexpected argument "
					   "'%.40s' (options are --key=value)",
					   a);
		if (!strcmp(a, "--mail")) {
			o->mail = true;
			continue;
		}
		eq = strchr(a + 2, '=');
		klen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (klen >= sizeof(key))
			return input_error(err, "timers: unknown option "
					   "'%.40s'", a);
		memcpy(key, a + 2, klen);
		key[klen] = 0;
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			return input_error(err, "--%s: missing value", key);
		}
		r = set_opt(o, key, val, err);
		if (r)
			return r;
	}
	return 0;
}

/* ---- output ---- */

static double secs(unsigned hz, uint64_t j)
{
	return (double)jiffy_edge(hz, j) / 1e9;
}

static void header(FILE *f, const char *lead, const struct timers_opts *o,
		   uint64_t start, uint64_t period)
{
	fprintf(f, "%smpsim %s: timers, one timer every %.9g s (%llu jiffies) "
		"for %.9g s at HZ %u from boot (jiffies %llu), wheel %s\n",
		lead, MPSIM_VERSION, (double)o->period / 1e9,
		(unsigned long long)period, (double)o->runtime / 1e9, o->hz,
		(unsigned long long)start, which_names[o->which]);
	fprintf(f, "%scost model, ns: %.6g per softirq, %.6g per iteration, "
		"%.6g per splice, %.6g per cascade\n", lead, o->cost.softirq,
		o->cost.iteration, o->cost.splice, o->cost.cascade);
}

static void verdict(FILE *f, const char *lead, const struct variant *v,
		    unsigned nv, bool same)
{
	if (nv < 2 || v[0].kind != TW_CLASSIC)
		return;
	if (same)
		fprintf(f, "%sclassic and classic+skip fired the same %u timers "
			"at the same jiffies; the skip took %llu of %llu "
			"iterations (%.1f%%)\n", lead, v[0].nfired,
			(unsigned long long)v[1].iterations,
			(unsigned long long)v[0].iterations,
			v[0].iterations ? 100.0 * (double)v[1].iterations /
			(double)v[0].iterations : 0.0);
	else
		fprintf(f, "%sclassic and classic+skip DIFFER\n", lead);
}

/* Sums over a variant's catch-ups. */
static void totals(const struct variant *v, struct catchup *sum)
{
	unsigned i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < v->nc; i++) {
		sum->iterations += v->c[i].iterations;
		sum->cascades += v->c[i].cascades;
		sum->moved += v->c[i].moved;
		sum->splices += v->c[i].splices;
		sum->fired += v->c[i].fired;
	}
}

/* Columns: catch-up, then per wheel its wake-up time, iterations,
 * cascades, splices and modelled time; the two classic variants wake
 * together, so they share the time column. */
static void out_table(FILE *f, const struct timers_opts *o, uint64_t start,
		      uint64_t period, const struct variant *v, unsigned nv,
		      bool same)
{
	unsigned i, k, rows = 0;
	struct catchup sum;

	header(f, "", o, start, period);
	fputs("\n| catch-up |", f);
	for (k = 0; k < nv; k++) {
		if (v[k].kind != TW_CLASSIC_SKIP)
			fprintf(f, " %s at s |", v[k].name);
		fprintf(f, " %s iterations | cascades | splices | us |",
			v[k].name);
		if (v[k].nc > rows)
			rows = v[k].nc;
	}
	fputs("\n|--:|", f);
	for (k = 0; k < nv; k++)
		fputs(v[k].kind != TW_CLASSIC_SKIP ? "--:|--:|--:|--:|--:|" :
		      "--:|--:|--:|--:|", f);
	fputc('\n', f);
	for (i = 0; i < rows; i++) {
		fprintf(f, "| %u |", i + 1);
		for (k = 0; k < nv; k++) {
			const struct catchup *c = &v[k].c[i];

			if (i >= v[k].nc) {
				fputs(v[k].kind != TW_CLASSIC_SKIP ?
				      " | | | | |" : " | | | |", f);
				continue;
			}
			if (v[k].kind != TW_CLASSIC_SKIP)
				fprintf(f, " %.3f |", secs(o->hz, c->jiffies));
			fprintf(f, " %llu | %llu | %llu | %.1f |",
				(unsigned long long)c->iterations,
				(unsigned long long)c->cascades,
				(unsigned long long)c->splices,
				catchup_us(&o->cost, c));
		}
		fputc('\n', f);
	}
	fputs("| total |", f);
	for (k = 0; k < nv; k++) {
		totals(&v[k], &sum);
		if (v[k].kind != TW_CLASSIC_SKIP)
			fprintf(f, " %u fired |", v[k].nfired);
		fprintf(f, " %llu | %llu | %llu | |",
			(unsigned long long)v[k].iterations,
			(unsigned long long)sum.cascades,
			(unsigned long long)sum.splices);
	}
	fputc('\n', f);
	if (nv > 1)
		fputc('\n', f);
	verdict(f, "", v, nv, same);
}

static void out_csv(FILE *f, const struct timers_opts *o, uint64_t start,
		    uint64_t period, const struct variant *v, unsigned nv,
		    bool same)
{
	unsigned i, k;
	struct catchup sum;

	header(f, "# ", o, start, period);
	fputs("wheel,catchup,jiffies,uptime_ns,iterations,cascades,moved,"
	      "splices,fired,time_us\n", f);
	for (k = 0; k < nv; k++) {
		for (i = 0; i < v[k].nc; i++) {
			const struct catchup *c = &v[k].c[i];

			fprintf(f, "%s,%u,%llu,%llu,%llu,%llu,%llu,%llu,%u,"
				"%.3f\n", v[k].name, i + 1,
				(unsigned long long)c->jiffies,
				(unsigned long long)jiffy_edge(o->hz,
							c->jiffies),
				(unsigned long long)c->iterations,
				(unsigned long long)c->cascades,
				(unsigned long long)c->moved,
				(unsigned long long)c->splices, c->fired,
				catchup_us(&o->cost, c));
		}
		totals(&v[k], &sum);
		fprintf(f, "%s,total,,,%llu,%llu,%llu,%llu,%u,\n", v[k].name,
			(unsigned long long)v[k].iterations,
			(unsigned long long)sum.cascades,
			(unsigned long long)sum.moved,
			(unsigned long long)sum.splices, v[k].nfired);
	}
	verdict(f, "# ", v, nv, same);
}

static void out_json(FILE *f, const struct timers_opts *o, uint64_t start,
		     uint64_t period, const struct variant *v, unsigned nv,
		     bool same)
{
	unsigned i, k;

	fprintf(f, "{\"mpsim\": {\"version\": \"%s\", \"command\": \"timers\", "
		"\"options\": {\"period_ns\": %llu, \"runtime_ns\": %llu, "
		"\"hz\": %u, \"wheel\": \"%s\", \"cost_ns\": {\"softirq\": "
		"%.6g, \"iteration\": %.6g, \"splice\": %.6g, \"cascade\": "
		"%.6g}}},\n", MPSIM_VERSION,
		(unsigned long long)o->period, (unsigned long long)o->runtime,
		o->hz, which_names[o->which], o->cost.softirq,
		o->cost.iteration, o->cost.splice, o->cost.cascade);
	fprintf(f, " \"start_jiffies\": %llu, \"period_jiffies\": %llu,\n"
		" \"wheels\": [", (unsigned long long)start,
		(unsigned long long)period);
	for (k = 0; k < nv; k++) {
		fprintf(f, "%s\n  {\"wheel\": \"%s\", \"fired\": %u, "
			"\"iterations\": %llu, \"catchups\": [", k ? "," : "",
			v[k].name, v[k].nfired,
			(unsigned long long)v[k].iterations);
		for (i = 0; i < v[k].nc; i++) {
			const struct catchup *c = &v[k].c[i];

			fprintf(f, "%s\n    {\"jiffies\": %llu, \"uptime_ns\": "
				"%llu, \"iterations\": %llu, \"cascades\": "
				"%llu, \"moved\": %llu, \"splices\": %llu, "
				"\"fired\": %u, \"time_us\": %.3f}",
				i ? "," : "",
				(unsigned long long)c->jiffies,
				(unsigned long long)jiffy_edge(o->hz,
							c->jiffies),
				(unsigned long long)c->iterations,
				(unsigned long long)c->cascades,
				(unsigned long long)c->moved,
				(unsigned long long)c->splices, c->fired,
				catchup_us(&o->cost, c));
		}
		fputs("]}", f);
	}
	fputs("]", f);
	if (o->which != WHICH_LEVELS)
		fprintf(f, ",\n \"same_firings\": %s", same ? "true" : "false");
	fputs("}\n", f);
}

int cmd_timers(int argc, char **argv)
{
	struct timers_opts o;
	struct timers_run r;
	char err[ERR_MAX];
	bool help;
	int rc = EXIT_OK;

	if (parse_opts(argc, argv, &o, &help, err)) {
		mpsim_error("%s", err);
		return EXIT_BAD_INPUT;
	}
	if (help) {
		help_timers(stdout);
		return EXIT_OK;
	}
	if (o.mail && (o.hz_set || o.which_set || o.format_set)) {
		mpsim_error("timers --mail covers HZ 100, 250 and 1000 and "
			    "every wheel, as a table: drop --%s",
			    o.hz_set ? "hz" : o.which_set ? "wheel" : "format");
		return EXIT_BAD_INPUT;
	}
	if (o.mail) {
		char buf[ERR_MAX];
		int m;

		/* check the period against the longest run first, so that a
		 * bad one prints nothing */
		if (run_wheels(&o, 1000, WHICH_LEVELS, &r, err)) {
			mpsim_error("%s", err);
			return EXIT_BAD_INPUT;
		}
		run_free(&r);
		m = out_mail(stdout, &o, buf);
		if (m < 0) {
			mpsim_error("%s", buf);
			return EXIT_BAD_INPUT;
		}
		if (m)
			rc = EXIT_FAILED;
	} else {
		if (run_wheels(&o, o.hz, o.which, &r, err)) {
			mpsim_error("%s", err);
			return EXIT_BAD_INPUT;
		}
		if (o.which != WHICH_LEVELS &&
		    same_firings(&r.v[0], &r.v[1], err)) {
			mpsim_error("timers: classic and classic+skip "
				    "differ: %s", err);
			r.same = false;
			rc = EXIT_FAILED;
		}
		if (o.format == FMT_CSV)
			out_csv(stdout, &o, r.start, r.period, r.v, r.nv,
				r.same);
		else if (o.format == FMT_JSON)
			out_json(stdout, &o, r.start, r.period, r.v, r.nv,
				 r.same);
		else
			out_table(stdout, &o, r.start, r.period, r.v, r.nv,
				  r.same);
		run_free(&r);
	}
	if (fflush(stdout)) {
		perror("mpsim: writing output");
		rc = EXIT_FAILED;
	}
	return rc;
}
