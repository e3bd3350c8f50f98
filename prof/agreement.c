/* What GHC's own .prof of a run was seen to do beside the run's eventlog
 * samples, per GHC version and RTS, as docs/PROF.md records it: the
 * report's closing line and the tests read the same figures. And what
 * an RTS_IDENTIFIER says of the RTS (prof_rts_kind), which -pj's
 * initial_capabilities needs too. */
#include "prof/internal.h"

#include <stdio.h>
#include <string.h>

/* Per GHC version and RTS, the most seen: the "all" row of the summary in
 * docs/PROF.md ("What was measured": scripts/prof_bounds.sh's record in
 * tests/data/newprogs/prof_bounds.txt, 13 programs built -O -prof
 * -fprof-auto, 3 runs each of +RTS -p, -P and -pj, non-threaded and
 * -threaded -N1 and -N2), or where larger an observation of its "Other
 * observations" table (`others`). tests/cli/prof_truth.sh checks the
 * closing line against both. */
#define HOT_LOOP "worker threads in a hot loop"
static const struct measured {
    unsigned major, minor, patch;
    int threaded;
    prof_agreement a;
} table[] = {
#define M(g, thr, ex, n, tot, pm, prog, kind, oth)                                        \
    { .ghc = g, .threaded = thr, .exact = ex, .runs = n, .programs = 13,                 \
      .total_ticks = tot, .row_permille = pm, .row_program = prog, .row_kind = kind,     \
      .others = oth }
    { 9, 0, 2, 0, M("9.0.2", 0, 1, 117, 0, 0, NULL, NULL, 0) },
    { 9, 0, 2, 1, M("9.0.2", 1, 0, 234, 11, 697, "Rounds", HOT_LOOP, 1) },
    { 9, 6, 6, 0, M("9.6.6", 0, 0, 117, 4, 389, "Rounds", HOT_LOOP, 1) },
    { 9, 6, 6, 1, M("9.6.6", 1, 0, 234, 5, 357, "Rounds", HOT_LOOP, 1) },
    { 9, 10, 3, 0, M("9.10.3", 0, 0, 117, 4, 48, "Rounds", HOT_LOOP, 0) },
    { 9, 10, 3, 1, M("9.10.3", 1, 0, 234, 6, 439, "Rounds", HOT_LOOP, 0) },
#undef M
};

int prof_rts_kind(const char *rts)
{
    const char *f = rts ? strchr(rts, ' ') : NULL;
    if (!f || !f[1] || f[1] == ' ')
        return PROF_RTS_UNKNOWN;
    for (f++; *f && *f != ' ';) {
        size_t len = strcspn(f, "_ ");
        if (len == 3 && strncmp(f, "thr", 3) == 0)
            return PROF_RTS_THREADED;
        f += len;
        if (*f == '_')
            f++;
    }
    return PROF_RTS_NONTHREADED;
}

/* "GHC-9.6.6 rts_thr_p": the version's numbers and whether the RTS is
 * threaded. */
static int parse(const char *rts, unsigned v[3], int *threaded)
{
    int n;
    if (!rts || (n = sscanf(rts, "GHC-%u.%u.%u", &v[0], &v[1], &v[2])) < 2)
        return 0;
    if (n == 2)
        v[2] = 0;
    *threaded = prof_rts_kind(rts) == PROF_RTS_THREADED;
    return 1;
}

/* Versions as one number, for nearness: 9.6.6 -> 90606. */
static unsigned long vnum(unsigned major, unsigned minor, unsigned patch)
{
    return major * 10000UL + minor * 100UL + patch;
}

int prof_ghc_agreement(const char *rts_version, prof_agreement *out)
{
    unsigned v[3] = { 0, 0, 0 };
    int threaded;
    if (!parse(rts_version, v, &threaded))
        return 0;
    /* the version itself, else the nearest measured with the same kind of
     * ticker: every threaded RTS ticks from a thread of its own; so does
     * the non-threaded RTS from 9.2 on (an assumption: 9.2 and 9.4 were
     * not measured) as 9.6.6's does, where 9.0.2's is a signal handler on
     * the mutator's own thread */
    int early = v[0] < 9 || (v[0] == 9 && v[1] < 2);
    unsigned long want = vnum(v[0], v[1], v[2]), best = 0;
    const struct measured *m = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const struct measured *t = &table[i];
        unsigned long have = vnum(t->major, t->minor, t->patch);
        unsigned long d = have > want ? have - want : want - have;
        if (t->threaded != threaded ||
            (!threaded && early != (t->major < 9 || (t->major == 9 && t->minor < 2))))
            continue;
        if (!m || d <= best)     /* ties: the newer (the table is in order) */
            m = t, best = d;
    }
    *out = m->a;
    out->measured = v[0] == m->major && v[1] == m->minor && v[2] == m->patch;
    snprintf(out->log_ghc, sizeof out->log_ghc, "%u.%u.%u", v[0], v[1], v[2]);
    out->threaded = threaded;
    return 1;
}
