/*
 * replay.c: the fuzz corpus as a regression test, without libFuzzer.
 * `fuzz-replay DIR` feeds every file of DIR/NAME/ to fuzz target NAME's
 * entry (the same function libFuzzer calls), in the normal build or
 * under the sanitizers.  A crash, an assertion or a sanitizer report
 * fails it; so does a file that takes longer than FILE_SECONDS (a hang).
 * Prints one line per target: how many files, how long.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define FILE_SECONDS	20	/* also in on_alarm()'s message */

/* The targets, one FUZZ(name) each: a file of tests/fuzz/ each
 * (build/fuzz-targets.h, made by the Makefile). */
#define FUZZ(name) int fuzz_##name(const uint8_t *data, size_t size);
#include "fuzz-targets.h"
#undef FUZZ

static const struct target {
	const char *name;
	int (*fn)(const uint8_t *data, size_t size);
} targets[] = {
#define FUZZ(name) { #name, fuzz_##name },
#include "fuzz-targets.h"
#undef FUZZ
};

static char current[4096];	/* the file being replayed */
static bool verbose;

static void on_alarm(int sig)
{
	static const char msg[] = "fuzz-replay: a hang (more than 20 s): ";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0 ||
	    write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0)
		_exit(1);
	_exit(1);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, r;
	uint8_t *buf;

	if (!f) {
		perror(path);
		exit(1);
	}
	buf = xmalloc(cap);
	*n = 0;
	while ((r = fread(buf + *n, 1, cap - *n, f)) > 0) {
		*n += r;
		if (*n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	if (ferror(f)) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return buf;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of dir/name, in name order; returns how many. */
static unsigned replay(const char *dir, const struct target *t)
{
	char path[4096], **names = NULL;
	unsigned n = 0, i;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, t->name);
	d = opendir(path);
	if (!d) {
		perror(path);
		exit(1);
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		uint8_t *data;
		size_t size;

		snprintf(current, sizeof(current), "%s/%s/%s", dir, t->name,
			 names[i]);
		data = slurp(current, &size);
		if (verbose)
			fprintf(stderr, "%s\n", current);
		alarm(FILE_SECONDS);
		t->fn(data, size);
		alarm(0);
		free(data);
		free(names[i]);
	}
	free(names);
	return n;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	unsigned i, n;

	if (argc == 3 && !strcmp(argv[1], "-v")) {
		verbose = true;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: fuzz-replay [-v] CORPUS_DIR\n");
		return 2;
	}
	signal(SIGALRM, on_alarm);
	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		n = replay(argv[1], &targets[i]);
		clock_gettime(CLOCK_MONOTONIC, &b);
		printf("fuzz corpus %-14s %5u files %6.2f s\n", targets[i].name,
		       n, (double)(b.tv_sec - a.tv_sec) +
		       (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	}
	return 0;
}
