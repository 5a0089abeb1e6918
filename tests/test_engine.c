/*
 * test_engine.c: the event queue's order (time, then FIFO at equal
 * times), the latency histogram's buckets and quantiles, and run
 * determinism (same scenario and seed, identical result bytes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>

#include "sim/event.h"
#include "report/report.h"
#include "input/table.h"
#include "sim/run.h"
#include "sim/stats.h"

Test(event, pops_in_time_then_schedule_order)
{
	struct evq q;
	struct event e;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	sim_ns last_t = 0;
	uint64_t last_seq = 0;
	unsigned i, n = 0;

	evq_init(&q);
	/* many equal times, so the FIFO tie-break is exercised */
	for (i = 0; i < 5000; i++)
		evq_push(&q, gsl_rng_uniform_int(r, 50), EV_DEV_DONE,
			 (void *)(uintptr_t)i);
	while (evq_pop(&q, &e)) {
		cr_assert(e.time > last_t ||
			  (e.time == last_t && (n == 0 || e.seq > last_seq)),
			  "event %u out of order", n);
		/* obj recorded the push order, seq must agree */
		cr_assert_eq((uintptr_t)e.obj, e.seq);
		last_t = e.time;
		last_seq = e.seq;
		n++;
	}
	cr_assert_eq(n, 5000);
	cr_assert(evq_empty(&q));
	evq_free(&q);
	gsl_rng_free(r);
}

Test(event, pushes_during_pop_keep_order)
{
	struct evq q;
	struct event e;

	evq_init(&q);
	evq_push(&q, 10, EV_DEV_DONE, (void *)1);
	evq_push(&q, 10, EV_DEV_DONE, (void *)2);
	cr_assert(evq_pop(&q, &e));
	cr_assert_eq((uintptr_t)e.obj, 1);
	/* scheduled for the current instant while handling 1: after 2 */
	evq_push(&q, 10, EV_DEV_DONE, (void *)3);
	cr_assert(evq_pop(&q, &e));
	cr_assert_eq((uintptr_t)e.obj, 2);
	cr_assert(evq_pop(&q, &e));
	cr_assert_eq((uintptr_t)e.obj, 3);
	cr_assert_not(evq_pop(&q, &e));
	evq_free(&q);
}

Test(stats, bucket_bounds_cover_every_value)
{
	uint64_t v;
	unsigned b;

	/* exact below 128 */
	for (v = 0; v < 128; v++) {
		b = lat_bucket(v);
		cr_assert_eq(lat_bucket_lo(b), v);
		cr_assert_eq(lat_bucket_hi(b), v);
	}
	/* every value lies in its bucket, and a bucket is at most 1/64 of
	 * its lower bound wide */
	for (v = 128; v < (1ULL << 40); v = v * 3 / 2 + 7) {
		b = lat_bucket(v);
		cr_assert(lat_bucket_lo(b) <= v && v <= lat_bucket_hi(b),
			  "%llu not in bucket %u", (unsigned long long)v, b);
		cr_assert_leq(lat_bucket_hi(b) - lat_bucket_lo(b) + 1,
			      lat_bucket_lo(b) / 64);
		cr_assert_eq(lat_bucket(lat_bucket_hi(b) + 1), b + 1);
	}
	cr_assert_lt(lat_bucket(UINT64_MAX), LAT_BUCKETS);
}

Test(stats, quantiles_of_a_known_sample)
{
	static struct lat_hist h;
	uint64_t v;

	lat_reset(&h);
	for (v = 1; v <= 1000; v++)
		lat_add(&h, v * 1000);		/* 1 us .. 1 ms */
	cr_assert_eq(h.count, 1000);
	cr_assert_float_eq(lat_mean(&h), 500500.0, 1e-9);
	/* the 500th smallest is 500000 ns; within half a bucket (1/128) */
	cr_assert(fabs(lat_quantile(&h, 0.5) - 500000.0) <= 500000.0 / 128);
	cr_assert(fabs(lat_quantile(&h, 0.99) - 990000.0) <= 990000.0 / 128);
	/* the extremes, within half a bucket of them: not clamped to
	 * [min, max], as fio's are not (its p100 here is 1003520 ns) */
	cr_assert_eq(lat_quantile(&h, 1.0), 1003520.0);
	cr_assert(fabs(lat_quantile(&h, 0.0001) - 1000.0) <= 1000.0 / 128);
}

