/* The other analyses compared: two `+RTS -s` summaries figure by figure,
 * two heap profiles band by band (peak and mean bytes), two ticky sets
 * counter by counter (entries and allocation), paired by name. */
#include "diff/internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"

static const char *name_or(const char *name, const char *dflt)
{
    return name ? name : dflt;
}

static size_t max_sz(size_t a, size_t b)
{
    return a > b ? a : b;
}

static void sources_text(const diff_report_opts *o, const char *title, FILE *out)
{
    const char *bn = name_or(o->base_name, "BASE"), *nn = name_or(o->new_name, "NEW");
    fprintf(out, "\tevprof diff: %s\n\n\tbase  ", title);
    tx_put(out, bn, strlen(bn));
    fputs("\n\tnew   ", out);
    tx_put(out, nn, strlen(nn));
    fputs("\n\n", out);
}

/* The document's start: {"kind", "base": {"source"}, "new": {"source"}, in
 * the flat object that the caller closes (json_end). */
static void sources_json(tx_json *j, const diff_report_opts *o, const char *kind, FILE *out)
{
    tx_json_init(j, out, 2, 0);
    tx_json_object(j, TX_JSON_FLAT);
    tx_json_kv_cstr(j, "kind", kind);
    for (int side = 0; side < 2; side++) {
        tx_json_key(j, side ? "new" : "base");
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_cstr(j, "source", side ? o->new_name : o->base_name);
        tx_json_end(j);
    }
}

static ev_status json_end(tx_json *j)
{
    tx_json_end(j);
    tx_json_space(j, "\n");
    return tx_json_finish(j) != 0 ? EV_ERR_WRITE : EV_OK;
}

/* a figure compared: "base", "new", "delta", "change_pct" */
static void json_compare(tx_json *j, double base, double cur)
{
    tx_json_key(j, "base");
    diff_json_num(j, base);
    tx_json_key(j, "new");
    diff_json_num(j, cur);
    tx_json_key(j, "delta");
    diff_json_num(j, cur - base);
    tx_json_key(j, "change_pct");
    diff_json_num(j, diff_pct(base, cur));
}

/* a list of rows, each on a line of its own; [ and ] too when empty */
static void json_rows(tx_json *j, const char *key, size_t n)
{
    tx_json_key(j, key);
    tx_json_array(j, TX_JSON_BLOCK);
    if (n == 0)
        tx_json_space(j, "\n");
}

/* ---- figures ---------------------------------------------------------- */

typedef enum unit { U_BYTES, U_COUNT, U_SECONDS, U_PERCENT, U_RATIO } unit;

typedef struct figure {
    const char *name;           /* for people */
    const char *key;            /* for JSON */
    unit u;
    double base, cur;
} figure;

static void fmt_value(char *buf, size_t size, unit u, double v, int sign)
{
    /* a delta that shows as zero has no sign */
    double shown = u == U_PERCENT ? round(v * 10) : u == U_BYTES || u == U_COUNT ? round(v) :
                   round(v * 1000);
    if (shown == 0.0) {
        sign = 0;
        v = 0.0;
    }
    if (u == U_SECONDS)
        snprintf(buf, size, sign ? "%+.3f" : "%.3f", v);
    else if (u == U_PERCENT)
        snprintf(buf, size, sign ? "%+.1f%%" : "%.1f%%", v);
    else if (u == U_RATIO)
        snprintf(buf, size, sign ? "%+.3f" : "%.3f", v);
    else {
        char digits[32];
        double r = round(v);
        gc_commas(digits, sizeof digits, (uint64_t)fabs(r));
        snprintf(buf, size, "%s%s", !sign || r == 0.0 ? "" : r > 0 ? "+" : "-", digits);
    }
}

