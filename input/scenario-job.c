/*
 * scenario-job.c: the setters of the fio job keys scenario-options.c's table
 * holds (in a job section or [global]); every other fio key is
 * workloads/fio-opts.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "workloads/fio.h"
#include "scenario-int.h"

/* fio's modes, trims included; an offset modifier ("read:8k") is warned
 * about and ignored (workloads/fio-opts.c). */
int set_rw(struct target *t, const char *v, char *err)
{
	return fio_set_rw(t->job, v, t->where, err);
}

int set_rwmixread(struct target *t, const char *v, char *err)
{
	return parse_count(v, 0, 100, &t->job->rwmixread, err);
}

/* fio's str_rwmix_write_cb: rwmixwrite=x is rwmixread=100-x. */
int set_rwmixwrite(struct target *t, const char *v, char *err)
{
	unsigned w = 0;
	int r;

	r = parse_count(v, 0, 100, &w, err);
	if (r)
		return r;
	t->job->rwmixread = 100 - w;
	return 0;
}

/* bs=4k, or per direction bs=4k,64k (reads, then writes and trims). */
int set_bs(struct target *t, const char *v, char *err)
{
	return fio_set_bs(t->job, v, err);
}

int set_iodepth(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, MAX_INFLIGHT, &t->job->iodepth, err);
}

int set_numjobs(struct target *t, const char *v, char *err)
{
	return parse_count(v, 1, MAX_CLONES, &t->job->numjobs, err);
}

int set_number_ios(struct target *t, const char *v, char *err)
{
	return parse_uint(v, &t->job->number_ios, err);
}

/* fio: "When the unit is omitted, the value is interpreted in seconds." */
int set_runtime(struct target *t, const char *v, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &t->job->runtime, err);
}

int set_ramp_time(struct target *t, const char *v, char *err)
{
	return parse_duration(v, NSEC_PER_SEC, &t->job->ramp_time, err);
}

/* fio's rate_iops is an int: "1k" is 1024 I/Os per second. */
int set_rate_iops(struct target *t, const char *v, char *err)
{
	uint64_t n = 0;
	int r;

	if (strchr(v, ','))
		return input_error(err, "separate read,write rates are not "
				   "supported");
	r = parse_uint(v, &n, err);
	if (r)
		return r;
	if (n > MAX_RATE_IOPS)
		return input_error(err, "'" SHOW "' is more than one I/O per "
				   "ns", v);
	t->job->rate_iops = (double)n;
	return 0;
}

int set_rate_process(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "linear"))
		t->job->rate_process = RATE_LINEAR;
	else if (!strcmp(v, "poisson"))
		t->job->rate_process = RATE_POISSON;
	else
		return input_error(err, "'" SHOW "' is not linear or poisson",
				   v);
	return 0;
}

int set_ioengine(struct target *t, const char *v, char *err)
{
	int i = lookup(v, ioengine_names, ARRAY_SIZE(ioengine_names));

	if (i < 0)
		return input_error(err, "unsupported ioengine '" SHOW "' (use "
				   "libaio, io_uring, posixaio; or sync, "
				   "psync, vsync, pvsync, pvsync2 for depth 1)",
				   v);
	t->job->ioengine = (enum ioengine)i;
	return 0;
}

/* fio's option without a value: `time_based` alone means on. */
int set_time_based(struct target *t, const char *v, char *err)
{
	if (!v) {
		t->job->time_based = true;
		return 0;
	}
	return parse_bool(v, &t->job->time_based, err);
}

int set_size(struct target *t, const char *v, char *err)
{
	return parse_bytes(v, &t->job->size, err);
}

int check_job_name(const char *v, char *err)
{
	const char *c;

	if (!*v)
		return input_error(err, "empty job name");
	if (strlen(v) >= NAME_MAX_LEN)
		return input_error(err, "job name '" SHOW "...' is longer "
				   "than %d characters", v, NAME_MAX_LEN - 1);
	for (c = v; *c; c++)
		if (!isprint((unsigned char)*c))
			return input_error(err, "job name has a control "
					   "character");
	return 0;
}

int set_name(struct target *t, const char *v, char *err)
{
	int r = check_job_name(v, err);

	if (r)
		return r;
	strcpy(t->job->name, v);
	return 0;
}

