/* The eventlog writer's GHC headers (el_writer_declare_ghc) are the
 * headers real GHC versions write: every type, description and size, in
 * order, as listed in tests/data/writer/ (taken from real logs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/eventlog.h"
#include "evprof/show.h"
#include "evprof/writer.h"

/* The header el_writer_declare_ghc writes, as `ghc-events show` lists it. */
static void header_text(el_ghc_types set, el_textbuf *out)
{
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    assert_int_equal(el_writer_declare_ghc(w, set), EL_WRITER_OK);
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);

    el_decoder *d = el_decoder_create();
    assert_non_null(d);
    el_decoder_feed(d, bytes, len);
    el_event ev;
    assert_int_equal(el_decoder_next(d, &ev), EL_END);
    for (size_t i = 0; i < el_decoder_num_types(d); i++) {
        assert_int_equal(el_show_type(out, el_decoder_type_at(d, i)), EL_OK);
        el_textbuf_append(out, "\n", 1);
    }
    el_decoder_destroy(d);
    el_writer_destroy(w);
}

static void expect_header(el_ghc_types set, const char *path)
{
    size_t want_len;
    uint8_t *want = test_read_file(path, &want_len);
    assert_non_null(want);
    el_textbuf got;
    el_textbuf_init(&got);
    header_text(set, &got);
    if (got.len != want_len || memcmp(got.data, want, want_len) != 0)
        fail_msg("header of set %d differs from %s; it writes:\n%.*s", (int)set, path,
                 (int)got.len, got.data ? got.data : "");
    el_textbuf_free(&got);
    free(want);
}

static void test_ghc_9_0(void **state)
{
    (void)state;
    expect_header(EL_GHC_9_0, "tests/data/writer/ghc-9.0.types");
}

static void test_ghc_9_2(void **state)
{
    (void)state;
    expect_header(EL_GHC_9_2, "tests/data/writer/ghc-9.2.types");
}

static void test_ghc_9_12(void **state)
{
    (void)state;
    expect_header(EL_GHC_9_12, "tests/data/writer/ghc-9.12.types");
}

/* A type declared before el_writer_declare_ghc keeps its declaration. */
static void test_declared_first(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_type(w, EL_HEAP_SIZE, 12, "mine"), EL_WRITER_OK);
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EL_WRITER_OK);
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    el_decoder *d = el_decoder_create();
    el_decoder_feed(d, bytes, len);
    el_event ev;
    assert_int_equal(el_decoder_next(d, &ev), EL_END);
    assert_int_equal(el_decoder_num_types(d), 69);
    const el_event_type *t = el_decoder_type(d, EL_HEAP_SIZE);
    assert_non_null(t);
    assert_int_equal(t->desc.len, 4);
    assert_memory_equal(t->desc.ptr, "mine", 4);
    assert_int_equal(el_decoder_type_at(d, 0)->id, EL_HEAP_SIZE);
    el_decoder_destroy(d);
    el_writer_destroy(w);
}

static void test_unknown_set(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, (el_ghc_types)99), EL_WRITER_ERR_USAGE);
    assert_string_equal(el_writer_error_msg(w), "unknown GHC type set 99");
    el_writer_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ghc_9_0),
        cmocka_unit_test(test_ghc_9_2),
        cmocka_unit_test(test_ghc_9_12),
        cmocka_unit_test(test_declared_first),
        cmocka_unit_test(test_unknown_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