static int figures_text(const figure *f, size_t n, FILE *out)
{
    size_t wn = 0, wv = 4, wd = 5;
    char b[48], c[48], dl[48];
    for (size_t i = 0; i < n; i++) {
        wn = max_sz(wn, strlen(f[i].name));
        fmt_value(b, sizeof b, f[i].u, f[i].base, 0);
        fmt_value(c, sizeof c, f[i].u, f[i].cur, 0);
        fmt_value(dl, sizeof dl, f[i].u, f[i].cur - f[i].base, 1);
        wv = max_sz(wv, max_sz(strlen(b), strlen(c)));
        wd = max_sz(wd, strlen(dl));
    }
    fprintf(out, "%-*s  %*s  %*s  %*s  %7s\n", (int)wn, "", (int)wv, "base", (int)wv, "new",
            (int)wd, "delta", "change");
    for (size_t i = 0; i < n; i++) {
        char pct[32];
        fmt_value(b, sizeof b, f[i].u, f[i].base, 0);
        fmt_value(c, sizeof c, f[i].u, f[i].cur, 0);
        fmt_value(dl, sizeof dl, f[i].u, f[i].cur - f[i].base, 1);
        if (f[i].u == U_PERCENT)
            snprintf(pct, sizeof pct, "%s", "");
        else
            diff_fmt_pct(pct, sizeof pct, f[i].base, f[i].cur);
        fprintf(out, "%-*s  %*s  %*s  %*s", (int)wn, f[i].name, (int)wv, b, (int)wv, c, (int)wd,
                dl);
        fprintf(out, pct[0] ? "  %7s\n" : "\n", pct);
    }
    return ferror(out) ? -1 : 0;
}

static void figures_json(tx_json *j, const figure *f, size_t n)
{
    json_rows(j, "figures", n);
    for (size_t i = 0; i < n; i++) {
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_cstr(j, "name", f[i].key);
        json_compare(j, f[i].base, f[i].cur);
        tx_json_end(j);
    }
    tx_json_end(j);
}

/* "totals": {key: {"base", "new"}, ...} */
static void totals_json(tx_json *j, const figure *f, size_t n)
{
    tx_json_key(j, "totals");
    tx_json_object(j, TX_JSON_INLINE);
    for (size_t i = 0; i < n; i++) {
        tx_json_key(j, f[i].key);
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_key(j, "base");
        diff_json_num(j, f[i].base);
        tx_json_key(j, "new");
        diff_json_num(j, f[i].cur);
        tx_json_end(j);
    }
    tx_json_end(j);
}

/* ---- GC ----------------------------------------------------------------- */

#define GC_FIXED 20

