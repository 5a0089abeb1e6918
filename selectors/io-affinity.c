/*
 * io-affinity.c: the "io-affinity" path selector, mirroring
 * drivers/md/dm-ps-io-affinity.c (5.11+, docs/kernel-model.md §5.3).
 *
 * Each path serves the CPUs of the cpumask given as its one per-path
 * argument; an I/O goes down the path mapped to the CPU that submits it
 * (ps->cpu, the kernel's get_cpu()).  There are no lists, no load and no
 * clock: fail and reinstate only flip a flag, and a CPU whose path is
 * failed or that no path claimed falls back to the first usable path of
 * its NUMA node, then to the first usable path of any mapped CPU, each
 * scan in ascending CPU order.
 *
 * The kernel build mirrored has CONFIG_CPUMASK_OFFSTACK (cpumask.h): a
 * mask naming a CPU at or beyond nr_cpu_ids is refused by cpumask_parse,
 * so add_path's "Ignoring mapping for CPU %u. Max CPU is %u" (a build
 * without it, whose masks hold NR_CPUS bits, docs/kernel-model.md §5.3) never
 * happens here.
 */
#include <stdio.h>

#include "sim/sim.h"
#include "lib/cpumask.h"
#include "selector.h"

struct ioa_path;

/* The selector's state (ps->context, zeroed by the core). */
struct ioa_selector {
	struct ioa_path *path_map[PS_MAX_CPUS];	/* CPU -> the path that
						   claimed it first */
	struct ps_cpumask path_mask;	/* CPUs some path claimed */
	uint32_t map_misses;		/* atomic_t: selects on an unclaimed
					   CPU; wraps as an int would */
};

/* Per-path state (path->ps_ctx, zeroed by the core). */
struct ioa_path {
	struct ps_path *path;
	struct ps_cpumask cpumask;	/* the mask as given, claimed or not */
	bool failed;
};

/* The kernel's ioa_create takes no arguments and looks at none. */
static int ioa_create(struct path_selector *ps, int argc, char **argv,
		      char *error)
{
	if (argc)
		mpsim_warn("io-affinity ps: ignoring %d selector argument(s)",
			   argc);
	return 0;
}

/*
 * Arguments: <cpumask>, exactly one, in cpumask_parse's hex.  Each CPU of
 * the mask, ascending, is claimed unless an earlier path holds it (the
 * first claim stands, with a warning); a path that claims nothing fails
 * the table load (§5.3).
 */
static int ioa_add_path(struct path_selector *ps, struct ps_path *path,
			int argc, char **argv, char *error)
{
	struct ioa_selector *s = ps->context;
	struct ioa_path *pi = path->ps_ctx;
	unsigned cpu, claimed = 0;

	if (argc != 1)
		return input_error(error,
				   "io-affinity ps: invalid number of arguments");
	if (ps_cpumask_parse(argv[0], &pi->cpumask, ps->nr_cpu_ids))
		return input_error(error,
				   "io-affinity ps: invalid cpumask '%.40s' "
				   "(hex, CPUs below ncpus=%u)",
				   argv[0], ps->nr_cpu_ids);

	pi->path = path;
	for (cpu = ps_cpu_next(&pi->cpumask, 0, ps->nr_cpu_ids);
	     cpu < ps->nr_cpu_ids;
	     cpu = ps_cpu_next(&pi->cpumask, cpu + 1, ps->nr_cpu_ids)) {
		if (s->path_map[cpu]) {
			mpsim_warn("io-affinity ps: CPU mapping for %u exists. "
				   "Ignoring.", cpu);
			continue;
		}
		ps_cpu_set(&s->path_mask, cpu);
		s->path_map[cpu] = pi;
		claimed++;
	}
	/* nothing was mapped, so there is nothing to undo */
	if (!claimed)
		return input_error(error,
				   "io-affinity ps: No new/valid CPU mapping found");
	return 0;
}

static void ioa_fail_path(struct path_selector *ps, struct ps_path *path)
{
	struct ioa_path *pi = path->ps_ctx;

	pi->failed = true;
}

static int ioa_reinstate_path(struct path_selector *ps, struct ps_path *path)
{
	struct ioa_path *pi = path->ps_ctx;

	pi->failed = false;
	return 0;
}

