/*
 * table.h: the multipath target's table, as `dmsetup table` prints it and
 * dm-mpath.c's multipath_ctr reads it (docs/kernel-model.md §2.1): features, hardware
 * handler, priority groups each with a selector, its arguments, paths and
 * per-path arguments.  A scenario gives it either as that line (`table =`,
 * read with the kernel's rules and errors) or in the short form of
 * [multipath] selector keys, grouped as multipathd would group the paths
 * (path_grouping_policy, prio).  Either way the multipath device
 * (sim/mpath.c, sim/pgroup.c) is built from a struct mp_table.
 */
#ifndef MPSIM_TABLE_H
#define MPSIM_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"
#include "sim/mp-table.h"	/* the table's types, which the engine runs on */

/*
 * Read a table line ("0 2097152 multipath 1 queue_if_no_path 0 1 1
 * service-time 0 2 2 8:48 1 1 8:64 1 1"; the leading "START LEN
 * multipath" may be left out) with multipath_ctr's rules and its error
 * strings.  With sc, each path device is bound to the [path] section
 * whose dev = MAJ:MIN it names (or, for a name, the section so called);
 * without it (sc NULL) devices are not looked up.  Returns 0, or -EINVAL
 * with err = "<the kernel's ti->error> (word N 'W')", N counted in the
 * whole line.
 */
int mp_table_parse(struct mp_table *t, const char *line,
		   const struct scenario *sc, char *err);

/*
 * The table of sc: its `table` line, or the short form grouped as
 * multipathd's path_grouping_policy says (failover: a group per path;
 * multibus: one group; group_by_prio: a group per prio value), groups in
 * descending priority as multipathd sorts them.
 */
int mp_table_from_scenario(struct mp_table *t, const struct scenario *sc,
			   char *err);


/* The selectors of sc's groups, distinct, in table order, joined by '+'
 * ("service-time+historical-service-time"); sc->selector without a
 * table. */
void table_selectors(const struct scenario *sc, char *buf, size_t size);
/* Whether a group of sc runs the selector called name (a kernel name). */
bool table_has_selector(const struct scenario *sc, const char *name);
/* Whether name is a hardware handler the kernel has (scsi_dh: alua, emc,
 * hp_sw, rdac); the table's and hardware_handler='s are refused else. */
bool mp_hw_handler_known(const char *name);

/*
 * Run sc on the device its table builds (mp_table_from_scenario, handed
 * to sim/run.h's run_device): with seed, fills res (run_result_free()
 * it).  Returns 0, or -EINVAL with err set when the scenario cannot be
 * built (unknown selector, a table or selector arguments the kernel
 * would reject), or -ERANGE with err set when the run cannot finish (its
 * clock or a drawn service time would pass a limit of sim.h); res is
 * then empty.
 */
struct run_result;
struct run_watch;
struct trace_conf;
int run_scenario(const struct scenario *sc, uint64_t seed,
		 struct run_result *res, char *err);
/* The same, writing the traces tc asks for (NULL: none) as it runs; also
 * returns -EIO with err set when a trace file cannot be written. */
int run_scenario_traced(const struct scenario *sc, uint64_t seed,
			const struct trace_conf *tc, struct run_result *res,
			char *err);
/* run_scenario() watched as w says (NULL: not at all). */
int run_scenario_watched(const struct scenario *sc, uint64_t seed,
			 const struct run_watch *w, struct run_result *res,
			 char *err);
/* The `dmsetup status` and `dmsetup table` lines of sc's device as
 * created, before any I/O (free() *out).  Returns 0 or -EINVAL. */
int run_dmsetup_created(const struct scenario *sc, char **out, char *err);

/* Warn (mpsim_warn) about multipathd and pg_init keys of sc that change
 * nothing in its run. */
void mp_table_warn(const struct scenario *sc);

#endif
