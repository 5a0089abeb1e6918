/*
 * table.c: the multipath target's table line read as dm-mpath.c's
 * multipath_ctr reads it (parse_features, parse_hw_handler,
 * parse_priority_group, parse_path; kernel 6.1), with the kernel's
 * ti->error strings, and the short form of a scenario turned into the
 * table multipathd would load (path_grouping_policy, prio).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "selectors/ksource.h"
#include "selectors/selector.h"
#include "table.h"

/* The kernel's struct dm_arg_set over the line's words, and where the
 * next word is in the line (for messages). */
struct arg_set {
	unsigned argc;
	char **argv;
	unsigned word;		/* 1-based number of argv[0] in the line */
};

static const char *shift_arg(struct arg_set *as)
{
	if (!as->argc)
		return NULL;
	as->argc--;
	as->word++;
	return *as->argv++;
}

static void consume_args(struct arg_set *as, unsigned n)
{
	as->argc -= n;
	as->argv += n;
	as->word += n;
}

/* "table: ERROR (word N 'W')": the kernel's ti->error and the word it
 * stopped at, the one just read (shifted) or the next. */
static int word_error(char *err, unsigned n, const char *what,
		      const char *word)
{
	if (word)
		return input_error(err, "%s (word %u '%.40s')", what, n,
				   word);
	return input_error(err, "%s (at the end of the line)", what);
}

static int table_error(char *err, const struct arg_set *as, const char *what,
		       const char *word)
{
	return word_error(err, word && as->word > 1 && word == as->argv[-1] ?
			  as->word - 1 :
			  as->word, what, word);
}

/*
 * kstrtoull(s, 10, v)'s rules: an optional '+', then decimal digits and
 * nothing else; -ERANGE past 2^64 - 1 (never saturated), -EINVAL for
 * anything else.  (Its one trailing newline cannot occur: a newline ends
 * a word.)
 */
static int k_strtou64(const char *s, uint64_t *v)
{
	uint64_t r = 0;
	const char *d;

	if (*s == '+')
		s++;
	for (d = s; *s >= '0' && *s <= '9'; s++) {
		if (r > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) {
			while (*s >= '0' && *s <= '9')
				s++;
			return *s ? -EINVAL : -ERANGE;
		}
		r = r * 10 + (uint64_t)(*s - '0');
	}
	if (s == d || *s)
		return -EINVAL;
	*v = r;
	return 0;
}

/* kstrtouint(s, 10, v): the same, -ERANGE past 2^32 - 1. */
static int k_strtouint(const char *s, unsigned *v)
{
	uint64_t r;
	int e = k_strtou64(s, &r);

	if (e)
		return e;
	if (r > UINT32_MAX)
		return -ERANGE;
	*v = (unsigned)r;
	return 0;
}

/* dm_read_arg / dm_read_arg_group (validate_next_arg): a number in
 * [min, max] as kstrtouint reads it; grouped, also no more than the
 * words left. */
static int read_arg(struct arg_set *as, unsigned min, unsigned max,
		    const char *error, bool grouped, unsigned *v, char *err)
{
	const char *w = shift_arg(as);

	if (!w || k_strtouint(w, v) || *v < min || *v > max ||
	    (grouped && as->argc < *v))
		return table_error(err, as, error, w);
	return 0;
}

/* Join n words into buf, one space apart. */
static int join_words(char **argv, unsigned n, char *buf, size_t size,
		      const struct arg_set *as, char *err)
{
	size_t len = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int k = snprintf(buf + len, size - len, "%s%s", i ? " " : "",
				 argv[i]);

		if (k < 0 || (size_t)k >= size - len)
			return table_error(err, as, "more argument words than "
					   "mpsim holds", argv[i]);
		len += (size_t)k;
	}
	return 0;
}

