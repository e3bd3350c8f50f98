/* ghc-events text of single events (el_show_*): the escapes and fallback
 * rules the corpus does not exercise. Expected strings follow ghc-events'
 * buildEventInfo and Haskell's showLitString / isPrint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/eventlog.h"
#include "evprof/show.h"

#define S(lit) ((el_str){ (lit), sizeof(lit) - 1 })

static el_event_type type_of(uint16_t id, int32_t size, const char *desc)
{
    el_event_type t = { id, size, { desc, (uint32_t)strlen(desc) } };
    return t;
}

static void expect_text(const el_event *ev, const char *want)
{
    el_textbuf b;
    el_textbuf_init(&b);
    assert_int_equal(el_show_event(&b, ev), EV_OK);
    if (b.len != strlen(want) || memcmp(b.data, want, b.len) != 0)
        fail_msg("got \"%.*s\", want \"%s\"", (int)b.len, b.data ? b.data : "", want);
    el_textbuf_free(&b);
}

static el_event args_event(const el_event_type *et, el_str args)
{
    el_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EL_PROGRAM_ARGS;
    ev.cap = EL_NO_CAP;
    ev.et = et;
    ev.decoded = 1;
    ev.u.text.capset = 0;
    ev.u.text.str = args;
    return ev;
}

static void test_args_show_escapes(void **state)
{
    (void)state;
    el_event_type et = type_of(EL_PROGRAM_ARGS, EL_VARIABLE_SIZE, "Program arguments");
    el_event ev;

    ev = args_event(&et, S("./Fib\0+RTS\0-l-au\0-p\0"));
    expect_text(&ev, "capset 0: args: [\"./Fib\",\"+RTS\",\"-l-au\",\"-p\"]");
    /* quote, backslash, newline, tab, DEL, SOH, \SO before H and not */
    ev = args_event(&et, S("a\"b\\c\nd\te\x7f\x01\x0eH\x0eI"));
    expect_text(&ev, "capset 0: args: [\"a\\\"b\\\\c\\nd\\te\\DEL\\SOH\\SO\\&H\\SOI\"]");
    /* non-ASCII as decimal escapes; \& only before a digit */
    ev = args_event(&et, S("\xc3\xa9" "1\xc3\xa9x\xe3\x81\x93"));
    expect_text(&ev, "capset 0: args: [\"\\233\\&1\\233x\\12371\"]");
    /* invalid UTF-8 as U+FFFD; empty strings inside, trailing NULs dropped */
    ev = args_event(&et, S("\xff" "9\0\0b\0\0\0"));
    expect_text(&ev, "capset 0: args: [\"\\65533\\&9\",\"\",\"b\"]");
    ev = args_event(&et, S(""));
    expect_text(&ev, "capset 0: args: [\"\"]");
    /* a numeric escape at the end of one string, a digit starting the next */
    ev = args_event(&et, S("\xc3\xa9\0" "1"));
    expect_text(&ev, "capset 0: args: [\"\\233\",\"1\"]");
}

static void test_binary_message(void **state)
{
    (void)state;
    el_event_type et = type_of(EL_USER_BINARY_MSG, EL_VARIABLE_SIZE, "User binary message");
    el_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EL_USER_BINARY_MSG;
    ev.et = &et;
    ev.decoded = 1;
    /* a, SOH, invalid 0xff, é, U+0085 (C1), space, U+200B (Cf), soft
     * hyphen U+00AD, a lead byte cut short before 'z', U+E000 (private) */
    ev.u.text.str = S("a\x01\xff\xc3\xa9\xc2\x85 \xe2\x80\x8b\xc2\xad\xe2\x82z\xee\x80\x80");
    expect_text(&ev, "binary message a..\xc3\xa9. ....z.");
}

static void test_text_fields(void **state)
{
    (void)state;
    el_event_type et = type_of(EL_USER_MSG, EL_VARIABLE_SIZE, "User message");
    el_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EL_USER_MSG;
    ev.et = &et;
    ev.decoded = 1;
    ev.u.text.str = S("ok \xe3\x81\x93 bad \xc0\xaf!");
    expect_text(&ev, "ok \xe3\x81\x93 bad \xef\xbf\xbd\xef\xbf\xbd!");

    /* interned strings are read byte per character (Latin-1) */
    el_event_type it = type_of(EL_INTERN_STRING, EL_VARIABLE_SIZE, "Intern string");
    ev.type = EL_INTERN_STRING;
    ev.et = &it;
    ev.u.text.str = S("caf\xe9");
    ev.u.text.capset = 7;
    expect_text(&ev, "Interned string: \"caf\xc3\xa9\" with id 7");
}

