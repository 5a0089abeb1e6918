/*
 * progress.h: fio's status line for one long run: on stderr, rewritten in
 * place every eta interval (--eta-interval, half a second by default)
 * once the run has taken two of them, and only when the caller says
 * stderr is a terminal.  It reads the wall clock,
 * never the simulated one's results: a run with it is the run without.
 */
#ifndef MPSIM_PROGRESS_H
#define MPSIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "sim.h"

struct sim;

struct run_progress {
	struct timespec t0;		/* wall clock at the start */
	double shown_at;		/* wall seconds of the last line */
	bool shown;			/* a line is on the terminal */
	sim_ns next;			/* simulated time of the next look */
	sim_ns last_at;			/* simulated time of the last line */
	uint64_t last_ios;		/* completions at the last line */
	/* part `part` of `parts` of a command (struct run_watch), named
	 * label; t0 is then the command's start.  parts 0: one run */
	unsigned part, parts;
	const char *label;
	double every;			/* wall seconds between two lines,
					   0: PROGRESS_EVERY_S */
};

/* Simulated time between two looks at the wall clock. */
#define PROGRESS_STEP	NSEC_PER_MSEC

/* fio's --eta-interval when none is given: the line shows after a second
 * of wall time, and a run shorter than that never flashes one. */
#define PROGRESS_EVERY_S	0.5

/* Set part, parts, label and t0 first for a part of a command; every
 * for another interval. */
void progress_start(struct sim *s, struct run_progress *pg);
/* A look at the wall clock before an event due at t; prints when due. */
void progress_tick(struct sim *s, sim_ns t);
/* The run is over: erase the line. */
void progress_end(struct sim *s);

#endif
