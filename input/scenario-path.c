/*
 * scenario-path.c: the setters of the [path NAME] sections' keys (slots,
 * service and latency, bandwidth, path arguments, and the dm-delay
 * target under the path).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "scenario-int.h"

int set_slots(struct target *t, const char *v, char *err)
{
	return parse_count(v, 0, MAX_SLOTS, &t->path->slots, err);
}

/* A distribution, or `sync`: a device that ends each bio inside
 * submit_bio, in its submitter's context (sim/path.c path_sync). */
int set_service(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "sync")) {
		memset(&t->path->service, 0, sizeof(t->path->service));
		t->path->service.kind = DIST_SYNC;
		return 0;
	}
	return parse_dist(v, &t->path->service, err);
}

int set_latency(struct target *t, const char *v, char *err)
{
	return parse_duration(v, 0, &t->path->latency, err);
}

/* Bytes per second, "500M" or "500M/s"; 0 = no per-byte cost. */
int set_bandwidth(struct target *t, const char *v, char *err)
{
	char buf[64];
	size_t n = strlen(v);

	if (n >= sizeof(buf))
		return input_error(err, "'" SHOW "...' is not a bandwidth", v);
	memcpy(buf, v, n + 1);
	if (n > 2 && !strcmp(buf + n - 2, "/s"))
		buf[n - 2] = '\0';
	return parse_bytes(buf, &t->path->bandwidth, err);
}

int set_request_stats(struct target *t, const char *v, char *err)
{
	return parse_bool(v, &t->path->request_stats, err);
}

int set_path_args(struct target *t, const char *v, char *err)
{
	struct path_conf *p = t->path;

	if (t->sc && table_owns(t->sc, err))
		return -EINVAL;
	return set_string(v, p->path_args, sizeof(p->path_args), true, err);
}

/*
 * One dm-delay class delay.  The kernel's table takes an unsigned number
 * of milliseconds (docs/kernel-model.md §7.1), so a time that is not whole
 * milliseconds is refused rather than rounded; a bare number is ms.
 */
static int set_delay_ms(const char *v, unsigned *out, char *err)
{
	sim_ns ns = 0;
	int r;

	r = parse_duration(v, NSEC_PER_MSEC, &ns, err);
	if (r)
		return r;
	if (ns % NSEC_PER_MSEC)
		return input_error(err, "'" SHOW "' is not a whole number of "
				   "milliseconds (dm-delay's table takes "
				   "unsigned ms)", v);
	if (ns / NSEC_PER_MSEC > UINT32_MAX)
		return input_error(err, "'" SHOW "' is more than 2^32-1 ms",
				   v);
	*out = (unsigned)(ns / NSEC_PER_MSEC);
	return 0;
}

/* delay= is the 3-word table: every class, flush included. */
int set_delay(struct target *t, const char *v, char *err)
{
	struct delay_conf *d = &t->path->delay;
	unsigned ms = 0;
	int r;

	r = set_delay_ms(v, &ms, err);
	if (r)
		return r;
	d->read_ms = d->write_ms = d->flush_ms = ms;
	d->flush_given = false;
	return 0;
}

int set_read_delay(struct target *t, const char *v, char *err)
{
	return set_delay_ms(v, &t->path->delay.read_ms, err);
}

int set_write_delay(struct target *t, const char *v, char *err)
{
	return set_delay_ms(v, &t->path->delay.write_ms, err);
}

int set_flush_delay(struct target *t, const char *v, char *err)
{
	struct delay_conf *d = &t->path->delay;
	int r;

	r = set_delay_ms(v, &d->flush_ms, err);
	if (!r)
		d->flush_given = true;
	return r;
}

int set_expiry(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "jiffies"))
		t->path->delay.expiry = EXPIRY_JIFFIES;
	else if (!strcmp(v, "ns"))
		t->path->delay.expiry = EXPIRY_NS;
	else
		return input_error(err, "'" SHOW "' is not jiffies (mainline) "
				   "or ns (nanosecond expiry)", v);
	return 0;
}

int set_kthread_poll(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "mainline"))
		t->path->delay.poll = POLL_SLEEP;
	else if (!strcmp(v, "busy"))
		t->path->delay.poll = POLL_BUSY;
	else
		return input_error(err, "'" SHOW "' is not mainline (6.16+ "
				   "sleeps between polls) or busy (6.7-6.15)",
				   v);
	t->path->delay.poll_given = true;
	return 0;
}

/* The block layer's words for a device's cache (the queue's
 * write_cache attribute): back sends flushes down, through has the block
 * layer end them (docs/kernel-model.md §11.2). */
int set_write_cache(struct target *t, const char *v, char *err)
{
	if (!strcmp(v, "back") || !strcmp(v, "write back"))
		t->path->write_through = false;
	else if (!strcmp(v, "through") || !strcmp(v, "write through"))
		t->path->write_through = true;
	else
		return input_error(err, "'" SHOW "' is not through or back", v);
	return 0;
}

/* MAJ:MIN, each a decimal number within the kernel's dev_t (12:20 bits). */
int set_dev(struct target *t, const char *v, char *err)
{
	unsigned maj, min;
	char c;

	if (sscanf(v, "%u:%u%c", &maj, &min, &c) != 2 || !isdigit((unsigned char)*v) ||
	    maj >= 1U << 12 || min >= 1U << 20)
		return input_error(err, "'" SHOW "' is not MAJOR:MINOR "
				   "(e.g. 8:48)", v);
	snprintf(t->path->dev, sizeof(t->path->dev), "%u:%u", maj, min);
	return 0;
}

/* A number, or the ALUA state multipath-tools' alua prioritizer maps to
 * one (prioritizers/alua.c). */
int set_prio(struct target *t, const char *v, char *err)
{
	static const struct {
		const char *state;
		unsigned prio;
	} alua[] = {
		{ "optimized", 50 },
		{ "non-optimized", 10 },
		{ "lba-dependent", 5 },
		{ "standby", 1 },
		{ "unavailable", 0 },
	};
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(alua); i++)
		if (!strcmp(v, alua[i].state)) {
			t->path->prio = alua[i].prio;
			return 0;
		}
	if (parse_count(v, 0, 1000000, &t->path->prio, err))
		return input_error(err, "'" SHOW "' is not a number or an ALUA "
				   "state (optimized, non-optimized, "
				   "lba-dependent, standby, unavailable)", v);
	return 0;
}
