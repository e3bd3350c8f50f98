/* How far GHC's own .prof of a run was from the run's eventlog samples,
 * per GHC version and RTS, as measured (docs/PROF.md): the report's
 * closing line and the tests read the same figures. */
#include "evprof/prof.h"

#include <stdio.h>
#include <string.h>

/* Measured with scripts/prof_bounds.sh, twice: on four programs (Sim,
 * Parse, Workers, Mutual), then on those and Rounds (worker threads in a
 * hot foldl' loop), each built -prof -fprof-auto, 4 runs of each with -p
 * and with -pj, non-threaded, -threaded -N1 and -N2: 192 + 240 runs. The
 * row bound is the worst row of the first four programs' runs as "A ticks
 * + B% of the run's total"; Rounds, whose every tick falls in a loop that
 * enters a lambda millions of times, moved far more between `work` and
 * its callee `work.\` (loop_pct). Totals: GHC 9.0.2's threaded -p totals
 * were 4 ticks apart here, 7 on issue 27's runs and 10 on a -O0 build of
 * Rounds (docs/PROF.md). */
static const struct measured {
    unsigned major, minor, patch;
    int threaded;
    prof_agreement a;
} table[] = {
#define M(g, thr, ex, n, tot, rt, rp, lp)                                                  \
    { .ghc = g, .threaded = thr, .exact = ex, .runs = n, .total_ticks = tot,             \
      .row_ticks = rt, .row_pct = rp, .loop_pct = lp }
    { 9, 0, 2, 0, M("9.0.2", 0, 1, 72, 0, 0, 0, 0) },
    { 9, 0, 2, 1, M("9.0.2", 1, 0, 144, 10, 5, 12, 70) },
    { 9, 6, 6, 0, M("9.6.6", 0, 0, 72, 4, 5, 12, 39) },
    { 9, 6, 6, 1, M("9.6.6", 1, 0, 144, 2, 5, 6, 36) },
#undef M
};

/* "GHC-9.6.6 rts_thr_p": the version's numbers and whether the flavour
 * (the '_'-separated words after the space) has "thr". */
static int parse(const char *rts, unsigned v[3], int *threaded)
{
    int n;
    if (!rts || (n = sscanf(rts, "GHC-%u.%u.%u", &v[0], &v[1], &v[2])) < 2)
        return 0;
    if (n == 2)
        v[2] = 0;
    *threaded = 0;
    const char *f = strchr(rts, ' ');
    for (f = f ? f + 1 : NULL; f && *f && *f != ' ';) {
        size_t len = strcspn(f, "_ ");
        if (len == 3 && strncmp(f, "thr", 3) == 0)
            *threaded = 1;
        f += len;
        if (*f == '_')
            f++;
    }
    return 1;
}

int prof_ghc_agreement(const char *rts_version, prof_agreement *out)
{
    unsigned v[3] = { 0, 0, 0 };
    int threaded;
    if (!parse(rts_version, v, &threaded))
        return 0;
    /* the version itself, else the nearest measured: 9.0.2's non-threaded
     * ticker is a signal handler on the mutator's thread; from 9.2 on the
     * non-threaded RTS ticks from a thread of its own, as 9.6.6's does */
    const struct measured *m = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].threaded == threaded &&
            (v[0] > 9 || (v[0] == 9 && v[1] >= 2)) == (table[i].major > 9 || table[i].minor >= 2))
            m = &table[i];
    *out = m->a;
    out->measured = v[0] == m->major && v[1] == m->minor && v[2] == m->patch;
    snprintf(out->log_ghc, sizeof out->log_ghc, "%u.%u.%u", v[0], v[1], v[2]);
    out->threaded = threaded;
    return 1;
}
