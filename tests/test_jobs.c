/* The parallel read (-j N, driver/parallel.c): every result, output and
 * stream fact of a run on N threads equals the one-thread run's, byte for
 * byte: on the real logs of tests/data, on synthetic logs that put
 * cost-centre definitions, PROF_BEGIN, program arguments and cut stacks
 * in any block of several capabilities, with filters, beside a
 * non-mergeable or an ordered analysis (which make the read sequential),
 * and on damaged logs (which must fall back to the sequential read with
 * its exact messages). The test hook chunk_bytes = 1 (driver/internal.h)
 * splits a log at every block boundary, so that even small logs are merged
 * from many partials. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "driver/internal.h"
#include "evprof/driver.h"
#include "evprof/prof.h"
#include "evprof/writer.h"

/* ---- a non-mergeable analysis: the event sequence it saw ------------- */

typedef struct seq_rec {
    uint64_t n, hash;
} seq_rec;

static int seq_event(void *self, const el_event *ev, const ev_stream *s)
{
    seq_rec *r = self;
    (void)s;
    uint64_t v[4] = { ev->type, ev->time, ev->offset, ev->cap };
    for (int i = 0; i < 4; i++)
        r->hash = (r->hash ^ v[i]) * 0x100000001b3ull;
    r->n++;
    return 0;
}

static const ev_analysis_ops seq_ops = {
    .name = "sequence",
    .event = seq_event,
};
static const uint16_t msg_types[] = { EL_USER_MSG, EL_PROF_SAMPLE_COST_CENTRE };
static const ev_analysis_ops seq_ordered_ops = {
    .name = "ordered sequence",
    .types = msg_types,
    .num_types = 2,
    .flags = EV_ORDERED,
    .event = seq_event,
};

/* ---- a mergeable analysis that stops the read after `limit` events ---- */

typedef struct stopper {
    uint64_t limit, n;
} stopper;

static int stop_event(void *self, const el_event *ev, const ev_stream *s)
{
    stopper *k = self;
    (void)ev;
    (void)s;
    return ++k->n >= k->limit;
}
static void *stop_fork(void *self)
{
    stopper *k = calloc(1, sizeof *k);
    if (k)
        k->limit = ((stopper *)self)->limit;
    return k;
}
/* The limit is on the whole read: a merge that reaches it fails, and the
 * driver then reads sequentially (which stops where one thread stops). */
static int stop_merge(void *self, void *part)
{
    stopper *k = self;
    k->n += ((stopper *)part)->n;
    return k->n >= k->limit;
}
static void stop_drop(void *part) { free(part); }
static const ev_analysis_ops stop_ops = {
    .name = "stopper",
    .types = msg_types,
    .num_types = 2,
    .event = stop_event,
    .fork = stop_fork,
    .merge = stop_merge,
    .drop = stop_drop,
};

/* ---- a mergeable analysis that only asks for the stream's tally ------- */

static int none_event(void *self, const el_event *ev, const ev_stream *s)
{
    (void)self;
    (void)ev;
    (void)s;
    return 0;
}
static void *none_fork(void *self) { return self; }
static int none_merge(void *self, void *part)
{
    (void)self;
    (void)part;
    return 0;
}
static void none_drop(void *part) { (void)part; }
static const uint16_t cap_types[] = { EL_CAP_CREATE };
static const ev_analysis_ops counts_ops = {
    .name = "counts",
    .types = cap_types,
    .num_types = 1,
    .flags = EV_COUNTS,
    .event = none_event,
    .fork = none_fork,
    .merge = none_merge,
    .drop = none_drop,
};

/* ---- one run ------------------------------------------------------------ */

typedef struct run_out {
    ev_stream s;
    char msg[sizeof(ev_error){ 0 }.msg], dmsg[sizeof(ev_error){ 0 }.msg];
    prof_result *r;
    char *text, *json, *folded;
    size_t text_len, json_len, folded_len;
    seq_rec seq;
    uint64_t tally_events, tally_hash;  /* of s.tally, every type */
    int failed;
} run_out;

