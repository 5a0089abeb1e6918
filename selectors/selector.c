/*
 * selector.c: the selector registry and the instance helpers of selector.h
 * (the kernel's dm-path-selector.c, without modules or reference counts).
 */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpumask.h"
#include "selector.h"

/*
 * Every built-in selector, in the order `list selectors` prints them.
 * Registering a selector is one line here; the declarations and the
 * table below are both generated from this list.
 */
#define SELECTOR_LIST(X)		\
	X(ps_round_robin)		\
	X(ps_queue_length)		\
	X(ps_service_time)		\
	X(ps_historical_service_time)	\
	X(ps_io_affinity)

#define PS_DECLARE(type)	extern const struct ps_type type;
SELECTOR_LIST(PS_DECLARE)
#undef PS_DECLARE

#define PS_ENTRY(type)		&type,
const struct ps_type *const ps_types[] = {
	SELECTOR_LIST(PS_ENTRY)
};
#undef PS_ENTRY

const unsigned ps_nr_types = ARRAY_SIZE(ps_types);

/* Longest argument string ps_init() and ps_add_path() accept, plus NUL. */
#define PS_ARGS_LEN		256

const struct ps_type *ps_find(const char *name)
{
	unsigned i;

	if (!name)
		return NULL;
	for (i = 0; i < ps_nr_types; i++) {
		const struct ps_type *t = ps_types[i];

		if (!strcmp(t->name, name) ||
		    (t->alias && !strcmp(t->alias, name)))
			return t;
	}
	return NULL;
}

int ps_split_args(char *buf, char **argv, char *error)
{
	char *p = buf;
	int argc = 0;

	if (!p)
		return 0;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (argc == PS_MAX_ARGS)
			return input_error(error,
					   "too many arguments (at most %d words)",
					   PS_MAX_ARGS);
		argv[argc++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return argc;
}

/*
 * Copy args (NULL means none) into buf and split it into argv.  Returns
 * the word count, or -EINVAL with a message naming the selector.
 */
static int ps_prepare_args(const struct ps_type *type, const char *args,
			   char *buf, char **argv, char *error)
{
	size_t len = args ? strlen(args) : 0;
	int argc;

	if (len >= PS_ARGS_LEN)
		return input_error(error,
				   "%s ps: argument string too long (at most %d characters)",
				   type->name, PS_ARGS_LEN - 1);
	/* len < PS_ARGS_LEN: it fits, and no byte count to get wrong */
	strcpy(buf, args ? args : "");

	argc = ps_split_args(buf, argv, error);
	if (argc < 0) {
		char why[ERR_MAX];

		snprintf(why, sizeof(why), "%s", error);
		return input_error(error, "%s ps: %s", type->name, why);
	}
	return argc;
}

int ps_init(struct path_selector *ps, const struct ps_type *type,
	    const char *args, char *error)
{
	char buf[PS_ARGS_LEN];
	char *argv[PS_MAX_ARGS];
	int argc, r;

	ps->type = NULL;
	ps->context = NULL;
	if (!ps->nr_cpu_ids)
		ps->nr_cpu_ids = 1;
	if (!ps->nr_node_ids)
		ps->nr_node_ids = 1;
	if (!ps->hz)
		ps->hz = 250;
	assert(ps->nr_cpu_ids <= PS_MAX_CPUS);
	assert(ps->nr_node_ids <= ps->nr_cpu_ids);
	assert(ps->cpu < ps->nr_cpu_ids);

	argc = ps_prepare_args(type, args, buf, argv, error);
	if (argc < 0)
		return argc;

	ps->type = type;
	ps->context = xcalloc(1, type->ctx_size);
	r = type->create(ps, argc, argv, error);
	if (r)
		goto out_free;
	return 0;

out_free:
	free(ps->context);
	ps->context = NULL;
	ps->type = NULL;
	return r;
}

int ps_add_path(struct path_selector *ps, struct ps_path *path,
		const char *args, char *error)
{
	char buf[PS_ARGS_LEN];
	char *argv[PS_MAX_ARGS];
	int argc, r;

	path->ps_ctx = NULL;

	argc = ps_prepare_args(ps->type, args, buf, argv, error);
	if (argc < 0)
		return argc;

	/* add_path() validates before it links the path anywhere, so on
	 * error the zeroed block is referenced by nothing but path. */
	path->ps_ctx = xcalloc(1, ps->type->path_size);
	r = ps->type->add_path(ps, path, argc, argv, error);
	if (r)
		goto out_free;
	return 0;

out_free:
	free(path->ps_ctx);
	path->ps_ctx = NULL;
	return r;
}

void ps_exit(struct path_selector *ps, struct ps_path **paths, unsigned n)
{
	unsigned i;

	if (ps->type && ps->type->destroy)
		ps->type->destroy(ps);
	for (i = 0; i < n; i++) {
		free(paths[i]->ps_ctx);
		paths[i]->ps_ctx = NULL;
	}
	free(ps->context);
	ps->context = NULL;
	ps->type = NULL;
}

int ps_parse_uint(const char *word, unsigned *val)
{
	uint64_t v = 0;

	if (*word < '0' || *word > '9')
		return -EINVAL;
	for (; *word >= '0' && *word <= '9'; word++) {
		v = v * 10 + (uint64_t)(*word - '0');
		if (v > UINT32_MAX)
			return -EINVAL;
	}
	if (*word)
		return -EINVAL;
	*val = (unsigned)v;
	return 0;
}

int ps_emitted(int n, size_t maxlen)
{
	if (n < 0 || !maxlen)
		return 0;
	return (size_t)n < maxlen ? n : (int)maxlen - 1;
}

int ps_repeat_count(const char *name, int argc, char **argv, unsigned *rc,
		    char *error)
{
	if (argc < 1)
		return 0;
	if (ps_parse_uint(argv[0], rc))
		return input_error(error, "%s ps: invalid repeat count", name);
	if (*rc > 1) {
		mpsim_warn("%s ps: repeat_count > 1 is deprecated, using 1 instead",
			   name);
		*rc = 1;
	}
	return 0;
}
