/* hostile_log: writes the hostile eventlogs of the reliability campaign
 * (issue 27, points 15-18 and 23) with the project's writer, so that the
 * tests make them when they run instead of keeping large files:
 *
 *     hostile_log OUT.eventlog SHAPE [N]
 *
 *   heap-bands N  a heap profile by closure type (+RTS -hT) whose one
 *                 census has N bands, each its own closure name
 *   ticky N       N ticky counters (definition and one sample each)
 *   samples N     a time profile of N samples over 8 cost centres, the
 *                 stacks 1 to 8 frames deep (speedscope keeps each one)
 *   marks N       N marks (traceMarker), each with a label of its own,
 *                 between time-profile samples
 *   controls      labels, marks, messages and program arguments holding
 *                 NUL, BEL, ESC, DEL, C1 controls and bytes that are not
 *                 UTF-8, beside printable ones
 *   end-mid N     a log without block markers (like ghc-events' oldest
 *                 test logs): N events, an end marker, N more events and
 *                 the end marker
 *   end-over N    the same with the end marker written over the type of
 *                 a record of its own (then the N more events)
 *   long-label N  a cost centre whose label is N bytes (at most 65000)
 *                 among three short ones that call it and that it calls,
 *                 with samples in each
 *   long-mark N   two marks, "short" and one whose label is N bytes (at
 *                 most 65000: "long", an ESC, then "abcd\xc3\xa9" again and
 *                 again), twice each, between samples of main
 *
 * Every log is GHC 9.2's header (it declares the ticky events) and, but
 * end-mid and end-over, one capability block per 1 MiB of events. The same arguments
 * give the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/eventlog.h"
#include "evprof/writer.h"

#define BLOCK_BYTES (1u << 20)

typedef struct gen {
    el_writer *w;
    uint64_t t;             /* the time of the next event, ns */
    uint64_t block_start;   /* the writer's offset where the open block began */
    int blocks;             /* 0: no block markers (end-mid) */
} gen;

/* The time of the next event; a new block when the open one is full. */
static uint64_t next(gen *g)
{
    g->t += 1000;
    if (g->blocks && el_writer_offset(g->w) - g->block_start >= BLOCK_BYTES) {
        el_writer_end_block(g->w, g->t);
        g->block_start = el_writer_offset(g->w);
        el_writer_begin_block(g->w, 0, g->t);
    }
    return g->t;
}

static void start(gen *g, const char *prog)
{
    const char *argv[] = { prog, "+RTS", "-p", "-l", "-RTS" };
    el_writer_declare_ghc(g->w, EL_GHC_9_2);
    if (g->blocks) {
        g->block_start = el_writer_offset(g->w);
        el_writer_begin_block(g->w, 0, 0);
    }
    el_writer_capset_create(g->w, next(g), 0, 2);
    el_writer_rts_identifier(g->w, next(g), 0, "GHC-9.2.8 rts_p");
    el_writer_program_args(g->w, next(g), 0, 5, argv);
    el_writer_wall_clock(g->w, next(g), 0, 1700000000, 0);
}

static void cost_centres(gen *g, unsigned n)
{
    char label[32];
    for (unsigned i = 1; i <= n; i++) {
        snprintf(label, sizeof label, i == 1 ? "main" : "f%u", i);
        el_writer_cost_centre(g->w, next(g), i, label, "Main", "Main.hs:1:1-10", 0);
    }
    el_writer_prof_begin(g->w, next(g), 1000000);
}

static void sample(gen *g, unsigned depth, const uint32_t *stack)
{
    el_writer_prof_sample(g->w, next(g), 0, 1, (uint8_t)depth, stack);
}

static void heap_bands(gen *g, unsigned long n)
{
    char name[32];
    el_writer_heap_prof_begin(g->w, next(g), 0, 100000000, 7 /* closure type */, NULL);
    el_writer_heap_sample_begin(g->w, next(g), 1);
    for (unsigned long i = 0; i < n; i++) {
        snprintf(name, sizeof name, "T%lu", i);
        el_writer_heap_sample_string(g->w, next(g), 0, 16 + i % 1000, name);
    }
    el_writer_heap_sample_end(g->w, next(g), 1);
}

