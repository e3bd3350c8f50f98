/* Decoder tests over the real corpus: chunked feeding at every split
 * point, truncation at every byte, and corrupted inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/eventlog.h"
#include "evprof/writer.h"

static const char *const corpus_logs[] = {
    CORPUS_DIR "/ghc-events/biographical-samples.eventlog",
    CORPUS_DIR "/ghc-events/ghc-9.2-events.eventlog",
    CORPUS_DIR "/ghc-events/hello-ghc-8.2.2.eventlog",
    CORPUS_DIR "/ghc-events/hello-ghc-8.6.5.eventlog",
    CORPUS_DIR "/ghc-events/nonmoving-gc-census-T23340.eventlog",
    CORPUS_DIR "/ghc-events/nonmoving-gc-census.eventlog",
    CORPUS_DIR "/ghc-events/nonmoving-gc-pruned-segments.eventlog",
    CORPUS_DIR "/ghc-events/nonmoving-gc.eventlog",
    CORPUS_DIR "/ghc-events/parallelTest.eventlog",
    CORPUS_DIR "/ghc-events/sleep.h.eventlog",
    CORPUS_DIR "/ghc-events/sleep.hC.eventlog",
    CORPUS_DIR "/ghc-events/sleep.hd.eventlog",
    CORPUS_DIR "/ghc-events/sleep.hm.eventlog",
    CORPUS_DIR "/ghc-events/sleep.hy.eventlog",
    CORPUS_DIR "/ghc-events/stop.hT.eventlog",
    CORPUS_DIR "/ghc-events/testlog.eventlog",
    CORPUS_DIR "/ghc-events/ticky-begin-sample.eventlog",
    CORPUS_DIR "/ghc-events/ticky-json.eventlog",
    CORPUS_DIR "/ghc-events/ticky-new.eventlog",
    CORPUS_DIR "/ghc-events/ticky-ticky.eventlog",
    CORPUS_DIR "/ghc-events/time-prof.eventlog",
    CORPUS_DIR "/ghc-events/trace-binary-event.eventlog",
    CORPUS_DIR "/ghc-events/trace-binary-nonutf.eventlog",
    CORPUS_DIR "/ghc-events/unicode.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-N2.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-hc.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-hy.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-np-N2-s.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-p.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-pj.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-s.eventlog",
    /* GHC 9.6.6: IPE events declared one byte longer than written */
    CORPUS_DIR "/ghc-9.6/parse-hi.eventlog",
    CORPUS_DIR "/ghc-9.6/parse-hT.eventlog",
    CORPUS_DIR "/ghc-9.6/collatz-lT.eventlog",
    CORPUS_DIR "/ghc-9.6/workers-N2-s.eventlog",
    /* GHC 9.10.3: IPE as on 9.6; the era profile (breakdown 9); 207 with
     * the u16 block size (14 bytes) and 208 */
    CORPUS_DIR "/ghc-9.10/parse-hi.eventlog",
    CORPUS_DIR "/ghc-9.10/parse-he.eventlog",
    CORPUS_DIR "/ghc-9.10/collatz-lT.eventlog",
    CORPUS_DIR "/ghc-9.10/workers-nonmoving-N2-s.eventlog",
};

static uint8_t *load(const char *path, size_t *len)
{
    uint8_t *buf = test_read_file(path, len);
    if (!buf)
        fail_msg("cannot read %s (tests run from the project root)", path);
    return buf;
}

static void assert_same_events(const test_run *a, const test_run *b, const char *what)
{
    if (a->n != b->n)
        fail_msg("%s: %zu events vs %zu", what, a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        const test_ev *x = &a->ev[i], *y = &b->ev[i];
        if (x->type != y->type || x->cap != y->cap || x->time != y->time ||
            x->offset != y->offset || x->size != y->size || x->digest != y->digest ||
            x->decoded != y->decoded)
            fail_msg("%s: event %zu differs (type %u/%u offset %llu/%llu)", what, i,
                     x->type, y->type, (unsigned long long)x->offset,
                     (unsigned long long)y->offset);
    }
}

/* Every corpus log decodes to its end marker, every event is understood,
 * and the records tile the data section with no gap. */
static void test_corpus_decodes_whole(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof corpus_logs / sizeof corpus_logs[0]; i++) {
        size_t len;
        if (test_skip_missing(corpus_logs[i]))
            continue;
        uint8_t *buf = load(corpus_logs[i], &len);
        test_run r;
        test_decode(buf, len, 0, 0, &r);
        if (r.status != EV_END)
            fail_msg("%s: status %s (%s)", corpus_logs[i], ev_status_name(r.status), r.error.msg);
        assert_true(r.n > 0);
        for (size_t k = 0; k + 1 < r.n; k++) {
            assert_int_equal(r.ev[k].offset + r.ev[k].size, r.ev[k + 1].offset);
            if (!r.ev[k].decoded)
                fail_msg("%s: event type %u at %llu not decoded", corpus_logs[i],
                         r.ev[k].type, (unsigned long long)r.ev[k].offset);
        }
        /* the last event is followed by exactly the 2-byte end marker */
        assert_int_equal(r.ev[r.n - 1].offset + r.ev[r.n - 1].size + 2, len);
        test_run_free(&r);
        free(buf);
    }
}

/* Feeding in chunks of any size gives the same events as one chunk. */
static void test_corpus_chunk_sizes(void **state)
{
    static const size_t sizes[] = { 1, 2, 3, 7, 13, 64, 1000, 4096, 65536 };
    (void)state;
    for (size_t i = 0; i < sizeof corpus_logs / sizeof corpus_logs[0]; i++) {
        size_t len;
        if (test_skip_missing(corpus_logs[i]))
            continue;
        uint8_t *buf = load(corpus_logs[i], &len);
        test_run whole;
        test_decode(buf, len, 0, 0, &whole);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            if (sizes[s] == 1 && len > 200000)
                continue;   /* byte-at-a-time over 2 MB is covered by the small logs */
            test_run r;
            test_decode(buf, len, sizes[s], 0, &r);
            assert_int_equal(r.status, EV_END);
            assert_same_events(&whole, &r, corpus_logs[i]);
            test_run_free(&r);
        }
        test_run_free(&whole);
        free(buf);
    }
}

/* Two chunks, split at every byte of a small log (header included). */
static void test_split_every_point(void **state)
{
    static const char *const logs[] = {
        CORPUS_DIR "/ghc-events/trace-binary-event.eventlog",
        CORPUS_DIR "/ghc-events/ticky-ticky.eventlog",
    };
    (void)state;
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        size_t len;
        uint8_t *buf = load(logs[i], &len);
        test_run whole;
        test_decode(buf, len, 0, 0, &whole);
        for (size_t split = 0; split <= len; split++) {
            test_run r;
            test_decode(buf, len, SIZE_MAX, split, &r);
            assert_int_equal(r.status, EV_END);
            assert_same_events(&whole, &r, logs[i]);
            test_run_free(&r);
        }
        test_run_free(&whole);
        free(buf);
    }
}

/* A log cut at every byte yields exactly the events that end before the
 * cut, then TRUNCATED naming where the cut record starts, or a clean end
 * without marker when the cut falls between records. */
static void test_truncate_every_byte(void **state)
{
    size_t len;
    uint8_t *buf = load(CORPUS_DIR "/ghc-events/ticky-ticky.eventlog", &len);
    test_run whole;
    (void)state;
    test_decode(buf, len, 0, 0, &whole);
    assert_int_equal(whole.status, EV_END);
    uint64_t data_start = whole.ev[0].offset;

    for (size_t cut = 0; cut < len; cut++) {
        for (int chunked = 0; chunked < 2; chunked++) {
            test_run r;
            test_decode(buf, cut, chunked ? 5 : 0, 0, &r);
            size_t expect = 0;
            int boundary = cut == data_start;
            for (size_t k = 0; k < whole.n; k++) {
                uint64_t end = whole.ev[k].offset + whole.ev[k].size;
                if (end <= cut)
                    expect++;
                if (end == cut)
                    boundary = 1;
            }
            if (r.n != expect)
                fail_msg("cut %zu: %zu events, expected %zu", cut, r.n, expect);
            if (cut >= data_start && boundary) {
                assert_int_equal(r.status, EV_OK);
                assert_true(r.missing_end);
            } else {
                assert_int_equal(r.status, EV_ERR_TRUNCATED);
                assert_false(r.missing_end);
                assert_non_null(strstr(r.error.msg, "truncated at byte"));
                if (cut >= data_start) {
                    /* names the start of the record that was cut */
                    uint64_t start = expect ? whole.ev[expect - 1].offset +
                                              whole.ev[expect - 1].size : data_start;
                    assert_int_equal(r.error.offset, start);
                    if (cut - start >= 2)
                        assert_int_equal(r.error.type, whole.ev[expect].type);
                }
            }
            test_run_free(&r);
        }
    }
    test_run_free(&whole);
    free(buf);
}

