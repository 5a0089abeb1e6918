/* text-file.c: the bounded reader of a whole text file, and its lines
 * (text-file.h).  Each file read is noted (safe-file.h: never an output)
 * and told to whoever asked (inputs.c: what a sweep's points read). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe-file.h"
#include "text-file.h"
#include "util.h"

static text_file_reader_fn *told;

void read_text_file_tell(text_file_reader_fn *fn)
{
	told = fn;
}

/* "1 MiB" for limits that are whole MiB, else bytes. */
static void size_name(size_t n, char *buf, size_t size)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, size, "%zu MiB", n >> 20);
	else
		snprintf(buf, size, "%zu bytes", n);
}

int read_text_file(const char *path, size_t max, const char *what,
		   char **text, size_t *len, char *err)
{
	const char *why;
	char lim[32], *buf;
	struct stat st;
	size_t n = 0, cap;
	int fd, r = 0;

	*text = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO without a writer must not hang */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return input_error(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		r = input_error(err, "%s: %s", path, strerror(errno));
		close(fd);
		return r;
	}
	why = not_regular(st.st_mode);
	size_name(max, lim, sizeof(lim));
	if (!why)
		input_note(path, &st);
	if (why) {
		close(fd);
		return input_error(err, "%s: %s, not a %s", path, why, what);
	}
	if ((uintmax_t)st.st_size > max) {
		close(fd);
		return input_error(err, "%s: larger than %s, the limit of a %s",
				   path, lim, what);
	}
	/* read up to max + 1 bytes: the file may have grown since fstat */
	cap = (size_t)st.st_size + 1;
	buf = xmalloc(cap + 1);
	while (n <= max) {
		ssize_t got;

		if (n == cap) {
			cap = cap > max / 2 ? max + 1 : 2 * cap;
			buf = xrealloc(buf, cap + 1);
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = input_error(err, "%s: %s", path, strerror(errno));
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (!r && n > max)
		r = input_error(err, "%s: larger than %s, the limit of a %s",
				path, lim, what);
	if (!r && memchr(buf, '\0', n))
		r = input_error(err, "%s: holds NUL bytes, not a text file",
				path);
	if (r) {
		free(buf);
		return r;
	}
	buf[n] = '\0';
	if (told)
		told(what, path, buf, n);
	*text = buf;
	*len = n;
	return 0;
}

char *next_line(const char **p, char **buf, size_t *cap)
{
	size_t len = strcspn(*p, "\n");

	if (!**p)
		return NULL;
	if (len + 1 > *cap) {
		*cap = len + 1;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf, *p, len);
	(*buf)[len] = '\0';
	*p += len + ((*p)[len] == '\n');
	return *buf;
}
