/*
 * merge.c: `mpsim merge`, which joins the per-point files of a sweep run
 * elsewhere (see --list-runs) into the file the sweep itself would have
 * written, byte for byte.  An --output that already holds points of the
 * same sweep keeps them; one that holds anything else is refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lib/safe-file.h"
#include "sweep.h"

struct input {
	const char *name;
	char *buf;		/* the whole file */
	size_t n;
	char version[32];	/* mpsim that wrote it */
	char *cmdline;		/* the sweep's options, from its first line */
};

/* A one-line message about bad input; returns EXIT_BAD_INPUT. */
static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mpsim_error("merge: %s", msg);
	return EXIT_BAD_INPUT;
}

/* The --scenario of a sweep's options ("" for the built-in default). */
static char *scenario_of(const char *cmdline)
{
	char **w, *s = NULL;
	int n, i;

	n = shell_split(cmdline, &w);
	for (i = 0; i < n; i++) {
		if (!s && !strncmp(w[i], "--scenario=", 11))
			s = xstrdup(w[i] + 11);
		free(w[i]);
	}
	if (n > 0)
		free(w);
	return s ? s : xstrdup("");
}

/* Why two inputs cannot be merged (their first lines differ). */
static int mismatch(const struct input *a, const struct input *b)
{
	char *sa, *sb;
	int rc;

	if (strcmp(a->version, b->version))
		return bad("%s was written by mpsim %s, %s by mpsim %s", a->name,
			   a->version, b->name, b->version);
	sa = scenario_of(a->cmdline);
	sb = scenario_of(b->cmdline);
	if (strcmp(sa, sb))
		rc = bad("%s and %s are from different scenarios (%s, %s)",
			 a->name, b->name, *sa ? sa : "the default",
			 *sb ? sb : "the default");
	else
		rc = bad("%s and %s are from different sweeps (their first "
			 "lines differ)", a->name, b->name);
	free(sa);
	free(sb);
	return rc;
}

/* The sweep that wrote the inputs, rebuilt from its options. */
static int rebuild(struct sweep *sw, const struct input *in, char *err)
{
	char **w, **argv;
	int n, i, r;

	n = shell_split(in->cmdline, &w);
	if (n < 0)
		return input_error(err, "%s: its first line does not parse",
				   in->name);
	argv = xcalloc((size_t)n + 2, sizeof(*argv));
	argv[0] = xstrdup("sweep");
	for (i = 0; i < n; i++)
		argv[i + 1] = w[i];
	r = sweep_parse(sw, n + 1, argv, err);
	if (!r)
		r = sweep_prepare(sw, err);
	for (i = 0; i <= n; i++)
		free(argv[i]);
	free(argv);
	if (n > 0)
		free(w);
	return r;
}

/* "3, 7, 12, ..." : the first few missing points, for the message. */
static void missing_list(const struct sweep *sw, const uint32_t *len,
			 char *buf, size_t size)
{
	size_t n = 0;
	uint64_t k, shown = 0;

	buf[0] = '\0';
	for (k = 0; k < sw->nr_points && n + 24 < size; k++) {
		if (len[k])
			continue;
		if (shown++ == 8) {
			snprintf(buf + n, size - n, ", ...");
			return;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%llu", n ? ", " : "",
				      (unsigned long long)k);
	}
}

