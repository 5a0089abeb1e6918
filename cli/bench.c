/*
 * bench.c: `mpsim bench`, the speed measurement: simulated I/Os per
 * second (and events per second) for every selector on the default
 * scenario and on a large one, each beside the floor loop of its
 * scenario (cli/bench-floor.c) as a ratio.  Speed is measured here, never
 * by a test with a time limit.
 *
 * The rates are per second of the thread's CPU time, which is the wall
 * time on an idle machine; on a busy one the wall time also counts the
 * time other processes held the CPU, and only the CPU time still says
 * what mpsim costs.  Both are printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/cpumask.h"
#include "selectors/selector.h"
#include "bench.h"
#include "cli.h"
#include "input/table.h"
#include "sim/run.h"

/* The floor loop's completions per scenario: about 0.3 s of CPU. */
#define FLOOR_IOS	4000000
/* Each row is the fastest of this many runs (the same I/Os each time):
 * on a shared machine one run of a third of a second is often slowed by
 * 10 % and more, the fastest of three far less. */
#define BENCH_ROUNDS	3

static double clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A stopwatch on both clocks. */
struct lap {
	double cpu, wall;
};

static struct lap lap_start(void)
{
	struct lap l = { clock_seconds(CLOCK_THREAD_CPUTIME_ID),
			 clock_seconds(CLOCK_MONOTONIC) };

	return l;
}

static struct lap lap_end(struct lap l)
{
	l.cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - l.cpu;
	l.wall = clock_seconds(CLOCK_MONOTONIC) - l.wall;
	return l;
}

/* One row; floor_rate is the floor's M I/Os per CPU second. */
static double bench_row(const char *scn, const char *what, unsigned paths,
			uint64_t ios, uint64_t events, struct lap l,
			double floor_rate)
{
	double rate = (double)ios / l.cpu / 1e6;

	printf("| %s | %s | %u | %llu | %.3f | %.3f | %.2f | %.2f | %.2f |\n",
	       scn, what, paths, (unsigned long long)ios, l.cpu, l.wall, rate,
	       (double)events / l.cpu / 1e6,
	       floor_rate > 0 ? rate / floor_rate : 1.0);
	fflush(stdout);
	return rate;
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

/* The faster of two laps: the one other processes disturbed less. */
static struct lap lap_best(struct lap a, struct lap b)
{
	return a.cpu <= b.cpu ? a : b;
}

/* One selector's best lap and what its run did (the same every run). */
struct bench_sel {
	struct lap lap;
	uint64_t ios, events;
};

static int bench_scenario(const char *name, const char *runtime)
{
	char err[ERR_MAX];
	struct scenario sc;
	struct lap floor_lap = { 1e300, 0 }, l;
	struct bench_sel *sel = xcalloc(ps_nr_types, sizeof(*sel));
	double floor_rate;
	unsigned i, r;
	int rc = EXIT_OK;

	scenario_init(&sc);
	if (scenario_load_builtin(&sc, name, err) ||
	    scenario_set(&sc, "clock", "ktime", err) ||
	    scenario_set(&sc, "runtime", runtime, err)) {
		mpsim_error("bench: %s", err);
		rc = EXIT_FAILED;
		goto out;
	}
	for (i = 0; i < ps_nr_types; i++)
		sel[i].lap = floor_lap;
	/* rounds of the floor and every selector in turn, so that a slow
	 * spell of the machine falls on one round, not on one row */
	for (r = 0; r < BENCH_ROUNDS; r++) {
		/* the floor loop makes one push and one pop per I/O */
		l = lap_start();
		bench_floor(&sc, FLOOR_IOS);
		floor_lap = lap_best(floor_lap, lap_end(l));
		for (i = 0; i < ps_nr_types; i++) {
			struct run_result res;

			snprintf(sc.selector, sizeof(sc.selector), "%s",
				 ps_types[i]->name);
			sc.selector_args[0] = '\0';
			bench_path_args(&sc, ps_types[i]);
			l = lap_start();
			if (run_scenario(&sc, 1, &res, err)) {
				mpsim_error("bench: %s", err);
				rc = EXIT_FAILED;
				goto out;
			}
			sel[i].lap = lap_best(sel[i].lap, lap_end(l));
			sel[i].ios = res.ios_simulated;
			sel[i].events = res.events;
			run_result_free(&res);
		}
	}
	floor_rate = bench_row(name, "floor", sc.nr_paths, FLOOR_IOS,
			       FLOOR_IOS, floor_lap, 0);
	for (i = 0; i < ps_nr_types; i++)
		bench_row(name, ps_types[i]->name, sc.nr_paths, sel[i].ios,
			  sel[i].events, sel[i].lap, floor_rate);
out:
	scenario_free(&sc);
	free(sel);
	return rc;
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
	double load[1] = { -1 };
	unsigned i;
	int rc = EXIT_OK;

	if (argc > 1) {
		mpsim_error("bench: takes no options");
		return EXIT_BAD_INPUT;
	}
	getloadavg(load, 1);
	printf("mpsim %s bench: one thread, ktime clock, load average %.2f;\n"
	       "rates per second of CPU time, each the fastest of %d runs; "
	       "x floor: M I/Os/s\nover the floor loop's\n\n"
	       "| scenario | selector | paths | I/Os | cpu s | wall s | "
	       "M I/Os/s | M events/s | x floor |\n"
	       "|---|---|--:|--:|--:|--:|--:|--:|--:|\n", MPSIM_VERSION,
	       load[0], BENCH_ROUNDS);
	for (i = 0; i < ARRAY_SIZE(scenarios) && rc == EXIT_OK; i++)
		rc = bench_scenario(scenarios[i].name, scenarios[i].runtime);
	return rc;
}
