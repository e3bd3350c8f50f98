/* heap/: what the writers share with the profile (not public). */
#ifndef EVPROF_HEAP_INTERNAL_H
#define EVPROF_HEAP_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "evprof/heap.h"

/* Window of the profile: the .hp's opening and closing empty samples. */
uint64_t heap_window_from(const heap_profile *h);
uint64_t heap_window_to(const heap_profile *h);

/* ---- the executable's symbols (heap/exe.c) ---------------------------- */

/* An IPE entry, as evidence that an executable is the run's program. */
typedef struct heap_exe_ipe {
    uint64_t info;              /* the entry's address (an -hi band's) */
    const char *table, *module; /* its table name ("Add_con_info"), its module */
    uint32_t table_len, module_len;
} heap_exe_ipe;

typedef struct heap_exe_result {
    int ok;                     /* the file is the program of the run */
    uint64_t delta;             /* band address + delta = symbol address */
    size_t sample, hits;        /* band addresses tried, those on a symbol */
    size_t ipe_found;           /* IPE entries whose symbols the file has */
    size_t ipe_agree, ipe_disagree; /* the symbols at IPE addresses, by name */
    char why[400];              /* not ok: why, a clause ("only 1 of the 16 ...") */
} heap_exe_result;

/* Whether x is the program whose -hi census showed the band addresses
 * `addrs` (the ones no IPE entry names) and whose log has the IPE entries
 * `ipes`; where its symbols lie from the bands (the delta). Candidates:
 * for an executable, sizeof(StgInfoTable) (0, 16, 32); for any, the
 * distances from an IPE entry's address to its symbol by name (a PIE is
 * placed only so). The best by bands landing on symbols, then by IPE
 * names agreeing (an entry whose address holds a symbol of another name
 * counts against). The file is taken when no more than a quarter of the named
 * entries disagree, and two or more bands and at least a quarter of them
 * land (a census of fewer than 4 such bands: all land, or two IPE entries
 * agree). */
void heap_exe_match(const heap_exe *x, const uint64_t *addrs, size_t n,
                    const heap_exe_ipe *ipes, size_t nipe, heap_exe_result *m);
/* GHC's Z-decoding of s[0..len) into out: the length, or -1 (not Z-encoded,
 * or out too small). */
long heap_exe_zdecode(const char *s, size_t len, char *out, size_t cap);
/* Bytes the table has charged. */
size_t heap_exe_bytes(const heap_exe *x);

#endif
