/* linux/errno.h: the error numbers, as the C library's <errno.h> also
 * reaches them (so this one must not pull in kcompat.h). */
#include <asm/errno.h>
