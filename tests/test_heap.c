/* Heap profiles (heap/): censuses and band names against GHC's own .hp of
 * the same run, against the ghc-events dumps of the corpus's heap logs,
 * against an independent decode of stop.hT; then the rules one at a time
 * on synthetic logs (names, -L, biographical order, the time window,
 * truncation at every byte, logs without end events, IPE, aggregates) and
 * the writers' exact text.
 *
 * GHC's .hp differs from the eventlog in three ways that the comparison
 * removes: an empty first and last sample (evprof writes them too), the
 * "(CCS number)" in front of -hc bands, and times (mutator CPU seconds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/heap.h"
#include "profiles.h"
#include "evprof/textout.h"
#include "evprof/writer.h"

#define HEAP_DATA "tests/data/heap"
#define GHC902 CORPUS_DIR "/ghc-9.0.2"
#define GHCEV CORPUS_DIR "/ghc-events"
#define GHC96 CORPUS_DIR "/ghc-9.6"
#define GHC910 CORPUS_DIR "/ghc-9.10"

/* ---- censuses as the sink hands them out ----------------------------- */

typedef struct band_val {
    char *name;          /* NUL-terminated copy (names have no NUL) */
    size_t len;
    uint64_t bytes;
} band_val;

typedef struct census {
    uint64_t time, era, index, total;
    int bio;
    band_val *v;
    size_t n;
} census;

typedef struct got {
    census *c;
    size_t n, cap;
} got;

static void got_free(got *g)
{
    for (size_t i = 0; i < g->n; i++) {
        for (size_t k = 0; k < g->c[i].n; k++)
            free(g->c[i].v[k].name);
        free(g->c[i].v);
    }
    free(g->c);
    memset(g, 0, sizeof *g);
}

static void census_add(census *c, const char *name, size_t len, uint64_t bytes)
{
    c->v = realloc(c->v, (c->n + 1) * sizeof *c->v);
    assert_non_null(c->v);
    c->v[c->n].name = malloc(len + 1);
    assert_non_null(c->v[c->n].name);
    memcpy(c->v[c->n].name, name, len);
    c->v[c->n].name[len] = '\0';
    c->v[c->n].len = len;
    c->v[c->n].bytes = bytes;
    c->n++;
}

/* Equal names summed into the first (what evprof does within a census). */
static void census_add_merged(census *c, const char *name, size_t len, uint64_t bytes)
{
    for (size_t k = 0; k < c->n; k++)
        if (c->v[k].len == len && memcmp(c->v[k].name, name, len) == 0) {
            c->v[k].bytes += bytes;
            return;
        }
    census_add(c, name, len, bytes);
}

static census *got_new(got *g)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 16;
        g->c = realloc(g->c, g->cap * sizeof *g->c);
        assert_non_null(g->c);
    }
    census *c = &g->c[g->n++];
    memset(c, 0, sizeof *c);
    return c;
}

static int collect(void *ctx, const heap_profile *h, const heap_census *hc)
{
    got *g = ctx;
    census *c = got_new(g);
    c->time = hc->time;
    c->era = hc->era;
    c->index = hc->index;
    c->total = hc->total;
    c->bio = hc->bio;
    uint64_t total = 0;
    for (size_t i = 0; i < hc->n; i++) {
        const heap_band *b = heap_band_at(h, hc->samples[i].band);
        census_add(c, b->name, b->len, hc->samples[i].bytes);
        total += hc->samples[i].bytes;
    }
    assert_int_equal(total, hc->total);
    return 0;
}

/* ---- running the profile ---------------------------------------------- */

typedef struct run {
    heap_profile *h;
    got g;
    el_read_result r;
} run;

/* The selection the reads below are made under (the driver's stage
 * would hand it to the profile in the stream). */
static const ev_select *cur_sel;

static int feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    run *r = ctx;
    ev_stream st;
    memset(&st, 0, sizeof st);
    st.decoder = d;
    st.select = cur_sel;
    return heap_analysis_ops.event(r->h, ev, &st);
}

static void finish_run(run *r)
{
    assert_int_equal(heap_finish(r->h, &r->r), EV_OK);
}

static void run_path(run *r, const char *path, const heap_opts *o)
{
    memset(r, 0, sizeof *r);
    heap_opts def;
    heap_opts_init(&def);
    r->h = heap_create(o ? o : &def, collect, &r->g);
    assert_non_null(r->h);
    r->r = el_read_path(path, feed, r, NULL);
    if (r->r.status != EV_END && r->r.status != EV_OK)
        fail_msg("%s: %s", path, r->r.error.msg);
    finish_run(r);
}

static void run_mem(run *r, const uint8_t *buf, size_t len, const heap_opts *o)
{
    memset(r, 0, sizeof *r);
    heap_opts def;
    heap_opts_init(&def);
    r->h = heap_create(o ? o : &def, collect, &r->g);
    assert_non_null(r->h);
    r->r = el_read_mem(buf, len, feed, r, NULL);
    finish_run(r);
}

static void run_free(run *r)
{
    heap_destroy(r->h);
    got_free(&r->g);
}

/* ---- GHC's .hp -------------------------------------------------------- */

typedef struct hp_file {
    char *job;           /* the JOB line */
    got g;               /* samples; times unused (GHC's are CPU seconds) */
} hp_file;

static void hp_parse(const uint8_t *buf, size_t len, hp_file *f, int strip_ccs)
{
    memset(f, 0, sizeof *f);
    census *cur = NULL;
    for (size_t i = 0; i < len;) {
        const char *line = (const char *)buf + i;
        const char *nl = memchr(line, '\n', len - i);
        size_t n = nl ? (size_t)(nl - line) : len - i;
        i += n + 1;
        if (n >= 4 && memcmp(line, "JOB ", 4) == 0) {
            f->job = strndup(line, n);
        } else if (n >= 13 && memcmp(line, "BEGIN_SAMPLE ", 13) == 0) {
            cur = got_new(&f->g);
        } else if (n >= 11 && memcmp(line, "END_SAMPLE ", 11) == 0) {
            cur = NULL;
        } else if (cur && n) {
            /* <band>TAB<bytes>: split on the last TAB; -hc: drop "(N)" */
            const char *tab = NULL;
            for (size_t k = 0; k < n; k++)
                if (line[k] == '\t')
                    tab = line + k;
            assert_non_null(tab);
            const char *name = line;
            if (strip_ccs && name[0] == '(') {
                const char *p = name + 1;
                while (p < tab && *p >= '0' && *p <= '9')
                    p++;
                if (p > name + 1 && p < tab && *p == ')')
                    name = p + 1;
            }
            census_add_merged(cur, name, (size_t)(tab - name),
                              strtoull(tab + 1, NULL, 10));
        }
    }
}

static void hp_read(const char *path, hp_file *f, int strip_ccs)
{
    size_t len;
    uint8_t *buf = test_read_file(path, &len);
    if (!buf)
        fail_msg("cannot read %s", path);
    hp_parse(buf, len, f, strip_ccs);
    free(buf);
}

static void hp_free(hp_file *f)
{
    free(f->job);
    got_free(&f->g);
}

static void assert_census_equal(const census *want, const census *have, const char *what,
                                size_t i)
{
    if (want->n != have->n)
        fail_msg("%s: census %zu: %zu bands, evprof %zu", what, i + 1, want->n, have->n);
    for (size_t k = 0; k < want->n; k++) {
        if (want->v[k].len != have->v[k].len ||
            memcmp(want->v[k].name, have->v[k].name, want->v[k].len) != 0)
            fail_msg("%s: census %zu band %zu: '%s', evprof '%s'", what, i + 1, k + 1,
                     want->v[k].name, have->v[k].name);
        if (want->v[k].bytes != have->v[k].bytes)
            fail_msg("%s: census %zu band '%s': %llu bytes, evprof %llu", what, i + 1,
                     want->v[k].name, (unsigned long long)want->v[k].bytes,
                     (unsigned long long)have->v[k].bytes);
    }
}

