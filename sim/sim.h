/*
 * sim.h: mpsim's core vocabulary (simulated time, error kinds, allocation)
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
 *    - a failed path's device holds nothing (it errored all it had);
 *    - I/Os wait in the multipath queue only while no path is usable,
 *      kmultipathd's work to map them again is queued, or a priority
 *      group's pg_init holds them (QUEUE_IO);
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

/* Room for one bad-input message, including its file:line prefix. */
#define ERR_MAX		256

/*
 * Formats a bad-input message into err (ERR_MAX bytes) and returns -EINVAL,
 * so a parser can say `return input_error(err, "bs: %s", why);`.
 */
int input_error(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A message on stderr as one line, "mpsim: " and the formatted text: a
 * control character in it (user text echoed back: a value, a file name,
 * the head of a result file) is written escaped, \n, \t, \r or \xHH, so
 * a message never spans two lines.  Every message goes through here.
 */
void mpsim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Escapes err's control characters (ERR_MAX bytes, in place) as
 * mpsim_error does, for a message kept before it is printed: it stays one
 * line and reads the same. */
void one_line(char *err);

/*
 * A warning on stderr ("mpsim: warning: ...", escaped as mpsim_error),
 * for input that is accepted but changed or ignored, as the kernel's
 * DMWARN.  Silenced when mpsim_quiet is set (sweeps, tests).
 */
void mpsim_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int mpsim_quiet;

/*
 * Bad input is one line on stderr, so the warnings about options read
 * before a later one is refused must not show: main() holds them back
 * from the start, and they are shown (show) once the command has accepted
 * its input, or dropped (!show) when it refuses it.
 */
void mpsim_warn_hold(void);
void mpsim_warn_release(bool show);
/* While held, each distinct warning is shown once.  Warnings met from here
 * on belong to round k (of total, called unit: "sweep points"); a line
 * met in more than one round is shown once, "(at N of TOTAL UNIT)", a
 * line met in one round whose label is not NULL "(LABEL)". */
void mpsim_warn_round(unsigned long long k, unsigned long long total,
		      const char *unit, const char *label);

/* Trims white space from both ends of s in place; returns the new start. */
char *str_trim(char *s);

/* Whether key is one of the n strings of list. */
int str_in_list(const char *key, const char *const *list, size_t n);

/*
 * Reads the file at path whole into *text (allocated, NUL after the
 * end; *len bytes): it must be a regular file of at most max bytes
 * (what names the kind in messages: "scenario file").  Anything else is
 * bad input, -EINVAL with err = "PATH: why": missing or unreadable, a
 * directory, a FIFO, device or socket (opened without blocking, never
 * read), larger than max, or holding NUL bytes (a text file has none).
 */
/* The next line of the text at *p, without its newline, copied into
 * *buf (grown as needed; *cap its size) and ended by a NUL; *p moves past
 * the line and its newline.  NULL at the end of the text. */
char *next_line(const char **p, char **buf, size_t *cap);

int read_text_file(const char *path, size_t max, const char *what,
		   char **text, size_t *len, char *err);

/* Allocation that cannot fail: out of memory prints and aborts. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
