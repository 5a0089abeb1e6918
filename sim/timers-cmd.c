/* timers-cmd.c: `mpsim timers`, the catch-up cost of the kernel timer
 * wheels on a NOHZ-idle CPU whose only timer recurs every --period
 * (kernel.md §8.1 and §8.3: Wenbo Wang's 20 s watchdog case). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "scenario.h"
#include "timer-wheel.h"

/* The classic wheel walks every jiffy of the run; the output has a row
 * per expiry. */
#define MAX_RUNTIME	(7 * 86400 * NSEC_PER_SEC)
#define MAX_CATCHUPS	100000

static const char usage[] =
"usage: mpsim timers [--period=20s] [--runtime=600s] [--hz=250]\n"
"                    [--wheel=classic|levels|all] [--format=table|csv|json]\n"
"\n"
"A NOHZ-idle CPU whose only timer re-arms itself every --period: at each\n"
"expiry the CPU wakes and the timer softirq catches up.  Counts the\n"
"catch-up loop iterations of the <= v4.7 cascading wheel without and with\n"
"the large-gap skip (tv1_cnt), and of the v4.8+ level wheel, and checks\n"
"that both classic variants fire the same timers at the same jiffies.\n"
"exit status: 0 ok, 1 the classic variants disagree, 2 bad input\n";

enum which { WHICH_CLASSIC, WHICH_LEVELS, WHICH_ALL };

struct timers_opts {
	sim_ns period, runtime;
	unsigned hz;
	enum which which;
	enum out_format format;
};

/* One wake-up of the CPU: the softirq run at the timer's expiry. */
struct catchup {
	uint64_t jiffies;	/* jiffies_64 when it ran */
	uint64_t iterations;	/* loop iterations it took */
	unsigned fired;		/* timers it fired */
};

/* One wheel variant driven through the whole run. */
struct variant {
	enum tw_kind kind;
	const char *name;	/* column and row label */
	struct tw_wheel w;
	struct tw_timer t;	/* the CPU's only timer */
	uint64_t now;		/* jiffies of the catch-up in progress */
	uint64_t period;	/* in jiffies */
	struct catchup *c;
	unsigned nc, cap;
	uint64_t *fired_at;	/* the jiffy of every firing, in order */
	unsigned nfired;
	uint64_t iterations;	/* all catch-ups */
};

/* ORDER: enum tw_kind. */
static const char *const kind_names[] = {
	[TW_CLASSIC] = "classic",
	[TW_CLASSIC_SKIP] = "classic+skip",
	[TW_LEVELS] = "levels",
};

/* The timer's function: note the firing, re-arm one period from now (the
 * jiffies the softirq runs at), as a periodic watchdog does. */
static void on_expiry(struct tw_timer *t, uint64_t at, void *arg)
{
	struct variant *v = arg;

	if (v->nfired < v->cap)
		v->fired_at[v->nfired] = at;
	v->nfired++;
	tw_mod_timer(&v->w, t, v->now + v->period, v->now);
}

static void simulate(struct variant *v, unsigned hz, uint64_t start,
		     uint64_t end)
{
	uint64_t next;

	tw_init(&v->w, v->kind, hz, start);
	tw_timer_init(&v->t, v);
	v->t.expires = start + v->period;
	tw_add_timer(&v->w, &v->t, start);
	while (v->nc < v->cap && tw_next_expiry(&v->w, &next) &&
	       !tw_after(next, end)) {
		struct catchup *c = &v->c[v->nc++];
		unsigned before = v->nfired;

		v->now = next;
		c->jiffies = next;
		c->iterations = tw_run(&v->w, next, on_expiry, v);
		c->fired = v->nfired - before;
		v->iterations += c->iterations;
	}
}

/* Both classic variants must fire the same timer at the same jiffies.
 * Returns 0, or -1 with what differs in msg. */
