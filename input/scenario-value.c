/*
 * scenario-value.c: the value helpers the option setters share
 * (scenario-multipath.c, scenario-path.c, scenario-job.c): a string that
 * must fit its field, a name looked up in a list.
 */
#include <stdbool.h>
#include <string.h>

#include "scenario-int.h"

/* A string that must fit in a field of `size` bytes. */
int set_string(const char *v, char *field, size_t size, bool empty_ok,
	       char *err)
{
	size_t n = strlen(v);

	if (!n && !empty_ok)
		return input_error(err, "empty value");
	if (n >= size)
		return input_error(err, "'" SHOW "...' is longer than %zu "
				   "characters", v, size - 1);
	memcpy(field, v, n + 1);
	return 0;
}

/* Index of v in names[0..n), or -1. */
int lookup(const char *v, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(v, names[i]))
			return (int)i;
	return -1;
}
