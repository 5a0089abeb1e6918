/*
 * selector.h: the path-selector contract, in the shape and with the names
 * of the kernel's drivers/md/dm-path-selector.h, so that every operation
 * can be read next to the kernel function it mirrors.
 *
 * The one deliberate difference from the kernel: nothing here reads a
 * clock.  select_path, start_io and end_io are handed the simulated `now`
 * (ktime_get_ns() in ns since boot) by the multipath device.
 *
 * Ownership: the simulator owns the paths (struct ps_path).  A selector
 * type declares the size of its context (ctx_size) and of its per-path
 * state (path_size); ps_init() and ps_add_path() calloc both and
 * ps_exit() frees both, so a selector cannot leak.  A selector keeps its
 * own valid and failed lists inside that state, as the kernel's do.
 */
#ifndef MPSIM_SELECTOR_H
#define MPSIM_SELECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/clock.h"
#include "sim/sim.h"

/* The kernel's DM_PS_USE_HR_TIMER: bio-based dm-mpath (5.19+) stamps the
 * I/O with ktime_get_ns() right after selection instead of jiffies. */
#define PS_USE_HR_TIMER		0x1
/* A kernel source file run as a plugin (ksource.h): it reads ktime,
 * sched_clock and jiffies itself, so select_path is handed ktime's now
 * whatever select_clock= says. */
#define PS_READS_CLOCKS		0x2

/* Most words a selector or per-path argument string may hold. */
#define PS_MAX_ARGS		16

/* The framework's view of one path (the kernel's struct dm_path). */
struct ps_path {
	const char *name;	/* the path's name, e.g. "sdd" */
	unsigned index;		/* position in table order, from 0 */
	void *ps_ctx;		/* the selector's per-path state (pscontext) */
};

/*
 * One selector instance (the kernel's struct path_selector), and the
 * machine it runs on, which the caller sets before ps_init() (zero
 * fields mean one CPU, one NUMA node, HZ 250 and a sched_clock() equal to
 * ktime).
 */
struct path_selector {
	const struct ps_type *type;
	void *context;		/* the selector's state, ctx_size bytes */
	unsigned nr_cpu_ids;	/* simulated CPUs (scenario's ncpus=) */
	unsigned nr_node_ids;	/* NUMA nodes (numa_nodes=) */
	unsigned cpu;		/* the CPU submitting the I/O being mapped:
				   what get_cpu() returns in select_path */
	unsigned hz;		/* for a kernel file's jiffies */
	const struct sched_clock *sched; /* for a kernel file's sched_clock() */
};

enum ps_status_type {
	PS_STATUS_INFO,		/* STATUSTYPE_INFO: live counters */
	PS_STATUS_TABLE,	/* STATUSTYPE_TABLE: the arguments in force */
	PS_STATUS_TRACE,	/* mpsim's own: the state select_path and
				   end_io work from, as "key=value " words
				   (integers), for --trace; the kernel's
				   STATUSTYPE_IMA plays a like part */
};

/*
 * A selector type (the kernel's struct path_selector_type).  Every
 * function returns 0 or a negative errno; on -EINVAL it leaves a message
 * naming the selector and the argument in error[ERR_MAX], as the kernel's
 * `*error = "service-time ps: invalid repeat count"`.
 */
struct ps_type {
	const char *name;	/* kernel name: "historical-service-time" */
	const char *alias;	/* short name for the command line: "hst" */
	const char *kernel_file;/* the file it mirrors, for `list selectors` */
	unsigned features;	/* PS_USE_HR_TIMER or 0 */
	unsigned table_args;	/* per-path words in a table status */
	unsigned info_args;	/* per-path words in an info status */
	size_t ctx_size;	/* bytes of ps->context, zeroed by the core */
	size_t path_size;	/* bytes of path->ps_ctx, zeroed by the core */

	/* Parse the selector's table arguments into ps->context. */
	int (*create)(struct path_selector *ps, int argc, char **argv,
		      char *error);
	/* Release anything create() or add_path() allocated beyond the two
	 * zeroed blocks (may be NULL: those are freed by the core). */
	void (*destroy)(struct path_selector *ps);

