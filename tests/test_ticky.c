/* Ticky counters from eventlogs (ticky/counters.c, ticky/report.c):
 *
 * - the four ticky logs of the corpus: every counter's totals equal the
 *   sums of its samples, computed here twice without evprof's aggregation
 *   (from the decoded events, and from the ghc-events dump), and names are
 *   resolved although the definitions come after the samples;
 * - synthetic logs from the writer whose answer is known by construction:
 *   hundreds of counters, many batches, definitions before, between and
 *   after the samples in all three layouts, undefined counters, no
 *   BEGIN_SAMPLE at all; the table, the window, the view and the series;
 * - damaged logs: a short sample, a definition with a broken string. */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/ticky.h"
#include "evprof/writer.h"

#define TICKY_CORPUS CORPUS_DIR "/ghc-events"

/* ---- helpers ------------------------------------------------------------ */

/* The selection of the reads (the driver's stage would hand it over in
 * the stream). */
static const ev_select *cur_sel;

static int feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    ev_stream st;
    memset(&st, 0, sizeof st);
    st.decoder = d;
    st.select = cur_sel;
    return ticky_analysis_ops.event(ctx, ev, &st);
}

static ticky_set *build_mem(const uint8_t *buf, size_t len, uint64_t from, uint64_t to,
                            el_read_result *res)
{
    ticky_set *t = ticky_create();
    assert_non_null(t);
    ev_span w = { from, to };
    /* the whole run: no selection (the series pass after it has none) */
    ev_select *sel = from == 0 && to == UINT64_MAX ? NULL : ev_select_create(&w, 1, -1);
    cur_sel = sel;
    el_read_result r = el_read_mem(buf, len, feed, t, NULL);
    cur_sel = NULL;
    ev_select_destroy(sel);
    if (res)
        *res = r;
    assert_int_equal(ticky_finish(t), 0);
    return t;
}

/* Rows handed out by the series pass, flattened. */
typedef struct got_row {
    uint64_t time, id, e, a, d;
} got_row;

typedef struct got {
    got_row *r;
    size_t n, cap;
    size_t batches;
    const ticky_view *v;
    const ticky_set *t;
} got;

static int collect(void *ctx, uint64_t time, const ticky_row *rows, size_t n)
{
    got *g = ctx;
    assert_true(n > 0);
    g->batches++;
    for (size_t i = 0; i < n; i++) {
        if (g->n == g->cap) {
            g->cap = g->cap ? 2 * g->cap : 1024;
            g->r = realloc(g->r, g->cap * sizeof *g->r);
            assert_non_null(g->r);
        }
        got_row *r = &g->r[g->n++];
        r->time = time;
        r->id = rows[i].c->id;
        r->e = rows[i].entries;
        r->a = rows[i].alloc;
        r->d = rows[i].allocd;
    }
    /* rows come in the view's order */
    for (size_t i = 1; i < n; i++) {
        size_t ra = SIZE_MAX, rb = SIZE_MAX;
        for (size_t k = 0; k < g->v->shown; k++) {
            const ticky_counter *c = ticky_counter_at(g->t, g->v->order[k]);
            if (c == rows[i - 1].c)
                ra = k;
            if (c == rows[i].c)
                rb = k;
        }
        assert_true(ra < rb && rb != SIZE_MAX);
    }
    return 0;
}

static int series_feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)d;
    return ticky_series_add_event(ctx, ev) != 0;
}

/* The second pass over the same bytes; rows collected. */
static got run_series(ticky_set *t, const ticky_view *v, const uint8_t *buf, size_t len,
                      int cumulative)
{
    got g;
    memset(&g, 0, sizeof g);
    g.v = v;
    g.t = t;
    assert_int_equal(ticky_series_begin(t, v, cumulative, collect, &g), 0);
    el_read_mem(buf, len, series_feed, t, NULL);
    assert_int_equal(ticky_series_end(t), 0);
    return g;
}

static int str_eq(const char *a, size_t an, const char *b)
{
    return an == strlen(b) && memcmp(a, b, an) == 0;
}

/* ---- the corpus ------------------------------------------------------- */

#define MAXC 64

typedef struct indep {
    uint64_t id;
    uint64_t e, a, d, n;
    char name[256];
    int defined, sampled_before_def;
} indep;

typedef struct indep_set {
    indep c[MAXC];
    size_t n;
    uint64_t samples, begins;
} indep_set;

static indep *indep_get(indep_set *s, uint64_t id)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->c[i].id == id)
            return &s->c[i];
    assert_true(s->n < MAXC);
    indep *c = &s->c[s->n++];
    memset(c, 0, sizeof *c);
    c->id = id;
    return c;
}

/* Sums from the decoded events, with no help from ticky/. */
static int indep_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    indep_set *s = ctx;
    (void)d;
    if (ev->type == EL_TICKY_COUNTER_SAMPLE) {
        assert_true(ev->decoded);
        indep *c = indep_get(s, ev->u.ticky_sample.id);
        c->e += ev->u.ticky_sample.entries;
        c->a += ev->u.ticky_sample.allocs;
        c->d += ev->u.ticky_sample.allocd;
        c->n++;
        s->samples++;
    } else if (ev->type == EL_TICKY_COUNTER_DEF) {
        assert_true(ev->decoded);
        indep *c = indep_get(s, ev->u.ticky_def.id);
        c->sampled_before_def = c->n > 0;
        c->defined = 1;
        el_str nm = ev->u.ticky_def.name;
        assert_true(nm.len < sizeof c->name);
        memcpy(c->name, nm.ptr, nm.len);
        c->name[nm.len] = '\0';
    } else if (ev->type == EL_TICKY_BEGIN_SAMPLE) {
        s->begins++;
    }
    return 0;
}

