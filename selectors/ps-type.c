/*
 * ps-type.c: the selector a scenario names, a built-in (selector.c's
 * registry) or a kernel source file (ksource.c).  It is part of the
 * selector contract (selector.h declares it) but a file of its own, so
 * that the registry never calls the plugin loader that uses it.
 */
#include "lib/util.h"
#include "ksource.h"
#include "selector.h"

const struct ps_type *ps_type_of(const char *selector, const char *source,
				 char *err)
{
	const struct ps_type *t;

	if (source && *source)
		return ps_source_load(source, err);
	t = ps_find(selector);
	if (!t)
		input_error(err, "unknown selector '%s' (see: mpsim list "
			    "selectors)", selector);
	return t;
}