/* The figures of two summaries; *n rows in a malloc'd array. */
static figure *gc_figures(const gc_result *a, const gc_result *b, size_t *n)
{
    uint32_t gens = a->generations > b->generations ? a->generations : b->generations;
    figure *f = calloc(GC_FIXED + 2 * (size_t)gens, sizeof *f);
    size_t k = 0;
    if (!f)
        return NULL;
#define FIG(nm, key, unit, expr) \
    f[k++] = (figure){ nm, key, unit, (double)(a->expr), (double)(b->expr) }
    FIG("bytes allocated in the heap", "allocated_bytes", U_BYTES, allocated_bytes);
    FIG("bytes copied during GC", "copied_bytes", U_BYTES, copied_bytes);
    FIG("maximum residency (bytes)", "max_live_bytes", U_BYTES, max_live_bytes);
    FIG("maximum slop (bytes)", "max_slop_bytes", U_BYTES, max_slop_bytes);
    FIG("total memory in use (bytes)", "max_mem_in_use_bytes", U_BYTES, max_mem_in_use_bytes);
    FIG("collections", "collections", U_COUNT, collections);
    FIG("major collections (residency samples)", "major_gcs", U_COUNT, major_gcs);
    FIG("GC time (s elapsed)", "gc_s", U_SECONDS, gc_ns / 1e9);
    FIG("MUT time (s elapsed)", "mutator_s", U_SECONDS, mutator_ns / 1e9);
    FIG("Total time (s elapsed)", "total_s", U_SECONDS, total_ns / 1e9);
    FIG("productivity (% of elapsed)", "productivity_pct", U_PERCENT, productivity * 100.0);
    FIG("allocation rate (bytes per MUT second)", "alloc_rate", U_BYTES, alloc_rate);
    FIG("parallel GC work balance", "work_balance", U_RATIO, work_balance);
    FIG("sparks created", "sparks_created", U_COUNT, sparks.created);
    FIG("sparks converted", "sparks_converted", U_COUNT, sparks.converted);
    FIG("sparks fizzled", "sparks_fizzled", U_COUNT, sparks.fizzled);
    /* the non-moving collector's (lower bounds: `evprof gc`) and GHC's
     * TASKS, when either summary has them */
    if (a->nonmoving || b->nonmoving) {
        FIG("non-moving syncs (s elapsed)", "nonmoving_sync_s", U_SECONDS,
            nonmoving_sync_ns / 1e9);
        FIG("concurrent collections (s elapsed, at least)", "nonmoving_concurrent_s",
            U_SECONDS, nonmoving_elapsed_ns / 1e9);
    }
    if ((a->threaded && a->has_tasks) || (b->threaded && b->has_tasks)) {
        FIG("worker tasks", "worker_count", U_COUNT, workers);
        FIG("peak worker tasks", "peak_worker_count", U_COUNT, peak_workers);
    }
#undef FIG
    static const char *const coll[] = { "Gen 0 collections", "Gen 1 collections",
                                        "Gen 2 collections", "Gen 3 collections" };
    static const char *const coll_key[] = { "gen0_collections", "gen1_collections",
                                            "gen2_collections", "gen3_collections" };
    static const char *const pause[] = { "Gen 0 pauses (s elapsed)", "Gen 1 pauses (s elapsed)",
                                         "Gen 2 pauses (s elapsed)", "Gen 3 pauses (s elapsed)" };
    static const char *const pause_key[] = { "gen0_pause_s", "gen1_pause_s", "gen2_pause_s",
                                             "gen3_pause_s" };
    for (uint32_t g = 0; g < gens && g < 4; g++) {
        const gc_gen *x = g < a->generations ? &a->gens[g] : NULL;
        const gc_gen *y = g < b->generations ? &b->gens[g] : NULL;
        f[k++] = (figure){ coll[g], coll_key[g], U_COUNT, x ? x->collections : 0,
                           y ? y->collections : 0 };
        f[k++] = (figure){ pause[g], pause_key[g], U_SECONDS, x ? x->elapsed_ns / 1e9 : 0,
                           y ? y->elapsed_ns / 1e9 : 0 };
    }
    *n = k;
    return f;
}

ev_status diff_gc_text(const gc_result *base, const gc_result *cur, const diff_report_opts *o,
                         FILE *out)
{
    diff_report_opts defaults;
    if (!o) {
        diff_report_opts_init(&defaults);
        o = &defaults;
    }
    size_t n;
    figure *f = gc_figures(base, cur, &n);
    if (!f)
        return EV_ERR_NOMEM;
    sources_text(o, "+RTS -s summaries", out);
    figures_text(f, n, out);
    free(f);
    /* as `evprof gc` says ">= N": where a log cannot give GHC's figure */
    if (base->mem_in_use_lower_bound || cur->mem_in_use_lower_bound)
        fprintf(out, "\ntotal memory in use: %s a lower bound (the log has no MEM_RETURN "
                "events, GHC before 9.2; see 'evprof gc')\n",
                base->mem_in_use_lower_bound && cur->mem_in_use_lower_bound ? "both are"
                : base->mem_in_use_lower_bound ? "BASE's is" : "NEW's is");
    return ferror(out) ? EV_ERR_WRITE : EV_OK;
}

ev_status diff_gc_json(const gc_result *base, const gc_result *cur, const diff_report_opts *o,
                         FILE *out)
{
    diff_report_opts defaults;
    if (!o) {
        diff_report_opts_init(&defaults);
        o = &defaults;
    }
    size_t n;
    figure *f = gc_figures(base, cur, &n);
    if (!f)
        return EV_ERR_NOMEM;
    tx_json j;
    sources_json(&j, o, "gc", out);
    figures_json(&j, f, n);
    free(f);
    tx_json_key(&j, "max_mem_in_use_lower_bound");
    tx_json_object(&j, TX_JSON_INLINE);
    tx_json_kv_bool(&j, "base", base->mem_in_use_lower_bound);
    tx_json_kv_bool(&j, "new", cur->mem_in_use_lower_bound);
    tx_json_end(&j);
    return json_end(&j);
}

/* ---- named rows: heap bands, ticky counters --------------------------------- */