/* Sums from the ghc-events dump (the .reference file): a third reading. */
static void indep_reference(const char *path, indep_set *s)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        unsigned long long t, id, e, a, d;
        if (sscanf(line, "%llu: ticky counter sample %llu: entry count: %llu, %llu allocs, "
                   "%llu allocd", &t, &id, &e, &a, &d) == 5) {
            indep *c = indep_get(s, id);
            c->e += e;
            c->a += a;
            c->d += d;
            c->n++;
            s->samples++;
        } else if (sscanf(line, "%llu: ticky counter definition %llu,", &t, &id) == 2) {
            indep *c = indep_get(s, id);
            char *nm = strstr(line, ", name: ");
            char *it = strstr(line, ", itbl: ");
            assert_non_null(nm);
            assert_non_null(it);
            nm += strlen(", name: ");
            assert_true(it > nm && (size_t)(it - nm) < sizeof c->name);
            memcpy(c->name, nm, (size_t)(it - nm));
            c->name[it - nm] = '\0';
            c->defined = 1;
        } else if (strstr(line, ": ticky begin counter sample")) {
            s->begins++;
        }
    }
    fclose(f);
}

static void check_corpus_log(const char *name, uint64_t want_counters, uint64_t want_batches)
{
    char path[512], ref[600];
    snprintf(path, sizeof path, "%s/%s.eventlog", TICKY_CORPUS, name);
    snprintf(ref, sizeof ref, "%s.reference", path);

    indep_set *ev = calloc(1, sizeof *ev), *rf = calloc(1, sizeof *rf);
    assert_non_null(ev);
    assert_non_null(rf);
    el_read_result r = el_read_path(path, indep_event, ev, NULL);
    assert_int_equal(r.status, EV_END);
    indep_reference(ref, rf);

    /* the two independent readings agree */
    assert_int_equal(ev->n, rf->n);
    assert_int_equal(ev->samples, rf->samples);
    assert_int_equal(ev->begins, rf->begins);
    for (size_t i = 0; i < ev->n; i++) {
        indep *a = &ev->c[i], *b = indep_get(rf, a->id);
        assert_int_equal(a->e, b->e);
        assert_int_equal(a->a, b->a);
        assert_int_equal(a->d, b->d);
        assert_int_equal(a->n, b->n);
        assert_string_equal(a->name, b->name);
    }

    /* evprof's totals */
    ticky_set *t = ticky_create();
    assert_non_null(t);
    r = el_read_path(path, feed, t, NULL);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(ticky_finish(t), 0);
    const ticky_info *in = ticky_get_info(t);
    assert_int_equal(in->source, TICKY_FROM_EVENTLOG);
    assert_int_equal(ticky_num_counters(t), ev->n);
    assert_int_equal(in->counters, want_counters);
    assert_int_equal(in->undefined, 0);
    assert_int_equal(in->samples, ev->samples);
    assert_int_equal(in->begin_events, ev->begins);
    assert_int_equal(in->batches, want_batches);
    uint64_t late = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const indep *a = &ev->c[i];
        const ticky_counter *c = ticky_find(t, a->id);
        assert_non_null(c);
        assert_int_equal(c->entries, a->e);
        assert_int_equal(c->alloc, a->a);
        assert_int_equal(c->allocd, a->d);
        assert_int_equal(c->samples, a->n);
        assert_true(c->defined);
        assert_true(str_eq(c->name, c->name_len, a->name));
        late += a->sampled_before_def;
    }
    /* every sampled counter of these logs is defined after its samples */
    assert_int_equal(in->defs_after_samples, late);
    for (size_t i = 0; i < ev->n; i++)
        assert_int_equal(ev->c[i].sampled_before_def, ev->c[i].n > 0);
    ticky_destroy(t);
    free(ev);
    free(rf);
}

static void test_corpus_ticky_ticky(void **state)
{
    (void)state;
    check_corpus_log("ticky-ticky", 3, 1);    /* no 212: one implicit batch */
}

static void test_corpus_ticky_new(void **state)
{
    (void)state;
    check_corpus_log("ticky-new", 2, 4);
}

static void test_corpus_ticky_json(void **state)
{
    (void)state;
    check_corpus_log("ticky-json", 3, 0);     /* definitions only */
}

static void test_corpus_ticky_begin_sample(void **state)
{
    (void)state;
    check_corpus_log("ticky-begin-sample", 1, 1);
}

/* The layouts' extra fields, as ghc-events shows them. */
static void test_corpus_layouts(void **state)
{
    (void)state;
    ticky_set *t = ticky_create();
    el_read_path(TICKY_CORPUS "/ticky-new.eventlog", feed, t, NULL);
    assert_int_equal(ticky_finish(t), 0);
    const ticky_counter *c = ticky_find(t, 8790096);   /* fib1, JSON in the kinds */
    assert_non_null(c);
    assert_int_equal(c->arity, 1);
    assert_true(c->has_info_tbl);
    assert_int_equal(c->info_tbl, 0x4067a0);
    assert_false(c->has_json);
    assert_true(str_eq(c->args, c->args_len, "."));
    assert_non_null(c->json);
    assert_true(str_eq(c->json, c->json_len,
                       "{\"type\":\"entCntr\",\"subTy\":\"fun\",\"fvs_c\":3,\"fvs\":\"+++\","
                       "\"args\":\".\"}"));
    c = ticky_find(t, 8790024);
    assert_true(str_eq(c->args, c->args_len, "+++."));
    assert_true(str_eq(c->name, c->name_len, "Main.fib{v r1} (fun)"));
    ticky_destroy(t);

    t = ticky_create();
    el_read_path(TICKY_CORPUS "/ticky-json.eventlog", feed, t, NULL);
    assert_int_equal(ticky_finish(t), 0);
    c = ticky_find(t, 11048952);
    assert_non_null(c);
    assert_true(c->has_json && c->has_info_tbl);
    assert_int_equal(c->info_tbl, 0x4050e0);
    assert_int_equal(c->kinds_len, 0);
    assert_true(str_eq(c->json, c->json_len,
                       "{\"type\":\"entCntr\",\"subTy\":\"fun\",\"fvs_c\":0,\"fvs\":\"\","
                       "\"args\":\"\"}"));
    assert_int_equal(c->entries + c->alloc + c->allocd + c->samples, 0);
    ticky_destroy(t);

    t = ticky_create();
    el_read_path(TICKY_CORPUS "/ticky-begin-sample.eventlog", feed, t, NULL);
    assert_int_equal(ticky_finish(t), 0);
    c = ticky_find(t, 4399605088ull);
    assert_false(c->has_info_tbl);
    assert_null(c->json);
    assert_true(str_eq(c->args, c->args_len, "M"));
    assert_true(str_eq(c->kinds, c->kinds_len, "M"));
    ticky_destroy(t);
}

/* ---- a big synthetic log ------------------------------------------------ */

