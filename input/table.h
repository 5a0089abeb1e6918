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

/* The kernel's DM_PG_INIT_DELAY_DEFAULT ("not given") and the delay it
 * then uses, DM_PG_INIT_DELAY_MSECS. */
#define PG_INIT_DELAY_DEFAULT	UINT32_MAX
#define PG_INIT_DELAY_MSECS	2000

struct mp_table_path {
	unsigned path;			/* index into the scenario's paths */
	char args[ARGS_MAX_LEN];	/* per-path selector words */
};

struct mp_table_pg {
	char selector[NAME_MAX_LEN];	/* kernel name, as given */
	char args[ARGS_MAX_LEN];	/* selector words, without the count */
	unsigned nr_paths;
	unsigned nr_path_args;		/* <#per-path selector args> */
	struct mp_table_path *paths;	/* table order */
};

struct mp_table {
	uint64_t start, len;		/* the dm table's sector range */
	bool queue_if_no_path;
	bool retain_attached_hw_handler;/* given, or bio mode (which sets it) */
	bool bio;			/* queue_mode bio; else request-based */
	unsigned pg_init_retries;	/* 0: not given */
	unsigned pg_init_delay_msecs;	/* PG_INIT_DELAY_DEFAULT: not given */
	char hw_handler[NAME_MAX_LEN];	/* "" none (bio mode ignores it) */
	unsigned nr_pgs;		/* <#priority groups> */
	unsigned next_pg_num;		/* <initial PG>; may exceed nr_pgs */
	struct mp_table_pg *pgs;
};

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

void mp_table_free(struct mp_table *t);

/* The selectors of sc's groups, distinct, in table order, joined by '+'
 * ("service-time+historical-service-time"); sc->selector without a
 * table. */
void table_selectors(const struct scenario *sc, char *buf, size_t size);
/* Whether a group of sc runs the selector called name (a kernel name). */
bool table_has_selector(const struct scenario *sc, const char *name);

/* Warn (mpsim_warn) about multipathd and pg_init keys of sc that change
 * nothing in its run. */
void mp_table_warn(const struct scenario *sc);

/* The device of path c as the kernel prints it: dev = MAJ:MIN, else the
 * sd driver's numbers for an sdX name (sda 8:0, sdq 65:0, ...), else
 * the name. */
void path_dev_name(const struct path_conf *c, char *buf, size_t size);

#endif