static void test_description_fallback(void **state)
{
    (void)state;
    el_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EL_STOP_THREAD;
    ev.decoded = 1;
    ev.u.stop_thread.thread = 3;
    ev.u.stop_thread.status = 8;
    ev.u.stop_thread.blocker = 9;
    ev.u.stop_thread.has_blocker = 1;
    ev.payload_len = 10;

    el_event_type full = type_of(EL_STOP_THREAD, 10, "Stop thread");
    ev.et = &full;
    expect_text(&ev, "stopping thread 3 (blocked on black hole owned by thread 9)");
    ev.u.stop_thread.status = 4;            /* mkStopStatus has no 4 */
    expect_text(&ev, "Stop thread");

    el_event_type small = type_of(EL_STOP_THREAD, 6, "Stop thread (old)");
    ev.et = &small;
    ev.payload_len = 6;
    ev.u.stop_thread.status = 5;
    expect_text(&ev, "Stop thread (old)");

    el_event_type shutdown = type_of(EL_SHUTDOWN, 0, "Shutdown");
    ev.type = EL_SHUTDOWN;
    ev.et = &shutdown;
    ev.payload_len = 0;
    expect_text(&ev, "Shutdown");

    el_event_type run = type_of(EL_RUN_THREAD, 4, "Run thread");
    ev.type = EL_RUN_THREAD;
    ev.et = &run;
    ev.payload_len = 4;
    ev.decoded = 0;
    expect_text(&ev, "Run thread");
    /* declared variable where ghc-events expects a fixed size */
    el_event_type var = type_of(EL_RUN_THREAD, EL_VARIABLE_SIZE, "Run thread (var)");
    ev.et = &var;
    ev.decoded = 1;
    expect_text(&ev, "Run thread (var)");
}

static void test_lines_and_types(void **state)
{
    (void)state;
    el_textbuf b;
    el_textbuf_init(&b);

    el_event_type var = type_of(167, EL_VARIABLE_SIZE, "Time profile cost-centre stack");
    el_event_type fixed = type_of(18, 14, "Block marker");
    assert_int_equal(el_show_type(&b, &var), EV_OK);
    assert_int_equal(el_show_type(&b, &fixed), EV_OK);
    const char *types = "167: Time profile cost-centre stack (size variable)"
                        "18: Block marker (size 14)";
    assert_int_equal(b.len, strlen(types));
    assert_memory_equal(b.data, types, b.len);

    el_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EL_BLOCK_MARKER;
    ev.et = &fixed;
    ev.decoded = 1;
    ev.time = 100;
    ev.cap = 2;
    ev.payload_len = 14;
    ev.u.block.cap = 2;
    ev.u.block.end_time = 250;
    el_textbuf_reset(&b);
    assert_int_equal(el_show_line(&b, &ev), EV_OK);
    ev.cap = EL_NO_CAP;
    ev.u.block.cap = EL_NO_CAP;
    assert_int_equal(el_show_line(&b, &ev), EV_OK);

    el_event_type task = type_of(EL_TASK_CREATE, 18, "Task create");
    memset(&ev, 0, sizeof ev);
    ev.type = EL_TASK_CREATE;
    ev.et = &task;
    ev.decoded = 1;
    ev.time = 7;
    ev.cap = EL_NO_CAP;
    ev.payload_len = 18;
    ev.u.task.task = 0x7fdd0ee00460u;
    ev.u.task.cap = 0;
    ev.u.task.tid = 4628350;
    assert_int_equal(el_show_line(&b, &ev), EV_OK);

    const char *lines = "100: cap 2: event block: cap 2, end time: 250\n\n"
                        "100: event block: cap 65535, end time: 250\n\n"
                        "7: task 0x7fdd0ee00460 created on cap 0 with OS kernel thread 4628350\n";
    assert_int_equal(b.len, strlen(lines));
    assert_memory_equal(b.data, lines, b.len);
    el_textbuf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_args_show_escapes),
        cmocka_unit_test(test_binary_message),
        cmocka_unit_test(test_text_fields),
        cmocka_unit_test(test_description_fallback),
        cmocka_unit_test(test_lines_and_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
