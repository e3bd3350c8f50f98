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
/* The same under a selection (the driver's selection stage; NULL: all). */
prof_result *test_profile_mem_sel(const uint8_t *buf, size_t len, const prof_filter *f,
                                  const ev_select *sel);

/* Reads a log (path, or buf/len when path is NULL) through a driver with
 * the selection sel (NULL: all) into the n analyses ops[i] / self[i];
 * returns its status. */
ev_status test_read(const char *path, const uint8_t *buf, size_t len, const ev_select *sel,
                    const ev_analysis_ops *const *ops, void *const *self, size_t n);
/* One window [from, to) and a capability (-1: all); destroy with
 * ev_select_destroy. */
ev_select *test_window(uint64_t from, uint64_t to, int32_t cap);

#endif
