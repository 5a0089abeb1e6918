/*
 * test_io_affinity.c: io-affinity's kernel-specific behaviour (docs/kernel-model.md
 * §5.3), the cpumask parsing and printing it relies on, and the CPU each
 * job clone submits from.  Every expectation is worked out by hand from
 * the kernel's rules quoted beside it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "lib/cpumask.h"
#include "selectors/selector.h"
#include "sim/run.h"
#include "input/scenario.h"
#include "input/table.h"
#include "sim/stats.h"
#include "workloads/fio.h"

extern const struct ps_type ps_io_affinity;

#define IOA_NPATHS	4

static struct path_selector ps;
static struct ps_path path[IOA_NPATHS];
static struct ps_path *pp[IOA_NPATHS];
static unsigned npaths;
static char err[ERR_MAX];
static char buf[128];

static void ioa_quiet(void)
{
	mpsim_quiet = 1;
}

static void ioa_teardown(void)
{
	if (ps.type)
		ps_exit(&ps, pp, npaths);
	npaths = 0;
}

TestSuite(io_affinity, .init = ioa_quiet, .fini = ioa_teardown);

static void ioa_open(unsigned cpus, unsigned nodes)
{
	memset(&ps, 0, sizeof(ps));
	ps.nr_cpu_ids = cpus;
	ps.nr_node_ids = nodes;
	cr_assert_eq(ps_init(&ps, &ps_io_affinity, "", err), 0, "%s", err);
	npaths = 0;
}

static int ioa_add(const char *args)
{
	struct ps_path *p = &path[npaths];
	int r;

	p->name = "sd";
	p->index = npaths;
	r = ps_add_path(&ps, p, args, err);
	if (!r)
		pp[npaths++] = p;
	return r;
}

/* The path chosen for an I/O submitted on cpu, -1 for none. */
static int ioa_on(unsigned cpu)
{
	struct ps_path *p;

	ps.cpu = cpu;
	p = ps.type->select_path(&ps, 4096, 0);
	return p ? (int)p->index : -1;
}

static const char *ioa_status(struct ps_path *p, enum ps_status_type t)
{
	ps.type->status(&ps, p, t, buf, sizeof(buf));
	return buf;
}

/* ---- cpumask_parse (lib/bitmap.c bitmap_parse) ---- */

Test(io_affinity, parse_hex_chunks)
{
	struct ps_cpumask m;

	cr_assert_eq(ps_cpumask_parse("3", &m, 4), 0);
	cr_assert_eq(m.bits[0], 3);
	/* the chunk after a comma is the next 32 bits up */
	cr_assert_eq(ps_cpumask_parse("1,00000002", &m, 64), 0);
	cr_assert_eq(m.bits[0], (1ULL << 32) | 2);
	/* a short chunk is zero-extended: "1,2" is bits 32 and 1 */
	cr_assert_eq(ps_cpumask_parse("1,2", &m, 64), 0);
	cr_assert_eq(m.bits[0], (1ULL << 32) | 2);
	/* leading, trailing and doubled separators are allowed */
	cr_assert_eq(ps_cpumask_parse(",,A", &m, 8), 0);
	cr_assert_eq(m.bits[0], 0xa);
	/* the empty string is the empty mask */
	cr_assert_eq(ps_cpumask_parse("", &m, 8), 0);
	cr_assert_eq(m.bits[0], 0);
}

Test(io_affinity, parse_refusals)
{
	struct ps_cpumask m;

	/* a CPU at or beyond nbits: -EOVERFLOW (CONFIG_CPUMASK_OFFSTACK) */
	cr_assert_eq(ps_cpumask_parse("10", &m, 4), -EOVERFLOW);
	cr_assert_eq(ps_cpumask_parse("8", &m, 4), 0);
	/* more chunks than nbits needs */
	cr_assert_eq(ps_cpumask_parse("1,00000000", &m, 32), -EOVERFLOW);
	/* nine digits in one chunk */
	cr_assert_eq(ps_cpumask_parse("100000000", &m, 64), -EOVERFLOW);
	/* a prefix or a non-hex character */
	cr_assert_eq(ps_cpumask_parse("0x1", &m, 8), -EINVAL);
	cr_assert_eq(ps_cpumask_parse("g", &m, 8), -EINVAL);
	/* after eight digits the next character is skipped unread unless
	 * it is a hex digit, so "x12345678" reads as 0x12345678 */
	cr_assert_eq(ps_cpumask_parse("x12345678", &m, 32), 0);
	cr_assert_eq(m.bits[0], 0x12345678);
}

