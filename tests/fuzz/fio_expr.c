/*
 * fio_expr.c (fuzz target): fio's arithmetic on a job file's values: the
 * expression evaluator alone, then the whole expansion of a value
 * ($pagesize, $ncpus, ${VAR}, an expression with its unit suffix).
 */
#include <stdlib.h>

#include "workloads/fio.h"
#include "tests/fuzz/lib/fuzz.h"

FUZZ_TARGET(fio_expr)
{
	char err[ERR_MAX], *text = fuzz_text(data, size), *out = NULL;
	const char *end;
	int64_t v;

	if (!text)
		return 0;
	fio_expr_eval(text, &v, &end, err);
	if (!fio_expand(text, &out, err))
		free(out);
	free(text);
	return 0;
}