	/* Parse the per-path arguments and append the path to the valid
	 * list (table order becomes list order). */
	int (*add_path)(struct path_selector *ps, struct ps_path *path,
			int argc, char **argv, char *error);
	/* Move the path off the valid list. */
	void (*fail_path)(struct path_selector *ps, struct ps_path *path);
	/* Put a failed path back where this selector's kernel code puts it. */
	int (*reinstate_path)(struct path_selector *ps, struct ps_path *path);

	/* Choose a path for an I/O of nr_bytes submitted on CPU ps->cpu at
	 * time now; NULL when no valid path is usable.  Called for every
	 * I/O (kernel >= 4.6). */
	struct ps_path *(*select_path)(struct path_selector *ps,
				       size_t nr_bytes, sim_ns now);

	/* Account an I/O that was mapped to path (may be NULL). */
	int (*start_io)(struct path_selector *ps, struct ps_path *path,
			size_t nr_bytes, sim_ns now);
	/* Account its completion; start_time is whatever the multipath
	 * device's mode stamps (see sim/mpath.c), in that clock's epoch.
	 * Called for failed I/O too, after fail_path.  May be NULL. */
	int (*end_io)(struct path_selector *ps, struct ps_path *path,
		      size_t nr_bytes, uint64_t start_time, sim_ns now);

	/* Print status words for path, or the selector's own words when
	 * path is NULL; returns the number of characters written.  The one
	 * way the simulator reads a selector's state (PS_STATUS_TRACE:
	 * every value the selector compares, named). */
	int (*status)(struct path_selector *ps, struct ps_path *path,
		      enum ps_status_type type, char *result, size_t maxlen);
};

/* ---- registry (selectors/selector.c) ---- */

/* Every registered selector type, in registration order. */
extern const struct ps_type *const ps_types[];
extern const unsigned ps_nr_types;

/* Look a type up by kernel name or alias; NULL if unknown. */
const struct ps_type *ps_find(const char *name);
/*
 * The selector a scenario names: the file of source when it is not
 * empty (ksource.h), else the built-in called selector.  NULL with err
 * set when there is none.
 */
const struct ps_type *ps_type_of(const char *selector, const char *source,
				 char *err);

/* ---- helpers shared by the selectors (what dm core gives the kernel's) ---- */

/*
 * One argument word as the kernel's sscanf(arg, "%u%c") accepts it:
 * decimal digits only (no sign, no base prefix), nothing after them.
 * Returns 0, or -EINVAL.  The kernel would silently wrap a number beyond
 * UINT_MAX; mpsim rejects it, since a wrapped value is never what was
 * meant.
 */
int ps_parse_uint(const char *word, unsigned *val);

/*
 * The per-path <repeat_count> word of round-robin, queue-length and
 * service-time, when argc > 0: parsed as the kernel does, then forced to 1
 * with the kernel's warning if larger, since select_path is called for
 * every I/O (docs/kernel-model.md §2.5; v4.11+, 4.9.y).  *rc keeps the caller's
 * default when argc is 0.  Returns 0, or -EINVAL naming the selector.
 */
int ps_repeat_count(const char *name, int argc, char **argv, unsigned *rc,
		    char *error);

/* snprintf()'s count clamped to what fit, as the kernel's DMEMIT and
 * scnprintf() stop at the buffer's end. */
int ps_emitted(int n, size_t maxlen);

/* ---- instance helpers: the only way the simulator touches ops ---- */

/*
 * Split a whitespace-separated argument string into at most PS_MAX_ARGS
 * words in buf (modified in place).  Returns the count, or -EINVAL.
 */
int ps_split_args(char *buf, char **argv, char *error);

/* calloc the context, split args, call create().  On error nothing is
 * left allocated. */
int ps_init(struct path_selector *ps, const struct ps_type *type,
	    const char *args, char *error);

/* calloc path->ps_ctx, split args, call add_path(). */
int ps_add_path(struct path_selector *ps, struct ps_path *path,
		const char *args, char *error);

/* destroy() and free the context and the ps_ctx of the n paths. */
void ps_exit(struct path_selector *ps, struct ps_path **paths, unsigned n);

#endif
