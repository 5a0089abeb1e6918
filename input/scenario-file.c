/*
 * scenario-file.c: a scenario read from its ini text: the sections and their
 * keys in a file, a fio job file (--job), or a built-in scenario.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/fio.h"
#include "lib/ini.h"
#include "selectors/selector.h"
#include "scenario-int.h"
#include "suggest.h"

enum section {
	IN_NONE,
	IN_MULTIPATH,
	IN_PATH,
	IN_GLOBAL,
	IN_JOB,
};

struct parser {
	struct scenario *sc;
	enum section in;		/* the section being read */
	struct job_conf global;		/* fio defaults + [global] so far */
	bool seen_multipath;
	unsigned *path_line;		/* header line of each path */
	bool *has_service;		/* each path has service= */
	unsigned path_cap;		/* room in the two arrays above */
	unsigned job_cap;		/* room in sc->jobs */
	unsigned line;			/* the line being read */
	bool fio;			/* a fio job file (--job): jobs only */
	char where[ERR_MAX];		/* "FILE:LINE" of the line */
	const char *file;		/* FILE of where */
	char job_at[ERR_MAX];		/* "FILE:LINE" of the job section's
					   header */
	char job_guess[64];		/* the section it looks mistyped
					   for ("path sdd"), or "" */
	char sel_at[ERR_MAX];		/* "FILE:LINE" of selector =, or "" */
	char sel[NAME_MAX_LEN];		/* the selector it gave */
};

static bool path_name_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._:+@-", *s))
			return false;
	return true;
}

static int start_path(struct parser *ps, const char *name, unsigned line,
		      char *err)
{
	struct scenario *sc = ps->sc;
	unsigned i, n = sc->nr_paths;

	if (!*name)
		return input_error(err, "a path section needs a name: "
				   "[path NAME]");
	if (strlen(name) >= NAME_MAX_LEN)
		return input_error(err, "path name '" SHOW "...' is longer "
				   "than %d characters", name,
				   NAME_MAX_LEN - 1);
	if (!path_name_ok(name))
		return input_error(err, "path name '" SHOW "' may hold only "
				   "letters, digits and . _ : + @ -", name);
	/* what one run allocates grows with its paths (a latency histogram
	 * of sizeof(struct lat_hist), 59 KiB, each, for every run of a
	 * comparison): refused as the limit is reached */
	if (n == SCENARIO_MAX_PATHS)
		return input_error(err, "more than %u paths, the limit of a "
				   "scenario", SCENARIO_MAX_PATHS);
	for (i = 0; i < n; i++)
		if (!strcmp(sc->paths[i].name, name))
			return input_error(err, "duplicate section [path %s]",
					   name);
	if (n == ps->path_cap) {
		ps->path_cap = n ? 2 * n : 16;
		ps->path_line = xrealloc(ps->path_line, ps->path_cap *
					 sizeof(*ps->path_line));
		ps->has_service = xrealloc(ps->has_service, ps->path_cap *
					   sizeof(*ps->has_service));
	}
	ps->path_line[n] = line;
	ps->has_service[n] = false;
	strcpy(add_path(sc)->name, name);
	ps->in = IN_PATH;
	return 0;
}

/* True when a job other than self is called name. */
static bool job_name_taken(const struct scenario *sc, const char *name,
			   const struct job_conf *self)
{
	unsigned i;

	for (i = 0; i < sc->nr_jobs; i++)
		if (&sc->jobs[i] != self && !strcmp(sc->jobs[i].name, name))
			return true;
	return false;
}

/* Whether key is one of fio's options (mpsim's reader knows it). */
static bool fio_known(const char *key)
{
	const char *a, *h, *w, *x, *n;
	unsigned i;

	for (i = 0; (n = fio_option_doc(i, &a, &h, &w, &x)); i++)
		if (!strcmp(n, key))
			return true;
	return false;
}

/*
 * A section mpsim does not know is a fio job.  One whose name is a typo
 * of a known section ([pth sdd], [mulitpath]) is remembered with the
 * section it was likely meant to be: the first option that a job does
 * not take is then reported at the header, as that typo.
 */