/* testlog-part.eventlog is a real log cut off mid-event. */
static void test_real_truncated_log(void **state)
{
    size_t len, full_len;
    uint8_t *part = load(CORPUS_DIR "/ghc-events/testlog-part.eventlog", &len);
    uint8_t *full = load(CORPUS_DIR "/ghc-events/testlog.eventlog", &full_len);
    test_run r, whole;
    (void)state;
    test_decode(part, len, 4096, 0, &r);
    test_decode(full, full_len, 0, 0, &whole);
    assert_int_equal(r.status, EV_ERR_TRUNCATED);
    assert_int_equal(len, 10240);
    assert_non_null(strstr(r.error.msg, "truncated at byte 10240"));
    /* The part is a prefix of the full log: its events are the full log's
     * events that end before byte 10240. */
    size_t expect = 0;
    while (expect < whole.n && whole.ev[expect].offset + whole.ev[expect].size <= len)
        expect++;
    assert_true(expect > 700);
    if (memcmp(part, full, len) == 0) {
        assert_int_equal(r.n, expect);
    } else {
        /* not a byte prefix: still every event up to the cut */
        assert_true(r.n > 700);
    }
    assert_int_equal(r.error.offset, r.ev[r.n - 1].offset + r.ev[r.n - 1].size);
    test_run_free(&r);
    test_run_free(&whole);
    free(part);
    free(full);
}

/* ---- corrupted inputs ----------------------------------------------- */

/* A tiny byte builder for hand-made logs. */
typedef struct bb {
    uint8_t b[4096];
    size_t n;
} bb;

static void u8(bb *b, uint8_t v) { b->b[b->n++] = v; }
static void u16(bb *b, uint16_t v) { u8(b, (uint8_t)(v >> 8)); u8(b, (uint8_t)v); }
static void u32(bb *b, uint32_t v) { u16(b, (uint16_t)(v >> 16)); u16(b, (uint16_t)v); }
static void u64(bb *b, uint64_t v) { u32(b, (uint32_t)(v >> 32)); u32(b, (uint32_t)v); }
static void bytes(bb *b, const void *p, size_t n) { memcpy(b->b + b->n, p, n); b->n += n; }

static void et(bb *b, uint16_t id, uint16_t size, const char *desc)
{
    u32(b, 0x65746200);
    u16(b, id);
    u16(b, size);
    u32(b, (uint32_t)strlen(desc));
    bytes(b, desc, strlen(desc));
    u32(b, 0);
    u32(b, 0x65746500);
}

/* Header declaring 161 and 167 variable, 168 with `prof_begin_size`. */
static void header(bb *b, uint16_t prof_begin_size)
{
    b->n = 0;
    u32(b, 0x68647262);
    u32(b, 0x68657462);
    et(b, 161, 0xffff, "Cost center definition");
    et(b, 167, 0xffff, "Time profile cost-centre stack");
    et(b, 168, prof_begin_size, "Start of a time profile");
    et(b, 18, 14, "Block marker");
    u32(b, 0x68657465);
    u32(b, 0x68647265);
    u32(b, 0x64617462);
}

static test_run decode_bb(const bb *b)
{
    test_run r;
    test_decode(b->b, b->n, 0, 0, &r);
    return r;
}

static void test_bad_magic(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    b.b[0] = 'X';
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.n, 0);
    assert_int_equal(r.error.offset, 0);
    assert_non_null(strstr(r.error.msg, "bad magic"));
    test_run_free(&r);
}

/* GHC's other outputs, by their first lines as GHC 9.0.2 and 9.10.3 wrote
 * them (+RTS -S and -t --machine-readable are in no file of tests/data;
 * the others are, and tests/cli/not_eventlog.sh reads them whole) */
static void test_not_eventlog(void **state)
{
    (void)state;
    static const struct { const char *text; el_file_kind kind; const char *says; } cases[] = {
        { "\tWed Dec  2 03:17 2026 Time and Allocation Profiling Report  (Final)\n\n"
          "\t   p +RTS -p -RTS\n\n\ttotal time  =        0.10 secs\n",
          EL_FILE_PROF, "run the program with +RTS -p -l and give evprof the eventlog it "
          "writes, p.eventlog" },
        { "{\n\"program\": \"p\",\n\"arguments\": [\"./p\"],\n\"rts_arguments\": [\"-pj\", "
          "\"-olx.log\", \"-l\"],\n\"total_ticks\": 148,\n",
          EL_FILE_PROF_JSON, "the same run wrote its eventlog (its +RTS options have -l): "
          "give evprof x.log" },
        { "JOB \"p +RTS -hc -i0.001\"\nDATE \"Wed Dec  2 03:17 2026\"\nSAMPLE_UNIT \"seconds\"\n",
          EL_FILE_HP, "run the program with +RTS -hc -l and give evprof the eventlog it "
          "writes, p.eventlog" },
        { "'./pnp' +RTS '-Sp.S' \n    Alloc    Copied     Live     GC     GC      TOT      "
          "TOT  Page Flts\n    bytes     bytes     bytes   user   elap     user     elap\n",
          EL_FILE_RTS_STATS, "give evprof the eventlog it writes, pnp.eventlog" },
        { "    Alloc    Copied     Live     GC     GC      TOT      TOT  Page Flts\n",
          EL_FILE_RTS_STATS, "PROG.eventlog" },
        { " [(\"bytes allocated\", \"13570232\")\n ,(\"num_GCs\", \"13\")\n",
          EL_FILE_RTS_STATS, "this is GHC's runtime statistics" },
        { "'./collatz' +RTS '-rcollatz-r.ticky' \n\nSTACK USAGE:\n\nENTERS: 3231063  of which\n",
          EL_FILE_TICKY, "evprof ticky and evprof diff --ticky read it" },
        { "hello, world\n", EL_FILE_UNKNOWN, "not a GHC eventlog: bad magic 0x68656c6c" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *t = cases[i].text;
        assert_int_equal(el_file_kind_of(t, strlen(t)), cases[i].kind);
        /* the decoder says it (fed the whole file: fed a byte at a time it
         * would have the first 8 bytes only, and say bad magic) */
        test_run r;
        test_decode((const uint8_t *)t, strlen(t), 0, 0, &r);
        assert_int_equal(r.status, EV_ERR_FORMAT);
        assert_int_equal(r.error.offset, 0);
        if (!strstr(r.error.msg, cases[i].says))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, r.error.msg, cases[i].says);
        test_run_free(&r);
    }
}

static void test_absurd_description_length(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    /* first etb record: desc length at 8 + 4 + 2 + 2 */
    b.b[16] = 0xff; b.b[17] = 0xff; b.b[18] = 0xff; b.b[19] = 0xff;
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.error.offset, 8);
    assert_int_equal(r.error.type, 161);
    assert_non_null(strstr(r.error.msg, "absurd description length"));
    test_run_free(&r);
}

static void test_corrupt_header_marker(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    b.b[8 + 16 + 22 + 2] ^= 0x40;   /* the ete of the first record */
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_non_null(strstr(r.error.msg, "corrupt header"));
    test_run_free(&r);
}

static void good_events(bb *b)
{
    u16(b, 168); u64(b, 100); u64(b, 1000000);                       /* prof begin */
    u16(b, 161); u64(b, 200); u16(b, 4 + 4 + 5 + 1);                 /* cc def */
    u32(b, 7); bytes(b, "f\0M\0", 4); bytes(b, "a.hs\0", 5); u8(b, 0);
    u16(b, 167); u64(b, 300); u16(b, 4 + 8 + 1 + 8);                 /* sample */
    u32(b, 0); u64(b, 1); u8(b, 2); u32(b, 7); u32(b, 8);
}

