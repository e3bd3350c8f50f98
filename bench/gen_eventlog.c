/* gen_eventlog: writes a synthetic GHC-like eventlog of a requested size,
 * for the benchmark (docs/BENCH.md).
 *
 *     gen_eventlog OUT.eventlog SIZE_MB [--caps N] [--depth D] [--seed S]
 *                  [--ccs K] [--stacks P] [--sample-share PCT]
 *                  [--min-depth D] [--fresh PCT] [--fresh-frames N]
 *                  [--heap BANDS]
 *
 * The log looks like a profiled, threaded GHC 9.0 program run with
 * `+RTS -p -l -N<caps>`: GHC 9.0's header, a global block with the
 * start-up events (capsets, RTS identifier, arguments, heap parameters,
 * PROF_BEGIN, K cost-centre definitions), then rounds of blocks: a global
 * block of time-profile samples (167, one per capability per 1 ms tick,
 * stacks 20..D deep drawn from a fixed pool of P distinct stacks with a
 * skewed distribution, or with --fresh a share of new stacks that keep
 * some outer frames of the capability's previous one), and one block per
 * capability with scheduler and
 * GC events (run/stop/create thread, GC start/work/idle/done/end, heap
 * allocated/size/live, GC statistics, spark counters, user messages).
 * With --heap, the program also ran with +RTS -hc: every 10 ticks the
 * sample block holds a heap census of BANDS cost-centre stacks (the
 * pool's first ones), each band's bytes a random walk.
 * Blocks are split at 2 MiB like GHC's per-capability buffers. The same
 * arguments give the same bytes. The file is written to OUT.tmp and
 * renamed when complete.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evprof/eventlog.h"
#include "evprof/heap.h"
#include "evprof/writer.h"

#define TICK_NS 1000000u                 /* -p samples every 1 ms */
#define MAX_BLOCK_BYTES ((uint64_t)2 << 20)  /* GHC's 2 MiB event buffers */
#define MAX_CAPS 256

/* ---- deterministic random numbers (splitmix64) ------------------------ */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static uint32_t rng_range(uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(rng_next() % ((uint64_t)hi - lo + 1));
}

static double rng_unit(void)
{
    return (double)(rng_next() >> 11) / 9007199254740992.0;
}

/* ---- options ---------------------------------------------------------- */

typedef struct options {
    const char *out;
    uint64_t size;               /* bytes */
    unsigned caps;
    unsigned min_depth, max_depth;
    uint64_t seed;
    unsigned ccs;                /* 0: drawn from the seed, 200..2000 */
    unsigned stacks;
    unsigned sample_share;       /* percent of bytes in 167 samples */
    unsigned fresh;              /* percent of samples with a new stack */
    unsigned fresh_frames;       /* 0: about half the frames new, else 1..N */
    unsigned heap_bands;         /* 0: no heap profile */
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gen_eventlog OUT.eventlog SIZE_MB [options]\n"
            "  --caps N           capabilities (default 4, at most %d)\n"
            "  --depth D          deepest time-profile stack, 1..255 (default 200);\n"
            "                     stacks are min(20,D)..D deep\n"
            "  --min-depth D      shallowest stack, 1..--depth (default min(20,D))\n"
            "  --seed S           random seed (default 1)\n"
            "  --ccs K            cost centres (default: 200..2000 from the seed)\n"
            "  --stacks P         distinct stacks sampled, at most 100000 (default 10000)\n"
            "  --sample-share PCT share of bytes in profile samples, 1..100 (default 50)\n"
            "  --fresh PCT        share of samples whose stack is new, 0..100 (default 0):\n"
            "                     the capability's previous stack with about half its\n"
            "                     frames (the inner ones) replaced\n"
            "  --fresh-frames N   new stacks replace 1..N inner frames instead\n"
            "  --heap BANDS       a heap profile by cost-centre stack (+RTS -hc): a\n"
            "                     census of BANDS stacks every 10 ticks (default 0: none)\n",
            MAX_CAPS);
}

static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* The value after option argv[*i], or NULL when there is none. */
static const char *opt_value(int argc, char **argv, int *i)
{
    return *i + 1 < argc ? argv[++*i] : NULL;
}

