/*
 * scenario-set.c: the command-line overrides (scenario_set): --KEY=VALUE on
 * [multipath], on every path or job, or --path.NAME.KEY=VALUE on one path.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/fio.h"
#include "scenario-int.h"

/* A copy of s without white space at either end, as a file's value. */
static char *trimmed_copy(const char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return memcpy(xcalloc(1, n + 1), s, n);
}

/*
 * A job option scenario-options.c's table does not hold, from the command line
 * (fio_job_option()): tried on fio's defaults first, so that a name fio
 * does not know adds no default job; then set in every job.
 */
static int fio_option_everywhere(struct scenario *sc, const char *key,
				 const char *value, const char *where,
				 char *err)
{
	char why[ERR_MAX], *v = NULL;
	struct job_conf tmp;
	unsigned i;
	int r = 0;

	if (value && fio_expand(value, &v, why))
		return input_error(err, "--%.60s: %s", key, why);
	job_defaults(&tmp);
	r = fio_job_option(&tmp, key, v, where, why);
	for (i = 0; !r && i < sc->nr_jobs; i++)
		r = fio_job_option(&sc->jobs[i], key, v, where, why);
	if (!r && !sc->nr_jobs)
		add_default_job(sc, &tmp);
	if (r && r != -ENOENT)
		input_error(err, "--%s", why);
	free(v);
	return r;
}

/*
 * --path.NAME.KEY=VALUE: one path's value, e.g. --path.sdj.service=exp:2ms,
 * so that every value of a scenario can be overridden (and swept).
 */
static int set_one_path(struct scenario *sc, const char *key,
			const char *value, char *err)
{
	const char *name = key + strlen("path."), *dot = strrchr(name, '.');
	const struct option *o;
	struct target t = { .sc = sc };
	char *v;
	unsigned i;
	int r;

	if (!dot || dot == name || !dot[1])
		return input_error(err, "--" SHOW ": say --path.NAME.KEY=VALUE", key);
	o = find_option(dot + 1, OPT_FILE);
	if (!o || o->sect != SEC_PATH)
		return input_error(err, "--" SHOW ": '" SHOW "' is not a [path] option",
				   key, dot + 1);
	for (i = 0; i < sc->nr_paths; i++)
		if (strlen(sc->paths[i].name) == (size_t)(dot - name) &&
		    !strncmp(sc->paths[i].name, name, (size_t)(dot - name)))
			break;
	if (i == sc->nr_paths)
		return input_error(err, "--" SHOW ": no path '%.*s' in the scenario",
				   key, (int)(dot - name), name);
	t.path = &sc->paths[i];
	t.where = key;
	v = value ? trimmed_copy(value) : NULL;
	r = apply(o, &t, "--", key, v, err);
	free(v);
	return r;
}

int scenario_set(struct scenario *sc, const char *key, const char *value,
		 char *err)
{
	const struct option *o = find_option(key, OPT_FILE);
	struct target t = { .sc = sc };
	char where[ERR_MAX], *v = NULL;
	unsigned i;
	int r = 0;

	snprintf(where, sizeof(where), "--%.60s", key);
	t.where = where;
	if (!strncmp(key, "path.", 5)) {
		r = set_one_path(sc, key, value, err);
		goto out;
	}
	if ((!o && !find_option(key, 0)) ||
	    (o && o->sect == SEC_PATH && !(o->flags & OPT_EVERY_PATH))) {
		r = fio_option_everywhere(sc, key, value, where, err);
		if (r != -ENOENT)
			goto out;
	}
	if (!o) {
		r = input_error(err, "unknown option --" SHOW, key);
		goto out;
	}
	if (o->sect == SEC_PATH && !(o->flags & OPT_EVERY_PATH)) {
		r = input_error(err, "--%s: a [path] option; set it per path "
				"with --path.NAME.%s=VALUE", key, key);
		goto out;
	}
	if (value)
		v = trimmed_copy(value);
	/* fio's ${VAR} and $keywords work on its command line too */
	if (v && o->sect == SEC_JOB) {
		char why[ERR_MAX], *x = NULL;

		r = fio_expand(v, &x, why);
		if (r) {
			input_error(err, "--%.60s: %s", key, why);
			goto out;
		}
		free(v);
		v = x;
	}
	if (o->sect == SEC_MULTIPATH) {
		r = apply(o, &t, "--", key, v, err);
		goto out;
	}
	if (o->sect == SEC_PATH) {
		for (i = 0; i < sc->nr_paths && !r; i++) {
			t.path = &sc->paths[i];
			r = apply(o, &t, "--", key, v, err);
		}
		goto out;
	}
	if (!sc->nr_jobs)
		add_default_job(sc, NULL);
	for (i = 0; i < sc->nr_jobs && !r; i++) {
		t.job = &sc->jobs[i];
		r = apply(o, &t, "--", key, v, err);
	}
out:
	free(v);
	if (r)
		one_line(err);
	return r;
}

