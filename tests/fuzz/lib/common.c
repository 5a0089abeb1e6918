/*
 * common.c: the helpers every fuzz target links (fuzz.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

void fuzz_run(struct scenario *sc)
{
	char err[ERR_MAX];
	struct run_result res;
	unsigned i, clones = 0;
	uint64_t depth = 0;

	mpsim_quiet = 1;
	if (scenario_validate(sc, err))
		goto out;
	for (i = 0; i < sc->nr_jobs; i++) {
		struct job_conf *j = &sc->jobs[i];

		clones += j->numjobs;
		depth += (uint64_t)j->numjobs * job_iodepth(j);
		if (!j->number_ios || j->number_ios > RUN_MAX_IOS)
			j->number_ios = RUN_MAX_IOS;
		if (j->ramp_time > RUN_MAX_RAMP)
			j->ramp_time = RUN_MAX_RAMP;
		if (!j->runtime || j->runtime > RUN_MAX_RUNTIME)
			j->runtime = RUN_MAX_RUNTIME;
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