static void test_good_hand_made_log(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    size_t data = b.n;
    good_events(&b);
    u16(&b, 0xffff);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.ev[0].offset, data);
    assert_int_equal(r.ev[2].type, 167);
    assert_int_equal(r.num_types, 4);
    test_run_free(&r);

    /* the same log decoded through the public API: typed fields */
    el_decoder *d = el_decoder_create();
    el_event ev;
    el_decoder_feed(d, b.b, b.n);
    assert_int_equal(el_decoder_next(d, &ev), EV_OK);
    assert_int_equal(ev.u.prof_begin.interval_ns, 1000000);
    assert_int_equal(ev.cap, EL_NO_CAP);
    assert_int_equal(el_decoder_next(d, &ev), EV_OK);
    assert_int_equal(ev.u.cost_centre.id, 7);
    assert_int_equal(ev.u.cost_centre.label.len, 1);
    assert_memory_equal(ev.u.cost_centre.module.ptr, "M", 1);
    assert_memory_equal(ev.u.cost_centre.srcloc.ptr, "a.hs", 4);
    assert_int_equal(el_decoder_next(d, &ev), EV_OK);
    assert_int_equal(ev.u.prof_sample.depth, 2);
    assert_int_equal(ev.u.prof_sample.stack[0], 7);
    assert_int_equal(ev.u.prof_sample.stack[1], 8);
    assert_int_equal(el_decoder_next(d, &ev), EV_END);
    assert_int_equal(el_decoder_next(d, &ev), EV_END);
    assert_string_equal(el_decoder_type(d, 167)->desc.ptr, "Time profile cost-centre stack");
    assert_int_equal(el_decoder_type(d, 167)->size, EL_VARIABLE_SIZE);
    assert_null(el_decoder_type(d, 0));
    el_decoder_destroy(d);
}

static void test_undeclared_type(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    good_events(&b);
    size_t at = b.n;
    u16(&b, 99); u64(&b, 400);
    u16(&b, 0xffff);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.n, 3);   /* everything before the fault */
    assert_int_equal(r.error.offset, at);
    assert_int_equal(r.error.type, 99);
    assert_non_null(strstr(r.error.msg, "not declared"));
    test_run_free(&r);
}

static void test_stack_depth_past_payload(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    good_events(&b);
    size_t at = b.n;
    u16(&b, 167); u64(&b, 400); u16(&b, 4 + 8 + 1 + 4);
    u32(&b, 0); u64(&b, 2); u8(&b, 200); u32(&b, 7);
    u16(&b, 0xffff);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.error.offset, at);
    assert_int_equal(r.error.type, 167);
    assert_non_null(strstr(r.error.msg, "stack depth 200"));
    test_run_free(&r);
}

static void test_unterminated_string(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    size_t at = b.n;
    u16(&b, 161); u64(&b, 200); u16(&b, 4 + 6);
    u32(&b, 7); bytes(&b, "abcdef", 6);
    u16(&b, 0xffff);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.error.offset, at);
    assert_int_equal(r.error.type, 161);
    assert_non_null(strstr(r.error.msg, "not terminated"));
    test_run_free(&r);
}

/* A size declared smaller than any layout of the type is an error; a
 * larger one (a newer GHC's extra fields) is fine. */
static void test_declared_size_vs_type(void **state)
{
    bb b;
    (void)state;
    header(&b, 4);
    u16(&b, 168); u64(&b, 100); u32(&b, 1000);
    u16(&b, 0xffff);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.error.type, 168);
    assert_non_null(strstr(r.error.msg, "too short"));
    test_run_free(&r);

    header(&b, 12);
    u16(&b, 168); u64(&b, 100); u64(&b, 5000); u32(&b, 0xdeadbeef);
    u16(&b, 0xffff);
    el_decoder *d = el_decoder_create();
    el_event ev;
    el_decoder_feed(d, b.b, b.n);
    assert_int_equal(el_decoder_next(d, &ev), EV_OK);
    assert_int_equal(ev.u.prof_begin.interval_ns, 5000);
    assert_int_equal(ev.size, 22);
    assert_int_equal(el_decoder_next(d, &ev), EV_END);
    el_decoder_destroy(d);
}

/* Variable-size length running past the end of the input. */
static void test_variable_length_past_end(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    good_events(&b);
    size_t at = b.n;
    u16(&b, 167); u64(&b, 400); u16(&b, 60000);
    u32(&b, 0); u64(&b, 2); u8(&b, 0);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_TRUNCATED);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.error.offset, at);
    assert_int_equal(r.error.type, 167);
    test_run_free(&r);
}

/* Events inside a block carry its capability; after it, none. */
static void test_block_capability(void **state)
{
    bb b;
    (void)state;
    header(&b, 8);
    size_t marker = b.n;
    u16(&b, 18); u64(&b, 50); u32(&b, 0); u64(&b, 500); u16(&b, 3);
    good_events(&b);
    size_t end = b.n;
    /* patch the block size: marker to the end of the block's events */
    uint32_t size = (uint32_t)(end - marker);
    b.b[marker + 10] = (uint8_t)(size >> 24); b.b[marker + 11] = (uint8_t)(size >> 16);
    b.b[marker + 12] = (uint8_t)(size >> 8); b.b[marker + 13] = (uint8_t)size;
    u16(&b, 168); u64(&b, 600); u64(&b, 1);     /* outside the block */
    u16(&b, 0xffff);
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(r.n, 5);
    for (int i = 0; i < 4; i++)
        assert_int_equal(r.ev[i].cap, 3);
    assert_int_equal(r.ev[4].cap, EL_NO_CAP);
    test_run_free(&r);
}

static void test_empty_and_garbage(void **state)
{
    (void)state;
    test_run r;
    test_decode((const uint8_t *)"", 0, 0, 0, &r);
    assert_int_equal(r.status, EV_ERR_TRUNCATED);
    assert_non_null(strstr(r.error.msg, "header"));
    test_run_free(&r);
    static const uint8_t junk[] = "this is not an eventlog at all";
    test_decode(junk, sizeof junk, 3, 0, &r);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    test_run_free(&r);
}

/* Damage inside a block: with resync the rest of that block is skipped
 * by the size its marker gives and the next block is read; without, the
 * log stops there. */
static size_t block(bb *b, uint16_t cap, uint64_t t)
{
    size_t at = b->n;
    u16(b, 18); u64(b, t); u32(b, 0); u64(b, t + 50); u16(b, cap);
    return at;
}

static void close_block(bb *b, size_t at)
{
    uint32_t size = (uint32_t)(b->n - at);
    b->b[at + 10] = (uint8_t)(size >> 24); b->b[at + 11] = (uint8_t)(size >> 16);
    b->b[at + 12] = (uint8_t)(size >> 8); b->b[at + 13] = (uint8_t)size;
}

static void test_resync_after_damaged_block(void **state)
{
    (void)state;
    bb b;
    header(&b, 8);
    size_t b1 = block(&b, 0, 100);
    u16(&b, 168); u64(&b, 110); u64(&b, 1000);          /* good */
    size_t bad = b.n;
    u16(&b, 99); u64(&b, 120);                          /* undeclared: garbage */
    u32(&b, 0xdeadbeef); u32(&b, 0x01020304);
    close_block(&b, b1);
    size_t b2 = block(&b, 1, 200);
    u16(&b, 168); u64(&b, 210); u64(&b, 2000);          /* good, next block */
    close_block(&b, b2);
    u16(&b, 0xffff);

    /* off: stops at the damage */
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.error.offset, bad);
    assert_int_equal(r.n, 2);
    test_run_free(&r);

    /* on: every chunking gives the same events and the same damage */
    for (size_t chunk = 1; chunk <= b.n; chunk++) {
        el_decoder *d = el_decoder_create();
        el_decoder_set_resync(d, 1);
        el_event ev;
        ev_status st = EV_NEED_INPUT;
        uint64_t times[8];
        size_t n = 0;
        for (size_t pos = 0; pos < b.n && st == EV_NEED_INPUT; pos += chunk) {
            el_decoder_feed(d, b.b + pos, chunk < b.n - pos ? chunk : b.n - pos);
            while ((st = el_decoder_next(d, &ev)) == EV_OK)
                if (n < 8)
                    times[n++] = ev.time;
        }
        if (st == EV_NEED_INPUT)
            st = el_decoder_finish(d);
        assert_int_equal(st, EV_END);
        assert_int_equal(n, 4);     /* marker, 110, marker, 210 */
        assert_int_equal(times[1], 110);
        assert_int_equal(times[3], 210);
        const el_damage *dm = el_decoder_damage(d);
        assert_int_equal(dm->blocks, 1);
        assert_int_equal(dm->bytes, b2 - bad);
        assert_int_equal(dm->first.offset, bad);
        assert_int_equal(dm->first.type, 99);
        assert_int_equal(dm->from_time, 100);
        assert_int_equal(dm->to_time, 150);
        el_decoder_destroy(d);
    }
}

/* ---- times that cannot be are damage (issue 35, point 1) -------------
 * GHC writes a block's end time when it closes the block, after its last
 * event: an event later than that was not written as it reads. Its time
 * is never in the span, nor handed out; the rest of its block is skipped
 * as for any damaged record. Outside any block, an event more than a day
 * past the latest time shown is damage, dropped alone. */

