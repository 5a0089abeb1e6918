/*
 * bench.c: `mpsim bench`, the speed measurement: simulated I/Os per
 * second of wall time (and events per second) for every selector on the
 * default scenario and on a large one.  Speed is measured here, never by
 * a test with a time limit.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../selectors/cpumask.h"
#include "../selectors/selector.h"
#include "cli.h"
#include "run.h"

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * io-affinity needs one cpumask per path: path i serves CPU i of a
 * machine with a CPU per path (the built-in scenarios' jobs then submit
 * from CPU 0, clone by clone up); the other selectors take no per-path
 * words here.
 */
static void bench_path_args(struct scenario *sc, const struct ps_type *t)
{
	bool ioa = !strcmp(t->name, "io-affinity");
	unsigned i;

	sc->ncpus = ioa ? sc->nr_paths : 1;
	for (i = 0; i < sc->nr_paths; i++) {
		struct ps_cpumask m;

		memset(&m, 0, sizeof(m));
		ps_cpu_set(&m, i);
		sc->paths[i].path_args[0] = '\0';
		if (ioa)
			ps_cpumask_print(sc->paths[i].path_args,
					 sizeof(sc->paths[i].path_args), &m,
					 sc->ncpus);
	}
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
		mpsim_error("bench: %s", err);
		scenario_free(&sc);
		return EXIT_FAILED;
	}
	for (i = 0; i < ps_nr_types; i++) {
		struct run_result res;
		double t0, dt;

		snprintf(sc.selector, sizeof(sc.selector), "%s",
			 ps_types[i]->name);
		sc.selector_args[0] = '\0';
		bench_path_args(&sc, ps_types[i]);
		t0 = wall_seconds();
		if (run_scenario(&sc, 1, &res, err)) {
			mpsim_error("bench: %s", err);
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
		mpsim_error("bench: takes no options");
		return EXIT_BAD_INPUT;
	}
	printf("mpsim %s bench: one thread, wall time, ktime clock\n\n"
	       "| scenario | selector | paths | I/Os | seconds | M I/Os/s | "
	       "M events/s |\n|---|---|--:|--:|--:|--:|--:|\n", MPSIM_VERSION);
	for (i = 0; i < ARRAY_SIZE(scenarios) && rc == EXIT_OK; i++)
		rc = bench_scenario(scenarios[i].name, scenarios[i].runtime);
	return rc;
}
