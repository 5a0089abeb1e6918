/*
 * trace-lines.c: short runs with their decision trace, and the checks
 * of its lines, for the Criterion tests that follow the multipath device
 * record by record (test_mpath.c, test_pgroup.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lib/text-file.h"
#include "sim/run.h"
#include "sim/trace.h"
#include "input/scenario.h"
#include "input/table.h"
#include "tests/trace-lines.h"

/* The scenario text with the KEY, VALUE pairs of opts set on top. */
static void scenario_of(struct scenario *sc, const char *text,
			const char *const *opts)
{
	char err[ERR_MAX] = "";

	mpsim_quiet = 1;
	cr_assert_eq(scenario_parse(sc, text, "t.ini", err), 0, "%s", err);
	for (; opts && opts[0]; opts += 2)
		cr_assert_eq(scenario_set(sc, opts[0], opts[1], err), 0,
			     "%s=%s: %s", opts[0], opts[1], err);
	cr_assert_eq(scenario_validate(sc, err), 0, "%s", err);
}

void trace_plain(const char *text, const char *const *opts,
		 struct run_result *r)
{
	char err[ERR_MAX] = "";
	struct scenario sc;

	scenario_of(&sc, text, opts);
	cr_assert_eq(run_scenario(&sc, 1, r, err), 0, "%s", err);
	scenario_free(&sc);
}

char *trace_run(const char *text, const char *const *opts,
		struct run_result *r)
{
	char file[] = "/tmp/mpsim-trace-XXXXXX", err[ERR_MAX] = "";
	struct trace_conf tc;
	struct scenario sc;
	char *buf;
	size_t n;
	int fd;

	scenario_of(&sc, text, opts);
	fd = mkstemp(file);
	cr_assert_geq(fd, 0);
	close(fd);
	memset(&tc, 0, sizeof(tc));
	tc.file = file;
	tc.text = true;
	tc.from_set = true;	/* from the start, ramp or not */
	tc.until = UINT64_MAX;
	cr_assert_eq(run_scenario_traced(&sc, 1, &tc, r, err), 0, "%s", err);
	scenario_free(&sc);
	/* a short run's trace: far under the reader's limit */
	cr_assert_eq(read_text_file(file, (size_t)64 << 20, "trace", &buf, &n,
				    err), 0, "%s", err);
	unlink(file);
	return buf;
}

/* Where the whole line `line` is in the trace t, from `from` on; NULL
 * when it is not. */
const char *trace_find_line(const char *t, const char *from,
			    const char *line)
{
	size_t n = strlen(line);
	const char *p = from ? from : t;

	while ((p = strstr(p, line))) {
		if ((p == t || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return p;
		p++;
	}
	return NULL;
}

/* How many times `word` is in t. */
unsigned trace_count(const char *t, const char *word)
{
	const char *p = t;
	unsigned n = 0;

	while ((p = strstr(p, word))) {
		n++;
		p++;
	}
	return n;
}

/* Every line of want is in t, in this order. */
void trace_in_order(const char *t, const char *const *want)
{
	const char *at = t;

	for (; *want; want++) {
		const char *p = trace_find_line(t, at, *want);

		cr_assert(p, "no line '%s' after the one before in:\n%s",
			  *want, t);
		at = p + 1;
	}
}

void trace_expect(const char *text, const char *const *opts,
		  const char *const *want)
{
	struct run_result r;
	char *t = trace_run(text, opts, &r);

	trace_in_order(t, want);
	run_result_free(&r);
	free(t);
}
