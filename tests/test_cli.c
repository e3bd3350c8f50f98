/* Unit tests of the CLI helpers (cli/cli.c): option tables, positional
 * arguments, JSON and terminal string output; the run's context
 * (cli/ctx.c): what the options and helpers keep goes there, nowhere else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* the CLI is not in the library: compile its helpers into this test */
#include "evprof/textout.h"
#include "../cli/cli.c"
#include "../cli/ctx.c"
#include "../cli/signals.c"

/* Parses argv (NULL-terminated list) by a bound table; returns the
 * cli_parse result and what reached the variables. */
typedef struct parsed {
    int end;
    int quiet;
    const char *format;
    unsigned long top;
    double share;
    int calls;
    const char *called_with;
    int npos;
    const char *pos[8];
} parsed;

static int count_call(const cli_args *a, void *var, const void *ctx)
{
    parsed *p = var;
    if (a->value && strcmp(a->value, "bad") == 0) {
        cli_usage_error(a->cmd, "bad value for %s", (const char *)ctx);
        return -1;
    }
    p->calls++;
    p->called_with = a->value;
    return 0;
}

static const cli_cmd_help help = { "test", "[OPTIONS] FILE", "A test command.", "More text." };

static parsed parse(char **argv)
{
    parsed p;
    memset(&p, 0, sizeof p);
    const cli_opt opts[] = {
        OPT_STRING('f', "format", "FMT", &p.format, "output format"),
        OPT_FLAG('q', "quiet", &p.quiet, "say less"),
        OPT_COUNT('n', "top", "N", &p.top, 1, 10, "the first N"),
        OPT_NUMBER(0, "share", "PCT", &p.share, 0, 100, "a share"),
        OPT_CALL('c', "call", "X", count_call, &p, "--call", "calls"),
        OPT_CALL(0, "touch", NULL, count_call, &p, "--touch", "calls without a value"),
        OPT_END,
    };
    int argc = 0;
    while (argv[argc])
        argc++;
    cli_args a;
    p.end = cli_parse(&help, opts, argc, argv, &a);
    p.npos = a.npos;
    for (int i = 0; i < a.npos && i < 8; i++)
        p.pos[i] = a.pos[i];
    return p;
}

static void test_long_and_short_options(void **state)
{
    (void)state;
    char *a1[] = { "test", "--format=json", "x.eventlog", NULL };
    parsed p = parse(a1);
    assert_int_equal(p.end, CLI_END);
    assert_string_equal(p.format, "json");
    assert_int_equal(p.npos, 1);
    assert_string_equal(p.pos[0], "x.eventlog");

    char *a2[] = { "test", "x.eventlog", "--format", "text", "-q", NULL };
    p = parse(a2);
    assert_int_equal(p.end, CLI_END);
    assert_string_equal(p.format, "text");
    assert_int_equal(p.quiet, 1);
    assert_int_equal(p.npos, 1);

    char *a3[] = { "test", "-qqfjson", "-", NULL };
    p = parse(a3);
    assert_int_equal(p.end, CLI_END);
    assert_int_equal(p.quiet, 1);
    assert_string_equal(p.format, "json");
    assert_int_equal(p.npos, 1);
    assert_string_equal(p.pos[0], "-");

    char *a4[] = { "test", "-f", "json", NULL };
    p = parse(a4);
    assert_string_equal(p.format, "json");
    assert_int_equal(p.npos, 0);
}

static void test_bound_values(void **state)
{
    (void)state;
    char *a1[] = { "test", "-n3", "--share=2.5", "--call", "x", "--touch", NULL };
    parsed p = parse(a1);
    assert_int_equal(p.end, CLI_END);
    assert_int_equal(p.top, 3);
    assert_true(p.share == 2.5);
    assert_int_equal(p.calls, 2);
    assert_null(p.called_with);            /* --touch came last: a flag */
    assert_int_equal(p.npos, 0);

    char *a2[] = { "test", "-cy", NULL };
    p = parse(a2);
    assert_int_equal(p.calls, 1);
    assert_string_equal(p.called_with, "y");

    char *a3[] = { "test", "--top", "11", NULL };        /* out of range */
    assert_int_equal(parse(a3).end, CLI_ERROR);
    char *a4[] = { "test", "--top", "0x3", NULL };       /* not decimal */
    assert_int_equal(parse(a4).end, CLI_ERROR);
    char *a5[] = { "test", "--share", "1e1", NULL };
    assert_int_equal(parse(a5).end, CLI_ERROR);
    char *a6[] = { "test", "--call", "bad", NULL };      /* the callback refuses */
    assert_int_equal(parse(a6).end, CLI_ERROR);
    char *a7[] = { "test", "--touch=1", NULL };
    assert_int_equal(parse(a7).end, CLI_ERROR);
}

static void test_positionals_keep_order(void **state)
{
    (void)state;
    char *argv[] = { "test", "a", "-q", "b", "--", "-c", "--format", NULL };
    parsed p = parse(argv);
    assert_int_equal(p.end, CLI_END);
    assert_int_equal(p.quiet, 1);
    assert_int_equal(p.npos, 4);
    assert_string_equal(p.pos[0], "a");
    assert_string_equal(p.pos[1], "b");
    assert_string_equal(p.pos[2], "-c");
    assert_string_equal(p.pos[3], "--format");
}