#define DAY_NS (UINT64_C(86400) * 1000000000u)

/* A block marker of capability `cap` from t to `end` (size: close_block). */
static size_t block_until(bb *b, uint16_t cap, uint64_t t, uint64_t end)
{
    size_t at = b->n;
    u16(b, 18); u64(b, t); u32(b, 0); u64(b, end); u16(b, cap);
    return at;
}

static void prof_begin(bb *b, uint64_t t)
{
    u16(b, 168); u64(b, t); u64(b, 1000);
}

/* Reads b fed `chunk` bytes at a time; `selective`: only block markers are
 * handed out, the rest passed over in the decoder's tight loop. The times
 * handed out go to times[] (at most 8). Returns the decoder (the caller
 * destroys it), its last status in *st. */
static el_decoder *read_times(const bb *b, size_t chunk, int resync, int selective,
                              uint64_t *times, size_t *n, ev_status *st)
{
    static const uint16_t none[] = { 161 };
    el_decoder *d = el_decoder_create();
    el_event ev;
    el_decoder_set_resync(d, resync);
    assert_int_equal(el_decoder_count_types(d, 1), 0);
    if (selective) {
        el_decoder_only_fields(d, none, 1);
        el_decoder_only_selected(d, 1);
    }
    *n = 0;
    *st = EV_NEED_INPUT;
    for (size_t pos = 0; pos < b->n && *st == EV_NEED_INPUT; pos += chunk) {
        el_decoder_feed(d, b->b + pos, chunk < b->n - pos ? chunk : b->n - pos);
        while ((*st = el_decoder_next(d, &ev)) == EV_OK)
            if (*n < 8)
                times[(*n)++] = ev.time;
    }
    if (*st == EV_NEED_INPUT)
        *st = el_decoder_finish(d);
    return d;
}

static void assert_span(const el_decoder *d, uint64_t first, uint64_t last)
{
    uint64_t f, l;
    assert_true(el_decoder_time_span(d, &f, &l));
    assert_int_equal(f, first);
    assert_int_equal(l, last);
}

static void test_time_past_block_end(void **state)
{
    (void)state;
    bb b;
    header(&b, 8);
    size_t b1 = block_until(&b, 0, 100, UINT64_C(2910638000));     /* ends at 2.9 s */
    prof_begin(&b, 110);
    size_t bad = b.n;
    prof_begin(&b, UINT64_C(47006321110486000));                   /* 47006321 s */
    prof_begin(&b, 120);                                            /* the rest */
    close_block(&b, b1);
    size_t b2 = block_until(&b, 1, 200, 300);
    prof_begin(&b, 210);
    close_block(&b, b2);
    u16(&b, 0xffff);

    /* resync off: the read stops there */
    test_run r = decode_bb(&b);
    assert_int_equal(r.status, EV_ERR_FORMAT);
    assert_int_equal(r.error.offset, bad);
    assert_int_equal(r.error.type, 168);
    assert_string_equal(r.error.msg, "event time 47006321.110486 s is past its block's end "
                                     "time 2.910638 s");
    assert_int_equal(r.n, 2);
    test_run_free(&r);

    /* on: every chunking, whether the events are handed out or passed over */
    for (int sel = 0; sel <= 1; sel++)
        for (size_t chunk = 1; chunk <= b.n; chunk++) {
            uint64_t t[8];
            size_t n;
            ev_status st;
            el_decoder *d = read_times(&b, chunk, 1, sel, t, &n, &st);
            assert_int_equal(st, EV_END);
            if (sel) {
                assert_int_equal(n, 2);
                assert_int_equal(t[0], 100);
                assert_int_equal(t[1], 200);
            } else {
                assert_int_equal(n, 4);
                assert_int_equal(t[1], 110);
                assert_int_equal(t[3], 210);
            }
            const el_damage *dm = el_decoder_damage(d);
            assert_int_equal(dm->blocks, 1);
            assert_int_equal(dm->bytes, b2 - bad);
            assert_int_equal(dm->first.offset, bad);
            assert_int_equal(dm->first.type, 168);
            assert_int_equal(dm->from_time, 100);
            assert_int_equal(dm->to_time, UINT64_C(2910638000));
            assert_span(d, 100, 210);
            /* 168 is the header's third type: 110 and 210 counted */
            assert_int_equal(el_decoder_tally(d)[2].events, 2);
            el_decoder_destroy(d);
        }
}

/* A block's events up to its end time are no damage, however long after
 * its start (a program idle for days); nor is a marker whose end time is
 * not filled in (0, or before its start: GHC never writes either). */
static void test_time_within_block(void **state)
{
    (void)state;
    bb b;
    header(&b, 8);
    size_t b1 = block_until(&b, 0, 100, 100 + 3 * DAY_NS);
    prof_begin(&b, 110);
    prof_begin(&b, 100 + 3 * DAY_NS);
    close_block(&b, b1);
    size_t b2 = block_until(&b, 0, 200 + 3 * DAY_NS, 0);
    prof_begin(&b, 5 * DAY_NS);
    close_block(&b, b2);
    u16(&b, 0xffff);
    for (int sel = 0; sel <= 1; sel++)
        for (size_t chunk = 1; chunk <= b.n; chunk += 3) {
            uint64_t t[8];
            size_t n;
            ev_status st;
            el_decoder *d = read_times(&b, chunk, 1, sel, t, &n, &st);
            assert_int_equal(st, EV_END);
            assert_int_equal(n, sel ? 2 : 5);
            assert_int_equal(el_decoder_damage(d)->blocks, 0);
            assert_span(d, 100, 5 * DAY_NS);
            el_decoder_destroy(d);
        }
}

/* Outside any block: a jump of more than a day past the latest time shown
 * drops that event alone; a day is no damage. */
static void test_time_jump_outside_blocks(void **state)
{
    (void)state;
    for (int jump = 0; jump <= 1; jump++) {
        bb b;
        header(&b, 8);
        prof_begin(&b, 100);
        prof_begin(&b, 200);
        size_t bad = b.n;
        prof_begin(&b, 200 + DAY_NS + (uint64_t)jump);
        prof_begin(&b, 300);
        u16(&b, 0xffff);

        test_run r = decode_bb(&b);
        assert_int_equal(r.status, jump ? EV_ERR_FORMAT : EV_END);
        if (jump) {
            assert_int_equal(r.error.offset, bad);
            assert_non_null(strstr(r.error.msg, "is more than a day past the latest time the "
                                                "log has shown (0.000000 s), outside any block"));
        }
        test_run_free(&r);

        for (int sel = 0; sel <= 1; sel++)
            for (size_t chunk = 1; chunk <= b.n; chunk++) {
                uint64_t t[8];
                size_t n;
                ev_status st;
                el_decoder *d = read_times(&b, chunk, 1, sel, t, &n, &st);
                assert_int_equal(st, EV_END);
                assert_int_equal(n, sel ? 0 : 4 - (size_t)jump);
                if (!sel && jump) {
                    assert_int_equal(t[1], 200);
                    assert_int_equal(t[2], 300);
                }
                const el_damage *dm = el_decoder_damage(d);
                assert_int_equal(dm->blocks, (uint64_t)jump);
                if (jump) {
                    assert_int_equal(dm->bytes, 18);
                    assert_int_equal(dm->first.offset, bad);
                    assert_int_equal(dm->from_time, 200);
                    assert_int_equal(dm->to_time, 200);
                }
                assert_span(d, 100, jump ? 300 : 200 + DAY_NS);
                el_decoder_destroy(d);
            }
    }
}

/* ---- an IPE event's declared length (issue 35, point 14) -------------
 * GHC declares one byte off what it writes; a length further off is
 * taken when it holds the strings, ends inside the block and is followed
 * there by a further event, else the strings say where the next event
 * starts. No event after it is lost; such events are counted for a note. */

static const char ipe_strings[] = "tbl\0cd\0ty\0lbl\0Mod\0F.hs:1:1-5";   /* and its NUL */

/* An IPE event at t; its length field `decl` (-1: as GHC 9.6.6, one more
 * than written), then `extra` bytes after its strings. */
static void ipe(bb *b, uint64_t t, long decl, size_t extra)
{
    uint32_t written = 8 + (uint32_t)sizeof ipe_strings;
    u16(b, 169); u64(b, t);
    u16(b, (uint16_t)(decl < 0 ? written + 1 : (uint32_t)decl));
    u64(b, 0x4011a0);
    bytes(b, ipe_strings, sizeof ipe_strings);
    for (size_t i = 0; i < extra; i++)
        u8(b, (uint8_t)("tbl-extra:"[i % 10]));     /* "tb": type 29794 if misread */
}