/* 0: parsed, 1: help asked, -1: usage error. */
static int parse_args(int argc, char **argv, options *o)
{
    *o = (options){ .caps = 4, .max_depth = 200, .seed = 1, .stacks = 10000,
                    .sample_share = 50 };
    int positional = 0;
    unsigned min_depth = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            return 1;
        } else if (strcmp(a, "--caps") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, MAX_CAPS, &v))
                return -1;
            o->caps = (unsigned)v;
        } else if (strcmp(a, "--depth") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, EL_MAX_STACK, &v))
                return -1;
            o->max_depth = (unsigned)v;
        } else if (strcmp(a, "--min-depth") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, EL_MAX_STACK, &v))
                return -1;
            min_depth = (unsigned)v;
        } else if (strcmp(a, "--fresh-frames") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, EL_MAX_STACK, &v))
                return -1;
            o->fresh_frames = (unsigned)v;
        } else if (strcmp(a, "--heap") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, 100000, &v))
                return -1;
            o->heap_bands = (unsigned)v;
        } else if (strcmp(a, "--fresh") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 0, 100, &v))
                return -1;
            o->fresh = (unsigned)v;
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 0, UINT64_MAX, &v))
                return -1;
            o->seed = v;
        } else if (strcmp(a, "--ccs") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 2, 100000000, &v))
                return -1;
            o->ccs = (unsigned)v;
        } else if (strcmp(a, "--stacks") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, 100000, &v))
                return -1;
            o->stacks = (unsigned)v;
        } else if (strcmp(a, "--sample-share") == 0) {
            if (parse_u64(opt_value(argc, argv, &i), 1, 100, &v))
                return -1;
            o->sample_share = (unsigned)v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return -1;
        } else if (positional == 0) {
            o->out = a;
            positional++;
        } else if (positional == 1) {
            if (parse_u64(a, 1, (uint64_t)1 << 24, &v))
                return -1;
            o->size = v << 20;
            positional++;
        } else {
            return -1;
        }
    }
    if (positional != 2)
        return -1;
    o->min_depth = o->max_depth < 20 ? 1 : 20;
    if (min_depth) {
        if (min_depth > o->max_depth)
            return -1;
        o->min_depth = min_depth;
    }
    return 0;
}

/* ---- cost centres and the stack pool ---------------------------------- */

static const char *const modules[] = {
    "Main", "Data.Map.Internal", "Data.IntMap.Internal", "Parser", "Parser.Lexer",
    "Codegen", "Codegen.Emit", "Types.Check", "Types.Unify", "Util", "Util.Pretty",
    "Control.Monad.State", "Data.Text.Internal", "Data.ByteString", "Solver",
    "Solver.Simplify", "Optimise", "Optimise.Inline", "IO.Output", "Config",
};
#define N_MODULES (sizeof modules / sizeof modules[0])

static const char *const verbs[] = {
    "go", "loop", "step", "eval", "lookup", "insert", "fold", "walk", "parse",
    "emit", "check", "unify", "simplify", "render", "merge", "split", "build", "run",
};
#define N_VERBS (sizeof verbs / sizeof verbs[0])

typedef struct stack_pool {
    unsigned n;
    unsigned max_depth;
    uint8_t *depth;              /* [n] */
    uint32_t *frames;            /* [n * max_depth], innermost first */
} stack_pool;

/* Fills outer[keep..depth) (outermost first) with calls made from
 * outer[keep - 1]: some recursive (a cost centre already on the stack),
 * some to nearby cost centres, some anywhere. */
static void grow_frames(uint32_t *outer, unsigned keep, unsigned depth, unsigned ccs)
{
    for (unsigned i = keep; i < depth; i++) {
        double u = rng_unit();
        if (u < 0.25 && i > 1)
            outer[i] = outer[rng_range(i > 8 ? i - 8 : 1, i - 1)];  /* recursion */
        else if (u < 0.6)
            outer[i] = 2 + (outer[i - 1] + rng_range(0, 7)) % (ccs - 1);  /* nearby */
        else
            outer[i] = rng_range(2, ccs);
    }
}

/* Stacks that share prefixes like a real call tree: each new stack copies
 * the outer part of an earlier one and grows new frames under it, some of
 * them recursive (a cost centre already on the stack). The outermost frame
 * is always cost centre 1 ("main"). */
