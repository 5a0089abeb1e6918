/*
 * ini.h: a small reader for ini text in the style of fio job files: it
 * splits lines into [section] headers and key = value options and leaves
 * their meaning to the caller.
 */
#ifndef MPSIM_INI_H
#define MPSIM_INI_H

/* One meaningful line, handed to the caller's handler. */
struct ini_line {
	unsigned lineno;	/* 1-based line number in the text */
	const char *section;	/* header text inside [ ], trimmed; NULL for an
				   option line */
	const char *key;	/* option name, trimmed; NULL for a header */
	const char *value;	/* option value, trimmed ("" for `key =`);
				   NULL for a line without '=' (time_based) */
	const char *origin;	/* the file the line came from (fio's reader,
				   workloads/fio-read.c); NULL from ini_parse */
};

/*
 * Returns 0 to go on, or -EINVAL with a message in err (ERR_MAX bytes,
 * without any file:line prefix: ini_parse reports the line).
 */
typedef int (*ini_handler)(void *ctx, const struct ini_line *l, char *err);

/*
 * Calls fn for every header and option line of text, in order.
 *
 * Grammar, as fio's parse_jobs_ini() reads a job file: each line is cut at
 * its first ';' or '#' (so whole-line and trailing comments both go), then
 * trimmed of white space; empty lines are skipped; a line that starts with
 * '[' must end with ']'; any other line is `key`, `key=value` or
 * `key = value`.  Lines end at '\n'; a '\r' before it is white space.
 *
 * Returns 0, or -EINVAL with *lineno set to the offending line and err
 * holding a plain message (the handler's, or "missing ']'" and the like).
 */
int ini_parse(const char *text, ini_handler fn, void *ctx, unsigned *lineno,
	      char *err);

#endif