static void sample(bb *b, uint64_t t)
{
    u16(b, 167); u64(b, t); u16(b, 4 + 8 + 1 + 4);
    u32(b, 0); u64(b, 1); u8(b, 1); u32(b, 7);
}

/* The log of case k: 0 the length exact, 1 20 bytes short, 2 0xffff, 3 50
 * bytes long with the 50 bytes there, 4 GHC's one byte more. In a block
 * (ending at 1000): that IPE event at 110, a sample, an IPE event as GHC
 * 9.6.6 writes it, a sample; then a block with a sample. *at: the first
 * IPE event's offset, *blk: its block's end. */
static void ipe_log(bb *b, int k, size_t *at, size_t *blk)
{
    uint32_t written = 8 + (uint32_t)sizeof ipe_strings;
    static const long decl_of[5] = { 0, -20, 0xffff, 50, 1 };
    b->n = 0;
    u32(b, 0x68647262);
    u32(b, 0x68657462);
    et(b, 167, 0xffff, "Time profile cost-centre stack");
    et(b, 169, 0xffff, "An IPE entry");
    et(b, 18, 14, "Block marker");
    u32(b, 0x68657465);
    u32(b, 0x68647265);
    u32(b, 0x64617462);
    size_t b1 = block_until(b, 0xffff, 100, 1000);
    *at = b->n;
    ipe(b, 110, k == 2 ? 0xffff : (long)written + decl_of[k], k == 3 ? 50 : 0);
    sample(b, 120);
    ipe(b, 130, -1, 0);
    sample(b, 140);
    close_block(b, b1);
    *blk = b->n;
    size_t b2 = block_until(b, 0, 200, 1000);
    sample(b, 210);
    close_block(b, b2);
    u16(b, 0xffff);
}

static void test_ipe_declared_length(void **state)
{
    (void)state;
    size_t strings = 12 + 8 + sizeof ipe_strings;
    for (int k = 0; k <= 4; k++) {
        bb b;
        size_t at, blk;
        ipe_log(&b, k, &at, &blk);
        size_t first_len = k == 3 ? strings + 50 : strings;
        for (size_t chunk = 1; chunk <= b.n; chunk++) {
            el_decoder *d = el_decoder_create();
            el_decoder_set_resync(d, 1);
            assert_int_equal(el_decoder_count_types(d, 1), 0);
            el_event ev;
            ev_status st = EV_NEED_INPUT;
            size_t samples = 0, ipes = 0;
            for (size_t pos = 0; pos < b.n && st == EV_NEED_INPUT; pos += chunk) {
                el_decoder_feed(d, b.b + pos, chunk < b.n - pos ? chunk : b.n - pos);
                while ((st = el_decoder_next(d, &ev)) == EV_OK) {
                    if (ev.type == 167) {
                        assert_int_equal(ev.u.prof_sample.stack[0], 7);
                        samples++;
                    }
                    if (ev.type != 169)
                        continue;
                    assert_int_equal(ev.size, ipes++ ? strings : first_len);
                    assert_int_equal(ev.u.ipe.info, 0x4011a0);
                    assert_int_equal(ev.u.ipe.label.len, 3);
                    assert_memory_equal(ev.u.ipe.label.ptr, "lbl", 3);
                    assert_int_equal(ev.u.ipe.srcloc.len, 10);
                    assert_memory_equal(ev.u.ipe.srcloc.ptr, "F.hs:1:1-5", 10);
                }
            }
            if (st == EV_NEED_INPUT)
                st = el_decoder_finish(d);
            if (st != EV_END)
                fail_msg("case %d, chunk %zu: %s (%s)", k, chunk, ev_status_name(st),
                         el_decoder_error(d)->msg);
            assert_int_equal(el_decoder_damage(d)->blocks, 0);
            assert_int_equal(samples, 3);       /* the ones after it too */
            assert_int_equal(ipes, 2);
            /* more than a byte off: the note's count; GHC's byte: the tally's */
            assert_int_equal(el_decoder_ipe_len_off(d), k >= 1 && k <= 3 ? 1 : 0);
            assert_int_equal(el_decoder_tally(d)[1].declared_off, k == 4 ? 2 : 1);
            el_decoder_destroy(d);
        }
        /* the order stage's replay reads it by the same length */
        el_decoder *h = el_decoder_create();
        el_decoder_feed(h, b.b, at);
        el_event ev;
        assert_int_equal(el_decoder_next(h, &ev), EV_OK);       /* the marker */
        assert_int_equal(el_decoder_record_size_in(h, b.b + at, b.n - at, blk - at, 1000, NULL),
                         first_len);
        size_t need = 0;
        if (k == 3) {       /* it looks at the head of the event after it */
            assert_int_equal(el_decoder_record_size_in(h, b.b + at, first_len, blk - at, 1000,
                                                       &need), 0);
            assert_int_equal(need, first_len + 12);
        }
        el_decoder *rd = el_decoder_create_for_records(h);
        el_decoder_records_checked(rd, 1);
        el_decoder_set_offset(rd, at);
        el_decoder_feed(rd, b.b + at, first_len);
        assert_int_equal(el_decoder_next(rd, &ev), EV_OK);
        assert_int_equal(ev.size, first_len);
        assert_int_equal(el_decoder_next(rd, &ev), EV_NEED_INPUT);
        el_decoder_destroy(rd);
        el_decoder_destroy(h);
    }
}

/* ---- a run of 0xff bytes is damage, not the end (issue 11) ------------ */

#define FF_LOG "tests/data/ghc/chain-p.eventlog"

typedef struct offsets {
    uint64_t *at;       /* offsets of the PROF_SAMPLE events */
    size_t n, cap;
    uint64_t block_start[8], block_end[8];   /* the first blocks */
    size_t blocks;
    uint64_t mid;       /* the last event start in the first half of block 0 */
} offsets;

static int note_sample(void *ctx, const el_event *ev, const el_decoder *d)
{
    offsets *o = ctx;
    (void)d;
    if (ev->type == EL_BLOCK_MARKER && o->blocks < 8) {
        o->block_start[o->blocks] = ev->offset;
        o->block_end[o->blocks++] = ev->offset + ev->u.block.size;
    }
    if (o->blocks == 1 && ev->offset < (o->block_start[0] + o->block_end[0]) / 2)
        o->mid = ev->offset;
    if (ev->type != EL_PROF_SAMPLE_COST_CENTRE)
        return 0;
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 1024;
        o->at = realloc(o->at, o->cap * sizeof *o->at);
        assert_non_null(o->at);
    }
    o->at[o->n++] = ev->offset;
    return 0;
}

static void test_ff_run_is_damage(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = test_read_file(FF_LOG, &len);
    assert_non_null(buf);
    offsets good = { 0 };
    el_read_result r = el_read_mem(buf, len, note_sample, &good, NULL);
    assert_int_equal(r.status, EV_END);
    assert_true(good.n > 100);

    /* an event half-way through the first block (which ends before the
     * log does): overwrite 4096 bytes from there with 0xff. In this log
     * (GHC 9.0) the samples are in the second block, written by the RTS's
     * global buffer: before the fix none of them was counted. */
    assert_true(good.blocks >= 2);
    uint64_t bend = good.block_end[0], at = good.mid;
    assert_true(at > good.block_start[0] && bend > at + 4096 && bend < len - 2);
    size_t want = 0;        /* the samples before the damage and after its block */
    for (size_t i = 0; i < good.n; i++)
        want += good.at[i] < at || good.at[i] >= bend;
    assert_true(want > good.n / 2);
    memset(buf + at, 0xff, 4096);

    /* whole and in chunks of every size up to 64, then some larger */
    for (size_t chunk = 0; chunk <= 70; chunk++) {
        size_t c = chunk == 0 ? len : chunk <= 64 ? chunk : 4096 + chunk * 997;
        el_decoder *d = el_decoder_create();
        el_decoder_set_resync(d, 1);
        offsets got = { 0 };
        ev_status st = EV_NEED_INPUT;
        el_event ev;
        for (size_t pos = 0; pos < len && (st == EV_NEED_INPUT || st == EV_END); pos += c) {
            el_decoder_feed(d, buf + pos, c < len - pos ? c : len - pos);
            while ((st = el_decoder_next(d, &ev)) == EV_OK)
                note_sample(&got, &ev, d);
        }
        st = el_decoder_finish(d);
        assert_int_equal(st, EV_END);
        assert_int_equal(got.n, want);
        const el_damage *dm = el_decoder_damage(d);
        assert_int_equal(dm->blocks, 1);
        assert_int_equal(dm->bytes, bend - at);
        assert_int_equal(dm->first.offset, at);
        assert_int_equal(dm->first.type, 0xffff);
        el_decoder_destroy(d);
        free(got.at);
    }

    /* resync off: an error at the first 0xff, not a clean end */
    el_decoder *d = el_decoder_create();
    el_decoder_feed(d, buf, len);
    el_event ev;
    ev_status st;
    while ((st = el_decoder_next(d, &ev)) == EV_OK)
        ;
    assert_int_equal(st, EV_ERR_FORMAT);
    assert_int_equal(el_decoder_error(d)->offset, at);
    el_decoder_destroy(d);

    /* the run going on over the next block's marker and into it: the end
     * marker then stands between blocks; the rest of the log holds a block
     * only if one follows, else everything after it counts as lost */
    memset(buf + at, 0xff, bend + 100 - at);
    offsets got = { 0 };
    r = el_read_mem(buf, len, note_sample, &got, NULL);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(r.damage.blocks, 1);
    assert_int_equal(r.damage.bytes, len - at);
    free(got.at);

    free(good.at);
    free(buf);
}