static void ticky(gen *g, unsigned long n)
{
    char name[80];
    for (unsigned long i = 0; i < n; i++) {
        snprintf(name, sizeof name, "Main.counter%lu{v r%lu} (fun)", i, i);
        el_writer_ticky_def(g->w, next(g), EL_TICKY_DEF_BASIC, i + 1, 1, "L", name, 0, NULL);
    }
    el_writer_ticky_begin(g->w, next(g));
    for (unsigned long i = 0; i < n; i++)
        el_writer_ticky_sample(g->w, next(g), i + 1, 10 + i % 7, 2, 48);
}

static void samples(gen *g, unsigned long n)
{
    uint32_t stack[8];
    cost_centres(g, 8);
    for (unsigned long i = 0; i < n; i++) {
        unsigned depth = 1 + (unsigned)(i % 8);
        for (unsigned k = 0; k < depth; k++)
            stack[k] = depth - k;       /* innermost first, main (1) outermost */
        sample(g, depth, stack);
    }
}

static void marks(gen *g, unsigned long n)
{
    char label[32];
    const uint32_t main_only[] = { 1 };
    cost_centres(g, 1);
    for (unsigned long i = 0; i < n; i++) {
        snprintf(label, sizeof label, "phase %lu", i);
        el_writer_event(g->w, EL_USER_MARKER, next(g), label, strlen(label));
        sample(g, 1, main_only);
    }
}

/* A label with every kind of byte that must not reach a terminal raw. */
static const char hostile[] = "a\x1b[31mred\x07 bell\x7f del\xc2\x85 c1\xc2\x9b csi\xff bad";

static void controls(gen *g)
{
    const uint32_t stack[] = { 2, 1 };
    el_writer_cost_centre(g->w, next(g), 1, "main", "Main", "Main.hs:1:1", 0);
    el_writer_cost_centre(g->w, next(g), 2, hostile, "M\x1b]0;title\x07od", "F\x9b.hs", 0);
    el_writer_prof_begin(g->w, next(g), 1000000);
    el_writer_event(g->w, EL_USER_MARKER, next(g), "go\x1b[2J", 6);
    el_writer_user_msg(g->w, next(g), hostile);
    el_writer_log_msg(g->w, next(g), "log\x1b[1m");
    el_writer_user_msg(g->w, next(g), "two\nlines\r\tend\n");
    /* a NUL inside a mark's label: the record carries its length */
    el_writer_event(g->w, EL_USER_MARKER, next(g), "nul\0after", 9);
    for (int i = 0; i < 4; i++)
        sample(g, 2, stack);
    el_writer_event(g->w, EL_USER_MARKER, next(g), "go\x1b[2J", 6);
}

/* over: the end marker is written over the type of a whole record (a
 * RUN_THREAD's time and thread follow it), else put between two records */
static void end_mid(gen *g, unsigned long n, int over)
{
    for (unsigned long i = 0; i < n; i++)
        el_writer_create_thread(g->w, next(g), (uint32_t)i + 1);
    el_writer_raw(g->w, "\xff\xff", 2);
    if (over) {
        uint8_t rest[12] = { 0 };
        uint64_t t = next(g);
        for (int k = 0; k < 8; k++)
            rest[k] = (uint8_t)(t >> (56 - 8 * k));
        rest[11] = 1;
        el_writer_raw(g->w, rest, sizeof rest);
    }
    for (unsigned long i = 0; i < n; i++)
        el_writer_run_thread(g->w, next(g), (uint32_t)i + 1);
}

