/* A live frame as Prometheus' text exposition format 0.0.4: see
 * include/evprof/metrics.h and docs/LIVE.md ("Prometheus").
 *
 * Every value is a field of the frame (live/top.c computes them); this
 * file names them, picks the top N rows of the lists and escapes labels.
 * Families come in a fixed order, each with its HELP and TYPE lines;
 * inside a family the rows go by generation, capability, or value
 * (largest first, ties by label). Label texts are the report's visible
 * form of the log's bytes, so a cost centre reads as in `evprof report`.
 * A cost centre's series carries its source location as well as its
 * Module.label: namesakes (one Module.label at several places, which GHC
 * makes often: prof_namesakes) are series of their own, and a series
 * keeps its labels from the first scrape to the last, whatever the other
 * cost centres do. Two rows whose texts are still equal (names that
 * differ only in bytes that are not UTF-8) are one series with their
 * figures summed, since a scrape may not hold a series twice. */
#include "evprof/metrics.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"
#include "live/internal.h"

#define DEFAULT_TOP 10

void live_metrics_opts_init(live_metrics_opts *o)
{
    o->top_n = DEFAULT_TOP;
    o->process = 0;
}

/* A row of a list: its label text and, for a cost centre, its source
 * location's (in the text arena; SIZE_MAX: none), and two figures. */
typedef struct row {
    size_t off, soff;
    const char *key, *src;      /* set once the arena stops moving; src "" when none */
    uint64_t a, b;
} row;

struct live_metrics {
    live_metrics_opts o;
    row *rows;
    size_t n_rows, cap_rows;
    char *text;
    size_t text_len, text_cap;
    int nomem;
    char *program;              /* the default labels */
    int has_pid;
    uint32_t pid;
};

live_metrics *live_metrics_create(const live_metrics_opts *o)
{
    live_metrics *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    if (o)
        m->o = *o;
    else
        live_metrics_opts_init(&m->o);
    if (!m->o.top_n)
        m->o.top_n = DEFAULT_TOP;
    return m;
}

void live_metrics_destroy(live_metrics *m)
{
    if (!m)
        return;
    free(m->rows);
    free(m->text);
    free(m->program);
    free(m);
}

int live_metrics_set_default_labels(live_metrics *m, const char *program, uint32_t pid)
{
    free(m->program);
    m->program = NULL;
    m->has_pid = 1;
    m->pid = pid;
    if (program && !(m->program = strdup(program)))
        return -1;
    return 0;
}

/* ---- escaping ------------------------------------------------------------ */

static void put_escaped(FILE *out, const char *s, size_t len, int quote)
{
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        const char *esc = NULL;
        if (s[i] == '\\')
            esc = "\\\\";
        else if (s[i] == '\n')
            esc = "\\n";
        else if (quote && s[i] == '"')
            esc = "\\\"";
        if (!esc)
            continue;
        fwrite(s + run, 1, i - run, out);
        fputs(esc, out);
        run = i + 1;
    }
    fwrite(s + run, 1, len - run, out);
}

void live_metrics_label_value(FILE *out, const char *s, size_t len)
{
    char small[256];
    size_t n = tx_vis(small, sizeof small, s, len);
    if (n < sizeof small) {
        put_escaped(out, small, n, 1);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        /* no memory for the whole: the part that fits, still well formed */
        put_escaped(out, small, strlen(small), 1);
        return;
    }
    tx_vis(big, n + 1, s, len);
    put_escaped(out, big, n, 1);
    free(big);
}

void live_metrics_help_text(FILE *out, const char *s)
{
    put_escaped(out, s, strlen(s), 0);
}

/* ---- rows ---------------------------------------------------------------- */

/* Adds the visible form of s[0..len) (then of t[0..tlen) after a dot, when
 * t is not NULL) to the arena; returns its offset, or SIZE_MAX. */
static size_t text_add(live_metrics *m, const char *s, size_t len, const char *t, size_t tlen)
{
    size_t need = 4 * (len + tlen) + 3;     /* an escape is at most 4 bytes a byte */
    if (m->text_len + need > m->text_cap) {
        size_t cap = m->text_cap ? m->text_cap : 4096;
        while (cap < m->text_len + need)
            cap *= 2;
        char *x = realloc(m->text, cap);
        if (!x)
            return SIZE_MAX;
        m->text = x;
        m->text_cap = cap;
    }
    size_t off = m->text_len;
    char *p = m->text + off;
    size_t room = m->text_cap - off;
    size_t n = tx_vis(p, room, s, len);
    if (t) {
        p[n++] = '.';
        n += tx_vis(p + n, room - n, t, tlen);
    }
    m->text_len += n + 1;
    return off;
}