/* Bytes after the end marker that hold no block are no damage. */
static void test_trailing_bytes_after_end(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = test_read_file(FF_LOG, &len);
    assert_non_null(buf);
    uint8_t *more = realloc(buf, len + 100);
    assert_non_null(more);
    memset(more + len, 0xff, 50);
    memset(more + len + 50, 0x12, 50);
    el_read_result r = el_read_mem(more, len + 100, NULL, NULL, NULL);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(r.damage.blocks, 0);
    assert_int_equal(r.damage.bytes, 0);
    free(more);
}

/* A log without block markers: `n` CREATE_THREAD events, then `tail`
 * (raw bytes: an end marker and what follows), then `n` RUN_THREAD events
 * (none when after == 0), then the end marker. Returns the bytes (free). */
static uint8_t *blockless_log(unsigned n, const void *tail, size_t tail_len, int after,
                              size_t *len, size_t *tail_at)
{
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    uint64_t t = 1000;
    for (unsigned i = 0; i < n; i++, t += 1000)
        el_writer_create_thread(w, t, i + 1);
    *tail_at = (size_t)el_writer_offset(w);
    el_writer_raw(w, tail, tail_len);
    for (unsigned i = 0; after && i < n; i++, t += 1000)
        el_writer_run_thread(w, t + 100000, i + 1);
    if (after)
        assert_int_equal(el_writer_finish(w), EV_OK);
    else
        assert_int_equal(el_writer_finish_no_end(w), EV_OK);
    const uint8_t *b = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    assert_non_null(copy);
    memcpy(copy, b, *len);
    el_writer_destroy(w);
    return copy;
}

static int count_event(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)ev;
    (void)d;
    ++*(size_t *)ctx;
    return 0;
}

/* An end marker in the middle of a log without blocks, between two
 * records or written over a record's type, is damage, as it is in a log
 * with blocks: the events after it are read, whatever the chunks
 * (issue 27, point 18). Bytes after a real end marker that hold no
 * records (text, zero padding) stay no damage. */
static void test_blockless_end_marker_mid_log(void **state)
{
    (void)state;
    /* the marker alone; the marker over a RUN_THREAD (time 0xff.., thread 1) */
    static const uint8_t marker[] = { 0xff, 0xff };
    static const uint8_t over[] = { 0xff, 0xff, 0, 0, 0, 0, 0, 1, 0x86, 0xa0, 0, 0, 0, 1 };
    const struct { const uint8_t *tail; size_t len; size_t skipped; } cases[] = {
        { marker, sizeof marker, 2 }, { over, sizeof over, sizeof over },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t len, at, n = 0;
        uint8_t *buf = blockless_log(40, cases[c].tail, cases[c].len, 1, &len, &at);
        el_read_result r = el_read_mem(buf, len, count_event, &n, NULL);
        assert_int_equal(r.status, EV_END);
        assert_int_equal(n, 80);
        assert_int_equal(r.damage.blocks, 1);
        assert_int_equal(r.damage.bytes, cases[c].skipped);
        assert_int_equal(r.damage.first.offset, at);
        assert_int_equal(r.damage.first.type, 0xffff);
        assert_non_null(strstr(r.damage.first.msg, "end marker followed by more events"));
        /* fed in two chunks split anywhere, or in chunks of 1 to 16 bytes
         * (resync on, as the el_read_* layer has it): the same events,
         * the same damage */
        for (size_t split = at - 20; split <= len + 16; split++) {
            size_t chunk = split > len ? split - len : 0;
            el_decoder *d = el_decoder_create();
            assert_non_null(d);
            el_decoder_set_resync(d, 1);
            el_event ev;
            ev_status st = EV_NEED_INPUT;
            size_t got = 0;
            for (size_t pos = 0; pos < len && (st == EV_NEED_INPUT || st == EV_END);) {
                size_t take = chunk ? (chunk < len - pos ? chunk : len - pos)
                              : pos < split ? split - pos : len - pos;
                el_decoder_feed(d, buf + pos, take);
                pos += take;
                while ((st = el_decoder_next(d, &ev)) == EV_OK)
                    got++;
            }
            if (st == EV_NEED_INPUT || st == EV_END)
                st = el_decoder_finish(d);
            if (st != EV_END)
                fail_msg("case %zu split %zu (marker at %zu, len %zu): %s, %zu events", c, split,
                         at, len, ev_status_name(st), got);
            assert_int_equal(got, 80);
            assert_int_equal(el_decoder_damage(d)->bytes, cases[c].skipped);
            el_decoder_destroy(d);
        }
        free(buf);
    }
    /* a real end marker, then text or zero padding: no damage */
    uint8_t tail[2 + 200] = { 0xff, 0xff };
    for (int k = 0; k < 2; k++) {
        if (k)
            memcpy(tail + 2, "trailing text after the log, no records in it", 46);
        size_t len, at, n = 0;
        uint8_t *buf = blockless_log(40, tail, k ? 48 : sizeof tail, 0, &len, &at);
        el_read_result r = el_read_mem(buf, len, count_event, &n, NULL);
        assert_int_equal(r.status, EV_END);
        assert_int_equal(n, 40);
        assert_int_equal(r.damage.blocks, 0);
        free(buf);
    }
}

/* A file that shrinks while it is mapped: an I/O error, no SIGBUS. */
typedef struct shrinker {
    const char *path;
    uint64_t events;
} shrinker;

static int shrink_file(void *ctx, const el_event *ev, const el_decoder *d)
{
    shrinker *s = ctx;
    (void)ev;
    (void)d;
    if (s->events++ == 0)
        assert_int_equal(truncate(s->path, 4096), 0);
    return 0;
}

static void test_file_shrinks_while_read(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = test_read_file(FF_LOG, &len);
    assert_non_null(buf);
    char path[] = "/tmp/evprof-shrink-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, len), (ssize_t)len);
    close(fd);
    shrinker s = { path, 0 };
    el_read_result r = el_read_path(path, shrink_file, &s, NULL);
    unlink(path);
    assert_int_equal(r.status, EV_ERR_IO);
    assert_non_null(strstr(r.error.msg, "shrank"));
    assert_true(r.error.offset <= 4096 + 65536);
    assert_true(r.events < 1000);
    free(buf);
}

/* Selective delivery: only the selected types (and block markers) reach
 * the consumer, and the time span still covers every event. */
static int count_delivered(void *ctx, const el_event *ev, const el_decoder *d)
{
    size_t *n = ctx;
    (void)d;
    n[ev->type == EL_PROF_SAMPLE_COST_CENTRE ? 0 : ev->type == EL_BLOCK_MARKER ? 1 : 2]++;
    return 0;
}

