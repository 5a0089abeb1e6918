/*
 * report-fio-log.c: fio's per-interval logs of a run (write_bw_log=,
 * write_iops_log=, write_lat_log=, log_avg_msec=, per_job_logs=), named
 * and written as fio 3.33 names and writes them (init.c's gen_log_name,
 * iolog.c's flush_samples): PREFIX_bw.N.log, PREFIX_iops.N.log,
 * PREFIX_lat.N.log, PREFIX_clat.N.log and PREFIX_slat.N.log for job
 * clone N (from 1, over every job), a line per sample:
 *
 *   time (ms since the clone's start), value, direction (0 read, 1 write,
 *   2 trim), block size (bytes), priority flag (0)
 *
 * With log_avg_msec=0 (fio's default) a line per I/O: the latency in ns
 * (lat, clat), the I/O's bandwidth bytes * 10^6 / latency (bw), 1
 * (iops).  With log_avg_msec=M a line per M ms and direction: the mean
 * latency of the window (block size 0), the bandwidth in KiB/s and the
 * I/Os per second of the period (block size 0, as fio's averaged
 * lines).  mpsim has no submission latency: the slat log is empty, as
 * fio's of a synchronous engine.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sim/fiostat.h"

/* What one file holds: these logs of these clones, in order. */
enum { LK_LAT, LK_SLAT, LK_CLAT, LK_BW, LK_IOPS, LK_NR };
static const char *const kind_name[LK_NR] = {	/* ORDER: LK_* */
	"lat", "slat", "clat", "bw", "iops",
};

struct fio_log_src {
	unsigned clone, kind;
};

static enum fio_log kind_log(unsigned k)
{
	return k == LK_BW ? FIO_LOG_BW : k == LK_IOPS ? FIO_LOG_IOPS :
	       FIO_LOG_LAT;
}

static void add_src(struct fio_logfile **files, unsigned *n, char *name,
		    unsigned clone, unsigned kind)
{
	struct fio_logfile *lf = NULL;
	unsigned i;

	/* per_job_logs=0: clones of one prefix share the file */
	for (i = 0; i < *n; i++)
		if (!strcmp((*files)[i].name, name)) {
			lf = &(*files)[i];
			free(name);
			break;
		}
	if (!lf) {
		*files = xrealloc(*files, (*n + 1) * sizeof(**files));
		lf = &(*files)[(*n)++];
		memset(lf, 0, sizeof(*lf));
		lf->name = name;
		lf->option = kind == LK_BW ? "write_bw_log" :
			     kind == LK_IOPS ? "write_iops_log" :
			     "write_lat_log";
	}
	lf->src = xrealloc(lf->src, (lf->nsrc + 1) * sizeof(*lf->src));
	lf->src[lf->nsrc].clone = clone;
	lf->src[lf->nsrc].kind = kind;
	lf->nsrc++;
}

unsigned fio_log_names(const struct scenario *sc, struct fio_logfile **files)
{
	unsigned i, k, kind, n = 0, clone = 0;

	*files = NULL;
	for (i = 0; i < sc->nr_jobs; i++) {
		const struct job_conf *c = &sc->jobs[i];

		for (k = 0; k < c->numjobs; k++, clone++)
			/* init.c's order: lat, slat, clat, then bw, iops */
			for (kind = 0; kind < LK_NR; kind++) {
				enum fio_log l = kind_log(kind);
				const char *pre = c->log_prefix[l][0] ?
					c->log_prefix[l] : c->name;
				size_t len = strlen(pre) + 32;
				char *name;

				if (!c->log_set[l])
					continue;
				name = xmalloc(len);
				if (c->per_job_logs)
					snprintf(name, len, "%s_%s.%u.log", pre,
						 kind_name[kind], clone + 1);
				else
					snprintf(name, len, "%s_%s.log", pre,
						 kind_name[kind]);
				add_src(files, &n, name, clone, kind);
			}
	}
	return n;
}

static void line(FILE *f, uint64_t ms, uint64_t value, unsigned ddir,
		 uint64_t bs)
{
	/* flush_samples(): "%lu, %" PRId64 ", %u, %llu, %u\n" */
	fprintf(f, "%llu, %llu, %u, %llu, 0\n", (unsigned long long)ms,
		(unsigned long long)value, ddir, (unsigned long long)bs);
}

/* A periodic sample's line: written through fio's averaging window,
 * which writes no block size (__add_stat_to_log). */
static void period_line(void *ctx, uint64_t t_ms, uint64_t value,
			unsigned ddir)
{
	line(ctx, t_ms, value, ddir, 0);
}

static void clone_log(FILE *f, const struct fio_clone *fc, unsigned kind)
{
	uint64_t i;

	if (kind == LK_SLAT)
		return;
	if ((kind == LK_LAT || kind == LK_CLAT) && fc->avg_ms) {
		for (i = 0; i < fc->navg; i++)
			line(f, fc->avg[i].t_ms, fc->avg[i].value,
			     fc->avg[i].ddir, 0);
		return;
	}
	if ((kind == LK_BW && fc->bw_ms) || (kind == LK_IOPS && fc->iops_ms)) {
		fio_clone_periods(fc, kind == LK_BW, period_line, f);
		return;
	}
	for (i = 0; i < fc->nio; i++) {
		const struct fio_io *io = &fc->io[i];
		uint64_t v = kind == LK_BW ? fio_io_bw(io->bytes, io->lat) :
			     kind == LK_IOPS ? 1 : io->lat;

		line(f, (io->end - fc->epoch) / NSEC_PER_MSEC, v, io->ddir,
		     io->bytes);
	}
}

void fio_logs_fill(struct fio_logfile *files, unsigned n,
		   const struct run_result *r)
{
	unsigned i, s;

	for (i = 0; i < n; i++) {
		struct fio_logfile *lf = &files[i];
		FILE *f = open_memstream(&lf->text, &lf->len);

		if (!f) {
			perror("mpsim");
			abort();
		}
		for (s = 0; s < lf->nsrc; s++) {
			const struct fio_clone *fc = &r->clone[lf->src[s].clone];

			clone_log(f, fc, lf->src[s].kind);
		}
		fclose(f);
	}
}

void fio_logs_free(struct fio_logfile *files, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		free(files[i].name);
		free(files[i].text);
		free(files[i].src);
	}
	free(files);
}