#define NC 400          /* counters */
#define NB 150          /* batches */
#define MID 75          /* some definitions come after this batch */
#define T0 1000000ull
#define DT 100000000ull /* 0.1 s between batches, as -i0.1 */

typedef struct synth {
    uint8_t *buf;
    size_t len;
    uint64_t id[NC];
    char name[NC][64];
    int when[NC];       /* 0 before the samples, 1 after batch MID, 2 at the end, -1 never */
    int layout[NC];
    int json_kinds[NC]; /* INFO_TBL layout with JSON in the kinds string */
    uint16_t arity[NC];
    /* sample (b, i): present, values */
    uint8_t has[NB][NC];
    uint64_t e[NB][NC], a[NB][NC], d[NB][NC];
    int sampled_before_def[NC];
} synth;

static const char *odd_names[] = {
    "we,ird \"quoted\" name", "line\nbreak", "\xce\xbb\xe2\x86\x92 unicode",
    "bad \xff utf8", "tab\there", "semi;colon",
};

static void synth_def(el_writer *w, synth *s, int i, uint64_t time)
{
    char kinds[64], json[128];
    snprintf(kinds, sizeof kinds, "i%.*s", i % 5, "LMpdf");
    const char *k = kinds, *js = NULL;
    if (s->layout[i] == EL_TICKY_DEF_JSON) {
        snprintf(json, sizeof json, "{\"type\":\"entCntr\",\"args\":\"%s\",\"n\":%d}", kinds, i);
        k = "";
        js = json;
    } else if (s->json_kinds[i]) {
        snprintf(json, sizeof json, "{\"type\":\"entCntr\",\"subTy\":\"fun\",\"args\":\"%s\"}",
                 kinds);
        k = json;
    }
    assert_int_equal(el_writer_ticky_def(w, time, (el_ticky_def_layout)s->layout[i], s->id[i],
                                         s->arity[i], k, s->name[i], 0x400000 + 16u * i, js),
                     EV_OK);
}

static synth *synth_build(int with_begin)
{
    synth *s = calloc(1, sizeof *s);
    assert_non_null(s);
    for (int i = 0; i < NC; i++) {
        s->id[i] = 0x7f0000100000ull + 48u * (uint64_t)i;
        if (i < (int)(sizeof odd_names / sizeof odd_names[0]))
            snprintf(s->name[i], sizeof s->name[i], "%s", odd_names[i]);
        else
            snprintf(s->name[i], sizeof s->name[i], "Main.f%d{v r%x} (fun)", i, i);
        s->when[i] = i % 12 == 3 ? -1 : i % 3;
        s->layout[i] = i % 3 == 0 ? EL_TICKY_DEF_BASIC
                     : i % 3 == 1 ? EL_TICKY_DEF_INFO_TBL : EL_TICKY_DEF_JSON;
        s->json_kinds[i] = s->layout[i] == EL_TICKY_DEF_INFO_TBL && i % 2;
        s->arity[i] = (uint16_t)(i % 5);
    }
    uint64_t seed = 12345;
    for (int b = 0; b < NB; b++)
        for (int i = 0; i < NC; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t r = seed >> 33;
            if (r % 7 == 0)
                continue;   /* GHC skips counters that did not change */
            s->has[b][i] = 1;
            s->e[b][i] = r % 100000;
            s->a[b][i] = (r >> 3) % 3 == 0 ? 0 : (r % 1000003) * 8;
            s->d[b][i] = i % 4 == 0 ? r % 977 : 0;
        }

    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    int sampled[NC] = { 0 };
    for (int i = 0; i < NC; i++)
        if (s->when[i] == 0)
            synth_def(w, s, i, 500);
    for (int b = 0; b < NB; b++) {
        uint64_t t = T0 + DT * (uint64_t)b;
        int block = b % 2 == 0;     /* half the batches inside a block */
        if (block)
            assert_int_equal(el_writer_begin_block(w, EL_NO_CAP, t), EV_OK);
        if (with_begin)
            assert_int_equal(el_writer_ticky_begin(w, t), EV_OK);
        uint64_t tt = t + (with_begin ? 100 : 0);
        for (int i = 0; i < NC; i++) {
            if (!s->has[b][i])
                continue;
            assert_int_equal(el_writer_ticky_sample(w, tt, s->id[i], s->e[b][i], s->a[b][i],
                                                    s->d[b][i]), EV_OK);
            tt += 150;
            sampled[i] = 1;
        }
        if (block)
            assert_int_equal(el_writer_end_block(w, tt), EV_OK);
        if (b == MID)
            for (int i = 0; i < NC; i++)
                if (s->when[i] == 1) {
                    s->sampled_before_def[i] = sampled[i];
                    synth_def(w, s, i, tt + 1000);
                }
    }
    for (int i = 0; i < NC; i++)
        if (s->when[i] == 2) {
            s->sampled_before_def[i] = sampled[i];
            synth_def(w, s, i, T0 + DT * NB);
        }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    s->buf = malloc(len);
    assert_non_null(s->buf);
    memcpy(s->buf, bytes, len);
    s->len = len;
    el_writer_destroy(w);
    return s;
}

static void synth_free(synth *s)
{
    free(s->buf);
    free(s);
}

static void want_total(const synth *s, int i, int b0, int b1, uint64_t out[4])
{
    memset(out, 0, 4 * sizeof out[0]);
    for (int b = b0; b < b1; b++)
        if (s->has[b][i]) {
            out[0] += s->e[b][i];
            out[1] += s->a[b][i];
            out[2] += s->d[b][i];
            out[3]++;
        }
}

