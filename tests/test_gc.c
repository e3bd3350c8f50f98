/* The +RTS -s summary from GC events (evprof gc), against GHC's own
 * `+RTS -s` text of the same runs: the two runs of the shared corpus and
 * five of ours in tests/data/gc (see its README). Every figure the events
 * determine is compared field by field with what GHC printed, and GHC's
 * lines for them must appear verbatim in our text. Windows are checked on
 * a synthetic log whose answers are worked out by hand in the comments,
 * and on the real logs by additivity: the parts of a split run add up to
 * the whole, and the whole-run window is the plain summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"

#include "evprof/gc.h"
#include "profiles.h"
#include "evprof/writer.h"

#define GC_DATA "tests/data/gc"
#define CORPUS CORPUS_DIR "/ghc-9.0.2"
#define GHC96 CORPUS_DIR "/ghc-9.6"
#define GHC910 CORPUS_DIR "/ghc-9.10"

/* ---- GHC's +RTS -s text (test-side reader) ----------------------------- */

#define GS_MAX_GENS 8

typedef struct ghc_stats {
    uint64_t allocated, copied, max_live, max_slop, mem_mib;
    uint32_t samples;
    int has_residency;
    uint32_t ngens;
    struct {
        uint32_t colls, par;
        char cpu[16], elapsed[16], avg[16], max[16];   /* as printed, "0.017s" */
    } gen[GS_MAX_GENS];
    int has_balance;
    char balance[16];                   /* "21.19" */
    int has_sparks;
    uint64_t sparks, converted, overflowed, dud, gcd, fizzled;
    char gc_elapsed[16], total_elapsed[16];
    /* the non-moving collector (+RTS --nonmoving-gc) */
    int has_nonmoving;
    uint32_t syncs;
    double conc_elapsed, conc_avg, conc_max, conc_gc_elapsed;   /* seconds */
    /* TASKS (threaded RTS) */
    int has_tasks;
    unsigned tasks, bound, peak_workers, workers, n_caps;
    /* the lines themselves, without the newline */
    char line_alloc[128], line_copied[128], line_residency[128], line_slop[128],
        line_mem[128], line_balance[128], line_sparks[160], line_syncs[128],
        line_tasks[128];
} ghc_stats;

/* "241,023,752" (leading spaces allowed) */
static uint64_t commas_number(const char *s)
{
    uint64_t v = 0;
    while (*s == ' ')
        s++;
    for (; *s && (*s == ',' || (*s >= '0' && *s <= '9')); s++)
        if (*s != ',')
            v = v * 10 + (uint64_t)(*s - '0');
    return v;
}

static void keep(char *dst, size_t size, const char *line)
{
    size_t n = strlen(line);
    if (n >= size)
        n = size - 1;
    memcpy(dst, line, n);
    dst[n] = '\0';
}

static void read_ghc_stats(const char *path, ghc_stats *g)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    memset(g, 0, sizeof *g);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *p;
        if (strstr(line, " bytes allocated in the heap")) {
            g->allocated = commas_number(line);
            keep(g->line_alloc, sizeof g->line_alloc, line);
        } else if (strstr(line, " bytes copied during GC")) {
            g->copied = commas_number(line);
            keep(g->line_copied, sizeof g->line_copied, line);
        } else if ((p = strstr(line, " bytes maximum residency ("))) {
            g->has_residency = 1;
            g->max_live = commas_number(line);
            assert_int_equal(sscanf(p, " bytes maximum residency (%u sample(s))", &g->samples),
                             1);
            keep(g->line_residency, sizeof g->line_residency, line);
        } else if (strstr(line, " bytes maximum slop")) {
            g->max_slop = commas_number(line);
            keep(g->line_slop, sizeof g->line_slop, line);
        } else if (strstr(line, " MiB total memory in use")) {
            g->mem_mib = commas_number(line);
            keep(g->line_mem, sizeof g->line_mem, line);
        } else if (strstr(line, " syncs, ") && strncmp(line, "  Gen  1 ", 9) == 0) {
            g->has_nonmoving = 1;
            assert_int_equal(sscanf(line, "  Gen  1 %u syncs,", &g->syncs), 1);
            keep(g->line_syncs, sizeof g->line_syncs, line);
        } else if (strncmp(line, "  Gen  1      concurrent,", 25) == 0) {
            double cpu;
            assert_int_equal(sscanf(line + 25, " %lfs %lfs %lfs %lfs", &cpu, &g->conc_elapsed,
                                    &g->conc_avg, &g->conc_max),
                             4);
        } else if (strncmp(line, "  CONC GC time", 14) == 0) {
            double cpu;
            assert_int_equal(sscanf(line + 14, " %lfs ( %lfs elapsed)", &cpu,
                                    &g->conc_gc_elapsed),
                             2);
        } else if ((p = strstr(line, "TASKS: "))) {
            g->has_tasks = 1;
            assert_int_equal(sscanf(p, "TASKS: %u (%u bound, %u peak workers (%u total), "
                                       "using -N%u)", &g->tasks, &g->bound, &g->peak_workers,
                                    &g->workers, &g->n_caps),
                             5);
            keep(g->line_tasks, sizeof g->line_tasks, line);
        } else if (strncmp(line, "  Gen ", 6) == 0) {
            unsigned gen, colls, par;
            char cpu[16], el[16], avg[16], mx[16];
            assert_int_equal(sscanf(line, "  Gen %u %u colls, %u par %15s %15s %15s %15s", &gen,
                                    &colls, &par, cpu, el, avg, mx),
                             7);
            assert_true(gen < GS_MAX_GENS);
            g->gen[gen].colls = colls;
            g->gen[gen].par = par;
            strcpy(g->gen[gen].cpu, cpu);
            strcpy(g->gen[gen].elapsed, el);
            strcpy(g->gen[gen].avg, avg);
            strcpy(g->gen[gen].max, mx);
            if (gen + 1 > g->ngens)
                g->ngens = gen + 1;
        } else if ((p = strstr(line, "Parallel GC work balance: "))) {
            g->has_balance = 1;
            assert_int_equal(sscanf(p, "Parallel GC work balance: %15[0-9.]", g->balance), 1);
            keep(g->line_balance, sizeof g->line_balance, line);
        } else if ((p = strstr(line, "SPARKS: "))) {
            g->has_sparks = 1;
            unsigned long long a, b, c, d, e, h;
            assert_int_equal(sscanf(p, "SPARKS: %llu (%llu converted, %llu overflowed, %llu dud, "
                                       "%llu GC'd, %llu fizzled)", &a, &b, &c, &d, &e, &h),
                             6);
            g->sparks = a, g->converted = b, g->overflowed = c, g->dud = d, g->gcd = e,
            g->fizzled = h;
            keep(g->line_sparks, sizeof g->line_sparks, line);
        } else if (strncmp(line, "  GC      time", 14) == 0) {
            char cpu[16];
            assert_int_equal(sscanf(line, "  GC      time %15s ( %15[0-9.]s elapsed)", cpu,
                                    g->gc_elapsed),
                             2);
        } else if (strncmp(line, "  Total   time", 14) == 0) {
            char cpu[16];
            assert_int_equal(sscanf(line, "  Total   time %15s ( %15[0-9.]s elapsed)", cpu,
                                    g->total_elapsed),
                             2);
        }
    }
    fclose(f);
    assert_true(g->line_alloc[0] && g->line_copied[0] && g->line_slop[0] && g->ngens >= 1);
}

/* ---- building a summary ------------------------------------------------- */

/* The selection the reads below are made under (the driver's stage
 * would hand it to the summary in the stream). */
static const ev_select *cur_sel;

static int add(gc_summary *s, const el_event *ev)
{
    ev_stream st;
    memset(&st, 0, sizeof st);
    st.select = cur_sel;
    return gc_analysis_ops.event(s, ev, &st) ? -1 : 0;
}

static int feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)d;
    return add(ctx, ev);
}

static gc_summary *finish_read(gc_summary *s, el_read_result r, const char *what)
{
    if (r.status != EV_END)
        fail_msg("%s: %s", what, r.error.msg);
    if (r.has_time_span)
        gc_set_time_span(s, r.first_time, r.last_time);
    assert_int_equal(gc_finish(s), 0);
    return s;
}

static gc_summary *summary_of(const char *path, const ev_select *sel)
{
    gc_summary *s = gc_create();
    cur_sel = sel;
    assert_non_null(s);
    /* read as the command does: only the types the summary asks for */
    const el_read_opts o = { .fields = gc_event_types, .num_fields = gc_num_event_types,
                             .only_selected = 1 };
    return finish_read(s, el_read_path_opts(path, &o, feed, s, NULL), path);
}

static gc_summary *summary_mem(const uint8_t *buf, size_t len, const ev_select *sel)
{
    gc_summary *s = gc_create();
    cur_sel = sel;
    assert_non_null(s);
    return finish_read(s, el_read_mem(buf, len, feed, s, NULL), "synthetic log");
}

static gc_summary *window_of(const char *path, uint64_t from, uint64_t to, int32_t cap)
{
    ev_select *sel = test_window(from, to, cap);
    gc_summary *s = summary_of(path, sel);
    ev_select_destroy(sel);
    return s;
}