/* ---- %*pb (lib/vsprintf.c bitmap_string) ---- */

Test(io_affinity, print_chunks)
{
	struct ps_cpumask m;
	char s[64];

	memset(&m, 0, sizeof(m));
	m.bits[0] = 3;
	/* 4 bits: one digit */
	cr_assert_eq(ps_cpumask_print(s, sizeof(s), &m, 4), 1);
	cr_assert_str_eq(s, "3");
	/* 32 bits: one full chunk of 8 digits */
	ps_cpumask_print(s, sizeof(s), &m, 32);
	cr_assert_str_eq(s, "00000003");
	/* 40 bits: 8 high bits in 2 digits, then a full chunk */
	m.bits[0] |= 1ULL << 32;
	ps_cpumask_print(s, sizeof(s), &m, 40);
	cr_assert_str_eq(s, "01,00000003");
	/* 5 bits: 2 digits */
	m.bits[0] = 0x11;
	ps_cpumask_print(s, sizeof(s), &m, 5);
	cr_assert_str_eq(s, "11");
}

Test(io_affinity, numa_blocks)
{
	static const unsigned want[6] = { 0, 0, 1, 2, 2, 3 };
	unsigned c;

	/* 6 CPUs over 4 nodes: c * 4 / 6 */
	for (c = 0; c < 6; c++)
		cr_assert_eq(ps_cpu_to_node(c, 6, 4), want[c], "cpu %u", c);
	cr_assert_eq(ps_cpu_to_node(5, 6, 1), 0);
}

/* ---- the cpumask operations at word and chunk edges ---- */

/* Bit c of m, read from the words directly (not through cpumask.h). */
static bool cm_bit(const struct ps_cpumask *m, unsigned c)
{
	return (m->bits[c / 64] >> (c % 64)) & 1;
}

/* A fixed pseudo-random mask (an LCG), about one bit in `sparse` set. */
static void cm_fill(struct ps_cpumask *m, uint64_t seed, unsigned sparse)
{
	unsigned c;

	memset(m, 0, sizeof(*m));
	for (c = 0; c < PS_MAX_CPUS; c++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		if ((seed >> 33) % sparse == 0)
			m->bits[c / 64] |= 1ULL << (c % 64);
	}
}

static const unsigned cm_edges[] = {
	0, 1, 31, 32, 33, 62, 63, 64, 65, 127, 128, 500, 959, 960, 1022, 1023,
};

/* set, clear and isset touch exactly the one bit, in every word. */
Test(io_affinity, cpumask_set_clear_isset_one_bit)
{
	struct ps_cpumask m;
	unsigned i, w;

	for (i = 0; i < ARRAY_SIZE(cm_edges); i++) {
		unsigned c = cm_edges[i];

		memset(&m, 0, sizeof(m));
		ps_cpu_set(&m, c);
		for (w = 0; w < PS_CPU_WORDS; w++)
			cr_assert_eq(m.bits[w], w == c / 64 ?
				     1ULL << (c % 64) : 0, "set %u", c);
		cr_assert(ps_cpu_isset(&m, c), "isset %u", c);
		if (c)
			cr_assert(!ps_cpu_isset(&m, c - 1), "isset %u", c - 1);
		if (c + 1 < PS_MAX_CPUS)
			cr_assert(!ps_cpu_isset(&m, c + 1), "isset %u", c + 1);
		ps_cpu_set(&m, c);
		cr_assert_eq(m.bits[c / 64], 1ULL << (c % 64), "set twice %u", c);

		memset(&m, 0xff, sizeof(m));
		ps_cpu_clear(&m, c);
		for (w = 0; w < PS_CPU_WORDS; w++)
			cr_assert_eq(m.bits[w], w == c / 64 ?
				     ~(1ULL << (c % 64)) : UINT64_MAX,
				     "clear %u", c);
		cr_assert(!ps_cpu_isset(&m, c), "isset %u", c);
		if (c)
			cr_assert(ps_cpu_isset(&m, c - 1), "isset %u", c - 1);
	}
}

