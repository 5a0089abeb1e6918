/*
 * selector-name.c: a selector name that names no selector, said where it
 * was given with the closest name or alias of the registry.
 */
#include <stdio.h>

#include "selectors/selector.h"
#include "scenario.h"
#include "suggest.h"

int selector_unknown(const char *where, const char *key, const char *name,
		     char *err)
{
	const char *best = NULL;
	char at[ERR_MAX];
	unsigned d = ~0U, i;

	for (i = 0; i < ps_nr_types; i++) {
		suggest_try(name, ps_types[i]->name, &best, &d);
		suggest_try(name, ps_types[i]->alias, &best, &d);
	}
	if (where)
		snprintf(at, sizeof(at), "%.200s: %s", where, key);
	else
		snprintf(at, sizeof(at), "--%s", key);
	if (best)
		return input_error(err, "%s: unknown selector '%.40s' (did you "
				   "mean %s?)", at, name, best);
	return input_error(err, "%s: unknown selector '%.40s' (see: mpsim "
			   "list selectors)", at, name);
}