typedef struct named {
    const char *name;
    size_t len;
    int side;                   /* 0 BASE, 1 NEW */
    double v[2];                /* the two metrics */
} named;

typedef struct pair {
    const char *name;
    size_t len;
    int in_base, in_new;
    double base[2], cur[2];
} pair;

static int cmp_named(const void *p, const void *q)
{
    const named *x = p, *y = q;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, n);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->side - y->side;
}

static int cmp_pairs(const void *p, const void *q)
{
    const pair *x = p, *y = q;
    double dx = fabs(x->cur[0] - x->base[0]), dy = fabs(y->cur[0] - y->base[0]);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (x->cur[0] != y->cur[0])
        return x->cur[0] > y->cur[0] ? -1 : 1;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, n);
    return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

/* Pairs the items (sorted in place) by name, same names of one side summed;
 * ordered by the absolute delta of the first metric. */
static pair *pair_up(named *items, size_t n, size_t *np)
{
    pair *p = calloc(n ? n : 1, sizeof *p);
    size_t m = 0;
    if (!p)
        return NULL;
    qsort(items, n, sizeof *items, cmp_named);
    for (size_t i = 0; i < n; i++) {
        const named *it = &items[i];
        if (!m || p[m - 1].len != it->len || memcmp(p[m - 1].name, it->name, it->len) != 0) {
            p[m].name = it->name;
            p[m].len = it->len;
            m++;
        }
        pair *q = &p[m - 1];
        for (int k = 0; k < 2; k++)
            (it->side ? q->cur : q->base)[k] += it->v[k];
        if (it->side)
            q->in_new = 1;
        else
            q->in_base = 1;
    }
    qsort(p, m, sizeof *p, cmp_pairs);
    *np = m;
    return p;
}

typedef struct pairs_layout {
    const char *what;           /* "BAND", "COUNTER" */
    const char *metric[2];      /* "peak", "mean" */
    const char *key[2];         /* JSON */
} pairs_layout;

static void put_name(FILE *out, const char *s, size_t len, size_t width)
{
    tx_put(out, s, len);
    for (size_t w = tx_vis_width(s, len); w < width; w++)
        putc(' ', out);
}

static void pairs_text(const pairs_layout *l, const pair *p, size_t n, FILE *out)
{
    size_t wn = strlen(l->what), wv[2] = { 4, 4 };
    char b[48], c[48], d[48], pct[32];
    for (size_t i = 0; i < n; i++) {
        wn = max_sz(wn, tx_vis_width(p[i].name, p[i].len));
        for (int k = 0; k < 2; k++) {
            fmt_value(b, sizeof b, U_BYTES, p[i].base[k], 0);
            fmt_value(c, sizeof c, U_BYTES, p[i].cur[k], 0);
            fmt_value(d, sizeof d, U_BYTES, p[i].cur[k] - p[i].base[k], 1);
            wv[k] = max_sz(wv[k], max_sz(strlen(b), max_sz(strlen(c), strlen(d))));
        }
    }
    for (int k = 0; k < 2; k++) {
        char h[64];
        snprintf(h, sizeof h, "%s base", l->metric[k]);
        wv[k] = max_sz(wv[k], strlen(h));
    }
    fprintf(out, "%-*s", (int)wn, l->what);
    for (int k = 0; k < 2; k++) {
        char h[3][64];
        snprintf(h[0], sizeof h[0], "%s base", l->metric[k]);
        snprintf(h[1], sizeof h[1], "%s new", l->metric[k]);
        snprintf(h[2], sizeof h[2], "delta");
        fprintf(out, "  %*s %*s %*s %7s", (int)wv[k], h[0], (int)wv[k], h[1], (int)wv[k], h[2],
                "change");
    }
    fputs("\n\n", out);
    for (size_t i = 0; i < n; i++) {
        put_name(out, p[i].name, p[i].len, wn);
        for (int k = 0; k < 2; k++) {
            fmt_value(b, sizeof b, U_BYTES, p[i].base[k], 0);
            fmt_value(c, sizeof c, U_BYTES, p[i].cur[k], 0);
            fmt_value(d, sizeof d, U_BYTES, p[i].cur[k] - p[i].base[k], 1);
            if (!p[i].in_base)
                snprintf(pct, sizeof pct, "added");
            else if (!p[i].in_new)
                snprintf(pct, sizeof pct, "removed");
            else
                diff_fmt_pct(pct, sizeof pct, p[i].base[k], p[i].cur[k]);
            fprintf(out, "  %*s %*s %*s %7s", (int)wv[k], b, (int)wv[k], c, (int)wv[k], d, pct);
        }
        putc('\n', out);
    }
}

