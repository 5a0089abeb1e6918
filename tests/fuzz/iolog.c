/*
 * iolog.c (fuzz target): a fio I/O log (versions 2 and 3), read as
 * --read_iolog=FILE reads it, then replayed by the default scenario's job.
 * The first two bytes choose the replay options, the rest is the log:
 *   byte 0: bit 0 replay_no_stall, bits 1-4 replay_skip (read, write,
 *           trim, sync);
 *   byte 1: replay_time_scale in percent (0: 100, 255: 1000000, fio's
 *           largest).
 */
#include <stdlib.h>

#include "workloads/fio.h"
#include "tests/fuzz/lib/fuzz.h"

#define REPLAY_MAX_ENTRIES	4096	/* longer logs are read, not run */

FUZZ_TARGET(iolog)
{
	char err[ERR_MAX], *text;
	struct scenario sc;
	struct iolog log;
	unsigned i;

	if (size < 2)
		return 0;
	text = fuzz_text(data + 2, size - 2);
	if (!text)
		return 0;
	mpsim_quiet = 1;
	if (iolog_parse(&log, text, "fuzz.log", err))
		goto out;
	if (log.n > REPLAY_MAX_ENTRIES) {
		iolog_free(&log);
		goto out;
	}
	iolog_free(&log);
	if (scenario_load_builtin(&sc, "hst-bio-mpath", err) ||
	    scenario_set(&sc, "read_iolog", fuzz_file(data + 2, size - 2), err))
		abort();
	for (i = 0; i < sc.nr_jobs; i++) {
		sc.jobs[i].replay_no_stall = data[0] & 1;
		sc.jobs[i].replay_skip = (data[0] >> 1) & 0xf;
		sc.jobs[i].replay_time_scale = data[1] == 0 ? 100 :
					       data[1] == 255 ? 1000000 : data[1];
	}
	fuzz_run(&sc);
out:
	free(text);
	return 0;
}
