/*
 * bench-floor.c: the floor `mpsim bench` sets mpsim's speed against: the
 * least any simulator of this work does per I/O.  A closed loop keeps the
 * scenario's I/Os in flight (every job's iodepth x numjobs); per I/O it
 * pops the earliest completion from a binary heap, scans the scenario's
 * paths for the one with the fewest I/Os in flight, draws one exponential
 * service time for it with GSL (from the path's own MT19937 stream, as
 * mpsim's paths draw), and pushes the new completion.  No device queue,
 * no statistics, no kernel arithmetic, no tie-break sequence: what mpsim
 * costs beyond this is what it does beyond this.
 */
#include <gsl/gsl_randist.h>

#include "bench.h"
#include "sim/rng.h"

struct floor_ev {
	sim_ns time;		/* the completion's instant */
	unsigned path;		/* the path it completes on */
};

/* Pop heap[0] of the n-entry min-heap on time; the hole sifts down. */
static struct floor_ev floor_pop(struct floor_ev *heap, unsigned n)
{
	struct floor_ev top = heap[0], last = heap[n - 1];
	unsigned i = 0, c;

	n--;
	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && heap[c + 1].time < heap[c].time)
			c++;
		if (heap[c].time >= last.time)
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = last;
	return top;
}

/* Push e into the n-entry heap (room for n + 1). */
static void floor_push(struct floor_ev *heap, unsigned n, struct floor_ev e)
{
	unsigned i = n;

	while (i > 0 && e.time < heap[(i - 1) / 2].time) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = e;
}

uint64_t bench_floor(const struct scenario *sc, uint64_t nr_ios)
{
	unsigned np = sc->nr_paths, depth = 0, n = 0, i;
	struct floor_ev *heap;
	gsl_rng **rng = xcalloc(np, sizeof(*rng));
	unsigned *inflight = xcalloc(np, sizeof(*inflight));
	double *mean = xcalloc(np, sizeof(*mean));
	sim_ns now = 0;
	uint64_t done;

	for (i = 0; i < sc->nr_jobs; i++)
		depth += job_iodepth(&sc->jobs[i]) * sc->jobs[i].numjobs;
	heap = xcalloc(depth + 1, sizeof(*heap));
	for (i = 0; i < np; i++) {
		rng[i] = rng_stream(1, RNG_SERVICE, i);
		mean[i] = sc->paths[i].service.mean;
	}
	for (done = 0; done < nr_ios + depth; done++) {
		struct floor_ev e;
		unsigned best = 0;

		if (n == depth) {
			e = floor_pop(heap, n--);
			inflight[e.path]--;
			now = e.time;
		}
		for (i = 1; i < np; i++)
			if (inflight[i] < inflight[best])
				best = i;
		inflight[best]++;
		e.path = best;
		e.time = now + (sim_ns)(gsl_ran_exponential(rng[best],
							     mean[best]) + 0.5);
		floor_push(heap, n++, e);
	}
	for (i = 0; i < np; i++)
		gsl_rng_free(rng[i]);
	free(rng);
	free(inflight);
	free(mean);
	free(heap);
	return done - depth;
}
