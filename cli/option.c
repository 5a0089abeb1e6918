/*
 * option.c: the words of a command line, as every command splits and
 * checks them (--key=value or --key value, one line each).
 */
#include <string.h>

#include "cli.h"

int cli_option(int argc, char **argv, int i, const char **key, size_t *klen,
	       const char **value, char *err)
{
	const char *a = argv[i], *eq;

	if (strncmp(a, "--", 2) || !a[2])
		return input_error(err, "unexpected argument '%s' (options are --key=value)", a);
	a += 2;
	eq = strchr(a, '=');
	*key = a;
	if (eq) {
		*klen = (size_t)(eq - a);
		*value = eq + 1;
		return 1;
	}
	*klen = strlen(a);
	if (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
		*value = argv[i + 1];
		return 2;
	}
	*value = NULL;			/* a flag: --time_based */
	return 1;
}

bool cli_key_is(const char *key, size_t klen, const char *name)
{
	return strlen(name) == klen && !strncmp(key, name, klen);
}

/* The options are echoed on the outputs' first line (CSV's "# mpsim ...")
 * and handed to workers and scripts line by line: a line break would
 * split them, so every command refuses it the same way. */
int cli_one_line(const char *key, size_t klen, const char *val, char *err)
{
	if (val && strpbrk(val, "\n\r"))
		return input_error(err, "--%.*s: a value may not hold a line "
				   "break", (int)klen, key);
	return 0;
}