static void pairs_json(tx_json *j, const pairs_layout *l, const char *list, const pair *p,
                       size_t n)
{
    json_rows(j, list, n);
    for (size_t i = 0; i < n; i++) {
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_string(j, "name", p[i].name, p[i].len);
        tx_json_kv_cstr(j, "change", !p[i].in_base ? "added" : !p[i].in_new ? "removed" : "same");
        for (int k = 0; k < 2; k++) {
            tx_json_key(j, l->key[k]);
            tx_json_object(j, TX_JSON_INLINE);
            json_compare(j, p[i].base[k], p[i].cur[k]);
            tx_json_end(j);
        }
        tx_json_end(j);
    }
    tx_json_end(j);
}

/* ---- heap ----------------------------------------------------------------- */

static const pairs_layout heap_layout = { "BAND", { "peak", "mean" }, { "peak_bytes", "mean_bytes" } };

static pair *heap_pairs(const heap_profile *a, const heap_profile *b, size_t *np)
{
    size_t na = heap_num_bands(a), nb = heap_num_bands(b), n = 0;
    named *it = malloc((na + nb ? na + nb : 1) * sizeof *it);
    if (!it)
        return NULL;
    for (int side = 0; side < 2; side++) {
        const heap_profile *h = side ? b : a;
        uint64_t censuses = heap_get_info(h)->censuses;
        for (size_t i = 0; i < heap_num_bands(h); i++) {
            const heap_band *bd = heap_band_at(h, (uint32_t)i);
            if (!bd->present)
                continue;
            it[n++] = (named){ bd->name, bd->len, side,
                               { (double)bd->peak,
                                 censuses ? (double)bd->sum / (double)censuses : 0.0 } };
        }
    }
    pair *p = pair_up(it, n, np);
    free(it);
    return p;
}

static void heap_totals(const heap_profile *a, const heap_profile *b, figure *f)
{
    const heap_info *x = heap_get_info(a), *y = heap_get_info(b);
    f[0] = (figure){ "censuses", "censuses", U_COUNT, (double)x->censuses, (double)y->censuses };
    f[1] = (figure){ "peak heap (bytes, all bands)", "peak_total_bytes", U_BYTES,
                     (double)x->peak_total, (double)y->peak_total };
}

/* A comparison of named rows (heap bands, ticky counters) under two
 * totals, as text or JSON: the one writer of diff --heap and --ticky. */
typedef struct comparison {
    const char *title;          /* text: "heap profiles (bytes per band)" */
    const char *kind;           /* JSON "kind" */
    const char *list;           /* JSON key of the rows */
    const pairs_layout *layout;
    figure totals[2];
    pair *rows;
    size_t n;
    const ticky_set *ticky[2];  /* ticky: BASE's and NEW's sets (what they cover) */
} comparison;

/* diff --ticky: where a log's counts stop short of its run (ticky.h). */
static void coverage_text(const comparison *c, FILE *out)
{
    int said = 0;
    for (int side = 0; side < 2 && c->ticky[0]; side++) {
        ticky_coverage cov;
        ticky_coverage_of(c->ticky[side], &cov);
        if (!cov.known || !cov.short_of_run)
            continue;
        fprintf(out, "\tnote: %s's ticky counts stop at %.6f s, GHC's last sample, %.3f ms "
                "(%.1f%% of its run) before %s: that part is not counted (see evprof ticky)\n",
                side ? "new" : "base", (double)cov.counted_until_ns / 1e9,
                (double)cov.after_ns / 1e6, cov.after_pct,
                cov.end_from_threads ? "its threads ended" : "its log ends");
        said = 1;
    }
    if (said)
        fputs("\n", out);
}