static void check_synth_table(const synth *s, const ticky_set *t, int b0, int b1)
{
    assert_int_equal(ticky_num_counters(t), NC);
    uint64_t undefined = 0, late = 0;
    for (int i = 0; i < NC; i++) {
        const ticky_counter *c = ticky_find(t, s->id[i]);
        assert_non_null(c);
        uint64_t w[4];
        want_total(s, i, b0, b1, w);
        assert_int_equal(c->entries, w[0]);
        assert_int_equal(c->alloc, w[1]);
        assert_int_equal(c->allocd, w[2]);
        assert_int_equal(c->samples, w[3]);
        if (s->when[i] < 0) {
            char ph[64];
            snprintf(ph, sizeof ph, "<undefined ticky counter %llu>",
                     (unsigned long long)s->id[i]);
            assert_false(c->defined);
            assert_true(str_eq(c->name, c->name_len, ph));
            undefined++;
            continue;
        }
        late += s->sampled_before_def[i];
        assert_true(c->defined);
        assert_true(str_eq(c->name, c->name_len, s->name[i]));
        assert_int_equal(c->arity, s->arity[i]);
        char kinds[16];
        snprintf(kinds, sizeof kinds, "i%.*s", i % 5, "LMpdf");
        assert_true(str_eq(c->args, c->args_len, kinds));   /* from JSON where it is there */
        assert_int_equal(c->has_info_tbl, s->layout[i] != EL_TICKY_DEF_BASIC);
        if (c->has_info_tbl)
            assert_int_equal(c->info_tbl, 0x400000 + 16u * (unsigned)i);
        assert_int_equal(c->has_json, s->layout[i] == EL_TICKY_DEF_JSON);
        assert_int_equal(c->json != NULL, s->layout[i] == EL_TICKY_DEF_JSON || s->json_kinds[i]);
    }
    const ticky_info *in = ticky_get_info(t);
    assert_int_equal(in->undefined, undefined);
    assert_int_equal(in->defined, NC - undefined);
    assert_int_equal(in->defs_after_samples, late);
    assert_true(late > 100);
    assert_int_equal(in->duplicate_defs, 0);
}

static void test_synthetic_table(void **state)
{
    (void)state;
    for (int with_begin = 1; with_begin >= 0; with_begin--) {
        synth *s = synth_build(with_begin);
        el_read_result r;
        ticky_set *t = build_mem(s->buf, s->len, 0, UINT64_MAX, &r);
        assert_int_equal(r.status, EV_END);
        check_synth_table(s, t, 0, NB);
        const ticky_info *in = ticky_get_info(t);
        assert_int_equal(in->batches, NB);
        assert_int_equal(in->begin_events, with_begin ? NB : 0);
        ticky_destroy(t);

        /* the window takes whole batches by their time */
        t = build_mem(s->buf, s->len, T0 + DT * 50, T0 + DT * 100, NULL);
        check_synth_table(s, t, 50, 100);
        assert_int_equal(ticky_get_info(t)->batches_in_window, 50);
        ticky_destroy(t);
        synth_free(s);
    }
}

static void check_synth_series(const synth *s, int with_begin, ticky_sort sort)
{
    ticky_set *t = build_mem(s->buf, s->len, 0, UINT64_MAX, NULL);
    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    vo.sort = sort;
    ticky_view v;
    assert_int_equal(ticky_view_build(t, &vo, &v), 0);
    for (int cumulative = 0; cumulative <= 1; cumulative++) {
        got g = run_series(t, &v, s->buf, s->len, cumulative);
        assert_int_equal(g.batches, NB);
        size_t k = 0;
        uint64_t run[NC][3];
        memset(run, 0, sizeof run);
        for (int b = 0; b < NB; b++) {
            uint64_t bt = T0 + DT * (uint64_t)b + (with_begin ? 100 : 0);
            size_t nrows = 0;
            for (int i = 0; i < NC; i++)
                if (s->has[b][i]) {
                    nrows++;
                    run[i][0] += s->e[b][i];
                    run[i][1] += s->a[b][i];
                    run[i][2] += s->d[b][i];
                }
            for (size_t j = 0; j < nrows; j++, k++) {
                assert_true(k < g.n);
                const got_row *r = &g.r[k];
                int i = (int)((r->id - s->id[0]) / 48);
                assert_int_equal(r->id, s->id[i]);
                assert_int_equal(r->time, with_begin ? bt - 100 : bt);
                assert_true(s->has[b][i]);
                assert_int_equal(r->e, cumulative ? run[i][0] : s->e[b][i]);
                assert_int_equal(r->a, cumulative ? run[i][1] : s->a[b][i]);
                assert_int_equal(r->d, cumulative ? run[i][2] : s->d[b][i]);
            }
        }
        assert_int_equal(k, g.n);
        free(g.r);
    }
    ticky_view_free(&v);
    ticky_destroy(t);
}

static void test_synthetic_series(void **state)
{
    (void)state;
    synth *s = synth_build(1);
    check_synth_series(s, 1, TICKY_SORT_INPUT);
    check_synth_series(s, 1, TICKY_SORT_ALLOC);
    synth_free(s);
    s = synth_build(0);     /* no BEGIN_SAMPLE: batches found by the gaps */
    check_synth_series(s, 0, TICKY_SORT_NAME);
    synth_free(s);
}

/* The view: order, ties, top, filter, totals. */
static void test_view(void **state)
{
    (void)state;
    synth *s = synth_build(1);
    ticky_set *t = build_mem(s->buf, s->len, 0, UINT64_MAX, NULL);
    static const ticky_sort sorts[] = { TICKY_SORT_ENTRIES, TICKY_SORT_ALLOC, TICKY_SORT_ALLOCD,
                                        TICKY_SORT_NAME, TICKY_SORT_INPUT };
    for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++) {
        ticky_view_opts vo;
        ticky_view_opts_init(&vo);
        vo.sort = sorts[k];
        ticky_view v;
        assert_int_equal(ticky_view_build(t, &vo, &v), 0);
        assert_int_equal(v.matched, NC);
        assert_int_equal(v.shown, NC);
        uint64_t te = 0;
        for (size_t i = 0; i < v.shown; i++) {
            const ticky_counter *c = ticky_counter_at(t, v.order[i]);
            te += c->entries;
            if (i == 0)
                continue;
            const ticky_counter *p = ticky_counter_at(t, v.order[i - 1]);
            uint64_t kp = 0, kc = 0;
            switch (sorts[k]) {
            case TICKY_SORT_ENTRIES: kp = p->entries; kc = c->entries; break;
            case TICKY_SORT_ALLOC: kp = p->alloc; kc = c->alloc; break;
            case TICKY_SORT_ALLOCD: kp = p->allocd; kc = c->allocd; break;
            case TICKY_SORT_NAME:       /* no key: by name bytes, below */
            case TICKY_SORT_INPUT:
            default: break;
            }
            if (sorts[k] == TICKY_SORT_INPUT) {
                assert_true(v.order[i - 1] < v.order[i]);
                continue;
            }
            assert_true(kp >= kc);
            if (kp == kc) {     /* ties by name bytes, then input order */
                size_t n = p->name_len < c->name_len ? p->name_len : c->name_len;
                int cmp = memcmp(p->name, c->name, n);
                assert_true(cmp < 0 || (cmp == 0 && (p->name_len < c->name_len ||
                            (p->name_len == c->name_len && v.order[i - 1] < v.order[i]))));
            }
        }
        assert_int_equal(te, v.entries);
        ticky_view_free(&v);
    }
    /* allocd ties are many (three counters in four never allocd): the
     * order is still total and the same every time */
    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    vo.sort = TICKY_SORT_ALLOCD;
    vo.top = 10;
    vo.match = "f1";
    vo.match_len = 2;
    ticky_view v;
    assert_int_equal(ticky_view_build(t, &vo, &v), 0);
    size_t want = 0;
    uint64_t wa = 0;
    for (int i = 0; i < NC; i++) {
        const ticky_counter *c = ticky_find(t, s->id[i]);
        if (memmem(c->name, c->name_len, "f1", 2)) {
            want++;
            wa += c->alloc;
        }
    }
    assert_int_equal(v.matched, want);
    assert_int_equal(v.shown, 10);
    assert_int_equal(v.alloc, wa);
    ticky_view_free(&v);
    ticky_destroy(t);
    synth_free(s);
}