enum { WITH_SEQ = 1, WITH_ORDERED = 2, WITH_STOP = 4 };

static char *write_out(const prof_result *r, int what, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    prof_report_opts ro;
    prof_report_opts_init(&ro);
    ro.source_name = "x.eventlog";
    int rc = what == 0 ? prof_report_text(r, &ro, f)
           : what == 1 ? prof_report_json(r, &ro, f)
                       : prof_report_folded(r, NULL, f);
    assert_int_equal(rc, 0);
    fclose(f);
    return buf;
}

/* The selection of the runs (the driver's selection stage). */
static const ev_select *cur_sel;

static run_out run(const char *path, unsigned jobs, uint64_t chunk, const prof_filter *f,
                   int with)
{
    run_out o;
    ev_driver_opts opts;
    memset(&o, 0, sizeof o);
    ev_driver_opts_init(&opts);
    opts.jobs = jobs;
    opts.select = cur_sel;
    ev_driver *d = ev_driver_create(&opts);
    ev_driver_test_hooks hooks = { .chunk_bytes = chunk };
    ev_driver_set_test_hooks(d, &hooks);
    prof_profile *p = prof_create(f);
    stopper stop = { 40, 0 };
    assert_non_null(d);
    assert_non_null(p);
    assert_int_equal(ev_driver_attach(d, &prof_analysis_ops, p), 0);
    assert_int_equal(ev_driver_attach(d, &counts_ops, &o), 0);
    if (with & WITH_SEQ)
        assert_int_equal(ev_driver_attach(d, &seq_ops, &o.seq), 0);
    if (with & WITH_ORDERED)
        assert_int_equal(ev_driver_attach(d, &seq_ordered_ops, &o.seq), 0);
    if (with & WITH_STOP)
        assert_int_equal(ev_driver_attach(d, &stop_ops, &stop), 0);
    const ev_stream *s = ev_driver_run_path(d, path);
    o.s = *s;
    if (s->tally) {
        for (size_t i = 0; i < el_decoder_num_types(s->decoder); i++) {
            uint64_t v[4] = { el_decoder_type_at(s->decoder, i)->id, s->tally[i].events,
                              s->tally[i].bytes, s->tally[i].declared_off };
            for (int k = 0; k < 4; k++)
                o.tally_hash = (o.tally_hash ^ v[k]) * 0x100000001b3ull;
            o.tally_events += s->tally[i].events;
        }
    }
    o.s.tally = NULL;   /* the driver's, gone below */
    snprintf(o.msg, sizeof o.msg, "%s", s->read.error.msg);
    snprintf(o.dmsg, sizeof o.dmsg, "%s", s->read.damage.first.msg);
    o.r = prof_snapshot(p);
    o.failed = prof_status(p) != EV_OK;
    if (o.r) {
        o.text = write_out(o.r, 0, &o.text_len);
        o.json = write_out(o.r, 1, &o.json_len);
        o.folded = write_out(o.r, 2, &o.folded_len);
    }
    prof_destroy(p);
    ev_driver_destroy(d);
    return o;
}

static void run_free(run_out *o)
{
    prof_result_destroy(o->r);
    free(o->text);
    free(o->json);
    free(o->folded);
}

static void same_str(const char *a, const char *b, const char *what, const char *ctx)
{
    if (strcmp(a ? a : "", b ? b : "") != 0)
        fail_msg("%s: %s differs: '%s' vs '%s'", ctx, what, a ? a : "", b ? b : "");
}

#define SAME(field)                                                                          \
    do {                                                                                     \
        if ((a->field) != (b->field))                                                        \
            fail_msg("%s: %s differs: %llu vs %llu", ctx, #field,                            \
                     (unsigned long long)(a->field), (unsigned long long)(b->field));         \
    } while (0)

