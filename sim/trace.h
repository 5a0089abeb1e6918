/*
 * trace.h: the engine's trace hooks, for --trace (the decision trace,
 * lib/trace-log.c) and --blktrace (blktrace's binary files,
 * lib/blktrace.c).  Every hook is one test of s->tr, a pointer that stays
 * NULL in a run without tracing, so the branch predicts perfectly and the
 * per-I/O cost without a trace is that test alone.  A hook only reads:
 * the selector's state comes from its status(PS_STATUS_TRACE), never
 * from its private structs, and nothing a hook does changes a result.
 *
 * Hook points, in the order an I/O meets them (sim/engine.h's anatomy):
 *   trace_io_map      select_path answered, before start_io  (mpath.c);
 *                     the first mapping since the I/O was handed to dm
 *                     is also its submission
 *   trace_io_hold     dm-delay put it on its list            (delay.c)
 *   trace_io_arrive   the device's queue took it to wait     (path.c)
 *   trace_io_dispatch a device slot took it (and its arrival  (path.c)
 *                     too, when a free slot took it at once)
 *   trace_io_complete the device finished it (or errored it)  (loop.c,
 *                     mpath.c)
 *   trace_io_end      dm-mpath's end_io sample, and on success dm's
 *                     completion to the workload             (mpath.c)
 *   trace_io_requeue  an errored I/O goes back to be mapped  (mpath.c)
 *   trace_io_done     dm fails it to the workload            (mpath.c)
 * and trace_path_event for fail_path and reinstate_path (mpath.c).  An
 * I/O that meets no dm-delay and no error passes four of them (map,
 * dispatch, complete, end), and a fifth (arrive) if it waits for a slot.
 */
#ifndef MPSIM_TRACE_H
#define MPSIM_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

struct sim;
struct sim_io;
struct sim_path;
struct tracer;

/* What to trace (the --trace* and --blktrace options). */
struct trace_conf {
	const char *file;	/* --trace: decision trace; NULL: none */
	bool text;		/* --trace-format=text: one line per record */
	sim_ns from, until;	/* I/Os submitted in [from, until) after the
				   run began, and path events then */
	bool from_set;		/* --trace-from given; else from is where
				   the ramp ends: mpsim's measured window */
	uint64_t count;		/* at most this many I/Os; 0: no bound */
	const char *blktrace;	/* --blktrace: directory; NULL: none */
	uint64_t max_bytes;	/* --trace-max: no new I/O is followed once
				   --trace or --blktrace's files hold this
				   many bytes; 0: no bound */
};

/* --trace-max's default: 1 GiB, a few seconds of the default run. */
#define TRACE_MAX_DEFAULT	((uint64_t)1 << 30)

enum trace_path_kind { TRACE_FAIL, TRACE_REINSTATE };

/*
 * Open the outputs (under temporary names) for the world s, whose I/Os
 * are the nr_io of s->io_mem; sets s->tr.  Returns 0, or -EIO with err
 * set when a file cannot be created.
 */
int tracer_open(struct sim *s, const struct trace_conf *c, unsigned nr_io,
		char *err);
/* Finish the outputs: renamed to their names when ok, removed when not.
 * Returns 0, or -EIO with err set when writing failed (then removed). */
int tracer_close(struct sim *s, bool ok, char *err);

/* The option names (without dashes, NULL-terminated), and their parse
 * from a command line (cli/trace-opts.c): 0, or -EINVAL with err set. */
extern const char *const trace_option_names[];
int trace_conf_parse(int argc, char **argv, struct trace_conf *c, char *err);

/* The hooks' slow halves (sim/trace.c), cold: out of the hot path's way. */
#define TRACE_COLD __attribute__((cold))
TRACE_COLD void trace_io_map(struct tracer *t, const struct sim_io *io,
			     const struct sim_path *chosen);
TRACE_COLD void trace_io_hold(struct tracer *t, const struct sim_io *io,
		   const struct sim_path *p, uint64_t expires);
TRACE_COLD void trace_io_arrive(struct tracer *t, const struct sim_io *io);
TRACE_COLD void trace_io_dispatch(struct tracer *t, const struct sim_io *io);
TRACE_COLD void trace_io_complete(struct tracer *t, const struct sim_io *io,
		       int error);
TRACE_COLD void trace_io_end(struct tracer *t, const struct sim_io *io,
			     int error);
TRACE_COLD void trace_io_requeue(struct tracer *t, const struct sim_io *io,
		      const struct sim_path *from);
TRACE_COLD void trace_io_done(struct tracer *t, const struct sim_io *io, int error);
TRACE_COLD void trace_path_event(struct tracer *t, const struct sim_path *p,
		      enum trace_path_kind kind);

/* A hook at its call site: `trace_hook(s, trace_io_map(s->tr, ...));` */
#define trace_hook(s, call)						\
	do {								\
		if (__builtin_expect((s)->tr != NULL, 0))		\
			call;						\
	} while (0)

#endif