/* No BEGIN_SAMPLE: a batch opens at a repeated counter or after a gap. */
/* Kept points (ticky_keep_series): counter 1 sampled 9 times with 4
 * points kept: pairs merge when full, sums exact, the time of the last
 * sample of each point; counter 2 once; a snapshot has the same points. */
static void test_kept_points(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_ticky_def(w, 10, EL_TICKY_DEF_BASIC, 1, 0, "", "one", 0, NULL);
    el_writer_ticky_def(w, 10, EL_TICKY_DEF_BASIC, 2, 0, "", "two", 0, NULL);
    for (uint64_t k = 1; k <= 9; k++) {
        el_writer_ticky_begin(w, 1000 * k);
        el_writer_ticky_sample(w, 1000 * k + 1, 1, k, 10 * k, 0);
        if (k == 5)
            el_writer_ticky_sample(w, 1000 * k + 2, 2, 100, 200, 0);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *buf = el_writer_borrow_bytes(w, &len);
    ticky_set *t = ticky_create();
    assert_int_equal(ticky_keep_series(t, 4), 0);
    el_read_mem(buf, len, feed, t, NULL);
    assert_int_equal(ticky_keep_series(t, 4), -1);     /* too late */
    ticky_set *snap = ticky_snapshot(t);
    assert_non_null(snap);
    assert_int_equal(ticky_finish(t), 0);
    for (int pass = 0; pass < 2; pass++) {
        const ticky_set *x = pass ? snap : t;
        ticky_points p;
        /* 9 samples into 4 points: widths 1 1 1 1 -> 2 2 -> (2 2 2 2) ->
         * 4 4 then a point of width 4 holding sample 9 */
        assert_int_equal(ticky_counter_points(x, 0, &p), 0);
        assert_int_equal(p.n, 3);
        static const uint64_t tm[] = { 4001, 8001, 9001 }, en[] = { 10, 26, 9 };
        for (uint32_t i = 0; i < 3; i++) {
            assert_int_equal(p.time[i], tm[i]);
            assert_int_equal(p.entries[i], en[i]);
            assert_int_equal(p.alloc[i], 10 * en[i]);
        }
        assert_int_equal(ticky_counter_points(x, 1, &p), 0);
        assert_int_equal(p.n, 1);
        assert_int_equal(p.time[0], 5002);
        assert_int_equal(p.entries[0], 100);
        assert_int_equal(ticky_counter_points(x, 2, &p), 0);   /* no such counter */
        assert_int_equal(p.n, 0);
    }
    ticky_destroy(snap);
    ticky_destroy(t);
    el_writer_destroy(w);
}

static void test_implicit_batches(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_ticky_sample(w, 1000, 1, 1, 10, 0);       /* batch at 1000: 1 2 3 */
    el_writer_ticky_sample(w, 2000, 2, 2, 20, 0);
    el_writer_ticky_sample(w, 3000, 3, 3, 30, 0);
    el_writer_ticky_sample(w, 100000000, 1, 4, 40, 0);  /* 0.1 s: 1 3 */
    el_writer_ticky_sample(w, 100001000, 3, 5, 50, 0);
    el_writer_ticky_sample(w, 200000000, 2, 6, 60, 0);  /* a gap: 2 alone */
    el_writer_ticky_sample(w, 200002000, 2, 7, 70, 0);  /* 2 again: a new batch */
    el_writer_ticky_def(w, 300000000, EL_TICKY_DEF_BASIC, 1, 0, "", "one", 0, NULL);
    el_writer_ticky_def(w, 300000000, EL_TICKY_DEF_BASIC, 2, 0, "", "two", 0, NULL);
    el_writer_ticky_def(w, 300000000, EL_TICKY_DEF_BASIC, 3, 0, "", "three", 0, NULL);
    el_writer_ticky_def(w, 300000000, EL_TICKY_DEF_BASIC, 3, 0, "", "again", 0, NULL);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *buf = el_writer_borrow_bytes(w, &len);
    ticky_set *t = build_mem(buf, len, 0, UINT64_MAX, NULL);
    const ticky_info *in = ticky_get_info(t);
    assert_int_equal(in->batches, 4);
    assert_int_equal(in->duplicate_defs, 1);
    assert_true(str_eq(ticky_find(t, 3)->name, ticky_find(t, 3)->name_len, "three"));
    assert_int_equal(ticky_find(t, 2)->entries, 2 + 6 + 7);
    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    vo.sort = TICKY_SORT_NAME;
    ticky_view v;
    ticky_view_build(t, &vo, &v);
    got g = run_series(t, &v, buf, len, 0);
    static const got_row want[] = {
        { 1000, 1, 1, 10, 0 }, { 1000, 3, 3, 30, 0 }, { 1000, 2, 2, 20, 0 },   /* by name */
        { 100000000, 1, 4, 40, 0 }, { 100000000, 3, 5, 50, 0 },
        { 200000000, 2, 6, 60, 0 }, { 200002000, 2, 7, 70, 0 },
    };
    assert_int_equal(g.n, sizeof want / sizeof want[0]);
    assert_memory_equal(g.r, want, sizeof want);
    free(g.r);
    /* a window takes implicit batches whole too */
    ticky_view_free(&v);
    ticky_destroy(t);
    t = build_mem(buf, len, 100000000, 200000001, NULL);
    assert_int_equal(ticky_find(t, 3)->entries, 5);
    assert_int_equal(ticky_find(t, 2)->entries, 6);
    assert_int_equal(ticky_get_info(t)->batches_in_window, 2);
    ticky_destroy(t);
    el_writer_destroy(w);
}

/* ---- what the counts cover ------------------------------------------------ */

static char *capture_table(const ticky_set *t, const ticky_view *v, ticky_format f);

/* GHC 9.6/9.10 post the counters at a collection after an -i tick, not at
 * exit: a log whose last sample comes before its threads end is short of
 * the run, and the table, CSV and JSON say where the counts stop. */
static void test_coverage(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_run_thread(w, 1000, 1);
    el_writer_ticky_begin(w, 100000000);                    /* 0.1 s */
    el_writer_ticky_sample(w, 100000100, 10, 7, 160, 0);
    el_writer_stop_thread(w, 200000000, 1, 5, 0);           /* 0.2 s: half the run after */
    el_writer_ticky_def(w, 210000000, EL_TICKY_DEF_BASIC, 10, 2, "LL", "f", 0, NULL);
    el_writer_finish(w);
    size_t len;
    const uint8_t *buf = el_writer_borrow_bytes(w, &len);

    ticky_set *t = build_mem(buf, len, 0, UINT64_MAX, NULL);
    ticky_coverage c;
    ticky_coverage_of(t, &c);
    assert_true(c.known);
    assert_int_equal(c.counted_until_ns, 100000100);
    assert_int_equal(c.run_end_ns, 200000000);
    assert_true(c.end_from_threads);
    assert_int_equal(c.after_ns, 99999900);
    assert_true(c.after_pct > 49.9 && c.after_pct < 50.1);
    assert_true(c.short_of_run);
    char note[768];
    assert_true(ticky_coverage_note(&c, note, sizeof note) > 0);
    assert_non_null(strstr(note, "the counts stop at 0.100000 s"));
    assert_non_null(strstr(note, "ran until 0.200000 s: 50.0% of the run (100.000 ms)"));

    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    ticky_view v;
    ticky_view_build(t, &vo, &v);
    char *s = capture_table(t, &v, TICKY_TEXT);
    assert_non_null(strstr(s, "\nnote: the counts stop at 0.100000 s, GHC's last ticky sample;"));
    free(s);
    s = capture_table(t, &v, TICKY_CSV);
    assert_non_null(strstr(s, ",counted_until_ns,run_end_ns\n"));
    assert_non_null(strstr(s, ",100000100,200000000\n"));
    free(s);
    s = capture_table(t, &v, TICKY_JSON);
    assert_non_null(strstr(s, "\"coverage\": {\"counted_until_ns\": 100000100, \"run_end_ns\": "
                              "200000000, \"run_end_from\": \"threads\", \"after_ns\": 99999900, "
                              "\"after_pct\": 50.00, \"short\": true, \"note\": \"the counts"));
    free(s);
    ticky_view_free(&v);
    ticky_destroy(t);

    /* a window that ends before the last sample lost nothing to the end */
    t = build_mem(buf, len, 0, 50000000, NULL);
    ticky_coverage_of(t, &c);
    assert_true(c.known && !c.short_of_run);
    ticky_destroy(t);
    el_writer_destroy(w);

    /* the last sample within the margin of the threads' end: no note */
    w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_run_thread(w, 1000, 1);
    el_writer_ticky_begin(w, 100000000);
    el_writer_ticky_sample(w, 100000100, 10, 7, 160, 0);
    el_writer_stop_thread(w, 100000100 + TICKY_SHORT_MARGIN_NS, 1, 5, 0);
    el_writer_finish(w);
    buf = el_writer_borrow_bytes(w, &len);
    t = build_mem(buf, len, 0, UINT64_MAX, NULL);
    ticky_coverage_of(t, &c);
    assert_true(c.known && !c.short_of_run);
    assert_int_equal(ticky_coverage_note(&c, note, sizeof note), 0);
    ticky_destroy(t);
    el_writer_destroy(w);
}

/* ---- the writers --------------------------------------------------------- */

static char *capture_table(const ticky_set *t, const ticky_view *v, ticky_format f)
{
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    assert_non_null(m);
    assert_int_equal(ticky_write_table(t, v, f, m), 0);
    fclose(m);
    return out;
}

static void test_writers_exact(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_ticky_begin(w, 5000);
    el_writer_ticky_sample(w, 5001, 10, 7, 160, 0);
    el_writer_ticky_sample(w, 5002, 20, 7, 16, 8);
    el_writer_ticky_sample(w, 5003, 30, 1, 0, 0);
    el_writer_ticky_def(w, 6000, EL_TICKY_DEF_BASIC, 10, 2, "LL", "a,b \"c\"\nd", 0, NULL);
    el_writer_ticky_def(w, 6000, EL_TICKY_DEF_JSON, 20, 21, "", "Main.zz{v r1} (fun)", 0x4a0,
                        "{\"args\":\"iiiiiiiiiiiiiiiiiiiiiiiii\"}");
    el_writer_finish(w);
    size_t len;
    const uint8_t *buf = el_writer_borrow_bytes(w, &len);
    ticky_set *t = build_mem(buf, len, 0, UINT64_MAX, NULL);
    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    ticky_view v;
    ticky_view_build(t, &vo, &v);

    char *s = capture_table(t, &v, TICKY_TEXT);
    assert_string_equal(s,
        "    Entries      Alloc    Alloc'd  Non-void Arguments      STG Name\n"
        "--------------------------------------------------------------------------------\n"
        "          7         16          8  21 iiiiiiiiiiiiiiiiiiii Main.zz{v r1} (fun)\n"
        "          7        160          0   2 LL                   a,b \"c\"\\nd\n"
        "          1          0          0   0                      "
        "<undefined ticky counter 30>\n"
        "--------------------------------------------------------------------------------\n"
        "         15        176          8                          total of 3 counters\n");
    free(s);
    s = capture_table(t, &v, TICKY_CSV);
    assert_string_equal(s,
        "name,entries,alloc,allocd,arity,kinds,id,info_table,defined,samples,description,"
        "counted_until_ns,run_end_ns\n"
        "Main.zz{v r1} (fun),7,16,8,21,iiiiiiiiiiiiiiiiiiiiiiiii,20,0x4a0,true,1,"
        "\"{\"\"args\"\":\"\"iiiiiiiiiiiiiiiiiiiiiiiii\"\"}\",,\n"
        "\"a,b \"\"c\"\"\\nd\",7,160,0,2,LL,10,,true,1,,,\n"
        "<undefined ticky counter 30>,1,0,0,0,,30,,false,1,,,\n");
    free(s);
    s = capture_table(t, &v, TICKY_JSON);
    assert_non_null(strstr(s, "{\"name\": \"a,b \\\"c\\\"\\nd\", \"entries\": 7, \"alloc\": 160, "
                              "\"allocd\": 0, \"arity\": 2, \"kinds\": \"LL\", \"id\": 10, "
                              "\"info_table\": null, \"defined\": true, \"samples\": 1, "
                              "\"description\": null}"));
    assert_non_null(strstr(s, "\"totals\": {\"entries\": 15, \"alloc\": 176, \"allocd\": 8}"));
    free(s);

    /* top and match show in the totals line */
    vo.top = 1;
    vo.match = "a";
    vo.match_len = 1;
    ticky_view_free(&v);
    ticky_view_build(t, &vo, &v);
    s = capture_table(t, &v, TICKY_TEXT);
    assert_non_null(strstr(s, "\n         14        176          8                          "
                              "total of 2 counters matching \"a\", top 1 shown\n"));
    free(s);

    /* the series writer: CSV */
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    ticky_series_out so;
    ticky_series_out_begin(&so, m, TICKY_CSV, 0);
    vo.top = 0;
    vo.match = NULL;
    ticky_view_free(&v);
    ticky_view_build(t, &vo, &v);
    assert_int_equal(ticky_series_begin(t, &v, 0, ticky_series_out_batch, &so), 0);
    el_read_mem(buf, len, series_feed, t, NULL);
    ticky_series_end(t);
    assert_int_equal(ticky_series_out_end(&so), 0);
    fclose(m);
    assert_string_equal(out,
        "time_ns,counter,entries,alloc,allocd\n"
        "5000,Main.zz{v r1} (fun),7,16,8\n"
        "5000,\"a,b \"\"c\"\"\\nd\",7,160,0\n"
        "5000,<undefined ticky counter 30>,1,0,0\n");
    free(out);
    ticky_view_free(&v);
    ticky_destroy(t);
    el_writer_destroy(w);
}

/* ---- damaged logs -------------------------------------------------------- */

/* A sample of 20 bytes (211 declared variable-size so that the framing
 * holds): the read stops there or skips its block, naming offset and type;
 * what came before is counted. */
static void test_short_sample(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_type(w, EL_TICKY_COUNTER_SAMPLE, EL_WRITER_VARIABLE, "short samples");
    el_writer_declare_ghc(w, EL_GHC_9_2);
    uint8_t p[32] = { 0 };
    p[7] = 1;       /* id 1 */
    p[15] = 5;      /* 5 entries */
    el_writer_ticky_begin(w, 100);
    el_writer_event(w, EL_TICKY_COUNTER_SAMPLE, 101, p, 32);
    uint64_t bad_at = el_writer_offset(w);
    el_writer_event(w, EL_TICKY_COUNTER_SAMPLE, 102, p, 20);
    el_writer_finish(w);
    size_t len;
    const uint8_t *buf = el_writer_borrow_bytes(w, &len);
    el_read_result r;
    ticky_set *t = build_mem(buf, len, 0, UINT64_MAX, &r);
    const ev_error *e = r.damage.blocks ? &r.damage.first : &r.error;
    assert_true(r.damage.blocks > 0 || r.status == EV_ERR_FORMAT);
    assert_int_equal(e->offset, bad_at);
    assert_int_equal(e->type, EL_TICKY_COUNTER_SAMPLE);
    assert_non_null(strstr(e->msg, "20 bytes"));
    assert_int_equal(ticky_find(t, 1)->entries, 5);
    ticky_destroy(t);
    el_writer_destroy(w);
}

static void test_broken_definition_string(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    el_writer_ticky_sample(w, 100, 1, 3, 0, 0);
    el_writer_ticky_def(w, 200, EL_TICKY_DEF_BASIC, 1, 0, "", "fine", 0, NULL);
    el_payload pl;
    el_payload_init(&pl);
    el_payload_u64(&pl, 2);
    el_payload_u16(&pl, 1);
    el_payload_str(&pl, "i");
    el_payload_text(&pl, "no terminator");
    uint64_t bad_at = el_writer_offset(w);
    el_writer_event_payload(w, EL_TICKY_COUNTER_DEF, 300, &pl);
    el_payload_free(&pl);
    el_writer_finish(w);
    size_t len;
    const uint8_t *buf = el_writer_borrow_bytes(w, &len);
    el_read_result r;
    ticky_set *t = build_mem(buf, len, 0, UINT64_MAX, &r);
    const ev_error *e = r.damage.blocks ? &r.damage.first : &r.error;
    assert_true(r.damage.blocks > 0 || r.status == EV_ERR_FORMAT);
    assert_int_equal(e->offset, bad_at);
    assert_int_equal(e->type, EL_TICKY_COUNTER_DEF);
    assert_non_null(strstr(e->msg, "not terminated"));
    assert_int_equal(ticky_num_counters(t), 1);
    assert_true(str_eq(ticky_find(t, 1)->name, ticky_find(t, 1)->name_len, "fine"));
    ticky_destroy(t);
    el_writer_destroy(w);
}


/* ---- snapshots ---------------------------------------------------------- */

typedef struct snapper {
    ticky_set *t;
    uint64_t events, snaps, samples;
} snapper;

static int snap_feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    snapper *x = ctx;
    (void)d;
    if (ev->type == EL_TICKY_COUNTER_SAMPLE)
        x->samples++;
    if (ticky_add_event(x->t, ev) != 0)
        return 1;
    if (++x->events % 3 == 0) {
        ticky_set *snap = ticky_snapshot(x->t);
        assert_non_null(snap);
        /* a snapshot is finished: it takes no events */
        assert_int_equal(ticky_add_event(snap, ev), -1);
        assert_int_equal(ticky_get_info(snap)->samples, x->samples);
        uint64_t sum = 0;
        for (size_t i = 0; i < ticky_num_counters(snap); i++)
            sum += ticky_counter_at(snap, i)->samples;
        assert_int_equal(sum, x->samples);
        ticky_destroy(snap);
        x->snaps++;
    }
    return 0;
}