/* Everything a command could print from the two runs. */
static void same_run(const run_out *a, const run_out *b, const char *ctx)
{
    SAME(s.read.status);
    SAME(s.read.error.status);
    SAME(s.read.error.offset);
    SAME(s.read.error.type);
    same_str(a->msg, b->msg, "error message", ctx);
    SAME(s.read.missing_end);
    SAME(s.read.bytes);
    SAME(s.read.events);
    SAME(s.read.damage.blocks);
    SAME(s.read.damage.bytes);
    SAME(s.read.damage.from_time);
    SAME(s.read.damage.to_time);
    SAME(s.read.damage.first.offset);
    same_str(a->dmsg, b->dmsg, "damage message", ctx);
    SAME(s.read.has_time_span);
    SAME(s.read.first_time);
    SAME(s.read.last_time);
    SAME(s.last_time);
    SAME(s.total_bytes);
    SAME(s.stopped);
    same_str(a->s.stopped_by, b->s.stopped_by, "stopped by", ctx);
    SAME(seq.n);
    SAME(seq.hash);
    SAME(tally_events);
    SAME(tally_hash);
    SAME(failed);
    assert_true((a->r == NULL) == (b->r == NULL));
    if (!a->r)
        return;
    SAME(text_len);
    SAME(json_len);
    SAME(folded_len);
    if (memcmp(a->text, b->text, a->text_len) != 0)
        fail_msg("%s: report text differs", ctx);
    if (memcmp(a->json, b->json, a->json_len) != 0)
        fail_msg("%s: -pj JSON differs", ctx);
    if (memcmp(a->folded, b->folded, a->folded_len) != 0)
        fail_msg("%s: folded stacks differ", ctx);
    /* the tree itself: node order is first appearance in the log */
    assert_int_equal(prof_num_nodes(a->r), prof_num_nodes(b->r));
    for (uint32_t i = 0; i < prof_num_nodes(a->r); i++) {
        const prof_node *x = prof_node_at(a->r, i), *y = prof_node_at(b->r, i);
        if (x->cc != y->cc || x->parent != y->parent || x->first_child != y->first_child ||
            x->next_sibling != y->next_sibling || x->ticks != y->ticks ||
            x->inherited != y->inherited || x->depth != y->depth)
            fail_msg("%s: node %u differs", ctx, i);
    }
    assert_int_equal(prof_num_ccs(a->r), prof_num_ccs(b->r));
    for (uint32_t i = 0; i < prof_num_ccs(a->r); i++) {
        const prof_cc *x = prof_cc_at(a->r, i), *y = prof_cc_at(b->r, i);
        if (x->id != y->id || strcmp(x->label, y->label) || strcmp(x->module, y->module) ||
            strcmp(x->srcloc, y->srcloc) || x->is_caf != y->is_caf ||
            x->builtin != y->builtin || x->defined != y->defined ||
            x->synthetic != y->synthetic)
            fail_msg("%s: cost centre %u differs", ctx, i);
    }
    const prof_info *x = prof_get_info(a->r), *y = prof_get_info(b->r);
    if (x->total_ticks != y->total_ticks || x->all_samples != y->all_samples ||
        x->ignored_ticks != y->ignored_ticks || x->filtered_ticks != y->filtered_ticks ||
        x->interval_ns != y->interval_ns || x->capabilities != y->capabilities ||
        x->undefined_ccs != y->undefined_ccs || x->cut_samples != y->cut_samples ||
        x->first_time != y->first_time || x->last_time != y->last_time ||
        x->has_wall_clock != y->has_wall_clock || x->wall_sec != y->wall_sec ||
        x->wall_nsec != y->wall_nsec || x->wall_time_ns != y->wall_time_ns ||
        x->argc != y->argc || x->num_args != y->num_args ||
        x->num_rts_args != y->num_rts_args || x->span_sum_ns != y->span_sum_ns)
        fail_msg("%s: facts differ", ctx);
    same_str(x->program, y->program, "program", ctx);
    same_str(x->rts_version, y->rts_version, "rts version", ctx);
    for (uint32_t i = 0; i < x->argc; i++)
        same_str(x->argv[i], y->argv[i], "argv", ctx);
}