/* The first usable path of the CPUs of mask, ascending; NULL if none. */
static struct ioa_path *ioa_first_usable(const struct ioa_selector *s,
					 unsigned from, unsigned to)
{
	unsigned cpu;

	for (cpu = ps_cpu_next(&s->path_mask, from, to); cpu < to;
	     cpu = ps_cpu_next(&s->path_mask, cpu + 1, to)) {
		struct ioa_path *pi = s->path_map[cpu];

		if (pi && !pi->failed)
			return pi;
	}
	return NULL;
}

/*
 * §5.3: the submitting CPU's own path if usable; else (counting a miss
 * only when the CPU has no path at all, not when its path is failed) the
 * first usable path among the CPUs of its node, then among all mapped
 * CPUs.  The node's CPUs are one ascending block (cpumask.h), so its scan
 * is the mapped CPUs of that block; an unmapped CPU has no path and is
 * passed over either way.
 */
static struct ps_path *ioa_select_path(struct path_selector *ps,
				       size_t nr_bytes, sim_ns now)
{
	struct ioa_selector *s = ps->context;
	unsigned cpu = ps->cpu, node, first, last;
	struct ioa_path *pi = s->path_map[cpu];

	if (pi && !pi->failed)
		return pi->path;
	if (!pi)
		s->map_misses++;

	/* the node's block: the CPUs whose cpu_to_node() is node */
	node = ps_cpu_to_node(cpu, ps->nr_cpu_ids, ps->nr_node_ids);
	for (first = cpu; first &&
	     ps_cpu_to_node(first - 1, ps->nr_cpu_ids, ps->nr_node_ids) == node;
	     first--)
		;
	for (last = cpu + 1; last < ps->nr_cpu_ids &&
	     ps_cpu_to_node(last, ps->nr_cpu_ids, ps->nr_node_ids) == node;
	     last++)
		;
	pi = ioa_first_usable(s, first, last);
	if (!pi)
		pi = ioa_first_usable(s, 0, ps->nr_cpu_ids);
	return pi ? pi->path : NULL;
}

/*
 * Status words, each followed by a space: "0 " for the selector; per path
 * the selector-wide map_misses in info ("%d" of the atomic_t) and the
 * path's mask as "%*pb" prints it in a table.  The trace words (mpsim's
 * own) name the submitting CPU, the misses, and the path serving it.
 */
static int ioa_status(struct path_selector *ps, struct ps_path *path,
		      enum ps_status_type type, char *result, size_t maxlen)
{
	struct ioa_selector *s = ps->context;
	struct ioa_path *pi = NULL;
	int n;

	if (type == PS_STATUS_TRACE) {
		/* what select_path reads: the submitter's CPU and whether a
		 * path claimed it; per path, whether it is that one */
		pi = path ? path->ps_ctx : NULL;
		if (pi)
			n = snprintf(result, maxlen, "serves_cpu=%d ",
				     ps->cpu < PS_MAX_CPUS &&
				     s->path_map[ps->cpu] == pi);
		else
			n = snprintf(result, maxlen, "cpu=%u map_misses=%d ",
				     ps->cpu, (int)s->map_misses);
	} else if (!path) {
		n = snprintf(result, maxlen, "0 ");
	} else if (type == PS_STATUS_INFO) {
		n = snprintf(result, maxlen, "%d ", (int)s->map_misses);
	} else {
		char mask[PS_MAX_CPUS / 4 + PS_MAX_CPUS / 32 + 1];

		pi = path->ps_ctx;
		ps_cpumask_print(mask, sizeof(mask), &pi->cpumask,
				 ps->nr_cpu_ids);
		n = snprintf(result, maxlen, "%s ", mask);
	}
	return ps_emitted(n, maxlen);
}

const struct ps_type ps_io_affinity = {
	.name		= "io-affinity",
	.alias		= "ioa",
	.kernel_file	= "drivers/md/dm-ps-io-affinity.c",
	.features	= 0,
	.table_args	= 1,
	.info_args	= 1,
	.ctx_size	= sizeof(struct ioa_selector),
	.path_size	= sizeof(struct ioa_path),
	.create		= ioa_create,
	.destroy	= NULL,
	.add_path	= ioa_add_path,
	.fail_path	= ioa_fail_path,
	.reinstate_path	= ioa_reinstate_path,
	.select_path	= ioa_select_path,
	.start_io	= NULL,
	.end_io		= NULL,
	.status		= ioa_status,
};
