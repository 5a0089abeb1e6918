/*
 * trace-lines.h: short runs with their text trace, and the checks of its
 * lines (tests/trace-lines.c).
 */
#ifndef MPSIM_TESTS_TRACE_LINES_H
#define MPSIM_TESTS_TRACE_LINES_H

struct run_result;

/* Run the scenario text, with the KEY, VALUE pairs of opts (NULL ended,
 * or NULL) set on top: its text trace from the start (to free). */
char *trace_run(const char *text, const char *const *opts,
		struct run_result *r);
/* The same run without a trace. */
void trace_plain(const char *text, const char *const *opts,
		 struct run_result *r);
/* Where the whole line `line` is in t, from `from` (NULL: t) on; NULL
 * when it is not. */
const char *trace_find_line(const char *t, const char *from,
			    const char *line);
/* How many times `word` is in t. */
unsigned trace_count(const char *t, const char *word);
/* Every line of want (NULL ended) is in t, in this order. */
void trace_in_order(const char *t, const char *const *want);
/* Run text with opts (trace_run) and check want in its trace in order. */
void trace_expect(const char *text, const char *const *opts,
		  const char *const *want);

#endif
