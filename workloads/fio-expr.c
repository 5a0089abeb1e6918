/*
 * fio-expr.c: fio's integer arithmetic in option values ("(8*1024)k",
 * "2*$ncpus"), evaluated by recursive descent over 64-bit integers.
 */
#include <ctype.h>
#include <stdio.h>

#include "fio.h"

/*
 * Grammar (fio's operators; ^ is a power and binds right):
 *   expr  := term  { ('+' | '-') term }
 *   term  := power { ('*' | '/' | '%') power }
 *   power := unary [ '^' power ]
 *   unary := ('+' | '-') unary | atom
 *   atom  := NUMBER | '(' expr ')'        NUMBER: decimal or 0x hex
 */

#define MAX_NEST	32		/* parentheses deep */

struct ev {
	const char *p;		/* next character */
	unsigned nest;		/* parentheses open */
	char *err;
};

static int ev_error(struct ev *e, const char *why)
{
	return input_error(e->err, "arithmetic: %s", why);
}

static void skip_blank(struct ev *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

static int ev_expr(struct ev *e, int64_t *out);

static int ev_number(struct ev *e, int64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	int digits = 0;

	if (e->p[0] == '0' && (e->p[1] == 'x' || e->p[1] == 'X')) {
		base = 16;
		e->p += 2;
	}
	for (;; e->p++, digits++) {
		int c = tolower((unsigned char)*e->p), d;

		if (isdigit(c))
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		if (__builtin_mul_overflow(v, base, &v) ||
		    __builtin_add_overflow(v, (uint64_t)d, &v) ||
		    v > INT64_MAX)
			return ev_error(e, "a number is too large");
	}
	if (!digits)
		return ev_error(e, "a number is missing");
	*out = (int64_t)v;
	return 0;
}

static int ev_atom(struct ev *e, int64_t *out)
{
	int r;

	skip_blank(e);
	if (*e->p != '(')
		return ev_number(e, out);
	if (++e->nest > MAX_NEST)
		return ev_error(e, "parentheses nest too deep");
	e->p++;
	r = ev_expr(e, out);
	if (r)
		return r;
	skip_blank(e);
	if (*e->p != ')')
		return ev_error(e, "a ')' is missing");
	e->p++;
	e->nest--;
	return 0;
}

static int ev_unary(struct ev *e, int64_t *out)
{
	int r;

	skip_blank(e);
	if (*e->p == '-' || *e->p == '+') {
		bool neg = *e->p++ == '-';

		if (++e->nest > MAX_NEST)
			return ev_error(e, "signs nest too deep");
		r = ev_unary(e, out);
		e->nest--;
		if (r)
			return r;
		if (neg && *out == INT64_MIN)
			return ev_error(e, "overflow");
		if (neg)
			*out = -*out;
		return 0;
	}
	return ev_atom(e, out);
}

/* b^x for x >= 0, checked. */
static int ev_pow(struct ev *e, int64_t b, int64_t x, int64_t *out)
{
	int64_t v = 1;

	if (x < 0)
		return ev_error(e, "a negative power");
	while (x--) {
		if (__builtin_mul_overflow(v, b, &v))
			return ev_error(e, "overflow");
		if (v == 0 || v == 1)
			break;
	}
	*out = v;
	return 0;
}

static int ev_power(struct ev *e, int64_t *out)
{
	int64_t x;
	int r;

	r = ev_unary(e, out);
	if (r)
		return r;
	skip_blank(e);
	if (*e->p != '^')
		return 0;
	e->p++;
	if (++e->nest > MAX_NEST)
		return ev_error(e, "powers nest too deep");
	r = ev_power(e, &x);
	e->nest--;
	return r ? r : ev_pow(e, *out, x, out);
}

static int ev_term(struct ev *e, int64_t *out)
{
	int64_t y;
	char op;
	int r;

	r = ev_power(e, out);
	while (!r) {
		skip_blank(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		e->p++;
		r = ev_power(e, &y);
		if (r)
			break;
		if (op == '*') {
			if (__builtin_mul_overflow(*out, y, out))
				return ev_error(e, "overflow");
		} else if (!y) {
			return ev_error(e, "division by zero");
		} else if (*out == INT64_MIN && y == -1) {
			return ev_error(e, "overflow");
		} else {
			*out = op == '/' ? *out / y : *out % y;
		}
	}
	return r;
}

static int ev_expr(struct ev *e, int64_t *out)
{
	int64_t y;
	char op;
	int r;

	r = ev_term(e, out);
	while (!r) {
		skip_blank(e);
		op = *e->p;
		if (op != '+' && op != '-')
			break;
		e->p++;
		r = ev_term(e, &y);
		if (r)
			break;
		if (op == '+' ? __builtin_add_overflow(*out, y, out)
			      : __builtin_sub_overflow(*out, y, out))
			return ev_error(e, "overflow");
	}
	return r;
}

int fio_expr_eval(const char *s, int64_t *out, const char **end, char *err)
{
	struct ev e = { .p = s, .err = err };
	int r;

	r = ev_expr(&e, out);
	if (r)
		return r;
	skip_blank(&e);
	*end = e.p;
	return 0;
}
