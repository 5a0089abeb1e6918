/*
 * bench.c: `mpsim bench`, the speed measurement: simulated I/Os per
 * second of wall time (and events per second) for every selector on the
 * default scenario and on a large one.  Speed is measured here, never by
 * a test with a time limit.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../selectors/selector.h"
#include "cli.h"
#include "run.h"

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_scenario(const char *name, const char *runtime)
{
	char err[ERR_MAX];
	struct scenario sc;
	unsigned i;

	scenario_init(&sc);
	if (scenario_load_builtin(&sc, name, err) ||
	    scenario_set(&sc, "clock", "ktime", err) ||
	    scenario_set(&sc, "runtime", runtime, err)) {
		fprintf(stderr, "mpsim: bench: %s\n", err);
		scenario_free(&sc);
		return EXIT_FAILED;
	}
	for (i = 0; i < ps_nr_types; i++) {
		struct run_result res;
		double t0, dt;

		snprintf(sc.selector, sizeof(sc.selector), "%s",
			 ps_types[i]->name);
		sc.selector_args[0] = '\0';
		t0 = wall_seconds();
		if (run_scenario(&sc, 1, &res, err)) {
			fprintf(stderr, "mpsim: bench: %s\n", err);
			scenario_free(&sc);
			return EXIT_FAILED;
		}
		dt = wall_seconds() - t0;
		printf("| %s | %s | %u | %llu | %.3f | %.2f | %.2f |\n", name,
		       ps_types[i]->name, sc.nr_paths,
		       (unsigned long long)res.ios_simulated, dt,
		       (double)res.ios_simulated / dt / 1e6,
		       (double)res.events / dt / 1e6);
		fflush(stdout);
		run_result_free(&res);
	}
	scenario_free(&sc);
	return EXIT_OK;
}

int cmd_bench(int argc, char **argv)
{
	/* long enough (about 3 M I/Os each) that timer noise is below 1 % */
	static const struct {
		const char *name, *runtime;
	} scenarios[] = {
		{ "hst-bio-mpath", "50s" },
		{ "bench-large", "10s" },
	};
	unsigned i;
	int rc = EXIT_OK;

	if (argc > 1) {
		fprintf(stderr, "mpsim: bench: takes no options\n");
		return EXIT_BAD_INPUT;
	}
	printf("mpsim %s bench: one thread, wall time, ktime clock\n\n"
	       "| scenario | selector | paths | I/Os | seconds | M I/Os/s | "
	       "M events/s |\n|---|---|--:|--:|--:|--:|--:|\n", MPSIM_VERSION);
	for (i = 0; i < ARRAY_SIZE(scenarios) && rc == EXIT_OK; i++)
		rc = bench_scenario(scenarios[i].name, scenarios[i].runtime);
	return rc;
}