static void test_usage_errors(void **state)
{
    (void)state;
    char *a1[] = { "test", "--nope", NULL };
    assert_int_equal(parse(a1).end, CLI_ERROR);
    char *a2[] = { "test", "-z", NULL };
    assert_int_equal(parse(a2).end, CLI_ERROR);
    char *a3[] = { "test", "--format", NULL };
    assert_int_equal(parse(a3).end, CLI_ERROR);
    char *a4[] = { "test", "--quiet=yes", NULL };
    assert_int_equal(parse(a4).end, CLI_ERROR);
    char *a5[] = { "test", "-f", NULL };
    assert_int_equal(parse(a5).end, CLI_ERROR);
    char *a6[] = { "test", "--form", "json", NULL };   /* no prefix matching */
    assert_int_equal(parse(a6).end, CLI_ERROR);
    assert_int_equal(cli_done_code(CLI_ERROR), CLI_USAGE);
}

static void test_help(void **state)
{
    (void)state;
    char *a1[] = { "test", "x", "--help", NULL };
    assert_int_equal(parse(a1).end, CLI_HELP);
    char *a2[] = { "test", "-h", NULL };
    assert_int_equal(parse(a2).end, CLI_HELP);
    assert_int_equal(cli_done_code(CLI_HELP), CLI_OK);

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    const cli_opt opts[] = {
        OPT_STRING('f', "format", "FMT", NULL, "output format"),
        OPT_FLAG('q', "quiet", NULL, "say less"),
        OPT_NUMBER(0, "share", "PCT", NULL, 0, 100, "a share"),
        CLI_JOBS_OPT(NULL),
        OPT_END,
    };
    cli_print_help(out, &help, opts);
    fclose(out);
    assert_string_equal(text,
        "Usage: evprof test [OPTIONS] FILE\n\nA test command.\n\nOptions:\n"
        "  -f, --format FMT       output format\n"
        "  -q, --quiet            say less\n"
        "      --share PCT        a share\n"
        "  -j, --jobs N           read on N threads (default: the CPUs online; 1: one)\n"
        "  -h, --help             show this help\n"
        "\nMore text.\n");
    free(text);
}

/* -j into the context it is bound to, and the visible forms of paths kept
 * there: two runs' contexts share nothing. */
static void test_context(void **state)
{
    (void)state;
    cli_ctx one, two;
    cli_ctx_init(&two);
    cli_ctx_init(&one);
    const cli_opt opts[] = { CLI_JOBS_OPT(&one), OPT_END };
    char *argv[] = { "test", "-j", "3", "FILE", NULL };
    cli_args a;
    assert_int_equal(cli_parse(&help, opts, 4, argv, &a), CLI_END);
    assert_int_equal(one.jobs_given, 3);
    assert_int_equal(two.jobs_given, 0);

    const char *path = "a\nb";
    const char *shown = cli_display_path(&one, path);
    assert_string_equal(shown, "a\\nb");
    assert_ptr_equal(cli_display_path(&one, path), shown);     /* kept, not made again */
    assert_int_equal(one.num_shown, 1);
    assert_int_equal(two.num_shown, 0);
    assert_string_equal(cli_display_path(&two, "plain"), "plain");
    assert_string_equal(cli_display_path(&two, "-"), "<stdin>");
    assert_int_equal(two.num_shown, 0);

    /* blocks and selections kept until the context is freed */
    assert_non_null(cli_ctx_keep(&one, malloc(16)));
    assert_int_equal(cli_ctx_keep_select(&one, ev_select_create(NULL, 0, 1)), 0);
    assert_int_equal(one.num_blocks, 1);
    assert_int_equal(one.num_selects, 1);
    cli_ctx_free(&one);
    assert_int_equal(one.num_shown + one.num_blocks + one.num_selects, 0);
    cli_ctx_free(&two);
}

static void test_want_pos(void **state)
{
    (void)state;
    char *argv[] = { "test", "a", "b", NULL };
    const cli_opt opts[] = { OPT_END };
    cli_args a;
    assert_int_equal(cli_parse(&help, opts, 3, argv, &a), CLI_END);
    assert_int_equal(cli_want_pos(&a, 1, 2, "FILE"), 1);
    assert_int_equal(cli_want_pos(&a, 1, 1, "FILE"), 0);
    assert_int_equal(cli_want_pos(&a, 3, 3, "FILE"), 0);
}

static char *json(const char *s, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    tx_json_str(out, s, n);
    fclose(out);
    return text;
}

#define JSON_EQ(lit, want)                                  \
    do {                                                    \
        char *got_ = json(lit, sizeof(lit) - 1);            \
        assert_string_equal(got_, want);                    \
        free(got_);                                         \
    } while (0)

static void test_json_strings(void **state)
{
    (void)state;
    JSON_EQ("plain", "\"plain\"");
    JSON_EQ("", "\"\"");
    JSON_EQ("a\"b\\c", "\"a\\\"b\\\\c\"");
    JSON_EQ("t\tn\nr\r\x01\x1f\x7f", "\"t\\tn\\nr\\r\\u0001\\u001f\\u007f\"");
    JSON_EQ("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    JSON_EQ("\xff", "\"\\ufffd\"");
    JSON_EQ("a\x80z", "\"a\\ufffdz\"");
    JSON_EQ("\xc0\xaf", "\"\\ufffd\\ufffd\"");                 /* overlong */
    JSON_EQ("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");      /* surrogate */
    JSON_EQ("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
    JSON_EQ("\xe2\x82", "\"\\ufffd\\ufffd\"");                 /* cut short */
    JSON_EQ("a\0b", "\"a\\u0000b\"");
}

static void test_text_strings(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cli_text_str(out, "a\tb\nc\x1b\xc3\xa9", 8);
    fclose(out);
    assert_string_equal(text, "a\\tb\\nc\\x1b\xc3\xa9");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_and_short_options),
        cmocka_unit_test(test_bound_values),
        cmocka_unit_test(test_positionals_keep_order),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_want_pos),
        cmocka_unit_test(test_context),
        cmocka_unit_test(test_json_strings),
        cmocka_unit_test(test_text_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