/* The sum of latencies passes 2^64 ns long before any one of them does
 * (a million I/Os in flight for five hours); the mean must not wrap. */
Test(stats, mean_of_samples_whose_sum_passes_2_64)
{
	static struct lat_hist h, m;

	lat_reset(&h);
	lat_reset(&m);
	lat_add(&h, 1ULL << 63);
	lat_add(&h, 1ULL << 63);
	lat_add(&h, (1ULL << 63) + 3);
	cr_assert_float_eq(lat_mean(&h), 9223372036854775809.0, 1.0);
	lat_merge(&m, &h);
	lat_merge(&m, &h);
	cr_assert_float_eq(lat_mean(&m), 9223372036854775809.0, 1.0);
}

static char *run_to_text(const struct scenario *sc, uint64_t seed)
{
	struct provenance pv = { "test", seed, "" };
	struct run_result r;
	char err[ERR_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert_eq(run_scenario(sc, seed, &r, err), 0, "%s", err);
	f = open_memstream(&buf, &len);
	report_run(f, FMT_JSON, &pv, sc, &r);
	fclose(f);
	run_result_free(&r);
	return buf;
}

Test(engine, same_seed_same_bytes_other_seed_other_bytes)
{
	char err[ERR_MAX], *a, *b, *c;
	struct scenario sc;

	scenario_init(&sc);
	cr_assert_eq(scenario_load_builtin(&sc, "hst-bio-mpath", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "runtime", "200ms", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "ramp_time", "10ms", err), 0, "%s", err);
	a = run_to_text(&sc, 7);
	b = run_to_text(&sc, 7);
	c = run_to_text(&sc, 8);
	cr_assert_str_eq(a, b);
	cr_assert_str_neq(a, c);
	free(a);
	free(b);
	free(c);
	scenario_free(&sc);
}

Test(engine, closed_loop_conserves_ios)
{
	/* number_ios per job clone: every I/O issued completes once. */
	static const char text[] =
		"[multipath]\nselector = service-time\n"
		"[path a]\nservice = exp:100us\n[path b]\nservice = exp:300us\n"
		"[job]\nrw = randrw\nbs = 8k\niodepth = 16\nnumjobs = 3\n"
		"number_ios = 5000\n";
	char err[ERR_MAX];
	struct scenario sc;
	struct run_result r;

	scenario_init(&sc);
	cr_assert_eq(scenario_parse(&sc, text, "t", err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 3, &r, err), 0, "%s", err);
	cr_assert_eq(r.total.ios, 15000);
	cr_assert_eq(r.path[0].ios + r.path[1].ios, 15000);
	cr_assert_eq(r.total.bytes, 15000ULL * 8192);
	/* the faster path carries more: service-time sends it 3x the bytes
	 * in flight before the slower one gets any */
	cr_assert_gt(r.path[0].ios, r.path[1].ios);
	run_result_free(&r);
	scenario_free(&sc);
}

/* A service time is checked before it becomes simulated time: one I/O of
 * 1 GiB at 1 byte/s takes 34 years, past the limit of a time value
 * (sim.h), and the run fails instead of moving the clock there. */
Test(engine, a_service_time_past_the_limit_fails_the_run)
{
	static const char text[] =
		"[multipath]\nselector = round-robin\n"
		"[path a]\nservice = fixed:1ns\nbandwidth = 1\n"
		"[job]\nbs = 1g\nnumber_ios = 1\n";
	char err[ERR_MAX] = "";
	struct scenario sc;
	struct run_result r;

	scenario_init(&sc);
	cr_assert_eq(scenario_parse(&sc, text, "t", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, &r, err), -ERANGE);
	cr_assert(strstr(err, "path a: a service time of 1.07e+09 s"), "%s",
		  err);
	scenario_free(&sc);
}
