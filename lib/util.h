/*
 * util.h: the errors and their three kinds (sim/sim.h's note 4: bad
 * input, out of memory, bugs), allocation that cannot fail, strings, and
 * (text-file.h) reading text files and lines.  The base of every folder:
 * it includes nothing of the project.
 */
#ifndef MPSIM_LIB_UTIL_H
#define MPSIM_LIB_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "text-file.h"

/* Room for one bad-input message, including its file:line prefix. */
#define ERR_MAX		256

/*
 * Formats a bad-input message into err (ERR_MAX bytes) and returns -EINVAL,
 * so a parser can say `return input_error(err, "bs: %s", why);`.
 */
int input_error(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same, the message made one line (one_line): for the value readers,
 * whose messages quote the value given back. */
int input_error_line(char *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A message on stderr as one line, "mpsim: " and the formatted text: a
 * control character in it (user text echoed back: a value, a file name,
 * the head of a result file) is written escaped, \n, \t, \r or \xHH, so
 * a message never spans two lines.  Every message goes through here.
 */
void mpsim_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Escapes err's control characters (ERR_MAX bytes, in place) as
 * mpsim_error does, for a message kept before it is printed: it stays one
 * line and reads the same. */
void one_line(char *err);

/*
 * A warning on stderr ("mpsim: warning: ...", escaped as mpsim_error),
 * for input that is accepted but changed or ignored, as the kernel's
 * DMWARN.  Silenced when mpsim_quiet is set (sweeps, tests).
 */
void mpsim_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int mpsim_quiet;

/*
 * Bad input is one line on stderr, so the warnings about options read
 * before a later one is refused must not show: main() holds them back
 * from the start, and they are shown (show) once the command has accepted
 * its input, or dropped (!show) when it refuses it.
 */
void mpsim_warn_hold(void);
void mpsim_warn_release(bool show);
/* While held, each distinct warning is shown once.  Warnings met from here
 * on belong to round k (of total, called unit: "sweep points"); a line
 * met in more than one round is shown once, "(at N of TOTAL UNIT)", a
 * line met in one round whose label is not NULL "(LABEL)". */
void mpsim_warn_round(unsigned long long k, unsigned long long total,
		      const char *unit, const char *label);

/* Trims white space from both ends of s in place; returns the new start. */
char *str_trim(char *s);

/* Whether key is one of the n strings of list. */
int str_in_list(const char *key, const char *const *list, size_t n);


/* Allocation that cannot fail: out of memory prints and aborts. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* The first n bytes of s (fewer at its end), as a string. */
char *xstrndup(const char *s, size_t n);

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
