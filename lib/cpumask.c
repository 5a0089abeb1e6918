/*
 * cpumask.c: the cpumask operations of cpumask.h, written from the
 * behaviour of the kernel's lib/bitmap.c bitmap_parse() and
 * lib/vsprintf.c bitmap_string() (6.1).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpumask.h"

unsigned ps_cpu_next(const struct ps_cpumask *m, unsigned cpu, unsigned nbits)
{
	for (; cpu < nbits; cpu++) {
		uint64_t w = m->bits[cpu / 64] >> (cpu % 64);

		if (!w) {
			cpu |= 63;	/* rest of this word is empty */
			continue;
		}
		cpu += (unsigned)__builtin_ctzll(w);
		return cpu < nbits ? cpu : nbits;
	}
	return nbits;
}

unsigned ps_cpu_weight(const struct ps_cpumask *m, unsigned nbits)
{
	unsigned cpu, n = 0;

	for (cpu = ps_cpu_next(m, 0, nbits); cpu < nbits;
	     cpu = ps_cpu_next(m, cpu + 1, nbits))
		n++;
	return n;
}

/* bitmap_parse's region separators: white space and commas. */
static bool end_of_region(char c)
{
	return isspace((unsigned char)c) || c == ',';
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int ps_cpumask_parse(const char *buf, struct ps_cpumask *m, unsigned nbits)
{
	/* parsing stops at the first newline, as bitmap_parse's does */
	const char *start = buf, *end = buf + strcspn(buf, "\n") - 1;
	unsigned chunks = (nbits + 31) / 32, chunk, used = 0, bit;

	memset(m, 0, sizeof(*m));
	/* chunks are read from the string's end, least significant first */
	for (chunk = 0;; chunk++) {
		uint32_t val = 0;
		unsigned i;

		while (start <= end && end_of_region(*end))
			end--;
		if (start > end)
			break;
		if (used++ == chunks)
			return -EOVERFLOW;
		for (i = 0;; i += 4) {
			int c;

			if (i == 32) {
				/* a ninth digit: the chunk is too wide;
				 * anything else right after eight digits
				 * is passed over, as the kernel does */
				if (hex_val(*end--) >= 0)
					return -EOVERFLOW;
				break;
			}
			c = hex_val(*end--);
			if (c < 0)
				return -EINVAL;
			val |= (uint32_t)c << i;
			if (start > end || end_of_region(*end))
				break;
		}
		if (chunk < PS_CPU_WORDS * 2)
			m->bits[chunk / 2] |= (uint64_t)val << (32 * (chunk % 2));
	}
	/* a chunk that reached past nbits may only hold zeros there */
	for (bit = nbits; bit < used * 32 && bit < PS_MAX_CPUS; bit++)
		if (ps_cpu_isset(m, bit))
			return -EOVERFLOW;
	return 0;
}

int ps_cpumask_print(char *buf, size_t len, const struct ps_cpumask *m,
		     unsigned nbits)
{
	unsigned chunksz = nbits % 32 ? nbits % 32 : 32;
	int i, n = 0;

	for (i = (int)((nbits + 31) / 32 * 32) - 32; i >= 0; i -= 32) {
		uint32_t val = (uint32_t)(m->bits[i / 64] >> (i % 64)) &
			       (uint32_t)((1ULL << chunksz) - 1);
		size_t at = (size_t)n < len ? (size_t)n : len;
		int k;

		k = snprintf(buf + at, len - at, "%s%0*x", n ? "," : "",
			     (int)(chunksz + 3) / 4, val);
		n += k;
		chunksz = 32;
	}
	if (!nbits && len)
		buf[0] = '\0';
	return n;
}

unsigned ps_cpu_to_node(unsigned cpu, unsigned nr_cpu_ids,
			unsigned nr_node_ids)
{
	if (nr_node_ids <= 1 || !nr_cpu_ids)
		return 0;
	return (unsigned)((uint64_t)cpu * nr_node_ids / nr_cpu_ids);
}