/* Runs the log at -j 1 and at 2..8 threads, with ranges of the natural
 * size and of one block; every run must equal the first. Returns the most
 * ranges any run was merged from. */
static unsigned check_log(const char *path, const prof_filter *f, int with)
{
    static const uint64_t chunks[] = { 0, 1, 3000 };
    run_out one = run(path, 1, 0, f, with);
    unsigned most = 0;
    assert_int_equal(one.s.parallel_ranges, 0);
    /* the stream's tally counts every event, asked for or not */
    if ((with & (WITH_SEQ | WITH_ORDERED)) == WITH_SEQ && !one.s.stopped &&
        one.tally_events != one.seq.n)
        fail_msg("%s: the tally counts %llu events, %llu were read", path,
                 (unsigned long long)one.tally_events, (unsigned long long)one.seq.n);
    for (unsigned j = 2; j <= 8; j++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            char ctx[600];
            snprintf(ctx, sizeof ctx, "%s -j %u chunk %llu", path, j,
                     (unsigned long long)chunks[c]);
            run_out par = run(path, j, chunks[c], f, with);
            same_run(&one, &par, ctx);
            if (par.s.parallel_ranges > most)
                most = par.s.parallel_ranges;
            run_free(&par);
        }
    run_free(&one);
    return most;
}

/* ---- real logs ---------------------------------------------------------- */

static const char *const real_logs[] = {
    "tests/data/ghc/chain-p.eventlog",   "tests/data/ghc/chain-pj.eventlog",
    "tests/data/ghc/deep-p.eventlog",    "tests/data/ghc/deep-pj.eventlog",
    "tests/data/ghc/mutual-p.eventlog",  "tests/data/ghc/mutual-pj.eventlog",
    "tests/data/ghc/odd-p.eventlog",     "tests/data/ghc/odd-pj.eventlog",
    "tests/data/ghc/par-N2-p.eventlog",  "tests/data/ghc/par-N2-pj.eventlog",
    "tests/data/ghc-9.0.2/nfib-p.eventlog", "tests/data/ghc-9.0.2/nfib-pj.eventlog",
    "tests/data/ghc-9.0.2/nfib-N2.eventlog",
    /* GHC 9.6: IPE records read by their strings, in every range */
    "tests/data/ghc-9.6/parse-hi.eventlog", "tests/data/ghc-9.6/workers-N2-pj.eventlog",
};

static void test_real_logs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof real_logs / sizeof real_logs[0]; i++) {
        unsigned most = check_log(real_logs[i], NULL, 0);
        /* each of them has more than one block: the merge was exercised */
        if (most < 2)
            fail_msg("%s: never read in parallel", real_logs[i]);
        /* an analysis that does not merge: the sequential read, the same */
        if (check_log(real_logs[i], NULL, WITH_SEQ) != 0)
            fail_msg("%s: read in parallel beside an analysis that does not merge",
                     real_logs[i]);
    }
}

static void test_real_logs_filtered(void **state)
{
    (void)state;
    prof_filter f;
    prof_filter_init(&f);
    ev_select *sel = ev_select_create(NULL, 0, 1);     /* capability 1 */
    cur_sel = sel;
    assert_true(check_log("tests/data/ghc-9.0.2/nfib-N2.eventlog", &f, 0) >= 2);
    cur_sel = NULL;
    ev_select_destroy(sel);
    prof_filter_init(&f);
    f.all = 1;
    f.focus = "fib";
    f.ignore = "main";
    assert_true(check_log("tests/data/ghc/par-N2-pj.eventlog", &f, 0) >= 2);
}

/* ---- synthetic logs ------------------------------------------------------ */

static uint64_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

enum damage_kind {
    CLEAN, CORRUPT_RECORD, TRUNCATED, NO_END, AFTER_END, OUTSIDE_BLOCK, CORRUPT_LAST,
};