static void test_only_selected(void **state)
{
    (void)state;
    const char *log = CORPUS_DIR "/ghc-9.0.2/nfib-p.eventlog";
    size_t len;
    uint8_t *buf = load(log, &len);
    test_run whole;
    test_decode(buf, len, 0, 0, &whole);
    size_t want_samples = 0, want_blocks = 0;
    uint64_t first = UINT64_MAX, last = 0;
    for (size_t i = 0; i < whole.n; i++) {
        want_samples += whole.ev[i].type == EL_PROF_SAMPLE_COST_CENTRE;
        want_blocks += whole.ev[i].type == EL_BLOCK_MARKER;
        if (whole.ev[i].time < first) first = whole.ev[i].time;
        if (whole.ev[i].time > last) last = whole.ev[i].time;
    }
    static const uint16_t sel[] = { EL_PROF_SAMPLE_COST_CENTRE };
    const el_read_opts opts = { sel, 1, 1, 0, 1 };
    size_t n[3] = { 0, 0, 0 };
    el_decoder *dec = NULL;
    el_read_result r = el_read_path_opts(log, &opts, count_delivered, n, &dec);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(n[0], want_samples);
    assert_int_equal(n[1], want_blocks);
    assert_int_equal(n[2], 0);
    assert_true(want_samples > 100);
    assert_true(r.has_time_span);
    assert_int_equal(r.first_time, first);
    assert_int_equal(r.last_time, last);
    /* count_types: every event of every type, delivered or not */
    const el_type_tally *t = el_decoder_tally(dec);
    assert_non_null(t);
    for (size_t i = 0; i < el_decoder_num_types(dec); i++) {
        uint16_t id = el_decoder_type_at(dec, i)->id;
        uint64_t events = 0, bytes = 0;
        for (size_t k = 0; k < whole.n; k++)
            if (whole.ev[k].type == id) {
                events++;
                bytes += whole.ev[k].size;
            }
        if (t[i].events != events || t[i].bytes != bytes)
            fail_msg("type %u: tally %llu events, %llu bytes; read %llu, %llu", id,
                     (unsigned long long)t[i].events, (unsigned long long)t[i].bytes,
                     (unsigned long long)events, (unsigned long long)bytes);
    }
    assert_int_equal(el_decoder_count_types(dec, 0), 0);   /* off drops the counts */
    assert_null(el_decoder_tally(dec));
    el_decoder_destroy(dec);
    /* off by default */
    dec = NULL;
    const el_read_opts plain = { sel, 1, 1, 0, 0 };
    el_read_path_opts(log, &plain, count_delivered, n, &dec);
    assert_null(el_decoder_tally(dec));
    el_decoder_destroy(dec);
    test_run_free(&whole);
    free(buf);
}

/* A real GHC 9.6.6 -hi log (every IPE record declared one byte long) with
 * each IPE length field rewritten one byte short of what is written, as
 * some releases before 9.6 declared it (GHC #24287): the same events, at
 * every chunk size, and every record counted as declared off. */
static void test_ipe_declared_short_real(void **state)
{
    (void)state;
    const char *log = CORPUS_DIR "/ghc-9.6/parse-hi.eventlog";
    size_t len;
    uint8_t *buf = load(log, &len);
    test_run whole;
    test_decode(buf, len, 0, 0, &whole);
    assert_int_equal(whole.status, EV_END);
    uint8_t *copy = malloc(len);
    assert_non_null(copy);
    memcpy(copy, buf, len);
    size_t n_ipe = 0;
    for (size_t i = 0; i < whole.n; i++) {
        const test_ev *e = &whole.ev[i];
        if (e->type != EL_IPE)
            continue;
        uint8_t *rec = copy + e->offset;
        assert_int_equal((rec[10] << 8 | rec[11]), e->size - 12 + 1);  /* as 9.6.6 */
        uint16_t shorter = (uint16_t)(e->size - 12 - 1);
        rec[10] = (uint8_t)(shorter >> 8);
        rec[11] = (uint8_t)shorter;
        n_ipe++;
    }
    assert_true(n_ipe > 100);
    static const size_t sizes[] = { 0, 1, 7, 64, 4096 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        test_run r;
        test_decode(copy, len, sizes[k], 0, &r);
        assert_int_equal(r.status, EV_END);
        assert_same_events(&whole, &r, "parse-hi, IPE declared one byte short");
        test_run_free(&r);
    }
    el_decoder *d = el_decoder_create();
    el_decoder_count_types(d, 1);
    el_decoder_feed(d, copy, len);
    el_event ev;
    ev_status st;
    while ((st = el_decoder_next(d, &ev)) == EV_OK)
        ;
    assert_int_equal(st, EV_END);
    const el_type_tally *t = el_decoder_tally(d);
    for (size_t i = 0; i < el_decoder_num_types(d); i++)
        if (el_decoder_type_at(d, i)->id == EL_IPE)
            assert_int_equal(t[i].declared_off, n_ipe);
    el_decoder_destroy(d);
    free(copy);
    test_run_free(&whole);
    free(buf);
}

/* ---- skipping what nobody reads ---------------------------------------
 * With only the selected types handed out, the decoder passes over the
 * others in a loop of its own (skip_quickly). What a read finds must not
 * depend on it: status, error, damage, time span, the tally and the
 * samples' capabilities are those of a read that hands out everything,
 * in chunks of any size. */
typedef struct skim {
    ev_status status;
    ev_error error;
    el_damage damage;
    int missing_end, has_span;
    uint64_t first, last;
    size_t num_types;
    el_type_tally *tally;
    uint8_t caps[EL_SAMPLE_CAPS_BYTES];
    uint8_t seen_caps[EL_SAMPLE_CAPS_BYTES];    /* of the samples handed out */
    uint64_t selected;          /* events of the selected types handed out */
} skim;

static int in_list(uint16_t type, const uint16_t *sel, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sel[i] == type)
            return 1;
    return 0;
}

static void skim_log(const uint8_t *buf, size_t len, size_t chunk, const uint16_t *sel, size_t n,
                     int selective, skim *out)
{
    el_decoder *d = el_decoder_create();
    el_event ev;
    ev_status st = EV_NEED_INPUT;
    size_t pos = 0;
    memset(out, 0, sizeof *out);
    assert_non_null(d);
    assert_int_equal(el_decoder_count_types(d, 1), 0);
    el_decoder_set_resync(d, 1);
    if (selective) {
        el_decoder_only_fields(d, sel, n);
        el_decoder_only_selected(d, 1);
    }
    while (pos < len && (st == EV_NEED_INPUT || st == EV_END)) {
        size_t k = chunk == 0 || chunk > len - pos ? len - pos : chunk;
        el_decoder_feed(d, buf + pos, k);
        pos += k;
        while ((st = el_decoder_next(d, &ev)) == EV_OK) {
            out->selected += in_list(ev.type, sel, n);
            if (ev.type == EL_PROF_SAMPLE_COST_CENTRE && ev.decoded &&
                ev.u.prof_sample.cap < EL_NO_CAP)
                out->seen_caps[ev.u.prof_sample.cap >> 3] |= (uint8_t)(1u << (ev.u.prof_sample.cap & 7));
        }
    }
    if (st == EV_NEED_INPUT || st == EV_END)
        st = el_decoder_finish(d);
    out->status = st;
    out->error = *el_decoder_error(d);
    out->damage = *el_decoder_damage(d);
    out->missing_end = el_decoder_missing_end(d);
    out->has_span = el_decoder_time_span(d, &out->first, &out->last);
    out->num_types = el_decoder_num_types(d);
    const el_type_tally *t = el_decoder_tally(d);
    if (t) {
        out->tally = malloc((out->num_types ? out->num_types : 1) * sizeof *out->tally);
        assert_non_null(out->tally);
        memcpy(out->tally, t, out->num_types * sizeof *t);
        memcpy(out->caps, el_decoder_sample_caps(d), sizeof out->caps);
    }
    el_decoder_destroy(d);
}

static void assert_same_skim(const skim *a, const skim *b, const char *what, size_t chunk)
{
    if (a->tally && b->tally && a->num_types == b->num_types)
        for (size_t i = 0; i < a->num_types; i++)
            if (a->tally[i].events != b->tally[i].events || a->tally[i].bytes != b->tally[i].bytes)
                fail_msg("%s, chunks of %zu: type %zu of the header: %llu/%llu events, "
                         "%llu/%llu bytes", what, chunk, i,
                         (unsigned long long)a->tally[i].events,
                         (unsigned long long)b->tally[i].events,
                         (unsigned long long)a->tally[i].bytes, (unsigned long long)b->tally[i].bytes);
    if (a->has_span != b->has_span || a->first != b->first || a->last != b->last)
        fail_msg("%s, chunks of %zu: time span %llu-%llu / %llu-%llu", what, chunk,
                 (unsigned long long)a->first, (unsigned long long)a->last,
                 (unsigned long long)b->first, (unsigned long long)b->last);
    if (a->status != b->status || a->error.offset != b->error.offset ||
        a->error.type != b->error.type || strcmp(a->error.msg, b->error.msg) != 0 ||
        a->damage.blocks != b->damage.blocks || a->damage.bytes != b->damage.bytes ||
        a->damage.first.offset != b->damage.first.offset || a->missing_end != b->missing_end ||
        a->has_span != b->has_span || (a->has_span && (a->first != b->first || a->last != b->last)) ||
        a->num_types != b->num_types || (!a->tally) != (!b->tally) ||
        (a->tally && memcmp(a->tally, b->tally, a->num_types * sizeof *a->tally) != 0) ||
        memcmp(a->caps, b->caps, sizeof a->caps) != 0 || a->selected != b->selected)
        fail_msg("%s, chunks of %zu: a selective read finds otherwise (status %d/%d, error at "
                 "%llu/%llu \"%s\"/\"%s\", damage %llu/%llu blocks, %llu/%llu selected)", what,
                 chunk, a->status, b->status, (unsigned long long)a->error.offset,
                 (unsigned long long)b->error.offset, a->error.msg, b->error.msg,
                 (unsigned long long)a->damage.blocks, (unsigned long long)b->damage.blocks,
                 (unsigned long long)a->selected, (unsigned long long)b->selected);
}

