/*
 * sweep-points.c: the points of a sweep: point k read as one value per
 * swept option (a number in mixed radix), its run options resolved and
 * checked as a single run's, and the seeds of its replications.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selectors/ksource.h"
#include "selectors/selector.h"
#include "sim/rng.h"
#include "sweep.h"

char sweep_unset[] = "";

/* "--key=value", or "--key" for a bare flag (value NULL). */
char *sweep_option_word(const char *key, const char *value)
{
	size_t n = strlen(key) + (value ? strlen(value) : 0) + 4;
	char *s = xmalloc(n);

	if (value)
		snprintf(s, n, "--%s=%s", key, value);
	else
		snprintf(s, n, "--%s", key);
	return s;
}

uint64_t sweep_rep_seed(uint64_t seed, unsigned r)
{
	return r ? rng_mix(seed ^ rng_mix(r)) : seed;
}

/* Is the selector happy with the scenario's arguments?  run_scenario()
 * would find out only when the point runs.  A refused path argument is
 * said with what the selector wants of it and, in a sweep of several
 * selectors (several), how to give each its own. */
static int check_selector(const struct scenario *sc, bool several, char *err)
{
	const struct ps_type *t;
	struct path_selector ps;
	struct ps_path *paths, **pp;
	char why[ERR_MAX];
	unsigned i, n = 0;
	int r;

	t = ps_type_of(sc->selector, sc->selector_source, err);
	if (!t)
		return -EINVAL;
	/* the machine the run would give it (sim/mpath.c) */
	memset(&ps, 0, sizeof(ps));
	ps.nr_cpu_ids = sc->ncpus;
	ps.nr_node_ids = sc->numa_nodes;
	ps.hz = sc->hz;
	r = ps_init(&ps, t, sc->selector_args, why);
	if (r)
		return input_error(err, "--selector_args: %s", why);
	paths = xcalloc(sc->nr_paths, sizeof(*paths));
	pp = xcalloc(sc->nr_paths, sizeof(*pp));
	for (i = 0; i < sc->nr_paths; i++) {
		paths[i].name = sc->paths[i].name;
		paths[i].index = i;
		r = ps_add_path(&ps, &paths[i], sc->paths[i].path_args, err);
		if (r) {
			const char *name = sc->paths[i].name;
			bool none = !sc->paths[i].path_args[strspn(
					sc->paths[i].path_args, " ")];

			snprintf(why, sizeof(why), "%s", err);
			if (none && !strcmp(t->name, "io-affinity"))
				input_error(err, "path %s: %s (io-affinity wants "
					    "a hex CPU mask per path%s%s%s)",
					    name, why, several ? "; one "
					    "path_args cannot serve the other "
					    "selectors: --selector=...,ioa:"
					    "path." : ": --path.", name,
					    several ? ".path_args=MASK:..." :
					    ".path_args=MASK for each");
			else if (several && !none)
				input_error(err, "path %s: %s (path_args '%s' "
					    "goes to every selector of the "
					    "sweep; give one its own: "
					    "--selector=...,%s:path.%s."
					    "path_args=ARGS)", name, why,
					    sc->paths[i].path_args, t->name,
					    name);
			else
				input_error(err, "path %s: %s", name, why);
			break;
		}
		pp[n++] = &paths[i];
	}
	ps_exit(&ps, pp, n);
	free(pp);
	free(paths);
	return r;
}

/* Point k is a number in mixed radix, one digit per option, the last
 * option's digit the least significant (or, when selectors have lists
 * of their own, the k-th of the numbers their lists take). */
const char *sweep_point_value(const struct sweep *sw, unsigned i, uint64_t k)
{
	unsigned j;

	if (sw->combo)
		k = sw->combo[k];
	for (j = sw->nr_opt - 1; j > i; j--)
		k /= sw->opt[j].nr_vals;
	return sw->opt[i].vals[k % sw->opt[i].nr_vals];
}

static char *point_word(const struct sweep *sw, unsigned i, uint64_t k)
{
	return sweep_option_word(sw->opt[i].key, sweep_point_value(sw, i, k));
}

int sweep_point_opts(const struct sweep *sw, uint64_t k, struct run_opts *o,
		     char *err)
{
	char **argv = xcalloc(sw->nr_opt + 2, sizeof(*argv));
	unsigned i;
	int r;

	unsigned n = 1;

	argv[0] = xstrdup("sweep");
	for (i = 0; i < sw->nr_opt; i++)
		if (sweep_point_value(sw, i, k) != sweep_unset)
			argv[n++] = point_word(sw, i, k);
	r = cli_parse_run((int)n, argv, o, NULL, err);
	if (!r)
		r = check_selector(&o->sc, sw->sel_opt >= 0 &&
				   sw->opt[sw->sel_opt].nr_vals > 1, err);
	if (!r)
		cli_warn_inert((int)n, argv, &o->sc);
	if (r)
		cli_free_run(o);
	for (i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	return r;
}

void sweep_point_desc(const struct sweep *sw, uint64_t k, char *buf,
		       size_t size)
{
	char *words = xstrdup("");
	size_t len = 0;
	unsigned i;

	for (i = 0; i < sw->nr_opt; i++) {
		char *w;

		if (sw->opt[i].nr_vals < 2 ||
		    sweep_point_value(sw, i, k) == sweep_unset)
			continue;
		w = point_word(sw, i, k);
		if (len)
			words_append(&words, &len, " ", 1);
		words_append(&words, &len, w, strlen(w));
		free(w);
	}
	snprintf(buf, size, len ? "sweep point %llu (%s)" : "sweep point %llu%s",
		 (unsigned long long)k, words);
	free(words);
}
