/*
 * table-run.c: a scenario run as the readers leave it.  The engine runs a
 * device built from a multipath table (sim/run.h); reading that table, a
 * `table =` line or the short form's grouping, is the readers' job
 * (table.c), so the table is built here and handed down, and freed once
 * the run is over.
 */
#include <string.h>

#include "sim/run.h"
#include "table.h"

int run_scenario_watched(const struct scenario *sc, uint64_t seed,
			 const struct run_watch *w, struct run_result *res,
			 char *err)
{
	struct mp_table t;
	int r;

	r = mp_table_from_scenario(&t, sc, err);
	if (r) {
		memset(res, 0, sizeof(*res));	/* empty, as run_device's */
		return r;
	}
	r = run_device(sc, &t, seed, w, res, err);
	mp_table_free(&t);
	return r;
}

int run_scenario(const struct scenario *sc, uint64_t seed,
		 struct run_result *res, char *err)
{
	return run_scenario_watched(sc, seed, NULL, res, err);
}

int run_scenario_traced(const struct scenario *sc, uint64_t seed,
			const struct trace_conf *tc, struct run_result *res,
			char *err)
{
	struct run_watch w = { .trace = tc };

	return run_scenario_watched(sc, seed, &w, res, err);
}

int run_dmsetup_created(const struct scenario *sc, char **out, char *err)
{
	struct mp_table t;
	int r;

	r = mp_table_from_scenario(&t, sc, err);
	if (r)
		return r;
	r = run_device_created(sc, &t, out, err);
	mp_table_free(&t);
	return r;
}
