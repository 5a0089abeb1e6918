/*
 * md-align.c: Markdown tables padded so that their columns line up
 * (md-align.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md-align.h"
#include "util.h"

/* Characters in s[0..n): UTF-8 continuation bytes do not count. */
static size_t width(const char *s, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* One line of a table: its cells, trimmed, as [start, end) in the text. */
struct row {
	const char *line;
	size_t len;
	unsigned nr;
	const char **cs;
	size_t *cn;
};

/* Split a line "| a | b |" into its cells; false when it is no row. */
static bool split(const char *line, size_t len, struct row *r)
{
	const char *p = line, *end = line + len, *c;

	memset(r, 0, sizeof(*r));
	r->line = line;
	r->len = len;
	if (len < 2 || *p != '|' || end[-1] != '|')
		return false;
	for (p++; p < end; p++) {
		for (c = p; p < end && *p != '|'; p++)
			;
		if (p == end)
			break;
		while (c < p && *c == ' ')
			c++;
		r->cs = xrealloc(r->cs, (r->nr + 1) * sizeof(*r->cs));
		r->cn = xrealloc(r->cn, (r->nr + 1) * sizeof(*r->cn));
		r->cs[r->nr] = c;
		r->cn[r->nr] = (size_t)(p - c);
		while (r->cn[r->nr] && c[r->cn[r->nr] - 1] == ' ')
			r->cn[r->nr]--;
		r->nr++;
	}
	return r->nr > 0;
}

/* The separator line: every cell of '-' with ':' at its ends. */
static bool separator(const struct row *r)
{
	unsigned i;
	size_t j;

	for (i = 0; i < r->nr; i++) {
		if (!r->cn[i])
			return false;
		for (j = 0; j < r->cn[i]; j++)
			if (r->cs[i][j] != '-' && r->cs[i][j] != ':')
				return false;
	}
	return r->nr > 0;
}

static void put(FILE *f, const char *s, size_t n, size_t w, bool right)
{
	size_t pad = w - width(s, n);

	if (right)
		fprintf(f, "%*s", (int)pad, "");
	fwrite(s, 1, n, f);
	if (!right)
		fprintf(f, "%*s", (int)pad, "");
}

/* Write the table rows[0..n) (rows[1] its separator), padded. */
static void table(FILE *f, const struct row *rows, size_t n)
{
	const struct row *sep = &rows[1];
	unsigned nc = sep->nr, i;
	size_t *w = xcalloc(nc, sizeof(*w)), k, j;

	for (k = 0; k < n; k++)
		for (i = 0; i < rows[k].nr && i < nc; i++)
			if (k != 1 && width(rows[k].cs[i], rows[k].cn[i]) > w[i])
				w[i] = width(rows[k].cs[i], rows[k].cn[i]);
	for (i = 0; i < nc; i++)
		if (w[i] < 3)
			w[i] = 3;
	for (k = 0; k < n; k++) {
		fputc('|', f);
		for (i = 0; i < rows[k].nr; i++) {
			/* "--:" right; "---", ":--" and ":-:" left */
			bool right = i < nc && sep->cs[i][sep->cn[i] - 1] == ':' &&
				     sep->cs[i][0] != ':';

			fputc(' ', f);
			if (i >= nc) {
				fwrite(rows[k].cs[i], 1, rows[k].cn[i], f);
			} else if (k == 1) {
				bool left = sep->cs[i][0] == ':';

				bool rc = sep->cs[i][sep->cn[i] - 1] == ':';

				for (j = 0; j < w[i]; j++)
					fputc((j == 0 && left) ||
					      (j + 1 == w[i] && rc) ? ':' : '-', f);
			} else {
				put(f, rows[k].cs[i], rows[k].cn[i], w[i], right);
			}
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	free(w);
}

char *md_align(const char *text, size_t len, size_t *out_len)
{
	const char *p = text, *end = text + len, *eol;
	struct row *rows = NULL;
	size_t n = 0, k;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, out_len);

	if (!f) {
		perror("mpsim");
		abort();
	}
	while (p < end) {
		struct row r;

		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if (split(p, (size_t)(eol - p), &r) &&
		    (n != 1 || separator(&r))) {
			rows = xrealloc(rows, (n + 1) * sizeof(*rows));
			rows[n++] = r;
		} else {
			free(r.cs);
			free(r.cn);
			/* a table ends; a lone "|" line was none */
			if (n >= 2)
				table(f, rows, n);
			else
				for (k = 0; k < n; k++)
					fprintf(f, "%.*s\n", (int)rows[k].len,
						rows[k].line);
			for (k = 0; k < n; k++) {
				free(rows[k].cs);
				free(rows[k].cn);
			}
			n = 0;
			if (split(p, (size_t)(eol - p), &r)) {
				rows = xrealloc(rows, sizeof(*rows));
				rows[n++] = r;
			} else {
				free(r.cs);
				free(r.cn);
				fwrite(p, 1, (size_t)(eol - p), f);
				if (eol < end)
					fputc('\n', f);
			}
		}
		p = eol < end ? eol + 1 : end;
	}
	if (n >= 2)
		table(f, rows, n);
	else
		for (k = 0; k < n; k++)
			fprintf(f, "%.*s\n", (int)rows[k].len, rows[k].line);
	for (k = 0; k < n; k++) {
		free(rows[k].cs);
		free(rows[k].cn);
	}
	free(rows);
	if (fclose(f)) {
		perror("mpsim");
		abort();
	}
	return buf;
}