static int make_stacks(stack_pool *pool, const options *o, unsigned ccs)
{
    pool->n = o->stacks;
    pool->max_depth = o->max_depth;
    pool->depth = malloc(pool->n);
    pool->frames = malloc((size_t)pool->n * o->max_depth * sizeof *pool->frames);
    uint32_t *outer = malloc(o->max_depth * sizeof *outer);   /* outermost first */
    if (pool->depth == NULL || pool->frames == NULL || outer == NULL) {
        free(outer);
        return -1;
    }
    for (unsigned s = 0; s < pool->n; s++) {
        unsigned depth = rng_range(o->min_depth, o->max_depth);
        unsigned keep = 1;
        outer[0] = 1;
        if (s > 0 && rng_unit() > 0.05) {
            unsigned parent = rng_range(0, s - 1);
            unsigned pd = pool->depth[parent];
            const uint32_t *pf = pool->frames + (size_t)parent * pool->max_depth;
            keep = rng_range(1, pd < depth ? pd : depth);
            for (unsigned i = 0; i < keep; i++)
                outer[i] = pf[pd - 1 - i];
        }
        grow_frames(outer, keep, depth, ccs);
        uint32_t *f = pool->frames + (size_t)s * pool->max_depth;
        for (unsigned i = 0; i < depth; i++)
            f[i] = outer[depth - 1 - i];
        pool->depth[s] = (uint8_t)depth;
    }
    free(outer);
    return 0;
}

/* A skewed pick: a few stacks are hot, most are rare. */
static unsigned pick_stack(const stack_pool *pool)
{
    double u = rng_unit();
    unsigned i = (unsigned)(u * u * u * pool->n);
    return i < pool->n ? i : pool->n - 1;
}

/* ---- generation ------------------------------------------------------- */

typedef struct gen {
    el_writer *w;
    const options *o;
    stack_pool pool;
    uint64_t events;
    uint64_t samples;
    uint64_t ticks;              /* profiling ticks so far */
    uint64_t block_start;        /* writer offset of the open block */
    uint16_t block_cap;
    /* per capability */
    uint32_t cur_thread[MAX_CAPS];
    uint32_t next_thread;
    uint64_t allocated;
    uint64_t gcs;
    uint64_t spark_created;
    /* --fresh: each capability's last stack, innermost first */
    uint32_t *cur_frames;        /* [caps * max_depth] */
    uint8_t cur_depth[MAX_CAPS];
    uint32_t outer[EL_MAX_STACK];
    unsigned ccs;
    /* --heap: each band's bytes, the censuses so far */
    uint64_t *band_bytes;
    uint64_t eras;
} gen;

/* The stack of capability c's next sample, innermost first: a new one
 * (--fresh) that keeps an outer part of the capability's previous stack,
 * or one from the pool. */
static const uint32_t *next_stack(gen *g, unsigned c, unsigned *depth)
{
    const options *o = g->o;
    uint32_t *cur = g->cur_frames + (size_t)c * o->max_depth;
    unsigned cd = g->cur_depth[c];
    if (o->fresh && cd && rng_range(0, 99) < o->fresh) {
        unsigned d = rng_range(o->min_depth, o->max_depth);
        unsigned lim = cd < d ? cd : d;
        /* keep 1..lim-1 outer frames (all of a one-frame stack): on
         * average half of them, at least one new frame */
        unsigned keep = lim > 1 ? rng_range(1, lim - 1) : 1;
        if (o->fresh_frames) {       /* or all but 1..N inner frames */
            unsigned n = rng_range(1, o->fresh_frames);
            keep = cd > n ? cd - n : 1;
            if (keep >= d)
                keep = d > 1 ? d - 1 : 1;
            else if (keep + n < d)
                d = keep + n;
            if (d < o->min_depth)
                d = o->min_depth;
        }
        for (unsigned i = 0; i < keep; i++)
            g->outer[i] = cur[cd - 1 - i];
        if (keep == d)                   /* depth 1: a new outermost frame */
            g->outer[0] = rng_range(2, g->ccs);
        else
            grow_frames(g->outer, keep, d, g->ccs);
        for (unsigned i = 0; i < d; i++)
            cur[i] = g->outer[d - 1 - i];
        g->cur_depth[c] = (uint8_t)d;
        *depth = d;
        return cur;
    }
    unsigned s = pick_stack(&g->pool);
    const uint32_t *frames = g->pool.frames + (size_t)s * g->pool.max_depth;
    *depth = g->pool.depth[s];
    if (o->fresh) {
        memcpy(cur, frames, *depth * sizeof *cur);
        g->cur_depth[c] = (uint8_t)*depth;
    }
    return frames;
}