static void define(el_writer *w, uint64_t t, uint32_t id, int variant)
{
    char label[32], module[32];
    /* a few cost centres share label and module: ties broken by id */
    snprintf(label, sizeof label, "f%u%s", id % 7, variant ? "'" : "");
    snprintf(module, sizeof module, "M%u", id % 3);
    el_writer_cost_centre(w, t, id, label, module, "src/M.hs:1:1", (uint8_t)(id % 5 == 0));
}

/* Blocks of three capabilities with samples whose stacks wander (push,
 * pop, jump), definitions of cost centres before and after their first
 * samples and in any block (some twice, some never), cut stacks first met
 * late, PROF_BEGIN, program arguments (three times, the last empty), RTS
 * identifier and wall
 * clock in later blocks. Written to a temporary file. */
static char *synth(uint64_t seed, enum damage_kind dmg)
{
    el_writer *w = el_writer_create_mem();
    uint32_t stack[3][EL_MAX_STACK];
    unsigned depth[3] = { 0, 0, 0 };
    uint64_t t = 1000;
    rnd_state = seed;

    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    for (unsigned b = 0; b < 48; b++) {
        uint16_t cap = (uint16_t)(b % 3);
        if (dmg == OUTSIDE_BLOCK && b == 30)
            el_writer_user_msg(w, t, "between blocks");
        el_writer_begin_block(w, cap, t);
        if (b % 3 == 0 && b < 9)
            el_writer_cap_create(w, t, cap);
        if (b == 7)
            el_writer_prof_begin(w, t, 20000000);
        if (b == 11) {
            const char *argv[] = { "/usr/bin/prog", "a", "+RTS", "-p", "-RTS", "b" };
            el_writer_program_args(w, t, 0, 6, argv);
        }
        if (b == 40) {
            const char *argv[] = { "/opt/other", "c" };
            el_writer_program_args(w, t, 0, 2, argv);
            el_writer_rts_identifier(w, t, 0, "GHC-9.0.2 rts_thr_p");
        }
        if (b == 44)   /* no words: the program's name stays the last one given */
            el_writer_program_args(w, t, 0, 0, NULL);
        if (b == 13)
            el_writer_wall_clock(w, t, 0, 1700000000, 5);
        if (b == 35)
            el_writer_wall_clock(w, t, 0, 1800000000, 7);
        if (b == 20)
            el_writer_prof_begin(w, t, 10000000);
        unsigned n = 5 + rnd(30);
        for (unsigned k = 0; k < n; k++) {
            t += 1 + rnd(50);
            /* definitions of ids 1..24 in any block; 25..29 never */
            if (rnd(6) == 0) {
                uint32_t id = 1 + rnd(24);
                define(w, t, id, b > 30);
                continue;
            }
            unsigned *dp = &depth[cap];
            uint32_t *st = stack[cap];
            switch (rnd(6)) {
            case 0:
                if (*dp > 0)
                    (*dp)--;
                break;
            case 1:
            case 2:
                if (*dp < 20)
                    st[(*dp)++] = 1 + rnd(29);
                break;
            case 3:
                *dp = rnd(4);
                for (unsigned i = 0; i < *dp; i++)
                    st[i] = 1 + rnd(29);
                break;
            default:
                break;
            }
            if (b > 25 && rnd(40) == 0) {
                /* a cut stack (255 frames), first met late in the log */
                uint32_t cut[EL_MAX_STACK];
                for (unsigned i = 0; i < EL_MAX_STACK; i++)
                    cut[i] = 1 + (i + b) % 5;
                el_writer_prof_sample(w, t, cap, 1, EL_MAX_STACK, cut);
                continue;
            }
            /* the stack as GHC writes it: innermost first */
            uint32_t inner[32];
            for (unsigned i = 0; i < *dp; i++)
                inner[i] = st[*dp - 1 - i];
            el_writer_prof_sample(w, t, cap, 1, (uint8_t)*dp, inner);
        }
        if (dmg == CORRUPT_RECORD && b == 22) {
            /* a 167 whose depth runs past its payload */
            uint8_t junk[13] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 200 };
            el_writer_event_unchecked(w, EL_PROF_SAMPLE_COST_CENTRE, t, junk, sizeof junk);
        }
        if (dmg == CORRUPT_LAST && b == 47) {
            uint8_t junk[13] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 200 };
            el_writer_event_unchecked(w, EL_PROF_SAMPLE_COST_CENTRE, t, junk, sizeof junk);
        }
        el_writer_end_block(w, t);
    }
    if (dmg == NO_END)
        assert_int_equal(el_writer_finish_no_end(w), EV_OK);
    else
        assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    char *path = strdup("/tmp/evprof-test-jobs-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t keep = dmg == TRUNCATED ? len * 3 / 5 : len;
    assert_int_equal(write(fd, bytes, keep), (ssize_t)keep);
    if (dmg == AFTER_END)
        assert_int_equal(write(fd, "\0\0\0\0", 4), 4);
    close(fd);
    el_writer_destroy(w);
    return path;
}

