/* topcc: the ten cost centres of a GHC eventlog with the most ticks, by
 * individual ticks (their own samples, GHC's summary) or, with -i, by
 * inherited ticks (samples anywhere under them, each stack counted once
 * however often recursion repeats the cost centre). Same rules as
 * `evprof report` (GHC's built-in stacks are not counted).
 *
 *     cc topcc.c $(pkg-config --cflags --libs evprof) -o topcc
 *     ./topcc [-i] prog.eventlog
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <evprof/evprof.h>

typedef struct tally {
    const prof_result *r;
    uint64_t *ticks;            /* per cost centre */
    uint32_t *open;             /* per cost centre: times on the current path */
    int inherited;
} tally;

static int enter(void *ctx, uint32_t i)
{
    tally *t = ctx;
    const prof_node *n = prof_node_at(t->r, i);
    if (!t->inherited)
        t->ticks[n->cc] += n->ticks;
    else if (t->open[n->cc]++ == 0)     /* outermost occurrence on this path */
        t->ticks[n->cc] += n->inherited;
    return 0;
}

static int leave(void *ctx, uint32_t i)
{
    tally *t = ctx;
    t->open[prof_node_at(t->r, i)->cc]--;
    return 0;
}

static int by_ticks(const void *a, const void *b)
{
    const prof_cc_total *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks < y->ticks ? 1 : -1;
    return x->cc < y->cc ? -1 : x->cc > y->cc;
}

int main(int argc, char **argv)
{
    int inherited = argc == 3 && strcmp(argv[1], "-i") == 0;
    if (argc != 2 + inherited) {
        fprintf(stderr, "usage: topcc [-i] FILE.eventlog   (evprof %s)\n", EVPROF_VERSION_STRING);
        return 2;
    }
    const char *path = argv[argc - 1];
    ev_driver *d = ev_driver_create(NULL);
    prof_profile *p = prof_create(NULL);
    if (!d || !p || ev_driver_attach(d, &prof_analysis_ops, p) != 0)
        return 1;
    const ev_stream *s = ev_driver_run_path(d, path);
    prof_result *r = prof_snapshot(p);          /* the profile of every event read */
    size_t n = r ? prof_num_ccs(r) : 0;
    tally t = { r, calloc(n + 1, sizeof *t.ticks), calloc(n + 1, sizeof *t.open), inherited };
    prof_cc_total *rows = calloc(n + 1, sizeof *rows);
    if (!r || !t.ticks || !t.open || !rows) {
        fprintf(stderr, "topcc: out of memory\n");
        return 1;
    }
    prof_walk(r, enter, inherited ? leave : NULL, &t);
    for (uint32_t i = 0; i < n; i++)
        rows[i] = (prof_cc_total){ .cc = i, .ticks = t.ticks[i] };
    qsort(rows, n, sizeof *rows, by_ticks);
    for (size_t i = 0; i < n && i < 10 && rows[i].ticks > 0; i++) {
        const prof_cc *cc = prof_cc_at(r, rows[i].cc);
        printf("%8" PRIu64 "  %s.%s\n", rows[i].ticks, cc->module, cc->label);
    }
    int damaged = ev_stream_damaged(s);         /* the rows above are still honest */
    if (damaged)
        fprintf(stderr, "topcc: %s: %s (the ticks are those of the events read)\n", path,
                s->read.error.msg[0] ? s->read.error.msg : "damaged blocks skipped");
    free(rows);
    free(t.open);
    free(t.ticks);
    prof_result_destroy(r);
    prof_destroy(p);
    ev_driver_destroy(d);
    return damaged;
}
