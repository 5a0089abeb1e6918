/* linux/cpumask.h: the kernel API of kcompat.h (see there). */
#include "../kcompat.h"
