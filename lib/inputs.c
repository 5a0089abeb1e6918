/* inputs.c: the files a command read and their content hashes, and the
 * hash of the mpsim build (declared in inputs.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inputs.h"
#include "util.h"

/* How deep `#include "..."` is followed from a selector source, and the
 * largest header read: the compiler has its own limits, these only keep
 * a cycle or a huge file from stalling the hash. */
#define INCLUDE_DEPTH	16
#define HEADER_MAX	((size_t)16 << 20)

static struct {
	bool on;
	struct input_file *f;
	size_t nr;
	char **seen;		/* real paths of the C files read, so that */
	size_t nr_seen;		/* an include cycle ends */
} rec;

uint64_t fnv1a64(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void inputs_record(bool on)
{
	rec.on = on;
	read_text_file_tell(on ? inputs_note : NULL);
}

size_t inputs_list(const struct input_file **list)
{
	*list = rec.f;
	return rec.nr;
}

void inputs_clear(void)
{
	size_t i;

	for (i = 0; i < rec.nr; i++)
		free(rec.f[i].key);
	free(rec.f);
	rec.f = NULL;
	rec.nr = 0;
	for (i = 0; i < rec.nr_seen; i++)
		free(rec.seen[i]);
	free(rec.seen);
	rec.seen = NULL;
	rec.nr_seen = 0;
}

/* True the first time the C file at path is met (by its real path). */
static bool first_visit(const char *path)
{
	char *real = realpath(path, NULL);
	size_t i;

	if (!real)
		return false;
	for (i = 0; i < rec.nr_seen; i++)
		if (!strcmp(rec.seen[i], real)) {
			free(real);
			return false;
		}
	rec.seen = xrealloc(rec.seen, (rec.nr_seen + 1) * sizeof(*rec.seen));
	rec.seen[rec.nr_seen++] = real;
	return true;
}

/* Adds ROLE:PATH unless present; false when it was. */
static bool add(const char *role, const char *path, uint64_t hash)
{
	size_t rl = strlen(role), i;
	char *key = xmalloc(rl + strlen(path) + 2);

	sprintf(key, "%s:%s", role, path);
	for (i = 0; i < rec.nr; i++)
		if (!strcmp(rec.f[i].key, key)) {
			free(key);
			return false;
		}
	rec.f = xrealloc(rec.f, (rec.nr + 1) * sizeof(*rec.f));
	rec.f[rec.nr].key = key;
	rec.f[rec.nr].hash = hash;
	rec.nr++;
	return true;
}

static void note_includes(const char *path, const char *text, unsigned depth);

/* One `#include "name"` of the file at path: name relative to path's
 * directory, when it is a readable regular file there (a header the
 * compiler finds on its own search path, kcompat's, is the build's). */
static void note_header(const char *path, const char *name, size_t nl,
			unsigned depth)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	char *h = xmalloc(dl + nl + 1), *text, err[ERR_MAX];
	size_t n;

	memcpy(h, path, dl);
	memcpy(h + dl, name, nl);
	h[dl + nl] = '\0';
	if (name[0] == '/')
		memmove(h, h + dl, nl + 1);
	rec.on = false;		/* not a read of its own */
	if (first_visit(h) &&
	    !read_text_file(h, HEADER_MAX, "C header", &text, &n, err)) {
		if (add("selector-header", h, fnv1a64(text, n, FNV1A64_INIT)))
			note_includes(h, text, depth + 1);
		free(text);
	}
	rec.on = true;
	free(h);
}

/* The local includes of a C file: lines `# include "name"`. */
static void note_includes(const char *path, const char *text, unsigned depth)
{
	const char *p = text, *q;

	if (depth >= INCLUDE_DEPTH)
		return;
	for (; *p; p = *p ? p + 1 : p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#') {
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "include", 7)) {
				p += 7;
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '"' && (q = strpbrk(p + 1, "\"\n")) &&
				    *q == '"' && q > p + 1)
					note_header(path, p + 1,
						    (size_t)(q - p - 1), depth);
			}
		}
		p += strcspn(p, "\n");
	}
}

void inputs_note(const char *what, const char *path, const char *text,
		 size_t n)
{
	static const struct { const char *what, *role; } roles[] = {
		{ "scenario file", "scenario" },
		{ "job file", "job" },
		{ "fio iolog", "iolog" },
		{ "C source file", "selector-source" },
	};
	size_t i;

	if (!rec.on)
		return;
	for (i = 0; i < ARRAY_SIZE(roles) && strcmp(roles[i].what, what); i++)
		;
	if (i == ARRAY_SIZE(roles))
		return;		/* not an input of a run (a result file) */
	if (add(roles[i].role, path, fnv1a64(text, n, FNV1A64_INIT)) &&
	    !strcmp(roles[i].role, "selector-source") && first_visit(path))
		note_includes(path, text, 0);
}

uint64_t inputs_build_hash(void)
{
	static uint64_t h;
	static bool done;
	char buf[1 << 16];
	ssize_t got;
	int fd;

	if (done)
		return h;
	done = true;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return h;
	h = FNV1A64_INIT;
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			h = 0;
			break;
		}
		h = fnv1a64(buf, (size_t)got, h);
	}
	close(fd);
	return h;
}
