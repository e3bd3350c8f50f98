/* The JSON writer (include/evprof/json.h): layouts, nesting, escaping,
 * numbers, and the misuse and write errors that tx_json_finish reports. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/json.h"

/* a writer on a memory stream; done() closes it and returns the text */
typedef struct mem {
    char *text;
    size_t size;
    FILE *f;
    tx_json j;
} mem;

static tx_json *start(mem *m, unsigned indent, int compact)
{
    m->text = NULL;
    m->size = 0;
    m->f = open_memstream(&m->text, &m->size);
    assert_non_null(m->f);
    tx_json_init(&m->j, m->f, indent, compact);
    return &m->j;
}

/* finish's result in *rc; the text (freed by the caller) */
static char *done(mem *m, int *rc)
{
    *rc = tx_json_finish(&m->j);
    fclose(m->f);
    return m->text;
}

static void expect(mem *m, int want_rc, const char *want)
{
    int rc;
    char *text = done(m, &rc);
    assert_string_equal(text, want);
    assert_int_equal(rc, want_rc);
    free(text);
}

/* ---- layouts ---------------------------------------------------------- */

static void block_and_inline(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 2, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_key(j, "a");
    tx_json_uint(j, 1);
    tx_json_key(j, "list");
    tx_json_array(j, TX_JSON_BLOCK);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "x");
    tx_json_bool(j, 1);
    tx_json_key(j, "y");
    tx_json_null(j);
    tx_json_end(j);
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_int(j, -1);
    tx_json_int(j, 2);
    tx_json_end(j);
    tx_json_end(j);
    tx_json_key(j, "empty_block");
    tx_json_array(j, TX_JSON_BLOCK);
    tx_json_end(j);
    tx_json_key(j, "empty_inline");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_end(j);
    tx_json_end(j);
    tx_json_space(j, "\n");
    expect(&m, 0,
           "{\n"
           "  \"a\": 1,\n"
           "  \"list\": [\n"
           "    {\"x\": true, \"y\": null},\n"
           "    [-1, 2]\n"
           "  ],\n"
           "  \"empty_block\": [],\n"
           "  \"empty_inline\": {}\n"
           "}\n");
}

static void indent_zero_and_space(void **state)
{
    (void)state;
    mem m;
    /* GHC's -pj layout: unindented lines, an inline array that starts on
     * a line of its own */
    tx_json *j = start(&m, 0, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_key(j, "cost_centres");
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_space(j, "\n");
    tx_json_uint(j, 1);
    tx_json_uint(j, 2);
    tx_json_end(j);
    tx_json_key(j, "p");
    tx_json_bool(j, 0);
    tx_json_end(j);
    expect(&m, 0, "{\n\"cost_centres\": [\n1, 2],\n\"p\": false\n}");
}

/* GHC-like lines: the flat object's keys unindented, its rows indented
 * once; an empty block array keeps [ and ] on lines of their own with
 * tx_json_space */
static void flat(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 2, 0);
    tx_json_object(j, TX_JSON_FLAT);
    tx_json_key(j, "kind");
    tx_json_cstr(j, "gc");
    tx_json_key(j, "base");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "source");
    tx_json_null(j);
    tx_json_end(j);
    tx_json_key(j, "rows");
    tx_json_array(j, TX_JSON_BLOCK);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "n");
    tx_json_uint(j, 1);
    tx_json_end(j);
    tx_json_array(j, TX_JSON_FLAT);     /* flat inside a block */
    tx_json_uint(j, 2);
    tx_json_end(j);
    tx_json_end(j);
    tx_json_key(j, "none");
    tx_json_array(j, TX_JSON_BLOCK);
    tx_json_space(j, "\n");
    tx_json_end(j);
    tx_json_end(j);
    tx_json_space(j, "\n");
    expect(&m, 0,
           "{\n"
           "\"kind\": \"gc\",\n"
           "\"base\": {\"source\": null},\n"
           "\"rows\": [\n"
           "  {\"n\": 1},\n"
           "  [\n"
           "  2\n"
           "  ]\n"
           "],\n"
           "\"none\": [\n"
           "]\n"
           "}\n");
}

