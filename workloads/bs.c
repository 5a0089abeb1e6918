/*
 * bs.c: the block size of a job's next I/O: fixed, a range (bsrange), or
 * a weighted split (bssplit, drawn with GSL's discrete sampler).
 */
#include "job.h"

/* The directions a rw mode issues, as a bit mask of 1 << fio_ddir. */
static unsigned rw_dirs(enum rw_mode rw)
{
	switch (rw) {
	case RW_READ:
	case RW_RANDREAD:
		return 1U << DDIR_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return 1U << DDIR_WRITE;
	case RW_TRIM:
	case RW_RANDTRIM:
		return 1U << DDIR_TRIM;
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		return 1U << DDIR_TRIM | 1U << DDIR_WRITE;
	default:
		return 1U << DDIR_READ | 1U << DDIR_WRITE;
	}
}

uint32_t bs_fixed(const struct job_conf *c)
{
	unsigned dirs = rw_dirs(c->rw), d;
	uint32_t bs = 0;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct bs_conf *b = &c->bsd[d];

		if (!(dirs & 1U << d))
			continue;
		if (b->nr_split || b->min != b->max || (bs && bs != b->min))
			return 0;
		bs = b->min;
	}
	return bs;
}

void bs_setup(struct job_flow *f, const struct job_conf *c)
{
	unsigned d, i;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct bs_conf *b = &c->bsd[d];
		double w[BSSPLIT_MAX];

		if (!b->nr_split)
			continue;
		for (i = 0; i < b->nr_split; i++)
			w[i] = b->split_perc[i];
		f->split[d] = gsl_ran_discrete_preproc(b->nr_split, w);
	}
}

void bs_teardown(struct job_flow *f)
{
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (f->split[d])
			gsl_ran_discrete_free(f->split[d]);
		f->split[d] = NULL;
	}
}

uint32_t bs_draw(const struct job *j, unsigned d)
{
	const struct bs_conf *b = &j->conf->bsd[d];
	uint64_t steps;

	if (j->flow->split[d])
		return b->split_bs[gsl_ran_discrete(j->rng, j->flow->split[d])];
	if (b->min == b->max)
		return b->min;
	/* bsrange: min, 2 min, ... up to max (fio aligns to the minimum) */
	steps = (uint64_t)(b->max / b->min);
	return b->min * (uint32_t)(1 + gsl_rng_uniform_int(j->rng, steps));
}

/* The mean size of one direction's I/Os, as bs_draw() draws them. */
static double bs_mean_dir(const struct bs_conf *b)
{
	double sum = 0, w = 0;
	unsigned i;

	if (b->nr_split) {
		for (i = 0; i < b->nr_split; i++) {
			sum += (double)b->split_perc[i] * b->split_bs[i];
			w += b->split_perc[i];
		}
		return w > 0 ? sum / w : 0;
	}
	/* bsrange: min, 2 min, ..., (max / min) min, evenly */
	return (double)b->min * (1.0 + (double)(b->max / b->min)) / 2.0;
}

double bs_mean(const struct job_conf *c)
{
	double r = c->rwmixread / 100.0;

	switch (c->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return bs_mean_dir(&c->bsd[DDIR_READ]);
	case RW_WRITE:
	case RW_RANDWRITE:
		return bs_mean_dir(&c->bsd[DDIR_WRITE]);
	case RW_TRIM:
	case RW_RANDTRIM:
	/* trimwrite writes each block it trims: the trims' sizes twice */
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		return bs_mean_dir(&c->bsd[DDIR_TRIM]);
	default:
		return r * bs_mean_dir(&c->bsd[DDIR_READ]) +
		       (1 - r) * bs_mean_dir(&c->bsd[DDIR_WRITE]);
	}
}
