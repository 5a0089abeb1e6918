/*
 * units.h: value strings as numbers, with fio's suffixes.
 *
 * Numbers are decimal, may have up to 9 decimals when the result is whole
 * ("1.5k" = 1536, "2.5ms"), and must fit in 64 bits.  Each returns 0, or
 * -EINVAL with a message in err (ERR_MAX bytes) that quotes the value but
 * not the key.
 */
#ifndef MPSIM_UNITS_H
#define MPSIM_UNITS_H

#include <stdbool.h>
#include <stdint.h>

/* Sizes in bytes, fio's suffixes (case ignored, trailing b optional):
 * k m g t p = powers of 1024; kib mib gib tib pib = powers of 1000, as
 * fio's default kb_base=1024 has them.  parse_size wants >= 1,
 * parse_bytes allows 0. */
int parse_size(const char *s, uint64_t *out, char *err);
int parse_bytes(const char *s, uint64_t *out, char *err);
/* Durations in ns: ns, us/usec, ms/msec, s/sec, m/min (minutes, as fio),
 * h, d, case ignored ("100us", "2ms", "10s").  A bare number is taken in
 * default_unit ns; with default_unit 0 only a bare 0 is accepted.  Any
 * 64-bit value; a scenario's times have a limit of their own
 * (sim/config.h's parse_duration). */
int parse_ns(const char *s, uint64_t default_unit, uint64_t *out, char *err);
/* Counts with fio's int suffixes k m g t p = powers of 1024 (fio parses
 * number_ios, iodepth and rate_iops so: number_ios=1k is 1024 I/Os). */
int parse_uint(const char *s, uint64_t *out, char *err);
/* A count in [lo, hi] with fio's int suffixes (parse_uint), as unsigned. */
int parse_count(const char *v, unsigned lo, unsigned hi, unsigned *out,
		char *err);
/* Booleans: 1/0, on/off, true/false, yes/no (case ignored). */
int parse_bool(const char *s, bool *out, char *err);

#endif