static void compact(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 4, 1);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "a");
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_end(j);
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_uint(j, 0);
    tx_json_uint(j, 7);
    tx_json_end(j);
    tx_json_end(j);
    tx_json_key(j, "b");
    tx_json_cstr(j, "c");
    tx_json_end(j);
    expect(&m, 0, "{\"a\":[[],[0,7]],\"b\":\"c\"}");
}

static void scalar_document(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 2, 0);
    tx_json_cstr(j, "only");
    expect(&m, 0, "\"only\"");
}

/* deep nesting as the time profile's tree has: balanced to the end */
static void deep(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 0, 1);
    for (int i = 0; i < TX_JSON_MAX_DEPTH; i++)
        tx_json_array(j, TX_JSON_INLINE);
    for (int i = 0; i < TX_JSON_MAX_DEPTH; i++)
        tx_json_end(j);
    int rc;
    char *text = done(&m, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(strlen(text), 2 * TX_JSON_MAX_DEPTH);
    assert_int_equal(text[TX_JSON_MAX_DEPTH - 1], '[');
    assert_int_equal(text[TX_JSON_MAX_DEPTH], ']');
    free(text);
}

/* ---- strings ---------------------------------------------------------- */

static void escaping(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 0, 1);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "k\"\n");                            /* keys are escaped too */
    tx_json_string(j, "q\"b\\\x01\x7f\t\xc2\x85", 9);   /* C0, DEL, C1 (U+0085) */
    tx_json_key(j, "bad");
    tx_json_string(j, "a\xff\xc3(b\xe2\x82", 7);          /* not UTF-8: U+FFFD each */
    tx_json_key(j, "utf8");
    tx_json_cstr(j, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");   /* kept as is */
    tx_json_key(j, "nul");
    tx_json_string(j, "a\0b", 3);
    tx_json_key(j, "null");
    tx_json_cstr(j, NULL);
    tx_json_end(j);
    expect(&m, 0,
           "{\"k\\\"\\n\":\"q\\\"b\\\\\\u0001\\u007f\\t\\u0085\","
           "\"bad\":\"a\\ufffd\\ufffd(b\\ufffd\\ufffd\","
           "\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\","
           "\"nul\":\"a\\u0000b\",\"null\":null}");
}

/* for JSON in an HTML <script> element: < > & U+2028 U+2029 escaped in
 * strings and keys (the short key too, which takes a faster path), the
 * rest as in the default mode */
static void html_safe(void **state)
{
    (void)state;
    const char *hostile = "</script><!--&\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa";
    mem m;
    tx_json *j = start(&m, 0, 1);
    tx_json_set_html_safe(j, 1);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "<k>");
    tx_json_cstr(j, hostile);
    tx_json_key(j, "k\"\n&");
    tx_json_string(j, "q\"b\\\x01\x7f\t\r\xc2\x85", 10);
    tx_json_key(j, "bad");
    tx_json_string(j, "a\xff<\xe2\x80", 5);
    tx_json_key(j, "utf8");
    tx_json_cstr(j, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    tx_json_end(j);
    expect(&m, 0,
           "{\"\\u003ck\\u003e\":"
           "\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029\xe2\x80\xaa\","
           "\"k\\\"\\n\\u0026\":\"q\\\"b\\\\\\u0001\\u007f\\t\\r\\u0085\","
           "\"bad\":\"a\\ufffd\\u003c\\ufffd\\ufffd\","
           "\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}");

    /* off by default: the same text as is */
    j = start(&m, 0, 1);
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_cstr(j, "</script>&\xe2\x80\xa8");
    tx_json_end(j);
    expect(&m, 0, "[\"</script>&\xe2\x80\xa8\"]");
}

/* keys and documents longer than what the writer gathers before writing */
static void long_output(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 1, 0);
    char key[3000];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_key(j, key);
    tx_json_array(j, TX_JSON_INLINE);
    for (int i = 0; i < 5000; i++)
        tx_json_uint(j, (uint64_t)i);
    tx_json_end(j);
    tx_json_end(j);
    int rc;
    char *text = done(&m, &rc);
    assert_int_equal(rc, 0);
    /* the same built by hand */
    size_t cap = 64 + sizeof key + 5000 * 8, n = 0;
    char *want = malloc(cap);
    assert_non_null(want);
    n += (size_t)snprintf(want + n, cap - n, "{\n \"%s\": [", key);
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(want + n, cap - n, "%s%d", i ? ", " : "", i);
    snprintf(want + n, cap - n, "]\n}");
    assert_string_equal(text, want);
    free(want);
    free(text);
}