/* Snapshots during the read count every sample so far and change nothing:
 * the final table equals the one-shot table; a snapshot takes no events. */
static void test_snapshots(void **state)
{
    (void)state;
    const char *path = TICKY_CORPUS "/ticky-ticky.eventlog";
    ticky_set *once = ticky_create();
    assert_int_equal(el_read_path(path, feed, once, NULL).status, EV_END);
    assert_int_equal(ticky_finish(once), 0);

    snapper x = { ticky_create(), 0, 0, 0 };
    assert_int_equal(el_read_path(path, snap_feed, &x, NULL).status, EV_END);
    assert_true(x.snaps > 3);
    ticky_set *last = ticky_snapshot(x.t);
    assert_non_null(last);
    assert_int_equal(ticky_num_counters(last), ticky_num_counters(once));
    for (size_t i = 0; i < ticky_num_counters(once); i++) {
        const ticky_counter *a = ticky_counter_at(once, i), *b = ticky_counter_at(last, i);
        assert_int_equal(a->id, b->id);
        assert_int_equal(a->entries, b->entries);
        assert_int_equal(a->alloc, b->alloc);
        assert_int_equal(a->allocd, b->allocd);
        assert_int_equal(a->name_len, b->name_len);
        assert_memory_equal(a->name, b->name, a->name_len);
    }
    el_event ev = { 0 };
    ev.type = EL_TICKY_COUNTER_SAMPLE;
    assert_int_equal(ticky_add_event(last, &ev), -1);
    ticky_destroy(last);
    ticky_destroy(x.t);
    ticky_destroy(once);
}