static int check(gen *g, ev_status st)
{
    if (st != EV_OK)
        return -1;
    g->events++;
    return 0;
}

static int begin_block(gen *g, uint16_t cap, uint64_t t)
{
    g->block_start = el_writer_offset(g->w);
    g->block_cap = cap;
    return check(g, el_writer_begin_block(g->w, cap, t));
}

/* When the block is about to outgrow GHC's buffer size, ends it at end
 * time t and starts a new one: call before each event or event group
 * (a group is well under 4 KiB). */
static int split_block(gen *g, uint64_t t)
{
    if (el_writer_offset(g->w) - g->block_start < MAX_BLOCK_BYTES - 4096)
        return 0;
    if (el_writer_end_block(g->w, t) != EV_OK)
        return -1;
    return begin_block(g, g->block_cap, t);
}

static int write_startup(gen *g, unsigned ccs)
{
    el_writer *w = g->w;
    const options *o = g->o;
    uint64_t t = 120000;
    if (begin_block(g, EL_NO_CAP, t))
        return -1;
    if (check(g, el_writer_capset_create(w, t += 600, 0, 2)) ||   /* OS process */
        check(g, el_writer_capset_create(w, t += 200, 1, 3)))     /* clock domain */
        return -1;
    for (unsigned c = 0; c < o->caps; c++) {
        if (check(g, el_writer_cap_create(w, t += 150, (uint16_t)c)) ||
            check(g, el_writer_capset_assign_cap(w, t += 80, 0, (uint16_t)c)) ||
            check(g, el_writer_capset_assign_cap(w, t += 60, 1, (uint16_t)c)))
            return -1;
    }
    char ncaps[32];
    snprintf(ncaps, sizeof ncaps, "-N%u", o->caps);
    const char *args[] = { "./bench-program", "+RTS", "-p", "-l", ncaps, "-RTS", "input.txt" };
    if (check(g, el_writer_wall_clock(w, t += 4000, 1, 1700000000u + o->seed % 1000000, 123456000)) ||
        check(g, el_writer_os_pid(w, t += 700, 0, 4242)) ||
        check(g, el_writer_os_ppid(w, t += 300, 0, 4200)) ||
        check(g, el_writer_rts_identifier(w, t += 2800, 0, "GHC-9.0.2 rts_thr_p")) ||
        check(g, el_writer_program_args(w, t += 900, 0, (int)(sizeof args / sizeof args[0]), args)) ||
        check(g, el_writer_heap_info(w, t += 35000, 0, 2, 0, 1 << 20, 1 << 20, 4096)) ||
        check(g, el_writer_prof_begin(w, t += 47000, TICK_NS)))
        return -1;
    if (o->heap_bands &&
        check(g, el_writer_heap_prof_begin(w, t += 3000, 0, 10 * TICK_NS, HEAP_BY_COST_CENTRE,
                                           NULL)))
        return -1;

    char label[64], srcloc[96];
    for (unsigned id = ccs; id >= 1; id--) {     /* GHC defines them newest first */
        const char *module;
        uint8_t flags = 0;
        if (id == 1) {
            snprintf(label, sizeof label, "main");
            module = "Main";
            snprintf(srcloc, sizeof srcloc, "app/Main.hs:(12,1)-(30,20)");
        } else {
            module = modules[(id * 7u) % N_MODULES];
            if (id % 23 == 0) {
                snprintf(label, sizeof label, "CAF");
                snprintf(srcloc, sizeof srcloc, "<entire-module>");
                flags = 1;
            } else {
                snprintf(label, sizeof label, "%s%s%u", verbs[id % N_VERBS],
                         id % 3 ? "'" : "", id);
                unsigned line = 10 + (id * 37u) % 900;
                snprintf(srcloc, sizeof srcloc, "src/%s.hs:(%u,1)-(%u,%u)", module, line,
                         line + 3 + id % 40, 10 + id % 60);
            }
        }
        if (split_block(g, t) ||
            check(g, el_writer_cost_centre(w, t += 210, id, label, module, srcloc, flags)))
            return -1;
    }
    return el_writer_end_block(w, t + 500) == EV_OK ? 0 : -1;
}

