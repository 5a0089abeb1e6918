/*
 * ci.c: the mean of a point's replications and the half-width of its 95%
 * confidence interval, from Student's t (the replications are few).
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sweep.h"

size_t ci95(const double *x, size_t n, double *mean, double *half)
{
	if (!n)
		return 0;
	*mean = gsl_stats_mean(x, 1, n);
	if (n < 2)
		return n;
	*half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) *
		gsl_stats_sd(x, 1, n) / sqrt((double)n);
	return n;
}
