/*
 * dmsetup.c: the multipath device as `dmsetup status` and `dmsetup table`
 * print it, after dm-mpath.c's multipath_status (kernel 6.1): the
 * features (info: queue_io and pg_init_count; table: the features in
 * force), the hardware handler, the groups with their state (A active, E
 * enabled, D disabled) and each path's state (A/F) and fail count, and
 * every selector's own words from its status op, each word followed by a
 * space as the kernel's DMEMIT leaves them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "mp-table.h"

/* Room for one line: the kernel's status buffer is a page or more;
 * every word here is bounded. */
#define LINE_MAX_LEN	65536

struct emit {
	char *buf;
	size_t sz, max;
};

static void emit(struct emit *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(struct emit *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(e->buf + e->sz, e->max - e->sz, fmt, ap);
	va_end(ap);
	e->sz += (size_t)ps_emitted(n, e->max - e->sz);
}

/* The selector's words for path (NULL: its own), or "0 " without a
 * status op. */
static void emit_ps(struct emit *e, struct priority_group *pg,
		    struct ps_path *path, enum ps_status_type type)
{
	if (pg->ps.type->status)
		e->sz += (size_t)pg->ps.type->status(&pg->ps, path, type,
						     e->buf + e->sz,
						     e->max - e->sz);
	else if (!path)
		emit(e, "0 ");
}

static void multipath_status(const struct mpath *m, enum ps_status_type type,
			     struct emit *e)
{
	const struct mp_table *t = m->table;
	char dev[NAME_MAX_LEN];
	unsigned i, k, pg_num;

	if (type == PS_STATUS_INFO) {
		emit(e, "2 %u %u ", m->queue_io, m->pg_init_count);
	} else {
		emit(e, "%u ", m->queue_if_no_path + (t->pg_init_retries > 0) * 2 +
		     (t->pg_init_delay_msecs != PG_INIT_DELAY_DEFAULT) * 2 +
		     t->retain_attached_hw_handler + t->bio * 2);
		if (m->queue_if_no_path)
			emit(e, "queue_if_no_path ");
		if (t->pg_init_retries)
			emit(e, "pg_init_retries %u ", t->pg_init_retries);
		if (t->pg_init_delay_msecs != PG_INIT_DELAY_DEFAULT)
			emit(e, "pg_init_delay_msecs %u ", t->pg_init_delay_msecs);
		if (t->retain_attached_hw_handler)
			emit(e, "retain_attached_hw_handler ");
		if (t->bio)
			emit(e, "queue_mode bio ");
	}
	if (!m->hw_handler || type == PS_STATUS_INFO)
		emit(e, "0 ");
	else
		emit(e, "1 %s ", t->hw_handler);
	emit(e, "%u ", m->nr_pgs);
	pg_num = m->next_pg ? m->next_pg->pg_num :
		 m->current_pg ? m->current_pg->pg_num : m->nr_pgs ? 1 : 0;
	emit(e, "%u ", pg_num);
	for (i = 0; i < m->nr_pgs; i++) {
		struct priority_group *pg = &m->pgs[i];

		if (type == PS_STATUS_INFO)
			emit(e, "%c ", pg->bypassed ? 'D' :
			     pg == m->current_pg ? 'A' : 'E');
		else
			emit(e, "%s ", pg->ps.type->name);
		emit_ps(e, pg, NULL, type);
		emit(e, "%u %u ", pg->nr_pgpaths, type == PS_STATUS_INFO ?
		     pg->ps.type->info_args : pg->ps.type->table_args);
		for (k = 0; k < pg->nr_pgpaths; k++) {
			struct sim_path *p = pg->pgpaths[k];

			path_dev_name(p->conf, dev, sizeof(dev));
			if (type == PS_STATUS_INFO)
				emit(e, "%s %s %u ", dev, p->failed ? "F" : "A",
				     p->fail_count);
			else
				emit(e, "%s ", dev);
			emit_ps(e, pg, &p->ps, type);
		}
	}
}

char *mpath_dmsetup(const struct mpath *m)
{
	struct emit e = { xmalloc(LINE_MAX_LEN), 0, LINE_MAX_LEN };
	char *out;
	size_t n;
	int r;

	multipath_status(m, PS_STATUS_INFO, &e);
	n = e.sz;
	out = xmalloc(2 * LINE_MAX_LEN + 128);
	r = snprintf(out, 2 * LINE_MAX_LEN + 128, "%llu %llu multipath %.*s\n",
		     (unsigned long long)m->table->start,
		     (unsigned long long)m->table->len, (int)n, e.buf);
	e.sz = 0;
	multipath_status(m, PS_STATUS_TABLE, &e);
	snprintf(out + r, 2 * LINE_MAX_LEN + 128 - (size_t)r,
		 "%llu %llu multipath %.*s\n",
		 (unsigned long long)m->table->start,
		 (unsigned long long)m->table->len, (int)e.sz, e.buf);
	free(e.buf);
	return out;
}