/* ps_cpu_next() and ps_cpu_weight() against the words, from every CPU,
 * for bit counts at and around the word edges, on dense and sparse masks
 * (whole empty words) and with bits set at and past nbits. */
Test(io_affinity, cpumask_next_and_weight)
{
	static const unsigned nbits[] = {
		1, 2, 5, 63, 64, 65, 100, 128, 129, 1000, 1023, 1024,
	};
	static const unsigned sparse[] = { 2, 7, 150 };
	struct ps_cpumask m;
	unsigned s, k, n, c, want, count;

	for (s = 0; s < ARRAY_SIZE(sparse); s++)
		for (k = 0; k < ARRAY_SIZE(nbits); k++) {
			n = nbits[k];
			cm_fill(&m, 11 * s + k, sparse[s]);
			if (n < PS_MAX_CPUS)
				ps_cpu_set(&m, n);	/* must not be found */
			count = 0;
			for (c = 0; c < n; c++)
				count += cm_bit(&m, c);
			cr_assert_eq(ps_cpu_weight(&m, n), count,
				     "weight nbits %u sparse %u", n, sparse[s]);
			for (c = 0; c <= n; c++) {
				for (want = c; want < n && !cm_bit(&m, want);
				     want++)
					;
				cr_assert_eq(ps_cpu_next(&m, c, n), want,
					     "next from %u, nbits %u", c, n);
			}
		}
	/* the first and the last CPU alone, and none */
	memset(&m, 0, sizeof(m));
	cr_assert_eq(ps_cpu_next(&m, 0, 1024), 1024);
	cr_assert_eq(ps_cpu_weight(&m, 1024), 0);
	ps_cpu_set(&m, 1023);
	cr_assert_eq(ps_cpu_next(&m, 0, 1024), 1023);
	cr_assert_eq(ps_cpu_next(&m, 0, 1023), 1023);
	cr_assert_eq(ps_cpu_weight(&m, 1024), 1);
	ps_cpu_set(&m, 0);
	cr_assert_eq(ps_cpu_next(&m, 0, 1024), 0);
	cr_assert_eq(ps_cpu_next(&m, 1, 1024), 1023);
	cr_assert_eq(ps_cpu_weight(&m, 1024), 2);
	cr_assert_eq(ps_cpu_weight(&m, 1), 1);
	cr_assert_eq(ps_cpu_weight(&m, 0), 0);
}

/* Every hex digit, both cases, and the characters beside each range. */
Test(io_affinity, cpumask_parse_digits)
{
	static const char bad[] = "/:@G`g x";
	struct ps_cpumask m;
	char s[2] = "", t[4] = "1?1";
	unsigned i;

	cr_assert_eq(ps_cpumask_parse("01234567,89abcdef", &m, 64), 0);
	cr_assert_eq(m.bits[0], 0x0123456789abcdefULL);
	cr_assert_eq(ps_cpumask_parse("FEDCBA98,76543210", &m, 64), 0);
	cr_assert_eq(m.bits[0], 0xfedcba9876543210ULL);
	for (i = 0; bad[i]; i++) {
		s[0] = bad[i];
		cr_assert_eq(ps_cpumask_parse(s, &m, 64),
			     bad[i] == ' ' ? 0 : -EINVAL, "'%c'", bad[i]);
		t[1] = bad[i];
		cr_assert_eq(ps_cpumask_parse(t, &m, 64),
			     bad[i] == ' ' ? 0 : -EINVAL, "'%s'", t);
	}
	/* a separator inside: "1 1" is two chunks, bits 32 and 0 */
	cr_assert_eq(ps_cpumask_parse("1 1", &m, 64), 0);
	cr_assert_eq(m.bits[0], (1ULL << 32) | 1);
}

/* Separators, the newline that ends the string, chunk counts at nbits
 * and one past, and a chunk of eight digits then one more. */
