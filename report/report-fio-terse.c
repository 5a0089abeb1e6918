/*
 * report-fio-terse.c: a run as fio 3.33's terse lines (--minimal,
 * --output-format=terse; stat.c's show_thread_status_terse_all and
 * show_ddir_status_terse): one line per report unit, its fields ';'
 * apart in fio's order, versions 2 to 5 (fio's default is 3).  Latencies
 * are in µs, bandwidth in KiB/s, sizes in KiB, as fio's; the fields mpsim
 * cannot fill are 0 (docs/outputs.md).
 */
#include "report-fio.h"

/* One latency's min, max, mean and deviation, in µs (fio divides). */
static void lat_terse(FILE *f, const struct fio_stat *st)
{
	uint64_t min, max;
	double mean, dev;

	if (fio_stat_calc(st, &min, &max, &mean, &dev))
		fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(min / 1000),
			(unsigned long long)(max / 1000), mean / 1000,
			dev / 1000);
	else
		fputs(";0;0;0.000000;0.000000", f);
}

static void ddir_terse(FILE *f, const struct fio_report *fr,
		       const struct fio_unit *u, unsigned d, unsigned ver)
{
	const struct lat_hist *h = fio_unit_hist(u, d);
	uint64_t runt = u->runtime_ms[d], min, max;
	double mean, dev;
	unsigned i;

	fprintf(f, ";%llu;%llu;%llu;%llu",
		(unsigned long long)(u->bytes[d] >> 10),
		(unsigned long long)(runt ? 1000 * u->bytes[d] / runt / 1024 : 0),
		(unsigned long long)(runt ? 1000 * u->ios[d] / runt : 0),
		(unsigned long long)runt);
	fputs(";0;0;0.000000;0.000000", f);	/* slat: not modelled */
	lat_terse(f, &u->lat[d]);
	/* clat percentiles, in µs, in fio's 20 slots; with no sample
	 * fio's list still stands, each 0 */
	for (i = 0; i < FIO_PCT_MAX; i++) {
		if (i >= u->npct)
			fputs(";0%=0", f);
		else
			fprintf(f, ";%f%%=%llu", u->pct[i], (unsigned long long)
				(fio_percentile(h, u->pct[i]) / 1000));
	}
	lat_terse(f, &u->lat[d]);
	if (fio_stat_calc(&u->bw[d], &min, &max, &mean, &dev)) {
		uint64_t agg = fr->agg[u->jr->group][d];
		double p = 100.0;

		/* show_ddir_status_terse() divides agg by 1024 as an
		 * integer; below 1 KiB/s fio's share is infinite, 100 % */
		if (agg >= 1024) {
			p = mean * 100 / (double)(agg / 1024);
			if (p > 100.0)
				p = 100.0;
		}
		fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)min,
			(unsigned long long)max, p, mean, dev);
	} else {
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
	}
	if (ver != 5)
		return;
	fprintf(f, ";%llu", (unsigned long long)u->bw[d].samples);
	if (fio_stat_calc(&u->iops[d], &min, &max, &mean, &dev))
		fprintf(f, ";%llu;%llu;%f;%f;%llu", (unsigned long long)min,
			(unsigned long long)max, mean, dev,
			(unsigned long long)u->iops[d].samples);
	else
		fputs(";0;0;0.000000;0.000000;0", f);
}

static void unit_terse(FILE *f, const struct fio_report *fr,
		       const struct fio_unit *u, unsigned ver)
{
	uint64_t ntotal = 0, total = u->ios[DDIR_READ] + u->ios[DDIR_WRITE] +
				     u->ios[DDIR_TRIM];
	double lat_u[FIO_LAT_U_NR], lat_m[FIO_LAT_M_NR];
	unsigned i;

	if (ver == 2)
		fprintf(f, "2;%s;%u;0", u->jr->name, u->jr->group);
	else
		fprintf(f, "%u;%s;%s;%u;0", ver, FIO_VERSION, u->jr->name,
			u->jr->group);
	ddir_terse(f, fr, u, DDIR_READ, ver);
	ddir_terse(f, fr, u, DDIR_WRITE, ver);
	if (ver == 2 || ver == 4 || ver == 5)
		ddir_terse(f, fr, u, DDIR_TRIM, ver);
	/* CPU, context switches and faults, then the I/O depths: not
	 * modelled */
	fputs(";0.000000%;0.000000%;0;0;0", f);
	for (i = 0; i < 7; i++)
		fputs(";0.0%", f);
	/* stat_calc_lat_nu(): the ns bins join the first µs bin */
	fio_lat_dist(u, u->lat_u, FIO_LAT_U_NR, lat_u);
	for (i = 0; i < FIO_LAT_N_NR; i++)
		ntotal += u->lat_n[i];
	if (total)
		lat_u[0] += 100.0 * (double)ntotal / (double)total;
	fio_lat_dist(u, u->lat_m, FIO_LAT_M_NR, lat_m);
	for (i = 0; i < FIO_LAT_U_NR; i++)
		fprintf(f, ";%3.2f%%", lat_u[i]);
	for (i = 0; i < FIO_LAT_M_NR; i++)
		fprintf(f, ";%3.2f%%", lat_m[i]);
	/* version 3 on: every disk's line, on each job's */
	for (i = 0; ver >= 3 && i < fr->r->nr_paths; i++) {
		const struct fio_disk *k = &fr->disk[i];

		fprintf(f, ";%s;%llu;%llu;0;0;%llu;%llu;%llu;%3.2f%%", k->name,
			(unsigned long long)k->ios[0],
			(unsigned long long)k->ios[1],
			(unsigned long long)k->ticks[0],
			(unsigned long long)k->ticks[1],
			(unsigned long long)k->in_queue, k->util);
	}
	fputc('\n', f);
}

void fio_terse(FILE *f, const struct fio_report *fr, unsigned version)
{
	unsigned i;

	for (i = 0; i < fr->r->nr_jobs; i++)
		unit_terse(f, fr, &fr->unit[i], version);
}