/* One capability's events during ticks [tick0, tick0 + nticks): thread
 * switches, sparks, user messages and, on GC ticks, a parallel GC. */
static int write_cap_block(gen *g, unsigned cap, uint64_t base, uint64_t tick0,
                           unsigned nticks, uint64_t bytes_per_tick)
{
    el_writer *w = g->w;
    uint64_t t = base + tick0 * TICK_NS + rng_range(0, 2000);
    if (begin_block(g, (uint16_t)cap, t))
        return -1;
    for (unsigned k = 0; k < nticks; k++) {
        uint64_t tick = tick0 + k;
        uint64_t tick_t = base + tick * TICK_NS;
        if (t < tick_t)
            t = tick_t;
        if (split_block(g, t))
            return -1;
        uint64_t start = el_writer_offset(w);
        if (tick % 37 == 0) {
            /* A parallel GC: every capability takes part; cap 0 leads. */
            if (cap == 0 && check(g, el_writer_empty(w, EL_REQUEST_PAR_GC, t += 300)))
                return -1;
            if (check(g, el_writer_stop_thread(w, t += 200, g->cur_thread[cap], 1, 0)) ||
                check(g, el_writer_gc_start(w, t += 900)) ||
                check(g, el_writer_empty(w, EL_GC_WORK, t += 700)))
                return -1;
            for (unsigned r = rng_range(1, 4); r > 0; r--) {
                if (check(g, el_writer_empty(w, EL_GC_IDLE, t += rng_range(500, 20000))) ||
                    check(g, el_writer_empty(w, EL_GC_DONE, t += 40)))
                    return -1;
            }
            if (check(g, el_writer_gc_end(w, t += rng_range(1000, 30000))))
                return -1;
            if (cap == 0) {
                g->gcs++;
                g->allocated += rng_range(1, 64) << 20;
                int major = g->gcs % 8 == 0;
                el_gc_stats_fields s = {
                    .capset = 0, .gen = major ? 1 : 0,
                    .copied = rng_range(1000, 1 << 22), .slop = rng_range(0, 1 << 16),
                    .frag = rng_range(0, 1 << 20), .par_n_threads = g->o->caps,
                };
                s.par_max_copied = s.copied / g->o->caps + rng_range(0, 4096);
                s.par_tot_copied = s.copied;
                s.par_balanced_copied = s.copied - s.copied / 7;
                if (check(g, el_writer_heap_allocated(w, t += 300, 0, g->allocated)) ||
                    check(g, el_writer_heap_size(w, t += 200, 0, (uint64_t)rng_range(8, 512) << 20)) ||
                    check(g, el_writer_gc_stats(w, t += 200, &s)) ||
                    (major && check(g, el_writer_heap_live(w, t += 150, 0,
                                                           (uint64_t)rng_range(1, 256) << 20))) ||
                    check(g, el_writer_empty(w, EL_GC_GLOBAL_SYNC, t += 100)))
                    return -1;
            }
            uint64_t sparks[7] = { g->spark_created, 0, 0, g->spark_created / 2, 0,
                                   g->spark_created / 10, g->spark_created % 17 };
            if (check(g, el_writer_spark_counters(w, t += 250, sparks)) ||
                check(g, el_writer_run_thread(w, t += 400, g->cur_thread[cap])))
                return -1;
        }
        if (cap == 0 && tick % 500 == 0) {
            char msg[64];
            snprintf(msg, sizeof msg, "phase %llu: processing batch",
                     (unsigned long long)(tick / 500));
            if (check(g, el_writer_user_msg(w, t += 1500, msg)))
                return -1;
        }
        /* Fill the tick's byte budget with scheduler activity. */
        while (el_writer_offset(w) - start < bytes_per_tick) {
            if (split_block(g, t))
                return -1;
            uint32_t r = rng_range(0, 99);
            uint32_t th = g->cur_thread[cap];
            if (r < 70) {                         /* yield or block, run another */
                uint16_t status = (uint16_t)(r < 40 ? 3 : r < 55 ? 4 : 1);
                if (check(g, el_writer_stop_thread(w, t += rng_range(200, 20000), th, status,
                                                   status == 4 ? rng_range(1, g->next_thread) : 0)))
                    return -1;
                if (status == 4 &&
                    check(g, el_writer_thread_runnable(w, t += rng_range(50, 500), th)))
                    return -1;
                g->cur_thread[cap] = rng_range(1, g->next_thread);
                if (check(g, el_writer_run_thread(w, t += rng_range(100, 2000), g->cur_thread[cap])))
                    return -1;
            } else if (r < 80) {                  /* thread finished, a new one */
                uint32_t nt = ++g->next_thread;
                if (check(g, el_writer_create_thread(w, t += rng_range(100, 3000), nt)) ||
                    check(g, el_writer_stop_thread(w, t += rng_range(100, 3000), th, 5, 0)) ||
                    check(g, el_writer_run_thread(w, t += rng_range(100, 1000), nt)))
                    return -1;
                g->cur_thread[cap] = nt;
            } else {                              /* sparks */
                g->spark_created++;
                if (check(g, el_writer_empty(w, EL_SPARK_CREATE, t += rng_range(50, 2000))) ||
                    (r < 90 && check(g, el_writer_empty(w, EL_SPARK_RUN, t += rng_range(50, 900)))))
                    return -1;
            }
        }
    }
    return el_writer_end_block(w, t + 1000) == EV_OK ? 0 : -1;
}

