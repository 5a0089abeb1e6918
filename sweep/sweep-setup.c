/*
 * sweep-setup.c: the sweep command line: its own options, the run options
 * and their values and the points they multiply into; then every point
 * resolved (sweep-points.c) and the file's head and rows' prefixes built
 * (sweep-rows.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

/* Options of the sweep itself; the rest are run options. */
static const char *const own_keys[] = {
	"output", "jobs", "list-runs", "slurm", "point", "seed", "reps",
	"format", "output-format",
};

/* Options that change where or how a sweep runs, not what it finds: they
 * stay out of the file's identity (the first line). */
static const char *const placement_keys[] = {
	"output", "jobs", "list-runs", "slurm", "point",
};

/* Run options that have a fixed column (aliases included). */
static const char *const fixed_keys[] = {
	"scenario", "selector", "clock", "mode", "hz", "iodepth", "depth",
	"numjobs", "bs", "blocksize", "rw", "readwrite", "selector_source",
	"selector-source",
};

#define IN(key, list)	str_in_list(key, list, ARRAY_SIZE(list))

/* ---- the command line ---- */

static int option_count(const char *opt, const char *val, uint64_t max,
		       uint64_t *out, char *err)
{
	char *end;

	if (!val || !*val || strchr(val, ','))
		return input_error(err, "%s: takes one whole number", opt);
	*out = strtoull(val, &end, 10);
	if (*end || *val == '-' || *out < 1 || *out > max)
		return input_error(err, "%s: '%s' is not a whole number from 1 to %llu",
				   opt, val, (unsigned long long)max);
	return 0;
}

/* -j N, -jN (also --jobs=N): workers. */
static int parse_jobs(struct sweep *sw, const char *opt, const char *val,
		      char *err)
{
	uint64_t v;
	int r = option_count(opt, val, 4096, &v, err);

	sw->jobs = (unsigned)v;
	return r;
}

/* The --point selection: a list or range of point numbers. */
static int parse_points(struct sweep *sw, const char *val, char *err)
{
	char **items, *end;
	int i, n;

	sw->selected = xcalloc(sw->nr_points, 1);
	if (!val)
		return input_error(err, "--point: needs point numbers (0 to %llu)",
				   (unsigned long long)sw->nr_points - 1);
	n = sweep_values("point", val, true, &items, err);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		uint64_t k = strtoull(items[i], &end, 10);

		if (*end || !*items[i] || items[i][0] == '-') {
			input_error(err, "--point: '%s' is not a point number",
				    items[i]);
			break;
		}
		if (k >= sw->nr_points) {
			input_error(err, "--point: %llu is past the last point "
				    "(this sweep has %llu, 0 to %llu)",
				    (unsigned long long)k,
				    (unsigned long long)sw->nr_points,
				    (unsigned long long)sw->nr_points - 1);
			break;
		}
		if (!sw->selected[k])
			sw->nr_selected++;
		sw->selected[k] = 1;
	}
	sweep_values_free(items, (unsigned)n);
	return i < n ? -EINVAL : 0;
}

/* An option's name as the others spell it, for matching a selector's
 * own option with the option given for all (--depth is --iodepth). */