/* The .hp of a run written by evprof's writer, in memory. */
static char *write_hp(const char *path, heap_format fmt, const heap_opts *o)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    heap_writer *w = heap_writer_create(fmt, out);
    assert_non_null(w);
    run r;
    memset(&r, 0, sizeof r);
    heap_opts def;
    heap_opts_init(&def);
    r.h = heap_create(o ? o : &def, heap_writer_census, w);
    r.r = el_read_path(path, feed, &r, NULL);
    finish_run(&r);
    assert_int_equal(heap_writer_finish(w, r.h), 0);
    heap_writer_destroy(w);
    heap_destroy(r.h);
    fclose(out);
    return text;
}

/* Every census of the log equals GHC's .hp sample for sample: the same
 * bands in the same order with the same bytes. */
static void check_against_ghc(const char *base, int profiled)
{
    char log[256], hp[256];
    snprintf(log, sizeof log, "%s.eventlog", base);
    snprintf(hp, sizeof hp, "%s.hp", base);
    run r;
    run_path(&r, log, NULL);
    const heap_info *in = heap_get_info(r.h);
    hp_file g;
    hp_read(hp, &g, in->breakdown == HEAP_BY_COST_CENTRE);

    /* GHC's first and last samples are empty, at 0 and at the end */
    assert_true(g.g.n >= 2);
    assert_int_equal(g.g.c[0].n, 0);
    assert_int_equal(g.g.c[g.g.n - 1].n, 0);
    if (r.g.n != g.g.n - 2)
        fail_msg("%s: GHC's .hp has %zu censuses, evprof %zu", base, g.g.n - 2, r.g.n);
    assert_true(r.g.n >= 5);
    for (size_t i = 0; i < r.g.n; i++) {
        assert_census_equal(&g.g.c[i + 1], &r.g.c[i], base, i);
        assert_int_equal(r.g.c[i].index, i + 1);
        if (i)   /* in time order */
            assert_true(r.g.c[i].time >= r.g.c[i - 1].time);
    }
    assert_int_equal(in->censuses, r.g.n);
    assert_int_equal(in->dropped, 0);
    assert_int_equal(in->undefined_ccs, 0);
    assert_int_equal(in->stray_samples, 0);

    /* the .hp writer's JOB line is GHC's; its samples are the censuses
     * between two empty ones */
    char *text = write_hp(log, HEAP_FORMAT_HP, NULL);
    if (profiled) {
        if (strncmp(text, g.job, strlen(g.job)) != 0 || text[strlen(g.job)] != '\n')
            fail_msg("%s: JOB differs:\n%s\n%.80s", base, g.job, text);
    }
    hp_file ours;
    hp_parse((const uint8_t *)text, strlen(text), &ours, 0);
    assert_int_equal(ours.g.n, g.g.n);
    /* the .hp writes band names in their visible form: where GHC's -L cut
     * leaves half a UTF-8 sequence, that byte is U+FFFD */
    for (size_t i = 0; i < g.g.n; i++)
        for (size_t k = 0; k < g.g.c[i].n; k++) {
            band_val *v = &g.g.c[i].v[k];
            size_t n = tx_vis(NULL, 0, v->name, v->len);
            char *vis = malloc(n + 1);
            assert_non_null(vis);
            tx_vis(vis, n + 1, v->name, v->len);
            free(v->name);
            v->name = vis;
            v->len = n;
        }
    for (size_t i = 0; i < g.g.n; i++)
        assert_census_equal(&g.g.c[i], &ours.g.c[i], base, i);
    free(text);
    hp_free(&ours);
    hp_free(&g);
    run_free(&r);
}

static void test_corpus_ghc_9_0_2(void **state)
{
    (void)state;
    check_against_ghc(GHC902 "/nfib-hc", 1);
    check_against_ghc(GHC902 "/nfib-hy", 1);
}

static void test_own_ghc_runs(void **state)
{
    (void)state;
    static const char *const runs[] = { "leak-hc", "leak-hy", "leak-hd", "leak-hm", "leak-hr",
                                        "leak-hb", "long-hc", "long-hc-L40" };
    char base[128];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(base, sizeof base, "%s/%s", HEAP_DATA, runs[i]);
        check_against_ghc(base, 1);
    }
    /* GHC's non-profiling RTS writes only the program's name as JOB: so
     * does evprof, from the log's RTS_IDENTIFIER */
    check_against_ghc(HEAP_DATA "/leak-hT", 1);
}

/* GHC 9.6.6 runs of a program built with -finfo-table-map: its IPE
 * events (169) declare one byte more than GHC writes (GHC #24287). Every
 * census equals GHC's .hp, the JOB line too; -hi bands are named by
 * address as in the .hp and titled by their IPE entry where the log has
 * one (the program's own closures; the libraries' were built without
 * -finfo-table-map, so theirs stay addresses). */
static void test_ghc_9_6_runs(void **state)
{
    (void)state;
    static const char *const runs[] = { "parse-hc", "parse-hy", "parse-hi", "parse-hT" };
    char base[128];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(base, sizeof base, "%s/%s", GHC96, runs[i]);
        check_against_ghc(base, 1);
    }
    run r;
    run_path(&r, GHC96 "/parse-hi.eventlog", NULL);
    assert_int_equal(r.r.damage.blocks, 0);
    size_t titled = 0, addresses = 0;
    for (uint32_t b = 0; b < heap_num_bands(r.h); b++) {
        const heap_band *hb = heap_band_at(r.h, b);
        assert_true(hb->len > 2 && memcmp(hb->name, "0x", 2) == 0);
        if (hb->title == hb->name) {
            addresses++;
            continue;
        }
        titled++;
        /* "TABLE (CLOSURE :: TYPE, LABEL, Main, Parse.hs:L:C-C)", or a
         * constructor's "Add_con_info (CONSTR_2_0, Main)" (GHC writes its
         * empty file and span as ":") */
        if (!strstr(hb->title, "_info (") ||
            !(strstr(hb->title, ", Main, Parse.hs:") ||
              (strstr(hb->title, "_con_info (CONSTR") && strstr(hb->title, ", Main)"))))
            fail_msg("-hi band %s titled '%s'", hb->name, hb->title);
    }
    assert_true(titled >= 5);
    assert_int_equal(addresses, heap_get_info(r.h)->unresolved_ipe);
    run_free(&r);
}

/* GHC 9.10.3 runs of the same program: every census equals GHC's .hp by
 * cost-centre stack, info table (IPE declared one byte long, as on 9.6),
 * closure type and era (-he, breakdown 9, with
 * --automatic-era-increment: a band per era, named by its number). */
static void test_ghc_9_10_runs(void **state)
{
    (void)state;
    static const char *const runs[] = { "parse-hc", "parse-hi", "parse-hT", "parse-he" };
    char base[128];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        snprintf(base, sizeof base, "%s/%s", GHC910, runs[i]);
        check_against_ghc(base, 1);
    }
    run r;
    run_path(&r, GHC910 "/parse-he.eventlog", NULL);
    assert_int_equal(heap_get_info(r.h)->breakdown, HEAP_BY_ERA);
    assert_true(heap_num_bands(r.h) >= 10);
    for (uint32_t b = 0; b < heap_num_bands(r.h); b++) {
        const heap_band *hb = heap_band_at(r.h, b);
        char *end;
        if (strtoul(hb->name, &end, 10) == 0 || end != hb->name + hb->len)
            fail_msg("-he band '%.*s' is not an era", (int)hb->len, hb->name);
    }
    run_free(&r);
}

