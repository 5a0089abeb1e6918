/*
 * kcompat.c: the kernel services of kcompat.h that are functions, built
 * into every plugin beside the selector's own file: registration, the
 * environment mpsim fills, messages, memory, scnprintf with %*pb, and
 * the NUMA node masks.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "kcompat.h"

struct kcompat_env kcompat_env = { .abi = KCOMPAT_ABI_VERSION,
				   .tick_hz = 250, .cpus = 1, .nodes = 1 };

/* What module_init registered; mpsim reads it after calling it. */
struct path_selector_type *kcompat_registered;
int kcompat_nr_registered;

int dm_register_path_selector(struct path_selector_type *type)
{
	/* the kernel refuses a second type of the same name: -EEXIST */
	if (kcompat_registered && !strcmp(kcompat_registered->name, type->name))
		return -EEXIST;
	kcompat_registered = type;
	kcompat_nr_registered++;
	return 0;
}

int dm_unregister_path_selector(struct path_selector_type *type)
{
	if (kcompat_registered != type)
		return -EINVAL;
	kcompat_registered = NULL;
	return 0;
}

void kcompat_warnf(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (kcompat_env.warn)
		kcompat_env.warn(msg);
}

void kcompat_bug(const char *file, int line)
{
	fprintf(stderr, "mpsim: kernel BUG at %s:%d\n", file, line);
	abort();
}

static void *kcompat_check(void *p, size_t size)
{
	if (!p && size) {
		if (kcompat_env.oom)
			kcompat_env.oom(size);
		abort();
	}
	return p;
}

/*
 * Whether size is past limit: the kernel's NULL, said once as its
 * WARN_ON_ONCE is (the page allocator's order check, pcpu_alloc's size
 * check), so that a selector's out-of-memory path runs as it would
 * there.  what names the call.
 */
static bool past(size_t size, size_t limit, const char *what)
{
	static bool warned;

	if (size <= limit)
		return false;
	if (!warned)
		kcompat_warnf("%s of %zu bytes, past the kernel's limit of "
			      "%zu: NULL, as from the kernel", what, size,
			      limit);
	warned = true;
	return true;
}

void *kmalloc(size_t size, gfp_t flags)
{
	if (past(size, KMALLOC_MAX_SIZE, "kmalloc"))
		return NULL;
	return kcompat_check(malloc(size ? size : 1), size);
}

void *kzalloc(size_t size, gfp_t flags)
{
	if (past(size, KMALLOC_MAX_SIZE, "kzalloc"))
		return NULL;
	return kcompat_check(calloc(1, size ? size : 1), size);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	/* kmalloc_array(): NULL when n * size overflows */
	if (__builtin_mul_overflow(n, size, &bytes))
		bytes = SIZE_MAX;
	if (past(bytes, KMALLOC_MAX_SIZE, "kcalloc"))
		return NULL;
	return kcompat_check(calloc(n ? n : 1, size ? size : 1), bytes);
}

void kfree(const void *p)
{
	free((void *)p);
}

void *kcompat_alloc_percpu(size_t size)
{
	if (past(size, PCPU_MIN_UNIT_SIZE, "alloc_percpu"))
		return NULL;
	return kcompat_check(calloc(nr_cpu_ids ? nr_cpu_ids : 1,
				    size ? size : 1), nr_cpu_ids * size);
}

const struct cpumask *cpumask_of_node(unsigned int node)
{
	static struct cpumask m;
	unsigned int cpu;

	memset(&m, 0, sizeof(m));
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu_to_node(cpu) == node)
			cpumask_set_cpu(cpu, &m);
	return &m;
}

/*
 * One conversion of fmt at *f (after its '%') with its argument taken
 * from ap: %*pb prints a bitmap as lib/vsprintf.c's bitmap_string does;
 * anything else goes to vsnprintf with the argument its length modifier
 * names.  Returns the length the conversion would have.
 */
static int one_conversion(char *buf, size_t size, const char **f,
			  va_list *ap)
{
	char spec[32] = "%";
	const char *p = *f;
	size_t n = 1;
	int r;

	if (p[0] == '*' && p[1] == 'p' && p[2] == 'b') {
		int bits = va_arg(*ap, int);
		const unsigned long *mask = va_arg(*ap, const unsigned long *);

		*f = p + 3;
		return ps_cpumask_print(buf, size,
					(const struct ps_cpumask *)mask,
					bits > 0 ? (unsigned)bits : 0);
	}
	while (*p && !strchr("diouxXcspn%", *p) && n < sizeof(spec) - 2)
		spec[n++] = *p++;
	spec[n++] = *p;
	spec[n] = '\0';
	*f = *p ? p + 1 : p;
	switch (*p) {
	case '%':
		return snprintf(buf, size, "%%");
	case 's':
		return snprintf(buf, size, spec, va_arg(*ap, const char *));
	case 'p':
		return snprintf(buf, size, spec, va_arg(*ap, void *));
	default:
		break;
	}
	if (strstr(spec, "ll") || strchr(spec, 'z') || strchr(spec, 'l'))
		r = snprintf(buf, size, spec, va_arg(*ap, long long));
	else
		r = snprintf(buf, size, spec, va_arg(*ap, int));
	return r;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = 0;
	va_list ap;

	if (!size)
		return 0;
	va_start(ap, fmt);
	while (*fmt) {
		size_t room = len < size ? size - len : 0;
		int k;

		if (*fmt != '%') {
			if (room > 1)
				buf[len] = *fmt;
			len++;
			fmt++;
			continue;
		}
		fmt++;
		k = one_conversion(room ? buf + len : buf + size - 1,
				   room ? room : 1, &fmt, &ap);
		len += k > 0 ? (size_t)k : 0;
	}
	va_end(ap);
	/* scnprintf: what was written, without the NUL */
	if (len >= size)
		len = size - 1;
	buf[len] = '\0';
	return (int)len;
}
