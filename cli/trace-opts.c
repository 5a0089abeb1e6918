/*
 * trace-opts.c: the options of `mpsim run` that ask for traces
 * (--trace, --trace-format, --trace-from, --trace-until, --trace-count,
 * --trace-max, --blktrace).  They change no result, only what is written beside it;
 * one given without a trace to act on is refused, not ignored.
 */
#include <string.h>

#include "cli.h"
#include "lib/safe-file.h"
#include "sim/trace.h"

const char *const trace_option_names[] = {
	"trace", "trace-format", "trace-from", "trace-until", "trace-count",
	"trace-max", "blktrace", NULL,
};

static int needs_value(const char *name, const char *val, char *err)
{
	if (!val || !*val)
		return input_error(err, "--%s: needs a value", name);
	return 0;
}

int trace_conf_parse(int argc, char **argv, struct trace_conf *c, char *err)
{
	bool format = false, bounds = false;
	char name[32];
	int i, used, r;

	memset(c, 0, sizeof(*c));
	c->until = UINT64_MAX;
	c->max_bytes = TRACE_MAX_DEFAULT;
	for (i = 1; i < argc; i += used) {
		const char *key, *val;
		uint64_t v;
		size_t klen;

		used = cli_option(argc, argv, i, &key, &klen, &val, err);
		if (used < 0)
			return 0;	/* cli_parse_run says what is wrong */
		if (klen >= sizeof(name) || (strncmp(key, "trace", 5) &&
		    strncmp(key, "blktrace", 8)))
			continue;
		memcpy(name, key, klen);
		name[klen] = '\0';
		r = needs_value(name, val, err);
		if (!strcmp(name, "trace")) {
			if (r)
				return r;
			c->file = val;
		} else if (!strcmp(name, "blktrace")) {
			if (r)
				return r;
			c->blktrace = val;
		} else if (!strcmp(name, "trace-format")) {
			if (r || (strcmp(val, "json") && strcmp(val, "text")))
				return input_error(err, "--trace-format: '%s' is not json or text",
						   val ? val : "");
			c->text = !strcmp(val, "text");
			format = true;
		} else if (!strcmp(name, "trace-from") ||
			   !strcmp(name, "trace-until")) {
			char why[ERR_MAX];

			if (r)
				return r;
			if (parse_duration(val, 0, &v, why))
				return input_error(err, "--%s: %s", name, why);
			if (name[6] == 'f') {
				c->from = v;
				c->from_set = true;
			} else
				c->until = v;
			bounds = true;
		} else if (!strcmp(name, "trace-count")) {
			char why[ERR_MAX];

			if (r)
				return r;
			if (parse_uint(val, &v, why) || !v)
				return input_error(err, "--trace-count: '%s' is not a count of I/Os (1 or more)",
						   val);
			c->count = v;
			bounds = true;
		} else if (!strcmp(name, "trace-max")) {
			char why[ERR_MAX];

			if (r)
				return r;
			if (parse_bytes(val, &v, why))
				return input_error(err, "--trace-max: %s", why);
			c->max_bytes = v;
			bounds = true;
		}
	}
	if (format && !c->file)
		return input_error(err, "--trace-format: there is no --trace to format");
	if (bounds && !c->file && !c->blktrace)
		return input_error(err, "--trace-from, --trace-until, --trace-count and --trace-max bound --trace or --blktrace, and neither is given");
	if (c->from >= c->until)
		return input_error(err, "--trace-from: must be before --trace-until");
	/* the files are renamed over their paths after the run: a target of
	 * the wrong kind is bad input found now, not after the simulation */
	if (c->file) {
		char why[ERR_MAX];

		if (safe_check(c->file, why))
			return input_error(err, "--trace: %.200s", why);
	}
	if (c->blktrace) {
		char why[ERR_MAX];

		/* a missing directory is created (its path checked now); one
		 * that is there must be one no other user can put files in */
		if (safe_check_dir(c->blktrace, why) == -EINVAL)
			return input_error(err, "--blktrace: %.200s", why);
	}
	return 0;
}
