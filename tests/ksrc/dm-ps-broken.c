// Does not compile: for the test of a compiler failure.
#include <linux/module.h>
static int broken(void) { return undeclared_thing; }
