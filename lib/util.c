/* util.c: the out-of-memory and bad-input helpers declared in util.h
 * (the bounded file reader: text-file.c). */
#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe-file.h"
#include "util.h"

int input_error(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int mpsim_quiet;

/* Appends src to dst[n..size) with its control characters escaped,
 * \n, \t, \r or \xHH, whole escapes only; returns the new length. */
static size_t escape_controls(char *dst, size_t n, size_t size,
			      const char *src)
{
	const unsigned char *c;
	char e[5];

	for (c = (const unsigned char *)src; *c; c++) {
		size_t l;

		if (!iscntrl(*c)) {
			e[0] = (char)*c;
			e[1] = '\0';
		} else if (*c == '\n' || *c == '\t' || *c == '\r') {
			e[0] = '\\';
			e[1] = *c == '\n' ? 'n' : *c == '\t' ? 't' : 'r';
			e[2] = '\0';
		} else {
			snprintf(e, sizeof(e), "\\x%02x", *c);
		}
		l = strlen(e);
		if (n + l >= size)
			break;
		memcpy(dst + n, e, l);
		n += l;
	}
	dst[n] = '\0';
	return n;
}

void one_line(char *err)
{
	char esc[ERR_MAX];

	escape_controls(esc, 0, sizeof(esc), err);
	memcpy(err, esc, strlen(esc) + 1);
}

/* "mpsim: " prefix, the message with its control characters escaped, and
 * one newline, in one write so that concurrent workers do not interleave. */
static void print_line(FILE *out, const char *prefix, const char *fmt,
		       va_list ap) __attribute__((format(printf, 3, 0)));
static void print_line(FILE *out, const char *prefix, const char *fmt,
		       va_list ap)
{
	char msg[1024], line[4 * sizeof(msg) + 32];
	size_t n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = (size_t)snprintf(line, sizeof(line), "mpsim: %s", prefix);
	n = escape_controls(line, n, sizeof(line) - 1, msg);
	line[n++] = '\n';
	fflush(out);
	fwrite(line, 1, n, out);
	fflush(out);
}

/* Warnings held back until the input is known to be good (see sim.h). */
static FILE *held;
static char *held_buf;
static size_t held_len;

void mpsim_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_line(stderr, "", fmt, ap);
	va_end(ap);
}

void mpsim_warn(const char *fmt, ...)
{
	va_list ap;

	if (mpsim_quiet)
		return;
	va_start(ap, fmt);
	print_line(held ? held : stderr, "warning: ", fmt, ap);
	va_end(ap);
}

static void oom(size_t n)
{
	fprintf(stderr, "mpsim: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void mpsim_warn_hold(void)
{
	if (held)
		return;
	held = open_memstream(&held_buf, &held_len);
	if (!held)
		oom(BUFSIZ);
}

void mpsim_warn_release(bool show)
{
	if (!held)
		return;
	fclose(held);
	held = NULL;
	if (show)
		fputs(held_buf, stderr);
	free(held_buf);
	held_buf = NULL;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *str_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

int str_in_list(const char *key, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

/* Why a file of mode m is not a regular file, or NULL if it is one. */
const char *not_regular(mode_t m)
{
	if (S_ISREG(m))
		return NULL;
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	return "not a regular file";
}
