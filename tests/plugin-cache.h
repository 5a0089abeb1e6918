/*
 * plugin-cache.h: the plugin cache the Criterion tests share.
 *
 * Tests that need a --selector-source plugin but are not about the
 * build or its cache set XDG_CACHE_HOME to one cache made before the
 * tests and removed after them (tests/test_ksource.c), so that each
 * plugin is compiled once per run and nothing is left in the user's own
 * cache.  Use as a test's .init.
 */
#ifndef MPSIM_TESTS_PLUGIN_CACHE_H
#define MPSIM_TESTS_PLUGIN_CACHE_H

void test_plugin_cache(void);

#endif
