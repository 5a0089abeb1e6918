/*
 * rng.h: random streams.  Every component draws from its own GSL
 * generator, seeded from --seed and the component's identity alone, so two
 * runs that differ only in the selector see the same service times on
 * each path and the same workload (common random numbers).
 */
#ifndef MPSIM_RNG_H
#define MPSIM_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

enum rng_role {
	RNG_SERVICE = 1,	/* a path's service times */
	RNG_WORKLOAD,		/* a job clone's direction and size draws */
	RNG_ARRIVAL,		/* a job clone's open-loop arrivals */
	RNG_LAYER,		/* a path layer (dm-delay poll slack) */
	RNG_STEAL,		/* a CPU's stolen time (steal=) */
};

/* A new generator for (seed, role, index); free with gsl_rng_free(). */
gsl_rng *rng_stream(uint64_t seed, enum rng_role role, unsigned index);

/* Mix a 64-bit value (splitmix64's finaliser): derives seeds for
 * replications and streams. */
uint64_t rng_mix(uint64_t x);

#endif