Test(io_affinity, cpumask_parse_chunks_and_ends)
{
	struct ps_cpumask m;
	char big[33 * 9 + 1];
	unsigned i;

	cr_assert_eq(ps_cpumask_parse(" \t3 ", &m, 8), 0);
	cr_assert_eq(m.bits[0], 3);
	cr_assert_eq(ps_cpumask_parse("3\n5", &m, 8), 0);
	cr_assert_eq(m.bits[0], 3);
	cr_assert_eq(ps_cpumask_parse("\n5", &m, 8), 0);
	cr_assert_eq(m.bits[0], 0);
	cr_assert_eq(ps_cpumask_parse(",", &m, 8), 0);
	cr_assert_eq(m.bits[0], 0);
	cr_assert_eq(ps_cpumask_parse("5,", &m, 8), 0);
	cr_assert_eq(m.bits[0], 5);
	cr_assert_eq(ps_cpumask_parse("ff", &m, 8), 0);
	cr_assert_eq(m.bits[0], 0xff);
	cr_assert_eq(ps_cpumask_parse("1ff", &m, 8), -EOVERFLOW);
	cr_assert_eq(ps_cpumask_parse("ffffffff", &m, 32), 0);
	cr_assert_eq(m.bits[0], 0xffffffffULL);
	cr_assert_eq(ps_cpumask_parse("1234567", &m, 32), 0);
	cr_assert_eq(m.bits[0], 0x1234567);
	cr_assert_eq(ps_cpumask_parse("fffffffff", &m, 64), -EOVERFLOW);
	/* a ninth digit overflows even as a leading 0 */
	cr_assert_eq(ps_cpumask_parse("012345678", &m, 64), -EOVERFLOW);
	cr_assert_eq(ps_cpumask_parse(",12345678", &m, 32), 0);
	cr_assert_eq(m.bits[0], 0x12345678);
	/* 33 bits: two chunks, the high one holding bit 32 only */
	cr_assert_eq(ps_cpumask_parse("1,ffffffff", &m, 33), 0);
	cr_assert_eq(m.bits[0], 0x1ffffffffULL);
	cr_assert_eq(ps_cpumask_parse("2,0", &m, 33), -EOVERFLOW);
	cr_assert_eq(ps_cpumask_parse("0,0,0", &m, 64), -EOVERFLOW);
	cr_assert_eq(ps_cpumask_parse("0,0", &m, 64), 0);
	/* 1024 bits: 32 chunks, all set; 33 chunks are one too many */
	big[0] = '\0';
	for (i = 0; i < 32; i++)
		strcat(big, i ? ",ffffffff" : "ffffffff");
	cr_assert_eq(ps_cpumask_parse(big, &m, 1024), 0);
	for (i = 0; i < PS_CPU_WORDS; i++)
		cr_assert_eq(m.bits[i], UINT64_MAX, "word %u", i);
	cr_assert_eq(ps_cpumask_parse(big, &m, 1023), -EOVERFLOW);
	strcat(big, ",0");
	cr_assert_eq(ps_cpumask_parse(big, &m, 1024), -EOVERFLOW);
	/* one CPU high up, the rest of the words zeroed */
	memset(&m, 0xff, sizeof(m));
	cr_assert_eq(ps_cpumask_parse("1,0,0", &m, 96), 0);
	cr_assert_eq(m.bits[0], 0);
	cr_assert_eq(m.bits[1], 1);
	for (i = 2; i < PS_CPU_WORDS; i++)
		cr_assert_eq(m.bits[i], 0, "word %u", i);
}

/* print then parse gives the mask back, below nbits, for every chunk
 * width; print's fixed forms at chunk edges. */