static ev_status write_comparison(const comparison *c, const diff_report_opts *o, int json,
                                    FILE *out)
{
    diff_report_opts defaults;
    if (!o) {
        diff_report_opts_init(&defaults);
        o = &defaults;
    }
    if (json) {
        tx_json j;
        sources_json(&j, o, c->kind, out);
        if (c->ticky[0]) {
            tx_json_key(&j, "coverage");
            tx_json_object(&j, TX_JSON_INLINE);
            for (int side = 0; side < 2; side++) {
                ticky_coverage cov;
                ticky_coverage_of(c->ticky[side], &cov);
                ticky_coverage_json(&j, side ? "new" : "base", &cov);
            }
            tx_json_end(&j);
        }
        totals_json(&j, c->totals, 2);
        pairs_json(&j, c->layout, c->list, c->rows, c->n);
        return json_end(&j);
    }
    sources_text(o, c->title, out);
    coverage_text(c, out);
    figures_text(c->totals, 2, out);
    fputs("\n", out);
    pairs_text(c->layout, c->rows, c->n, out);
    return ferror(out) ? EV_ERR_WRITE : EV_OK;
}

static ev_status heap_compare(const heap_profile *base, const heap_profile *cur,
                                const diff_report_opts *o, int json, FILE *out)
{
    comparison c = { .title = "heap profiles (bytes per band)", .kind = "heap", .list = "bands",
                     .layout = &heap_layout };
    if (!(c.rows = heap_pairs(base, cur, &c.n)))
        return EV_ERR_NOMEM;
    heap_totals(base, cur, c.totals);
    ev_status st = write_comparison(&c, o, json, out);
    free(c.rows);
    return st;
}

ev_status diff_heap_text(const heap_profile *base, const heap_profile *cur,
                           const diff_report_opts *o, FILE *out)
{
    return heap_compare(base, cur, o, 0, out);
}

ev_status diff_heap_json(const heap_profile *base, const heap_profile *cur,
                           const diff_report_opts *o, FILE *out)
{
    return heap_compare(base, cur, o, 1, out);
}

/* ---- ticky ---------------------------------------------------------------- */

static const pairs_layout ticky_layout = { "COUNTER", { "entries", "alloc" },
                                           { "entries", "alloc_bytes" } };

static pair *ticky_pairs(const ticky_set *a, const ticky_set *b, size_t *np)
{
    size_t na = ticky_num_counters(a), nb = ticky_num_counters(b), n = 0;
    named *it = malloc((na + nb ? na + nb : 1) * sizeof *it);
    if (!it)
        return NULL;
    for (int side = 0; side < 2; side++) {
        const ticky_set *t = side ? b : a;
        for (size_t i = 0; i < ticky_num_counters(t); i++) {
            const ticky_counter *c = ticky_counter_at(t, i);
            it[n++] = (named){ c->name, c->name_len, side,
                               { (double)c->entries, (double)c->alloc } };
        }
    }
    pair *p = pair_up(it, n, np);
    free(it);
    return p;
}

static void ticky_sums(const pair *p, size_t n, figure *f)
{
    f[0] = (figure){ "entries (all counters)", "entries", U_COUNT, 0, 0 };
    f[1] = (figure){ "allocation (bytes, all counters)", "alloc_bytes", U_BYTES, 0, 0 };
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            f[k].base += p[i].base[k];
            f[k].cur += p[i].cur[k];
        }
}

static ev_status ticky_compare(const ticky_set *base, const ticky_set *cur,
                                 const diff_report_opts *o, int json, FILE *out)
{
    comparison c = { .title = "ticky counters", .kind = "ticky", .list = "counters",
                     .layout = &ticky_layout, .ticky = { base, cur } };
    if (!(c.rows = ticky_pairs(base, cur, &c.n)))
        return EV_ERR_NOMEM;
    ticky_sums(c.rows, c.n, c.totals);
    ev_status st = write_comparison(&c, o, json, out);
    free(c.rows);
    return st;
}

ev_status diff_ticky_text(const ticky_set *base, const ticky_set *cur,
                            const diff_report_opts *o, FILE *out)
{
    return ticky_compare(base, cur, o, 0, out);
}

ev_status diff_ticky_json(const ticky_set *base, const ticky_set *cur,
                            const diff_report_opts *o, FILE *out)
{
    return ticky_compare(base, cur, o, 1, out);
}