/* The long -hc bands: cut exactly where GHC cuts them. */
static void test_own_long_bands(void **state)
{
    (void)state;
    run r;
    run_path(&r, HEAP_DATA "/long-hc.eventlog", NULL);
    const heap_info *in = heap_get_info(r.h);
    assert_int_equal(in->length, 25);
    assert_int_equal(in->length_from_log, 0);
    static const char *const want[] = {
        "twenty_four_bytes_label_",     /* 24: whole */
        "twenty_five_bytes_label__",    /* 25: whole */
        "twenty_six_bytes_labe...",     /* 26: 21 bytes and "..." */
        "in/outer_22_bytes_label__",    /* 25 across two frames */
        "inner/outer_frame_of_...",
        "a_label_much_longer_t...",
        "\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb"
        "\xce\xbb\xce...",              /* cut inside a letter */
        "CAF:bigTable_",                /* -fprof-cafs: a label, not Module.CAF */
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int found = 0, prefix = want[k][strlen(want[k]) - 1] == '_' && want[k][0] == 'C';
        for (size_t b = 0; b < heap_num_bands(r.h); b++) {
            const char *name = heap_band_at(r.h, (uint32_t)b)->name;
            found |= prefix ? strncmp(name, want[k], strlen(want[k])) == 0
                            : strcmp(name, want[k]) == 0;
        }
        if (!found)
            fail_msg("no band '%s'", want[k]);
    }
    run_free(&r);

    run_path(&r, HEAP_DATA "/long-hc-L40.eventlog", NULL);
    in = heap_get_info(r.h);
    assert_int_equal(in->length, 40);
    assert_int_equal(in->length_from_log, 1);
    assert_string_equal(in->job, "long x y +RTS -hc -l -L40 -i0.01");
    run_free(&r);

    /* --length overrides the log's -L: the L40 run cut at 25 gives the
     * default run's names */
    heap_opts o;
    heap_opts_init(&o);
    o.length = 25;
    run_path(&r, HEAP_DATA "/long-hc-L40.eventlog", &o);
    int cut = 0;
    for (size_t b = 0; b < heap_num_bands(r.h); b++)
        cut |= strcmp(heap_band_at(r.h, (uint32_t)b)->name, "inner/outer_frame_of_...") == 0;
    assert_true(cut);
    assert_int_equal(heap_get_info(r.h)->length_from_log, 0);
    run_free(&r);
}

/* ---- the ghc-events dumps of the corpus ---------------------------------- */

typedef struct ref_cc {
    uint32_t id;
    char label[256], module[256];
} ref_cc;

/* GHC's band name of a stack, built here independently of heap/. */
static void ref_name(const ref_cc *ccs, size_t nccs, const char *stack, char *out, size_t L)
{
    char full[4096] = "";
    size_t len = 0;
    if (!*stack) {
        strcpy(out, "MAIN");
        return;
    }
    for (const char *p = stack; *p;) {
        uint32_t id = (uint32_t)strtoul(p, (char **)&p, 10);
        const ref_cc *c = NULL;
        for (size_t i = 0; i < nccs; i++)
            if (ccs[i].id == id)
                c = &ccs[i];
        assert_non_null(c);
        if (len)
            len += (size_t)snprintf(full + len, sizeof full - len, "/");
        if (strcmp(c->label, "CAF") == 0)
            len += (size_t)snprintf(full + len, sizeof full - len, "%s.CAF", c->module);
        else
            len += (size_t)snprintf(full + len, sizeof full - len, "%s", c->label);
        while (*p == ',' || *p == ' ')
            p++;
    }
    if (len > L)
        snprintf(out, 4096, "%.*s...", (int)(L - 4), full);
    else
        strcpy(out, full);
}

/* Censuses as the dump lists them: "start heap prof sample N [at time T]",
 * "heap prof sample 0, residency R, label L" or "..., cost centre stack
 * a, b", "end prof sample N" (logs before GHC 8.8 have no end: the next
 * start or the end of the dump closes a census). */
static void ref_read(const char *path, got *g)
{
    size_t len;
    uint8_t *buf = test_read_file(path, &len);
    if (!buf)
        fail_msg("cannot read %s", path);
    ref_cc *ccs = NULL;
    size_t nccs = 0;
    census *cur = NULL;
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < len;) {
        char line[8192];
        const char *s = (const char *)buf + i;
        const char *nl = memchr(s, '\n', len - i);
        size_t n = nl ? (size_t)(nl - s) : len - i;
        i += n + 1;
        if (n >= sizeof line)
            continue;
        memcpy(line, s, n);
        line[n] = '\0';
        char *p = line;
        while (*p == ' ')
            p++;
        uint64_t t = strtoull(p, &p, 10);
        if (*p != ':')
            continue;
        p += 2;
        if (strncmp(p, "cost centre ", 12) == 0 && strstr(p, " in ")) {
            ccs = realloc(ccs, (nccs + 1) * sizeof *ccs);
            ref_cc *c = &ccs[nccs++];
            c->id = (uint32_t)strtoul(p + 12, &p, 10);
            char *in = strstr(p, " in "), *at = strstr(in + 4, " at ");
            snprintf(c->label, sizeof c->label, "%.*s", (int)(in - p - 1), p + 1);
            snprintf(c->module, sizeof c->module, "%.*s", (int)(at - in - 4), in + 4);
        } else if (strncmp(p, "start heap prof sample ", 23) == 0) {
            cur = got_new(g);
            cur->era = strtoull(p + 23, &p, 10);
            cur->time = t;
            if (strncmp(p, " at time ", 9) == 0) {
                cur->time = strtoull(p + 9, NULL, 10);
                cur->bio = 1;
            }
        } else if (strncmp(p, "end prof sample", 15) == 0) {
            cur = NULL;
        } else if (cur && strncmp(p, "heap prof sample ", 17) == 0) {
            char *r = strstr(p, "residency ");
            uint64_t bytes = strtoull(r + 10, &r, 10);
            if (strncmp(r, ", label ", 8) == 0) {
                census_add_merged(cur, r + 8, strlen(r + 8), bytes);
            } else {
                assert_memory_equal(r, ", cost centre stack", 19);
                char name[4096];
                ref_name(ccs, nccs, r[19] ? r + 20 : "", name, 25);
                census_add_merged(cur, name, strlen(name), bytes);
            }
        }
    }
    free(ccs);
    free(buf);
}

static void test_corpus_references(void **state)
{
    (void)state;
    static const char *const logs[] = { "sleep.h", "sleep.hC", "sleep.hd", "sleep.hm",
                                         "sleep.hy", "biographical-samples" };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        char path[256], refp[256];
        snprintf(path, sizeof path, GHCEV "/%s.eventlog", logs[i]);
        snprintf(refp, sizeof refp, GHCEV "/%s.eventlog.reference", logs[i]);
        got want;
        ref_read(refp, &want);
        run r;
        run_path(&r, path, NULL);
        assert_true(want.n >= 1);
        if (want.n != r.g.n)
            fail_msg("%s: dump has %zu censuses, evprof %zu", logs[i], want.n, r.g.n);
        for (size_t k = 0; k < want.n; k++) {
            assert_census_equal(&want.c[k], &r.g.c[k], logs[i], k);
            assert_int_equal(want.c[k].time, r.g.c[k].time);
            assert_int_equal(want.c[k].bio, r.g.c[k].bio);
            assert_int_equal(want.c[k].era, r.g.c[k].era);
        }
        assert_int_equal(heap_get_info(r.h)->dropped, 0);
        got_free(&want);
        run_free(&r);
    }
}

/* stop.hT (GHC 8.4, no .reference): its 164 events decoded here, grouped
 * by the 162 before them (the header has no 165). */
typedef struct indep {
    got g;
    census *cur;
} indep;

static int indep_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    indep *x = ctx;
    (void)d;
    if (ev->type == EL_HEAP_PROF_SAMPLE_BEGIN) {
        x->cur = got_new(&x->g);
        x->cur->time = ev->time;
    } else if (ev->type == EL_HEAP_PROF_SAMPLE_STRING && x->cur) {
        /* label: after u8 profile id and u64 residency, NUL-terminated */
        const uint8_t *p = ev->payload;
        uint64_t bytes = 0;
        for (int k = 1; k < 9; k++)
            bytes = bytes << 8 | p[k];
        const char *label = (const char *)p + 9;
        census_add_merged(x->cur, label, strnlen(label, ev->payload_len - 9), bytes);
    }
    return 0;
}