/* ---- numbers ---------------------------------------------------------- */

static void numbers(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 0, 1);
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_uint(j, 0);
    tx_json_uint(j, UINT64_MAX);
    tx_json_int(j, INT64_MIN);
    tx_json_int(j, INT64_MAX);
    tx_json_double(j, 0.750016992, 10);
    tx_json_double(j, INFINITY, 10);           /* inf */
    tx_json_double(j, -INFINITY, 10);
    tx_json_double(j, NAN, 10);
    tx_json_double(j, 1.5e-7, 3);
    tx_json_fixed(j, 0.16, 11, 2);                  /* GHC's %11.2f */
    tx_json_fixed(j, NAN, 11, 2);
    tx_json_fixed(j, 2.5, 0, 0);
    tx_json_decimal(j, 13953579, 9);
    tx_json_decimal(j, 1500000000, 9);
    tx_json_decimal(j, UINT64_MAX, 19);
    tx_json_decimal(j, 42, 0);
    tx_json_end(j);
    expect(&m, 0,
           "[0,18446744073709551615,-9223372036854775808,9223372036854775807,"
           "0.750016992,null,null,null,1.5e-07,       0.16,null,2,"
           "0.013953579,1.500000000,1.8446744073709551615,42]");
}

/* ---- misuse and write errors ------------------------------------------ */

/* each misuse fails the writer: nothing more is written, finish says -1 */
static void misuse(void **state)
{
    (void)state;
    mem m;
    tx_json *j;

    j = start(&m, 0, 0);                    /* a value without its key */
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_uint(j, 1);
    tx_json_end(j);
    expect(&m, -1, "{");

    j = start(&m, 0, 0);                    /* a key in an array */
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_key(j, "k");
    tx_json_end(j);
    expect(&m, -1, "[");

    j = start(&m, 0, 0);                    /* two keys in a row */
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "a");
    tx_json_key(j, "b");
    expect(&m, -1, "{\"a\": ");

    j = start(&m, 0, 0);                    /* a key, then the close */
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "a");
    tx_json_end(j);
    tx_json_null(j);
    expect(&m, -1, "{\"a\": ");

    j = start(&m, 0, 0);                    /* a close with nothing open */
    tx_json_end(j);
    tx_json_array(j, TX_JSON_INLINE);
    expect(&m, -1, "");

    j = start(&m, 0, 0);                    /* a key at the top */
    tx_json_key(j, "a");
    expect(&m, -1, "");

    j = start(&m, 0, 0);                    /* a second top-level value */
    tx_json_uint(j, 1);
    tx_json_uint(j, 2);
    expect(&m, -1, "1");

    j = start(&m, 0, 0);                    /* not whitespace */
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_space(j, " ,");
    tx_json_end(j);
    expect(&m, -1, "[");

    j = start(&m, 0, 0);                    /* decimals beyond uint64's */
    tx_json_decimal(j, 1, 20);
    expect(&m, -1, "");

    j = start(&m, 0, 1);                    /* too deep */
    for (int i = 0; i <= TX_JSON_MAX_DEPTH; i++)
        tx_json_array(j, TX_JSON_INLINE);
    for (int i = 0; i <= TX_JSON_MAX_DEPTH; i++)
        tx_json_end(j);
    int rc;
    char *text = done(&m, &rc);
    assert_int_equal(rc, -1);
    assert_int_equal(strlen(text), TX_JSON_MAX_DEPTH);
    free(text);
}

static void unbalanced_finish(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 2, 0);           /* an open container */
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_key(j, "a");
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_end(j);
    expect(&m, -1, "{\n  \"a\": []");

    j = start(&m, 2, 0);                    /* nothing at all */
    expect(&m, -1, "");

    j = start(&m, 2, 0);                    /* whitespace only */
    tx_json_space(j, "\n");
    expect(&m, -1, "\n");
}