static int parse_features(struct arg_set *as, struct mp_table *t, char *err)
{
	unsigned argc;
	int r;

	r = read_arg(as, 0, 8, "invalid number of feature args", true, &argc,
		     err);
	while (!r && argc) {
		const char *name = shift_arg(as);

		argc--;
		if (!strcasecmp(name, "queue_if_no_path")) {
			t->queue_if_no_path = true;
		} else if (!strcasecmp(name, "retain_attached_hw_handler")) {
			t->retain_attached_hw_handler = true;
		} else if (!strcasecmp(name, "pg_init_retries") && argc >= 1) {
			r = read_arg(as, 1, 50, "pg_init_retries must be "
				     "between 1 and 50", false,
				     &t->pg_init_retries, err);
			argc--;
		} else if (!strcasecmp(name, "pg_init_delay_msecs") && argc >= 1) {
			r = read_arg(as, 0, 60000, "pg_init_delay_msecs must "
				     "be between 0 and 60000", false,
				     &t->pg_init_delay_msecs, err);
			argc--;
		} else if (!strcasecmp(name, "queue_mode") && argc >= 1) {
			const char *mode = shift_arg(as);

			if (!strcasecmp(mode, "bio"))
				t->bio = true;
			else if (!strcasecmp(mode, "rq") || !strcasecmp(mode, "mq"))
				t->bio = false;
			else
				r = table_error(err, as, "Unknown 'queue_mode' "
						"requested", mode);
			argc--;
		} else {
			r = table_error(err, as, "Unrecognised multipath "
					"feature request", name);
		}
	}
	/* alloc_multipath_stage2: bio-based only discovers an attached
	 * handler, so it always retains it (and the table says so) */
	if (t->bio)
		t->retain_attached_hw_handler = true;
	return r;
}

/* The handlers scsi_dh_attach() can load (drivers/scsi/device_handler/). */
static const char *const hw_handlers[] = { "alua", "emc", "hp_sw", "rdac" };

bool mp_hw_handler_known(const char *name)
{
	return str_in_list(name, hw_handlers, ARRAY_SIZE(hw_handlers));
}

/*
 * Bio mode skips the handler and its words (the kernel's DMERR "bio-based
 * multipath doesn't allow hardware handler args", a warning here).
 */
static int parse_hw_handler(struct arg_set *as, struct mp_table *t,
			    bool warn, char *err)
{
	unsigned argc;
	const char *name;

	if (read_arg(as, 0, 1024, "invalid number of hardware handler args",
		     true, &argc, err))
		return -EINVAL;
	if (!argc)
		return 0;
	if (t->bio) {
		if (warn)
			mpsim_warn("table: bio-based multipath doesn't allow "
				   "hardware handler args (the kernel ignores "
				   "'%s')", as->argv[0]);
		consume_args(as, argc);
		return 0;
	}
	name = shift_arg(as);
	if (!mp_hw_handler_known(name))
		return table_error(err, as, "error attaching hardware handler",
				   name);
	snprintf(t->hw_handler, sizeof(t->hw_handler), "%s", name);
	if (argc > 1 && warn)
		mpsim_warn("table: hardware handler parameters change nothing "
			   "in mpsim (its activations always succeed)");
	consume_args(as, argc - 1);
	return 0;
}

/* The [path] section a table's device word names: dev = MAJ:MIN (or an
 * sdX name's numbers), or the section's name, with or without /dev/. */
static int find_path(const struct scenario *sc, const char *word)
{
	char dev[NAME_MAX_LEN];
	unsigned i;

	if (!strncmp(word, "/dev/", 5))
		word += 5;
	for (i = 0; i < sc->nr_paths; i++) {
		path_dev_name(&sc->paths[i], dev, sizeof(dev));
		if (!strcmp(dev, word) || !strcmp(sc->paths[i].name, word))
			return (int)i;
	}
	return -1;
}

/* A selector the kernel registers under this exact name (no aliases). */
static bool kernel_selector(const char *name)
{
	unsigned i;

	for (i = 0; i < ps_nr_types; i++)
		if (!strcmp(ps_types[i]->name, name))
			return true;
	return false;
}

static int parse_path(struct arg_set *as, struct mp_table_pg *pg,
		      const struct scenario *sc, const bool *used, char *err)
{
	struct mp_table_path *p = &pg->paths[pg->nr_paths];
	const char *dev = as->argv[0];
	int k = sc ? find_path(sc, dev) : 0;

	if (k < 0) {
		char why[ERR_MAX];

		snprintf(why, sizeof(why), "error getting device: no [path] "
			 "section has dev = %.20s or that name", dev);
		return table_error(err, as, why, dev);
	}
	if (sc && used[k])
		return table_error(err, as, "the device is already in the "
				   "table (mpsim models one path per device)",
				   dev);
	p->path = (unsigned)k;
	if (join_words(as->argv + 1, pg->nr_path_args, p->args,
		       sizeof(p->args), as, err))
		return -EINVAL;
	consume_args(as, 1 + pg->nr_path_args);
	pg->nr_paths++;
	return 0;
}

