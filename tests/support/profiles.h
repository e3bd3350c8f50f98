/* Test helpers: the time-profile logs and building profiles from them. */
#ifndef EVPROF_TEST_PROFILES_H
#define EVPROF_TEST_PROFILES_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/prof.h"

#define GHC_DATA "tests/data/ghc"

/* Every time-profile log of the corpus and of tests/data/ghc, and GHC
 * 9.6.6 runs of tests/data/ghc-9.6 (-fprof-auto, -fprof-late, -N2). */
extern const char *const test_time_logs[];
extern const size_t test_num_time_logs;

/* A finished profile of a whole log (a test failure if it does not read
 * to its end marker). f may be NULL. The caller destroys it. */
prof_result *test_profile_path(const char *path, const prof_filter *f);
prof_result *test_profile_mem(const uint8_t *buf, size_t len, const prof_filter *f);

#endif
