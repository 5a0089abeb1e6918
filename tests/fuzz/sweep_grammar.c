/*
 * sweep_grammar.c (fuzz target): the values of a sweep option (lists,
 * A..B, A..B+S, A..B*F ranges with units), and --selector's items with
 * their own lists (hst:clock=jiffies,ktime).  The text before the first
 * newline is the option's name (an empty name: a numeric one; selector:
 * --selector's grammar), the rest its value.
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
	if (!strcmp(key, "selector")) {
		struct sweep_axis *ax;
		unsigned na, i;

		n = sweep_selector_values(value, &items, &ax, &na, err);
		if (n > 0) {
			sweep_values_free(items, (unsigned)n);
			for (i = 0; i < na; i++) {
				free(ax[i].key);
				free(ax[i].list);
			}
			free(ax);
		}
		free(text);
		return 0;
	}
	n = sweep_values(*key ? key : "iodepth", value,
			 !*key || sweep_key_numeric(key), &items, err);
	if (n > 0)
		sweep_values_free(items, (unsigned)n);
	free(text);
	return 0;
}
