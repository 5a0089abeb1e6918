/*
 * trace-log.c: the decision trace's records, as JSON lines
 * ({"t":ns,"ev":"map",...}) or, with --trace-format=text, one
 * human-readable line each ("0.001234567 map io=3 ... | sdd: hst=1024").
 * Only integers and path names are written, so a record is exact and the
 * same options give the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "safe-file.h"
#include "trace-out.h"

#define NS_PER_S	1000000000ULL	/* sim/sim.h's NSEC_PER_SEC */

struct trace_log {
	FILE *f;
	struct safe_file out;	/* the file being written */
	char *path;		/* its name, as given */
	bool text;
	bool first_item;	/* the next list item is the first */
	int error;		/* errno of the first write that failed */
};

int tlog_open(const char *file, bool text, struct trace_log **log,
	      char *err)
{
	struct trace_log *l;
	char why[ERR_MAX];
	int r;

	*log = NULL;
	l = xcalloc(1, sizeof(*l));
	/* never through another user's link, never over a device (run as
	 * root, --trace=/dev/null replaced /dev/null), never an input */
	r = safe_create(&l->out, file, 0, why);
	if (r) {
		snprintf(err, ERR_MAX, "--trace: %.200s", why);
		free(l);
		return r;
	}
	l->f = fdopen(l->out.fd, "w");
	if (!l->f) {
		perror("mpsim: fdopen");
		abort();
	}
	l->out.fd = -1;		/* l->f owns it now */
	l->path = xstrdup(file);
	l->text = text;
	/* a 10 s run is some 600 000 I/Os: write in large blocks */
	setvbuf(l->f, NULL, _IOFBF, 1 << 20);
	*log = l;
	return 0;
}

int tlog_close(struct trace_log *l, bool ok, char *err)
{
	char why[ERR_MAX];
	int r = 0;

	/* the reason of the first write that failed (ENOSPC on a full
	 * disk), else of the close */
	l->error = safe_close_stream(l->f, &l->out, l->error);
	if (l->error) {
		if (ok)
			snprintf(err, ERR_MAX, "--trace: writing '%.160s' "
				 "failed: %s", l->path, strerror(l->error));
		ok = false;
		r = -EIO;
	}
	if (!ok) {
		safe_abort(&l->out);
	} else if (safe_commit(&l->out, why)) {
		snprintf(err, ERR_MAX, "--trace: %.200s", why);
		r = -EIO;
	}
	free(l->path);
	free(l);
	return r;
}

void tlog_begin(struct trace_log *l, uint64_t t, const char *ev)
{
	if (l->text)
		fprintf(l->f, "%llu.%09llu %s",
			(unsigned long long)(t / NS_PER_S),
			(unsigned long long)(t % NS_PER_S), ev);
	else
		fprintf(l->f, "{\"t\":%llu,\"ev\":\"%s\"",
			(unsigned long long)t, ev);
}

void tlog_u64(struct trace_log *l, const char *key, uint64_t v)
{
	fprintf(l->f, l->text ? " %s=%llu" : ",\"%s\":%llu", key,
		(unsigned long long)v);
}

void tlog_i64(struct trace_log *l, const char *key, int64_t v)
{
	fprintf(l->f, l->text ? " %s=%lld" : ",\"%s\":%lld", key,
		(long long)v);
}

void tlog_str(struct trace_log *l, const char *key, const char *v)
{
	if (l->text) {
		fprintf(l->f, " %s=%s", key, v ? v : "-");
		return;
	}
	fprintf(l->f, ",\"%s\":", key);
	if (v)
		json_string(l->f, v);
	else
		fputs("null", l->f);
}

void tlog_words(struct trace_log *l, const char *words)
{
	const char *w = words, *eq, *end;

	while (*w) {
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		eq = strchr(w, '=');
		end = strchr(w, ' ');
		if (!end)
			end = w + strlen(w);
		if (!eq || eq > end) {
			/* status words are "key=value": anything else is a
			 * selector bug, not input */
			fprintf(stderr, "mpsim: bug: trace status word '%.*s'\n",
				(int)(end - w), w);
			abort();
		}
		if (l->text)
			fprintf(l->f, " %.*s", (int)(end - w), w);
		else
			fprintf(l->f, ",\"%.*s\":%.*s", (int)(eq - w), w,
				(int)(end - eq - 1), eq + 1);
		w = end;
	}
}

void tlog_list_begin(struct trace_log *l, const char *key)
{
	l->first_item = true;
	if (!l->text)
		fprintf(l->f, ",\"%s\":[", key);
}

void tlog_item_begin(struct trace_log *l, const char *name)
{
	if (l->text) {
		fprintf(l->f, " | %s:", name);
	} else {
		fputs(l->first_item ? "{\"path\":" : ",{\"path\":", l->f);
		json_string(l->f, name);
	}
	l->first_item = false;
}

void tlog_item_end(struct trace_log *l)
{
	if (!l->text)
		fputc('}', l->f);
}

void tlog_list_end(struct trace_log *l)
{
	if (!l->text)
		fputc(']', l->f);
}

void tlog_end(struct trace_log *l)
{
	fputs(l->text ? "\n" : "}\n", l->f);
	/* a record's writes are its own: errno is still the failure's */
	if (ferror(l->f) && !l->error)
		l->error = errno ? errno : EIO;
}

uint64_t tlog_bytes(const struct trace_log *l)
{
	off_t n = ftello(l->f);

	return n > 0 ? (uint64_t)n : 0;
}
