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

int input_error_line(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, ERR_MAX, fmt, ap);
	va_end(ap);
	one_line(err);
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
 * one newline, into line (LINE_MAX_ bytes); returns its length. */
#define LINE_MAX_	(4 * 1024 + 32)
static size_t format_line(char *line, const char *prefix, const char *fmt,
			  va_list ap) __attribute__((format(printf, 3, 0)));
static size_t format_line(char *line, const char *prefix, const char *fmt,
			  va_list ap)
{
	char msg[1024];
	size_t n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	n = (size_t)snprintf(line, LINE_MAX_, "mpsim: %s", prefix);
	n = escape_controls(line, n, LINE_MAX_ - 1, msg);
	line[n++] = '\n';
	line[n] = '\0';
	return n;
}

/* The line, in one write so that concurrent workers do not interleave. */
static void print_line(FILE *out, const char *prefix, const char *fmt,
		       va_list ap) __attribute__((format(printf, 3, 0)));
static void print_line(FILE *out, const char *prefix, const char *fmt,
		       va_list ap)
{
	char line[LINE_MAX_];
	size_t n = format_line(line, prefix, fmt, ap);

	fflush(out);
	fwrite(line, 1, n, out);
	fflush(out);
}

/*
 * Warnings held back until the input is known to be good (see sim.h),
 * each distinct line once: a cause met again (at every point of a
 * sweep, say) is counted, not repeated.
 */
static struct held_line {
	char *text;			/* the whole line, with its newline */
	unsigned long long rounds;	/* rounds (sweep points) it was met in */
	unsigned long long last;	/* the last such round */
	char *label;			/* the label of its first round */
} *held;
static size_t nr_held;
static bool holding;
static unsigned long long round_now, round_total;	/* mpsim_warn_round() */
static const char *round_unit, *round_label;

void mpsim_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_line(stderr, "", fmt, ap);
	va_end(ap);
}

static void hold_line(const char *line)
{
	size_t i;

	for (i = 0; i < nr_held && strcmp(held[i].text, line); i++)
		;
	if (i == nr_held) {
		held = xrealloc(held, (nr_held + 1) * sizeof(*held));
		held[nr_held].text = xstrdup(line);
		held[nr_held].rounds = 0;
		held[nr_held].last = 0;
		held[nr_held].label = round_label ? xstrdup(round_label) :
				      NULL;
		nr_held++;
	}
	if (!held[i].rounds || held[i].last != round_now) {
		held[i].rounds++;
		held[i].last = round_now;
	}
}

void mpsim_warn(const char *fmt, ...)
{
	char line[LINE_MAX_];
	va_list ap;

	if (mpsim_quiet)
		return;
	va_start(ap, fmt);
	if (holding) {
		format_line(line, "warning: ", fmt, ap);
		hold_line(line);
	} else {
		print_line(stderr, "warning: ", fmt, ap);
	}
	va_end(ap);
}

static void oom(size_t n)
{
	fprintf(stderr, "mpsim: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void mpsim_warn_hold(void)
{
	holding = true;
}

void mpsim_warn_round(unsigned long long k, unsigned long long total,
		      const char *unit, const char *label)
{
	round_now = k + 1;
	round_total = total;
	round_unit = unit;
	round_label = label;
}

void mpsim_warn_release(bool show)
{
	size_t i;

	if (!holding)
		return;
	holding = false;
	for (i = 0; i < nr_held; i++) {
		char *t = held[i].text;

		if (show && held[i].rounds > 1 && round_unit)
			fprintf(stderr, "%.*s (at %llu of %llu %s)\n",
				(int)strlen(t) - 1, t, held[i].rounds,
				round_total, round_unit);
		else if (show && held[i].label)
			fprintf(stderr, "%.*s (%s)\n", (int)strlen(t) - 1, t,
				held[i].label);
		else if (show)
			fputs(t, stderr);
		free(t);
		free(held[i].label);
	}
	fflush(stderr);
	free(held);
	held = NULL;
	nr_held = 0;
	round_now = round_total = 0;
	round_unit = round_label = NULL;
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

char *xstrndup(const char *s, size_t n)
{
	char *d;

	n = strnlen(s, n);
	d = memcpy(xmalloc(n + 1), s, n);
	d[n] = '\0';
	return d;
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
