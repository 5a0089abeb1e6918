/*
 * mp-table.h: the multipath target's table as the engine builds the
 * device from it (sim/mpath.c, sim/pgroup.c) and prints it back
 * (sim/dmsetup.c): features, hardware handler, priority groups each with
 * a selector, its arguments, paths and per-path arguments.  The readers
 * fill it (input/table.h: a `table =` line, or the short form grouped as
 * multipathd groups it).
 */
#ifndef MPSIM_MP_TABLE_H
#define MPSIM_MP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

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

/* Free what a table holds (safe to call twice). */
void mp_table_free(struct mp_table *t);

/* The device of path c as the kernel prints it: dev = MAJ:MIN, else the
 * sd driver's numbers for an sdX name (sda 8:0, sdq 65:0, ...), else
 * the name. */
void path_dev_name(const struct path_conf *c, char *buf, size_t size);

#endif