/* --heap: one census, each band's bytes moved by a random step. */
static int write_census(gen *g, uint64_t *t)
{
    el_writer *w = g->w;
    if (check(g, el_writer_heap_sample_begin(w, *t += 500, g->eras)))
        return -1;
    for (unsigned b = 0; b < g->o->heap_bands; b++) {
        unsigned i = b % g->pool.n;
        uint64_t *bytes = &g->band_bytes[b];
        uint64_t step = *bytes / 8 + 64;
        *bytes += rng_range(0, 2) == 0 && *bytes > step ? -step : rng_range(0, (uint32_t)step);
        if (split_block(g, *t) ||
            check(g, el_writer_heap_sample_cc(w, *t += 40, 0, *bytes & ~(uint64_t)7,
                                              g->pool.depth[i],
                                              g->pool.frames + (size_t)i * g->pool.max_depth)))
            return -1;
    }
    if (check(g, el_writer_heap_sample_end(w, *t += 300, g->eras)))
        return -1;
    g->eras++;
    return 0;
}

static int write_shutdown(gen *g, uint64_t t)
{
    el_writer *w = g->w;
    if (begin_block(g, EL_NO_CAP, t))
        return -1;
    for (unsigned c = 0; c < g->o->caps; c++) {
        if (check(g, el_writer_cap_delete(w, t += 300, (uint16_t)c)) ||
            check(g, el_writer_capset_remove_cap(w, t += 80, 0, (uint16_t)c)) ||
            check(g, el_writer_capset_remove_cap(w, t += 60, 1, (uint16_t)c)))
            return -1;
    }
    if (check(g, el_writer_capset_delete(w, t += 200, 0)) ||
        check(g, el_writer_capset_delete(w, t += 100, 1)))
        return -1;
    return el_writer_end_block(w, t + 100) == EV_OK ? 0 : -1;
}