static char *text_of(const gc_summary *s, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    gc_report_opts o;
    gc_report_opts_init(&o);
    o.source_name = "x.eventlog";
    assert_int_equal(json ? gc_report_json(s, &o, m) : gc_report_text(s, &o, m), 0);
    assert_int_equal(fclose(m), 0);
    return buf;
}

/* `text` holds `line` as one whole line */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
            return 1;
    return 0;
}

static void seconds3(char *buf, size_t size, uint64_t ns)
{
    snprintf(buf, size, "%.3fs", (double)ns / 1e9);
}

static void seconds4(char *buf, size_t size, uint64_t ns)
{
    snprintf(buf, size, "%.4fs", (double)ns / 1e9);
}

/* ---- against GHC -------------------------------------------------------- */

static const char *const runs[] = {
    CORPUS "/nfib-s",                   /* profiled threaded RTS, -N1 */
    CORPUS "/nfib-np-N2-s",             /* -N2, parallel GC */
    GC_DATA "/alloc",                   /* non-threaded -eventlog build */
    GC_DATA "/tiny-A64k",               /* -A64k: 4433 collections */
    GC_DATA "/pargc-N2",                /* -N2, both capabilities allocate */
    GC_DATA "/pargc-N2-G3-qg1",         /* three generations, parallel GC from gen 1 */
    GC_DATA "/sparks-N2",               /* sparks of every fate */
    GHC96 "/sim-s",                     /* GHC 9.6.6, non-threaded RTS */
    GHC96 "/workers-N2-s",              /* GHC 9.6.6, -N2, parallel GC */
    GHC910 "/sim-s",                    /* GHC 9.10.3, non-threaded RTS */
    GHC910 "/workers-nonmoving-N2-s",   /* GHC 9.10.3, -N2 --nonmoving-gc */
    /* the non-moving collector (+RTS --nonmoving-gc -N2) and TASKS
     * (ghc-9.10/README-gc.md) */
    GHC910 "/nonmoving-N2-s",           /* GHC 9.10.3 */
    GHC910 "/copying-N2-s",             /* GHC 9.10.3, the same program copying */
    GHC96 "/nonmoving-N2-s",            /* GHC 9.6.6 */
    GC_DATA "/nonmoving-N2",            /* GHC 9.0.2 */
};
#define N_RUNS (sizeof runs / sizeof runs[0])

/* TASKS: the workers, their peak and -N are GHC's; the bound tasks are
 * the main thread's, GHC's count but on runs of the non-moving collector,
 * whose mark thread takes bound tasks that write no event: there the
 * count is a lower bound, said with ">=". */
static void check_tasks(const char *base, const gc_result *r, const ghc_stats *g,
                        const char *text)
{
    char want[160];
    assert_int_equal(r->threaded && r->has_tasks, g->has_tasks);
    if (!g->has_tasks) {
        assert_null(strstr(text, "TASKS: "));
        return;
    }
    assert_int_equal(r->workers, g->workers);
    assert_int_equal(r->peak_workers, g->peak_workers);
    assert_int_equal(r->n_capabilities, g->n_caps);
    assert_int_equal(r->bound_tasks_lower_bound, g->has_nonmoving);
    if (!g->has_nonmoving) {
        assert_int_equal(r->bound_tasks, g->bound);
        if (!has_line(text, g->line_tasks))
            fail_msg("%s: no line '%s' in\n%s", base, g->line_tasks, text);
        return;
    }
    assert_int_equal(r->bound_tasks, 1);        /* the main thread's */
    assert_true(g->bound > 1);
    snprintf(want, sizeof want, "  TASKS: >= %u (>= 1 bound, %u peak workers (%u total), "
             "using -N%u)", g->workers + 1, g->peak_workers, g->workers, g->n_caps);
    assert_true(has_line(text, want));
}

/* The non-moving collector: the syncs line is GHC's own. The concurrent
 * collections' elapsed times are lower bounds of GHC's (">="), on these
 * runs within 2% (docs/GC.md); GHC 9.0 prints CPU time there: n/a. */
static void check_nonmoving(const char *base, const gc_result *r, const ghc_stats *g,
                            const char *text)
{
    char want[160];
    assert_int_equal(r->nonmoving, g->has_nonmoving);
    if (!g->has_nonmoving) {
        assert_null(strstr(text, " syncs, "));
        assert_null(strstr(text, "CONC GC"));
        return;
    }
    assert_int_equal(r->nonmoving_syncs, g->syncs);
    if (!has_line(text, g->line_syncs))
        fail_msg("%s: no line '%s' in\n%s", base, g->line_syncs, text);
    int ghc90 = strncmp(r->rts_version, "GHC-9.0.", 8) == 0;
    assert_int_equal(r->has_nonmoving_elapsed, !ghc90);
    if (ghc90) {
        assert_true(has_line(text, "  Gen  1      concurrent,                 n/a      n/a"
                                   "         n/a        n/a"));
        assert_true(has_line(text, "  CONC GC time       n/a  (     n/a elapsed)"));
        return;
    }
    double el = (double)r->nonmoving_elapsed_ns / 1e9;
    double mx = (double)r->nonmoving_max_elapsed_ns / 1e9;
    double avg = el / (int)r->nonmoving_syncs;
    print_message("  concurrent: %.3f of GHC's %.3f, max %.4f of %.4f\n", el, g->conc_elapsed,
                  mx, g->conc_max);
    assert_true(el <= g->conc_elapsed + 0.0005 && el >= 0.98 * g->conc_elapsed);
    assert_true(mx <= g->conc_max + 0.00005 && mx >= 0.98 * g->conc_max);
    assert_true(avg <= g->conc_avg + 0.00005);
    assert_true(g->conc_gc_elapsed == g->conc_elapsed);
    char e[32], a[32], m[32];
    snprintf(e, sizeof e, ">=%.3fs", el);
    snprintf(a, sizeof a, ">=%.4fs", avg);
    snprintf(m, sizeof m, ">=%.4fs", mx);
    snprintf(want, sizeof want, "  Gen  1      concurrent,                 n/a %8s %11s %10s", e, a,
             m);
    if (!has_line(text, want))
        fail_msg("%s: no line '%s' in\n%s", base, want, text);
    snprintf(want, sizeof want, "  CONC GC time       n/a  (%8s elapsed)", e);
    assert_true(has_line(text, want));
}

static void check_run(const char *base)
{
    char path[256];
    ghc_stats g;
    snprintf(path, sizeof path, "%s.stats", base);
    read_ghc_stats(path, &g);
    snprintf(path, sizeof path, "%s.eventlog", base);
    gc_summary *s = summary_of(path, NULL);
    const gc_result *r = gc_get_result(s);
    print_message("%s\n", base);

    /* exactly determined by the events */
    assert_true(r->whole_run);
    assert_int_equal(r->allocated_bytes, g.allocated);
    assert_int_equal(r->copied_bytes, g.copied);
    assert_int_equal(r->major_gcs > 0, g.has_residency);
    if (g.has_residency) {
        assert_int_equal(r->max_live_bytes, g.max_live);
        assert_int_equal(r->major_gcs, g.samples);
    }
    assert_int_equal(r->max_slop_bytes, g.max_slop);
    assert_int_equal(r->max_mem_in_use_bytes / (1024 * 1024), g.mem_mib);
    assert_int_equal(r->generations, g.ngens);
    for (uint32_t i = 0; i < g.ngens; i++) {
        char b[32];
        assert_int_equal(r->gens[i].collections, g.gen[i].colls);
        assert_int_equal(r->gens[i].par_collections, g.gen[i].par);
        /* pauses: the leader's GC_START..GC_END, which GHC 9.0 stamps with
         * the very times its statistics use, so these agree too */
        seconds3(b, sizeof b, r->gens[i].elapsed_ns);
        assert_string_equal(b, g.gen[i].elapsed);
        seconds4(b, sizeof b, r->gens[i].avg_pause_ns);
        assert_string_equal(b, g.gen[i].avg);
        seconds4(b, sizeof b, r->gens[i].max_pause_ns);
        assert_string_equal(b, g.gen[i].max);
    }
    if (g.has_balance) {
        char b[32];
        snprintf(b, sizeof b, "%.2f", r->work_balance * 100);
        assert_string_equal(b, g.balance);
    } else {
        assert_true(r->work_balance == 0);
    }
    assert_int_equal(r->threaded, g.has_sparks);
    if (g.has_sparks) {
        assert_true(r->has_sparks);
        assert_int_equal(r->sparks.created + r->sparks.dud + r->sparks.overflowed, g.sparks);
        assert_int_equal(r->sparks.converted, g.converted);
        assert_int_equal(r->sparks.overflowed, g.overflowed);
        assert_int_equal(r->sparks.dud, g.dud);
        assert_int_equal(r->sparks.gcd, g.gcd);
        assert_int_equal(r->sparks.fizzled, g.fizzled);
    }
    char b[32];
    snprintf(b, sizeof b, "%.3f", (double)r->gc_ns / 1e9);
    assert_string_equal(b, g.gc_elapsed);
    /* the run's total: the last event comes just after GHC's own reading */
    double total = strtod(g.total_elapsed, NULL);
    double ours = (double)r->total_ns / 1e9;
    assert_true(ours > total - 0.005 && ours < total + 0.005);

    /* GHC's own lines, verbatim, in our text */
    char *text = text_of(s, 0);
    assert_true(has_line(text, g.line_alloc));
    assert_true(has_line(text, g.line_copied));
    if (g.has_residency)
        assert_true(has_line(text, g.line_residency));
    assert_true(has_line(text, g.line_slop));
    if (g.has_balance)
        assert_true(has_line(text, g.line_balance));
    if (g.has_sparks)
        assert_true(has_line(text, g.line_sparks));
    /* memory in use: GHC 9.0's events give the heap after each collection
     * only, so the figure is a lower bound, said with ">="; on these runs
     * it is GHC's own (no peak inside a collection above it). GHC 9.2+
     * writes MEM_RETURN with GHC's own peak: exact, no ">=". */
    int exact = strstr(base, "ghc-9.6") != NULL || strstr(base, "ghc-9.10") != NULL;
    assert_int_equal(r->mem_in_use_lower_bound, !exact);
    char want_mem[96];
    snprintf(want_mem, sizeof want_mem, exact ? "%llu" : ">= %llu", (unsigned long long)g.mem_mib);
    char mem_line[160];
    snprintf(mem_line, sizeof mem_line, "%16s MiB total memory in use (n/a MB lost due to "
             "fragmentation)", want_mem);
    assert_true(has_line(text, mem_line));
    /* generation rows: GHC's with the CPU column as n/a */
    for (uint32_t i = 0; i < g.ngens; i++) {
        char want[160];
        snprintf(want, sizeof want, "  Gen %2u     %5u colls, %5u par   %7s  %7s     %s    %s",
                 (unsigned)i, (unsigned)g.gen[i].colls, (unsigned)g.gen[i].par, "n/a",
                 g.gen[i].elapsed, g.gen[i].avg, g.gen[i].max);
        if (!has_line(text, want))
            fail_msg("%s: no line '%s' in\n%s", base, want, text);
    }
    char want[96];
    snprintf(want, sizeof want, "  GC      time       n/a  (%7ss elapsed)", g.gc_elapsed);
    assert_true(has_line(text, want));
    assert_true(has_line(text, "  INIT    time       n/a  (     n/a elapsed)"));
    check_tasks(base, r, &g, text);
    check_nonmoving(base, r, &g, text);
    free(text);
    gc_destroy(s);
}