static void test_stop_hT(void **state)
{
    (void)state;
    if (test_skip_missing(GHCEV "/stop.hT.eventlog"))
        skip();
    const char *path = test_corpus_path(GHCEV "/stop.hT.eventlog");
    indep x = { { 0 }, NULL };
    el_decoder *d = NULL;
    el_read_result rr = el_read_path(path, indep_event, &x, &d);
    assert_int_equal(rr.status, EV_END);
    assert_null(el_decoder_type(d, EL_HEAP_PROF_SAMPLE_END));   /* GHC 8.4: none */
    el_decoder_destroy(d);

    run r;
    run_path(&r, path, NULL);
    const heap_info *in = heap_get_info(r.h);
    assert_int_equal(in->breakdown, HEAP_BY_CLOSURE_TYPE);
    assert_true(x.g.n >= 10);
    assert_int_equal(r.g.n, x.g.n);
    for (size_t k = 0; k < x.g.n; k++) {
        assert_census_equal(&x.g.c[k], &r.g.c[k], "stop.hT", k);
        assert_int_equal(x.g.c[k].time, r.g.c[k].time);
    }
    got_free(&x.g);
    run_free(&r);
}

/* ---- synthetic logs --------------------------------------------------- */

#define MS 1000000ull

/* A log with GHC 9.2's types (165 and IPE 169 declared), or, with
 * old = 1, the types of GHC before 8.8: no 165. */
static el_writer *new_log(int old)
{
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    if (!old) {
        assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
        return w;
    }
    el_writer_declare_type(w, EL_BLOCK_MARKER, 14, "Block marker");
    el_writer_declare_type(w, EL_PROGRAM_ARGS, EL_WRITER_VARIABLE, "Program arguments");
    el_writer_declare_type(w, EL_WALL_CLOCK_TIME, 16, "Wall clock time");
    el_writer_declare_type(w, EL_HEAP_PROF_BEGIN, EL_WRITER_VARIABLE, "Start of heap profile");
    el_writer_declare_type(w, EL_HEAP_PROF_COST_CENTRE, EL_WRITER_VARIABLE, "Cost center");
    el_writer_declare_type(w, EL_HEAP_PROF_SAMPLE_BEGIN, 8, "Start of heap profile sample");
    el_writer_declare_type(w, EL_HEAP_PROF_SAMPLE_COST_CENTRE, EL_WRITER_VARIABLE, "cc");
    el_writer_declare_type(w, EL_HEAP_PROF_SAMPLE_STRING, EL_WRITER_VARIABLE, "string");
    return w;
}

static void args(el_writer *w, uint64_t t, int argc, const char *const *argv)
{
    assert_int_equal(el_writer_program_args(w, t, 0, argc, argv), EV_OK);
}

static const uint8_t *done(el_writer *w, size_t *len)
{
    assert_int_equal(el_writer_finish(w), EV_OK);
    return el_writer_borrow_bytes(w, len);
}

static void str_census(el_writer *w, uint64_t t, uint64_t era, int end, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    el_writer_heap_sample_begin(w, t, era);
    for (int i = 0; i < n; i++) {
        const char *label = va_arg(ap, const char *);
        uint64_t bytes = va_arg(ap, uint64_t);
        el_writer_heap_sample_string(w, t + 1 + (uint64_t)i, 0, bytes, label);
    }
    if (end)
        el_writer_heap_sample_end(w, t + 100, era);
    va_end(ap);
}

static const char *band_of(const census *c, size_t k) { return c->v[k].name; }

static void test_ccs_names(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    static const char *const argv[] = { "/usr/bin/prog", "arg", "+RTS", "-hc", "-l", "-RTS" };
    args(w, 10, 6, argv);
    el_writer_heap_prof_begin(w, 20, 0, 100 * MS, HEAP_BY_COST_CENTRE, NULL);
    el_writer_cost_centre(w, 30, 1, "CAF", "Data.Map", "<entire-module>", 1);
    el_writer_cost_centre(w, 31, 2, "main", "Main", "Main.hs:1:1", 0);
    el_writer_cost_centre(w, 32, 3, "CAF:table_r1", "Main", "Main.hs:2:1", 1);  /* flag, label */
    el_writer_cost_centre(w, 33, 4, "abcdefghijklmnopqrst", "Main", "x", 0);    /* 20 bytes */
    el_writer_cost_centre(w, 34, 5, "abcd", "Main", "x", 0);
    el_writer_cost_centre(w, 35, 6, "abcde", "Main", "x", 0);
    el_writer_cost_centre(w, 36, 7, "\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb"
                                    "\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb"
                                    "\xce\xbb", "M", "x", 0);   /* 13 letters, 26 bytes */
    el_writer_heap_sample_begin(w, 100 * MS, 0);
    static const uint32_t s_caf[] = { 1 }, s_main[] = { 2, 1 }, s_cafs[] = { 3 },
                          s25[] = { 4, 5 }, s26[] = { 4, 6 }, s_undef[] = { 99, 2 },
                          s_utf8[] = { 7 }, s_long[] = { 5, 4, 4 };
    el_writer_heap_sample_cc(w, 100 * MS + 1, 0, 10, 1, s_caf);
    el_writer_heap_sample_cc(w, 100 * MS + 2, 0, 20, 2, s_main);
    el_writer_heap_sample_cc(w, 100 * MS + 3, 0, 30, 1, s_cafs);
    el_writer_heap_sample_cc(w, 100 * MS + 4, 0, 40, 2, s25);
    el_writer_heap_sample_cc(w, 100 * MS + 5, 0, 50, 2, s26);
    el_writer_heap_sample_cc(w, 100 * MS + 6, 0, 60, 0, NULL);
    el_writer_heap_sample_cc(w, 100 * MS + 7, 0, 70, 2, s_undef);
    el_writer_heap_sample_cc(w, 100 * MS + 8, 0, 80, 1, s_utf8);
    el_writer_heap_sample_cc(w, 100 * MS + 9, 0, 90, 3, s_long);
    el_writer_heap_sample_end(w, 101 * MS, 0);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 1);
    const census *c = &r.g.c[0];
    assert_int_equal(c->n, 9);
    assert_string_equal(band_of(c, 0), "Data.Map.CAF");
    assert_string_equal(band_of(c, 1), "main/Data.Map.CAF");
    assert_string_equal(band_of(c, 2), "CAF:table_r1");
    assert_string_equal(band_of(c, 3), "abcdefghijklmnopqrst/abcd");     /* 25: whole */
    assert_string_equal(band_of(c, 4), "abcdefghijklmnopqrst/...");      /* 26: cut */
    assert_string_equal(band_of(c, 5), "MAIN");
    assert_string_equal(band_of(c, 6), "<undefined cc 99>/main");
    /* GHC cuts bytes, not letters: 10 letters, half of one, "..." */
    assert_string_equal(band_of(c, 7), "\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce\xbb"
                                       "\xce\xbb\xce\xbb\xce\xbb\xce\xbb\xce...");
    assert_string_equal(band_of(c, 8), "abcd/abcdefghijklmnop...");
    const heap_info *in = heap_get_info(r.h);
    assert_int_equal(in->undefined_ccs, 1);
    assert_string_equal(in->program, "prog");
    assert_string_equal(in->job, "prog arg +RTS -hc -l");
    assert_int_equal(in->breakdown, HEAP_BY_COST_CENTRE);
    assert_int_equal(in->period_ns, 100 * MS);
    run_free(&r);

    /* -L3 in the RTS options: GHC's cut needs 4 bytes at least */
    heap_opts o;
    heap_opts_init(&o);
    o.length = 9;
    run_mem(&r, log, len, &o);
    c = &r.g.c[0];
    assert_string_equal(band_of(c, 0), "Data....");
    assert_string_equal(band_of(c, 1), "main/...");
    assert_string_equal(band_of(c, 2), "CAF:t...");
    assert_string_equal(band_of(c, 3), "abcde...");     /* both abcdefghij.../abcd[e] */
    assert_int_equal(c->v[3].bytes, 40 + 50);
    assert_string_equal(band_of(c, 4), "MAIN");
    run_free(&r);
    el_writer_destroy(w);
}