Test(io_affinity, cpumask_print_parse_round_trip)
{
	static const unsigned nbits[] = {
		1, 4, 5, 31, 32, 33, 63, 64, 65, 96, 100, 1000, 1024,
	};
	struct ps_cpumask m, back;
	char s[400];
	unsigned k, c;
	int n;

	for (k = 0; k < ARRAY_SIZE(nbits); k++) {
		cm_fill(&m, 3 * k + 1, 3);
		n = ps_cpumask_print(s, sizeof(s), &m, nbits[k]);
		cr_assert_eq((size_t)n, strlen(s), "nbits %u", nbits[k]);
		/* chunks: the first of (nbits % 32 or 32) bits, then 8 digits */
		cr_assert_eq(n, (int)((nbits[k] - 1) % 32 / 4 + 1 +
				      (nbits[k] - 1) / 32 * 9),
			     "nbits %u: \"%s\"", nbits[k], s);
		cr_assert_eq(ps_cpumask_parse(s, &back, nbits[k]), 0,
			     "nbits %u: \"%s\"", nbits[k], s);
		for (c = 0; c < PS_MAX_CPUS; c++)
			cr_assert_eq(cm_bit(&back, c),
				     c < nbits[k] && cm_bit(&m, c),
				     "nbits %u cpu %u: \"%s\"", nbits[k], c, s);
	}
	memset(&m, 0, sizeof(m));
	m.bits[0] = 1;
	m.bits[15] = 1ULL << 63;
	ps_cpumask_print(s, sizeof(s), &m, 1024);
	cr_assert_eq(strncmp(s, "80000000,", 9), 0, "%s", s);
	cr_assert_str_eq(s + strlen(s) - 9, ",00000001");
	ps_cpumask_print(s, sizeof(s), &m, 33);
	cr_assert_str_eq(s, "0,00000001");
	m.bits[0] = 0x1ffffffffULL;
	ps_cpumask_print(s, sizeof(s), &m, 33);
	cr_assert_str_eq(s, "1,ffffffff");
	ps_cpumask_print(s, sizeof(s), &m, 64);
	cr_assert_str_eq(s, "00000001,ffffffff");
	ps_cpumask_print(s, sizeof(s), &m, 3);
	cr_assert_str_eq(s, "7");
}

/* print's return is snprintf's: the whole length, whatever fits; what
 * fits is the start of the whole, NUL-terminated; nbits 0 prints "". */
Test(io_affinity, cpumask_print_truncates_as_snprintf)
{
	struct ps_cpumask m;
	char s[16];
	size_t len;

	memset(&m, 0, sizeof(m));
	m.bits[0] = 3 | 1ULL << 32;
	for (len = 0; len <= sizeof(s); len++) {
		memset(s, 'Z', sizeof(s));
		cr_assert_eq(ps_cpumask_print(s, len, &m, 40), 11, "len %zu", len);
		if (!len) {
			cr_assert_eq(s[0], 'Z');
			continue;
		}
		cr_assert_eq(strlen(s), len - 1 < 11 ? len - 1 : 11,
			     "len %zu: \"%s\"", len, s);
		cr_assert_eq(strncmp(s, "01,00000003", strlen(s)), 0,
			     "len %zu: \"%s\"", len, s);
	}
	memset(s, 'Z', sizeof(s));
	cr_assert_eq(ps_cpumask_print(s, sizeof(s), &m, 0), 0);
	cr_assert_str_eq(s, "");
	cr_assert_eq(s[1], 'Z');
	cr_assert_eq(ps_cpumask_print(s, 0, &m, 0), 0);
}

/* A mask of PS_MAX_CPUS at the very end of a page whose next page is
 * unmapped: walking, counting, parsing and printing it to the last CPU
 * read nothing past it (a read there faults). */