static void write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        skip();
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    tx_json j;
    tx_json_init(&j, f, 0, 0);
    tx_json_array(&j, TX_JSON_INLINE);
    tx_json_uint(&j, 1);
    tx_json_end(&j);
    assert_int_equal(tx_json_finish(&j), -1);       /* balanced, but not written */
    fclose(f);
}

/* Keys of every length up to 100 at every buffer position the writer
 * may be at: plain ones as they are, with '<' or '&' as is unless
 * html_safe, where they become \\u escapes. */
static void keys(void **state)
{
    (void)state;
    char key[101], want[400];
    for (int html = 0; html < 2; html++)
        for (size_t len = 0; len <= 100; len += (len < 40 ? 1 : 7))
            for (int special = 0; special < 2; special++) {
                mem m;
                tx_json *j = start(&m, 0, 1);
                tx_json_set_html_safe(j, html);
                tx_json_object(j, TX_JSON_INLINE);
                /* values of many lengths move the key across the buffer's end */
                for (int i = 0; i < 60; i++) {
                    for (size_t k = 0; k < len; k++)
                        key[k] = (char)('a' + (k + (size_t)i) % 26);
                    if (special && len)
                        key[len / 2] = i % 2 ? '<' : '&';
                    key[len] = '\0';
                    tx_json_key(j, key);
                    tx_json_uint(j, (uint64_t)i * 12345);
                    tx_json_key(j, i % 2 ? "x" : "y");
                    tx_json_uint(j, 7);
                }
                tx_json_end(j);
                int rc;
                char *text = done(&m, &rc);
                assert_int_equal(rc, 0);
                /* rebuild what is expected, pair by pair */
                size_t at = 1;
                assert_int_equal(text[0], '{');
                for (int i = 0; i < 60; i++) {
                    size_t w = 0;
                    want[w++] = i ? ',' : '"';
                    if (i)
                        want[w++] = '"';
                    for (size_t k = 0; k < len; k++) {
                        char c = (char)('a' + (k + (size_t)i) % 26);
                        if (special && k == len / 2)
                            c = i % 2 ? '<' : '&';
                        if (html && (c == '<' || c == '&'))
                            w += (size_t)sprintf(want + w, "\\u%04x", (unsigned)c);
                        else
                            want[w++] = c;
                    }
                    w += (size_t)sprintf(want + w, "\":%llu,\"%s\":7",
                                         (unsigned long long)i * 12345, i % 2 ? "x" : "y");
                    assert_memory_equal(text + at, want, w);
                    at += w;
                }
                assert_string_equal(text + at, "}");
                free(text);
            }
}

/* A raw value: the separator before it is the writer's, the text the
 * caller's; misplaced (as a key's place in an object) it is refused. */
static void raw(void **state)
{
    (void)state;
    mem m;
    tx_json *j = start(&m, 0, 0);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "a");
    tx_json_uint(j, 1);
    tx_json_key(j, "tree");
    FILE *f = tx_json_raw_begin(j);
    assert_non_null(f);
    fputs("{\"x\": [1, 2]}", f);
    tx_json_raw_end(j);
    tx_json_key(j, "b");
    tx_json_array(j, TX_JSON_INLINE);
    fputs("3", tx_json_raw_begin(j));
    tx_json_raw_end(j);
    tx_json_uint(j, 4);
    tx_json_end(j);
    tx_json_end(j);
    expect(&m, 0, "{\"a\": 1, \"tree\": {\"x\": [1, 2]}, \"b\": [3, 4]}");

    j = start(&m, 0, 0);
    tx_json_object(j, TX_JSON_INLINE);
    assert_null(tx_json_raw_begin(j));      /* a key must come first */
    expect(&m, -1, "{");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(block_and_inline),
        cmocka_unit_test(indent_zero_and_space),
        cmocka_unit_test(flat),
        cmocka_unit_test(compact),
        cmocka_unit_test(scalar_document),
        cmocka_unit_test(deep),
        cmocka_unit_test(escaping),
        cmocka_unit_test(html_safe),
        cmocka_unit_test(keys),
        cmocka_unit_test(raw),
        cmocka_unit_test(long_output),
        cmocka_unit_test(numbers),
        cmocka_unit_test(misuse),
        cmocka_unit_test(unbalanced_finish),
        cmocka_unit_test(write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
