/*
 * fio_job.c (fuzz target): a fio job file's text, as --job=FILE.fio reads
 * it (fio's defaults, job sections, include, ${VAR}, expressions, every
 * fio option's class), its jobs put on the default scenario's paths,
 * validated and, when small, run.
 */
#include <stdlib.h>

#include "tests/fuzz/lib/fuzz.h"

FUZZ_TARGET(fio_job)
{
	struct scenario sc, fj;
	char err[ERR_MAX], *text = fuzz_text(data, size);

	if (!text)
		return 0;
	mpsim_quiet = 1;
	if (!scenario_parse_fio(&fj, text, "fuzz.fio", err)) {
		/* what scenario_load_jobs() does with a file's jobs */
		if (scenario_load_builtin(&sc, "hst-bio-mpath", err))
			abort();
		free(sc.jobs);
		sc.jobs = fj.jobs;
		sc.nr_jobs = fj.nr_jobs;
		fj.jobs = NULL;
		fj.nr_jobs = 0;
		scenario_free(&fj);
		fuzz_run(&sc);
	}
	free(text);
	return 0;
}
