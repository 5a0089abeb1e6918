/*
 * scenario.c (fuzz target): a scenario file's text, as --scenario=FILE
 * reads it (ini, fio's include and ${VAR}, every option's value parser),
 * then validated and, when small, run.
 */
#include <stdlib.h>

#include "tests/fuzz/lib/fuzz.h"

FUZZ_TARGET(scenario)
{
	struct scenario sc;
	char err[ERR_MAX], *text = fuzz_text(data, size);

	if (!text)
		return 0;
	mpsim_quiet = 1;
	if (!scenario_parse(&sc, text, "fuzz.ini", err))
		fuzz_run(&sc);
	free(text);
	return 0;
}