static void test_against_ghc(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RUNS; i++)
        check_run(runs[i]);
}

/* The whole-run window is the plain summary, byte for byte. */
static void test_whole_window_is_plain(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RUNS; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s.eventlog", runs[i]);
        gc_summary *plain = summary_of(path, NULL);
        uint64_t end = gc_get_result(plain)->log_end_ns;
        gc_summary *w1 = window_of(path, 0, end + 1, -1);
        gc_summary *w2 = window_of(path, 0, UINT64_MAX - 1, -1);
        for (int json = 0; json < 2; json++) {
            char *a = text_of(plain, json), *b = text_of(w1, json), *c = text_of(w2, json);
            assert_string_equal(a, b);
            assert_string_equal(a, c);
            free(a);
            free(b);
            free(c);
        }
        gc_destroy(plain);
        gc_destroy(w1);
        gc_destroy(w2);
    }
}

/* A run cut into consecutive windows: every count and sum of the parts
 * adds up to the whole, and the maxima of the parts give the whole's. */
static void test_windows_add_up(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_RUNS; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s.eventlog", runs[i]);
        gc_summary *whole = summary_of(path, NULL);
        const gc_result *w = gc_get_result(whole);
        uint64_t end = w->log_end_ns;
        uint64_t cuts[] = { 0, end / 7, end / 3, end / 2, end - end / 5, UINT64_MAX };
        size_t ncuts = sizeof cuts / sizeof cuts[0];
        uint64_t alloc = 0, copied = 0, gc_ns = 0, total = 0, par_copied = 0, bal = 0;
        uint64_t max_live = 0, max_mem = 0, max_slop = 0, sparks = 0, cap_mut = 0, cap_gc = 0;
        uint64_t w_cap_mut = 0, w_cap_gc = 0;
        uint32_t colls[GS_MAX_GENS] = { 0 }, pars[GS_MAX_GENS] = { 0 };
        uint64_t gen_el[GS_MAX_GENS] = { 0 };
        uint32_t major = 0, syncs = 0, sync_pairs = 0, conc = 0;
        uint64_t sync_ns = 0, sync_max = 0, conc_ns = 0, conc_max = 0;
        for (size_t k = 0; k + 1 < ncuts; k++) {
            gc_summary *part = window_of(path, cuts[k], cuts[k + 1], -1);
            const gc_result *p = gc_get_result(part);
            assert_int_equal(p->generations, w->generations);
            alloc += p->allocated_bytes;
            copied += p->copied_bytes;
            gc_ns += p->gc_ns;
            total += p->total_ns;
            par_copied += p->par_copied_bytes;
            bal += p->par_balanced_copied_bytes;
            major += p->major_gcs;
            syncs += p->nonmoving_syncs;
            sync_pairs += p->nonmoving_sync_pairs;
            sync_ns += p->nonmoving_sync_ns;
            conc += p->nonmoving_collections;
            conc_ns += p->nonmoving_elapsed_ns;
            if (p->nonmoving_sync_max_ns > sync_max)
                sync_max = p->nonmoving_sync_max_ns;
            if (p->nonmoving_max_elapsed_ns > conc_max)
                conc_max = p->nonmoving_max_elapsed_ns;
            /* the tasks are the whole run's in every window */
            assert_int_equal(p->has_tasks, w->has_tasks);
            assert_int_equal(p->workers, w->workers);
            assert_int_equal(p->peak_workers, w->peak_workers);
            assert_int_equal(p->bound_tasks, w->bound_tasks);
            assert_int_equal(p->nonmoving, w->nonmoving);
            sparks += p->sparks.created + p->sparks.dud + p->sparks.converted;
            if (p->max_live_bytes > max_live)
                max_live = p->max_live_bytes;
            if (p->max_mem_in_use_bytes > max_mem)
                max_mem = p->max_mem_in_use_bytes;
            if (p->max_slop_bytes > max_slop)
                max_slop = p->max_slop_bytes;
            for (uint32_t g = 0; g < p->generations && g < GS_MAX_GENS; g++) {
                colls[g] += p->gens[g].collections;
                pars[g] += p->gens[g].par_collections;
                gen_el[g] += p->gens[g].elapsed_ns;
            }
            for (uint32_t c = 0; c < p->n_caps; c++) {
                cap_mut += p->caps[c].mutator_ns;
                cap_gc += p->caps[c].gc_ns;
            }
            assert_int_equal(p->mutator_ns + p->gc_ns, p->total_ns);
            gc_destroy(part);
        }
        for (uint32_t c = 0; c < w->n_caps; c++) {
            w_cap_mut += w->caps[c].mutator_ns;
            w_cap_gc += w->caps[c].gc_ns;
        }
        assert_int_equal(alloc, w->allocated_bytes);
        assert_int_equal(copied, w->copied_bytes);
        assert_int_equal(gc_ns, w->gc_ns);
        assert_int_equal(total, w->total_ns);
        assert_int_equal(par_copied, w->par_copied_bytes);
        assert_int_equal(bal, w->par_balanced_copied_bytes);
        assert_int_equal(major, w->major_gcs);
        assert_int_equal(syncs, w->nonmoving_syncs);
        assert_int_equal(sync_pairs, w->nonmoving_sync_pairs);
        assert_int_equal(sync_ns, w->nonmoving_sync_ns);
        assert_int_equal(sync_max, w->nonmoving_sync_max_ns);
        assert_int_equal(conc, w->nonmoving_collections);
        assert_int_equal(conc_ns, w->nonmoving_elapsed_ns);
        assert_int_equal(conc_max, w->nonmoving_max_elapsed_ns);
        assert_int_equal(max_live, w->max_live_bytes);
        assert_int_equal(max_mem, w->max_mem_in_use_bytes);
        assert_int_equal(max_slop, w->max_slop_bytes);
        assert_int_equal(sparks, w->sparks.created + w->sparks.dud + w->sparks.converted);
        assert_int_equal(cap_mut, w_cap_mut);
        assert_int_equal(cap_gc, w_cap_gc);
        for (uint32_t g = 0; g < w->generations && g < GS_MAX_GENS; g++) {
            assert_int_equal(colls[g], w->gens[g].collections);
            assert_int_equal(pars[g], w->gens[g].par_collections);
            assert_int_equal(gen_el[g], w->gens[g].elapsed_ns);
        }
        gc_destroy(whole);
    }
}

/* ---- a synthetic log with known answers --------------------------------- */

