/* rng.c: per-component GSL streams derived from the one --seed. */
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "rng.h"
#include "sim.h"

uint64_t rng_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

gsl_rng *rng_stream(uint64_t seed, enum rng_role role, unsigned index)
{
	/* MT19937: GSL's default, long period, and seeded from 32 bits, so
	 * the stream's seed mixes all three inputs before it is cut down. */
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t s;

	if (!r) {
		fputs("mpsim: out of memory (gsl_rng_alloc)\n", stderr);
		abort();
	}
	s = rng_mix(rng_mix(seed) ^ ((uint64_t)role << 32 | index));
	s &= 0xffffffffUL;
	/* mt19937 takes seed 0 to mean its default seed 4357 */
	gsl_rng_set(r, (unsigned long)(s ? s : 1));
	return r;
}