/* The same stacks census after census: the same bands, undefined cost
 * centres counted at every sample, and a definition that comes late
 * names the later censuses' bands by it (the cache of stacks to bands,
 * heap/profile.c, forgets the names a definition changes). */
static void test_ccs_names_repeated(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    el_writer_heap_prof_begin(w, 20, 0, 100 * MS, HEAP_BY_COST_CENTRE, NULL);
    el_writer_cost_centre(w, 30, 1, "main", "Main", "Main.hs:1:1", 0);
    el_writer_cost_centre(w, 31, 2, "go", "Main", "Main.hs:2:1", 0);
    static const uint32_t s_go[] = { 2, 1 }, s_undef[] = { 99, 1 };
    for (int i = 0; i < 2; i++) {
        uint64_t t = (uint64_t)(i + 1) * 100 * MS;
        el_writer_heap_sample_begin(w, t, (uint64_t)i);
        el_writer_heap_sample_cc(w, t + 1, 0, 10, 2, s_undef);
        el_writer_heap_sample_cc(w, t + 2, 0, 20, 2, s_go);
        el_writer_heap_sample_cc(w, t + 3, 0, 5, 2, s_undef);
        el_writer_heap_sample_end(w, t + 4, (uint64_t)i);
    }
    el_writer_cost_centre(w, 300 * MS, 99, "late", "Main", "Main.hs:3:1", 0);
    el_writer_heap_sample_begin(w, 301 * MS, 2);
    el_writer_heap_sample_cc(w, 301 * MS + 1, 0, 3, 2, s_undef);
    el_writer_heap_sample_cc(w, 301 * MS + 2, 0, 4, 2, s_go);
    el_writer_heap_sample_end(w, 301 * MS + 3, 2);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 3);
    for (int i = 0; i < 2; i++) {
        const census *c = &r.g.c[i];
        assert_int_equal(c->n, 2);
        assert_string_equal(band_of(c, 0), "<undefined cc 99>/main");
        assert_int_equal(c->v[0].bytes, 15);
        assert_string_equal(band_of(c, 1), "go/main");
        assert_int_equal(c->v[1].bytes, 20);
    }
    const census *c = &r.g.c[2];
    assert_int_equal(c->n, 2);
    assert_string_equal(band_of(c, 0), "late/main");
    assert_int_equal(c->v[0].bytes, 3);
    assert_string_equal(band_of(c, 1), "go/main");
    assert_int_equal(heap_get_info(r.h)->undefined_ccs, 4);
    run_free(&r);
    el_writer_destroy(w);
}

/* -L from the log's RTS options (the last one), cut by the utf8 rule */
static void test_length_from_log(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    static const char *const argv[] = { "p", "+RTS", "-L30", "-hc", "-L12", "-RTS", "-L99" };
    args(w, 10, 7, argv);
    el_writer_cost_centre(w, 30, 1, "abcdefghijklmnop", "M", "x", 0);
    static const uint32_t s[] = { 1 };
    el_writer_heap_sample_begin(w, 100, 0);
    el_writer_heap_sample_cc(w, 101, 0, 5, 1, s);
    el_writer_heap_sample_end(w, 102, 0);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    const heap_info *in = heap_get_info(r.h);
    assert_int_equal(in->length, 12);
    assert_int_equal(in->length_from_log, 1);
    assert_string_equal(band_of(&r.g.c[0], 0), "abcdefgh...");
    assert_string_equal(in->job, "p -L99 +RTS -L30 -hc -L12");
    run_free(&r);
    el_writer_destroy(w);
}

/* Two stacks whose names are equal once cut: one band, bytes summed at
 * the first one's place. */
static void test_collision_merged(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    el_writer_cost_centre(w, 1, 1, "a_long_label_for_collisions", "M", "x", 0);
    el_writer_cost_centre(w, 2, 2, "a_long_label_for_collisions_too", "M", "x", 0);
    el_writer_cost_centre(w, 3, 3, "other", "M", "x", 0);
    static const uint32_t s1[] = { 1 }, s2[] = { 2 }, s3[] = { 3 };
    el_writer_heap_sample_begin(w, 100, 0);
    el_writer_heap_sample_cc(w, 101, 0, 5, 1, s1);
    el_writer_heap_sample_cc(w, 102, 0, 7, 1, s3);
    el_writer_heap_sample_cc(w, 103, 0, 11, 1, s2);
    el_writer_heap_sample_end(w, 104, 0);
    el_writer_heap_sample_begin(w, 200, 0);   /* a new census starts afresh */
    el_writer_heap_sample_cc(w, 201, 0, 13, 1, s2);
    el_writer_heap_sample_end(w, 204, 0);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 2);
    assert_int_equal(r.g.c[0].n, 2);
    assert_string_equal(band_of(&r.g.c[0], 0), "a_long_label_for_coll...");
    assert_int_equal(r.g.c[0].v[0].bytes, 16);
    assert_string_equal(band_of(&r.g.c[0], 1), "other");
    assert_int_equal(r.g.c[1].n, 1);
    assert_int_equal(r.g.c[1].v[0].bytes, 13);
    assert_int_equal(heap_num_bands(r.h), 2);
    run_free(&r);
    el_writer_destroy(w);
}

/* Biographical censuses come at the end in any order: handed out by their
 * own time; the window selects by that time too. */
static void test_bio_order_and_window(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    el_writer_heap_prof_begin(w, 1, 0, 100 * MS, HEAP_BY_BIOGRAPHY, NULL);
    static const uint64_t when[] = { 300, 100, 400, 200 };
    for (int i = 0; i < 4; i++) {
        uint64_t t = 5000 * MS + (uint64_t)i * MS;
        el_writer_bio_sample_begin(w, t, 7, when[i] * MS);
        el_writer_heap_sample_string(w, t + 1, 0, when[i], "VOID");
        el_writer_heap_sample_string(w, t + 2, 0, 1000 - when[i], "LAG");
        el_writer_heap_sample_end(w, t + 3, 7);
    }
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(r.g.c[i].time, (uint64_t)(i + 1) * 100 * MS);
        assert_int_equal(r.g.c[i].v[0].bytes, (uint64_t)(i + 1) * 100);
        assert_int_equal(r.g.c[i].bio, 1);
        assert_int_equal(r.g.c[i].era, 7);
        assert_int_equal(r.g.c[i].index, (uint64_t)i + 1);
    }
    run_free(&r);

    cur_sel = test_window(200 * MS, 400 * MS, -1);
    run_mem(&r, log, len, NULL);
    ev_select_destroy((ev_select *)cur_sel);
    cur_sel = NULL;
    assert_int_equal(r.g.n, 2);
    assert_int_equal(r.g.c[0].time, 200 * MS);
    assert_int_equal(r.g.c[1].time, 300 * MS);
    assert_int_equal(heap_get_info(r.h)->filtered, 2);
    assert_int_equal(heap_get_info(r.h)->censuses_seen, 4);
    run_free(&r);
    el_writer_destroy(w);
}

/* Aggregates: peak (first census with it), its share, sum/mean, presence;
 * the summary's order (peak descending, then name). */
