/*
 * sweep_grammar.c (fuzz target): the values of a sweep option (lists,
 * A..B, A..B+S, A..B*F ranges with units).  The text before the first
 * newline is the option's name (an empty name: a numeric one), the rest
 * its value.
 */
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "tests/fuzz/lib/fuzz.h"

FUZZ_TARGET(sweep_grammar)
{
	char err[ERR_MAX], **items, *text = fuzz_text(data, size), *value;
	const char *key;
	int n;

	if (!text)
		return 0;
	value = strchr(text, '\n');
	if (value) {
		*value++ = '\0';
		key = text;
	} else {
		value = text;
		key = "";
	}
	n = sweep_values(*key ? key : "iodepth", value,
			 !*key || sweep_key_numeric(key), &items, err);
	if (n > 0)
		sweep_values_free(items, (unsigned)n);
	free(text);
	return 0;
}
