/*
 * ini.c: splits fio-style ini text into section headers and options
 * (grammar in ini.h); it knows nothing about what the keys mean.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"
#include "text-file.h"
#include "util.h"

/* Classifies one line (already a private, writable copy) and calls fn. */
static int ini_line(char *buf, unsigned lineno, ini_handler fn, void *ctx,
		    char *err)
{
	struct ini_line l = { .lineno = lineno };
	char *s, *eq;
	size_t n;

	/* fio's strip_blank_end(): a comment runs from the first ';' or '#' */
	buf[strcspn(buf, ";#")] = '\0';
	s = str_trim(buf);
	if (!*s)
		return 0;

	if (*s == '[') {
		n = strlen(s);
		if (s[n - 1] != ']' && strchr(s, ']'))
			return input_error(err, "text after a section header");
		if (s[n - 1] != ']')
			return input_error(err, "a section header without "
					   "its ']'");
		s[n - 1] = '\0';
		l.section = str_trim(s + 1);
		if (!*l.section)
			return input_error(err, "empty section name '[]'");
		if (strpbrk(l.section, "[]"))
			return input_error(err, "stray bracket in a section "
					   "header");
		return fn(ctx, &l, err);
	}

	eq = strchr(s, '=');
	if (eq) {
		*eq = '\0';
		l.value = str_trim(eq + 1);
	}
	l.key = str_trim(s);
	if (!*l.key)
		return input_error(err, "option without a name before '='");
	return fn(ctx, &l, err);
}

int ini_parse(const char *text, ini_handler fn, void *ctx, unsigned *lineno,
	      char *err)
{
	const char *p = text;
	char *buf = NULL;
	size_t cap = 0;
	unsigned n = 0;
	int r = 0;

	while (next_line(&p, &buf, &cap)) {
		n++;
		r = ini_line(buf, n, fn, ctx, err);
		if (r)
			break;
	}
	free(buf);
	*lineno = n;
	return r;
}