static void test_aggregates(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    str_census(w, 100, 0, 1, 2, "a", (uint64_t)10, "b", (uint64_t)30);
    str_census(w, 200, 0, 1, 2, "a", (uint64_t)50, "c", (uint64_t)50);
    str_census(w, 300, 0, 1, 2, "a", (uint64_t)50, "b", (uint64_t)5);
    str_census(w, 400, 0, 1, 0);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 4);
    const heap_info *in = heap_get_info(r.h);
    assert_int_equal(in->peak_total, 100);
    assert_int_equal(in->peak_total_time, 200);
    assert_int_equal(in->first_time, 100);
    assert_int_equal(in->last_time, 400);
    assert_int_equal(heap_num_bands(r.h), 3);
    const heap_band *a = heap_band_at(r.h, 0), *b = heap_band_at(r.h, 1),
                    *c = heap_band_at(r.h, 2);
    assert_string_equal(a->name, "a");
    assert_int_equal(a->peak, 50);
    assert_int_equal(a->peak_time, 200);
    assert_int_equal(a->peak_total, 100);
    assert_int_equal(a->sum, 110);
    assert_int_equal(a->present, 3);
    assert_int_equal(b->peak, 30);
    assert_int_equal(b->peak_time, 100);
    assert_int_equal(b->peak_total, 40);
    assert_int_equal(b->sum, 35);
    assert_int_equal(c->present, 1);
    assert_int_equal(r.g.c[3].n, 0);
    size_t n;
    uint32_t *order = heap_bands_by_peak(r.h, &n);
    assert_int_equal(n, 3);
    assert_string_equal(heap_band_at(r.h, order[0])->name, "a");   /* 50, name first */
    assert_string_equal(heap_band_at(r.h, order[1])->name, "c");   /* 50 */
    assert_string_equal(heap_band_at(r.h, order[2])->name, "b");
    free(order);

    /* the summary: those numbers, largest first, --top cuts */
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    heap_summary_opts so;
    heap_summary_opts_init(&so);
    so.top = 2;
    so.source_name = "x.eventlog";
    assert_int_equal(heap_summary_text(r.h, &so, out), 0);
    fclose(out);
    assert_non_null(strstr(text, "Heap profile of x.eventlog\n"));
    assert_non_null(strstr(text, "censuses:    4, from 0.000 s to 0.000 s"));
    assert_non_null(strstr(text, "\nband  peak bytes  peak at (s)  mean bytes  share at peak\n"
                                 "a             50        0.000          28          50.0%\n"
                                 "c             50        0.000          13          50.0%\n"
                                 "(1 more band: --top 0 shows all)\n"));
    free(text);
    run_free(&r);
    el_writer_destroy(w);
}

/* A log cut at every byte: the censuses before the cut, each whole (equal
 * to the full log's), and a census the cut falls in is dropped. */
static void check_cuts(int old)
{
    el_writer *w = new_log(old);
    static const char *const argv[] = { "p", "+RTS", "-hy", "-RTS" };
    args(w, 1, 4, argv);
    for (int i = 0; i < 4; i++)
        str_census(w, (uint64_t)(i + 1) * 100 * MS, 0, !old, 3, "Int", (uint64_t)(10 + i),
                   "[]", (uint64_t)(20 + i), "Map", (uint64_t)(30 + i));
    size_t len;
    const uint8_t *full = done(w, &len);
    run all;
    run_mem(&all, full, len, NULL);
    assert_int_equal(all.g.n, 4);
    assert_int_equal(heap_get_info(all.h)->dropped, 0);

    /* where each census start (162) and end (165) event ends */
    size_t begins[8], ends[8], nb = 0, ne = 0;
    {
        el_decoder *d = el_decoder_create();
        el_decoder_feed(d, full, len);
        el_event ev;
        while (el_decoder_next(d, &ev) == EV_OK) {
            if (ev.type == EL_HEAP_PROF_SAMPLE_BEGIN)
                begins[nb++] = (size_t)(ev.offset + ev.size);
            if (ev.type == EL_HEAP_PROF_SAMPLE_END)
                ends[ne++] = (size_t)(ev.offset + ev.size);
        }
        el_decoder_destroy(d);
    }
    assert_int_equal(nb, 4);
    assert_int_equal(ne, old ? 0 : 4);
    for (size_t cut = 0; cut < len; cut++) {
        run r;
        run_mem(&r, full, cut, NULL);
        size_t started = 0, ended = 0;
        for (size_t k = 0; k < nb; k++)
            started += begins[k] <= cut;
        for (size_t k = 0; k < ne; k++)
            ended += ends[k] <= cut;
        /* complete: closed by its 165, or (no 165) by the next 162; the
         * log has no end marker, so the last one started is never closed */
        size_t want = old ? (started ? started - 1 : 0) : ended;
        if (r.g.n != want)
            fail_msg("cut at %zu of %zu: %zu censuses, want %zu", cut, len, r.g.n, want);
        for (size_t k = 0; k < r.g.n; k++)
            assert_census_equal(&all.g.c[k], &r.g.c[k], "cut", k);
        const heap_info *in = heap_get_info(r.h);
        assert_int_equal(in->dropped, started - want);
        if (in->dropped)
            assert_int_equal(in->drop_reason, HEAP_DROP_CUT);
        run_free(&r);
    }
    run_free(&all);
    el_writer_destroy(w);
}

static void test_truncated_every_byte(void **state)
{
    (void)state;
    check_cuts(0);
    check_cuts(1);
}

/* Without 165 in the header (GHC < 8.8): a census ends at the next start
 * or at a clean end; with it, a census that never ends is dropped. */
static void test_end_events(void **state)
{
    (void)state;
    el_writer *w = new_log(1);
    str_census(w, 100, 0, 0, 1, "A", (uint64_t)1);
    str_census(w, 200, 0, 0, 1, "B", (uint64_t)2);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 2);
    assert_string_equal(band_of(&r.g.c[1], 0), "B");
    run_free(&r);
    el_writer_destroy(w);

    w = new_log(0);
    str_census(w, 100, 0, 0, 1, "A", (uint64_t)1);    /* no end event */
    str_census(w, 200, 0, 1, 1, "B", (uint64_t)2);
    str_census(w, 300, 0, 0, 1, "C", (uint64_t)3);
    el_writer_heap_sample_end(w, 350, 0);
    el_writer_heap_sample_string(w, 360, 0, 4, "D"); /* a stray sample */
    el_writer_heap_sample_end(w, 370, 0);             /* a stray end */
    str_census(w, 400, 0, 0, 1, "E", (uint64_t)5);    /* open at the end */
    log = done(w, &len);
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.g.n, 2);
    assert_string_equal(band_of(&r.g.c[0], 0), "B");
    assert_string_equal(band_of(&r.g.c[1], 0), "C");
    const heap_info *in = heap_get_info(r.h);
    assert_int_equal(in->dropped, 2);
    assert_int_equal(in->drop_reason, HEAP_DROP_NO_END);   /* the first one's */
    assert_int_equal(in->drop_time, 100);
    assert_int_equal(in->stray_samples, 2);
    assert_int_equal(in->censuses_seen, 4);
    run_free(&r);
    el_writer_destroy(w);
}

/* A damaged log (an undeclared event inside the third census): the two
 * censuses before it, nothing of the third. */
static void test_damaged(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    str_census(w, 100, 0, 1, 1, "A", (uint64_t)1);
    str_census(w, 200, 0, 1, 1, "B", (uint64_t)2);
    el_writer_heap_sample_begin(w, 300, 0);
    el_writer_heap_sample_string(w, 301, 0, 3, "C");
    static const uint8_t junk[4] = { 1, 2, 3, 4 };
    el_writer_event_unchecked(w, 0x7777, 302, junk, sizeof junk);
    el_writer_heap_sample_string(w, 303, 0, 3, "D");
    el_writer_heap_sample_end(w, 304, 0);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.r.status, EV_ERR_FORMAT);
    assert_int_equal(r.g.n, 2);
    assert_int_equal(heap_get_info(r.h)->dropped, 1);
    assert_int_equal(heap_get_info(r.h)->drop_time, 300);
    run_free(&r);
    el_writer_destroy(w);
}

/* Damage inside a block: the reader skips the rest of the block and goes
 * on at the next one. A census that lost events in the skipped bytes is
 * dropped, even when its end event comes later; the others are whole. */