/* Two capabilities, two generations, times in ns. Blocks as GHC writes
 * them: cap 0, cap 1, and the global block (identifier, heap info) last.
 *
 *   GC1 gen 0, led by cap 0: cap 0 110..150, cap 1 100..155; stats at 145:
 *       4000 copied, slop 300, 2 threads, 2000 balanced
 *   GC2 gen 1, led by cap 0: cap 0 400..500, cap 1 395..505; stats at 480:
 *       6000 copied, slop 700, 1 thread; HEAP_LIVE 5000 at 501
 *   GC3 gen 0, led by cap 1: cap 1 900..950, cap 0 905..960; stats at 940:
 *       1000 copied, slop 100, 2 threads, 400 balanced
 *   threads run on cap 0 10..100, 160..400, 510..900; on cap 1 200..300,
 *   600..890. HEAP_ALLOCATED cap 0: 1000@150 2500@490 3000@990; cap 1:
 *   700@149 900@490 1500@945. HEAP_SIZE 2 MiB@152 3 MiB@502 1 MiB@951.
 *   SPARK_COUNTERS (created dud overflowed converted gcd fizzled) cap 0:
 *   (10 1 2 3 4 5)@153 (20 2 4 6 8 10)@995; cap 1: (1 0 0 0 0 0)@100
 *   (5 1 1 1 1 1)@996. The last event is at 996. */