static const char *canon(const char *key)
{
	static const char *const alias[][2] = {
		{ "depth", "iodepth" }, { "blocksize", "bs" },
		{ "readwrite", "rw" }, { "timeout", "runtime" },
		{ "selector-source", "selector_source" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(alias); i++)
		if (!strcmp(key, alias[i][0]))
			return alias[i][1];
	return key;
}

/* The option named key (or an alias of it), or -1. */
static int find_opt(const struct sweep *sw, const char *key)
{
	unsigned i;

	for (i = 0; i < sw->nr_opt; i++)
		if (!strcmp(canon(sw->opt[i].key), canon(key)))
			return (int)i;
	return -1;
}

/* A run option: its values become a dimension of the sweep. */
static int add_run_opt(struct sweep *sw, const char *key, const char *val,
		       char *err)
{
	struct sweep_opt *o;
	struct sweep_axis *axes = NULL;
	unsigned i, nr_axes = 0;
	char **items;
	int n;

	for (i = 0; i < sw->nr_opt; i++)
		if (!strcmp(sw->opt[i].key, key))
			return input_error(err, "--%s: given twice", key);
	if (!strcmp(key, "selector"))
		n = sweep_selector_values(val, &items, &axes, &nr_axes, err);
	else
		n = sweep_values(key, val, sweep_key_numeric(key), &items, err);
	if (n < 0)
		return n;
	if (axes) {
		sw->axis = axes;
		sw->nr_axis = nr_axes;
	}
	if (!strcmp(key, "selector"))
		sw->sel_opt = (int)sw->nr_opt;
	sw->opt = xrealloc(sw->opt, (sw->nr_opt + 1) * sizeof(*sw->opt));
	o = &sw->opt[sw->nr_opt++];
	memset(o, 0, sizeof(*o));
	o->key = xstrdup(key);
	o->vals = items;
	o->nr_vals = (unsigned)n;
	o->nr_all = (unsigned)n;
	o->column = n > 1 && !IN(key, fixed_keys);
	if (sw->nr_points * (uint64_t)n > SWEEP_MAX_POINTS)
		return input_error(err, "--%s: the sweep would have more than %d "
				   "points", key, SWEEP_MAX_POINTS);
	sw->nr_points *= (uint64_t)n;
	return 0;
}

static int parse_option(struct sweep *sw, const char *name, const char *val,
			const char **point, bool *have_point, char *err)
{
	uint64_t v;

	if (cli_one_line(name, strlen(name), val, err))
		return -EINVAL;
	if (!IN(name, own_keys))
		return add_run_opt(sw, name, val, err);
	if (!strcmp(name, "output")) {
		if (!val || !*val)
			return input_error(err, "--output: needs a file name");
		free(sw->output);
		sw->output = xstrdup(val);
	} else if (!strcmp(name, "jobs")) {
		return parse_jobs(sw, "--jobs", val, err);
	} else if (!strcmp(name, "list-runs")) {
		sw->list_runs = true;
		free(sw->runs_dir);
		sw->runs_dir = val && *val ? xstrdup(val) : NULL;
	} else if (!strcmp(name, "slurm")) {
		sw->slurm = true;
		sw->slurm_tasks = 0;
		if (!val)
			return 0;
		if (option_count("--slurm", val, SWEEP_MAX_POINTS, &v, err))
			return -EINVAL;
		sw->slurm_tasks = (unsigned)v;
	} else if (!strcmp(name, "point")) {
		*point = val;
		*have_point = true;
	} else if (!strcmp(name, "seed")) {
		if (!val || !*val || strchr(val, ',') || strstr(val, ".."))
			return input_error(err, "--seed: takes one value "
					   "(replications: --reps)");
		/* run's rule: past 2^64-1 is refused, not capped */
		return cli_parse_seed(val, &sw->seed, err);
	} else if (!strcmp(name, "reps")) {
		if (option_count("--reps", val, 1000000, &v, err))
			return -EINVAL;
		sw->reps = (unsigned)v;
	} else if (!strcmp(name, "format") || !strcmp(name, "output-format")) {
		/* --output-format is fio's name; json is the one both know */
		if (val && !strcmp(val, "csv") && !strcmp(name, "format"))
			sw->format = FMT_CSV;
		else if (val && !strcmp(val, "json"))
			sw->format = FMT_JSON;
		else
			return input_error(err, "--%s: a sweep writes csv or "
					   "json, not '%s'", name, val ? val : "");
	}
	return 0;
}

/* ---- the selectors' own lists ---- */

/* The index of value v in o's values (NULL, a bare flag, matches NULL),
 * or -1. */
static int value_index(const struct sweep_opt *o, const char *v)
{
	unsigned i;

	for (i = 0; i < o->nr_vals; i++)
		if (o->vals[i] != sweep_unset &&
		    (v && o->vals[i] ? !strcmp(o->vals[i], v) : v == o->vals[i]))
			return (int)i;
	return -1;
}

/* Point c of the full product: does each selector's own list take the
 * value it gives? */
static bool combo_taken(const struct sweep *sw, uint64_t c)
{
	unsigned dig[64], i, s;

	for (i = sw->nr_opt; i-- > 0; ) {
		dig[i] = (unsigned)(c % sw->opt[i].nr_vals);
		c /= sw->opt[i].nr_vals;
	}
	s = dig[sw->sel_opt];
	for (i = 0; i < sw->nr_opt; i++)
		if (sw->opt[i].own &&
		    !sw->opt[i].own[s * sw->opt[i].nr_vals + dig[i]])
			return false;
	return true;
}

/*
 * Give each selector its own lists (--selector=st,hst:clock=jiffies,ktime):
 * an option a selector lists is given to the others as the command line
 * gives it, or not at all (sweep_unset) when only selectors list it (it
 * then varies right after --selector); its values are those for all and
 * every selector's own, and a point is a combination whose selector takes
 * each of its values.  The points are numbered in the order of the full
 * product, the last option varying fastest.
 */
static int apply_axes(struct sweep *sw, char *err)
{
	struct sweep_opt *o;
	const char *sel;
	uint64_t prod = 1, c;
	unsigned a, i, v, s, nsel, pos;
	int oi, n;
	char **items, why[ERR_MAX];

	if (!sw->nr_axis)
		return 0;
	if (sw->nr_opt > 64)
		return input_error(err, "--selector: a selector's own values "
				   "need a sweep of at most 64 options");
	/* the options only selectors give, after --selector */
	pos = (unsigned)sw->sel_opt + 1;
	for (a = 0; a < sw->nr_axis; a++) {
		const char *key = sw->axis[a].key;

		sel = sw->opt[sw->sel_opt].vals[sw->axis[a].sel];
		if (!strcmp(canon(key), "selector") || IN(key, own_keys))
			return input_error(err, "--selector: %s:%s: %s", sel,
					   key, !strcmp(key, "selector") ?
					   "a selector's own values cannot "
					   "name a selector" : "an option of "
					   "the sweep itself, not of a run");
		if (find_opt(sw, key) >= 0)
			continue;
		sw->opt = xrealloc(sw->opt, (sw->nr_opt + 1) * sizeof(*sw->opt));
		memmove(&sw->opt[pos + 1], &sw->opt[pos],
			(sw->nr_opt - pos) * sizeof(*sw->opt));
		sw->nr_opt++;
		o = &sw->opt[pos++];
		memset(o, 0, sizeof(*o));
		o->key = xstrdup(key);
		o->vals = xcalloc(1, sizeof(*o->vals));
		o->vals[0] = sweep_unset;
		o->nr_vals = o->nr_all = 1;
	}
	if (sw->nr_opt > 64)
		return input_error(err, "--selector: a selector's own values "
				   "need a sweep of at most 64 options");
	/* every selector's values join the option's */
	for (a = 0; a < sw->nr_axis; a++) {
		oi = find_opt(sw, sw->axis[a].key);
		o = &sw->opt[oi];
		sel = sw->opt[sw->sel_opt].vals[sw->axis[a].sel];
		n = sweep_values(sw->axis[a].key, sw->axis[a].list,
				 sweep_key_numeric(sw->axis[a].key), &items, why);
		if (n < 0)
			return input_error(err, "--selector: %s: %s", sel, why);
		for (i = 0; i < (unsigned)n; i++) {
			if (value_index(o, items[i]) >= 0) {
				free(items[i]);
				continue;
			}
			o->vals = xrealloc(o->vals, (o->nr_vals + 1) *
					   sizeof(*o->vals));
			o->vals[o->nr_vals++] = items[i];
		}
		free(items);
	}
	/* which values each selector takes */
	nsel = sw->opt[sw->sel_opt].nr_vals;
	for (a = 0; a < sw->nr_axis; a++) {
		o = &sw->opt[find_opt(sw, sw->axis[a].key)];
		if (!o->own) {
			o->own = xcalloc((size_t)nsel * o->nr_vals, 1);
			for (s = 0; s < nsel; s++)
				for (v = 0; v < o->nr_all; v++)
					o->own[s * o->nr_vals + v] = 1;
		}
		s = sw->axis[a].sel;
		memset(o->own + s * o->nr_vals, 0, o->nr_vals);
		n = sweep_values(sw->axis[a].key, sw->axis[a].list,
				 sweep_key_numeric(sw->axis[a].key), &items, why);
		for (i = 0; i < (unsigned)n; i++)
			o->own[s * o->nr_vals + value_index(o, items[i])] = 1;
		sweep_values_free(items, (unsigned)n);
		o->column = o->nr_vals > 1 && !IN(o->key, fixed_keys);
	}
	for (i = 0; i < sw->nr_opt; i++) {
		if (prod * sw->opt[i].nr_vals > SWEEP_MAX_POINTS)
			return input_error(err, "--selector: the sweep would have "
					   "more than %d points", SWEEP_MAX_POINTS);
		prod *= sw->opt[i].nr_vals;
	}
	sw->combo = xcalloc(prod, sizeof(*sw->combo));
	for (c = 0, sw->nr_points = 0; c < prod; c++)
		if (combo_taken(sw, c))
			sw->combo[sw->nr_points++] = c;
	return 0;
}

int sweep_parse(struct sweep *sw, int argc, char **argv, char *err)
{
	const char *point = NULL;
	bool have_point = false;
	size_t cl = 0;
	char **w;
	int i, nw = 1, used, r = 0;

	memset(sw, 0, sizeof(*sw));
	sw->sel_opt = -1;
	sw->seed = 1;
	sw->reps = 1;
	sw->format = FMT_CSV;
	sw->nr_points = 1;
	sw->cmdline = xstrdup("");

	/* -j first: cli_option would take "-j" for the value of a flag */
	w = xcalloc((size_t)argc + 1, sizeof(*w));
	w[0] = argc ? argv[0] : (char *)"sweep";
	for (i = 1; i < argc && !r; i++) {
		if (!strcmp(argv[i], "-j"))
			r = parse_jobs(sw, "-j", i + 1 < argc ? argv[++i] : NULL,
				       err);
		else if (!strncmp(argv[i], "-j", 2))
			r = parse_jobs(sw, "-j", argv[i] + 2, err);
		else
			w[nw++] = argv[i];
	}
	for (i = 1; i < nw && !r; i += used) {
		const char *key, *val;
		char name[64], *word;
		size_t klen;

		used = cli_option(nw, w, i, &key, &klen, &val, err);
		if (used < 0) {
			r = used;
			break;
		}
		if (!klen || klen >= sizeof(name)) {
			r = input_error(err, "unexpected argument '%s'", w[i]);
			break;
		}
		memcpy(name, key, klen);
		name[klen] = '\0';
		r = parse_option(sw, name, val, &point, &have_point, err);
		if (r || IN(name, placement_keys))
			continue;
		/* the identity: every other option, as --key=value */
		word = sweep_option_word(strcmp(name, "output-format") ? name :
				   "format", val);
		if (cl)
			words_append(&sw->cmdline, &cl, " ", 1);
		shell_quote(&sw->cmdline, &cl, word);
		free(word);
	}
	free(w);
	if (!r)
		r = apply_axes(sw, err);
	if (r)
		return r;
	r = one_run_refuse("sweep", true, argc, argv, err);
	if (r)
		return r;
	if (have_point)
		return parse_points(sw, point, err);
	sw->selected = xcalloc(sw->nr_points, 1);
	memset(sw->selected, 1, sw->nr_points);
	sw->nr_selected = sw->nr_points;
	return 0;
}

static const struct sweep_paths *intern_paths(struct sweep *sw,
					      const struct scenario *sc)
{
	struct sweep_paths *p;
	unsigned i, j;

	for (i = 0; i < sw->nr_plist; i++) {
		p = sw->plist[i];
		if (p->nr != sc->nr_paths)
			continue;
		for (j = 0; j < p->nr && !strcmp(p->name[j], sc->paths[j].name); j++)
			;
		if (j == p->nr)
			return p;
	}
	p = xcalloc(1, sizeof(*p));
	p->nr = sc->nr_paths;
	p->name = xcalloc(p->nr, sizeof(*p->name));
	for (j = 0; j < p->nr; j++)
		snprintf(p->name[j], sizeof(p->name[j]), "%s", sc->paths[j].name);
	sw->plist = xrealloc(sw->plist, (sw->nr_plist + 1) * sizeof(*sw->plist));
	sw->plist[sw->nr_plist++] = p;
	return p;
}

/*
 * Warnings (a synchronous ioengine capping iodepth, say) would repeat
 * once per point: while the points are checked, stderr goes to a
 * temporary file, and each distinct line is shown once afterwards.
 */
struct warn_capture {
	FILE *tmp;
	int saved;		/* the real stderr */
};

static void capture_begin(struct warn_capture *c)
{
	c->tmp = NULL;
	c->saved = -1;
	if (mpsim_quiet)
		return;
	fflush(stderr);
	c->tmp = tmpfile();
	c->saved = c->tmp ? dup(STDERR_FILENO) : -1;
	if (c->saved < 0 || dup2(fileno(c->tmp), STDERR_FILENO) < 0) {
		if (c->saved >= 0)
			close(c->saved);
		if (c->tmp)
			fclose(c->tmp);
		c->tmp = NULL;
		c->saved = -1;
	}
}

static void capture_end(struct warn_capture *c)
{
	char **seen = NULL, *line = NULL;
	size_t nseen = 0, cap = 0, i;

	if (!c->tmp)
		return;
	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->tmp);
	while (getline(&line, &cap, c->tmp) > 0) {
		for (i = 0; i < nseen && strcmp(seen[i], line); i++)
			;
		if (i < nseen)
			continue;
		fputs(line, stderr);
		seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
		seen[nseen++] = xstrdup(line);
	}
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(line);
	fclose(c->tmp);
}