static int add_row(live_metrics *m, size_t off, size_t soff, uint64_t a, uint64_t b)
{
    if (off == SIZE_MAX)
        return -1;
    if (m->n_rows == m->cap_rows) {
        size_t cap = m->cap_rows ? m->cap_rows * 2 : 256;
        row *r = realloc(m->rows, cap * sizeof *r);
        if (!r)
            return -1;
        m->rows = r;
        m->cap_rows = cap;
    }
    m->rows[m->n_rows++] = (row){ off, soff, NULL, NULL, a, b };
    return 0;
}

/* the label, then the source location */
static int cmp_key(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : strcmp(a->src, b->src);
}

/* a descending, then b descending, then the labels */
static int cmp_value(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    if (a->a != b->a)
        return a->a > b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b > b->b ? -1 : 1;
    return cmp_key(pa, pb);
}

/* The rows added since the list was cleared: equal label sets merged
 * (their figures summed), the first top_n by value. Returns how many. */
static size_t pick_top(live_metrics *m)
{
    size_t n = m->n_rows;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        m->rows[i].key = m->text + m->rows[i].off;
        m->rows[i].src = m->rows[i].soff == SIZE_MAX ? "" : m->text + m->rows[i].soff;
    }
    qsort(m->rows, n, sizeof *m->rows, cmp_key);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && cmp_key(&m->rows[k - 1], &m->rows[i]) == 0) {
            m->rows[k - 1].a += m->rows[i].a;
            m->rows[k - 1].b += m->rows[i].b;
        } else {
            m->rows[k++] = m->rows[i];
        }
    }
    qsort(m->rows, k, sizeof *m->rows, cmp_value);
    return k < m->o.top_n ? k : m->o.top_n;
}

static void clear_rows(live_metrics *m)
{
    m->n_rows = 0;
    m->text_len = 0;
}

/* ---- lines --------------------------------------------------------------- */

static void family(FILE *out, const char *name, const char *type, const char *help)
{
    fprintf(out, "# HELP %s ", name);
    live_metrics_help_text(out, help);
    fprintf(out, "\n# TYPE %s %s\n", name, type);
}

/* name{program="..",pid="..",label="value",label2="value2"} : the
 * opening of a sample line; the labels (lname, lname2 may be NULL) are
 * texts to escape. */
static void sample_open2(FILE *out, const live_frame *f, const char *name, const char *lname,
                         const char *lval, const char *lname2, const char *lval2)
{
    int any = 0;
    fputs(name, out);
    if (f->program) {
        fputs("{program=\"", out);
        live_metrics_label_value(out, f->program, strlen(f->program));
        fputc('"', out);
        any = 1;
    }
    if (f->has_pid) {
        fprintf(out, "%spid=\"%lu\"", any ? "," : "{", (unsigned long)f->pid);
        any = 1;
    }
    if (lname) {
        fprintf(out, "%s%s=\"", any ? "," : "{", lname);
        live_metrics_label_value(out, lval, strlen(lval));
        fputc('"', out);
        any = 1;
    }
    if (lname2) {
        fprintf(out, "%s%s=\"", any ? "," : "{", lname2);
        live_metrics_label_value(out, lval2, strlen(lval2));
        fputc('"', out);
        any = 1;
    }
    if (any)
        fputc('}', out);
}

static void sample_open(FILE *out, const live_frame *f, const char *name, const char *lname,
                        const char *lval)
{
    sample_open2(out, f, name, lname, lval, NULL, NULL);
}

/* a cost centre's sample: its Module.label and its source location */
static void sample_cc(FILE *out, const live_frame *f, const char *name, const row *r, uint64_t v)
{
    sample_open2(out, f, name, "cost_centre", r->key, "src", r->src);
    fprintf(out, " %" PRIu64 "\n", v);
}

static void sample_u64(FILE *out, const live_frame *f, const char *name, const char *lname,
                       const char *lval, uint64_t v)
{
    sample_open(out, f, name, lname, lval);
    fprintf(out, " %" PRIu64 "\n", v);
}

/* ns as seconds, exactly: 1.000250000 */
static void sample_secs(FILE *out, const live_frame *f, const char *name, const char *lname,
                        const char *lval, uint64_t ns)
{
    sample_open(out, f, name, lname, lval);
    fprintf(out, " %" PRIu64 ".%09" PRIu64 "\n", ns / 1000000000u, ns % 1000000000u);
}