static uint8_t *synthetic(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    const uint64_t MiB = 1 << 20;

    el_writer_begin_block(w, 0, 0);
    el_writer_run_thread(w, 10, 1);
    el_writer_stop_thread(w, 100, 1, 1, 0);
    el_writer_gc_start(w, 110);
    el_writer_empty(w, EL_GC_GLOBAL_SYNC, 140);
    el_gc_stats_fields s1 = { 0, 0, 4000, 300, 8192, 2, 3000, 4000, 2000 };
    el_writer_gc_stats(w, 145, &s1);
    el_writer_gc_end(w, 150);
    el_writer_heap_allocated(w, 150, 0, 1000);
    el_writer_heap_size(w, 152, 0, 2 * MiB);
    el_writer_spark_counters(w, 153, (const uint64_t[7]){ 10, 1, 2, 3, 4, 5, 0 });
    el_writer_run_thread(w, 160, 1);
    el_writer_stop_thread(w, 400, 1, 1, 0);
    el_writer_gc_start(w, 400);
    el_gc_stats_fields s2 = { 0, 1, 6000, 700, 0, 1, 0, 6000, 0 };
    el_writer_gc_stats(w, 480, &s2);
    el_writer_heap_allocated(w, 490, 0, 2500);
    el_writer_gc_end(w, 500);
    el_writer_heap_live(w, 501, 0, 5000);
    el_writer_heap_size(w, 502, 0, 3 * MiB);
    el_writer_run_thread(w, 510, 1);
    el_writer_stop_thread(w, 900, 1, 1, 0);
    el_writer_gc_start(w, 905);
    el_writer_gc_end(w, 960);
    el_writer_heap_allocated(w, 990, 0, 3000);
    el_writer_spark_counters(w, 995, (const uint64_t[7]){ 20, 2, 4, 6, 8, 10, 0 });
    el_writer_end_block(w, 995);

    el_writer_begin_block(w, 1, 0);
    el_writer_spark_counters(w, 100, (const uint64_t[7]){ 1, 0, 0, 0, 0, 0, 0 });
    el_writer_gc_start(w, 100);
    el_writer_heap_allocated(w, 149, 0, 700);
    el_writer_gc_end(w, 155);
    el_writer_run_thread(w, 200, 2);
    el_writer_stop_thread(w, 300, 2, 1, 0);
    el_writer_gc_start(w, 395);
    el_writer_heap_allocated(w, 490, 0, 900);
    el_writer_gc_end(w, 505);
    el_writer_run_thread(w, 600, 2);
    el_writer_stop_thread(w, 890, 2, 1, 0);
    el_writer_gc_start(w, 900);
    el_gc_stats_fields s3 = { 0, 0, 1000, 100, 4096, 2, 800, 1000, 400 };
    el_writer_gc_stats(w, 940, &s3);
    el_writer_heap_allocated(w, 945, 0, 1500);
    el_writer_gc_end(w, 950);
    el_writer_heap_size(w, 951, 0, 1 * MiB);
    el_writer_spark_counters(w, 996, (const uint64_t[7]){ 5, 1, 1, 1, 1, 1, 0 });
    el_writer_end_block(w, 996);

    el_writer_begin_block(w, EL_NO_CAP, 0);
    el_writer_rts_identifier(w, 1, 0, "GHC-9.0.2 rts_thr_l");
    el_writer_heap_info(w, 5, 0, 2, 0, MiB, MiB, 4096);
    el_writer_end_block(w, 5);

    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

static gc_summary *synthetic_window(const uint8_t *buf, size_t len, uint64_t from, uint64_t to,
                                    int32_t cap)
{
    ev_select *sel = test_window(from, to, cap);
    gc_summary *s = summary_mem(buf, len, sel);
    ev_select_destroy(sel);
    return s;
}

static void check_cap(const gc_cap *c, uint32_t no, uint64_t alloc, uint64_t mut, uint64_t gc,
                      uint64_t idle, uint32_t gcs, uint32_t led, uint64_t max_pause)
{
    assert_int_equal(c->cap, no);
    assert_int_equal(c->allocated_bytes, alloc);
    assert_int_equal(c->mutator_ns, mut);
    assert_int_equal(c->gc_ns, gc);
    assert_int_equal(c->idle_ns, idle);
    assert_int_equal(c->gcs, gcs);
    assert_int_equal(c->led, led);
    assert_int_equal(c->max_pause_ns, max_pause);
}

static void check_gen(const gc_gen *g, uint32_t colls, uint32_t par, uint64_t el, uint64_t avg,
                      uint64_t max, uint64_t copied, uint64_t slop)
{
    assert_int_equal(g->collections, colls);
    assert_int_equal(g->par_collections, par);
    assert_int_equal(g->elapsed_ns, el);
    assert_int_equal(g->avg_pause_ns, avg);
    assert_int_equal(g->max_pause_ns, max);
    assert_int_equal(g->copied_bytes, copied);
    assert_int_equal(g->max_slop_bytes, slop);
}

static void test_synthetic_whole(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = synthetic(&len);
    gc_summary *s = summary_mem(buf, len, NULL);
    const gc_result *r = gc_get_result(s);
    assert_true(r->whole_run);
    assert_true(r->threaded);
    assert_false(r->profiled);
    assert_string_equal(r->rts_version, "GHC-9.0.2 rts_thr_l");
    assert_int_equal(r->log_end_ns, 996);
    assert_int_equal(r->allocated_bytes, 4500);
    assert_int_equal(r->copied_bytes, 11000);
    assert_int_equal(r->generations, 2);
    check_gen(&r->gens[0], 2, 2, 90, 45, 50, 5000, 300);
    check_gen(&r->gens[1], 1, 0, 100, 100, 100, 6000, 700);
    assert_int_equal(r->collections, 3);
    assert_int_equal(r->major_gcs, 1);
    assert_int_equal(r->max_live_bytes, 5000);
    assert_int_equal(r->max_slop_bytes, 700);
    assert_int_equal(r->max_mem_in_use_bytes, 3 << 20);
    assert_int_equal(r->max_frag_bytes, 8192);
    /* the heap now: the latest in the log's order (cap 1's block is
     * after cap 0's), the latest allocation by time */
    assert_true(r->has_heap_size && r->has_live);
    assert_int_equal(r->heap_size_bytes, 1 << 20);
    assert_int_equal(r->live_bytes, 5000);
    assert_int_equal(r->last_alloc_ns, 990);
    assert_int_equal(r->par_copied_bytes, 5000);
    assert_int_equal(r->par_balanced_copied_bytes, 2400);
    assert_true(r->work_balance > 0.4799 && r->work_balance < 0.4801);
    assert_true(r->has_sparks);
    assert_int_equal(r->sparks.created, 25);
    assert_int_equal(r->sparks.dud, 3);
    assert_int_equal(r->sparks.overflowed, 5);
    assert_int_equal(r->sparks.converted, 7);
    assert_int_equal(r->sparks.gcd, 9);
    assert_int_equal(r->sparks.fizzled, 11);
    assert_int_equal(r->total_ns, 996);
    assert_int_equal(r->gc_ns, 190);
    assert_int_equal(r->mutator_ns, 806);
    assert_int_equal(r->alloc_rate, (uint64_t)(4500.0 / (806 / 1e9)));
    assert_int_equal(r->n_caps, 2);
    check_cap(&r->caps[0], 0, 3000, 720, 195, 81, 3, 2, 100);
    check_cap(&r->caps[1], 1, 1500, 390, 215, 391, 3, 1, 110);

    char *text = text_of(s, 0);
    assert_true(has_line(text, "           4,500 bytes allocated in the heap"));
    assert_true(has_line(text, "          11,000 bytes copied during GC"));
    assert_true(has_line(text, "           5,000 bytes maximum residency (1 sample(s))"));
    assert_true(has_line(text, "             700 bytes maximum slop"));
    assert_true(r->mem_in_use_lower_bound);     /* a GHC 9.0 header: no MEM_RETURN */
    assert_true(has_line(text, "            >= 3 MiB total memory in use "
                               "(n/a MB lost due to fragmentation)"));
    assert_non_null(strstr(text, "\">=\" marks the largest of those, a lower bound."));
    assert_true(has_line(text, "  Parallel GC work balance: 48.00% (serial 0%, perfect 100%)"));
    assert_true(has_line(text, "  SPARKS: 33 (7 converted, 5 overflowed, 3 dud, 9 GC'd, "
                               "11 fizzled)"));
    assert_null(strstr(text, "Window:"));
    assert_null(strstr(text, "%GC"));            /* threaded RTS: GHC prints none */
    /* GHC's Alloc rate is per mutator CPU second, not in the events: n/a;
     * evprof's own figure (4500 bytes / 806 ns of MUT elapsed) on its own line */
    assert_true(has_line(text, "  Alloc rate    n/a bytes per MUT second"));
    assert_true(has_line(text, "  Alloc rate (wall clock)    5,583,126,550 bytes per elapsed "
                               "MUT second (INIT and EXIT included)"));
    assert_non_null(strstr(text, "GHC's fragmentation is the\n    difference of two lifetime "
                                 "peaks (megablocks, blocks in use), and no event\n    carries "
                                 "the second (GHC 9.0.2, 9.6.6, 9.10.3): n/a."));
    assert_null(strstr(text, "not in the events."));
    free(text);
    /* JSON: GHC's figures null under their names, evprof's under their own */
    text = text_of(s, 1);
    assert_non_null(strstr(text, "\n  \"alloc_rate\": null,"));
    assert_non_null(strstr(text, "\n  \"alloc_rate_wall_clock\": 5583126550,"));
    assert_non_null(strstr(text, "\n  \"ghc_fragmentation_bytes\": null,"));
    assert_non_null(strstr(text, "\n  \"max_current_fragmentation_bytes\": 8192,"));
    free(text);
    gc_destroy(s);
    free(buf);
}

/* GHC 9.2 and later: MEM_RETURN carries the megablocks held before each
 * return, which is GHC's peak when the heap shrank inside a collection
 * (HEAP_SIZE after it is lower): the figure is then GHC's, no bound. */
static void test_mem_return(void **state)
{
    (void)state;
    const uint64_t MiB = 1 << 20;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    el_writer_begin_block(w, 0, 0);
    el_writer_gc_start(w, 10);
    el_writer_heap_size(w, 20, 0, 40 * MiB);
    el_writer_gc_end(w, 20);
    el_writer_gc_start(w, 100);
    el_payload p = { 0 };
    el_payload_u32(&p, 0);
    el_payload_u32(&p, 57);         /* current: the peak, inside the collection */
    el_payload_u32(&p, 30);         /* needed */
    el_payload_u32(&p, 27);         /* returned */
    assert_int_equal(el_writer_event_payload(w, EL_MEM_RETURN, 150, &p), EV_OK);
    el_payload_free(&p);
    el_writer_heap_size(w, 160, 0, 30 * MiB);
    el_writer_gc_end(w, 160);
    el_writer_end_block(w, 200);
    el_writer_begin_block(w, EL_NO_CAP, 0);
    el_writer_heap_info(w, 5, 0, 2, 0, MiB, MiB, 4096);
    el_writer_end_block(w, 5);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    uint8_t *buf = malloc(len);
    memcpy(buf, bytes, len);
    el_writer_destroy(w);
    gc_summary *s = summary_mem(buf, len, NULL);
    const gc_result *r = gc_get_result(s);
    assert_int_equal(r->n_mem_return, 1);
    assert_int_equal(r->max_mem_in_use_bytes, 57 * MiB);
    assert_false(r->mem_in_use_lower_bound);
    char *text = text_of(s, 0);
    assert_true(has_line(text, "              57 MiB total memory in use "
                               "(n/a MB lost due to fragmentation)"));
    assert_null(strstr(text, "lower bound"));
    free(text);
    gc_destroy(s);
    free(buf);
}

static void test_synthetic_windows(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = synthetic(&len);

    /* [120, 480): GC1 only (its stats at 145; GC2's at 480 is outside);
     * pauses clipped for the time split: GC1 110..150 -> 30, GC2 400..500
     * -> 80. Allocation: cap 0 0 -> 1000, cap 1 0 -> 700. Sparks: cap 0's
     * first counters; cap 1's stayed at (1 0 0 0 0 0) inside the window.
     * Cap 1's own pauses: 100..155 -> 35, 395..505 -> 85. */
    gc_summary *s = synthetic_window(buf, len, 120, 480, -1);
    const gc_result *r = gc_get_result(s);
    assert_false(r->whole_run);
    /* the heap now, in the window: the size at 152, no live data (501 is
     * after), the latest allocation cap 0's at 150 */
    assert_true(r->has_heap_size);
    assert_false(r->has_live);
    assert_int_equal(r->heap_size_bytes, 2 << 20);
    assert_int_equal(r->live_bytes, 0);
    assert_int_equal(r->last_alloc_ns, 150);
    gc_summary *c1 = synthetic_window(buf, len, 120, 480, 1);
    assert_int_equal(gc_get_result(c1)->last_alloc_ns, 149);   /* cap 1's */
    gc_destroy(c1);
    assert_int_equal(r->from_ns, 120);
    assert_int_equal(r->to_ns, 480);
    assert_int_equal(r->total_ns, 360);
    assert_int_equal(r->gc_ns, 110);
    assert_int_equal(r->mutator_ns, 250);
    check_gen(&r->gens[0], 1, 1, 40, 40, 40, 4000, 300);
    check_gen(&r->gens[1], 0, 0, 0, 0, 0, 0, 0);
    assert_int_equal(r->copied_bytes, 4000);
    assert_int_equal(r->major_gcs, 0);
    assert_int_equal(r->max_live_bytes, 0);
    assert_int_equal(r->max_slop_bytes, 0);
    assert_int_equal(r->max_mem_in_use_bytes, 2 << 20);
    assert_int_equal(r->allocated_bytes, 1700);
    assert_true(r->work_balance > 0.4999 && r->work_balance < 0.5001);
    assert_int_equal(r->sparks.created, 10);
    assert_int_equal(r->sparks.dud, 1);
    assert_int_equal(r->sparks.overflowed, 2);
    assert_int_equal(r->sparks.converted, 3);
    assert_int_equal(r->sparks.gcd, 4);
    assert_int_equal(r->sparks.fizzled, 5);
    check_cap(&r->caps[0], 0, 1000, 240, 110, 10, 1, 1, 40);
    check_cap(&r->caps[1], 1, 700, 100, 120, 140, 1, 0, 55);
    char *text = text_of(s, 0);
    assert_true(has_line(text, "  Window: 0.000000s to 0.000000s of a 0.000001s log"));
    assert_null(strstr(text, "maximum residency"));   /* no major GC in the window */
    free(text);
    gc_destroy(s);

    /* [480, end]: GC2 and GC3. Allocation cap 0 1000 -> 3000, cap 1
     * 700 -> 1500; pauses 400..500 clipped to 20, 900..950 whole. */
    s = synthetic_window(buf, len, 480, UINT64_MAX, -1);
    r = gc_get_result(s);
    assert_false(r->whole_run);
    assert_int_equal(r->total_ns, 516);
    assert_int_equal(r->gc_ns, 70);
    check_gen(&r->gens[0], 1, 1, 50, 50, 50, 1000, 100);
    check_gen(&r->gens[1], 1, 0, 100, 100, 100, 6000, 700);
    assert_int_equal(r->allocated_bytes, 2800);
    assert_int_equal(r->major_gcs, 1);
    assert_int_equal(r->max_live_bytes, 5000);
    assert_int_equal(r->max_slop_bytes, 700);
    assert_int_equal(r->max_mem_in_use_bytes, 3 << 20);
    gc_destroy(s);

    /* [0, 120): only the start of GC1 (110..120 on cap 0, 100..120 on cap 1) */
    s = synthetic_window(buf, len, 0, 120, -1);
    r = gc_get_result(s);
    assert_int_equal(r->total_ns, 120);
    assert_int_equal(r->gc_ns, 10);
    assert_int_equal(r->collections, 0);
    assert_int_equal(r->allocated_bytes, 0);
    check_cap(&r->caps[0], 0, 0, 90, 10, 20, 0, 0, 0);
    check_cap(&r->caps[1], 1, 0, 0, 20, 100, 0, 0, 0);
    gc_destroy(s);

    /* --cap 1: its allocation, sparks and row; the heap stays whole */
    s = synthetic_window(buf, len, 0, UINT64_MAX, 1);
    r = gc_get_result(s);
    assert_false(r->whole_run);
    assert_int_equal(r->n_caps, 1);
    check_cap(&r->caps[0], 1, 1500, 390, 215, 391, 3, 1, 110);
    assert_int_equal(r->allocated_bytes, 1500);
    assert_int_equal(r->sparks.created, 5);
    assert_int_equal(r->sparks.fizzled, 1);
    assert_int_equal(r->copied_bytes, 11000);
    assert_int_equal(r->gc_ns, 190);
    text = text_of(s, 0);
    assert_true(has_line(text, "  Window: 0.000000s to 0.000001s of a 0.000001s log, "
                               "capability 1"));
    free(text);
    gc_destroy(s);

    /* a window after the end: nothing, and no division by zero */
    s = synthetic_window(buf, len, 5000, 9000, -1);
    r = gc_get_result(s);
    assert_int_equal(r->total_ns, 0);
    assert_int_equal(r->collections, 0);
    assert_int_equal(r->alloc_rate, 0);
    text = text_of(s, 0);
    assert_non_null(strstr(text, "Productivity    n/a of total user, 0.0% of total elapsed"));
    free(text);
    text = text_of(s, 1);
    assert_null(strstr(text, "nan"));
    free(text);
    gc_destroy(s);

    /* the whole-run window is the plain summary */
    gc_summary *plain = summary_mem(buf, len, NULL);
    s = synthetic_window(buf, len, 0, 997, -1);
    assert_true(gc_get_result(s)->whole_run);
    char *a = text_of(plain, 0), *b = text_of(s, 0);
    assert_string_equal(a, b);
    free(a);
    free(b);
    gc_destroy(s);
    gc_destroy(plain);
    free(buf);
}

/* Older layouts and damaged sequences: statistics after GC_END (GHC before
 * 8.x wrote them there), statistics outside any GC, a GC_END without its
 * start, a GC still open when the log ends. Non-threaded: no sparks line. */
static uint8_t *odd_orders_log(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_begin_block(w, 0, 0);
    el_writer_rts_identifier(w, 1, 0, "GHC-7.10.3 rts_l");
    el_writer_gc_start(w, 10);
    el_writer_gc_end(w, 20);
    el_gc_stats_fields a = { 0, 0, 100, 10, 0, 1, 0, 100, 0 };
    el_writer_gc_stats(w, 25, &a);             /* after its GC_END: pause 10 */
    el_writer_gc_start(w, 30);
    el_gc_stats_fields b = { 0, 1, 200, 20, 0, 1, 0, 200, 0 };
    el_writer_gc_stats(w, 35, &b);
    el_writer_gc_end(w, 50);                   /* pause 20 */
    el_gc_stats_fields c = { 0, 0, 300, 30, 0, 1, 0, 300, 0 };
    el_writer_gc_stats(w, 60, &c);             /* no GC around it */
    el_writer_gc_end(w, 65);                   /* no start */
    el_writer_gc_start(w, 70);                 /* never ends */
    el_writer_heap_allocated(w, 80, 0, 12345);
    el_writer_end_block(w, 80);
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

static void test_synthetic_odd_orders(void **state)
{
    (void)state;
    size_t len;
    uint8_t *bytes = odd_orders_log(&len);
    gc_summary *s = summary_mem(bytes, len, NULL);
    const gc_result *r = gc_get_result(s);
    assert_false(r->threaded);
    assert_int_equal(r->generations, 2);       /* no HEAP_INFO: oldest gen seen */
    check_gen(&r->gens[0], 2, 0, 10, 5, 10, 400, 30);
    check_gen(&r->gens[1], 1, 0, 20, 20, 20, 200, 20);
    assert_int_equal(r->collections_without_pause, 1);
    assert_int_equal(r->gc_ns, 30);
    assert_int_equal(r->n_caps, 1);
    /* the open GC is closed at the end: 70..80 */
    check_cap(&r->caps[0], 0, 12345, 0, 40, 40, 3, 3, 20);
    char *text = text_of(s, 0);
    assert_non_null(strstr(text, "  %GC     time        n/a  (37.5% elapsed)"));
    assert_null(strstr(text, "SPARKS"));
    assert_non_null(strstr(text, "1 collections have no GC_START/GC_END"));
    free(text);
    gc_destroy(s);
    free(bytes);
}

/* A log without GC events (+RTS -l-a) says so through has_gc_events. */
static void test_no_gc_events(void **state)
{
    (void)state;
    gc_summary *s = summary_of(GC_DATA "/alloc-l-a.eventlog", NULL);
    assert_false(gc_get_result(s)->has_gc_events);
    gc_destroy(s);
    s = summary_of(GC_DATA "/alloc.eventlog", NULL);
    assert_true(gc_get_result(s)->has_gc_events);
    gc_destroy(s);
}

static void test_commas(void **state)
{
    (void)state;
    char b[32];
    const struct { uint64_t v; const char *s; } cases[] = {
        { 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { 123456, "123,456" },
        { 1234567, "1,234,567" }, { UINT64_MAX, "18,446,744,073,709,551,615" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gc_commas(b, sizeof b, cases[i].v);
        assert_string_equal(b, cases[i].s);
    }
    gc_commas(b, 4, 1234567);                  /* cut, still terminated */
    assert_int_equal(strlen(b), 3);
}


/* ---- snapshots and collections -------------------------------------------- */

typedef struct snap_ctx {
    gc_summary *s;
    uint64_t events, snaps;
    uint64_t collections;       /* from the callback */
    uint64_t paused;
} snap_ctx;

static void count_collection(void *ctx, const gc_collection *c)
{
    snap_ctx *x = ctx;
    x->collections++;
    if (c->has_pause) {
        assert_true(c->end_ns >= c->start_ns);
        x->paused++;
    }
}

static int snap_feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    snap_ctx *x = ctx;
    (void)d;
    if (gc_add_event(x->s, ev) != 0)
        return 1;
    if (++x->events % 501 == 0) {
        gc_summary *snap = gc_snapshot(x->s);
        assert_non_null(snap);
        assert_non_null(gc_get_result(snap));
        gc_destroy(snap);
        x->snaps++;
    }
    return 0;
}

/* Snapshots taken during the read change nothing: the final snapshot's
 * report equals the one-shot summary's. The collection callback reports
 * each collection once on a -N2 log (GHC's own count), and a summary
 * refuses results before it is finished and events after. */
static void test_snapshots_and_collections(void **state)
{
    (void)state;
    const char *path = GC_DATA "/pargc-N2.eventlog";
    gc_summary *once = summary_of(path, NULL);
    char *want = text_of(once, 1);

    snap_ctx x = { gc_create(), 0, 0, 0, 0 };
    assert_non_null(x.s);
    assert_null(gc_get_result(x.s));
    gc_on_collection(x.s, count_collection, &x);
    el_read_result r = el_read_path(path, snap_feed, &x, NULL);
    assert_int_equal(r.status, EV_END);
    assert_true(x.snaps > 3);
    gc_set_time_span(x.s, r.first_time, r.last_time);
    gc_summary *final = gc_snapshot(x.s);
    char *got = text_of(final, 1);
    assert_string_equal(got, want);
    assert_int_equal(x.collections, gc_get_result(final)->collections);
    assert_int_equal(x.paused, x.collections - gc_get_result(final)->collections_without_pause);

    assert_int_equal(gc_finish(x.s), 0);
    el_event ev = { 0 };
    ev.type = EL_GC_START;
    assert_int_equal(gc_add_event(x.s, &ev), -1);
    free(want);
    free(got);
    gc_destroy(final);
    gc_destroy(x.s);
    gc_destroy(once);
}

/* ---- the non-moving collector and the tasks ------------------------------ */

static void task_event(el_writer *w, uint16_t type, uint64_t t, uint64_t task, uint64_t tid)
{
    el_payload p = { 0 };
    el_payload_u64(&p, task);
    if (type == EL_TASK_CREATE) {
        el_payload_u16(&p, 0);
        el_payload_u64(&p, tid);
    }
    assert_int_equal(el_writer_event_payload(w, type, t, &p), EV_OK);
    el_payload_free(&p);
}

static void conc(el_writer *w, uint16_t type, uint64_t t)
{
    static const uint8_t marked[4] = { 0, 0, 0, 7 };
    assert_int_equal(el_writer_event(w, type, t, marked, type == EL_CONC_MARK_END ? 4 : 0),
                     EV_OK);
}

/* A threaded -N2 run of the non-moving collector (times in ns), with its
 * mark thread's and the tasks' events in the global block, which GHC
 * writes in time order:
 *
 *   process 100; the main thread's task A (kernel thread 100) created at
 *   2, deleted at 5, created again at 6; workers B, C (kernel threads 101,
 *   102) at 3 and 4, B deleted at 50, D (103) created at 60: 3 workers,
 *   at most 2 alive at once (3..50 and 60..), 1 bound task.
 *   Collection 1: marks 100..110, 120..130; sync 131 (again 132) .. 150
 *       (again 151); a mark 140..141; sweep 160..200: sync 19, 100 long.
 *   Collection 2: marks 300..350; a sync given up at 360 (361) .. 370
 *       (371); mark 380..390; sync 400 (401) .. 420 (421); sweep 430..500:
 *       syncs 10 and 20, 200 long.
 *   Collection 3, not concurrent (no sync): mark 600..610, sweep 620..650:
 *       not GHC's (it times concurrent ones only).
 *   Collection 4 cut short at exit: mark 700..720, no sweep: not counted.
 *   Major collections (GC_STATS_GHC gen 1) at 90 and 290: GHC's 2 syncs.
 *
 * So: 3 syncs seen, 49 long, the longest 20; 2 concurrent collections,
 * 300 long, the longest 200; the syncs' average is GHC's 49 / 2. */
static uint8_t *nonmoving_log(size_t *len, const char *rts, const char *const *args, int nargs,
                              int with_conc)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_begin_block(w, 0, 0);
    el_writer_gc_start(w, 80);
    el_gc_stats_fields g1 = { 0, 1, 100, 0, 0, 1, 0, 100, 0 };
    el_writer_gc_stats(w, 90, &g1);
    el_writer_gc_end(w, 95);
    el_writer_gc_start(w, 280);
    el_writer_gc_stats(w, 290, &g1);
    el_writer_gc_end(w, 295);
    el_writer_end_block(w, 295);
    el_writer_begin_block(w, 1, 0);
    el_writer_run_thread(w, 10, 2);
    el_writer_stop_thread(w, 700, 2, 1, 0);
    el_writer_end_block(w, 700);

    el_writer_begin_block(w, EL_NO_CAP, 0);
    el_writer_rts_identifier(w, 0, 0, rts);
    el_writer_program_args(w, 0, 0, nargs, args);
    el_writer_cap_create(w, 0, 0);
    el_writer_cap_create(w, 0, 1);
    el_writer_heap_info(w, 0, 0, 2, 0, 1 << 20, 1 << 20, 4096);
    el_writer_os_pid(w, 1, 0, 100);
    task_event(w, EL_TASK_CREATE, 2, 0xA, 100);
    task_event(w, EL_TASK_CREATE, 3, 0xB, 101);
    task_event(w, EL_TASK_CREATE, 4, 0xC, 102);
    task_event(w, EL_TASK_DELETE, 5, 0xA, 0);
    task_event(w, EL_TASK_CREATE, 6, 0xA, 100);
    task_event(w, EL_TASK_DELETE, 50, 0xB, 0);
    task_event(w, EL_TASK_CREATE, 60, 0xD, 103);
    static const struct { uint16_t type; uint64_t t; } c[] = {
        { EL_CONC_MARK_BEGIN, 100 }, { EL_CONC_MARK_END, 110 }, { EL_CONC_MARK_BEGIN, 120 },
        { EL_CONC_MARK_END, 130 }, { EL_CONC_SYNC_BEGIN, 131 }, { EL_CONC_SYNC_BEGIN, 132 },
        { EL_CONC_MARK_BEGIN, 140 }, { EL_CONC_MARK_END, 141 }, { EL_CONC_SYNC_END, 150 },
        { EL_CONC_SYNC_END, 151 }, { EL_CONC_SWEEP_BEGIN, 160 }, { EL_CONC_SWEEP_END, 200 },
        { EL_CONC_MARK_BEGIN, 300 }, { EL_CONC_MARK_END, 350 }, { EL_CONC_SYNC_BEGIN, 360 },
        { EL_CONC_SYNC_BEGIN, 361 }, { EL_CONC_SYNC_END, 370 }, { EL_CONC_SYNC_END, 371 },
        { EL_CONC_MARK_BEGIN, 380 }, { EL_CONC_MARK_END, 390 }, { EL_CONC_SYNC_BEGIN, 400 },
        { EL_CONC_SYNC_BEGIN, 401 }, { EL_CONC_SYNC_END, 420 }, { EL_CONC_SYNC_END, 421 },
        { EL_CONC_SWEEP_BEGIN, 430 }, { EL_CONC_SWEEP_END, 500 }, { EL_CONC_MARK_BEGIN, 600 },
        { EL_CONC_MARK_END, 610 }, { EL_CONC_SWEEP_BEGIN, 620 }, { EL_CONC_SWEEP_END, 650 },
        { EL_CONC_MARK_BEGIN, 700 }, { EL_CONC_MARK_END, 720 },
    };
    for (size_t i = 0; with_conc && i < sizeof c / sizeof c[0]; i++)
        conc(w, c[i].type, c[i].t);
    el_writer_end_block(w, 720);
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

static const char *const nm_args[] = { "./prog", "+RTS", "-N2", "--nonmoving-gc", "-RTS" };

static void test_nonmoving_synthetic(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = nonmoving_log(&len, "GHC-9.10.3 rts_thr_l", nm_args, 5, 1);
    gc_summary *s = summary_mem(buf, len, NULL);
    const gc_result *r = gc_get_result(s);
    assert_true(r->nonmoving);
    assert_int_equal(r->nonmoving_syncs, 2);
    assert_int_equal(r->nonmoving_sync_pairs, 3);
    assert_int_equal(r->nonmoving_sync_ns, 49);
    assert_int_equal(r->nonmoving_sync_max_ns, 20);
    assert_int_equal(r->nonmoving_collections, 2);
    assert_int_equal(r->nonmoving_elapsed_ns, 300);
    assert_int_equal(r->nonmoving_max_elapsed_ns, 200);
    assert_true(r->has_nonmoving_elapsed);
    assert_true(r->has_tasks);
    assert_int_equal(r->bound_tasks, 1);
    assert_true(r->bound_tasks_lower_bound);    /* the mark thread's bound task */
    assert_int_equal(r->workers, 3);
    assert_int_equal(r->peak_workers, 2);
    assert_int_equal(r->n_capabilities, 2);
    char *text = text_of(s, 0);
    /* GHC's formats: 49 ns over 2 syncs */
    assert_true(has_line(text, "  Gen  1         2 syncs,                       0.000s     "
                               "0.0000s    0.0000s"));
    assert_true(has_line(text, "  Gen  1      concurrent,                 n/a >=0.000s   "
                               ">=0.0000s  >=0.0000s"));
    assert_true(has_line(text, "  TASKS: >= 4 (>= 1 bound, 2 peak workers (3 total), using -N2)"));
    assert_true(has_line(text, "  CONC GC time       n/a  (>=0.000s elapsed)"));
    free(text);
    text = text_of(s, 1);
    assert_non_null(strstr(text, "\"tasks\": {\"task_count\": 4, \"bound_task_count\": 1, "
                                 "\"bound_task_count_lower_bound\": true, "
                                 "\"peak_worker_count\": 2, "
                                 "\"worker_count\": 3, \"n_capabilities\": 2}"));
    assert_non_null(strstr(text, "\"nonmoving\": {\"syncs\": 2, \"sync_pairs\": 3, "
                                 "\"sync_elapsed_ns\": 49, \"sync_avg_pause_ns\": 24.5, "
                                 "\"sync_max_elapsed_ns\": 20, \"concurrent_collections\": 2, "
                                 "\"concurrent_cpu_ns\": null, \"concurrent_elapsed_ns\": 300, "
                                 "\"concurrent_avg_pause_ns\": 150, "
                                 "\"concurrent_max_elapsed_ns\": 200, "
                                 "\"concurrent_elapsed_lower_bound\": true}"));
    free(text);
    gc_destroy(s);

    /* windows: a sync by its end, a collection by its sweep's end; the
     * tasks are the whole run's */
    s = synthetic_window(buf, len, 0, 400, -1);
    r = gc_get_result(s);
    assert_int_equal(r->nonmoving_sync_pairs, 2);
    assert_int_equal(r->nonmoving_sync_ns, 29);
    assert_int_equal(r->nonmoving_collections, 1);
    assert_int_equal(r->nonmoving_elapsed_ns, 100);
    assert_int_equal(r->workers, 3);
    gc_destroy(s);
    s = synthetic_window(buf, len, 400, 1000, -1);
    r = gc_get_result(s);
    assert_int_equal(r->nonmoving_sync_pairs, 1);
    assert_int_equal(r->nonmoving_sync_ns, 20);
    assert_int_equal(r->nonmoving_collections, 1);
    assert_int_equal(r->nonmoving_elapsed_ns, 200);
    assert_int_equal(r->nonmoving_syncs, 0);
    gc_destroy(s);
    free(buf);

    /* GHC 9.0: its concurrent "elapsed" is CPU time, n/a */
    buf = nonmoving_log(&len, "GHC-9.0.2 rts_thr_l", nm_args, 5, 1);
    s = summary_mem(buf, len, NULL);
    assert_false(gc_get_result(s)->has_nonmoving_elapsed);
    text = text_of(s, 0);
    assert_true(has_line(text, "  Gen  1      concurrent,                 n/a      n/a         "
                               "n/a        n/a"));
    free(text);
    text = text_of(s, 1);
    assert_non_null(strstr(text, "\"concurrent_elapsed_ns\": null"));
    free(text);
    gc_destroy(s);
    free(buf);
}

/* Without its events the collector is known from the program's RTS
 * options (--nonmoving-gc or -xn between +RTS and -RTS), not from its
 * other arguments. */
static void test_nonmoving_options(void **state)
{
    (void)state;
    static const char *const xn[] = { "./prog", "+RTS", "-xn" };
    static const char *const outside[] = { "./prog", "--nonmoving-gc", "+RTS", "-N2", "-RTS",
                                           "-xn" };
    static const char *const after[] = { "./prog", "+RTS", "-N2", "--RTS", "--nonmoving-gc" };
    static const char *const copying[] = { "./prog", "+RTS", "-N2", "-RTS" };
    const struct { const char *const *args; int n, want; } cases[] = {
        { nm_args, 5, 1 }, { xn, 3, 1 }, { outside, 6, 0 }, { after, 5, 0 }, { copying, 4, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        uint8_t *buf = nonmoving_log(&len, "GHC-9.10.3 rts_thr", cases[i].args, cases[i].n, 0);
        gc_summary *s = summary_mem(buf, len, NULL);
        const gc_result *r = gc_get_result(s);
        assert_int_equal(r->nonmoving, cases[i].want);
        assert_false(r->bound_tasks_lower_bound);   /* no mark thread ran */
        char *text = text_of(s, 0);
        assert_int_equal(strstr(text, " syncs, ") != NULL, cases[i].want);
        assert_true(has_line(text, "  TASKS: 4 (1 bound, 2 peak workers (3 total), using -N2)"));
        free(text);
        gc_destroy(s);
        free(buf);
    }
}

/* ---- partials (the parallel read) --------------------------------------- */

/* Events 0 .. k1 - 1 to part[0], k1 .. k2 - 1 to part[1], the rest to
 * part[2], as three ranges of the parallel read would have them. */
typedef struct split_ctx {
    gc_summary *part[3];
    size_t i, k1, k2;
} split_ctx;

static int split_feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    split_ctx *x = ctx;
    (void)d;
    gc_summary *s = x->part[x->i < x->k1 ? 0 : x->i < x->k2 ? 1 : 2];
    x->i++;
    return add(s, ev);
}

/* The report of `buf` read in three ranges cut after events k1 and k2,
 * merged as the driver merges them: range 1 and 2 into range 0, then
 * that into the attached summary, which has read nothing. */
/* The JSON report, then what it does not show: the heap now. */
static char *figures_of(const gc_summary *s)
{
    char *json = text_of(s, 1), *t = NULL;
    size_t len = 0;
    const gc_result *r = gc_get_result(s);
    FILE *m = open_memstream(&t, &len);
    assert_non_null(m);
    fprintf(m, "%s\nnow %d %d %llu %llu %llu\n", json, r->has_heap_size, r->has_live,
            (unsigned long long)r->heap_size_bytes, (unsigned long long)r->live_bytes,
            (unsigned long long)r->last_alloc_ns);
    for (size_t i = 0; i < r->n_points; i++)
        fprintf(m, "point %llu %llu %llu %llu\n", (unsigned long long)r->points[i].time_ns,
                (unsigned long long)r->points[i].heap_size_bytes,
                (unsigned long long)r->points[i].live_bytes,
                (unsigned long long)r->points[i].allocated_bytes);
    assert_int_equal(fclose(m), 0);
    free(json);
    return t;
}

/* The points the summaries below keep (gc_keep_series; 0: none). */
static uint32_t keep_points;

static gc_summary *create_keeping(void)
{
    gc_summary *s = gc_create();
    assert_non_null(s);
    if (keep_points)
        assert_int_equal(gc_keep_series(s, keep_points), 0);
    return s;
}

static char *split_text(const uint8_t *buf, size_t len, const ev_select *sel, size_t k1,
                        size_t k2)
{
    gc_summary *self = create_keeping();
    cur_sel = sel;
    split_ctx x = { { gc_fork(self), gc_fork(self), gc_fork(self) }, 0, k1, k2 };
    assert_non_null(x.part[0]);
    assert_non_null(x.part[2]);
    el_read_result r = el_read_mem(buf, len, split_feed, &x, NULL);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(gc_merge(x.part[0], x.part[1]), 0);
    assert_int_equal(gc_merge(x.part[0], x.part[2]), 0);
    assert_int_equal(gc_merge(self, x.part[0]), 0);
    for (int i = 0; i < 3; i++)
        gc_destroy(x.part[i]);
    if (r.has_time_span)
        gc_set_time_span(self, r.first_time, r.last_time);
    assert_int_equal(gc_finish(self), 0);
    char *t = figures_of(self);
    gc_destroy(self);
    return t;
}

static int count_feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)ev;
    (void)d;
    ++*(size_t *)ctx;
    return 0;
}

static size_t count_events(const uint8_t *buf, size_t len)
{
    size_t n = 0;
    el_read_result r = el_read_mem(buf, len, count_feed, &n, NULL);
    assert_int_equal(r.status, EV_END);
    return n;
}

/* Every cut of a log into three ranges (every pair of cut points; on a
 * long log every `step`th) gives the sequential read's report, whole
 * window and a window with one capability. */
static void check_every_split(const uint8_t *buf, size_t len, size_t step)
{
    size_t n = count_events(buf, len);
    ev_select *fs[2] = { NULL, test_window(120, 920, 0) };
    for (int fi = 0; fi < 2; fi++) {
        gc_summary *seq = create_keeping();
        cur_sel = fs[fi];
        char *want = figures_of(finish_read(seq, el_read_mem(buf, len, feed, seq, NULL), "log"));
        for (size_t k1 = 0; k1 <= n; k1 += step)
            for (size_t k2 = k1; k2 <= n; k2 += step) {
                char *got = split_text(buf, len, fs[fi], k1, k2);
                if (strcmp(got, want) != 0)
                    fail_msg("cut after events %zu and %zu of %zu (filter %d, points %u):\n%s\n"
                             "want:\n%s", k1, k2, n, fi, (unsigned)keep_points, got, want);
                free(got);
            }
        free(want);
        gc_destroy(seq);
    }
    ev_select_destroy(fs[1]);
}

static uint8_t *odd_orders_log(size_t *len);

/* Partials merged in file order equal one sequential read wherever the
 * ranges are cut: inside a collection (GC_START, GC_STATS_GHC and GC_END
 * in different ranges), inside a thread's run, before the statistics an
 * old GHC wrote after GC_END, on several capabilities and outside them. */
static void test_partials_every_cut(void **state)
{
    (void)state;
    /* without the heap over time, then with it: few points (the widths
     * of the partials' buckets differ and double) and the page's 1000 */
    static const uint32_t keeps[] = { 0, 4, 1000 };
    for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++) {
        keep_points = keeps[k];
        size_t len;
        uint8_t *buf = synthetic(&len);
        check_every_split(buf, len, 1);
        free(buf);
        buf = odd_orders_log(&len);
        check_every_split(buf, len, 1);
        free(buf);
        buf = nonmoving_log(&len, "GHC-9.10.3 rts_thr_l", nm_args, 5, 1);
        check_every_split(buf, len, 1);
        free(buf);
        /* a real -N2 log with parallel collections: cuts spread over it */
        FILE *f = fopen(GC_DATA "/pargc-N2.eventlog", "rb");
        assert_non_null(f);
        assert_int_equal(fseek(f, 0, SEEK_END), 0);
        len = (size_t)ftell(f);
        rewind(f);
        buf = malloc(len);
        assert_int_equal(fread(buf, 1, len, f), len);
        fclose(f);
        size_t n = count_events(buf, len);
        check_every_split(buf, len, n / 23 + 1);
        free(buf);
        /* a real run of the non-moving collector: the cuts fall inside
         * collections and among the tasks */
        buf = test_read_file(GHC910 "/nonmoving-N2-s.eventlog", &len);
        assert_non_null(buf);
        n = count_events(buf, len);
        check_every_split(buf, len, n / 23 + 1);
        free(buf);
    }
    keep_points = 0;
}

