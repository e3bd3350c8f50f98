/* The formats as the modules' tables (evprof/format.h): every row of every
 * table has a name, a writer, names unique in its table, extensions that
 * find their own row; the one parser of names and extensions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "evprof/format.h"
#include "evprof/gc.h"
#include "evprof/graph.h"
#include "evprof/info.h"
#include "evprof/phases.h"
#include "evprof/prof.h"
#include "evprof/sched.h"
#include "evprof/ticky.h"

static const ev_format *(*const tables[])(size_t *) = {
    prof_formats, cg_formats, gc_formats, ticky_formats, phases_formats, info_formats,
    sched_formats,
};

static void test_tables(void **state)
{
    (void)state;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        size_t n = 0;
        const ev_format *list = tables[t](&n);
        assert_true(n >= 2);
        for (size_t i = 0; i < n; i++) {
            assert_non_null(list[i].name);
            assert_non_null(list[i].write);
            /* its name finds it, so no earlier row shadows it */
            assert_ptr_equal(ev_format_find(list, n, list[i].name), &list[i]);
            char path[64];
            if (list[i].exts) {     /* its first extension finds it */
                snprintf(path, sizeof path, "dir.x/out%.*s", (int)strcspn(list[i].exts, " "),
                         list[i].exts);
                assert_ptr_equal(ev_format_for_path(list, n, path), &list[i]);
            }
        }
    }
    size_t n;
    const ev_format *t = ticky_formats(&n);     /* row i is ticky_format i */
    assert_string_equal(t[TICKY_TEXT].name, "text");
    assert_string_equal(t[TICKY_CSV].name, "csv");
    assert_string_equal(t[TICKY_JSON].name, "json");
}

static void test_parser(void **state)
{
    (void)state;
    static const ev_format list[] = {
        { "csv", ".csv", NULL, 0 },
        { "ticky", ".ticky.csv .tk", NULL, 0 },
        { NULL, ".never", NULL, 0 },            /* an unused row */
        { "dot", ".dot .gv", NULL, 0 },
    };
    size_t n = sizeof list / sizeof list[0];
    assert_ptr_equal(ev_format_find(list, n, "CSV"), &list[0]);
    assert_ptr_equal(ev_format_find(list, n, "gv"), &list[3]);
    assert_ptr_equal(ev_format_find(list, n, ".gv"), NULL);    /* without the dot */
    assert_ptr_equal(ev_format_find(list, n, "ticky.csv"), &list[1]);
    assert_ptr_equal(ev_format_find(list, n, "never"), NULL);
    assert_ptr_equal(ev_format_find(list, n, ""), NULL);
    assert_ptr_equal(ev_format_find(list, n, NULL), NULL);
    assert_ptr_equal(ev_format_for_path(list, n, "a/b.csv"), &list[0]);
    assert_ptr_equal(ev_format_for_path(list, n, "a/b.TICKY.CSV"), &list[1]);   /* longest */
    assert_ptr_equal(ev_format_for_path(list, n, "b.gv"), &list[3]);
    assert_ptr_equal(ev_format_for_path(list, n, "x.never"), NULL);
    assert_ptr_equal(ev_format_for_path(list, n, ".csv"), NULL);   /* a name, not an extension */
    assert_ptr_equal(ev_format_for_path(list, n, "out.csv/graph"), NULL);
    assert_ptr_equal(ev_format_for_path(list, n, "noextension"), NULL);
    assert_ptr_equal(ev_format_for_path(NULL, 0, "x.csv"), NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
