/*
 * fio-expr.c: fio's integer arithmetic in option values ("(8*1024)k",
 * "2*$ncpus"), evaluated by recursive descent over 64-bit integers.
 */
#include <ctype.h>
#include <stdio.h>

#include "fio.h"

/*
 * Grammar: fio's (exp/expression-parser.y, a yacc grammar whose
 * precedence declarations are, lowest first: + -, * /, ^ (right), %,
 * unary minus), so % binds tighter than * and ^ ("2*7%4" is 2*(7%4) = 6,
 * "2^3%2" is 2^(3%2) = 2) and a sign tighter than everything ("-2^2" is
 * (-2)^2 = 4).  fio has no unary plus.
 *   expr  := mul   { ('+' | '-') mul }
 *   mul   := power { ('*' | '/') power }
 *   power := mod   [ '^' power ]
 *   mod   := unary { '%' unary }
 *   unary := '-' unary | atom
 *   atom  := NUMBER | '(' expr ')'        NUMBER: decimal or 0x hex
 * Where fio's long long would wrap (undefined behaviour in its C), or it
 * goes on after "divide by zero" with an undefined value, mpsim refuses.
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
	if (*e->p == '+')
		return ev_error(e, "a '+' without a left operand (fio has "
				"no unary plus)");
	if (*e->p == '-') {
		e->p++;
		if (++e->nest > MAX_NEST)
			return ev_error(e, "signs nest too deep");
		r = ev_unary(e, out);
		e->nest--;
		if (r)
			return r;
		if (*out == INT64_MIN)
			return ev_error(e, "overflow");
		*out = -*out;
		return 0;
	}
	return ev_atom(e, out);
}

/* fio's '%': C's remainder, its sign that of the dividend. */
static int ev_mod(struct ev *e, int64_t *out)
{
	int64_t y;
	int r;

	r = ev_unary(e, out);
	while (!r) {
		skip_blank(e);
		if (*e->p != '%')
			break;
		e->p++;
		r = ev_unary(e, &y);
		if (r)
			break;
		if (!y)
			return ev_error(e, "division by zero");
		*out = y == -1 ? 0 : *out % y;	/* INT64_MIN % -1 traps */
	}
	return r;
}

/*
 * b^x as fio's integer '^' gives it: x = 0 is 1 (0^0 too); x > 0 is b
 * multiplied x times, whatever b is, so (-1)^3 = -1; x < 0 is fio's
 * (long long)pow(b, x), which truncates to 0 unless |b| is 1 (0 to a
 * negative power is infinite: refused).
 */
static int ev_pow(struct ev *e, int64_t b, int64_t x, int64_t *out)
{
	int64_t v = 1;

	if (b == 1 || b == -1) {
		*out = b == -1 && (x & 1) ? -1 : 1;
		return 0;
	}
	if (x < 0) {
		if (!b)
			return ev_error(e, "0 to a negative power");
		*out = 0;
		return 0;
	}
	if (!b) {
		*out = x ? 0 : 1;
		return 0;
	}
	/* |b| >= 2: at most 63 rounds before an overflow */
	while (x--)
		if (__builtin_mul_overflow(v, b, &v))
			return ev_error(e, "overflow");
	*out = v;
	return 0;
}

static int ev_power(struct ev *e, int64_t *out)
{
	int64_t x;
	int r;

	r = ev_mod(e, out);
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

static int ev_mul(struct ev *e, int64_t *out)
{
	int64_t y;
	char op;
	int r;

	r = ev_power(e, out);
	while (!r) {
		skip_blank(e);
		op = *e->p;
		if (op != '*' && op != '/')
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
			*out /= y;
		}
	}
	return r;
}

static int ev_expr(struct ev *e, int64_t *out)
{
	int64_t y;
	char op;
	int r;

	r = ev_mul(e, out);
	while (!r) {
		skip_blank(e);
		op = *e->p;
		if (op != '+' && op != '-')
			break;
		e->p++;
		r = ev_mul(e, &y);
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