/* A summary that reports collections as they come does not fork (they
 * would come out of order); a partial that would have to hold more than
 * a real log ever makes it (GC_ENDs without a GC_START) refuses the
 * merge, so the read goes sequential. */
static void test_partials_refuse(void **state)
{
    (void)state;
    snap_ctx x = { gc_create(), 0, 0, 0, 0 };
    gc_on_collection(x.s, count_collection, &x);
    assert_null(gc_fork(x.s));
    gc_destroy(x.s);

    gc_summary *self = gc_create(), *q = gc_fork(self);
    el_event ev = { 0 };
    ev.decoded = 1;
    ev.cap = 0;
    ev.type = EL_GC_END;
    for (uint64_t t = 1; t <= 70000; t++) {
        ev.time = t;
        assert_int_equal(gc_add_event(q, &ev), 0);
    }
    assert_int_not_equal(gc_merge(self, q), 0);
    gc_destroy(q);
    gc_destroy(self);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_ghc),
        cmocka_unit_test(test_whole_window_is_plain),
        cmocka_unit_test(test_windows_add_up),
        cmocka_unit_test(test_synthetic_whole),
        cmocka_unit_test(test_synthetic_windows),
        cmocka_unit_test(test_mem_return),
        cmocka_unit_test(test_synthetic_odd_orders),
        cmocka_unit_test(test_no_gc_events),
        cmocka_unit_test(test_commas),
        cmocka_unit_test(test_nonmoving_synthetic),
        cmocka_unit_test(test_nonmoving_options),
        cmocka_unit_test(test_snapshots_and_collections),
        cmocka_unit_test(test_partials_every_cut),
        cmocka_unit_test(test_partials_refuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