/* ticky_set_event_limit: the analyses take at most that many ticky events
 * (a live read's second pass takes what the first took), counted. */
typedef struct upto {
    ticky_set *t;
    uint64_t left;
} upto;

/* The first `left` ticky events, one by one (without the set's limit). */
static int feed_upto(void *ctx, const el_event *ev, const el_decoder *d)
{
    upto *u = ctx;
    if (ev->type != EL_TICKY_COUNTER_DEF && ev->type != EL_TICKY_COUNTER_SAMPLE &&
        ev->type != EL_TICKY_BEGIN_SAMPLE && ev->type != EL_STOP_THREAD)
        return 0;
    if (u->left == 0)
        return 1;           /* stops the read here */
    u->left--;
    return feed(u->t, ev, d);
}

static ticky_set *read_limited(const synth *s, uint64_t limit)
{
    ticky_set *t = ticky_create();
    assert_non_null(t);
    if (limit != UINT64_MAX)
        ticky_set_event_limit(t, limit);
    ev_driver *d = ev_driver_create(NULL);
    assert_int_equal(ev_driver_attach(d, &ticky_analysis_ops, t), 0);
    assert_int_equal(ev_driver_run_mem(d, s->buf, s->len)->read.status, EV_END);
    ev_driver_destroy(d);
    assert_int_equal(ticky_finish(t), 0);
    return t;
}