static void guess_section(struct parser *ps, const char *name)
{
	static const char *const known[] = { "multipath", "global" };
	const char *best = NULL, *rest = name + strcspn(name, " \t");
	unsigned d = ~0U;
	char first[64];

	snprintf(ps->job_at, sizeof(ps->job_at), "%s", ps->where);
	ps->job_guess[0] = '\0';
	if (ps->fio)
		return;
	snprintf(first, sizeof(first), "%.*s", (int)(rest - name), name);
	while (isspace((unsigned char)*rest))
		rest++;
	if (*rest) {
		suggest_try(first, "path", &best, &d);
		if (best)
			snprintf(ps->job_guess, sizeof(ps->job_guess),
				 "path %.50s", rest);
	} else if ((best = suggest_word(name, known, ARRAY_SIZE(known)))) {
		snprintf(ps->job_guess, sizeof(ps->job_guess), "%s", best);
	}
}

static int on_section(struct parser *ps, const char *name, unsigned line,
		      char *err)
{
	int r;

	if (ps->fio && (!strcmp(name, "multipath") ||
			(!strncmp(name, "path", 4) &&
			 (!name[4] || isspace((unsigned char)name[4])))))
		return input_error(err, "[" SHOW "] belongs in a scenario "
				   "file, not in a fio job file", name);
	if (!strcmp(name, "multipath")) {
		if (ps->seen_multipath)
			return input_error(err, "duplicate section "
					   "[multipath]");
		ps->seen_multipath = true;
		ps->in = IN_MULTIPATH;
		return 0;
	}
	if (!strcmp(name, "global")) {
		/* fio: a [global] affects only the jobs below it */
		ps->in = IN_GLOBAL;
		return 0;
	}
	if (!strncmp(name, "path", 4) &&
	    (!name[4] || isspace((unsigned char)name[4]))) {
		name += 4;
		while (isspace((unsigned char)*name))
			name++;
		return start_path(ps, name, line, err);
	}

	r = check_job_name(name, err);
	if (r)
		return r;
	guess_section(ps, name);
	/* every section is a clone at least: refused as it is reached,
	 * before the name checks make the parse quadratic */
	if (ps->sc->nr_jobs == MAX_CLONES)
		return input_error(err, "more than %u job sections (each is "
				   "at least one of the %u job clones a run "
				   "may have)", MAX_CLONES, MAX_CLONES);
	if (job_name_taken(ps->sc, name, NULL))
		return input_error(err, "duplicate job section [" SHOW "]",
				   name);
	add_job(ps->sc, &ps->job_cap, &ps->global, name);
	ps->in = IN_JOB;
	return 0;
}