static void test_synthetic(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        char *path = synth(seed * 0x9e3779b97f4a7c15ull, CLEAN);
        if (check_log(path, NULL, 0) < 40)
            fail_msg("seed %llu: not split at every block", (unsigned long long)seed);
        check_log(path, NULL, WITH_SEQ);
        prof_filter f;
        prof_filter_init(&f);
        ev_span one = { 5000, 30000 };
        ev_select *sel = ev_select_create(&one, 1, 2);
        cur_sel = sel;
        check_log(path, &f, 0);
        ev_select_destroy(sel);
        ev_span spans[2] = { { 2000, 9000 }, { 15000, 40000 } };
        sel = ev_select_create(spans, 2, -1);
        cur_sel = sel;
        prof_filter_init(&f);
        f.all = 1;
        check_log(path, &f, 0);
        cur_sel = NULL;
        ev_select_destroy(sel);
        unlink(path);
        free(path);
    }
}

/* An EV_ORDERED analysis (and one that does not merge) beside the
 * mergeable one: the read is sequential at every -j, with the same
 * results. */
static void test_ordered(void **state)
{
    (void)state;
    char *path = synth(77, CLEAN);
    assert_int_equal(check_log(path, NULL, WITH_ORDERED), 0);
    assert_int_equal(check_log(path, NULL, WITH_ORDERED | WITH_SEQ), 0);
    unlink(path);
    free(path);
}

/* Irregular logs: the parallel attempt is dropped, the read is the
 * sequential one, messages and offsets included. */
static void test_damaged(void **state)
{
    (void)state;
    static const enum damage_kind kinds[] = {
        CORRUPT_RECORD, TRUNCATED, NO_END, AFTER_END, OUTSIDE_BLOCK, CORRUPT_LAST,
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char *path = synth(1234 + k, kinds[k]);
        for (int with = 0; with <= WITH_SEQ; with += WITH_SEQ) {
            unsigned most = check_log(path, NULL, with);
            if (most != 0)
                fail_msg("damage kind %d: merged from %u ranges", (int)kinds[k], most);
        }
        unlink(path);
        free(path);
    }
}

/* A mergeable analysis that stops the read: the attempt is dropped and the
 * read stops where one thread stops. */
static void test_stop(void **state)
{
    (void)state;
    char *path = synth(99, CLEAN);
    check_log(path, NULL, WITH_STOP);
    unlink(path);
    free(path);
}

/* Standard input and memory are read sequentially (nothing to index). */
static void test_not_a_file(void **state)
{
    (void)state;
    char *path = synth(5, CLEAN);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.jobs = 4;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_mem(d, buf, len);
    assert_int_equal(s->read.status, EV_END);
    assert_int_equal(s->parallel_ranges, 0);
    prof_destroy(p);
    ev_driver_destroy(d);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_logs),
        cmocka_unit_test(test_real_logs_filtered),
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_ordered),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_not_a_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