Test(io_affinity, cpumask_stays_inside_the_mask)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ps_cpumask *m;
	/* 32 chunks of 8 digits, 31 commas, the NUL */
	char s[PS_MAX_CPUS / 4 + PS_MAX_CPUS / 32];
	unsigned i;

	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(mprotect(p + page, (size_t)page, PROT_NONE), 0);
	m = (struct ps_cpumask *)(p + page - sizeof(*m));
	memset(m, 0, sizeof(*m));
	cr_assert_eq(ps_cpu_next(m, 0, PS_MAX_CPUS), PS_MAX_CPUS);
	cr_assert_eq(ps_cpu_next(m, PS_MAX_CPUS, PS_MAX_CPUS), PS_MAX_CPUS);
	cr_assert_eq(ps_cpu_weight(m, PS_MAX_CPUS), 0);
	ps_cpu_set(m, PS_MAX_CPUS - 1);
	cr_assert_eq(ps_cpu_next(m, 0, PS_MAX_CPUS), PS_MAX_CPUS - 1);
	cr_assert_eq(ps_cpu_weight(m, PS_MAX_CPUS), 1);
	s[0] = '\0';
	for (i = 0; i < PS_MAX_CPUS / 32; i++)
		strcat(s, i ? ",ffffffff" : "ffffffff");
	cr_assert_eq(ps_cpumask_parse(s, m, PS_MAX_CPUS), 0);
	cr_assert_eq(ps_cpu_weight(m, PS_MAX_CPUS), PS_MAX_CPUS);
	cr_assert_eq(ps_cpumask_print(s, sizeof(s), m, PS_MAX_CPUS),
		     (int)sizeof(s) - 1);
	munmap(p, 2 * (size_t)page);
}

/* Strings at the very start of a page whose previous page is unmapped:
 * the parser, which reads from the end back, reads nothing before them. */
Test(io_affinity, cpumask_parse_stays_inside_the_string)
{
	static const char *const strs[] = {
		"1", ",", " 1", "1,", "f,ffffffff", "12345678", "g1", "",
	};
	static const int want[] = { 0, 0, 0, 0, 0, 0, -EINVAL, 0 };
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ps_cpumask m;
	unsigned i;

	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(mprotect(p, (size_t)page, PROT_NONE), 0);
	for (i = 0; i < ARRAY_SIZE(strs); i++) {
		strcpy(p + page, strs[i]);
		cr_assert_eq(ps_cpumask_parse(p + page, &m, 64), want[i],
			     "\"%s\"", strs[i]);
	}
	munmap(p, 2 * (size_t)page);
}

/* cpu_to_node() with two nodes, and with no CPUs. */
Test(io_affinity, numa_two_nodes_and_none)
{
	cr_assert_eq(ps_cpu_to_node(0, 4, 2), 0);
	cr_assert_eq(ps_cpu_to_node(1, 4, 2), 0);
	cr_assert_eq(ps_cpu_to_node(2, 4, 2), 1);
	cr_assert_eq(ps_cpu_to_node(3, 4, 2), 1);
	cr_assert_eq(ps_cpu_to_node(0, 0, 2), 0);
	cr_assert_eq(ps_cpu_to_node(1023, 1024, 1024), 1023);
}

/* ---- add_path ---- */

Test(io_affinity, add_path_first_claim_stands)
{
	ioa_open(4, 1);
	cr_assert_eq(ioa_add("3"), 0, "%s", err);	/* CPUs 0, 1 */
	cr_assert_eq(ioa_add("6"), 0, "%s", err);	/* 1 taken: CPU 2 */
	cr_assert_eq(ioa_on(0), 0);
	cr_assert_eq(ioa_on(1), 0);
	cr_assert_eq(ioa_on(2), 1);
	/* the table shows the mask as given, claimed or not */
	cr_assert_str_eq(ioa_status(&path[1], PS_STATUS_TABLE), "6 ");
	cr_assert_str_eq(ioa_status(NULL, PS_STATUS_TABLE), "0 ");
}

Test(io_affinity, add_path_refusals)
{
	ioa_open(4, 1);
	cr_assert_eq(ioa_add(""), -EINVAL);
	cr_assert_str_eq(err, "io-affinity ps: invalid number of arguments");
	cr_assert_eq(ioa_add("1 2"), -EINVAL);
	cr_assert_eq(ioa_add("zz"), -EINVAL);
	cr_assert_str_eq(err, "io-affinity ps: invalid cpumask 'zz' "
			 "(hex, CPUs below ncpus=4)");
	cr_assert_eq(ioa_add("10"), -EINVAL, "CPU 4 of 4");
	cr_assert_eq(ioa_add("3"), 0, "%s", err);
	/* everything already claimed: the load fails */
	cr_assert_eq(ioa_add("1"), -EINVAL);
	cr_assert_str_eq(err, "io-affinity ps: No new/valid CPU mapping found");
	cr_assert_eq(ioa_add("0"), -EINVAL, "the empty mask claims nothing");
	cr_assert_eq(npaths, 1);
}

