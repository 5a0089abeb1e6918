/*
 * test_theory.c: the engine against queueing theory where theory has an
 * answer: M/M/1, M/D/1 and M/M/c response times with an open loop, and a
 * closed network (delay station + FCFS queue) against exact Mean Value
 * Analysis.  Each check runs R independent replications and asserts that
 * the theoretical value lies inside the 99.9 % Student-t confidence
 * interval of the replication means (GSL's t quantile): the bound is the
 * statistics of the run, not a tolerance picked to pass.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"

#define REPS	10

struct ci {
	double mean, half;
};

static struct ci ci_of(const double *x, unsigned n)
{
	struct ci c;
	double sd = gsl_stats_sd(x, 1, n);

	c.mean = gsl_stats_mean(x, 1, n);
	c.half = gsl_cdf_tdist_Pinv(1 - 0.001 / 2, n - 1) * sd / sqrt(n);
	return c;
}

static void load(struct scenario *sc, const char *text)
{
	char err[ERR_MAX];

	scenario_init(sc);
	cr_assert_eq(scenario_parse(sc, text, "theory", err), 0, "%s", err);
	/* make check-long: ten times the I/Os, so the intervals are ~3x
	 * tighter around the same theoretical values */
	if (getenv("MPSIM_LONG"))
		cr_assert_eq(scenario_set(sc, "number_ios", "2000000", err), 0,
			     "%s", err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

/* Per replication: mean latency, p50, p99 (us), busy fraction and IOPS. */
struct obs {
	double mean[REPS], p50[REPS], p99[REPS], busy[REPS], iops[REPS];
};

static void replicate(const struct scenario *sc, struct obs *o)
{
	char err[ERR_MAX];
	unsigned i;

	for (i = 0; i < REPS; i++) {
		struct run_result r;

		cr_assert_eq(run_scenario(sc, 1000 + i, &r, err), 0, "%s", err);
		cr_assert_gt(r.total.ios, 1000);
		o->mean[i] = lat_mean(&r.total.lat) / 1e3;
		o->p50[i] = lat_quantile(&r.total.lat, 0.5) / 1e3;
		o->p99[i] = lat_quantile(&r.total.lat, 0.99) / 1e3;
		o->busy[i] = (double)r.path[0].busy / (double)r.window;
		o->iops[i] = (double)r.total.ios * 1e9 / (double)r.window;
		run_result_free(&r);
	}
}

static void expect_in(const char *what, const double *x, double theory)
{
	struct ci c = ci_of(x, REPS);

	cr_expect(fabs(c.mean - theory) <= c.half,
		  "%s: theory %.3f outside %.3f +- %.3f", what, theory, c.mean,
		  c.half);
}

static const char open_fmt[] =
	"[multipath]\nselector = round-robin\n"
	"[path d]\nslots = %u\nservice = %s\n"
	"[job]\nrw = randread\nbs = 4k\niodepth = 100000\n"
	"rate_iops = %g\nrate_process = poisson\n"
	"number_ios = 200000\nramp_time = 0.2\n";

Test(theory, mm1_response_time)
{
	/* S = 100 us, lambda = 5000/s: rho = 0.5, W = S/(1-rho) = 200 us,
	 * the response time is exponential: p50 = W ln 2, p99 = W ln 100. */
	char text[512];
	struct scenario sc;
	struct obs o;

	snprintf(text, sizeof(text), open_fmt, 1u, "exp:100us", 5000.0);
	load(&sc, text);
	replicate(&sc, &o);
	expect_in("M/M/1 mean", o.mean, 200.0);
	expect_in("M/M/1 p50", o.p50, 200.0 * log(2));
	expect_in("M/M/1 p99", o.p99, 200.0 * log(100));
	expect_in("M/M/1 utilisation", o.busy, 0.5);
	scenario_free(&sc);
}

Test(theory, md1_response_time)
{
	/* Pollaczek-Khinchine with deterministic service: S = 100 us,
	 * rho = 0.7: W = S + rho S / (2 (1 - rho)) = 216.667 us. */
	char text[512];
	struct scenario sc;
	struct obs o;

	snprintf(text, sizeof(text), open_fmt, 1u, "fixed:100us", 7000.0);
	load(&sc, text);
	replicate(&sc, &o);
	expect_in("M/D/1 mean", o.mean, 100.0 + 0.7 * 100.0 / (2 * 0.3));
	expect_in("M/D/1 utilisation", o.busy, 0.7);
	scenario_free(&sc);
}

/* Erlang C: probability that an arrival waits in M/M/c at offered load a. */
static double erlang_c(unsigned c, double a)
{
	double term = 1, sum = 1, rho = a / c;
	unsigned k;

	for (k = 1; k < c; k++) {
		term *= a / k;
		sum += term;
	}
	term *= a / c;			/* a^c / c! */
	return term / (1 - rho) / (sum + term / (1 - rho));
}

Test(theory, mmc_response_time)
{
	/* c = 4 slots, S = 100 us, lambda = 30000/s: a = 3, rho = 0.75;
	 * W = C(c, a) S / (c (1 - rho)) + S. */
	char text[512];
	struct scenario sc;
	struct obs o;
	double w = erlang_c(4, 3.0) * 100.0 / (4 * 0.25) + 100.0;

	snprintf(text, sizeof(text), open_fmt, 4u, "exp:100us", 30000.0);
	load(&sc, text);
	replicate(&sc, &o);
	expect_in("M/M/4 mean", o.mean, w);
	scenario_free(&sc);
}

Test(theory, erlang_c_reference)
{
	/* The helper itself, against a textbook value: c = 2, a = 1
	 * (rho = 0.5) gives C = 1/3. */
	cr_assert_float_eq(erlang_c(2, 1.0), 1.0 / 3.0, 1e-12);
}

/*
 * Exact MVA for a closed network of an infinite-server delay of Z (the
 * path's fixed latency; BCMP allows any distribution there) and one FCFS
 * exponential station of mean S, with N customers (iodepth).
 */
static void mva(unsigned n_max, double z, double s, double *x, double *r)
{
	double q = 0;
	unsigned n;

	for (n = 1; n <= n_max; n++) {
		*r = s * (1 + q);
		*x = n / (z + *r);
		q = *x * *r;
	}
}

Test(theory, closed_network_mva)
{
	/* Z = 300 us, S = 100 us, N = 4: neither bottleneck nor idle. */
	static const char text[] =
		"[multipath]\nselector = queue-length\n"
		"[path d]\nslots = 1\nservice = exp:100us\nlatency = 300us\n"
		"[job]\nrw = randwrite\nbs = 4k\niodepth = 4\n"
		"number_ios = 200000\nramp_time = 0.1\n";
	struct scenario sc;
	struct obs o;
	double x, r;

	mva(4, 300.0, 100.0, &x, &r);
	load(&sc, text);
	replicate(&sc, &o);
	/* latency per I/O = Z + R(N); throughput X(N) per us -> per s */
	expect_in("MVA response", o.mean, 300.0 + r);
	expect_in("MVA throughput", o.iops, x * 1e6);
	expect_in("MVA utilisation", o.busy, x * 100.0);
	scenario_free(&sc);
}

Test(theory, mva_reference)
{
	/* N = 1: no queueing, X = 1/(Z+S). */
	double x, r;

	mva(1, 300.0, 100.0, &x, &r);
	cr_assert_float_eq(r, 100.0, 1e-12);
	cr_assert_float_eq(x, 1.0 / 400.0, 1e-15);
}
