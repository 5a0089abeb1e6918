/*
 * sim.h: mpsim's core vocabulary (simulated time; error kinds and
 * allocation from lib/util.h)
 * and the design notes every module relies on.
 *
 * NOTES ON THE DESIGN
 *
 * 1. Simulated time is a sim_ns: an unsigned 64-bit count of nanoseconds
 *    since boot, the kernel's ktime_get_ns() view.  No floating point ever
 *    enters simulated time; distributions are drawn as doubles and rounded
 *    to whole nanoseconds once, where they are drawn.
 *
 * 2. Nothing reads a clock.  Every kernel operation that would call
 *    ktime_get_ns(), sched_clock() or read jiffies is handed `now` by its
 *    caller instead (sim/clock.h converts).
 *
 * 3. Ownership.  The simulator owns paths and I/Os.  A selector owns only
 *    what hangs off ps->context and path->ps_ctx; both are allocated and
 *    freed by the core from the sizes the selector type declares, so a
 *    selector cannot leak.
 *
 * 4. Errors come in three kinds, kept apart:
 *    - bad input (options, scenario, job and log files, selector
 *      arguments): the function returns -EINVAL and leaves a one-line
 *      message in a caller-supplied char[ERR_MAX]; main() prints it and
 *      exits with status 2 before anything is written to stdout;
 *    - out of memory: xmalloc() and friends print and abort;
 *    - programming errors: assert().
 *    "No usable path" is not an error: select_path returns NULL and the
 *    multipath device queues or fails the I/O as the kernel would.
 *
 * 5. Invariants, checked with assert() in debug builds (sim_check()):
 *    - the clock never runs backwards;
 *    - the sum of per-path in-flight counts equals the I/Os outstanding
 *      below the multipath device;
 *    - no I/O is started on a failed path;
 *    - every start_io is matched by exactly one end_io (the selector's
 *      end_io runs twice for a requeued bio killed for want of a path,
 *      as in the kernel: sim/mpath.c mpath_kill);
 *    - a dead path device holds nothing (it errored all it had; a path
 *      failed by a fail_path message keeps a working device);
 *    - I/Os wait in the multipath queue only while no path is usable,
 *      kmultipathd's work to map them again is queued, a priority
 *      group's pg_init holds them (QUEUE_IO), or a selector gave no path
 *      though paths were valid (6.1 queues the bio without the work);
 *    - a dm-delay list holds its counted entries, and something (the
 *      kthread's next poll, the target's timer or its work) will flush
 *      it; a pending timer has its softirq scheduled.
 *
 *    Path states (sim/mpath.c; scripted by sim/fault.c):
 *
 *        add_path ──► ACTIVE ──fail_path()──► FAILED
 *                        ▲                      │
 *                        └──reinstate_path()────┘
 *
 *    A fail errors every I/O in the path's device at once (end_io after
 *    fail_path), and each is requeued to be mapped again, or failed to
 *    its job when no path is left and queue_if_no_path is off.
 */
#ifndef MPSIM_SIM_H
#define MPSIM_SIM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

typedef uint64_t sim_ns;		/* simulated ns since boot (ktime) */

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

#define MPSIM_VERSION	"0.1.0"

/*
 * The limits of simulated time (README "Limits and bad input").  Every
 * time value of the input (durations of options and scenario files, path
 * latency, thinktime, startdelay, `fail = ... at`, the gaps of a replayed
 * log as scaled) is at most SIM_TIME_MAX, larger ones are bad input; so is
 * every drawn service time, or the run fails.  The loop stops a run that
 * would move its clock past SIM_CLOCK_MAX (sim/loop.c): it cannot finish.
 * The engine schedules at `now` plus at most a few bounded terms, so no
 * sum it forms can wrap: SIM_CLOCK_MAX + 100 * SIM_TIME_MAX < 2^64.
 */
#define SIM_TIME_MAX	(100000000ULL * NSEC_PER_SEC)	/* 1e8 s, ~3.2 years */
#define SIM_CLOCK_MAX	(1ULL << 62)		/* ~146 years of uptime */


#endif