/* ---- select_path ---- */

/*
 * 4 CPUs in 2 nodes (0-1, 2-3); a serves CPU 0, b CPU 3, c CPU 2.  CPU 1
 * has no path: a miss, then its node's first usable path (CPU 0's).
 */
Test(io_affinity, select_local_then_node_then_any)
{
	ioa_open(4, 2);
	cr_assert_eq(ioa_add("1"), 0, "%s", err);
	cr_assert_eq(ioa_add("8"), 0, "%s", err);
	cr_assert_eq(ioa_add("4"), 0, "%s", err);

	cr_assert_eq(ioa_on(3), 1);
	cr_assert_eq(ioa_on(1), 0);
	cr_assert_str_eq(ioa_status(&path[0], PS_STATUS_INFO), "1 ");

	/* a failed: CPU 1's node has nothing usable, so the first usable
	 * mapped CPU anywhere, CPU 2 (c), wins over CPU 3 (b); a miss */
	ps.type->fail_path(&ps, &path[0]);
	cr_assert_eq(ioa_on(1), 2);
	/* CPU 0's own path is failed: not a miss; CPU 2 (c) again */
	cr_assert_eq(ioa_on(0), 2);
	cr_assert_str_eq(ioa_status(&path[2], PS_STATUS_INFO), "2 ");

	/* b failed: CPU 3 falls back within its node to CPU 2 (c) */
	ps.type->fail_path(&ps, &path[1]);
	cr_assert_eq(ioa_on(3), 2);
	ps.type->fail_path(&ps, &path[2]);
	cr_assert_eq(ioa_on(3), -1);
	cr_assert_eq(ioa_on(1), -1);
	cr_assert_str_eq(ioa_status(&path[0], PS_STATUS_INFO), "3 ");

	/* reinstate only clears the flag: b serves CPU 3 again, and CPU 2
	 * (c failed) falls back to its node's first usable, CPU 3 */
	cr_assert_eq(ps.type->reinstate_path(&ps, &path[1]), 0);
	cr_assert_eq(ioa_on(3), 1);
	cr_assert_eq(ioa_on(2), 1);
	cr_assert_eq(ioa_on(0), 1);
}

/*
 * The most CPUs, one node: the node's block is every CPU, [0, 1024), and
 * its scan must stop there (the mask and the map hold 1024 CPUs).  CPU
 * 0's path failed, an I/O on CPU 1: a miss, nothing usable, no path.
 */
Test(io_affinity, all_failed_with_the_most_cpus)
{
	ioa_open(PS_MAX_CPUS, 1);
	cr_assert_eq(ioa_add("1"), 0, "%s", err);
	ps.type->fail_path(&ps, &path[0]);
	cr_assert_eq(ioa_on(1), -1);
	cr_assert_eq(ioa_on(PS_MAX_CPUS - 1), -1);
	cr_assert_str_eq(ioa_status(&path[0], PS_STATUS_INFO), "2 ");
}

/*
 * The trace words: the submitting CPU and the misses for the selector,
 * and per path whether it is the one mapped to that CPU.
 */
Test(io_affinity, trace_words)
{
	ioa_open(4, 1);
	cr_assert_eq(ioa_add("1"), 0, "%s", err);
	cr_assert_eq(ioa_add("4"), 0, "%s", err);
	cr_assert_eq(ioa_on(1), 0);
	cr_assert_str_eq(ioa_status(NULL, PS_STATUS_TRACE),
			 "cpu=1 map_misses=1 ");
	ps.cpu = 2;
	cr_assert_str_eq(ioa_status(&path[0], PS_STATUS_TRACE),
			 "serves_cpu=0 ");
	cr_assert_str_eq(ioa_status(&path[1], PS_STATUS_TRACE),
			 "serves_cpu=1 ");
	ps.cpu = 0;
	cr_assert_str_eq(ioa_status(&path[0], PS_STATUS_TRACE),
			 "serves_cpu=1 ");
	ioa_teardown();

	/* the last CPU of the most: 1023, the top bit of 32 chunks */
	ioa_open(PS_MAX_CPUS, 1);
	cr_assert_eq(ioa_add("80000000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
			     "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"), 0, "%s", err);
	cr_assert_eq(ioa_on(PS_MAX_CPUS - 1), 0);
	cr_assert_str_eq(ioa_status(&path[0], PS_STATUS_TRACE),
			 "serves_cpu=1 ");
}

