/*
 * fio-read.c: fio's job-file format over the ini reader: nested `include`,
 * ${VAR}, the $pagesize/$mb_memory/$ncpus keywords and arithmetic.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio.h"

#define MAX_FILE	(1024 * 1024)	/* largest job file read */
#define SHOW		"%.60s"

/* What one read (a file and all it includes) has taken so far. */
struct totals {
	unsigned includes;	/* include lines followed */
	size_t bytes;		/* text read, the top file's included */
};

/* One file being read; the include chain runs through `up`. */
struct frame {
	const char *file;	/* its name in messages */
	char *real;		/* canonical path, for the loop guard; or NULL */
	unsigned depth;		/* 0 for the top file */
	const struct frame *up;	/* the file that included this one */
	ini_handler fn;		/* the caller's handler and context */
	void *ctx;
	bool located;		/* err already names the file and line */
	struct totals *total;	/* the whole read's, shared by every frame */
};

/* Reads a whole job file: a regular text file of at most MAX_FILE. */
static int slurp(const char *path, char **out, char *err)
{
	size_t n;

	return read_text_file(path, MAX_FILE, "job file", out, &n, err);
}

/* ---- values ---- */

/* A growing string. */
struct sbuf {
	char *s;
	size_t n, cap;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = 2 * (b->n + n + 1);
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static unsigned long long mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || size <= 0)
		return 0;
	return (unsigned long long)pages * (unsigned long long)size >> 20;
}

/* fio's reserved keywords (fio_keywords[] in options.c, in its order). */
static unsigned long long keyword_value(unsigned i)
{
	long v;

	switch (i) {
	case 0:
		v = sysconf(_SC_PAGESIZE);
		return v > 0 ? (unsigned long long)v : 4096;
	case 1:
		return mb_memory();
	default:
		v = sysconf(_SC_NPROCESSORS_ONLN);
		return v > 0 ? (unsigned long long)v : 1;
	}
}

static const char *const keywords[] = { "$pagesize", "$mb_memory", "$ncpus" };

/* ${VAR}: the environment's value, empty when unset (fio's
 * option_dup_subs); a "${" without its "}" stays as written. */
static void expand_env(const char *v, struct sbuf *b)
{
	while (*v) {
		const char *close;

		if (v[0] == '$' && v[1] == '{' && (close = strchr(v, '}')) &&
		    close > v + 2) {
			char name[256];
			size_t n = (size_t)(close - v - 2);
			const char *env;

			if (n < sizeof(name)) {
				memcpy(name, v + 2, n);
				name[n] = '\0';
				env = getenv(name);
				if (env)
					sb_add(b, env, strlen(env));
			}
			v = close + 1;
			continue;
		}
		sb_add(b, v, 1);
		v++;
	}
}

/* $pagesize, $mb_memory, $ncpus replaced, in one pass (a value full of
 * keywords must not cost its length squared); returns how many were.
 * Each keyword's value is asked of the system once per value: sysconf()
 * reads /sys for $ncpus, tens of microseconds a time. */
static unsigned expand_keywords(struct sbuf *b)
{
	char val[ARRAY_SIZE(keywords)][32] = { "" };
	struct sbuf nb = { 0 };
	unsigned i, found = 0;
	const char *p = b->s;

	sb_add(&nb, "", 0);
	while (*p) {
		const char *dollar = strchr(p, '$');

		if (!dollar) {
			sb_add(&nb, p, strlen(p));
			break;
		}
		sb_add(&nb, p, (size_t)(dollar - p));
		p = dollar;
		for (i = 0; i < ARRAY_SIZE(keywords); i++) {
			size_t kl = strlen(keywords[i]);

			if (!strncmp(p, keywords[i], kl)) {
				if (!val[i][0])
					snprintf(val[i], sizeof(val[i]), "%llu",
						 keyword_value(i));
				sb_add(&nb, val[i], strlen(val[i]));
				p += kl;
				found++;
				break;
			}
		}
		if (i == ARRAY_SIZE(keywords))
			sb_add(&nb, p++, 1);
	}
	free(b->s);
	*b = nb;
	return found;
}

/* True for "", "k", "KiB", "ms": what may follow a number. */
static bool unit_suffix(const char *s)
{
	for (; *s; s++)
		if (!isalpha((unsigned char)*s))
			return false;
	return true;
}

/*
 * fio evaluates a value that starts with '(' (parse.c's arithmetic), and
 * a value with + - * / once a keyword went into it (options.c's
 * bc_calc).  The result replaces the expression; a unit after it stays.
 */
static int expand_math(struct sbuf *b, bool keyword, char *err)
{
	const char *end;
	char num[32];
	int64_t v = 0;
	struct sbuf nb = { 0 };
	int r;

	if (b->s[0] != '(' && !(keyword && strpbrk(b->s + 1, "+-*/")))
		return 0;
	r = fio_expr_eval(b->s, &v, &end, err);
	if (r)
		return r;
	if (b->s[0] != '(' && !unit_suffix(end))
		return input_error(err, "arithmetic: unexpected '" SHOW "'",
				   end);
	snprintf(num, sizeof(num), "%lld", (long long)v);
	sb_add(&nb, num, strlen(num));
	sb_add(&nb, end, strlen(end));
	free(b->s);
	*b = nb;
	return 0;
}