static int same_firings(const struct variant *a, const struct variant *b,
			char *msg)
{
	unsigned i;

	if (a->nfired != b->nfired) {
		snprintf(msg, ERR_MAX, "%s fired %u times, %s %u times",
			 a->name, a->nfired, b->name, b->nfired);
		return -1;
	}
	for (i = 0; i < a->nfired && i < a->cap; i++) {
		if (a->fired_at[i] == b->fired_at[i])
			continue;
		snprintf(msg, ERR_MAX, "firing %u: %s at jiffies %llu, %s at "
			 "%llu", i + 1, a->name,
			 (unsigned long long)a->fired_at[i], b->name,
			 (unsigned long long)b->fired_at[i]);
		return -1;
	}
	return 0;
}

/* ---- options ---- */

static const char *const which_names[] = {	/* ORDER: enum which */
	[WHICH_CLASSIC] = "classic",
	[WHICH_LEVELS] = "levels",
	[WHICH_ALL] = "all",
};

/* One option, its value already split off.  Returns 0 or -EINVAL. */
static int set_opt(struct timers_opts *o, const char *key, const char *val,
		   char *err)
{
	char why[ERR_MAX];
	uint64_t u;
	unsigned i;

	if (!strcmp(key, "period")) {
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
	} else if (!strcmp(key, "wheel")) {
		for (i = 0; i < ARRAY_SIZE(which_names); i++)
			if (!strcmp(val, which_names[i]))
				break;
		if (i == ARRAY_SIZE(which_names))
			return input_error(err, "--wheel: '%.40s' is not "
					   "classic, levels or all", val);
		o->which = (enum which)i;
	} else if (!strcmp(key, "format")) {
		if (out_format_parse(val, &o->format))
			return input_error(err, "--format: '%.40s' is not "
					   "table, csv or json", val);
	} else {
		return input_error(err, "timers: unknown option '--%.40s'", key);
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

/* Columns: catch-up, then per wheel its wake-up time and iterations; the
 * two classic variants wake together, so they share the time column. */
static void out_table(FILE *f, const struct timers_opts *o, uint64_t start,
		      uint64_t period, const struct variant *v, unsigned nv,
		      bool same)
{
	unsigned i, k, rows = 0;

	header(f, "", o, start, period);
	fputs("\n| catch-up |", f);
	for (k = 0; k < nv; k++) {
		if (v[k].kind != TW_CLASSIC_SKIP)
			fprintf(f, " %s at s |", v[k].name);
		fprintf(f, " %s iterations |", v[k].name);
		if (v[k].nc > rows)
			rows = v[k].nc;
	}
	fputs("\n|--:|", f);
	for (k = 0; k < nv; k++)
		fputs(v[k].kind != TW_CLASSIC_SKIP ? "--:|--:|" : "--:|", f);
	fputc('\n', f);
	for (i = 0; i < rows; i++) {
		fprintf(f, "| %u |", i + 1);
		for (k = 0; k < nv; k++) {
			if (i >= v[k].nc) {
				fputs(v[k].kind != TW_CLASSIC_SKIP ?
				      " | |" : " |", f);
				continue;
			}
			if (v[k].kind != TW_CLASSIC_SKIP)
				fprintf(f, " %.3f |",
					secs(o->hz, v[k].c[i].jiffies));
			fprintf(f, " %llu |",
				(unsigned long long)v[k].c[i].iterations);
		}
		fputc('\n', f);
	}
	fputs("| total |", f);
	for (k = 0; k < nv; k++) {
		if (v[k].kind != TW_CLASSIC_SKIP)
			fprintf(f, " %u fired |", v[k].nfired);
		fprintf(f, " %llu |", (unsigned long long)v[k].iterations);
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

	header(f, "# ", o, start, period);
	fputs("wheel,catchup,jiffies,uptime_ns,iterations,fired\n", f);
	for (k = 0; k < nv; k++) {
		for (i = 0; i < v[k].nc; i++)
			fprintf(f, "%s,%u,%llu,%llu,%llu,%u\n", v[k].name, i + 1,
				(unsigned long long)v[k].c[i].jiffies,
				(unsigned long long)jiffy_edge(o->hz,
							v[k].c[i].jiffies),
				(unsigned long long)v[k].c[i].iterations,
				v[k].c[i].fired);
		fprintf(f, "%s,total,,,%llu,%u\n", v[k].name,
			(unsigned long long)v[k].iterations, v[k].nfired);
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
		"\"hz\": %u, \"wheel\": \"%s\"}},\n", MPSIM_VERSION,
		(unsigned long long)o->period, (unsigned long long)o->runtime,
		o->hz, which_names[o->which]);
	fprintf(f, " \"start_jiffies\": %llu, \"period_jiffies\": %llu,\n"
		" \"wheels\": [", (unsigned long long)start,
		(unsigned long long)period);
	for (k = 0; k < nv; k++) {
		fprintf(f, "%s\n  {\"wheel\": \"%s\", \"fired\": %u, "
			"\"iterations\": %llu, \"catchups\": [", k ? "," : "",
			v[k].name, v[k].nfired,
			(unsigned long long)v[k].iterations);
		for (i = 0; i < v[k].nc; i++)
			fprintf(f, "%s\n    {\"jiffies\": %llu, \"uptime_ns\": "
				"%llu, \"iterations\": %llu, \"fired\": %u}",
				i ? "," : "",
				(unsigned long long)v[k].c[i].jiffies,
				(unsigned long long)jiffy_edge(o->hz,
							v[k].c[i].jiffies),
				(unsigned long long)v[k].c[i].iterations,
				v[k].c[i].fired);
		fputs("]}", f);
	}
	fputs("]", f);
	if (o->which != WHICH_LEVELS)
		fprintf(f, ",\n \"same_firings\": %s", same ? "true" : "false");
	fputs("}\n", f);
}

int cmd_timers(int argc, char **argv)
{
	struct variant v[3];
	struct timers_opts o;
	uint64_t start, end, period;
	char err[ERR_MAX];
	unsigned k, nv = 0, cap;
	bool help, same = true;
	int rc = EXIT_OK;

	if (parse_opts(argc, argv, &o, &help, err)) {
		fprintf(stderr, "mpsim: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (help) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	start = initial_jiffies(o.hz);
	end = jiffies_at(o.hz, o.runtime);
	/* msecs_to_jiffies()'s rounding up, at ns resolution */
	period = o.period / NSEC_PER_SEC * o.hz +
		 (o.period % NSEC_PER_SEC * o.hz + NSEC_PER_SEC - 1) /
		 NSEC_PER_SEC;
	if ((end - start) / period > MAX_CATCHUPS) {
		fprintf(stderr, "mpsim: --period: too short for --runtime "
			"(at most %u expiries per run)\n", MAX_CATCHUPS);
		return EXIT_BAD_INPUT;
	}
	cap = (unsigned)((end - start) / period) + 2;

	if (o.which != WHICH_LEVELS) {
		v[nv++].kind = TW_CLASSIC;
		v[nv++].kind = TW_CLASSIC_SKIP;
	}
	if (o.which != WHICH_CLASSIC)
		v[nv++].kind = TW_LEVELS;
	for (k = 0; k < nv; k++) {
		v[k].name = kind_names[v[k].kind];
		v[k].period = period;
		v[k].cap = cap;
		v[k].nc = v[k].nfired = 0;
		v[k].iterations = 0;
		v[k].c = xcalloc(cap, sizeof(*v[k].c));
		v[k].fired_at = xcalloc(cap, sizeof(*v[k].fired_at));
		simulate(&v[k], o.hz, start, end);
	}
	if (o.which != WHICH_LEVELS && same_firings(&v[0], &v[1], err)) {
		fprintf(stderr, "mpsim: timers: classic and classic+skip "
			"differ: %s\n", err);
		same = false;
		rc = EXIT_FAILED;
	}

	if (o.format == FMT_CSV)
		out_csv(stdout, &o, start, period, v, nv, same);
	else if (o.format == FMT_JSON)
		out_json(stdout, &o, start, period, v, nv, same);
	else
		out_table(stdout, &o, start, period, v, nv, same);
	if (fflush(stdout)) {
		perror("mpsim: writing output");
		rc = EXIT_FAILED;
	}
	for (k = 0; k < nv; k++) {
		free(v[k].c);
		free(v[k].fired_at);
	}
	return rc;
}