/* ---- the CPU a job clone submits from (workloads/cpus.c) ---- */

Test(io_affinity, job_cpus)
{
	struct job_conf j;

	memset(&j, 0, sizeof(j));
	cr_assert_eq(job_cpu(&j, 0, 3), 0);
	cr_assert_eq(job_cpu(&j, 4, 3), 1);
	cr_assert_eq(fio_set_cpus_allowed(&j, "1,3-4", err), 0, "%s", err);
	cr_assert_eq(job_cpu(&j, 0, 8), 1);
	cr_assert_eq(job_cpu(&j, 1, 8), 3);
	cr_assert_eq(job_cpu(&j, 2, 8), 4);
	cr_assert_eq(job_cpu(&j, 3, 8), 1);
	cr_assert_eq(fio_check_cpus(&j, 5, err), 0);
	cr_assert_eq(fio_check_cpus(&j, 4, err), -EINVAL);
	/* fio's cpumask example: 34 is CPUs 1 and 5 */
	cr_assert_eq(fio_set_cpumask(&j, "34", err), 0, "%s", err);
	cr_assert_eq(job_cpu(&j, 0, 8), 1);
	cr_assert_eq(job_cpu(&j, 1, 8), 5);
	cr_assert_eq(fio_set_cpumask(&j, "0x100000000", err), -EINVAL);
	cr_assert_eq(fio_set_cpus_allowed(&j, "3-1", err), -EINVAL);
	cr_assert_eq(fio_set_cpus_allowed(&j, "1;2", err), -EINVAL);
}

static void run_text(const char *text, struct run_result *r)
{
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, text, "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), 0, "%s", err);
	cr_assert_eq(run_scenario(&sc, 1, r, err), 0, "%s", err);
	scenario_free(&sc);
}

#define IOA_RIG \
	"[multipath]\nselector = io-affinity\nncpus = 4\n" \
	"[path a]\nservice = fixed:100us\npath_args = 3\n" \
	"[path b]\nservice = fixed:100us\npath_args = c\n"

/* Every I/O of a clone goes down the path of its CPU: clones 0-2 on
 * CPUs 0-2 give a two thirds, b one third, exactly. */
Test(io_affinity, run_follows_the_submitting_cpu)
{
	struct run_result r;

	run_text(IOA_RIG "[j]\nnumjobs = 3\nnumber_ios = 300\n", &r);
	cr_assert_eq(r.path[0].ios, 600);
	cr_assert_eq(r.path[1].ios, 300);
	run_result_free(&r);

	/* pinned to CPU 3: all on b */
	run_text(IOA_RIG "[j]\nnumjobs = 3\nnumber_ios = 300\n"
		 "cpus_allowed = 3\n", &r);
	cr_assert_eq(r.path[0].ios, 0);
	cr_assert_eq(r.path[1].ios, 900);
	run_result_free(&r);
}

Test(io_affinity, scenario_refuses_cpus_beyond_the_machine)
{
	struct scenario sc;

	cr_assert_eq(scenario_parse(&sc, IOA_RIG "[j]\nnumber_ios = 1\n"
				    "cpus_allowed = 4\n", "t.ini", err), 0,
		     "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "CPU 4 is beyond the machine's 4"), "%s", err);
	scenario_free(&sc);
	cr_assert_eq(scenario_parse(&sc, IOA_RIG "[j]\nnumber_ios = 1\n",
				    "t.ini", err), 0, "%s", err);
	cr_assert_eq(scenario_set(&sc, "numa_nodes", "5", err), 0, "%s", err);
	cr_assert_eq(scenario_validate(&sc, err), -EINVAL);
	cr_assert(strstr(err, "numa_nodes=5 is more than the 4"), "%s", err);
	scenario_free(&sc);
}
