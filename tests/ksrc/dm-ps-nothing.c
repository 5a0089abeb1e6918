// Compiles, but registers no selector.
#include <linux/module.h>
int toy_nothing;
