/* Aligned text tables (util/table.h): measured and fixed columns, rows
 * left out of the widths, cells that overflow, log strings in their
 * visible form, and the misuse that tx_table_write refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/table.h"

static char *written(const tx_table *t, int *rc)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    *rc = tx_table_write(t, f);
    fclose(f);
    return text;
}

static void row(tx_table *t, int counted, const char *a, const char *b, const char *c)
{
    tx_table_add(t, a, strlen(a));
    tx_table_add(t, b, strlen(b));
    tx_table_add(t, c, strlen(c));
    tx_table_end_row(t, counted);
}

static void layout(void **state)
{
    (void)state;
    static const tx_col cols[] = {
        { NULL, TX_LEFT, 0, 1 },        /* measured */
        { "  ", TX_RIGHT, 4, 1 },       /* measured, at least 4 */
        { " | ", TX_RIGHT, 3, 0 },      /* fixed */
    };
    tx_table t;
    tx_table_init(&t, cols, 3);
    row(&t, 1, "name", "n", "x");
    row(&t, 1, "a", "123456", "1");
    row(&t, 1, "longer name", "7", "12345");    /* overflows the fixed column */
    row(&t, 0, "a total row left out", "", "");  /* not counted */
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text,
                        "name              n |   x\n"
                        "a            123456 |   1\n"
                        "longer name       7 | 12345\n"
                        "a total row left out         |    \n");
    free(text);
    tx_table_free(&t);
}

/* no blanks at the end of a line: a left-aligned last column */
static void last_left(void **state)
{
    (void)state;
    static const tx_col cols[] = { { NULL, TX_RIGHT, 3, 0 }, { " ", TX_LEFT, 0, 1 } };
    tx_table t;
    tx_table_init(&t, cols, 2);
    tx_table_addf(&t, "%d", 1);
    tx_table_add(&t, "long", 4);
    tx_table_end_row(&t, 1);
    tx_table_addf(&t, "%d", 22);
    tx_table_add(&t, "s", 1);
    tx_table_end_row(&t, 1);
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "  1 long\n 22 s\n");
    free(text);
    tx_table_free(&t);
}

/* log bytes: written and measured in their visible form */
static void visible_form(void **state)
{
    (void)state;
    static const tx_col cols[] = { { NULL, TX_LEFT, 0, 1 }, { " ", TX_RIGHT, 0, 1 } };
    tx_table t;
    tx_table_init(&t, cols, 2);
    tx_table_add(&t, "a\x1b[b", 4);            /* \x1b: 4 columns */
    tx_table_add(&t, "1", 1);
    tx_table_end_row(&t, 1);
    tx_table_add(&t, "\xc3\xa9\xff", 3);       /* é and U+FFFD: 2 columns */
    tx_table_add(&t, "22", 2);
    tx_table_end_row(&t, 1);
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "a\\x1b[b  1\n\xc3\xa9\xef\xbf\xbd      22\n");
    free(text);
    tx_table_free(&t);
}

static void long_cell(void **state)
{
    (void)state;
    static const tx_col cols[] = { { NULL, TX_LEFT, 0, 1 } };
    tx_table t;
    tx_table_init(&t, cols, 1);
    tx_table_addf(&t, "%0300d", 7);             /* beyond addf's small buffer */
    tx_table_end_row(&t, 1);
    int rc;
    char *text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(strlen(text), 301);
    assert_int_equal(text[299], '7');
    free(text);
    tx_table_free(&t);
}

/* a row of the wrong length, or an unfinished one: nothing written, -1 */
static void misuse(void **state)
{
    (void)state;
    static const tx_col cols[] = { { NULL, TX_LEFT, 0, 1 }, { " ", TX_LEFT, 0, 1 } };
    tx_table t;
    int rc;
    char *text;

    tx_table_init(&t, cols, 2);
    tx_table_add(&t, "a", 1);
    tx_table_end_row(&t, 1);                    /* one cell short */
    tx_table_add(&t, "b", 1);
    tx_table_add(&t, "c", 1);
    tx_table_end_row(&t, 1);
    text = written(&t, &rc);
    assert_int_equal(rc, -1);
    assert_string_equal(text, "");
    free(text);
    tx_table_free(&t);

    tx_table_init(&t, cols, 2);
    tx_table_add(&t, "a", 1);
    tx_table_add(&t, "b", 1);
    tx_table_end_row(&t, 1);
    tx_table_add(&t, "c", 1);                   /* never ended */
    text = written(&t, &rc);
    assert_int_equal(rc, -1);
    assert_string_equal(text, "");
    free(text);
    tx_table_free(&t);

    tx_table_init(&t, cols, 2);                 /* no rows: nothing, and fine */
    text = written(&t, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(text, "");
    free(text);
    tx_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout),
        cmocka_unit_test(last_left),
        cmocka_unit_test(visible_form),
        cmocka_unit_test(long_cell),
        cmocka_unit_test(misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
