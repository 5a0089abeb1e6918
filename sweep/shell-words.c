/*
 * shell-words.c: words as a POSIX shell reads them: a sweep's command line
 * quoted into the head of its result file and the Slurm script, and split
 * back when a file is resumed or merged.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* Characters no POSIX shell treats specially inside a word. */
static bool shell_safe(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && !strchr("_-.,/:=@%+", s[i]))
			return false;
	return true;
}

void words_append(char **s, size_t *len, const char *p, size_t n)
{
	*s = xrealloc(*s, *len + n + 1);
	memcpy(*s + *len, p, n);
	*len += n;
	(*s)[*len] = '\0';
}

/* `--key=value` keeps --key= outside the quotes, for people reading it. */
void shell_quote(char **s, size_t *len, const char *word)
{
	const char *eq = strchr(word, '=');
	const char *p;

	if (shell_safe(word, strlen(word))) {
		words_append(s, len, word, strlen(word));
		return;
	}
	if (!strncmp(word, "--", 2) && eq && shell_safe(word, (size_t)(eq - word))) {
		words_append(s, len, word, (size_t)(eq - word) + 1);
		word = eq + 1;
	}
	words_append(s, len, "'", 1);
	for (p = word; *p; p++) {
		if (*p == '\'')
			words_append(s, len, "'\\''", 4);
		else
			words_append(s, len, p, 1);
	}
	words_append(s, len, "'", 1);
}

int shell_split(const char *line, char ***words)
{
	const char *p = line;
	char *w = NULL;
	size_t wl = 0;
	int n = 0;

	*words = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w = xstrdup("");
		wl = 0;
		while (*p && *p != ' ' && *p != '\t') {
			const char *q;

			if (*p == '\'') {
				q = strchr(p + 1, '\'');
				if (!q)
					goto bad;
				words_append(&w, &wl, p + 1, (size_t)(q - p - 1));
				p = q + 1;
			} else if (*p == '\\' && p[1]) {
				words_append(&w, &wl, p + 1, 1);
				p += 2;
			} else {
				words_append(&w, &wl, p, 1);
				p++;
			}
		}
		*words = xrealloc(*words, (size_t)(n + 1) * sizeof(**words));
		(*words)[n++] = w;
		w = NULL;
	}
	return n;
bad:
	free(w);
	while (n > 0)
		free((*words)[--n]);
	free(*words);
	*words = NULL;
	return -EINVAL;
}