/* The inputs the first line hashes: the build, then the files read
 * while the points were resolved, in the order first read. */
static void take_inputs(struct sweep *sw)
{
	const struct input_file *f;
	size_t n = inputs_list(&f), i;

	sw->in = xcalloc(n + 1, sizeof(*sw->in));
	sw->in[0].key = xstrdup("mpsim");
	sw->in[0].hash = inputs_build_hash();
	for (i = 0; i < n; i++) {
		sw->in[i + 1].key = xstrdup(f[i].key);
		sw->in[i + 1].hash = f[i].hash;
	}
	sw->nr_in = n + 1;
	inputs_clear();
}

int sweep_prepare(struct sweep *sw, char *err)
{
	struct warn_capture wc;
	char why[ERR_MAX], desc[160];
	struct run_opts o;
	uint64_t k;
	int r = 0;

	sw->pt = xcalloc(sw->nr_points, sizeof(*sw->pt));
	capture_begin(&wc);
	/* every point, also those another command runs (--point): the
	 * inputs of the whole sweep are in every one of its files' heads,
	 * so that the files of its parts merge */
	inputs_clear();
	inputs_record(true);
	for (k = 0; k < sw->nr_points && !r; k++) {
		/* a cause met at many points is said once, with their number */
		mpsim_warn_round(k, sw->nr_points, "sweep points", NULL);
		r = sweep_point_opts(sw, k, &o, why);
		if (r) {
			sweep_point_desc(sw, k, desc, sizeof(desc));
			input_error(err, "%s: %s", desc, why);
			break;
		}
		if (sw->selected[k]) {
			sw->pt[k].prefix = sweep_row_prefix(sw, k, &o);
			sw->pt[k].paths = intern_paths(sw, &o.sc);
			sw->pt[k].ios = run_estimate_ios(&o.sc) * sw->reps;
		}
		cli_free_run(&o);
	}
	mpsim_warn_round(sw->nr_points, sw->nr_points, "sweep points", NULL);
	inputs_record(false);
	capture_end(&wc);
	take_inputs(sw);
	if (!r)
		sweep_head(sw);
	return r;
}

void sweep_free(struct sweep *sw)
{
	uint64_t k;
	unsigned i;

	for (i = 0; i < sw->nr_opt; i++) {
		unsigned v;

		free(sw->opt[i].key);
		for (v = 0; v < sw->opt[i].nr_vals; v++)
			if (sw->opt[i].vals[v] != sweep_unset)
				free(sw->opt[i].vals[v]);
		free(sw->opt[i].vals);
		free(sw->opt[i].own);
	}
	free(sw->opt);
	for (i = 0; i < sw->nr_axis; i++) {
		free(sw->axis[i].key);
		free(sw->axis[i].list);
	}
	free(sw->axis);
	free(sw->combo);
	if (sw->pt)
		for (k = 0; k < sw->nr_points; k++)
			free(sw->pt[k].prefix);
	free(sw->pt);
	for (i = 0; i < sw->nr_plist; i++) {
		free(sw->plist[i]->name);
		free(sw->plist[i]);
	}
	free(sw->plist);
	free(sw->selected);
	free(sw->output);
	free(sw->runs_dir);
	free(sw->cmdline);
	free(sw->head);
	sweep_inputs_free(sw->in, sw->nr_in);
	memset(sw, 0, sizeof(*sw));
}