static void counter_u64(FILE *out, const live_frame *f, const char *name, const char *help,
                        uint64_t v)
{
    family(out, name, "counter", help);
    sample_u64(out, f, name, NULL, NULL, v);
}

static void gauge_u64(FILE *out, const live_frame *f, const char *name, const char *help,
                      uint64_t v)
{
    family(out, name, "gauge", help);
    sample_u64(out, f, name, NULL, NULL, v);
}

/* ns as the shortest decimal seconds: 0.000025, 2.5, 10 */
static void secs_text(char *buf, size_t size, uint64_t ns)
{
    int len = snprintf(buf, size, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
    while (len > 0 && buf[len - 1] == '0')
        buf[--len] = '\0';
    if (len > 0 && buf[len - 1] == '.')
        buf[--len] = '\0';
}

static const char *cap_text(char *buf, size_t size, uint32_t cap)
{
    if (cap == EL_NO_CAP)
        return "none";
    snprintf(buf, size, "%lu", (unsigned long)cap);
    return buf;
}

/* ---- the families -------------------------------------------------------- */

static void gc_families(FILE *out, const live_frame *f)
{
    const live_mem *mem = &f->mem;
    const gc_result *r = f->gc;
    char num[32];

    counter_u64(out, f, "ghc_allocated_bytes_total",
                "Bytes allocated in the heap: every capability's HEAP_ALLOCATED counter, "
                "summed (+RTS -s: bytes allocated in the heap).", mem->allocated);
    if (r)
        counter_u64(out, f, "ghc_copied_bytes_total",
                    "Bytes copied by the garbage collector, all generations (GC_STATS_GHC; "
                    "+RTS -s: bytes copied during GC).", r->copied_bytes);
    if (r && r->generations) {
        family(out, "ghc_gc_collections_total", "counter",
               "Collections of each generation, one per GC_STATS_GHC of the capability that "
               "led it (+RTS -s: Gen N colls).");
        for (uint32_t g = 0; g < r->generations; g++) {
            snprintf(num, sizeof num, "%lu", (unsigned long)g);
            sample_u64(out, f, "ghc_gc_collections_total", "generation", num,
                       r->gens[g].collections);
        }
    }

    family(out, "ghc_gc_pause_seconds", "histogram",
           "Pauses of the collections, each the leading capability's GC_START to GC_END "
           "(elapsed time, every generation).");
    uint64_t cum = 0;
    for (size_t i = 0; i <= LIVE_PAUSE_BOUNDS; i++) {
        char le[32];
        if (i < LIVE_PAUSE_BOUNDS)
            secs_text(le, sizeof le, live_pause_bound_ns[i]);
        else
            strcpy(le, "+Inf");
        cum += mem->pause_buckets[i];
        sample_u64(out, f, "ghc_gc_pause_seconds_bucket", "le", le, cum);
    }
    sample_secs(out, f, "ghc_gc_pause_seconds_sum", NULL, NULL, mem->pause_ns);
    sample_u64(out, f, "ghc_gc_pause_seconds_count", NULL, NULL, mem->paused);

    if (r && r->generations) {
        family(out, "ghc_gc_pause_max_seconds", "gauge",
               "The longest pause of a collection of each generation (+RTS -s: Max pause).");
        for (uint32_t g = 0; g < r->generations; g++) {
            snprintf(num, sizeof num, "%lu", (unsigned long)g);
            sample_secs(out, f, "ghc_gc_pause_max_seconds", "generation", num,
                        r->gens[g].max_pause_ns);
        }
    }

    if (mem->has_heap) {
        gauge_u64(out, f, "ghc_heap_size_bytes",
                  "The heap's current size: the memory the RTS holds for it (the latest "
                  "HEAP_SIZE).", mem->heap_size);
        gauge_u64(out, f, "ghc_live_data_bytes",
                  "Live data after the latest major collection (the latest HEAP_LIVE).",
                  mem->live_bytes);
    }
    if (r) {
        gauge_u64(out, f, "ghc_max_mem_in_use_bytes",
                  "The most memory the RTS held so far (+RTS -s: total memory in use; GHC 9.2+: MEM_RETURN, exact; before: the largest HEAP_SIZE, a lower bound).",
                  r->max_mem_in_use_bytes);
        gauge_u64(out, f, "ghc_max_residency_bytes",
                  "The most live data after a major collection so far (+RTS -s: maximum "
                  "residency).", r->max_live_bytes);
    }
    if (mem->has_blocks_size)
        gauge_u64(out, f, "ghc_blocks_size_bytes",
                  "Bytes in the block allocator's blocks (the latest BLOCKS_SIZE, GHC 9.2 "
                  "and later).", mem->blocks_size);

    if (r && r->n_caps) {
        family(out, "ghc_mutator_seconds_total", "counter",
               "Elapsed time each capability ran Haskell threads (RUN_THREAD to "
               "STOP_THREAD).");
        for (uint32_t i = 0; i < r->n_caps; i++)
            sample_secs(out, f, "ghc_mutator_seconds_total", "capability",
                        cap_text(num, sizeof num, r->caps[i].cap), r->caps[i].mutator_ns);
        family(out, "ghc_gc_seconds_total", "counter",
               "Elapsed time each capability spent in collections (its own GC_START to "
               "GC_END).");
        for (uint32_t i = 0; i < r->n_caps; i++)
            sample_secs(out, f, "ghc_gc_seconds_total", "capability",
                        cap_text(num, sizeof num, r->caps[i].cap), r->caps[i].gc_ns);
    }
    counter_u64(out, f, "ghc_threads_created_total",
                "Haskell threads created (CREATE_THREAD).", mem->threads);

    if (r && r->has_sparks) {
        static const struct {
            const char *name, *help;
            size_t off;
        } sp[] = {
            { "ghc_sparks_created_total", "Sparks added to a capability's pool (+RTS -s: "
              "SPARKS created).", offsetof(gc_sparks, created) },
            { "ghc_sparks_dud_total", "Sparks not added: already evaluated (dud).",
              offsetof(gc_sparks, dud) },
            { "ghc_sparks_overflowed_total", "Sparks not added: the pool was full "
              "(overflowed).", offsetof(gc_sparks, overflowed) },
            { "ghc_sparks_converted_total", "Sparks run as a thread (converted).",
              offsetof(gc_sparks, converted) },
            { "ghc_sparks_gcd_total", "Sparks discarded by a collection: nothing referred to "
              "them (GC'd).", offsetof(gc_sparks, gcd) },
            { "ghc_sparks_fizzled_total", "Sparks discarded: evaluated by another thread "
              "first (fizzled).", offsetof(gc_sparks, fizzled) },
        };
        for (size_t k = 0; k < sizeof sp / sizeof sp[0]; k++) {
            family(out, sp[k].name, "counter", sp[k].help);
            for (uint32_t i = 0; i < r->n_caps; i++) {
                if (!r->caps[i].has_sparks)
                    continue;
                uint64_t v;
                memcpy(&v, (const char *)&r->caps[i].sparks + sp[k].off, sizeof v);
                sample_u64(out, f, sp[k].name, "capability",
                           cap_text(num, sizeof num, r->caps[i].cap), v);
            }
        }
    }
}

static int prof_families(live_metrics *m, FILE *out, const live_frame *f)
{
    if (!f->ticks && !f->tick_interval_ns && !f->n_ccs_all)
        return 0;
    counter_u64(out, f, "ghc_profile_ticks_total",
                "Time-profile ticks (PROF_SAMPLE_COST_CENTRE), counted as +RTS -p counts "
                "them: the built-in GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE stacks left "
                "out.", f->ticks);
    if (f->tick_interval_ns) {
        family(out, "ghc_profile_tick_interval_seconds", "gauge",
               "The sampling interval of the time profile (PROF_BEGIN; +RTS -V).");
        sample_secs(out, f, "ghc_profile_tick_interval_seconds", NULL, NULL,
                    f->tick_interval_ns);
    }
    gauge_u64(out, f, "ghc_profile_cost_centres", "Cost centres with ticks so far.",
              f->n_ccs_all);

    clear_rows(m);
    for (size_t i = 0; i < f->n_ccs_all; i++) {
        const live_cc_row *c = &f->all_ccs[i];
        size_t off = text_add(m, c->module, strlen(c->module), c->label, strlen(c->label));
        size_t soff = text_add(m, c->srcloc, strlen(c->srcloc), NULL, 0);
        if (soff == SIZE_MAX || add_row(m, off, soff, c->ticks, c->inherited) != 0)
            return -1;
    }
    size_t n = pick_top(m);
    family(out, "ghc_cost_centre_ticks_total", "counter",
           "Ticks of the cost centres with the most (--metrics-top), each summed over all its "
           "stacks (+RTS -p: the summary's ticks); cost_centre is Module.label, src its "
           "source location (GHC's SRC), which tells namesakes apart.");
    for (size_t i = 0; i < n; i++)
        sample_cc(out, f, "ghc_cost_centre_ticks_total", &m->rows[i], m->rows[i].a);
    family(out, "ghc_cost_centre_inherited_ticks_total", "counter",
           "Ticks of the stacks each of those cost centres is on, once per stack (+RTS -p: "
           "inherited ticks).");
    for (size_t i = 0; i < n; i++)
        sample_cc(out, f, "ghc_cost_centre_inherited_ticks_total", &m->rows[i], m->rows[i].b);
    return 0;
}

static int heap_families(live_metrics *m, FILE *out, const live_frame *f)
{
    if (!f->has_heap_profile)
        return 0;
    gauge_u64(out, f, "ghc_heap_census_bytes",
              "Bytes in the latest complete heap census (+RTS -h).", f->census_total);
    clear_rows(m);
    for (size_t i = 0; i < f->n_bands_all; i++)
        if (add_row(m, text_add(m, f->bands[i].name, strlen(f->bands[i].name), NULL, 0),
                    SIZE_MAX, f->bands[i].bytes, 0) != 0)
            return -1;
    size_t n = pick_top(m);
    family(out, "ghc_heap_band_bytes", "gauge",
           "Bytes of the largest bands (--metrics-top) of the latest census, named as "
           "`evprof heap` names them (cost-centre stack, closure, type, ...).");
    for (size_t i = 0; i < n; i++)
        sample_u64(out, f, "ghc_heap_band_bytes", "band", m->rows[i].key, m->rows[i].a);
    return 0;
}

static int ticky_families(live_metrics *m, FILE *out, const live_frame *f)
{
    if (!f->n_ticky_all)
        return 0;
    clear_rows(m);
    for (size_t i = 0; i < f->n_ticky_all; i++)
        if (add_row(m, text_add(m, f->ticky[i].name, strlen(f->ticky[i].name), NULL, 0),
                    SIZE_MAX, f->ticky[i].entries, f->ticky[i].allocs) != 0)
            return -1;
    size_t n = pick_top(m);
    family(out, "ghc_ticky_entries_total", "counter",
           "Entries of the ticky counters with the most (--metrics-top) (+RTS -r: Entries).");
    for (size_t i = 0; i < n; i++)
        sample_u64(out, f, "ghc_ticky_entries_total", "counter", m->rows[i].key, m->rows[i].a);
    family(out, "ghc_ticky_alloc_bytes_total", "counter",
           "Bytes those ticky counters' closures allocated (+RTS -r: Alloc).");
    for (size_t i = 0; i < n; i++)
        sample_u64(out, f, "ghc_ticky_alloc_bytes_total", "counter", m->rows[i].key,
                   m->rows[i].b);
    return 0;
}

static void read_families(live_metrics *m, FILE *out, const live_frame *f)
{
    counter_u64(out, f, "evprof_log_read_bytes_total", "Bytes of the eventlog read so far.",
                f->bytes);
    counter_u64(out, f, "evprof_log_events_total",
                "Events read so far, of every type (as evprof info counts them).", f->events);
    family(out, "evprof_log_time_seconds", "gauge",
           "The newest event's time on the log's clock (seconds since the RTS started).");
    sample_secs(out, f, "evprof_log_time_seconds", NULL, NULL,
                (uint64_t)(f->log_s * 1e9 + 0.5));
    gauge_u64(out, f, "evprof_read_finished",
              "1 when the read is over (end marker, writer gone, interrupted), else 0.",
              (uint64_t)(f->finished != 0));
    if (!m->o.process)
        return;
    counter_u64(out, f, "evprof_refreshes_total", "Frames evprof has computed.", f->seq);
    family(out, "evprof_cpu_seconds_total", "counter",
           "CPU time evprof itself has used (user and system), not the program's.");
    sample_secs(out, f, "evprof_cpu_seconds_total", NULL, NULL, (uint64_t)(f->cpu_s * 1e9));
    gauge_u64(out, f, "evprof_max_resident_memory_bytes",
              "evprof's own peak resident set size (getrusage).", f->max_rss_kb * 1024);
}

int live_metrics_write(live_metrics *m, const live_frame *frame, FILE *out)
{
    int rc = 0;
    /* the labels the log has not given yet */
    live_frame copy = *frame;
    const live_frame *f = &copy;
    if (!copy.program)
        copy.program = m->program;
    if (!copy.has_pid && m->has_pid) {
        copy.has_pid = 1;
        copy.pid = m->pid;
    }
    gc_families(out, f);
    if (prof_families(m, out, f) != 0 || heap_families(m, out, f) != 0 ||
        ticky_families(m, out, f) != 0)
        rc = -1;
    read_families(m, out, f);
    return rc != 0 || ferror(out) ? -1 : 0;
}
