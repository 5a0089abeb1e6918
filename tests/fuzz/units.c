/*
 * units.c (fuzz target): one option value through every value parser the
 * command line and the files share: sizes, durations, counts, booleans,
 * service-time distributions, and fio's block-size lists.
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/fio.h"
#include "tests/fuzz/lib/fuzz.h"

FUZZ_TARGET(units)
{
	char err[ERR_MAX], *text = fuzz_text(data, size);
	struct job_conf j;
	struct dist d;
	uint64_t u;
	unsigned c;
	sim_ns t;
	bool b;

	if (!text)
		return 0;
	parse_size(text, &u, err);
	parse_bytes(text, &u, err);
	parse_duration(text, 1, &t, err);
	parse_duration(text, NSEC_PER_SEC, &t, err);
	parse_duration(text, 0, &t, err);
	parse_uint(text, &u, err);
	parse_count(text, 1, 65536, &c, err);
	parse_bool(text, &b, err);
	parse_dist(text, &d, err);
	memset(&j, 0, sizeof(j));
	fio_opts_defaults(&j);
	fio_set_bs(&j, text, err);
	fio_set_bsrange(&j, text, err);
	fio_set_bssplit(&j, text, err);
	free(text);
	return 0;
}