static void test_damaged_block(void **state)
{
    (void)state;
    static const uint8_t junk[4] = { 1, 2, 3, 4 };
    for (int swallow_end = 0; swallow_end < 2; swallow_end++) {
        el_writer *w = new_log(0);
        el_writer_begin_block(w, EL_NO_CAP, 50);
        str_census(w, 100, 0, 1, 1, "A", (uint64_t)1);
        el_writer_heap_sample_begin(w, 200, 0);
        el_writer_heap_sample_string(w, 201, 0, 2, "B");
        el_writer_event_unchecked(w, 0x7777, 202, junk, sizeof junk);
        el_writer_heap_sample_string(w, 203, 0, 2, "lost");
        if (swallow_end) {   /* the end of this census and the start of the next */
            el_writer_heap_sample_end(w, 204, 0);
            el_writer_heap_sample_begin(w, 300, 0);
        }
        el_writer_end_block(w, 250);
        el_writer_begin_block(w, EL_NO_CAP, 260);
        el_writer_heap_sample_string(w, 301, 0, 3, "C");
        el_writer_heap_sample_end(w, 302, 0);
        str_census(w, 400, 0, 1, 1, "D", (uint64_t)4);
        el_writer_end_block(w, 500);
        size_t len;
        const uint8_t *log = done(w, &len);
        run r;
        run_mem(&r, log, len, NULL);
        assert_int_equal(r.r.status, EV_END);
        assert_int_equal(r.r.damage.blocks, 1);
        assert_int_equal(r.g.n, 2);
        assert_string_equal(band_of(&r.g.c[0], 0), "A");
        assert_string_equal(band_of(&r.g.c[1], 0), "D");
        const heap_info *in = heap_get_info(r.h);
        assert_int_equal(in->dropped, 1);
        assert_int_equal(in->drop_reason, HEAP_DROP_DAMAGED);
        assert_int_equal(in->drop_time, 200);
        run_free(&r);
        el_writer_destroy(w);
    }

    /* no 165 (GHC < 8.8), the damage in the last census after its last
     * event: only the end of the read tells */
    el_writer *w = new_log(1);
    el_writer_begin_block(w, EL_NO_CAP, 50);
    str_census(w, 100, 0, 0, 1, "A", (uint64_t)1);
    str_census(w, 200, 0, 0, 1, "B", (uint64_t)2);
    el_writer_event_unchecked(w, 0x7777, 202, junk, sizeof junk);
    el_writer_heap_sample_string(w, 203, 0, 2, "lost");
    el_writer_end_block(w, 250);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    assert_int_equal(r.r.status, EV_END);
    assert_int_equal(r.g.n, 1);
    assert_int_equal(heap_get_info(r.h)->drop_reason, HEAP_DROP_DAMAGED);
    run_free(&r);
    el_writer_destroy(w);
}

static char *write_mem(const uint8_t *log, size_t len, heap_format fmt, const heap_opts *o);

/* -hi: an address band is titled by its IPE entry for people; the .hp
 * keeps the address, as GHC's. */
static void ipe(el_writer *w, uint64_t t, uint64_t info, const char *name, const char *loc)
{
    el_payload p;
    el_payload_init(&p);
    el_payload_u64(&p, info);
    el_payload_str(&p, name);
    el_payload_str(&p, "15");
    el_payload_str(&p, "Int");
    el_payload_str(&p, "go");
    el_payload_str(&p, "Main");
    el_payload_str(&p, loc);
    assert_int_equal(el_writer_event_payload(w, EL_IPE, t, &p), EV_OK);
    el_payload_free(&p);
}

static void test_info_table(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    el_writer_heap_prof_begin(w, 1, 0, 100 * MS, HEAP_BY_INFO_TABLE, NULL);
    ipe(w, 2, 0x4a3f10, "Main.go_info", "Main.hs:12:5-20");
    ipe(w, 3, 0xabc, "sat_s1_info", "");
    str_census(w, 100, 0, 1, 3, "0x4a3f10", (uint64_t)1, "0xABC", (uint64_t)2, "0x99",
               (uint64_t)3);
    size_t len;
    const uint8_t *log = done(w, &len);
    run r;
    run_mem(&r, log, len, NULL);
    /* the band is the address, as GHC's .hp names it; its title the entry */
    assert_string_equal(band_of(&r.g.c[0], 0), "0x4a3f10");
    assert_string_equal(band_of(&r.g.c[0], 1), "0xABC");
    assert_string_equal(band_of(&r.g.c[0], 2), "0x99");
    assert_string_equal(heap_band_at(r.h, 0)->title,
                        "Main.go_info (THUNK :: Int, go, Main, Main.hs:12:5-20)");
    assert_string_equal(heap_band_at(r.h, 1)->title, "sat_s1_info (THUNK :: Int, go, Main)");
    assert_string_equal(heap_band_at(r.h, 2)->title, "0x99");
    assert_int_equal(heap_get_info(r.h)->unresolved_ipe, 1);
    /* the snapshot keeps the titles; the .hp the addresses, the CSV the titles */
    heap_profile *snap = heap_snapshot(r.h);
    assert_non_null(snap);
    assert_string_equal(heap_band_at(snap, 0)->title, heap_band_at(r.h, 0)->title);
    assert_string_equal(heap_band_at(snap, 2)->title, "0x99");
    heap_destroy(snap);
    run_free(&r);
    char *hp = write_mem(log, len, HEAP_FORMAT_HP, NULL);
    assert_non_null(strstr(hp, "\n0x4a3f10\t1\n0xABC\t2\n0x99\t3\n"));
    assert_null(strstr(hp, "go_info"));
    free(hp);
    char *csv = write_mem(log, len, HEAP_FORMAT_CSV, NULL);
    assert_non_null(strstr(csv, ",\"Main.go_info (THUNK :: Int, go, Main, Main.hs:12:5-20)\",1\n"));
    assert_non_null(strstr(csv, ",0x99,3\n"));
    free(csv);
    char *json = write_mem(log, len, HEAP_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"band\": \"sat_s1_info (THUNK :: Int, go, Main)\", "
                                 "\"address\": \"0xABC\""));
    free(json);
    el_writer_destroy(w);

    /* an entry that comes after its address's first census names it too;
     * a closure description that is not a closure type's number stays */
    w = new_log(0);
    el_writer_heap_prof_begin(w, 1, 0, 100 * MS, HEAP_BY_INFO_TABLE, NULL);
    str_census(w, 100, 0, 1, 1, "0x10", (uint64_t)1);
    el_ipe_fields late = { 0x10, "late_info", "CONSTR", "", "", "M", "" };
    assert_int_equal(el_writer_ipe(w, 150, &late, +1), EV_OK);
    str_census(w, 200, 0, 2, 1, "0x10", (uint64_t)1);
    log = done(w, &len);
    run_mem(&r, log, len, NULL);
    assert_string_equal(heap_band_at(r.h, 0)->title, "late_info (CONSTR, M)");
    assert_int_equal(heap_get_info(r.h)->unresolved_ipe, 0);
    run_free(&r);
    el_writer_destroy(w);

    /* not -hi: addresses stay as they are */
    w = new_log(0);
    el_writer_heap_prof_begin(w, 1, 0, 100 * MS, HEAP_BY_TYPE_DESCR, NULL);
    ipe(w, 2, 0x10, "t_info", "x");
    str_census(w, 100, 0, 1, 1, "0x10", (uint64_t)1);
    log = done(w, &len);
    run_mem(&r, log, len, NULL);
    assert_string_equal(band_of(&r.g.c[0], 0), "0x10");
    run_free(&r);
    el_writer_destroy(w);
}

/* ---- writers ---------------------------------------------------------- */

static char *write_mem(const uint8_t *log, size_t len, heap_format fmt, const heap_opts *o)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    heap_writer *hw = heap_writer_create(fmt, out);
    run r;
    memset(&r, 0, sizeof r);
    heap_opts def;
    heap_opts_init(&def);
    r.h = heap_create(o ? o : &def, heap_writer_census, hw);
    r.r = el_read_mem(log, len, feed, &r, NULL);
    finish_run(&r);
    assert_int_equal(heap_writer_finish(hw, r.h), 0);
    heap_writer_destroy(hw);
    heap_destroy(r.h);
    fclose(out);
    return text;
}