static void test_event_limit(void **state)
{
    (void)state;
    synth *s = synth_build(1);
    ticky_set *t = read_limited(s, UINT64_MAX);
    uint64_t all = ticky_events_taken(t);
    const ticky_info *in = ticky_get_info(t);
    assert_true(all > 10);
    assert_int_equal(all, in->definitions + in->samples + in->begin_events);
    ticky_destroy(t);

    /* the first half: what a read cut after that many ticky events holds */
    uint64_t half = all / 2;
    t = read_limited(s, half);
    assert_int_equal(ticky_events_taken(t), half);
    upto u = { ticky_create(), half };
    assert_non_null(u.t);
    assert_int_equal(el_read_mem(s->buf, s->len, feed_upto, &u, NULL).status, EV_STOPPED);
    assert_int_equal(ticky_finish(u.t), 0);
    const ticky_info *a = ticky_get_info(t), *b = ticky_get_info(u.t);
    assert_int_equal(a->samples, b->samples);
    assert_int_equal(a->definitions, b->definitions);
    assert_int_equal(a->begin_events, b->begin_events);
    assert_int_equal(ticky_num_counters(t), ticky_num_counters(u.t));
    for (size_t i = 0; i < ticky_num_counters(t); i++) {
        assert_int_equal(ticky_counter_at(t, i)->entries, ticky_counter_at(u.t, i)->entries);
        assert_int_equal(ticky_counter_at(t, i)->alloc, ticky_counter_at(u.t, i)->alloc);
    }
    ticky_destroy(u.t);
    ticky_destroy(t);

    /* 0 takes nothing */
    t = read_limited(s, 0);
    assert_int_equal(ticky_events_taken(t), 0);
    assert_int_equal(ticky_get_info(t)->samples, 0);
    /* a new limit counts from 0 again */
    ticky_set_event_limit(t, UINT64_MAX);
    assert_int_equal(ticky_events_taken(t), 0);
    ticky_destroy(t);
    synth_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_limit),
        cmocka_unit_test(test_corpus_ticky_ticky),
        cmocka_unit_test(test_corpus_ticky_new),
        cmocka_unit_test(test_corpus_ticky_json),
        cmocka_unit_test(test_corpus_ticky_begin_sample),
        cmocka_unit_test(test_corpus_layouts),
        cmocka_unit_test(test_synthetic_table),
        cmocka_unit_test(test_synthetic_series),
        cmocka_unit_test(test_view),
        cmocka_unit_test(test_implicit_batches),
        cmocka_unit_test(test_kept_points),
        cmocka_unit_test(test_writers_exact),
        cmocka_unit_test(test_coverage),
        cmocka_unit_test(test_short_sample),
        cmocka_unit_test(test_broken_definition_string),
        cmocka_unit_test(test_snapshots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
