/*
 * config.c: the names of the configuration's fio values (modes, engines,
 * directions, as fio prints them) and the rules the engine and the
 * readers share (a synchronous engine's iodepth, an O_SYNC write's flush,
 * a time value's limit).
 */
#include <stdbool.h>

#include "lib/units.h"
#include "lib/util.h"
#include "config.h"

const char *const ioengine_names[IOENGINE_POSIXAIO + 1] = {
	[IOENGINE_PSYNC] = "psync",
	[IOENGINE_SYNC] = "sync",
	[IOENGINE_PVSYNC] = "pvsync",
	[IOENGINE_PVSYNC2] = "pvsync2",
	[IOENGINE_VSYNC] = "vsync",
	[IOENGINE_LIBAIO] = "libaio",
	[IOENGINE_IO_URING] = "io_uring",
	[IOENGINE_POSIXAIO] = "posixaio",
};

const char *ioengine_name(enum ioengine e)
{
	if ((unsigned)e >= ARRAY_SIZE(ioengine_names))
		return "?";
	return ioengine_names[e];
}

static const char *const rw_names[] = {
	[RW_READ] = "read",
	[RW_WRITE] = "write",
	[RW_RANDREAD] = "randread",
	[RW_RANDWRITE] = "randwrite",
	[RW_RW] = "rw",
	[RW_RANDRW] = "randrw",
	[RW_TRIM] = "trim",
	[RW_RANDTRIM] = "randtrim",
	[RW_TRIMWRITE] = "trimwrite",
	[RW_RANDTRIMWRITE] = "randtrimwrite",
};

const char *rw_name(enum rw_mode rw)
{
	return (unsigned)rw < ARRAY_SIZE(rw_names) ? rw_names[rw] : "?";
}

const char *fio_ddir_name(unsigned d)
{
	static const char *const names[] = {
		[DDIR_READ] = "read", [DDIR_WRITE] = "write",
		[DDIR_TRIM] = "trim", [DDIR_SYNC] = "sync",
	};

	return d < ARRAY_SIZE(names) ? names[d] : "?";
}

bool ioengine_sync(enum ioengine e)
{
	return e != IOENGINE_LIBAIO && e != IOENGINE_IO_URING &&
	       e != IOENGINE_POSIXAIO;
}

bool ioengine_osync_flushes(enum ioengine e)
{
	return e != IOENGINE_LIBAIO && e != IOENGINE_IO_URING;
}

unsigned job_iodepth(const struct job_conf *j)
{
	return ioengine_sync(j->ioengine) ? 1 : j->iodepth;
}

/* the run's clock and every sum it forms stay within 64 bits (sim.h) */
int parse_duration(const char *s, sim_ns default_unit, sim_ns *out, char *err)
{
	int r;

	r = parse_ns(s, default_unit, out, err);
	if (!r && *out > SIM_TIME_MAX) {
		r = input_error(err, "'%.40s' is longer than %llus, the limit "
				"of a time value", s,
				(unsigned long long)(SIM_TIME_MAX / NSEC_PER_SEC));
		one_line(err);
	}
	return r;
}
