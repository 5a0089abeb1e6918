/*
 * suggest.c: the closest word to a typo.  The distance is the optimal
 * string alignment distance (Levenshtein's insertions, deletions and
 * substitutions, plus a swap of two neighbours, each costing 1), as git's
 * "did you mean" uses; a word is offered only when at most a third of a
 * long typed word is wrong (one edit in up to 3 letters, two in up to 5),
 * so that a name that merely shares letters is not suggested.
 */
#include <string.h>

#include "suggest.h"

#define WORD_MAX	64	/* longer words are never suggested */

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

static unsigned distance(const char *a, const char *b)
{
	unsigned d[WORD_MAX + 1][WORD_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > WORD_MAX || lb > WORD_MAX)
		return ~0U;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];

			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

void suggest_try(const char *typed, const char *cand, const char **best,
		 unsigned *best_d)
{
	size_t len = strlen(typed);
	unsigned limit = len < 4 ? 1 : len < 6 ? 2 : (unsigned)(len / 3), d;

	if (!cand || !*cand || !strcmp(cand, typed))
		return;
	d = distance(typed, cand);
	if (d <= limit && (!*best || d < *best_d)) {
		*best = cand;
		*best_d = d;
	}
}

const char *suggest_word(const char *typed, const char *const *words,
			 size_t n)
{
	const char *best = NULL;
	unsigned best_d = ~0U;
	size_t i;

	for (i = 0; i < n; i++)
		suggest_try(typed, words[i], &best, &best_d);
	return best;
}