static void long_label(gen *g, unsigned long n)
{
    char *label = malloc(n + 1);
    const uint32_t deep[] = { 2, 1 }, top[] = { 1 };
    if (!label)
        return;
    for (unsigned long i = 0; i < n; i++)
        label[i] = (char)('a' + i % 26);
    label[n] = '\0';
    /* main calls the long one, g and h; g calls the long one and h; the
     * long one calls h: edges that route around its box */
    const uint32_t via_g[] = { 2, 3, 1 }, g_h[] = { 4, 3, 1 }, long_h[] = { 4, 2, 1 },
                   g_only[] = { 3, 1 }, h_only[] = { 4, 1 };
    el_writer_cost_centre(g->w, next(g), 1, "main", "Main", "Main.hs:1:1", 0);
    el_writer_cost_centre(g->w, next(g), 2, label, "Main", "Main.hs:2:1", 0);
    el_writer_cost_centre(g->w, next(g), 3, "g", "Main", "Main.hs:3:1", 0);
    el_writer_cost_centre(g->w, next(g), 4, "h", "Main", "Main.hs:4:1", 0);
    el_writer_prof_begin(g->w, next(g), 1000000);
    for (int i = 0; i < 10; i++) {
        sample(g, 2, deep);
        sample(g, 3, via_g);
        sample(g, 3, g_h);
        sample(g, 3, long_h);
        sample(g, 2, g_only);
        sample(g, 2, h_only);
    }
    for (int i = 0; i < 5; i++)
        sample(g, 1, top);
    free(label);
}

static void long_mark(gen *g, unsigned long n)
{
    char *label = malloc(n + 6);
    const uint32_t main_only[] = { 1 };
    if (!label)
        return;
    static const char unit[] = "abcd\xc3\xa9";
    size_t len = 0;
    memcpy(label, "long\x1b", 5);
    for (len = 5; len + 6 <= n; len += 6)
        memcpy(label + len, unit, 6);
    while (len < n)
        label[len++] = 'z';
    cost_centres(g, 1);
    for (int k = 0; k < 2; k++) {
        sample(g, 1, main_only);
        el_writer_event(g->w, EL_USER_MARKER, next(g), "short", 5);
        sample(g, 1, main_only);
        el_writer_event(g->w, EL_USER_MARKER, next(g), label, len);
        sample(g, 1, main_only);
    }
    free(label);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: hostile_log OUT.eventlog SHAPE [N] (see the source)\n");
        return 2;
    }
    const char *shape = argv[2];
    unsigned long n = argc > 3 ? strtoul(argv[3], NULL, 10) : 0;
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    gen g = { el_writer_create_file(f), 0, 0, strncmp(shape, "end-", 4) != 0 };
    if (!g.w) {
        fprintf(stderr, "hostile_log: out of memory\n");
        return 1;
    }
    start(&g, "./hostile");
    if (strcmp(shape, "heap-bands") == 0)
        heap_bands(&g, n);
    else if (strcmp(shape, "ticky") == 0)
        ticky(&g, n);
    else if (strcmp(shape, "samples") == 0)
        samples(&g, n);
    else if (strcmp(shape, "marks") == 0)
        marks(&g, n);
    else if (strcmp(shape, "controls") == 0)
        controls(&g);
    else if (strcmp(shape, "end-mid") == 0 || strcmp(shape, "end-over") == 0)
        end_mid(&g, n, shape[4] == 'o');
    else if (strcmp(shape, "long-label") == 0 && n <= 65000)
        long_label(&g, n);
    else if (strcmp(shape, "long-mark") == 0 && n >= 5 && n <= 65000)
        long_mark(&g, n);
    else {
        fprintf(stderr, "hostile_log: unknown shape '%s' (or N too large)\n", shape);
        return 2;
    }
    if (g.blocks)
        el_writer_end_block(g.w, g.t);
    ev_status st = el_writer_finish(g.w);
    if (st != EV_OK) {
        fprintf(stderr, "hostile_log: %s\n", el_writer_error_msg(g.w));
        return 1;
    }
    el_writer_destroy(g.w);
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