static int parse_priority_group(struct arg_set *as, struct mp_table_pg *pg,
				const struct scenario *sc, bool *used,
				char *err)
{
	const char *name;
	unsigned argc, n, i;

	if (as->argc < 2)
		return table_error(err, as, "not enough priority group "
				   "arguments", as->argc ? as->argv[0] : NULL);
	name = shift_arg(as);
	if (!kernel_selector(name))
		return table_error(err, as, "unknown path selector type", name);
	snprintf(pg->selector, sizeof(pg->selector), "%s", name);
	if (read_arg(as, 0, 1024, "invalid number of path selector args",
		     true, &argc, err) ||
	    join_words(as->argv, argc, pg->args, sizeof(pg->args), as, err))
		return -EINVAL;
	consume_args(as, argc);
	if (read_arg(as, 1, 1024, "invalid number of paths", false, &n, err) ||
	    read_arg(as, 0, 1024, "invalid number of selector args", false,
		     &pg->nr_path_args, err))
		return -EINVAL;
	pg->paths = xcalloc(n, sizeof(*pg->paths));
	for (i = 0; i < n; i++) {
		if (as->argc < 1 + pg->nr_path_args)
			return table_error(err, as, "not enough path parameters",
					   as->argc ? as->argv[0] : NULL);
		if (parse_path(as, pg, sc, used, err))
			return -EINVAL;
		if (sc)
			used[pg->paths[i].path] = true;
	}
	return 0;
}

/* multipath_ctr's reading, after the optional "[NAME:] START LEN
 * multipath" that `dmsetup table` prints before the target's words. */
static int parse_ctr(struct arg_set *as, struct mp_table *t,
		     const struct scenario *sc, char *err)
{
	bool *used = sc ? xcalloc(sc->nr_paths + 1, sizeof(*used)) : NULL;
	unsigned pg_count = 0, declared = 0, next;
	int r;

	r = parse_features(as, t, err);
	if (!r)
		r = parse_hw_handler(as, t, sc != NULL, err);
	if (!r)
		r = read_arg(as, 0, 1024, "invalid number of priority groups",
			     false, &declared, err);
	if (!r)
		r = read_arg(as, 0, 1024, "invalid initial priority group "
			     "number", false, &t->next_pg_num, err);
	if (!r && (!declared) != (!t->next_pg_num))
		r = table_error(err, as, "invalid initial priority group",
				as->argc ? as->argv[0] : NULL);
	/* groups while words are left; their count is checked after */
	while (!r && as->argc) {
		t->nr_pgs = ++pg_count;		/* freed with the table */
		r = parse_priority_group(as, &t->pgs[pg_count - 1], sc, used,
					 err);
	}
	if (!r && pg_count != declared)
		r = table_error(err, as, "priority group count mismatch", NULL);
	/* the short form's [path] sections all go in; a table's must too */
	for (next = 0; !r && sc && next < sc->nr_paths; next++)
		if (!used[next])
			r = input_error(err, "[path %s] is in no priority "
					"group of the table", sc->paths[next].name);
	free(used);
	return r;
}

/* The kernel's isspace() (lib/ctype.c's _S class): the C locale's six,
 * and Latin-1's no-break space, 0xa0. */
static bool k_isspace(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (unsigned char)c == 0xa0;
}

/*
 * dm_split_args()'s words, in place: runs of white space split them, and
 * a backslash quotes the character after it (a space in a word: "\ ").
 * Returns the count, with *argv allocated.
 */
static unsigned split_args(char *in, char ***argv)
{
	char *end = in, *out, *start;
	unsigned n = 0, cap = 0;

	*argv = NULL;
	for (;;) {
		for (start = end; k_isspace(*start); start++)
			;
		if (!*start)
			break;
		for (end = out = start; *end; ) {
			if (*end == '\\' && end[1]) {
				*out++ = end[1];
				end += 2;
				continue;
			}
			if (k_isspace(*end))
				break;
			*out++ = *end++;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			*argv = xrealloc(*argv, cap * sizeof(**argv));
		}
		if (*end)
			end++;
		*out = '\0';
		(*argv)[n++] = start;
	}
	return n;
}

/* The device-mapper target types of kernel 6.1 besides multipath: a
 * table line of one of them is a device mpsim does not model. */
static const char *const dm_target_types[] = {
	"cache", "clone", "crypt", "delay", "dust", "ebs", "era", "error",
	"flakey", "integrity", "linear", "log-writes", "mirror", "raid",
	"snapshot", "snapshot-merge", "snapshot-origin", "striped", "switch",
	"thin", "thin-pool", "unstriped", "verity", "writecache", "zero",
	"zoned",
};