int cmd_merge(int argc, char **argv)
{
	struct input *in = xcalloc((size_t)argc + 1, sizeof(*in));
	const char *output = NULL, **blk = NULL;
	struct input out = { 0 };
	struct safe_file sf = { .fd = -1, .lock = -1 };
	struct sweep sw = { 0 };
	uint32_t *len = NULL;
	size_t *src = NULL;
	char err[ERR_MAX], list[160];
	int nin = 0, i, r, rc = EXIT_BAD_INPUT;
	uint64_t k, have = 0;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		help_merge(stdout);
		free(in);
		return EXIT_OK;
	}
	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--output=", 9)) {
			output = argv[i] + 9;
		} else if (!strcmp(argv[i], "--output") && i + 1 < argc) {
			output = argv[++i];
		} else if (!strncmp(argv[i], "--", 2)) {
			/* as every command: the close match, or the command
			 * the option belongs to */
			char name[64];

			snprintf(name, sizeof(name), "%.*s",
				 (int)strcspn(argv[i] + 2, "="), argv[i] + 2);
			ref_unknown_option(name, CMD_MERGE, err);
			bad("%s", err);
			goto out;
		} else {
			in[nin++].name = argv[i];
		}
	}
	if (!output || !*output || !nin) {
		bad("usage: mpsim merge --output=FILE FILE...");
		goto out;
	}
	if (safe_check(output, err)) {
		bad("%s", err);
		goto out;
	}
	for (i = 0; i < nin; i++) {
		if (read_text_file(in[i].name, SWEEP_FILE_MAX,
				   "sweep result file", &in[i].buf, &in[i].n,
				   err)) {
			bad("%s", err);
			goto out;
		}
		if (sweep_head_parse(in[i].buf, in[i].n, in[i].version,
				     sizeof(in[i].version), &in[i].cmdline)) {
			bad("%s: not a result file of mpsim sweep", in[i].name);
			goto out;
		}
		if (i && (strcmp(in[i].version, in[0].version) ||
			  strcmp(in[i].cmdline, in[0].cmdline))) {
			mismatch(&in[0], &in[i]);
			goto out;
		}
	}
	if (strcmp(in[0].version, MPSIM_VERSION)) {
		bad("%s was written by mpsim %s; this is mpsim %s", in[0].name,
		    in[0].version, MPSIM_VERSION);
		goto out;
	}
	if (rebuild(&sw, &in[0], err)) {
		bad("the sweep of %s: %s", in[0].name, err);
		goto out;
	}

	blk = xcalloc(sw.nr_points, sizeof(*blk));
	len = xcalloc(sw.nr_points, sizeof(*len));
	src = xcalloc(sw.nr_points, sizeof(*src));
	for (i = 0; i < nin; i++) {
		struct sweep_block *b;
		size_t valid, j;
		long nb;

		nb = sweep_scan(&sw, in[i].name, in[i].buf, in[i].n, &b, &valid,
				err);
		if (nb < 0) {
			bad("%s", err);
			goto out;
		}
		if (valid < in[i].n && !mpsim_quiet)
			mpsim_error("merge: %s: ignoring %zu bytes of an "
				    "unfinished point at its end", in[i].name,
				    in[i].n - valid);
		for (j = 0; j < (size_t)nb; j++) {
			const char *p = in[i].buf + b[j].off;

			k = b[j].point;
			if (len[k] && (len[k] != b[j].len ||
				       memcmp(blk[k], p, len[k]))) {
				free(b);
				bad("point %llu differs between %s and %s",
				    (unsigned long long)k, in[src[k]].name,
				    in[i].name);
				goto out;
			}
			if (!len[k])
				have++;
			blk[k] = p;
			len[k] = (uint32_t)b[j].len;
			src[k] = (size_t)i;
		}
		free(b);
	}
	/* the output, locked from here to its rename: no sweep writes it
	 * meanwhile (one that holds it now: a run-time condition) */
	r = safe_create(&sf, output, SAFE_MAY_BE_INPUT, err);
	if (r) {
		if (r == -EINVAL)
			bad("%s", err);
		else
			mpsim_error("merge: %s", err);
		rc = r == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED;
		goto out;
	}
	/* the output itself: refused if it holds another sweep (as the
	 * sweep refuses it); the points of this sweep it holds are kept */
	out.name = output;
	if (out_descriptor(output) < 0 && !access(output, F_OK) &&
	    read_text_file(output, SWEEP_FILE_MAX, "sweep result file",
			   &out.buf, &out.n, err)) {
		bad("%s", err);
		goto out;
	}
	if (out.n) {
		struct sweep_block *b;
		size_t valid, j;
		long nb;

		nb = sweep_scan(&sw, output, out.buf, out.n, &b, &valid, err);
		if (nb < 0) {
			bad("%s", err);
			goto out;
		}
		for (j = 0; j < (size_t)nb; j++) {
			k = b[j].point;
			if (len[k])
				continue;	/* the inputs agree with it or win */
			blk[k] = out.buf + b[j].off;
			len[k] = (uint32_t)b[j].len;
			have++;
		}
		free(b);
	}
	if (sweep_write_sorted(&sf, output, &sw, blk, len, err)) {
		mpsim_error("merge: %s", err);
		rc = EXIT_FAILED;
		goto out;
	}
	rc = EXIT_OK;
	if (have < sw.nr_points) {
		missing_list(&sw, len, list, sizeof(list));
		mpsim_error("merge: %s holds %llu of %llu points (missing %s); "
			    "the sweep's own command with --output=%s runs the "
			    "rest", output, (unsigned long long)have,
			    (unsigned long long)sw.nr_points, list, output);
		rc = EXIT_FAILED;
	}
out:
	safe_abort(&sf);	/* (nothing left once committed) */
	for (i = 0; i < nin; i++) {
		free(in[i].buf);
		free(in[i].cmdline);
	}
	free(in);
	free(out.buf);
	free(blk);
	free(len);
	free(src);
	sweep_free(&sw);
	return rc;
}
