/*
 * common.c: the helpers every fuzz target links (fuzz.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "input/table.h"
#include "sim/run.h"
#include "fuzz.h"

/* What a fuzzed scenario may use and still run: more is refused here (not
 * by mpsim) so that one input costs milliseconds, not seconds. */
#define RUN_MAX_PATHS	16
#define RUN_MAX_CLONES	16
#define RUN_MAX_IOS	64	/* per job clone */
#define RUN_MAX_DEPTH	4096	/* I/Os in flight, all clones */
/* number_ios counts after the ramp, and time_based runs for runtime: a
 * fast closed loop or rate_iops fills both with I/Os */
#define RUN_MAX_RAMP	(10 * NSEC_PER_MSEC)
#define RUN_MAX_RUNTIME	(100 * NSEC_PER_MSEC)
/* ... so both are cut further to what about this many I/Os (or open-loop
 * arrivals) take at the scenario's fastest: 4096 I/Os in flight on paths
 * of 4 us were 560 million I/Os a second, and a 10 ms ramp took ten
 * seconds under the sanitizers */
#define RUN_MAX_TOTAL	200000.0

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s;

	if (memchr(data, '\0', size))
		return NULL;
	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * The simulated time in which sc completes about RUN_MAX_TOTAL I/Os at
 * most: every I/O in flight served at the mean of the fastest path, plus
 * every open-loop arrival.  A device never serves faster on average, and
 * latency, queues, slots and delays only slow it.  At least 1 ns.
 */
static sim_ns run_budget(const struct scenario *sc)
{
	double fastest = 1e18, depth = 0, per_ns = 0, t;
	unsigned i;

	for (i = 0; i < sc->nr_paths; i++)
		if (sc->paths[i].service.mean < fastest)
			fastest = sc->paths[i].service.mean;
	if (fastest < 1)
		fastest = 1;
	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *j = &sc->jobs[i];

		depth += (double)j->numjobs * job_iodepth(j);
		per_ns += (double)j->numjobs * j->rate_iops / 1e9;
	}
	per_ns += depth / fastest;
	t = per_ns > 0 ? RUN_MAX_TOTAL / per_ns : (double)RUN_MAX_RUNTIME;
	return t < 1 ? 1 : t > (double)RUN_MAX_RUNTIME ? RUN_MAX_RUNTIME :
						       (sim_ns)t;
}

void fuzz_run(struct scenario *sc)
{
	char err[ERR_MAX];
	struct run_result res;
	unsigned i, clones = 0;
	uint64_t depth = 0;
	sim_ns budget;

	mpsim_quiet = 1;
	if (scenario_validate(sc, err))
		goto out;
	budget = run_budget(sc);
	for (i = 0; i < sc->nr_jobs; i++) {
		struct job_conf *j = &sc->jobs[i];

		clones += j->numjobs;
		depth += (uint64_t)j->numjobs * job_iodepth(j);
		if (!j->number_ios || j->number_ios > RUN_MAX_IOS)
			j->number_ios = RUN_MAX_IOS;
		if (j->ramp_time > RUN_MAX_RAMP)
			j->ramp_time = RUN_MAX_RAMP;
		if (j->ramp_time > budget / 2)
			j->ramp_time = budget / 2;
		if (!j->runtime || j->runtime > RUN_MAX_RUNTIME)
			j->runtime = RUN_MAX_RUNTIME;
		if (j->runtime > budget)
			j->runtime = budget;
	}
	if (sc->nr_paths > RUN_MAX_PATHS || clones > RUN_MAX_CLONES ||
	    depth > RUN_MAX_DEPTH)
		goto out;
	if (!run_scenario(sc, 1, &res, err))
		run_result_free(&res);
out:
	scenario_free(sc);
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("mpsim-fuzz", 0);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size) {
		perror("fuzz_file");
		abort();
	}
	return path;
}