/*
 * "START LEN TYPE" before the target's words: dmsetup's fields, checked
 * as dm_table_add_target() checks them (a length of 0, a range past
 * LLONG_MAX >> SECTOR_SHIFT, a first target that does not start at
 * sector 0: "Gap in table").  A line holds one target, the
 * multipath device.
 */
static int parse_target(struct arg_set *as, struct mp_table *t, char *err)
{
	const char *type = as->argv[2];
	int e;

	e = k_strtou64(as->argv[0], &t->start);
	if (e)
		return table_error(err, as, e == -ERANGE ? "invalid start "
				   "sector: past 2^64-1" :
				   "invalid start sector", as->argv[0]);
	e = k_strtou64(as->argv[1], &t->len);
	if (e)
		return word_error(err, as->word + 1, e == -ERANGE ?
				  "invalid length: past 2^64-1" :
				  "invalid length", as->argv[1]);
	if (!t->len)
		return word_error(err, as->word + 1, "zero-length target",
				  as->argv[1]);
	if (t->start + t->len < t->start ||
	    t->start + t->len > (uint64_t)(INT64_MAX >> 9))
		return word_error(err, as->word + 1, "too large device",
				  as->argv[1]);
	if (strcmp(type, "multipath")) {
		char why[ERR_MAX];

		snprintf(why, sizeof(why), "a %.20s target: mpsim models the "
			 "multipath target alone", type);
		return word_error(err, as->word + 2, why, type);
	}
	if (t->start)
		return table_error(err, as, "Gap in table (the first target "
				   "starts at sector 0)", as->argv[0]);
	consume_args(as, 3);
	return 0;
}

/* Does the line start "START LEN TYPE"?  Its third word names a target
 * type; any other word there is read as the multipath target's own (a
 * bare "0 1 alua ..." names a hardware handler third). */
static bool has_target(const struct arg_set *as)
{
	return as->argc >= 3 && (!strcmp(as->argv[2], "multipath") ||
				 str_in_list(as->argv[2], dm_target_types,
					     ARRAY_SIZE(dm_target_types)));
}

int mp_table_parse(struct mp_table *t, const char *line,
		   const struct scenario *sc, char *err)
{
	char *buf = xstrdup(line), **words;
	struct arg_set as = { 0, NULL, 1 };
	int r = 0;

	memset(t, 0, sizeof(*t));
	t->len = 2097152;
	t->pg_init_delay_msecs = PG_INIT_DELAY_DEFAULT;
	as.argc = split_args(buf, &words);
	as.argv = words;
	/* `dmsetup table` without a name prints "START LEN multipath ...";
	 * with every device, "NAME: START LEN multipath ..." */
	if (as.argc && as.argv[0][strlen(as.argv[0]) - 1] == ':')
		consume_args(&as, 1);
	if (has_target(&as))
		r = parse_target(&as, t, err);
	if (!r) {
		t->pgs = xcalloc(as.argc / 2 + 1, sizeof(*t->pgs));
		r = parse_ctr(&as, t, sc, err);
	}
	free(words);
	free(buf);
	if (r)
		mp_table_free(t);
	return r;
}

/* ---- the short form, grouped as multipathd groups it ---- */

static void add_group(struct mp_table *t, const struct scenario *sc,
		      const char *selector)
{
	struct mp_table_pg *pg = &t->pgs[t->nr_pgs++];

	snprintf(pg->selector, sizeof(pg->selector), "%s", selector);
	snprintf(pg->args, sizeof(pg->args), "%s", sc->selector_args);
	pg->paths = xcalloc(sc->nr_paths, sizeof(*pg->paths));
}

static void add_to_group(struct mp_table_pg *pg, const struct scenario *sc,
			 unsigned i)
{
	struct mp_table_path *p = &pg->paths[pg->nr_paths++];

	p->path = i;
	snprintf(p->args, sizeof(p->args), "%s", sc->paths[i].path_args);
}

/*
 * multipath-tools: failover puts each path in a group of its own,
 * group_by_prio the paths of each prio value together (in the paths'
 * order), multibus all in one; then groups are sorted by priority, the
 * highest first (sort_pathgroups), equal ones keeping their order, and
 * the first is the initial group.
 */