static int on_option(struct parser *ps, const char *key, const char *value,
		     char *err)
{
	static const unsigned sect_of[] = {
		[IN_MULTIPATH] = SEC_MULTIPATH,
		[IN_PATH] = SEC_PATH,
		[IN_GLOBAL] = SEC_JOB,
		[IN_JOB] = SEC_JOB,
	};
	struct scenario *sc = ps->sc;
	struct target t = { .sc = sc };
	const struct option *o;
	int r;

	if (ps->in == IN_NONE)
		return input_error(err, "option '" SHOW "' outside of any "
				   "[section]", key);
	o = find_option(key, OPT_CLI);
	/* fio's own prio is a job option; [path] prio is multipathd's */
	if ((!o || o->sect != SEC_JOB) &&
	    (ps->in == IN_GLOBAL || ps->in == IN_JOB)) {
		/* fio's further options, and those mpsim does not model */
		r = fio_job_option(ps->in == IN_GLOBAL ? &ps->global :
				   &sc->jobs[sc->nr_jobs - 1], key, value,
				   ps->where, err);
		if (r != -ENOENT)
			return r;
	}
	/* a job that was a typo of another section's header: said there */
	if (ps->in == IN_JOB && ps->job_guess[0] &&
	    (!o || o->sect != SEC_JOB)) {
		input_error(err, "%s: [%s] is no section mpsim knows, so it "
			    "was read as a fio job, which takes no " SHOW
			    " (did you mean [%s]?)", ps->job_at,
			    sc->jobs[sc->nr_jobs - 1].name, key, ps->job_guess);
		return -EALREADY;
	}
	if (!o && !value && strchr(key, ':')) {
		/* "service: exp:100us": a YAML habit, or a typo of '=' */
		char head[64];

		snprintf(head, sizeof(head), "%.*s", (int)strcspn(key, ":"), key);
		if (find_option(str_trim(head), OPT_CLI) || fio_known(head))
			return input_error(err, "unknown option '" SHOW "' "
					   "(options are KEY = VALUE: did you "
					   "mean '%s = %.80s'?)", key, head,
					   key + strcspn(key, ":") + 1 +
					   strspn(key + strcspn(key, ":") + 1,
						  " \t"));
	}
	if (!o) {
		const char *m = suggest_option(key);

		if (m)
			return input_error(err, "unknown option '" SHOW "' (did "
					   "you mean %s?)", key, m);
		return input_error(err, "unknown option '" SHOW "'", key);
	}
	if (o->sect != sect_of[ps->in])
		return input_error(err, SHOW ": not an option here (it "
				   "belongs in %s)", key,
				   section_label(o->sect));
	/* fio: the section names each job, whatever [global] says */
	if (ps->in == IN_GLOBAL && (o->flags & OPT_JOB_ONLY) && ps->fio)
		return 0;
	if (ps->in == IN_GLOBAL && (o->flags & OPT_JOB_ONLY))
		return input_error(err, SHOW ": not an option of [global]",
				   key);
	t.where = ps->where;
	t.file = ps->file;

	if (ps->in == IN_PATH)
		t.path = &sc->paths[sc->nr_paths - 1];
	else if (ps->in == IN_GLOBAL)
		t.job = &ps->global;
	else if (ps->in == IN_JOB)
		t.job = &sc->jobs[sc->nr_jobs - 1];
	r = apply(o, &t, "", key, value, err);
	if (r)
		return r;

	if (o->set == set_service)
		ps->has_service[sc->nr_paths - 1] = true;
	if (o->set == set_selector) {
		snprintf(ps->sel_at, sizeof(ps->sel_at), "%s", ps->where);
		snprintf(ps->sel, sizeof(ps->sel), "%s", sc->selector);
	}
	if (o->set == set_fail || o->set == set_reinstate ||
	    o->set == set_message)
		sc->events[sc->nr_events - 1].line = ps->line;
	if (o->set == set_name && job_name_taken(sc, t.job->name, t.job))
		return input_error(err, "name: another job is already named '"
				   SHOW "'", t.job->name);
	return 0;
}

/*
 * Every fail=/reinstate= must name a [path] section: "FILE:LINE: fail:
 * no [path sdx]" for a file's, "--fail: ..." for the command line's.
 */
int check_events(const struct scenario *sc, char *err)
{
	unsigned i, k;

	/* indices, not `events + nr_events`: events is NULL when there are
	 * none, and NULL + 0 is undefined behaviour in C */
	for (k = 0; k < sc->nr_events; k++) {
		const struct path_event *e = &sc->events[k];

		if (e->msg[0])
			continue;	/* checked against the table */
		for (i = 0; i < sc->nr_paths; i++)
			if (!strcmp(sc->paths[i].name, e->path))
				break;
		if (i < sc->nr_paths)
			continue;
		if (e->line)
			return input_error(err, "%s:%u: %s: no [path " SHOW
					   "] in the scenario", sc->name,
					   e->line, e->reinstate ? "reinstate" :
					   "fail", e->path);
		return input_error(err, "--%s: no [path " SHOW "] in %s",
				   e->reinstate ? "reinstate" : "fail",
				   e->path, sc->name);
	}
	return 0;
}

static int on_line(void *ctx, const struct ini_line *l, char *err)
{
	struct parser *ps = ctx;

	ps->line = l->lineno;
	ps->file = l->origin ? l->origin : ps->sc->name;
	snprintf(ps->where, sizeof(ps->where), "%.200s:%u",
		 l->origin ? l->origin : ps->sc->name, l->lineno);
	if (l->section)
		return on_section(ps, l->section, l->lineno, err);
	return on_option(ps, l->key, l->value, err);
}

/*
 * Reads text, or the file `origin` when text is NULL, with fio's reader
 * (include, ${VAR}, $keywords).  A fio job file (fio) holds jobs only,
 * starts from fio's own defaults and must define a job.
 */