static int generate(gen *g, unsigned ccs)
{
    el_writer *w = g->w;
    const options *o = g->o;
    if (el_writer_declare_ghc(w, EL_GHC_9_0) != EV_OK || write_startup(g, ccs))
        return -1;
    for (unsigned c = 0; c < o->caps; c++)
        g->cur_thread[c] = ++g->next_thread;

    const uint64_t base = 30000000;          /* profiling starts at 30 ms */
    const double other_ratio = (100.0 - o->sample_share) / o->sample_share;
    const uint64_t footer = 4096;            /* room for the shutdown block */
    uint64_t tick = 0;
    while (el_writer_offset(w) + footer < o->size) {
        /* A round: the global block of samples for nticks ticks, then one
         * block per capability for the same ticks. */
        unsigned nticks = rng_range(200, 1200);
        uint64_t round_start = el_writer_offset(w);
        uint64_t t = base + tick * TICK_NS;
        if (begin_block(g, EL_NO_CAP, t))
            return -1;
        unsigned k;
        for (k = 0; k < nticks; k++) {
            uint64_t sample_bytes = el_writer_offset(w) - round_start;
            if (round_start + (uint64_t)(sample_bytes * (1.0 + other_ratio)) + footer >= o->size)
                break;
            uint64_t tick_t = base + (tick + k) * TICK_NS + rng_range(1000, 9000);
            if (t < tick_t)
                t = tick_t;
            g->ticks++;
            for (unsigned c = 0; c < o->caps; c++) {
                if (split_block(g, t))
                    return -1;
                unsigned depth;
                const uint32_t *frames = next_stack(g, c, &depth);
                if (check(g, el_writer_prof_sample(w, t += rng_range(200, 3000), c, g->ticks,
                                                   (uint8_t)depth, frames)))
                    return -1;
                g->samples++;
            }
            if (o->heap_bands && (tick + k) % 10 == 0 && write_census(g, &t))
                return -1;
        }
        if (k == 0)
            k = 1;
        if (el_writer_end_block(w, t + 500) != EV_OK)
            return -1;
        uint64_t sample_bytes = el_writer_offset(w) - round_start;
        uint64_t per_tick = (uint64_t)(sample_bytes * other_ratio / k / o->caps);
        if (per_tick > 0) {
            for (unsigned c = 0; c < o->caps; c++) {
                if (write_cap_block(g, c, base, tick, k, per_tick))
                    return -1;
            }
        }
        tick += k;
    }
    if (write_shutdown(g, base + tick * TICK_NS + 5000))
        return -1;
    return el_writer_finish(w) == EV_OK ? 0 : -1;
}

/* Writes the log to OUT.tmp, renamed to OUT when complete. */
static int write_log(gen *g, unsigned ccs, const char *tmp)
{
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        fprintf(stderr, "gen_eventlog: cannot create %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    g->w = el_writer_create_file(f);
    int rc = g->w == NULL ? -1 : generate(g, ccs);
    if (rc != 0)
        fprintf(stderr, "gen_eventlog: cannot write %s: %s\n", tmp,
                g->w ? el_writer_error_msg(g->w) : "out of memory");
    if (fclose(f) != 0 && rc == 0) {
        fprintf(stderr, "gen_eventlog: cannot write %s: %s\n", tmp, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && rename(tmp, g->o->out) != 0) {
        fprintf(stderr, "gen_eventlog: cannot rename %s to %s: %s\n", tmp, g->o->out,
                strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        remove(tmp);
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    int parsed = parse_args(argc, argv, &o);
    if (parsed != 0) {
        usage(parsed > 0 ? stdout : stderr);
        return parsed > 0 ? 0 : 2;
    }
    rng_state = o.seed;
    unsigned ccs = o.ccs ? o.ccs : rng_range(200, 2000);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    gen g = { .o = &o, .ccs = ccs };
    size_t tmp_len = strlen(o.out) + 5;
    char *tmp = malloc(tmp_len);
    int rc = -1;
    g.cur_frames = calloc((size_t)o.caps * o.max_depth, sizeof *g.cur_frames);
    g.band_bytes = calloc(o.heap_bands ? o.heap_bands : 1, sizeof *g.band_bytes);
    for (unsigned b = 0; b < o.heap_bands; b++)
        g.band_bytes[b] = 4096 + (uint64_t)rng_range(0, 1u << 20);
    if (tmp == NULL || g.cur_frames == NULL || g.band_bytes == NULL ||
        make_stacks(&g.pool, &o, ccs) != 0) {
        fprintf(stderr, "gen_eventlog: out of memory\n");
    } else {
        snprintf(tmp, tmp_len, "%s.tmp", o.out);
        rc = write_log(&g, ccs, tmp);
    }
    uint64_t bytes = g.w ? el_writer_offset(g.w) : 0;
    el_writer_destroy(g.w);
    free(tmp);
    free(g.pool.depth);
    free(g.pool.frames);
    free(g.cur_frames);
    free(g.band_bytes);
    if (rc != 0)
        return 1;

    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s: %llu bytes, %llu events (%llu samples, %u cost centres, %u caps), "
           "%.2f s, %.0f MB/s\n",
           o.out, (unsigned long long)bytes, (unsigned long long)g.events,
           (unsigned long long)g.samples, ccs, o.caps, secs,
           secs > 0 ? (double)bytes / 1e6 / secs : 0.0);
    if (fflush(stdout) != 0 || ferror(stdout))
        return 1;
    return 0;
}