static void build_groups(struct mp_table *t, const struct scenario *sc,
			 const char *selector)
{
	unsigned *order = xcalloc(sc->nr_paths, sizeof(*order));
	unsigned i, k, n = sc->nr_paths;

	/* paths by descending prio, stable: insertion sort */
	for (i = 0; i < n; i++) {
		for (k = i; k && sc->paths[order[k - 1]].prio < sc->paths[i].prio; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	for (i = 0; i < n; i++) {
		const struct path_conf *c = &sc->paths[order[i]];
		bool same = i && c->prio == sc->paths[order[i - 1]].prio;

		if (!t->nr_pgs || sc->pg_policy == PGP_FAILOVER ||
		    (sc->pg_policy == PGP_GROUP_BY_PRIO && !same))
			add_group(t, sc, selector);
		add_to_group(&t->pgs[t->nr_pgs - 1], sc, sc->pg_policy ==
			     PGP_MULTIBUS ? i : order[i]);
	}
	free(order);
}

int mp_table_from_scenario(struct mp_table *t, const struct scenario *sc,
			   char *err)
{
	const struct ps_type *type;

	if (sc->table)
		return mp_table_parse(t, sc->table, sc, err);
	type = ps_type_of(sc->selector, sc->selector_source, err);
	if (!type)
		return -EINVAL;
	memset(t, 0, sizeof(*t));
	t->len = 2097152;
	t->queue_if_no_path = sc->queue_if_no_path;
	t->bio = sc->mode == MODE_BIO;
	t->retain_attached_hw_handler = t->bio;
	t->pg_init_retries = sc->pg_init_retries;
	t->pg_init_delay_msecs = sc->pg_init_delay_msecs;
	if (!t->bio)
		snprintf(t->hw_handler, sizeof(t->hw_handler), "%s",
			 sc->hw_handler);
	t->pgs = xcalloc(sc->nr_paths ? sc->nr_paths : 1, sizeof(*t->pgs));
	if (sc->nr_paths)
		build_groups(t, sc, type->name);
	t->next_pg_num = t->nr_pgs ? 1 : 0;
	return 0;
}

/*
 * What the user gave that cannot change the run, said once (the house
 * rule: an option changes the result or is warned about).
 */
void mp_table_warn(const struct scenario *sc)
{
	struct mp_table t;
	char err[ERR_MAX];

	if (mp_table_from_scenario(&t, sc, err))
		return;		/* refused when the run is built */
	if (!sc->table && sc->hw_handler[0] && t.bio)
		mpsim_warn("%s: hardware_handler = %s changes nothing: "
			   "bio-based multipath doesn't allow a hardware "
			   "handler (the kernel ignores it)", sc->name,
			   sc->hw_handler);
	if (sc->pg_init_time && !t.hw_handler[0])
		mpsim_warn("%s: pg_init_time changes nothing without a "
			   "hardware handler (request mode, hardware_handler "
			   "= alua)", sc->name);
	if (t.pg_init_retries)
		mpsim_warn("%s: pg_init_retries %u shows in the table only: "
			   "mpsim's pg_init activations do not fail", sc->name,
			   t.pg_init_retries);
	if (sc->failback != FAILBACK_MANUAL && t.nr_pgs < 2)
		mpsim_warn("%s: failback changes nothing with one priority "
			   "group (path_grouping_policy = failover or "
			   "group_by_prio makes more)", sc->name);
	if (sc->polling_interval != 5 * NSEC_PER_SEC &&
	    sc->no_path_retry != NPR_COUNT)
		mpsim_warn("%s: polling_interval changes nothing but "
			   "no_path_retry = N (mpsim's path checker is the "
			   "scripted fail and reinstate)", sc->name);
	mp_table_free(&t);
}

void table_selectors(const struct scenario *sc, char *buf, size_t size)
{
	struct mp_table t;
	char err[ERR_MAX];
	size_t len = 0;
	unsigned i, k;

	snprintf(buf, size, "%s", sc->selector);
	if (!sc->table || mp_table_parse(&t, sc->table, NULL, err))
		return;
	for (i = 0; i < t.nr_pgs; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(t.pgs[k].selector, t.pgs[i].selector))
				break;
		if (k == i && len < size)
			len += (size_t)ps_emitted(snprintf(buf + len, size - len,
				"%s%s", len ? "+" : "", t.pgs[i].selector),
				size - len);
	}
	mp_table_free(&t);
}

bool table_has_selector(const struct scenario *sc, const char *name)
{
	char buf[256], *w, *save = NULL;

	if (!sc->table) {
		const struct ps_type *t = ps_find(sc->selector);

		return t && !strcmp(t->name, name);
	}
	table_selectors(sc, buf, sizeof(buf));
	for (w = strtok_r(buf, "+", &save); w; w = strtok_r(NULL, "+", &save))
		if (!strcmp(w, name))
			return true;
	return false;
}