static int parse(struct scenario *sc, const char *text, const char *origin,
		 bool fio, char *err)
{
	struct parser ps = { .sc = sc, .fio = fio };
	unsigned i;
	int r;

	scenario_init(sc);
	snprintf(sc->name, sizeof(sc->name), "%s", origin);
	job_defaults(&ps.global);
	if (fio)
		fio_file_defaults(&ps.global);

	r = text ? fio_read_text(text, origin, on_line, &ps, err)
		 : fio_read_file(origin, on_line, &ps, err);
	if (r)
		goto out_fail;
	for (i = 0; i < sc->nr_paths; i++) {
		if (!ps.has_service[i]) {
			r = input_error(err, "%s:%u: [path %s] has no service= "
					"(e.g. service = exp:100us)", origin,
					ps.path_line[i], sc->paths[i].name);
			goto out_fail;
		}
	}
	r = check_events(sc, err);
	if (r)
		goto out_fail;
	/* the file's selector, where the file names it (a kernel file's
	 * selector_source sets its own name, a table its groups') */
	if (ps.sel_at[0] && !sc->selector_source[0] && !sc->table &&
	    !strcmp(sc->selector, ps.sel) && !ps_find(sc->selector)) {
		r = selector_unknown(ps.sel_at, "selector", sc->selector, err);
		goto out_fail;
	}
	if (!sc->nr_jobs && fio) {
		r = input_error(err, "%s: no job section (fio would run "
				"nothing)", origin);
		goto out_fail;
	}
	/* no job sections: one job, fio's defaults as [global] left them */
	if (!sc->nr_jobs)
		add_default_job(sc, &ps.global);
	goto out;

out_fail:
	one_line(err);
	scenario_free(sc);
out:
	free(ps.path_line);
	free(ps.has_service);
	return r;
}

int scenario_parse(struct scenario *sc, const char *text, const char *origin,
		   char *err)
{
	return parse(sc, text, origin, false, err);
}

int scenario_parse_fio(struct scenario *sc, const char *text,
		       const char *origin, char *err)
{
	return parse(sc, text, origin, true, err);
}

static int replace_jobs(struct scenario *sc, const char *text,
			const char *origin, char *err)
{
	struct scenario fj;
	int r;

	r = parse(&fj, text, origin, true, err);
	if (r)
		return r;
	free(sc->jobs);
	sc->jobs = fj.jobs;
	sc->nr_jobs = fj.nr_jobs;
	fj.jobs = NULL;
	fj.nr_jobs = 0;
	scenario_free(&fj);
	return 0;
}

int scenario_load_jobs(struct scenario *sc, const char *path, char *err)
{
	return replace_jobs(sc, NULL, path, err);
}

int scenario_load_job_text(struct scenario *sc, const char *text,
			   const char *origin, char *err)
{
	return replace_jobs(sc, text, origin, err);
}

bool scenario_key_is_job(const char *key)
{
	const struct option *o = find_option(key, 0);

	/* what the table does not hold is fio's, checked when it is read */
	return o ? o->sect == SEC_JOB : strncmp(key, "path.", 5) != 0;
}

int scenario_load_file(struct scenario *sc, const char *path, char *err)
{
	char *buf;
	size_t n;
	int r;

	scenario_init(sc);
	r = read_text_file(path, MAX_FILE, "scenario file", &buf, &n, err);
	if (!r) {
		r = scenario_parse(sc, buf, path, err);
		free(buf);
	}
	if (r)
		one_line(err);
	return r;
}

const char *scenario_builtin_name(unsigned i)
{
	unsigned k;

	for (k = 0; builtin_scenarios[k].name; k++)
		if (k == i)
			return builtin_scenarios[k].name;
	return NULL;
}

const char *scenario_builtin_text(const char *name)
{
	unsigned k;

	for (k = 0; builtin_scenarios[k].name; k++)
		if (!strcmp(builtin_scenarios[k].name, name))
			return builtin_scenarios[k].text;
	return NULL;
}

int scenario_load_builtin(struct scenario *sc, const char *name, char *err)
{
	const char *text = scenario_builtin_text(name);
	char list[ERR_MAX / 2] = "";
	const char *n;
	size_t used = 0;
	unsigned k;

	if (text)
		return scenario_parse(sc, text, name, err);
	scenario_init(sc);
	for (k = 0; (n = scenario_builtin_name(k)); k++) {
		if (used + strlen(n) + 3 > sizeof(list))
			break;
		used += (size_t)sprintf(list + used, "%s%s", k ? ", " : "", n);
	}
	input_error(err, "unknown scenario '" SHOW "' (built in: %s)", name,
		    list);
	one_line(err);
	return -EINVAL;
}

