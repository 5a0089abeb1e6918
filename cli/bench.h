/*
 * bench.h: what `mpsim bench` (cli/bench.c) shares with its floor loop
 * (cli/bench-floor.c).
 */
#ifndef MPSIM_BENCH_H
#define MPSIM_BENCH_H

#include <stdint.h>
#include <stdlib.h>

#include "input/scenario.h"

/*
 * The floor loop over sc's paths and I/Os in flight (each path's mean
 * service time, drawn as an exponential): nr_ios completions.  Returns
 * the number of completions, which the caller times.
 */
uint64_t bench_floor(const struct scenario *sc, uint64_t nr_ios);

#endif
