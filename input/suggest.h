/*
 * suggest.h: the word a typo was meant to be ("did you mean --selector?"),
 * the closest of a list by edit distance, within a threshold.
 */
#ifndef MPSIM_SUGGEST_H
#define MPSIM_SUGGEST_H

#include <stddef.h>

/* The closest of n words (NULL entries skipped) to typed, or NULL when
 * none is close enough to be the one meant. */
const char *suggest_word(const char *typed, const char *const *words,
			 size_t n);

/* suggest_word()'s threshold and distance, kept together: whether cand
 * is closer to typed than *best (distance *best_d) and close enough;
 * if so it becomes the best.  For callers whose words are not a list. */
void suggest_try(const char *typed, const char *cand, const char **best,
		 unsigned *best_d);

#endif