static void check_skims(const uint8_t *buf, size_t len, const char *what, size_t *runs)
{
    static const uint16_t caps_only[] = { EL_CAP_CREATE };
    static const uint16_t samples[] = { EL_PROF_SAMPLE_COST_CENTRE, EL_HEAP_PROF_BEGIN };
    static const struct { const uint16_t *sel; size_t n; } sels[] = {
        { caps_only, 1 }, { samples, 2 }, { NULL, 0 },
    };
    static const size_t chunks[] = { 0, 1, 7, 64, 4096 };
    for (size_t s = 0; s < sizeof sels / sizeof sels[0]; s++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            skim all, some;
            skim_log(buf, len, chunks[c], sels[s].sel, sels[s].n, 0, &all);
            skim_log(buf, len, chunks[c], sels[s].sel, sels[s].n, 1, &some);
            assert_same_skim(&all, &some, what, chunks[c]);
            /* the tally's capabilities are those of the samples read */
            assert_memory_equal(all.caps, all.seen_caps, sizeof all.caps);
            free(all.tally);
            free(some.tally);
            (*runs)++;
        }
}

/* A log of two blocks whose first holds, among thread events and
 * samples, a record damaged as `bad` says: 1 a sample whose stack depth
 * runs past its payload, 2 an RTS identifier shorter than its type's
 * smallest payload, 0 none. */
static void skim_damage_log(bb *b, int bad)
{
    b->n = 0;
    u32(b, 0x68647262);
    u32(b, 0x68657462);
    et(b, 167, 0xffff, "Time profile cost-centre stack");
    et(b, 18, 14, "Block marker");
    et(b, 29, 0xffff, "RTS name and version");
    et(b, 0, 4, "Create thread");
    u32(b, 0x68657465);
    u32(b, 0x68647265);
    u32(b, 0x64617462);
    for (int block = 0; block < 2; block++) {
        size_t at = b->n;
        u16(b, 18); u64(b, 1000 * (uint64_t)block); u32(b, 0); u64(b, 0); u16(b, (uint16_t)block);
        for (uint32_t k = 0; k < 3; k++) {
            u16(b, 0); u64(b, 1000 * (uint64_t)block + 10 + k); u32(b, k);
            u16(b, 167); u64(b, 1000 * (uint64_t)block + 20 + k); u16(b, 4 + 8 + 1 + 8);
            u32(b, 3 + k); u64(b, 1); u8(b, 2); u32(b, 7); u32(b, 8);
        }
        if (block == 0 && bad == 1) {
            u16(b, 167); u64(b, 50); u16(b, 4 + 8 + 1 + 4);
            u32(b, 9); u64(b, 2); u8(b, 200); u32(b, 7);
        } else if (block == 0 && bad == 2) {
            u16(b, 29); u64(b, 50); u16(b, 2); u16(b, 0x4142);
        }
        u16(b, 0); u64(b, 1000 * (uint64_t)block + 60); u32(b, 9);
        size_t size = b->n - at;    /* the marker's size: the whole block */
        b->b[at + 10] = (uint8_t)(size >> 24);
        b->b[at + 11] = (uint8_t)(size >> 16);
        b->b[at + 12] = (uint8_t)(size >> 8);
        b->b[at + 13] = (uint8_t)size;
    }
    u16(b, 0xffff);
}

static void test_selective_read_finds_the_same(void **state)
{
    (void)state;
    size_t runs = 0, len;
    for (size_t i = 0; i < sizeof corpus_logs / sizeof corpus_logs[0]; i++) {
        if (test_skip_missing(corpus_logs[i]))
            continue;
        uint8_t *buf = load(corpus_logs[i], &len);
        check_skims(buf, len, corpus_logs[i], &runs);
        /* cut short at a few places: records split at the end */
        for (size_t cut = 1000; cut < len && cut < 30000; cut += 4999)
            check_skims(buf, cut, corpus_logs[i], &runs);
        free(buf);
    }
    /* damage among the records skipped: the same damage found */
    for (int bad = 0; bad <= 2; bad++) {
        bb b;
        skim_damage_log(&b, bad);
        skim one;
        skim_log(b.b, b.n, 0, NULL, 0, 1, &one);
        assert_int_equal(one.damage.blocks, bad ? 1 : 0);
        assert_int_equal(one.status, EV_END);
        free(one.tally);
        check_skims(b.b, b.n, bad == 1 ? "a sample's stack past its payload"
                              : bad == 2 ? "a short RTS identifier" : "two blocks", &runs);
    }
    /* the damaged logs of the fuzzer's corpus */
    static const char *const dirs[] = { "tests/fuzz/bad", "tests/fuzz/regress" };
    char path[512];
    for (size_t k = 0; k < 2; k++) {
        DIR *dir = opendir(dirs[k]);
        assert_non_null(dir);
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
            uint8_t *buf = test_read_file(path, &len);
            if (!buf)
                continue;       /* not a file */
            check_skims(buf, len, path, &runs);
            free(buf);
        }
        closedir(dir);
    }
    assert_true(runs > 1000);
}

/* A read from memory counts its bytes as a file's read does (the read's
 * `bytes`, where its facts say the log ends): whole, cut mid-event, cut
 * at an event's end. */
static void test_mem_read_counts_bytes(void **state)
{
    (void)state;
    const char *path = CORPUS_DIR "/ghc-events/ticky-ticky.eventlog";
    size_t len;
    uint8_t *buf = load(path, &len);
    size_t cuts[] = { len, len / 2, len - 3 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        size_t nm = 0, nf = 0;
        el_read_result m = el_read_mem(buf, cuts[i], count_event, &nm, NULL);
        char tmp[] = "/tmp/evprof-test-memXXXXXX";
        int fd = mkstemp(tmp);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, buf, cuts[i]), (ssize_t)cuts[i]);
        close(fd);
        el_read_result f = el_read_path(tmp, count_event, &nf, NULL);
        unlink(tmp);
        assert_int_equal(m.status, f.status);
        assert_int_equal(nm, nf);
        assert_int_equal(m.bytes, f.bytes);
        assert_int_equal(m.bytes, cuts[i]);
    }
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mem_read_counts_bytes),
        cmocka_unit_test(test_corpus_decodes_whole),
        cmocka_unit_test(test_corpus_chunk_sizes),
        cmocka_unit_test(test_split_every_point),
        cmocka_unit_test(test_truncate_every_byte),
        cmocka_unit_test(test_real_truncated_log),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_not_eventlog),
        cmocka_unit_test(test_absurd_description_length),
        cmocka_unit_test(test_corrupt_header_marker),
        cmocka_unit_test(test_good_hand_made_log),
        cmocka_unit_test(test_undeclared_type),
        cmocka_unit_test(test_stack_depth_past_payload),
        cmocka_unit_test(test_unterminated_string),
        cmocka_unit_test(test_declared_size_vs_type),
        cmocka_unit_test(test_variable_length_past_end),
        cmocka_unit_test(test_block_capability),
        cmocka_unit_test(test_empty_and_garbage),
        cmocka_unit_test(test_only_selected),
        cmocka_unit_test(test_ipe_declared_short_real),
        cmocka_unit_test(test_selective_read_finds_the_same),
        cmocka_unit_test(test_resync_after_damaged_block),
        cmocka_unit_test(test_time_past_block_end),
        cmocka_unit_test(test_time_within_block),
        cmocka_unit_test(test_time_jump_outside_blocks),
        cmocka_unit_test(test_ipe_declared_length),
        cmocka_unit_test(test_ff_run_is_damage),
        cmocka_unit_test(test_trailing_bytes_after_end),
        cmocka_unit_test(test_blockless_end_marker_mid_log),
        cmocka_unit_test(test_file_shrinks_while_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