static void test_writers(void **state)
{
    (void)state;
    el_writer *w = new_log(0);
    static const char *const argv[] = { "./dir/prog", "a\"b", "+RTS", "-hy", "-RTS" };
    args(w, 1, 5, argv);
    el_writer_wall_clock(w, 2, 0, 1795310429, 0);
    el_writer_heap_prof_begin(w, 3, 0, 100 * MS, HEAP_BY_TYPE_DESCR, NULL);
    str_census(w, 1500000, 0, 1, 2, "Int", (uint64_t)24, "Maybe Int", (uint64_t)48);
    str_census(w, 2000000500, 0, 1, 3, "", (uint64_t)1, "\"q", (uint64_t)2, "MARK", (uint64_t)3);
    el_writer_empty(w, EL_GC_START, 3000000000ull);
    size_t len;
    const uint8_t *log = done(w, &len);

    char *hp = write_mem(log, len, HEAP_FORMAT_HP, NULL);
    const char *body = strstr(hp, "SAMPLE_UNIT");
    assert_non_null(body);
    assert_memory_equal(hp, "JOB \"prog a\"\"b +RTS -hy\"\nDATE \"", 31);
    assert_string_equal(body,
                        "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
                        "BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n"
                        "BEGIN_SAMPLE 0.001500\nInt\t24\nMaybe_Int\t48\nEND_SAMPLE 0.001500\n"
                        "BEGIN_SAMPLE 2.000001\n(empty)\t1\n_\"q\t2\nMARK_\t3\n"
                        "END_SAMPLE 2.000001\n"
                        "BEGIN_SAMPLE 3.000000\nEND_SAMPLE 3.000000\n");
    free(hp);

    /* a window: the empty samples at its start and end */
    cur_sel = test_window(1000000, 2500000000ull, -1);
    hp = write_mem(log, len, HEAP_FORMAT_HP, NULL);
    ev_select_destroy((ev_select *)cur_sel);
    cur_sel = NULL;
    assert_non_null(strstr(hp, "BEGIN_SAMPLE 0.001000\nEND_SAMPLE 0.001000\nBEGIN_SAMPLE 0.001500"));
    assert_non_null(strstr(hp, "END_SAMPLE 2.000001\nBEGIN_SAMPLE 2.500000\nEND_SAMPLE 2.500000\n"));
    free(hp);

    char *csv = write_mem(log, len, HEAP_FORMAT_CSV, NULL);
    assert_string_equal(csv, "census,time,band,bytes\n"
                             "1,0.001500000,Int,24\n"
                             "1,0.001500000,Maybe Int,48\n"
                             "2,2.000000500,,1\n"
                             "2,2.000000500,\"\"\"q\",2\n"
                             "2,2.000000500,MARK,3\n");
    free(csv);

    char *json = write_mem(log, len, HEAP_FORMAT_JSON, NULL);
    assert_non_null(strstr(json, "\"job\": \"prog a\\\"b +RTS -hy\""));
    assert_non_null(strstr(json, "\"breakdown\": \"type description\""));
    assert_non_null(strstr(json, "\"rows\": [\n{\"census\": 1, \"time\": 0.001500000, "
                                 "\"band\": \"Int\", \"bytes\": 24},\n"));
    assert_non_null(strstr(json, "{\"census\": 2, \"time\": 2.000000500, \"band\": \"\\\"q\", "
                                 "\"bytes\": 2}"));
    assert_non_null(strstr(json, "\n],\n\"censuses\": 2,\n\"dropped_censuses\": 0\n}\n"));
    free(json);
    el_writer_destroy(w);

    /* a name past hp2ps's 4999 bytes: cut with "..." */
    w = new_log(0);
    char big[6001];
    memset(big, 'x', 6000);
    big[6000] = '\0';
    str_census(w, 100, 0, 1, 1, big, (uint64_t)9);
    log = done(w, &len);
    hp = write_mem(log, len, HEAP_FORMAT_HP, NULL);
    char *line = strstr(hp, "xxx");
    assert_non_null(line);
    char *tab = strchr(line, '\t');
    assert_int_equal(tab - line, 4999);
    assert_memory_equal(tab - 3, "...", 3);
    free(hp);
    el_writer_destroy(w);
}


/* ---- snapshots ---------------------------------------------------------- */

static char *summary_of(const heap_profile *h)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    assert_non_null(m);
    assert_int_equal(heap_summary_text(h, NULL, m), 0);
    assert_int_equal(fclose(m), 0);
    return buf;
}

typedef struct snapper {
    heap_profile *h;
    uint64_t events, snaps;
} snapper;

static int snap_feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    snapper *x = ctx;
    if (heap_add_event(x->h, ev, d) != EV_OK)
        return 1;
    if (++x->events % 113 == 0) {
        heap_profile *snap = heap_snapshot(x->h);
        assert_non_null(snap);
        /* a snapshot is finished: it takes no events */
        assert_int_equal(heap_add_event(snap, ev, d), EV_ERR_FINISHED);
        heap_destroy(snap);
        x->snaps++;
    }
    return 0;
}

/* Snapshots during the read change nothing; one taken at the end of a
 * biographical log (whose censuses wait for the end) already counts
 * them, as the finished profile does; a snapshot takes no events. */
static void test_snapshots(void **state)
{
    (void)state;
    static const char *const logs[] = {
        HEAP_DATA "/leak-hc.eventlog", HEAP_DATA "/leak-hb.eventlog",
    };
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        run once;
        run_path(&once, logs[i], NULL);
        char *want = summary_of(once.h);

        snapper x = { heap_create(NULL, NULL, NULL), 0, 0 };
        assert_non_null(x.h);
        el_read_result r = el_read_path(logs[i], snap_feed, &x, NULL);
        assert_int_equal(r.status, EV_END);
        assert_true(x.snaps > 3);
        heap_profile *before_end = heap_snapshot(x.h);
        assert_int_equal(heap_get_info(before_end)->censuses, heap_get_info(once.h)->censuses);
        assert_int_equal(heap_finish(x.h, &r), EV_OK);
        char *text = summary_of(x.h);
        assert_string_equal(text, want);
        el_event ev = { 0 };
        ev.type = EL_HEAP_PROF_SAMPLE_END;
        assert_int_not_equal(heap_add_event(before_end, &ev, NULL), EV_OK);
        free(want);
        free(text);
        heap_destroy(before_end);
        heap_destroy(x.h);
        run_free(&once);
    }
}

/* heap_analysis_for: the mutator clock needs the time-ordered replay */
static void test_analysis_for(void **state)
{
    (void)state;
    heap_opts o;
    heap_opts_init(&o);
    heap_profile *h = heap_create(&o, NULL, NULL);
    assert_ptr_equal(heap_analysis_for(h), &heap_analysis_ops);
    assert_int_equal(heap_analysis_for(h)->flags & EV_ORDERED, 0);
    heap_destroy(h);
    o.clock = HEAP_CLOCK_MUTATOR;
    h = heap_create(&o, NULL, NULL);
    assert_ptr_equal(heap_analysis_for(h), &heap_analysis_ordered_ops);
    assert_true(heap_analysis_for(h)->flags & EV_ORDERED);
    heap_destroy(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_ghc_9_0_2),
        cmocka_unit_test(test_own_ghc_runs),
        cmocka_unit_test(test_ghc_9_6_runs),
        cmocka_unit_test(test_ghc_9_10_runs),
        cmocka_unit_test(test_own_long_bands),
        cmocka_unit_test(test_corpus_references),
        cmocka_unit_test(test_stop_hT),
        cmocka_unit_test(test_ccs_names),
        cmocka_unit_test(test_length_from_log),
        cmocka_unit_test(test_collision_merged),
        cmocka_unit_test(test_bio_order_and_window),
        cmocka_unit_test(test_aggregates),
        cmocka_unit_test(test_truncated_every_byte),
        cmocka_unit_test(test_end_events),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_damaged_block),
        cmocka_unit_test(test_info_table),
        cmocka_unit_test(test_writers),
        cmocka_unit_test(test_snapshots),
        cmocka_unit_test(test_ccs_names_repeated),
        cmocka_unit_test(test_analysis_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