int fio_expand(const char *v, char **out, char *err)
{
	struct sbuf b = { 0 };
	unsigned kw;
	int r;

	sb_add(&b, "", 0);
	expand_env(v, &b);
	kw = expand_keywords(&b);
	r = expand_math(&b, kw > 0, err);
	if (r) {
		free(b.s);
		return r;
	}
	*out = b.s;
	return 0;
}

/* ---- files ---- */

static int read_frame(struct frame *f, const char *text, char *err);

/* The directory part of path ("." for none), malloc'd. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;
	char *d;

	if (!slash)
		return xstrdup(".");
	n = slash == path ? 1 : (size_t)(slash - path);
	d = xmalloc(n + 1);
	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

/* `include NAME` of frame f: NAME beside f's file unless absolute. */
static int include_file(struct frame *f, const char *name, char *err)
{
	struct frame c = {
		.depth = f->depth + 1, .up = f, .fn = f->fn, .ctx = f->ctx,
		.total = f->total,
	};
	const struct frame *a;
	char *path, *dir, *text = NULL;
	int r;

	if (!*name)
		return input_error(err, "include needs a file name");
	if (c.depth > FIO_INCLUDE_DEPTH)
		return input_error(err, "include: nested more than %d deep",
				   FIO_INCLUDE_DEPTH);
	/* the chain guard alone lets a tree of includes fan out */
	if (++f->total->includes > FIO_INCLUDE_MAX)
		return input_error(err, "include: more than %d includes in "
				   "all, the limit of one job file",
				   FIO_INCLUDE_MAX);
	if (name[0] == '/') {
		path = xstrdup(name);
	} else {
		dir = dir_of(f->file);
		path = xmalloc(strlen(dir) + strlen(name) + 2);
		sprintf(path, "%s/%s", dir, name);
		free(dir);
	}
	c.file = path;
	c.real = realpath(path, NULL);
	for (a = f; c.real && a; a = a->up) {
		if (a->real && !strcmp(a->real, c.real)) {
			r = input_error(err, "include " SHOW ": a loop (the file "
					"includes itself)", name);
			goto out;
		}
	}
	r = slurp(path, &text, err);
	if (r)
		goto out;
	f->total->bytes += strlen(text);
	if (f->total->bytes > FIO_TEXT_MAX) {
		r = input_error(err, "include " SHOW ": more than %u MiB of "
				"text in all, the limit of one job file", name,
				FIO_TEXT_MAX >> 20);
		goto out;
	}
	r = read_frame(&c, text, err);
	if (r)
		f->located = true;
out:
	free(text);
	free(c.real);
	free(path);
	return r;
}

static bool is_include(const char *key, const char **name)
{
	if (strncmp(key, "include", 7) || !isspace((unsigned char)key[7]))
		return false;
	*name = key + 7;
	while (isspace((unsigned char)**name))
		(*name)++;
	return true;
}

static int frame_line(void *ctx, const struct ini_line *l, char *err)
{
	struct frame *f = ctx;
	struct ini_line x = *l;
	const char *name;
	char *v = NULL;
	int r;

	x.origin = f->file;
	if (l->section) {
		if (f->depth)
			return input_error(err, "an included file holds "
					   "options only, not [%s] (as in fio)",
					   l->section);
		return f->fn(f->ctx, &x, err);
	}
	if (!l->value && is_include(l->key, &name))
		return include_file(f, name, err);
	if (!strcmp(l->key, "include"))
		return input_error(err, "write 'include FILE', without '='");
	if (l->value) {
		r = fio_expand(l->value, &v, err);
		if (r)
			return r;
		x.value = v;
	}
	r = f->fn(f->ctx, &x, err);
	free(v);
	return r;
}

static int read_frame(struct frame *f, const char *text, char *err)
{
	char why[ERR_MAX];
	unsigned line = 0;
	int r;

	f->located = false;
	r = ini_parse(text, frame_line, f, &line, why);
	if (!r)
		return 0;
	/* -EALREADY: the handler named the file and line itself (an
	 * earlier one, such as the header of the section) */
	if (f->located || r == -EALREADY)
		memcpy(err, why, ERR_MAX);
	else
		input_error(err, "%s:%u: %s", f->file, line, why);
	return r == -EALREADY ? -EINVAL : r;
}

int fio_read_text(const char *text, const char *origin, ini_handler fn,
		  void *ctx, char *err)
{
	struct totals total = { .bytes = strlen(text) };
	struct frame f = { .file = origin, .fn = fn, .ctx = ctx,
			   .total = &total };
	int r;

	f.real = realpath(origin, NULL);
	r = read_frame(&f, text, err);
	free(f.real);
	return r;
}

int fio_read_file(const char *path, ini_handler fn, void *ctx, char *err)
{
	char *text = NULL;
	int r;

	r = slurp(path, &text, err);
	if (r)
		return r;
	r = fio_read_text(text, path, fn, ctx, err);
	free(text);
	return r;
}
